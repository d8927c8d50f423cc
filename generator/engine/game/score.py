"""A whole game: the running score over rounds (docs/rules.md "Scoring")."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace

from generator.engine.game.state import GameState
from generator.engine.rules import RuleSet


@dataclass(frozen=True)
class GameScore:
    """The running score of a game (docs/rules.md, Scoring).

    Attributes:
        rules: the rule set.
        totals: per seat, points so far.
        rounds_played: rounds scored so far.
        rounds: rounds the game has (Rami: one per player, each dealing once); ``None``
            where the game ends on ``rules.target_score`` (CardVerse).
    """

    rules: RuleSet
    totals: tuple[int, ...]
    rounds_played: int
    rounds: int | None

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.totals)

    @property
    def next_dealer(self) -> int:
        """The dealer's seat for the next round: the last seat first, then the deal
        passes to the next seat each round (seat 0 plays first in round 1)."""
        return (self.players - 1 + self.rounds_played) % self.players

    @property
    def over(self) -> bool:
        """Whether the game has ended: all rounds played, or a total reached the target."""
        if self.rounds is not None and self.rounds_played >= self.rounds:
            return True
        target = self.rules.target_score
        return target is not None and max(self.totals) >= target

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the best total (0-based): the lowest where losers add their
        hand values (Rami), the highest where the winner collects (CardVerse)."""
        best = max(self.totals) if self.rules.winner_collects else min(self.totals)
        return tuple(i for i, t in enumerate(self.totals) if t == best)


def new_game(rules: RuleSet, players: int, rounds: int | None = None) -> GameScore:
    """A game's score before its first round.

    Args:
        rounds: the number of rounds; default one per player where the game has no
            target score (Rami), else ``None`` (play to ``rules.target_score``).

    Raises:
        PlayerCountError: the game does not allow that many players.
    """
    rules.deck_for(players)
    if rounds is None and rules.target_score is None:
        rounds = players
    return GameScore(rules, (0,) * players, 0, rounds)


def record_round(score: GameScore, state: GameState) -> GameScore:
    """Add the scores of the ended round ``state`` to ``score``.

    Raises:
        ValueError: the round has not ended, or has another number of seats.
    """
    if state.end is None or state.players != score.players:
        raise ValueError("expected an ended round with the game's number of seats")
    totals = tuple(t + s for t, s in zip(score.totals, state.end.result.scores, strict=True))
    return replace(score, totals=totals, rounds_played=score.rounds_played + 1)
