"""Content pages: input errors in Markdown, placeholders filled from the engine, markers."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup

from generator.content.pages import make_parser
from generator.content.pages import parse_page
from generator.content.rule_numbers import facts
from generator.engine import rule_set
from tests.conftest import LEAN_LOCALES
from tests.conftest import REPO
from tests.conftest import parsed_page
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.conftest import start_tags

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of page errors and markup need."""


def _build(project: Path, *extra: str) -> tuple[int, str]:
    result = run_cli("build", "--project", str(project), *extra)
    out = result.stdout + result.stderr
    assert "Traceback" not in out
    return result.returncode, out


def test_unknown_case_id_in_a_table(project: Path) -> None:
    line = replace_in(project / "content" / "rules.md", "three-kings\n", "three-kongs\n")
    code, out = _build(project)
    assert code == 2
    # The error names the id's own line.
    assert f"content/rules.md:{line}: unknown case id 'three-kongs'" in out
    assert not (project / "site").exists()


def test_unknown_placeholder(project: Path) -> None:
    line = replace_in(project / "content" / "rules.md", "{rami.hand_size}", "{rami.handsize}")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{line}:22: unknown placeholder {{rami.handsize}}" in out


LITERAL = "or {{ and }} for a brace shown as it is"
NOT_A_PLACEHOLDER = "is not a placeholder (a name in braces, no spaces, conversion, format " \
    "or index); expected"


@pytest.mark.parametrize(("written", "said"), [
    ("{ rami51.threshold }", f"'{{ rami51.threshold }}' {NOT_A_PLACEHOLDER} "
     f"{{rami51.threshold}}, {LITERAL}"),
    ("{rami51.threshold!r}", f"'{{rami51.threshold!r}}' {NOT_A_PLACEHOLDER} "
     f"{{rami51.threshold}}, {LITERAL}"),
    ("{rami51.threshold:,}", f"'{{rami51.threshold:,}}' {NOT_A_PLACEHOLDER} "
     f"{{rami51.threshold}}, {LITERAL}"),
    ("{rami51.threshold[0]}", f"'{{rami51.threshold[0]}}' {NOT_A_PLACEHOLDER} "
     f"{{rami51.threshold}}, {LITERAL}"),
    ("{rami51.threshold:>999999999}", f"'{{rami51.threshold:>999999999}}' "
     f"{NOT_A_PLACEHOLDER} {{rami51.threshold}}, {LITERAL}"),
    ("{}", f"'{{}}' {NOT_A_PLACEHOLDER} a rule number's name in braces, such as "
     f"{{rami51.threshold}}, {LITERAL}"),
    ("{ brace", f"a lone '{{'; expected a placeholder such as {{rami51.threshold}}, "
     f"{LITERAL}"),
    ("brace }", f"a lone '}}'; expected a placeholder such as {{rami51.threshold}}, "
     f"{LITERAL}"),
], ids=["spaces", "conversion", "format", "index", "huge-width", "empty", "lone-open",
        "lone-close"])
def test_a_malformed_placeholder_is_an_input_error_at_its_column(
        project: Path, written: str, said: str) -> None:
    """A placeholder the pages would not fill is an input error at its line and column,
    naming what to write, in a paragraph, a list item and a table cell alike (the pages
    would show it as written: "At least { rami51.threshold } points")."""
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    first = text.count("\n") + 2
    page.write_text(text + f"\nAt least {written} points.\n\n- and then {written}\n\n"
                    f"| a | b |\n|---|---|\n| x | {written} |\n", "utf-8")
    column = written.index("{" if "{" in written else "}")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"content/rules.md:{first}:{10 + column}: {said}",
        f"content/rules.md:{first + 2}:{12 + column}: {said}",
        f"content/rules.md:{first + 6}:{7 + column}: {said}"]


def test_a_placeholder_in_tripled_braces_is_an_error(tmp_path: Path) -> None:
    """``{{{name}}}`` reads as neither a brace and a placeholder nor a doubled brace
    around a name (the pages would show ``{{name}}``)."""
    page = tmp_path / "p.md"
    page.write_text("# P\n\nSee {{{rami51.threshold}}}.\n", "utf-8")
    _page, errors = parse_page(page, "content/p.md", make_parser(), facts())
    assert [e.format() for e in errors] == [
        f"content/p.md:3:7: '{{rami51.threshold}}' is next to another brace; expected "
        f"{{rami51.threshold}} apart from braces, {LITERAL}",
        f"content/p.md:3:26: a lone '}}'; expected a placeholder such as "
        f"{{rami51.threshold}}, {LITERAL}"]


def test_doubled_braces_and_placeholders_pass(project: Path) -> None:
    """``{{`` and ``}}`` are braces shown as they are, next to a placeholder too."""
    page = project / "content" / "rules.md"
    page.write_text(page.read_text("utf-8") + "\nIn braces: {{x}} and {{ {rami51.threshold} "
                    "}}.\n", "utf-8")
    code, out = _build(project)
    assert code == 0, out
    html = (project / "site" / "en" / "rules" / "index.html").read_text("utf-8")
    assert "In braces: {x} and { 51 }." in html


def test_case_id_colliding_with_a_heading(project: Path) -> None:
    page = project / "content" / "rules.md"
    page.write_text(page.read_text("utf-8") + "\n## Three kings\n", encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert "id 'three-kings' twice on the page (also a heading)" in out


def _sets_id(template: str, anchor: str) -> str:
    """Where the theme's ``template`` sets ``id="anchor"``: ``generator/theme/T:LINE``."""
    lines = (REPO / "generator" / "theme" / template).read_text("utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if f'id="{anchor}"' in text)
    return f"generator/theme/{template}:{line}"


@pytest.mark.parametrize(("heading", "where"), [
    ("Content", _sets_id("base.html", "content")), ("Top", _sets_id("base.html", "top")),
    ("Site search", _sets_id("search.html", "site-search")),
    ("Site search panel", _sets_id("search.html", "site-search-panel")),
    ("Site search input", _sets_id("search.html", "site-search-input")),
])
def test_a_heading_that_takes_a_theme_id_is_an_error_at_its_line(
        project: Path, heading: str, where: str) -> None:
    """Every id the theme's templates set, an included one's too (search.html), is
    refused to a heading at the heading's line, naming where the template sets it (a
    page with two elements of one id breaks the search box and the skip link)."""
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    line = text.count("\n") + 2
    page.write_text(text + f"\n## {heading}\n\nText.\n", "utf-8")
    anchor = heading.lower().replace(" ", "-")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"content/rules.md:{line}: a heading's id {anchor!r} is the page template's own "
        f"({where} sets it); expected another heading text"]


def test_the_ids_of_a_projects_own_template_are_reserved(project: Path) -> None:
    """The ids come from the templates the site uses, a project's override included:
    one its base.html adds is refused to a heading, and a theme's id it drops is free."""
    theme = Path(__file__).resolve().parent.parent / "generator" / "theme" / "base.html"
    base = theme.read_text("utf-8")
    assert 'id="top"' in base
    override = project / "templates" / "base.html"
    override.parent.mkdir(exist_ok=True)
    override.write_text(base.replace('id="top"', 'id="site-banner"'), "utf-8")
    line = base[:base.index('id="top"')].count("\n") + 1
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    page.write_text(text + "\n## Site banner\n\n## Top\n", "utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"content/rules.md:{text.count(chr(10)) + 2}: a heading's id 'site-banner' is the "
        f"page template's own (templates/base.html:{line} sets it); expected another "
        "heading text"]


@pytest.mark.parametrize(("title", "said"), [
    ("#", "is empty"), ("# ", "is empty"), ("#   #", "is empty"),
    ("# \u200b", "shows nothing (only U+200B)"),
    ("# \u200b\u2060\ufeff", "shows nothing (only U+200B, U+2060, U+FEFF)"),
    ("# \u3164", "shows nothing (only U+3164)"),
    ("# []()", "shows no text ('[]()' is markup around none)"),
], ids=["hash", "hash-space", "closed", "zero-width-space", "invisible", "hangul-filler",
        "empty-link"])
def test_an_empty_page_title_is_an_input_error_at_its_line(
        project: Path, title: str, said: str) -> None:
    """A title that shows nothing: an error at its line (the page would have an
    empty <h1> and <title>, and an empty link in every navigation)."""
    (project / "content" / "blank.md").write_text(
        f"---\norder: 5\n---\n\n{title}\n\nText.\n", encoding="utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"content/blank.md:5: the page's title {said}; expected its text after '# '"]


@pytest.mark.parametrize("title", ["# ♠", "# `x`", "# 51", "# ?"])
def test_a_title_of_one_symbol_is_a_title(project: Path, title: str) -> None:
    (project / "content" / "short.md").write_text(f"{title}\n\nText.\n", encoding="utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 0, result.stdout


def test_page_without_title(project: Path) -> None:
    (project / "content" / "extra.md").write_text("Just text.\n", encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert "content/extra.md:1:1: the page has no title" in out


def test_mixed_kinds_in_one_table(project: Path) -> None:
    replace_in(project / "content" / "rules.md", "three-kings\n",
               "three-kings\npure-run-and-joker-run\n")
    code, out = _build(project)
    assert code == 2
    assert "cases of different kinds in one table (first_meld, meld); expected one kind a " \
        "table: a cases fence for each kind" in out


def test_rule_numbers_in_prose_come_from_the_engine(built_site: Path) -> None:
    known = facts()
    assert known["rami51.threshold"] == rule_set("rami51").opening_threshold == 51
    assert known["rami.reshuffles"] == rule_set("rami51").max_reshuffles == 2
    text = parsed_page(built_site / "sk/rules/index.html").get_text(" ")
    # CLDR plural forms: 13 → "kariet" (many), never the seed page's "3 kariet".
    assert "13\xa0kariet" in text
    assert "3\xa0kariet" not in text.replace("13\xa0kariet", "")
    cs = parsed_page(built_site / "cs/rules/index.html").get_text(" ")
    assert "13\xa0karet" in cs


def test_app_choice_is_marked_in_every_locale(built_site: Path) -> None:
    labels = {}
    for lang in ("en", "cs", "sk", "et"):
        soup = parsed_page(built_site / f"{lang}/rules/index.html")
        asides = soup.select("aside.app-choice")
        assert len(asides) >= 3
        labels[lang] = asides[0].select_one(".app-choice__label").get_text()
    assert labels["en"] == "Rule chosen by the app"
    assert len(set(labels.values())) == 4  # translated everywhere


def test_raw_html_in_markdown_is_inert(project: Path) -> None:
    page = project / "content" / "rules.md"
    page.write_text(page.read_text("utf-8") + '\n<script>alert(1)</script>\n\n'
                    '<img src=x onerror="alert(1)">\n', encoding="utf-8")
    code, out = _build(project)
    assert code == 0, out
    soup = BeautifulSoup((project / "site/en/rules/index.html").read_text("utf-8"),
                         "html.parser")
    scripts = [str(t.get("src")) for t in soup.find_all("script")]
    assert scripts == ["../../static/site.js"]  # only the site's own switcher script
    assert not [tag for tag in soup.find_all(True) if tag.has_attr("onerror")]


def test_links_must_name_pages_and_anchors(project: Path) -> None:
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    lines = text.count("\n")
    page.write_text(text + "\n[a](../nowhere/)\n\n[b](#no-such)\n\n[c](../first-meld/#nope)\n\n"
                    "[d](javascript:alert(1))\n\n[e](../first-meld/#the-threshold)\n",
                    encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{lines + 2}: link '../nowhere/' names no page" in out
    assert f"content/rules.md:{lines + 4}: link '#no-such': no heading or case 'no-such' " \
        "on page rules" in out
    assert f"content/rules.md:{lines + 6}: link '../first-meld/#nope'" in out
    assert f"content/rules.md:{lines + 8}: link 'javascript:alert(1)' is not a page" in out
    assert "#the-threshold" not in out


def test_links_work_from_disk(built_site: Path) -> None:
    # Each page read once: its ids, and the links it holds.
    ids: dict[Path, set[str]] = {}
    links: dict[Path, list[str]] = {}
    for html in built_site.rglob("*.html"):
        html = html.resolve()
        tags = start_tags(html.read_text("utf-8"))
        ids[html] = {attrs["id"] for _, attrs in tags if "id" in attrs}
        links[html] = [attrs["href"] for tag, attrs in tags if tag == "a" and "href" in attrs]
    checked = 0
    for html, hrefs in links.items():
        for href in hrefs:
            path, _, anchor = href.partition("#")
            if path.startswith("/"):  # a 404 page's: from the root it is served at
                assert html.name == "404.html", f"{html}: {href}"
                target = built_site.resolve() / path.lstrip("/")
            else:
                target = (html.parent / path).resolve() if path else html
            assert target.is_file(), f"{html}: {href}"
            if anchor:
                assert anchor in ids[target], href
            checked += 1
    assert checked >= 400


def test_unknown_container(project: Path) -> None:
    page = project / "content" / "rules.md"
    text = page.read_text("utf-8")
    page.write_text(text + "\n::: warning\nCareful.\n:::\n", encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert f"content/rules.md:{text.count(chr(10)) + 2}:1: unknown block '::: warning'" in out


def test_alternates_and_sitemap(built_site: Path, project: Path) -> None:
    assert not (built_site / "sitemap.xml").exists()  # needs site_url
    soup = parsed_page(built_site / "sk/rules/index.html")
    alternates = {str(link["hreflang"]): str(link["href"])
                  for link in soup.select('link[rel="alternate"]')}
    assert alternates["x-default"] == "../../en/rules/index.html"
    assert alternates["cs"] == "../../cs/rules/index.html"
    (project / "site.yaml").write_text("site_url: https://rules.example.org\n", "utf-8")
    code, out = _build(project)
    assert code == 0, out
    soup = BeautifulSoup((project / "site/cs/rules/index.html").read_text("utf-8"),
                         "html.parser")
    alternates = {str(link["hreflang"]): str(link["href"])
                  for link in soup.select('link[rel="alternate"]')}
    assert set(alternates) == {*LEAN_LOCALES, "x-default"}
    assert alternates["x-default"] == "https://rules.example.org/en/rules/"
    tree = ElementTree.parse(project / "site/sitemap.xml")  # well-formed XML
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [str(loc.text) for loc in tree.getroot().findall("s:url/s:loc", ns)]
    locales = len(alternates) - 1
    assert len(locs) == locales * 4  # home and three pages in every locale
    assert "https://rules.example.org/cs/first-meld/" in locs


def test_bad_settings(project: Path) -> None:
    (project / "site.yaml").write_text("site_url: rules.example.org\ntheme: dark\n", "utf-8")
    code, out = _build(project)
    assert code == 2
    assert "site.yaml:2:1: unknown setting 'theme'; expected one of: title, description, " \
        "languages, site_url, logo, favicon, footer, nav" in out
    assert "site.yaml:1:1: site_url 'rules.example.org' is not a web address" in out


@pytest.mark.parametrize(("front", "order", "error"), [
    ("order: 10", 10, None),
    ("order: 010", 1000, "content/p.md:2:8: front matter order is 010; expected a whole "
                         "number (write 10)"),
    ("summary: x\norder: 3_1", 1000, "content/p.md:3:8: front matter order is 3_1; expected "
                                     "a whole number (write 31)"),
    ("order: 0x1F", 1000, "content/p.md:2:8: front matter order is 0x1F; expected a whole "
                          "number"),
    ("order: 1:48", 1000, "content/p.md:2:8: front matter order is 1:48; expected a whole "
                          "number"),
    ("order: '7'", 1000, "content/p.md:2:8: front matter order is string '7'; expected a "
                         "whole number (write 7 without quotes)"),
    ("order: 1\norder: 2", None, "content/p.md:3:1: bad front matter: duplicate key 'order' "
                                 "(first at line 2, column 1); expected each key once in a "
                                 "mapping"),
])
def test_front_matter_numbers_are_what_the_author_wrote(front: str, order: int | None,
                                                        error: str | None) -> None:
    """Numbers in front matter are what the author wrote (not ``order: 010`` as 8, octal,
    or ``1:48`` as 108, as plain YAML reads them) or an input error saying what to
    write, at the value's position, as in case files."""
    data = f"---\n{front}\n---\n# Title\n\nText.\n".encode()
    page, errors = parse_page(Path("content/p.md"), "content/p.md", make_parser(), facts(),
                              data=data)
    assert (page.order if page else None) == order
    assert [e.format() for e in errors] == ([error] if error else [])


def test_no_page_says_its_stacked_rows_stand_side_by_side() -> None:
    """No page says "The table shows both games side by side" above two rows one under
    the other (cards, on a phone): the pages say one row each."""
    from tests.conftest import REPO

    said = {page.name: page.read_text(encoding="utf-8").count("side by side")
            for page in sorted((REPO / "content").glob("*.md"))}
    assert said and set(said.values()) == {0}, said
