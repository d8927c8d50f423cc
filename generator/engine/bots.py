"""Bots that play rounds through :mod:`generator.engine.game`, for property tests and
benchmarks.

A bot is a function ``(state, rng) -> action`` choosing the next action of the player
whose turn it is; with the same ``random.Random`` it chooses the same action. Bots only
choose: legality is always :func:`game.apply`'s.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace

from generator.engine.cards import Card
from generator.engine.game import Action
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameScore
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import Outcome
from generator.engine.game import TakeJoker
from generator.engine.game import apply
from generator.engine.game import deal
from generator.engine.game import hand_melds
from generator.engine.game import legal_actions
from generator.engine.game import meld_result
from generator.engine.game import new_game
from generator.engine.game import record_round
from generator.engine.hand import card_hand_points
from generator.engine.opening import check_opening
from generator.engine.rules import RuleSet

Bot = Callable[[GameState, random.Random], Action]
"""A bot: the next action for the player whose turn it is in ``state``."""

MAX_ACTIONS = 100_000
"""Actions after which :func:`play_round` gives up on a round (a bot that never ends it)."""


class BotError(RuntimeError):
    """A bot chose an illegal action, or a round did not end within :data:`MAX_ACTIONS`."""


def random_bot(state: GameState, rng: random.Random) -> Action:
    """A uniformly random action among :func:`game.legal_actions`."""
    return rng.choice(legal_actions(state))


def greedy_bot(state: GameState, rng: random.Random) -> Action:
    """A simple greedy player.

    - Draw: the discard pile's top card when it is a joker or makes a new meld with the
      hand (or, once opened, can be laid off); else the stock.
    - Once opened (or where there is no opening): take back a joker when it holds the
      card, lay the meld with the most cards, lay off single natural cards (a joker only
      when one taken back must be laid again).
    - Not yet opened (Rami): when disjoint melds of the hand, picked by points, meet the
      opening, lay them one per action (continuing with any meld once started).
    - Discard: its highest-value loose card (in no meld of the hand; never a joker while
      another card may go); ties at random.
    """
    actions = legal_actions(state)
    if not state.drawn:
        return _greedy_draw(state, actions)
    choices = _Choices.of(actions)
    if state.opened[state.turn]:
        play = _opened_play(state, choices)
    else:
        play = _opening_play(state, choices.melds)
    if play is not None:
        return play
    if not choices.discards:
        return actions[0]
    return _choose_discard(state, list(choices.discards), rng)


@dataclass(frozen=True)
class _Choices:
    """The legal actions after the draw, by kind, each in :func:`game.legal_actions`'
    order."""

    melds: tuple[Meld, ...]
    layoffs: tuple[LayOff, ...]
    takes: tuple[TakeJoker, ...]
    discards: tuple[Discard, ...]

    @classmethod
    def of(cls, actions: Sequence[Action]) -> _Choices:
        """``actions`` sorted by kind."""
        return cls(
            tuple(a for a in actions if isinstance(a, Meld)),
            tuple(a for a in actions if isinstance(a, LayOff)),
            tuple(a for a in actions if isinstance(a, TakeJoker)),
            tuple(a for a in actions if isinstance(a, Discard)),
        )


def _greedy_draw(state: GameState, actions: Sequence[Action]) -> Action:
    """The discard pile's top card when it may be drawn and :func:`_wants` it; else the
    stock."""
    top = state.discard[-1] if state.discard else None
    if top is not None and Draw("discard") in actions and _wants(state, top):
        return Draw("discard")
    return Draw("stock")


def _opened_play(state: GameState, choices: _Choices) -> Action | None:
    """The play of a player who has opened, before discarding: the first joker take-back;
    else the meld with the most cards (then points); else the lay-off of the natural card
    worth most in the hand; else the first lay-off when a joker is owed or no discard is
    legal; ``None`` when none of these applies."""
    if choices.takes:
        return choices.takes[0]
    if choices.melds:
        return max(choices.melds, key=lambda m: (len(m.cards), _points(m.cards, state)))
    natural = [a for a in choices.layoffs if not a.cards[0].is_joker]
    if natural:
        return max(natural, key=lambda a: card_hand_points(a.cards[0], state.rules))
    if choices.layoffs and (state.jokers_owed or not choices.discards):
        return choices.layoffs[0]
    return None


def _opening_play(state: GameState, melds: Sequence[Meld]) -> Action | None:
    """The play of a player who has not opened, among the legal ``melds``: once a meld is
    laid this turn, the one with the most points; else the first meld of
    :func:`_opening_plan` when it is legal; ``None`` otherwise."""
    if not melds:
        return None
    if state.laid:
        return max(melds, key=lambda m: _points(m.cards, state))
    plan = _opening_plan(state)
    if plan and Meld(plan[0]) in melds:
        return Meld(plan[0])
    return None


def _points(cards: tuple[Card, ...], state: GameState) -> int:
    """A meld's points (Rami), or its number of cards where melds carry no points."""
    result = meld_result(cards, state.rules)
    return len(cards) if result.points is None else result.points


def _wants(state: GameState, top: Card) -> bool:
    """Whether the greedy player takes ``top`` from the discard pile: a joker (in a game
    with jokers), a card that makes a new meld with the hand, or, once opened, a card it
    could lay off."""
    if top.is_joker:
        return state.rules.has_jokers
    if any(top in m for m in hand_melds((*state.hand, top), state.rules)):
        return True
    if state.opened[state.turn]:
        return any(
            isinstance(a, LayOff) and a.cards == (top,)
            for a in _layoffs_with(state, top)
        )
    return False


def _layoffs_with(state: GameState, card: Card) -> list[Action]:
    """Legal actions after drawing ``card`` (to see whether it could be laid off)."""
    held = replace(state, hands=(*state.hands[:state.turn], (*state.hand, card),
                                 *state.hands[state.turn + 1:]), drawn=True, taken=None)
    return legal_actions(held)


def _opening_plan(state: GameState) -> list[tuple[Card, ...]]:
    """Disjoint melds of the hand meeting the opening, most points first; empty if none.

    Greedy by points; in Rami 51 each of the best four pure runs is tried first.
    """
    rules = state.rules
    hand = list(state.hand)
    candidates = sorted(hand_melds(hand, rules), key=lambda m: -_points(m, state))
    starts: list[tuple[Card, ...] | None] = [None]
    if rules.opening_needs_pure_run:
        pure = [m for m in candidates if meld_result(m, rules).pure]
        starts = [*pure[:4]]
    best: list[tuple[Card, ...]] = []
    best_points = -1
    for first in starts:
        rest = list(hand)
        plan: list[tuple[Card, ...]] = []
        for m in ([first] if first is not None else []) + candidates:
            trial = list(rest)
            try:
                for c in m:
                    trial.remove(c)
            except ValueError:
                continue
            rest = trial
            plan.append(m)
        if not plan:
            continue
        result = check_opening(plan, rules)
        if result.accepted and (result.points or 0) > best_points:
            best, best_points = plan, result.points or 0
    return best


def _choose_discard(state: GameState, discards: list[Discard], rng: random.Random) -> Action:
    """Among the legal ``discards``: the loose natural cards (in no meld of the hand),
    else any natural card, else any; of those, one worth most in the hand, ties at
    random."""
    rules = state.rules
    in_melds = {c for m in hand_melds(state.hand, rules) for c in m}
    loose = [d for d in discards if d.card not in in_melds and not d.card.is_joker]
    pool = loose or [d for d in discards if not d.card.is_joker] or discards
    top = max(card_hand_points(d.card, rules) for d in pool)
    return rng.choice([d for d in pool if card_hand_points(d.card, rules) == top])


def play_round(
    rules: RuleSet,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    dealer: int | None = None,
) -> tuple[GameState, list[Outcome]]:
    """Deal with ``seed`` (:func:`game.deal`) and let ``bots`` (one per seat) play the
    round to its end.

    Each seat's bot gets its own ``random.Random`` seeded from ``seed`` and the seat, so
    a round is the same for the same arguments.

    Returns:
        The final state (``state.end`` set) and the outcome of every action, in order.

    Raises:
        BotError: a bot chose an illegal action, or the round went on for more than
            :data:`MAX_ACTIONS` actions.
    """
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots; expected {players}, one per seat")
    state = deal(rules, players, seed, dealer)
    rngs = [random.Random(f"bot:{seed}:{seat}") for seat in range(players)]
    outcomes: list[Outcome] = []
    while state.end is None:
        action = bots[state.turn](state, rngs[state.turn])
        outcome = apply(state, action)
        if not outcome.legal:
            raise BotError(f"seat {state.turn} chose {action!r}: {outcome.reason}")
        outcomes.append(outcome)
        if len(outcomes) > MAX_ACTIONS:
            raise BotError(f"no end after {MAX_ACTIONS} actions")
        state = outcome.state
    return state, outcomes


def play_game(
    rules: RuleSet,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    rounds: int | None = None,
) -> tuple[GameScore, list[GameState]]:
    """Play a whole game (docs/rules.md, Scoring): Rami one round per player (each dealing
    once; ``rounds`` overrides), CardVerse until a total reaches ``rules.target_score``.

    Round ``k`` (0-based) is dealt with seed ``seed * 1000 + k`` by
    ``GameScore.next_dealer``.

    Returns:
        The final score and the final state of every round.
    """
    score = new_game(rules, players, rounds)
    finals: list[GameState] = []
    while not score.over:
        state, _ = play_round(rules, players, seed * 1000 + score.rounds_played, bots,
                              dealer=score.next_dealer)
        finals.append(state)
        score = record_round(score, state)
    return score, finals
