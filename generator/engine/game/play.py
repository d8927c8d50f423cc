"""Applying an action: the new state and its events, or the reason it is illegal and the
state unchanged (docs/rules.md "A turn", "The opening (first meld), Rami", "End of a round")."""

from __future__ import annotations

import random

from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import OpeningReason
from generator.engine.codes import PlayReason
from generator.engine.game.actions import Action
from generator.engine.game.actions import Discard
from generator.engine.game.actions import Draw
from generator.engine.game.actions import LayOff
from generator.engine.game.actions import Meld
from generator.engine.game.actions import TakeJoker
from generator.engine.game.cache import canon
from generator.engine.game.cache import remove_cards
from generator.engine.game.legality import discard_problem
from generator.engine.game.legality import layoff_problem
from generator.engine.game.legality import meld_problem
from generator.engine.game.legality import refusal
from generator.engine.game.legality import take_joker
from generator.engine.game.state import GameState
from generator.engine.game.state import Outcome
from generator.engine.game.state import RoundEnd
from generator.engine.game.state import evolve
from generator.engine.game.state import with_hand
from generator.engine.hand import RoundResult
from generator.engine.hand import score_round
from generator.engine.opening import check_opening


def apply(state: GameState, action: Action) -> Outcome:
    """Apply ``action`` for the player whose turn it is.

    Returns:
        An :class:`Outcome`: illegal → ``reason`` (a :class:`PlayReason` value, the first
        that applies) and the unchanged state; legal → the new state and its events.
    """
    if state.end is not None:
        return refusal(state, action, PlayReason.ROUND_ENDED)
    if isinstance(action, Draw):
        return _draw(state, action)
    if not state.drawn:
        return refusal(state, action, PlayReason.MUST_DRAW)
    if isinstance(action, Meld):
        return _meld(state, action)
    if isinstance(action, LayOff):
        return _lay_off(state, action)
    if isinstance(action, TakeJoker):
        return take_joker(state, action)
    return _discard(state, action)


def _draw(state: GameState, action: Draw) -> Outcome:
    if state.drawn:
        return refusal(state, action, PlayReason.ALREADY_DREW)
    hand = state.hand
    if action.source == "discard":
        if not state.discard:
            return refusal(state, action, PlayReason.EMPTY_DISCARD_PILE)
        card = state.discard[-1]
        taken = None if card in hand else card
        new = evolve(state, hands=with_hand(state, (*hand, card)),
                     discard=state.discard[:-1], drawn=True, taken=taken)
        return Outcome(True, None, (), new, action)
    events: list[Event] = []
    stock = state.stock
    discard = state.discard
    reshuffles = state.reshuffles
    if not stock:
        if reshuffles >= state.rules.max_reshuffles or len(discard) < 2:
            ended = _finish(state, EndReason.STOCK_EMPTY)
            return Outcome(True, None, (Event.ROUND_OVER,), ended, action)
        reshuffles += 1
        cards = list(discard[:-1])
        random.Random(f"reshuffle:{state.seed}:{reshuffles}").shuffle(cards)
        stock = tuple(cards)
        discard = discard[-1:]
        events.append(Event.RESHUFFLED)
    new = evolve(state, hands=with_hand(state, (*hand, stock[0])), stock=stock[1:],
                 discard=discard, reshuffles=reshuffles, drawn=True, taken=None)
    return Outcome(True, None, tuple(events), new, action)


def _meld(state: GameState, action: Meld) -> Outcome:
    problem, value = meld_problem(state, action.cards)
    if problem is not None:
        return refusal(state, action, problem, value if isinstance(value, str) else None)
    assert isinstance(value, tuple)
    rest, laid = value
    jokers = sum(1 for c in action.cards if c.is_joker)
    new = evolve(
        state,
        hands=with_hand(state, rest),
        table=(*state.table, laid),
        laid=(*state.laid, len(state.table)),
        jokers_owed=max(0, state.jokers_owed - jokers),
    )
    return _after_laying(new, action)


def _lay_off(state: GameState, action: LayOff) -> Outcome:
    problem, value = layoff_problem(state, action.cards, action.onto)
    if problem is not None:
        return refusal(state, action, problem)
    assert value is not None
    rest, table = value
    jokers = sum(1 for c in action.cards if c.is_joker)
    new = evolve(state, hands=with_hand(state, rest), table=table,
                 jokers_owed=max(0, state.jokers_owed - jokers))
    return _after_laying(new, action)


def _after_laying(state: GameState, action: Action) -> Outcome:
    """After a legal meld or lay-off: an empty hand ends the round (Rami: once the
    opening, checked now, stands; if it falls short the cards laid this turn return)."""
    if state.hand:
        return Outcome(True, None, (), state, action)
    events: list[Event] = []
    state, detail = _confirm_opening(state, events)
    if state.hand:
        return Outcome(True, None, tuple(events), state, action, detail)
    state = evolve(state, turns_played=state.turns_played + 1)
    events.append(Event.ROUND_OVER)
    return Outcome(True, None, tuple(events), _finish(state, EndReason.WENT_OUT), action)


def _confirm_opening(state: GameState, events: list[Event]
                     ) -> tuple[GameState, OpeningReason | None]:
    """The opening check at the end of the turn (docs/rules.md, The opening): confirm the melds
    laid this turn, or return them to the hand."""
    if state.opened[state.turn] or not state.laid:
        return state, None
    melds = [state.table[i].cards for i in state.laid]
    result = check_opening(melds, state.rules)
    if result.accepted:
        events.append(Event.OPENED)
        opened = list(state.opened)
        opened[state.turn] = True
        return evolve(state, opened=tuple(opened)), None
    events.append(Event.OPENING_RETURNED)
    assert result.reason is not None
    keep = [m for i, m in enumerate(state.table) if i not in state.laid]
    back = [c for cards in melds for c in cards]
    new = evolve(state, hands=with_hand(state, (*state.hand, *back)), table=tuple(keep),
                 laid=())
    return new, result.reason


def _discard(state: GameState, action: Discard) -> Outcome:
    problem = discard_problem(state, action.card)
    if problem is not None:
        return refusal(state, action, problem)
    rest = remove_cards(state.hand, (action.card,))
    assert rest is not None
    events: list[Event] = []
    state = evolve(state, hands=with_hand(state, rest),
                   discard=(*state.discard, canon(action.card)))
    state, detail = _confirm_opening(state, events)
    state = evolve(state, turns_played=state.turns_played + 1)
    if not state.hand:
        events.append(Event.ROUND_OVER)
        return Outcome(True, None, tuple(events), _finish(state, EndReason.WENT_OUT),
                       action, detail)
    limit = state.rules.turn_limit
    if limit is not None and state.turns_played >= limit:
        events.append(Event.ROUND_OVER)
        return Outcome(True, None, tuple(events), _finish(state, EndReason.TURN_LIMIT),
                       action, detail)
    new = evolve(state, turn=(state.turn + 1) % state.players, drawn=False, taken=None,
                 laid=(), jokers_owed=0)
    return Outcome(True, None, tuple(events), new, action, detail)


def _finish(state: GameState, reason: EndReason) -> GameState:
    """The state with the round ended and scored (``hand.score_round`` on the seats in
    play order from the seat after the dealer, mapped back to seat numbers)."""
    n = state.players
    order = [(state.dealer + 1 + k) % n for k in range(n)]
    res = score_round([state.hands[s] for s in order], state.rules)
    scores = [0] * n
    values = [0] * n
    for k, seat in enumerate(order):
        scores[seat] = res.scores[k]
        values[seat] = res.hand_values[k]
    result = RoundResult(order[res.winner - 1] + 1, tuple(scores), tuple(values),
                         res.went_out, tuple(order[t - 1] + 1 for t in res.tied))
    return evolve(state, end=RoundEnd(reason, result), drawn=False, taken=None,
                  laid=(), jokers_owed=0)
