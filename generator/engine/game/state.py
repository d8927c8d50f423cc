"""A moment of a round: the table, the hands, whose turn it is, how the round ended, and
the outcome of one action (see :mod:`generator.engine.game` for shapes and numbering)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import fields

from generator.engine.cards import Card
from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import MeldReason
from generator.engine.codes import OpeningReason
from generator.engine.codes import PlayReason
from generator.engine.game.actions import Action
from generator.engine.hand import RoundResult
from generator.engine.rules import RuleSet

REASONS: tuple[PlayReason, ...] = tuple(PlayReason)
"""Every reason code of an illegal action, in check order (see :class:`PlayReason`)."""


EVENTS: tuple[Event, ...] = tuple(Event)
"""Every event code (see :class:`Event`)."""


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


def evolve(state: GameState, **changes: object) -> GameState:
    """``dataclasses.replace`` for a state, without its cost (no ``__post_init__`` to
    run); only fields of :class:`GameState` may be changed."""
    assert changes.keys() <= _STATE_FIELDS, changes.keys() - _STATE_FIELDS
    new = object.__new__(GameState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def with_hand(state: GameState, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    """``state.hands`` with the hand of the player whose turn it is replaced by ``hand``."""
    return (*state.hands[:state.turn], hand, *state.hands[state.turn + 1:])
