"""``explain`` (docs/site.md, "explain"): a case in the case-file form with the engine's
``expect`` and reasoning; what it prints passes ``check`` unchanged, for every kind."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from generator.commands.explain import command_line_arguments
from generator.kinds import REGISTRY
from tests.conftest import REPO
from tests.conftest import SHIPPED_LOCALES
from tests.conftest import SITE_LOCALES
from tests.conftest import run_cli
from tests.test_fix import small_project

SCENARIO = """\
kind: scenario
game: rami51
start:
  hands:
    - 5C 6C 7C KH KS KD 2D 9S 3H 4S 8D JC QS
    - 2C 3C 4D 6H 7H 9D 10D JD QD KC AC 8S 5D
  discard: QH
  stock: 3D 4D 9C
actions:
  - draw: discard
  - discard: QH
  - discard: 2D
"""

EXPLAINED: list[tuple[tuple[str, ...], dict[str, object]]] = [
    (("--game", "rami51", "QH", "KH", "AH"), {"verdict": "valid", "type": "run", "points": 31}),
    (("--game", "rami51", "--kind", "first_meld", "--melds", "QH KH AH", "JK 7S 8S"),
     {"verdict": "accepted", "points": 52}),
    (("--game", "rami51", "--kind", "deck", "--players", "5"),
     {"decks": 3, "jokers": 4, "cards": 160, "hand_size": 13}),
    (("--game", "cardverse", "--option", "ace_high", "--kind", "hand", "AH", "2C"),
     {"points": 13}),
    (("--game", "rami51", "--kind", "layoff", "--meld", "JK 7S 8S", "9S", "--opened", "false"),
     {"verdict": "invalid", "reason": "not_opened"}),
    (("--game", "rami51", "--kind", "joker_swap", "--meld", "JK 7S 8S", "--card", "6S"),
     {"verdict": "allowed", "joker_stands_for": "6S"}),
    (("--game", "rami51", "--kind", "round", "--hands", "5C 6C", "-", "JK AH"),
     {"winner": 2, "scores": [11, 0, 36]}),
    (("--game", "rami51", "--kind", "best_opening", "QH", "KH", "AH", "JK", "7S", "8S", "2C",
      "2D", "9C", "4D", "5S", "KC", "3H"), {"verdict": "can_open", "points": 57}),
    (("--game", "rami51", "--kind", "hand_size", "--players", "4"), {"dealt": 13, "stock": 55}),
    (("--game", "rami40", "--rules", "house", "QH", "KH", "2H"),
     {"verdict": "invalid", "type": "run", "reason": "not_consecutive"}),
]


def _check_with(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    root = small_project(tmp_path, text)
    return run_cli("check", "--project", str(root))


@pytest.mark.parametrize(("args", "expect"), EXPLAINED,
                         ids=[" ".join(a[:6]) for a, _ in EXPLAINED])
def test_what_explain_prints_passes_check(tmp_path: Path, args: tuple[str, ...],
                                          expect: dict[str, object]) -> None:
    result = run_cli("explain", *args)
    assert result.returncode == 0, result.stdout + result.stderr
    case = yaml.safe_load(result.stdout)["cases"][0]
    assert case["expect"] == expect
    assert "  # a title to edit\n" in result.stdout
    check = _check_with(tmp_path, result.stdout)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "1 case checked: 0 disagreements, 0 input errors" in check.stderr


def test_every_kind_is_explained_from_the_command_line_or_a_case_file() -> None:
    without = [kind.name for kind in REGISTRY if not kind.arguments]
    assert without == ["scenario"]
    explained = {a[a.index("--kind") + 1] if "--kind" in a else "meld" for a, _ in EXPLAINED}
    assert explained | {"scenario"} == {kind.name for kind in REGISTRY}
    flags = [a.flag for a in command_line_arguments()]
    assert flags == ["", "--melds", "--players", "--meld", "--opened", "--card", "--hands"]


def test_a_scenario_from_a_file_passes_check(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    result = run_cli("explain", "--case", str(path), "--id", "taken-card", "--title",
                     "The taken card")
    assert result.returncode == 0, result.stdout + result.stderr
    case = yaml.safe_load(result.stdout)["cases"][0]
    assert case["id"] == "taken-card" and case["title"] == "The taken card"
    assert case["expect"] == {"results": ["legal", "discard_taken_card", "legal"],
                              "end": {"round_over": False}}
    assert "    # The card just taken from the discard pile cannot be discarded in the same " \
        "turn.\n" in result.stdout
    check = _check_with(tmp_path / "p", result.stdout)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_case_from_standard_input_with_the_reasoning_in_czech(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(SCENARIO.encode("utf-8")), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    result = run_cli("explain", "--case", "-", "--lang", "cs", "--project", str(REPO))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "    # Kolo pokračuje: na tahu je hráč 2.\n" in result.stdout
    check = _check_with(tmp_path, result.stdout)
    assert check.returncode == 0, check.stdout + check.stderr
    path = tmp_path / "bad.yaml"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(
        SCENARIO.replace("JC QS", "JC QX").encode("utf-8")), encoding="utf-8"))
    bad = run_cli("explain", "--case", "-")
    assert bad.returncode == 2 and not path.exists()
    assert bad.stdout.startswith("<stdin>:5:43: unknown card 'QX'"), bad.stdout


def test_the_reasoning_in_czech_from_the_command_line() -> None:
    result = run_cli("explain", "--game", "rami51", "--lang", "cs", "JK", "7S", "8S")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "    # Žolík zastupuje 6♠, ne 9♠: méně bodů.\n" in result.stdout
    assert "    # JK→6♠ 6 + 7♠ 7 + 8♠ 8 = 21\n" in result.stdout
    assert "      points: 21\n" in result.stdout
    assert "  - id: rami51-meld-jk-7s-8s\n" in result.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--game", "rami51", "--players", "3", "QH"),
     "command line: --players does not apply to kind 'meld'; expected CARDS..."),
    (("--game", "rami51", "QH", "KX"), "command line: unknown card 'KX'"),
    (("QH", "KH", "AH"), "command line: missing --game"),
    (("--game", "rami51", "--kind", "scenario"),
     "command line: kind 'scenario' takes its input from a case file"),
    (("--game", "rami51", "--kind", "deck", "--players", "x"),
     "command line: --players 'x' is not a number"),
    (("--game", "cardverse", "--kind", "deck", "--players", "9"),
     "command line: cardverse does not allow 9 players"),
    (("--game", "rami51", "--lang", "xx", "QH", "KH", "AH"),
     "--lang: 'xx' is not a locale Babel knows; expected a locale identifier such as cs or "
     "pt_BR (with a catalog: "
     f"{', '.join(['en', *sorted({*SITE_LOCALES[1:], *SHIPPED_LOCALES})])})\n"),
    (("--game", "rami51", "--id", "Bad ID!", "QH", "KH", "AH"),
     "command line: id 'Bad ID!' has characters outside [a-z0-9-]; expected lowercase "
     "letters, digits and hyphens\n"),
])
def test_bad_input_on_the_command_line(args: tuple[str, ...], message: str) -> None:
    result = run_cli("explain", *args)
    assert result.returncode == 2
    assert result.stdout.startswith(message), result.stdout


@pytest.mark.parametrize(("text", "at"), [
    ("cases: " + "[" * 1000 + "]" * 1000 + "\n", "1:107"),
    ("kind: meld\ngame: rami51\ncards: " + "[" * 500 + "\n", "3:107")],
    ids=["case-file", "one-case"])
def test_a_case_nested_too_deep_is_reported_where_it_goes_too_deep(
        tmp_path: Path, text: str, at: str) -> None:
    """``explain --case`` reads the file as ``check`` does: 1,000 nested lists are
    reported where they go too deep, not as "the generator failed: RecursionError"."""
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("explain", "--case", str(path))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{path}:{at}: lists and mappings nested more than 100 levels deep; expected a "
        "few levels"]


def test_a_bad_card_in_a_case_file_is_reported_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(SCENARIO.replace("JC QS", "JC QX"), encoding="utf-8")
    result = run_cli("explain", "--case", str(path))
    assert result.returncode == 2
    assert result.stdout.startswith(f"{path}:5:43: unknown card 'QX'"), result.stdout


# -- what --case reads ---------------------------------------------------------------------

MELD_CASE = "kind: meld\ngame: rami51\ncards: QH KH AH\n"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> io.BufferedReader:
    """Standard input holding ``data``; returns its binary stream (to see how much of it
    was read)."""
    stream = io.BufferedReader(io.BytesIO(data))  # type: ignore[arg-type]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream, encoding="utf-8"))
    return stream


def test_a_case_on_standard_input_past_the_limit_is_refused_unread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """More than the case-file limit on standard input: at most the limit and one byte
    are read (the rest stays unread), and the case is refused."""
    from generator.cases.loader import MAX_CASE_FILE_BYTES

    stream = _stdin(monkeypatch, MELD_CASE.encode() + b"#" * (2 * MAX_CASE_FILE_BYTES))
    result = run_cli("explain", "--case", "-")
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "<stdin>:1: the case holds more than the limit of 5,000,000 bytes (5 MB) a case file "
        "may have; expected a smaller case: explain one case, or a few"]
    assert len(stream.read()) == len(MELD_CASE) + 2 * MAX_CASE_FILE_BYTES \
        - MAX_CASE_FILE_BYTES - 1  # the rest is left unread


def test_an_endless_pipe_on_standard_input_is_refused(tmp_path: Path) -> None:
    """``yes | explain --case -`` ends, refused once the limit is passed."""
    with subprocess.Popen(["yes", "# a comment"], stdout=subprocess.PIPE) as endless:
        result = subprocess.run([sys.executable, "-m", "generator", "explain", "--case", "-"],
                                stdin=endless.stdout, capture_output=True, text=True,
                                timeout=120, check=False, cwd=tmp_path)
        endless.kill()
    assert result.returncode == 2, result.stderr
    assert result.stdout.startswith("<stdin>:1: the case holds more than the limit of "
                                    "5,000,000 bytes"), result.stdout


@pytest.mark.parametrize(("source", "said"), [
    ("/dev/zero", "/dev/zero:1: a character device; expected a case file (a regular file "
     "or a pipe), or - for standard input"),
    ("/dev/null", "/dev/null:1: a character device; expected a case file (a regular file "
     "or a pipe), or - for standard input"),
    (".", ".:1: a folder; expected a case file (a regular file or a pipe), or - for "
     "standard input"),
])
def test_case_file_that_is_no_file_is_refused_unopened(source: str, said: str) -> None:
    """A device (``/dev/zero`` never ends), a folder: refused before it is opened."""
    result = run_cli("explain", "--case", source)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [said]


def test_a_device_as_standard_input_is_refused(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        result = subprocess.run([sys.executable, "-m", "generator", "explain", "--case", "-"],
                                stdin=zero, capture_output=True, text=True, timeout=60,
                                check=False, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "<stdin>:1: standard input is a device that is not a terminal; expected a case "
        "from a file, a pipe or the terminal"]


def test_a_case_file_past_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as out:
        out.truncate(5_000_001)
    result = run_cli("explain", "--case", str(big))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{big}:1: the case file has 5,000,001 bytes, more than the limit of 5,000,000 bytes "
        "(5 MB); expected a smaller file: explain one case, or a few"]


def test_a_case_from_a_named_pipe_is_read_as_cat_would(tmp_path: Path) -> None:
    """A FIFO given by name (or the shell's ``<(...)``) is read, the writer waited for:
    ``explain --case <(generate-case)`` works."""
    import os
    import threading

    fifo = tmp_path / "case.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as out:
            out.write(MELD_CASE.encode())

    writer = threading.Thread(target=write)
    writer.start()
    try:
        result = run_cli("explain", "--case", str(fifo))
    finally:
        writer.join(10)
    assert result.returncode == 0, result.stdout
    assert "      points: 31\n" in result.stdout


@pytest.mark.parametrize("where", ["file", "stdin"])
@pytest.mark.parametrize(("data", "line", "column"), [
    (MELD_CASE.replace("QH", "Q\xe9H").encode("latin-1"), 3, 9),
    (b"cases:\n  - kind: meld\n    game: rami51\n    cards: QH KH AH\n    title: Caf\xe9\n",
     5, 15),
], ids=["one-case", "case-file"])
def test_a_case_that_is_not_utf8_is_refused_where_check_refuses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, data: bytes,
        line: int, column: int) -> None:
    """A byte that is not UTF-8 is the error check gives for the file, at its line and
    column (never read as U+FFFD and explained)."""
    if where == "file":
        path = tmp_path / "case.yaml"
        path.write_bytes(data)
        name, args = str(path), ("--case", str(path))
    else:
        _stdin(monkeypatch, data)
        name, args = "<stdin>", ("--case", "-")
    result = run_cli("explain", *args)
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{name}:{line}:{column}: the file is not valid UTF-8 (byte 0xe9); expected UTF-8 "
        "text"]
