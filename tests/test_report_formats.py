"""``check --format github`` (GitHub Actions workflow commands) and ``--format junit``
(JUnit XML), parsed back: one finding per disagreement and input error, at its file and
line, the exit status of ``check``. On the small project ``init`` makes (a check of it
takes a third of the repository's time)."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.cases.loader import load_cases
from generator.commands.report_formats import workflow_command
from tests.conftest import EXTENDED
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.conftest import run_process

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the CI report formats need."""

RAMI_FILE = "content/examples/melds.yaml"
DECKS_FILE = "content/examples/decks.yaml"
DECKS = """\
cases:
  - {id: rami-deck-four-players, kind: deck, game: rami51, players: 4, title: Four players,
     expect: {decks: 2, jokers: 4, cards: 108, hand_size: 13}}
"""


@pytest.fixture
def project(tmp_path: Path, initialised: Path) -> Path:
    """A new project (``init``, conftest's ``initialised``) with a second case file: four
    cases, all agreeing, each shown on the page."""
    target = tmp_path / "project"
    shutil.copytree(initialised, target, symlinks=True)
    (target / DECKS_FILE).write_text(DECKS, encoding="utf-8")
    with (target / "content" / "melds.md").open("a", encoding="utf-8") as page:
        page.write("\n```cases\nrami-deck-four-players\n```\n")
    return target
COMMAND = re.compile(r"::(?P<command>\w+)(?: (?P<props>[^:]*))?::(?P<message>.*)")


def _unescape(text: str) -> str:
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","),
                          ("%25", "%")):
        text = text.replace(escaped, char)
    return text


def _annotations(stdout: str) -> list[dict[str, str]]:
    """Each workflow command line, parsed: its properties, ``command`` and ``message``."""
    found = []
    for line in stdout.splitlines():
        match = COMMAND.fullmatch(line)
        assert match, line
        props = dict(p.split("=", 1) for p in (match["props"] or "").split(",") if p)
        found.append({**{k: _unescape(v) for k, v in props.items()},
                      "command": match["command"], "message": _unescape(match["message"])})
    return found


def _break(project: Path) -> tuple[int, int]:
    """A wrong ``points`` in one case and a YAML error in another file: their lines."""
    points = replace_in(project / RAMI_FILE, "      points: 31\n", "      points: 30\n")
    text = (project / DECKS_FILE).read_text(encoding="utf-8")
    (project / DECKS_FILE).write_text(text + "bad: [\n", encoding="utf-8")
    return points, text.count("\n") + 2


def test_workflow_commands_escape_as_the_actions_toolkit() -> None:
    line = workflow_command("error", "50% off\r\nnext", file="a,b:c.yaml", line=3, col=None,
                            title="x: y")
    assert line == "::error file=a%2Cb%3Ac.yaml,line=3,title=x%3A y::50%25 off%0D%0Anext"
    assert workflow_command("notice", "done") == "::notice::done"


def test_github_format_annotates_each_finding_on_its_line(project: Path) -> None:
    points, yaml_line = _break(project)
    result = run_cli("check", "--project", project.name, "--format", "github",
                     cwd=project.parent)
    assert result.returncode == 2  # an input error beats a disagreement, as in text
    found = _annotations(result.stdout)
    assert [(a["command"], a["file"], a["line"], a["title"]) for a in found] == [
        ("error", f"project/{DECKS_FILE}", str(yaml_line), "input error"),
        ("error", f"project/{RAMI_FILE}", str(points), "disagreement"),
    ]
    assert found[0]["col"] == "1"
    assert found[0]["message"].startswith("YAML syntax error")
    assert found[1]["message"].splitlines() == [
        "case queen-king-ace-hearts: points documented 30, engine 31",
        "Q♥ 10 + K♥ 10 + A♥ 11 = 31"]
    assert result.stderr == "3 cases checked: 1 disagreement, 1 input error\n"


def test_github_format_exit_statuses(project: Path) -> None:
    clean = run_cli("check", "--project", str(project), "--format", "github")
    assert (clean.returncode, clean.stdout) == (0, "")
    replace_in(project / RAMI_FILE, "      points: 31\n", "      points: 30\n")
    assert run_cli("check", "--project", str(project), "--format", "github").returncode == 1
    missing = run_cli("check", "--project", "no-such-folder", "--format", "github")
    assert missing.returncode == 2
    assert _annotations(missing.stdout)[0]["file"] == "no-such-folder"


def test_junit_has_a_testcase_per_case_and_a_failure_per_disagreement(project: Path) -> None:
    points, yaml_line = _break(project)
    result = run_cli("check", "--project", str(project), "--format", "junit")
    assert result.returncode == 2
    root = ET.fromstring(result.stdout.encode("utf-8"))
    cases = load_cases(project).cases
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == (
        str(len(cases) + 1), "1", "1")
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert list(suites) == sorted({c.position.file for c in cases} | {DECKS_FILE})
    names = [(t.get("classname"), t.get("name")) for t in root.iter("testcase")
             if t.find("error") is None]
    assert names == [(c.position.file, c.id) for c in cases]
    failures = [(t.get("name"), f) for t in root.iter("testcase") for f in t.findall("failure")]
    assert len(failures) == 1
    name, failure = failures[0]
    assert name == "queen-king-ace-hearts"
    assert failure.get("type") == "disagreement"
    assert failure.get("message") == "case queen-king-ace-hearts: points documented 30, engine 31"
    assert failure.text == (f"{RAMI_FILE}:{points}: case queen-king-ace-hearts: points "
                            "documented 30, engine 31\n    Q♥ 10 + K♥ 10 + A♥ 11 = 31")
    decks = suites[DECKS_FILE]
    assert decks.get("errors") == "1" and decks.get("tests") == "1"
    (error_case,) = decks.findall("testcase")
    assert error_case.get("name") == f"{DECKS_FILE}:{yaml_line}:1"
    error = error_case.find("error")
    assert error is not None and error.get("type") == "input error"
    assert error.get("message", "").startswith("YAML syntax error")


def test_junit_to_a_file_is_the_same_bytes_and_keeps_the_status(project: Path,
                                                                 tmp_path: Path) -> None:
    replace_in(project / RAMI_FILE, "      points: 31\n", "      points: 30\n")
    out = tmp_path / "reports" / "check.xml"
    first = run_cli("check", "--project", str(project), "--format", "junit", "--output", str(out))
    assert (first.returncode, first.stdout) == (1, "")
    again = run_cli("check", "--project", str(project), "--format", "junit")
    assert out.read_bytes() == again.stdout.encode("utf-8")
    assert out.read_bytes().startswith(b"<?xml version='1.0' encoding='utf-8'?>\n<testsuites")
    replace_in(project / RAMI_FILE, "      points: 30\n", "      points: 31\n")
    clean = run_cli("check", "--project", str(project), "--format", "junit", "--output", str(out))
    assert clean.returncode == 0
    assert [ET.parse(out).getroot().get(n) for n in ("tests", "failures", "errors")] == \
        ["4", "0", "0"]


def test_an_output_that_cannot_be_written_is_an_input_error(project: Path) -> None:
    blocker = project / "file"
    blocker.write_text("", encoding="utf-8")
    result = run_cli("check", "--project", str(project), "--format", "json",
                     "--output", str(blocker / "report.json"))
    assert result.returncode == 2
    assert "cannot write the report" in result.stderr and "Traceback" not in result.stderr


def test_an_output_to_a_pipe_or_a_full_device_is_written_in_place(
        project: Path, tmp_path: Path) -> None:
    """``--output FIFO`` does not replace the pipe by a file its reader never sees, nor
    ``--output`` a link to ``/dev/full`` the link, silently: the reader gets the report
    standard output would have, the pipe stays a pipe; a full device is exit 2, said
    once, the link kept."""
    fifo = tmp_path / "reports.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run_cli("check", "--project", str(project), "--format", "junit",
                     "--output", str(fifo))
    reader.join(timeout=30)
    expected = run_cli("check", "--project", str(project), "--format", "junit").stdout
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert result.returncode == 0 and got == [expected.encode("utf-8")]
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system: the full device is not tried")
    (tmp_path / "full").symlink_to("/dev/full")
    full = run_cli("check", "--project", str(project), "--format", "junit",
                   "--output", str(tmp_path / "full"))
    assert full.returncode == 2
    assert full.stderr.splitlines() == [
        f"{tmp_path / 'full'}: cannot write the report: No space left on device; "
        "nothing was written"]
    assert os.readlink(tmp_path / "full") == "/dev/full"


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "a shell and a generator process per descriptor (1.2 s of CPU)")
def test_an_output_naming_a_descriptor_writes_to_it_as_a_shell_does(
        project: Path, tmp_path: Path) -> None:
    """``--output /dev/stdout`` in a script whose output is appended to a log (``exec >>
    ci.log``) keeps the lines before and after (renaming a new file over the log would
    lose them). As bash does, ``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``, a link
    to one, and ``-`` name the open descriptor, written to where it stands; another
    process's (the shell's ``/proc/$$/fd/1``) is appended to. By default ``/dev/stdout``,
    ``-`` and the shell's descriptor (a process each, 0.35 s of CPU); the extended round
    every form: a link to ``/proc/self/fd/1``, ``/dev/fd/2``, ``/dev/fd`` through a
    folder's link and ``/proc/thread-self/fd/1`` too."""
    (tmp_path / "out").symlink_to("/proc/self/fd/1")
    (tmp_path / "fds").symlink_to("/dev/fd")  # a folder's link
    script = tmp_path / "ci.sh"
    run = f"{sys.executable} -m generator check --project {project} --format"
    named = [f"{tmp_path / 'out'}", "/dev/fd/2", f"{tmp_path / 'fds'}/1", "/proc/$$/fd/1",
             "/proc/thread-self/fd/1"] if EXTENDED else ["/proc/$$/fd/1"]
    lines = "".join(f"{run} github --output {name}\n" for name in named)
    script.write_text(f"""exec >> {tmp_path / "ci.log"} 2>&1
echo step 1
{run} github --output /dev/stdout; echo "exit $?"
{run} json --output - | head -c 1; echo
{lines}echo step 2
""", encoding="utf-8")
    (tmp_path / "ci.log").write_text("step 0\n", encoding="utf-8")
    replace_in(project / RAMI_FILE, "      points: 31\n", "      points: 30\n")
    expected = run_cli("check", "--project", str(project), "--format", "github",
                       cwd=tmp_path).stdout
    summary = ("4 cases checked: 1 disagreement, 0 input errors; check --fix would settle "
               "the disagreement\n")
    subprocess.run(["bash", str(script)], check=True, timeout=120, cwd=tmp_path)  # (a
    # regression writes its file "-" there, never in the repository)
    assert (tmp_path / "ci.log").read_text(encoding="utf-8") == (
        f"step 0\nstep 1\n{expected}{summary}exit 1\n{{\n"
        + f"{expected}{summary}" * len(named) + "step 2\n")
    assert (tmp_path / "out").is_symlink()


def test_an_output_naming_a_folder_or_nothing_is_refused_before_the_check(
        project: Path, tmp_path: Path) -> None:
    """``--output newfile/`` (not a file ``newfile``, the path's slash dropped) and
    ``--output ""`` (not ``.: ... Is a directory``) are a usage error that names what
    was given, as a shell's ``>`` refuses them."""
    where = tmp_path / "reports"
    where.mkdir()
    for given, said in (("report/", "'report/' names a folder"), ("", "an empty path"),
                        ("report/.", "'report/.' names a folder"),
                        ("..", "'..' names a folder")):
        result = run_process("check", "--project", str(project), "--output", given,
                             cwd=where)
        assert result.returncode == 2
        assert f"argument --output: {said}; expected a file name, or - for standard " \
            "output" in result.stderr.splitlines()[-1]
        assert list(where.iterdir()) == []


def test_an_output_path_is_taken_as_written(project: Path, tmp_path: Path) -> None:
    """``--output ./-`` makes a file named ``-``, as a shell's ``> ./-`` does (it is not
    standard output, though a path reads it as ``-``)."""
    where = tmp_path / "reports"
    where.mkdir()
    result = run_process("check", "--project", str(project), "--format", "json",
                         "--output", "./-", cwd=where)
    assert result.returncode == 0 and result.stdout == ""
    assert json.loads((where / "-").read_text(encoding="utf-8"))["cases"] == 4


def test_an_output_with_a_long_name_or_a_strange_one(project: Path, tmp_path: Path) -> None:
    """A name of 242-255 bytes is written (its temporary name must not be 14 bytes
    longer than the system allows); a name that cannot be written is said escaped, not
    with its newline and escape sequence printed as they are."""
    long = tmp_path / ("r" * 250)
    result = run_cli("check", "--project", str(project), "--format", "junit",
                     "--output", str(long))
    assert result.returncode == 0 and long.read_text(encoding="utf-8").startswith("<?xml")
    odd = str(tmp_path / "file") + "/x\n\x1b[31mred"
    (tmp_path / "file").write_text("", encoding="utf-8")
    result = run_cli("check", "--project", str(project), "--output", odd)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'file'}/x\\n\\x1b[31mred: cannot write the report: Not a directory; "
        "nothing was written"]


@pytest.mark.extended
def test_an_output_naming_a_closed_standard_output_is_an_error(
        project: Path, tmp_path: Path) -> None:
    """With standard output closed, ``--output /dev/stdout`` (or ``-``, ``/dev/fd/1``)
    fails even for an empty report, as a shell's ``> /dev/stdout`` does (not exit 0).
    Named on purpose, it is an error as any closed descriptor is;
    without ``--output`` an empty report still writes nothing and fails nothing. By
    default ``/dev/stdout`` alone of the three names; the extended round each."""
    run = f"{sys.executable} -m generator check --project {project} --format github"
    for named in ("/dev/stdout", "-", "/dev/fd/1") if EXTENDED else ("/dev/stdout",):
        result = subprocess.run(["bash", "-c", f"{run} --output {named} >&-"],
                                capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert result.returncode == 2
        assert result.stderr.splitlines() == [
            f"{named}: cannot write the report: Bad file descriptor; nothing was written"]
    quiet = subprocess.run(["bash", "-c", f"{run} >&-"], capture_output=True, text=True,
                           timeout=120, cwd=tmp_path)
    assert quiet.returncode == 0
    assert quiet.stderr.splitlines() == ["4 cases checked: 0 disagreements, 0 input errors"]


def test_an_output_naming_a_descriptor_that_is_not_open_is_an_error(
        project: Path, tmp_path: Path) -> None:
    """``--output /dev/fd/9`` with descriptor 9 not open fails, as a shell's ``>&9``
    does, whatever the report holds (also when it is empty and nothing is written)."""
    result = run_process("check", "--project", str(project), "--format", "github",
                         "--output", "/dev/fd/9", cwd=tmp_path)  # (9 is not open there)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "/dev/fd/9: cannot write the report: Bad file descriptor; nothing was written"]


STATUS_FILE = "content/examples/status.yaml"
STATUS = """\
defaults: {game: rami51}
cases:
  - {id: being-written, kind: meld, cards: JK 7S 8S, title: A, status: pending,
     expect: {verdict: valid, points: 24}}
  - {id: written, kind: meld, cards: JK 7S 8S, title: B, status: pending,
     expect: {verdict: valid, points: 21}}
  - {id: app-counts-nine, kind: meld, cards: JK 7S 8S, title: C,
     status: known_disagreement, because: The app counts the joker as 9.,
     expect: {verdict: valid, points: 24}}
  - {id: app-fixed, kind: meld, cards: JK 7S 8S, title: D,
     status: known_disagreement, because: The app counted 24.,
     expect: {verdict: valid, points: 21}}
"""
"""Both statuses, each still disagreeing (points at lines 4 and 9) and agreeing (status
at lines 5 and 11)."""

PENDING_LINE = ("case being-written: points documented 24, engine 21 (pending: listed, not "
                "failing)")
KNOWN_LINE = ("case app-counts-nine: points documented 24, engine 21 (known disagreement, not "
              "failing: The app counts the joker as 9.)")
STALE = ("case app-fixed is marked as a known disagreement, but the engine now agrees: remove "
         "status and because")


def test_github_gives_a_notice_per_status_and_an_error_for_a_stale_one(project: Path) -> None:
    (project / STATUS_FILE).write_text(STATUS, encoding="utf-8")
    result = run_cli("check", "--project", str(project), "--format", "github")
    assert result.returncode == 1
    found = [(a["command"], a["line"], a.get("col"), a["title"], a["message"].splitlines()[0])
             for a in _annotations(result.stdout)]
    assert found == [
        ("notice", "4", "31", "pending", PENDING_LINE),
        ("notice", "5", "58", "pending", "case written is pending, and every documented value "
         "agrees with the engine: remove status once it is written"),
        ("notice", "9", "31", "known disagreement", KNOWN_LINE),
        ("error", "11", "6", "stale status", STALE),
    ]


def test_junit_skips_a_case_with_a_status_and_fails_a_stale_one(project: Path) -> None:
    (project / STATUS_FILE).write_text(STATUS, encoding="utf-8")
    replace_in(project / RAMI_FILE, "      points: 31\n", "      points: 30\n")
    result = run_cli("check", "--project", str(project), "--format", "junit")
    assert result.returncode == 1
    root = ET.fromstring(result.stdout)
    assert [root.get(n) for n in ("tests", "failures", "errors", "skipped")] == \
        ["8", "2", "0", "3"]
    suite = next(s for s in root.iter("testsuite") if s.get("name") == STATUS_FILE)
    assert [suite.get(n) for n in ("tests", "failures", "skipped")] == ["4", "1", "3"]
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    skipped = {name: c.find("skipped") for name, c in cases.items()}
    assert {name: s.get("message") for name, s in skipped.items() if s is not None} == {
        "being-written": "case being-written is pending: being written, not failing",
        "written": "case written is pending, and every documented value agrees with the "
        "engine: remove status once it is written",
        "app-counts-nine": "case app-counts-nine is a known disagreement, not failing: The "
        "app counts the joker as 9.",
    }
    assert (skipped["being-written"].text or "").splitlines()[0] == f"{STATUS_FILE}:4: " \
        f"{PENDING_LINE}"
    stale = cases["app-fixed"].find("failure")
    assert stale is not None
    assert (stale.get("type"), stale.get("message"), stale.get("line"), stale.get("column")) \
        == ("stale status", STALE, "11", "14")
    points = next(c for c in root.iter("testcase") if c.get("name") == "queen-king-ace-hearts")
    failure = points.find("failure")
    assert failure is not None
    assert (failure.get("line"), failure.get("column")) == ("16", "15")  # 30's column
