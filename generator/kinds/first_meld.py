"""Kind ``first_meld``: do these melds open (Rami: valid, a pure run, the threshold)?"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import OpeningReason
from generator.engine.codes import Verdict
from generator.engine.opening import OpeningResult
from generator.engine.opening import check_opening
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.explain import explain_meld
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import threshold_context
from generator.kinds.base import with_reason
from generator.kinds.views import cards_view

OPENING_REASONS: tuple[OpeningReason, ...] = tuple(OpeningReason)
"""The first-meld ``reason`` codes (docs, order of precedence)."""


@dataclass(frozen=True)
class MeldsInput:
    """Inputs of a first meld.

    Attributes:
        melds: the melds laid together, each in the listed order.
    """

    melds: tuple[tuple[Card, ...], ...]


class FirstMeldKind(Kind[MeldsInput, OpeningResult]):
    """A first meld: ``melds`` → verdict, points, reason."""

    name = "first_meld"
    games = fields.RAMI_GAMES
    inputs = fields.frozen({"melds": fields.FieldSpec(fields.meld_list("melds"), shape="melds")})
    expect = fields.frozen({
        "verdict": fields.verdict("first_meld", Verdict.ACCEPTED, Verdict.REJECTED),
        "points": fields.POINTS,
        "reason": fields.reason("first_meld", OPENING_REASONS, verdict=Verdict.REJECTED),
    })
    required_expect = ("verdict",)
    arguments = (fields.MELDS_ARGUMENT,)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> MeldsInput | None:
        melds = reader.value.get("melds")
        if not isinstance(melds, list):
            return None
        parsed = [reader.parsed.get(("melds", i)) for i in range(len(melds))]
        if any(meld is None for meld in parsed):
            return None
        return MeldsInput(tuple(meld for meld in parsed if meld is not None))

    def run(self, inputs: MeldsInput, rules: RuleSet) -> OpeningResult:
        return check_opening(inputs.melds, rules)

    def values(self, inputs: MeldsInput, result: OpeningResult) -> dict[str, Value]:
        return {
            "verdict": Verdict.ACCEPTED if result.accepted else Verdict.REJECTED,
            "points": result.points,
            "reason": result.reason,
        }

    def explain(self, inputs: MeldsInput, result: OpeningResult, rules: RuleSet,
                w: Words) -> list[str]:
        """Each meld's reasoning; for an invalid one, which and why."""
        out: list[str] = []
        for i, meld in enumerate(result.melds, start=1):
            if not meld.valid and meld.reason is not None:
                out.append(w.code("numbered meld", meld.reason, num=i))
            else:
                out.extend(explain_meld(meld, w))
        return out

    def explain_mismatch(self, field: str, inputs: MeldsInput, result: OpeningResult,
                         values: Mapping[str, Value], rules: RuleSet,
                         w: Words) -> list[str]:
        """The report adds what the page shows beside the reasoning: the total against
        the threshold, and why the first meld is rejected."""
        lines = self.explain(inputs, result, rules, w)
        if result.points is not None:
            lines.append(f"= {result.points} ({self.context(inputs, result, rules, w)})")
        return with_reason(lines, values, w)

    def context(self, inputs: MeldsInput, result: OpeningResult, rules: RuleSet,
                w: Words) -> str:
        return threshold_context(result.threshold, rules, w)

    def row(self, inputs: MeldsInput, result: OpeningResult, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        return {"melds": [cards_view(meld, w) for meld in inputs.melds]}


KIND = FirstMeldKind()
