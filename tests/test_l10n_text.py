"""Text in every language: untranslated titles and plural forms are marked fallbacks,
lists are joined the locale's way, and sentences with a seat or a number are whole
messages (SITE.md, "Languages")."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from generator.build import build
from tests.test_i18n import PLURAL_OK
from tests.test_i18n import PO_HEADER
from tests.test_i18n import _tiny

PO = "locales/sk/LC_MESSAGES/messages.po"


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_a_plural_with_one_empty_form_is_an_untranslated_fallback(tmp_path: Path) -> None:
    body = PLURAL_OK.replace('"Každý hráč dostane {rami.hand_size} karty."', '""')
    assert 'msgstr[1] ""' in body
    project = _tiny(tmp_path, body)
    report = build(project)
    assert report.exit_code == 0, report.lines
    soup = _soup(project / "site" / "sk" / "tiny" / "index.html")
    marked = [el for el in soup.select(".untranslated")
              if el.get_text() == "Each player is dealt 13 cards."]
    assert marked and marked[0]["lang"] == "en"
    assert "Každý hráč" not in soup.get_text()
    msgid = "Each player is dealt {rami.hand_size} cards."
    assert msgid in [m[0] for m in report.coverage["sk"].missing]
    strict = build(project, strict=True)
    assert strict.exit_code == 1
    line = (PO_HEADER + body).splitlines().index('msgstr[1] ""') + 1
    assert f"{PO}:{line}: empty form msgstr[1] in the translation of {msgid!r} " \
        "(--strict); expected it translated" in strict.lines
