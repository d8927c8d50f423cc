"""Kind ``round``: who wins a round and how it is scored, from the hands left."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.hand import RoundResult
from generator.engine.hand import score_round
from generator.engine.rules import RuleSet
from generator.i18n.explain import Words
from generator.i18n.explain import explain_round
from generator.i18n.explain import explain_seats
from generator.kinds import fields
from generator.kinds.base import Kind
from generator.kinds.base import Reader
from generator.kinds.base import Value
from generator.kinds.base import View
from generator.kinds.base import at
from generator.kinds.base import check_seat_count
from generator.kinds.base import check_seat_values
from generator.kinds.base import seat_bounds
from generator.kinds.base import seat_rules
from generator.kinds.base import seat_value_rules
from generator.kinds.hand import hand_rules_text
from generator.kinds.views import round_view


@dataclass(frozen=True)
class HandsInput:
    """Inputs of a round.

    Attributes:
        hands: the cards left in each seat's hand, seat 1 first; an empty hand is the
            seat that went out.
    """

    hands: tuple[tuple[Card, ...], ...]


class RoundKind(Kind[HandsInput, RoundResult]):
    """A round: ``hands`` → winner, scores."""

    name = "round"
    inputs = fields.frozen({"hands": fields.FieldSpec(fields.hand_list("hands"), shape="hands")})
    expect = fields.frozen({
        "winner": fields.FieldSpec(fields.integer("winner", minimum=1,
                                                  example="<a seat number>")),
        "scores": fields.FieldSpec(fields.integer_list("scores", "score")),
    })
    arguments = (fields.HANDS_ARGUMENT,)

    def check(self, reader: Reader, rules: RuleSet | None) -> HandsInput | None:
        """One hand per seat, as many seats as the game allows players, at most one
        seat that went out (an empty hand); a documented winner and scores fit the
        seats."""
        hands = reader.value.get("hands")
        if not isinstance(hands, list):
            return None
        if rules is not None:
            check_seat_count(reader, ("hands",), len(hands), rules)
            first_empty: int | None = None
            for index in range(len(hands)):
                hand = reader.parsed.get(("hands", index))
                if hand is None or hand:
                    continue
                if first_empty is None:
                    first_empty = index
                    continue
                reader.error(("hands", index), f"hand {index + 1} is empty, and so is hand "
                             f"{first_empty + 1}; expected at most one empty hand (the seat "
                             "that went out)")
        expect = reader.value.get("expect")
        if isinstance(expect, dict):
            check_seat_values(reader, expect, ("expect",), len(hands), "hands")
        parsed = [reader.parsed.get(("hands", i)) for i in range(len(hands))]
        if any(hand is None for hand in parsed):
            return None
        return HandsInput(tuple(hand for hand in parsed if hand is not None))

    def editor_rules(self, rules: RuleSet) -> fields.Schema:
        """``hands``: one per seat, at most one of them empty; ``winner`` and ``scores``
        fit the seats."""
        return {
            "properties": {"hands": {**seat_bounds(rules), "allOf": [{
                "contains": fields.empty_card_list(), "minContains": 0, "maxContains": 1,
                "errorMessage": "hands holds more than one empty hand; expected at most "
                "one (the seat that went out)"}]}},
            "allOf": seat_rules(("hands",), rules,
                                lambda seats: at(("expect",), seat_value_rules(seats))),
        }

    def run(self, inputs: HandsInput, rules: RuleSet) -> RoundResult:
        return score_round(inputs.hands, rules)

    def values(self, inputs: HandsInput, result: RoundResult) -> dict[str, Value]:
        return {"winner": result.winner, "scores": result.scores}

    def explain(self, inputs: HandsInput, result: RoundResult, rules: RuleSet,
                w: Words) -> list[str]:
        return explain_round(inputs.hands, result, rules, w)

    def context(self, inputs: HandsInput, result: RoundResult, rules: RuleSet,
                w: Words) -> str:
        return hand_rules_text(rules, w)

    def row(self, inputs: HandsInput, result: RoundResult, values: Mapping[str, Value],
            rules: RuleSet, w: Words) -> View:
        """The seats, the winner and ``points``: the total of the scores."""
        return {**round_view(inputs.hands, result, w), "points": sum(result.scores)}

    def shown(self, inputs: HandsInput, result: RoundResult, rules: RuleSet,
              w: Words) -> set[str]:
        return set(explain_seats(inputs.hands, rules, w))  # the seats list shows these


KIND = RoundKind()
