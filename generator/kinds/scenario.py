"""Kind ``scenario``: actions played from a position, each legal or not, and how the
round stands after them.

Here are the scenario's input shapes (``start``, ``actions``), its parser (1-based seats
and table meld numbers in the file, 0-based in the engine), the steps as the site
describes them (:class:`Step`), and their words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.engine.cards import Card
from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import PlayReason
from generator.engine.codes import StepResult
from generator.engine.codes import Verdict
from generator.engine.game import EVENTS
from generator.engine.game import REASONS as PLAY_REASONS
from generator.engine.game import Action
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import Outcome
from generator.engine.game import SetupError
from generator.engine.game import TableMeld
from generator.engine.game import TakeJoker
from generator.engine.game import apply
from generator.engine.game import start as start_round
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet
from generator.errors import or_list
from generator.i18n import words
from generator.i18n.explain import Words
from generator.i18n.explain import explain_round
from generator.i18n.explain import explain_seats
from generator.kinds import fields
from generator.kinds.base import Documented
from generator.kinds.base import Kind
from generator.kinds.base import Mismatch
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import at
from generator.kinds.base import check_seat_count
from generator.kinds.base import check_seat_values
from generator.kinds.base import count
from generator.kinds.base import is_int
from generator.kinds.base import leaf
from generator.kinds.base import same
from generator.kinds.base import seat_bounds
from generator.kinds.base import seat_rules
from generator.kinds.base import seat_value_rules
from generator.kinds.views import cards_view
from generator.kinds.views import round_view

SCENARIO_RESULTS: tuple[str, ...] = (StepResult.LEGAL, *EVENTS, *PLAY_REASONS)
"""What a ``scenario`` documents per action: ``legal``, an event of a legal action, or
the reason code of an illegal one (``generator.engine.game``)."""

END_REASONS: tuple[EndReason, ...] = tuple(EndReason)
"""Why a round ended (``expect.end.reason``)."""

ACTION_KEYS = ("draw", "discard", "meld", "layoff", "take_joker")
"""The steps of an action, one per list item."""

COMPANIONS = (("onto", "layoff"), ("card", "take_joker"))
"""The fields that go with one step only, and that step (which needs them)."""

_NO_STEP = f"action names no step; expected one of: {', '.join(ACTION_KEYS)}"


def _both(first: str, second: str) -> str:
    return (f"action has both {first!r} and {second!r}; expected one step per action (one "
            "list item each)")


def _missing(field: str, step: str) -> str:
    example = ("<table meld number, 1-based>" if field == "onto"
               else "<the card put in the joker's place, e.g. 6S>")
    return f"missing field {field!r} in {step} action; expected {field}: {example}"


def _no_opening(game: str) -> str:
    return (f"field 'opened' in start does not apply to game {game!r} ({game} has no "
            "opening); expected it only with " + or_list(fields.OPENING_GAMES))


_ACTION_RULES: fields.Schema = {"allOf": [
    {"anyOf": [{"required": [key], "errorMessage": _NO_STEP} for key in ACTION_KEYS]},
    *({"if": {"required": [first]},
       "then": {"properties": {second: fields.not_here(_both(first, second))
                               for second in ACTION_KEYS[i + 1:]}}}
      for i, first in enumerate(ACTION_KEYS[:-1])),
    *({"if": {"required": [step]},
       "then": {"required": [field], "errorMessage": _missing(field, step)},
       "else": {"properties": {field: fields.not_here(
           f"field {field!r} goes with {step}; expected it only in a {step} action")}}}
      for field, step in COMPANIONS),
]}
"""What :func:`_actions` checks of an action, as an editor schema says it (one step,
its companion fields with it only)."""

_START_SCHEMA: fields.Schema = {
    "type": "object",
    "x-what": "start",
    "x-expected": "a mapping of the position: hands, discard, stock (optionally table, "
    "opened, turn, turns_played, reshuffles, seed)",
    "x-example": "<hands, discard and stock, e.g. {hands: [5C 6C 7C, 2D 3D 4D], discard: QH, "
    "stock: 3D 4D}>",
    "x-name": "start",
    "properties": {
        "hands": {
            "type": "array",
            "x-what": "hands",
            "x-expected": "a list of hands, one per seat in seat order, each a list of card "
            "codes or a string of codes",
            "x-example": "<one card list per seat, seat 1 first>",
            "items": fields.card_list("hand"),
        },
        "discard": fields.card_list("discard", may_be_empty=True),
        "stock": fields.card_list("stock", may_be_empty=True),
        "table": {
            "type": "array",
            "x-what": "table",
            "x-expected": "a list of melds on the table, each {seat: N, cards: ...}",
            "items": {
                "type": "object",
                "x-what": "table meld",
                "x-expected": "a mapping {seat: N, cards: ...}",
                "x-name": "table meld",
                "properties": {
                    "seat": fields.integer("seat", minimum=1,
                                           example="<the seat that laid it>"),
                    "cards": fields.card_list("cards"),
                },
                "required": ["seat", "cards"],
                "additionalProperties": False,
            },
        },
        "opened": {
            "type": "array",
            "x-what": "opened",
            "x-expected": "a list of true or false, one per seat",
            "items": fields.boolean("opened flag"),
        },
        "turn": fields.integer("turn", minimum=1),
        "turns_played": fields.integer("turns_played"),
        "reshuffles": fields.integer("reshuffles"),
        "seed": fields.integer("seed"),
    },
    "required": ["hands", "discard", "stock"],
    "additionalProperties": False,
}
"""``start``: the position the actions are played from."""

_ACTION_SCHEMA: fields.Schema = {
    "type": "object",
    "x-what": "action",
    "x-expected": "a mapping with one step: draw, discard, meld, layoff (with onto) or "
    "take_joker (with card)",
    "x-name": "action",
    "properties": {
        "draw": fields.enum("draw source", ("stock", "discard")),
        "discard": fields.card("discard", "one card code such as QH"),
        "meld": fields.card_list("meld"),
        "layoff": fields.card_list("layoff"),
        "onto": fields.integer("onto", minimum=1, example="<table meld number, 1-based>"),
        "take_joker": fields.integer("take_joker", minimum=1,
                                     example="<table meld number, 1-based>"),
        "card": fields.card("card", "one card code such as 6S (the card put in the joker's "
                            "place)"),
    },
    "additionalProperties": False,
}
"""One item of ``actions`` (which keys go together :func:`_actions` checks)."""

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


@dataclass(frozen=True)
class ScenarioInput:
    """Inputs of a scenario.

    Attributes:
        start: the position, built by :func:`generator.engine.game.start` (0-based seats
            and table melds).
        actions: the steps, as engine actions (``LayOff.onto``, ``TakeJoker.onto``
            0-based).
    """

    start: GameState
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class ScenarioRun:
    """A scenario played through the engine.

    Attributes:
        start: the position before the first action.
        outcomes: the engine's outcome of each action, in order (an illegal action leaves
            the state as it was and the next action is tried on it).
    """

    start: GameState
    outcomes: tuple[Outcome, ...]

    @property
    def final(self) -> GameState:
        """The state after the last action."""
        return self.outcomes[-1].state if self.outcomes else self.start


def result_code(outcome: Outcome) -> str:
    """What the engine gives for one action, as a scenario's ``results`` shows it: the
    reason code of an illegal action, the events of a legal one joined by ``+``
    (``opened+round_over``), or ``legal``."""
    if not outcome.legal:
        return outcome.reason or StepResult.ILLEGAL
    return "+".join(outcome.events) if outcome.events else StepResult.LEGAL


def documented_result(outcome: Outcome) -> str:
    """What a case file documents for one action, agreeing with the engine: the reason
    code of an illegal action, the first event of a legal one, or ``legal``."""
    if not outcome.legal:
        return str(outcome.reason or StepResult.ILLEGAL)
    return str(outcome.events[0]) if outcome.events else str(StepResult.LEGAL)


def result_agrees(documented: str, outcome: Outcome) -> bool:
    """A documented result agrees with an outcome when it is ``legal`` and the action is
    legal, an event the legal action caused, or the reason the action is illegal."""
    if documented == StepResult.LEGAL:
        return outcome.legal
    if outcome.legal:
        return documented in outcome.events
    return documented == outcome.reason


# -- reading -------------------------------------------------------------------------


def _read_cards(reader: Reader) -> None:
    """The cards of ``start`` are the cards in play (counted for copies); those of
    ``actions`` name cards of the position (not counted)."""
    start = reader.value.get("start")
    if isinstance(start, dict):
        hands = start.get("hands")
        if isinstance(hands, list):
            for index, hand in enumerate(hands):
                reader.card_list(hand, ("start", "hands", index), "hand")
        for name in ("discard", "stock"):
            if name in start:
                reader.card_list(start[name], ("start", name), name, may_be_empty=True)
        table = start.get("table")
        if isinstance(table, list):
            for index, meld in enumerate(table):
                if isinstance(meld, dict) and "cards" in meld:
                    reader.card_list(meld["cards"], ("start", "table", index, "cards"),
                                     "cards")
    actions = reader.value.get("actions")
    if not isinstance(actions, list):
        return
    for index, item in enumerate(actions):
        if not isinstance(item, dict):
            continue
        for key in ("meld", "layoff"):
            if key in item:
                reader.card_list(item[key], ("actions", index, key), key, count=False)
        for key in ("discard", "card"):
            code = item.get(key)
            if isinstance(code, str):
                rel = ("actions", index, key)
                card = reader.read_card(rel, code, count=False)
                if card is not None:
                    reader.parsed[rel] = (card,)


def _start(reader: Reader, start: dict[str, Any], seats: int,
           rules: RuleSet) -> GameState | None:
    """The start position as the engine's state, or ``None`` after an error."""
    where = ("start",)
    check_seat_count(reader, (*where, "hands"), seats, rules)
    opened = start.get("opened")
    if "opened" in start and rules.opening_threshold is None:
        reader.error((*where, "opened"), _no_opening(rules.game), at_key=True)
    elif isinstance(opened, list) and len(opened) != seats:
        reader.error((*where, "opened"), f"opened lists {count(len(opened), 'flag')}; "
                     f"expected one per seat ({seats}, as in hands)")
    turn = start.get("turn", 1)
    if is_int(turn) and turn > seats:
        reader.error((*where, "turn"), f"turn {turn} is not a seat; expected a seat number "
                     f"from 1 to {seats}")
    table = _table(reader, start.get("table"), seats, rules)
    reshuffles = start.get("reshuffles", 0)
    if is_int(reshuffles) and reshuffles > rules.max_reshuffles:
        most = rules.max_reshuffles
        expected = (f"0 ({rules.game} never reshuffles the stock)" if not most else
                    f"0 to {most} ({rules.game} reshuffles the stock at most {most} "
                    "times a round)")
        reader.error((*where, "reshuffles"), f"reshuffles {reshuffles}; expected {expected}")
    turns_played = start.get("turns_played", 0)
    limit = rules.turn_limit
    if is_int(turns_played) and limit is not None and turns_played >= limit:
        reader.error((*where, "turns_played"), f"turns_played {turns_played}; expected 0 to "
                     f"{limit - 1} (the round ends after {limit} turns)")
    hands = [reader.parsed.get((*where, "hands", i)) for i in range(seats)]
    discard = reader.parsed.get((*where, "discard"))
    stock = reader.parsed.get((*where, "stock"))
    if reader.failed or table is None or discard is None or stock is None:
        return None  # the case is dropped: said already
    try:
        return start_round(
            rules, [h for h in hands if h is not None], discard, stock, table,
            opened=tuple(opened) if isinstance(opened, list) else None,
            turn=turn - 1, turns_played=turns_played, reshuffles=reshuffles,
            seed=start.get("seed", 0),
        )
    except SetupError as exc:
        reader.error(where, f"start: {exc}")
        return None


def _table(reader: Reader, value: object, seats: int,
           rules: RuleSet) -> list[TableMeld] | None:
    """The melds on the table at the start (owners 0-based), or ``None`` after an
    error."""
    if value is None:
        return []
    if not isinstance(value, list):
        return None
    table: list[TableMeld] = []
    ok = True
    for index, meld in enumerate(value):
        rel = ("start", "table", index)
        seat = meld.get("seat") if isinstance(meld, dict) else None
        cards = reader.parsed.get((*rel, "cards"))
        if not is_int(seat) or cards is None:
            ok = False
            continue
        if seat > seats:
            ok = False
            reader.error((*rel, "seat"), f"seat {seat} is not a seat of this round; expected "
                         f"a seat number from 1 to {seats}")
        if not rules.has_jokers and any(c.is_joker for c in cards):
            ok = False
            continue  # said already
        result = check_meld(cards, rules)
        if not result.valid:
            assert result.reason is not None
            ok = False
            codes = " ".join(c.code for c in cards)
            reader.error((*rel, "cards"), f"meld {codes} is not a valid meld "
                         f"({result.reason}); expected a meld that could lie on the "
                         "table")
        table.append(TableMeld(cards, seat - 1))
    return table if ok else None


def _actions(reader: Reader, actions: list[Any]) -> tuple[Action, ...] | None:
    """The actions as the engine's, or ``None`` after an error (each reported)."""
    steps: list[Action] = []
    for index, item in enumerate(actions):
        if not isinstance(item, dict):
            continue  # the schema has said so
        rel = ("actions", index)
        keys = [key for key in item if key in ACTION_KEYS]
        if not keys:
            reader.error(rel, _NO_STEP)
            continue
        for extra in keys[1:]:
            reader.error((*rel, extra), _both(keys[0], extra), at_key=True)
        key = keys[0]
        for field, owner in COMPANIONS:
            if field in item and key != owner:
                reader.error((*rel, field), f"field {field!r} goes with {owner}, not {key}; "
                             f"expected it only in a {owner} action", at_key=True)
            if key == owner and field not in item:
                reader.error(rel, _missing(field, owner))
        action = _action(reader, key, item, rel)
        if action is not None:
            steps.append(action)
    return tuple(steps) if len(steps) == len(actions) else None


def _action(reader: Reader, key: str, item: dict[str, Any],
            rel: tuple[str | int, ...]) -> Action | None:
    """One action as the engine's (table meld numbers made 0-based), or ``None`` where a
    value is wrong (reported by the schema or the card checks)."""
    value = item[key]
    onto = item.get("onto")
    if key == "draw":
        return Draw(value) if value in ("stock", "discard") else None
    if key == "discard":
        card = reader.parsed.get((*rel, "discard"))
        return Discard(card[0]) if card else None
    if key == "meld":
        cards = reader.parsed.get((*rel, "meld"))
        return Meld(cards) if cards else None
    if key == "layoff":
        cards = reader.parsed.get((*rel, "layoff"))
        return LayOff(cards, onto - 1) if cards and is_int(onto) and onto >= 1 else None
    card = reader.parsed.get((*rel, "card"))
    if card and is_int(value) and value >= 1:
        return TakeJoker(value - 1, card[0])
    return None


# -- words ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a scenario as the site describes it.

    Attributes:
        num: the action's number, from 1.
        seat: the seat that acted, from 1.
        code: the message of the action (:data:`generator.i18n.words.ACTIONS`).
        params: the message's numbers other than the cards (``num``: a table meld).
        cards: the cards the action names (for a draw: the card drawn, when known).
        outcome: the engine's outcome.
    """

    num: int
    seat: int
    code: str
    params: dict[str, int]
    cards: tuple[Card, ...]
    outcome: Outcome


def scenario_steps(run: ScenarioRun) -> list[Step]:
    """The actions of a scenario with who played them and the cards they name."""
    return [scenario_step(run, index) for index in range(len(run.outcomes))]


def scenario_step(run: ScenarioRun, index: int) -> Step:
    """The action at ``index`` (from 0) of a scenario, with who played it and the cards
    it names: from the state before it, so one step costs the same whatever its place."""
    state = run.outcomes[index - 1].state if index else run.start
    outcome = run.outcomes[index]
    seat = state.turn
    action = outcome.action
    params: dict[str, int] = {}
    if isinstance(action, Draw):
        after = outcome.state
        drawn = (after.hands[seat][-1:] if outcome.legal and after.end is None
                 and after.hands[seat] else ())
        code = f"draw_{action.source}" + ("" if drawn else "_none")
        cards: tuple[Card, ...] = tuple(drawn)
    elif isinstance(action, Meld):
        code, cards = "meld", action.cards
    elif isinstance(action, LayOff):
        code, cards, params = "layoff", action.cards, {"num": action.onto + 1}
    elif isinstance(action, TakeJoker):
        code, cards, params = "take_joker", (action.card,), {"num": action.onto + 1}
    else:
        assert isinstance(action, Discard)
        code, cards = "discard", (action.card,)
    return Step(index + 1, seat + 1, code, params, cards, outcome)


def _reason(code: str, w: Words) -> str:
    """The words of a reason code (every code has them: ``tests/test_codes.py``)."""
    return w.code("reason", code)


def explain_step(step: Step, w: Words) -> list[str]:
    """One action: who did what, whether it was allowed, then its events or why not."""
    action = w.code("action", step.code, seat=w.seat(step.seat),
                    cards=" ".join(c.label for c in step.cards), **step.params)
    outcome = step.outcome
    if not outcome.legal:
        out = [w.code("explanation", "step_not_allowed", num=step.num, action=action)]
        out.extend(refusal_reasons(step, w))
        return out
    out = [w.code("explanation", "step_allowed", num=step.num, action=action)]
    out.extend(step_events(step, w))
    return out


def refusal_reasons(step: Step, w: Words) -> list[str]:
    """Why an action was refused: its reason; for an invalid meld, the meld's own reason
    in its place (the code's words, "One of the melds is not valid.", are a first meld's,
    and an action lays one meld)."""
    outcome = step.outcome
    if outcome.reason is PlayReason.INVALID_MELD and outcome.detail:
        return [_reason(outcome.detail, w)]
    return [_reason(outcome.reason, w)] if outcome.reason else []


def step_events(step: Step, w: Words) -> list[str]:
    """The events of a legal action, in order (a returned opening with its reason)."""
    out: list[str] = []
    for event in step.outcome.events:
        out.append(w.code("event", event))
        if event is Event.OPENING_RETURNED and step.outcome.detail:
            out.append(_reason(step.outcome.detail, w))
    return out


def explain_end(run: ScenarioRun, w: Words) -> list[str]:
    """The round after the last action: why it ended, each seat's hand value, the winner
    and the scores; or whose turn it is."""
    final = run.final
    end = final.end
    if end is None:
        return [w.code("explanation", "round_goes_on", seat=w.seat(final.turn + 1))]
    out: list[str] = []
    if end.reason in words.END_REASONS:
        out.append(w.code("end", end.reason))
    out.extend(explain_round(final.hands, end.result, final.rules, w))
    return out


_CARDS_HERE = "\x00"
"""Stands for the cards in an action's message until the template draws them there."""

_SEAT_HERE = "\x01"
"""Stands for the seat's name in an action's message until the template shows it there."""


def _action_parts(step: Step, w: Words) -> list[View]:
    """An action's sentence in the order the language writes it, as parts for the
    template: ``{"text"}``, ``{"seat"}`` (the seat's name as it opens a sentence) and
    ``{"cards"}`` (card views, drawn where the message has ``%(cards)s``)."""
    text = w.code("action", step.code, seat=_SEAT_HERE, cards=_CARDS_HERE, **step.params)
    parts: list[View] = []
    for piece in re.split(f"([{_SEAT_HERE}{_CARDS_HERE}])", text):
        if piece == _SEAT_HERE:
            parts.append({"seat": w.seat(step.seat, opens_sentence=True)})
        elif piece == _CARDS_HERE:
            parts.append({"cards": cards_view(step.cards, w, words.CARD_OBJECT_CONTEXT)})
        elif piece:
            parts.append({"text": piece})
    return parts


# -- the kind ------------------------------------------------------------------------


class ScenarioKind(Kind[ScenarioInput, ScenarioRun]):
    """A scenario: ``start``, ``actions`` → each action's result, the round's end."""

    name = "scenario"
    inputs = fields.frozen({
        "start": fields.FieldSpec(_START_SCHEMA),
        "actions": fields.FieldSpec({
            "type": "array",
            "x-what": "actions",
            "x-expected": "a list of actions, each a mapping with one step (draw, "
            "discard, meld, layoff, take_joker)",
            "x-example": "<a list of actions, e.g. [{draw: stock}, {discard: QH}]>",
            "items": _ACTION_SCHEMA,
            "minItems": 1,
            "x-messages": {"minItems": "actions is empty; expected at least one action"},
        }),
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

    def read(self, reader: Reader) -> None:
        _read_cards(reader)

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        """``start``: one hand per seat; ``opened`` (Rami only), ``turn``, the table's
        ``seat`` and ``expect.end`` fit the seats; ``reshuffles`` and ``turns_played``
        within the game's limits; each action one step (:data:`_ACTION_RULES`)."""
        limit = rules.turn_limit
        start: fields.Schema = {
            "hands": seat_bounds(rules),
            "reshuffles": {"maximum": rules.max_reshuffles},
            **({"turns_played": {"maximum": limit - 1}} if limit is not None else {}),
            **({"opened": fields.not_here(_no_opening(rules.game))}
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

        return {"properties": {"start": {"properties": start}, "actions": {"items": _ACTION_RULES}},
                "allOf": seat_rules(("start", "hands"), rules, fits)}

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
            state = _start(reader, start, seats, rules)
        if isinstance(actions, list):
            steps = _actions(reader, actions)
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
                "parts": _action_parts(step, w),
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
