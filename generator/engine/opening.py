"""The opening (first meld) check, Rami (docs/rules.md "The opening (first meld), Rami")."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import OpeningReason
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet


class NoOpeningError(ValueError):
    """The rule set has no opening (CardVerse: melds are allowed from the first turn)."""


@dataclass(frozen=True)
class OpeningResult:
    """The engine's verdict on a first meld.

    Attributes:
        melds: the verdict on each meld, in the order laid.
        accepted: whether the first meld stands.
        reason: why it is rejected; ``None`` when accepted.
        points: total points of the melds; ``None`` when one of them is invalid.
        threshold: the points needed (the rule set's ``opening_threshold``).
        pure_run_needed: whether the rule set asks for a pure run.
        invalid_index: index of the first invalid meld, when there is one.
    """

    melds: tuple[MeldResult, ...]
    accepted: bool
    reason: OpeningReason | None
    points: int | None
    threshold: int
    pure_run_needed: bool
    invalid_index: int | None = None


def check_opening(melds: Iterable[Iterable[Card]], rules: RuleSet) -> OpeningResult:
    """Check a player's first meld: the melds laid in one turn.

    Args:
        melds: the melds, each a group of cards (points: docs/rules.md "Points of melded cards").
        rules: a rule set with an opening (Rami 40 or 51, either preset).

    Returns:
        An :class:`OpeningResult`; exactly the threshold is enough.

    Raises:
        NoOpeningError: the rule set has no opening threshold (CardVerse).
    """
    if rules.opening_threshold is None:
        raise NoOpeningError(f"{rules.game} has no opening")
    results = tuple(check_meld(m, rules) for m in melds)
    threshold = rules.opening_threshold
    needs_pure = rules.opening_needs_pure_run
    invalid = next((i for i, r in enumerate(results) if not r.valid), None)
    if invalid is not None:
        return OpeningResult(results, False, OpeningReason.INVALID_MELD, None, threshold,
                             needs_pure, invalid)
    total = sum(r.points or 0 for r in results)
    reason = None
    if needs_pure and not any(r.pure for r in results):
        reason = OpeningReason.NO_PURE_RUN
    elif total < threshold:
        reason = OpeningReason.BELOW_THRESHOLD
    return OpeningResult(results, reason is None, reason, total, threshold, needs_pure)
