"""Hand values and round scoring (docs/rules.md "Scoring", "End of a round").

Hand value: the points of the cards left in a hand at the end of a round. Rami: 2-9 face
value; 10, J, Q, K 10; ace 11; joker 25 (reference) or 15 (house). CardVerse: ace 1
(11 with ``ace_high``), J/Q/K 10, others face value.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.rules import RuleSet


def card_hand_points(card: Card, rules: RuleSet) -> int:
    """Points of one card left in a hand (docs/rules.md "Scoring")."""
    if card.rank is None:
        return rules.joker_hand_points
    if card.rank is Rank.ACE:
        return rules.ace_hand_points
    return min(int(card.rank), 10)


def hand_value(cards: Iterable[Card], rules: RuleSet) -> int:
    """The hand value of ``cards`` (points); 0 for an empty hand."""
    return sum(card_hand_points(c, rules) for c in cards)


class RoundError(ValueError):
    """A round that cannot be scored: fewer seats than the game allows, or several seats
    that went out."""


@dataclass(frozen=True)
class RoundResult:
    """How a round is scored.

    Attributes:
        winner: the winning seat, 1-based (seat 1 sits left of the dealer, plays first).
        scores: the points each seat gets this round, in seat order.
        hand_values: each seat's hand value (points), in seat order.
        went_out: True when the winner emptied their hand; False when the round ended on
            the stock or the turn limit and the lowest hand value won.
        tied: the seats (1-based) that shared the lowest hand value, when that decided;
            the earliest of them wins.
    """

    winner: int
    scores: tuple[int, ...]
    hand_values: tuple[int, ...]
    went_out: bool
    tied: tuple[int, ...] = ()


def score_round(hands: Sequence[Sequence[Card]], rules: RuleSet) -> RoundResult:
    """Score a round from the cards left in each seat's hand.

    Args:
        hands: per seat, in seat order (seat 1 first), the cards left; an empty hand means
            that seat went out.
        rules: the rule set (hand values; whether the winner collects).

    Returns:
        The :class:`RoundResult`. With a seat that went out, it wins; otherwise the lowest
        hand value wins, ties to the lowest seat number (the earliest after the dealer).
        Rami: the winner scores 0 and every other seat its own hand value. CardVerse
        (``winner_collects``): the winner scores the sum of the others' hand values, the
        others 0.

    Raises:
        RoundError: fewer than two seats, or more than one seat with an empty hand.
    """
    if len(hands) < 2:
        raise RoundError(f"{len(hands)} seats; expected at least 2")
    values = tuple(hand_value(h, rules) for h in hands)
    out = [i for i, h in enumerate(hands) if not h]
    if len(out) > 1:
        raise RoundError(f"seats {', '.join(str(i + 1) for i in out)} all went out; "
                         "expected at most one")
    tied: tuple[int, ...] = ()
    if out:
        winner = out[0]
    else:
        low = min(values)
        tied_seats = [i for i, v in enumerate(values) if v == low]
        winner = tied_seats[0]
        tied = tuple(i + 1 for i in tied_seats) if len(tied_seats) > 1 else ()
    if rules.winner_collects:
        total = sum(v for i, v in enumerate(values) if i != winner)
        scores = tuple(total if i == winner else 0 for i in range(len(hands)))
    else:
        scores = tuple(0 if i == winner else v for i, v in enumerate(values))
    return RoundResult(winner + 1, scores, values, bool(out), tied)
