"""The editor schema (``python -m generator schema``; generator/cases/editor_schema.py):
valid draft 2020-12, every shipped case file passes, and ``check`` and the schema agree
on the mutated case files of tests/schema_mutations.py: what one catches the other
catches, but for what a JSON Schema cannot express (``EXCEPTIONS`` there). Its messages
are the ones the YAML language server shows: a node that holds a mapping's fields never
carries an ``errorMessage`` that would hide the messages of a missing or unknown field."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from generator.cases.editor_schema import editor_schema
from generator.cases.loader import load_case_text
from generator.cases.loader import load_cases
from generator.engine.cards import CardCodeError
from generator.engine.cards import code_pattern
from generator.engine.cards import parse_card
from generator.engine.rules import GAMES
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.kinds import KINDS
from generator.kinds.fields import card_codes_pattern
from generator.verify import verify_case
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import run_cli
from tests.conftest import with_game_lists
from tests.schema_mutations import BASES
from tests.schema_mutations import BOTH
from tests.schema_mutations import EXCEPTIONS
from tests.schema_mutations import MUTATIONS
from tests.schema_mutations import NEITHER
from tests.schema_mutations import Mutation

SHIPPED = sorted((REPO / "content" / "examples").glob("*.yaml"))


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    made = editor_schema()
    Draft202012Validator.check_schema(made)
    return made


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Draft202012Validator:
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


def _nodes(node: object) -> Iterator[dict[str, Any]]:
    """Every mapping in ``node``, recursively."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def _resolved(schema: dict[str, Any], node: Any) -> Any:
    """``node``, or what its ``$ref`` (a pointer into ``schema``) leads to."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = schema
        for step in node["$ref"].removeprefix("#/").split("/"):
            target = target[step.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def test_the_schema_command_prints_the_schema(schema: dict[str, Any]) -> None:
    result = run_cli("schema")
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == schema
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"case", "case-in-cardverse", "meld", "meld-in-rami51", "scenario-in-cardverse",
            "meld-elsewhere"} <= set(printed["$defs"])
    assert "first_meld-in-cardverse" not in printed["$defs"]  # Rami only
    assert printed["$defs"]["meld-in-rami51"]["title"] == "meld case in rami51"


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


def test_a_field_of_another_kind_carries_the_loaders_message(
        validator: Draft202012Validator, schema: dict[str, Any], tmp_path: Path) -> None:
    text = """\
        cases:
          - {id: a, kind: meld, game: rami51, cards: QH KH AH, title: A,
             expect: {verdict: valid, winner: 1}}
        """
    assert _problems(validator, text) == [(["cases", 0, "expect", "winner"], "enum")]
    message = ("field 'winner' in expect does not apply to kind 'meld'; expected one of: "
               "verdict, type, points, reason")
    assert message in json.dumps(schema["$defs"]["meld-elsewhere"])
    assert any(e.endswith(message) for e in _loader_errors(tmp_path, text))


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


def test_no_error_message_hides_a_missing_or_unknown_field(schema: dict[str, Any]) -> None:
    """The YAML language server shows a node's ``errorMessage`` in place of its messages
    of missing fields (``required``) and unknown ones (``additionalProperties``): a node
    with fields has none, and one with ``required`` only says which field is missing."""
    with_message = [node for node in _nodes(schema) if "errorMessage" in node]
    assert len(with_message) > 100
    for node in with_message:
        assert not {"additionalProperties", "properties", "patternProperties"} & set(node), node
        if "required" in node:
            assert set(node) == {"required", "errorMessage"}, node
    cases = [d for name, d in schema["$defs"].items() if "additionalProperties" in d]
    per_kind_and_game = sum(1 + len(kind.games) for kind in KINDS.values()) + 1 + len(GAMES)
    assert len(cases) == per_kind_and_game
    assert all(d["additionalProperties"] is False for d in cases)


def test_patterns_are_ecma_262_and_messages_are_the_loaders(schema: dict[str, Any]) -> None:
    """Editors' regular expressions are JavaScript's: no \\Z. A field that does not
    apply carries the loader's message where the YAML language server shows it, and is
    not offered in completion."""
    text = json.dumps(schema)
    assert "\\\\Z" not in text
    patterns = re.findall(r'"pattern": "((?:[^"\\]|\\.)*)"', text)
    assert patterns and all(re.compile(json.loads(f'"{p}"')) for p in patterns)
    rules = schema["$defs"]["meld-in-cardverse"]["properties"]["rules"]
    assert rules == {"enum": [], "doNotSuggest": True, "errorMessage": with_game_lists(
        "field 'rules' does not apply to game 'cardverse' (cardverse has options: "
        "ace_high, discard_to_win); expected it only with {RAMI_GAMES or}")}
    assert "x-what" not in text and "x-message" not in text


def test_completion_labels_read_as_words(schema: dict[str, Any]) -> None:
    """The YAML language server labels an item of ``cases`` and a case's schema by their
    ``title``; a kind's value completions carry what the kind takes and documents."""
    assert schema["properties"]["cases"]["items"]["title"] == "case"
    titles = {name: d.get("title") for name, d in schema["$defs"].items()}
    assert titles["joker_swap-in-rami51"] == "joker_swap case in rami51"
    assert titles["case"] == "a case"
    kind = _resolved(schema, schema["$defs"]["case"]["properties"]["kind"])
    assert kind["enum"] == list(KINDS)
    assert kind["enumDescriptions"][0] == ("cards → expect <verdict (valid or invalid), "
                                           "optionally type, points, reason>")
    offered = {name for name, field in
               schema["$defs"]["joker_swap-in-rami51"]["properties"].items()
               if isinstance(field, dict) and not _resolved(schema, field).get("doNotSuggest")}
    assert offered == {"id", "kind", "game", "rules", "title", "note", "status", "because", "draft",
                       "meld", "card", "opened", "expect"}


def test_the_card_code_pattern_takes_what_parse_card_takes() -> None:
    """Every text of up to three characters from the codes' alphabet (and some longer):
    the pattern matches exactly the codes :func:`parse_card` reads."""
    alphabet = [*"AaTt1023456789JjQqKkCcDdHhSsXx♣♦♥♠ ſ\ufe0f", "10"]
    any_code = re.compile(code_pattern())
    natural = re.compile(code_pattern(joker=False))
    texts = ["".join(chars) for size in range(4) for chars in
             itertools.product(alphabet, repeat=size)]
    texts += ["1\ufe0f0\ufe0fH\ufe0f", "\ufe0eJ\ufe0fK", "10♥️", "QH\ufe0f\ufe0f"]
    for text in texts:
        if text != text.strip():
            continue  # a code in a list has no spaces around it (card_pattern takes them)
        try:
            card = parse_card(text)
        except CardCodeError:
            card = None
        assert (any_code.fullmatch(text) is not None) == (card is not None), text
        assert (natural.fullmatch(text) is not None) == (card is not None
                                                         and not card.is_joker), text


def test_a_card_list_pattern_splits_as_the_loader_does() -> None:
    """Codes separated by any space Python splits on; commas are no separator."""
    thirteen = re.compile(card_codes_pattern(13, 14))
    hand = "QH KH AH 7S 8S 9S 2C 4D 6H 8C 10D JC 3S"
    assert thirteen.fullmatch(hand) and thirteen.fullmatch(f" {hand} 5S\u3000")
    assert not thirteen.fullmatch(hand.rsplit(" ", 1)[0])
    assert not thirteen.fullmatch(f"{hand} 5S 6S")
    assert re.compile(card_codes_pattern(1, 3)).fullmatch("QH\tKH\u2003AH")
    assert not re.compile(card_codes_pattern(1, 3)).fullmatch("QH, KH")


def test_the_kinds_editor_rules_do_not_depend_on_the_preset() -> None:
    """A case's preset may come from ``defaults``, which the schema of a case does not
    see: the rules a kind gives the editor schema are the same under every preset."""
    for kind in KINDS.values():
        for game in GAMES:
            rules = [kind.editor_rules(rule_set(game, preset))
                     for preset in presets_of(game) or (None,)]
            assert all(r == rules[0] for r in rules), (kind.name, game)


def test_fields_given_with_some_verdicts_only_are_so_in_the_engine() -> None:
    """``FieldSpec.verdicts`` (``reason`` only with the verdict that says no, meld
    ``points`` only with ``valid``): on every shipped case and every good case of the
    mutations, the engine gives such a field with those verdicts only."""
    cases = list(load_cases(REPO).cases)
    for base in ("rami", "cardverse"):
        loaded, _doc = load_case_text((BASES / f"{base}.yaml").read_bytes(), base)
        cases += loaded.cases
    seen = set()
    for case in cases:
        values = verify_case(case).values
        for name, spec in case.spec.expect.items():
            if spec.verdicts and values.get(name) is not None:
                assert values["verdict"] in spec.verdicts, (case.id, name)
                seen.add((case.kind, name))
    assert {("meld", "points"), ("meld", "reason"), ("layoff", "points"),
            ("joker_swap", "reason")} <= seen


# -- check and the schema on the same mutated files ---------------------------------------

EDITOR_ROUND = pytest.mark.skipif(
    not EXTENDED, reason="check-jsonschema against check: RULES_EXTENDED=1 (the extended "
    "round)")
"""The comparison with check-jsonschema, every mutation (a conformance sweep through
another program: 2 s of CPU time, most of it check-jsonschema starting), runs in the
extended round only."""


@dataclass(frozen=True)
class Verdicts:
    """What each side said of one mutated file (empty: nothing)."""

    mutation: Mutation
    check: tuple[str, ...]
    schema: tuple[str, ...] | None  # None: not given to check-jsonschema

    @property
    def outcome(self) -> str:
        """``both``, ``neither``, ``check only`` or ``schema only``."""
        schema = bool(self.schema) if self.schema is not None else False
        if self.check:
            return BOTH if schema else "check only"
        return "schema only" if schema else NEITHER

    @property
    def agrees(self) -> bool:
        """The outcome the mutation expects: a named exception is ``check`` only."""
        expected = self.mutation.expected
        if expected in (BOTH, NEITHER):
            return self.outcome == expected
        return self.outcome == "check only"


def _check_says(mutation: Mutation) -> tuple[str, ...]:
    """``check``'s input errors and failing disagreements for the mutated file."""
    cases, _doc = load_case_text(mutation.data(), "content/examples/m.yaml")
    said = [e.format() for e in cases.errors]
    for case in cases.cases:
        said += [f"case {case.id}: {d.field} documented {d.documented}, engine {d.engine}"
                 for d in verify_case(case).failing]
    return tuple(said)


def _check_jsonschema(files: list[Path], folder: Path) -> dict[str, list[dict[str, str]]]:
    """check-jsonschema's errors for each of ``files`` (by path), all in one run."""
    schema = folder / "case-file.schema.json"
    schema.write_text(json.dumps(editor_schema()), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--output-format", "json",
         "--schemafile", str(schema), *map(str, files)],
        capture_output=True, text=True, timeout=300, check=False)
    report = json.loads(result.stdout)
    said: dict[str, list[dict[str, str]]] = {str(path): [] for path in files}
    for error in [*report.get("errors", []), *report.get("parse_errors", [])]:
        said[error["filename"]].append(error)
    return said


def _table(rows: list[Verdicts]) -> str:
    """The comparison, a row per mutation: who caught it, and the first words of each."""
    lines = [f"{'mutation':46} {'expected':15} {'outcome':12} check / check-jsonschema"]
    for row in rows:
        mark = "" if row.agrees else "  <-- DIFFERENCE"
        first_check = row.check[0].split(": ", 1)[-1][:60] if row.check else "-"
        first_schema = ("(not given)" if row.schema is None
                        else row.schema[0][:60] if row.schema else "-")
        lines.append(f"{row.mutation.id:46} {row.mutation.expected:15} {row.outcome:12} "
                     f"{first_check} / {first_schema}{mark}")
    return "\n".join(lines)


_WRONG_KIND = ("cases:\n  - {id: a, kind: meldd, game: rami51, cards: QH, title: A, "
               "expect: {verdict: valid}}\n")


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[
        list[Verdicts], dict[str, list[dict[str, str]]]]:
    """The mutations and the good files through ``check`` and
    check-jsonschema; and check-jsonschema's errors of the shipped case files and of a
    file with a wrong kind (the last file), given to it in the same run."""
    folder = tmp_path_factory.mktemp("mutations")
    goods = [Mutation(f"good-{base}", base, "", (BASES / f"{base}.yaml").read_text(),
                      NEITHER) for base in ("rami", "cardverse", "scenario")]
    chosen = goods + list(MUTATIONS)
    files = {}
    for mutation in chosen:
        if mutation.schema:
            files[mutation.id] = folder / f"{mutation.id}.yaml"
            files[mutation.id].write_bytes(mutation.data())
    wrong_kind = folder / "wrong-kind.yaml"
    wrong_kind.write_text(_WRONG_KIND, encoding="utf-8")
    said = _check_jsonschema([*files.values(), *SHIPPED, wrong_kind], folder)
    verdicts = [Verdicts(m, _check_says(m), tuple(
        f"{e.get('path', '')} {e['message']}" for e in said[str(files[m.id])])
        if m.schema else None) for m in chosen]
    return verdicts, said


@pytest.mark.extended
@EDITOR_ROUND
def test_check_jsonschema_reads_it_as_an_editor_does(
        compared: tuple[list[Verdicts], dict[str, list[dict[str, str]]]]) -> None:
    """check-jsonschema parses YAML 1.2 and matches patterns as ECMA-262 (regress), as
    the YAML language server does: the shipped files pass, a wrong kind fails."""
    said = compared[1]
    assert {str(path): said[str(path)] for path in SHIPPED} == {str(p): [] for p in SHIPPED}
    [wrong] = [errors for path, errors in said.items() if path.endswith("wrong-kind.yaml")]
    # (the kind's enum is met once per branch that reads it: the same error, said once)
    assert sorted({(e["path"], e["message"]) for e in wrong}) == [
        ("$.cases[0].kind", f"'meldd' is not one of {list(KINDS)}")]


@pytest.mark.extended
@EDITOR_ROUND
def test_check_and_the_editor_schema_catch_the_same_mutations(
        compared: tuple[list[Verdicts], dict[str, list[dict[str, str]]]]) -> None:
    """Each mutated file is caught by both, by neither (a change that leaves it valid),
    or by ``check`` only for a reason a JSON Schema cannot express
    (:data:`tests.schema_mutations.EXCEPTIONS`). The table is printed (``-s``); a
    difference fails with the table."""
    comparison = compared[0]
    table = _table(comparison)
    print(f"\n{table}")
    counts = {outcome: sum(r.outcome == outcome for r in comparison)
              for outcome in (BOTH, NEITHER, "check only", "schema only")}
    print(f"{len(comparison)} files: " + ", ".join(f"{n} {o}" for o, n in counts.items()))
    assert [r.mutation.id for r in comparison if not r.agrees] == [], table


def test_the_mutations_name_real_exceptions() -> None:
    """Every mutation expects an outcome or a named exception, ids are unique, each
    exception has a mutation, and most mutations are caught by both."""
    assert len({m.id for m in MUTATIONS}) == len(MUTATIONS)
    expected = {m.expected for m in MUTATIONS}
    assert expected <= {BOTH, NEITHER, *EXCEPTIONS}
    assert set(EXCEPTIONS) <= expected
    assert sum(m.expected == BOTH for m in MUTATIONS) > 100
