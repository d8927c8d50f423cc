"""``check`` is as strict as ``build`` (docs/site.md, "Command line"), and what it says.

In process: :func:`generator.cli.main` with arguments, its output captured.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.cli import main
from generator.content.rule_numbers import facts
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from tests.conftest import THEME
from tests.conftest import override

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of what check and build say need."""


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    """Run the command line; (exit status, standard output's lines)."""
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().out.splitlines()


def _append(path: Path, text: str) -> int:
    """Append ``text`` to ``path``; the 1-based line its first line lands on."""
    old = path.read_text(encoding="utf-8")
    if not old.endswith("\n"):
        old += "\n"
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def _insert_line(path: Path, number: int, text: str) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    lines.insert(number - 1, text)
    path.write_text("\n".join(lines), encoding="utf-8")
    return number


def _broken_catalog(project: Path) -> str:
    line = _append(project / "locales/cs/LC_MESSAGES/messages.po",
                   '\nmsgid "Never closed"\nmsgstr "neuzavřeno\n') + 2
    return (f"locales/cs/LC_MESSAGES/messages.po:{line}: bad .po syntax: "
            "'msgstr \"neuzavřeno'; expected a keyword (msgctxt, msgid, msgid_plural, "
            "msgstr, msgstr[N]) and a quoted \"string\", or a quoted continuation line")


def _broken_link(project: Path) -> str:
    line = _append(project / "content/rules.md", "\nSee [the rules](../no-such-page/).\n") + 1
    pages = ", ".join(f"../{p.stem}/" for p in sorted((project / "content").glob("*.md")))
    return (f"content/rules.md:{line}: link '../no-such-page/' names no page; expected one "
            f"of: {pages}")


def _broken_anchor(project: Path) -> str:
    line = _append(project / "content/rules.md", "\nSee [the rules](#no-such-anchor).\n") + 1
    return (f"content/rules.md:{line}: link '#no-such-anchor': no heading or case "
            "'no-such-anchor' on page rules; expected one of the ")


def _unknown_case(project: Path) -> str:
    line = _append(project / "content/rules.md", "\n```cases\nno-such-case\n```\n") + 2
    return (f"content/rules.md:{line}: unknown case id 'no-such-case'; expected an id from "
            "content/examples/")


def _template_syntax(project: Path) -> str:
    line = _insert_line(override(project, "home.html"), 2, "{{ page.title ( }}")
    return (f"templates/home.html:{line}: template syntax error: unexpected '}}', expected "
            "')'; expected a template Jinja can parse")


def _missing_include(project: Path) -> str:
    line = _insert_line(override(project, "page.html"), 2, '{% include "nope.html" %}')
    names = ", ".join(sorted(p.relative_to(THEME).as_posix()  # the project's and the theme's
                             for pattern in ("*.html", "*.xml") for p in THEME.rglob(pattern)
                             if p.relative_to(THEME).parts[0] != "static"))
    return (f"templates/page.html:{line}: template 'nope.html' not found; expected one of: "
            f"{names}")


def _bad_site_url(project: Path) -> str:
    (project / "site.yaml").write_text("site_url: 5\n", encoding="utf-8")
    return ("site.yaml:1:1: site_url 5 is not a web address (not text); expected the absolute "
            "http(s) address of the site's root folder, e.g. https://rules.example.org/")


def _site_yaml_syntax(project: Path) -> str:
    (project / "site.yaml").write_text("site_url: [https://x.org/\n", encoding="utf-8")
    return "site.yaml:2:1: YAML syntax error: expected ',' or ']', but got '<stream end>' " \
        "(while parsing a flow sequence at line 1); expected valid YAML (close the '[' " \
        "with ']' and separate the items with ',')"


BREAKS: dict[str, Callable[[Path], str]] = {
    "catalog": _broken_catalog,
    "page-link": _broken_link,
    "page-anchor": _broken_anchor,
    "unknown-case-in-page": _unknown_case,
    "template-syntax": _template_syntax,
    "template-include": _missing_include,
    "site-url": _bad_site_url,
    "site-yaml-syntax": _site_yaml_syntax,
}


@pytest.mark.parametrize("kind", sorted(BREAKS))
def test_check_reports_every_input_error_build_reports(
    project: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    expected = BREAKS[kind](project)
    code, check_lines = _run(capsys, "check", "--project", str(project))
    assert code == 2
    assert len(check_lines) == 1, check_lines
    assert check_lines[0].startswith(expected), check_lines[0]
    if not expected.endswith(" "):  # else a prefix: the rest lists names
        assert check_lines[0] == expected
    build_code, build_lines = _run(capsys, "build", "--project", str(project))
    assert build_code == 2
    assert build_lines == check_lines  # the same validation stage, the same words
    assert not (project / "site").exists()
    json_code, json_lines = _run(capsys, "check", "--project", str(project), "--format", "json")
    assert json_code == 2
    [error] = json.loads("\n".join(json_lines))["errors"]
    where = f"{error['file']}:{error['line']}" + (
        f":{error['column']}" if error["column"] is not None else "")
    assert f"{where}: {error['message']}" == check_lines[0]


# -- what check says ----------------------------------------------------------


def _flip_verdict(project: Path, file: str, case_id: str, old: str, new: str) -> None:
    path = project / file
    text = path.read_text(encoding="utf-8")
    at = text.index(old, text.index(f"- id: {case_id}\n"))
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")


@pytest.mark.parametrize(("file", "case_id", "old", "new", "reason"), [
    ("content/examples/melds-rami.yaml", "king-ace-two-hearts", "verdict: invalid",
     "verdict: valid", "wraps_around"),
    ("content/examples/layoffs.yaml", "layoff-second-king-of-hearts", "verdict: invalid",
     "verdict: valid", "breaks_meld"),
    ("content/examples/jokers.yaml", "swap-nine-for-joker", "verdict: rejected",
     "verdict: allowed", "wrong_card"),
])
def test_the_reason_of_an_invalid_meld_layoff_or_swap_is_said_once(
    project: Path, capsys: pytest.CaptureFixture[str], file: str, case_id: str, old: str,
    new: str, reason: str,
) -> None:
    _flip_verdict(project, file, case_id, old, new)
    because = Words(source_translator()).code("reason", reason)
    code, lines = _run(capsys, "check", "--project", str(project), "--format", "json")
    assert code == 1
    [found] = json.loads("\n".join(lines))["disagreements"]
    assert (found["case"], found["field"]) == (case_id, "verdict")
    assert found["reasoning"].count(because) == 1
    assert len(set(found["reasoning"])) == len(found["reasoning"])
    code, lines = _run(capsys, "check", "--project", str(project))
    assert code == 1
    assert lines[1:] == [f"    {text}" for text in found["reasoning"]]


def test_an_unknown_placeholder_gets_a_did_you_mean(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _append(project / "content/rules.md", "\nAt most {rami.turn_limt} turns.\n") + 1
    code, lines = _run(capsys, "check", "--project", str(project))
    assert code == 2
    assert lines == [
        f"content/rules.md:{line}:9: unknown placeholder {{rami.turn_limt}}; expected one of "
        f"the {len(facts())} placeholders (did you mean 'rami.turn_limit'?)"]


def test_i18n_extract_names_the_broken_template(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = _template_syntax(project)
    code, lines = _run(capsys, "i18n", "extract", "--project", str(project))
    assert code == 2
    assert lines == [expected]  # as check and build name it


def test_files_published_as_they_are_are_no_templates(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """templates/root/ and templates/static/ are copied, not rendered: Jinja's syntax
    does not apply to them."""
    for folder in ("root", "static"):
        path = project / "templates" / folder / "verify.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("<p>{{ not Jinja {% at all</p>\n", encoding="utf-8")
    assert _run(capsys, "check", "--project", str(project)) == (0, [])
    assert _run(capsys, "i18n", "extract", "--project", str(project)) == (0, [])


def test_a_misspelt_case_id_in_a_page_gets_a_did_you_mean(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _append(project / "content/rules.md", "\n```cases\nqueen-king-ace-heart\n```\n") + 2
    code, lines = _run(capsys, "check", "--project", str(project))
    assert code == 2
    assert lines == [
        f"content/rules.md:{line}: unknown case id 'queen-king-ace-heart'; expected an id "
        "from content/examples/ (did you mean 'queen-king-ace-hearts'?)",
    ]


def test_a_link_to_an_anchor_of_a_page_without_ids_says_it_has_none(
        capsys: pytest.CaptureFixture[str], project: Path) -> None:
    """hostile-input, md-bad-anchors (minor): the message ended "expected one of: " with
    nothing after it when the page had no heading or case at all."""
    (project / "content" / "plain.md").write_text(
        "# Plain\n\nNo sections here; see [this](#nowhere).\n", "utf-8")
    code, lines = _run(capsys, "check", "--project", str(project))
    assert code == 2
    assert ("content/plain.md:3: link '#nowhere': no heading or case 'nowhere' on page "
            "plain; expected one of its ids, but it has none") in lines, lines
