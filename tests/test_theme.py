"""The default theme in the package: a project needs no ``templates/`` to build;
its ``templates/`` overrides the theme's templates and assets file by file, as MkDocs'
``custom_dir`` does."""

from __future__ import annotations

import gc
import json
import re
import shutil
import tomllib
import weakref
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from markupsafe import Markup

import generator.layout.paths
import generator.render.template_checks
from generator.commands.project import load_project
from generator.layout import BUILTIN_POT
from generator.layout import Layout
from generator.render.environment import ENVIRONMENTS
from generator.render.environment import make_environment
from tests.conftest import REPO
from tests.conftest import THEME
from tests.conftest import override
from tests.conftest import run_cli
from tests.test_i18n import _tiny

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the theme and its templates need."""

MARKER = "<!-- theme-override-marker -->"


def _build(project: Path) -> Path:
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


def test_a_project_of_content_and_locales_only_builds_with_the_themes_look(
        tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    assert sorted(p.name for p in project.iterdir()) == ["content", "locales"]
    site = _build(project)
    for name in ("style.css", "site.js"):
        assert (site / "static" / name).read_bytes() == (THEME / "static" / name).read_bytes()
    page = (site / "sk" / "tiny" / "index.html").read_text("utf-8")
    assert 'class="skip-link"' in page  # base.html's
    assert 'class="site-header"' in page
    assert (site / "index.html").exists()  # root.html's


def test_the_repository_keeps_no_copy_of_the_theme() -> None:
    """Its look is the package's theme; templates/ would hold only real overrides."""
    assert not (REPO / "templates").exists() or not any(
        (REPO / "templates" / p.relative_to(THEME)).exists() for p in THEME.rglob("*")
        if p.is_file())


def test_every_theme_template_compiles(tmp_path: Path) -> None:
    """The check parses the theme's templates and compiles a project's own only (what
    compiling finds, an unknown filter, a block defined twice, cannot be in a theme
    that compiles): each of the theme's compiles, in the environment the site renders
    with."""
    used = Layout.of(tmp_path).templates([])
    assert "kinds/meld.html" in used and "sitemap.xml" in used
    env = make_environment(tmp_path)
    for name, rel in used.items():
        assert rel == f"generator/theme/{name}"
        assert env.get_template(name).name == name


def test_what_only_compiling_finds_in_a_projects_template_is_a_check_error(
        tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    (project / "templates").mkdir()
    (project / "templates" / "footer.html").write_text("<p>\n{{ 1 | no_such_filter }}</p>\n",
                                                         encoding="utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "templates/footer.html:2: template syntax error: No filter named 'no_such_filter'; "
        "expected a template Jinja can parse"]


def test_an_overriding_template_is_used_and_the_theme_gives_the_others(
        tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    base = override(project, "base.html")
    base.write_text(base.read_text("utf-8").replace("<body>", f"<body>\n{MARKER}"), "utf-8")
    site = _build(project)
    page = (site / "sk" / "tiny" / "index.html").read_text("utf-8")
    assert MARKER in page
    assert 'class="site-header"' in page  # the rest of the override
    assert (site / "static" / "style.css").read_bytes() == \
        (THEME / "static" / "style.css").read_bytes()
    assert Layout.of(project).templates([])["base.html"] == "templates/base.html"
    assert Layout.of(project).templates([])["page.html"] == "generator/theme/page.html"


def test_an_override_added_after_a_build_is_used_by_the_next(tmp_path: Path) -> None:
    """The environment lives as long as the process: a theme template compiled before
    is not reused once an override is there, nor an override once it is removed."""
    project = _tiny(tmp_path, "")
    _build(project)
    (project / "templates").mkdir()
    (project / "templates" / "home.html").write_text(f"{MARKER}\n", "utf-8")
    assert (_build(project) / "sk" / "index.html").read_text("utf-8") == f"{MARKER}\n"
    (project / "templates" / "home.html").unlink()
    assert MARKER not in (_build(project) / "sk" / "index.html").read_text("utf-8")


def test_an_overriding_static_asset_is_published_instead_of_the_themes(
        tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    (project / "templates" / "static").mkdir(parents=True)
    (project / "templates" / "static" / "style.css").write_text("body { color: red }\n",
                                                                "utf-8")
    (project / "templates" / "static" / "extra.svg").write_text("<svg/>\n", "utf-8")
    site = _build(project)
    assert (site / "static" / "style.css").read_text("utf-8") == "body { color: red }\n"
    assert (site / "static" / "extra.svg").read_text("utf-8") == "<svg/>\n"
    assert (site / "static" / "site.js").read_bytes() == \
        (THEME / "static" / "site.js").read_bytes()


def test_a_static_override_that_is_not_an_input_is_an_error(tmp_path: Path) -> None:
    """The project's files keep every input check: a link out of the project does not
    replace the theme's asset, it is an error."""
    project = _tiny(tmp_path, "")
    secret = tmp_path / "secret.css"
    secret.write_text("secret\n", "utf-8")
    (project / "templates" / "static").mkdir(parents=True)
    (project / "templates" / "static" / "style.css").symlink_to(secret)
    assert [e.format() for e in load_project(project).errors] == [
        "templates/static/style.css:1: a symbolic link leading outside the project; "
        "expected a regular file inside the project (a link is followed only to one)"]


def test_check_names_a_syntax_error_in_an_override_at_its_line(tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    page = override(project, "page.html")
    lines = page.read_text("utf-8").splitlines()
    lines.insert(2, "{% if %}")
    page.write_text("\n".join(lines) + "\n", "utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "templates/page.html:3: template syntax error: Expected an expression, got 'end of "
        "statement block'; expected a template Jinja can parse"]


def test_an_override_without_a_macro_the_theme_imports_is_an_input_error(
        tmp_path: Path) -> None:
    """A ``templates/macros.html`` copied from an older theme lacks ``page_list``, which
    the theme's home and 404 pages import: ``check`` names each such import (not the
    build failing at ``generator/theme/home.html:8`` with Jinja's "does not export the
    requested name"), the override that lacks the macro and the theme's file to copy it
    from; an import of a macro no template has names no file to copy."""
    project = _tiny(tmp_path, "")
    macros = override(project, "macros.html")
    text = macros.read_text("utf-8")
    start = text.index("{%- macro page_list")
    end = text.index("{%- endmacro -%}", start) + len("{%- endmacro -%}")
    macros.write_text(text[:start] + text[end:], "utf-8")
    page = override(project, "page.html")
    page.write_text('{% from "macros.html" import card, nothing_here as x %}{{ x }}\n'
                    + page.read_text("utf-8"), "utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    missing = ("imports page_list from 'macros.html', which templates/macros.html does not "
               "define (the theme's has it: copy it from generator/theme/macros.html); "
               "expected a macro of that template")
    assert result.stdout.splitlines() == [
        f"generator/theme/404.html:2: {missing}",
        f"generator/theme/home.html:2: {missing}",
        "templates/page.html:1: imports nothing_here from 'macros.html', which "
        "templates/macros.html does not define; expected a macro of that template"]


def test_a_macro_an_imported_module_lacks_is_an_input_error(tmp_path: Path) -> None:
    """``{% import "macros.html" as m %}`` then ``m.nosuch()``: ``check`` names the use
    (the build would fail with "TemplateModule object has no attribute 'nosuch'"); a
    use the template asks about first (``is defined``) is the template's own care."""
    project = _tiny(tmp_path, "")
    page = override(project, "page.html")
    text = page.read_text("utf-8").replace(
        "{% block content %}", "{% block content %}{{ m.nosuch() }}"
        "{% if m.extra is defined %}{{ m.extra() }}{% endif %}{{ m.page_list([]) }}", 1)
    page.write_text('{% import "macros.html" as m %}\n' + text, "utf-8")
    line = 2 + text.splitlines().index(next(t for t in text.splitlines() if "m.nosuch" in t))
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"templates/page.html:{line}: uses m.nosuch of 'macros.html' (imported as m), "
        "which generator/theme/macros.html does not define; expected a macro of that "
        "template"]
    page.write_text(page.read_text("utf-8").replace("{{ m.nosuch() }}", ""), "utf-8")
    assert run_cli("check", "--project", str(project)).returncode == 0


def test_a_text_block_called_as_a_macro_is_an_input_error(tmp_path: Path) -> None:
    """A ``macros.html`` override that sets ``page_list`` as text (``{% set page_list
    %}…{% endset %}``) does not export it as a macro: each call is named, with the
    theme's file to copy the macro from (the build would fail at the theme's home page:
    "'Markup' object is not callable")."""
    project = _tiny(tmp_path, "")
    macros = override(project, "macros.html")
    text = macros.read_text("utf-8")
    start = text.index("{%- macro page_list")
    end = text.index("{%- endmacro -%}", start) + len("{%- endmacro -%}")
    macros.write_text(text[:start] + "{% set page_list %}<ul></ul>{% endset %}" + text[end:],
                      "utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    said = ("calls page_list, imported from 'macros.html', which templates/macros.html sets "
            "as text ({% set %}…{% endset %}), not as a macro (the theme's has it: copy it "
            "from generator/theme/macros.html); expected a macro of that template")
    assert result.stdout.splitlines() == [f"generator/theme/404.html:12: {said}",
                                               f"generator/theme/home.html:8: {said}"]
    build = run_cli("build", "--project", str(project))
    assert build.returncode == 2 and "not callable" not in build.stdout + build.stderr


def test_a_module_name_bound_twice_is_left_to_the_render() -> None:
    """Which binding a use of ``m`` means depends on scopes the check does not follow: a
    template that binds the name otherwise too gets no error from it."""
    from generator.render.environment import parsed_template as _parsed
    from generator.render.template_checks import _module_uses
    from generator.render.template_checks import _uses

    plain = '{% import "macros.html" as m %}{{ m.a() }}{% if m.b is defined %}{{ m.b }}{% endif %}'
    uses, calls = _module_uses(_uses(_parsed("u.html", plain, "u.html")), "m", "macros.html")
    assert [(u[1], u[2]) for u in uses] == [("a", "uses m.{} of 'macros.html' (imported as m),")]
    assert [c[1] for c in calls] == ["a"]
    for other in ("{% set m = x %}", "{% for m in xs %}{% endfor %}",
                  "{% macro f(m) %}{% endmacro %}", '{% from "x.html" import y as m %}'):
        tree = _parsed("u.html", plain + other, "u.html")
        assert _module_uses(_uses(tree), "m", "macros.html") == ([], [])


def _check_and_render(project: Path) -> tuple[int, int, list[str]]:
    """``check``'s exit status, the build's with the macro check left out (what
    rendering alone says), and check's lines."""
    checked = run_cli("check", "--project", str(project))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(generator.render.template_checks, "_missing_imports", lambda *args: [])
        patch.setattr(generator.render.template_checks, "_import_cycles", lambda *args: [])
        built = run_cli("build", "--project", str(project))
    return checked.returncode, built.returncode, checked.stdout.splitlines()


@pytest.mark.parametrize(("body", "expected"), [
    # what rendering fails on, check names
    ('{{ m["nosuch"]() }}', 2),
    ('{{ m.nosuch | default("") }}{{ m.card | d("") }}', 0),
    ("{% macro show(m) %}{{ m.nosuch() }}{% endmacro %}", 0),
    ("{% if m.page_list is callable %}{{ m.page_list([]) }}{% endif %}", 0),
], ids=["subscript", "default-filter", "parameter", "is-callable"])
def test_what_check_says_of_a_module_rendering_agrees_with(
        tmp_path: Path, body: str, expected: int) -> None:
    project = _tiny(tmp_path, "")
    page = override(project, "page.html")
    text = page.read_text("utf-8").replace("{% block content %}",
                                           "{% block content %}" + body, 1)
    page.write_text('{% import "macros.html" as m %}\n' + text, "utf-8")
    checked, built, lines = _check_and_render(project)
    assert (checked, built) == (expected, expected), lines


def test_a_macro_set_again_as_text_and_a_template_that_extends_are_read_as_jinja_runs_them(
        tmp_path: Path) -> None:
    """A ``macros.html`` that defines ``page_list`` and then sets it as text is refused
    (the later binding wins, so the build would fail); a template that extends
    ``macros.html`` exports all of its macros."""
    project = _tiny(tmp_path, "")
    macros = override(project, "macros.html")
    theme_macros = macros.read_text("utf-8")
    macros.write_text(theme_macros + "{% set page_list %}text{% endset %}\n", "utf-8")
    checked, built, lines = _check_and_render(project)
    assert (checked, built) == (2, 2)
    assert [line.split(": ", 1)[0] for line in lines] == [
        "generator/theme/404.html:12", "generator/theme/home.html:8"]
    macros.write_text(theme_macros + "{% if false %}{% set page_list %}t{% endset %}{% endif %}"
                      "\n", "utf-8")
    assert _check_and_render(project)[:2] == (0, 0)  # a possible binding: left to the render
    macros.unlink()
    (project / "templates" / "lib.html").write_text('{% extends "macros.html" %}\n', "utf-8")
    page = override(project, "page.html")
    page.write_text('{% import "lib.html" as l %}{% from "lib.html" import verdict %}\n'
                    + page.read_text("utf-8").replace(
                        "{% block content %}", "{% block content %}{{ l.verdict }}", 1),
                    "utf-8")
    assert _check_and_render(project)[:2] == (0, 0)


def test_a_missing_macro_used_twice_on_a_line_is_said_once(tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    page = override(project, "page.html")
    page.write_text('{% import "macros.html" as m %}{% if m.nosuch is callable %}'
                    "{{ m.nosuch() }}{% endif %}\n" + page.read_text("utf-8"), "utf-8")
    checked, built, lines = _check_and_render(project)
    assert (checked, built) == (2, 2)
    assert lines == ["templates/page.html:1: uses m.nosuch of 'macros.html' (imported as m), "
                     "which generator/theme/macros.html does not define; expected a macro of "
                     "that template"]


@pytest.mark.parametrize(("head", "body"), [
    # what renders, check passes
    ('{% from "macros.html" import nosuch %}', ""),
    ('{% from "macros.html" import nosuch %}',
     "{% if nosuch is defined %}{{ nosuch() }}{% endif %}"),
    ('{% import "lib.html" as m %}', "{{ m.nav_item is callable }}"),
    ('{% import "lib.html" as m %}', "{% if m.note is callable %}{{ m.note() }}{% else %}"
     "{{ m.note }}{% endif %}"),
], ids=["unused", "asked", "re-exported", "asked-if-callable"])
def test_what_renders_passes_check(tmp_path: Path, head: str, body: str) -> None:
    project = _tiny(tmp_path, "")
    (project / "templates").mkdir()
    (project / "templates" / "lib.html").write_text(
        '{% from "nav.html" import nav_item %}{% set note %}a note{% endset %}\n', "utf-8")
    page = override(project, "page.html")
    page.write_text(head + "\n" + page.read_text("utf-8").replace(
        "{% block content %}", "{% block content %}" + body, 1), "utf-8")
    assert _check_and_render(project) == (0, 0, [])


@pytest.mark.parametrize("use", ["{% set zz = dict %}{{ zz() }}",
                                 "{% macro show(zz) %}{{ zz() }}{% endmacro %}{{ show(dict) }}"],
                         ids=["set-again", "parameter"])
def test_a_text_name_imported_then_bound_again_is_left_to_the_render(
        tmp_path: Path, use: str) -> None:
    """A name imported from a template that sets it as text, then bound again (a
    ``set``, a macro's argument) and called, is not refused: it renders."""
    project = _tiny(tmp_path, "")
    macros = override(project, "macros.html")
    macros.write_text(macros.read_text("utf-8") + "{% set zz %}text{% endset %}\n", "utf-8")
    page = override(project, "page.html")
    page.write_text('{% from "macros.html" import zz %}\n' + page.read_text("utf-8").replace(
        "{% block content %}", "{% block content %}" + use, 1), "utf-8")
    assert _check_and_render(project)[:2] == (0, 0)


def test_templates_that_import_one_another_in_a_circle_are_an_input_error(
        tmp_path: Path) -> None:
    """A ``macros.html`` that imports itself is an input error for ``check`` (the build
    would fail: "maximum recursion depth exceeded"). A circle of imports at the
    modules' level is named at the import that starts it; an import inside a macro
    (run only when called) is no circle."""
    project = _tiny(tmp_path, "")
    macros = override(project, "macros.html")
    theme = macros.read_text("utf-8")
    macros.write_text('{% import "macros.html" as me %}\n' + theme, "utf-8")
    checked, built, lines = _check_and_render(project)
    assert (checked, built) == (2, 2)
    assert lines == ["templates/macros.html:1: imports 'macros.html', which leads back to it "
                     "(macros.html → macros.html); expected templates that do not import "
                     "one another in a circle"]
    (project / "templates" / "lib.html").write_text(
        '{% if true %}{% from "macros.html" import card %}{% endif %}\n', "utf-8")
    macros.write_text('{% import "lib.html" as lib %}\n' + theme, "utf-8")
    checked, built, lines = _check_and_render(project)
    assert (checked, built) == (2, 2)
    assert [line.split(": ", 1)[0] for line in lines] == ["templates/lib.html:1",
                                                         "templates/macros.html:1"]
    macros.write_text('{% macro again() %}{% import "lib.html" as lib %}{% endmacro %}\n'
                      + theme, "utf-8")
    assert _check_and_render(project) == (0, 0, [])


def test_what_a_template_exports_follows_jinjas_scopes() -> None:
    """The macro-import check counts what Jinja exports: only the module's own scope,
    ``{% if %}`` branches included (a ``set`` there counts), private ``_`` names not;
    a macro inside another macro, a loop, a block or a ``with`` does not count."""
    from generator.render.environment import parsed_template as _parsed
    from generator.render.template_checks import _exports

    source = ("{% set a = 1 %}{% if x %}{% set b = 2 %}{% elif y %}{% macro e() %}"
              "{% endmacro %}{% else %}{% set c, d = 3, 4 %}{% endif %}"
              "{% macro outer() %}{% macro inner() %}{% endmacro %}{% endmacro %}"
              "{% for i in [1] %}{% macro f() %}{% endmacro %}{% endfor %}"
              "{% block bb %}{% macro g() %}{% endmacro %}{% endblock %}"
              "{% with %}{% macro h() %}{% endmacro %}{% endwith %}"
              "{% set t %}text{% endset %}{% set _p = 1 %}{% set s = 'text' ~ x %}"
              "{% set m = outer %}{% set f = cycler(1) %}")
    exports = _exports(_parsed("scopes.html", source, "scopes.html"))
    assert sorted(exports) == ["a", "b", "c", "d", "e", "f", "m", "outer", "s", "t"]
    # never a macro: text, numbers; may be one: a macro, a name, a call's value
    assert [n for n in sorted(exports) if not exports[n]] == ["a", "b", "c", "d", "s", "t"]


def test_an_error_in_the_theme_is_named_by_its_package_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    theme = tmp_path / "theme"
    shutil.copytree(THEME, theme)
    macros = theme / "macros.html"
    macros.write_text("{% endif %}\n" + macros.read_text("utf-8"), "utf-8")
    monkeypatch.setattr(generator.layout.paths, "THEME", theme)
    project = _tiny(tmp_path, "")
    assert [e.format() for e in load_project(project).errors] == [
        "generator/theme/macros.html:1: template syntax error: Encountered unknown tag "
        "'endif'; expected a template Jinja can parse"]


def test_i18n_extract_reads_an_override_s_own_messages(tmp_path: Path) -> None:
    project = _tiny(tmp_path, "")
    assert run_cli("i18n", "extract", "--project", str(project)).returncode == 0
    pot = (project / "locales" / "messages.pot").read_text("utf-8")
    # the theme's messages are the built-in catalogs', not the site's
    assert "Skip to content" not in pot and "generator/theme/" not in pot
    assert "msgid \"Skip to content\"" in BUILTIN_POT.read_text("utf-8")
    base = override(project, "base.html")
    base.write_text(base.read_text("utf-8").replace(
        "<body>", '<body>{{ _("A message of my own") }}'), "utf-8")
    assert run_cli("i18n", "extract", "--project", str(project)).returncode == 0
    pot = (project / "locales" / "messages.pot").read_text("utf-8")
    # an override's own message is the site's; the built-in ones it uses stay built in
    assert "#: templates/base.html:25\nmsgid \"A message of my own\"" in pot
    assert "Skip to content" not in pot and "generator/theme/" not in pot


def test_every_theme_file_is_package_data() -> None:
    """MANIFEST.in grafts the whole theme and pyproject.toml makes what it grafts package
    data, so the wheel ships every theme file (tests/test_release.py builds the wheel and
    compares it with ``git ls-files generator``)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    assert config["tool"]["setuptools"]["include-package-data"] is True
    manifest = (REPO / "MANIFEST.in").read_text("utf-8").splitlines()
    assert "graft generator/theme" in manifest


def test_a_render_error_in_the_theme_is_named_by_its_package_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.commands.build import build

    theme = tmp_path / "theme"
    shutil.copytree(THEME, theme)
    page = theme / "page.html"
    page.write_text("{{ 1 // 0 }}\n" + page.read_text("utf-8"), "utf-8")
    monkeypatch.setattr(generator.layout.paths, "THEME", theme)
    report = build(_tiny(tmp_path, ""))
    assert (report.exit_code, report.lines) == (2, [
        "generator/theme/page.html:1: template error: ZeroDivisionError: integer division "
        "or modulo by zero; expected a template that renders"])


def test_an_override_of_nav_html_without_the_nav_item_macro_is_an_error(
        tmp_path: Path) -> None:
    """The site's navigation items are rendered from Python through ``nav.html``'s
    ``nav_item`` (render/site.py, SiteNav): an override without it is an error at the
    override, not a traceback."""
    from generator.commands.build import build

    project = _tiny(tmp_path, "")
    nav = override(project, "nav.html")
    nav.write_text(nav.read_text("utf-8").replace("macro nav_item(", "macro item("), "utf-8")
    report = build(project)
    assert (report.exit_code, report.lines) == (2, [
        "templates/nav.html:1: template error: the template 'nav.html' does not "
        "export the requested name 'nav_item'; expected a template that renders"])


def test_overrides_copied_from_a_theme_without_nav_html_build(tmp_path: Path) -> None:
    """A project's base.html and macros.html copied from a theme whose navigation's items
    are not in nav.html (base.html looping over ``nav`` itself; macros.html without
    ``nav_item``) build, and mark the page shown in the navigation."""
    from generator.commands.build import build

    project = _tiny(tmp_path, "")
    base = override(project, "base.html")
    text = base.read_text("utf-8")
    assert text.count("{{- nav_html }}") == 1
    base.write_text(text.replace("{{- nav_html }}", (
        "{%- for item in nav %}\n      <li><a href=\"{{ item.url }}\"{% if item.slug == "
        "current_slug | default(\"\") %} aria-current=\"page\"{% endif %}>"
        "{{ item.title_html }}</a></li>\n    {%- endfor %}\n    ")), "utf-8")
    macros = override(project, "macros.html")
    assert "nav_item" not in macros.read_text("utf-8")
    report = build(project)
    assert report.exit_code == 0, report.lines
    page = next((project / "site" / "en").glob("*/index.html")).read_text("utf-8")
    assert page.count('aria-current="page"') == 1
    assert page.count("<li><a href=") >= 1


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str | None], list[str | None]]:
    """(the names of the templates parsed, those compiled) from here on in this process,
    its memos of both emptied first; rendering kept in this process, to be counted."""
    import jinja2

    from generator.render import environment
    from generator.render import parallel

    environment.parsed_template.cache_clear()
    environment.compiled_template.cache_clear()
    monkeypatch.setattr(parallel, "PARALLEL_FROM", 10**6)
    parsed: list[str | None] = []
    compiled: list[str | None] = []
    parse = jinja2.Environment._parse
    generate = jinja2.Environment._generate

    def counting_parse(env: jinja2.Environment, source: str, name: str | None,
                       filename: str | None) -> jinja2.nodes.Template:
        if name is not None:  # Babel's extractor parses sources without a name
            parsed.append(name)
        return parse(env, source, name, filename)

    def counting_generate(env: jinja2.Environment, source: jinja2.nodes.Template,
                          name: str | None, filename: str | None,
                          defer_init: bool = False) -> str:
        compiled.append(name)
        return generate(env, source, name, filename, defer_init)

    monkeypatch.setattr(jinja2.Environment, "_parse", counting_parse)
    monkeypatch.setattr(jinja2.Environment, "_generate", counting_generate)
    return parsed, compiled


def test_a_build_parses_and_compiles_each_template_once(
        project: Path, tmp_path: Path,
        counted: tuple[list[str | None], list[str | None]]) -> None:
    """The loading's template check and the rendering share one environment (the
    loading's layout carries the build's --out, so rendering makes no second environment
    from the bare project folder that would compile every template again), and the
    check's syntax tree is what is compiled (each template is parsed once)."""
    from generator.commands.build import build

    parsed, compiled = counted
    report = build(project, tmp_path / "out", cache=False)
    assert report.exit_code == 0, report.lines
    used = sorted(Layout.of(project).templates([]))
    assert "kinds/meld.html" in used and "cases.html" in used
    assert sorted(compiled) == used
    assert sorted(parsed) == used


def test_a_process_compiles_a_template_once_for_every_project_that_uses_it(
        project: Path, tmp_path: Path,
        counted: tuple[list[str | None], list[str | None]]) -> None:
    """A second project in the same process (the tests' many projects; a copy of the
    site elsewhere) has an environment of its own, but the theme's templates it loads
    are the same texts: their code is reused, not compiled again (compiling them again
    would take a third of the test suite's time). Its own override is compiled, once, and
    shows on its pages alone."""
    from generator.commands.build import build

    parsed, compiled = counted
    assert build(project, tmp_path / "one", cache=False).exit_code == 0
    assert sorted(compiled) == sorted(Layout.of(project).templates([]))
    second = tmp_path / "second"
    shutil.copytree(project, second)
    base = override(second, "base.html")
    base.write_text(base.read_text(encoding="utf-8").replace(
        "<body", "<body data-copy", 1), encoding="utf-8")
    parsed.clear()
    compiled.clear()
    report = build(second, tmp_path / "two", cache=False)
    assert report.exit_code == 0, report.lines
    assert compiled == ["base.html"]
    assert parsed == ["base.html"]
    page = (tmp_path / "two" / "en" / "index.html").read_text(encoding="utf-8")
    assert "<body data-copy" in page
    assert "<body data-copy" not in (tmp_path / "one" / "en" / "index.html").read_text(
        encoding="utf-8")


def test_a_process_keeps_the_environments_of_its_last_projects_alone(
        tmp_path: Path) -> None:
    """One project's environment is made once and shared (the same object for every
    call); a process that goes on to other projects frees it after ENVIRONMENTS others
    (it kept every project's, templates and all: 330,000 objects in a test worker)."""
    projects = []
    for n in range(ENVIRONMENTS + 1):
        folder = tmp_path / f"p{n}"
        (folder / "content").mkdir(parents=True)
        projects.append(folder)
    first = make_environment(projects[0])
    assert make_environment(projects[0]) is first
    assert make_environment(Layout.of(projects[0])) is first
    gone = weakref.ref(first)
    del first
    for folder in projects[1:]:
        assert make_environment(folder) is make_environment(folder)
    gc.collect()
    assert gone() is None
    assert make_environment(projects[-1]) is make_environment(projects[-1])


def test_trans_blocks_in_a_project_template_render_newstyle(project: Path, tmp_path: Path) -> None:
    """``{% trans %}`` in a project's template renders as Jinja's newstyle gettext does
    (its variables by name, a literal ``%``), in a fresh process's first build: the
    templates are compiled after the locale's gettext is installed, so none is compiled
    old-style (which fails with ``KeyError: 'who'`` or ``TypeError: %c requires int or
    char``)."""
    from generator.commands.build import build
    from generator.render import environment

    environment.parsed_template.cache_clear()
    environment.compiled_template.cache_clear()
    base = override(project, "base.html")
    text = base.read_text(encoding="utf-8")
    at = text.index(">", text.index("<body")) + 1
    base.write_text(text[:at] + "{% trans who=lang %}Language is {{ who }}{% endtrans %} "
                    "{% trans %}Built with 100% care{% endtrans %}" + text[at:],
                    encoding="utf-8")
    report = build(project, tmp_path / "out", cache=False)
    assert report.exit_code == 0, report.lines
    for lang in ("en", "cs"):
        page = (tmp_path / "out" / lang / "index.html").read_text(encoding="utf-8")
        # (in Czech each message is marked as shown in English: lang="en")
        text = BeautifulSoup(page, "html.parser").get_text()
        assert f"Language is {lang} Built with 100% care" in text


def test_a_trans_block_over_several_lines_is_translated_by_its_extracted_message(
        init_project: Path) -> None:
    """A ``{% trans %}`` block written over several lines in a project's template: the
    message ``i18n extract`` writes is the one the page looks up, so its translation is
    shown (the extractor reads the templates with the whitespace options they render
    with; with Jinja's defaults it kept the block's first line break and indentation)."""
    from babel.messages.pofile import read_po
    from babel.messages.pofile import write_po

    base = override(init_project, "base.html")
    text = base.read_text(encoding="utf-8")
    at = text.index(">", text.index("<body")) + 1
    base.write_text(text[:at] + "\n  {% trans %}\n  Dealt over several lines\n  {% endtrans %}\n"
                    + text[at:], encoding="utf-8")
    assert run_cli("i18n", "extract", cwd=init_project).returncode == 0
    with (init_project / "locales" / "messages.pot").open("rb") as fh:
        extracted = [m.id for m in read_po(fh) if "several lines" in str(m.id)]
    assert extracted == ["  Dealt over several lines\n"]
    po = init_project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as fh:
        catalog = read_po(fh)
    catalog.add(extracted[0], "  Rozdáno na několik řádků\n")
    with po.open("wb") as fh:
        write_po(fh, catalog)
    assert run_cli("build", cwd=init_project).returncode == 0
    page = (init_project / "site" / "cs" / "index.html").read_text(encoding="utf-8")
    assert "Rozdáno na několik řádků" in page
    assert "Dealt over several lines" not in page


@pytest.mark.parametrize(("source", "expected"), [
    ("{{ d.title }}", "Q&lt;K"),  # a key, escaped
    ("{{ d.items() | list | length }}", "3"),  # the method before the key 'items'
    ("{{ d.get('title') }}", "Q&lt;K"),
    ("{{ d.missing is defined }}", "False"),
    ("{{ o.real }}", "3"),  # not a dict: the attribute
    ("{{ d['items'] }}", "key"),
])
def test_a_dotted_name_on_a_dict_finds_what_jinja_finds(tmp_path: Path, source: str,
                                                         expected: str) -> None:
    """``x.name`` on a view (a plain dict) gives the value Jinja's own lookup gives:
    the dict's attribute where it has one (``items``), else its key; a missing key is
    undefined (strict: an error where it is shown)."""
    from jinja2 import UndefinedError

    env = make_environment(tmp_path)
    data = {"d": {"title": "Q<K", "items": "key", "n": 1}, "o": 3}
    assert env.from_string(source).render(data) == expected
    with pytest.raises(UndefinedError):
        env.from_string("{{ d.missing }}").render(data)


MACRO_CALLS = (
    "{% macro m(x, y=2) %}{{ x }}-{{ y }}{% endmacro %}"
    "{% for i in range(3) %}{{ m(i) }}{{ m(x=i, y=loop.index) }}{% endfor %}"
    "{% macro w() %}[{{ caller() }}]{% endmacro %}{% call w() %}in{% endcall %}"
    "{% macro v() %}{{ varargs | length }}{{ kwargs | length }}{% endmacro %}"
    "{{ v(1, 2, a=3) }}{% set n = namespace(k=0) %}{% for c in 'ab' %}"
    "{% set n.k = n.k + 1 %}{{ m(c, n.k) }}{% endfor %}{{ 'x' | e }}{{ dict(a=1).a }}"
    "{{ m('<a>', '&') }}{{ m(1, 2) ~ '<' }}{% macro o(a, b) %}{{ m(a, b) }}|{{ a }}"
    "{% endmacro %}{{ o('<', 3) }}{{ m(7, 8) | length }}"
)


def test_a_macro_is_called_as_jinja_calls_it(tmp_path: Path) -> None:
    """The site's context calls a macro straight away, with what Jinja's own context
    would give it: positional, keyword and default arguments, the loop's variables,
    ``caller``, ``varargs`` and ``kwargs``; anything else through Jinja's own call."""
    from jinja2 import Environment
    from jinja2.runtime import Context

    from generator.render.environment import SiteContext

    env = make_environment(tmp_path)
    assert env.context_class is SiteContext
    ours = env.from_string(MACRO_CALLS).render()
    plain = Environment(autoescape=True)
    assert plain.context_class is Context
    assert ours == plain.from_string(MACRO_CALLS).render()
    assert ours == "0-20-11-21-22-22-3[in]21a-1b-2x1&lt;a&gt;-&amp;1-2&lt;&lt;-3|&lt;3"


def test_a_macro_given_each_argument_by_position_is_called_straight_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its function runs without :meth:`Macro.__call__` (and gives Markup); one given a
    keyword, fewer arguments, or ``caller`` goes through it."""
    from jinja2.runtime import Macro

    called: list[str] = []
    jinja_call = Macro.__call__

    def watched(self: Macro, *args: Any, **kwargs: Any) -> Any:
        called.append(self.name)
        return jinja_call(self, *args, **kwargs)

    monkeypatch.setattr(Macro, "__call__", watched)
    env = make_environment(tmp_path)
    template = env.from_string(
        "{% macro m(x, y=2) %}<{{ x }}-{{ y }}>{% endmacro %}"
        "{% macro w() %}[{{ caller() }}]{% endmacro %}"
        "{{ m('&', 1) }}{{ m(3) }}{{ m(x=4, y=5) }}{% call w() %}in{% endcall %}")
    assert template.render() == "<&amp;-1><3-2><4-5>[in]"
    assert called == ["m", "m", "w"]


class _Html:
    """A value with its own HTML (``__html__``), as a library's safe value has."""

    def __html__(self) -> str:
        return "<b>own</b>"


class _Text(str):
    """A str subclass: escaped as text, as ``escape`` escapes it."""


ESCAPED = ("", "plain", "Q♥ K♥ A♥", "<a href='x'>&amp; \"q\"</a>", "&&<<>>''\"\"",
           "a\x00b", "\u2028\U0001f0a1")


@pytest.mark.parametrize("value", [
    *ESCAPED, *(Markup(v) for v in ESCAPED), _Text("<i>"), 31, 2.5, None, True,
    _Html(), [1, "<"]])
def test_a_templates_escape_gives_what_markupsafe_gives(value: object) -> None:
    from markupsafe import escape

    from generator.render.environment import template_escape

    ours = template_escape(value)
    assert (type(ours), ours) == (Markup, escape(value))


def test_every_template_writes_through_the_sites_escape(tmp_path: Path) -> None:
    """A template of the site's environment (loaded, or made from a string) calls
    :func:`template_escape` where Jinja's code calls ``escape``, and writes what a plain
    autoescaping Jinja writes."""
    from jinja2 import Environment

    from generator.render.environment import template_escape

    env = make_environment(REPO)
    source = MACRO_CALLS + "{{ t }}{{ s }}{{ n }}{{ m }}{{ h }}{{ _('Verdict') }}"
    values = {"t": "<&'\">", "s": Markup("<b>x</b>"), "n": 7, "m": _Text("<i>"), "h": _Html()}
    before = env.globals.get("_")
    env.globals["_"] = lambda text: text
    try:
        made = env.from_string(source)
        loaded = env.get_template("macros.html")
        for template in (made, loaded):
            assert template.root_render_func.__globals__["escape"] is template_escape
        plain = Environment(autoescape=True)
        plain.globals["_"] = lambda text: text
        assert made.render(values) == plain.from_string(source).render(values)
    finally:
        if before is None:
            del env.globals["_"]
        else:
            env.globals["_"] = before


def test_gettext_is_called_as_jinja_calls_it() -> None:
    """The site's context calls the installed ``_``, ``gettext`` and ``ngettext`` with
    its evaluation context straight away, with what Jinja's own call gives them."""
    from jinja2 import Environment

    from generator.render.environment import _new_environment
    from generator.render.environment import install_gettext

    source = ("{{ _('a <%(x)s>', x='<b>') }}|{{ gettext('plain') }}|"
              "{{ ngettext('one %(num)d', '%(num)d & more', 3) }}|"
              "{% trans n=2 %}{{ n }} <cards>{% endtrans %}|{{ _('100%%') }}")

    def gettext(text: str) -> str:
        return f"[{text}]"

    def ngettext(one: str, many: str, n: int) -> str:
        return one if n == 1 else many

    ours = _new_environment()
    install_gettext(ours, gettext, ngettext)
    assert ours.gettext_calls == (ours.globals["_"], ours.globals["ngettext"])
    plain = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    plain.install_gettext_callables(gettext, ngettext, newstyle=True)  # type: ignore[attr-defined]
    assert ours.from_string(source).render() == plain.from_string(source).render()
    assert ours.from_string(source).render() == (
        "[a <&lt;b&gt;>]|[plain]|3 & more|[2 <cards>]|[100%]")


def test_a_template_nested_too_deep_for_jinja_is_an_input_error(init_project: Path) -> None:
    """Expressions nested deeper than Jinja's parser recurses are a template error at the
    template's first line for ``check``, ``build`` and ``i18n extract``, not a failure
    of the generator."""
    (init_project / "templates").mkdir()
    extra = init_project / "templates" / "extra.html"
    said = ("templates/extra.html:1: template syntax error: nested too deep for Jinja "
            "(parentheses, calls, filters or blocks within one another); expected a "
            "template Jinja can parse")
    for source in ("{{ " + "(" * 300 + "1" + ")" * 300 + " }}\n",  # the parser recurses
                   "{{ " + "+".join(["1"] * 3000) + " }}\n",  # parsed; too deep to walk
                   "{% for i in [1] %}" * 21 + "x" + "{% endfor %}" * 21 + "\n",  # Python
                   "{% if x %}" * 120 + "x" + "{% endif %}" * 120 + "\n"):  # refuses
        extra.write_text(source, encoding="utf-8")
        for command in (["check"], ["build"], ["i18n", "extract"]):
            result = run_cli(*command, cwd=init_project)
            assert result.returncode == 2, (command, source[:20])
            assert said in result.stdout.splitlines() + result.stderr.splitlines(), \
                (command, source[:20], result.stdout + result.stderr)
            assert "the generator failed" not in result.stdout + result.stderr


def test_a_macro_imported_without_context_says_each_pages_language(
        init_project: Path) -> None:
    """A site's macro imported the way Jinja's documentation writes it, without context
    (Jinja keeps such a module from its first use), says each page's language, not the
    language of the first page rendered."""
    (init_project / "templates").mkdir(exist_ok=True)
    (init_project / "templates" / "mine.html").write_text(
        '{% macro hint() %}<span class="mine">{{ _("Search the rules") }}</span>'
        "{% endmacro %}\n", encoding="utf-8")
    base = override(init_project, "base.html")
    text = base.read_text(encoding="utf-8")
    at = text.index(">", text.index("<body")) + 1
    base.write_text('{% import "mine.html" as mine %}' + text[:at] + "{{ mine.hint() }}"
                    + text[at:], encoding="utf-8")
    assert run_cli("build", cwd=init_project).returncode == 0
    for lang, said in (("en", "Search the rules"), ("cs", "Hledat v\u00a0pravidlech")):
        page = BeautifulSoup((init_project / "site" / lang / "index.html").read_text(
            encoding="utf-8"), "html.parser")
        assert [span.get_text() for span in page.select("span.mine")] == [said], lang


def _czech_pages_built(project: Path) -> dict[str, tuple[BeautifulSoup, str | None]]:
    """``build`` in ``project`` (a new site, English and Czech), then its Czech home page
    and content page, each with its footer's sentence counting the passages shown in
    English (``None``: none)."""
    result = run_cli("build", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    found = {}
    for rel in ("cs/index.html", "cs/melds/index.html"):
        page = BeautifulSoup((project / "site" / rel).read_text(encoding="utf-8"),
                             "html.parser")
        footer = page.select_one(".site-footer__untranslated")
        found[rel] = (page, None if footer is None else footer.get_text())
    return found


def test_a_pages_footer_counts_a_message_in_english_once_per_context(
        init_project: Path) -> None:
    """Two contexts of one message (``pgettext("menu", "Open")``, ``pgettext("door",
    "Open")``), both untranslated, are two passages in English on a page, as the
    build's coverage line counts them: the footer counted them once (by msgid)."""
    base = override(init_project, "base.html")
    text = base.read_text(encoding="utf-8")

    def footer_count(added: str) -> int:
        at = text.index(">", text.index("<body")) + 1
        base.write_text(text[:at] + added + text[at:], encoding="utf-8")
        _page, footer = _czech_pages_built(init_project)["cs/melds/index.html"]
        return 0 if footer is None else int(re.findall(r"\d+", footer)[0])

    before = footer_count("")
    one = footer_count('<i>{{ pgettext("menu", "Open") }}</i>')
    both = footer_count('<i>{{ pgettext("menu", "Open") }}</i>'
                        '<i>{{ pgettext("door", "Open") }}</i>')
    assert (one - before, both - before) == (1, 2)


def test_a_home_pages_footer_counts_the_themes_passages_in_english_too(
        init_project: Path) -> None:
    """A locale's home page counts the theme's messages it shows in English, as the
    other pages do: it counted only the pages' titles and summaries, so an untranslated
    message of the frame (``base.html``) was marked on it but not counted."""
    base = override(init_project, "base.html")
    text = base.read_text(encoding="utf-8")
    at = text.index(">", text.index("<body")) + 1
    base.write_text(text[:at] + '<i>{{ _("A passage of our own") }}</i>' + text[at:],
                    encoding="utf-8")
    counts = {}
    for rel, (page, footer) in _czech_pages_built(init_project).items():
        assert "A passage of our own" in [m.get_text() for m in page.select('[lang="en"]')]
        counts[rel] = footer
    assert counts == dict.fromkeys(counts, "1\u00a0pasáž na této stránce zatím není "
                                   "přeložena a\u00a0zobrazuje se anglicky.")
    assert run_cli("build", "--out", str(init_project / "clean"), "--no-cache",
                   cwd=init_project).returncode == 0
    assert (init_project / "clean" / "cs" / "index.html").read_bytes() == \
        (init_project / "site" / "cs" / "index.html").read_bytes()


def test_a_setting_in_english_counts_only_on_the_pages_that_show_it(
        init_project: Path) -> None:
    """``site.yaml``'s ``description``, left untranslated, is shown (in English) on the
    home page alone: the home page's footer counts it, a content page's does not (every
    page counted it, one passage more than it showed)."""
    settings = init_project / "site.yaml"
    settings.write_text(settings.read_text(encoding="utf-8")
                        + 'description: "Our own description of the site."\n',
                        encoding="utf-8")
    shown = {rel: ("Our own description of the site." in page.get_text(),
                   None if footer is None else footer[:1])
             for rel, (page, footer) in _czech_pages_built(init_project).items()}
    assert shown == {"cs/index.html": (True, "1"), "cs/melds/index.html": (False, None)}


def test_a_template_may_print_copy_and_serialize_the_settings(init_project: Path) -> None:
    """``site`` is still a dict to a template: ``{{ site }}``, ``site|tojson`` and
    ``site.copy()`` give the settings as before (an object of its own failed to
    serialize, had no ``copy`` and printed its address, a new one each build), and a
    cached build is a clean one's."""
    page = override(init_project, "page.html")
    text = page.read_text(encoding="utf-8")
    at = text.rindex("{% endblock %}")
    page.write_text(text[:at] + '<pre id="s">{{ site }}</pre><pre id="j">{{ site|tojson }}'
                    '</pre><i id="c">{{ site.copy()|length }}</i>' + text[at:],
                    encoding="utf-8")
    for extra in ((), ("--out", "clean", "--no-cache")):
        result = run_cli("build", *extra, cwd=init_project)
        assert result.returncode == 0, result.stdout + result.stderr
    built = (init_project / "site" / "cs" / "melds" / "index.html").read_bytes()
    assert built == (init_project / "clean" / "cs" / "melds" / "index.html").read_bytes()
    html = BeautifulSoup(built.decode("utf-8"), "html.parser")
    assert json.loads(html.select_one("#j").get_text())["title"] == "Pravidla rummy"
    assert html.select_one("#s").get_text().startswith("{'title': 'Pravidla rummy'")
    assert html.select_one("#c").get_text() == "7"


def test_messages_with_a_context_in_a_sites_template_are_translated(
        init_project: Path) -> None:
    """``pgettext``, ``npgettext`` and ``{% trans "context" %}`` in a site's template:
    ``i18n extract`` lists them with their context, and each page shows its language's
    translation of that context (the build failed with "'NoneType' object is not
    callable": no context callables were installed)."""
    from babel.messages.pofile import read_po
    from babel.messages.pofile import write_po

    base = override(init_project, "base.html")
    text = base.read_text(encoding="utf-8")
    at = text.index(">", text.index("<body")) + 1
    base.write_text(text[:at] + '<span class="p">{{ pgettext("menu", "Open") }}</span>'
                    '<span class="np">{{ npgettext("table", "%(num)d row", "%(num)d rows", '
                    '3) }}</span><span class="t">{% trans "menu" %}Close{% endtrans %}'
                    "</span>" + text[at:], encoding="utf-8")
    assert run_cli("i18n", "extract", cwd=init_project).returncode == 0
    with (init_project / "locales" / "messages.pot").open("rb") as fh:
        extracted = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                     for m in read_po(fh)}
    assert {("menu", "Open"), ("table", "%(num)d row"), ("menu", "Close")} <= extracted
    po = init_project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as fh:
        catalog = read_po(fh)
    catalog.add("Open", "Otevřít", context="menu")
    catalog.add("Close", "Zavřít", context="menu")
    catalog.add(("%(num)d row", "%(num)d rows"),
                ("%(num)d řádek", "%(num)d řádky", "%(num)d řádků"), context="table")
    with po.open("wb") as fh:
        write_po(fh, catalog)
    result = run_cli("build", cwd=init_project)
    assert result.returncode == 0, result.stdout + result.stderr
    for lang, said in (("en", ["Open", "3 rows", "Close"]),
                       ("cs", ["Otevřít", "3 řádky", "Zavřít"])):
        page = BeautifulSoup((init_project / "site" / lang / "index.html").read_text(
            encoding="utf-8"), "html.parser")
        assert [page.select_one(f"span.{c}").get_text() for c in ("p", "np", "t")] == said
