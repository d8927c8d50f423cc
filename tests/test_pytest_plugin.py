"""The pytest plugin (generator/pytest_plugin.py, entry point ``pytest11``): on a small
project, one item per case with the id ``FILE::CASE-ID``, a disagreement failing its item
with ``check``'s text, ``--lf`` and ``-k``, ``--rules-cases``, a file's input errors, and
no case collected where none was asked for (a test suite's YAML fixtures, ``testpaths``).

Each run is in-process (pytester), with plugin autoloading off and the plugin named with
``-p``: the same whether or not this tree is installed (its entry point registered)."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from pathlib import Path

import pytest

# The loader (and PyYAML) imported with this module, before any test: pytester forgets
# the modules imported while a test runs, and PyYAML imported a second time keeps its C
# extension's classes of the first import, which the new module's isinstance checks
# refuse ("unexpected YAML node") when this file runs in a process that has not
# imported the loader before.
import generator.cases.loader  # noqa: F401
from tests.conftest import REPO

pytest_plugins = ["pytester"]

PLUGIN = ("-p", "generator.pytest_plugin")

MELDS = """\
defaults:
  game: rami51
cases:
  - id: queen-king-ace-hearts
    kind: meld
    cards: QH KH AH
    title: Queen, king and ace of hearts
    expect:
      verdict: valid
      points: 30
  - id: three-kings
    kind: meld
    cards: KH KS KD
    title: Three kings
    expect:
      verdict: valid
      points: 30
"""

DECKS = """\
cases:
  - id: rami-deck-four-players
    kind: deck
    game: rami51
    players: 4
    title: Four players
    expect: {decks: 2, jokers: 4, cards: 108, hand_size: 13}
"""


@pytest.fixture
def rules_project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A project with two case files (one case disagreeing: points 30, engine 31), a test
    of its own and a YAML fixture in the form of a case file under tests/."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.syspath_prepend(str(REPO))
    examples = pytester.path / "content" / "examples"
    examples.mkdir(parents=True)
    (examples / "melds-rami.yaml").write_text(MELDS, encoding="utf-8")
    (examples / "decks.yaml").write_text(DECKS, encoding="utf-8")
    fixtures = pytester.path / "tests" / "fixtures" / "content" / "examples"
    fixtures.mkdir(parents=True)
    (fixtures / "broken.yaml").write_text("cases: [\n", encoding="utf-8")
    (pytester.path / "tests" / "test_own.py").write_text("def test_own():\n    pass\n")
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    return pytester


def _ids(result: pytest.RunResult) -> list[str]:
    """The node ids the run lists (``-q --collect-only`` or ``-v`` lines)."""
    return [line.split(" ")[0] for line in result.outlines if "::" in line.split(" ")[0]]


def test_one_item_per_case_with_the_file_and_case_id(rules_project: pytest.Pytester) -> None:
    result = rules_project.runpytest(*PLUGIN, "content/examples", "--collect-only", "-q")
    assert _ids(result) == [
        "content/examples/decks.yaml::rami-deck-four-players",
        "content/examples/melds-rami.yaml::queen-king-ace-hearts",
        "content/examples/melds-rami.yaml::three-kings",
    ]


def test_a_disagreement_fails_its_item_with_checks_text(rules_project: pytest.Pytester) -> None:
    result = rules_project.runpytest(*PLUGIN, "content/examples")
    result.assert_outcomes(passed=2, failed=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = "\n".join(result.outlines)
    assert "content/examples/melds-rami.yaml:10: case queen-king-ace-hearts: points " \
        "documented 30, engine 31\n    Q♥ 10 + K♥ 10 + A♥ 11 = 31" in text
    assert "FAILED content/examples/melds-rami.yaml::queen-king-ace-hearts" in text
    assert "Traceback" not in text and "pytest_plugin.py" not in text


def test_last_failed_reruns_only_the_failing_case(rules_project: pytest.Pytester) -> None:
    rules_project.runpytest(*PLUGIN, "content/examples").assert_outcomes(passed=2, failed=1)
    again = rules_project.runpytest(*PLUGIN, "content/examples", "--lf", "-v")
    again.assert_outcomes(failed=1)
    assert "run-last-failure: rerun previous 1 failure (skipped 1 file)" in again.outlines
    assert _ids(again) == ["content/examples/melds-rami.yaml::queen-king-ace-hearts"]


def test_k_selects_by_case_id(rules_project: pytest.Pytester) -> None:
    result = rules_project.runpytest(*PLUGIN, "content/examples", "-k", "three-kings", "-v")
    result.assert_outcomes(passed=1, deselected=2)
    assert _ids(result) == ["content/examples/melds-rami.yaml::three-kings"]


def test_rules_cases_adds_the_projects_cases_never_the_fixtures(
        rules_project: pytest.Pytester) -> None:
    plain = rules_project.runpytest(*PLUGIN, "--collect-only", "-q")
    assert _ids(plain) == ["tests/test_own.py::test_own"]
    both = rules_project.runpytest(*PLUGIN, "--rules-cases", "--collect-only", "-q")
    assert sorted(_ids(both)) == [
        "content/examples/decks.yaml::rami-deck-four-players",
        "content/examples/melds-rami.yaml::queen-king-ace-hearts",
        "content/examples/melds-rami.yaml::three-kings",
        "tests/test_own.py::test_own",
    ]
    everything = rules_project.runpytest(*PLUGIN, ".", "--collect-only", "-q")
    assert _ids(everything) == ["tests/test_own.py::test_own"]


def test_a_files_input_errors_fail_one_item_and_its_good_cases_still_run(
        rules_project: pytest.Pytester) -> None:
    path = rules_project.path / "content" / "examples" / "melds-rami.yaml"
    path.write_text(MELDS.replace("cards: KH KS KD", "cards: KH KS KX"), encoding="utf-8")
    result = rules_project.runpytest(*PLUGIN, "content/examples", "-v")
    result.assert_outcomes(passed=1, failed=2)
    assert _ids(result) == ["content/examples/decks.yaml::rami-deck-four-players",
                            "content/examples/melds-rami.yaml::queen-king-ace-hearts",
                            "content/examples/melds-rami.yaml::input_errors"]
    assert any(line.startswith("content/examples/melds-rami.yaml:13:") and "unknown card 'KX'"
               in line for line in result.outlines)


def test_the_package_declares_the_plugin_as_an_entry_point() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    entry_points = pyproject["project"]["entry-points"]["pytest11"]
    assert list(entry_points.values()) == ["generator.pytest_plugin"]
    plugin = sys.modules.get("generator.pytest_plugin") or __import__(
        "generator.pytest_plugin", fromlist=["pytest_collect_file"])
    assert callable(plugin.pytest_collect_file) and callable(plugin.pytest_addoption)
    assert Path(str(plugin.__file__)).resolve().parent == REPO / "generator"


def test_the_readme_says_the_site_installs_pytest_itself() -> None:
    """pytest is no dependency of the package (a site that never runs it does not get
    it): the README's section on the plugin says to install it."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert not [d for d in pyproject["project"]["dependencies"] if d.startswith("pytest")]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.partition("\n### Cases as pytest items\n")[2].partition("\n### ")[0]
    assert "`pip install pytest`" in section
    assert section.index("pip install pytest") < section.index("pytest content/examples")


def _hostile(root: Path, outside: Path) -> None:
    """Beside the good case files: a FIFO, a dangling link, a name with a control
    character, a linked folder leading out of the project, a self-loop link, a folder
    named like a case file, a misnamed file and a case file in a subfolder."""
    examples = root / "content" / "examples"
    os.mkfifo(examples / "f.yaml")
    (examples / "d.yaml").symlink_to(root / "nowhere.yaml")
    (examples / "bad\x01name.yaml").write_text(DECKS.replace("rami-deck", "other-deck"),
                                               encoding="utf-8")
    outside.mkdir()
    (outside / "far.yaml").write_text(DECKS.replace("rami-deck", "far-deck"), "utf-8")
    (examples / "out").symlink_to(outside, target_is_directory=True)
    (examples / "loop").symlink_to(examples / "loop")
    (examples / "x.yaml").mkdir()
    (examples / "more.yml").write_text(DECKS.replace("rami-deck", "yml-deck"), "utf-8")
    (examples / "sub").mkdir()
    (examples / "sub" / "deep.yaml").write_text(DECKS.replace("rami-deck", "deep-deck"),
                                                 "utf-8")


def _check_errors(root: Path) -> set[str]:
    """The input errors ``check`` reports for the project, as lines."""
    from tests.conftest import run_cli

    found = json.loads(run_cli("check", "--project", str(root), "--format", "json").stdout)
    return {f"{e['file']}:{e['line']}" + (f":{e['column']}" if e["column"] else "")
            + f": {e['message']}" for e in found["errors"]}


def test_every_input_error_check_reports_fails_an_item_named_after_its_file(
        rules_project: pytest.Pytester, tmp_path: Path) -> None:
    """A FIFO, a dangling link, a control character in a file name, a linked folder out
    of the project, a self-loop link, a folder named like a case file, a misnamed file:
    every input error ``check`` reports fails the item ``FILE::input_errors`` of the
    file it names (the plugin collects through the loader's walk, not pytest's, which
    skips what is not a regular file), and the good cases, a subfolder's too, run."""
    root = rules_project.path
    _hostile(root, tmp_path / "outside")
    expected = _check_errors(root)
    assert len(expected) >= 5, expected
    result = rules_project.runpytest(*PLUGIN, "content/examples", "-v", "-rf")
    failed = sorted(line.split(" ")[1] for line in result.outlines
                    if line.startswith("FAILED "))
    files = sorted({line.split(":")[0] for line in expected})
    # the item is the file itself: its id holds the name as it is (check escapes it)
    assert failed == sorted([*(f"{f.encode().decode('unicode_escape')}::input_errors"
                               for f in files),
                             "content/examples/melds-rami.yaml::queen-king-ace-hearts"])
    reported = {line for line in result.outlines if line.split(":")[0] in files
                and ": " in line and "::" not in line}
    assert reported == expected
    assert any(line.startswith("content/examples/sub/deep.yaml::deep-deck-four-players "
                               "PASSED") for line in result.outlines)
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_subfolder_given_collects_the_loaders_files_there_only(
        rules_project: pytest.Pytester, tmp_path: Path) -> None:
    root = rules_project.path
    _hostile(root, tmp_path / "outside")
    result = rules_project.runpytest(*PLUGIN, "content/examples/sub", "--collect-only", "-q")
    assert _ids(result) == ["content/examples/sub/deep.yaml::deep-deck-four-players"]
    one = rules_project.runpytest(*PLUGIN, "content/examples/f.yaml", "--collect-only", "-q")
    assert _ids(one) == ["content/examples/f.yaml::input_errors"]


STATUS = """\
defaults: {game: rami51}
cases:
  - {id: being-written, kind: meld, cards: JK 7S 8S, title: A, status: pending,
     expect: {verdict: valid, points: 24}}
  - {id: app-counts-nine, kind: meld, cards: JK 7S 8S, title: B,
     status: known_disagreement, because: The app counts the joker as 9.,
     expect: {verdict: valid, points: 24}}
  - {id: app-fixed, kind: meld, cards: JK 7S 8S, title: C,
     status: known_disagreement, because: The app counted 24.,
     expect: {verdict: valid, points: 21}}
"""


def test_a_status_skips_or_xfails_and_a_stale_one_fails_with_checks_sentence(
        rules_project: pytest.Pytester) -> None:
    """``pending``: skipped, the reason check's lines; ``known_disagreement``: xfail
    (strict), its reason ``because``; one that agrees now fails with check's sentence."""
    examples = rules_project.path / "content" / "examples"
    (examples / "status.yaml").write_text(STATUS, encoding="utf-8")
    result = rules_project.runpytest(*PLUGIN, "content/examples/status.yaml", "-rsxf")
    result.assert_outcomes(skipped=1, xfailed=1, failed=1)
    text = "\n".join(result.outlines)
    assert "SKIPPED [1] content/examples/status.yaml: case being-written is pending: being " \
        "written, not failing\ncontent/examples/status.yaml:4: case being-written: points " \
        "documented 24, engine 21 (pending: listed, not failing)" in text
    assert "XFAIL content/examples/status.yaml::app-counts-nine - known disagreement: The " \
        "app counts the joker as 9." in text
    assert "content/examples/status.yaml:9: case app-fixed is marked as a known " \
        "disagreement, but the engine now agrees: remove status and because" in text
    assert "FAILED content/examples/status.yaml::app-fixed" in text
