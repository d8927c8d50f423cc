"""Drafts and warnings (docs/site.md, "Drafts" and "Warnings"): ``draft: true`` on a case
or in a page's front matter keeps it off ``build``'s site and is shown, marked, by ``build
--drafts`` and ``serve``; a link from a published page to a draft is an input error
unless drafts are shown; a case no page shows is a warning, an error under ``--strict``;
a cached build writes a clean build's bytes whichever way drafts go."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from generator.cases.editor_schema import editor_schema
from generator.cases.loader import load_cases
from generator.commands.build import build
from generator.commands.project import load_project
from generator.commands.serve import Preview
from generator.content.pages import load_pages
from generator.layout import search_output
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.test_cache import PO
from tests.test_cache import _same_tree

RUNS = """---
order: 1
summary: The first page.
---

# Runs

A run is three or more cards of one suit in sequence.

```cases
queen-king-ace
three-kings
```

## Being drafted

```cases
draft-run
```
"""

SETS = """---
order: 2
draft: true
summary: Not published yet.
---

# Sets

A set is three or four cards of one rank.

```cases
three-queens
```
"""

CASES = """defaults:
  game: rami51
cases:
  - id: queen-king-ace
    kind: meld
    cards: QH KH AH
    title: Queen, king and ace
    expect: {verdict: valid, points: 31}
  - id: three-kings
    kind: meld
    cards: KH KS KD
    title: Three kings
    draft: true
    expect: {verdict: valid, points: 30}
  - id: draft-run
    kind: meld
    cards: 5C 6C 7C
    title: A low run being drafted
    draft: true
    expect: {verdict: valid, points: 18}
  - id: three-queens
    kind: meld
    cards: QH QS QD
    title: Three queens
    expect: {verdict: valid, points: 30}
"""

CASE_FILE = "content/examples/melds.yaml"


@pytest.fixture
def drafts(tmp_path: Path) -> Path:
    """A project in English and Czech with an address (a sitemap): a published page,
    ``runs``, whose first table shows a draft case beside a published one and whose
    second shows a draft only; a draft page, ``sets``, showing a published case."""
    root = tmp_path / "drafts"
    (root / "content" / "examples").mkdir(parents=True)
    (root / "content" / "runs.md").write_text(RUNS, encoding="utf-8")
    (root / "content" / "sets.md").write_text(SETS, encoding="utf-8")
    (root / CASE_FILE).write_text(CASES, encoding="utf-8")
    po = root / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    (root / "site.yaml").write_text("site_url: https://rules.example.org/\n",
                                    encoding="utf-8")
    return root


def _page(site: Path, lang: str, slug: str) -> BeautifulSoup:
    return BeautifulSoup((site / lang / slug / "index.html").read_text(encoding="utf-8"),
                         "html.parser")


def _sitemap(site: Path) -> list[str]:
    tree = ElementTree.parse(site / "sitemap.xml")
    return sorted(e.text or "" for e in tree.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc"))


def _indexed(site: Path, lang: str) -> dict[str, str]:
    """Each page of a locale's search index: its address and its text."""
    found = {}
    for path in (site / search_output(lang) / "fragment").iterdir():
        raw = gzip.decompress(path.read_bytes())
        fragment = json.loads(raw[raw.index(b"{"):])
        found[fragment["url"]] = fragment["content"]
    return found


def test_a_case_is_a_draft_only_with_a_boolean(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "content" / "examples").mkdir(parents=True)
    (root / CASE_FILE).write_text(CASES.replace("    draft: true\n    expect: {verdict: valid,"
                                                " points: 18}",
                                                "    draft: 'true'\n    expect: {verdict: "
                                                "valid, points: 18}")
                                  .replace("title: Three queens\n",
                                           "title: Three queens\n    draft: false\n"),
                                  encoding="utf-8")
    loaded = load_cases(root)
    assert {c.id: c.draft for c in loaded.cases} == {
        "queen-king-ace": False, "three-kings": True, "three-queens": False}
    assert [e.format() for e in loaded.errors] == [
        f"{CASE_FILE}:19:12: draft must be true or false; got string 'true'"]


def test_the_editor_schema_takes_draft_as_a_boolean() -> None:
    validator = Draft202012Validator(editor_schema())
    case = {"id": "x", "kind": "meld", "game": "rami51", "cards": "QH KH AH", "title": "X",
            "expect": {"verdict": "valid"}}
    assert list(validator.iter_errors({"cases": [{**case, "draft": True}]})) == []
    assert list(validator.iter_errors({"cases": [{**case, "draft": "x"}]})) != []


def test_a_pages_draft_is_its_front_matters_boolean(drafts: Path) -> None:
    pages, errors = load_pages(drafts)
    assert errors == [] and {p.slug: p.draft for p in pages} == {"runs": False, "sets": True}
    replace_in(drafts / "content" / "sets.md", "draft: true", "draft: maybe")
    replace_in(drafts / "content" / "runs.md", "order: 1", "order: 1\ndraft_: true")
    pages, errors = load_pages(drafts)
    assert [e.format() for e in errors] == [
        "content/runs.md:2: unknown front matter; expected the fields order (a number), "
        "summary (text) and draft (true or false)",
        "content/sets.md:3:8: front matter draft is string 'maybe'; expected true or false"]


@pytest.mark.parametrize(("word", "reading"), [("yes", "true"), ("No", "false"),
                                             ("on", "true"), ("OFF", "false")])
def test_a_pages_draft_refuses_yaml_1_1_booleans(drafts: Path, word: str,
                                                 reading: str) -> None:
    """``draft: yes/no/on/off`` in a page's front matter is refused as in a case file
    (YAML 1.1 reads a boolean where YAML 1.2 and editors read text), at its position,
    saying which to write; so is a summary YAML reads as no text."""
    replace_in(drafts / "content" / "sets.md", "draft: true", f"draft: {word}")
    replace_in(drafts / "content" / "runs.md", "summary: The first page.", "summary: off")
    _pages, errors = load_pages(drafts)
    assert [e.format() for e in errors] == [
        "content/runs.md:3:10: front matter summary is boolean false; expected text (YAML "
        "reads a bare no/off/false as a boolean: quote it)",
        f"content/sets.md:3:8: front matter draft is {word}; expected true or false (YAML "
        f"1.1 reads a bare {word} as {reading}, YAML 1.2 and editors as text: write "
        f"{reading})"]


def test_a_build_leaves_every_draft_out(drafts: Path) -> None:
    report = build(drafts)
    assert (report.exit_code, report.lines) == (0, [])
    site = drafts / "site"
    assert not (site / "en" / "sets").exists() and not (site / "cs" / "sets").exists()
    for lang in ("en", "cs"):
        page = _page(site, lang, "runs")
        assert [r["id"] for r in page.select("article tr[id]")] == ["queen-king-ace"]
        # the table of drafts only is left out, its caption too; its heading stays
        assert len(page.select("article table")) == 1
        assert page.select_one("#being-drafted") is not None
        assert not page.select(".status-badge--draft")
        links = {a["href"] for a in page.select("a[href]")}
        home = {a["href"] for a in _page(site, lang, "").select(".page-list a")}
        assert "../sets/index.html" not in links and home == {"runs/index.html"}
        indexed = _indexed(site, lang)
        assert sorted(indexed) == ["/runs/index.html"]
        assert "Three kings" not in indexed["/runs/index.html"]
    assert not [u for u in _sitemap(site) if "/sets/" in u]


def test_build_drafts_shows_them_marked(drafts: Path, tmp_path: Path) -> None:
    out = tmp_path / "preview"
    result = run_cli("build", "--drafts", "--project", str(drafts), "--out", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    for lang, word in (("en", "Draft"), ("cs", "Koncept")):
        sets = _page(out, lang, "sets")
        assert [b.get_text() for b in sets.select("article .status-badge--draft")] == [word]
        runs = _page(out, lang, "runs")
        assert [r["id"] for r in runs.select("article tr[id]")] == [
            "queen-king-ace", "three-kings", "draft-run"]
        marked = [r["id"] for r in runs.select("article tr[id]")
                  if r.select(".status-badge--draft")]
        assert marked == ["three-kings", "draft-run"]
        assert "../sets/index.html" in {a["href"] for a in runs.select("nav a[href]")}
        assert "/sets/index.html" in _indexed(out, lang)
    # never in the sitemap: a draft is no page for search engines
    assert not [u for u in _sitemap(out) if "/sets/" in u]


def test_a_link_from_a_published_page_to_a_draft_is_an_error(drafts: Path,
                                                              tmp_path: Path) -> None:
    page = drafts / "content" / "runs.md"
    line = replace_in(page, "in sequence.", "in sequence. Compare [sets](../sets/).")
    anchor = replace_in(page, "## Being drafted", "## Being drafted\n\nSee "
                        "[three kings](#three-kings) and [the queens](../sets/#three-queens).")
    # a draft page may link to any page and to drafts
    replace_in(drafts / "content" / "sets.md", "one rank.", "one rank, [like these](../runs/"
               "#three-kings).")
    expected = [
        f"content/runs.md:{line}: link '../sets/' leads to page sets, a draft (draft: true in "
        "content/sets.md); expected a link to a published page (drafts are published by "
        "build --drafts only)",
        f"content/runs.md:{anchor + 2}: link '#three-kings' leads to case three-kings, a draft "
        f"(draft: true at {CASE_FILE}:13:5); expected a link to a published case (drafts are "
        "published by build --drafts only)",
        f"content/runs.md:{anchor + 2}: link '../sets/#three-queens' leads to page sets, a draft "
        "(draft: true in content/sets.md); expected a link to a published page (drafts are "
        "published by build --drafts only)"]
    check = run_cli("check", "--project", str(drafts))
    assert (check.returncode, check.stdout.splitlines()) == (2, expected)
    built = build(drafts)
    assert (built.exit_code, built.lines) == (2, expected)
    assert not (drafts / "site").exists()
    shown = build(drafts, tmp_path / "preview", drafts=True)
    assert (shown.exit_code, shown.lines) == (0, [])


def test_a_case_no_page_shows_is_a_warning(drafts: Path) -> None:
    with (drafts / CASE_FILE).open("a", encoding="utf-8") as cases:
        cases.write("  - id: lonely\n    kind: hand\n    cards: AH\n    title: Lonely\n"
                    "    expect: {points: 11}\n"
                    "  - id: lonely-draft\n    kind: hand\n    cards: KH\n    title: Not yet\n"
                    "    draft: true\n    expect: {points: 10}\n")
    warning = f"{CASE_FILE}:26: warning: case lonely is shown on no page"
    check = run_cli("check", "--project", str(drafts))
    assert (check.returncode, check.stdout.splitlines()) == (0, [warning])
    assert check.stderr.splitlines() == [
        "6 cases checked: 0 disagreements, 0 input errors, 1 warning"]
    report = json.loads(run_cli("check", "--format", "json", "--project", str(drafts)).stdout)
    assert report["warnings"] == [{"file": CASE_FILE, "line": 26,
                                   "message": "case lonely is shown on no page"}]
    built = run_cli("build", "--project", str(drafts))
    assert (built.returncode, built.stdout.splitlines()) == (0, [warning])
    (drafts / "site").rename(drafts / "before")
    strict = run_cli("build", "--strict", "--project", str(drafts))
    assert (strict.returncode, strict.stdout.splitlines()) == (1, [warning])
    assert not (drafts / "site").exists()


def test_a_site_whose_every_page_is_a_draft_builds_its_home_pages(drafts: Path) -> None:
    """Every page a draft: check and build agree (exit 0) and warn that the site has no
    page; the build writes the home and "not found" pages without a search box, and
    runs no search index (Pagefind refuses a site without pages)."""
    replace_in(drafts / "content" / "runs.md", "order: 1", "order: 1\ndraft: true")
    warning = ("content:1: warning: every page is a draft; the site has no page but its "
               "home pages (build --drafts shows the drafts)")
    assert [w.format() for w in load_project(drafts).warnings] == [warning]
    assert load_project(drafts, drafts=True).warnings == []
    report = build(drafts)
    assert (report.exit_code, report.lines) == (0, [warning])
    site = drafts / "site"
    assert sorted(p.relative_to(site).as_posix() for p in (site / "en").rglob("*")) == [
        "en/404.html", "en/index.html"]
    for lang in ("en", "cs"):
        for page in ("index.html", "404.html"):
            soup = BeautifulSoup((site / lang / page).read_text(encoding="utf-8"),
                                 "html.parser")
            assert soup.select("form.site-search") == [], (lang, page)
            assert soup.select(".page-list a") == []


def test_a_cached_build_is_a_clean_one_with_and_without_drafts(drafts: Path,
                                                               tmp_path: Path) -> None:
    """The same inputs built in turn without drafts, with them, without them again, then
    with a case's and a page's flag changed: each cached build writes what a clean build
    of the same mode writes, so the two modes never share a page that differs."""
    steps = [(False, None), (True, None), (False, None),
             (True, ("three-kings", "draft: true", "draft: false")),
             (False, ("sets", "draft: true", "draft: false"))]
    for n, (shown, change) in enumerate(steps):
        if change is not None:
            name, old, new = change
            path = drafts / ("content/sets.md" if name == "sets" else CASE_FILE)
            text = path.read_text(encoding="utf-8")
            at = text.index(name if name != "sets" else old)
            path.write_text(text[:at] + text[at:].replace(old, new, 1), encoding="utf-8")
        cached = build(drafts, tmp_path / "site", drafts=shown)
        clean = build(drafts, tmp_path / f"clean-{n}", drafts=shown, cache=False)
        assert (cached.exit_code, clean.exit_code) == (0, 0)
        _same_tree(tmp_path / "site", tmp_path / f"clean-{n}")
        assert cached.lines == clean.lines


def test_without_drafts_both_modes_share_the_cache(drafts: Path, tmp_path: Path) -> None:
    (drafts / "content" / "sets.md").write_text(SETS.replace("draft: true\n", ""),
                                                encoding="utf-8")
    (drafts / CASE_FILE).write_text(CASES.replace("    draft: true\n", ""), encoding="utf-8")
    first = build(drafts)
    second = build(drafts, tmp_path / "preview", drafts=True)
    assert (first.exit_code, first.cached, second.exit_code) == (0, 0, 0)
    assert second.cached == 6  # two pages and the home page, in en and cs


def test_serve_shows_the_drafts(drafts: Path) -> None:
    preview = Preview(drafts, "127.0.0.1", 0, lambda _line: None, lambda _lines: None)
    preview.listen()
    preview.start()
    try:
        assert preview.rebuild().errors is None
        sets = _page(preview.site, "en", "sets")
        assert [b.get_text() for b in sets.select("article .status-badge--draft")] == ["Draft"]
        runs = _page(preview.site, "en", "runs")
        assert [r["id"] for r in runs.select("article tr[id]")] == [
            "queen-king-ace", "three-kings", "draft-run"]
    finally:
        preview.close()
