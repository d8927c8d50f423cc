"""Meld validation: type, reason code, points and the card each joker stands for.

Source: docs/rules.md "Melds" and "Points of melded cards"; the order of reason codes
is docs/site.md's (kind ``meld``). Cards are a multiset: the listed order is for
display only, the engine finds the arrangement.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.codes import JokerWhy
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.rules import AcePlace
from generator.engine.rules import RuleSet

MIN_MELD_CARDS = 3
"""The fewest cards in any meld (cards)."""
MAX_SET_CARDS = 4
"""The most cards in a set: one per suit (cards)."""
MAX_RUN_CARDS = 13
"""The most cards in a run: every rank once (cards)."""

HIGH_ACE = 14
"""The place of an ace after the king in a run (places run 1 = low ace … 14 = high ace)."""


@dataclass(frozen=True)
class Placed:
    """One card of a valid meld with the card it counts as.

    Attributes:
        card: the card as held (a natural card or the joker).
        rank: the rank it counts as (for a joker: the rank it stands for).
        suit: the suit it counts as; ``None`` for a joker in a set of three
            (its suit stays open, docs/rules.md).
        place: in a run, 1 (low ace) to 14 (high ace); in a set, the rank's value.
        points: its points when melded (0 where melds carry no points).
    """

    card: Card
    rank: Rank
    suit: Suit | None
    place: int
    points: int

    @property
    def stands_for(self) -> Card | None:
        """For a joker with a known suit, the card it stands for; else ``None``."""
        if self.card.is_joker and self.suit is not None:
            return Card(self.rank, self.suit)
        return None


@dataclass(frozen=True)
class JokerChoice:
    """The reasoning behind a joker's place (docs/rules.md "Points of melded cards").

    Attributes:
        rank, suit: the card the joker stands for (``suit`` ``None`` in a set of three).
        alternatives: other cards it could have stood for, each with the points the
            meld would then have had, e.g. ``((Card(9♠), 24),)`` for JK 7♠ 8♠.
        why: a :class:`~generator.engine.codes.JokerWhy`: ``only_place`` (one place
            fits), ``fewer_points`` (the place with fewer points) or ``lower_rank``
            (equal points, the lower rank).
    """

    rank: Rank
    suit: Suit | None
    alternatives: tuple[tuple[Card, int], ...]
    why: JokerWhy


@dataclass(frozen=True)
class MeldResult:
    """The engine's verdict on one group of cards.

    Attributes:
        cards: the cards as given.
        valid: whether they form a meld.
        type: run or set (what the cards are, or try to be; docs/site.md, "Meld reasons",
            decided): ``set`` when the natural cards share one rank, also when they
            share the suit as well (copies of one card, 7♠ 7♠ 7♠ or 5♥ JK, are read as
            a set, so ``duplicate_suit`` or ``too_few_cards``); ``run`` when they share
            one suit only; ``None`` with no natural card, or naturals sharing neither
            (``not_a_meld``, or ``too_many_jokers`` / ``too_few_cards`` as JK JK 5♥ 6♠).
        reason: why it is invalid; ``None`` when valid.
        points: the meld's points (Rami), ``None`` when invalid or where melds carry
            no points (CardVerse).
        placed: the cards in meld order (a run from low to high) with their values;
            empty when invalid.
        joker: the reasoning for the joker's place, when the meld holds one.
        pure: True for a valid run without a joker (a pure run).
    """

    cards: tuple[Card, ...]
    valid: bool
    type: MeldType | None
    reason: MeldReason | None
    points: int | None
    placed: tuple[Placed, ...] = ()
    joker: JokerChoice | None = None

    @property
    def pure(self) -> bool:
        """True for a valid run without a joker (docs/rules.md, Melds: a pure run)."""
        return (
            self.valid
            and self.type is MeldType.RUN
            and not any(c.is_joker for c in self.cards)
        )


def rank_points(rank: Rank, place: int) -> int:
    """Points of a melded card of ``rank`` at ``place`` (docs/rules.md "Points of melded cards").

    2-9 face value; 10, J, Q, K 10; an ace 1 when low (place 1), 11 when high or in a set.
    """
    if rank is Rank.ACE:
        return 1 if place == 1 else 11
    return min(int(rank), 10)


def _invalid(cards: tuple[Card, ...], type_: MeldType | None, reason: MeldReason) -> MeldResult:
    return MeldResult(cards, False, type_, reason, None)


def check_meld(cards: Iterable[Card], rules: RuleSet) -> MeldResult:
    """Check whether ``cards`` form a valid meld under ``rules``.

    Args:
        cards: the cards, in any order (a multiset).
        rules: the rule set (jokers per meld, ace places, joker points).

    Returns:
        A :class:`MeldResult`: verdict, type, the first reason that applies (in
        :class:`MeldReason` order), points when valid (Rami) and the joker's place.
    """
    given = tuple(cards)
    naturals = [c for c in given if not c.is_joker]
    jokers = len(given) - len(naturals)
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    if len(ranks) == 1:
        type_: MeldType | None = MeldType.SET
    elif len(suits) == 1:
        type_ = MeldType.RUN
    else:
        type_ = None

    if jokers > rules.jokers_per_meld:
        return _invalid(given, type_, MeldReason.TOO_MANY_JOKERS)
    if len(given) < MIN_MELD_CARDS:
        return _invalid(given, type_, MeldReason.TOO_FEW_CARDS)
    if type_ is None:
        return _invalid(given, None, MeldReason.NOT_A_MELD)
    if type_ is MeldType.SET:
        return _check_set(given, naturals, jokers, rules)
    return _check_run(given, naturals, jokers, rules)


def _check_set(
    given: tuple[Card, ...], naturals: list[Card], jokers: int, rules: RuleSet
) -> MeldResult:
    if len(given) > MAX_SET_CARDS:
        return _invalid(given, MeldType.SET, MeldReason.TOO_MANY_CARDS)
    suits = Counter(c.suit for c in naturals)
    if any(n > 1 for n in suits.values()):
        return _invalid(given, MeldType.SET, MeldReason.DUPLICATE_SUIT)
    rank = naturals[0].rank
    assert rank is not None
    value = rank_points(rank, HIGH_ACE)
    placed = [Placed(c, rank, c.suit, int(rank), value) for c in naturals]
    choice: JokerChoice | None = None
    if jokers:
        missing = [s for s in Suit if s not in suits]
        # With three naturals the joker's suit is the one left; with two it stays open.
        suit = missing[0] if len(missing) == 1 else None
        placed.append(Placed(given[_joker_index(given)], rank, suit, int(rank),
                             _joker_points(value, rules)))
        choice = JokerChoice(rank, suit, (), JokerWhy.ONLY_PLACE)
    points = sum(p.points for p in placed) if rules.meld_points else None
    return MeldResult(given, True, MeldType.SET, None, points, tuple(placed), choice)


def _joker_index(cards: Sequence[Card]) -> int:
    return next(i for i, c in enumerate(cards) if c.is_joker)


def _joker_points(stood_for_points: int, rules: RuleSet) -> int:
    if rules.joker_meld_points is None:
        return stood_for_points
    return rules.joker_meld_points


def _natural_places(rank: Rank, rules: RuleSet) -> tuple[int, ...]:
    if rank is not Rank.ACE:
        return (int(rank),)
    places = []
    if AcePlace.LOW in rules.ace_places:
        places.append(1)
    if AcePlace.HIGH in rules.ace_places:
        places.append(HIGH_ACE)
    return tuple(places)


def _windows(naturals: Sequence[Card], length: int, ace_places: Iterable[int]) -> list[int]:
    """Start places of every window of ``length`` places in 1..14 holding each natural once."""
    aces = sum(1 for c in naturals if c.rank is Rank.ACE)
    others = sorted(int(c.rank) for c in naturals if c.rank is not Rank.ACE)  # type: ignore[arg-type]
    if len(set(others)) != len(others) or aces > 1:
        return []
    starts = []
    for start in range(1, HIGH_ACE - length + 2):
        end = start + length - 1
        if others and (others[0] < start or others[-1] > end):
            continue
        if aces and not any(start <= p <= end for p in ace_places):
            continue
        starts.append(start)
    return starts


def _wraps(naturals: Sequence[Card], length: int) -> bool:
    """True when the naturals fit ``length`` places only by going round K-A-2.

    Ranks are taken on a circle (ace = 0 … king = 12); the arc must hold the king,
    the ace place and the two, i.e. the ace would be needed both after the king and
    before the two (docs/rules.md, Melds).
    """
    ranks = {int(c.rank) - 1 for c in naturals}  # type: ignore[arg-type]
    if len(ranks) != len(naturals):
        return False
    for start in range(13):
        arc = {(start + i) % 13 for i in range(length)}
        if {12, 0, 1} <= arc and ranks <= arc:
            return True
    return False


def _check_run(
    given: tuple[Card, ...], naturals: list[Card], jokers: int, rules: RuleSet
) -> MeldResult:
    if len(given) > MAX_RUN_CARDS:
        return _invalid(given, MeldType.RUN, MeldReason.TOO_MANY_CARDS)
    length = len(given)
    allowed = _natural_places(Rank.ACE, rules)
    starts = _windows(naturals, length, allowed)
    if not starts:
        if _wraps(naturals, length):
            reason = MeldReason.WRAPS_AROUND
        elif _windows(naturals, length, (1, HIGH_ACE)):
            reason = MeldReason.ACE_LOW_NOT_ALLOWED
        else:
            reason = MeldReason.NOT_CONSECUTIVE
        return _invalid(given, MeldType.RUN, reason)

    suit = naturals[0].suit
    assert suit is not None
    options = [_place_run(given, naturals, start, suit, rules) for start in starts]
    # Fewer points first (by the value of the card a joker stands for), then the lower rank.
    options.sort(key=lambda o: (o[1], o[0][0].place))
    placed, _, points = options[0]
    choice = None
    if jokers:
        joker = next(p for p in placed if p.card.is_joker)
        chosen = _stood_for(placed)
        # Other places: only those where the joker is another card (in a run of all
        # thirteen ranks the run shifts but the joker stays the same card).
        others = [(other, pts) for other, pts, _ in options[1:]
                  if _stood_for(other) != chosen]
        alternatives = tuple((_stood_for(other), pts) for other, pts in others)
        if not alternatives:
            why = JokerWhy.ONLY_PLACE
        elif others[0][1] > options[0][1]:
            why = JokerWhy.FEWER_POINTS
        else:
            why = JokerWhy.LOWER_RANK
        choice = JokerChoice(joker.rank, joker.suit, alternatives, why)
    return MeldResult(
        given, True, MeldType.RUN, None, points if rules.meld_points else None,
        placed, choice,
    )


def _stood_for(placed: tuple[Placed, ...]) -> Card:
    joker = next(p for p in placed if p.card.is_joker)
    return Card(joker.rank, joker.suit)


def _place_run(
    given: tuple[Card, ...], naturals: list[Card], start: int, suit: Suit, rules: RuleSet
) -> tuple[tuple[Placed, ...], int, int]:
    """Lay the run out from ``start``; return (placed cards, points by the value of the
    card each joker stands for, points under ``rules``)."""
    by_place: dict[int, Card] = {}
    end = start + len(given) - 1
    for c in naturals:
        assert c.rank is not None
        ace_place = 1 if start == 1 else HIGH_ACE
        by_place[ace_place if c.rank is Rank.ACE else int(c.rank)] = c
    jokers = iter(c for c in given if c.is_joker)
    placed = []
    nominal = 0
    for place in range(start, end + 1):
        rank = Rank(1 if place == HIGH_ACE else place)
        value = rank_points(rank, place)
        nominal += value
        if place in by_place:
            placed.append(Placed(by_place[place], rank, suit, place, value))
        else:
            placed.append(Placed(next(jokers), rank, suit, place, _joker_points(value, rules)))
    return tuple(placed), nominal, sum(p.points for p in placed)
