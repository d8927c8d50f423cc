"""A scenario played: the engine's outcome of each action, what a case file documents for
it, and the steps as the site describes them (:class:`Step`), with their words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import Event
from generator.engine.codes import PlayReason
from generator.engine.codes import StepResult
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import Outcome
from generator.engine.game import TakeJoker
from generator.i18n import words
from generator.i18n.explain import Words
from generator.i18n.explain import explain_round
from generator.kinds.base import View
from generator.kinds.views import cards_view


@dataclass(frozen=True)
class ScenarioRun:
    """A scenario played through the engine.

    Attributes:
        start: the position before the first action.
        outcomes: the engine's outcome of each action, in order (an illegal action leaves
            the state as it was and the next action is tried on it).
    """

    start: GameState
    outcomes: tuple[Outcome, ...]

    @property
    def final(self) -> GameState:
        """The state after the last action."""
        return self.outcomes[-1].state if self.outcomes else self.start


def result_code(outcome: Outcome) -> str:
    """What the engine gives for one action, as a scenario's ``results`` shows it: the
    reason code of an illegal action, the events of a legal one joined by ``+``
    (``opened+round_over``), or ``legal``."""
    if not outcome.legal:
        return outcome.reason or StepResult.ILLEGAL
    return "+".join(outcome.events) if outcome.events else StepResult.LEGAL


def documented_result(outcome: Outcome) -> str:
    """What a case file documents for one action, agreeing with the engine: the reason
    code of an illegal action, the first event of a legal one, or ``legal``."""
    if not outcome.legal:
        return str(outcome.reason or StepResult.ILLEGAL)
    return str(outcome.events[0]) if outcome.events else str(StepResult.LEGAL)


def result_agrees(documented: str, outcome: Outcome) -> bool:
    """A documented result agrees with an outcome when it is ``legal`` and the action is
    legal, an event the legal action caused, or the reason the action is illegal."""
    if documented == StepResult.LEGAL:
        return outcome.legal
    if outcome.legal:
        return documented in outcome.events
    return documented == outcome.reason


# -- words ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One action of a scenario as the site describes it.

    Attributes:
        num: the action's number, from 1.
        seat: the seat that acted, from 1.
        code: the message of the action (:data:`generator.i18n.words.ACTIONS`).
        params: the message's numbers other than the cards (``num``: a table meld).
        cards: the cards the action names (for a draw: the card drawn, when known).
        outcome: the engine's outcome.
    """

    num: int
    seat: int
    code: str
    params: dict[str, int]
    cards: tuple[Card, ...]
    outcome: Outcome


def scenario_steps(run: ScenarioRun) -> list[Step]:
    """The actions of a scenario with who played them and the cards they name."""
    return [scenario_step(run, index) for index in range(len(run.outcomes))]


def scenario_step(run: ScenarioRun, index: int) -> Step:
    """The action at ``index`` (from 0) of a scenario, with who played it and the cards
    it names: from the state before it, so one step costs the same whatever its place."""
    state = run.outcomes[index - 1].state if index else run.start
    outcome = run.outcomes[index]
    seat = state.turn
    action = outcome.action
    params: dict[str, int] = {}
    if isinstance(action, Draw):
        after = outcome.state
        drawn = (after.hands[seat][-1:] if outcome.legal and after.end is None
                 and after.hands[seat] else ())
        code = f"draw_{action.source}" + ("" if drawn else "_none")
        cards: tuple[Card, ...] = tuple(drawn)
    elif isinstance(action, Meld):
        code, cards = "meld", action.cards
    elif isinstance(action, LayOff):
        code, cards, params = "layoff", action.cards, {"num": action.onto + 1}
    elif isinstance(action, TakeJoker):
        code, cards, params = "take_joker", (action.card,), {"num": action.onto + 1}
    else:
        assert isinstance(action, Discard)
        code, cards = "discard", (action.card,)
    return Step(index + 1, seat + 1, code, params, cards, outcome)


def _reason(code: str, w: Words) -> str:
    """The words of a reason code (every code has them: ``tests/test_codes.py``)."""
    return w.code("reason", code)


def explain_step(step: Step, w: Words) -> list[str]:
    """One action: who did what, whether it was allowed, then its events or why not."""
    action = w.code("action", step.code, seat=w.seat(step.seat),
                    cards=" ".join(c.label for c in step.cards), **step.params)
    outcome = step.outcome
    if not outcome.legal:
        out = [w.code("explanation", "step_not_allowed", num=step.num, action=action)]
        out.extend(refusal_reasons(step, w))
        return out
    out = [w.code("explanation", "step_allowed", num=step.num, action=action)]
    out.extend(step_events(step, w))
    return out


def refusal_reasons(step: Step, w: Words) -> list[str]:
    """Why an action was refused: its reason; for an invalid meld, the meld's own reason
    in its place (the code's words, "One of the melds is not valid.", are a first meld's,
    and an action lays one meld)."""
    outcome = step.outcome
    if outcome.reason is PlayReason.INVALID_MELD and outcome.detail:
        return [_reason(outcome.detail, w)]
    return [_reason(outcome.reason, w)] if outcome.reason else []


def step_events(step: Step, w: Words) -> list[str]:
    """The events of a legal action, in order (a returned opening with its reason)."""
    out: list[str] = []
    for event in step.outcome.events:
        out.append(w.code("event", event))
        if event is Event.OPENING_RETURNED and step.outcome.detail:
            out.append(_reason(step.outcome.detail, w))
    return out


def explain_end(run: ScenarioRun, w: Words) -> list[str]:
    """The round after the last action: why it ended, each seat's hand value, the winner
    and the scores; or whose turn it is."""
    final = run.final
    end = final.end
    if end is None:
        return [w.code("explanation", "round_goes_on", seat=w.seat(final.turn + 1))]
    out: list[str] = []
    if end.reason in words.END_REASONS:
        out.append(w.code("end", end.reason))
    out.extend(explain_round(final.hands, end.result, final.rules, w))
    return out


_CARDS_HERE = "\x00"
"""Stands for the cards in an action's message until the template draws them there."""

_SEAT_HERE = "\x01"
"""Stands for the seat's name in an action's message until the template shows it there."""


def action_parts(step: Step, w: Words) -> list[View]:
    """An action's sentence in the order the language writes it, as parts for the
    template: ``{"text"}``, ``{"seat"}`` (the seat's name as it opens a sentence) and
    ``{"cards"}`` (card views, drawn where the message has ``%(cards)s``)."""
    text = w.code("action", step.code, seat=_SEAT_HERE, cards=_CARDS_HERE, **step.params)
    parts: list[View] = []
    for piece in re.split(f"([{_SEAT_HERE}{_CARDS_HERE}])", text):
        if piece == _SEAT_HERE:
            parts.append({"seat": w.seat(step.seat, opens_sentence=True)})
        elif piece == _CARDS_HERE:
            parts.append({"cards": cards_view(step.cards, w, words.CARD_OBJECT_CONTEXT)})
        elif piece:
            parts.append({"text": piece})
    return parts
