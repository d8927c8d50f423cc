"""Verify cases: each case through the engine, compared field by field with what it documents.

The result of a case holds the engine's own values (what the pages show), the
reasoning behind them as codes (turned into words by :mod:`generator.i18n.explain`)
and the disagreements with the documented values (SITE.md, "Command line").
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from generator.cases.model import Case
from generator.cases.model import Documented
from generator.cases.model import Position
from generator.engine.best import BestOpening
from generator.engine.best import best_opening
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.deck import deck
from generator.engine.game import Action
from generator.engine.game import GameState
from generator.engine.game import Outcome
from generator.engine.game import apply
from generator.engine.hand import RoundResult
from generator.engine.hand import hand_value
from generator.engine.hand import score_round
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.opening import OpeningResult
from generator.engine.opening import check_opening
from generator.engine.table import LayoffResult
from generator.engine.table import SwapResult
from generator.engine.table import check_joker_swap
from generator.engine.table import check_layoff

Value = str | int | bool | tuple[int, ...] | None
"""An engine or documented value: a code (``"valid"``, ``"wraps_around"``), a card code
(``"6S"``), a number of points or cards, a list of numbers (``scores``, a tuple), or
``None`` where the engine gives none."""


@dataclass(frozen=True)
class Disagreement:
    """A documented value that the engine does not give.

    Attributes:
        case: the case.
        field: the ``expect`` field, e.g. ``"points"``.
        documented: the value the case file states.
        engine: the engine's value; ``None`` when the engine gives none.
        position: where the field is documented (the case, when the field is missing).
    """

    case: Case
    field: str
    documented: Value
    engine: Value
    position: Position


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
        return outcome.reason or "illegal"
    return "+".join(outcome.events) if outcome.events else "legal"


def result_agrees(documented: str, outcome: Outcome) -> bool:
    """A documented result agrees with an outcome when it is ``legal`` and the action is
    legal, an event the legal action caused, or the reason the action is illegal."""
    if documented == "legal":
        return outcome.legal
    if outcome.legal:
        return documented in outcome.events
    return documented == outcome.reason


@dataclass(frozen=True)
class CaseResult:
    """The engine's answer for one case.

    Attributes:
        case: the case.
        values: the engine's value of every ``expect`` field of the kind (``None`` where it
            gives none), e.g. ``{"verdict": "valid", "type": "run", "points": 31, "reason": None}``.
        meld: the meld verdict (kind ``meld``); for ``layoff`` and ``joker_swap``, the
            verdict on the meld on the table before (which card its joker stands for).
        opening: the opening verdict (kind ``first_meld``).
        layoff: the lay-off verdict (kind ``layoff``).
        swap: the verdict on taking back the joker (kind ``joker_swap``).
        round: the round's scoring (kind ``round``).
        best: the best opening of the hand (kind ``best_opening``).
        scenario: the scenario played through (kind ``scenario``).
        disagreements: the documented values the engine does not give, in field order.
    """

    case: Case
    values: Mapping[str, Value]
    meld: MeldResult | None = None
    opening: OpeningResult | None = None
    disagreements: tuple[Disagreement, ...] = field(default=())
    layoff: LayoffResult | None = None
    swap: SwapResult | None = None
    round: RoundResult | None = None
    best: BestOpening | None = None
    scenario: ScenarioRun | None = None

    @property
    def verdict(self) -> str | None:
        """The engine's verdict code, where the kind has one."""
        v = self.values.get("verdict")
        return v if isinstance(v, str) else None

    @property
    def points(self) -> int | None:
        """The engine's points, where there are any."""
        v = self.values.get("points")
        return v if isinstance(v, int) else None


def _meld_values(result: MeldResult) -> dict[str, Value]:
    return {
        "verdict": "valid" if result.valid else "invalid",
        "type": result.type.value if result.type else None,
        "points": result.points,
        "reason": result.reason.value if result.reason else None,
    }


def _opening_values(result: OpeningResult) -> dict[str, Value]:
    return {
        "verdict": "accepted" if result.accepted else "rejected",
        "points": result.points,
        "reason": result.reason.value if result.reason else None,
    }


def _layoff_values(result: LayoffResult) -> dict[str, Value]:
    return {
        "verdict": "valid" if result.valid else "invalid",
        "points": result.points,
        "reason": result.reason.value if result.reason else None,
    }


def _swap_values(result: SwapResult) -> dict[str, Value]:
    return {
        "verdict": "allowed" if result.allowed else "rejected",
        "joker_stands_for": result.stands_for.code if result.stands_for else None,
        "reason": result.reason.value if result.reason else None,
    }


def _round_values(result: RoundResult) -> dict[str, Value]:
    return {"winner": result.winner, "scores": result.scores}


def agrees(name: str, documented: Documented, engine: Value) -> bool:
    """Whether a documented ``expect`` value is the engine's: cards compare as cards
    (``joker_stands_for: 6s`` is the engine's ``6S``), lists item by item, the rest as
    values (``True`` is not ``1``)."""
    if name == "joker_stands_for" and isinstance(documented, str) and engine is not None:
        try:
            return parse_card(documented).code == engine
        except CardCodeError:  # pragma: no cover - the loader has checked the code
            return False
    if isinstance(documented, bool) or isinstance(engine, bool):
        return type(documented) is type(engine) and documented == engine
    return documented == engine


def verify_case(case: Case) -> CaseResult:
    """Run one case through the engine and compare every documented field.

    Args:
        case: a loaded case (its inputs already checked by the loader).

    Returns:
        A :class:`CaseResult` with the engine's values and the disagreements.
    """
    rules = case.rule_set()
    meld = opening = layoff = swap = round_result = best = scenario = None
    values: dict[str, Value]
    if case.kind == "meld":
        assert case.cards is not None
        meld = check_meld(case.cards, rules)
        values = _meld_values(meld)
    elif case.kind == "first_meld":
        assert case.melds is not None
        opening = check_opening(case.melds, rules)
        values = _opening_values(opening)
    elif case.kind == "deck":
        assert case.players is not None
        d = deck(rules, case.players)
        values = {"decks": d.decks, "jokers": d.jokers, "cards": d.cards,
                  "hand_size": d.hand_size}
    elif case.kind == "hand":
        assert case.cards is not None
        values = {"points": hand_value(case.cards, rules)}
    elif case.kind == "layoff":
        assert case.meld is not None and case.cards is not None
        meld = check_meld(case.meld, rules)
        layoff = check_layoff(case.meld, case.cards, rules, opened=case.opened is not False)
        values = _layoff_values(layoff)
    elif case.kind == "joker_swap":
        assert case.meld is not None and case.card is not None
        meld = check_meld(case.meld, rules)
        swap = check_joker_swap(case.meld, case.card, rules, opened=case.opened is not False)
        values = _swap_values(swap)
    elif case.kind == "round":
        assert case.hands is not None
        round_result = score_round(case.hands, rules)
        values = _round_values(round_result)
    elif case.kind == "best_opening":
        assert case.cards is not None
        best = best_opening(case.cards, rules)
        values = {"verdict": best.verdict, "points": best.points}
    elif case.kind == "scenario":
        assert case.start is not None and case.actions is not None
        scenario = _play(case.start, case.actions)
        values = _scenario_values(scenario)
        return CaseResult(case, values, disagreements=_scenario_disagreements(
            case, scenario, values), scenario=scenario)
    else:  # the loader admits only known kinds
        raise ValueError(f"unknown kind {case.kind!r}")
    disagreements = tuple(
        Disagreement(case, name, _leaf(documented), values.get(name),
                     case.field_positions.get(f"expect.{name}", case.position))
        for name, documented in case.expect.items()
        if not agrees(name, documented, values.get(name))
    )
    return CaseResult(case, values, meld, opening, disagreements, layoff, swap, round_result,
                      best)


def _play(start: GameState, actions: Iterable[Action]) -> ScenarioRun:
    state = start
    outcomes: list[Outcome] = []
    for action in actions:
        outcome = apply(state, action)
        outcomes.append(outcome)
        state = outcome.state
    return ScenarioRun(start, tuple(outcomes))


def _scenario_values(run: ScenarioRun) -> dict[str, Value]:
    """``results[N]`` (N from 1, as the actions are numbered) and ``end.*``."""
    values: dict[str, Value] = {
        f"results[{n}]": result_code(o) for n, o in enumerate(run.outcomes, start=1)}
    end = run.final.end
    values["end.round_over"] = end is not None
    values["end.reason"] = end.reason if end else None
    values["end.winner"] = end.result.winner if end else None
    values["end.scores"] = end.result.scores if end else None
    return values


def _scenario_disagreements(case: Case, run: ScenarioRun,
                            values: Mapping[str, Value]) -> tuple[Disagreement, ...]:
    """Each documented result against its action's outcome, then each documented ``end``
    field; a disagreement names ``results[N]`` (N from 1) or ``end.FIELD``."""
    out: list[Disagreement] = []
    results = case.expect.get("results", ())
    assert isinstance(results, tuple)
    for index, (documented, outcome) in enumerate(zip(results, run.outcomes, strict=True)):
        if isinstance(documented, str) and not result_agrees(documented, outcome):
            out.append(Disagreement(case, f"results[{index + 1}]", documented,
                                    result_code(outcome),
                                    case.position_of(f"expect.results.{index}")))
    end = case.expect.get("end")
    if isinstance(end, Mapping):
        for name, documented in end.items():
            engine = values.get(f"end.{name}")
            if not agrees(name, documented, engine):
                out.append(Disagreement(case, f"end.{name}", _leaf(documented), engine,
                                        case.position_of(f"expect.end.{name}")))
    return tuple(out)


def _leaf(documented: Documented) -> Value:
    """A documented value as a :class:`Disagreement` holds it."""
    if isinstance(documented, (str, int, bool)):
        return documented
    if isinstance(documented, tuple) and all(isinstance(v, int) for v in documented):
        return tuple(v for v in documented if isinstance(v, int))
    raise ValueError(f"not a single documented value: {documented!r}")


def verify_all(cases: Iterable[Case]) -> tuple[CaseResult, ...]:
    """Verify every case, in the given order."""
    return tuple(verify_case(c) for c in cases)
