"""One instance per card value, and the meld verdict cached by it: the game's hot paths
(legality, legal actions) test cards by identity and look verdicts up by sorted card
indices instead of checking a meld again."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from collections.abc import Sequence

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet

# One instance per card value: equal cards held by the state are the same object, so
# list and tuple searches stop at the identity test, and a card's index (suit ♣ ♦ ♥ ♠,
# rank ace low, the joker last) is a fast sort and cache key.
_CARDS: tuple[Card, ...] = (*(Card(r, s) for s in Suit for r in Rank), JOKER)


_INDEX_BY_ID = {id(c): i for i, c in enumerate(_CARDS)}


_INDEX_BY_VALUE = {c: i for i, c in enumerate(_CARDS)}


def _key(card: Card) -> int:
    """The card's index in :data:`_CARDS` (sort key: by suit, rank, the joker last)."""
    i = _INDEX_BY_ID.get(id(card))
    return _INDEX_BY_VALUE[card] if i is None else i


def _canon(card: Card) -> Card:
    """The one instance of ``card``'s value."""
    return _CARDS[_key(card)]


def _canon_all(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(_CARDS[_key(c)] for c in cards)


@functools.lru_cache(maxsize=1 << 16)
def _check_sorted(indices: tuple[int, ...], rules: RuleSet) -> MeldResult:
    return check_meld(tuple(_CARDS[i] for i in indices), rules)


def meld_result(cards: Iterable[Card], rules: RuleSet) -> MeldResult:
    """``melds.check_meld`` with a cache (the verdict does not depend on the cards'
    order; ``MeldResult.cards`` is sorted by suit and rank, the joker last)."""
    return _check_sorted(tuple(sorted(_key(c) for c in cards)), rules)


_check = meld_result


def _ordered(cards: Iterable[Card], rules: RuleSet) -> tuple[Card, ...]:
    """The cards of a valid meld in meld order (a run low to high, the joker in place)."""
    return _canon_all(p.card for p in _check(cards, rules).placed)


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """``hand`` without ``cards`` (as a multiset); ``None`` when it does not hold them."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


def run_joker_card(cards: Sequence[Card], rules: RuleSet) -> Card | None:
    """The card the joker of a valid table meld stands for when fixed (a run's joker, or
    a set's joker lying with three naturals); ``None`` otherwise."""
    result = _check(cards, rules)
    for p in result.placed:
        if p.card.is_joker:
            return p.stands_for
    return None
