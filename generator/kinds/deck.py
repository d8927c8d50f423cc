"""Kind ``deck``: how many decks, jokers and cards a game uses for N players, and the
hand dealt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.deck import DeckResult
from generator.engine.deck import deck
from generator.engine.rules import PlayerCountError
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.numbers import format_decimal
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import is_int


@dataclass(frozen=True)
class PlayersInput:
    """Inputs of a kind about the deck.

    Attributes:
        players: the player count (allowed by the game).
    """

    players: int


def players_input(reader: Reader, rules: RuleSet | None) -> PlayersInput | None:
    """``players``, checked against the game's player counts (with ``rules``)."""
    players = reader.value.get("players")
    if not is_int(players):
        return None  # the schema has said so
    if rules is not None:
        try:
            rules.deck_for(players)
        except PlayerCountError:
            noun = "player" if players == 1 else "players"
            reader.error(("players",), f"{rules.game} does not allow {players} {noun}; "
                         f"expected {rules.min_players} to {rules.max_players}")
            return None
    return PlayersInput(players)


def players_rules(rules: RuleSet) -> fields.Schema:
    """``players``: a count the game allows (:func:`players_input`), as schema keywords of
    the case (:meth:`~generator.kinds.base.Kind.editor_rules`)."""
    return {"properties": {"players": {
        "minimum": rules.min_players, "maximum": rules.max_players,
        "description": f"players: {rules.min_players} to {rules.max_players} ({rules.game} "
        f"is played by {rules.min_players} to {rules.max_players} players)"}}}


PLAYERS = fields.FieldSpec(fields.integer("players", minimum=None,
                                          example="<number of players>"))
"""``players``: a player count (checked against the game by :func:`players_input`)."""


class DeckKind(Kind[PlayersInput, DeckResult]):
    """The deck: ``players`` → decks, jokers, cards, hand size."""

    name = "deck"
    inputs = fields.frozen({"players": PLAYERS})
    expect = fields.frozen({
        "decks": fields.FieldSpec(fields.integer("decks")),
        "jokers": fields.FieldSpec(fields.integer("jokers")),
        "cards": fields.FieldSpec(fields.integer("cards")),
        "hand_size": fields.FieldSpec(fields.integer("hand_size")),
    })
    arguments = (fields.PLAYERS_ARGUMENT,)

    def check(self, reader: Reader, rules: RuleSet | None) -> PlayersInput | None:
        return players_input(reader, rules)

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        return players_rules(rules)

    def run(self, inputs: PlayersInput, rules: RuleSet) -> DeckResult:
        return deck(rules, inputs.players)

    def values(self, inputs: PlayersInput, result: DeckResult) -> dict[str, Value]:
        return {"decks": result.decks, "jokers": result.jokers, "cards": result.cards,
                "hand_size": result.hand_size}

    def explain(self, inputs: PlayersInput, result: DeckResult, rules: RuleSet,
                w: Words) -> list[str]:
        """Where the cards in play come from: ``"Decks: 2 × 52 = 104. Jokers: 4. In play:
        104 + 4 = 108."``"""
        locale = w.translator.locale
        naturals = result.cards - result.jokers
        return [w.text("Decks: %(decks)s × %(size)s = %(naturals)s. Jokers: %(jokers)s. "
                       "In play: %(naturals)s + %(jokers)s = %(cards)s.",
                       decks=format_decimal(result.decks, locale),
                       size=format_decimal(naturals // result.decks, locale),
                       naturals=format_decimal(naturals, locale),
                       jokers=format_decimal(result.jokers, locale),
                       cards=format_decimal(result.cards, locale))]

    def row(self, inputs: PlayersInput, result: DeckResult, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """``cells``: the values, written for the locale."""
        locale = w.translator.locale
        return {"cells": [format_decimal(v, locale=locale) for v in values.values()
                          if isinstance(v, int)]}


KIND = DeckKind()
