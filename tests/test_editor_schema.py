"""The editor schema (``python -m generator schema``; generator/cases/editor_schema.py):
valid draft 2020-12, every shipped case file passes, and what the loader calls an input
error of the schema's kind (a misspelt field, a wrong kind, a field that does not apply
to the defaults' game) the schema flags too, at the same place."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from generator.cases.editor_schema import editor_schema
from generator.cases.loader import load_cases
from generator.kinds import KINDS
from tests.conftest import REPO
from tests.conftest import run_cli

SHIPPED = sorted((REPO / "content" / "examples").glob("*.yaml"))


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = editor_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _problems(validator: Draft202012Validator, text: str) -> list[tuple[list[Any], str]]:
    """(path, jsonschema's validator keyword) of every error, sorted."""
    value = yaml.safe_load(textwrap.dedent(text))
    return sorted(((list(e.absolute_path), str(e.validator))
                   for e in validator.iter_errors(value)), key=str)


def _loader_errors(tmp_path: Path, text: str) -> list[str]:
    examples = tmp_path / "content" / "examples"
    examples.mkdir(parents=True, exist_ok=True)
    (examples / "cases.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return [e.format() for e in load_cases(tmp_path).errors]


def test_the_schema_command_prints_the_schema() -> None:
    result = run_cli("schema")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == editor_schema()
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(printed["$defs"]) >= {"case", "case-game=cardverse", "case-kind=meld",
                                     "case-kind=meld,game=rami51"}


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_case_file_is_valid(validator: Draft202012Validator, path: Path) -> None:
    value = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert len(value["cases"]) > 0
    assert [e.message for e in validator.iter_errors(value)] == []


def test_a_misspelt_field_is_flagged(validator: Draft202012Validator, tmp_path: Path) -> None:
    text = """\
        cases:
          - id: three-hearts
            kind: meld
            game: rami51
            cardz: QH KH AH
            title: Three hearts
            expect: {verdict: valid}
        """
    assert _problems(validator, text) == [(["cases", 0], "additionalProperties"),
                                          (["cases", 0], "required")]
    errors = [e.message for e in validator.iter_errors(yaml.safe_load(textwrap.dedent(text)))]
    assert "Additional properties are not allowed ('cardz' was unexpected)" in errors
    assert "'cards' is a required property" in errors
    assert any("unknown field 'cardz'" in e for e in _loader_errors(tmp_path, text))


def test_a_wrong_kind_is_flagged(validator: Draft202012Validator, tmp_path: Path) -> None:
    text = """\
        cases:
          - {id: a, kind: meldd, game: rami51, cards: QH KH AH, title: A, expect: {verdict: valid}}
        """
    assert _problems(validator, text) == [(["cases", 0, "kind"], "enum")]
    assert any("unknown kind 'meldd'" in e for e in _loader_errors(tmp_path, text))


def test_an_expect_field_of_another_kind_is_flagged(validator: Draft202012Validator) -> None:
    text = """\
        cases:
          - {id: a, kind: meld, game: rami51, cards: QH KH AH, title: A,
             expect: {verdict: valid, winner: 1}}
        """
    assert _problems(validator, text) == [(["cases", 0, "expect"], "additionalProperties")]


DEFAULTED = [
    # (file, the paths the schema flags); the loader reports an error in each flagged one
    ("""\
        defaults: {game: cardverse}
        cases:
          - {id: a, kind: meld, cards: QH KH AH, title: A, expect: {verdict: valid, points: 31}}
        """, [["cases", 0, "expect", "points"]]),
    ("""\
        defaults: {game: cardverse}
        cases:
          - {id: a, kind: first_meld, melds: [QH KH AH], title: A, expect: {verdict: accepted}}
        """, [["cases", 0]]),
    ("""\
        defaults: {game: cardverse, rules: reference}
        cases:
          - {id: a, kind: meld, rules: house, cards: QH KH AH, title: A, expect: {verdict: valid}}
        """, [["cases", 0, "rules"]]),
    ("""\
        defaults: {kind: meld, game: rami51}
        cases:
          - {id: a, cards: QH KH AH, title: A, expect: {verdict: valid, points: 31}}
          - {id: b, melds: [QH KH AH], title: B, expect: {verdict: accepted}}
          - {id: c, kind: deck, players: 4, title: C, expect: {decks: 2}}
          - {id: d, game: cardverse, cards: QH KH AH, title: D, expect: {points: 31}}
        """, [["cases", 1], ["cases", 1, "expect", "verdict"], ["cases", 1, "melds"],
              ["cases", 3, "expect"], ["cases", 3, "expect", "points"]]),
    ("""\
        cases:
          - {id: a, kind: meld, cards: QH KH AH, title: A, expect: {verdict: valid}}
        """, [["cases", 0]]),
]


@pytest.mark.parametrize(("text", "flagged"), DEFAULTED, ids=[
    "meld-points-in-default-cardverse", "rami-kind-in-default-cardverse",
    "rules-in-default-cardverse", "default-kind-and-game", "no-game-anywhere"])
def test_defaults_are_read_as_the_loader_reads_them(
        validator: Draft202012Validator, tmp_path: Path, text: str,
        flagged: list[list[Any]]) -> None:
    """A case's own kind and game win; a default fills in the rest, and what does not
    apply to it is flagged, as the loader reports it."""
    assert sorted({tuple(path) for path, _ in _problems(validator, text)}) == \
        sorted(tuple(path) for path in flagged)
    errors = _loader_errors(tmp_path, text)
    cases = textwrap.dedent(text).splitlines()
    for path in flagged:
        line = next(n for n, row in enumerate(cases, 1) if f"id: {'abcd'[path[1]]}," in row)
        assert any(e.startswith(f"content/examples/cases.yaml:{line}:") for e in errors), errors


def test_a_schema_accepted_file_loads_without_error(validator: Draft202012Validator,
                                                    tmp_path: Path) -> None:
    text = """\
        defaults: {kind: meld, game: rami51, rules: house}
        cases:
          - {id: a, cards: QH KH AH, title: A, expect: {verdict: valid, points: 31}}
          - {id: b, game: cardverse, cards: QH KH AH, title: B, expect: {verdict: valid}}
          - {id: c, kind: deck, players: 4, title: C, expect: {decks: 2}}
        """
    assert _problems(validator, text) == []
    assert _loader_errors(tmp_path, text) == []


def test_patterns_are_ecma_262_and_messages_are_the_loaders() -> None:
    """Editors' regular expressions are JavaScript's: no \\Z. A field that does not
    apply carries the loader's message where the YAML language server shows it."""
    text = json.dumps(editor_schema())
    assert "\\\\Z" not in text
    patterns = re.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', text)
    assert patterns and all(re.compile(json.loads(f'"{p}"')) for p in patterns)
    assert ("field 'rules' does not apply to game 'cardverse' (cardverse has options: "
            "ace_high, discard_to_win); expected it only with rami40 or rami51") in text
    assert '"deprecationMessage"' in text and "x-what" not in text


def test_check_jsonschema_reads_it_as_an_editor_does(tmp_path: Path) -> None:
    """check-jsonschema parses YAML 1.2 and matches patterns as ECMA-262 (regress), as
    the YAML language server does: the shipped files pass, a wrong kind fails."""
    schema = tmp_path / "case-file.schema.json"
    schema.write_text(run_cli("schema").stdout, encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("cases:\n  - {id: a, kind: meldd, game: rami51, cards: QH, title: A, "
                   "expect: {verdict: valid}}\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--schemafile", str(schema),
         *map(str, SHIPPED), str(bad)],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 1
    assert [line.strip() for line in result.stdout.splitlines() if "::$" in line] == [
        f"{bad}::$.cases[0].kind: 'meldd' is not one of {list(KINDS)}"]
