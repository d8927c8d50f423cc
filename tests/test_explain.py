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
    (("--game", "rami51", "--lang", "xx", "QH", "KH", "AH"), "--lang: no catalog for 'xx'"),
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
