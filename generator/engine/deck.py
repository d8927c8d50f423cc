"""Deck composition and hand size per player count (docs/rules.md "Cards and decks")."""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.rules import RuleSet


@dataclass(frozen=True)
class DeckResult:
    """What a game is dealt with for one player count.

    Attributes:
        players: number of players.
        decks: 52-card decks shuffled together.
        jokers: jokers added (cards).
        cards: cards in play in all (cards).
        hand_size: cards dealt to each player (cards).
    """

    players: int
    decks: int
    jokers: int
    cards: int
    hand_size: int


def deck(rules: RuleSet, players: int) -> DeckResult:
    """The deck and the deal for ``players`` players under ``rules``.

    Raises:
        PlayerCountError: the game does not allow that many players.
    """
    row = rules.deck_for(players)
    return DeckResult(players, row.decks, row.jokers, row.cards, row.hand_size)
