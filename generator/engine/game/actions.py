"""The actions of a turn: one step of the player whose turn it is (docs/rules.md "A turn",
"Taking back a joker")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.engine.cards import Card


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
