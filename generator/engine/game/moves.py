"""Every legal action of a state, and the melds a hand can make (for bots and the
property tests)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.codes import MeldType
from generator.engine.game.actions import Action
from generator.engine.game.actions import Discard
from generator.engine.game.actions import Draw
from generator.engine.game.actions import LayOff
from generator.engine.game.actions import Meld
from generator.engine.game.actions import TakeJoker
from generator.engine.game.cache import CARDS
from generator.engine.game.cache import canon
from generator.engine.game.cache import card_index
from generator.engine.game.cache import meld_result
from generator.engine.game.cache import run_joker_card
from generator.engine.game.legality import can_lay_joker
from generator.engine.game.legality import is_locked
from generator.engine.game.legality import layoff_problem
from generator.engine.game.legality import meld_problem
from generator.engine.game.legality import take_joker
from generator.engine.game.state import GameState
from generator.engine.melds import HIGH_ACE
from generator.engine.opening import check_opening
from generator.engine.rules import AcePlace
from generator.engine.rules import RuleSet


def hand_melds(hand: Iterable[Card], rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    """Valid melds that can be made from ``hand`` (cards), each sorted by suit and rank,
    the joker last:

    - every set of 3 or 4 naturals of one rank in different suits, and (with jokers) of
      2 or 3 such naturals and one joker;
    - every run of 3 to 13 naturals of one suit in consecutive places, and (with jokers)
      every window of 3 to 13 consecutive places where the hand holds all places but
      one, the joker standing in that one (held or not).

    Every meld of the hand holding at most one joker is among them (a subset of the
    hand's cards that is a valid meld is one of these shapes).
    """
    return _hand_melds(tuple(sorted(card_index(c) for c in hand)), rules)


@functools.lru_cache(maxsize=1 << 14)
def _hand_melds(indices: tuple[int, ...], rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    hand = [CARDS[i] for i in indices]
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[Card, ...]] = []
    jokers = sum(1 for c in hand if c.is_joker) if rules.jokers_per_meld else 0
    by_rank: dict[Rank, list[Suit]] = {}
    by_suit: dict[Suit, set[int]] = {}
    low = AcePlace.LOW in rules.ace_places
    high = AcePlace.HIGH in rules.ace_places
    for c in hand:
        if c.rank is None or c.suit is None:
            continue
        suits = by_rank.setdefault(c.rank, [])
        if c.suit not in suits:
            suits.append(c.suit)
        places = by_suit.setdefault(c.suit, set())
        if c.rank is Rank.ACE:
            if low:
                places.add(1)
            if high:
                places.add(HIGH_ACE)
        else:
            places.add(int(c.rank))

    def add(cards: tuple[Card, ...]) -> None:
        key = tuple(sorted(card_index(c) for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(tuple(CARDS[i] for i in key))

    for rank, suits in by_rank.items():
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                add(tuple(canon(Card(rank, s)) for s in combo))
        if jokers:
            for size in (2, 3):
                for combo in itertools.combinations(suits, size):
                    add((*(canon(Card(rank, s)) for s in combo), JOKER))
    for suit, places in by_suit.items():
        for first in range(1, HIGH_ACE - 1):
            missing = 0
            held: list[Card] = []
            for last in range(first, HIGH_ACE + 1):
                if last in places:
                    held.append(canon(Card(Rank(1 if last == HIGH_ACE else last), suit)))
                else:
                    missing += 1
                    if missing > min(1, jokers):
                        break
                if last - first < 2 or (first == 1 and last == HIGH_ACE):
                    continue
                if missing:
                    add((*held, JOKER))
                    continue
                add(tuple(held))
                if jokers:  # the joker in the place of any one card of the window
                    for i in range(len(held)):
                        add((*held[:i], *held[i + 1:], JOKER))
    return tuple(out)


def _layoff_candidates(cards: tuple[Card, ...], rules: RuleSet) -> set[Card]:
    """Single cards (canonical) that might extend the valid meld ``cards`` (to be
    checked)."""
    result = meld_result(cards, rules)
    out: set[Card] = set()
    has_joker = any(c.is_joker for c in cards)
    if rules.jokers_per_meld and not has_joker:
        out.add(JOKER)
    if result.type is MeldType.SET:
        rank = result.placed[0].rank
        out.update(canon(Card(rank, s)) for s in Suit)
        return out
    suit = result.placed[0].suit
    assert suit is not None
    for place in (result.placed[0].place - 1, result.placed[-1].place + 1):
        if 1 <= place <= HIGH_ACE:
            out.add(canon(Card(Rank(1 if place == HIGH_ACE else place), suit)))
    return out


def legal_actions(state: GameState) -> list[Action]:
    """Legal actions of the player whose turn it is (empty once the round is over).

    Before the draw: ``Draw("stock")`` (always legal: an empty stock is refilled or ends
    the round) and ``Draw("discard")`` when the pile holds a card. After it, every legal
    action of these kinds (each applies legally):

    - ``Meld``: the melds of :func:`hand_melds` that are legal now, except, for a player
      who has not opened, a meld of the last cards whose opening would fall short (it
      would only return the cards);
    - ``LayOff``: every legal lay-off of a single card onto a table meld;
    - ``TakeJoker``: every legal joker take-back;
    - ``Discard``: every legal discard, one per distinct card.

    Lay-offs of several cards at once, and melds holding two or more jokers, are not
    listed (a useful subset for bots).
    """
    if state.end is not None:
        return []
    if not state.drawn:
        draws: list[Action] = [Draw("stock")]
        if state.discard:
            draws.append(Draw("discard"))
        return draws
    rules = state.rules
    hand = state.hand
    actions: list[Action] = []
    for cards in hand_melds(hand, rules):
        problem, value = meld_problem(state, cards)  # every meld of hand_melds is valid
        if problem is not None or not isinstance(value, tuple):
            continue
        if not value[0] and not state.opened[state.turn]:
            melds = [state.table[i].cards for i in state.laid] + [cards]
            if not check_opening(melds, rules).accepted:
                continue
        actions.append(Meld(cards))
    distinct = [CARDS[i] for i in sorted({card_index(c) for c in hand})]
    held = set(distinct)
    if state.opened[state.turn]:
        for i, meld in enumerate(state.table):
            for card in sorted(_layoff_candidates(meld.cards, rules) & held, key=card_index):
                if layoff_problem(state, (card,), i)[0] is None:
                    actions.append(LayOff((card,), i))
            stands_for = run_joker_card(meld.cards, rules)
            if stands_for is not None and stands_for in held:
                action = TakeJoker(i, stands_for)
                if take_joker(state, action).legal:
                    actions.append(action)
    must_lay = bool(state.jokers_owed) and can_lay_joker(state)
    if not must_lay:
        actions.extend(Discard(c) for c in distinct if not is_locked(state, c))
    return actions
