"""Kind ``best_opening``: the best first meld a hand holds (Rami), and whether it opens."""

from __future__ import annotations

from collections.abc import Mapping

from generator.engine.best import BestOpening
from generator.engine.best import best_opening
from generator.engine.codes import InputReason
from generator.engine.codes import Verdict
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.explain import explain_meld
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import count
from generator.kinds.base import threshold_context
from generator.kinds.meld import CardsInput
from generator.kinds.meld import cards_input
from generator.kinds.views import cards_view


def hand_sizes(rules: RuleSet) -> tuple[int, int]:
    """The cards a hand holds when its best opening is sought (Rami): as dealt, or after
    drawing."""
    dealt = rules.deck_for(rules.min_players).hand_size
    return dealt, dealt + 1


def _cards_left(best: BestOpening, w: Words) -> str:
    return w.code("explanation", "cards_left", cards=" ".join(c.label for c in best.left))


class BestOpeningKind(Kind[CardsInput, BestOpening]):
    """A best opening: ``cards`` (a hand) → verdict, points."""

    name = "best_opening"
    games = fields.RAMI_GAMES
    inputs = fields.frozen({"cards": fields.CARDS})
    expect = fields.frozen({
        "verdict": fields.verdict("best_opening", Verdict.CAN_OPEN, Verdict.CANNOT_OPEN),
        "points": fields.POINTS,
    })
    required_expect = ("verdict",)
    arguments = (fields.CARDS_ARGUMENT,)
    checker = True

    def check(self, reader: Reader, rules: RuleSet | None) -> CardsInput | None:
        """A best opening is sought in a hand as dealt, or after drawing: 13 or 14
        cards in Rami."""
        inputs = cards_input(reader)
        if inputs is None or rules is None or rules.opening_threshold is None:
            return inputs  # CardVerse has no opening: the schema has said so
        dealt, drawn = hand_sizes(rules)
        if len(inputs.cards) not in (dealt, drawn):
            reader.error(("cards",), f"cards holds {count(len(inputs.cards), 'card')}; "
                         f"expected {dealt} or {drawn} (a hand as dealt, or after drawing)",
                         code=InputReason.NOT_A_HAND_SIZE,
                         params=(("count", str(len(inputs.cards))), ("dealt", str(dealt)),
                                 ("drawn", str(drawn))))
        return inputs

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        """``cards``: 13 or 14 cards (:func:`hand_sizes`)."""
        dealt, drawn = hand_sizes(rules)
        return {"properties": {"cards": {
            "minItems": dealt, "maxItems": drawn,
            "description": f"cards: a hand of {dealt} or {drawn} cards (as dealt, or after "
            "drawing), a list of card codes or one string of codes separated by spaces"}}}

    def run(self, inputs: CardsInput, rules: RuleSet) -> BestOpening:
        return best_opening(inputs.cards, rules)

    def values(self, inputs: CardsInput, result: BestOpening) -> dict[str, Value]:
        return {"verdict": result.verdict, "points": result.points}

    def explain(self, inputs: CardsInput, result: BestOpening, rules: RuleSet,
                w: Words) -> list[str]:
        """Each meld (its joker, its points), the total, the cards left and, when it
        cannot open, why."""
        out: list[str] = []
        for meld in result.melds:
            out.extend(explain_meld(meld, w))
        if result.melds:
            text = " + ".join(str(m.points or 0) for m in result.melds)
            if len(result.melds) > 1:
                text = f"{text} = {result.points}"
            out.append(w.code("explanation", "best_total", sum=text))
        else:
            out.append(w.code("explanation", "no_opening_melds"))
        if result.left and result.melds:
            out.append(_cards_left(result, w))
        if result.reason is not None:
            out.append(w.code("reason", result.reason))
        return out

    def context(self, inputs: CardsInput, result: BestOpening, rules: RuleSet,
                w: Words) -> str:
        return threshold_context(result.threshold, rules, w)

    def row(self, inputs: CardsInput, result: BestOpening, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """The hand, the ``best_melds`` and the cards ``left``."""
        return {
            "melds": [cards_view(inputs.cards, w)],
            "best_melds": [cards_view((p.card for p in m.placed), w) for m in result.melds],
            "left": cards_view(result.left, w) if result.melds else [],
        }

    def shown(self, inputs: CardsInput, result: BestOpening, rules: RuleSet,
              w: Words) -> set[str]:
        if result.melds and result.left:  # drawn
            return {_cards_left(result, w)}
        return set()


KIND = BestOpeningKind()
