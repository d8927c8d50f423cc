"""The engine's codes (``generator/engine/codes.py``): one home, every member worded,
and no code word typed again as a string elsewhere in ``generator/`` or the templates."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from generator.engine import codes
from generator.engine.codes import Code
from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import JokerWhy
from generator.engine.codes import LayoffReason
from generator.engine.codes import MeldReason
from generator.engine.codes import OpeningReason
from generator.engine.codes import Option
from generator.engine.codes import PlayReason
from generator.engine.codes import Preset
from generator.engine.codes import SwapReason
from generator.engine.codes import TableJokerWhy
from generator.engine.codes import Tone
from generator.engine.codes import Verdict
from generator.engine.codes import tone
from generator.engine.rules import GAMES
from generator.engine.rules import GAMES_WITH_OPTIONS
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import games
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.i18n import words
from generator.i18n.explain import JOKER_SENTENCES
from generator.i18n.explain import TABLE_JOKER_SENTENCES

ROOT = Path(__file__).resolve().parent.parent

CODE_ENUMS = [v for v in vars(codes).values()
              if isinstance(v, type) and issubclass(v, Code) and v not in (Code, Tone)]

FIELD_NAMES = {"opened", "round_over"}
"""Case-file and view field names that are spelled like an event (``opened``: whether a
seat has opened; ``end.round_over``)."""


@pytest.mark.parametrize(("enum", "table"), [
    (Verdict, words.VERDICTS),
    (MeldReason, words.REASONS),
    (OpeningReason, words.REASONS),
    (LayoffReason, words.REASONS),
    (SwapReason, words.REASONS),
    (PlayReason, words.REASONS),
    (Event, words.EVENTS),
    (MeldReason, words.MELD_REASONS_NUMBERED),
    (Preset, words.PRESETS),
    (Option, words.OPTIONS),
    (JokerWhy, JOKER_SENTENCES),
    (TableJokerWhy, TABLE_JOKER_SENTENCES),
])
def test_every_member_has_its_message(enum: type[Code], table: dict[str, str]) -> None:
    assert [m for m in enum if m not in table] == []


def test_every_end_reason_but_going_out_has_its_message() -> None:
    # going out is said by the winner's sentence ("… went out and wins the round")
    assert [m for m in EndReason if m not in words.END_REASONS] == [EndReason.WENT_OUT]


def test_members_are_their_code_words() -> None:
    assert MeldReason.WRAPS_AROUND == "wraps_around"
    assert f"{Verdict.CAN_OPEN}" == "can_open"
    assert repr(PlayReason.MUST_DRAW) == "'must_draw'"
    assert {Event.OPENED: 1}["opened"] == 1


def test_every_member_has_a_docstring() -> None:
    source = (ROOT / "generator/engine/codes.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        body = node.body
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign):
                follows = body[i + 1] if i + 1 < len(body) else None
                assert isinstance(follows, ast.Expr) and isinstance(follows.value, ast.Constant), (
                    f"{node.name}.{ast.unparse(stmt.targets[0])} has no docstring")


@pytest.mark.parametrize(("verdict", "expected"), [
    (Verdict.VALID, Tone.OK), (Verdict.ACCEPTED, Tone.OK), (Verdict.ALLOWED, Tone.OK),
    (Verdict.CAN_OPEN, Tone.OK), (Verdict.INVALID, Tone.BAD), (Verdict.REJECTED, Tone.BAD),
    (Verdict.CANNOT_OPEN, Tone.BAD), ("valid", Tone.OK), (None, Tone.NONE),
    ("legal", Tone.NONE),
])
def test_a_verdict_has_its_tone(verdict: str | None, expected: Tone) -> None:
    assert tone(verdict) is expected


def test_every_game_has_its_name() -> None:
    assert list(words.GAMES) == list(GAMES)
    assert [words.GAMES[spec.id] for spec in games()] == [spec.name for spec in games()]


def test_the_games_registry_answers_from_rule_set_data() -> None:
    assert tuple(GAMES) == tuple(spec.id for spec in games())
    assert tuple(GAMES_WITH_PRESETS) == tuple(spec.id for spec in games() if spec.presets)
    assert tuple(GAMES_WITH_OPTIONS) == tuple(spec.id for spec in games() if spec.options)
    assert presets_of("rami51") == (Preset.REFERENCE, Preset.HOUSE)
    assert options_of("cardverse") == (Option.ACE_HIGH, Option.DISCARD_TO_WIN)
    assert presets_of("nope") == () and options_of("rami40") == ()
    for game in GAMES:
        rules = rule_set(game)
        assert rules.game == game
        assert (rules.preset is not None) == bool(presets_of(game))


def _code_words() -> set[str]:
    return {str(m) for enum in CODE_ENUMS for m in enum} - FIELD_NAMES


def test_no_game_id_is_typed_outside_its_record() -> None:
    """A game's id is typed once, in its record (``engine/rules.py``): nowhere else in
    ``generator/`` is a string constant a game's id, nor a quoted word of a template."""
    ids = set(GAMES)
    found = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path == ROOT / "generator/engine/rules.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in ids]
    for path in sorted((ROOT / "generator" / "theme").rglob("*.html")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {word!r}"
                      for word in re.findall(r"[\"']([a-z0-9_]+)[\"']", line) if word in ids]
    assert found == []


def test_no_code_word_is_typed_outside_codes() -> None:
    """In ``generator/`` (but ``engine/codes.py``) no string constant is a code word, and
    in the templates no quoted word is one."""
    code_words = _code_words()
    found = []
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path == ROOT / "generator/engine/codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in code_words]
    theme = sorted((ROOT / "generator" / "theme").rglob("*.html"))
    assert len(theme) > 10
    for path in theme:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: {word!r}"
                      for word in re.findall(r"[\"']([a-z0-9_]+)[\"']", line)
                      if word in code_words]
    assert found == []
