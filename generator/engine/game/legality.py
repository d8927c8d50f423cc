"""Whether an action is legal, and why not: the checks :func:`~generator.engine.game.play.apply`
and :func:`~generator.engine.game.moves.legal_actions` share, in docs/rules.md's "Order of
reasons" (see :class:`~generator.engine.codes.PlayReason`)."""

from __future__ import annotations

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.codes import MeldReason
from generator.engine.codes import PlayReason
from generator.engine.game.actions import Action
from generator.engine.game.actions import TakeJoker
from generator.engine.game.cache import canon_all
from generator.engine.game.cache import card_index
from generator.engine.game.cache import meld_result
from generator.engine.game.cache import remove_cards
from generator.engine.game.state import GameState
from generator.engine.game.state import Outcome
from generator.engine.game.state import TableMeld
from generator.engine.game.state import evolve
from generator.engine.game.state import with_hand
from generator.engine.table import check_joker_swap
from generator.engine.table import check_layoff


def refusal(state: GameState, action: Action, reason: PlayReason,
            detail: MeldReason | None = None) -> Outcome:
    """The outcome of an illegal action: ``reason`` (and for ``invalid_meld`` the meld's
    own reason as ``detail``), no events, the state unchanged."""
    return Outcome(False, reason, (), state, action, detail)


def _end_turn_problem(state: GameState, rest: tuple[Card, ...],
                      table: tuple[TableMeld, ...]) -> PlayReason | None:
    """The reason a meld or lay-off leaving ``rest`` in hand and ``table`` on the table
    is illegal, if any (docs/rules.md, A turn: an action that would leave the turn unable to
    end legally is refused).

    Only two positions can leave a turn without a legal end: an empty hand where going
    out needs a final discard (``rules.discard_to_win``: ``final_discard_required``), and
    a hand holding just the card taken from the discard pile where that card may not be
    discarded (``rules.keep_taken_discard``). The latter is refused
    (``no_discard_left``) unless the card can still leave the hand: laid off onto a table
    meld (going out without a discard), or given for a table joker (the joker alone may
    then be laid, or discarded). So both orders of "meld, lay off the taken card" are
    allowed, and a rule set without the taken-card rule never refuses for it.
    """
    if not rest:
        if state.rules.discard_to_win:
            return PlayReason.FINAL_DISCARD_REQUIRED
        return None
    taken = state.taken
    if not (state.rules.keep_taken_discard and len(rest) == 1 and rest[0] == taken):
        return None
    assert taken is not None
    after = evolve(state, hands=with_hand(state, rest), table=table)
    for i in range(len(table)):
        if layoff_problem(after, (taken,), i)[0] is None:
            return None
        if take_joker(after, TakeJoker(i, taken)).legal:
            return None
    return PlayReason.NO_DISCARD_LEFT


def meld_problem(state: GameState, cards: tuple[Card, ...]
                  ) -> tuple[PlayReason, MeldReason | None] | tuple[None, tuple[tuple[Card, ...],
                                                                      TableMeld]]:
    """Why the new meld ``cards`` is illegal (and the meld's reason code for
    ``invalid_meld``), or ``None`` with the hand left and the meld as laid."""
    rest = remove_cards(state.hand, cards)
    if rest is None:
        return PlayReason.CARD_NOT_IN_HAND, None
    result = meld_result(cards, state.rules)
    if not result.valid:
        assert result.reason is not None
        return PlayReason.INVALID_MELD, result.reason
    laid = TableMeld(canon_all(p.card for p in result.placed), state.turn)
    problem = _end_turn_problem(state, rest, (*state.table, laid))
    if problem is not None:
        return problem, None
    return None, (rest, laid)


def layoff_problem(state: GameState, cards: tuple[Card, ...], onto: int
                    ) -> tuple[PlayReason, None] | tuple[None, tuple[tuple[Card, ...],
                                                                  tuple[TableMeld, ...]]]:
    """Why laying off ``cards`` onto table meld ``onto`` is illegal, or ``None`` with
    the hand left and the table after (several cards are judged on the finished meld:
    ``table.check_layoff``)."""
    if not 0 <= onto < len(state.table):
        return PlayReason.NO_SUCH_MELD, None
    rest = remove_cards(state.hand, cards)
    if rest is None:
        return PlayReason.CARD_NOT_IN_HAND, None
    result = check_layoff(state.table[onto].cards, cards, state.rules,
                          opened=state.opened[state.turn])
    if not result.valid:
        assert result.reason is not None
        return PlayReason(result.reason), None
    assert result.meld is not None
    cards_after = canon_all(p.card for p in result.meld.placed)
    if not meld_result(cards_after, state.rules).valid:
        # e.g. a joker laid off onto a run that holds one (table.check_layoff fixes the
        # run's joker as the card it stands for, so it sees one joker only)
        return PlayReason.BREAKS_MELD, None
    table = list(state.table)
    table[onto] = TableMeld(cards_after, table[onto].owner)
    problem = _end_turn_problem(state, rest, tuple(table))
    if problem is not None:
        return problem, None
    return None, (rest, tuple(table))


def can_lay_joker(state: GameState) -> bool:
    """Whether a joker in hand can be laid again now (see ``joker_must_be_laid``)."""
    if JOKER not in state.hand:
        return False
    for i in range(len(state.table)):
        if layoff_problem(state, (JOKER,), i)[0] is None:
            return True
    naturals = sorted({c for c in state.hand if not c.is_joker}, key=card_index)
    for a_i, a in enumerate(naturals):
        for b in naturals[a_i:]:
            if a == b and state.hand.count(a) < 2:
                continue
            if meld_problem(state, (JOKER, a, b))[0] is None:
                return True
    return False


def take_joker(state: GameState, action: TakeJoker) -> Outcome:
    """Take back the joker of table meld ``action.onto`` with ``action.card`` (docs/rules.md,
    Taking back a joker): the outcome, legal or not. The end-of-turn check
    (``no_discard_left``) and :mod:`~generator.engine.game.moves` try it as it is
    applied."""
    if not 0 <= action.onto < len(state.table):
        return refusal(state, action, PlayReason.NO_SUCH_MELD)
    rest = remove_cards(state.hand, (action.card,))
    if rest is None:
        return refusal(state, action, PlayReason.CARD_NOT_IN_HAND)
    meld = state.table[action.onto]
    swap = check_joker_swap(meld.cards, action.card, state.rules,
                            opened=state.opened[state.turn])
    if not swap.allowed:
        assert swap.reason is not None
        return refusal(state, action, PlayReason(swap.reason))
    assert swap.meld is not None
    table = list(state.table)
    table[action.onto] = TableMeld(canon_all(p.card for p in swap.meld.placed), meld.owner)
    new = evolve(state, hands=with_hand(state, (*rest, JOKER)), table=tuple(table),
                 jokers_owed=state.jokers_owed + 1)
    return Outcome(True, None, (), new, action)


def is_locked(state: GameState, card: Card) -> bool:
    """Whether discarding ``card`` would discard the card taken from the pile this turn:
    it equals that card and the hand holds no other copy of it."""
    return (state.rules.keep_taken_discard and card == state.taken
            and state.hand.count(card) == 1)


def discard_problem(state: GameState, card: Card) -> PlayReason | None:
    """Why discarding ``card`` is illegal, or ``None`` (``card_not_in_hand``,
    ``discard_taken_card``, ``joker_must_be_laid``, in that order)."""
    if card not in state.hand:
        return PlayReason.CARD_NOT_IN_HAND
    if is_locked(state, card):
        return PlayReason.DISCARD_TAKEN_CARD
    if state.jokers_owed and can_lay_joker(state):
        return PlayReason.JOKER_MUST_BE_LAID
    return None
