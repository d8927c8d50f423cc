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
   fewer points), not at the place that would pay most (:func:`_valid_melds`).
2. A depth-first search over the hand as a multiset (counts per distinct card, packed
   into one integer) takes the lowest card left and either leaves all its copies in
   the hand or puts one copy into a meld whose other cards are still there; results
   are memoized per (cards left, pure run still needed), so each reachable state is
   solved once (:class:`_Search`, over the state :class:`_Packing` packs).

Among openings with the same points the one melding more cards wins (fewer left in
the hand); remaining ties go to the search order, which depends only on the multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

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
) -> list[tuple[tuple[Card, ...], int]]:
    """Every group that could be a meld: (distinct natural cards in :func:`_order`, jokers),
    in :func:`_group_order`.

    A superset of the valid melds the hand holds; :func:`check_meld` decides. Each
    group holds at least one natural card and each natural card at most once (a set
    has distinct suits, a run distinct ranks). Sets first, then runs.
    """
    limit = min(rules.jokers_per_meld, jokers)
    distinct = sorted(set(naturals), key=_order)
    groups = set(_set_groups(distinct, limit))
    groups.update(_run_groups(distinct, limit))
    # in one order whatever the process's string hashing (PYTHONHASHSEED): the search
    # keeps the first of equally good answers, so the order is the answer's
    return sorted(groups, key=_group_order)


def _group_order(group: tuple[tuple[Card, ...], int]) -> tuple[list[tuple[int, int]], int]:
    """Sort key of a group: its natural cards in :func:`_order`, then its jokers."""
    return [_order(card) for card in group[0]], group[1]


def _set_groups(
    distinct: list[Card], limit: int
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """The groups that could be a set (docs/rules.md "Melds": three or four cards of one
    rank, no two of one suit), rank by rank: every choice of the rank's ``distinct``
    cards with up to ``limit`` jokers, 3 or 4 cards in all."""
    by_rank: dict[Rank, list[Card]] = {}
    for card in distinct:
        assert card.rank is not None
        by_rank.setdefault(card.rank, []).append(card)
    for same_rank in by_rank.values():
        for n in range(1, min(len(same_rank), MAX_SET_CARDS) + 1):
            for combo in combinations(same_rank, n):
                for j in range(limit + 1):
                    if MIN_MELD_CARDS <= n + j <= MAX_SET_CARDS:
                        yield combo, j


def _run_groups(
    distinct: list[Card], limit: int
) -> Iterator[tuple[tuple[Card, ...], int]]:
    """The groups that could be a run (docs/rules.md "Melds": three or more cards of one
    suit in consecutive places, the ace low or high), suit by suit, window by window
    (:func:`_run_windows`): the window's cards with jokers in its missing places, and
    jokers standing in for some of its cards too while ``limit`` allows."""
    for present in _suit_places(distinct).values():
        for held, missing in _run_windows(present, limit):
            for extra in range(limit - missing + 1):
                for replaced in combinations(range(len(held)), extra):
                    kept = tuple(c for i, c in enumerate(held) if i not in replaced)
                    if kept:
                        yield kept, missing + extra


def _suit_places(distinct: list[Card]) -> dict[Suit, dict[int, Card]]:
    """Per suit, the run places its cards of ``distinct`` stand at: an ace at both 1 and
    :data:`HIGH_ACE` (:func:`check_meld` decides which place a rule set allows)."""
    by_suit: dict[Suit, dict[int, Card]] = {}
    for card in distinct:
        assert card.rank is not None and card.suit is not None
        places = by_suit.setdefault(card.suit, {})
        if card.rank is Rank.ACE:
            places[1] = card
            places[HIGH_ACE] = card
        else:
            places[int(card.rank)] = card
    return by_suit


def _run_windows(
    present: dict[int, Card], limit: int
) -> Iterator[tuple[list[Card], int]]:
    """Every window of :data:`MIN_MELD_CARDS` to :data:`MAX_RUN_CARDS` consecutive places
    missing at most ``limit`` of ``present``'s places, by first place, then last.

    Yields:
        (the cards held in the window, low to high; how many places it misses).
    """
    for start in range(1, HIGH_ACE - MIN_MELD_CARDS + 2):
        missing = 0
        for end in range(start, min(HIGH_ACE, start + MAX_RUN_CARDS - 1) + 1):
            if end not in present:
                missing += 1
                if missing > limit:
                    break
            if end - start + 1 >= MIN_MELD_CARDS:
                yield [present[p] for p in range(start, end + 1) if p in present], missing


def _solve(hand: tuple[Card, ...], rules: RuleSet) -> tuple[MeldResult, ...]:
    """The melds of the best opening of ``hand`` (empty when none is allowed).

    The two steps of the module docstring: :func:`_valid_melds` lists the melds, then a
    :class:`_Search` over the hand packed by :class:`_Packing` finds the best disjoint
    choice of them.
    """
    counts = Counter(c for c in hand if not c.is_joker)
    jokers = len(hand) - sum(counts.values())
    melds = _valid_melds(counts, jokers, rules)
    if not melds:
        return ()
    packing = _Packing.of(melds, counts, jokers, rules)
    scale = len(hand) + 1
    return _Search(packing, packing.moves(melds, scale)).walk(rules.opening_needs_pure_run)


_Group = tuple[tuple[Card, ...], int, MeldResult]
"""A valid meld: its natural cards (distinct, in :func:`_order`), its jokers, its result."""


def _valid_melds(counts: Counter[Card], jokers: int, rules: RuleSet) -> list[_Group]:
    """The groups of :func:`_candidate_groups` that :func:`check_meld` finds valid
    (docs/rules.md "Melds"), with its results (its points: "Points of melded cards")."""
    melds: list[_Group] = []
    for naturals, j in _candidate_groups(counts, jokers, rules):
        result = check_meld((*naturals, *(JOKER,) * j), rules)
        if result.valid:
            melds.append((naturals, j, result))
    return melds


class _Move(NamedTuple):
    """A meld as a step of the search: the cards it takes from a packed state and what
    it scores."""

    delta: int
    """Its cards, packed: subtracting it from a state lays the meld."""
    need: int
    """The guard bits of the fields it takes from (see :class:`_Packing`)."""
    score: int
    """Its points times the scale, plus its cards (more cards melded wins a tie)."""
    pure: bool
    """Whether it is a pure run (docs/rules.md "The opening (first meld), Rami")."""
    result: MeldResult
    """:func:`check_meld`'s result."""


@dataclass(frozen=True)
class _Packing:
    """The hand as a multiset packed into one integer, the search's state.

    One field per card some meld uses (its copies left), in :func:`_order`, and one for
    the jokers, each field with a guard bit on top that is 0 in a state. Subtracting a
    meld's cards from (state | guards) clears the guard of any field that runs short,
    so one subtraction tells whether the meld's cards are all still there. The cards no
    meld uses always stay in the hand, so they have no field.

    Attributes:
        index: the field of each natural card some meld uses.
        width: bits per natural card's field, its guard bit included.
        joker_shift: the first bit of the jokers' field.
        joker_guard: the jokers' field's guard bit.
        guards: every field's guard bit.
        fields: per natural card's field, the mask of its count bits.
        naturals_mask: every natural card's count bits.
        start: the hand packed.
    """

    index: Mapping[Card, int]
    width: int
    joker_shift: int
    joker_guard: int
    guards: int
    fields: tuple[int, ...]
    naturals_mask: int
    start: int

    @classmethod
    def of(cls, melds: list[_Group], counts: Counter[Card], jokers: int,
           rules: RuleSet) -> _Packing:
        """The packing of a hand of ``counts`` natural cards and ``jokers`` jokers for
        the search over ``melds``."""
        used = sorted({c for naturals, _, _ in melds for c in naturals}, key=_order)
        width = max(max(counts[c] for c in used), 1).bit_length() + 1
        joker_shift = width * len(used)
        joker_width = max(jokers, rules.jokers_per_meld, 1).bit_length() + 1
        joker_guard = 1 << (joker_shift + joker_width - 1)
        fields = tuple(((1 << (width - 1)) - 1) << (width * i) for i in range(len(used)))
        start = sum(counts[c] << (width * i) for i, c in enumerate(used))
        return cls(
            index={card: i for i, card in enumerate(used)},
            width=width,
            joker_shift=joker_shift,
            joker_guard=joker_guard,
            guards=sum(1 << (width * i + width - 1) for i in range(len(used))) | joker_guard,
            fields=fields,
            naturals_mask=sum(fields),
            start=start | jokers << joker_shift,
        )

    def lowest(self, state: int) -> int:
        """The field of the lowest natural card left in ``state`` (one must be left)."""
        left = state & self.naturals_mask
        return ((left & -left).bit_length() - 1) // self.width

    def moves(self, melds: list[_Group], scale: int) -> tuple[tuple[_Move, ...], ...]:
        """Per field, the :class:`_Move` of each of ``melds`` whose lowest card is that
        field's, highest score first (``scale``: more than the cards of any opening)."""
        by_first: list[list[_Move]] = [[] for _ in self.fields]
        for naturals, j, result in melds:
            positions = [self.index[c] for c in naturals]
            delta = sum(1 << (self.width * i) for i in positions) + (j << self.joker_shift)
            need = sum(1 << (self.width * i + self.width - 1) for i in positions)
            if j:
                need |= self.joker_guard
            score = (result.points or 0) * scale + len(result.cards)
            by_first[min(positions)].append(_Move(delta, need, score, result.pure, result))
        return tuple(tuple(sorted(options, key=lambda o: -o.score)) for options in by_first)


class _Search:
    """The best disjoint melds of a packed hand, by depth-first search with a memo.

    A state is the multiset of cards left (:class:`_Packing`) and whether a pure run is
    still needed (Rami 51, docs/rules.md "The opening (first meld), Rami"). From a state
    the search takes the lowest natural card left and branches: each meld whose lowest
    card it is and whose cards are all still there (highest score first), then leaving
    every copy of the card in the hand. Each branch removes at least one natural card,
    so the search ends, at most one level per natural card deep. The memo keyed by
    state solves each reachable state once: at most 2 × (jokers + 1) × the product of
    (copies + 1) over the cards some meld uses, far fewer in practice since the cards
    below the lowest one left are all settled. A state costs one memo look-up per meld
    starting at its lowest card, plus one.
    """

    def __init__(self, packing: _Packing, moves: tuple[tuple[_Move, ...], ...]) -> None:
        """A search over ``packing``'s hand with ``moves`` (:meth:`_Packing.moves`)."""
        self._packing = packing
        self._moves = moves
        self._memo: dict[int, int] = {}

    def best(self, state: int, need_pure: bool) -> int:
        """The best score from ``state``: the sum of the scores of the moves laid;
        :data:`_INFEASIBLE` when a pure run is needed and none can be laid."""
        key = state << 1 | need_pure
        found = self._memo.get(key)
        if found is not None:
            return found
        if not state & self._packing.naturals_mask:
            value = _INFEASIBLE if need_pure else 0
        else:
            value = max(score + self.best(after, still)
                        for after, still, score, _ in self._branches(state, need_pure))
        self._memo[key] = value
        return value

    def _branches(self, state: int, need_pure: bool
                  ) -> Iterator[tuple[int, bool, int, MeldResult | None]]:
        """The branches from ``state``, in search order: each meld that can be laid, then
        leaving the lowest card's copies.

        Yields:
            (the state after, whether a pure run is still needed after, the score gained,
            the meld laid or ``None``).
        """
        packing = self._packing
        i = packing.lowest(state)
        guarded = state | packing.guards
        for delta, need, score, pure, result in self._moves[i]:
            if (guarded - delta) & need == need:
                yield state - delta, need_pure and not pure, score, result
        yield state & ~packing.fields[i], need_pure, 0, None

    def walk(self, need_pure: bool) -> tuple[MeldResult, ...]:
        """The melds of the best score from the hand, in the order laid: down from the
        start, the first branch of each state that gives its best score; empty when
        none is allowed."""
        state = self._packing.start
        if self.best(state, need_pure) < 0:
            return ()
        chosen: list[MeldResult] = []
        while state & self._packing.naturals_mask:
            state, need_pure, meld = self._best_branch(state, need_pure)
            if meld is not None:
                chosen.append(meld)
        return tuple(chosen)

    def _best_branch(self, state: int, need_pure: bool
                     ) -> tuple[int, bool, MeldResult | None]:
        """The first branch from ``state`` that gives its best score: (the state after,
        whether a pure run is still needed after, the meld laid or ``None``)."""
        target = self.best(state, need_pure)
        for after, still, score, meld in self._branches(state, need_pure):
            if score + self.best(after, still) == target:
                return after, still, meld
        raise AssertionError("no branch gives the best score")  # pragma: no cover


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
