"""Words for the engine's codes and reasoning, in one locale.

The engine gives codes and structured reasoning (:mod:`generator.engine.melds`);
this module turns them into sentences through a :class:`~generator.i18n.catalog.Translator`.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from babel.lists import format_list
from babel.numbers import format_decimal

from generator.engine.best import BestOpening
from generator.engine.cards import Card
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import Outcome
from generator.engine.game import TakeJoker
from generator.engine.hand import RoundResult
from generator.engine.hand import card_hand_points
from generator.engine.hand import hand_value
from generator.engine.melds import MeldResult
from generator.engine.melds import MeldType
from generator.engine.melds import Placed
from generator.engine.melds import rank_points
from generator.engine.rules import RuleSet
from generator.engine.table import LayoffReason
from generator.engine.table import LayoffResult
from generator.engine.table import SwapReason
from generator.engine.table import SwapResult
from generator.i18n import words
from generator.i18n.catalog import Translator
from generator.verify import CaseResult
from generator.verify import Disagreement
from generator.verify import ScenarioRun


@dataclass
class Words:
    """Localized words for one locale, counting every message that fell back to English.

    Attributes:
        translator: the locale's messages.
        fallbacks: how many lookups fell back to English since the last :meth:`reset`.
    """

    translator: Translator
    fallbacks: int = 0

    def reset(self) -> int:
        """Return the fallback count and start again from zero."""
        n, self.fallbacks = self.fallbacks, 0
        return n

    def text(self, msgid: str, context: str | None = None, **params: object) -> str:
        """The translation of ``msgid`` with ``%(name)s`` placeholders filled in."""
        text, ok = self.translator.gettext(msgid, context)
        if not ok:
            self.fallbacks += 1
        return text % params if params else text

    def code(self, table: str, code: str, **params: object) -> str:
        """The words of a code from :data:`generator.i18n.words.CONTEXTS`, e.g.
        ``code("reason", "wraps_around")``."""
        return self.text(words.CONTEXTS[table][code], table, **params)

    def seat(self, seat: int, *, opens_sentence: bool = False) -> str:
        """The name of seat ``seat`` (from 1) as the subject of a sentence: "Seat 1"
        where it opens the sentence, "seat 1" within it; Hungarian "Az 1. játékos",
        "a 2. játékos" (one message per seat: :data:`words.SEATS`)."""
        table = words.SEAT_CONTEXT if opens_sentence else words.SEAT_WITHIN_CONTEXT
        return self.code(table, str(seat))

    def seat_list(self, seats: Iterable[int]) -> str:
        """Seat numbers joined the way the locale joins a list (CLDR list patterns, via
        Babel): "2 and 3" in English, "2, 3 a 4" in Czech, "2 és 3" in Hungarian."""
        locale = self.translator.locale
        return str(format_list([format_decimal(s, locale=locale) for s in seats],
                               locale=locale))

    def card_name(self, card: Card) -> str:
        """The full name of ``card`` in this locale ("srdcová dáma")."""
        return self.text(words.card_msgid(card), words.CARD_CONTEXT)

    def card_label(self, card: Card) -> str:
        """A card as rank code and suit symbol, e.g. ``Q♥`` (language-neutral)."""
        return card.label


def _term(placed: Placed) -> str:
    if placed.card.is_joker:
        stands = placed.stands_for
        return f"JK→{stands.label}" if stands else "JK"
    return placed.card.label


def _joker_sentence(result: MeldResult, w: Words) -> str | None:
    """Which card the meld's joker stands for, and why ("The joker stands for 6♠, not
    9♠: fewer points."); ``None`` without a joker."""
    joker = result.joker
    if joker is None:
        return None
    if joker.suit is None:
        return w.code("explanation", "joker_open_suit",
                      rank=w.text(words.RANK_NAMES[joker.rank], words.RANK_CONTEXT))
    card = Card(joker.rank, joker.suit).label
    key = {"only_place": "joker_only_place", "fewer_points": "joker_fewer_points",
           "lower_rank": "joker_lower_rank"}[joker.why]
    placed = next(p for p in result.placed if p.card.is_joker)
    if key != "joker_only_place" and placed.points != rank_points(placed.rank, placed.place):
        key = "joker_same_place"  # a flat joker value (house rules)
    other = joker.alternatives[0][0].label if joker.alternatives else ""
    return w.code("explanation", key, card=card, other=other)


def _points_sum(placed: Iterable[Placed], total: int, w: Words) -> str:
    terms = " + ".join(f"{_term(p)} {p.points}" for p in placed)
    return w.code("explanation", "points_sum", terms=terms, total=total)


def meld_text(placed: Iterable[Placed]) -> str:
    """A meld's cards in meld order, a joker with the card it stands for:
    ``"JK→6♠ 7♠ 8♠ 9♠"``."""
    return " ".join(_term(p) for p in placed)


def explain_meld(result: MeldResult, w: Words) -> list[str]:
    """The reasoning behind a meld's verdict and points, as sentences.

    Returns e.g. ``["The joker stands for 6♠, not 9♠: fewer points.",
    "6♠ 6 + 7♠ 7 + 8♠ 8 = 21"]``.
    """
    out: list[str] = []
    joker = _joker_sentence(result, w)
    if joker is not None:
        out.append(joker)
    if not result.valid and result.reason is not None:
        out.append(w.code("reason", result.reason.value))
    if result.valid and result.points is not None:
        out.append(_points_sum(result.placed, result.points, w))
    return out


def hand_sum(cards: Sequence[Card], rules: RuleSet, w: Words) -> str:
    """A hand's value as a sum: ``"A♥ 11 + JK 25 = 36"``."""
    terms = " + ".join(f"{c.label} {card_hand_points(c, rules)}" for c in cards)
    return w.code("explanation", "points_sum", terms=terms, total=hand_value(cards, rules))


def _run_joker(meld: MeldResult | None) -> Placed | None:
    """The joker of a run on the table, whose card is fixed once laid."""
    if meld is None or meld.type is not MeldType.RUN:
        return None
    return next((p for p in meld.placed if p.card.is_joker and p.stands_for), None)


def explain_layoff(layoff: LayoffResult, before: MeldResult | None, w: Words) -> list[str]:
    """A lay-off: why it is refused, or the meld it makes and its points; a run's joker
    keeps its card."""
    out: list[str] = []
    if layoff.reason is not None:
        out.append(w.code("reason", layoff.reason.value))
    joker = _run_joker(before)
    if (joker is not None and joker.stands_for is not None
            and layoff.reason is not LayoffReason.NOT_OPENED):
        out.append(w.code("explanation", "joker_keeps_place", card=joker.stands_for.label))
    if layoff.valid and layoff.meld is not None:
        out.append(w.code("explanation", "meld_becomes", meld=meld_text(layoff.meld.placed)))
        if layoff.points is not None:
            out.append(_points_sum(layoff.meld.placed, layoff.points, w))
    return out


def explain_swap(swap: SwapResult, before: MeldResult | None, card: Card | None,
                 w: Words) -> list[str]:
    """Taking back a joker: the card it stands for, then the meld it leaves or why not."""
    out: list[str] = []
    if swap.reason is SwapReason.NO_JOKER:
        return [w.code("reason", swap.reason.value)]
    joker = _joker_sentence(before, w) if before is not None else None
    if joker is not None:
        out.append(joker)
    if swap.reason is not None:
        out.append(w.code("reason", swap.reason.value))
    elif swap.meld is not None and card is not None:
        out.append(w.code("explanation", "joker_taken", card=card.label,
                          meld=meld_text(swap.meld.placed)))
    return out


def explain_seats(hands: Sequence[Sequence[Card]], rules: RuleSet, w: Words) -> list[str]:
    """Each seat's hand value as a sum (``"Seat 3: JK 25 + A♥ 11 = 36"``), or that the
    seat has no cards left."""
    out: list[str] = []
    for seat, hand in enumerate(hands, start=1):
        if hand:
            terms = " + ".join(f"{c.label} {card_hand_points(c, rules)}" for c in hand)
            out.append(w.code("explanation", "seat_hand", seat=seat, terms=terms,
                              total=hand_value(hand, rules)))
        else:
            out.append(w.code("explanation", "seat_out", seat=seat))
    return out


def explain_round(hands: Sequence[Sequence[Card]], result: RoundResult, rules: RuleSet,
                  w: Words) -> list[str]:
    """Each seat's hand value, why the winner won, and how the round is scored."""
    out = explain_seats(hands, rules, w)
    if result.went_out:
        out.append(w.code("explanation", "winner_went_out",
                          seat=w.seat(result.winner, opens_sentence=True)))
    elif result.tied:
        out.append(w.code("explanation", "winner_tied", seat=w.seat(result.winner),
                          seats=w.seat_list(result.tied)))
    else:
        out.append(w.code("explanation", "winner_lowest", seat=w.seat(result.winner)))
    if rules.winner_collects:
        others = [v for i, v in enumerate(result.hand_values, start=1) if i != result.winner]
        total = sum(others)
        text = " + ".join(map(str, others))
        if len(others) > 1:
            text = f"{text} = {total}"
        out.append(w.code("explanation", "scores_collected", sum=text))
    else:
        out.append(w.code("explanation", "scores_own_value"))
    return out


def explain_best(best: BestOpening, w: Words) -> list[str]:
    """The best opening of a hand: each meld (its joker, its points), the total, the
    cards left and, when it cannot open, why."""
    out: list[str] = []
    for meld in best.melds:
        out.extend(explain_meld(meld, w))
    if best.melds:
        text = " + ".join(str(m.points or 0) for m in best.melds)
        if len(best.melds) > 1:
            text = f"{text} = {best.points}"
        out.append(w.code("explanation", "best_total", sum=text))
    else:
        out.append(w.code("explanation", "no_opening_melds"))
    if best.left and best.melds:
        out.append(w.code("explanation", "cards_left", cards=" ".join(c.label for c in best.left)))
    if best.reason is not None:
        out.append(w.code("reason", best.reason.value))
    return out


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
    """The words of a reason code; the code itself for one without words yet."""
    return w.code("reason", code) if code in words.REASONS else code


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
    """Why an action was refused: its reason and, for an invalid meld, the meld's own
    reason (each a sentence of its own)."""
    outcome = step.outcome
    out = [_reason(outcome.reason, w)] if outcome.reason else []
    if outcome.reason == "invalid_meld" and outcome.detail:
        out.append(_reason(outcome.detail, w))
    return out


def step_events(step: Step, w: Words) -> list[str]:
    """The events of a legal action, in order (a returned opening with its reason)."""
    out: list[str] = []
    for event in step.outcome.events:
        out.append(w.code("event", event) if event in words.EVENTS else event)
        if event == "opening_returned" and step.outcome.detail:
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


def explain_scenario(run: ScenarioRun, w: Words) -> list[str]:
    """Every action of a scenario, then the end."""
    out: list[str] = []
    for step in scenario_steps(run):
        out.extend(explain_step(step, w))
    return out + explain_end(run, w)


def explain_disagreement(result: CaseResult, d: Disagreement, w: Words) -> list[str]:
    """The reasoning shown under one disagreement: for a scenario, the action it is
    about (``results[N]``) or the end (``end.*``); otherwise the case's reasoning."""
    run = result.scenario
    if run is not None:
        if d.field.startswith("results[") and d.field.endswith("]"):
            index = int(d.field[len("results["):-1]) - 1
            if 0 <= index < len(run.outcomes):
                return explain_step(scenario_step(run, index), w)
        if d.field.startswith("end."):
            return explain_end(run, w)
    lines = explain_case(result, w)
    opening = result.opening
    if opening is not None and opening.points is not None:
        # The check report adds what the page shows beside the reasoning: the total
        # against the threshold and why the first meld is rejected.
        lines.append(w.code("explanation", "threshold_context",
                            threshold=opening.threshold,
                            preset=w.code("preset", str(result.case.rules))))
        lines[-1] = f"= {opening.points} ({lines[-1]})"
    reason = result.values.get("reason")
    if isinstance(reason, str) and reason in words.REASONS:
        because = w.code("reason", reason)
        if because not in lines:  # a meld, lay-off or joker swap says it already
            lines.append(because)
    return lines


def explain_case(result: CaseResult, w: Words) -> list[str]:
    """The engine's reasoning for a case: for a meld, its joker and points; for a first
    meld, each meld's reasoning and, when one is invalid, which and why; for a hand, its
    value as a sum; for a lay-off, the meld it makes or why not; for taking back a joker,
    the card it stands for and the outcome; for a round, each seat's hand value, why the
    winner won and how the scores come about; for a best opening, its melds, total, the
    cards left and why it cannot open."""
    case = result.case
    if result.layoff is not None:
        return explain_layoff(result.layoff, result.meld, w)
    if result.swap is not None:
        return explain_swap(result.swap, result.meld, case.card, w)
    if result.round is not None and case.hands is not None:
        return explain_round(case.hands, result.round, case.rule_set(), w)
    if result.best is not None:
        return explain_best(result.best, w)
    if result.scenario is not None:
        return explain_scenario(result.scenario, w)
    if case.kind == "hand" and case.cards is not None:
        return [hand_sum(case.cards, case.rule_set(), w)]
    if result.meld is not None:
        return explain_meld(result.meld, w)
    if result.opening is not None:
        out: list[str] = []
        for i, meld in enumerate(result.opening.melds, start=1):
            if not meld.valid and meld.reason is not None:
                out.append(w.code("numbered meld", meld.reason.value, num=i))
            else:
                out.extend(explain_meld(meld, w))
        return out
    return []


def context_text(result: CaseResult, w: Words) -> str:
    """The small print under points: the preset, and for a first meld the threshold;
    for a hand or a round in CardVerse, the options that change hand values."""
    case = result.case
    preset = w.code("preset", case.rules) if case.rules else w.code("game", case.game)
    if result.opening is not None:
        return w.code("explanation", "threshold_context",
                      threshold=result.opening.threshold, preset=preset)
    if result.best is not None:
        return w.code("explanation", "threshold_context",
                      threshold=result.best.threshold, preset=preset)
    if case.kind in ("hand", "round") and case.options.get("ace_high"):
        return w.code("explanation", "rules_with_option", rules=preset,
                      option=w.code("option", "ace_high"))
    return preset
