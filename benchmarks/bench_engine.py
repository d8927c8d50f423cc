"""Time of the rules engine's searches, per call, in this process.

    python benchmarks/bench_engine.py [--hands 1000] [--seed 2024]

Sections (each a function returning its lines; ``main`` prints them in turn):

- best_opening: :func:`generator.engine.best.best_opening` on random 14-card hands
  with exactly 2 jokers (12 natural cards drawn from two 52-card decks), Rami 51,
  reference preset; median and 99th percentile in milliseconds.
- playouts: whole rounds from the deal to the end (``generator.engine.bots.play_round``)
  with random bots (uniform over ``legal_actions``), per game and player count; rounds
  and actions per second. Greedy bots for comparison.

Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.engine import JOKER
from generator.engine import Card
from generator.engine import Rank
from generator.engine import Suit
from generator.engine import best_opening
from generator.engine import rule_set
from generator.engine.bots import Bot
from generator.engine.bots import greedy_bot
from generator.engine.bots import play_round
from generator.engine.bots import random_bot


def _percentile(times: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``times`` lie (nearest rank)."""
    ordered = sorted(times)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def _summary(label: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{label}: {len(ms)} calls: median {statistics.median(ms):.2f} ms, "
            f"p99 {_percentile(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")


def bench_best_opening(hands: int, seed: int) -> list[str]:
    """best_opening on ``hands`` random 14-card hands with exactly 2 jokers, Rami 51
    reference; one line with the median and 99th percentile time per hand."""
    rules = rule_set("rami51", "reference")
    naturals = [Card(rank, suit) for suit in Suit for rank in Rank] * 2
    rng = random.Random(seed)
    deals = [(*rng.sample(naturals, 12), JOKER, JOKER) for _ in range(hands)]
    times = []
    opened = 0
    for hand in deals:
        start = time.perf_counter()
        result = best_opening(hand, rules)
        times.append(time.perf_counter() - start)
        opened += result.can_open
    return [
        _summary("best_opening, 14 cards with 2 jokers, rami51 reference", times),
        f"  hands that can open: {opened} of {hands} (seed {seed})",
    ]


def bench_playouts(seconds: float, seed: int) -> list[str]:
    """Random playouts: for each game and player count, rounds played with random bots
    for about ``seconds`` seconds; one line each with rounds/s and actions/s."""
    setups: list[tuple[str, str | None, int, str, Bot]] = [
        ("rami40", "reference", 2, "random", random_bot),
        ("rami40", "reference", 4, "random", random_bot),
        ("rami51", "reference", 2, "random", random_bot),
        ("rami51", "house", 4, "random", random_bot),
        ("cardverse", None, 2, "random", random_bot),
        ("cardverse", None, 4, "random", random_bot),
        ("rami51", "reference", 4, "greedy", greedy_bot),
        ("cardverse", None, 4, "greedy", greedy_bot),
    ]
    lines = []
    for game, preset, players, kind, bot in setups:
        rules = rule_set(game, preset)
        rounds = actions = 0
        begin = time.perf_counter()
        while time.perf_counter() - begin < seconds:
            _, outcomes = play_round(rules, players, seed + rounds, [bot] * players)
            rounds += 1
            actions += len(outcomes)
        spent = time.perf_counter() - begin
        label = f"{game} {preset or ''}".strip()
        lines.append(f"{kind} playouts, {label}, {players} players: {rounds / spent:.1f} "
                     f"rounds/s, {actions / spent:.0f} actions/s "
                     f"({rounds} rounds, {actions / rounds:.0f} actions each)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="time per playout line (s)")
    args = parser.parse_args()
    sections: list[tuple[str, Callable[[], list[str]]]] = [
        ("best_opening", lambda: bench_best_opening(args.hands, args.seed)),
        ("random playouts per second", lambda: bench_playouts(args.seconds, args.seed)),
    ]
    for title, run in sections:
        print(f"== {title}")
        for line in run():
            print(line)


if __name__ == "__main__":
    main()
