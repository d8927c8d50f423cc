"""The case-file loading stage: generator.errors and generator.cases.

Each input-error case is a fixture file under ``tests/fixtures/loader/`` (the case file
and, beside it, the exact ``FILE:LINE:COL: message`` of every error the loader reports),
read by one parametrized test; the tests that build or compute something stay as code.
"""

from __future__ import annotations

import io
import os
import shutil
import textwrap
from pathlib import Path
from types import MappingProxyType

import pytest
import yaml
from jsonschema import Draft202012Validator

from generator import yamlpos
from generator.cases import Case
from generator.cases import CaseSet
from generator.cases import Position
from generator.cases import load_cases
from generator.cases.schema import CASE_FIELDS
from generator.cases.schema import case_schema
from generator.cases.schema import file_schema
from generator.content.extractors import extract_cases
from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.cards import parse_card
from generator.engine.codes import MeldReason
from generator.engine.codes import OpeningReason
from generator.errors import InputError
from generator.kinds import KINDS
from generator.kinds.deck import PlayersInput
from generator.kinds.first_meld import MeldsInput
from generator.kinds.meld import MELD_REASONS
from generator.kinds.meld import CardsInput
from tests.conftest import run_process
from tests.conftest import with_game_lists

REPO = Path(__file__).resolve().parent.parent

NEEDS = " (a case needs id, kind, game, title and expect)"

CARD_HELP = ("expected a rank (A 2-10 J Q K, T for 10) and a suit (C D H S or ♣ ♦ ♥ ♠), "
             "or JK")


def write(project: Path, name: str, text: str) -> Path:
    """Write ``content/examples/<name>`` (dedented) and return its path."""
    path = project / "content" / "examples" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def load_one(tmp_path: Path, text: str, name: str = "x.yaml") -> CaseSet:
    write(tmp_path, name, text)
    return load_cases(tmp_path)


def formatted(case_set: CaseSet) -> list[str]:
    return [error.format() for error in case_set.errors]


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes.split())


MELD = """
cases:
  - id: {id}
    kind: meld
    game: {game}
    cards: {cards}
    title: T
    expect:
      verdict: valid
"""


# -- errors.py -----------------------------------------------------------------


def test_input_error_format_with_and_without_column() -> None:
    assert InputError("content/examples/a.yaml", 4, 7, "bad; good").format() == (
        "content/examples/a.yaml:4:7: bad; good")
    assert InputError("content/examples/a.yaml", 1, None, "bad; good").format() == (
        "content/examples/a.yaml:1: bad; good")
    assert InputError("a.yaml", 2, None, "m").as_dict() == {
        "file": "a.yaml", "line": 2, "column": None, "message": "m"}


# -- one fixture per input-error class (tests/fixtures/loader/) -----------------
#
# ``NAME.yaml`` is written as ``content/examples/x.yaml`` (a folder ``NAME/`` is the whole
# ``content/examples``); ``NAME.expected`` holds every error the loader reports, one
# ``FILE:LINE:COL: message`` a line and in order, then optionally ``== loaded`` (the
# cases that load, ``id game`` a line, in order) and ``== files`` (the case files read).

LOADER_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "loader"


def read_expected(path: Path) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {"errors": []}
    lines = sections["errors"]
    for line in with_game_lists(path.read_text(encoding="utf-8")).splitlines():
        if line.startswith("== "):
            lines = sections.setdefault(line[3:], [])
        else:
            lines.append(line)
    return sections


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in LOADER_FIXTURES.glob("*.expected")))
def test_loader_fixture(tmp_path: Path, name: str) -> None:
    examples = tmp_path / "content" / "examples"
    source = LOADER_FIXTURES / name
    if source.is_dir():
        shutil.copytree(source, examples)
    else:
        examples.mkdir(parents=True)
        shutil.copyfile(source.with_suffix(".yaml"), examples / "x.yaml")
    expected = read_expected(source.with_suffix(".expected"))
    result = load_cases(tmp_path)
    assert formatted(result) == expected["errors"]
    if "loaded" in expected:
        assert [f"{c.id} {c.game}" for c in result.cases] == expected["loaded"]
    if "files" in expected:
        assert list(result.files) == expected["files"]


def test_every_loader_fixture_has_its_input() -> None:
    for expected in LOADER_FIXTURES.glob("*.expected"):
        stem = expected.with_suffix("")
        assert stem.is_dir() or stem.with_suffix(".yaml").is_file(), expected.name
    for item in LOADER_FIXTURES.iterdir():
        assert item.with_suffix(".expected").is_file() or (
            item.is_dir() and (LOADER_FIXTURES / f"{item.name}.expected").is_file()), item


def test_yaml_tab_indentation_is_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "content" / "examples" / "x.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("cases:\n\t- id: a\n", encoding="utf-8")
    [error] = load_cases(tmp_path).errors
    assert (error.line, error.column) == (2, 1)
    assert error.message.startswith("YAML syntax error: found character '\\t' that cannot "
                                    "start any token")
    assert error.message.endswith("; expected valid YAML (indent with spaces, not tabs)")


@pytest.mark.parametrize(
    ("cards_text", "column"),
    [
        ("QH KX AH", 15),  # plain: the column of KX within the line
        ('"QH KX AH"', 16),  # double-quoted: one more for the quote
        ("'Q♥  KX A♥'", 17),  # single-quoted, symbols and two spaces
        ('"QH\\tKX AH"', 12),  # an escape: the string's own column
    ],
)
def test_bad_card_code_in_a_string(tmp_path: Path, cards_text: str, column: int) -> None:
    result = load_one(tmp_path, MELD.format(id="a", game="rami51", cards=cards_text))
    assert formatted(result) == [
        f"content/examples/x.yaml:5:{column}: unknown card 'KX' (bad suit); {CARD_HELP}"]


def test_duplicate_id_in_one_file(tmp_path: Path) -> None:
    text = MELD.format(id="a", game="rami51", cards="QH KH AH")
    result = load_one(tmp_path, text + text.replace("cases:\n", ""))
    assert formatted(result) == [
        "content/examples/x.yaml:10:9: duplicate case id 'a' (first defined at "
        "content/examples/x.yaml:2:9); expected ids unique across all case files"]
    # the first is kept, the second dropped
    [case] = result.cases
    assert case.position == Position("content/examples/x.yaml", 2, 5)


def test_three_copies_in_rami_are_fine(tmp_path: Path) -> None:
    result = load_one(tmp_path, MELD.format(id="a", game="rami51", cards="7S 7s 7♠ JK"))
    assert result.errors == ()
    assert result.cases[0].inputs.cards == (*cards("7S 7S 7S"), JOKER)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "x.yaml", MELD.format(id="a", game="rami51", cards="QH KH AH"))

    real_open = os.open

    def refuse(path: str, flags: int, *args: int, **kwargs: int) -> int:
        if str(path).endswith("x.yaml"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    assert formatted(load_cases(tmp_path)) == [
        "content/examples/x.yaml:1: cannot read the file: Permission denied; expected a "
        "readable file"]


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    result = load_one(tmp_path, "\n".join(lines) + "\n")
    assert [e.format() for e in result.errors] == [
        "content/examples/x.yaml:1: aliases expand to more than 50000 values; expected each "
        "alias (*name) to repeat a small value, or the values written out"]


@pytest.mark.parametrize(("text", "at"), [
    ("cases: " + "[" * 30_000 + "]" * 30_000 + "\n", "1:107"),  # the root is a level
    ("cases: " + "[" * 30_000 + "\n", "1:107"),  # unclosed too
    ("cases:\n" + "- " * 30_000 + "x\n", "2:199"),
    ("{a: " * 30_000 + "}" * 30_000 + "\n", "1:401"),
    ("a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 120)), "101:101")],
    ids=["flow-lists", "unclosed", "block-lists", "flow-mappings", "block-mappings"])
def test_lists_and_mappings_nested_too_deep_are_an_error_where_they_go_too_deep(
        tmp_path: Path, text: str, at: str) -> None:
    """Deeper than MAX_DEPTH is an error at the list or mapping that goes too deep,
    found before the document is composed (libyaml's composer recurses in C: 30,000
    nested ``[``, a 60 KB case file, would end the process with no word) and before
    libyaml's own limit (1,000 levels in PyYAML 6.0.4, whose scanner reads ahead in a
    flow list): the same error on every PyYAML version (tests/test_yaml_nesting.py)."""
    assert yamlpos.MAX_DEPTH == 100
    assert formatted(load_one(tmp_path, text)) == [
        f"content/examples/x.yaml:{at}: lists and mappings nested more than 100 levels "
        "deep; expected a few levels"]


def test_nesting_that_only_aliases_make_too_deep_is_an_error_where_it_goes_too_deep(
        tmp_path: Path) -> None:
    """Twenty anchors of 90 nested lists, each around the one before (91 levels as
    written, 1,800 through the aliases): the error is at the alias's list that goes too
    deep, and says why."""
    text = "a0: &a0 [x]\n" + "".join(
        f"a{i}: &a{i} " + "[" * 90 + f"*a{i - 1}" + "]" * 90 + "\n" for i in range(1, 21))
    assert formatted(load_one(tmp_path, text)) == [
        "content/examples/x.yaml:2:18: lists and mappings reached through aliases nested "
        "more than 100 levels deep; expected a few levels"]


def test_a_case_file_nested_30000_deep_is_an_input_error_not_a_crash(
        tmp_path: Path) -> None:
    """The same file under ``check``, in a process of its own: it ends with exit 2 and
    the error, not a segmentation fault (-11) in libyaml's composer."""
    project = tmp_path / "project"
    write(project, "deep.yaml", "cases: " + "[" * 30_000 + "]" * 30_000 + "\n")
    result = run_process("check", "--project", str(project))
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert "content/examples/deep.yaml:1:107: lists and mappings nested more than 100 " \
        "levels deep; expected a few levels" in result.stdout + result.stderr


def test_a_control_character_written_as_a_yaml_escape_is_an_input_error(
        tmp_path: Path) -> None:
    """YAML refuses a control character itself but writes one as an escape (``"\\e"``),
    which in a case's title would be published raw into the pages: it is an error at
    the string, in every YAML file read (``parse_yaml``); tab and newline escapes stay
    text."""
    result = load_one(tmp_path, """
        cases:
          - id: red
            kind: meld
            game: rami51
            cards: QH KH AH
            title: "\\e[31mRed\\tand\\nplain"
            note: "a bell\\a"
            expect: {verdict: valid}
        """)
    assert formatted(result) == [
        "content/examples/x.yaml:6:12: control character U+001B; expected printable text "
        "(remove it)",
        "content/examples/x.yaml:7:11: control character U+0007; expected printable text "
        "(remove it)"]


GOOD_CASE = """
  - id: good
    kind: meld
    game: rami51
    cards: QH KH AH
    title: T
    expect: {verdict: valid}
"""


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("defaults:\n  game: rami52\ncases:",
         "content/examples/x.yaml:2:9: unknown game 'rami52'; expected one of: {GAMES} "
         "(did you mean 'rami51'?)"),
        ("defaults:\n  kind: meld\n  kind: deck\ncases:",
         "content/examples/x.yaml:3:3: duplicate key 'kind' (first at line 2, column 3); "
         "expected each key once in a mapping"),
        ("defaults:\n  colour: red\ncases:",
         "content/examples/x.yaml:2:3: unknown field 'colour' in defaults; expected one of: "
         "kind, game, rules, options"),
        ("title: Melds\ncases:",
         "content/examples/x.yaml:1:1: unknown field 'title' in the file; expected one of: "
         "defaults, cases"),
        ("defaults: !rami {game: rami51}\ncases:",
         "content/examples/x.yaml:1:11: unsupported YAML tag '!rami'; expected a plain "
         "mapping"),
    ],
    ids=["bad-default", "duplicate-key-in-defaults", "unknown-default", "unknown-top-level",
         "tag-in-defaults"],
)
def test_an_error_in_the_file_frame_drops_the_whole_file(
        tmp_path: Path, head: str, expected: str) -> None:
    write(tmp_path, "x.yaml", head + GOOD_CASE)
    result = load_cases(tmp_path)
    assert formatted(result) == [with_game_lists(expected)]
    assert result.cases == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  - id: a\n    kind: first_meld\n    game: rami51\n    melds: [QH KH AH]\n"
         "    title: T\n    expect: {points: 31}\n",
         "content/examples/x.yaml:7:13: missing field 'verdict' in expect; expected verdict: "
         "accepted or rejected"),
        ("  - id: a\n    kind: meld\n    game: cardverse\n    cards: QH KH AH\n    title: T\n",
         "content/examples/x.yaml:2:5: missing field 'expect' in case; expected expect: "
         f"<verdict (valid or invalid), optionally type, reason>{NEEDS}"),
        ("  - id: a\n    kind: meld\n    game: rami51\n    cards: QH KH AH\n    title: T\n",
         "content/examples/x.yaml:2:5: missing field 'expect' in case; expected expect: "
         f"<verdict (valid or invalid), optionally type, points, reason>{NEEDS}"),
        ("  - id: a\n    kind: deck\n    game: rami40\n    players: 2\n    title: T\n",
         "content/examples/x.yaml:2:5: missing field 'expect' in case; expected expect: "
         f"<one or more of decks, jokers, cards, hand_size>{NEEDS}"),
        ("  - id: a\n    kind: first_meld\n    game: rami51\n    title: T\n"
         "    expect: {verdict: accepted}\n",
         "content/examples/x.yaml:2:5: missing field 'melds' in first_meld case; expected "
         "melds: <a list of card lists, e.g. [QH KH AH, JK 7S 8S]>"),
        ("  - id: a\n    kind: deck\n    game: rami40\n    title: T\n    expect: {decks: 2}\n",
         "content/examples/x.yaml:2:5: missing field 'players' in deck case; expected "
         "players: <number of players>"),
        ("  - kind: deck\n    game: rami40\n    players: 2\n    title: T\n"
         "    expect: {decks: 2}\n",
         "content/examples/x.yaml:2:5: missing field 'id' in case; expected id: <lowercase "
         f"letters, digits and hyphens, unique across all case files>{NEEDS}"),
    ],
    ids=["verdict-first-meld", "expect-cardverse-meld", "expect-rami-meld", "expect-deck",
         "melds", "players", "id"],
)
def test_missing_field_says_what_it_should_hold(
        tmp_path: Path, text: str, expected: str) -> None:
    write(tmp_path, "x.yaml", "cases:\n" + text)
    result = load_cases(tmp_path)
    assert formatted(result) == [expected]
    assert result.cases == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cases:\n  - id: a\n    title: foo: bar\n",
         "3:15: YAML syntax error: mapping values are not allowed here; expected valid YAML "
         "(check the indentation and quote values containing ': ')"),
        ("cases:\n  - id: a\n    title\n    kind: meld\n",
         "4:5: YAML syntax error: could not find expected ':' (while scanning a simple key at "
         "line 3); expected valid YAML (each field is 'name: value' on its own line: add the "
         "missing ':', or indent a continued text more than its field name)"),
        ("cases:\n  - id: a\n    kind:\tmeld\n\tgame: x\n",
         "3:10: YAML syntax error: found character '\\t' that cannot start any token (while "
         "scanning for the next token); expected valid YAML (indent with spaces, not tabs)"),
        ('cases:\n  - id: "a\n    kind: meld\n',
         "4:1: YAML syntax error: found unexpected end of stream (while scanning a quoted "
         "scalar at line 2); expected valid YAML (close the quote: a value that starts with "
         "a quote ends with the same quote)"),
        ("cases:\n  - cards: [QH, KH\n    kind: meld\n",
         "3:9: YAML syntax error: expected ',' or ']', but got ':' (while parsing a flow "
         "sequence at line 2); expected valid YAML (close the '[' with ']' and separate the "
         "items with ',')"),
        ("cases:\n  - expect: {verdict: valid\n    kind: meld\n",
         "3:9: YAML syntax error: expected ',' or '}', but got ':' (while parsing a flow "
         "mapping at line 2); expected valid YAML (close the '{' with '}' and separate the "
         "entries with ',')"),
        ("cases: [\n",
         "2:1: YAML syntax error: expected the node content, but found '<stream end>' (while "
         "parsing a flow node); expected valid YAML (close every '[' with ']' and every '{' "
         "with '}')"),
        ("cases:\n  - id: a\n    kind: meld\n   game: x\n",
         "4:4: YAML syntax error: expected <block end>, but found '<block mapping start>' "
         "(while parsing a block collection at line 2); expected valid YAML (check the "
         "indentation: the fields of one mapping start in the same column, deeper than the "
         "field that holds them)"),
        ("cases:\n  -id: a\n  - id: b\n",
         "3:3: YAML syntax error: expected <block end>, but found '-' (while parsing a block "
         "mapping at line 2); expected valid YAML (check the indentation: the items of one "
         "list start in the same column, each starting with '- ', a space after the dash)"),
        ('cases:\n  - id: "a" b\n',
         "2:13: YAML syntax error: expected <block end>, but found '<scalar>' (while parsing "
         "a block mapping); expected valid YAML (quote the whole value, or check the "
         "indentation)"),
        ("cases:\n  - title: @home\n",
         "2:12: YAML syntax error: found character '@' that cannot start any token (while "
         "scanning for the next token); expected valid YAML (quote a value that starts with "
         "'@')"),
        ("cases:\n  - title: *all\n",
         "2:12: YAML syntax error: found undefined alias 'all'; expected valid YAML (quote a "
         "value that starts with '*' or '&')"),
        ('cases:\n  - title: "a\\q"\n',
         "2:15: YAML syntax error: found unknown escape character 'q' (while scanning a "
         "double-quoted scalar); expected valid YAML (in double quotes write a backslash as "
         "\\\\, or use single quotes)"),
        ("cases: []\n---\ncases: []\n",
         "2:1: YAML syntax error: expected a single document in the stream, but found another "
         "document; expected valid YAML (one document per file: remove the '---' line)"),
    ],
    ids=["colon-in-value", "missing-colon", "tab", "unclosed-quote", "unclosed-bracket",
         "unclosed-brace", "unclosed-at-end", "indentation", "list-dash", "after-quote",
         "reserved-character", "alias", "escape", "two-documents"],
)
def test_yaml_syntax_errors_say_what_to_do(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "content" / "examples" / "x.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    result = load_cases(tmp_path)
    assert formatted(result) == ["content/examples/x.yaml:" + expected]
    assert result.cases == ()


def test_case_files_not_named_yaml_are_errors(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", MELD.format(id="a", game="rami51", cards="QH KH AH"))
    write(tmp_path, "b.yml", MELD.format(id="b", game="rami51", cards="QH KH AH"))
    write(tmp_path, "c/d.YAML", MELD.format(id="d", game="rami51", cards="QH KH AH"))
    write(tmp_path, "e.Yml", "not: a case file\n")
    write(tmp_path, "notes.txt", "not a case file at all\n")
    (tmp_path / "content" / "examples" / "f.yml").mkdir()  # a folder: not a file
    result = load_cases(tmp_path)
    assert formatted(result) == [
        "content/examples/b.yml:1: file name ends in '.yml', so it is not read as a case "
        "file; expected a name ending in .yaml (rename it to b.yaml)",
        "content/examples/c/d.YAML:1: file name ends in '.YAML', so it is not read as a case "
        "file; expected a name ending in .yaml (rename it to d.yaml)",
        "content/examples/e.Yml:1: file name ends in '.Yml', so it is not read as a case "
        "file; expected a name ending in .yaml (rename it to e.yaml)",
    ]
    assert result.files == ("content/examples/a.yaml",)
    assert [c.id for c in result.cases] == ["a"]


# -- good files -----------------------------------------------------------------


GOOD = """
# A comment first
defaults:
  game: rami51
  rules: house
cases:
  - id: queen-king-ace
    kind: meld
    cards: Q♥ k♥ AH
    title: Queen, king and ace
    note: The ace is high.
    expect:
      verdict: valid
      type: run
      points: 31

  - id: two-melds
    kind: first_meld
    game: rami40
    rules: reference
    melds:
      - [5C, 6C, 7C]
      - "KH KS KD"
    title: Two melds
    expect: {verdict: accepted, points: 48}

  - id: cardverse-four
    kind: deck
    game: cardverse
    players: 4
    title: CardVerse for four
    expect:
      decks: 1
      hand_size: 10

  - id: cardverse-ace-high
    kind: meld
    game: cardverse
    options: {ace_high: true}
    cards: [10♠, J♠, Q♠]
    title: Ten, jack, queen
    expect: {verdict: valid}
"""


def test_good_file_loads_with_the_right_values(tmp_path: Path) -> None:
    result = load_one(tmp_path, GOOD, name="melds.yaml")
    assert result.errors == ()
    assert result.files == ("content/examples/melds.yaml",)
    assert [c.id for c in result.cases] == [
        "queen-king-ace", "two-melds", "cardverse-four", "cardverse-ace-high"]
    meld, opening, deck, cardverse = result.cases

    assert meld.kind == "meld"
    assert meld.game == "rami51"  # from defaults
    assert meld.rules == "house"  # from defaults
    assert meld.options == {}
    assert meld.inputs == CardsInput((Card(Rank.QUEEN, Suit.HEARTS),
                                      Card(Rank.KING, Suit.HEARTS), Card(Rank.ACE, Suit.HEARTS)))
    assert meld.title == "Queen, king and ace"
    assert meld.note == "The ace is high."
    assert meld.expect == {"verdict": "valid", "type": "run", "points": 31}
    assert meld.rule_set().preset == "house"
    assert meld.rule_set().opening_threshold == 51

    assert opening.game == "rami40" and opening.rules == "reference"
    assert opening.inputs == MeldsInput((cards("5C 6C 7C"), cards("KH KS KD")))
    assert opening.expect == {"verdict": "accepted", "points": 48}
    assert opening.note is None

    # defaults game and rules do not touch a case of another game: rules stays None
    assert deck.game == "cardverse"
    assert deck.rules is None
    assert deck.options == {"ace_high": False, "discard_to_win": False}
    assert deck.inputs == PlayersInput(4)
    assert deck.expect == {"decks": 1, "hand_size": 10}
    assert deck.rule_set().deck_for(4).hand_size == 10

    assert cardverse.options == {"ace_high": True, "discard_to_win": False}
    assert cardverse.inputs.cards == cards("10S JS QS")
    assert cardverse.rule_set().ace_high is True


def test_good_file_positions(tmp_path: Path) -> None:
    result = load_one(tmp_path, GOOD, name="melds.yaml")
    meld, opening, deck, _ = result.cases
    file = "content/examples/melds.yaml"
    assert meld.position == Position(file, 6, 5)
    positions = {k: (p.line, p.column) for k, p in meld.field_positions.items()}
    assert positions["id"] == (6, 5)
    assert positions["expect"] == (11, 5)
    assert positions["expect.verdict"] == (12, 7)
    assert positions["expect.type"] == (13, 7)
    assert positions["expect.points"] == (14, 7)
    # the codes of a card string, each where it is
    assert positions["cards"] == (8, 5)
    assert [positions[f"cards.{i}"] for i in range(3)] == [(8, 12), (8, 15), (8, 18)]
    # default-filled fields are where the default is
    assert positions["game"] == (3, 3)
    assert positions["rules"] == (4, 3)
    assert meld.field_positions["expect.points"].file == file

    opening_positions = {k: (p.line, p.column) for k, p in opening.field_positions.items()}
    assert opening_positions["expect.points"] == (24, 33)
    assert opening_positions["melds.0.2"] == (21, 18)
    assert opening_positions["melds.1.1"] == (22, 13)
    assert opening_positions["rules"] == (19, 5)

    # a field nobody wrote falls back to the case (built-in defaults) or its parent
    assert deck.position_of("expect.jokers") == deck.field_positions["expect"]
    assert deck.position_of("options.ace_high") == deck.position == Position(file, 26, 5)
    assert "rules" not in deck.field_positions


def test_case_values_are_immutable(tmp_path: Path) -> None:
    case = load_one(tmp_path, GOOD).cases[0]
    assert isinstance(case.expect, MappingProxyType)
    assert isinstance(case.field_positions, MappingProxyType)
    with pytest.raises(TypeError):
        case.expect["points"] = 1  # type: ignore[index]
    with pytest.raises(AttributeError):
        case.title = "x"  # type: ignore[misc]
    assert hash(case) == hash(case)


def test_by_id(tmp_path: Path) -> None:
    result = load_one(tmp_path, GOOD)
    assert result.by_id["two-melds"] is result.cases[1]
    assert result.get("nope") is None
    assert result.ok


def test_defaults_kind_and_options_fill_only_where_they_apply(tmp_path: Path) -> None:
    result = load_one(tmp_path, """
        defaults:
          kind: meld
          rules: house
          options: {discard_to_win: true}
        cases:
          - id: rami
            game: rami51
            cards: QH KH AH
            title: T
            expect: {verdict: valid}
          - id: cardverse
            game: cardverse
            cards: QH KH AH
            title: T
            expect: {verdict: valid}
        """)
    assert result.errors == ()
    rami, cardverse = result.cases
    assert (rami.kind, rami.rules, dict(rami.options)) == ("meld", "house", {})
    assert (cardverse.kind, cardverse.rules, dict(cardverse.options)) == (
        "meld", None, {"ace_high": False, "discard_to_win": True})
    assert cardverse.field_positions["options.discard_to_win"] == Position(
        "content/examples/x.yaml", 4, 13)
    assert rami.field_positions["kind"] == Position("content/examples/x.yaml", 2, 3)


def test_no_examples_folder(tmp_path: Path) -> None:
    assert load_cases(tmp_path) == CaseSet()


def test_the_project_content_loads_without_errors() -> None:
    if not (REPO / "content" / "examples").is_dir():
        pytest.skip("no content/examples in this checkout")
    result = load_cases(REPO)
    assert formatted(result) == []
    assert len(result.cases) > 0
    assert all(isinstance(case, Case) for case in result.cases)


# -- the pieces -----------------------------------------------------------------


def test_schemas_are_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(case_schema())
    Draft202012Validator.check_schema(file_schema())
    assert case_schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert CASE_FIELDS == ("id", "kind", "game", "rules", "options", "title", "note",
                           "status", "because", "draft", "cards", "melds", "players", "meld",
                           "opened", "card", "hands", "start", "actions", "expect")


def test_schema_codes_match_the_engine() -> None:
    assert set(MELD_REASONS) == {reason.value for reason in MeldReason}
    opening_reasons = KINDS["first_meld"].expect["reason"].schema["enum"]
    assert opening_reasons == [reason.value for reason in OpeningReason]


def test_yaml_positions_and_values() -> None:
    doc, errors = yamlpos.parse_yaml("a:\n  - no\n  - 'x y'\nb: {c: 1}\n", "f.yaml")
    assert errors == [] and doc is not None
    assert doc.value == {"a": [False, "x y"], "b": {"c": 1}}
    assert doc.mark(("a", 1)) == yamlpos.Mark(3, 5)
    assert doc.key_mark(("b", "c")) == yamlpos.Mark(4, 5)
    assert doc.mark(("b", "c")) == yamlpos.Mark(4, 8)
    assert doc.mark(("b", "missing")) == yamlpos.Mark(4, 4)
    assert doc.column_in_scalar(("a", 1), 2) == 8


def test_pure_python_parser_gives_the_same_result(monkeypatch: pytest.MonkeyPatch) -> None:
    text = textwrap.dedent(GOOD) + "  - id: x\n    id: y\n"
    fast, fast_errors = yamlpos.parse_yaml(text, "f.yaml")
    monkeypatch.setattr(yamlpos, "_FastLoader", yaml.SafeLoader)
    slow, slow_errors = yamlpos.parse_yaml(text, "f.yaml")
    assert fast is not None and slow is not None
    assert fast.value == slow.value
    assert fast.marks == slow.marks
    assert fast_errors == slow_errors
    assert [e.format() for e in slow_errors] == [
        "f.yaml:44:5: duplicate key 'id' (first at line 43, column 5); expected each key once "
        "in a mapping"]



@pytest.mark.parametrize(("written", "message"), [
    ("051", "points must be a plain decimal integer; got 051 (write 51)"),
    ("1:48", "points must be a plain decimal integer; got 1:48"),
    ("0x1F", "points must be a plain decimal integer; got 0x1F"),
    ("0o37", "points must be a plain decimal integer; got 0o37"),
    ("3_1", "points must be a plain decimal integer; got 3_1 (write 31)"),
    ("+31", "points must be a plain decimal integer; got +31 (write 31)"),
    ("09", "points must be a plain decimal integer; got 09 (write 9)"),
    ("31.0", "points must be a plain decimal integer; got 31.0 (write 31)"),
    ("3.1e1", "points must be a plain decimal integer; got 3.1e1"),
    ("1e3", "points must be a plain decimal integer; got 1e3"),
    (".inf", "points must be a plain decimal integer; got .inf"),
    ("'051'", "points must be a plain decimal integer; got string '051' (write 51 without "
     "quotes)"),
    ("no", "points must be a plain decimal integer; got boolean false"),
])
def test_numbers_are_what_the_author_wrote(tmp_path: Path, written: str, message: str) -> None:
    """docs/site.md, numbers in case files: YAML 1.1 would read 051 as 41, 1:48 as 108, 0x1F
    and 3_1 as 31; each is an input error saying what to write."""
    result = load_one(tmp_path, f"""
        cases:
          - id: a
            kind: meld
            game: rami51
            cards: QH KH AH
            title: T
            expect: {{verdict: valid, points: {written}}}
        """)
    assert formatted(result) == [f"content/examples/x.yaml:7:38: {message}"]
    assert result.cases == ()


def test_number_like_text_stays_the_text_written(tmp_path: Path) -> None:
    result = load_one(tmp_path, """
        cases:
          - id: a
            kind: meld
            game: rami51
            cards: QH KH AH
            title: 0x1F
            note: 1:48
            expect: {verdict: valid, points: 31}
        """)
    assert formatted(result) == []
    [case] = result.cases
    assert (case.title, case.note) == ("0x1F", "1:48")
    # and i18n extract offers them to translators
    data = (tmp_path / "content/examples/x.yaml").read_bytes()
    found = [(line, text) for line, _, text, _ in extract_cases(io.BytesIO(data), {}, [], {})]
    assert found == [(6, "0x1F"), (7, "1:48")]




# -- every card-shaped field, expect's too, read by the loader ------------------------

KINDS_FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kinds" / "content" / \
    "examples" / "kinds.yaml"

CARD_EXPECT_FIELDS = [(kind.name, name) for kind in KINDS.values()
                      for name, spec in kind.expect.items() if spec.shape != "value"]
"""Every ``expect`` field a kind declares card-shaped (``FieldSpec.shape``)."""


def test_some_kind_documents_a_card() -> None:
    assert ("joker_swap", "joker_stands_for") in CARD_EXPECT_FIELDS


@pytest.mark.parametrize(("kind", "field"), CARD_EXPECT_FIELDS)
def test_a_card_field_of_expect_that_names_no_card_is_an_input_error(
        tmp_path: Path, kind: str, field: str) -> None:
    """``expect: {<field>: ZZ}`` is an input error at the value, for each kind whose
    ``expect`` field holds a card (the kind's declaration, not code of the kind's own),
    and the case is dropped: not a disagreement with the engine."""
    fixture = yaml.safe_load(KINDS_FIXTURE.read_text(encoding="utf-8"))
    case = next(c for c in fixture["cases"] if c["kind"] == kind)
    case["expect"][field] = "ZZ"
    text = yaml.safe_dump({"defaults": fixture["defaults"], "cases": [case]},
                          sort_keys=False, default_flow_style=False)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.endswith(f"{field}: ZZ"))
    column = text.splitlines()[line - 1].index("ZZ") + 1
    result = load_one(tmp_path, text)
    assert formatted(result) == [f"content/examples/x.yaml:{line}:{column}: {field}: "
                                 f"unknown card 'ZZ' (bad rank); {CARD_HELP}"]
    assert result.cases == ()


def test_the_cards_within_a_scenario_are_read_where_its_schema_marks_them(
        tmp_path: Path) -> None:
    """A scenario's ``start`` and ``actions`` are structures with cards ``within``
    (``FieldSpec.shape``): the loader reads every card its schema marks, each bad code an
    input error at it, in a hand, the discard, the stock, a table meld and each step that
    names cards; the cards of the actions name cards of the position and are not counted
    as more cards in play (``QH`` there three times is not a copy too many)."""
    result = load_one(tmp_path, """
        cases:
          - id: s
            kind: scenario
            game: rami51
            title: T
            actions:
              - meld: QH QH ZZ
              - layoff: [QH, 1X]
                onto: 1
              - take_joker: 1
                card: 7Q
              - discard: XX
            start:
              hands: [5C 6C 7C, 2C 3C AX]
              discard: 9Z
              stock: 6H KY
              table: [{seat: 1, cards: JK 7S 8W}]
            expect: {results: [legal, legal, legal, legal]}
        """)
    assert formatted(result) == [
        "content/examples/x.yaml:7:21: unknown card 'ZZ' (bad rank); " + CARD_HELP,
        "content/examples/x.yaml:8:22: unknown card '1X' (bad rank); " + CARD_HELP,
        "content/examples/x.yaml:11:15: unknown card '7Q' (bad suit); " + CARD_HELP,
        "content/examples/x.yaml:12:18: unknown card 'XX' (bad rank); " + CARD_HELP,
        "content/examples/x.yaml:14:31: unknown card 'AX' (bad suit); " + CARD_HELP,
        "content/examples/x.yaml:15:16: unknown card '9Z' (bad suit); " + CARD_HELP,
        "content/examples/x.yaml:16:17: unknown card 'KY' (bad suit); " + CARD_HELP,
        "content/examples/x.yaml:17:38: unknown card '8W' (bad suit); " + CARD_HELP,
    ]
    assert result.cases == ()


def test_a_case_meets_only_its_own_branches_with_the_whole_schemas_errors(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case is checked against the schema's branches for its game, kind and status
    only: over the mutated case files (a wrong field, a wrong type of kind or game, a
    field that does not apply, a bare yes where text belongs, ...; every sixth and those
    YAML 1.1 reads otherwise, all in the extended round), the errors are those of the
    whole schema."""
    from generator.cases import problems
    from generator.cases.loader import load_case_text
    from tests.conftest import EXTENDED
    from tests.schema_mutations import MUTATIONS

    chosen = MUTATIONS if EXTENDED else [m for i, m in enumerate(MUTATIONS)
                                         if i % 6 == 0 or m.expected == "yaml 1.1"]

    def errors() -> list[list[tuple[str, int, int | None, str]]]:
        problems._checked().clear()  # each value checked again, not remembered
        return [[(e.file, e.line, e.column, e.message)
                 for e in load_case_text(m.data(), f"{m.id}.yaml")[0].errors]
                for m in chosen]

    pruned = errors()
    validators = problems._case_validators()
    assert len(validators._made) >= 5  # distinct (game, kind, status) met
    branches = len(validators.whole.schema["allOf"])
    assert all(len(v.schema["allOf"]) < branches for v in validators._made.values())
    monkeypatch.setattr(validators, "for_case", lambda instance: validators.whole)
    whole = errors()
    assert pruned == whole
    assert sum(map(len, whole)) > (100 if EXTENDED else 15)


def test_a_cases_digest_leaves_its_positions_out_and_reads_everything_else() -> None:
    """A case's digest is the same wherever the case stands in its file, and differs when
    anything a page shows of it differs (a card of its inputs, its title, its status)."""
    import dataclasses

    case = load_cases(REPO).get("three-kings")
    assert case is not None
    moved = dataclasses.replace(case, position=Position("elsewhere.yaml", 99, 3),
                                field_positions=MappingProxyType({}),
                                value_positions=MappingProxyType({}))
    assert moved.digest == case.digest
    assert len(case.digest) == 64
    others = [
        dataclasses.replace(case, title=case.title + "!"),
        dataclasses.replace(case, status="pending"),
        dataclasses.replace(case, draft=True),
        dataclasses.replace(case, inputs=dataclasses.replace(
            case.inputs, cards=(*case.inputs.cards[:-1], JOKER))),
    ]
    assert len({case.digest, *(o.digest for o in others)}) == 1 + len(others)


def test_remembered_case_problems_tell_apart_what_the_schema_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A case's schema problems are remembered by its value (in a process that asks for
    it: ``serve``), each scalar with its type: the same value checked again gives the
    same problems, and a value that only differs in a scalar's type (a bare ``yes``
    where text belongs, ``31.0`` for ``31``) is checked on its own."""
    from generator.cases import problems
    from generator.cases.problems import case_problems

    monkeypatch.setattr(problems, "_REMEMBERING", True)
    problems._checked().clear()

    case = {"id": "qka", "kind": "meld", "game": "rami51", "title": "Yes",
            "cards": "QH KH AH", "expect": {"verdict": "valid", "points": 31}}
    assert case_problems(case) == [] and case_problems(dict(case)) == []
    bare = {**case, "title": yamlpos.BoolText("Yes")}
    problems_found = case_problems(bare)
    assert [p.path for p in problems_found] == [("title",)]
    assert case_problems(bare) == problems_found
    floated = {**case, "expect": {"verdict": "valid", "points": 31.0}}
    assert [p.path for p in case_problems(floated)] == [("expect", "points")]
    assert case_problems(case) == []
    assert len(problems._checked()) == 3
    monkeypatch.setattr(problems, "_REMEMBERING", False)  # a one-off build's
    problems._checked().clear()
    assert case_problems(bare) == problems_found and len(problems._checked()) == 0
