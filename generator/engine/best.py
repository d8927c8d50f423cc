"""The best opening a hand holds, Rami (case kind ``best_opening``).

Sources: docs/rules.md "Melds", "Points of melded cards" and "The opening (first meld),
Rami". The best opening is the highest total of disjoint valid melds from the hand
that meets every opening condition but the threshold (Rami 51: a pure run among the
melds; Rami 40: none); it may use every card, since going out without a discard is
allowed. Whether it opens is then :func:`~generator.engine.opening.check_opening`'s
verdict on those melds, so the threshold and the reasons stay in one place.

The answer is exact, not greedy:

1. Every group of the hand's cards that could be a meld is listed (sets of one rank
   with distinct suits, runs of one suit in a window of places with jokers filling
   gaps or ends, ace low or high, at most ``rules.jokers_per_meld`` jokers) and kept
   only when :func:`~generator.engine.melds.check_meld` finds it valid; its points are
   ``check_meld``'s, so a joker counts at the place the engine gives it (the one with
   fewer points), not at the place that would pay most.
2. A depth-first search over the hand as a multiset (counts per distinct card, packed
   into one integer) takes the lowest card left and either leaves all its copies in
   the hand or puts one copy into a meld whose other cards are still there; results
   are memoized per (cards left, pure run still needed), so each reachable state is
   solved once.

Among openings with the same points the one melding more cards wins (fewer left in
the hand); remaining ties go to the search order, which depends only on the multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.codes import OpeningReason
from generator.engine.codes import Verdict
from generator.engine.melds import HIGH_ACE
from generator.engine.melds import MAX_RUN_CARDS
from generator.engine.melds import MAX_SET_CARDS
from generator.engine.melds import MIN_MELD_CARDS
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.opening import NoOpeningError
from generator.engine.opening import check_opening
from generator.engine.rules import RuleSet

__all__ = ["BestOpening", "NoOpeningError", "best_opening"]

_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
_INFEASIBLE = -(1 << 60)
"""Score of a search state from which no allowed opening exists (Rami 51: no pure run)."""


@dataclass(frozen=True)
class BestOpening:
    """The best opening of a hand and whether it opens.

    Attributes:
        cards: the hand as given (a multiset; the order is the caller's).
        points: total points of :attr:`melds` (docs/rules.md "Points of melded cards");
            0 when no opening meets the conditions other than the threshold.
        melds: the chosen melds as :func:`check_meld` results, all valid, disjoint,
            together a sub-multiset of :attr:`cards`; empty when none.
        left: the cards not melded, in the order given.
        can_open: True when :attr:`melds` are an accepted opening (points at least
            :attr:`threshold` and, Rami 51, a pure run among them).
        reason: why the hand cannot open (``no_pure_run`` when no pure run can be
            laid at all, else ``below_threshold``); ``None`` when it can.
        threshold: the points an opening needs (the rule set's ``opening_threshold``).
        pure_run_needed: whether the rule set asks for a pure run (Rami 51).
    """

    cards: tuple[Card, ...]
    points: int
    melds: tuple[MeldResult, ...]
    left: tuple[Card, ...]
    can_open: bool
    reason: OpeningReason | None
    threshold: int
    pure_run_needed: bool

    @property
    def verdict(self) -> Verdict:
        """:attr:`Verdict.CAN_OPEN` or :attr:`Verdict.CANNOT_OPEN` (the case kind's
        verdict codes)."""
        return Verdict.CAN_OPEN if self.can_open else Verdict.CANNOT_OPEN


def best_opening(cards: Iterable[Card], rules: RuleSet) -> BestOpening:
    """Find the opening with the most points that a hand can lay (exact).

    Args:
        cards: the hand, a multiset of cards (13 or 14 in a game; any number is
            accepted); copies of one card and several jokers are allowed.
        rules: a rule set with an opening (Rami 40 or 51, either preset).

    Returns:
        A :class:`BestOpening`: the highest total of disjoint valid melds from
        ``cards`` meeting every opening condition but the threshold (points), the
        melds, the cards left and the verdict of :func:`check_opening` on the melds.

    Raises:
        NoOpeningError: the rule set has no opening (CardVerse).
    """
    if rules.opening_threshold is None:
        raise NoOpeningError(f"{rules.game} has no opening")
    hand = tuple(cards)
    melds = _solve(hand, rules)
    opening = check_opening((m.cards for m in melds), rules)
    return BestOpening(
        cards=hand,
        points=sum(m.points or 0 for m in melds),
        melds=melds,
        left=_left_over(hand, melds),
        can_open=opening.accepted,
        reason=opening.reason,
        threshold=rules.opening_threshold,
        pure_run_needed=rules.opening_needs_pure_run,
    )


def _order(card: Card) -> tuple[int, int]:
    """Sort key of a natural card: suit (♣ ♦ ♥ ♠), then rank (ace first)."""
    assert card.rank is not None and card.suit is not None
    return _SUIT_ORDER[card.suit], int(card.rank)


def _candidate_groups(
    naturals: Iterable[Card], jokers: int, rules: RuleSet
) -> set[tuple[tuple[Card, ...], int]]:
    """Every group that could be a meld: (distinct natural cards in :func:`_order`, jokers).

    A superset of the valid melds the hand holds; :func:`check_meld` decides. Each
    group holds at least one natural card and each natural card at most once (a set
    has distinct suits, a run distinct ranks).
    """
    limit = min(rules.jokers_per_meld, jokers)
    by_rank: dict[Rank, list[Card]] = {}
    by_suit: dict[Suit, dict[int, Card]] = {}
    for card in sorted(set(naturals), key=_order):
        assert card.rank is not None and card.suit is not None
        by_rank.setdefault(card.rank, []).append(card)
        places = by_suit.setdefault(card.suit, {})
        if card.rank is Rank.ACE:
            places[1] = card
            places[HIGH_ACE] = card
        else:
            places[int(card.rank)] = card
    groups: set[tuple[tuple[Card, ...], int]] = set()
    for same_rank in by_rank.values():
        for n in range(1, min(len(same_rank), MAX_SET_CARDS) + 1):
            for combo in combinations(same_rank, n):
                for j in range(limit + 1):
                    if MIN_MELD_CARDS <= n + j <= MAX_SET_CARDS:
                        groups.add((combo, j))
    for present in by_suit.values():
        for start in range(1, HIGH_ACE - MIN_MELD_CARDS + 2):
            missing = 0
            for end in range(start, min(HIGH_ACE, start + MAX_RUN_CARDS - 1) + 1):
                if end not in present:
                    missing += 1
                    if missing > limit:
                        break
                if end - start + 1 < MIN_MELD_CARDS:
                    continue
                held = [present[p] for p in range(start, end + 1) if p in present]
                # Jokers fill the missing places and may also stand in for held cards.
                for extra in range(limit - missing + 1):
                    for replaced in combinations(range(len(held)), extra):
                        kept = tuple(c for i, c in enumerate(held) if i not in replaced)
                        if kept:
                            groups.add((kept, missing + extra))
    return groups


def _solve(hand: tuple[Card, ...], rules: RuleSet) -> tuple[MeldResult, ...]:
    """The melds of the best opening of ``hand`` (empty when none is allowed)."""
    counts = Counter(c for c in hand if not c.is_joker)
    jokers = len(hand) - sum(counts.values())
    melds: list[tuple[tuple[Card, ...], int, MeldResult]] = []
    for naturals, j in _candidate_groups(counts, jokers, rules):
        result = check_meld((*naturals, *(JOKER,) * j), rules)
        if result.valid:
            melds.append((naturals, j, result))
    if not melds:
        return ()

    # Index only the cards some meld uses; the others always stay in the hand.
    used = sorted({c for naturals, _, _ in melds for c in naturals}, key=_order)
    index = {card: i for i, card in enumerate(used)}

    # State: one field per card index (its copies left) and one for the jokers, each
    # field with a guard bit on top that is 0 in a state. Subtracting a meld from
    # (state | guards) clears the guard of any field that runs short, so one
    # subtraction tells whether the meld's cards are all still there.
    width = max(max(counts[c] for c in used), 1).bit_length() + 1
    joker_shift = width * len(used)
    joker_width = max(jokers, rules.jokers_per_meld, 1).bit_length() + 1
    guards = sum(1 << (width * i + width - 1) for i in range(len(used)))
    guards |= 1 << (joker_shift + joker_width - 1)
    field = [((1 << (width - 1)) - 1) << (width * i) for i in range(len(used))]
    naturals_mask = sum(field)
    start = sum(counts[c] << (width * i) for i, c in enumerate(used))
    start |= jokers << joker_shift

    # A meld scores its points first, then its cards (more cards melded wins a tie).
    scale = len(hand) + 1
    by_first: list[list[tuple[int, int, int, bool, MeldResult]]] = [[] for _ in used]
    for naturals, j, result in melds:
        positions = [index[c] for c in naturals]
        delta = sum(1 << (width * i) for i in positions) + (j << joker_shift)
        need = sum(1 << (width * i + width - 1) for i in positions)
        if j:
            need |= 1 << (joker_shift + joker_width - 1)
        score = (result.points or 0) * scale + len(result.cards)
        by_first[min(positions)].append((delta, need, score, result.pure, result))
    for options in by_first:
        options.sort(key=lambda o: -o[2])

    memo: dict[int, int] = {}

    def best(state: int, need_pure: bool) -> int:
        """Best score from ``state``; :data:`_INFEASIBLE` when a pure run is needed
        and none can be laid."""
        key = state << 1 | need_pure
        found = memo.get(key)
        if found is not None:
            return found
        left = state & naturals_mask
        if not left:
            value = _INFEASIBLE if need_pure else 0
        else:
            i = ((left & -left).bit_length() - 1) // width
            value = best(state & ~field[i], need_pure)
            guarded = state | guards
            for delta, need, score, pure, _ in by_first[i]:
                if (guarded - delta) & need == need:
                    value = max(value, score + best(state - delta, need_pure and not pure))
        memo[key] = value
        return value

    need_pure = rules.opening_needs_pure_run
    if best(start, need_pure) < 0:
        return ()

    # Walk the memo back down the branches that give each state's best score.
    chosen: list[MeldResult] = []
    state = start
    while state & naturals_mask:
        target = best(state, need_pure)
        left = state & naturals_mask
        i = ((left & -left).bit_length() - 1) // width
        guarded = state | guards
        for delta, need, score, pure, result in by_first[i]:
            if (guarded - delta) & need == need and (
                score + best(state - delta, need_pure and not pure) == target
            ):
                chosen.append(result)
                state -= delta
                need_pure = need_pure and not pure
                break
        else:
            state &= ~field[i]
    return tuple(chosen)


def _left_over(hand: tuple[Card, ...], melds: tuple[MeldResult, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` that no meld holds, in the order given."""
    melded = Counter(c for m in melds for c in m.cards)
    left = []
    for card in hand:
        if melded[card]:
            melded[card] -= 1
        else:
            left.append(card)
    return tuple(left)
