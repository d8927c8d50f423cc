"""The generated blocks of one locale's pages (:class:`LocaleRenderer`): tables of
cases, each rendered once per locale and kept per table in the store where the build
has one, and the deck and presets tables."""

from __future__ import annotations

import json
from collections import Counter
from collections import OrderedDict
from collections.abc import Mapping
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import partial
from typing import Any

from jinja2 import Environment

from generator.content.pages import Fence
from generator.digests import digest
from generator.i18n.catalog import Lookups
from generator.i18n.explain import Words
from generator.kinds import BUILT_IN
from generator.kinds import KINDS
from generator.kinds import REGISTRY
from generator.memo import FileStore
from generator.memo import item_stage
from generator.memo import remember
from generator.render.errors import call_macro
from generator.render.incremental import RenderKeys
from generator.render.views import View
from generator.render.views import case_row
from generator.render.views import deck_table
from generator.render.views import presets_table
from generator.verify import CaseResult

Table = tuple[str, Lookups, list[str]]
"""A cases table: its HTML, its lookups, the titles and notes it shows in English."""

ROWS_KEPT = 1024
"""The case views and rows a locale keeps for the tables that show them again (the
most recently shown): a case on many pages is made once, and a locale of 48,000 cases
each shown once does not hold them all (at 700 pages, 120 MB of a worker's 430)."""


class LocaleRenderer:
    """Renders the generated blocks of one locale: case tables, deck and preset tables.

    Args:
        env: the shared environment, with this locale's gettext callables installed.
        words: this locale's words.
        results: the engine's result for every case, by id.
    """

    def __init__(self, env: Environment, words: Words,
                 results: Mapping[str, CaseResult], cache: FileStore | None = None,
                 keys: RenderKeys | None = None,
                 hidden: AbstractSet[str] = frozenset(), *, checker: bool = False) -> None:
        self.checker = checker
        """A card checker stands beside the tables of the kinds that have one."""
        self.cache = cache if keys is not None else None
        self.hidden = hidden
        """The ids of the cases whose rows the tables leave out (drafts)."""
        self.keys = keys
        self.words = words
        self.results = results
        self.env = env
        self._kinds: dict[str, Any] = {}
        env.globals["kind_module"] = self.kind_module
        self.macros: Any = env.get_template("cases.html").make_module()
        self.translator = words.translator
        self._views: OrderedDict[str, tuple[View, Lookups]] = OrderedDict()
        self._rows: OrderedDict[tuple[str, bool, bool], tuple[View, Lookups]] = OrderedDict()
        self._tables: dict[tuple[str, ...], Table] = {}
        self._generated: dict[tuple[str, str, str], tuple[str, Lookups]] = {}
        self.shown_in_english: set[str] = set()
        """Case titles and notes shown in English since it was last emptied (for the
        page's notice)."""
        self.table_slots: set[str] = set()
        """The cache slots of the tables of cases shown since this was last emptied (one
        page's body): kept with the body, so that the tables of a body taken from the
        cache stay in it (:meth:`BuildCache.keep_slots`)."""

    def kind_module(self, template: str) -> Any:
        """A kind's template (``kinds/<kind>.html``) as a module, made once per locale
        (``cases.html`` calls its macros): Jinja's ``import ... with context`` would make
        it again for every row. Made after this locale's gettext callables are
        installed, it is this locale's alone."""
        module = self._kinds.get(template)
        if module is None:
            module = self._kinds[template] = self.env.get_template(template).make_module()
        return module

    def view(self, case_id: str) -> View:
        """The view of a case's row without its HTML (:func:`case_row`), made once per
        locale (its lookups replayed each time it is asked for again): what a table
        decides its shape from before any row is rendered."""
        hit = self._views.get(case_id)
        if hit is None:
            with self.translator.record() as lookups:
                view = case_row(self.results[case_id], self.words)
            hit = (view, lookups)
        else:
            self.translator.replay(hit[1])
        remember(self._views, case_id, hit, ROWS_KEPT)
        return hit[0]

    def row(self, case_id: str, *, context: bool = True, points: bool = True) -> View:
        """The view of a case's row with its HTML, rendered once per variant, and only
        for a variant a table shows (its lookups replayed each time it is shown again:
        :meth:`Translator.record`): ``context`` false leaves out the small print under
        the points (the table says it once), ``points`` false the points cell (no row of
        the table has points)."""
        key = (case_id, context, points)
        hit = self._rows.get(key)
        if hit is None:
            with self.translator.record() as lookups:
                plain = self.view(case_id)
                view = {**plain, "context_text": plain["context_text"] if context else "",
                        "points_column": points}
                view["html"] = call_macro(self.macros.case_row, view)
            hit = (view, lookups)
        else:
            self.translator.replay(hit[1])
        remember(self._rows, key, hit, ROWS_KEPT)
        return hit[0]

    def fence(self, fence: Fence, caption: str = "") -> str:
        """The HTML of a generated block; ``caption``: the plain text of the heading it
        stands under (the table's caption, for screen readers). A table of cases shows
        the rows of those not :attr:`hidden`; with none, it is left out whole (``""``)."""
        if fence.info == "cases":
            ids = tuple(i for i in fence.case_ids if i not in self.hidden)
            if not ids:
                return ""
            key = (*ids, caption)
            slot = self._table_slot(ids, caption)
            self.table_slots.add(slot)
            hit = self._tables.get(key)
            if hit is None:
                hit = self._table(slot, ids, caption)
            else:
                self.translator.replay(hit[1])
            self._tables[key] = hit
            self.shown_in_english.update(hit[2])
            return hit[0]
        # A deck or presets table: made once per locale for its body and caption (its
        # words come from the rule sets and the locale alone), as a cases table is.
        made = self._generated.get((fence.info, fence.body, caption))
        if made is None:
            with self.translator.record() as lookups:
                if fence.info == "deck-table":
                    head, cells = deck_table(
                        fence.body.strip().removeprefix("game:").strip(), self.words)
                else:
                    head, cells = presets_table(self.words)
                html = str(call_macro(self.macros.table, head, cells, caption))
            made = self._generated[(fence.info, fence.body, caption)] = (html, lookups)
        else:
            self.translator.replay(made[1])
        return made[0]

    def cases_table(self, ids: Sequence[str], caption: str = "") -> str:
        """The HTML of a table of the cases ``ids``, rendered now (not kept): the card
        checker's answer (:mod:`generator.commands.checker`)."""
        (html, _lookups, _english), _made = self._made_table(ids, caption)
        return html

    def _table_slot(self, ids: Sequence[str], caption: str) -> str:
        """The cache slot of a table of cases in this locale."""
        return f"table/{digest(self.translator.locale, caption, *ids)}"

    def _table(self, slot: str, ids: Sequence[str], caption: str) -> Table:
        """A cases table not shown before in this locale: the one the build cache keeps
        in ``slot`` for its inputs (its lookups replayed), or rendered now and kept."""
        inputs = self.keys.table(self.translator.locale, ids, caption) \
            if self.keys is not None else ""
        table, made = item_stage(self.cache, slot, inputs,
                                 partial(self._made_table, ids, caption),
                                 encode=self._encoded_table, decode=self._decoded_table,
                                 shared=True)
        if not made:
            self.translator.replay(table[1])
        return table

    def _made_table(self, ids: Sequence[str], caption: str) -> tuple[Table, bool]:
        """A cases table rendered now: its HTML, its lookups and the titles and notes
        it shows in English (with ``True``: made, its lookups recorded as made)."""
        with self.translator.record() as lookups:
            plain = [self.view(i) for i in ids]
            english = sorted({r[text] for r in plain for text in ("title", "note")
                              if r[f"{text}_en"]})
            html = self._cases_table(ids, plain, caption)
        return (html, lookups, english), True

    def _encoded_table(self, made: tuple[Table, bool]) -> dict[str, Any]:
        """A cases table as the build cache keeps it, with the digest of the messages it
        looked up as the locale's catalog holds them (:meth:`Translator.messages_digest`)."""
        (html, lookups, english), _made = made
        return {"html": html, "lookups": lookups.as_data(), "english": english,
                "messages": self.translator.messages_digest(lookups.seen)}

    def _decoded_table(self, data: Any) -> tuple[Table, bool] | None:
        """A cases table the build cache keeps for these inputs (its cases, its caption,
        the templates: :meth:`RenderKeys.table`) (with ``False``: its lookups to be
        replayed), or ``None`` when a message it looked up changed.

        Raises:
            KeyError, TypeError, ValueError: the entry is of another shape.
        """
        lookups = Lookups.from_data(data["lookups"])
        if data["messages"] != self.translator.messages_digest(lookups.seen):
            return None  # a message it shows was changed
        return (str(data["html"]), lookups, [str(m) for m in data["english"]]), False

    def _cases_table(self, ids: Sequence[str], plain: list[View], caption: str) -> str:
        """A cases table: what its rows share said once above them (the most frequent
        context, the kinds' ``table_note``), each row's context only where it differs,
        no points column when no row has points."""
        contexts = Counter(r["context_text"] for r in plain if r["context_text"])
        common = max(contexts, key=lambda c: (contexts[c], -_first(plain, c))) \
            if contexts else ""
        has_points = any(r["points"] is not None for r in plain)
        rows = [self.row(i, context=r["context_text"] != common, points=has_points)
                for i, r in zip(ids, plain, strict=True)]
        notes = list(dict.fromkeys(r["table_note"] for r in plain if r.get("table_note")))
        kind, template = ((rows[0]["kind"], rows[0]["template"]) if rows
                          else (REGISTRY[0].name, REGISTRY[0].template))
        return str(call_macro(self.macros.cases_table, rows, kind, template, {
            "caption": caption, "context": common, "mixed": len(contexts) > 1,
            "notes": notes, "checker": self._checker(plain)}))

    def _checker(self, plain: list[View]) -> str:
        """The question a table's checker starts from, as JSON (its kind, and the game,
        preset and options of its first row), or ``""`` where it has none."""
        if not self.checker or not plain or not KINDS[plain[0]["kind"]].checker \
                or KINDS[plain[0]["kind"]] not in BUILT_IN:
            return ""
        first = plain[0]
        return json.dumps({"kind": first["kind"], "game": first["game"],
                           "rules": first["preset"], "options": first["options"]},
                          sort_keys=True)


def _first(rows: list[View], context: str) -> int:
    return next(i for i, r in enumerate(rows) if r["context_text"] == context)
