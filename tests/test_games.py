"""The games' registry (``generator/engine/rules.py``): a game is one record, and every
game list, word, placeholder, schema enum and choice is derived from the registry, so a
game registered at run time is everywhere (docs/DESIGN.md, "How to add a game")."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from generator.cases.schema import case_schema
from generator.cli import main
from generator.content.rule_numbers import facts
from generator.engine.codes import Preset
from generator.engine.rules import GAMES
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import PRESETS
from generator.engine.rules import GameSpec
from generator.engine.rules import UnknownGameError
from generator.engine.rules import find_game
from generator.engine.rules import games
from generator.engine.rules import rami_variant
from generator.engine.rules import register_game
from generator.engine.rules import rule_set
from generator.engine.rules import unregister_game
from generator.i18n import words
from generator.kinds import KINDS
from generator.kinds.fields import RAMI_GAMES
from tests.conftest import RAMI60_THRESHOLD
from tests.conftest import game_lists
from tests.conftest import run_cli


def test_every_game_is_one_record_the_rest_derives_from() -> None:
    every_number = facts()
    for spec in games():
        assert find_game(spec.id) is spec
        assert rule_set(spec.id) == spec.rules and spec.rules.game == spec.id
        assert words.GAMES[spec.id] == spec.name
        assert spec.facts().items() <= every_number.items()
        for preset in spec.presets:
            assert rule_set(spec.id, preset).preset == preset
    assert tuple(GAMES) == tuple(spec.id for spec in games())
    assert tuple(PRESETS) == (Preset.REFERENCE, Preset.HOUSE)


def test_a_rami_variant_differs_from_rami51_in_what_it_names_only() -> None:
    spec = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD)
    assert spec.rules == replace(rule_set("rami51"), game="rami60",
                                 opening_threshold=RAMI60_THRESHOLD)
    assert spec.facts()["rami60.threshold"] == RAMI60_THRESHOLD
    assert spec.rule_set(Preset.HOUSE).joker_meld_points == 15


def test_an_unknown_game_names_every_game() -> None:
    with pytest.raises(UnknownGameError, match=r"^unknown game 'rami52'; expected one of "
                       + ", ".join(GAMES) + "$"):
        find_game("rami52")


@pytest.mark.parametrize(("spec", "message"), [
    (rami_variant("rami40", "Rami 40 again", opening_threshold=40),
     "game 'rami40' is registered already; expected a new id"),
    (GameSpec("rami99", "Rami 99", replace(rule_set("rami51"), game="rami99", preset=None),
              numbers={"rami.hand_size": lambda game: 14}),
     r"game 'rami99' gives \{rami.hand_size\} = 14, game 'rami40' gives 13; expected one "
     "value"),
])
def test_a_game_that_would_make_two_of_something_is_refused(spec: GameSpec,
                                                             message: str) -> None:
    before = games()
    with pytest.raises(ValueError, match=f"^{message}$"):
        register_game(spec)
    assert games() is before


@pytest.mark.parametrize(("make", "message"), [
    (lambda: GameSpec("Rami 60", "Rami 60", rule_set("rami51")),
     "game id 'Rami 60'; expected lowercase letters and digits"),
    (lambda: GameSpec("rami60", "Rami 60", rule_set("rami51")),
     "game 'rami60': its rule set is for game 'rami51', preset 'reference'; expected game "
     "'rami60', preset None"),
    (lambda: GameSpec("cv2", "CV 2", replace(rule_set("cardverse"), game="cv2"),
                      options={"ace_high": {"aces": 11}}),
     "game 'cv2': ace_high changes aces; expected fields of RuleSet"),
])
def test_a_record_whose_parts_do_not_fit_is_refused(make: object, message: str) -> None:
    assert callable(make)
    with pytest.raises(ValueError, match=f"^{message}$"):
        make()


def test_an_unregistered_game_is_gone_from_everything_derived() -> None:
    before = (tuple(GAMES), tuple(RAMI_GAMES), dict(words.GAMES), dict(facts()),
              json.dumps(case_schema(), sort_keys=True))
    spec = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD)
    register_game(spec)
    try:
        assert tuple(GAMES)[-1] == tuple(GAMES_WITH_PRESETS)[-1] == "rami60"
        assert "rami60" in case_schema()["properties"]["game"]["enum"]
    finally:
        assert unregister_game("rami60") is spec
    assert (tuple(GAMES), tuple(RAMI_GAMES), dict(words.GAMES), dict(facts()),
            json.dumps(case_schema(), sort_keys=True)) == before


def test_a_game_registered_again_gives_its_new_rule_set() -> None:
    first = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD)
    second = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD + 5)
    register_game(first)
    try:
        assert rule_set("rami60").opening_threshold == RAMI60_THRESHOLD
        assert rule_set("rami60", "house") == first.rule_set(Preset.HOUSE)
    finally:
        unregister_game("rami60")
    with pytest.raises(UnknownGameError):
        rule_set("rami60")
    register_game(second)
    try:
        assert rule_set("rami60").opening_threshold == RAMI60_THRESHOLD + 5
        assert rule_set("rami60", "house") == second.rule_set(Preset.HOUSE)
    finally:
        unregister_game("rami60")


def test_a_rule_set_asked_for_again_is_the_same_value() -> None:
    for spec in games():
        for preset in (*spec.presets, None) if spec.presets else (None,):
            for on in ({}, *({name: True} for name in spec.options)):
                made = spec.rule_set(preset, **on)
                assert rule_set(spec.id, preset, **on) == made
                assert rule_set(spec.id, preset, **on) is rule_set(spec.id, preset, **on)
    with pytest.raises(UnknownGameError, match="unknown preset 'casino'"):
        rule_set("rami51", "casino")
    with pytest.raises(UnknownGameError, match="unknown preset 'casino'"):
        rule_set("rami51", "casino")


RAMI60_CASES = """\
defaults:
  game: rami60
  kind: first_meld
cases:
  - id: sixty-one-with-a-pure-run
    melds: [QH KH AH, 10C 10D 10H]
    title: Sixty-one points with a pure run
    expect: {verdict: accepted, points: 61}
  - id: fifty-two-is-not-sixty
    melds: [QH KH AH, 7C 7D 7H]
    title: Fifty-two points
    expect: {verdict: rejected, points: 52, reason: below_threshold}
"""

RAMI60_PAGE = """
In Rami 60 a first meld needs {rami60.threshold} points.

```cases
sixty-one-with-a-pure-run
fifty-two-is-not-sixty
```
"""


def test_a_game_registered_at_run_time_is_checked_explained_in_the_schema_and_built(
        rami60: GameSpec, init_project: Path, tmp_path: Path) -> None:
    """``rami60`` (a first meld of 60), registered by the test only: its cases check,
    ``explain`` takes it, the editor schema has it, and its page builds, its placeholder
    the record's number."""
    (init_project / "content" / "examples" / "rami60.yaml").write_text(RAMI60_CASES,
                                                                       encoding="utf-8")
    page = next((init_project / "content").glob("*.md"))
    page.write_text(page.read_text(encoding="utf-8") + RAMI60_PAGE, encoding="utf-8")

    checked = run_cli("check", "--project", str(init_project))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    explained = run_cli("explain", "--game", "rami60", "--kind", "first_meld", "--melds",
                        "QH KH AH", "7C 7D 7H")
    assert explained.returncode == 0, explained.stderr
    [case] = yaml.safe_load(explained.stdout)["cases"]
    assert (case["game"], case["expect"]) == ("rami60", {
        "verdict": "rejected", "points": 52, "reason": "below_threshold"})
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown), pytest.raises(SystemExit):
        main(["explain", "--help"])
    assert GAMES[-1] == "rami60"
    assert "--game {" + ",".join(GAMES) + "}" in shown.getvalue()

    schema = json.loads(run_cli("schema").stdout)
    assert {"first_meld-in-rami60", "by-kind-default-rami60"} <= set(schema["$defs"])

    out = tmp_path / "site"
    built = run_cli("build", "--project", str(init_project), "--out", str(out))
    assert built.returncode == 0, built.stdout + built.stderr
    html = (out / "en" / page.stem / "index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    assert f"In Rami 60 a first meld needs {RAMI60_THRESHOLD} points." in soup.get_text(" ")
    assert soup.find(id="sixty-one-with-a-pure-run") is not None
    assert soup.find(id="fifty-two-is-not-sixty") is not None


def test_the_game_lists_of_expected_messages_follow_the_registry(rami60: GameSpec) -> None:
    lists = game_lists()
    assert lists["{GAMES}"].endswith(", rami60")
    assert lists["{GAMES or}"].endswith(" or rami60")
    assert lists["{RAMI_GAMES or}"].endswith(" or rami60")
    assert "rami60" in KINDS["first_meld"].games


def test_a_record_keeps_the_presets_it_was_made_with() -> None:
    base = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD)
    presets = {preset: dict(changes) for preset, changes in base.presets.items()}
    spec = GameSpec(id="rami60", name="Rami 60", rules=base.rules, presets=presets,
                    numbers=base.numbers)
    register_game(spec)
    try:
        house = rule_set("rami60", "house").opening_threshold
        assert house is not None
        presets[Preset.HOUSE]["opening_threshold"] = house + 10  # no record changes
        assert rule_set("rami60", "house").opening_threshold == house
        assert spec.rule_set(Preset.HOUSE).opening_threshold == house
        with pytest.raises(TypeError):
            spec.presets[Preset.HOUSE]["opening_threshold"] = 1  # type: ignore[index]
    finally:
        unregister_game("rami60")


def test_an_unknown_option_is_the_first_one_given() -> None:
    with pytest.raises(UnknownGameError, match="unknown option 'zzz' of cardverse"):
        rule_set("cardverse", zzz=True, aaa=True)
    with pytest.raises(UnknownGameError, match="unknown option 'aaa' of cardverse"):
        rule_set("cardverse", aaa=True, zzz=True)


def test_an_options_value_of_another_type_is_taken_as_before() -> None:
    on = [1]  # truthy: the option is on, as it always was for a value that is no bool
    assert rule_set("cardverse", ace_high=on) == rule_set("cardverse", ace_high=True)  # type: ignore[arg-type]
