"""Kind ``layoff``: may these cards be laid off onto a meld on the table?"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import InputReason
from generator.engine.codes import LayoffReason
from generator.engine.codes import MeldType
from generator.engine.codes import Verdict
from generator.engine.melds import MeldResult
from generator.engine.melds import Placed
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet
from generator.engine.table import LayoffResult
from generator.engine.table import TableError
from generator.engine.table import check_layoff
from generator.engine.table import table_meld
from generator.i18n.explain import Words
from generator.i18n.explain import joker_sentence
from generator.i18n.explain import meld_text
from generator.i18n.explain import points_sum
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import unscored_melds
from generator.kinds.views import cards_view

LAYOFF_REASONS: tuple[LayoffReason, ...] = tuple(LayoffReason)
"""The lay-off ``reason`` codes (docs, order of reasons)."""


def table_meld_cards(reader: Reader, rules: RuleSet | None) -> tuple[Card, ...] | None:
    """The ``meld`` on the table, checked to be a valid meld (with ``rules``)."""
    meld = reader.parsed.get(("meld",))
    if meld is None or rules is None:
        return meld
    if not rules.has_jokers and any(c.is_joker for c in meld):
        return meld  # said already: jokers where the game has none
    try:
        table_meld(meld, rules)
    except TableError as exc:
        codes = " ".join(card.code for card in meld)
        reader.error(("meld",), f"meld {codes} is not a valid meld ({exc.reason}); expected "
                     "a meld that could lie on the table", code=InputReason.TABLE_MELD_INVALID,
                     params=(("cards", codes), ("reason", exc.reason)))
    return meld


def opened(reader: Reader, rules: RuleSet | None) -> bool:
    """Whether the player has opened (Rami ``opened``; true when not given)."""
    return reader.value.get("opened", True) is not False


def table_row(meld: tuple[Card, ...], is_opened: bool, w: Words) -> View:
    """``table_meld``, and ``state_text``: before the player has opened, that he has not."""
    return {"table_meld": cards_view(meld, w),
            "state_text": "" if is_opened else w.code("explanation", "not_opened_yet")}


@dataclass(frozen=True)
class LayoffInput:
    """Inputs of a lay-off.

    Attributes:
        meld: the meld on the table (a valid meld).
        cards: the cards laid off.
        opened: whether the player has opened (always true in CardVerse).
    """

    meld: tuple[Card, ...]
    cards: tuple[Card, ...]
    opened: bool


@dataclass(frozen=True)
class LayoffRun:
    """A lay-off's verdict, and the meld on the table before it."""

    before: MeldResult
    layoff: LayoffResult


def run_joker(meld: MeldResult | None) -> Placed | None:
    """The joker of a run on the table, whose card is fixed once laid."""
    if meld is None or meld.type is not MeldType.RUN:
        return None
    return next((p for p in meld.placed if p.card.is_joker and p.stands_for), None)


class LayoffKind(Kind[LayoffInput, LayoffRun]):
    """A lay-off: ``meld``, ``cards`` (``opened``) → verdict, points (Rami), reason."""

    name = "layoff"
    inputs = fields.frozen({"meld": fields.TABLE_MELD, "cards": fields.CARDS,
                            "opened": fields.OPENED})
    expect = fields.frozen({
        "verdict": fields.verdict("layoff", Verdict.VALID, Verdict.INVALID),
        "points": fields.RAMI_POINTS,
        "reason": fields.reason("layoff", LAYOFF_REASONS, verdict=Verdict.INVALID),
    })
    required_expect = ("verdict",)
    arguments = (fields.TABLE_MELD_ARGUMENT, fields.CARDS_ARGUMENT,
                 fields.OPENED_ARGUMENT)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> LayoffInput | None:
        meld = table_meld_cards(reader, rules)
        cards = reader.parsed.get(("cards",))
        if meld is None or cards is None:
            return None
        return LayoffInput(meld, cards, opened(reader, rules))

    def run(self, inputs: LayoffInput, rules: RuleSet) -> LayoffRun:
        return LayoffRun(check_meld(inputs.meld, rules),
                         check_layoff(inputs.meld, inputs.cards, rules, opened=inputs.opened))

    def values(self, inputs: LayoffInput, result: LayoffRun) -> dict[str, Value]:
        layoff = result.layoff
        return {
            "verdict": Verdict.VALID if layoff.valid else Verdict.INVALID,
            "points": layoff.points,
            "reason": layoff.reason,
        }

    def explain(self, inputs: LayoffInput, result: LayoffRun, rules: RuleSet,
                w: Words) -> list[str]:
        """Why it is refused, or the meld it makes and its points; a run's joker keeps
        its card, a joker laid off (or a set's, given its suit by the cards laid off)
        says which card it stands for and why."""
        layoff = result.layoff
        out: list[str] = []
        if layoff.reason is not None:
            out.append(w.code("reason", layoff.reason))
        joker = run_joker(result.before)
        if (joker is not None and joker.stands_for is not None
                and layoff.reason is not LayoffReason.NOT_OPENED):
            out.append(w.code("explanation", "joker_keeps_place", card=joker.stands_for.label))
        if layoff.valid and layoff.meld is not None:
            out.append(w.code("explanation", "meld_becomes",
                              meld=meld_text(layoff.meld.placed)))
            laid = joker_sentence(layoff.meld, w)  # none for a run's joker: it kept its card
            if laid is not None:
                out.append(laid)
            if layoff.points is not None:
                out.append(points_sum(layoff.meld.placed, layoff.points, w))
        return out

    def row(self, inputs: LayoffInput, result: LayoffRun, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """The meld on the table, the cards ``added`` and the ``result_meld`` (and
        :func:`~generator.kinds.base.unscored_melds`)."""
        after = result.layoff.meld
        return {**table_row(inputs.meld, inputs.opened, w), **unscored_melds(rules, w),
                "added": cards_view(inputs.cards, w),
                "result_meld": cards_view((p.card for p in after.placed), w) if after else []}

    def shown(self, inputs: LayoffInput, result: LayoffRun, rules: RuleSet,
              w: Words) -> set[str]:
        after = result.layoff.meld
        if after is None:
            return set()
        return {w.code("explanation", "meld_becomes", meld=meld_text(after.placed))}


KIND = LayoffKind()
