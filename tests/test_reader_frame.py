"""The theme's ways to find things and its frame, read from
the built HTML with an HTML parser: heading anchors, copy-link controls, previous / next
links, captions and table notes, headers, hands, the 404 pages, meta description,
canonical links. (How the pages look and fit in a browser is the browser suite's.)"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from bs4 import Tag

from tests.conftest import EXTENDED
from tests.conftest import LEAN_LOCALES
from tests.conftest import REPO
from tests.conftest import SITE_LOCALES
from tests.conftest import parsed_page
from tests.conftest import repo_translator
from tests.conftest import run_cli
from tests.conftest import start_tags

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the reader's frame (canonical links, 404) need."""

LOCALES = SITE_LOCALES  # as the site lists them
CHECKED = LOCALES if EXTENDED else ("en", "cs", "hu")
"""The locales each per-locale test reads: all of them in the extended round, else
English, a Slavic and a Finno-Ugric locale (the longest words: hu)."""
SLUGS = ("rules", "first-meld", "cardverse")  # in their front matter's order


def tr(lang: str, msgid: str, context: str | None = None) -> str:
    """The catalogs' translation of ``msgid`` (English for ``en``)."""
    if lang == "en":
        return msgid
    text, translated = repo_translator(lang).gettext(msgid, context)
    assert translated, (lang, msgid)
    return text


def soup(site: Path, rel: str) -> BeautifulSoup:
    """The page ``rel`` of ``site`` parsed (conftest's :func:`parsed_page`)."""
    return parsed_page(site / rel)


def _tags(node: Tag, selector: str) -> list[Tag]:
    return [t for t in node.select(selector) if isinstance(t, Tag)]


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_every_heading_links_to_itself(built_site: Path, lang: str) -> None:
    label = tr(lang, "Link to this section")
    for slug in SLUGS:
        page = soup(built_site, f"{lang}/{slug}/index.html")
        headings = _tags(page, "article :is(h2, h3, h4)[id]")
        assert len(headings) >= 7, slug
        for h in headings:
            anchors = _tags(h, "a.heading-anchor")
            assert [(a["href"], a["aria-label"]) for a in anchors] == [(f"#{h['id']}", label)]


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_each_case_row_has_a_copy_link_to_itself(built_site: Path, lang: str) -> None:
    page = soup(built_site, f"{lang}/rules/index.html")
    rows = _tags(page, "table.cases > tbody > tr")
    assert len(rows) > 50
    for row in rows:
        links = _tags(row, "a[data-copy-link]")
        assert [(a["href"], a.get_text()) for a in links] == [(f"#{row['id']}",
                                                               tr(lang, "Copy link"))]
    main = page.select_one("main#content")
    assert main is not None and main["data-copied"] == tr(lang, "Link copied")


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_pages_link_the_previous_and_the_next(built_site: Path, lang: str) -> None:
    titles = {slug: soup(built_site, f"{lang}/{slug}/index.html").h1.get_text(strip=True)
              for slug in SLUGS}
    for i, slug in enumerate(SLUGS):
        pager = soup(built_site, f"{lang}/{slug}/index.html").select_one("nav.pager")
        assert pager is not None
        got = {str(a["rel"][0]): (a["href"], a.select_one(".pager__title").get_text())
               for a in _tags(pager, "a[rel]")}
        want = {}
        if i:
            want["prev"] = (f"../{SLUGS[i - 1]}/index.html", titles[SLUGS[i - 1]])
        if i + 1 < len(SLUGS):
            want["next"] = (f"../{SLUGS[i + 1]}/index.html", titles[SLUGS[i + 1]])
        assert got == want


@pytest.mark.parametrize("lang", CHECKED)
def test_the_site_nav_lists_every_page_and_marks_the_one_shown(built_site: Path,
                                                              lang: str) -> None:
    """Each item is rendered once per locale and the page's own item again on its page
    (render/site.py, SiteNav): every page lists every page in order, its own item alone
    marked; the home page, one level up, marks none, nor does the 404 page, whose links
    start at the site's root (``/``: no site_url)."""
    titles = [soup(built_site, f"{lang}/{slug}/index.html").h1.get_text(strip=True)
              for slug in SLUGS]
    shown = [(f"{lang}/{slug}/index.html", "../", slug) for slug in SLUGS]
    for rel, up, own in [*shown, (f"{lang}/index.html", "", None),
                         (f"{lang}/404.html", f"/{lang}/", None)]:
        links = _tags(soup(built_site, rel), "nav.site-nav a")
        assert [(a["href"], a.get_text()) for a in links] == [
            (f"{up}{slug}/index.html", title) for slug, title in zip(SLUGS, titles,
                                                                     strict=True)]
        assert [a["href"] for a in links if a.get("aria-current") == "page"] == (
            [f"{up}{own}/index.html"] if own else [])


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_every_locale_has_a_404_page(built_site: Path, lang: str) -> None:
    page = soup(built_site, f"{lang}/404.html")
    assert page.html["lang"] == lang
    assert page.h1.get_text(strip=True) == tr(lang, "Page not found")
    assert page.select_one('meta[name="robots"]')["content"] == "noindex"
    hrefs = [a["href"] for a in _tags(page, ".page-list a")]
    assert hrefs == [f"/{lang}/{slug}/index.html" for slug in SLUGS]  # from the root
    assert all((built_site / h.lstrip("/")).is_file() for h in hrefs)
    assert page.select_one("base") is None


def test_the_root_404_page_names_every_language(built_site: Path) -> None:
    page = soup(built_site, "404.html")
    links = _tags(page, ".root__languages a")
    assert [(a["href"], a.select_one(".root__note").get_text()) for a in links] == [
        (f"/{lang}/index.html", tr(lang, "Page not found")) for lang in LOCALES]
    assert page.select_one('link[rel="stylesheet"]')["href"] == "/static/style.css"


def _root_relative(page: BeautifulSoup) -> list[str]:
    """Every address a page links or loads, but its fragments (``#top``)."""
    return [tag.get("href") or tag.get("src") or tag["data-base"]
            for tag in page.select("a[href], link[href], script[src], img[src], [data-base]")
            if not (tag.get("href") or "").startswith("#")]


def test_canonical_and_404_links_follow_site_url(lean_project: Path, built_site: Path) -> None:
    """Every page of every locale of a site with a ``site_url`` under a sub-path (the
    lean project's two locales: the links are the frame's, the same in every locale):
    canonical addresses are absolute, the 404 pages link from the site_url's path."""
    assert soup(built_site, "en/rules/index.html").select_one('link[rel="canonical"]') is None
    url = "https://rules.example.org/games/"
    project = lean_project
    (project / "site.yaml").write_text(f"site_url: {url}\n", "utf-8")
    assert run_cli("build", "--project", str(project)).returncode == 0
    site = project / "site"
    assert sorted(p.name for p in site.iterdir() if (p / "index.html").is_file()) == sorted(
        LEAN_LOCALES)
    for lang in LEAN_LOCALES:
        for slug in SLUGS:
            tags = start_tags((site / lang / slug / "index.html").read_text("utf-8"))
            links = [a for tag, a in tags if tag == "link" and a.get("rel") == "canonical"]
            assert [a["href"] for a in links] == [f"{url}{lang}/{slug}/"]
        home = soup(site, f"{lang}/index.html").select_one('link[rel="canonical"]')
        assert home is not None and home["href"] == f"{url}{lang}/"
        not_found = soup(site, f"{lang}/404.html")
        assert not_found.select_one("base") is None
        hrefs = _root_relative(not_found)
        assert f"/games/{lang}/{SLUGS[0]}/index.html" in hrefs
        assert "/games/static/style.css" in hrefs
        assert all(h.startswith("/games/") for h in hrefs), hrefs
        assert all((site / h.removeprefix("/games/")).exists() for h in hrefs), hrefs
    hrefs = _root_relative(soup(site, "404.html"))
    assert hrefs and all(h.startswith("/games/") for h in hrefs), hrefs
    assert not _tags(soup(site, "en/404.html"), 'link[rel="canonical"]')


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_meta_description_is_the_page_summary(built_site: Path, lang: str) -> None:
    for slug in SLUGS:
        front = (REPO / "content" / f"{slug}.md").read_text("utf-8").split("---\n")[1]
        summary = yaml.safe_load(front)["summary"]
        meta = soup(built_site, f"{lang}/{slug}/index.html").select_one(
            'meta[name="description"]')
        assert meta is not None and meta["content"] == tr(lang, summary)
    icon = soup(built_site, f"{lang}/index.html").select_one('link[rel="icon"]')
    assert icon is not None and (built_site / lang / icon["href"]).is_file()


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_tables_have_captions_and_capitalised_headers(built_site: Path, lang: str) -> None:
    for slug in SLUGS:
        page = soup(built_site, f"{lang}/{slug}/index.html")
        tables = _tags(page, "article table")
        assert tables
        for table in tables:
            heading = table.find_previous(["h2", "h3"])
            caption = table.select_one("caption > .visually-hidden")
            assert heading is not None and caption is not None
            assert caption.get_text() == heading.get_text().removesuffix(" #")
            for th in _tags(table, "thead th"):
                text = th.get_text(strip=True)
                assert text[:1].isupper(), (slug, text)
    rules = soup(built_site, f"{lang}/rules/index.html")
    heads = [[th.get_text() for th in _tags(t, "thead th")] for t in _tags(rules, ".data-table")]
    presets = [tr(lang, "Reference rules", "preset heading"),
               tr(lang, "House rules", "preset heading")]
    assert heads[0][1:] == presets and heads[1][1:] == presets


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_what_rows_share_is_said_once_per_table(built_site: Path, lang: str) -> None:
    page = soup(built_site, f"{lang}/rules/index.html")
    reference = tr(lang, "reference rules", "preset")
    one = tr(lang, "Examples in this table: %(context)s.") % {"context": reference}
    notes = [n.get_text().replace("\xa0", " ") for n in _tags(page, "caption .table-note")]
    assert notes.count(one) >= 8
    for table in _tags(page, "table.cases"):
        said = " ".join(n.get_text() for n in _tags(table, "caption .table-note"))
        said = said.replace("\xa0", " ")
        if one in said:  # no cell repeats it
            assert reference not in [c.get_text() for c in _tags(table, ".context")]


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_cardverse_tables_say_melds_score_nothing(built_site: Path, lang: str) -> None:
    page = soup(built_site, f"{lang}/cardverse/index.html")
    game = "CardVerse"
    note = tr(lang, "%(game)s does not score melds: only the cards left in the hands count, "
              "at the end of a round.") % {"game": game}
    melds = [t for t in _tags(page, "table.cases--meld, table.cases--layoff")
             if note in t.caption.get_text().replace("\xa0", " ")]
    assert len(melds) >= 3
    for table in melds:
        assert "—" not in [p.get_text() for p in _tags(table, ".case__points .points")]
        has_points = bool(_tags(table, "tr[data-points]"))
        # a column of points only where some row has points
        assert bool(_tags(table, "td.case__points")) is has_points
        assert len(_tags(table, "thead th")) == (4 if table["class"][1] == "cases--meld"
                                                  else 5) - (not has_points)
    unscored = [p.get_text() for t in melds for p in _tags(t, ".points--none")]
    assert unscored and set(unscored) == {tr(lang, "not scored")}
    layoffs = _tags(page, "table.cases--layoff")
    assert layoffs and not [c for t in layoffs for c in _tags(t, "td.case__points")]


def test_hands_are_drawn_without_the_meld_strip(built_site: Path) -> None:
    page = soup(built_site, "en/rules/index.html")
    cells = _tags(page, "table.cases--hand td.case__cards")
    assert cells
    for cell in cells:
        assert _tags(cell, ".hand .card") and not _tags(cell, ".meld")
    seats = _tags(page, "table.cases--round .seat")
    assert any(_tags(s, ".hand") for s in seats) and not any(_tags(s, ".meld") for s in seats)


@pytest.mark.extended
@pytest.mark.parametrize("lang", CHECKED)
def test_pages_have_the_ways_to_find_things(built_site: Path, lang: str) -> None:
    page = soup(built_site, f"{lang}/rules/index.html")
    search = page.select_one("header form.site-search[role=search]")  # tests/test_search.py
    assert search is not None and search["data-bundle"] == f"../../{lang}/pagefind/"
    top = page.select_one(".to-top a")
    assert top is not None and top["href"] == "#top" and page.select_one("#top") is not None
    assert top.get_text() == tr(lang, "Back to top")
    mobile = [a["href"] for a in _tags(page, ".toc--mobile li a")]
    sidebar = [a["href"] for a in _tags(page, ".toc--sidebar li a")]
    assert mobile == sidebar == [f"#{h['id']}" for h in _tags(page, "article h2[id]")]
    # back to the top from the phone menu's bar (an arrow, its name for screen readers)
    # and from the end of the sidebar
    bar_top = page.select_one(".toc--mobile > a.toc__top")
    side_top = page.select_one(".toc--sidebar .toc__back a")
    assert bar_top is not None and side_top is not None
    assert bar_top["href"] == side_top["href"] == "#top"
    assert bar_top.select_one(".visually-hidden").get_text() == tr(lang, "Back to top")
    assert side_top.get_text() == tr(lang, "Back to top")
    assert page.select_one('script[src="../../static/site.js"]') is not None
    assert not _tags(page, '[src^="http"], link[href^="http"]')  # nothing external
