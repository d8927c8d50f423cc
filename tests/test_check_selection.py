"""``check PATH...`` and ``check --id ID...`` (docs/site.md, "Command line"): only those
case files or cases are verified, every input still validated, in every output form;
``check --strict``: the site's own messages shown in English, and warnings, exit 1."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from generator.commands import project as project_module
from generator.commands.project import Project
from generator.errors import InputWarning
from tests.conftest import replace_in
from tests.conftest import run_cli

A = """\
cases:
  - id: a-good
    kind: meld
    game: rami51
    cards: QH KH AH
    title: Good
    expect: {verdict: valid, points: 31}
  - id: a-wrong
    kind: meld
    game: rami51
    cards: JK 7S 8S
    title: Wrong
    expect:
      verdict: valid
      points: 24
"""

B = """\
cases:
  - id: b-wrong
    kind: meld
    game: rami51
    cards: QH KH AH
    title: Also wrong
    expect:
      verdict: valid
      points: 30
"""

A_WRONG = "content/examples/a.yaml:15: case a-wrong: points documented 24, engine 21"
B_WRONG = "content/examples/sub/b.yaml:9: case b-wrong: points documented 30, engine 31"


@pytest.fixture
def two_files(tmp_path: Path) -> Path:
    """A project (found by its ``site.yaml``) with ``a.yaml`` (one case agreeing, one
    not) and ``sub/b.yaml`` (one case disagreeing)."""
    root = tmp_path / "site"
    (root / "content/examples/sub").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test rules\n", encoding="utf-8")
    (root / "content/page.md").write_text(
        "# Page\n\nText.\n\n```cases\na-good\na-wrong\nb-wrong\n```\n", encoding="utf-8")
    (root / "content/examples/a.yaml").write_text(A, encoding="utf-8")
    (root / "content/examples/sub/b.yaml").write_text(B, encoding="utf-8")
    return root


def _disagreements(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"content/\S+:\d+: case ", line)]


def test_every_case_without_a_selection(two_files: Path) -> None:
    result = run_cli("check", cwd=two_files)
    assert result.returncode == 1
    assert _disagreements(result.stdout) == [A_WRONG, B_WRONG]
    assert result.stderr == ("3 cases checked: 2 disagreements, 0 input errors; check --fix "
                             "would settle the 2 disagreements\n")


@pytest.mark.parametrize(("paths", "found", "cases"), [
    (["content/examples/a.yaml"], [A_WRONG], 2),
    (["content/examples/sub/b.yaml"], [B_WRONG], 1),
    (["content/examples/sub"], [B_WRONG], 1),
    (["content/examples/sub/", "content/examples/sub/b.yaml"], [B_WRONG], 1),
    (["content/examples/sub/b.yaml", "content/examples/a.yaml"], [A_WRONG, B_WRONG], 3),
    (["."], [A_WRONG, B_WRONG], 3),
])
def test_paths_verify_only_their_case_files(two_files: Path, paths: list[str],
                                            found: list[str], cases: int) -> None:
    result = run_cli("check", *paths, cwd=two_files)
    assert result.returncode == 1
    assert _disagreements(result.stdout) == found
    settle = "the 2 disagreements" if len(found) > 1 else "the disagreement"
    assert result.stderr == (f"{cases} case{'s' * (cases > 1)} checked: {len(found)} "
                             f"disagreement{'s' * (len(found) > 1)}, 0 input errors; check "
                             f"--fix would settle {settle}\n")


def test_paths_start_from_the_current_folder_and_positions_from_the_project(
        two_files: Path, tmp_path: Path) -> None:
    here = run_cli("check", "sub/b.yaml", cwd=two_files / "content/examples")
    assert _disagreements(here.stdout) == [B_WRONG], here.stdout
    absolute = run_cli("check", "--project", str(two_files),
                       str(two_files / "content/examples/a.yaml"), cwd=tmp_path)
    assert _disagreements(absolute.stdout) == [A_WRONG], absolute.stdout


def test_a_linked_case_file_is_named_by_its_own_name(two_files: Path) -> None:
    (two_files / "content/shared.yaml").write_text(B.replace("b-wrong", "linked"),
                                                    encoding="utf-8")
    (two_files / "content/examples/link.yaml").symlink_to("../shared.yaml")
    result = run_cli("check", "content/examples/link.yaml", cwd=two_files)
    assert result.stdout.splitlines()[0] == \
        "content/examples/link.yaml:9: case linked: points documented 30, engine 31"
    assert result.stderr.startswith("1 case checked: 1 disagreement")


@pytest.mark.parametrize("ids", [["--id", "b-wrong", "a-good"],
                                 ["--id", "a-good", "--id", "b-wrong"]])
def test_ids_verify_only_those_cases(two_files: Path, ids: list[str]) -> None:
    result = run_cli("check", *ids, cwd=two_files)
    assert result.returncode == 1
    assert _disagreements(result.stdout) == [B_WRONG]
    assert result.stderr == ("2 cases checked: 1 disagreement, 0 input errors; check --fix "
                             "would settle the disagreement\n")
    agreeing = run_cli("check", "--id", "a-good", cwd=two_files)
    assert (agreeing.returncode, agreeing.stdout) == (0, "")


@pytest.mark.parametrize(("args", "line"), [
    (["content/examples/a.yml"], "content/examples/a.yml:1: no such file (did you mean "
     "'content/examples/a.yaml'?); expected a case file of the project (a .yaml file "
     "under content/examples/)"),
    (["content/page.md"], "content/page.md:1: no case file of the project; expected a "
     "case file of the project (a .yaml file under content/examples/)"),
    (["content/examples/sub/none"], "content/examples/sub/none:1: no such file; expected "
     "a case file of the project (a .yaml file under content/examples/)"),
    (["content/examples/c.yaml"], "content/examples/c.yaml:1: no such file (did you mean "
     "'content/examples/a.yaml'?); expected a case file of the project (a .yaml file "
     "under content/examples/)"),
    (["--id", "a-wrng"], "--id:1: no case has the id 'a-wrng' (did you mean 'a-wrong'?); "
     "expected one of: a-good, a-wrong, b-wrong"),
    (["content/examples/a.yaml", "--id", "a-good"], "--id:1: case ids with paths; expected "
     "case files or folders (PATH...) or case ids (--id ID...), not both"),
])
def test_a_path_or_id_the_project_lacks_is_an_input_error(two_files: Path, args: list[str],
                                                          line: str) -> None:
    result = run_cli("check", *args, cwd=two_files)
    assert result.returncode == 2
    assert line in result.stdout.splitlines(), result.stdout


def test_a_path_outside_the_project_is_an_input_error(two_files: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(A, encoding="utf-8")
    result = run_cli("check", str(outside), cwd=two_files)
    assert result.returncode == 2
    assert result.stdout == f"{outside}:1: outside the project ({two_files}); expected a " \
        "case file of the project (a .yaml file under content/examples/)\n"
    empty = two_files / "content/examples/empty"
    empty.mkdir()
    folder = run_cli("check", str(empty), cwd=tmp_path / "site")
    assert folder.stdout == "content/examples/empty:1: a folder that holds no case file; " \
        "expected a case file of the project (a .yaml file under content/examples/), or a " \
        "folder holding some\n"


def test_pages_catalogs_and_other_case_files_are_still_validated(two_files: Path) -> None:
    """A narrowed check is as strict about the inputs as a whole one: a page's broken
    link and another case file's error are reported (the cases of that file are not
    verified)."""
    (two_files / "content/page.md").write_text("# Page\n\n[Melds](../nowhere/)\n",
                                               encoding="utf-8")
    replace_in(two_files / "content/examples/a.yaml", "JK 7S 8S", "JK 7S 8X")
    result = run_cli("check", "content/examples/sub/b.yaml", cwd=two_files)
    assert result.returncode == 2
    lines = result.stdout.splitlines()
    assert lines[0].startswith("content/examples/a.yaml:11:18: unknown card '8X'"), lines
    assert lines[1].startswith("content/page.md:3: link '../nowhere/' names no page"), lines
    assert lines[2] == B_WRONG


def test_every_output_form_is_narrowed(two_files: Path, tmp_path: Path) -> None:
    selected = ("--id", "b-wrong")
    data = json.loads(run_cli("check", "--format", "json", *selected, cwd=two_files).stdout)
    assert data["cases"] == 1
    assert [(d["file"], d["case"]) for d in data["disagreements"]] == [
        ("content/examples/sub/b.yaml", "b-wrong")]
    github = run_cli("check", "--format", "github", "content/examples/a.yaml", cwd=two_files)
    assert github.returncode == 1
    assert [line.split("::")[1] for line in github.stdout.splitlines()] == [
        "error file=content/examples/a.yaml,line=15,col=7,title=disagreement"]
    junit = run_cli("check", "--format", "junit", "--output", str(tmp_path / "junit.xml"),
                    *selected, cwd=two_files)
    assert junit.returncode == 1
    suites = ElementTree.parse(tmp_path / "junit.xml").getroot()
    assert (suites.get("tests"), suites.get("failures")) == ("1", "1")


def test_fix_fixes_only_the_cases_named(two_files: Path) -> None:
    b_before = (two_files / "content/examples/sub/b.yaml").read_bytes()
    result = run_cli("check", "--fix", "--id", "a-wrong", cwd=two_files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "-      points: 24\n+      points: 21\n" in result.stdout
    assert (two_files / "content/examples/sub/b.yaml").read_bytes() == b_before
    assert result.stderr.splitlines() == ["fixed 1 case in 1 file",
                                          "1 case checked: 0 disagreements, 0 input errors"]


# -- --strict ------------------------------------------------------------------------------


def test_strict_fails_on_a_message_a_language_lacks_as_build_strict_does(
        init_project: Path, tmp_path: Path) -> None:
    page = init_project / "content/melds.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nA paragraph not translated.\n",
                    encoding="utf-8")
    assert run_cli("check", cwd=init_project).returncode == 0
    strict = run_cli("check", "--strict", cwd=init_project)
    line = ("locales/cs/LC_MESSAGES/messages.po:1: missing translation of 'A paragraph not "
            "translated.' (--strict); expected it translated")
    assert (strict.returncode, strict.stdout) == (1, line + "\n")
    assert strict.stderr == "3 cases checked: 0 disagreements, 0 input errors; 1 " \
        "untranslated or fuzzy (--strict)\n"
    build = run_cli("build", "--strict", "--out", str(tmp_path / "out"), cwd=init_project)
    assert (build.returncode, build.stdout) == (1, line + "\n")
    data = json.loads(run_cli("check", "--strict", "--format", "json",
                              cwd=init_project).stdout)
    assert data["warnings"] == [{"file": "locales/cs/LC_MESSAGES/messages.po", "line": 1,
                                 "message": line.split(":1: ")[1]}]
    github = run_cli("check", "--strict", "--format", "github", cwd=init_project)
    assert (github.returncode, github.stdout) == (1, "")
    assert github.stderr.splitlines()[0] == line


def test_strict_names_a_fuzzy_translation_at_its_line(init_project: Path) -> None:
    catalog = init_project / "locales/cs/LC_MESSAGES/messages.po"
    text = catalog.read_text(encoding="utf-8")
    title = re.search(r'^#: content/examples/melds\.yaml:\d+\nmsgid "(.+)"$', text, re.M)
    assert title is not None
    line = text[:title.start()].count("\n") + 2  # the msgid's line, after the #: line
    catalog.write_text(text.replace(title.group(0), title.group(0).replace(
        "\nmsgid", "\n#, fuzzy\nmsgid")), encoding="utf-8")
    result = run_cli("check", "--strict", cwd=init_project)
    assert result.returncode == 1
    assert result.stdout == (f"locales/cs/LC_MESSAGES/messages.po:{line + 1}: fuzzy "
                             f"translation of {title.group(1)!r} (--strict); expected it "
                             "translated\n")


def test_strict_cuts_a_long_msgid_with_an_ellipsis(init_project: Path) -> None:
    """A msgid longer than 60 characters is quoted cut, and says so with "…"."""
    catalog = init_project / "locales/cs/LC_MESSAGES/messages.po"
    note = "An ace after the king is high and is worth more than a face card."
    text = catalog.read_text(encoding="utf-8")
    assert f'\nmsgid "{note}"' in text
    catalog.write_text(text.replace(f'\nmsgid "{note}"', f'\n#, fuzzy\nmsgid "{note}"'),
                       encoding="utf-8")
    result = run_cli("check", "--strict", cwd=init_project)
    assert result.returncode == 1
    (line,) = result.stdout.splitlines()
    assert line.endswith(": fuzzy translation of 'An ace after the king is high and is worth "
                         "more than a face…' (--strict); expected it translated"), line
    data = json.loads(run_cli("check", "--strict", "--format", "json",
                              cwd=init_project).stdout)
    assert [w["message"] for w in data["warnings"]] == [line.split(": ", 1)[1]]


JOKERS_PAGE = """---
draft: true
---

# Wild cards

A paragraph not translated.

```cases
joker-run
```
"""

JOKER_CASES = """defaults:
  game: rami51
cases:
  - id: joker-run
    kind: meld
    cards: JK 7S 8S
    title: A run with a joker
    expect: {verdict: valid, type: run, points: 21}
  - id: draft-set
    kind: meld
    cards: 9C 9D 9H
    title: A set being drafted
    draft: true
    expect: {verdict: valid, type: set, points: 27}
"""


def test_strict_leaves_out_the_drafts_a_build_leaves_out(init_project: Path) -> None:
    """``check --strict`` counts what ``build --strict`` (no ``--drafts``) shows: a draft
    page's text and the cases only it shows, and a draft case's row on a published
    page, wait untranslated until they are published."""
    (init_project / "content/jokers.md").write_text(JOKERS_PAGE, encoding="utf-8")
    (init_project / "content/examples/jokers.yaml").write_text(JOKER_CASES, encoding="utf-8")
    replace_in(init_project / "content/melds.md", "three-sevens\n", "three-sevens\ndraft-set\n")
    drafted = run_cli("check", "--strict", cwd=init_project)
    assert (drafted.returncode, drafted.stdout) == (0, ""), drafted.stdout
    assert drafted.stderr == "5 cases checked: 0 disagreements, 0 input errors; 0 " \
        "untranslated or fuzzy (--strict)\n"
    replace_in(init_project / "content/jokers.md", "draft: true\n", "order: 2\n")
    published = run_cli("check", "--strict", cwd=init_project)
    assert published.returncode == 1
    assert [line.split(": ", 1)[1] for line in published.stdout.splitlines()] == [
        f"missing translation of {msgid!r} (--strict); expected it translated"
        for msgid in ("A paragraph not translated.", "A run with a joker", "Wild cards")]


def test_a_warning_is_shown_and_fails_only_under_strict(
        two_files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load = project_module.load_project

    def with_a_warning(root: Path, **kwargs: object) -> Project:
        project = load(root, **kwargs)  # type: ignore[arg-type]
        project.warnings.append(InputWarning("content/examples/a.yaml", 2,
                                             "case a-good is shown on no page"))
        return project

    monkeypatch.setattr(project_module, "load_project", with_a_warning)
    line = "content/examples/a.yaml:2: warning: case a-good is shown on no page"
    plain = run_cli("check", "--id", "a-good", cwd=two_files)
    assert (plain.returncode, plain.stdout) == (0, line + "\n")
    assert plain.stderr == "1 case checked: 0 disagreements, 0 input errors, 1 warning\n"
    strict = run_cli("check", "--strict", "--id", "a-good", cwd=two_files)
    assert (strict.returncode, strict.stdout) == (1, line + "\n")
    data = json.loads(run_cli("check", "--format", "json", "--id", "a-good",
                              cwd=two_files).stdout)
    assert data["warnings"] == [{"file": "content/examples/a.yaml", "line": 2,
                                 "message": "case a-good is shown on no page"}]
