"""Kind ``hand``: what the cards left in a hand count at the end of a round."""

from __future__ import annotations

from collections.abc import Mapping

from generator.engine.codes import Option
from generator.engine.hand import hand_value
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.explain import hand_sum
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import preset_text
from generator.kinds.meld import CardsInput
from generator.kinds.meld import cards_input
from generator.kinds.views import cards_view


def hand_rules_text(rules: RuleSet, w: Words) -> str:
    """The small print under hand values: the preset or game, and the option that
    changes them (CardVerse ``ace_high``)."""
    preset = preset_text(rules, w)
    if rules.ace_high:
        return w.code("explanation", "rules_with_option", rules=preset,
                      option=w.code("option", Option.ACE_HIGH))
    return preset


class HandKind(Kind[CardsInput, int]):
    """A hand: ``cards`` → points."""

    name = "hand"
    inputs = fields.frozen({"cards": fields.CARDS})
    expect = fields.frozen({"points": fields.POINTS})
    required_expect = ("points",)
    arguments = (fields.CARDS_ARGUMENT,)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> CardsInput | None:
        return cards_input(reader)

    def run(self, inputs: CardsInput, rules: RuleSet) -> int:
        return hand_value(inputs.cards, rules)

    def values(self, inputs: CardsInput, result: int) -> dict[str, Value]:
        return {"points": result}

    def explain(self, inputs: CardsInput, result: int, rules: RuleSet,
                w: Words) -> list[str]:
        return [hand_sum(inputs.cards, rules, w)]

    def context(self, inputs: CardsInput, result: int, rules: RuleSet, w: Words) -> str:
        return hand_rules_text(rules, w)

    def row(self, inputs: CardsInput, result: int, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        return {"melds": [cards_view(inputs.cards, w)]}


KIND = HandKind()
