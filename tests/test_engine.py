"""The engine against every checked value of docs/rules.md (tables "Checked values" and
"Checked openings", "Cards and decks") and docs/site.md, "Meld reasons"."""

from __future__ import annotations

import pytest

from generator.engine import Card
from generator.engine import MeldReason
from generator.engine import MeldType
from generator.engine import OpeningReason
from generator.engine import PlayerCountError
from generator.engine import Rank
from generator.engine import Suit
from generator.engine import check_meld
from generator.engine import check_opening
from generator.engine import deck
from generator.engine import parse_card
from generator.engine import parse_cards
from generator.engine import rule_set
from generator.engine.cards import CardCodeError
from generator.engine.opening import NoOpeningError
from generator.engine.rules import GAMES_WITH_PRESETS

RAMI = rule_set("rami51")
CARDVERSE = rule_set("cardverse")

# docs/rules.md, "Points of melded cards", checked values (reference preset).
CHECKED_MELDS = [
    ("Q♥ K♥ A♥", True, "run", None, 31, None),
    ("A♥ 2♥ 3♥", True, "run", None, 6, None),
    ("5♣ 6♣ 7♣", True, "run", None, 18, None),
    ("JK 7♠ 8♠", True, "run", None, 21, "6S"),
    ("K♥ K♠ K♦", True, "set", None, 30, None),
    ("A♣ A♥ A♠", True, "set", None, 33, None),
    ("9♣ 9♦ 9♥ JK", True, "set", None, 36, "9S"),
    ("7♠ 7♠ 7♥", False, "set", "duplicate_suit", None, None),
    ("K♥ A♥ 2♥", False, "run", "wraps_around", None, None),
    ("JK JK 5♥ 6♥", False, "run", "too_many_jokers", None, None),
]


@pytest.mark.parametrize(("cards", "valid", "type_", "reason", "points", "joker"), CHECKED_MELDS)
@pytest.mark.parametrize("game", GAMES_WITH_PRESETS)
def test_checked_melds(
    game: str, cards: str, valid: bool, type_: str, reason: str | None,
    points: int | None, joker: str | None,
) -> None:
    result = check_meld(parse_cards(cards), rule_set(game))
    assert result.valid is valid
    assert result.type is MeldType(type_)
    assert result.reason == (MeldReason(reason) if reason else None)
    assert result.points == points
    if joker:
        assert result.joker is not None
        assert Card(result.joker.rank, result.joker.suit) == parse_card(joker)
    else:
        assert result.joker is None


def test_listed_order_does_not_matter() -> None:
    for cards, *_ in CHECKED_MELDS:
        parsed = parse_cards(cards)
        forward = check_meld(parsed, RAMI)
        backward = check_meld(tuple(reversed(parsed)), RAMI)
        assert (forward.valid, forward.reason, forward.points) == (
            backward.valid, backward.reason, backward.points)


def test_joker_takes_the_place_with_fewer_points() -> None:
    # docs/rules.md: JK Q♥ K♥ is J♥, 30 points, not A♥ (31).
    result = check_meld(parse_cards("JK QH KH"), RAMI)
    assert result.points == 30
    assert result.joker is not None
    assert (result.joker.rank, result.joker.suit) == (Rank.JACK, Suit.HEARTS)
    assert result.joker.alternatives == ((parse_card("AH"), 31),)
    assert result.joker.why == "fewer_points"


def test_joker_on_equal_points_takes_the_lower_rank() -> None:
    # docs/rules.md: JK J♥ Q♥ is 10♥ (10 points either way).
    result = check_meld(parse_cards("JK JH QH"), RAMI)
    assert result.joker is not None
    assert (result.joker.rank, result.joker.why) == (Rank.TEN, "lower_rank")
    assert result.points == 30


def test_joker_with_seven_and_eight_is_six_with_nine_as_alternative() -> None:
    result = check_meld(parse_cards("JK 7S 8S"), RAMI)
    assert result.joker is not None
    assert result.joker.alternatives == ((parse_card("9S"), 24),)


def test_joker_in_a_set_of_three_keeps_its_suit_open() -> None:
    result = check_meld(parse_cards("9C 9D JK"), RAMI)
    assert result.valid and result.points == 27
    assert result.joker is not None
    assert result.joker.rank is Rank.NINE and result.joker.suit is None


def test_house_preset_joker_is_fifteen_in_the_same_place() -> None:
    result = check_meld(parse_cards("JK 7S 8S"), rule_set("rami51", "house"))
    assert result.points == 30
    assert result.joker is not None and result.joker.rank is Rank.SIX


def test_full_run_of_thirteen_counts_the_ace_low() -> None:
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
    result = check_meld(cards, RAMI)
    assert result.valid and result.points == 1 + 44 + 40


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        ("QH KH", "too_few_cards"),
        ("QH KS", "too_few_cards"),
        ("QH KS 2D", "not_a_meld"),
        ("7S 7H 7D 7C 7S", "too_many_cards"),
        ("5H 6H 8H", "not_consecutive"),
        ("5H 5H 6H", "not_consecutive"),
        ("QH KH AH 2H", "wraps_around"),
        ("KH JK 2H", "wraps_around"),
        ("JK JK 5H", "too_many_jokers"),
        ("JK JK", "too_many_jokers"),
    ],
)
def test_reason_order(cards: str, reason: str) -> None:
    assert check_meld(parse_cards(cards), RAMI).reason is MeldReason(reason)


def test_run_of_fourteen_is_too_many_cards() -> None:
    cards = parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")
    assert check_meld(cards, RAMI).reason is MeldReason.TOO_MANY_CARDS


@pytest.mark.parametrize(
    ("cards", "valid", "reason"),
    [
        ("QH KH AH", True, None),
        ("AH 2H 3H", False, "ace_low_not_allowed"),
        ("KH AH 2H", False, "wraps_around"),
        ("7S 7H 7D 7C", True, None),
        ("QH KH", False, "too_few_cards"),
    ],
)
@pytest.mark.parametrize("ace_high", [False, True])
def test_cardverse_ace_is_only_high(
    cards: str, valid: bool, reason: str | None, ace_high: bool
) -> None:
    result = check_meld(parse_cards(cards), rule_set("cardverse", ace_high=ace_high))
    assert result.valid is valid
    assert result.reason == (MeldReason(reason) if reason else None)
    assert result.points is None  # melds carry no points in CardVerse


def test_no_joker_in_cardverse() -> None:
    assert check_meld(parse_cards("JK 7S 8S"), CARDVERSE).reason is MeldReason.TOO_MANY_JOKERS


def test_pure_run() -> None:
    assert check_meld(parse_cards("5C 6C 7C"), RAMI).pure
    assert not check_meld(parse_cards("JK 7S 8S"), RAMI).pure
    assert not check_meld(parse_cards("KH KS KD"), RAMI).pure


# docs/rules.md, "Checked openings from the source pages".
CHECKED_OPENINGS = [
    (["QH KH AH", "JK 7S 8S"], "rami51", "reference", 52, None),
    (["KH KS KD", "QC QD QS"], "rami51", "reference", 60, "no_pure_run"),
    (["5C 6C 7C", "KH KS KD"], "rami51", "reference", 48, "below_threshold"),
    (["5C 6C 7C", "KH KS KD"], "rami40", "reference", 48, None),
    (["5C 6C 7C", "4D 4S 4C", "AH 2H 3H 4H"], "rami40", "reference", 40, None),
    (["QH KH AH", "JK 7S 8S"], "rami51", "house", 61, None),
]


@pytest.mark.parametrize(("melds", "game", "preset", "total", "reason"), CHECKED_OPENINGS)
def test_checked_openings(
    melds: list[str], game: str, preset: str, total: int, reason: str | None
) -> None:
    result = check_opening([parse_cards(m) for m in melds], rule_set(game, preset))
    assert result.points == total
    assert result.accepted is (reason is None)
    assert result.reason == (OpeningReason(reason) if reason else None)


def test_opening_with_an_invalid_meld_has_no_total() -> None:
    result = check_opening([parse_cards("QH KH AH"), parse_cards("KH AH 2H")], RAMI)
    assert result.reason is OpeningReason.INVALID_MELD
    assert result.points is None and result.invalid_index == 1


def test_invalid_meld_comes_before_no_pure_run() -> None:
    result = check_opening([parse_cards("KH KS KD"), parse_cards("7S 7S 7H")], RAMI)
    assert result.reason is OpeningReason.INVALID_MELD


def test_cardverse_has_no_opening() -> None:
    with pytest.raises(NoOpeningError):
        check_opening([parse_cards("QH KH AH")], CARDVERSE)


# docs/rules.md, "Cards and decks".
@pytest.mark.parametrize(
    ("game", "preset", "players", "decks", "jokers", "cards", "hand"),
    [
        *[("rami51", "reference", p, 2, 4, 108, 13) for p in (2, 3, 4)],
        *[("rami51", "reference", p, 3, 4, 160, 13) for p in (5, 6)],
        *[("rami40", "house", p, 2, 2, 106, 13) for p in (2, 3, 4)],
        *[("rami40", "house", p, 3, 3, 159, 13) for p in (5, 6)],
        ("cardverse", None, 2, 1, 0, 52, 7),
        ("cardverse", None, 3, 1, 0, 52, 10),
        ("cardverse", None, 4, 1, 0, 52, 10),
    ],
)
def test_decks(
    game: str, preset: str | None, players: int, decks: int, jokers: int, cards: int, hand: int
) -> None:
    result = deck(rule_set(game, preset), players)
    assert (result.decks, result.jokers, result.cards, result.hand_size) == (
        decks, jokers, cards, hand)


@pytest.mark.parametrize(("game", "players"), [("rami51", 1), ("rami51", 7), ("cardverse", 5)])
def test_player_count_not_allowed(game: str, players: int) -> None:
    with pytest.raises(PlayerCountError):
        deck(rule_set(game), players)


@pytest.mark.parametrize(
    ("code", "expected"),
    [("QH", "QH"), ("10s", "10S"), ("TS", "10S"), ("Q♥", "QH"), ("jk", "JK"), ("a♣", "AC")],
)
def test_card_codes(code: str, expected: str) -> None:
    assert parse_card(code).code == expected


@pytest.mark.parametrize("code", ["1H", "QX", "", "H", "11S", "JKK"])
def test_bad_card_codes(code: str) -> None:
    with pytest.raises(CardCodeError):
        parse_card(code)
    with pytest.raises(CardCodeError):  # asked again: refused again, not remembered
        parse_card(code)


def test_a_card_code_read_again_is_the_same_card() -> None:
    assert parse_card("Q♥") == parse_card("qh") == parse_card("QH") == Card(Rank.QUEEN, Suit.HEARTS)
    assert parse_card(" 10s ") == parse_card("TS") == Card(Rank.TEN, Suit.SPADES)
    assert parse_card("jk") is parse_card("JK")


def test_rule_set_fields() -> None:
    assert rule_set("rami40").opening_threshold == 40
    assert not rule_set("rami40").opening_needs_pure_run
    assert rule_set("rami51").opening_threshold == 51
    assert rule_set("rami51").opening_needs_pure_run
    assert rule_set("rami51").max_reshuffles == 2
    assert rule_set("rami51").turn_limit == 300
    assert rule_set("cardverse").target_score == 100
    assert rule_set("cardverse").opening_threshold is None
    assert rule_set("cardverse", ace_high=True).ace_hand_points == 11


# docs/site.md, "Meld reasons": what `type` says when the cards could be read both ways,
# or not at all.
@pytest.mark.parametrize(
    ("cards", "type_", "reason"),
    [
        ("7S 7S 7S", "set", "duplicate_suit"),  # copies of one card: read as a set
        ("7S 7S JK", "set", "duplicate_suit"),
        ("5H JK", "set", "too_few_cards"),
        ("7S 7S", "set", "too_few_cards"),
        ("JK JK 5H 6S", None, "too_many_jokers"),  # naturals share neither
        ("5H 6S", None, "too_few_cards"),
        ("JK JK", None, "too_many_jokers"),  # no natural card
        ("JK", None, "too_few_cards"),
        ("QH KS 2D", None, "not_a_meld"),
        ("KS KH JK JK", "set", "too_many_jokers"),  # the naturals still tell the type
        ("KH JK JK 2H", "run", "too_many_jokers"),
    ],
)
def test_type_of_copies_and_of_melds_without_a_type(cards: str, type_: str | None,
                                                    reason: str) -> None:
    result = check_meld(parse_cards(cards), RAMI)
    assert (result.valid, result.type, result.reason) == (
        False, MeldType(type_) if type_ else None, MeldReason(reason))


# docs/site.md, "Meld reasons": wraps_around only for a gap-free run of distinct ranks
# passing K-A-2; a gap, a repeated rank or no ace between the king and the two is
# not_consecutive.
@pytest.mark.parametrize(
    ("cards", "game", "reason"),
    [
        ("KH AH 2H", "rami51", "wraps_around"),
        ("KH JK 2H", "rami51", "wraps_around"),  # the joker as the ace
        ("QH JK AH 2H", "rami51", "wraps_around"),  # the joker as the king
        ("KH AH JK 3H", "rami51", "wraps_around"),  # the joker as the two
        ("10H JH QH KH AH 2H", "rami51", "wraps_around"),
        ("QH KH AH 2H", "cardverse", "wraps_around"),
        ("QH KH 2H 3H", "rami51", "not_consecutive"),  # no ace between K and 2
        ("KH 2H 3H", "cardverse", "not_consecutive"),
        ("KH AH 3H", "rami51", "not_consecutive"),  # a gap
        ("JH KH AH 2H", "rami51", "not_consecutive"),
        ("KH JK 3H", "rami51", "not_consecutive"),  # the joker cannot fill two places
        ("KH AH 2H 2H", "rami51", "not_consecutive"),  # a repeated rank
        ("QH KH AH AH 2H", "rami51", "not_consecutive"),
    ],
)
def test_where_wraps_around_stops(cards: str, game: str, reason: str) -> None:
    result = check_meld(parse_cards(cards), rule_set(game))
    assert (result.valid, result.type, result.reason) == (
        False, MeldType.RUN, MeldReason(reason))
