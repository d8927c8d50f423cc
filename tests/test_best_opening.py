"""best_opening (engine/best.py): hand-worked cases, and a brute-force oracle written
here, independently of the search, on many random small hands.

Sources: docs/rules.md "Melds", "Points of melded cards", "The opening (first meld), Rami".
Set ``RULES_EXTENDED=1`` for many more random hands (and larger ones).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from collections.abc import Sequence
from itertools import combinations

import pytest

from generator.engine import JOKER
from generator.engine import BestOpening
from generator.engine import Card
from generator.engine import MeldResult
from generator.engine import NoOpeningError
from generator.engine import OpeningReason
from generator.engine import Rank
from generator.engine import RuleSet
from generator.engine import Suit
from generator.engine import best_opening
from generator.engine import check_meld
from generator.engine import check_opening
from generator.engine import parse_cards
from generator.engine import rule_set
from tests.conftest import EXTENDED
from tests.conftest import EXTENDED_ONLY

R40 = rule_set("rami40")
R51 = rule_set("rami51")
R40_HOUSE = rule_set("rami40", "house")
R51_HOUSE = rule_set("rami51", "house")


def codes(cards: Sequence[Card]) -> list[str]:
    return sorted(c.code for c in cards)


def assert_consistent(result: BestOpening, rules: RuleSet) -> None:
    """The answer describes itself truthfully: valid disjoint melds from the hand, the
    cards left are the rest, the points are the melds' and the verdict is check_opening's."""
    melded = [c for m in result.melds for c in m.cards]
    assert all(m.valid for m in result.melds)
    assert codes(melded + list(result.left)) == codes(result.cards)
    assert result.points == sum(m.points or 0 for m in result.melds)
    opening = check_opening([m.cards for m in result.melds], rules)
    assert (result.can_open, result.reason) == (opening.accepted, opening.reason)
    assert result.verdict == ("can_open" if result.can_open else "cannot_open")
    for m in result.melds:
        assert check_meld(m.cards, rules).points == m.points
    if rules.opening_needs_pure_run and result.melds:
        assert any(m.pure for m in result.melds)


def melds_of(result: BestOpening) -> list[list[str]]:
    return sorted(codes(m.cards) for m in result.melds)


# ---------------------------------------------------------------------------
# Hand-worked cases (points worked out by hand from docs/rules.md's point rules).
# ---------------------------------------------------------------------------

# Two sets (K♥ K♠ K♦ 30, Q♣ Q♦ Q♠ 30) and nothing else that melds.
TWO_SETS = "KH KS KD QC QD QS 2C 5D 9H 4S 7C JH 3D"


def test_two_sets_open_rami40_not_rami51() -> None:
    result = best_opening(parse_cards(TWO_SETS), R40)
    assert_consistent(result, R40)
    assert (result.points, result.can_open, result.reason) == (60, True, None)
    assert melds_of(result) == [["KD", "KH", "KS"], ["QC", "QD", "QS"]]
    assert codes(result.left) == codes(parse_cards("2C 5D 9H 4S 7C JH 3D"))

    # docs/rules.md: two sets are never enough for Rami 51, however many points.
    result = best_opening(parse_cards(TWO_SETS), R51)
    assert_consistent(result, R51)
    assert (result.points, result.melds, result.can_open) == (0, (), False)
    assert result.reason is OpeningReason.NO_PURE_RUN
    assert codes(result.left) == codes(parse_cards(TWO_SETS))


# Hearts 9 to K and a joker; the seven other cards meld with nothing, not even with
# the joker (no two of one rank, no two of one suit within two ranks).
LONG_RUN = "9H 10H JH QH KH JK 2C 6C 3D 7D 4S 8S 5H"


def test_splitting_a_long_run_scores_more() -> None:
    # As one run the joker takes 8♥ (fewer points than A♥): 8+9+10+10+10+10 = 57.
    assert check_meld(parse_cards("JK 9H 10H JH QH KH"), R51).points == 57
    # Split, 9♥ 10♥ J♥ (29) is pure and JK Q♥ K♥ (joker J♥, 30) gives 59.
    result = best_opening(parse_cards(LONG_RUN), R51)
    assert_consistent(result, R51)
    assert (result.points, result.can_open) == (59, True)
    assert melds_of(result) == [["10H", "9H", "JH"], ["JK", "KH", "QH"]]
    assert codes(result.left) == codes(parse_cards("2C 6C 3D 7D 4S 8S 5H"))


def test_long_run_house_preset() -> None:
    # House: the joker is 15 wherever it stands, so every way of melding all six
    # cards gives 9+10+10+10+10+15 = 64.
    result = best_opening(parse_cards(LONG_RUN), R51_HOUSE)
    assert_consistent(result, R51_HOUSE)
    assert (result.points, result.can_open, len(result.left)) == (64, True, 7)


# A♣ A♥ JK is a set of three with a joker (11+11+11 = 33), 5♣ 6♣ 7♣ the pure run (18);
# the other cards meld with nothing.
ACES = "AC AH JK 5C 6C 7C 10C 2D 8D 4H JH 3S KS"


def test_joker_in_a_set_of_three_reaches_the_threshold_exactly() -> None:
    result = best_opening(parse_cards(ACES), R51)
    assert_consistent(result, R51)
    assert (result.points, result.can_open) == (51, True)  # exactly 51 is enough
    assert melds_of(result) == [["5C", "6C", "7C"], ["AC", "AH", "JK"]]
    # House: the joker counts 15: 11+11+15 + 18 = 55.
    result = best_opening(parse_cards(ACES), R51_HOUSE)
    assert_consistent(result, R51_HOUSE)
    assert (result.points, result.can_open) == (55, True)
    assert melds_of(result) == [["5C", "6C", "7C"], ["AC", "AH", "JK"]]


# Fourteen cards that all meld: A♣ 2♣ 3♣ (6), 4♦-7♦ (22), 9♠ JK J♠ (joker 10♠),
# K♣ K♦ K♥ K♠ (40).
ALL_FOURTEEN = "AC 2C 3C 4D 5D 6D 7D 9S JK JS KC KD KH KS"


@pytest.mark.parametrize(
    ("rules", "points"), [(R51, 6 + 22 + 29 + 40), (R51_HOUSE, 6 + 22 + 34 + 40)]
)
def test_fourteen_cards_all_melded(rules: RuleSet, points: int) -> None:
    result = best_opening(parse_cards(ALL_FOURTEEN), rules)
    assert_consistent(result, rules)
    assert (result.points, result.can_open, result.left) == (points, True, ())
    assert len(result.melds) == 4


def test_pure_run_condition_changes_the_choice() -> None:
    hand = parse_cards("KH KS KD KC QC QD QS JD")
    # Rami 40: K♣ K♦ K♥ K♠ (40) + Q♣ Q♦ Q♠ (30).
    result = best_opening(hand, R40)
    assert_consistent(result, R40)
    assert result.points == 70
    assert melds_of(result) == [["KC", "KD", "KH", "KS"], ["QC", "QD", "QS"]]
    # Rami 51: the only pure run J♦ Q♦ K♦ (30) takes K♦ and Q♦; K♣ K♥ K♠ (30) is left.
    result = best_opening(hand, R51)
    assert_consistent(result, R51)
    assert result.points == 60
    assert melds_of(result) == [["JD", "KD", "QD"], ["KC", "KH", "KS"]]
    assert codes(result.left) == ["QC", "QS"]


@pytest.mark.parametrize("rules", [R40, R51])
def test_biggest_meld_first_is_not_best(rules: RuleSet) -> None:
    # Greedy would take the four kings (40) and be stuck; two runs J-Q-K give 60.
    result = best_opening(parse_cards("JS QS KS JH QH KH KC KD"), rules)
    assert_consistent(result, rules)
    assert (result.points, result.can_open) == (60, True)


NOTHING = "2C 6C 10C 3D 7D JD 4S 8S QS 5H 9H KH AC"


@pytest.mark.parametrize(
    ("rules", "reason"),
    [(R40, OpeningReason.BELOW_THRESHOLD), (R51, OpeningReason.NO_PURE_RUN),
     (R40_HOUSE, OpeningReason.BELOW_THRESHOLD), (R51_HOUSE, OpeningReason.NO_PURE_RUN)],
)
def test_nothing_melds(rules: RuleSet, reason: OpeningReason) -> None:
    result = best_opening(parse_cards(NOTHING), rules)
    assert_consistent(result, rules)
    assert (result.points, result.melds, result.can_open, result.reason) == (0, (), False, reason)
    assert result.verdict == "cannot_open"
    assert result.left == parse_cards(NOTHING)  # in the order given


def test_pure_run_below_threshold() -> None:
    # docs/rules.md's checked opening 5♣ 6♣ 7♣ + K♥ K♠ K♦ = 48, here as a hand.
    hand = parse_cards("5C 6C 7C KH KS KD 2D 9H 4S 10D JS 3H 8D")
    result = best_opening(hand, R51)
    assert_consistent(result, R51)
    assert (result.points, result.can_open) == (48, False)
    assert result.reason is OpeningReason.BELOW_THRESHOLD
    assert (result.threshold, result.pure_run_needed) == (51, True)
    result = best_opening(hand, R40)
    assert (result.points, result.can_open, result.threshold) == (48, True, 40)


def test_rami40_exactly_forty_uses_every_card() -> None:
    # docs/rules.md's checked opening 5♣ 6♣ 7♣ + 4♦ 4♠ 4♣ + A♥ 2♥ 3♥ 4♥ = 40; every way of
    # melding all ten cards gives 40.
    result = best_opening(parse_cards("5C 6C 7C 4D 4S 4C AH 2H 3H 4H"), R40)
    assert_consistent(result, R40)
    assert (result.points, result.can_open, result.left) == (40, True, ())


@pytest.mark.parametrize(("rules", "points"), [(R40, 1 + 2 + 3), (R40_HOUSE, 15 + 2 + 3)])
def test_joker_before_the_two_is_a_low_ace(rules: RuleSet, points: int) -> None:
    # JK 2♥ 3♥: the joker is A♥ (1 point) rather than 4♥ (4) under reference rules.
    result = best_opening(parse_cards("JK 2H 3H"), rules)
    assert_consistent(result, rules)
    assert (result.points, result.can_open) == (points, False)


def test_copies_from_two_decks() -> None:
    # Two identical pure runs (18 each) and three kings: 66.
    result = best_opening(parse_cards("5C 6C 7C 5C 6C 7C KH KS KD"), R51)
    assert_consistent(result, R51)
    assert (result.points, result.can_open, result.left) == (66, True, ())
    assert melds_of(result) == [["5C", "6C", "7C"], ["5C", "6C", "7C"], ["KD", "KH", "KS"]]


def test_one_joker_per_meld() -> None:
    # Four jokers and 5♥ 6♥: at most one joker per meld, so one meld JK 5♥ 6♥
    # (joker 4♥, 15 points) is all; three jokers stay in the hand.
    result = best_opening(parse_cards("JK JK JK JK 5H 6H"), R40)
    assert_consistent(result, R40)
    assert result.points == 15
    assert Counter(c.code for c in result.left) == {"JK": 3}


def test_order_of_the_hand_does_not_matter() -> None:
    for hand in (TWO_SETS, LONG_RUN, ACES, ALL_FOURTEEN):
        cards = parse_cards(hand)
        for rules in (R40, R51, R51_HOUSE):
            assert best_opening(cards, rules).points == best_opening(cards[::-1], rules).points


def test_empty_and_jokers_only() -> None:
    assert best_opening((), R40).points == 0
    result = best_opening((JOKER, JOKER), R51)
    assert (result.points, result.can_open, result.left) == (0, False, (JOKER, JOKER))


def test_cardverse_has_no_opening() -> None:
    with pytest.raises(NoOpeningError):
        best_opening(parse_cards(TWO_SETS), rule_set("cardverse"))
    assert issubclass(NoOpeningError, ValueError)


# ---------------------------------------------------------------------------
# Brute-force oracle: every subset of the hand checked by check_meld, then every
# packing of disjoint valid subsets. Written without the search in engine/best.py:
# it knows nothing of windows, jokers' places or multisets (cards are positions).
# ---------------------------------------------------------------------------


class Oracle:
    """Best opening by brute force, for hands of up to about 12 cards."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.meld_cache: dict[tuple[str, ...], MeldResult] = {}

    def meld(self, cards: tuple[Card, ...]) -> MeldResult:
        key = tuple(c.code for c in cards)
        found = self.meld_cache.get(key)
        if found is None:
            found = self.meld_cache[key] = check_meld(cards, self.rules)
        return found

    def best(self, hand: Sequence[Card]) -> tuple[int, int] | None:
        """(points, cards melded) of the best allowed opening, the most points first and
        then the most cards; ``None`` when no allowed opening exists (Rami 51 without
        any pure run). The empty opening is allowed when no pure run is needed."""
        cards = sorted(hand, key=lambda c: c.code)
        n = len(cards)
        valid: list[tuple[int, int, int, bool]] = []  # (mask, points, size, pure)
        for size in range(1, n + 1):
            for combo in combinations(range(n), size):
                result = self.meld(tuple(cards[i] for i in combo))
                if result.valid:
                    mask = sum(1 << i for i in combo)
                    valid.append((mask, result.points or 0, size, result.pure))
        memo: dict[tuple[int, bool], tuple[int, int] | None] = {}

        def pack(free: int, need_pure: bool) -> tuple[int, int] | None:
            if (free, need_pure) in memo:
                return memo[(free, need_pure)]
            best: tuple[int, int] | None = None if need_pure else (0, 0)
            if free:
                low = free & -free
                # The lowest free card is either in no meld, or in one of these.
                best = pack(free & ~low, need_pure)
                for mask, points, size, pure in valid:
                    if mask & low and mask & free == mask:
                        rest = pack(free & ~mask, need_pure and not pure)
                        if rest is not None:
                            option = (rest[0] + points, rest[1] + size)
                            if best is None or option > best:
                                best = option
            memo[(free, need_pure)] = best
            return best

        return pack((1 << n) - 1, self.rules.opening_needs_pure_run)


def random_hand(rng: random.Random, size: int) -> tuple[Card, ...]:
    """``size`` cards from a 2-deck + 4-joker pool, narrowed to a few suits and a window of
    ranks (the ace at either end) so that most hands hold melds."""
    suits = rng.sample(list(Suit), rng.randint(1, 4))
    width = rng.randint(3, 9)
    low = rng.randint(1, 14 - width + 1)
    ranks = [Rank.ACE if p == 14 else Rank(p) for p in range(low, low + width)]
    pool = [Card(r, s) for r in ranks for s in suits] * 2 + [JOKER] * 4
    return tuple(rng.sample(pool, min(size, len(pool))))


ORACLE_HANDS = 600 if EXTENDED else 40
ORACLE_SIZES = (8, 9, 10, 11, 12) if EXTENDED else (8, 9, 10)


def brute_force(test: Callable[[RuleSet], None]) -> Callable[[RuleSet], None]:
    """A test of the presets against the brute force: a few hands of both games' opposite
    presets by default, many hands of every preset in the extended round."""
    presets = pytest.mark.parametrize(
        "rules", [R40, pytest.param(R51, marks=EXTENDED_ONLY),
                  pytest.param(R40_HOUSE, marks=EXTENDED_ONLY), R51_HOUSE],
        ids=["rami40-reference", "rami51-reference", "rami40-house", "rami51-house"])
    return pytest.mark.extended(presets(test))


@brute_force
def test_agrees_with_brute_force(rules: RuleSet) -> None:
    rng = random.Random(f"best-opening-{rules.game}-{rules.preset}")
    oracle = Oracle(rules)
    scored = opened = 0
    for _ in range(ORACLE_HANDS):
        hand = random_hand(rng, rng.choice(ORACLE_SIZES))
        result = best_opening(hand, rules)
        expected = oracle.best(hand)
        hand_text = " ".join(c.code for c in hand)
        if expected is None:
            assert (result.points, result.melds) == (0, ()), hand_text
        else:
            melded = sum(len(m.cards) for m in result.melds)
            assert (result.points, melded) == expected, hand_text
        assert_consistent(result, rules)
        scored += result.points > 0
        opened += result.can_open
    # The random hands are meant to meld: most score, and a fair share open.
    assert scored > ORACLE_HANDS // 2
    assert opened > ORACLE_HANDS // 10


@brute_force
def test_full_hands_agree_with_brute_force(rules: RuleSet) -> None:
    # The hand-worked hands of 13 and 14 cards, and random ones of that size.
    rng = random.Random(f"full-hands-{rules.game}-{rules.preset}")
    hands = [parse_cards(h) for h in (TWO_SETS, LONG_RUN, ACES, ALL_FOURTEEN, NOTHING)]
    hands += [random_hand(rng, rng.choice((13, 14))) for _ in range(60 if EXTENDED else 0)]
    oracle = Oracle(rules)
    for hand in hands:
        result = best_opening(hand, rules)
        expected = oracle.best(hand)
        melded = sum(len(m.cards) for m in result.melds)
        assert (result.points, melded) == (expected or (0, 0)), " ".join(c.code for c in hand)


def test_equally_good_openings_are_chosen_alike_in_every_process() -> None:
    """Of equally good openings the same one is chosen whatever the process's string
    hashing (``PYTHONHASHSEED``): a page, ``explain`` and the card checker in the browser
    give the same melds."""
    import subprocess
    import sys

    code = ("from generator.engine import best_opening, parse_cards, rule_set; "
            "print([m.cards for m in best_opening(parse_cards("
            "'JS JD 10D 2S QH QD JK JC AH KD 3S 2H 3H'), rule_set('rami51')).melds])")
    said = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("0", "4")}
    assert len(said) == 1, said
