"""View models for the templates: case rows and generated tables, in one locale.

Every value shown comes from the engine (a :class:`~generator.verify.CaseResult` or a
rule set), never from the case file's ``expect`` (docs: "Pages"). A row's kind-specific
parts come from its kind (:meth:`generator.kinds.base.Kind.row`); its template is the
kind's (``kinds/<kind>.html``).
"""

from __future__ import annotations

from generator.engine.codes import CaseStatus
from generator.engine.codes import tone
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.i18n.explain import Words
from generator.i18n.numbers import format_decimal
from generator.kinds.base import View
from generator.verify import CaseResult
from generator.verify import explain_case

__all__ = ["View", "case_row", "deck_table", "format_decimal", "presets_table", "status_view"]


def _localized(w: Words, text: str | None) -> tuple[str, bool]:
    if text is None:
        return "", False
    translated, ok = w.translator.gettext(text)
    return translated, not ok


def case_row(result: CaseResult, w: Words) -> View:
    """One row of a cases table: the parts every kind has (``id``, ``kind``,
    ``template``, ``verdict``, ``tone`` (how the verdict looks: ``ok``, ``bad``,
    ``none``; :attr:`generator.engine.codes.Verdict.tone`), ``points``, the title and
    note with ``*_en`` flags,
    ``melds``, ``verdict_text``, ``points_text``, ``context_text``,
    ``reason_text``, ``reasoning``, ``data``: more ``data-*`` attributes,
    ``points_column``: the table shows points, ``draft``: the case is a draft, shown by a
    build that shows drafts, ``game`` and ``preset``: the rule set's ids (``preset`` empty
    for a game without presets), ``game_name`` and ``preset_name``: their words, which the
    page's examples filter shows), then the kind's own
    (:meth:`generator.kinds.base.Kind.row`), which may replace ``melds``, ``points``,
    ``verdict_text`` and ``data``, and add ``table_note`` (a sentence the table says
    once above its rows) and ``no_points_text`` (what the points cell says instead of
    "—")."""
    case = result.case
    kind = case.spec
    rules = case.rule_set()
    title, title_en = _localized(w, case.title)
    note, note_en = _localized(w, case.note)
    values = result.values
    verdict = result.verdict
    reason = values.get("reason")
    extra = kind.row(case.inputs, result.engine_result, values, rules, w)
    points = extra.pop("points", result.points)
    reason_text = w.code("reason", str(reason)) if reason else ""
    # sentences the row shows otherwise (the reason, a drawn meld, the seats, ...)
    shown = {reason_text} | kind.shown(case.inputs, result.engine_result, rules, w)
    locale = w.translator.locale
    return {
        "id": case.id,
        "kind": case.kind,
        "template": kind.template,
        "verdict": verdict,
        "tone": tone(verdict),
        "points": points,
        "title": title,
        "title_en": title_en,
        "note": note,
        "note_en": note_en,
        "melds": [],
        "verdict_text": w.code("verdict", verdict) if verdict else "",
        "points_text": format_decimal(points, locale=locale) if points is not None else "—",
        "context_text": kind.context(case.inputs, result.engine_result, rules, w),
        "reason_text": reason_text,
        "reasoning": [r for r in explain_case(result, w) if r not in shown],
        "data": {},
        **status_view(result, w),
        "draft": case.draft,
        "points_column": True,
        "game": rules.game,
        "game_name": w.code("game", rules.game),
        "preset": str(rules.preset or ""),
        "preset_name": w.code("preset", rules.preset) if rules.preset else "",
        "options": sorted(name for name, on in case.options.items() if on),
        **extra,
    }


def status_view(result: CaseResult, w: Words) -> View:
    """A row's ``status`` parts (docs/site.md, "Case status"): ``status`` (the code or
    ``None``), ``status_text`` (its badge) and, for a ``known_disagreement``,
    ``known``: each documented value beside the engine's, a sentence each, and
    ``because_text`` (translated, ``because_en`` when shown in English)."""
    case = result.case
    if case.status is None:
        return {"status": None, "status_text": "", "known": [], "because_text": "",
                "because_en": False}
    kind = case.spec
    known: list[str] = []
    because, because_en = "", False
    if case.status == CaseStatus.KNOWN_DISAGREEMENT:
        known = [w.code("explanation", "status_differs", field=kind.field_label(d.field, w),
                        documented=kind.value_text(d.field, d.documented, w),
                        engine=kind.value_text(d.field, d.engine, w))
                 for d in result.disagreements]
        text, because_en = _localized(w, case.because)
        because = w.code("explanation", "status_because", because=text)
    return {"status": case.status, "status_text": w.code("case status", case.status),
            "known": known, "because_text": because, "because_en": because_en}


def deck_table(game: str, w: Words) -> tuple[list[str], list[list[str]]]:
    """The deck table of ``game`` for every allowed player count, from the rule sets.

    Rami: one column per preset ("108 cards (2 decks, 4 jokers)"); CardVerse: cards per
    player and cards in play. Returns (head, rows).
    """
    locale = w.translator.locale

    def cards(n: int) -> str:
        return w.plural("%(num)s card", "%(num)s cards", n)

    if not presets_of(game):
        rules = rule_set(game)
        head = [w.text("Players"), w.text("Cards per player"), w.text("Cards in play")]
        rows = [[format_decimal(p, locale=locale), cards(rules.deck_for(p).hand_size),
                 cards(rules.deck_for(p).cards)]
                for p in range(rules.min_players, rules.max_players + 1)]
        return head, rows
    presets = [rule_set(game, p) for p in presets_of(game)]
    head = [w.text("Players"), *(w.code("preset heading", str(r.preset)) for r in presets)]
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
    return w.plural("%(num)s point", "%(num)s points", n)


def presets_table(w: Words) -> tuple[list[str], list[list[str]]]:
    """Reference vs house rules: every rule-set field in which the presets differ.

    Returns (head, rows); rows come from comparing the two rule sets' data.
    """
    # The presets change the same fields in every game played under them: the first
    # game's show them (a game registered later changes nothing here).
    game = GAMES_WITH_PRESETS[0]
    ref, house = (rule_set(game, preset) for preset in presets_of(game))
    head = [w.text("Rule"), *(w.code("preset heading", str(r.preset)) for r in (ref, house))]
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
