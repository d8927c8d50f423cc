"""Kind ``joker_swap``: may the joker be taken back from a meld on the table?"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import InputReason
from generator.engine.codes import SwapReason
from generator.engine.codes import Verdict
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet
from generator.engine.table import SwapResult
from generator.engine.table import check_joker_swap
from generator.i18n.explain import Words
from generator.i18n.explain import meld_text
from generator.i18n.explain import table_joker_sentence
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.layoff import opened
from generator.kinds.layoff import table_meld_cards
from generator.kinds.layoff import table_row
from generator.kinds.views import card_view

SWAP_REASONS: tuple[SwapReason, ...] = tuple(SwapReason)
"""The ``reason`` codes of taking back a joker (docs, order of reasons)."""


@dataclass(frozen=True)
class SwapInput:
    """Inputs of taking back a joker.

    Attributes:
        meld: the meld on the table (a valid meld).
        card: the natural card put in the joker's place.
        opened: whether the player has opened.
    """

    meld: tuple[Card, ...]
    card: Card
    opened: bool


@dataclass(frozen=True)
class SwapRun:
    """The verdict on taking back the joker, and the meld on the table before."""

    before: MeldResult
    swap: SwapResult


class JokerSwapKind(Kind[SwapInput, SwapRun]):
    """Taking back a joker: ``meld``, ``card`` (``opened``) → verdict, the card the
    joker stands for, reason."""

    name = "joker_swap"
    games = fields.RAMI_GAMES
    inputs = fields.frozen({
        "meld": fields.TABLE_MELD,
        "card": fields.FieldSpec(
            fields.card("card", "one card code such as 6S (the card put in the joker's "
                        "place)", natural=True),
            shape="card",
        ),
        "opened": fields.OPENED,
    })
    expect = fields.frozen({
        "verdict": fields.verdict("joker_swap", Verdict.ALLOWED, Verdict.REJECTED),
        "joker_stands_for": fields.FieldSpec(
            fields.card("joker_stands_for", "a card code such as 6S", natural=True),
            shape="card"),
        "reason": fields.reason("joker_swap", SWAP_REASONS, verdict=Verdict.REJECTED),
    })
    required_expect = ("verdict",)
    arguments = (fields.TABLE_MELD_ARGUMENT, fields.CARD_ARGUMENT,
                 fields.OPENED_ARGUMENT)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> SwapInput | None:
        """The meld on the table; the card put in the joker's place, and the documented
        card the joker stands for (both read by the loader), are natural cards."""
        meld = table_meld_cards(reader, rules)
        card = reader.parsed.get(("card",))
        if card is not None and card[0].is_joker:
            reader.error(("card",), "card is a joker; expected the natural card put in the "
                         "joker's place (e.g. 6S)", code=InputReason.JOKER_FOR_JOKER)
        stands_for = reader.parsed.get(("expect", "joker_stands_for"))
        if stands_for is not None and stands_for[0].is_joker:
            reader.error(("expect", "joker_stands_for"), "joker_stands_for is a joker; "
                         "expected the natural card the joker stands for (e.g. 6S)")
        if meld is None or card is None:
            return None
        return SwapInput(meld, card[0], opened(reader, rules))

    def run(self, inputs: SwapInput, rules: RuleSet) -> SwapRun:
        return SwapRun(check_meld(inputs.meld, rules),
                       check_joker_swap(inputs.meld, inputs.card, rules,
                                        opened=inputs.opened))

    def values(self, inputs: SwapInput, result: SwapRun) -> dict[str, Value]:
        swap = result.swap
        return {
            "verdict": Verdict.ALLOWED if swap.allowed else Verdict.REJECTED,
            "joker_stands_for": swap.stands_for.code if swap.stands_for else None,
            "reason": swap.reason,
        }

    def explain(self, inputs: SwapInput, result: SwapRun, rules: RuleSet,
                w: Words) -> list[str]:
        """The card the joker stands for and why (the card it keeps, never points), then
        the meld it leaves or why not."""
        swap = result.swap
        if swap.reason is SwapReason.NO_JOKER:
            return [w.code("reason", swap.reason)]
        out: list[str] = []
        joker = table_joker_sentence(result.before, swap, w)
        if joker is not None:
            out.append(joker)
        if swap.reason is not None:
            out.append(w.code("reason", swap.reason))
        elif swap.meld is not None:
            out.append(w.code("explanation", "joker_taken", card=inputs.card.label,
                              meld=meld_text(swap.meld.placed)))
        return out

    def row(self, inputs: SwapInput, result: SwapRun, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """The meld on the table, the ``swap_card`` and what the joker ``stands_for``."""
        stands_for = result.swap.stands_for
        view: View = {**table_row(inputs.meld, inputs.opened, w),
                      "swap_card": card_view(inputs.card, w),
                      "stands_for": card_view(stands_for, w) if stands_for else None}
        if stands_for is not None:
            view["data"] = {"stands-for": stands_for.code}
        return view


KIND = JokerSwapKind()
