"""Hostile input: markup that escapes (``sitemap.xml``, locale
folder names, ``site_url``), checks that could be sidestepped (autolinks in
translations, a lone ``%`` without its ``#:`` comment, ids with a trailing newline) and
honest messages (interrupts, template errors at render time, a terminal that is not
UTF-8)."""

from __future__ import annotations

import ast
import contextlib
import itertools
import json
import os
import random
import signal as signal_module
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup

import generator.cli
import generator.errors
from generator.cases.loader import load_cases
from generator.cli import main
from generator.commands.build import build
from generator.commands.project import load_project
from generator.config import load_config
from generator.i18n.catalog import language_tag
from generator.i18n.plurals import plural_rule
from tests.conftest import EXTENDED
from tests.conftest import EXTENDED_ONLY
from tests.conftest import REPO
from tests.conftest import alive
from tests.conftest import in_child
from tests.conftest import override
from tests.test_i18n import CASES
from tests.test_i18n import PO_HEADER
from tests.test_i18n import _tiny

SITEMAP = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
           "x": "http://www.w3.org/1999/xhtml"}


# -- class 5: markup that escapes ----------------------------------------------------


def test_sitemap_is_well_formed_xml_with_an_ampersand(tmp_path: Path) -> None:
    """A ``site_url`` with ``&`` goes into <loc> through an autoescaping template, not raw."""
    project = _tiny(tmp_path, "")
    (project / "site.yaml").write_text('site_url: "https://example.org/a&b/"\n', "utf-8")
    report = build(project)
    assert report.exit_code == 0, report.lines
    root = ElementTree.parse(project / "site" / "sitemap.xml").getroot()
    locs = [loc.text for loc in root.findall("s:url/s:loc", SITEMAP)]
    assert locs == ["https://example.org/a&b/en/", "https://example.org/a&b/sk/",
                    "https://example.org/a&b/en/tiny/", "https://example.org/a&b/sk/tiny/"]
    hreflangs = [link.get("hreflang") for link in root.findall("s:url/x:link", SITEMAP)]
    assert hreflangs[:3] == ["en", "sk", "x-default"]
    assert "&amp;" in (project / "site" / "sitemap.xml").read_text("utf-8")


@pytest.mark.parametrize(("locale", "tag"), [
    ("pt_BR", "pt-BR"), ("sr_Latn", "sr-Latn"), ("sr_Latn_RS", "sr-Latn-RS"),
    ("cs@latin", "cs-Latn"), ("be@tarask", "be-tarask"), ("de@euro", "de"),
    ("ca_ES_VALENCIA", "ca-ES-valencia"), ("en", "en")])
def test_a_locale_identifier_is_written_as_a_bcp_47_tag(locale: str, tag: str) -> None:
    assert language_tag(locale) == tag


def test_pages_sitemap_and_switcher_name_a_locale_by_its_language_tag(
        tmp_path: Path) -> None:
    """A locale with a territory or a script (``pt_BR``, ``sr@latin``: gettext's and
    Babel's identifiers, the folders' names) is ``pt-BR``, ``sr-Latn`` in ``lang`` and
    ``hreflang`` (BCP 47, as HTML and search engines read them); its folder keeps the
    identifier."""
    project = _tiny(tmp_path, "")
    (project / "locales" / "sk").rename(project / "locales" / "pt_BR")
    (project / "site.yaml").write_text('site_url: "https://example.org/"\n', "utf-8")
    po = project / "locales" / "pt_BR" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text("utf-8").replace(
        "nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2)",
        "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"),
        "utf-8")
    report = build(project)
    assert report.exit_code == 0, report.lines
    site = project / "site"
    root = ElementTree.parse(site / "sitemap.xml").getroot()
    assert [link.get("hreflang") for link in root.findall("s:url/x:link", SITEMAP)][:3] == [
        "en", "pt-BR", "x-default"]
    for page in ("pt_BR/tiny/index.html", "pt_BR/index.html", "pt_BR/404.html",
                 "en/tiny/index.html", "index.html", "404.html"):
        soup = BeautifulSoup((site / page).read_text("utf-8"), "html.parser")
        langs = {str(e.get("lang")) for e in soup.select("[lang]")}
        hreflangs = {str(e.get("hreflang")) for e in soup.select("[hreflang]")}
        assert "pt_BR" not in langs | hreflangs, page
        assert "pt-BR" in hreflangs, page
    page = BeautifulSoup((site / "pt_BR/tiny/index.html").read_text("utf-8"), "html.parser")
    assert page.html is not None and page.html["lang"] == "pt-BR"
    canonical = page.select_one('link[rel="canonical"]')
    assert canonical is not None and canonical["href"] == "https://example.org/pt_BR/tiny/"


def test_a_syntax_error_in_the_sitemap_template_is_found_without_rendering(
        tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    sitemap = override(project, "sitemap.xml")
    sitemap.write_text(sitemap.read_text("utf-8") + "{% for %}\n", "utf-8")
    line = sitemap.read_text("utf-8").count("\n")
    assert [e.format() for e in load_project(project).errors] == [
        f"templates/sitemap.xml:{line}: template syntax error: Expected an expression, got "
        "'end of statement block'; expected a template Jinja can parse"]


@pytest.mark.parametrize(("url", "why"), [
    ('https://x/</loc><script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script><loc>',
     "it holds '<'"),
    ("https://example.org/?a=1&b=2", "a query or fragment"),
    ("https://example.org/a b/", "it holds ' '"),
    ('https://example.org/"x', "it holds '\"'"),
    ("javascript:alert(1)", "not http or https"),
    ("https:///path/", "no host"),
])
def test_a_crafted_site_url_is_an_input_error_at_its_line(tmp_path: Path, url: str,
                                                         why: str) -> None:
    """siteurl-xml-inject: a site_url that is not an absolute http(s) address of a folder
    is refused at its line in site.yaml."""
    quoted = url.replace("\\", "\\\\").replace('"', '\\"')
    (tmp_path / "site.yaml").write_text(f'# where we publish\nsite_url: "{quoted}"\n', "utf-8")
    config, errors = load_config(tmp_path)
    assert config.site_url is None
    assert [(e.file, e.line) for e in errors] == [("site.yaml", 2)]
    assert errors[0].message.startswith(f"site_url {url!r} is not a web address ({why}")
    assert errors[0].message.endswith("; expected the absolute http(s) address of the "
                                      "site's root folder, e.g. https://rules.example.org/")


ALIAS_BOMB = "".join(
    f"{name}: &{name} [" + ", ".join([f"*{prev}" if prev else '"lol"'] * 9) + "]\n"
    for prev, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True))


@pytest.mark.parametrize(("text", "said"), [
    ("site_url: " + "[" * 1000 + "]" * 1000 + "\n",
     "site.yaml:1:110: lists and mappings nested more than 100 levels deep; expected a "
     "few levels"),
    (ALIAS_BOMB + "site_url: *i\n",
     "site.yaml:1: aliases expand to more than 50000 values; expected each alias (*name) "
     "to repeat a small value, or the values written out"),
    ("site_url: https://a.example/\nsite_url: https://b.example/\n",
     "site.yaml:2:1: duplicate key 'site_url' (first at line 1, column 1); expected each "
     "key once in a mapping"),
    ("site_url: [https://a.example/]\n",
     "site.yaml:1:1: site_url a list is not a web address (not text); expected the absolute "
     "http(s) address of the site's root folder, e.g. https://rules.example.org/"),
    ("site_url: https://a.example/\n" + "#" * 100_000 + "\n",
     "site.yaml:1: the settings file has 100,030 bytes, more than the limit of 100,000 "
     "bytes (100 KB); expected a smaller file: keep only the settings")],
    ids=["nested", "alias-bomb", "duplicate-key", "a-list", "too-large"])
def test_site_yaml_is_read_with_the_guards_of_case_files(tmp_path: Path, text: str,
                                                        said: str) -> None:
    """site.yaml is read as case files are (``parse_yaml``, and a size limit:
    ``MAX_CONFIG_BYTES``), not by a plain ``yaml.safe_load``, which would fail on
    nesting 1,000 deep with "the generator failed: RecursionError" and no position,
    spend 27 s and 2.2 GB on 346 bytes of aliases (printing the expanded list) before a
    MemoryError, take a duplicate key silently and read 60 MB whole."""
    (tmp_path / "site.yaml").write_text(text, encoding="utf-8")
    config, errors = load_config(tmp_path)
    assert [e.format() for e in errors] == [said]
    assert config.site_url == ("https://a.example/" if "duplicate" in said else None)


HOSTILE_LOCALES = [
    'de@x" a="<script>alert(1)<',  # Babel takes anything after '@' as a modifier
    "de@a\nb",
    "de@<img src=x onerror=alert(1)>",
    "DE",  # Babel reads it as 'de': the folder name would not round-trip
    "de_de",
    "xx",
]


@pytest.mark.parametrize("name", HOSTILE_LOCALES)
def test_a_locale_folder_that_is_not_a_locale_is_refused(tmp_path: Path, name: str) -> None:
    """locale-modifier-*: the folder name goes into folder names, lang attributes and the
    sitemap; a name Babel does not know and write back the same is an input error."""
    project = _tiny(tmp_path, "")
    (project / "site.yaml").write_text("site_url: https://rules.example.org/\n", "utf-8")
    po = project / "locales" / name / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO_HEADER, encoding="utf-8")
    report = build(project)
    shown = name.encode("unicode_escape").decode("ascii")
    assert report.exit_code == 2
    assert report.lines == [f"locales/{shown}:1: the folder name '{shown}' is not a locale "
                            "Babel knows; expected a locale identifier such as cs or pt_BR"]
    assert not (project / "site").exists()


def test_i18n_update_refuses_a_locale_folder_that_is_not_a_locale(tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    (project / "locales" / "de@a\nb" / "LC_MESSAGES").mkdir(parents=True)
    assert main(["i18n", "update", "--project", str(project)]) == 2
    assert not (project / "locales" / "de@a\nb" / "LC_MESSAGES" / "messages.po").exists()
    assert not (project / "locales" / "messages.pot").exists()


@pytest.mark.parametrize("name", ["cs", "pt_BR", "zh_Hant_TW", "sr@latin"])
def test_real_locale_identifiers_are_accepted(tmp_path: Path, name: str) -> None:
    project = _tiny(tmp_path, "")
    po = project / "locales" / name / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    rule = plural_rule(name)
    po.write_text(PO_HEADER.replace("nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 "
                                    ": 2)", f"nplurals={rule.nplurals}; plural="
                                    f"{rule.expression}"), encoding="utf-8")
    loaded = load_project(project)
    assert [e.format() for e in loaded.errors] == []
    assert name in loaded.locales


# -- class 6: checks that could be sidestepped ----------------------------------------


def _catalog_errors(tmp_path: Path, body: str) -> tuple[list[str], int]:
    """The input errors of a tiny project whose sk catalog is ``PO_HEADER + body``, and
    the line of the body's last ``msgstr`` in the catalog."""
    project = _tiny(tmp_path, body)
    lines = (PO_HEADER + body).splitlines()
    last = max(n for n, line in enumerate(lines, start=1) if line.startswith("msgstr"))
    return [e.format() for e in load_project(project).errors], last


@pytest.mark.parametrize(("msgstr", "target"), [
    ("Obyčajný odsek <https://evil.example/phish>.", "https://evil.example/phish"),
    ("Obyčajný odsek, píšte <phish@evil.example>.", "mailto:phish@evil.example"),
    ("Obyčajný odsek ![.](https://evil.example/pixel.png)", "https://evil.example/pixel.png"),
    ("[Obyčajný odsek](https://evil.example/).", "https://evil.example/"),
])
def test_a_translation_may_not_add_a_link_through_an_autolink(tmp_path: Path, msgstr: str,
                                                               target: str) -> None:
    """po-ext-autolink, po-ext-email-autolink: the link-target check reads the links the
    rendered message really has (markdown-it's tokens), autolinks included."""
    errors, line = _catalog_errors(tmp_path, f'msgid "Plain paragraph."\nmsgstr "{msgstr}"\n')
    assert errors == [f"locales/sk/LC_MESSAGES/messages.po:{line}: translation's link "
                      f"targets ({target}) differ from the source's; expected none"]


def test_a_translation_keeping_its_links_and_angle_brackets_in_code_passes(
        tmp_path: Path) -> None:
    body = ('msgid "Plain paragraph."\nmsgstr "Obyčajný odsek `<https://x.example/>`, '
            'a < b."\n')
    errors, _ = _catalog_errors(tmp_path, body)
    assert errors == []


def test_a_lone_percent_in_template_text_is_caught_without_its_comment(
        tmp_path: Path) -> None:
    """po-lone-pct-noflag-template: the translator deleted '#: templates/base.html:14';
    the message is still the template's (Jinja %-formats it), so the lone % is an input
    error at the msgstr, not 'ValueError: incomplete format' at render time."""
    errors, line = _catalog_errors(tmp_path, 'msgid "Skip to content"\n'
                                             'msgstr "Preskočiť 100 %"\n')
    assert errors == [f"locales/sk/LC_MESSAGES/messages.po:{line}: a lone '%' in a message "
                      "that is %-formatted (template or code text); expected %% for a "
                      "percent sign"]


def test_a_lone_percent_in_page_text_is_fine_whatever_its_comment_says(
        tmp_path: Path) -> None:
    """Page text is never %-formatted: a '#: templates/…' comment does not make it so."""
    project = _tiny(tmp_path, '#: templates/base.html:14\nmsgid "Plain paragraph."\n'
                              'msgstr "Obyčajný odsek, 100 %."\n')
    report = build(project)
    assert report.exit_code == 0, report.lines
    assert "Obyčajný odsek, 100 %." in (project / "site/sk/tiny/index.html").read_text("utf-8")


CASE = CASES.removeprefix("cases:\n").replace("id: tiny-run", "id: {id}")
"""The tiny project's case, its id to fill in."""


def test_an_id_with_a_trailing_newline_is_refused(tmp_path: Path) -> None:
    """id-trailing-newline: the schema's pattern used $, which matches before a final
    newline."""
    examples = tmp_path / "content" / "examples"
    examples.mkdir(parents=True)
    (examples / "a.yaml").write_text("cases:\n" + CASE.format(id='"abc\\n"'), "utf-8")
    cases = load_cases(tmp_path)
    assert cases.cases == ()
    assert [e.format() for e in cases.errors] == [
        "content/examples/a.yaml:2:9: id 'abc\\n' has characters outside [a-z0-9-]; "
        "expected lowercase letters, digits and hyphens"]


def test_two_ids_with_a_trailing_newline_are_duplicates(tmp_path: Path) -> None:
    """id-dup-trailing-newline: the duplicate check was skipped for such ids, and the
    second case replaced the first in the results."""
    examples = tmp_path / "content" / "examples"
    examples.mkdir(parents=True)
    (examples / "a.yaml").write_text(
        "cases:\n" + CASE.format(id='"dup\\n"') + CASE.format(id='"dup\\n"'), "utf-8")
    messages = [e.format() for e in load_cases(tmp_path).errors]
    assert "content/examples/a.yaml:10:9: duplicate case id 'dup\\n' (first defined at " \
        "content/examples/a.yaml:2:9); expected ids unique across all case files" in messages
    assert all("\n" not in m for m in messages)


# -- class 7: honest messages ---------------------------------------------------------


def _break_template(project: Path, snippet: str) -> int:
    """Put ``snippet`` on a line of its own into templates/base.html; return its line."""
    base = override(project, "base.html")
    lines = base.read_text("utf-8").splitlines()
    lines.insert(3, snippet)
    base.write_text("\n".join(lines) + "\n", "utf-8")
    return 4


@pytest.mark.parametrize(("snippet", "what"), [
    ("{{ 1 // 0 }}", "ZeroDivisionError: integer division or modulo by zero"),
    ("{% macro r(n) %}{{ r(n) }}{% endmacro %}{{ r(1) }}",
     "RecursionError: maximum recursion depth exceeded"),
])
def test_a_template_error_at_render_time_names_the_template_line(
        tmp_path: Path, snippet: str, what: str) -> None:
    """fail-template-runtime, fail-template-recursion: only jinja2.TemplateError had a
    position; a Python error inside a template ended as 'the generator failed'."""
    project = _tiny(tmp_path, "")
    assert build(project).exit_code == 0
    before = (project / "site" / "sk" / "tiny" / "index.html").read_bytes()
    line = _break_template(project, snippet)
    report = build(project)
    # CPython words the RecursionError by where the limit is hit ("… exceeded" or
    # "… exceeded while calling a Python object"): the stack's depth, not the generator's.
    lines = [s.replace(" while calling a Python object", "") for s in report.lines]
    assert (report.exit_code, lines) == (2, [
        f"templates/base.html:{line}: template error: {what}; expected a template that "
        "renders"])
    assert (project / "site" / "sk" / "tiny" / "index.html").read_bytes() == before
    assert sorted(p.name for p in project.iterdir()) == [
        ".site.lock", "content", "locales", "site", "templates"]


def test_a_missing_file_of_the_cache_is_no_template_error(tmp_path: Path) -> None:
    """A copy in the build cache that vanishes while a build uses it is not reported as
    "templates:1: template error: FileNotFoundError": an error of a file that is no
    template's, raised outside every template, is the generator's."""
    from generator.render.errors import template_error

    project = _tiny(tmp_path, "")
    gone = FileNotFoundError(2, "No such file or directory",
                             str(tmp_path / "cache" / "blobs" / "c2" / "c2ab"))
    assert template_error(gone, project) is None


def test_a_template_error_in_a_forked_render_worker_names_the_template_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fail-parallel-runtime: the worker's ZeroDivisionError crossed the process boundary
    without its template frames."""
    import generator.render.parallel

    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 0)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    project = _tiny(tmp_path, "")
    line = _break_template(project, '{% if lang == "sk" %}{{ 1 // 0 }}{% endif %}')
    report = build(project)
    assert (report.exit_code, report.lines) == (2, [
        f"templates/base.html:{line}: template error: ZeroDivisionError: integer division "
        "or modulo by zero; expected a template that renders"])


@pytest.mark.parametrize(("name", "after"), [
    ("cases.html", "{%- macro case_row(row) -%}"),
    ("cases.html", "{%- macro cases_table(rows, kind, template, table) -%}"),
    ("kinds/meld.html", "{%- macro row(row) %}"),
], ids=["case_row", "cases_table", "kind-row"])
def test_an_error_in_a_macro_the_site_calls_names_its_template_line(
        tmp_path: Path, name: str, after: str) -> None:
    """An undefined name on line 16 of a kind's template is reported at line 16, not at
    line 64 (the line of the Python Jinja compiled it to): the macros that rows, tables
    and the navigation are rendered with are called from Python, where Jinja does not
    rewrite a traceback to the template's lines, so the generator rewrites it."""
    project = _tiny(tmp_path, "")
    template = override(project, name)
    lines = template.read_text("utf-8").splitlines()
    line = lines.index(after) + 2
    lines.insert(line - 1, "{{ no_such_thing.attr }}")
    template.write_text("\n".join(lines) + "\n", "utf-8")
    report = build(project)
    assert (report.exit_code, report.lines) == (2, [
        f"templates/{name}:{line}: template error: 'no_such_thing' is undefined; expected a "
        "template that renders"])


def test_a_macro_the_site_calls_with_other_arguments_is_its_templates_error(
        tmp_path: Path) -> None:
    """An override of nav.html whose nav_item takes one argument is the template's error
    (not 'the generator failed: TypeError')."""
    project = _tiny(tmp_path, "")
    nav = project / "templates" / "nav.html"
    nav.parent.mkdir(parents=True)
    nav.write_text("{%- macro nav_item(item) %}<li>{{ item.title_html }}</li>"
                   "{%- endmacro -%}\n", "utf-8")
    report = build(project)
    assert (report.exit_code, report.lines) == (2, [
        "templates/nav.html:1: template error: TypeError: macro 'nav_item' takes not more "
        "than 1 argument(s); expected a template that renders"])


def test_a_folder_named_like_a_template_is_an_input_error(tmp_path: Path) -> None:
    """dir-named-base-html: 'the generator failed: IsADirectoryError', no position."""
    project = _tiny(tmp_path, "")
    (project / "templates" / "base.html").mkdir(parents=True)
    assert [e.format() for e in load_project(project).errors] == [
        "templates/base.html:1: a folder where a file is expected; expected a regular file"]


def test_ctrl_c_while_the_old_site_is_removed_says_the_new_one_is_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """sigint-after-swap: the message said 'the previous site is untouched' (exit 2)
    although the new site was in place; the next build removes what is left."""
    import generator.output
    import generator.output_retire

    project = _tiny(tmp_path, "")
    assert main(["build", "--project", str(project)]) == 0
    page = project / "content" / "tiny.md"
    page.write_text(page.read_text("utf-8").replace("Plain paragraph.", "New paragraph."),
                    "utf-8")
    remove = generator.output.remove_site_folder

    def interrupted_remove(folder: Path) -> None:
        if ".old-" in folder.name:
            raise KeyboardInterrupt
        remove(folder)

    def interrupted_keep(old: Path, spare: Path | None) -> bool:
        raise KeyboardInterrupt  # while the old site is emptied to be kept as a spare

    with pytest.MonkeyPatch.context() as patched:  # (undoing monkeypatch would undo
        # conftest's XDG_CACHE_HOME too: the next build would cache in ~/.cache)
        patched.setattr(generator.output, "remove_site_folder", interrupted_remove)
        patched.setattr(generator.output_retire, "_keep_spare", interrupted_keep)
        capsys.readouterr()
        assert main(["build", "--project", str(project)]) == 130
    assert capsys.readouterr().err == ("interrupted; the new site is in place (what is left "
                                       "of the previous one is removed by the next build)\n")
    assert "New paragraph." in (project / "site/en/tiny/index.html").read_text("utf-8")
    assert [p.name[:10] for p in project.glob(".site.old-*")] == [".site.old-"]
    assert main(["build", "--project", str(project)]) == 0
    assert list(project.glob(".site.*-*")) == []


def test_ctrl_c_while_the_old_site_is_emptied_leaves_what_the_next_build_removes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The old site, kept as the next build's spare folder, loses its files marker last,
    so a Ctrl-C while it is emptied leaves no .site.old-<pid> that no later build would
    remove; a leftover holding folders alone is removed too."""
    import generator.output

    project = _tiny(tmp_path, "")
    assert main(["build", "--project", str(project)]) == 0
    page = project / "content" / "tiny.md"
    page.write_text(page.read_text("utf-8").replace("Plain paragraph.", "New paragraph."),
                    "utf-8")
    rename = os.rename

    def interrupted_rename(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if ".old-" in os.fspath(src) and "spare-site" in os.fspath(dst):
            raise KeyboardInterrupt  # emptied, not yet kept as the spare
        rename(src, dst)

    with pytest.MonkeyPatch.context() as patched:  # (see the test above)
        patched.setattr(generator.output.os, "rename", interrupted_rename)
        capsys.readouterr()
        assert main(["build", "--project", str(project)]) == 130
    assert "the new site is in place" in capsys.readouterr().err
    left = list(project.glob(".site.old-*"))
    assert len(left) == 1 and not [p for p in left[0].rglob("*") if not p.is_dir()]
    assert [p for p in left[0].rglob("*") if p.is_dir()]  # its folders are there
    page.write_text(page.read_text("utf-8").replace("New paragraph.", "Newer paragraph."),
                    "utf-8")
    assert main(["build", "--project", str(project)]) == 0
    assert list(project.glob(".site.*-*")) == []


def test_a_folder_beside_the_site_with_a_file_of_anybodys_is_never_removed(
        tmp_path: Path) -> None:
    """What a build removes beside the output is its own: a .site.old-<pid> folder with
    a file in it and no marker (not what a build leaves) stays."""
    project = _tiny(tmp_path, "")
    mine = project / ".site.old-12345" / "notes"
    mine.mkdir(parents=True)
    (mine / "todo.txt").write_text("mine", "utf-8")
    assert main(["build", "--project", str(project)]) == 0
    assert (mine / "todo.txt").read_text("utf-8") == "mine"


@pytest.mark.parametrize("signum", [signal_module.SIGINT, signal_module.SIGTERM],
                         ids=["SIGINT", "SIGTERM"])
def test_a_signal_while_the_cache_is_kept_after_the_swap_says_the_new_site_is_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], signum: int) -> None:
    """A signal that comes once the new site is in place, while the build keeps its
    outcome in the cache (the entries, the pruning), does not say 'the previous site is
    untouched'."""
    import generator.cache
    from generator.errors import Interrupted

    project = _tiny(tmp_path, "")
    assert main(["build", "--project", str(project)]) == 0
    page = project / "content" / "tiny.md"
    page.write_text(page.read_text("utf-8").replace("Plain paragraph.", "New paragraph."),
                    "utf-8")

    def interrupted_prune(self: object, blobs: object) -> None:
        raise Interrupted(signum)

    with pytest.MonkeyPatch.context() as patched:  # (see the tests above)
        patched.setattr(generator.cache.BuildCache, "prune", interrupted_prune)
        capsys.readouterr()
        assert main(["build", "--project", str(project)]) == 128 + signum
    assert capsys.readouterr().err.startswith("interrupted; the new site is in place")
    assert "New paragraph." in (project / "site/en/tiny/index.html").read_text("utf-8")
    assert main(["build", "--project", str(project)]) == 0
    assert os.environ["XDG_CACHE_HOME"].startswith(str(tmp_path))  # the test's own cache


SIGNAL_AT = """
import os, signal, sys

class SignalAt:
    '''Sends {signal} to this process when {module} is imported.'''
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            os.kill(os.getpid(), signal.{signal})
        return None

sys.meta_path.insert(0, SignalAt())
{more}
import runpy
sys.argv = ["generator", *{args!r}]
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""


def _run_signalled(signal: str, module: str | None, *args: str, more: str = ""
                   ) -> subprocess.CompletedProcess[str]:
    """``python -m generator ARGS`` in a subprocess that sends itself ``signal`` when
    ``module`` is first imported (``None``: where ``more`` says): a set moment."""
    code = SIGNAL_AT.format(signal=signal, module=module, args=list(args), more=more)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, cwd=REPO)


@pytest.mark.parametrize(("signal", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_during_start_up_says_interrupted(tmp_path: Path, signal: str,
                                                   status: int) -> None:
    """kill-serial-int, kill-parallel-int: Ctrl-C while the modules load printed a
    traceback (or nothing, exit 130); SIGTERM killed the process (-15)."""
    result = _run_signalled(signal, "generator.cli", "check", "--project", str(tmp_path))
    assert (result.returncode, result.stderr, result.stdout) == (
        status, "interrupted before anything was written\n", "")


@pytest.mark.parametrize("how", ["chained", "stopping"])
def test_a_signal_python_wrapped_in_another_error_says_interrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        how: str) -> None:
    """Python 3.11 turns an exception raised while a class is made (a field's
    ``__set_name__``, as a module loads) into a RuntimeError: a SIGTERM 0.1 s into a
    build says ``interrupted`` and 143 (not "the generator failed: RuntimeError: Error
    calling __set_name__ ..." with exit 2), whether the signal is in the error's chain
    or only known to be stopping the run."""
    def wrapped(*_args: object) -> int:
        if how == "chained":
            try:
                raise generator.errors.Interrupted(signal_module.SIGTERM)
            except KeyboardInterrupt as exc:
                raise RuntimeError("Error calling __set_name__ on 'Field'") from exc
        generator.errors.STOPPING.append(signal_module.SIGTERM)
        raise RuntimeError("Error calling __set_name__ on 'Field'")

    monkeypatch.setattr(generator.cli, "_build", wrapped)
    monkeypatch.setattr(generator.errors, "STOPPING", [])
    code = main(["build", "--project", str(tmp_path), "--out", str(tmp_path / "site")])
    err = capsys.readouterr().err
    assert code == 128 + signal_module.SIGTERM, err
    assert err.startswith("interrupted; ") and "failed" not in err


def test_a_signal_of_an_earlier_run_does_not_make_a_fault_an_interruption(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The command line starts with no signal stopping it: a fault of the generator in
    a run called in a process where an earlier run was interrupted is reported as the
    fault, exit 2."""
    def failing(*_args: object) -> int:
        raise ValueError("a fault of its own")

    monkeypatch.setattr(generator.cli, "_build", failing)
    generator.errors.STOPPING.append(signal_module.SIGINT)  # left by an earlier run
    try:
        code = main(["build", "--project", str(tmp_path), "--out", str(tmp_path / "site")])
    finally:
        generator.errors.STOPPING.clear()
    out = capsys.readouterr()
    assert code == 2, out
    assert "the generator failed: ValueError: a fault of its own" in out.out + out.err


def _holds_signals(pid: int) -> bool:
    """Whether process ``pid`` holds SIGINT (``SigBlk`` of ``/proc/PID/status``): the
    first thing ``generator/__main__.py`` does, so the generator's own code runs. A
    child between ``vfork`` and ``exec`` holds every signal, SIGUSR1 too: not yet."""
    try:
        status = Path(f"/proc/{pid}/status").read_text("ascii")
    except FileNotFoundError:  # already gone
        return True
    for line in status.splitlines():
        if line.startswith("SigBlk:"):
            held = int(line.split()[1], 16)
            return bool(held & (1 << (signal_module.SIGINT - 1))
                        and not held & (1 << (signal_module.SIGUSR1 - 1)))
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
@pytest.mark.extended
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_at_any_moment_of_start_up_says_interrupted(tmp_path: Path, name: str) -> None:
    """kill-serial-int, kill-parallel-int: a signal at a random moment in the first half
    second, from the moment the generator's code runs (Python's own start-up, ``site``
    and the ``.pth`` files, comes before it and is out of its reach), gives
    ``interrupted`` and 128 + the signal, never a traceback, a swallowed signal or a
    death by the signal.

    Each round has a cache of its own (``XDG_CACHE_HOME``), so that every build does its
    whole work (seconds) and the signal comes while it runs: with the cache of earlier
    rounds a build with no site in place took 0.23 s and could be done, its status
    decided, before the signal came (exit 0)."""
    rounds = 30 if EXTENDED else 1
    number = getattr(signal_module, name)
    chance = random.Random(number)  # one moment a round (one Random each gave one moment)
    seen = []
    for i, moment in enumerate(chance.uniform(0, 0.5) for _ in range(rounds)):
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / f"cache-{i}")}
        proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "--project",
                                 str(REPO), "--out", str(tmp_path / "site")], cwd=REPO,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        deadline = time.monotonic() + 30
        while not _holds_signals(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.0005)
        time.sleep(moment)
        proc.send_signal(number)
        _out, err = proc.communicate(timeout=120)
        seen.append((round(moment, 3), proc.returncode, err.splitlines()[-1:]))
        assert proc.returncode == 128 + number, (seen[-1], err[-2000:])
        assert "Traceback" not in err and err.startswith("interrupted"), (seen, err)


def test_the_console_script_catches_an_interrupt_from_the_start() -> None:
    """The rules-site script names the wrapper that also runs ``python -m generator``,
    not generator.cli:main, whose import runs outside any handler. (Run in a
    process of its own: the wrapper ends its process.)"""
    import tomllib

    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    module, _, name = scripts["rules-site"].partition(":")
    script = ("import importlib, sys\n"
              "import generator.cli\n"
              "def interrupted(argv=None):\n"
              "    raise KeyboardInterrupt\n"
              "generator.cli.main = interrupted\n"
              f"getattr(importlib.import_module({module!r}), {name!r})()\n"
              "print('the script returned', file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                            text=True, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (
        130, "interrupted before anything was written\n")


WRITE_SIGNALLED = """
import generator.output
write = generator.output.SiteWriter.write
def signalled_write(self, files):
    os.kill(os.getpid(), signal.SIGTERM)
    return write(self, files)
generator.output.SiteWriter.write = signalled_write
"""


def test_sigterm_during_a_build_keeps_the_previous_site(tmp_path: Path) -> None:
    """SIGTERM while the new site is written: exit 143, the previous site untouched, the
    half-written one removed."""
    project = _tiny(tmp_path, "")
    assert main(["build", "--project", str(project)]) == 0
    before = (project / "site" / "en" / "tiny" / "index.html").read_bytes()
    result = _run_signalled("SIGTERM", None, "build", "--project", str(project),
                            "--no-cache", more=WRITE_SIGNALLED)
    assert (result.returncode, result.stderr) == (
        143, "interrupted; the previous site is untouched\n")
    assert (project / "site" / "en" / "tiny" / "index.html").read_bytes() == before
    assert list(project.glob(".site.*-*")) == []


def test_an_interrupted_first_build_says_no_site_is_in_place(tmp_path: Path) -> None:
    """SIGTERM while the first site is written (there was none before): the message said
    'the previous site is untouched'; it says no site is in place, and none is."""
    project = _tiny(tmp_path, "")
    result = _run_signalled("SIGTERM", None, "build", "--project", str(project),
                            "--no-cache", more=WRITE_SIGNALLED)
    assert (result.returncode, result.stderr) == (
        143, "interrupted; no site is in place (there was none before this build)\n")
    assert not (project / "site").exists()
    assert list(project.glob(".site.*-*")) == []


CALLBACK_SIGNALLED = """
import weakref
import generator.{module}
original = generator.{module}.{function}
class Thing:
    pass
def signalled(*args, **kwargs):
    thing = Thing()
    def callback(_ref):  # Python runs the handler inside raise_signal: in the callback
        signal.raise_signal(signal.{signal})
    ref = weakref.ref(thing, callback)
    del thing
    return original(*args, **kwargs)
generator.{module}.{function} = signalled
"""


@pytest.mark.parametrize(("signal", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_inside_a_weakref_callback_still_interrupts(tmp_path: Path, signal: str,
                                                             status: int) -> None:
    """The extended round's SIGTERM at a random moment once gave exit 0: a build that
    ran to its end. Python cannot raise out of a finalizer or a weakref callback (the
    import system runs one on every import): the handler's exception was printed as
    "Exception ignored in" with a traceback, and the run went on. Such a signal is now
    delivered again outside the callback: exit 128 + the signal, no traceback."""
    project = _tiny(tmp_path, "")
    more = CALLBACK_SIGNALLED.format(module="commands.project", function="load_project",
                                     signal=signal)
    result = _run_signalled(signal, None, "check", "--project", str(project), more=more)
    assert (result.returncode, result.stderr, result.stdout) == (status, "interrupted\n", "")


@pytest.mark.extended
@pytest.mark.parametrize("encoding", [pytest.param("ascii", marks=EXTENDED_ONLY), "latin-1"])
def test_a_report_reaches_a_terminal_that_is_not_utf8_whole(tmp_path: Path,
                                                            encoding: str) -> None:
    """io-ascii-check, io-latin1-check, io-ascii-json, io-ascii-build-error: the reasoning
    line with ♥ raised UnicodeEncodeError: the rest of the report was lost, exit 2 instead
    of 1 (check and build), and --format json printed nothing. By default the check in
    Latin-1 (0.4 s of CPU a process); the extended round: every command in both
    encodings."""
    project = _tiny(tmp_path, "")
    cases = project / "content" / "examples" / "tiny.yaml"
    cases.write_text(cases.read_text("utf-8").replace("points: 31", "points: 30"), "utf-8")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    text = subprocess.run([sys.executable, "-m", "generator", "check", "--project",
                           str(project)], capture_output=True, text=True, env=env,
                          check=False, timeout=120)
    assert (text.returncode, text.stdout) == (1, (
        "content/examples/tiny.yaml:9: case tiny-run: points documented 30, engine 31\n"
        "    Q\\u2665 10 + K\\u2665 10 + A\\u2665 11 = 31\n"))
    if not EXTENDED:
        return
    built = subprocess.run([sys.executable, "-m", "generator", "build", "--project",
                            str(project)], capture_output=True, text=True, env=env,
                           check=False, timeout=120)
    assert (built.returncode, built.stdout) == (text.returncode, text.stdout)
    assert not (project / "site").exists()
    as_json = subprocess.run([sys.executable, "-m", "generator", "check", "--format", "json",
                              "--project", str(project)], capture_output=True, text=True,
                             env=env, check=False, timeout=120)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["disagreements"][0]["reasoning"] == [
        "Q♥ 10 + K♥ 10 + A♥ 11 = 31"]


def test_a_signal_as_the_status_is_decided_keeps_it_without_a_traceback() -> None:
    """A signal that comes as the command line holds the signals again at its end (its
    handler runs inside ``pthread_sigmask``, which then raises): the command's status
    stands, no traceback (as two SIGINTs about 110 ms apart could otherwise print).
    Simulated: the last ``pthread_sigmask`` call raises as that one does."""
    script = ("import signal, sys\n"
              "import generator.cli\n"
              "generator.cli.main = lambda argv=None: 0\n"
              "real = signal.pthread_sigmask\n"
              "calls = []\n"
              "def held(how, mask):\n"
              "    found = real(how, mask)\n"
              "    calls.append(how)\n"
              "    if len(calls) == 3:\n"
              "        raise KeyboardInterrupt\n"
              "    return found\n"
              "signal.pthread_sigmask = held\n"
              "from generator.__main__ import run\n"
              "run()\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                            text=True, timeout=60, check=False)
    assert (result.returncode, result.stderr) == (0, "")



INJECTED = """
import os, signal, sys, tempfile
import generator.cli
import generator.__main__ as entry
ran = []
def decided(argv=None):
    ran.append(1)
    return 3
generator.cli.main = decided
def held():
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
for at in range(1, 40):
    err, note = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.dup2(err.fileno(), 2)
        state = {"armed": False, "seen": 0, "unheld": False, "again": False}
        def profile(frame, event, arg):
            if not state["armed"] and held():  # the command line's start holds them
                state["armed"] = True
            if event == "c_call":
                state["unheld"] = not held()  # before the call: a signal may come
            if not state["armed"] or event not in ("call", "c_return"):
                return
            # Where Python runs a signal's handler: as a function starts, and as a
            # function written in C (pthread_sigmask, print) returns.
            caller = frame.f_back if event == "call" else frame
            if caller is None or caller.f_code.co_filename != entry.__file__:
                return
            if (not held()) if event == "call" else state["unheld"]:
                state["seen"] += 1
                if at <= state["seen"] <= at + 2:  # a signal, and two more at the next points
                    os.write(note.fileno(), b"after " if ran else b"before ")
                    state["again"] = True
                    raise KeyboardInterrupt
        def again(frame, event, arg):  # (a profile function that raises is taken away)
            if state["again"]:
                state["again"] = False
                sys.setprofile(profile)
            return again if frame.f_code.co_filename == entry.__file__ else None
        sys.setprofile(profile)
        sys.settrace(again)
        entry.run()
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    err.seek(0)
    note.seek(0)
    print(repr((at, note.read().decode().split(), status, err.read().decode())))
"""


def test_a_signal_at_any_point_of_the_entry_point_is_no_traceback() -> None:
    """A second Ctrl-C just as the first one's build ends, between the command line's
    return and the signals held, does not raise out of ``generator/__main__.py`` (a
    traceback, exit -2). Here a KeyboardInterrupt is raised at
    each point of the entry point where Python would run a signal's handler (a function
    starting, a C function returning) while the signals are not held, from the command
    line's start on (before it: the first instant of ``run`` and ``main``, like Python's
    own start-up), and again at the next two such points (a profile function, in a fork
    per point). Once decided, the command's status (3) stands, nothing said; before, it is
    130 and at most the message; never a traceback."""
    result = subprocess.run([sys.executable, "-c", INJECTED], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    runs = [ast.literal_eval(line) for line in result.stdout.splitlines()]
    injected = [(when, status, err) for _, when, status, err in runs if when]
    allowed = {"after": {(3, "")}, "before": {
        (130, "interrupted before anything was written\n"), (130, "")}}
    assert [run for run in injected if run[1:] not in allowed[run[0][0]]] == []
    assert {when[0] for when, _, _ in injected} == {"before", "after"}


AT_LINE = """
import _signal, runpy, sys
target, seen = int(sys.argv[1]), []

def trace(frame, event, arg):
    if frame.f_code.co_name != "<module>" or \\
            not frame.f_code.co_filename.endswith("generator/__main__.py"):
        return None
    if event == "line":
        seen.append(frame.f_lineno)
        if len(seen) == target:
            if _signal.SIGINT in _signal.pthread_sigmask(_signal.SIG_BLOCK, []):
                sys.stderr.write("held\\n")  # a Ctrl-C waits: the run goes on
            else:
                raise KeyboardInterrupt  # a Ctrl-C at this line of the top level
    return trace

sys.settrace(trace)
sys.argv = ["generator", "--help"]
runpy.run_module("generator", run_name="__main__", alter_sys=True)
"""


@pytest.mark.extended
def test_a_ctrl_c_as_the_entry_point_starts_is_no_traceback() -> None:
    """A SIGINT 23-27 ms after start, as ``generator/__main__.py`` runs ``import
    signal``, prints no traceback: the module's first statement holds the signals
    (holding them only once its imports are done would leave that gap), and a Ctrl-C
    before that is caught there. Here a KeyboardInterrupt is raised at a line of the
    module's top level where the signals are not held (a trace function, a process per
    line), from the first inside that ``try`` on (the docstring and ``try:`` before it
    are as out of reach as Python's own start-up); where they are held, the run goes on (a
    signal then waits for the handlers). By default up to the first line that holds
    them; in the extended round every line."""
    seen = []
    for target in itertools.count(3):
        result = subprocess.run([sys.executable, "-c", AT_LINE, str(target)], cwd=REPO,
                                capture_output=True, text=True, timeout=60, check=False)
        if (result.returncode, result.stderr) == (0, ""):  # past the module's last line
            break
        seen.append((target, result.returncode, result.stderr))
        if result.stderr == "held\n" and not EXTENDED:
            break
    held = [t for t, code, err in seen if (code, err) == (0, "held\n")]
    assert held and held[0] == 6, seen  # the three lines of that try: then they are held
    assert all((code, err) == (130, "interrupted before anything was written\n")
               for t, code, err in seen if t not in held), seen
    assert len(seen) >= 18 if EXTENDED else len(seen) == 4  # extended: every line


def test_a_second_signal_while_the_workers_are_stopped_waits_for_every_one(
        tmp_path: Path) -> None:
    """A second Ctrl-C while an interrupted build kills its render workers does not cut
    that short (the workers not reached would outlive the command, ``<defunct>`` after
    it exits): every worker is killed and waited for, then the signal raises. (The
    alarm and the second Ctrl-C go to a child process of the
    test's own: :func:`tests.conftest.in_child`.)"""
    import generator.render.parallel as parallel

    started = tmp_path / "workers"

    def body() -> None:
        def slow(lang: str) -> None:
            with open(started, "a", encoding="utf-8") as f:
                f.write(f"{os.getpid()}\n")
            time.sleep(60)

        kill = os.kill
        killed: list[int] = []

        def killing(pid: int, number: int) -> None:
            killed.append(pid)
            if len(killed) == 1:
                kill(os.getpid(), signal_module.SIGINT)  # the second Ctrl-C, as they stop
            kill(pid, number)

        def first_ctrl_c(number: int, frame: object) -> None:
            raise KeyboardInterrupt

        parallel._render_and_write = slow  # type: ignore[assignment]
        signal_module.signal(signal_module.SIGALRM, first_ctrl_c)
        try:
            os.kill = killing
            signal_module.setitimer(signal_module.ITIMER_REAL, 1.0)
            with pytest.raises(KeyboardInterrupt):
                list(parallel._forked(["en", "cs"], 2))
            os.kill = kill
            pids = [int(n) for n in started.read_text(encoding="utf-8").split()]
            assert sorted(killed) == sorted(pids) and len(pids) == 2
            for pid in pids:
                with pytest.raises(ChildProcessError):  # waited for: no such child any more
                    os.waitpid(pid, os.WNOHANG)
        finally:
            os.kill = kill
            signal_module.setitimer(signal_module.ITIMER_REAL, 0)
            left = started.read_text(encoding="utf-8").split() if started.exists() else []
            for pid in map(int, left):
                with contextlib.suppress(OSError):
                    kill(pid, signal_module.SIGKILL)
                    os.waitpid(pid, 0)

    in_child(body)


def test_a_second_signal_of_another_kind_keeps_the_first_ones_status() -> None:
    """SIGINT, then SIGTERM while the build cleans up, ends with 130: the clean-up's
    deferred signal does not replace the interrupt under way (which would end with 143).
    A signal that comes while an interrupt is being handled is dropped; one that comes
    in a block run in the ordinary way is raised at its end. (In a child process:
    :func:`tests.conftest.in_child`.)"""
    from generator.errors import Interrupted
    from generator.errors import signals_deferred

    def body() -> None:
        signal_module.signal(signal_module.SIGTERM, Interrupted.raise_on_signal)
        with pytest.raises(KeyboardInterrupt) as first:
            try:
                raise KeyboardInterrupt  # the first Ctrl-C
            except KeyboardInterrupt:
                with signals_deferred():
                    os.kill(os.getpid(), signal_module.SIGTERM)  # as the clean-up runs
                raise
        assert type(first.value) is KeyboardInterrupt
        with pytest.raises(Interrupted) as later, signals_deferred():
            os.kill(os.getpid(), signal_module.SIGTERM)
        assert later.value.signum == signal_module.SIGTERM

    in_child(body)


def test_a_signal_while_the_first_interrupt_unwinds_is_dropped() -> None:
    """SIGINT, then SIGTERM 4 ms later while the first interrupt unwinds through code
    outside any deferred block: the second handler does not raise over the first (which
    would end with 143). The first signal stops the run; the ones after it are dropped,
    whichever kind. (In a child process:
    :func:`tests.conftest.in_child`.)"""
    from generator.errors import Interrupted

    def body() -> None:
        for number in (signal_module.SIGINT, signal_module.SIGTERM):
            signal_module.signal(number, Interrupted.raise_on_signal)
        with pytest.raises(Interrupted) as first:
            try:
                os.kill(os.getpid(), signal_module.SIGINT)
            finally:  # unwinding: a SIGTERM, then another Ctrl-C
                os.kill(os.getpid(), signal_module.SIGTERM)
                os.kill(os.getpid(), signal_module.SIGINT)
        assert first.value.signum == signal_module.SIGINT

    in_child(body)


def test_a_signal_while_the_search_scratch_is_removed_comes_after_it(
        lean_project: Path) -> None:
    """A second signal does not cut short the removal of the build's search scratch
    folder (14 MB at 700 pages would be left behind): the removal runs whole, then the
    signal stops the build. (In a child process:
    :func:`tests.conftest.in_child`.)"""
    import generator.commands.stages as stages
    import generator.render.search as search

    def body() -> None:
        made: list[Path] = []
        scratch = search.scratch_folder
        close = search.Indexer.close

        def recorded() -> Path:
            made.append(scratch())
            return made[-1]

        def signalled(self: search.Indexer) -> None:
            os.kill(os.getpid(), signal_module.SIGINT)  # as the clean-up starts
            close(self)

        stages.scratch_folder = recorded  # type: ignore[assignment]
        search.Indexer.close = signalled  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            build(lean_project, cache=False)
        assert len(made) == 1 and not made[0].exists()
        assert not (lean_project / "site").exists()

    in_child(body)

SELF_SIGNALLING_ELSEWHERE = {("test_cache.py", "dying"),
                             ("test_forks.py", "failing_in_the_helper"),
                             ("test_forks.py", "work"),
                             ("test_forks.py", "interrupted_at_birth")}
"""Functions of the tests that signal the process they run in, which is not the test
worker: ``dying`` runs in a render worker the build forks (``PARALLEL_FROM`` 1);
``failing_in_the_helper``, ``work`` (of ``stopping_in_the_helper``) and
``interrupted_at_birth`` signal only the helper ``shared_map`` forks."""


def _self_signals(tree: ast.Module) -> list[tuple[int, str]]:
    """Each call of ``tree`` that signals its own process (``os.kill(os.getpid(), …)``,
    ``signal.raise_signal``, ``setitimer``, ``alarm``), with its line and the name of
    the function it is in, unless that function is one the module runs through
    :func:`tests.conftest.in_child` (a name given to ``in_child(...)``)."""
    in_children = {arg.id for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and isinstance(node.func, ast.Name) and node.func.id == "in_child"
                   for arg in node.args if isinstance(arg, ast.Name)}
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, functions: tuple[str, ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions = (*functions, node.name)
        if isinstance(node, ast.Call) and _signals_itself(node) and \
                not set(functions[1:]) & in_children:
            found.append((node.lineno, functions[-1] if functions else "<module>"))
        for child in ast.iter_child_nodes(node):
            visit(child, functions)

    visit(tree, ())
    return found


def _signals_itself(call: ast.Call) -> bool:
    """Whether ``call`` sends a signal to the process that runs it."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else \
        call.func.id if isinstance(call.func, ast.Name) else ""
    if name in ("raise_signal", "setitimer", "alarm"):
        return True
    first = call.args[0] if call.args else None
    return name == "kill" and isinstance(first, ast.Call) and \
        isinstance(first.func, ast.Attribute) and first.func.attr == "getpid"


def test_no_test_signals_the_worker_it_runs_in() -> None:
    """The tests share their worker process: a signal a test sends to it runs its
    handler wherever Python next checks, a garbage collector callback of another library
    included ("Exception ignored in … KeyboardInterrupt" at the end of a passing run).
    A test that signals its own process does it in a child of its own
    (:func:`tests.conftest.in_child`) or in a script run as a subprocess."""
    found = []
    for path in sorted((REPO / "tests").glob("*.py")):
        if path.name == "conftest.py":  # in_child itself, and no_hang's alarm
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found.extend((path.name, function, line) for line, function in _self_signals(tree)
                     if (path.name, function) not in SELF_SIGNALLING_ELSEWHERE)
    assert found == []


ORPHANED = """
import os, signal, sys
from pathlib import Path
import generator.render.parallel as parallel
parallel.PARALLEL_FROM = 1
pids = Path(sys.argv[2])
render = parallel._render_and_write
def recorded(lang):
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\\n")
    return render(lang)
parallel._render_and_write = recorded
forked = parallel._forked
def killed_at_the_first_locale(*args, **kwargs):
    for done in forked(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)  # as a second Ctrl-C cut the clean-up short
        yield done
parallel._forked = killed_at_the_first_locale
from generator.commands.build import build
build(Path(sys.argv[1]), cache=False)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_render_workers_end_when_their_build_dies(lean_project: Path, tmp_path: Path) -> None:
    """A build killed before it stopped its render workers (a second Ctrl-C during its
    clean-up, as ``timeout -s INT`` sends one to the process and one to its group):
    each worker reads the end of its pipe and ends, rather than wait forever holding its
    own copy of the parent's end and the output's lock (the next build would wait 60 s
    for a dead pid's build and fail)."""
    pids = tmp_path / "pids.txt"
    result = subprocess.run([sys.executable, "-c", ORPHANED, str(lean_project), str(pids)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == -signal_module.SIGKILL, result.stderr
    workers = [int(line) for line in pids.read_text(encoding="utf-8").split()]
    assert len(workers) == 2
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in workers if alive(pid)]
    for pid in left:
        os.kill(pid, signal_module.SIGKILL)
    assert left == []
