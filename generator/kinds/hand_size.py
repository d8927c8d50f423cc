"""Kind ``hand_size``: how many cards each player is dealt, and how many are left in the
stock after the deal.

The values come from the engine's own deal (:func:`generator.engine.game.deal`): each
seat gets the rule set's hand size for the player count, one card is turned up to start
the discard pile, and the rest is the stock (docs: rules, "Cards and decks").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.game import deal
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.numbers import format_decimal
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.deck import PLAYERS
from generator.kinds.deck import PlayersInput
from generator.kinds.deck import players_input
from generator.kinds.deck import players_rules


@dataclass(frozen=True)
class Deal:
    """A deal, counted.

    Attributes:
        players: the player count.
        cards: the cards in play (cards).
        dealt: the cards each player is dealt (cards).
        discard: the cards turned up to start the discard pile (cards).
        stock: the cards left in the stock (cards).
    """

    players: int
    cards: int
    dealt: int
    discard: int
    stock: int


class HandSizeKind(Kind[PlayersInput, Deal]):
    """The deal: ``players`` → cards dealt to each player, cards left in the stock."""

    name = "hand_size"
    inputs = fields.frozen({"players": PLAYERS})
    expect = fields.frozen({
        "dealt": fields.FieldSpec(fields.integer("dealt")),
        "stock": fields.FieldSpec(fields.integer("stock")),
    })
    arguments = (fields.PLAYERS_ARGUMENT,)

    def check(self, reader: Reader, rules: RuleSet | None) -> PlayersInput | None:
        return players_input(reader, rules)

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        return players_rules(rules)

    def run(self, inputs: PlayersInput, rules: RuleSet) -> Deal:
        """Deal once (the counts do not depend on the shuffle) and count."""
        state = deal(rules, inputs.players, seed=0)
        return Deal(inputs.players, rules.deck_for(inputs.players).cards,
                    len(state.hands[0]), len(state.discard), len(state.stock))

    def values(self, inputs: PlayersInput, result: Deal) -> dict[str, Value]:
        return {"dealt": result.dealt, "stock": result.stock}

    def explain(self, inputs: PlayersInput, result: Deal, rules: RuleSet,
                w: Words) -> list[str]:
        """Where the cards go: ``"In play: 108. Dealt: 4 × 13 = 52. Turned up: 1. Stock:
        55."``"""
        locale = w.translator.locale
        return [w.text("In play: %(cards)s. Dealt: %(players)s × %(dealt)s = %(total)s. "
                       "Turned up: %(discard)s. Stock: %(stock)s.",
                       cards=format_decimal(result.cards, locale),
                       players=format_decimal(result.players, locale),
                       dealt=format_decimal(result.dealt, locale),
                       total=format_decimal(result.players * result.dealt, locale),
                       discard=format_decimal(result.discard, locale),
                       stock=format_decimal(result.stock, locale))]

    def row(self, inputs: PlayersInput, result: Deal, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """``players_text``, ``dealt_text``, ``stock_text`` and their ``data-*``."""
        locale = w.translator.locale
        return {
            "players_text": format_decimal(result.players, locale),
            "dealt_text": format_decimal(result.dealt, locale),
            "stock_text": format_decimal(result.stock, locale),
            "data": {"players": str(result.players), "dealt": str(result.dealt),
                     "stock": str(result.stock)},
        }


KIND = HandSizeKind()
