"""The theme's and the engine's words shown in English (a locale whose built-in catalog
lacks them), marked on the page as its own untranslated text is (``lang="en"``) and
counted in its footer; the marks never reach an attribute, a title or a script."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from generator.i18n.explain import ENGLISH_CLOSE as CLOSE
from generator.i18n.explain import ENGLISH_OPEN as OPEN
from generator.render.fallbacks import SPAN
from generator.render.fallbacks import mark_english
from tests.conftest import UNSHIPPED_LOCALE
from tests.conftest import run_cli


@pytest.mark.parametrize(("html", "marked"), [
    ("<p>plain</p>", "<p>plain</p>"),
    (f"<p>{OPEN}Verdict{CLOSE}</p>", f"<p>{SPAN}Verdict</span></p>"),
    (f'<input placeholder="{OPEN}Search{CLOSE}"><b>{OPEN}Go{CLOSE}</b>',
     f'<input placeholder="Search"><b>{SPAN}Go</span></b>'),
    (f"<title>{OPEN}Melds{CLOSE} – x</title><h1>{OPEN}Melds{CLOSE}</h1>",
     f"<title>Melds – x</title><h1>{SPAN}Melds</span></h1>"),
    (f"<script>var a = '{OPEN}x{CLOSE}';</script><p>{OPEN}y{CLOSE}</p>",
     f"<script>var a = 'x';</script><p>{SPAN}y</span></p>"),
    (f"<p>{OPEN}Seen on {OPEN}a page{CLOSE}.{CLOSE}</p>",  # a passage inside another
     f"<p>{SPAN}Seen on a page.</span></p>"),
    (f'<a title="{OPEN}t{CLOSE}" href="#">{OPEN}link{CLOSE}</a>',
     f'<a title="t" href="#">{SPAN}link</span></a>'),
    (f"<p>{OPEN}left open", f"<p>{SPAN}left open</span>"),
], ids=["none", "text", "attribute", "title", "script", "nested", "attribute-then-text",
        "unclosed"])
def test_mark_english(html: str, marked: str) -> None:
    assert mark_english(html) == marked


def test_a_locale_without_built_in_words_marks_and_counts_them(tmp_path: Path) -> None:
    project = tmp_path / "site"
    assert run_cli("init", str(project), "--lang", UNSHIPPED_LOCALE).returncode == 0
    assert run_cli("build", "--project", str(project)).returncode == 0
    html = (project / "site" / UNSHIPPED_LOCALE / "melds" / "index.html").read_text("utf-8")
    assert OPEN not in html and CLOSE not in html
    soup = BeautifulSoup(html, "html.parser")
    marked = {e.get_text() for e in soup.select('span.untranslated[lang="en"]')}
    # the theme's words, the engine's verdicts and reasons, and the page's own text
    assert {"Skip to content", "Rummy rules", "Verdict", "Valid run", "Points",
            "Back to top", "Melds"} <= marked
    assert soup.title is not None and soup.title.get_text() == "Melds – Rummy rules"
    box = soup.select_one("input#site-search-input")
    assert box is not None and box["placeholder"] == "Search"
    footer = soup.select_one(".site-footer__untranslated")
    assert footer is not None
    count = int(footer.get_text().split()[0])
    # every distinct passage shown in English counted once: more than the page's own
    # nine messages, and at least the marked texts (a card's name is in an attribute)
    assert count >= len(marked) > 9
    english = BeautifulSoup((project / "site" / "en" / "melds" / "index.html")
                            .read_text("utf-8"), "html.parser")
    assert not english.select(".untranslated") and not english.select(
        ".site-footer__untranslated")


def test_a_noncharacter_in_a_page_is_an_input_error(tmp_path: Path) -> None:
    project = tmp_path / "site"
    assert run_cli("init", str(project)).returncode == 0
    page = project / "content" / "melds.md"
    page.write_text(page.read_text("utf-8").replace("# Melds", f"# Mel{OPEN}ds"), "utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "content/melds.md:6:6: noncharacter U+FDD0; expected printable text (remove it)"]
