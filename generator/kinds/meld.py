"""Kind ``meld``: are these cards a valid meld, of which type, for how many points?"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.codes import Verdict
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet
from generator.i18n import words
from generator.i18n.explain import Words
from generator.i18n.explain import explain_meld
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import unscored_melds
from generator.kinds.views import cards_view

MELD_REASONS: tuple[MeldReason, ...] = (
    MeldReason.TOO_FEW_CARDS,
    MeldReason.TOO_MANY_CARDS,
    MeldReason.NOT_A_MELD,
    MeldReason.DUPLICATE_SUIT,
    MeldReason.NOT_CONSECUTIVE,
    MeldReason.WRAPS_AROUND,
    MeldReason.TOO_MANY_JOKERS,
    MeldReason.ACE_LOW_NOT_ALLOWED,
)
"""The meld ``reason`` codes (docs, listing order)."""


@dataclass(frozen=True)
class CardsInput:
    """Inputs of a kind that takes one card list.

    Attributes:
        cards: the cards, in the listed order.
    """

    cards: tuple[Card, ...]


def cards_input(reader: Reader) -> CardsInput | None:
    """The ``cards`` read, or ``None`` after an error in them."""
    cards = reader.parsed.get(("cards",))
    return CardsInput(cards) if cards is not None else None


class MeldKind(Kind[CardsInput, MeldResult]):
    """A meld: ``cards`` → verdict, type, points (Rami), reason."""

    name = "meld"
    inputs = fields.frozen({"cards": fields.CARDS})
    expect = fields.frozen({
        "verdict": fields.verdict("meld", Verdict.VALID, Verdict.INVALID),
        "type": fields.FieldSpec(fields.enum("meld type", (MeldType.RUN, MeldType.SET))),
        "points": fields.RAMI_POINTS,
        "reason": fields.reason("meld", MELD_REASONS, verdict=Verdict.INVALID),
    })
    required_expect = ("verdict",)
    arguments = (fields.CARDS_ARGUMENT,)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> CardsInput | None:
        return cards_input(reader)

    def run(self, inputs: CardsInput, rules: RuleSet) -> MeldResult:
        return check_meld(inputs.cards, rules)

    def values(self, inputs: CardsInput, result: MeldResult) -> dict[str, Value]:
        return {
            "verdict": Verdict.VALID if result.valid else Verdict.INVALID,
            "type": result.type,
            "points": result.points,
            "reason": result.reason,
        }

    def explain(self, inputs: CardsInput, result: MeldResult, rules: RuleSet,
                w: Words) -> list[str]:
        return explain_meld(result, w)

    def row(self, inputs: CardsInput, result: MeldResult, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        view: View = {"melds": [cards_view(inputs.cards, w)], **unscored_melds(rules, w)}
        if result.type is not None:
            # the verdict and the type (of a set, its count too) as one message
            verdict = Verdict(str(values["verdict"]))
            context = words.meld_verdict_context(result.type, len(inputs.cards))
            view["verdict_text"] = w.code(context, words.meld_verdict(verdict, result.type))
        return view


KIND = MeldKind()
