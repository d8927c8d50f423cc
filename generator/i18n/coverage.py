"""A locale's translation coverage, as a build counts it (docs/site.md, "Languages": the
build's per-locale coverage summary; ``--strict``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Coverage:
    """How many distinct messages a locale's pages used and how many fell back to English."""

    used: int
    untranslated: int
    missing: tuple[tuple[str, int, str], ...] = ()
    """Each message shown in English (for ``--strict``): its msgid, the ``.po`` line to
    fix (0 when the catalog lacks the message) and what is wrong there; in line order."""
