"""Translation statistics: per locale and per source, translated / fuzzy / untranslated.

Sources are the places a message comes from (the template catalog's locations): each
content page, the case files, and the templates and code together.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message

from generator.i18n.catalog import read_for_update
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import catalog as catalog_path

PAGES_ROOT = f"{CONTENT}/"
CASES_ROOT = f"{EXAMPLES}/"


@dataclass
class Counts:
    """Message counts of one locale for one source."""

    translated: int = 0
    fuzzy: int = 0
    untranslated: int = 0

    @property
    def total(self) -> int:
        """All messages counted."""
        return self.translated + self.fuzzy + self.untranslated


def _source(locations: Iterable[tuple[str, int | None]]) -> str:
    for filename, _line in locations:
        if filename.startswith(CASES_ROOT):
            return "case files"
        if filename.startswith(PAGES_ROOT) and filename.endswith(".md"):
            return filename[len(PAGES_ROOT):-3]
    return "templates and code"


def _state(message: Message | None) -> str:
    if message is None or not message.string:
        return "untranslated"
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if not all(strings):
        return "untranslated"
    return "fuzzy" if message.fuzzy else "translated"


def stats(template: Catalog, project: Path | Layout, locales: Iterable[str]
          ) -> dict[str, dict[str, Counts]]:
    """Counts per locale, per source (page slug, ``case files``, ``templates and code``).

    Args:
        template: the template catalog (``i18n extract``), whose messages are counted.
        project: the project folder (its ``locales/``) or its layout.
        locales: the locales to count.
    """
    layout = Layout.of(project)
    result: dict[str, dict[str, Counts]] = {}
    for locale in locales:
        rel = catalog_path(locale)
        catalog = Catalog(locale=locale)
        if layout.exists(rel):
            with contextlib.suppress(NotAnInput):  # reported by the catalog check
                catalog = read_for_update(layout.read(rel), rel, locale)
        per: dict[str, Counts] = {}
        for message in template:
            if not message.id:
                continue
            counts = per.setdefault(_source(message.locations), Counts())
            state = _state(catalog.get(message.id, message.context))
            setattr(counts, state, getattr(counts, state) + 1)
        result[locale] = per
    return result


def format_stats(table: dict[str, dict[str, Counts]]) -> list[str]:
    """The counts as aligned text lines: one per locale and source, then the locale total."""
    lines = [f"{'locale':<7}{'source':<22}{'translated':>11}{'fuzzy':>7}{'untranslated':>14}"]
    for locale, per in table.items():
        total = Counts()
        for source in sorted(per, key=lambda s: (s in ("case files", "templates and code"), s)):
            c = per[source]
            lines.append(f"{locale:<7}{source:<22}{c.translated:>11}{c.fuzzy:>7}"
                         f"{c.untranslated:>14}")
            total.translated += c.translated
            total.fuzzy += c.fuzzy
            total.untranslated += c.untranslated
        share = 100 * total.translated // total.total if total.total else 100
        lines.append(f"{locale:<7}{'all (' + str(share) + '%)':<22}{total.translated:>11}"
                     f"{total.fuzzy:>7}{total.untranslated:>14}")
    return lines
