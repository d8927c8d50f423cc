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
    try:
        row = rules.deck_for(players)
    except ValueError as exc:
        raise SetupError(str(exc)) from exc
    if any(not h for h in hands):
        raise SetupError("an empty hand; expected every seat to hold cards")
    for m in table:
        if not 0 <= m.owner < players:
            raise SetupError(f"table meld owner {m.owner}; expected a seat 0 to {players - 1}")
        result = meld_result(m.cards, rules)
        if not result.valid:
            assert result.reason is not None
            raise SetupError(f"table meld {' '.join(c.code for c in m.cards)} is not valid "
                             f"({result.reason}); expected a valid meld")
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
