"""Bring the catalogs of ``init``'s project (generator/scaffold/locales/) up to date.

    python -m tests.scaffold_catalog

A new project is built with the package's theme, so its Czech catalog holds the theme's,
the kinds' and the card names' messages besides its own page's. When the theme gains a
message, this makes a project with ``init``, runs ``i18n update`` on it (the scaffold's
own translations are kept), fills every message still empty from the repository's
``locales/cs`` catalog, and copies the catalogs back into the scaffold; it prints the
messages left to translate by hand (the scaffold page's own, when its English changed).
``tests/test_init.py`` fails while the scaffold is not complete.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po
from babel.messages.pofile import write_po

from generator.cli import main
from generator.layout import SCAFFOLD

REPO = Path(__file__).resolve().parent.parent
LOCALE = "cs"
CATALOG = Path("locales") / LOCALE / "LC_MESSAGES" / "messages.po"


def _complete(string: object) -> bool:
    if isinstance(string, (tuple, list)):
        return all(string)
    return bool(string)


def refresh() -> list[str]:
    """Update the scaffold's catalogs; returns the msgids still untranslated."""
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        if main(["init", str(project)]) or main(["i18n", "update", "--project", str(project)]):
            raise SystemExit("init or i18n update failed")
        with open(REPO / CATALOG, "rb") as f:
            known = read_po(f, locale=LOCALE)
        with open(project / CATALOG, "rb") as f:
            catalog = read_po(f, locale=LOCALE)
        left = []
        for message in catalog:
            if not message.id or _complete(message.string):
                continue
            source = known.get(message.id, message.context)
            if source is not None and _complete(source.string) and not source.fuzzy:
                message.string = source.string
            else:
                left.append(str(message.id))
        with open(project / CATALOG, "wb") as f:
            write_po(f, catalog, width=100, include_previous=False)
        # the same bytes as i18n update writes them
        if main(["i18n", "update", "--project", str(project)]):
            raise SystemExit("i18n update failed")
        for rel in (Path("locales") / "messages.pot", CATALOG):
            shutil.copyfile(project / rel, SCAFFOLD / rel)
    return left


if __name__ == "__main__":
    untranslated = refresh()
    for msgid in untranslated:
        print(f"untranslated: {msgid}")
    sys.exit(1 if untranslated else 0)
