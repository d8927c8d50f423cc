"""View models for the templates: case rows, cards and generated tables, in one locale.

Every value shown comes from the engine (a :class:`~generator.verify.CaseResult` or a
rule set), never from the case file's ``expect`` (SITE.md, "Pages").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from babel.numbers import format_decimal as _format_decimal

from generator.engine.cards import Card
from generator.engine.rules import rule_set
from generator.i18n import words
from generator.i18n.explain import Step
from generator.i18n.explain import Words
from generator.i18n.explain import context_text
from generator.i18n.explain import explain_case
from generator.i18n.explain import explain_end
from generator.i18n.explain import explain_seats
from generator.i18n.explain import meld_text
from generator.i18n.explain import refusal_reasons
from generator.i18n.explain import scenario_steps
from generator.i18n.explain import step_events
from generator.verify import CaseResult
from generator.verify import result_code

View = dict[str, Any]


@lru_cache(maxsize=4096)
def format_decimal(number: int, locale: str) -> str:
    """``number`` written for ``locale`` (Babel), cached: the same few numbers recur."""
    return str(_format_decimal(number, locale=locale))


def card_view(card: Card, w: Words, context: str = words.CARD_CONTEXT) -> View:
    """A card for the ``card`` macro: ``label`` (rank code), ``symbol``, ``red``,
    ``joker``, ``name`` (the full localized name, for screen readers) and ``name_en``
    (true when the name is not translated yet and is given in English).

    ``context`` picks the grammatical form of the name: :data:`words.CARD_CONTEXT` as it
    stands alone (a table cell), :data:`words.CARD_OBJECT_CONTEXT` as the object of a
    verb in a sentence ("seat 1 discards …": Czech "srdcovou dámu")."""
    name, ok = w.translator.gettext(words.card_msgid(card), context)
    if not ok:
        w.fallbacks += 1
    view: View = {"name": name, "name_en": not ok}
    if card.rank is None or card.suit is None:
        view.update(label="JK", symbol="★", red=False, joker=True)
    else:
        view.update(label=card.rank.code, symbol=card.suit.symbol, red=card.suit.is_red,
                    joker=False)
    return view


def _localized(w: Words, text: str | None) -> tuple[str, bool]:
    if text is None:
        return "", False
    translated, ok = w.translator.gettext(text)
    if not ok:
        w.fallbacks += 1
    return translated, not ok


def _cards(cards: Iterable[Card], w: Words, context: str = words.CARD_CONTEXT) -> list[View]:
    return [card_view(c, w, context) for c in cards]


def _kind_view(result: CaseResult, w: Words) -> View:
    """The parts of a row that only some kinds have (DESIGN.md, "Rendering contract"):
    ``table_meld``, ``added``, ``result_meld``, ``state_text`` (lay-off); ``swap_card``,
    ``stands_for`` (taking back a joker); ``seats``, ``winner_text`` (round);
    ``best_melds``, ``left`` (best opening: the melds, the cards not melded);
    ``start_seats``, ``start_discard``, ``start_stock``, ``start_table``, ``steps``,
    ``end_reasoning``, and ``seats``, ``winner_text`` once the round is over (scenario);
    ``data``
    (more ``data-*`` attributes of the row) and ``points`` where the kind's points are
    not an ``expect`` field called ``points`` (round: the total of the scores)."""
    case = result.case
    locale = w.translator.locale
    view: View = {}
    if case.meld is not None:
        view["table_meld"] = _cards(case.meld, w)
    if case.opened is False:
        view["state_text"] = w.code("explanation", "not_opened_yet")
    if result.layoff is not None:
        assert case.cards is not None
        view["added"] = _cards(case.cards, w)
        after = result.layoff.meld
        view["result_meld"] = _cards((p.card for p in after.placed), w) if after else []
    if result.swap is not None:
        assert case.card is not None
        stands_for = result.swap.stands_for
        view["swap_card"] = card_view(case.card, w)
        view["stands_for"] = card_view(stands_for, w) if stands_for else None
        if stands_for is not None:
            view["data"] = {"stands-for": stands_for.code}
    if result.round is not None and case.hands is not None:
        r = result.round
        view["seats"] = [
            {
                "seat": seat,
                "label": w.text("Seat %(seat)s", seat=seat),
                "cards": _cards(hand, w),
                "out_text": "" if hand else w.text("went out"),
                "value_text": format_decimal(value, locale=locale),
                "score_text": format_decimal(score, locale=locale),
                "winner": seat == r.winner,
            }
            for seat, (hand, value, score) in enumerate(
                zip(case.hands, r.hand_values, r.scores, strict=True), start=1)
        ]
        view["winner_text"] = w.text("Seat %(seat)s", seat=r.winner)
        view["points"] = sum(r.scores)
        view["data"] = {"winner": str(r.winner), "scores": " ".join(map(str, r.scores))}
    if result.best is not None:
        view["best_melds"] = [_cards((p.card for p in m.placed), w) for m in result.best.melds]
        view["left"] = _cards(result.best.left, w) if result.best.melds else []
    if result.scenario is not None:
        view.update(_scenario_view(result, w))
    return view


_CARDS_HERE = "\x00"
"""Stands for the cards in an action's message until the template draws them there."""


def _scenario_view(result: CaseResult, w: Words) -> View:
    """A scenario's start position, its steps (what each seat did, the cards, allowed or
    not and why) and its end (``seats``, ``winner_text`` when the round is over)."""
    run = result.scenario
    assert run is not None
    locale = w.translator.locale
    start = run.start
    rami = start.rules.opening_threshold is not None
    view: View = {
        "start_seats": [
            {"label": w.text("Seat %(seat)s", seat=seat + 1), "cards": _cards(hand, w),
             "opened": rami and start.opened[seat], "turn": seat == start.turn}
            for seat, hand in enumerate(start.hands)
        ],
        "start_discard": _cards(start.discard, w),
        "start_stock": _cards(start.stock, w),
        "start_table": [
            {"num": num, "label": w.text("Seat %(seat)s", seat=meld.owner + 1),
             "cards": _cards(meld.cards, w)}
            for num, meld in enumerate(start.table, start=1)
        ],
    }
    steps = []
    for step in scenario_steps(run):
        outcome = step.outcome
        notes = step_events(step, w) if outcome.legal else refusal_reasons(step, w)
        steps.append({
            "num": step.num,
            "parts": _action_parts(step, w),
            "ok": outcome.legal,
            "result_text": w.code("verdict", "allowed") if outcome.legal
            else w.text("Not allowed"),
            "notes": notes,
        })
    view["steps"] = steps
    data = {"results": " ".join(result_code(o) for o in run.outcomes)}
    final = run.final
    end = final.end
    if end is not None:
        r = end.result
        view["seats"] = [
            {"seat": seat, "label": w.text("Seat %(seat)s", seat=seat),
             "cards": _cards(hand, w), "out_text": "" if hand else w.text("went out"),
             "value_text": format_decimal(value, locale=locale),
             "score_text": format_decimal(score, locale=locale), "winner": seat == r.winner}
            for seat, (hand, value, score) in enumerate(
                zip(final.hands, r.hand_values, r.scores, strict=True), start=1)
        ]
        view["winner_text"] = w.text("Seat %(seat)s", seat=r.winner)
        data.update(winner=str(r.winner), scores=" ".join(map(str, r.scores)))
    view["data"] = data
    hand_lines = set(explain_seats(final.hands, final.rules, w)) if end else set()
    view["end_reasoning"] = [r for r in explain_end(run, w) if r not in hand_lines]
    return view


def case_row(result: CaseResult, w: Words) -> View:
    """One row of a cases table (DESIGN.md, "Rendering contract")."""
    case = result.case
    title, title_en = _localized(w, case.title)
    note, note_en = _localized(w, case.note)
    if case.melds is not None:
        melds = [[card_view(c, w) for c in meld] for meld in case.melds]
    elif case.cards is not None and case.kind != "layoff":
        melds = [[card_view(c, w) for c in case.cards]]
    else:
        melds = []
    values = result.values
    verdict = result.verdict
    type_code = values.get("type")
    reason = values.get("reason")
    extra = _kind_view(result, w)
    points = extra.pop("points", result.points)
    reason_text = w.code("reason", str(reason)) if reason else ""
    shown = {reason_text}  # sentences the row shows otherwise (the reason, a drawn meld)
    if result.layoff is not None and result.layoff.meld is not None:
        shown.add(w.code("explanation", "meld_becomes",
                         meld=meld_text(result.layoff.meld.placed)))
    if result.round is not None and case.hands is not None:  # the seats list shows these
        shown.update(explain_seats(case.hands, case.rule_set(), w))
    if result.scenario is not None:  # the steps and the end are shown on their own
        shown.update(explain_case(result, w))
    if result.best is not None and result.best.melds and result.best.left:  # drawn
        shown.add(w.code("explanation", "cards_left",
                         cards=" ".join(c.label for c in result.best.left)))
    locale = w.translator.locale
    return {
        "id": case.id,
        "kind": case.kind,
        "verdict": verdict,
        "points": points,
        "title": title,
        "title_en": title_en,
        "note": note,
        "note_en": note_en,
        "melds": melds,
        "verdict_text": w.code("verdict", verdict) if verdict else "",
        "type_text": w.code("meld type", str(type_code)) if type_code else "",
        "points_text": format_decimal(points, locale=locale) if points is not None else "—",
        "context_text": context_text(result, w),
        "reason_text": reason_text,
        "reasoning": [r for r in explain_case(result, w) if r not in shown],
        "cells": [format_decimal(v, locale=locale) for k, v in values.items()
                  if isinstance(v, int)] if case.kind == "deck" else [],
        "data": {},
        # kinds with more parts (see _kind_view); every row has every key
        "table_meld": [],
        "added": [],
        "result_meld": [],
        "state_text": "",
        "swap_card": None,
        "stands_for": None,
        "seats": [],
        "winner_text": "",
        "best_melds": [],
        "left": [],
        "start_seats": [],
        "start_discard": [],
        "start_stock": [],
        "start_table": [],
        "steps": [],
        "end_reasoning": [],
        **extra,
    }


def deck_table(game: str, w: Words) -> tuple[list[str], list[list[str]]]:
    """The deck table of ``game`` for every allowed player count, from the rule sets.

    Rami: one column per preset ("108 cards (2 decks, 4 jokers)"); CardVerse: cards per
    player and cards in play. Returns (head, rows).
    """
    locale = w.translator.locale
    t = w.translator

    def cards(n: int) -> str:
        text, ok = t.ngettext("%(num)s card", "%(num)s cards", n)
        if not ok:
            w.fallbacks += 1
        return text % {"num": format_decimal(n, locale=locale)}

    if game == "cardverse":
        rules = rule_set(game)
        head = [w.text("Players"), w.text("Cards per player"), w.text("Cards in play")]
        rows = [[format_decimal(p, locale=locale), cards(rules.deck_for(p).hand_size),
                 cards(rules.deck_for(p).cards)]
                for p in range(rules.min_players, rules.max_players + 1)]
        return head, rows
    presets = [rule_set(game, p) for p in ("reference", "house")]
    head = [w.text("Players"), *(w.code("preset", str(r.preset)) for r in presets)]
    rows = []
    for p in range(presets[0].min_players, presets[0].max_players + 1):
        row = [format_decimal(p, locale=locale)]
        for r in presets:
            d = r.deck_for(p)
            row.append(w.text("%(cards)s (decks: %(decks)s, jokers: %(jokers)s)",
                              cards=cards(d.cards), decks=format_decimal(d.decks, locale=locale),
                              jokers=format_decimal(d.jokers, locale=locale)))
        rows.append(row)
    return head, rows


def _points(n: int | None, w: Words, none: str) -> str:
    if n is None:
        return none
    text, ok = w.translator.ngettext("%(num)s point", "%(num)s points", n)
    if not ok:
        w.fallbacks += 1
    return text % {"num": format_decimal(n, locale=w.translator.locale)}


def presets_table(w: Words) -> tuple[list[str], list[list[str]]]:
    """Reference vs house rules: every rule-set field in which the presets differ.

    Returns (head, rows); rows come from comparing the two rule sets' data.
    """
    ref, house = rule_set("rami51", "reference"), rule_set("rami51", "house")
    head = [w.text("Rule"), w.code("preset", "reference"), w.code("preset", "house")]
    rows: list[list[str]] = []
    for a, b in zip(ref.deck, house.deck, strict=True):
        if a.jokers != b.jokers:
            label = w.text("Jokers with %(min)s to %(max)s players",
                           min=a.min_players, max=a.max_players)
            rows.append([label, format_decimal(a.jokers, locale=w.translator.locale),
                         format_decimal(b.jokers, locale=w.translator.locale)])
    if ref.joker_meld_points != house.joker_meld_points:
        stood_for = w.text("the value of the card it stands for")
        rows.append([w.text("A melded joker counts"),
                     _points(ref.joker_meld_points, w, stood_for),
                     _points(house.joker_meld_points, w, stood_for)])
    if ref.joker_hand_points != house.joker_hand_points:
        rows.append([w.text("A joker left in the hand counts"),
                     _points(ref.joker_hand_points, w, ""),
                     _points(house.joker_hand_points, w, "")])
    return head, rows


_SEAT_HERE = "\x01"
"""Stands for the seat's name in an action's message until the template shows it there."""


def _action_parts(step: Step, w: Words) -> list[View]:
    """An action's sentence in the order the language writes it, as parts for the
    template: ``{"text"}``, ``{"seat"}`` (the seat's name as it opens a sentence) and
    ``{"cards"}`` (card views, drawn where the message has ``%(cards)s``)."""
    text = w.code("action", step.code, seat=_SEAT_HERE, cards=_CARDS_HERE, **step.params)
    parts: list[View] = []
    for piece in re.split(f"([{_SEAT_HERE}{_CARDS_HERE}])", text):
        if piece == _SEAT_HERE:
            parts.append({"seat": w.seat(step.seat, opens_sentence=True)})
        elif piece == _CARDS_HERE:
            parts.append({"cards": _cards(step.cards, w, words.CARD_OBJECT_CONTEXT)})
        elif piece:
            parts.append({"text": piece})
    return parts
