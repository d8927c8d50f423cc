"""Setting up a round: the full deck, a seeded deal, or a start position given card by
card (docs/rules.md "Cards and decks")."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.game.cache import CARDS
from generator.engine.game.cache import canon_all
from generator.engine.game.cache import meld_order
from generator.engine.game.cache import meld_result
from generator.engine.game.state import GameState
from generator.engine.game.state import TableMeld
from generator.engine.rules import DeckRow
from generator.engine.rules import RuleSet


class SetupError(ValueError):
    """A start position that cannot be played (wrong number of hands, a table meld that
    is not valid, more copies of a card than the deck holds...); the message says what
    was expected."""


def full_deck(rules: RuleSet, players: int) -> tuple[Card, ...]:
    """Every card in play for ``players`` players, in a fixed order (by deck, suit, rank,
    then the jokers): ``rules.deck_for(players).cards`` cards.

    Raises:
        PlayerCountError: the game does not allow that many players.
    """
    row = rules.deck_for(players)
    return CARDS[:-1] * row.decks + (JOKER,) * row.jokers


def deal(rules: RuleSet, players: int, seed: int, dealer: int | None = None) -> GameState:
    """Deal a round (docs/rules.md, Cards and decks).

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
    row = _deck_row(rules, players)
    _check_hands(hands)
    _check_table(rules, table, players)
    _check_copies(row, players, [*(c for h in hands for c in h), *discard, *stock,
                                 *(c for m in table for c in m.cards)])
    flags = _opened_flags(rules, opened, players)
    _check_counters(rules, players, turn, turns_played, reshuffles)
    return GameState(
        rules,
        tuple(canon_all(h) for h in hands),
        canon_all(stock),
        canon_all(discard),
        tuple(TableMeld(meld_order(m.cards, rules), m.owner) for m in table),
        flags,
        players - 1,
        turn,
        turns_played,
        reshuffles,
        seed,
    )


def _deck_row(rules: RuleSet, players: int) -> DeckRow:
    """The deck for ``players`` players (docs/rules.md "Cards and decks").

    Raises:
        SetupError: the game does not allow that many players.
    """
    try:
        return rules.deck_for(players)
    except ValueError as exc:
        raise SetupError(str(exc)) from exc


def _check_hands(hands: Sequence[Sequence[Card]]) -> None:
    """Raises :class:`SetupError` when a seat holds no card."""
    if any(not h for h in hands):
        raise SetupError("an empty hand; expected every seat to hold cards")


def _check_table(rules: RuleSet, table: Sequence[TableMeld], players: int) -> None:
    """Raises :class:`SetupError` at the first table meld, in the order laid, whose owner
    is not a seat or that is not a valid meld (docs/rules.md "Melds")."""
    for m in table:
        if not 0 <= m.owner < players:
            raise SetupError(f"table meld owner {m.owner}; expected a seat 0 to {players - 1}")
        result = meld_result(m.cards, rules)
        if not result.valid:
            assert result.reason is not None
            raise SetupError(f"table meld {' '.join(c.code for c in m.cards)} is not valid "
                             f"({result.reason}); expected a valid meld")


def _check_copies(row: DeckRow, players: int, cards: Sequence[Card]) -> None:
    """Raises :class:`SetupError` at the first card (in order of first appearance in
    ``cards``) with more copies than the deck ``row`` holds: one per deck, or its jokers
    (docs/rules.md "Cards and decks")."""
    for c, n in Counter(cards).items():
        most = row.jokers if c.is_joker else row.decks
        if n > most:
            raise SetupError(f"{n} × {c.code}; expected at most {most} with {players} players")


def _opened_flags(rules: RuleSet, opened: Sequence[bool] | None,
                  players: int) -> tuple[bool, ...]:
    """Per seat, whether it has opened: ``opened``, or nobody by default; everyone in a
    game without an opening (docs/rules.md "The opening (first meld), Rami").

    Raises:
        SetupError: flags given for a game without an opening, or not one per seat.
    """
    if rules.opening_threshold is None:
        if opened is not None:
            raise SetupError(f"{rules.game} has no opening; expected no opened flags")
        return (True,) * players
    flags = tuple(opened) if opened is not None else (False,) * players
    if len(flags) != players:
        raise SetupError(f"{len(flags)} opened flags; expected {players}, one per seat")
    return flags


def _check_counters(rules: RuleSet, players: int, turn: int, turns_played: int,
                    reshuffles: int) -> None:
    """Raises :class:`SetupError` when ``turn`` is not a seat, or ``reshuffles`` or
    ``turns_played`` is out of the rule set's range (docs/rules.md "End of a round"),
    checked in that order."""
    if not 0 <= turn < players:
        raise SetupError(f"turn {turn}; expected a seat 0 to {players - 1}")
    if not 0 <= reshuffles <= rules.max_reshuffles:
        raise SetupError(f"{reshuffles} reshuffles; expected 0 to {rules.max_reshuffles}")
    limit = rules.turn_limit
    if turns_played < 0 or (limit is not None and turns_played >= limit):
        upto = "" if limit is None else f" to {limit - 1}"
        raise SetupError(f"{turns_played} turns played; expected 0{upto}")
