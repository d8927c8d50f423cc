"""Kind ``scenario``: actions played from a position, each legal or not, and how the
round stands after them.

Its inputs (``start``, ``actions``) and their reading are in
:mod:`generator.kinds.scenario_input`, the steps played and their words in
:mod:`generator.kinds.scenario_steps`; here are its ``expect`` fields and the kind.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from generator.engine.cards import JOKER
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.cards import all_cards
from generator.engine.codes import EndReason
from generator.engine.codes import StepResult
from generator.engine.codes import Verdict
from generator.engine.game import EVENTS
from generator.engine.game import REASONS as PLAY_REASONS
from generator.engine.game import Outcome
from generator.engine.game import apply
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.explain import explain_seats
from generator.kinds import fields
from generator.kinds.base import Documented
from generator.kinds.base import Kind
from generator.kinds.base import Mismatch
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import at
from generator.kinds.base import check_seat_values
from generator.kinds.base import count
from generator.kinds.base import leaf
from generator.kinds.base import same
from generator.kinds.base import seat_bounds
from generator.kinds.base import seat_rules
from generator.kinds.base import seat_value_rules
from generator.kinds.scenario_input import ACTION_RULES
from generator.kinds.scenario_input import ACTION_SCHEMA
from generator.kinds.scenario_input import START_SCHEMA
from generator.kinds.scenario_input import ScenarioInput
from generator.kinds.scenario_input import no_opening
from generator.kinds.scenario_input import read_actions
from generator.kinds.scenario_input import read_start
from generator.kinds.scenario_steps import ScenarioRun
from generator.kinds.scenario_steps import action_parts
from generator.kinds.scenario_steps import documented_result
from generator.kinds.scenario_steps import explain_end
from generator.kinds.scenario_steps import explain_step
from generator.kinds.scenario_steps import refusal_reasons
from generator.kinds.scenario_steps import result_agrees
from generator.kinds.scenario_steps import result_code
from generator.kinds.scenario_steps import scenario_step
from generator.kinds.scenario_steps import scenario_steps
from generator.kinds.scenario_steps import step_events
from generator.kinds.views import cards_view
from generator.kinds.views import round_view

SCENARIO_RESULTS: tuple[str, ...] = (StepResult.LEGAL, *EVENTS, *PLAY_REASONS)
"""What a ``scenario`` documents per action: ``legal``, an event of a legal action, or
the reason code of an illegal one (``generator.engine.game``)."""

END_REASONS: tuple[EndReason, ...] = tuple(EndReason)
"""Why a round ended (``expect.end.reason``)."""

_END_SCHEMA: fields.Schema = {
    "type": "object",
    "x-what": "end",
    "x-expected": "a mapping of round_over, reason, winner, scores",
    "x-name": "end",
    "properties": {
        "round_over": fields.boolean("round_over"),
        "reason": fields.enum("end reason", END_REASONS),
        "winner": fields.integer("winner", minimum=1, example="<a seat number>"),
        "scores": fields.integer_list("scores", "score"),
    },
    "additionalProperties": False,
    "minProperties": 1,
    "x-messages": {"minProperties": "end is empty; expected round_over, reason, winner or "
                   "scores"},
}
"""``expect.end``: the round after the last action."""

# -- the kind ------------------------------------------------------------------------


class ScenarioKind(Kind[ScenarioInput, ScenarioRun]):
    """A scenario: ``start``, ``actions`` → each action's result, the round's end."""

    name = "scenario"
    inputs = fields.frozen({
        "start": fields.FieldSpec(START_SCHEMA, shape="within"),
        "actions": fields.FieldSpec({
            "type": "array",
            "x-what": "actions",
            "x-expected": "a list of actions, each a mapping with one step (draw, "
            "discard, meld, layoff, take_joker)",
            "x-example": "<a list of actions, e.g. [{draw: stock}, {discard: QH}]>",
            "items": ACTION_SCHEMA,
            "minItems": 1,
            "x-messages": {"minItems": "actions is empty; expected at least one action"},
        }, shape="within", in_play=False),
    })
    expect = fields.frozen({
        "results": fields.FieldSpec({
            "type": "array",
            "x-what": "results",
            "x-expected": "a list with one result per action",
            "x-example": "<one result per action: legal, an event or a reason code>",
            "items": fields.enum("result", SCENARIO_RESULTS, context="scenario"),
        }),
        "end": fields.FieldSpec(_END_SCHEMA),
    })
    required_expect = ("results",)
    with_verdict = ()

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        """``start``: one hand per seat; ``opened`` (Rami only), ``turn``, the table's
        ``seat`` and ``expect.end`` fit the seats; ``reshuffles`` and ``turns_played``
        within the game's limits; each action one step (:data:`ACTION_RULES`)."""
        limit = rules.turn_limit
        start: fields.Schema = {
            "hands": seat_bounds(rules),
            "reshuffles": {"maximum": rules.max_reshuffles},
            **({"turns_played": {"maximum": limit - 1}} if limit is not None else {}),
            **({"opened": fields.not_here(no_opening(rules.game))}
               if rules.opening_threshold is None else {}),
        }

        def fits(seats: int) -> fields.Schema:
            flags = {"opened": {"minItems": seats, "maxItems": seats}} \
                if rules.opening_threshold is not None else {}
            return {"properties": {
                "start": {"properties": {
                    **flags, "turn": {"maximum": seats},
                    "table": {"items": {"properties": {"seat": {"maximum": seats}}}}}},
                "expect": at(("end",), seat_value_rules(seats))}}

        return {"properties": {"start": {"properties": start}, "actions": {"items": ACTION_RULES}},
                "allOf": seat_rules(("start", "hands"), rules, fits)}

    def sample(self, rules: RuleSet, rng: random.Random) -> dict[str, Any] | None:
        """A short random turn or two from a small random position: hands of 3 to 8
        cards, a discard pile and a stock, now and then a run on the table and (Rami)
        the seats' opened flags; seat 1 draws, may meld three of its cards or lay one off,
        and discards; now and then seat 2 draws and discards too. Many such actions are
        illegal: their results are reason codes."""
        start = _sample_start(rules, rng)
        actions: list[dict[str, Any]] = []
        for seat in range(2 if rng.random() < 0.4 else 1):
            actions += _sample_turn(start, seat, rng)
        return {"start": start, "actions": actions}

    def check(self, reader: Reader, rules: RuleSet | None) -> ScenarioInput | None:
        """The start position (1-based seats and numbers, checked here with their
        positions; the rest by :func:`generator.engine.game.start`), the actions (one
        step each, with the fields that step needs), ``results`` with one entry per
        action and ``end`` that fits the seats."""
        if rules is None:
            return None
        start = reader.value.get("start")
        actions = reader.value.get("actions")
        seats = None
        state = steps = None
        if isinstance(start, dict) and isinstance(start.get("hands"), list):
            seats = len(start["hands"])
            state = read_start(reader, start, seats, rules)
        if isinstance(actions, list):
            steps = read_actions(reader, actions)
        expect = reader.value.get("expect")
        if isinstance(expect, dict):
            results = expect.get("results")
            if isinstance(results, list) and isinstance(actions, list) \
                    and len(results) != len(actions):
                reader.error(("expect", "results"), f"results lists "
                             f"{count(len(results), 'result')}; expected one per action "
                             f"({len(actions)}, as in actions)")
            end = expect.get("end")
            if isinstance(end, dict) and seats is not None:
                check_seat_values(reader, end, ("expect", "end"), seats, "start hands")
        if state is None or steps is None:
            return None
        return ScenarioInput(state, steps)

    def run(self, inputs: ScenarioInput, rules: RuleSet) -> ScenarioRun:
        state = inputs.start
        outcomes: list[Outcome] = []
        for action in inputs.actions:
            outcome = apply(state, action)
            outcomes.append(outcome)
            state = outcome.state
        return ScenarioRun(inputs.start, tuple(outcomes))

    def values(self, inputs: ScenarioInput, result: ScenarioRun) -> dict[str, Value]:
        """``results[N]`` (N from 1, as the actions are numbered) and ``end.*``."""
        values: dict[str, Value] = {
            f"results[{n}]": result_code(o) for n, o in enumerate(result.outcomes, start=1)}
        end = result.final.end
        values["end.round_over"] = end is not None
        values["end.reason"] = end.reason if end else None
        values["end.winner"] = end.result.winner if end else None
        values["end.scores"] = end.result.scores if end else None
        return values

    def documented(self, inputs: ScenarioInput, result: ScenarioRun,
                   values: Mapping[str, Value]) -> dict[str, Any]:
        """``results`` (one per action: :func:`documented_result`) and ``end`` (whether
        the round is over and, when it is, why, the winner and the scores)."""
        end = result.final.end
        documented_end: dict[str, Any] = {"round_over": end is not None}
        if end is not None:
            documented_end.update(reason=str(end.reason), winner=end.result.winner,
                                  scores=list(end.result.scores))
        return {"results": [documented_result(o) for o in result.outcomes],
                "end": documented_end}

    def mismatches(self, expect: Mapping[str, Documented], result: ScenarioRun,
                   values: Mapping[str, Value]) -> Iterator[Mismatch]:
        """Each documented result against its action's outcome, then each documented
        ``end`` field; a mismatch names ``results[N]`` (N from 1) or ``end.FIELD``."""
        results = expect.get("results", ())  # none: a case explain fills in
        assert isinstance(results, tuple)
        for index, (documented, outcome) in enumerate(
                zip(results, result.outcomes, strict=bool(results))):
            if isinstance(documented, str) and not result_agrees(documented, outcome):
                yield Mismatch(f"results[{index + 1}]", documented, result_code(outcome),
                               f"expect.results.{index}")
        end = expect.get("end")
        if isinstance(end, Mapping):
            for name, value in end.items():
                engine = values.get(f"end.{name}")
                if not same(value, engine):
                    yield Mismatch(f"end.{name}", leaf(value), engine, f"expect.end.{name}")

    def explain(self, inputs: ScenarioInput, result: ScenarioRun, rules: RuleSet,
                w: Words) -> list[str]:
        """Every action, then the end."""
        out: list[str] = []
        for step in scenario_steps(result):
            out.extend(explain_step(step, w))
        return out + explain_end(result, w)

    def explain_mismatch(self, field: str, inputs: ScenarioInput, result: ScenarioRun,
                         values: Mapping[str, Value], rules: RuleSet,
                         w: Words) -> list[str]:
        """The action the mismatch is about (``results[N]``), or the end (``end.*``)."""
        if field.startswith("results[") and field.endswith("]"):
            index = int(field[len("results["):-1]) - 1
            if 0 <= index < len(result.outcomes):
                return explain_step(scenario_step(result, index), w)
        if field.startswith("end."):
            return explain_end(result, w)
        return super().explain_mismatch(field, inputs, result, values, rules, w)

    def row(self, inputs: ScenarioInput, result: ScenarioRun, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """The start position, the steps (what each seat did, the cards, allowed or not
        and why) and the end (``seats``, ``winner_text`` when the round is over)."""
        start = result.start
        rami = start.rules.opening_threshold is not None
        view: View = {
            "start_seats": [
                {"label": w.text("Seat %(seat)s", seat=seat + 1), "cards": cards_view(hand, w),
                 "opened": rami and start.opened[seat], "turn": seat == start.turn}
                for seat, hand in enumerate(start.hands)
            ],
            "start_discard": cards_view(start.discard, w),
            "start_stock": cards_view(start.stock, w),
            "start_table": [
                {"num": num, "label": w.text("Seat %(seat)s", seat=meld.owner + 1),
                 "cards": cards_view(meld.cards, w)}
                for num, meld in enumerate(start.table, start=1)
            ],
            "seats": [],
            "winner_text": "",
        }
        steps = []
        for step in scenario_steps(result):
            outcome = step.outcome
            notes = step_events(step, w) if outcome.legal else refusal_reasons(step, w)
            steps.append({
                "num": step.num,
                "parts": action_parts(step, w),
                "ok": outcome.legal,
                "result_text": w.code("verdict", Verdict.ALLOWED) if outcome.legal
                else w.text("Not allowed"),
                "notes": notes,
            })
        view["steps"] = steps
        data = {"results": " ".join(result_code(o) for o in result.outcomes)}
        final = result.final
        end = final.end
        if end is not None:
            ended = round_view(final.hands, end.result, w)
            data.update(ended.pop("data"))
            view.update(ended)
        view["data"] = data
        hand_lines = set(explain_seats(final.hands, final.rules, w)) if end else set()
        view["end_reasoning"] = [r for r in explain_end(result, w) if r not in hand_lines]
        return view

    def shown(self, inputs: ScenarioInput, result: ScenarioRun, rules: RuleSet,
              w: Words) -> set[str]:
        return set(self.explain(inputs, result, rules, w))  # the steps and the end


KIND = ScenarioKind()


def _sample_start(rules: RuleSet, rng: random.Random) -> dict[str, Any]:
    """:meth:`ScenarioKind.sample`'s position: the game's decks shuffled, hands of 3 to
    8 cards for its fewest seats, a discard pile of 1 or 2 and a stock of 1 to 6, half
    the time a run of three on the table, and (Rami) the seats' opened flags."""
    decks = max(row.decks for row in rules.deck)
    jokers = max(row.jokers for row in rules.deck)
    pile = [c.code for c in all_cards() for _ in range(decks)] + [JOKER.code] * jokers
    rng.shuffle(pile)
    seats = rules.min_players

    def take(n: int) -> list[str]:
        return [pile.pop() for _ in range(min(n, len(pile)))]

    start: dict[str, Any] = {"hands": [take(rng.randint(3, 8)) for _ in range(seats)],
                             "discard": take(rng.randint(1, 2)),
                             "stock": take(rng.randint(1, 6))}
    if rng.random() < 0.5:
        ranks = sorted(Rank, key=lambda rank: rank.value)
        suit, low = rng.choice([s.value for s in Suit]), rng.randint(1, 9)
        run = [ranks[low + i].code + suit for i in range(3)]
        if all(code in pile for code in run):
            for code in run:
                pile.remove(code)
            start["table"] = [{"seat": seats, "cards": run}]
    if rules.opening_threshold is not None:
        start["opened"] = [rng.random() < 0.6 for _ in range(seats)]
    return start


def _sample_turn(start: dict[str, Any], seat: int, rng: random.Random
                 ) -> list[dict[str, Any]]:
    """:meth:`ScenarioKind.sample`'s turn of ``seat`` (from 0) in ``start``: a draw,
    for seat 1 half the time a meld of three of its cards or a lay-off onto the table's
    run, and a discard."""
    hand = list(start["hands"][seat])
    drawn = [*start["discard"][-1:], *start["stock"][:1], *start["stock"][-1:]]
    actions: list[dict[str, Any]] = [{"draw": rng.choice(("stock", "discard"))}]
    if seat == 0 and rng.random() < 0.5 and len(hand) >= 3:
        meld = rng.sample(hand, 3)
        actions.append({"meld": meld})
        for code in meld:
            hand.remove(code)
    elif seat == 0 and "table" in start and rng.random() < 0.5:
        card = rng.choice(hand)
        actions.append({"layoff": [card], "onto": 1})
        hand.remove(card)
    actions.append({"discard": rng.choice(hand + drawn)})
    return actions
