"""``check`` and ``build`` end to end, through the command line (docs/site.md contracts)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from generator.cases.loader import load_cases
from generator.engine import check_meld
from generator.engine import check_opening
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.conftest import start_tags

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the command line's reports and the swap need."""

LOCALES = ("en", "cs", "et", "sk")
PAGES = ("rules", "first-meld", "cardverse")
RAMI_FILE = "content/examples/melds-rami.yaml"
INIT_FILE = "content/examples/melds.yaml"
"""The case file of ``init_project`` (conftest), for the tests of the process itself."""


def test_check_passes_on_the_repository() -> None:
    result = run_cli("check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    n = len(load_cases(REPO).cases)
    assert f"{n} cases checked: 0 disagreements, 0 input errors" in result.stderr


def _case_block_line(path: Path, case_id: str, field: str) -> int:
    """The line of ``field:`` inside the case ``case_id`` of a case file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {case_id}")
    for i in range(start + 1, len(lines)):
        if lines[i].strip().startswith("- id:"):
            break
        if lines[i].strip().startswith(f"{field}:"):
            return i + 1
    raise AssertionError(f"{field} not in {case_id}")


def _set_field(path: Path, case_id: str, field: str, value: str) -> int:
    line = _case_block_line(path, case_id, field)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    indent = lines[line - 1][: len(lines[line - 1]) - len(lines[line - 1].lstrip())]
    lines[line - 1] = f"{indent}{field}: {value}\n"
    path.write_text("".join(lines), encoding="utf-8")
    return line


def test_one_wrong_value_is_named_with_file_line_and_reasoning(project: Path) -> None:
    line = _set_field(project / RAMI_FILE, "joker-seven-eight-spades", "points", "24")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{RAMI_FILE}:{line}: case joker-seven-eight-spades: "
                        "points documented 24, engine 21")
    assert "The joker stands for 6♠, not 9♠: fewer points." in result.stdout
    assert "JK→6♠ 6 + 7♠ 7 + 8♠ 8 = 21" in result.stdout
    # No other case is named.
    assert len(re.findall(r": case ", result.stdout)) == 1
    assert "Traceback" not in result.stderr


def test_every_disagreement_in_one_run_and_json(project: Path) -> None:
    l1 = _set_field(project / RAMI_FILE, "queen-king-ace-hearts", "points", "30")
    l2 = _set_field(project / RAMI_FILE, "king-ace-two-hearts", "verdict", "valid")
    result = run_cli("check", "--project", str(project), "--format", "json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["cases"] == len(load_cases(REPO).cases)
    assert report["errors"] == []
    found = {(d["case"], d["field"], d["line"], d["documented"], d["engine"])
             for d in report["disagreements"]}
    assert found == {
        ("queen-king-ace-hearts", "points", l1, 30, 31),
        ("king-ace-two-hearts", "verdict", l2, "valid", "invalid"),
    }
    for d in report["disagreements"]:
        assert d["file"] == RAMI_FILE
        assert isinstance(d["reasoning"], list)


def test_a_documented_field_the_engine_leaves_empty_is_a_disagreement(project: Path) -> None:
    path = project / RAMI_FILE
    line = _case_block_line(path, "king-ace-two-hearts", "verdict")
    replace_in(path, "      verdict: invalid\n      type: run\n      reason: wraps_around",
               "      verdict: invalid\n      type: run\n      reason: wraps_around\n"
               "      points: 21")
    assert _case_block_line(path, "king-ace-two-hearts", "verdict") == line
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 1
    points_line = _case_block_line(path, "king-ace-two-hearts", "points")
    assert f"{RAMI_FILE}:{points_line}: case king-ace-two-hearts: points documented 21, " \
        "engine —" in result.stdout.splitlines()


def test_input_errors_beat_disagreements(project: Path) -> None:
    _set_field(project / RAMI_FILE, "queen-king-ace-hearts", "points", "30")
    line = _set_field(project / RAMI_FILE, "three-kings", "cards", "KH KS KX")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 2
    assert f"{RAMI_FILE}:{line}:" in result.stdout
    assert "unknown card 'KX'" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def _build(project: Path, *extra: str) -> tuple[int, str]:
    result = run_cli("build", "--project", str(project), *extra)
    assert "Traceback" not in result.stdout + result.stderr
    return result.returncode, result.stdout + result.stderr


@pytest.fixture
def built(lean_project: Path) -> Path:
    """``lean_project`` built: for the tests of what a build does to the site in place."""
    code, out = _build(lean_project)
    assert code == 0, out
    return lean_project / "site"


def test_build_writes_every_page_in_every_locale(built_site: Path) -> None:
    built = built_site
    assert (built / "index.html").is_file()
    for lang in LOCALES:
        home = built / lang / "index.html"
        assert home.is_file()
        for page in PAGES:
            tags = start_tags((built / lang / page / "index.html").read_text(encoding="utf-8"))
            html = next(attrs for tag, attrs in tags if tag == "html")
            assert html.get("lang") == lang
            links = {a.get("hreflang"): a.get("href") for tag, a in tags
                     if tag == "a" and "hreflang" in a}
            assert set(LOCALES) <= set(links), links
            for other in LOCALES:
                target = (built / lang / page / str(links[other])).resolve()
                assert target == (built / other / page / "index.html").resolve()
    root = start_tags((built / "index.html").read_text(encoding="utf-8"))
    hrefs = {a["href"] for tag, a in root if tag == "a" and "href" in a}
    assert {f"{lang}/index.html" for lang in LOCALES} <= hrefs


def _rows(path: Path) -> dict[str, dict[str, str]]:
    return {tr["id"]: tr for tag, tr in start_tags(path.read_text(encoding="utf-8"))
            if tag == "tr" and "id" in tr}


def test_case_rows_carry_the_engines_values(built_site: Path) -> None:
    built = built_site
    cases = {c.id: c for c in load_cases(REPO).cases}
    seen = 0
    for lang in LOCALES:
        for page in PAGES:
            for case_id, attrs in _rows(built / lang / page / "index.html").items():
                case = cases[case_id]
                if case.kind == "meld":
                    result = check_meld(case.inputs.cards, case.rule_set())
                    verdict = "valid" if result.valid else "invalid"
                    points = result.points
                elif case.kind == "first_meld":
                    opening = check_opening(case.inputs.melds, case.rule_set())
                    verdict = "accepted" if opening.accepted else "rejected"
                    points = opening.points
                else:
                    continue
                assert attrs["data-verdict"] == verdict
                if points is None:
                    assert "data-points" not in attrs
                else:
                    assert attrs["data-points"] == str(points)
                seen += 1
    assert seen >= 4 * 30


def test_shown_values_are_the_engines_not_the_documented(built_site: Path) -> None:
    # The documented value agrees, so the site is built; its page shows the engine's 31.
    rows = _rows(built_site / "sk" / "first-meld" / "index.html")
    assert rows["queen-king-ace-hearts"]["data-points"] == "31"
    assert rows["pure-run-and-joker-run-house"]["data-points"] == "61"
    assert rows["two-sets-no-pure-run"]["data-verdict"] == "rejected"


def test_failing_build_leaves_the_previous_site_untouched(built: Path,
                                                         lean_project: Path) -> None:
    project = lean_project
    before = {p: p.read_bytes() for p in built.rglob("*") if p.is_file()}
    _set_field(project / RAMI_FILE, "three-kings", "points", "31")
    code, out = _build(project)
    assert code == 1
    assert "case three-kings: points documented 31, engine 30" in out
    after = {p: p.read_bytes() for p in built.rglob("*") if p.is_file()}
    assert after == before
    assert not list(project.glob(".site.new-*"))


def test_input_error_build_writes_nothing(project: Path) -> None:
    (project / "content/examples/bad.yaml").write_text("cases:\n  - id: x\n    kind: [\n",
                                                       encoding="utf-8")
    code, out = _build(project)
    assert code == 2
    assert "content/examples/bad.yaml:" in out
    assert not (project / "site").exists()


def test_two_builds_give_identical_bytes(built_site: Path, tmp_path: Path) -> None:
    """The whole site twice (the session's, without the cache, and one with it), byte
    for byte."""
    built = built_site
    first = {p.relative_to(built): p.read_bytes() for p in built.rglob("*") if p.is_file()}
    code, out = _build(REPO, "--out", str(tmp_path / "again"))
    assert code == 0, out
    again = tmp_path / "again"
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first == second


def test_build_refuses_a_folder_it_did_not_create(project: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    code, out = _build(project, "--out", str(foreign))
    assert code == 2
    assert "was not written by this generator" in out
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]


def test_rebuild_replaces_pages_of_removed_content(built: Path, lean_project: Path) -> None:
    project = lean_project
    assert (built / "en" / "cardverse" / "index.html").exists()
    (project / "content" / "cardverse.md").unlink()
    code, out = _build(project)
    assert code == 0, out
    assert not (built / "en" / "cardverse").exists()
    assert (built / "en" / "rules" / "index.html").exists()


def test_cards_have_localized_names_for_screen_readers(built_site: Path) -> None:
    built = built_site
    soup = BeautifulSoup((built / "cs" / "first-meld" / "index.html").read_text("utf-8"),
                         "html.parser")
    row = soup.find(id="queen-king-ace-hearts")
    assert row is not None
    names = [c["aria-label"] for c in row.select(".card[aria-label]")]
    assert names == ["srdcová dáma", "srdcový král", "srdcové eso"]
    sk = BeautifulSoup((built / "sk" / "rules" / "index.html").read_text("utf-8"),
                       "html.parser")
    row = sk.find(id="three-aces")
    assert row is not None
    assert "krížové eso" in [c["aria-label"] for c in row.select(".card[aria-label]")]


@pytest.mark.extended
@pytest.mark.parametrize("exit_code", [0, 1] if EXTENDED else [1])
def test_the_command_line_ends_without_pythons_teardown(init_project: Path,
                                                        exit_code: int) -> None:
    """``python -m generator`` ends with its status as soon as the command is done, its
    output whole: Python's teardown (an ``atexit`` handler here) does not run; it took
    65 ms after a 700-page build (generator/__main__.py, ``run``). By default a check that
    disagrees (a process each, 0.35 s of CPU); the extended round one that agrees too."""
    import subprocess
    import sys

    if exit_code:
        replace_in(init_project / INIT_FILE, "points: 31", "points: 30")
    script = ("import atexit, runpy, sys\n"
              "atexit.register(lambda: print('teardown ran', file=sys.stderr))\n"
              f"sys.argv = ['generator', 'check', '--project', {str(init_project)!r}]\n"
              "runpy.run_module('generator', run_name='__main__')\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == exit_code, result.stdout + result.stderr
    assert re.search(r"^3 cases checked: .*\n\Z", result.stderr, re.M), result.stderr
    assert ("points documented 30, engine 31" in result.stdout) == bool(exit_code)
    assert "teardown ran" not in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.extended
@pytest.mark.parametrize("exit_code", [0, 1] if EXTENDED else [0])
def test_a_closed_standard_error_keeps_the_exit_status(init_project: Path,
                                                       exit_code: int) -> None:
    """Started with its standard error closed (``2>&-``: ``sys.stderr`` is None), the
    command line still ends with the command's status (the flush before ``os._exit``
    must not fail on None, which would end with 1 whatever the status). By default
    status 0; the extended round 1 too."""
    import os
    import subprocess
    import sys

    if exit_code:
        replace_in(init_project / INIT_FILE, "points: 31", "points: 30")
    result = subprocess.run([sys.executable, "-m", "generator", "check", "--project",
                             str(init_project)], stdout=subprocess.PIPE, text=True,
                            timeout=120,
                            check=False, preexec_fn=lambda: os.close(2))
    assert result.returncode == exit_code, result.stdout
    assert ("points documented 30, engine 31" in result.stdout) == bool(exit_code)


@pytest.mark.extended
@pytest.mark.parametrize("fmt", ["text", "junit"] if EXTENDED else ["text"])
def test_a_reader_gone_from_both_outputs_keeps_the_exit_status(init_project: Path,
                                                               fmt: str) -> None:
    """``check ... 2>&1 | head -1``: the reader of standard output and error has gone
    when the command writes; its status is the check's, 0 (not "the generator failed:
    BrokenPipeError", exit 2, from the summary line to standard error). By
    default the text report; the extended round JUnit's too."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "generator", "check", "--project",
                                str(init_project), "--format", fmt],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    process.stdout.close()  # gone before the first line
    assert process.wait(timeout=120) == 0


REPORTS = {"schema": ["schema"], "junit": ["check", "--format", "junit"], "text": ["check"]}
UNWRITABLE = [(name, where) for name in REPORTS for where in ("full", "closed")
              if EXTENDED or name == "text" or (name, where) in (("schema", "full"),
                                                                 ("junit", "closed"))]
"""The reports and the outputs they cannot be written to: by default the text report
both ways and each other report one way (a new process each, 0.35 s of CPU); the
extended round: all six."""


@pytest.mark.extended
@pytest.mark.parametrize(("report", "where"), UNWRITABLE,
                         ids=[f"{name}-{where}" for name, where in UNWRITABLE])
def test_a_report_that_cannot_be_written_is_exit_2(init_project: Path, report: str,
                                                    where: str) -> None:
    """Standard output on a full disk (``/dev/full``) or closed (``>&-``): the command
    says once that its report cannot be written and exits 2 (docs/site.md: the output
    cannot be written): not exit 0, and no traceback when it is closed."""
    import os
    import subprocess
    import sys

    command = REPORTS[report]
    if where == "full" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    args = [sys.executable, "-m", "generator", *command]
    if command[0] == "check":
        args += ["--project", str(init_project)]
        # a disagreement: the text report has a line to write (said once, not twice)
        replace_in(init_project / INIT_FILE, "      points: 31\n", "      points: 30\n")
    with open(os.devnull if where == "closed" else "/dev/full", "w") as out:
        result = subprocess.run(args, stdout=out, stderr=subprocess.PIPE, text=True,
                                timeout=120, check=False,
                                preexec_fn=(lambda: os.close(1)) if where == "closed" else None)
    assert result.returncode == 2, result.stderr
    # the one line, no "N cases checked" after it (a summary of a lost report)
    why = "standard output is closed" if where == "closed" else \
        "No space left on device"
    assert result.stderr.splitlines() == [f"error: cannot write the report: {why}"]


def test_a_library_missing_from_the_installation_is_said_as_such(init_project: Path) -> None:
    """A Python without the generator's dependencies (a checkout run by another
    interpreter than the one it was installed into): the missing library is named with
    what to install, exit 2, not "the generator failed"."""
    code = ("import sys; sys.modules['babel'] = None; from generator.cli import main; "
            "sys.exit(main())")
    result = subprocess.run([sys.executable, "-c", code, "check", "--project",
                             str(init_project)], capture_output=True, text=True,
                            cwd=REPO, timeout=60, check=False)
    assert (result.returncode, result.stdout) == (2, (
        f"error: the library 'babel' the generator needs is not installed for "
        f"{sys.executable}; nothing was written; expected the generator installed with "
        "its dependencies into this Python: python3 -m pip install rules-site-generator "
        "(in a checkout: python3 -m pip install -e .)\n"))
