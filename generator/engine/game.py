"""The whole game as a state machine: deal, actions, legality, round end and scoring.

Sources: RULES.md "A turn", "Taking back a joker", "The opening (first meld), Rami",
"End of a round", "Scoring" and "Order of reasons". Every difference between the games
comes from the :class:`~generator.engine.rules.RuleSet` (``opening_threshold``,
``max_reshuffles``, ``turn_limit``, ``discard_to_win``, ``winner_collects``,
``target_score``...), never from the game's id.

Shapes and numbering (the Python API is 0-based; the ``scenario`` case form is 1-based
and the case loader converts):

- a seat is an index ``0 .. players-1``; seat 0 sits left of the dealer when the dealer
  is the last seat (the default), and play goes on in seat order;
- ``GameState.hands[seat]`` is a tuple of cards (order: as dealt, drawn cards appended);
- ``GameState.stock`` is top first; ``GameState.discard`` is bottom first, top last;
- ``GameState.table`` holds the melds in the order laid; an action names a table meld
  by its index in that tuple (``LayOff.onto``, ``TakeJoker.onto``);
- a round's :class:`~generator.engine.hand.RoundResult` keeps ``hand.py``'s 1-based
  seats (``winner`` = seat index + 1).

Cards are values: two queens of hearts from different decks are equal and
interchangeable. :func:`apply` never changes a state; it returns an :class:`Outcome`
with the new state (the old one when the action is illegal), the reason code of an
illegal action and the events of a legal one. Reason codes: :class:`PlayReason`;
events: :class:`Event`.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import fields
from dataclasses import replace
from typing import Literal

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.codes import OpeningReason
from generator.engine.codes import PlayReason
from generator.engine.hand import RoundResult
from generator.engine.hand import score_round
from generator.engine.melds import HIGH_ACE
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.opening import check_opening
from generator.engine.rules import AcePlace
from generator.engine.rules import RuleSet
from generator.engine.table import check_joker_swap
from generator.engine.table import check_layoff

REASONS: tuple[PlayReason, ...] = tuple(PlayReason)
"""Every reason code of an illegal action, in check order (see :class:`PlayReason`)."""


EVENTS: tuple[Event, ...] = tuple(Event)
"""Every event code (see :class:`Event`)."""


class SetupError(ValueError):
    """A start position that cannot be played (wrong number of hands, a table meld that
    is not valid, more copies of a card than the deck holds...); the message says what
    was expected."""


# --- actions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Draw the top card of the stock (``"stock"``) or of the discard pile (``"discard"``)."""

    source: Literal["stock", "discard"]

    def __post_init__(self) -> None:
        if self.source not in ("stock", "discard"):
            raise ValueError(f"draw source {self.source!r}; expected stock or discard")


@dataclass(frozen=True)
class Meld:
    """Lay a new meld of ``cards`` (from the hand, any order) on the table."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class LayOff:
    """Lay off ``cards`` (one or more, from the hand) onto the table meld ``onto``
    (0-based index in ``GameState.table``)."""

    cards: tuple[Card, ...]
    onto: int

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a lay-off needs at least one card")


@dataclass(frozen=True)
class TakeJoker:
    """Take back the joker of table meld ``onto`` by putting ``card`` (from the hand) in
    its place; the joker goes to the hand."""

    onto: int
    card: Card


@dataclass(frozen=True)
class Discard:
    """Discard ``card`` from the hand onto the discard pile; this ends the turn."""

    card: Card


Action = Draw | Meld | LayOff | TakeJoker | Discard
"""One step of the player whose turn it is."""


# --- state -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table.

    Attributes:
        cards: the cards in meld order (a run from low to high, the joker in its place).
        owner: the seat that laid it (0-based).
    """

    cards: tuple[Card, ...]
    owner: int


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended.

    Attributes:
        reason: an :class:`EndReason` value: ``went_out``, ``stock_empty`` or
            ``turn_limit``.
        result: winner, scores and hand values (``hand.RoundResult``, 1-based seats; ties
            of the lowest hand value go to the earliest seat after the dealer).
    """

    reason: EndReason
    result: RoundResult


@dataclass(frozen=True)
class GameState:
    """One moment of a round. Immutable: :func:`apply` returns a new state.

    Attributes:
        rules: the rule set.
        hands: per seat (0-based), the cards held.
        stock: the stock, top first.
        discard: the discard pile, bottom first, top last.
        table: the melds on the table, in the order laid.
        opened: per seat, whether its opening is confirmed (always true where the rule
            set has no opening: CardVerse).
        dealer: the dealer's seat; play starts at the seat after it.
        turn: the seat whose turn it is.
        turns_played: turns that have ended this round (by a discard, or by going out),
            all players together (turns).
        reshuffles: times this round the discard pile became the new stock.
        seed: orders reshuffled stocks (with the reshuffle's number).
        drawn: whether the player whose turn it is has drawn.
        taken: the card taken from the discard pile this turn that may not be discarded
            this turn; ``None`` after a draw from the stock, or when the player already
            held an equal card before the draw.
        laid: indices in ``table`` of the melds laid this turn by the player whose turn it
            is (for the opening check).
        jokers_owed: jokers taken back this turn and not laid again (jokers).
        end: how the round ended; ``None`` while it goes on.
    """

    rules: RuleSet
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    table: tuple[TableMeld, ...]
    opened: tuple[bool, ...]
    dealer: int
    turn: int
    turns_played: int = 0
    reshuffles: int = 0
    seed: int = 0
    drawn: bool = False
    taken: Card | None = None
    laid: tuple[int, ...] = ()
    jokers_owed: int = 0
    end: RoundEnd | None = None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @property
    def hand(self) -> tuple[Card, ...]:
        """The hand of the player whose turn it is."""
        return self.hands[self.turn]

    @property
    def over(self) -> bool:
        """True once the round has ended."""
        return self.end is not None


_STATE_FIELDS = frozenset(f.name for f in fields(GameState))


@dataclass(frozen=True)
class Outcome:
    """The result of one action.

    Attributes:
        legal: whether the action was allowed.
        reason: a :class:`PlayReason` value when illegal, else ``None``.
        events: :class:`Event` values caused by a legal action, in order.
        state: the state after the action; the very same state when illegal.
        action: the action applied.
        detail: for ``invalid_meld`` the meld's reason code (``melds.MeldReason``); with
            the event ``opening_returned`` the opening's reason code
            (``opening.OpeningReason``); else ``None``.
    """

    legal: bool
    reason: PlayReason | None
    events: tuple[Event, ...]
    state: GameState
    action: Action
    detail: MeldReason | OpeningReason | None = None


# --- setting up ------------------------------------------------------------------------


def full_deck(rules: RuleSet, players: int) -> tuple[Card, ...]:
    """Every card in play for ``players`` players, in a fixed order (by deck, suit, rank,
    then the jokers): ``rules.deck_for(players).cards`` cards.

    Raises:
        PlayerCountError: the game does not allow that many players.
    """
    row = rules.deck_for(players)
    return _CARDS[:-1] * row.decks + (JOKER,) * row.jokers


def deal(rules: RuleSet, players: int, seed: int, dealer: int | None = None) -> GameState:
    """Deal a round (RULES.md, Cards and decks).

    The deck (:func:`full_deck`) is shuffled with ``random.Random(seed)``; each seat gets
    ``rules.deck_for(players).hand_size`` cards, one at a time starting left of the
    dealer; the next card is turned up to start the discard pile; the rest is the stock.

    Args:
        rules: the rule set.
        players: number of seats.
        seed: the shuffle's seed; also kept in the state for reshuffles.
        dealer: the dealer's seat (0-based); default the last seat, so seat 0 plays first.

    Raises:
        PlayerCountError: the game does not allow that many players.
        ValueError: ``dealer`` is not a seat.
    """
    row = rules.deck_for(players)
    dealer = players - 1 if dealer is None else dealer
    if not 0 <= dealer < players:
        raise ValueError(f"dealer seat {dealer}; expected 0 to {players - 1}")
    cards = list(full_deck(rules, players))
    random.Random(seed).shuffle(cards)
    order = [(dealer + 1 + k) % players for k in range(players)]
    hands: list[list[Card]] = [[] for _ in range(players)]
    pos = 0
    for _ in range(row.hand_size):
        for seat in order:
            hands[seat].append(cards[pos])
            pos += 1
    discard = (cards[pos],)
    stock = tuple(cards[pos + 1:])
    opened = (rules.opening_threshold is None,) * players
    return GameState(rules, tuple(tuple(h) for h in hands), stock, discard, (), opened,
                     dealer, order[0], seed=seed)


def start(
    rules: RuleSet,
    hands: Sequence[Sequence[Card]],
    discard: Sequence[Card],
    stock: Sequence[Card],
    table: Sequence[TableMeld] = (),
    opened: Sequence[bool] | None = None,
    turn: int = 0,
    turns_played: int = 0,
    reshuffles: int = 0,
    seed: int = 0,
) -> GameState:
    """A round from a given position, at the start of a turn (for ``scenario`` cases).

    Args:
        rules: the rule set.
        hands: per seat (0-based), the cards held; the dealer is the last seat.
        discard: the discard pile, bottom first, top last (may be empty).
        stock: the stock, top first (may be empty).
        table: melds on the table, in the order laid (each must be a valid meld; a run's
            joker stands where ``check_meld`` places it).
        opened: per seat, whether it has opened (Rami); default nobody. Must be omitted
            for a rule set without an opening (everyone counts as opened).
        turn: the seat whose turn it is.
        turns_played: turns played so far this round (for ``rules.turn_limit``).
        reshuffles: stock reshuffles so far this round (for ``rules.max_reshuffles``).
        seed: orders a reshuffled stock.

    Raises:
        SetupError: a position that cannot be played; the message says what was expected.
    """
    players = len(hands)
    try:
        row = rules.deck_for(players)
    except ValueError as exc:
        raise SetupError(str(exc)) from exc
    if any(not h for h in hands):
        raise SetupError("an empty hand; expected every seat to hold cards")
    for m in table:
        if not 0 <= m.owner < players:
            raise SetupError(f"table meld owner {m.owner}; expected a seat 0 to {players - 1}")
        result = _check(m.cards, rules)
        if not result.valid:
            assert result.reason is not None
            raise SetupError(f"table meld {' '.join(c.code for c in m.cards)} is not valid "
                             f"({result.reason.value}); expected a valid meld")
    every = [c for h in hands for c in h] + list(discard) + list(stock)
    every += [c for m in table for c in m.cards]
    counts = Counter(every)
    for c, n in counts.items():
        most = row.jokers if c.is_joker else row.decks
        if n > most:
            raise SetupError(f"{n} × {c.code}; expected at most {most} with {players} players")
    if rules.opening_threshold is None:
        if opened is not None:
            raise SetupError(f"{rules.game} has no opening; expected no opened flags")
        flags = (True,) * players
    else:
        flags = tuple(opened) if opened is not None else (False,) * players
        if len(flags) != players:
            raise SetupError(f"{len(flags)} opened flags; expected {players}, one per seat")
    if not 0 <= turn < players:
        raise SetupError(f"turn {turn}; expected a seat 0 to {players - 1}")
    if not 0 <= reshuffles <= rules.max_reshuffles:
        raise SetupError(f"{reshuffles} reshuffles; expected 0 to {rules.max_reshuffles}")
    limit = rules.turn_limit
    if turns_played < 0 or (limit is not None and turns_played >= limit):
        upto = "" if limit is None else f" to {limit - 1}"
        raise SetupError(f"{turns_played} turns played; expected 0{upto}")
    return GameState(
        rules,
        tuple(_canon_all(h) for h in hands),
        _canon_all(stock),
        _canon_all(discard),
        tuple(TableMeld(_ordered(m.cards, rules), m.owner) for m in table),
        flags,
        players - 1,
        turn,
        turns_played,
        reshuffles,
        seed,
    )


# --- checks ----------------------------------------------------------------------------


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


def _illegal(state: GameState, action: Action, reason: PlayReason,
             detail: MeldReason | None = None) -> Outcome:
    return Outcome(False, reason, (), state, action, detail)


def _end_turn_problem(state: GameState, rest: tuple[Card, ...],
                      table: tuple[TableMeld, ...]) -> PlayReason | None:
    """The reason a meld or lay-off leaving ``rest`` in hand and ``table`` on the table
    is illegal, if any (RULES.md, A turn: an action that would leave the turn unable to
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
    after = _evolve(state, hands=_with_hand(state, rest), table=table)
    for i in range(len(table)):
        if _layoff_problem(after, (taken,), i)[0] is None:
            return None
        if _take_joker(after, TakeJoker(i, taken)).legal:
            return None
    return PlayReason.NO_DISCARD_LEFT


def _meld_problem(state: GameState, cards: tuple[Card, ...]
                  ) -> tuple[PlayReason, MeldReason | None] | tuple[None, tuple[tuple[Card, ...],
                                                                      TableMeld]]:
    """Why the new meld ``cards`` is illegal (and the meld's reason code for
    ``invalid_meld``), or ``None`` with the hand left and the meld as laid."""
    rest = _remove(state.hand, cards)
    if rest is None:
        return PlayReason.CARD_NOT_IN_HAND, None
    result = _check(cards, state.rules)
    if not result.valid:
        assert result.reason is not None
        return PlayReason.INVALID_MELD, result.reason
    laid = TableMeld(_canon_all(p.card for p in result.placed), state.turn)
    problem = _end_turn_problem(state, rest, (*state.table, laid))
    if problem is not None:
        return problem, None
    return None, (rest, laid)


def _layoff_problem(state: GameState, cards: tuple[Card, ...], onto: int
                    ) -> tuple[PlayReason, None] | tuple[None, tuple[tuple[Card, ...],
                                                                  tuple[TableMeld, ...]]]:
    """Why laying off ``cards`` onto table meld ``onto`` is illegal, or ``None`` with
    the hand left and the table after (several cards are judged on the finished meld:
    ``table.check_layoff``)."""
    if not 0 <= onto < len(state.table):
        return PlayReason.NO_SUCH_MELD, None
    rest = _remove(state.hand, cards)
    if rest is None:
        return PlayReason.CARD_NOT_IN_HAND, None
    result = check_layoff(state.table[onto].cards, cards, state.rules,
                          opened=state.opened[state.turn])
    if not result.valid:
        assert result.reason is not None
        return PlayReason(result.reason.value), None
    assert result.meld is not None
    cards_after = _canon_all(p.card for p in result.meld.placed)
    if not _check(cards_after, state.rules).valid:
        # e.g. a joker laid off onto a run that holds one (table.check_layoff fixes the
        # run's joker as the card it stands for, so it sees one joker only)
        return PlayReason.BREAKS_MELD, None
    table = list(state.table)
    table[onto] = TableMeld(cards_after, table[onto].owner)
    problem = _end_turn_problem(state, rest, tuple(table))
    if problem is not None:
        return problem, None
    return None, (rest, tuple(table))


def _can_lay_joker(state: GameState) -> bool:
    """Whether a joker in hand can be laid again now (see ``joker_must_be_laid``)."""
    if JOKER not in state.hand:
        return False
    for i in range(len(state.table)):
        if _layoff_problem(state, (JOKER,), i)[0] is None:
            return True
    naturals = sorted({c for c in state.hand if not c.is_joker}, key=_key)
    for a_i, a in enumerate(naturals):
        for b in naturals[a_i:]:
            if a == b and state.hand.count(a) < 2:
                continue
            if _meld_problem(state, (JOKER, a, b))[0] is None:
                return True
    return False


# --- applying actions ------------------------------------------------------------------


def apply(state: GameState, action: Action) -> Outcome:
    """Apply ``action`` for the player whose turn it is.

    Returns:
        An :class:`Outcome`: illegal → ``reason`` (a :class:`PlayReason` value, the first
        that applies) and the unchanged state; legal → the new state and its events.
    """
    if state.end is not None:
        return _illegal(state, action, PlayReason.ROUND_ENDED)
    if isinstance(action, Draw):
        return _draw(state, action)
    if not state.drawn:
        return _illegal(state, action, PlayReason.MUST_DRAW)
    if isinstance(action, Meld):
        return _meld(state, action)
    if isinstance(action, LayOff):
        return _lay_off(state, action)
    if isinstance(action, TakeJoker):
        return _take_joker(state, action)
    return _discard(state, action)


def _evolve(state: GameState, **changes: object) -> GameState:
    """``dataclasses.replace`` for a state, without its cost (no ``__post_init__`` to
    run); only fields of :class:`GameState` may be changed."""
    assert changes.keys() <= _STATE_FIELDS, changes.keys() - _STATE_FIELDS
    new = object.__new__(GameState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _with_hand(state: GameState, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    return (*state.hands[:state.turn], hand, *state.hands[state.turn + 1:])


def _draw(state: GameState, action: Draw) -> Outcome:
    if state.drawn:
        return _illegal(state, action, PlayReason.ALREADY_DREW)
    hand = state.hand
    if action.source == "discard":
        if not state.discard:
            return _illegal(state, action, PlayReason.EMPTY_DISCARD_PILE)
        card = state.discard[-1]
        taken = None if card in hand else card
        new = _evolve(state, hands=_with_hand(state, (*hand, card)),
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
    new = _evolve(state, hands=_with_hand(state, (*hand, stock[0])), stock=stock[1:],
                  discard=discard, reshuffles=reshuffles, drawn=True, taken=None)
    return Outcome(True, None, tuple(events), new, action)


def _meld(state: GameState, action: Meld) -> Outcome:
    problem, value = _meld_problem(state, action.cards)
    if problem is not None:
        return _illegal(state, action, problem, value if isinstance(value, str) else None)
    assert isinstance(value, tuple)
    rest, laid = value
    jokers = sum(1 for c in action.cards if c.is_joker)
    new = _evolve(
        state,
        hands=_with_hand(state, rest),
        table=(*state.table, laid),
        laid=(*state.laid, len(state.table)),
        jokers_owed=max(0, state.jokers_owed - jokers),
    )
    return _after_laying(new, action)


def _lay_off(state: GameState, action: LayOff) -> Outcome:
    problem, value = _layoff_problem(state, action.cards, action.onto)
    if problem is not None:
        return _illegal(state, action, problem)
    assert value is not None
    rest, table = value
    jokers = sum(1 for c in action.cards if c.is_joker)
    new = _evolve(state, hands=_with_hand(state, rest), table=table,
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
    state = _evolve(state, turns_played=state.turns_played + 1)
    events.append(Event.ROUND_OVER)
    return Outcome(True, None, tuple(events), _finish(state, EndReason.WENT_OUT), action)


def _confirm_opening(state: GameState, events: list[Event]
                     ) -> tuple[GameState, OpeningReason | None]:
    """The opening check at the end of the turn (RULES.md, The opening): confirm the melds
    laid this turn, or return them to the hand."""
    if state.opened[state.turn] or not state.laid:
        return state, None
    melds = [state.table[i].cards for i in state.laid]
    result = check_opening(melds, state.rules)
    if result.accepted:
        events.append(Event.OPENED)
        opened = list(state.opened)
        opened[state.turn] = True
        return _evolve(state, opened=tuple(opened)), None
    events.append(Event.OPENING_RETURNED)
    assert result.reason is not None
    keep = [m for i, m in enumerate(state.table) if i not in state.laid]
    back = [c for cards in melds for c in cards]
    new = _evolve(state, hands=_with_hand(state, (*state.hand, *back)), table=tuple(keep),
                  laid=())
    return new, result.reason


def _take_joker(state: GameState, action: TakeJoker) -> Outcome:
    if not 0 <= action.onto < len(state.table):
        return _illegal(state, action, PlayReason.NO_SUCH_MELD)
    rest = _remove(state.hand, (action.card,))
    if rest is None:
        return _illegal(state, action, PlayReason.CARD_NOT_IN_HAND)
    meld = state.table[action.onto]
    swap = check_joker_swap(meld.cards, action.card, state.rules,
                            opened=state.opened[state.turn])
    if not swap.allowed:
        assert swap.reason is not None
        return _illegal(state, action, PlayReason(swap.reason.value))
    assert swap.meld is not None
    table = list(state.table)
    table[action.onto] = TableMeld(_canon_all(p.card for p in swap.meld.placed), meld.owner)
    new = _evolve(state, hands=_with_hand(state, (*rest, JOKER)), table=tuple(table),
                  jokers_owed=state.jokers_owed + 1)
    return Outcome(True, None, (), new, action)


def _is_locked(state: GameState, card: Card) -> bool:
    """Whether discarding ``card`` would discard the card taken from the pile this turn:
    it equals that card and the hand holds no other copy of it."""
    return (state.rules.keep_taken_discard and card == state.taken
            and state.hand.count(card) == 1)


def _discard_problem(state: GameState, card: Card) -> PlayReason | None:
    if card not in state.hand:
        return PlayReason.CARD_NOT_IN_HAND
    if _is_locked(state, card):
        return PlayReason.DISCARD_TAKEN_CARD
    if state.jokers_owed and _can_lay_joker(state):
        return PlayReason.JOKER_MUST_BE_LAID
    return None


def _discard(state: GameState, action: Discard) -> Outcome:
    problem = _discard_problem(state, action.card)
    if problem is not None:
        return _illegal(state, action, problem)
    rest = _remove(state.hand, (action.card,))
    assert rest is not None
    events: list[Event] = []
    state = _evolve(state, hands=_with_hand(state, rest),
                    discard=(*state.discard, _canon(action.card)))
    state, detail = _confirm_opening(state, events)
    state = _evolve(state, turns_played=state.turns_played + 1)
    if not state.hand:
        events.append(Event.ROUND_OVER)
        return Outcome(True, None, tuple(events), _finish(state, EndReason.WENT_OUT),
                       action, detail)
    limit = state.rules.turn_limit
    if limit is not None and state.turns_played >= limit:
        events.append(Event.ROUND_OVER)
        return Outcome(True, None, tuple(events), _finish(state, EndReason.TURN_LIMIT),
                       action, detail)
    new = _evolve(state, turn=(state.turn + 1) % state.players, drawn=False, taken=None,
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
    return _evolve(state, end=RoundEnd(reason, result), drawn=False, taken=None,
                   laid=(), jokers_owed=0)


# --- legal actions ---------------------------------------------------------------------


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
    return _hand_melds(tuple(sorted(_key(c) for c in hand)), rules)


@functools.lru_cache(maxsize=1 << 14)
def _hand_melds(indices: tuple[int, ...], rules: RuleSet) -> tuple[tuple[Card, ...], ...]:
    hand = [_CARDS[i] for i in indices]
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
        key = tuple(sorted(_key(c) for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(tuple(_CARDS[i] for i in key))

    for rank, suits in by_rank.items():
        for size in (3, 4):
            for combo in itertools.combinations(suits, size):
                add(tuple(_canon(Card(rank, s)) for s in combo))
        if jokers:
            for size in (2, 3):
                for combo in itertools.combinations(suits, size):
                    add((*(_canon(Card(rank, s)) for s in combo), JOKER))
    for suit, places in by_suit.items():
        for first in range(1, HIGH_ACE - 1):
            missing = 0
            held: list[Card] = []
            for last in range(first, HIGH_ACE + 1):
                if last in places:
                    held.append(_canon(Card(Rank(1 if last == HIGH_ACE else last), suit)))
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
    result = _check(cards, rules)
    out: set[Card] = set()
    has_joker = any(c.is_joker for c in cards)
    if rules.jokers_per_meld and not has_joker:
        out.add(JOKER)
    if result.type is MeldType.SET:
        rank = result.placed[0].rank
        out.update(_canon(Card(rank, s)) for s in Suit)
        return out
    suit = result.placed[0].suit
    assert suit is not None
    for place in (result.placed[0].place - 1, result.placed[-1].place + 1):
        if 1 <= place <= HIGH_ACE:
            out.add(_canon(Card(Rank(1 if place == HIGH_ACE else place), suit)))
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
        problem, value = _meld_problem(state, cards)  # every meld of hand_melds is valid
        if problem is not None or not isinstance(value, tuple):
            continue
        if not value[0] and not state.opened[state.turn]:
            melds = [state.table[i].cards for i in state.laid] + [cards]
            if not check_opening(melds, rules).accepted:
                continue
        actions.append(Meld(cards))
    distinct = [_CARDS[i] for i in sorted({_key(c) for c in hand})]
    held = set(distinct)
    if state.opened[state.turn]:
        for i, meld in enumerate(state.table):
            for card in sorted(_layoff_candidates(meld.cards, rules) & held, key=_key):
                if _layoff_problem(state, (card,), i)[0] is None:
                    actions.append(LayOff((card,), i))
            stands_for = run_joker_card(meld.cards, rules)
            if stands_for is not None and stands_for in held:
                action = TakeJoker(i, stands_for)
                if _take_joker(state, action).legal:
                    actions.append(action)
    must_lay = bool(state.jokers_owed) and _can_lay_joker(state)
    if not must_lay:
        actions.extend(Discard(c) for c in distinct if not _is_locked(state, c))
    return actions


# --- a whole game ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameScore:
    """The running score of a game (RULES.md, Scoring).

    Attributes:
        rules: the rule set.
        totals: per seat, points so far.
        rounds_played: rounds scored so far.
        rounds: rounds the game has (Rami: one per player, each dealing once); ``None``
            where the game ends on ``rules.target_score`` (CardVerse).
    """

    rules: RuleSet
    totals: tuple[int, ...]
    rounds_played: int
    rounds: int | None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.totals)

    @property
    def next_dealer(self) -> int:
        """The dealer's seat for the next round: the last seat first, then the deal
        passes to the next seat each round (seat 0 plays first in round 1)."""
        return (self.players - 1 + self.rounds_played) % self.players

    @property
    def over(self) -> bool:
        """Whether the game has ended: all rounds played, or a total reached the target."""
        if self.rounds is not None and self.rounds_played >= self.rounds:
            return True
        target = self.rules.target_score
        return target is not None and max(self.totals) >= target

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the best total (0-based): the lowest where losers add their
        hand values (Rami), the highest where the winner collects (CardVerse)."""
        best = max(self.totals) if self.rules.winner_collects else min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == best)


def new_game(rules: RuleSet, players: int, rounds: int | None = None) -> GameScore:
    """A game's score before its first round.

    Args:
        rounds: the number of rounds; default one per player where the game has no
            target score (Rami), else ``None`` (play to ``rules.target_score``).

    Raises:
        PlayerCountError: the game does not allow that many players.
    """
    rules.deck_for(players)
    if rounds is None and rules.target_score is None:
        rounds = players
    return GameScore(rules, (0,) * players, 0, rounds)


def record_round(score: GameScore, state: GameState) -> GameScore:
    """Add the scores of the ended round ``state`` to ``score``.

    Raises:
        ValueError: the round has not ended, or has another number of seats.
    """
    if state.end is None or state.players != score.players:
        raise ValueError("expected an ended round with the game's number of seats")
    totals = tuple(t + s for t, s in zip(score.totals, state.end.result.scores, strict=True))
    return replace(score, totals=totals, rounds_played=score.rounds_played + 1)


__all__ = [
    "EVENTS",
    "REASONS",
    "Action",
    "Discard",
    "Draw",
    "EndReason",
    "Event",
    "GameScore",
    "GameState",
    "LayOff",
    "Meld",
    "Outcome",
    "PlayReason",
    "RoundEnd",
    "SetupError",
    "TableMeld",
    "TakeJoker",
    "apply",
    "deal",
    "full_deck",
    "hand_melds",
    "legal_actions",
    "meld_result",
    "new_game",
    "record_round",
    "run_joker_card",
    "start",
]
