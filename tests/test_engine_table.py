"""Hand values, round scoring, lay-offs and taking back a joker (docs/rules.md "Scoring",
"A turn", "Taking back a joker", "Order of reasons")."""

from __future__ import annotations

import pytest

from generator.engine import parse_card
from generator.engine import parse_cards
from generator.engine import rule_set
from generator.engine.codes import LayoffReason
from generator.engine.codes import MeldReason
from generator.engine.codes import SwapReason
from generator.engine.codes import TableJokerWhy
from generator.engine.hand import RoundError
from generator.engine.hand import hand_value
from generator.engine.hand import score_round
from generator.engine.table import TableError
from generator.engine.table import check_joker_swap
from generator.engine.table import check_layoff

REF = rule_set("rami51")
HOUSE = rule_set("rami51", "house")
CV = rule_set("cardverse")
CV_HIGH = rule_set("cardverse", ace_high=True)


@pytest.mark.parametrize(
    ("cards", "rules", "points"),
    [
        ("2C 9D 10H JS QC KD", REF, 2 + 9 + 40),
        ("AH JK", REF, 11 + 25),  # docs/rules.md Scoring (decided): ace 11, joker 25
        ("AH JK", HOUSE, 11 + 15),  # house preset: joker 15
        ("AH KH 5C", CV, 1 + 10 + 5),  # CardVerse: ace 1
        ("AH KH 5C", CV_HIGH, 11 + 10 + 5),  # ace_high: ace 11
        ("", REF, 0),
    ],
)
def test_hand_values(cards: str, rules: object, points: int) -> None:
    assert hand_value(parse_cards(cards), rules) == points  # type: ignore[arg-type]


def test_rami_round_with_a_seat_out() -> None:
    result = score_round([parse_cards("5C 6C"), (), parse_cards("JK AH")], REF)
    assert (result.winner, result.scores, result.went_out) == (2, (11, 0, 36), True)


def test_cardverse_winner_collects() -> None:
    result = score_round([parse_cards("5C 6C"), (), parse_cards("KH AH")], CV)
    assert (result.winner, result.scores) == (2, (0, 22, 0))


def test_lowest_hand_wins_ties_to_the_lowest_seat() -> None:
    result = score_round([parse_cards("KH"), parse_cards("5C"), parse_cards("2C 3C")], REF)
    assert (result.winner, result.scores, result.tied) == (2, (10, 0, 5), (2, 3))
    result = score_round([parse_cards("KH"), parse_cards("5C"), parse_cards("2C 3C")], CV)
    assert (result.winner, result.scores) == (2, (0, 15, 0))


def test_round_errors() -> None:
    with pytest.raises(RoundError):
        score_round([(), ()], REF)
    with pytest.raises(RoundError):
        score_round([parse_cards("2C")], REF)


@pytest.mark.parametrize(
    ("meld", "added", "valid", "reason", "points"),
    [
        ("JK 7S 8S", "9S", True, None, 30),  # the joker stays 6♠: 6+7+8+9
        ("JK 7S 8S", "6S", False, "breaks_meld", None),  # only by taking the joker back
        ("JK 7S 8S", "5S", True, None, 26),
        ("9C 9D JK", "9H", True, None, 36),
        ("9C 9D 9H JK", "9S", False, "breaks_meld", None),  # five cards
        ("QH KH AH", "JH", True, None, 41),
        ("QH KH AH", "2H", False, "breaks_meld", None),  # wraps around
        ("7S 7H 7D", "7S", False, "breaks_meld", None),  # two 7♠ in a set
        ("5C 6C 7C", "8C 9C", True, None, 35),
        ("5C JK 7C 8C 9C", "JK", False, "breaks_meld", None),  # one joker per meld
    ],
)
def test_layoff(meld: str, added: str, valid: bool, reason: str | None,
                points: int | None) -> None:
    result = check_layoff(parse_cards(meld), parse_cards(added), REF)
    assert result.valid is valid
    assert result.reason == (LayoffReason(reason) if reason else None)
    assert result.points == points


def test_layoff_house_joker_keeps_fifteen() -> None:
    assert check_layoff(parse_cards("JK 7S 8S"), parse_cards("9S"), HOUSE).points == 39


def test_layoff_before_opening() -> None:
    result = check_layoff(parse_cards("QH KH AH"), parse_cards("JH"), REF, opened=False)
    assert result.reason is LayoffReason.NOT_OPENED
    # CardVerse has no opening: lay-offs from the first turn.
    assert check_layoff(parse_cards("QH KH AH"), parse_cards("JH"), CV, opened=False).valid


def test_layoff_onto_an_invalid_meld_is_refused_as_input() -> None:
    with pytest.raises(TableError) as refused:
        check_layoff(parse_cards("KH AH 2H"), parse_cards("3H"), REF)
    assert refused.value.reason is MeldReason.WRAPS_AROUND


@pytest.mark.parametrize(
    ("meld", "card", "opened", "reason", "stands_for"),
    [
        ("JK 7S 8S", "6S", True, None, "6S"),
        ("JK 7S 8S", "9S", True, "wrong_card", "6S"),
        ("9C 9D 9H JK", "9S", True, None, "9S"),  # set of three naturals and a joker
        ("9C 9D JK", "9S", True, "set_needs_three_naturals", None),
        ("QH KH AH", "QH", True, "no_joker", None),
        ("JK 7S 8S", "6S", False, "not_opened", "6S"),
        ("QH KH AH", "QH", False, "no_joker", None),  # no_joker comes first
    ],
)
def test_joker_swap(meld: str, card: str, opened: bool, reason: str | None,
                    stands_for: str | None) -> None:
    result = check_joker_swap(parse_cards(meld), parse_card(card), REF, opened=opened)
    assert result.allowed is (reason is None)
    assert result.reason == (SwapReason(reason) if reason else None)
    assert result.stands_for == (parse_card(stands_for) if stands_for else None)
    if result.allowed:
        assert result.meld is not None and result.meld.valid


@pytest.mark.parametrize(
    ("meld", "card", "rules", "why", "others"),
    [
        ("JK 7S 8S", "9S", REF, TableJokerWhy.KEPT_CARD, "9S"),  # 6♠ or 9♠: it took 6♠
        ("JK 7S 8S", "6S", HOUSE, TableJokerWhy.KEPT_CARD, "9S"),  # 15 points either way
        ("JK JH QH", "10H", REF, TableJokerWhy.KEPT_CARD, "KH"),  # equal points: 10♥
        ("7S JK 9S", "8S", REF, TableJokerWhy.ONLY_CARD, ""),
        ("AH 2H JK", "3H", REF, TableJokerWhy.ONLY_CARD, ""),  # no place below the ace
        ("9C 9D 9H JK", "9S", REF, TableJokerWhy.ONLY_CARD, ""),  # the suit the set lacks
        ("9C 9D JK", "9S", REF, TableJokerWhy.OPEN_SUIT, ""),
        ("QH KH AH", "QH", REF, None, ""),  # no joker
    ],
)
def test_joker_swap_says_why_the_joker_is_its_card(meld: str, card: str, rules: object,
                                                   why: TableJokerWhy | None,
                                                   others: str) -> None:
    """Why a table joker stands for its card, in codes that speak of the card: the
    engine's reasoning for taking it back, not the points that placed it."""
    result = check_joker_swap(parse_cards(meld), parse_card(card), rules)  # type: ignore[arg-type]
    assert result.why is why
    assert result.others == tuple(parse_cards(others))
