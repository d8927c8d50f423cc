"""Translation statistics: per locale and per source, translated / fuzzy / untranslated.

Sources are the places a message comes from (the template catalog's locations): each
content page, the case files, ``site.yaml``, the site's own templates, and the built-in
messages (the theme's and the engine's, which the package's catalogs translate and the
site's catalog may override), counted as the site shows them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message

from generator.i18n.pofile import read_for_update
from generator.layout import BUILTIN_LABEL
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_catalog
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


BUILTIN_SOURCE = "built-in"
"""The source of the theme's and the engine's messages (the package's catalogs)."""
LAST_SOURCES = ("case files", CONFIG, "templates", BUILTIN_SOURCE)
"""The sources listed after the pages, in this order."""


def _source(locations: Iterable[tuple[str, int | None]]) -> str:
    """The source the statistics count a message under, by the first of its locations
    that is a case file, a page (its slug) or ``site.yaml``; else ``templates``."""
    for filename, _line in locations:
        if filename.startswith(CASES_ROOT):
            return "case files"
        if filename.startswith(PAGES_ROOT) and filename.endswith(".md"):
            return filename[len(PAGES_ROOT):-3]
        if filename == CONFIG:
            return CONFIG
    return "templates"


def _state(message: Message | None) -> str:
    """A message's state in a catalog: ``translated``, ``fuzzy`` or ``untranslated``
    (missing, or a form empty)."""
    if message is None or not message.string:
        return "untranslated"
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    if not all(strings):
        return "untranslated"
    return "fuzzy" if message.fuzzy else "translated"


def stats(template: Catalog, project: Path | Layout, locales: Iterable[str],
          builtin: Catalog | None = None) -> dict[str, dict[str, Counts]]:
    """Counts per locale, per source (page slug, ``case files``, ``site.yaml``,
    ``templates``, ``built-in``).

    Args:
        template: the template catalog (``i18n extract``), whose messages are counted.
        project: the project folder (its ``locales/``) or its layout.
        locales: the locales to count.
        builtin: the built-in template catalog: its messages are counted as the source
            ``built-in``, each translated where the site's catalog or the package's
            translates it (what the site shows); ``None``: not counted.
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
            if message.id:
                _count(per, _source(message.locations),
                       _state(catalog.get(message.id, message.context)))
        if builtin is not None:
            shipped = _builtin_catalog(locale)
            for message in builtin:
                if not message.id:
                    continue
                state = _state(catalog.get(message.id, message.context))
                if state != "translated":
                    state = _state(shipped.get(message.id, message.context))
                _count(per, BUILTIN_SOURCE, state)
        result[locale] = per
    return result


def _count(per: dict[str, Counts], source: str, state: str) -> None:
    """Count one message of ``source`` in ``state``."""
    counts = per.setdefault(source, Counts())
    setattr(counts, state, getattr(counts, state) + 1)


def _builtin_catalog(locale: str) -> Catalog:
    """The package's built-in catalog of ``locale`` (empty where it has none)."""
    path = builtin_catalog(locale)
    if not path.is_file():
        return Catalog(locale=locale)
    return read_for_update(path.read_bytes(), f"{BUILTIN_LABEL}/{locale}", locale)


def format_stats(table: dict[str, dict[str, Counts]]) -> list[str]:
    """The counts as aligned text lines: one per locale and source, then the locale total."""
    lines = [f"{'locale':<7}{'source':<22}{'translated':>11}{'fuzzy':>7}{'untranslated':>14}"]
    for locale, per in table.items():
        total = Counts()
        for source in sorted(per, key=lambda s: (s in LAST_SOURCES,
                                                 LAST_SOURCES.index(s) if s in LAST_SOURCES
                                                 else 0, s)):
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
