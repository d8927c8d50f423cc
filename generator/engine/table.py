"""Working with melds on the table: laying off cards and taking back a joker.

Sources: docs/rules.md "A turn" (lay off), "Taking back a joker", "Points of melded cards"
(a joker keeps the place it took when it was laid) and "Order of reasons".
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import LayoffReason
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.codes import SwapReason
from generator.engine.codes import TableJokerWhy
from generator.engine.melds import JokerChoice
from generator.engine.melds import MeldResult
from generator.engine.melds import Placed
from generator.engine.melds import check_meld
from generator.engine.melds import rank_points
from generator.engine.rules import RuleSet


class TableError(ValueError):
    """A meld given as lying on the table that is not a valid meld.

    Args:
        reason: why the meld is not valid (:func:`~generator.engine.melds.check_meld`).
    """

    def __init__(self, reason: MeldReason) -> None:
        super().__init__(reason)
        self.reason = reason


def table_meld(cards: Iterable[Card], rules: RuleSet) -> MeldResult:
    """The verdict on a meld lying on the table: it must be valid.

    Raises:
        TableError: the cards are not a valid meld.
    """
    result = check_meld(cards, rules)
    if not result.valid:
        assert result.reason is not None
        raise TableError(result.reason)
    return result


def _fixed_cards(meld: MeldResult) -> tuple[list[Card], Placed | None]:
    """The meld's cards with a run's joker replaced by the card it stands for (its place is
    fixed once laid); a set's joker stays a joker (it stands for the rank)."""
    joker = next((p for p in meld.placed if p.card.is_joker), None)
    if meld.type is MeldType.RUN and joker is not None and joker.stands_for is not None:
        return [p.stands_for or p.card if p.card.is_joker else p.card
                for p in meld.placed], joker
    return [p.card for p in meld.placed], None


@dataclass(frozen=True)
class LayoffResult:
    """The verdict on laying off cards onto a meld.

    Attributes:
        valid: whether the lay-off is allowed.
        reason: why not; ``None`` when allowed.
        meld: the meld after the lay-off (valid), or ``None`` when refused or where the
            opening forbids it.
        points: the meld's points after the lay-off (Rami), else ``None``.
    """

    valid: bool
    reason: LayoffReason | None
    meld: MeldResult | None
    points: int | None


def check_layoff(
    meld: Sequence[Card], added: Sequence[Card], rules: RuleSet, *, opened: bool = True
) -> LayoffResult:
    """Lay off ``added`` (cards from the hand) onto ``meld`` (a valid meld on the table).

    Several cards laid off at once are judged on the finished meld (docs/site.md, decided):
    they may go at either end, in any listed order, and a joker among them takes the
    place the finished meld needs (5♥ 6♥ 7♥ + 9♥ JK: the joker as 8♥).

    A joker in a run keeps the card it stood for when laid (docs/rules.md: JK 7♠ 8♠ takes 9♠,
    not 6♠: the joker is 6♠); in a set it stands for the rank.

    Args:
        meld: the meld on the table, as laid.
        added: the cards laid off (cards).
        rules: the rule set; a rule set without an opening threshold allows lay-offs
            from the first turn (CardVerse).
        opened: whether the player has opened (Rami).

    Returns:
        A :class:`LayoffResult`; points are the meld's points after the lay-off.

    Raises:
        TableError: ``meld`` is not a valid meld.
    """
    before = table_meld(meld, rules)
    if rules.opening_threshold is not None and not opened:
        return LayoffResult(False, LayoffReason.NOT_OPENED, None, None)
    cards, joker = _fixed_cards(before)
    jokers = sum(c.is_joker for c in (*meld, *added))
    after = check_meld([*cards, *added], rules)
    if not after.valid or jokers > rules.jokers_per_meld:
        return LayoffResult(False, LayoffReason.BREAKS_MELD, None, None)
    if joker is not None and joker.stands_for is not None:
        after = _restore_joker(after, joker, rules)
    return LayoffResult(True, None, after, after.points)


def _restore_joker(after: MeldResult, joker: Placed, rules: RuleSet) -> MeldResult:
    """Put the joker back in place of the card it stood for, with its points."""
    placed = []
    restored = False
    for p in after.placed:
        if not restored and p.card == joker.stands_for:
            value = rank_points(p.rank, p.place)
            points = value if rules.joker_meld_points is None else rules.joker_meld_points
            placed.append(Placed(joker.card, p.rank, p.suit, p.place, points))
            restored = True
        else:
            placed.append(p)
    cards = tuple(p.card for p in placed)
    total = sum(p.points for p in placed) if rules.meld_points else None
    return MeldResult(cards, True, after.type, None, total, tuple(placed), None)


@dataclass(frozen=True)
class SwapResult:
    """The verdict on taking back a joker.

    Attributes:
        allowed: whether the swap is allowed.
        reason: why not; ``None`` when allowed.
        stands_for: the card the joker stands for (``None`` when the meld has no joker, or
            for a set of two naturals and a joker, whose suit is open: a case that
            documents a card there disagrees, ``engine —``; docs/site.md, decided).
        meld: the meld after the swap (the card in the joker's place), when allowed.
        why: why the joker stands for that card (a
            :class:`~generator.engine.codes.TableJokerWhy`); ``None`` when the meld has
            no joker.
        others: the other cards the meld's cards alone would let the joker be, for
            ``kept_card`` (JK 7♠ 8♠: the 9♠); else empty.
    """

    allowed: bool
    reason: SwapReason | None
    stands_for: Card | None
    meld: MeldResult | None = None
    why: TableJokerWhy | None = None
    others: tuple[Card, ...] = ()


def check_joker_swap(
    meld: Sequence[Card], card: Card, rules: RuleSet, *, opened: bool = True
) -> SwapResult:
    """Take the joker from ``meld`` by putting ``card`` in its place (docs/rules.md, "Taking
    back a joker"): only once opened, only exactly the card the joker stands for, and
    from a set only when the joker lies with three natural cards.

    Returns:
        A :class:`SwapResult`: the verdict, the first reason that applies, the card the
        joker stands for and why (:class:`~generator.engine.codes.TableJokerWhy`).

    Raises:
        TableError: ``meld`` is not a valid meld.
    """
    before = table_meld(meld, rules)
    joker = next((p for p in before.placed if p.card.is_joker), None)
    if joker is None or before.joker is None:
        return SwapResult(False, SwapReason.NO_JOKER, None)
    stands_for = joker.stands_for
    why, others = _why_table_joker(before.joker)
    if rules.opening_threshold is not None and not opened:
        return SwapResult(False, SwapReason.NOT_OPENED, stands_for, why=why, others=others)
    if before.type is MeldType.SET and stands_for is None:
        return SwapResult(False, SwapReason.SET_NEEDS_THREE_NATURALS, None, why=why)
    if card != stands_for:
        return SwapResult(False, SwapReason.WRONG_CARD, stands_for, why=why, others=others)
    after = check_meld([card if p.card.is_joker else p.card for p in before.placed], rules)
    return SwapResult(True, None, stands_for, after, why=why, others=others)


def _why_table_joker(choice: JokerChoice) -> tuple[TableJokerWhy, tuple[Card, ...]]:
    """Why a table meld's joker stands for its card, and the other cards its meld's
    cards alone would allow: the place it chose when laid is the card it keeps."""
    if choice.suit is None:
        return TableJokerWhy.OPEN_SUIT, ()
    if not choice.alternatives:
        return TableJokerWhy.ONLY_CARD, ()
    return TableJokerWhy.KEPT_CARD, tuple(card for card, _ in choice.alternatives)
