"""Every legal action of a state, and the melds a hand can make (for bots and the
property tests)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass

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
    """The melds of :func:`hand_melds` for the hand of sorted card indices ``indices``:
    its sets rank by rank, then its runs suit by suit, each once (cached per hand and
    rule set)."""
    shape = _shape(tuple(CARDS[i] for i in indices), rules)
    return _distinct(itertools.chain(_set_melds(shape), _run_melds(shape)))


@dataclass(frozen=True)
class _Shape:
    """A hand as melds see it (docs/rules.md "Melds").

    Attributes:
        suits_by_rank: per rank held, the distinct suits held of it (in hand order).
        places_by_suit: per suit held, the run places its cards can stand at (an ace at
            1 and/or :data:`HIGH_ACE`, as ``rules.ace_places`` allows).
        jokers: the jokers held that a meld may use (0 when the game has none).
    """

    suits_by_rank: tuple[tuple[Rank, tuple[Suit, ...]], ...]
    places_by_suit: tuple[tuple[Suit, frozenset[int]], ...]
    jokers: int


def _shape(hand: tuple[Card, ...], rules: RuleSet) -> _Shape:
    """The :class:`_Shape` of ``hand`` under ``rules``."""
    by_rank: dict[Rank, list[Suit]] = {}
    by_suit: dict[Suit, set[int]] = {}
    for c in hand:
        if c.rank is None or c.suit is None:
            continue
        suits = by_rank.setdefault(c.rank, [])
        if c.suit not in suits:
            suits.append(c.suit)
        by_suit.setdefault(c.suit, set()).update(_places(c.rank, rules))
    jokers = sum(1 for c in hand if c.is_joker) if rules.jokers_per_meld else 0
    return _Shape(
        tuple((rank, tuple(suits)) for rank, suits in by_rank.items()),
        tuple((suit, frozenset(places)) for suit, places in by_suit.items()),
        jokers,
    )


def _places(rank: Rank, rules: RuleSet) -> tuple[int, ...]:
    """The run places a card of ``rank`` can stand at (docs/rules.md "Melds"): its rank;
    an ace 1 (low) and/or :data:`HIGH_ACE` (high), as ``rules.ace_places`` allows."""
    if rank is not Rank.ACE:
        return (int(rank),)
    ends = ((AcePlace.LOW, 1), (AcePlace.HIGH, HIGH_ACE))
    return tuple(place for end, place in ends if end in rules.ace_places)


def _set_melds(shape: _Shape) -> Iterator[tuple[Card, ...]]:
    """The sets of the hand (docs/rules.md "Melds"), rank by rank: 3 or 4 naturals of
    one rank in different suits, then (with a joker) 2 or 3 of them and the joker."""
    for rank, suits in shape.suits_by_rank:
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                yield tuple(canon(Card(rank, s)) for s in combo)
        if shape.jokers:
            for size in (2, 3):
                for combo in itertools.combinations(suits, size):
                    yield (*(canon(Card(rank, s)) for s in combo), JOKER)


def _run_melds(shape: _Shape) -> Iterator[tuple[Card, ...]]:
    """The runs of the hand (docs/rules.md "Melds"), suit by suit, window by window
    (:func:`_windows`): a window with a missing place gives its cards and the joker
    standing there; a full window gives its cards, then (with a joker) the joker in the
    place of each card in turn."""
    for suit, places in shape.places_by_suit:
        for window, missing in _windows(places, min(1, shape.jokers)):
            held = tuple(_card_at(place, suit) for place in window)
            if missing:
                yield (*held, JOKER)
                continue
            yield held
            if shape.jokers:
                for i in range(len(held)):
                    yield (*held[:i], *held[i + 1:], JOKER)


def _windows(places: frozenset[int], gaps: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every window of 3 to 13 consecutive run places (docs/rules.md "Melds": a run
    never holds both aces' places) with at most ``gaps`` places not in ``places``, by
    first place, then last.

    Yields:
        (the window's places in ``places``, low to high; how many it misses).
    """
    for first in range(1, HIGH_ACE - 1):
        missing = 0
        held: list[int] = []
        for last in range(first, HIGH_ACE + 1):
            if last in places:
                held.append(last)
            else:
                missing += 1
                if missing > gaps:
                    break
            if last - first >= 2 and not (first == 1 and last == HIGH_ACE):
                yield tuple(held), missing


def _card_at(place: int, suit: Suit) -> Card:
    """The (canonical) natural card of ``suit`` standing at run ``place``."""
    return canon(Card(Rank(1 if place == HIGH_ACE else place), suit))


def _distinct(melds: Iterable[tuple[Card, ...]]) -> tuple[tuple[Card, ...], ...]:
    """Each meld of ``melds`` once (as multisets), in first-seen order, its cards sorted
    by card index (suit, rank, the joker last)."""
    keys = dict.fromkeys(tuple(sorted(card_index(c) for c in cards)) for cards in melds)
    return tuple(tuple(CARDS[i] for i in key) for key in keys)


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
        return _draws(state)
    distinct = tuple(CARDS[i] for i in sorted({card_index(c) for c in state.hand}))
    actions: list[Action] = [*_meld_actions(state)]
    actions.extend(_table_actions(state, frozenset(distinct)))
    actions.extend(_discard_actions(state, distinct))
    return actions


def _draws(state: GameState) -> list[Action]:
    """The draws open to the player (docs/rules.md "A turn"): ``Draw("stock")`` always
    (an empty stock is refilled or ends the round), ``Draw("discard")`` when the pile
    holds a card."""
    draws: list[Action] = [Draw("stock")]
    if state.discard:
        draws.append(Draw("discard"))
    return draws


def _meld_actions(state: GameState) -> Iterator[Meld]:
    """The legal new melds among :func:`hand_melds`, in its order (docs/rules.md "A
    turn"), without those that :func:`_short_last_opening` leaves out."""
    for cards in hand_melds(state.hand, state.rules):
        problem, value = meld_problem(state, cards)  # every meld of hand_melds is valid
        if problem is None and isinstance(value, tuple) and not _short_last_opening(
            state, cards, value[0]
        ):
            yield Meld(cards)


def _short_last_opening(state: GameState, cards: tuple[Card, ...],
                        rest: tuple[Card, ...]) -> bool:
    """Whether the meld ``cards``, leaving ``rest`` in the hand, is the last cards of a
    player who has not opened, with the melds laid this turn an opening that falls short
    (docs/rules.md "The opening (first meld), Rami"): it would only return the cards."""
    if rest or state.opened[state.turn]:
        return False
    melds = [state.table[i].cards for i in state.laid] + [cards]
    return not check_opening(melds, state.rules).accepted


def _table_actions(state: GameState, held: frozenset[Card]) -> Iterator[Action]:
    """Once the player has opened, meld by meld on the table: the legal lay-offs of one
    card of ``held`` (docs/rules.md "A turn"), by card index, then the legal take-back of
    the meld's joker (docs/rules.md "Taking back a joker")."""
    if not state.opened[state.turn]:
        return
    rules = state.rules
    for i, meld in enumerate(state.table):
        for card in sorted(_layoff_candidates(meld.cards, rules) & held, key=card_index):
            if layoff_problem(state, (card,), i)[0] is None:
                yield LayOff((card,), i)
        stands_for = run_joker_card(meld.cards, rules)
        if stands_for is not None and stands_for in held:
            action = TakeJoker(i, stands_for)
            if take_joker(state, action).legal:
                yield action


def _discard_actions(state: GameState, distinct: tuple[Card, ...]) -> list[Action]:
    """The legal discards, one per card of ``distinct`` that may go (docs/rules.md "A
    turn": not the card just taken from the pile); none while a joker taken back is owed
    and can be laid (docs/rules.md "Taking back a joker")."""
    if state.jokers_owed and can_lay_joker(state):
        return []
    return [Discard(c) for c in distinct if not is_locked(state, c)]
