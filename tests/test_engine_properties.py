"""Properties of the meld engine (docs/rules.md "Melds", "Points of melded cards"), checked
with Hypothesis over generated melds: runs and sets (some with a joker, some spoiled)
and arbitrary cards, under every game and preset.

Default: 60 examples per property; ``RULES_EXTENDED=1``: 1,000 (``-m extended``).
Examples are derandomized, so every run checks the same melds.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from generator.engine import JOKER
from generator.engine import Card
from generator.engine import MeldReason
from generator.engine import MeldResult
from generator.engine import MeldType
from generator.engine import Rank
from generator.engine import RuleSet
from generator.engine import Suit
from generator.engine import check_meld
from generator.engine import rule_set
from generator.engine.melds import Placed
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import presets_of

EXTENDED = os.environ.get("RULES_EXTENDED") == "1"
pytestmark = pytest.mark.extended  # its big round: RULES_EXTENDED=1 pytest -m extended

PROPERTY = settings(
    max_examples=1_000 if EXTENDED else 60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

RAMI = tuple(rule_set(game, preset) for game in GAMES_WITH_PRESETS
             for preset in presets_of(game))
CARDVERSE = (rule_set("cardverse"), rule_set("cardverse", ace_high=True),
             rule_set("cardverse", discard_to_win=True))
ALL_RULES = (*RAMI, *CARDVERSE)
REFERENCE = tuple(r for r in RAMI if r.preset == "reference")

# -- strategies ---------------------------------------------------------------------

naturals = st.builds(Card, st.sampled_from(Rank), st.sampled_from(Suit))
any_card = st.one_of(naturals, naturals, naturals, st.just(JOKER))


@st.composite
def runs(draw: st.DrawFn) -> list[Card]:
    """Consecutive cards of one suit (the ace low, high, or going round K-A-2), with up
    to two cards replaced by jokers and sometimes one card changed or added."""
    suit = draw(st.sampled_from(Suit))
    length = draw(st.integers(3, 13))
    first = draw(st.integers(0, 12))  # on the circle ace = 0 ... king = 12
    cards = [Card(Rank((first + i) % 13 + 1), suit) for i in range(length)]
    for _ in range(draw(st.integers(0, 2))):
        cards[draw(st.integers(0, length - 1))] = JOKER
    spoil = draw(st.sampled_from(("none", "none", "change", "add", "drop")))
    if spoil == "change":
        cards[draw(st.integers(0, length - 1))] = draw(any_card)
    elif spoil == "add":
        cards.append(draw(any_card))
    elif spoil == "drop":
        cards.pop(draw(st.integers(0, length - 1)))
    return cards


@st.composite
def sets(draw: st.DrawFn) -> list[Card]:
    """Cards of one rank (suits possibly repeated), with up to two jokers."""
    rank = draw(st.sampled_from(Rank))
    suits = draw(st.lists(st.sampled_from(Suit), min_size=1, max_size=5))
    cards = [Card(rank, s) for s in suits] + [JOKER] * draw(st.integers(0, 2))
    if draw(st.booleans()):
        cards.append(draw(any_card))
    return cards


melds = st.one_of(runs(), runs(), sets(), st.lists(any_card, max_size=8))


def shuffled(cards: Sequence[Card]) -> st.SearchStrategy[list[Card]]:
    return st.permutations(list(cards))


def summary(result: MeldResult) -> tuple[object, ...]:
    """What a page shows of a verdict, and which card each joker stands for."""
    joker = (result.joker.rank, result.joker.suit) if result.joker else None
    return (result.valid, result.type, result.reason, result.points, joker)


def placements(result: MeldResult) -> Counter[tuple[object, ...]]:
    """Each card with what it counts as, as a multiset (the order laid aside)."""
    return Counter((p.card, p.rank, p.suit, p.place, p.points) for p in result.placed)


def placed_value(p: Placed, rules: RuleSet, meld_type: MeldType) -> int:
    """A placed card's points from docs/rules.md: 2-9 face value, 10/J/Q/K 10, the ace 1
    when low (place 1) and 11 when high or in a set; a joker the value of the card it
    stands for (reference) or 15 (house)."""
    if p.card.is_joker and rules.preset == "house":
        return 15
    if p.rank is Rank.ACE:
        return 11 if meld_type is MeldType.SET or p.place == 14 else 1
    return min(int(p.rank), 10)


# -- properties ---------------------------------------------------------------------


@PROPERTY
@given(cards=melds, rules=st.sampled_from(ALL_RULES), data=st.data())
def test_listed_order_never_changes_the_verdict(
    cards: list[Card], rules: RuleSet, data: st.DataObject
) -> None:
    other = data.draw(shuffled(cards))
    first, second = check_meld(cards, rules), check_meld(other, rules)
    assert summary(first) == summary(second)
    assert placements(first) == placements(second)


@PROPERTY
@given(cards=melds, rules=st.sampled_from(ALL_RULES))
def test_valid_meld_points_are_the_sum_of_its_cards(cards: list[Card], rules: RuleSet) -> None:
    result = check_meld(cards, rules)
    if not result.valid:
        assert result.points is None and result.placed == ()
        assert result.reason is not None
        return
    assert result.reason is None and result.type is not None
    # every card given is placed exactly once
    assert Counter(p.card for p in result.placed) == Counter(cards)
    if not rules.meld_points:
        assert result.points is None  # CardVerse melds carry no points
        return
    assert result.points == sum(p.points for p in result.placed)
    for p in result.placed:
        assert p.points == placed_value(p, rules, result.type), p


@PROPERTY
@given(cards=runs(), rules=st.sampled_from(REFERENCE))
def test_reference_joker_takes_the_cheapest_place(cards: list[Card], rules: RuleSet) -> None:
    result = check_meld(cards, rules)
    if not result.valid or result.joker is None:
        return
    joker = next(p for p in result.placed if p.card.is_joker)
    assert result.points is not None
    for other, points in result.joker.alternatives:
        assert result.points <= points, (other, points)
        if result.points == points:  # on equal points, the lower rank
            assert other.rank is not None
            assert joker.place <= (14 if other.rank is Rank.ACE else int(other.rank))


@PROPERTY
@given(suit=st.sampled_from(Suit), top=st.integers(3, 13), joker_at=st.integers(-1, 12))
def test_ace_low_run_is_rami_only(suit: Suit, top: int, joker_at: int) -> None:
    cards = [Card(Rank(r), suit) for r in range(1, top + 1)]
    for rules in RAMI:
        result = check_meld(cards, rules)
        assert result.valid and result.type is MeldType.RUN
        ace = next(p for p in result.placed if p.card.rank is Rank.ACE)
        assert ace.place == 1 and ace.points == 1
        if 1 <= joker_at < top:  # a joker for any card but the ace keeps it valid
            with_joker = [*cards[:joker_at], JOKER, *cards[joker_at + 1:]]
            assert check_meld(with_joker, rules).valid
    for rules in CARDVERSE:
        result = check_meld(cards, rules)
        if top == 13:  # A-K, all thirteen: the ace reads high (2-K-A)
            assert result.valid
            continue
        assert not result.valid
        assert result.reason is MeldReason.ACE_LOW_NOT_ALLOWED
        assert result.type is MeldType.RUN


def test_ace_two_three_in_every_suit() -> None:
    for suit in Suit:
        cards = [Card(Rank.ACE, suit), Card(Rank.TWO, suit), Card(Rank.THREE, suit)]
        for rules in RAMI:
            result = check_meld(cards, rules)
            assert (result.valid, result.points) == (True, 6)
        for rules in CARDVERSE:
            result = check_meld(cards, rules)
            assert (result.valid, result.reason) == (False, MeldReason.ACE_LOW_NOT_ALLOWED)


@PROPERTY
@given(cards=st.one_of(runs(), melds), rules=st.sampled_from(ALL_RULES))
def test_no_run_has_a_high_and_a_low_ace(cards: list[Card], rules: RuleSet) -> None:
    result = check_meld(cards, rules)
    if result.valid and result.type is MeldType.RUN:
        places = {p.place for p in result.placed if p.rank is Rank.ACE}
        assert len(places) <= 1, result.placed
        assert {1, 14} - {p.place for p in result.placed}


@PROPERTY
@given(suit=st.sampled_from(Suit), middle=st.lists(st.sampled_from(Rank), max_size=11),
       jokers=st.integers(0, 1), rules=st.sampled_from(ALL_RULES))
def test_two_aces_of_one_suit_are_never_a_run(
    suit: Suit, middle: list[Rank], jokers: int, rules: RuleSet
) -> None:
    cards = [Card(Rank.ACE, suit), Card(Rank.ACE, suit),
             *(Card(r, suit) for r in middle), *[JOKER] * jokers]
    result = check_meld(cards, rules)
    assert not result.valid


@PROPERTY
@given(cards=melds)
def test_house_and_reference_put_the_joker_in_the_same_place(cards: list[Card]) -> None:
    for game in GAMES_WITH_PRESETS:
        reference = check_meld(cards, rule_set(game, "reference"))
        house = check_meld(cards, rule_set(game, "house"))
        assert (reference.valid, reference.type, reference.reason) == (
            house.valid, house.type, house.reason)
        assert [(p.card, p.rank, p.suit, p.place) for p in reference.placed] == [
            (p.card, p.rank, p.suit, p.place) for p in house.placed]
        if reference.joker is not None:
            assert house.joker is not None
            assert (reference.joker.rank, reference.joker.suit) == (
                house.joker.rank, house.joker.suit)
        if reference.valid:
            assert reference.points is not None and house.points is not None
            swing = sum(15 - p.points for p in reference.placed if p.card.is_joker)
            assert house.points == reference.points + swing


# -- a known engine bug ---------------------------------------------------------------

THIRTEEN = [Card(rank, Suit.HEARTS) for rank in Rank]


@pytest.mark.parametrize("joker_at", range(13))
def test_alternatives_are_other_cards(joker_at: int) -> None:
    cards = [*THIRTEEN[:joker_at], JOKER, *THIRTEEN[joker_at + 1:]]
    for rules in RAMI:
        result = check_meld(cards, rules)
        assert result.valid and result.joker is not None
        stands_for = Card(result.joker.rank, result.joker.suit)
        assert stands_for == THIRTEEN[joker_at]
        assert all(other != stands_for for other, _ in result.joker.alternatives), \
            result.joker
        assert result.joker.why == "only_place"
