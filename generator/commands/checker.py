"""The card checker's answer: a reader's own cards put to the engine, answered as the
example rows answer (docs/site.md, "The card checker").

What runs in the reader's browser (Pyodide) and in the tests alike: the question (a
kind, a game, its preset and options, the cards as codes) becomes the case ``explain``
would make from the command line (:func:`generator.commands.explain.explain`, the same
text an author pastes), and that case's row is rendered by the templates and words of
the example tables (:class:`generator.render.blocks.LocaleRenderer`), typeset for the
locale. A code that names no card is said in the reader's language before the engine
is asked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any

from jinja2 import Environment

from generator.cases.loader import load_case_text
from generator.commands.explain import ExplainRequest
from generator.commands.explain import explain
from generator.engine.cards import all_cards
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.i18n.catalog import Translator
from generator.i18n.catalog import language_tag
from generator.i18n.explain import ENGLISH_CLOSE
from generator.i18n.explain import ENGLISH_OPEN
from generator.i18n.explain import Words
from generator.kinds import BUILT_IN
from generator.kinds import KINDS
from generator.kinds.base import Kind
from generator.render.blocks import LocaleRenderer
from generator.render.checker_words import YOUR_CARDS
from generator.render.checker_words import card_problem
from generator.render.checker_words import field_labels
from generator.render.checker_words import form_words
from generator.render.checker_words import missing_cards
from generator.render.checker_words import one_card
from generator.render.checker_words import refusals
from generator.render.checker_words import refused
from generator.render.checker_words import suit_names
from generator.render.checker_words import your_cards
from generator.render.environment import install_words
from generator.render.fallbacks import mark_english
from generator.render.typography import typeset
from generator.verify import verify_case

CARD_SHAPES = frozenset({"cards", "card lists", "card"})
"""The argument shapes whose words are card codes."""

CHECKER_SHAPES = CARD_SHAPES | {"boolean"}
"""The argument shapes a checker offers: card lists, a card, a flag (not a number)."""


def checker_kinds() -> list[Kind[Any, Any]]:
    """The kinds a checker stands beside: the package's own (a project's kind is not
    packed for the browser) that ask for one (:attr:`~generator.kinds.base.Kind.checker`)
    and whose inputs a reader can type or pick (:data:`CHECKER_SHAPES`), in display
    order."""
    return [k for k in BUILT_IN if k.checker and k.arguments
            and all(a.shape in CHECKER_SHAPES for a in k.arguments)]


@dataclass(frozen=True)
class Question:
    """What a reader asks.

    Attributes:
        kind: the kind's name (``meld``).
        game: the game's id.
        rules: the preset (``None``: the game's default, or a game without presets).
        options: the options turned on.
        given: each argument's words by field, as ``explain`` takes them (``{"cards":
            ["QH", "KH", "AH"]}``; ``card lists``: one string of codes per list;
            ``boolean``: ``["true"]``).
    """

    kind: str
    game: str
    rules: str | None = None
    options: tuple[str, ...] = ()
    given: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Question:
        """The question a page sends, as JSON data.

        Raises:
            ValueError: ``data`` is not of that shape.
        """
        try:
            given = {str(k): tuple(str(w) for w in v) for k, v in dict(data["given"]).items()}
            return cls(str(data["kind"]), str(data["game"]),
                       None if data.get("rules") in (None, "") else str(data["rules"]),
                       tuple(str(o) for o in data.get("options", ())), given)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError("not the shape of a checker's question") from exc


@dataclass(frozen=True)
class Answer:
    """The checker's answer.

    Attributes:
        problem: what is wrong with the question, in the reader's language (``""``: an
            answer follows).
        case: the case ``explain`` prints for it (what "Copy as a case" copies).
        html: the answer's table: the example table's head and the one row, as a page
            shows them.
        verdict, verdict_text, tone, points_text, reasoning: the row's parts.
    """

    problem: str = ""
    case: str = ""
    html: str = ""
    verdict: str = ""
    verdict_text: str = ""
    tone: str = ""
    points_text: str = ""
    reasoning: tuple[str, ...] = ()


def answer(question: Question, translator: Translator, env: Environment) -> Answer:
    """The engine's answer to ``question`` in ``translator``'s locale.

    Args:
        question: the reader's kind, game, preset, options and cards.
        translator: the locale's messages (the site's catalog over the built-in one).
        env: the site's template environment (its ``templates/`` over the theme's).

    Returns:
        The answer, or its ``problem``: a field without cards, a code that names no
        card, or inputs the kind refuses (:func:`~generator.render.checker_words.
        refusals`).
    """
    w = Words(translator, marked=True)
    kind = KINDS.get(question.kind)
    if kind is None or kind not in checker_kinds():
        raise ValueError(f"kind {question.kind!r} has no checker")
    for argument in kind.arguments:
        if argument.shape not in CARD_SHAPES:
            continue
        if not any(text.strip() for text in question.given.get(argument.field, ())):
            # (the schema, not asked here, would say which field is missing)
            return Answer(problem=_plain(missing_cards(w)))
        for text in question.given.get(argument.field, ()):
            for code in text.split():
                problem = card_problem(code, w)
                if problem:
                    return Answer(problem=_plain(problem))
        codes = [c for text in question.given.get(argument.field, ()) for c in text.split()]
        if argument.shape == "card" and len(codes) > 1:
            label = field_labels(w).get(argument.field, argument.field)
            return Answer(problem=_plain(one_card(label, w)))
    report = explain(ExplainRequest(
        kind=kind.name, game=question.game, rules=question.rules,
        options=list(question.options), given={k: list(v) for k, v in question.given.items()},
        lang=translator.locale, translator=translator, schema=False))
    if report.errors:
        said = refusals(report.input_errors, w) or refused(
            "; ".join(e.removeprefix("command line: ") for e in report.errors), w)
        return Answer(problem=_plain(said))
    cases, _doc = load_case_text(report.text.encode("utf-8"), "command line", schema=False)
    # the row under an id no example has, titled as the checker's answer
    case = replace(cases.cases[0], id=f"try-{cases.cases[0].id}", title=YOUR_CARDS)
    result = verify_case(case)
    install_words(env, w)
    renderer = LocaleRenderer(env, w, {case.id: result})
    view = renderer.view(case.id)
    html = renderer.cases_table([case.id], your_cards(w))
    html = typeset(mark_english(html), translator.locale, language_tag(translator.locale))
    return Answer(case=report.text, html=html, verdict=str(view["verdict"] or ""),
                  verdict_text=_plain(view["verdict_text"]), tone=str(view["tone"]),
                  points_text=view["points_text"],
                  reasoning=tuple(_plain(r) for r in view["reasoning"]))


def _plain(text: str) -> str:
    """``text`` without the marks of English (:data:`generator.i18n.explain.ENGLISH_OPEN`)."""
    return text.replace(ENGLISH_OPEN, "").replace(ENGLISH_CLOSE, "")


def answer_json(question: str, translator: Translator, env: Environment) -> str:
    """:func:`answer` with the question and the answer as JSON text (what the page's
    script exchanges with Python)."""
    found = answer(Question.from_data(json.loads(question)), translator, env)
    return json.dumps(asdict(found), ensure_ascii=False)


def form(kind_name: str, translator: Translator) -> dict[str, Any]:
    """What a checker of ``kind_name`` offers, in ``translator``'s locale: the games
    (their presets and options), the input fields, every card's spoken name by code, the
    suits' names and the words of the form.

    Raises:
        ValueError: the kind has no checker.
    """
    kind = KINDS.get(kind_name)
    if kind is None or kind not in checker_kinds():
        raise ValueError(f"kind {kind_name!r} has no checker")
    w = Words(translator)
    labels = field_labels(w)
    games = [{"id": g, "name": w.code("game", g),
              "presets": [{"id": p, "name": w.code("preset", p)} for p in presets_of(g)],
              "options": [{"id": o, "name": w.code("option", o)} for o in options_of(g)]}
             for g in kind.games]
    fields = [{"field": a.field, "shape": a.shape, "label": labels.get(a.field, a.field)}
              for a in kind.arguments]
    names = {card.code: w.card_name(card) for card in all_cards()}
    return {"games": games, "fields": fields, "names": names, "suits": suit_names(w),
            "words": form_words(w)}


def form_json(kind_name: str, translator: Translator) -> str:
    """:func:`form` as JSON text."""
    return json.dumps(form(kind_name, translator), ensure_ascii=False)
