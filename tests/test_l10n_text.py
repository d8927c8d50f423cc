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


def _untranslate(project: Path, locale: str, *msgids: str) -> None:
    """Empty the translations of ``msgids`` in ``locale``'s catalog."""
    from babel.messages.pofile import read_po
    from babel.messages.pofile import write_po

    path = project / "locales" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    for msgid in msgids:
        message = catalog.get(msgid)
        assert message is not None and message.string, msgid
        message.string = ""
    with path.open("wb") as fh:
        write_po(fh, catalog, width=0)


def _english(element: object) -> bool:
    """The element holds the English-fallback mark (the one body text gets)."""
    from bs4 import Tag

    assert isinstance(element, Tag), element
    return element.select_one('span.untranslated[lang="en"]') is not None


def test_an_untranslated_page_title_is_marked_wherever_it_is_shown(project: Path) -> None:
    _untranslate(project, "cs", "The first meld", "The threshold")
    report = build(project)
    assert report.exit_code == 0, report.lines
    site = project / "site" / "cs"
    page = _soup(site / "first-meld" / "index.html")
    h1 = page.select_one("article h1")
    assert h1 is not None and h1.get_text() == "The first meld" and _english(h1)
    assert "The first meld" in page.title.get_text()
    for toc in page.select("nav.toc"):
        entry = toc.select_one('a[href="#the-threshold"]')
        assert entry is not None and entry.get_text() == "The threshold" and _english(entry)
        others = [a for a in toc.select("a") if a is not entry]
        assert others and not any(_english(a) for a in others)  # translated: not marked
    heading = page.select_one("h2#the-threshold")
    assert heading is not None and _english(heading)
    rules = _soup(site / "rules" / "index.html")
    for soup in (page, rules, _soup(site / "index.html")):
        link = soup.select_one('.site-nav a[href$="first-meld/index.html"]')
        assert link is not None and link.get_text() == "The first meld" and _english(link)
        translated = soup.select_one('.site-nav a[href$="rules/index.html"]')
        assert translated is not None and not _english(translated)
    home = _soup(site / "index.html")
    item = home.select_one('.page-list__title[href="first-meld/index.html"]')
    assert item is not None and item.get_text() == "The first meld" and _english(item)
    # Counted: the coverage, and each page's notice (the navigation shows the title).
    assert {"The first meld", "The threshold"} <= {m[0] for m in report.coverage["cs"].missing}
    for soup, count in ((page, "2"), (rules, "1"), (home, "1")):
        notice = soup.select_one(".site-footer__untranslated")
        assert notice is not None and notice.get_text().split()[0] == count, notice
