"""The search index (generator/render/search.py) and the search box (theme search.html):
one Pagefind index per locale, built with the site, byte-identical for the same pages;
what it holds; what a missing Pagefind or a clashing file says. The box in a browser:
tests/test_browser.py."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import time
from collections import OrderedDict
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

import generator.render.parallel as parallel
import generator.render.search as search
from generator.cache import BuildCache
from generator.cache import cache_folder
from generator.commands.build import build
from generator.layout import real_path
from generator.layout import search_output
from generator.render.search import UNUSED
from generator.render.search import search_index
from generator.render.search import search_view
from tests.conftest import LEAN_LOCALES
from tests.conftest import SITE_LOCALES
from tests.conftest import alive
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.conftest import translate_in

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the index's mechanism need (the whole site's
index: ``built_site``)."""


LOCALES = SITE_LOCALES
SLUGS = ("cardverse", "first-meld", "rules")


def _pages(site: Path, langs: tuple[str, ...] = LOCALES) -> dict[str, bytes]:
    return {f"{lang}/{slug}/index.html": (site / lang / slug / "index.html").read_bytes()
            for lang in langs for slug in SLUGS}


def _index_on_disk(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.glob("*/pagefind/**/*")) if p.is_file()}


def _fragments(files: dict[str, bytes], lang: str) -> list[dict[str, Any]]:
    """The decoded fragments (one per page) of a locale's index."""
    found = []
    for rel, data in files.items():
        if rel.startswith(f"{search_output(lang)}/fragment/"):
            raw = gzip.decompress(data)
            found.append(json.loads(raw[raw.index(b"{"):]))
    return found


def test_every_locale_has_its_own_index(built_site: Path) -> None:
    for lang in LOCALES:
        bundle = built_site / search_output(lang)
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert list(entry["languages"]) == [lang]
        assert entry["languages"][lang]["page_count"] == len(SLUGS)  # not home, not 404
        assert (bundle / "pagefind.js").is_file()
        assert not [name for name in UNUSED if (bundle / name).exists()]
    assert not (built_site / "pagefind").exists()


def test_the_same_pages_give_the_same_index_bytes(built_site: Path) -> None:
    """Indexing the built pages themselves gives exactly the files the build wrote from
    their search views, in every locale (the build twice, byte for byte, is
    tests/test_cli.py's two-builds test)."""
    assert search_index(_pages(built_site)) == _index_on_disk(built_site)


def test_a_search_view_is_the_article_without_drawings(built_site: Path) -> None:
    page = (built_site / "en" / "rules" / "index.html").read_bytes()
    view = search_view(page)
    assert page.count(b'class="card ') > 500
    assert b'class="card ' not in view and b"data-pagefind-ignore" not in view
    assert b'class="site-header' not in view and b"<footer" not in view
    assert len(view) < len(page) * 0.6  # 116 KB of 217 KB
    assert view.count(b"<tr id=") == page.count(b"<tr id=") > 50
    assert view.startswith(page[:page.index(b"<body")])  # the head whole: lang, title
    assert search_view(view) == view


@pytest.mark.parametrize("html", [
    b"<html><body><p>no indexed element</p></body></html>",
    b"<html><body><main data-pagefind-body>a</main><main data-pagefind-body>b</main>"
    b"</body></html>",
    b'<html><body><h1 data-pagefind-meta="title">T</h1><main data-pagefind-body>a</main>'
    b"</body></html>",
    b'<html><body><main data-pagefind-body>a</main><p data-pagefind-filter="k">v</p>'
    b"</body></html>",
    b"<html><body><main data-pagefind-body><p>never closed</p></body></html>",
], ids=["no-body", "two-bodies", "meta-before", "filter-after", "unclosed"])
def test_a_page_the_view_cannot_shorten_exactly_stays_whole(html: bytes) -> None:
    assert search_view(html) == html


def test_an_ignored_element_with_pagefind_attributes_inside_is_kept() -> None:
    html = (b'<html><body><main data-pagefind-body><p class="x">a <span data-pagefind-ignore>'
            b'<span data-pagefind-meta="k:v">b</span></span> <span class="c" '
            b'data-pagefind-ignore><span aria-hidden="true">5<span>x</span></span></span>'
            b'</p></main></body></html>')
    assert search_view(html) == (b'<html><body><main data-pagefind-body><p class="x">a '
                                 b'<span data-pagefind-ignore><span data-pagefind-meta='
                                 b'"k:v">b</span></span> </p></main></body></html>\n')


def test_a_locale_index_depends_only_on_its_own_pages(built_site: Path) -> None:
    whole = _index_on_disk(built_site)
    cs = {rel: data for rel, data in whole.items() if rel.startswith("cs/")}
    assert search_index(_pages(built_site, ("cs",))) == cs
    pages = _pages(built_site, ("cs", "en"))
    rel = "en/rules/index.html"
    pages[rel] = pages[rel].replace(b"<h1>", b"<h1>Zanzibar ", 1)
    changed = search_index(pages)
    assert {r: d for r, d in changed.items() if r.startswith("cs/")} == cs
    en = [f for f in _fragments(changed, "en") if "zanzibar" in f["content"].lower()]
    assert len(en) == 1 and en[0]["url"] == "/rules/index.html"


def test_the_index_holds_rule_text_and_case_titles_not_the_frame(built_site: Path) -> None:
    html = (built_site / "cs" / "first-meld" / "index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    row = soup.select_one("article tr[id]")
    paragraph = soup.select_one("article p")
    assert row is not None and paragraph is not None
    title = row.select_one(".case__name")
    assert title is not None
    fragments = _fragments(_index_on_disk(built_site), "cs")
    page = next(f for f in fragments if f["url"] == "/first-meld/index.html")
    content = " ".join(page["content"].split())
    assert " ".join(title.get_text().split()) in content
    assert " ".join(paragraph.get_text().split())[:60] in content
    assert page["meta"]["title"] == soup.select_one("article h1").get_text(" ").strip(" #")
    assert row["id"] in {a["id"] for a in page["anchors"]}
    footer = soup.select_one(".site-footer p")
    skip = soup.select_one(".skip-link")
    assert footer is not None and skip is not None
    for frame in (footer.get_text().strip(), skip.get_text().strip()):
        assert frame not in content
    assert "♣" not in content.replace("♣ ", "")  # no card drawings ("5♣6♣7♣")
    copy = row.select_one("[data-copy-link]")
    if copy is not None:
        assert copy.get_text().strip() not in content
    pager = soup.select_one("article .pager")
    assert pager is not None
    for link in pager.select("a"):  # Pagefind leaves out a <nav>: no neighbour's title
        assert " ".join(link.get_text(" ").split()) not in content


_EDGES = re.compile(r"^\W+|\W+$")
"""What is not a letter or digit at a word's ends (punctuation, "✓"): Pagefind indexes
the word inside."""
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})
_LEFT_OUT = frozenset({"nav", "form", "label", "footer", "script", "style", "noscript", "svg",
                       "template", "iframe"})
"""What Pagefind leaves out of a page's text (its REMOVE_SELECTORS; and what the theme
marks ``data-pagefind-ignore``)."""


class _ArticleText(HTMLParser):
    """The text of a page's ``data-pagefind-body`` element as a browser separates its
    elements (a space at every tag), what Pagefind leaves out left out, the attributes
    an element names in ``data-pagefind-index-attrs`` (a card's name) in: ``parts``.
    (BeautifulSoup gave the same words on every page, four times slower.)"""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str]] = []  # (tag, "in" / "out" / "" outside)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        parent = self.stack[-1][1] if self.stack else ""
        if parent == "in" or (parent == "" and "data-pagefind-body" in names):
            state = "out" if "data-pagefind-ignore" in names or tag in _LEFT_OUT else "in"
        else:
            state = parent
        self.parts.append(" ")
        if parent == "in" and "data-pagefind-index-attrs" in names:  # a card's name
            values = dict(attrs)
            for name in str(values["data-pagefind-index-attrs"]).split(","):
                self.parts += [str(values.get(name.strip()) or ""), " "]
        if tag not in _VOID:
            self.stack.append((tag, state))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1][1] == "in":
            self.parts.append(data)


def _words(text: str) -> set[str]:
    return {_EDGES.sub("", w) for w in text.split()} - {""}


def test_no_two_elements_texts_run_together_in_the_index(built_site: Path) -> None:
    """Pagefind joins the text of adjacent elements other than p, td, li, div, h1-h6
    (a th, a span) with nothing between: a cell or line written without a space before
    the next one ("HráčiReferenční", "✗Invalid runThe ace...") is one word in the
    index, found by neither of its words. So every word of a page's index text is a
    word of the page's article as an HTML parser separates its elements."""
    joined = {}
    files = _index_on_disk(built_site)
    for lang in LOCALES:
        for fragment in _fragments(files, lang):
            page = _ArticleText()
            page.feed((built_site / lang / fragment["url"].lstrip("/")).read_text(
                encoding="utf-8"))
            shown = _words("".join(page.parts))
            assert shown, fragment["url"]
            extra = sorted(_words(fragment["content"]) - shown)
            if extra:
                joined[f"{lang}{fragment['url']}"] = extra[:5]
    assert not joined, joined


_CODE = re.compile(r"(?<![\w♥♦♣♠])(?:(?:10|[2-9JQKA])[♥♦♣♠]|JK)(?!\w)")
"""A card code (``J♥``, ``10♠``, ``JK``): indexed, a letter rank would match every word
that starts with it, and a number one would find "7" for the seven."""


def test_the_index_holds_no_card_codes(built_site: Path) -> None:
    """The engine's sentences under the cases write cards as codes ("JK→J♥ 10 + Q♥
    10"), and so does the pages' prose ("In JK 7♠ 8♠ the joker stands for the 6♠"); the
    pages mark the codes ``data-pagefind-ignore``, so no page's index text holds one, in
    any locale, and the words around them stay."""
    files = _index_on_disk(built_site)
    found = {f"{lang}{fragment['url']}": _CODE.findall(fragment["content"])[:5]
             for lang in LOCALES for fragment in _fragments(files, lang)}
    assert {url: codes for url, codes in found.items() if codes} == {}
    prose = next(f for f in _fragments(files, "en") if f["url"] == "/rules/index.html")
    assert "In the joker stands for the : the can still be laid off" in " ".join(
        prose["content"].split())
    html = (built_site / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert '<span class="card-code" data-pagefind-ignore>JK→J♥</span>' in html
    rules = next(f for f in _fragments(files, "en") if f["url"] == "/first-meld/index.html")
    assert "The joker stands for , not : fewer points." in " ".join(rules["content"].split())


_DRAWN = re.compile(r'<span class="card [^"]*" role="img" aria-label="([^"]*)"')
"""A card's drawing in the theme's words (macros.html): its name."""


def test_the_cards_drawn_are_indexed_by_their_names(built_site: Path) -> None:
    """A card drawn in an example row (its rank and suit shown, its name its
    ``aria-label``) is in the index by its name in the locale's words, in every locale:
    "king" finds a row that shows a king though no sentence of it says "king"."""
    files = _index_on_disk(built_site)
    missing = {}
    for lang in LOCALES:
        for fragment in _fragments(files, lang):
            page = (built_site / lang / fragment["url"].lstrip("/")).read_text(encoding="utf-8")
            article = page[page.index("<article"):page.index("</article>")]
            names = {unescape(n) for n in _DRAWN.findall(article)}
            text = " ".join(fragment["content"].split()).lower()
            if lost := sorted(n for n in names if n.lower() not in text):
                missing[f"{lang}{fragment['url']}"] = lost[:4]
            assert len(names) > 5, (lang, fragment["url"])
    assert missing == {}
    html = (built_site / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    assert ('role="img" aria-label="king of spades" data-pagefind-ignore '
            'data-pagefind-index-attrs="aria-label"><span aria-hidden="true">K<span '
            'class="suit">♠</span></span></span>') in html


def test_the_search_box_loads_nothing_until_used(built_site: Path) -> None:
    """The box is in every page's header, hidden (shown by the script), its messages the
    locale's; no page loads the search's script or Pagefind itself."""
    for rel, lang, bundle in (("cs/rules/index.html", "cs", "../../cs/pagefind/"),
                              ("de/index.html", "de", "../de/pagefind/")):
        soup = BeautifulSoup((built_site / rel).read_text(encoding="utf-8"), "html.parser")
        form = soup.select_one("header form.site-search[role=search]")
        assert form is not None and form.has_attr("hidden")
        assert form["data-bundle"] == bundle
        assert (built_site / rel).parent.joinpath(bundle, "pagefind.js").resolve().is_file()
        scripts = [s.get("src", "") for s in soup.select("script")]
        assert not [s for s in scripts if "search" in s or "pagefind" in s]
        assert not soup.select('link[href*="pagefind"], link[href*="search"]')
        label = soup.select_one("label[for=site-search-input]")
        assert label is not None
        assert label.get_text() == {"cs": "Hledat v\xa0pravidlech", "de": "In den Regeln suchen"
                                    }[lang]
        assert "rules-site serve" in form["data-file"]
        assert not form["data-file"].startswith("Search needs")  # translated


def test_without_pagefind_the_build_says_so_and_writes_nothing(
        init_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "get_executable", lambda: None)
    result = run_cli("build", "--project", str(init_project))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "pagefind[bin]" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert not (init_project / "site").exists()


def test_a_published_file_in_a_search_folder_is_an_input_error(project: Path) -> None:
    place = project / "templates" / "root" / "cs" / "pagefind" / "notes.txt"
    place.parent.mkdir(parents=True)
    place.write_text("mine", encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    assert ("templates/root/cs/pagefind/notes.txt:1: clashes with the generated folder "
            "cs/pagefind/") in out


def test_an_unchanged_locale_takes_its_index_from_the_cache(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalog entry shown only outside what is indexed (the search box's label) makes
    no new index; one shown in Czech articles (a page's title) makes Czech's alone; the
    site is each time the one a build without the cache writes. An index taken from the
    cache is copied into the new site by the forked worker that rendered its locale,
    beside the rendering of the others (its one copy: without it the index is missing)."""
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 1)  # the forked workers' path
    indexed: list[str] = []
    real = search.Indexer._start

    def counted(self: search.Indexer, plan: search.LocalePlan) -> Any:
        indexed.append(search_output(plan.lang))
        return real(self, plan)

    monkeypatch.setattr(search.Indexer, "_start", counted)
    monkeypatch.setattr(search, "_MADE", OrderedDict())  # none made in this process yet
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert sorted(indexed) == [search_output(lang) for lang in sorted(LEAN_LOCALES)]
    po = project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    for msgid, new, reindexed in (
            ("Search the rules", "Prohledat pravidla", []),  # a built-in message
            ("Rules of Rami", "Pravidla karetní hry Rami", ["cs/pagefind"])):
        translate_in(po, msgid, new)
        indexed.clear()
        assert run_cli("build", "--project", str(project)).returncode == 0
        assert indexed == reindexed
        cached = _index_on_disk(project / "site")
        result = run_cli("build", "--project", str(project), "--out",
                         str(project / "fresh"), "--no-cache")
        assert result.returncode == 0
        assert cached == _index_on_disk(project / "fresh")
    titles = [f["meta"]["title"] for f in _fragments(cached, "cs")]
    assert "Pravidla karetní hry Rami" in titles


def test_the_process_memo_forgets_the_oldest_never_this_calls(
        built_site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a memo smaller than one call's locales, a call still returns every locale's
    index (the memo forgets older ones only after the call has them)."""
    monkeypatch.setattr(search, "MEMO", 2)
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    pages = _pages(built_site)
    first = search_index(pages)
    assert len(search._MADE) == 2
    assert search_index(pages) == first == _index_on_disk(built_site)


@pytest.mark.parametrize("html", [
    b'<html><body><main data-pagefind-body><img alt="a>b" src=x.png><span '
    b'data-pagefind-ignore>5</span></main></body></html>',
    b'<html><body><main title="a data-pagefind-body b">x</main></body></html>',
], ids=["angle-in-a-value", "body-in-a-value"])
def test_a_page_html_reads_otherwise_than_a_pattern_stays_whole(html: bytes) -> None:
    assert search_view(html) == html


HOSTILE = {
    # What a theme override may put in a page that a view must not change:
    "h1-in-header": (b'<header class="site-header', b'<header class="site-header"><h1>Site'
                     b'</h1></header><header class="x'),
    "img-in-footer": (b'<footer class="site-footer">',
                      b'<footer class="site-footer"><img src="logo.png" alt="Logo">'),
    "meta-upper-case": (b'<footer class="site-footer">',
                        b'<footer class="site-footer"><p DATA-PAGEFIND-META="author:Al">x</p>'),
    "filter-mixed-case": (b'<footer class="site-footer">', b'<footer class="site-footer">'
                          b'<p Data-Pagefind-Filter="game:rami">x</p>'),
    "second-body-upper-case": (b'<footer class="site-footer">', b'<section '
                               b'DATA-PAGEFIND-BODY><p>more words</p></section><footer '
                               b'class="site-footer">'),
    "h1-in-an-ignored-span": (b"<h1", b"<span data-pagefind-ignore><h1>Ignored</h1></span><h1"),
    "meta-upper-case-in-a-card": (b'<span aria-hidden="true">', b'<span aria-hidden="true" '
                                  b'DATA-PAGEFIND-META="k:v">'),
    "meta-in-a-card": (b'<span aria-hidden="true">', b'<span aria-hidden="true" '
                       b'data-pagefind-meta="k:v">'),
    "filter-in-a-heading-link": (b'aria-label="Link to this section" data-pagefind-ignore>#',
                                 b'aria-label="Link to this section" data-pagefind-ignore>'
                                 b'<span data-pagefind-filter="game:rami">#</span>'),
    "comment-in-article": (b"</h1>", b"</h1><p><!-- <span data-pagefind-ignore> -->zebraword "
                           b"visible<!-- </span> --></p>"),
    "textarea": (b"</h1>", b"</h1><p><span data-pagefind-ignore>x<textarea></span>zebra"
                 b"</textarea></span> tail</p>"),
    "bogus-comment-in-article": (b"</h1>", b"</h1><p><!x <span data-pagefind-ignore>>zebraword"
                                 b"</span> tail</p>"),
    "processing-instruction-in-article": (b"</h1>", b"</h1><p><?x <span data-pagefind-ignore>"
                                          b">zebraword</span> tail</p>"),
    "bogus-end-tag-in-article": (b"</h1>", b"</h1><p></ x <span data-pagefind-ignore>"
                                 b">zebraword</span> tail</p>"),
    "bogus-comment-naming-body-in-head": (b"</head>", b"<!x <body data-pagefind-body>"
                                          b"</head>"),
    "comment-naming-body-in-head": (b"</head>", b"<!-- keep scripts out of <body> -->"
                                    b"</head>"),
    # The plain spans' unwrapping: what a span's tags may carry.
    "vertical-tab-is-part-of-a-tag-name": (b"</h1>", b"</h1><p>a <span\x0bdata-pagefind-ignore>"
                                           b"zebraword</span> tail</p>"),
    "plain-spans-in-a-heading-with-an-id": (b"</h1>", b'</h1><h2 id="zh">Zebra <span class="x">'
                                            b'word<span lang="en">s</span></span></h2><p>t</p>'),
    "span-with-an-id": (b"</h1>", b'</h1><p>a <span class="x" id="zid">zebra</span>word</p>'),
    "span-with-meta": (b"</h1>", b'</h1><p><span class="x" data-pagefind-meta="k">zebra'
                       b"</span></p>"),
    "span-index-attrs": (b"</h1>", b'</h1><p><span title="zebra" data-pagefind-index-attrs='
                         b'"title">x</span></p>'),
    "upper-case-span-with-id": (b"</h1>", b'</h1><p><SPAN ID="up">zebra</SPAN>word</p>'),
    "span-in-a-block-in-a-span": (b"</h1>", b'</h1><span class="a"><p><span class="b">zebra'
                                  b'</span></p>word</span>'),
    "spans-three-deep": (b"</h1>", b'</h1><p><span class="a"><span><span class="c">zeb'
                         b'</span>ra</span>w</span>ord</p>'),
    # A "<" that opens no tag, or a "<span" that HTML reads inside a tag.
    "an-angle-before-a-span": (b"</h1>", b'</h1><p>a <<span class="x">zebra</span> c</p><p>d'
                               b"</p>"),
    "an-angle-before-an-ignored-span": (b"</h1>", b"</h1><p>a <<span data-pagefind-ignore>x"
                                        b"</span>b zebra</p>"),
    "a-span-in-an-unquoted-value": (b"</h1>", b'</h1><p title=a<span class="x">zebra</span> '
                                    b"tail</p><p>d</p>"),
    "a-span-among-attributes": (b"</h1>", b'</h1><p <span class="x">zebra</span> tail</p>'),
    "a-span-in-an-end-tag": (b"</h1>", b'</h1><p>a</b <span class="x">zebra</span> tail</p>'),
    # A tag whose name starts with "span".
    "a-span-named-span-x-in-an-ignored-span": (
        b"</h1>", b"</h1><p><span data-pagefind-ignore><span-foo>zebra</span>xylo</span>tail</p>"),
    "ignore-all-around-the-article": (b'<header class="site-header"', b'<div data-pagefind-'
                                      b'ignore="all"><header class="site-header"'),
    "a-stray-html-tag-in-the-footer": (b'<footer class="site-footer">',
                                       b'<footer class="site-footer"><html lang="de">'),
    "an-end-tag-with-a-space-around-a-nested-one": (
        b"</nav>  </article>", b"</nav><article>in</article><p>zebra</p></article >"),
    # A card's name: written as text in the view, its full stop as Pagefind adds it, or
    # kept as an empty span where the text could differ.
    "a-name-with-an-entity": (b'aria-label="king of hearts"', b'aria-label="king &amp; hearts"'),
    "a-name-ending-in-a-digit": (b'aria-label="king of hearts"', b'aria-label="king 7"'),
    "a-name-ending-in-a-bracket": (b'aria-label="king of hearts"', b'aria-label="king (K)"'),
    "a-name-ending-in-a-full-stop": (b'aria-label="king of hearts"', b'aria-label="king."'),
    "a-name-ending-in-a-dash": (b'aria-label="king of hearts"', b'aria-label="king -"'),
    "an-empty-name": (b'aria-label="king of hearts"', b'aria-label=""'),
    "a-name-ending-in-a-combining-mark": (b'aria-label="king of hearts"',
                                          'aria-label="king\u0301"'.encode()),
    "a-name-ending-in-a-non-latin-letter": (b'aria-label="king of hearts"',
                                            'aria-label="король червей"'.encode()),
    "a-name-ending-in-a-symbol": (b'aria-label="king of hearts"', 'aria-label="king ♥"'.encode()),
    "a-drawing-in-a-heading-with-an-id": (
        b"</h1>", b'</h1><h2 id="zh">Alpha <span data-pagefind-ignore><span class="c">zebra'
        b"</span></span></h2><p>t</p>"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_view_indexes_as_its_page_does(built_site: Path, name: str) -> None:
    """The claim of search_view, on shapes that could make a view differ from its page:
    the index of the view is the index of the page, byte for byte."""
    old, new = HOSTILE[name]
    page = (built_site / "en" / "first-meld" / "index.html").read_bytes()
    assert page.count(old) >= 1
    page = page.replace(old, new, 1)
    rel = "en/first-meld/index.html"
    assert search_index({rel: search_view(page)}) == search_index({rel: page})


AROUND = {  # edits around the article: (the text to find, its replacement)
    "a-title-in-the-navigation": (b'<nav class="site-nav"', b'<nav class="site-nav" title="Zebra"'),
    "a-comment-in-the-header": (b'<header class="site-header',
                                b'<!-- x --><header class="site-header'),
    "a-comment-after-the-article": (b"</article>\n", b"</article><!-- x -->\n"),
    "an-angle-in-a-value-before": (b'<nav class="site-nav"', b'<nav class="site-nav" title="a>b"'),
    "an-angle-in-a-value-after": (b'<footer class="site-footer"',
                                  b'<footer class="site-footer" title="a>b"'),
    "an-open-value-up-to-the-article": (b"</nav>  <article", b'</nav>  <p title="x<article'),
    "a-lone-angle-before-the-article": (b"</nav>  <article", b"</nav>  <<article"),
    "a-lone-angle-after-it": (b"</article>\n", b"</article><\n"),
    "an-angle-in-text-before": (b"  </nav>  <article", b"  </nav> a < b <article"),
    "a-script-after": (b"</footer>", b"<script>var x;</script></footer>"),
    "raw-text-open-before-the-article": (b"</nav>  <article", b"</nav>  <textarea><article"),
    "a-second-body-before": (b'<nav class="site-nav"', b'<nav class="site-nav" data-pagefind-body'),
    "a-second-body-after": (b'<footer class="site-footer"',
                            b'<footer class="site-footer" data-pagefind-body'),
    "a-meta-in-the-footer": (b'<footer class="site-footer"',
                             b'<footer class="site-footer" data-pagefind-meta="a:b"'),
    "an-h1-before-the-header": (b'<header class="site-header',
                                b'<h1>Site</h1><header class="site-header'),
    "a-bogus-end-tag-before": (b"</nav>  <article", b"</nav> </ x> <article"),
    "words-in-the-footer": (b"<p>Every example", b"<p>Zebra words. Every example"),
}


@pytest.mark.parametrize("name", sorted(AROUND) + sorted(HOSTILE))
def test_a_checked_element_is_checked_around_as_a_whole_page_is(
        built_site: Path, name: str) -> None:
    """A page whose article an earlier page's passed the checks with (``checked``) is
    checked around its article only: each edit around it (or in it) gives the parts a
    full check gives, or ``None`` as it does."""
    page = (built_site / "en" / "first-meld" / "index.html").read_bytes()
    parts = search.view_parts(page)
    assert parts is not None and not parts.sha
    checked = hashlib.sha256(parts.inside).hexdigest()
    assert search.view_parts(page, checked) == parts._replace(sha=checked)
    old, new = {**AROUND, **HOSTILE}[name]
    assert page.count(old) >= 1
    edited = page.replace(old, new, 1)
    full = search.view_parts(edited)
    again = search.view_parts(edited, checked)
    assert (again is None) == (full is None)
    if full is not None and again is not None:
        assert again[:4] == full[:4]
    if name in AROUND:  # the article as it was: checked around it only
        assert parts.inside in edited
        assert (full is not None) == (name in ("a-title-in-the-navigation",
                                               "words-in-the-footer"))


def test_a_view_keeps_the_text_of_plain_spans_without_their_tags() -> None:
    html = (b'<html><body><main data-pagefind-body><p><span class="verdict verdict--ok">'
            b'valid</span> <span class="a" lang="en"><span>run</span> of</span> <span '
            b'id="k">k</span> <span data-pagefind-meta="m">m</span> <span hidden>h</span> '
            b"<span class=u>u</span> <SPAN>S</SPAN> <span><b>b</b></span> <span class="
            b'"a"><span><span>3</span></span></span></p></main></body></html>')
    assert search_view(html) == (b'<html><body><main data-pagefind-body><p>valid run of <span '
                                 b'id="k">k</span> <span data-pagefind-meta="m">m</span> <span '
                                 b"hidden>h</span> <span class=u>u</span> <SPAN>S</SPAN> <span>"
                                 b"<b>b</b></span> 3</p></main></body></html>\n")


def test_pagefind_reads_no_settings_of_its_own(
        built_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pagefind would read a ``pagefind.yml`` in the build's working folder and
    ``PAGEFIND_*`` variables, which neither the views nor the cached indexes know of (a
    cached build would then keep an index a clean build would not make). It runs in its
    scratch folder without them: the index depends on the pages alone."""
    rel = "en/first-meld/index.html"
    page = (built_site / rel).read_bytes()
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    plain = search_index({rel: page})
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    monkeypatch.setenv("PAGEFIND_EXCLUDE_SELECTORS", "table")
    (tmp_path / "pagefind.yml").write_text('exclude_selectors:\n  - "p"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert search_index({rel: page}) == plain


def test_words_in_a_quoted_value_are_not_attributes() -> None:
    html = (b'<html><body><main data-pagefind-body><span title="no data-pagefind-ignore '
            b'here">kept</span> <span class=c data-pagefind-ignore=\'all\' lang=en>gone'
            b'</span></main></body></html>')
    assert search_view(html) == (b"<html><body><main data-pagefind-body>kept </main></body>"
                                 b"</html>\n")


def test_a_build_whose_pages_did_not_change_makes_no_view(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages' bytes name their views' key once it is known: a second build finds
    the index without making a view. A change outside what the views take (the search
    box's label, in every page's header) makes neither a view nor the index: the
    digest of each view's parts is the same. A page title changes its own page's head
    and article, the pager of the pages before and after it (in their articles) and the
    navigation of every page: three views and one index made."""
    made: list[int] = []
    real = search.cut_view

    def counted(parts: search.ViewParts) -> bytes:
        made.append(len(parts.inside))
        return real(parts)

    monkeypatch.setattr(search, "cut_view", counted)
    assert run_cli("build", "--project", str(project)).returncode == 0
    pages = len(made)
    assert pages == len(LEAN_LOCALES) * len(SLUGS)
    made.clear()
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert made == []
    po = project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    translate_in(po, "Search the rules", "Prohledat pravidla")  # a built-in message
    indexed: list[str] = []
    start = search.Indexer._start
    monkeypatch.setattr(search.Indexer, "_start",
                        lambda self, plan: indexed.append(plan.lang) or start(self, plan))
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0
    assert "Prohledat pravidla" in (project / "site" / "cs" / "rules" / "index.html").read_text(
        encoding="utf-8")
    assert made == [] and indexed == []  # every page changed, no view nor index
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "První vyložení"',
                                                         'msgstr "První zebra vyložení"'),
                  encoding="utf-8")
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert len(made) == 3 and indexed == ["cs"]  # its page, and its neighbours' pagers
    cached = _index_on_disk(project / "site")
    assert run_cli("build", "--project", str(project), "--out", str(project / "fresh"),
                   "--no-cache").returncode == 0
    assert cached == _index_on_disk(project / "fresh")


def test_a_changed_case_makes_the_views_of_the_pages_that_show_it_alone(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose bytes did not change keeps its view (the cache's copy, by the page's
    SHA-256): a case shown on the rules page makes that page's views again, one a
    locale, and every locale's index; the index is the one a build without the cache
    makes."""
    made: list[bytes] = []
    real = search.cut_view
    monkeypatch.setattr(search, "cut_view",
                        lambda parts: made.append(parts.inside) or real(parts))
    assert run_cli("build", "--project", str(project)).returncode == 0
    cases = project / "content" / "examples" / "melds-rami.yaml"
    text = cases.read_text(encoding="utf-8")
    assert text.count("title: Three kings\n") == 1
    cases.write_text(text.replace("title: Three kings\n", "title: Three zebra kings\n"),
                     encoding="utf-8")
    made.clear()
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert len(made) == len(LEAN_LOCALES)
    assert all(b"Three zebra kings" in html and b'id="three-kings"' in html for html in made)
    cached = _index_on_disk(project / "site")
    result = run_cli("build", "--project", str(project), "--out", str(project / "fresh"),
                     "--no-cache")
    assert result.returncode == 0
    assert cached == _index_on_disk(project / "fresh")
    assert any("Three zebra kings" in f["content"] for f in _fragments(cached, "en"))


def test_a_damaged_view_in_the_cache_is_made_again_with_one_note(
        project: Path) -> None:
    """The views of unchanged pages are read from the cache when a locale's index must
    be made again; a copy edited by hand is noticed (its SHA-256), ignored with one note
    and made again from the page: the index is a clean build's."""
    assert run_cli("build", "--project", str(project)).returncode == 0
    store = BuildCache(cache_folder(project), real_path(project))
    views = [store.blob(sha) for lang in LEAN_LOCALES
             for _, sha, _, _ in store.load(search.VIEWS_SLOT.format(lang=lang),
                                         search.version()).values()]
    assert len(views) == len(LEAN_LOCALES) * len(SLUGS)
    for path in views:
        assert path is not None and b"data-pagefind-body" in path.read_bytes()
        path.write_bytes(path.read_bytes().replace(b"<h1", b"<h1 data-x", 1))
    rules = project / "content" / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nA zebra sentence.\n",
                     encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    notes = [line for line in result.stdout.splitlines() if "damaged cache file" in line]
    assert len(notes) == len(views) - len(LEAN_LOCALES)  # the rules pages' are new
    assert run_cli("build", "--project", str(project), "--out", str(project / "fresh"),
                   "--no-cache").returncode == 0
    assert _index_on_disk(project / "site") == _index_on_disk(project / "fresh")


def test_pagefind_failing_is_an_input_error_and_the_site_stays(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_cli("build", "--project", str(project)).returncode == 0
    before = _index_on_disk(project / "site")
    program = tmp_path / "pagefind"
    program.write_text("#!/bin/sh\necho 'the disk is on fire' >&2\nexit 3\n", encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setattr(search, "get_executable", lambda: program)
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    rules = project / "content" / "rules.md"
    rules.write_text(rules.read_text(encoding="utf-8") + "\nA zebra sentence.\n",
                     encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    # the locale whose index fails first names it (their Pagefind runs overlap)
    assert re.search(r"^(?:[a-z]{2})/pagefind: Pagefind failed \(exit 3\): the disk is on "
                     r"fire; expected an index", out, re.MULTILINE), out
    assert "Traceback" not in out
    assert _index_on_disk(project / "site") == before


def test_a_locales_index_is_made_while_the_next_locale_renders(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The indexing of a locale starts once its pages are written, before the next
    locale is rendered (in this process here; the forked workers' plans reach the
    indexer in the same way, as each locale is done)."""
    events: list[str] = []
    render = parallel.render_locale
    start = search.Indexer._start
    monkeypatch.setattr(parallel, "render_locale",
                        lambda site, lang, **given: events.append(f"render {lang}")
                        or render(site, lang, **given))
    monkeypatch.setattr(search.Indexer, "_start",
                        lambda self, plan: events.append(f"index {plan.lang}")
                        or start(self, plan))
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    assert run_cli("build", "--project", str(project), "--no-cache").returncode == 0
    assert events == ["render en", "index en", "render cs", "index cs"]


def test_each_index_is_in_the_new_site_as_soon_as_pagefind_ends(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index made is written into the fresh folder (and kept in the cache) as its
    Pagefind run ends, while the others run, not after the last one (at 700 pages after
    a case changed, the parent wrote 900 files after the last run and read them back
    into the cache after the swap: 0.43 s in one process)."""
    collect = search._collect
    seen: list[tuple[str, list[str]]] = []

    def collected(process: Any, plan: search.LocalePlan) -> dict[str, bytes]:
        fresh = list(project.glob(".site.new-*"))
        assert len(fresh) == 1
        seen.append((plan.lang, sorted(p.parent.parent.name for p in
                                       fresh[0].glob("*/pagefind/pagefind.js"))))
        return collect(process, plan)

    monkeypatch.setattr(search, "_collect", collected)
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert len(seen) == len(LEAN_LOCALES) == 2
    assert seen[0][1] == [] and seen[1][1] == [seen[0][0]]
    cache = BuildCache(cache_folder(project), real_path(project))
    index = [p for p in (project / "site").glob("*/pagefind/**/*") if p.is_file()]
    assert {p.relative_to(project / "site").parts[0] for p in index} == set(LEAN_LOCALES)
    assert all(cache.load_blob(hashlib.sha256(p.read_bytes()).hexdigest()) for p in index)


def test_the_pagefind_named_by_its_variable_makes_the_index_and_keys_it(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``PAGEFIND_BINARY_PATH`` names the program that makes the index, and the cache
    keys an index by that program: with another one named, a build with nothing else
    changed makes each locale's index with it. (Before, the key was the ``pagefind_bin``
    package's version, whatever program ran, so the cache's index was kept.)"""
    real = search.get_executable()
    assert real is not None and real.is_file()
    assert run_cli("build", "--project", str(project)).returncode == 0
    ran = tmp_path / "ran.txt"
    program = tmp_path / "pagefind"
    program.write_text(f'#!/bin/sh\necho run >> "{ran}"\nexec "{real}" "$@"\n',
                       encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(program))
    assert search.get_executable() == program
    assert search.version() != "" and str(program) in search.version()
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    assert ran.read_text(encoding="utf-8").split() == ["run"] * len(LEAN_LOCALES)
    assert run_cli("build", "--project", str(project)).returncode == 0  # kept now
    assert len(ran.read_text(encoding="utf-8").split()) == len(LEAN_LOCALES)
    program.write_text(program.read_text(encoding="utf-8") + "# a new one\n",
                       encoding="utf-8")  # installed again: another program
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert len(ran.read_text(encoding="utf-8").split()) == 2 * len(LEAN_LOCALES)
    monkeypatch.delenv("PAGEFIND_BINARY_PATH")
    assert search.get_executable() == real
    assert run_cli("build", "--project", str(project), "--out", str(project / "fresh"),
                   "--no-cache").returncode == 0
    assert _index_on_disk(project / "site") == _index_on_disk(project / "fresh")


@pytest.mark.parametrize(("named", "cause"), [
    ("", "[Errno 13] Permission denied: '"),  # Pagefind's own lookup reads "" as "."
    ("{tmp}/no-pagefind", "[Errno 2] No such file or directory: '{tmp}/no-pagefind'")])
def test_a_pagefind_variable_naming_no_program_is_said_to_be_the_cause(
        init_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str,
        cause: str) -> None:
    """A ``PAGEFIND_BINARY_PATH`` that names no program is what to fix, so the error
    names the variable and what it holds (not "expected it to run (pip install
    'pagefind[bin]')", with the package installed)."""
    named = named.format(tmp=tmp_path)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", named)
    result = run_cli("build", "--project", str(init_project))
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    last = out.splitlines()[-1]
    assert last.startswith("en/pagefind: Pagefind could not index the pages: "
                           + cause.format(tmp=tmp_path)), last
    assert last.endswith(f"; expected PAGEFIND_BINARY_PATH ('{named}') to name its program")
    assert not (init_project / "site").exists()


def test_what_a_failing_pagefind_printed_is_shown_bounded_and_plain(
        init_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake Pagefind prints a megabyte with terminal escape codes: the error line
    shows the end of what was printed, at most SAID_LIMIT characters, control
    characters as escapes, on one line."""
    program = tmp_path / "pagefind"
    program.write_text("#!/bin/sh\nhead -c 1000000 /dev/zero | tr '\\0' x\n"
                       "printf '\\033[31mred alert\\033[0m\\nsecond line\\n'\nexit 4\n",
                       encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setattr(search, "get_executable", lambda: program)
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    result = run_cli("build", "--project", str(init_project))
    out = result.stdout + result.stderr
    assert result.returncode == 2, out[:2000]
    line = next(x for x in out.splitlines() if "Pagefind failed (exit 4)" in x)
    assert "\x1b" not in line and "\\x1b[31mred alert\\x1b[0m | second line; expected" in line
    assert len(line) < search.SAID_LIMIT + 200
    assert not (init_project / "site").exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_pagefind_run_stopped_takes_what_it_started_with_it(
        init_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that takes too long is stopped with everything it started (a wrapper
    script's own child too): each run is a process group."""
    started = tmp_path / "started.pid"
    program = tmp_path / "pagefind"
    program.write_text(f"#!/bin/sh\nsleep 1000 &\necho $! > {started}\nsleep 1000\n",
                       encoding="utf-8")
    program.chmod(0o755)
    monkeypatch.setattr(search, "get_executable", lambda: program)
    monkeypatch.setattr(search, "_MADE", OrderedDict())
    monkeypatch.setattr(search, "TIMEOUT", 1.0)
    result = run_cli("build", "--project", str(init_project))
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    assert "Pagefind took longer than 1 s" in out
    pid = int(started.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)


def test_the_scratch_folders_of_killed_builds_are_swept(tmp_path: Path) -> None:
    """A build killed outright (SIGKILL) leaves its scratch folder of views (50-60 MB at
    700 pages); the next build removes those of processes that are gone, and only
    those."""
    dead = tmp_path / f"{search.SCRATCH_PREFIX}999999999-abc_12"  # above any pid
    live = tmp_path / f"{search.SCRATCH_PREFIX}{os.getpid()}-abc_12"
    other = tmp_path / f"{search.SCRATCH_PREFIX}notes"
    for folder in (dead, live, other):
        (folder / "en" / "site").mkdir(parents=True)
        (folder / "en" / "site" / "index.html").write_text("x", encoding="utf-8")
    search.sweep_scratch(tmp_path)
    assert not dead.exists()
    assert live.exists() and other.exists()


def _site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_build_asked_for_the_index_later_keeps_the_last_one(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``search_later`` (serve's first build after a change): the pages are new, each
    locale's index is the last build's, byte for byte, and the report names the locales;
    no page's view is made then (the next build makes them); the next build makes the
    index, and the site is then a clean build's. The first build of all makes its index
    all the same."""
    first = build(project, search_later=True)
    assert first.exit_code == 0 and first.search_behind == []
    old = _index_on_disk(project / "site")
    assert old and {rel.split("/")[0] for rel in old} == set(LEAN_LOCALES)
    melds = project / "content" / "examples" / "melds-rami.yaml"
    replace_in(melds, "title: Three kings", "title: Three crowned kings")
    cut: list[int] = []
    real_cut = search.cut_view
    monkeypatch.setattr(search, "cut_view", lambda parts: cut.append(1) or real_cut(parts))
    shown = build(project, search_later=True)
    assert shown.exit_code == 0, shown.lines
    assert shown.search_behind == sorted(LEAN_LOCALES)
    assert cut == []  # no view made: the next build makes them
    assert "Three crowned kings" in (project / "site" / "en" / "rules" / "index.html"
                                     ).read_text(encoding="utf-8")
    assert _index_on_disk(project / "site") == old
    made = build(project)
    assert made.exit_code == 0 and made.search_behind == []
    assert cut  # the changed pages' views
    new = _index_on_disk(project / "site")
    assert new != old
    pages = [f for f in _fragments(new, "en") if f["url"] == "/rules/index.html"]
    assert len(pages) == 1 and "Three crowned kings" in pages[0]["content"]
    clean = tmp_path / "clean"
    assert build(project, clean, cache=False).exit_code == 0
    assert _site_files(project / "site") == _site_files(clean)
    assert build(project, search_later=True).search_behind == []  # nothing behind now


def test_a_build_asked_for_the_other_locales_later_keeps_their_last_files(
        project: Path, tmp_path: Path) -> None:
    """``locales_later`` (serve's first build after a change): the source locale's pages
    are new, a locale whose pages changed keeps the last build's files, pages and index,
    byte for byte, and the report names it; the next build renders it, and the site is
    then a clean build's. A locale whose catalog changed is rendered at once, and one
    whose pages are all kept is not behind."""
    first = build(project, search_later=True, locales_later=True)
    assert first.exit_code == 0 and first.locales_behind == []  # the first build: all
    before = _site_files(project / "site")
    melds = project / "content" / "examples" / "melds-rami.yaml"
    replace_in(melds, "title: Three kings", "title: Three crowned kings")
    shown = build(project, search_later=True, locales_later=True)
    assert shown.exit_code == 0, shown.lines
    assert shown.locales_behind == ["cs"] and shown.search_behind == ["en"]
    now = _site_files(project / "site")
    assert b"Three crowned kings" in now["en/rules/index.html"]
    assert {rel: data for rel, data in now.items() if rel.startswith("cs/")} == {
        rel: data for rel, data in before.items() if rel.startswith("cs/")}
    made = build(project)
    assert made.exit_code == 0 and made.locales_behind == [] and made.search_behind == []
    assert b"Three crowned kings" in (project / "site" / "cs" / "rules" / "index.html"
                                      ).read_bytes()
    clean = tmp_path / "clean"
    assert build(project, clean, cache=False).exit_code == 0
    assert _site_files(project / "site") == _site_files(clean)
    translate_in(project / "locales" / "cs" / "LC_MESSAGES" / "messages.po",
                 "Three crowned kings", "Tři korunovaní králové")
    translated = build(project, search_later=True, locales_later=True)
    assert translated.exit_code == 0 and translated.locales_behind == []
    assert "Tři korunovaní králové" in (project / "site" / "cs" / "rules" / "index.html"
                                        ).read_text(encoding="utf-8")


@settings(max_examples=400, deadline=None)
@given(text=st.text(alphabet="<>a/!? s", max_size=24), start=st.integers(0, 24),
       stop=st.one_of(st.none(), st.integers(0, 24)))
def test_the_search_for_raw_text_finds_where_the_whole_pattern_finds(
        text: str, start: int, stop: int | None) -> None:
    """The view's search for what HTML does not read as tags (the cheaper search where
    no tag holds a ``<``) starts where :data:`_RAW`'s own search starts, in any range."""
    from generator.render.search_views import _RAW
    from generator.render.search_views import _raw_search

    low = text.encode()
    end = len(low) if stop is None else stop
    expected = _RAW.search(low, start, end)
    found = _raw_search(low, start, stop)
    assert (found and found.start()) == (expected and expected.start())


@pytest.mark.parametrize(("text", "at"), [
    (b"<p><a title=x<b>", 3), (b"<p>a < b", 5), (b"<p><!-- x -->", 3), (b"<p></ x>", 3),
    (b"<p><script>", 3), (b"<p>a &lt; b</p>", None), (b"<p><<span>", 3), (b"<p>x<", 4)])
def test_the_search_for_raw_text_finds_each_kind(text: bytes, at: int | None) -> None:
    from generator.render.search_views import _raw_search

    found = _raw_search(text, 0)
    assert (found.start() if found else None) == at
