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

CARDS: tuple[Card, ...] = (*(Card(r, s) for s in Suit for r in Rank), JOKER)
"""One instance per card value: equal cards held by the state are the same object, so
list and tuple searches stop at the identity test, and a card's index (suit ♣ ♦ ♥ ♠, rank
ace low, the joker last) is a fast sort and cache key."""
_INDEX_BY_ID = {id(c): i for i, c in enumerate(CARDS)}
_INDEX_BY_VALUE = {c: i for i, c in enumerate(CARDS)}


def card_index(card: Card) -> int:
    """The card's index in :data:`CARDS` (sort key: by suit, rank, the joker last)."""
    i = _INDEX_BY_ID.get(id(card))
    return _INDEX_BY_VALUE[card] if i is None else i


def canon(card: Card) -> Card:
    """The one instance of ``card``'s value."""
    return CARDS[card_index(card)]


def canon_all(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The one instance of each card's value, in the order given."""
    return tuple(CARDS[card_index(c)] for c in cards)


@functools.lru_cache(maxsize=1 << 16)
def _check_sorted(indices: tuple[int, ...], rules: RuleSet) -> MeldResult:
    return check_meld(tuple(CARDS[i] for i in indices), rules)


def meld_result(cards: Iterable[Card], rules: RuleSet) -> MeldResult:
    """``melds.check_meld`` with a cache (the verdict does not depend on the cards'
    order; ``MeldResult.cards`` is sorted by suit and rank, the joker last)."""
    return _check_sorted(tuple(sorted(card_index(c) for c in cards)), rules)


def meld_order(cards: Iterable[Card], rules: RuleSet) -> tuple[Card, ...]:
    """The cards of a valid meld in meld order (a run low to high, the joker in place)."""
    return canon_all(p.card for p in meld_result(cards, rules).placed)


def remove_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
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
    result = meld_result(cards, rules)
    for p in result.placed:
        if p.card.is_joker:
            return p.stands_for
    return None
