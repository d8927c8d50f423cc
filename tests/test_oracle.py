"""The meld engine against an independent brute-force oracle.

The oracle below is written from docs/rules.md ("Melds", "Points of melded cards") and
docs/site.md (the meld ``reason`` codes and their order) only; it never calls the engine.
Instead of reasoning about windows and arcs it tries every concrete card each joker
could be (52 possibilities) and judges the resulting plain cards:

- set: 3 or 4 cards of one rank, all suits different;
- run: 3 to 13 cards of one suit in consecutive ranks, the ace low (A-2-3) or high
  (Q-K-A), never both, no going round the corner (K-A-2); CardVerse: the ace only high;
- jokers: Rami at most one per meld, CardVerse none;
- points (Rami): 2-9 face value, 10/J/Q/K 10, ace 1 low and 11 high or in a set; the
  joker takes the place giving the fewest points, on equal points the lower rank, and
  is worth what it stands for (reference) or 15 wherever it stands (house); a run of
  all thirteen ranks counts its ace 1;
- reason: the first that applies of too_many_jokers, too_few_cards, not_a_meld, then
  for a set too_many_cards (more than 4), duplicate_suit, and for a run too_many_cards
  (more than 13), wraps_around (a joker assignment makes the cards a run only by
  going round K-A-2), ace_low_not_allowed (only with the ace before the two,
  CardVerse), not_consecutive.

Compared with ``check_meld`` on every multiset of 1 and 2 cards from a two-deck pool
with jokers (exhaustive), every one-rank multiset of 4 and 5 cards with jokers, and
seeded samples: 3,000 of the 26,183 multisets of 3 cards, 1,500 of the 9,400 hearts
multisets of 4 and 5 cards with jokers, 1,000 melds of 4 and 1,000 of 5 cards, for every
game and preset (about 9,000 melds each, 0.6 s; the whole sets took 3.5 s a game, a
fifth of the default run). With ``RULES_EXTENDED=1``, instead of the samples: every
multiset of 3 cards, every hearts multiset of 4 and 5 cards, a seeded sample of 40,000
melds of 4 cards, every one-suit multiset of 5 cards in each suit, a seeded sample of
30,000 melds of 5 cards and 8,000 of 6 to 13 cards.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import sys
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from generator.engine import JOKER
from generator.engine import Card
from generator.engine import Rank
from generator.engine import RuleSet
from generator.engine import Suit
from generator.engine import check_meld
from generator.engine import rule_set

EXTENDED = os.environ.get("RULES_EXTENDED") == "1"
pytestmark = pytest.mark.extended  # its big round: RULES_EXTENDED=1 pytest -m extended

# -- the oracle's own cards ---------------------------------------------------------
# A natural card is (rank, suit): rank 1 (ace) to 13 (king), suit 0-3 (C D H S).
# The joker is None.

OCard = tuple[int, int] | None
NATURALS: tuple[tuple[int, int], ...] = tuple((r, s) for s in range(4) for r in range(1, 14))
KINDS: tuple[OCard, ...] = (*NATURALS, None)
"""53 kinds of card: the 52 naturals, then the joker."""
POOL_COPIES = 2
"""A two-deck pool: each natural card at most twice."""
POOL_JOKERS = 4
"""... and at most four jokers (Rami, reference preset, 2-4 players)."""


@dataclass(frozen=True)
class Spec:
    """One game and preset as docs/rules.md states it (not the engine's rule sets)."""

    name: str
    jokers_per_meld: int  # Rami 1, CardVerse 0
    ace_low: bool  # Rami: A-2-3 allowed; CardVerse: the ace only high
    house: bool  # house preset: a melded joker is worth 15
    points: bool  # Rami melds carry points; CardVerse melds do not
    game: str
    preset: str | None
    ace_high_option: bool = False

    def engine_rules(self) -> RuleSet:
        return rule_set(self.game, self.preset, ace_high=self.ace_high_option)


SPECS = (
    Spec("rami40/reference", 1, True, False, True, "rami40", "reference"),
    Spec("rami40/house", 1, True, True, True, "rami40", "house"),
    Spec("rami51/reference", 1, True, False, True, "rami51", "reference"),
    Spec("rami51/house", 1, True, True, True, "rami51", "house"),
    Spec("cardverse", 0, False, False, False, "cardverse", None),
    # the ace_high option changes hand values only, never a meld (docs/rules.md)
    Spec("cardverse/ace_high", 0, False, False, False, "cardverse", None, True),
)


@dataclass(frozen=True)
class Verdict:
    valid: bool
    type: str | None
    reason: str | None
    points: int | None
    stands_for: tuple[int, int | None] | None  # (rank, suit or None), valid melds only


def _consecutive(places: list[int]) -> bool:
    """Distinct places with no gap."""
    return len(set(places)) == len(places) and max(places) - min(places) == len(places) - 1


def _place_value(place: int) -> int:
    """Points of a card at a run place (1 = low ace ... 13 = king, 14 = high ace)."""
    if place == 1:
        return 1
    if place == 14:
        return 11
    return min(place, 10)


def _set_value(rank: int) -> int:
    return 11 if rank == 1 else min(rank, 10)


def _is_set(concrete: list[tuple[int, int]]) -> bool:
    return (3 <= len(concrete) <= 4 and len({r for r, _ in concrete}) == 1
            and len({s for _, s in concrete}) == len(concrete))


def _run_readings(concrete: list[tuple[int, int]], spec: Spec) -> list[list[int]]:
    """Every way to read plain cards as a run: the place of each card (in order)."""
    if not 3 <= len(concrete) <= 13 or len({s for _, s in concrete}) != 1:
        return []
    ranks = [r for r, _ in concrete]
    if len(set(ranks)) != len(ranks):
        return []
    readings = []
    if 1 not in ranks:
        if _consecutive(ranks):
            readings.append(ranks)
        return readings
    if spec.ace_low and _consecutive(ranks):
        readings.append(ranks)
    high = [14 if r == 1 else r for r in ranks]
    if _consecutive(high):
        readings.append(high)
    return readings


def _wraps(concrete: list[tuple[int, int]]) -> bool:
    """Plain cards of one suit, distinct ranks, that hold K, A and 2 and are
    consecutive on the circle (each rank but the last followed by the next)."""
    if len({s for _, s in concrete}) != 1:
        return False
    ranks = {r for r, _ in concrete}
    if len(ranks) != len(concrete) or not {13, 1, 2} <= ranks:
        return False
    ends = sum(1 for r in ranks if (r % 13) + 1 not in ranks)
    return ends <= 1


def _assignments(cards: tuple[OCard, ...]) -> Iterator[tuple[list[tuple[int, int]], list[int]]]:
    """Every way to turn the jokers into concrete cards: (the plain cards, the indexes
    of the jokers among them)."""
    jokers = [i for i, c in enumerate(cards) if c is None]
    for choice in itertools.product(NATURALS, repeat=len(jokers)):
        chosen = iter(choice)
        concrete = [next(chosen) if c is None else c for c in cards]
        yield concrete, jokers


def oracle(cards: tuple[OCard, ...], spec: Spec) -> Verdict:
    """The verdict on ``cards`` under ``spec``, by brute force (see the module doc)."""
    naturals = [c for c in cards if c is not None]
    jokers = len(cards) - len(naturals)
    ranks = {r for r, _ in naturals}
    suits = {s for _, s in naturals}
    type_ = "set" if len(ranks) == 1 else "run" if len(suits) == 1 else None

    def invalid(reason: str, kind: str | None = type_) -> Verdict:
        return Verdict(False, kind, reason, None, None)

    if jokers > spec.jokers_per_meld:
        return invalid("too_many_jokers")
    if len(cards) < 3:
        return invalid("too_few_cards")
    if type_ is None:
        return invalid("not_a_meld", None)
    if type_ == "set":
        if len(cards) > 4:
            return invalid("too_many_cards")
        if len(suits) != len(naturals):
            return invalid("duplicate_suit")
    elif len(cards) > 13:
        return invalid("too_many_cards")

    # (reference points, the joker's place, its rank and suit) of every valid reading
    found: list[tuple[int, int, int, int]] = []
    house_points: dict[tuple[int, int], int] = {}
    for concrete, joker_at in _assignments(cards):
        if type_ == "set":
            readings = [[r for r, _ in concrete]] if _is_set(concrete) else []
            values = [[_set_value(r) for r in reading] for reading in readings]
        else:
            readings = _run_readings(concrete, spec)
            values = [[_place_value(p) for p in reading] for reading in readings]
        for reading, vals in zip(readings, values, strict=True):
            ref = sum(vals)
            house = sum(15 if i in joker_at else v for i, v in enumerate(vals))
            jplace = reading[joker_at[0]] if joker_at else 0
            jrank, jsuit = concrete[joker_at[0]] if joker_at else (0, 0)
            key = (ref, jplace, jrank, jsuit)
            found.append(key)
            house_points[key[:2]] = house
    if found:
        best = min(found)
        ref, jplace = best[0], best[1]
        points = (house_points[(ref, jplace)] if spec.house else ref) if spec.points else None
        stands_for = None
        if jokers:
            suits_at_best = {k[3] for k in found if k[:2] == best[:2]}
            stands_for = (best[2], best[3] if len(suits_at_best) == 1 else None)
        return Verdict(True, type_, None, points, stands_for)
    if type_ == "set":
        return invalid("?set-not-found")
    if any(_wraps(concrete) for concrete, _ in _assignments(cards)):
        return invalid("wraps_around")
    if not spec.ace_low and any(
        any(r == 1 for r, _ in concrete)
        and _run_readings(concrete, _with_ace_low(spec))
        for concrete, _ in _assignments(cards)
    ):
        return invalid("ace_low_not_allowed")
    return invalid("not_consecutive")


def _with_ace_low(spec: Spec) -> Spec:
    return Spec(spec.name, spec.jokers_per_meld, True, spec.house, spec.points, spec.game,
                spec.preset)


# -- the engine, seen the same way ---------------------------------------------------

_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def to_engine(card: OCard) -> Card:
    if card is None:
        return JOKER
    return Card(Rank(card[0]), _SUITS[card[1]])


def engine(cards: tuple[OCard, ...], rules: RuleSet) -> Verdict:
    result = check_meld([to_engine(c) for c in cards], rules)
    stands_for = None
    if result.valid and result.joker is not None:
        suit = None if result.joker.suit is None else _SUITS.index(result.joker.suit)
        stands_for = (int(result.joker.rank), suit)
    return Verdict(result.valid, result.type.value if result.type else None,
                   result.reason.value if result.reason else None, result.points, stands_for)


def show(cards: Iterable[OCard]) -> str:
    return " ".join(to_engine(c).code for c in cards)


# -- the melds compared ------------------------------------------------------------


def _in_pool(multiset: tuple[int, ...]) -> bool:
    counts = Counter(multiset)
    return all(n <= (POOL_JOKERS if k == 52 else POOL_COPIES) for k, n in counts.items())


def multisets(kinds: tuple[OCard, ...], size: int) -> Iterator[tuple[OCard, ...]]:
    """Every multiset of ``size`` cards of ``kinds`` that a two-deck pool holds."""
    index = {k: KINDS.index(k) for k in kinds}
    for combo in itertools.combinations_with_replacement(kinds, size):
        if _in_pool(tuple(index[c] for c in combo)):
            yield combo


def sample(size: int, count: int, seed: int) -> Iterator[tuple[OCard, ...]]:
    """``count`` seeded random melds of ``size`` cards from the two-deck pool, in four
    equal shares: drawn from the whole pool; from one suit; from one rank or a short
    stretch of ranks (sets, mixed suits); a stretch of consecutive ranks in one suit
    (going round K-A-2 or not) with 0-2 cards changed. All but the first hold 0-2
    jokers."""
    rng = random.Random(seed)
    pool = [*(c for c in NATURALS for _ in range(POOL_COPIES)), *([None] * POOL_JOKERS)]
    for n in range(count):
        mode = n % 4
        if mode == 0:
            yield tuple(rng.sample(pool, size))
            continue
        jokers = rng.choice((0, 0, 1, 1, 2))
        wanted = size - jokers
        if mode == 3:
            suit = rng.randrange(4)
            first = rng.randrange(13)
            cards: list[OCard] = [((first + i) % 13 + 1, suit) for i in range(wanted)]
            for _ in range(rng.choice((0, 0, 1, 2))):
                cards[rng.randrange(wanted)] = rng.choice(NATURALS)
            yield (*cards, *([None] * jokers))
            continue
        if mode == 1:
            suit = rng.randrange(4)
            sub = [c for c in pool if c is not None and c[1] == suit]
        else:
            low = rng.randint(1, 13)
            width = max(rng.choice((1, 1, 2, 3)), -(-wanted // (4 * POOL_COPIES)))
            span = {((low - 1 + i) % 13) + 1 for i in range(width)}
            sub = [c for c in pool if c is not None and c[0] in span]
        yield (*rng.sample(sub, wanted), *([None] * jokers))


@functools.cache
def meld_sets() -> list[tuple[str, list[tuple[OCard, ...]]]]:
    """The melds to compare, by name."""
    one_suit = (*(c for c in NATURALS if c[1] == 2), None)  # hearts and the joker
    sets_of = [(*(c for c in NATURALS if c[0] == r), None) for r in range(1, 14)]
    groups = [
        ("every multiset of 1 or 2 cards",
         [m for size in (1, 2) for m in multisets(KINDS, size)]),
        ("every one-rank 4-5-card multiset",
         [m for kinds in sets_of for size in (4, 5) for m in multisets(kinds, size)]),
    ]
    if EXTENDED:
        groups += [
            ("every 3-card multiset", list(multisets(KINDS, 3))),
            ("every hearts 4-5-card multiset",
             [m for size in (4, 5) for m in multisets(one_suit, size)]),
            ("seeded sample of 4 cards", list(sample(4, 40_000, seed=4))),
            ("every one-suit 5-card multiset",
             [m for s in range(4)
              for m in multisets((*(c for c in NATURALS if c[1] == s), None), 5)]),
            ("seeded sample of 5 cards", list(sample(5, 30_000, seed=5))),
            ("seeded sample of 6-13 cards",
             [m for size in range(6, 14) for m in sample(size, 1_000, seed=size)]),
        ]
    else:  # a fifth of the exhaustive sets' melds, so the default run stays short
        rng = random.Random(3)
        groups += [
            ("seeded sample of 3-card multisets",
             rng.sample(list(multisets(KINDS, 3)), 3_000)),
            ("seeded sample of hearts 4-5-card multisets",
             rng.sample([m for size in (4, 5) for m in multisets(one_suit, size)], 1_500)),
            ("seeded sample of 4 cards", list(sample(4, 1_000, seed=4))),
            ("seeded sample of 5 cards", list(sample(5, 1_000, seed=5))),
        ]
    return groups


@dataclass
class Disagreement:
    spec: str
    cards: str
    oracle: Verdict
    engine: Verdict


def compare(melds: Iterable[tuple[OCard, ...]], spec: Spec) -> tuple[int, list[Disagreement]]:
    rules = spec.engine_rules()
    compared = 0
    found: list[Disagreement] = []
    for cards in melds:
        compared += 1
        want = oracle(cards, spec)
        got = engine(cards, rules)
        if want != got:
            found.append(Disagreement(spec.name, show(cards), want, got))
    return compared, found


_TOTALS: Counter[str] = Counter()


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_engine_agrees_with_the_brute_force_oracle(spec: Spec) -> None:
    disagreements: list[Disagreement] = []
    for _, melds in meld_sets():
        compared, found = compare(melds, spec)
        _TOTALS["compared"] += compared
        disagreements += found
    _TOTALS["disagreements"] += len(disagreements)
    print(f"oracle {spec.name}: {_TOTALS['compared']} melds compared so far, "
          f"{len(disagreements)} disagreements", file=sys.stderr)
    shown = "\n".join(f"{d.spec}: {d.cards}: oracle {d.oracle}, engine {d.engine}"
                      for d in disagreements[:20])
    assert not disagreements, f"{len(disagreements)} disagreements:\n{shown}"


# -- the oracle itself against docs/rules.md's checked values ---------------------------


def _parse(text: str) -> tuple[OCard, ...]:
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
    out: list[OCard] = []
    for code in text.split():
        out.append(None if code == "JK" else (ranks[code[:-1]], "CDHS".index(code[-1])))
    return tuple(out)


@pytest.mark.parametrize(("cards", "verdict"), [
    ("QH KH AH", Verdict(True, "run", None, 31, None)),
    ("AH 2H 3H", Verdict(True, "run", None, 6, None)),
    ("5C 6C 7C", Verdict(True, "run", None, 18, None)),
    ("JK 7S 8S", Verdict(True, "run", None, 21, (6, 3))),
    ("JK QH KH", Verdict(True, "run", None, 30, (11, 2))),
    ("JK JH QH", Verdict(True, "run", None, 30, (10, 2))),
    ("KH KS KD", Verdict(True, "set", None, 30, None)),
    ("AC AH AS", Verdict(True, "set", None, 33, None)),
    ("9C 9D 9H JK", Verdict(True, "set", None, 36, (9, 3))),
    ("9C 9D JK", Verdict(True, "set", None, 27, (9, None))),
    ("7S 7S 7H", Verdict(False, "set", "duplicate_suit", None, None)),
    ("KH AH 2H", Verdict(False, "run", "wraps_around", None, None)),
    ("JK JK 5H 6H", Verdict(False, "run", "too_many_jokers", None, None)),
    ("5C 6D 7H", Verdict(False, None, "not_a_meld", None, None)),
    ("5C 6C 8C", Verdict(False, "run", "not_consecutive", None, None)),
])
def test_oracle_gives_the_checked_values(cards: str, verdict: Verdict) -> None:
    assert oracle(_parse(cards), SPECS[2]) == verdict


def test_oracle_house_and_cardverse() -> None:
    assert oracle(_parse("JK 7S 8S"), SPECS[3]).points == 30  # 7 + 8 + 15
    assert oracle(_parse("QH KH AH"), SPECS[4]) == Verdict(True, "run", None, None, None)
    assert oracle(_parse("AH 2H 3H"), SPECS[4]).reason == "ace_low_not_allowed"
    assert oracle(_parse("KH AH 2H"), SPECS[4]).reason == "wraps_around"
    assert oracle(_parse("JK QH KH"), SPECS[4]).reason == "too_many_jokers"
