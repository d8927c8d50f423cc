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
from generator.cases.model import Position
from generator.engine.deck import deck
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.opening import OpeningResult
from generator.engine.opening import check_opening

Value = str | int | None
"""An engine or documented value: a code (``"valid"``, ``"wraps_around"``), a number of
points or cards, or ``None`` where the engine gives none."""


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
class CaseResult:
    """The engine's answer for one case.

    Attributes:
        case: the case.
        values: the engine's value of every ``expect`` field of the kind (``None`` where it
            gives none), e.g. ``{"verdict": "valid", "type": "run", "points": 31, "reason": None}``.
        meld: the meld verdict (kind ``meld``).
        opening: the opening verdict (kind ``first_meld``).
        disagreements: the documented values the engine does not give, in field order.
    """

    case: Case
    values: Mapping[str, Value]
    meld: MeldResult | None = None
    opening: OpeningResult | None = None
    disagreements: tuple[Disagreement, ...] = field(default=())

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


def verify_case(case: Case) -> CaseResult:
    """Run one case through the engine and compare every documented field.

    Args:
        case: a loaded case (its inputs already checked by the loader).

    Returns:
        A :class:`CaseResult` with the engine's values and the disagreements.
    """
    rules = case.rule_set()
    meld = opening = None
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
    else:  # the loader admits only known kinds
        raise ValueError(f"unknown kind {case.kind!r}")
    disagreements = tuple(
        Disagreement(case, name, documented, values.get(name),
                     case.field_positions.get(f"expect.{name}", case.position))
        for name, documented in case.expect.items()
        if values.get(name) != documented
    )
    return CaseResult(case, values, meld, opening, disagreements)


def verify_all(cases: Iterable[Case]) -> tuple[CaseResult, ...]:
    """Verify every case, in the given order."""
    return tuple(verify_case(c) for c in cases)
