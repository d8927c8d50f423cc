"""The case kinds: ``hand``, ``layoff``, ``joker_swap``, ``round``,
``best_opening``, ``scenario``.

Loader tests (a good file loads with the right values; each input-error class with its
exact ``FILE:LINE:COL`` and message is a fixture of ``tests/fixtures/loader/``), verify
tests (a wrong documented value is a disagreement naming the engine's value: fixtures of
``tests/fixtures/verify/``; right values give none), the reasoning in English, and the
rows of a built page. The example cases live in the fixture project
``tests/fixtures/kinds`` (not in ``content/``).
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

from generator.cases import Case
from generator.cases import CaseSet
from generator.cases import load_cases
from generator.engine.best import BestOpening
from generator.engine.cards import Card
from generator.engine.cards import parse_card
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import TakeJoker
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds import KINDS
from generator.kinds.joker_swap import SwapInput
from generator.kinds.layoff import LayoffInput
from generator.kinds.layoff import LayoffRun
from generator.kinds.meld import CardsInput
from generator.render.views import case_row
from generator.verify import explain_case
from generator.verify import explain_disagreement
from generator.verify import verify_all
from generator.verify import verify_case
from tests.conftest import REPO
from tests.conftest import run_cli

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kinds"
KINDS_FILE = "content/examples/kinds.yaml"
VERIFY_FIXTURES = Path(__file__).resolve().parent / "fixtures" / "verify"

def cards(codes: str) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes.split())


def load_one(tmp_path: Path, text: str) -> CaseSet:
    path = tmp_path / "content" / "examples" / "x.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return load_cases(tmp_path)


def one_case(tmp_path: Path, text: str) -> Case:
    result = load_one(tmp_path, text)
    assert [e.format() for e in result.errors] == []
    [case] = result.cases
    return case


@pytest.fixture(scope="module")
def fixture_cases() -> dict[str, Case]:
    result = load_cases(FIXTURE)
    assert [e.format() for e in result.errors] == []
    return {case.id: case for case in result.cases}


def _words() -> Words:
    return Words(source_translator())


# -- wrong documented values (tests/fixtures/verify/) ----------------------------------
#
# ``NAME.yaml`` is a case file of one case that loads without errors; ``NAME.expected``
# lists its disagreements in order, each ``[field, documented, engine's value, line,
# column]`` (YAML: a list is a tuple of the case, null the engine's empty value).


def _as_tuple(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in VERIFY_FIXTURES.glob("*.expected")))
def test_disagreement_fixture(tmp_path: Path, name: str) -> None:
    case = one_case(tmp_path, (VERIFY_FIXTURES / f"{name}.yaml").read_text(encoding="utf-8"))
    rows = yaml.safe_load((VERIFY_FIXTURES / f"{name}.expected").read_text(encoding="utf-8"))
    expected = [tuple(_as_tuple(value) for value in row) for row in rows]
    found = [(d.field, d.documented, d.engine, d.position.line, d.position.column)
             for d in verify_case(case).disagreements]
    assert expected and found == expected


# -- the fixture project: every kind loads, and every documented value agrees -------


def test_fixture_has_every_new_kind(fixture_cases: dict[str, Case]) -> None:
    kinds = {case.kind for case in fixture_cases.values()}
    assert {"hand", "layoff", "joker_swap", "round", "best_opening", "scenario"} <= kinds


def test_fixture_cases_agree_with_the_engine(fixture_cases: dict[str, Case]) -> None:
    results = verify_all(fixture_cases.values())
    assert [d for r in results for d in r.disagreements] == []


# -- hand -----------------------------------------------------------------------


def test_hand_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["ace-and-joker-left"]
    assert (case.kind, case.game, case.rules) == ("hand", "rami51", "reference")
    assert case.inputs == CardsInput(cards("AH JK"))
    assert dict(case.expect) == {"points": 36}
    house = fixture_cases["ace-and-joker-left-house"]
    assert (house.rules, house.inputs.cards) == ("house", cards("AH JK"))
    cardverse = fixture_cases["cardverse-hand-ace-high"]
    assert cardverse.options["ace_high"] is True


@pytest.mark.parametrize(
    ("case_id", "points"),
    [("ace-and-joker-left", 36), ("ace-and-joker-left-house", 26),
     ("cardverse-hand-ace-high", 26)],
)
def test_hand_value_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                    points: int) -> None:
    result = verify_case(fixture_cases[case_id])
    assert dict(result.values) == {"points": points}
    assert result.points == points
    assert result.disagreements == ()


def test_hand_reasoning() -> None:
    result = verify_case(load_cases(FIXTURE).by_id["ace-and-joker-left"])
    assert explain_case(result, _words()) == ["A♥ 11 + JK 25 = 36"]


# -- deck -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "players", "reasoning"),
    [
        ("rami51", "reference", 4, "Decks: 2 × 52 = 104. Jokers: 4. In play: 104 + 4 = 108."),
        ("rami51", "house", 5, "Decks: 3 × 52 = 156. Jokers: 3. In play: 156 + 3 = 159."),
        ("cardverse", None, 2, "Decks: 1 × 52 = 52. Jokers: 0. In play: 52 + 0 = 52."),
    ],
)
def test_deck_reasoning_adds_up_the_cards(tmp_path: Path, game: str, rules: str | None,
                                          players: int, reasoning: str) -> None:
    """The cards in play, from the decks and the jokers: what ``check`` says under a
    wrong ``cards`` (the deck table's rows show no reasoning)."""
    preset = f"rules: {rules}\n    " if rules else ""
    case = one_case(tmp_path, f"""
cases:
  - id: d
    kind: deck
    game: {game}
    {preset}players: {players}
    title: T
    expect:
      cards: 1
""")
    result = verify_case(case)
    [wrong] = result.disagreements
    assert explain_disagreement(result, wrong, _words()) == [reasoning]


# -- layoff ---------------------------------------------------------------------


def test_layoff_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["nine-onto-joker-run"]
    assert (case.kind, case.inputs) == (
        "layoff", LayoffInput(cards("JK 7S 8S"), cards("9S"), True))
    assert fixture_cases["lay-off-before-opening"].inputs.opened is False
    cardverse = fixture_cases["cardverse-lay-off"]
    assert (cardverse.rules, cardverse.inputs.opened) == (None, True)  # no opening
    assert case.field_positions["meld.0"].line == 30
    assert case.position_of("expect.points").line == 36


@pytest.mark.parametrize(
    ("case_id", "values"),
    [
        ("nine-onto-joker-run", {"verdict": "valid", "points": 30, "reason": None}),
        ("six-onto-joker-run", {"verdict": "invalid", "points": None,
                                "reason": "breaks_meld"}),
        ("lay-off-before-opening", {"verdict": "invalid", "points": None,
                                    "reason": "not_opened"}),
        ("cardverse-lay-off", {"verdict": "valid", "points": None, "reason": None}),
    ],
)
def test_layoff_values_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                       values: dict[str, object]) -> None:
    result = verify_case(fixture_cases[case_id])
    assert dict(result.values) == values
    assert result.disagreements == ()


def test_layoff_reasoning(fixture_cases: dict[str, Case]) -> None:
    w = _words()
    valid = verify_case(fixture_cases["nine-onto-joker-run"])
    assert explain_case(valid, w) == [
        "The joker keeps standing for 6♠: a lay-off never moves it.",
        "The meld becomes JK→6♠ 7♠ 8♠ 9♠.",
        "JK→6♠ 6 + 7♠ 7 + 8♠ 8 + 9♠ 9 = 30",
    ]
    broken = verify_case(fixture_cases["six-onto-joker-run"])
    assert explain_case(broken, w) == [
        "The meld would not stay valid with these cards.",
        "The joker keeps standing for 6♠: a lay-off never moves it.",
    ]
    not_opened = verify_case(fixture_cases["lay-off-before-opening"])
    assert explain_case(not_opened, w) == ["Only a player who has opened may do this."]
    cardverse = verify_case(fixture_cases["cardverse-lay-off"])
    assert explain_case(cardverse, w) == ["The meld becomes J♥ Q♥ K♥ A♥."]


LAYOFF = """
cases:
  - id: l
    kind: layoff
    game: rami51
    meld: {meld}
    cards: {cards}
    title: T
    expect:
      verdict: {verdict}
"""


@pytest.mark.parametrize(
    ("meld", "added", "verdict", "points", "after"),
    [
        ("5H 6H 7H", "9H 8H 4H", "valid", 39, "4H 5H 6H 7H 8H 9H"),  # both ends, any order
        ("5H 6H 7H", "9H JK", "valid", 35, "5H 6H 7H JK 9H"),  # the joker as 8♥
        ("JK 7S 8S", "5S 9S", "valid", 35, "5S JK 7S 8S 9S"),  # the joker stays 6♠
        ("5H 6H 7H", "JK 10H", "invalid", None, None),  # 9♥ would still be missing
        ("9C 9D 9H", "9S JK", "invalid", None, None),  # a set of five
    ],
)
def test_layoff_of_several_cards_is_judged_on_the_finished_meld(
        tmp_path: Path, meld: str, added: str, verdict: str, points: int | None,
        after: str | None) -> None:
    """docs/site.md (decided): a lay-off of several cards is judged on the finished meld."""
    case = one_case(tmp_path, LAYOFF.format(meld=meld, cards=added, verdict=verdict))
    result = verify_case(case)
    assert (result.values["verdict"], result.values["points"]) == (verdict, points)
    assert result.disagreements == ()
    assert isinstance(result.engine_result, LayoffRun)
    finished = result.engine_result.layoff.meld
    assert (None if finished is None else " ".join(p.card.code for p in finished.placed)
            ) == after


@pytest.mark.parametrize(
    ("meld", "added", "reasoning"),
    [
        # a joker laid off says which card it stands for: the one worth fewer points
        ("5C 6C 7C", "JK", [
            "The meld becomes JK→4♣ 5♣ 6♣ 7♣.",
            "The joker stands for 4♣, not 8♣: fewer points.",
            "JK→4♣ 4 + 5♣ 5 + 6♣ 6 + 7♣ 7 = 22"]),
        # a set's joker, its suit open, gets the suit the cards laid off leave
        ("9C 9D JK", "9H", [
            "The meld becomes 9♣ 9♦ 9♥ JK→9♠.",
            "The joker stands for 9♠.",
            "9♣ 9 + 9♦ 9 + 9♥ 9 + JK→9♠ 9 = 36"]),
        # a run's joker keeps its card: no sentence of a new place
        ("JK 7S 8S", "9S", [
            "The joker keeps standing for 6♠: a lay-off never moves it.",
            "The meld becomes JK→6♠ 7♠ 8♠ 9♠.",
            "JK→6♠ 6 + 7♠ 7 + 8♠ 8 + 9♠ 9 = 30"]),
    ],
)
def test_layoff_reasoning_says_where_a_joker_stands(tmp_path: Path, meld: str, added: str,
                                                     reasoning: list[str]) -> None:
    """The points of a lay-off with a joker follow from the card the joker stands for,
    which the reasoning names (the page shows the finished meld, not that card)."""
    w = _words()
    result = verify_case(one_case(tmp_path, LAYOFF.format(meld=meld, cards=added,
                                                          verdict="valid")))
    assert explain_case(result, w) == reasoning
    # the page draws the finished meld instead of saying it
    assert case_row(result, w)["reasoning"] == [
        line for line in reasoning if not line.startswith("The meld becomes")]


# -- joker_swap -----------------------------------------------------------------


def test_joker_swap_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["six-takes-the-joker"]
    assert (case.kind, case.inputs) == (
        "joker_swap", SwapInput(cards("JK 7S 8S"), parse_card("6S"), True))
    assert case.expect["joker_stands_for"] == "6s"  # as documented
    assert case.field_positions["card"].line == 69


@pytest.mark.parametrize(
    ("case_id", "values"),
    [
        ("six-takes-the-joker", {"verdict": "allowed", "joker_stands_for": "6S",
                                 "reason": None}),
        ("nine-cannot-take-the-joker", {"verdict": "rejected", "joker_stands_for": "6S",
                                        "reason": "wrong_card"}),
        ("joker-from-a-set-of-two-naturals", {"verdict": "rejected",
                                              "joker_stands_for": None,
                                              "reason": "set_needs_three_naturals"}),
    ],
)
def test_joker_swap_values_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                           values: dict[str, object]) -> None:
    result = verify_case(fixture_cases[case_id])
    assert dict(result.values) == values
    assert result.disagreements == ()


SWAP = """
cases:
  - id: s
    kind: joker_swap
    game: rami51
    meld: {meld}
    card: {card}
    {extra}
    title: T
    expect:
      {expect}
"""


@pytest.mark.parametrize("documented", ["6S", "6s", "6♠", "'6S'"])
def test_joker_stands_for_compares_as_a_card(tmp_path: Path, documented: str) -> None:
    case = one_case(tmp_path, SWAP.format(meld="JK 7S 8S", card="6S", extra="",
                                          expect=f"verdict: allowed\n      "
                                          f"joker_stands_for: {documented}"))
    assert verify_case(case).disagreements == ()


@pytest.mark.parametrize(
    ("meld", "card", "extra", "verdict", "stands_for", "reason"),
    [
        ("7S 8S 9S", "6S", "", "rejected", None, "no_joker"),
        ("JK 7S 8S", "6S", "opened: false", "rejected", "6S", "not_opened"),
        ("9C 9D 9H JK", "9S", "", "allowed", "9S", None),
        ("9C 9D JK", "9S", "", "rejected", None, "set_needs_three_naturals"),
        ("JK 7S 8S", "9S", "", "rejected", "6S", "wrong_card"),
    ],
)
def test_joker_swap_reasons(tmp_path: Path, meld: str, card: str, extra: str, verdict: str,
                            stands_for: str | None, reason: str | None) -> None:
    case = one_case(tmp_path, SWAP.format(meld=meld, card=card, extra=extra,
                                          expect=f"verdict: {verdict}"))
    result = verify_case(case)
    assert dict(result.values) == {"verdict": verdict, "joker_stands_for": stands_for,
                                   "reason": reason}


def test_joker_swap_reasoning(fixture_cases: dict[str, Case]) -> None:
    w = _words()
    allowed = verify_case(fixture_cases["six-takes-the-joker"])
    assert explain_case(allowed, w) == [
        "The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was laid.",
        "6♠ takes the joker's place: 6♠ 7♠ 8♠. The player takes the joker and must lay it "
        "again this turn if they can.",
    ]
    wrong = verify_case(fixture_cases["nine-cannot-take-the-joker"])
    assert explain_case(wrong, w) == [
        "The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was laid.",
        "Only the card the joker stands for can take its place.",
    ]
    open_suit = verify_case(fixture_cases["joker-from-a-set-of-two-naturals"])
    assert explain_case(open_suit, w) == [
        "The joker stands for a card of rank nine; its suit stays open.",
        "A joker can be taken from a set only when it lies with three natural cards.",
    ]


@pytest.mark.parametrize(
    ("meld", "card", "extra", "reasoning"),
    [
        # several places fit the cards: the joker keeps the one it took when laid
        ("JK 7S 8S", "9S", "", [
            "The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was "
            "laid.",
            "Only the card the joker stands for can take its place."]),
        ("JK JH QH", "KH", "", [  # equal points either way (10♥ or K♥)
            "The joker stands for 10♥, not K♥: it keeps the card it took when the meld was "
            "laid.",
            "Only the card the joker stands for can take its place."]),
        ("QH KH JK", "AH", "", [
            "The joker stands for J♥, not A♥: it keeps the card it took when the meld was "
            "laid.",
            "Only the card the joker stands for can take its place."]),
        ("JK 7S 8S", "6S", "rules: house", [  # a joker worth 15 wherever it lies
            "The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was "
            "laid.",
            "6♠ takes the joker's place: 6♠ 7♠ 8♠. The player takes the joker and must lay "
            "it again this turn if they can."]),
        ("JK 7S 8S", "6S", "opened: false", [
            "The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was "
            "laid.",
            "Only a player who has opened may do this."]),
        # one card fits
        ("7S JK 9S", "8S", "rules: house", [
            "The joker stands for 8♠.",
            "8♠ takes the joker's place: 7♠ 8♠ 9♠. The player takes the joker and must lay "
            "it again this turn if they can."]),
        ("9C 9D 9H JK", "9D", "", [
            "The joker stands for 9♠.",
            "Only the card the joker stands for can take its place."]),
        ("9C 9D JK", "9S", "", [
            "The joker stands for a card of rank nine; its suit stays open.",
            "A joker can be taken from a set only when it lies with three natural cards."]),
        ("7S 8S 9S", "6S", "", ["The meld holds no joker."]),
    ],
)
def test_joker_swap_reasoning_speaks_of_the_card_never_of_points(
        tmp_path: Path, meld: str, card: str, extra: str, reasoning: list[str]) -> None:
    """Taking back a joker depends on the card it stands for only: its reasoning (in
    ``explain``, under the verdict on a page, under a disagreement in ``check``) never
    gives points as the reason, whatever made the joker take its place when laid."""
    w = _words()
    case = one_case(tmp_path, SWAP.format(meld=meld, card=card, extra=extra,
                                          expect="verdict: rejected\n      "
                                          "joker_stands_for: 2C"))  # never the engine's
    result = verify_case(case)
    assert explain_case(result, w) == reasoning
    page = case_row(result, w)["reasoning"]
    assert page == [line for line in reasoning if line != case_row(result, w)["reason_text"]]
    check = explain_disagreement(result, result.disagreements[0], w)
    assert check == reasoning
    for line in reasoning:
        assert "point" not in line.lower(), line
        assert "reference rules" not in line, line


# -- round ----------------------------------------------------------------------


def test_round_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["rami-round-seat-two-out"]
    assert case.kind == "round"
    assert case.inputs.hands == (cards("5C 6C"), (), cards("JK AH"))
    assert case.expect["scores"] == (11, 0, 36)  # a tuple: the case stays immutable
    assert case.field_positions["hands.2.1"].line == 99
    assert fixture_cases["cardverse-round-winner-collects"].inputs.hands == (
        cards("5C 6C"), (), cards("KH AH"))


@pytest.mark.parametrize(
    ("case_id", "winner", "scores"),
    [
        ("rami-round-seat-two-out", 2, (11, 0, 36)),
        ("rami-round-on-the-stock-tie", 2, (10, 0, 5)),
        ("cardverse-round-winner-collects", 2, (0, 22, 0)),
    ],
)
def test_round_values_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                      winner: int, scores: tuple[int, ...]) -> None:
    result = verify_case(fixture_cases[case_id])
    assert dict(result.values) == {"winner": winner, "scores": scores}
    assert result.disagreements == ()


def test_round_reasoning(fixture_cases: dict[str, Case]) -> None:
    w = _words()
    out = verify_case(fixture_cases["rami-round-seat-two-out"])
    assert explain_case(out, w) == [
        "Seat 1: 5♣ 5 + 6♣ 6 = 11",
        "Seat 2: no cards left",
        "Seat 3: JK 25 + A♥ 11 = 36",
        "Seat 2 went out and wins the round.",
        "The winner scores 0; every other seat scores its own hand value.",
    ]
    tie = verify_case(fixture_cases["rami-round-on-the-stock-tie"])
    assert explain_case(tie, w)[3:] == [
        "No seat went out: seats 2 and 3 share the lowest hand value; the earliest, seat 2, "
        "wins.",
        "The winner scores 0; every other seat scores its own hand value.",
    ]
    collect = verify_case(fixture_cases["cardverse-round-winner-collects"])
    assert explain_case(collect, w)[-1] == (
        "The winner scores the others' hand values: 11 + 11 = 22; the others score 0.")


# -- best_opening ---------------------------------------------------------------


def test_best_opening_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["best-opening-rami51"]
    assert (case.kind, case.game, case.rules) == ("best_opening", "rami51", "reference")
    assert case.inputs.cards == cards("QH KH AH JK 7S 8S 2C 2D 9C 4D 5S KC 3H")
    assert dict(case.expect) == {"verdict": "can_open", "points": 57}
    assert len(fixture_cases["best-opening-two-sets-rami40"].inputs.cards) == 14


@pytest.mark.parametrize(
    ("case_id", "verdict", "points"),
    [
        ("best-opening-rami51", "can_open", 57),
        ("best-opening-two-sets-no-pure-run", "cannot_open", 0),
        ("best-opening-two-sets-rami40", "can_open", 72),
    ],
)
def test_best_opening_values_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                             verdict: str, points: int) -> None:
    result = verify_case(fixture_cases[case_id])
    assert dict(result.values) == {"verdict": verdict, "points": points}
    assert isinstance(result.engine_result, BestOpening)
    assert result.engine_result.points == points
    assert result.disagreements == ()


def test_best_opening_reasoning(fixture_cases: dict[str, Case]) -> None:
    w = _words()
    best = verify_case(fixture_cases["best-opening-rami51"])
    assert explain_case(best, w) == [
        "Q♥ 10 + K♥ 10 + A♥ 11 = 31",
        "The joker stands for 6♠.",
        "5♠ 5 + JK→6♠ 6 + 7♠ 7 + 8♠ 8 = 26",
        "The best melds total 31 + 26 = 57.",
        "Left in the hand: 2♣ 2♦ 9♣ 4♦ K♣ 3♥",
    ]
    none = verify_case(fixture_cases["best-opening-two-sets-no-pure-run"])
    assert explain_case(none, w) == [
        "No melds in this hand can make an opening.",
        "No pure run: one meld must be a run without a joker.",
    ]


# -- scenario -------------------------------------------------------------------


def test_scenario_loads(fixture_cases: dict[str, Case]) -> None:
    case = fixture_cases["discard-the-taken-card"]
    assert case.kind == "scenario" and case.inputs.start is not None
    assert case.inputs.start.hands == (cards("5C 6C 7C KH KS KD 2D 9S 3H 4S 8D JC QS"),
                                cards("2C 3C 4D 6H 7H 9D 10D JD QD KC AC 8S 5D"))
    assert (case.inputs.start.discard, case.inputs.start.stock) == (cards("QH"), cards("3D 4D 9C"))
    assert (case.inputs.start.turn, case.inputs.start.opened) == (0, (False, False))
    assert case.inputs.actions == (Draw("discard"), Discard(parse_card("QH")),
                            Discard(parse_card("2D")))
    assert case.expect["results"] == ("legal", "discard_taken_card", "legal")
    assert dict(case.expect["end"]) == {"round_over": False}  # type: ignore[arg-type]
    going_out = fixture_cases["open-then-go-out"]
    assert going_out.inputs.actions is not None
    assert going_out.inputs.actions[1] == Meld(cards("QH KH AH"))
    assert going_out.inputs.actions[3] == LayOff(cards("9S"), 1)  # meld 2 → index 1
    joker = fixture_cases["take-back-the-joker"]
    assert joker.inputs.start is not None and joker.inputs.actions is not None
    assert joker.inputs.actions[1] == TakeJoker(0, parse_card("6S"))
    assert [(m.cards, m.owner) for m in joker.inputs.start.table] == [(cards("JK 7S 8S"), 1)]
    assert joker.inputs.start.opened == (True, True)
    assert fixture_cases["cardverse-stock-runs-out"].inputs.start is not None


@pytest.mark.parametrize(
    ("case_id", "results", "end"),
    [
        ("discard-the-taken-card", ["legal", "discard_taken_card", "legal"],
         (False, None, None, None)),
        ("open-then-go-out", ["legal", "legal", "legal", "not_opened", "opened", "legal",
                              "legal", "legal", "legal", "round_over"],
         (True, "went_out", 1, (0, 11))),
        ("two-sets-go-back", ["legal", "legal", "legal", "opening_returned"],
         (False, None, None, None)),
        ("take-back-the-joker", ["legal", "legal", "joker_must_be_laid", "legal", "legal"],
         (False, None, None, None)),
        ("cardverse-stock-runs-out", ["round_over", "round_ended"],
         (True, "stock_empty", 1, (13, 0))),
    ],
)
def test_scenario_values_from_the_engine(fixture_cases: dict[str, Case], case_id: str,
                                         results: list[str],
                                         end: tuple[object, ...]) -> None:
    result = verify_case(fixture_cases[case_id])
    assert result.disagreements == ()
    values = dict(result.values)
    assert [values[f"results[{n}]"] for n in range(1, len(results) + 1)] == results
    assert (values["end.round_over"], values["end.reason"], values["end.winner"],
            values["end.scores"]) == end


SCENARIO = """
cases:
  - id: s
    kind: scenario
    game: rami51
    title: T
    start:
      hands: [QH KH AH JK 7S 8S 5C, 2C 3C 4D]
      discard: 9D
      stock: 6H 2S
    actions:
      - draw: stock
      - meld: QH KH AH
      - meld: JK 7S 8S
      - discard: 6H
      - draw: discard
    expect:
      results:
        {results}
      end:
        {end}
"""


def test_scenario_results_agree_by_code_event_or_legal(tmp_path: Path) -> None:
    # action 4's outcome is legal with the event opened: "legal" and "opened" both agree
    for fourth in ("legal", "opened"):
        case = one_case(tmp_path, SCENARIO.format(
            results=f"[legal, legal, legal, {fourth}, legal]", end="round_over: false"))
        assert verify_case(case).disagreements == ()


def test_scenario_invalid_meld_says_the_melds_own_reason(tmp_path: Path) -> None:
    """An action lays one meld: its refusal says what is wrong with that meld, not the
    first meld's "One of the melds is not valid."."""
    w = _words()
    case = one_case(tmp_path, SCENARIO.format(
        results="[legal, legal, invalid_meld, legal, legal]", end="round_over: false")
        .replace("meld: JK 7S 8S", "meld: JK 7S 5C"))
    result = verify_case(case)
    assert result.values["results[3]"] == "invalid_meld"
    lines = explain_case(result, w)
    at = lines.index("Action 3: seat 1 melds JK 7♠ 5♣ — not allowed.")
    assert lines[at + 1:at + 3] == ["The cards share neither a rank nor a suit.",
                                    "Action 4: seat 1 discards 6♥ — allowed."]
    assert "One of the melds is not valid." not in lines
    [step] = [s for s in case_row(result, w)["steps"] if s["num"] == 3]
    assert step["notes"] == ["The cards share neither a rank nor a suit."]


def test_scenario_reasoning(fixture_cases: dict[str, Case]) -> None:
    w = _words()
    taken = explain_case(verify_case(fixture_cases["discard-the-taken-card"]), w)
    assert taken == [
        "Action 1: seat 1 draws Q♥ from the discard pile — allowed.",
        "Action 2: seat 1 discards Q♥ — not allowed.",
        "The card just taken from the discard pile cannot be discarded in the same turn.",
        "Action 3: seat 1 discards 2♦ — allowed.",
        "The round goes on: seat 2 is to play.",
    ]
    going_out = explain_case(verify_case(fixture_cases["open-then-go-out"]), w)
    assert going_out[3:6] == [
        "Action 4: seat 1 lays off 9♠ onto meld 2 — not allowed.",
        "Only a player who has opened may do this.",
        "Action 5: seat 1 discards 5♣ — allowed.",
    ]
    assert going_out[-6:] == [
        "Action 10: seat 1 discards 6♥ — allowed.",
        "The round is over.",
        "Seat 1: no cards left",
        "Seat 2: 2♣ 2 + 3♣ 3 + 4♦ 4 + 2♠ 2 = 11",
        "Seat 1 went out and wins the round.",
        "The winner scores 0; every other seat scores its own hand value.",
    ]
    returned = explain_case(verify_case(fixture_cases["two-sets-go-back"]), w)
    assert returned[-4:] == [
        "Action 4: seat 1 discards 5♣ — allowed.",
        "The opening fell short: the melds went back to the hand.",
        "No pure run: one meld must be a run without a joker.",
        "The round goes on: seat 2 is to play.",
    ]
    stock = explain_case(verify_case(fixture_cases["cardverse-stock-runs-out"]), w)
    assert stock[:5] == [
        "Action 1: seat 1 draws from the stock — allowed.",
        "The round is over.",
        "Action 2: seat 1 discards 5♣ — not allowed.",
        "The round is over already.",
        "The stock ran out.",  # the event has said the round is over
    ]
    assert stock[-2:] == [
        "No seat went out: seat 1 holds the lowest hand value and wins.",
        "The winner scores the others' hand values: 13; the others score 0.",
    ]


# -- the README's examples ------------------------------------------------------


def test_readme_examples_load_and_agree(tmp_path: Path) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    authors = readme[readme.index("## For authors"):readme.index("## For translators")]
    blocks = [block.split("```", 1)[0] for block in authors.split("```yaml\n")[1:]]
    for number, block in enumerate(blocks):
        path = tmp_path / "content" / "examples" / f"readme-{number:02d}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block, encoding="utf-8")
    result = load_cases(tmp_path)
    assert [e.format() for e in result.errors] == []
    kinds = {case.kind for case in result.cases}
    assert kinds == set(KINDS)  # one example of every kind
    assert [d for r in verify_all(result.cases) for d in r.disagreements] == []


# -- the command line and the pages ---------------------------------------------


def _project(tmp_path: Path) -> Path:
    """A copy of the fixture project with the repository's catalogs (and the package's
    theme)."""
    project = tmp_path / "kinds"
    shutil.copytree(FIXTURE, project)
    shutil.copytree(REPO / "locales", project / "locales")
    return project


def test_check_names_each_disagreement_with_the_engines_value(tmp_path: Path) -> None:
    project = _project(tmp_path)
    path = project / KINDS_FILE
    text = path.read_text(encoding="utf-8")
    text = text.replace("scores: [11, 0, 36]", "scores: [11, 0, 35]")
    text = text.replace("joker_stands_for: 6S", "joker_stands_for: 9s")
    text = text.replace("        - discard_taken_card\n", "        - legal\n")
    text = text.replace("winner: 1\n        scores: [13, 0]", "winner: 2\n        scores: [13, 0]")
    path.write_text(text, encoding="utf-8")
    result = run_cli("check", "--project", str(project))
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"{KINDS_FILE}:82: case nine-cannot-take-the-joker: joker_stands_for documented "\
        "9s, engine 6S" in lines
    assert "    The joker stands for 6♠, not 9♠: it keeps the card it took when the meld was " \
        "laid." in lines
    assert not any("points" in line for line in lines)
    assert f"{KINDS_FILE}:103: case rami-round-seat-two-out: scores documented [11, 0, 35], "\
        "engine [11, 0, 36]" in lines
    assert "    Seat 3: JK 25 + A♥ 11 = 36" in lines
    # a scenario names the action (from 1) and explains that action only
    at = lines.index(f"{KINDS_FILE}:164: case discard-the-taken-card: results[2] documented "
                     "legal, engine discard_taken_card")
    assert lines[at + 1:at + 4] == [
        "    Action 2: seat 1 discards Q♥ — not allowed.",
        "    The card just taken from the discard pile cannot be discarded in the same turn.",
        f"{KINDS_FILE}:269: case cardverse-stock-runs-out: end.winner documented 2, "
        "engine 1",
    ]
    assert "    No seat went out: seat 1 holds the lowest hand value and wins." in lines


def test_built_rows_carry_the_engines_values(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    for lang in ("en", "sk"):
        html = (project / "site" / lang / "kinds" / "index.html").read_text(encoding="utf-8")
        soup = BeautifulSoup(html, "html.parser")
        rows = {str(tr["id"]): tr for tr in soup.select("tr[id]")}
        # the examples filter's attributes: the rule set's game and preset, and their words
        where = {k: str(v) for k, v in rows["nine-onto-joker-run"].attrs.items()
                 if k.startswith(("data-game", "data-preset"))}
        assert where == {"data-game": "rami51", "data-preset": "reference",
                         "data-game-name": "Rami 51",
                         "data-preset-name": "reference rules" if lang == "en"
                         else "referenčné pravidlá"}
        assert rows["cardverse-lay-off"]["data-game"] == "cardverse"
        assert not rows["cardverse-lay-off"].has_attr("data-preset")
        attrs = {i: {k: str(v) for k, v in tr.attrs.items() if k.startswith("data-")
                     and not k.startswith(("data-game", "data-preset"))}
                 for i, tr in rows.items()}
        assert attrs["ace-and-joker-left"] == {"data-points": "36"}
        assert attrs["nine-onto-joker-run"] == {"data-verdict": "valid", "data-points": "30"}
        assert attrs["six-onto-joker-run"] == {"data-verdict": "invalid"}
        assert attrs["cardverse-lay-off"] == {"data-verdict": "valid"}
        assert attrs["six-takes-the-joker"] == {"data-verdict": "allowed",
                                                "data-stands-for": "6S"}
        assert attrs["joker-from-a-set-of-two-naturals"] == {"data-verdict": "rejected"}
        assert attrs["rami-round-seat-two-out"] == {
            "data-points": "47", "data-winner": "2", "data-scores": "11 0 36"}
        assert attrs["cardverse-round-winner-collects"] == {
            "data-points": "22", "data-winner": "2", "data-scores": "0 22 0"}
        # cards drawn with the card macro, named for screen readers
        hand = rows["ace-and-joker-left"].select(".card")
        assert [c.get_text("", strip=True) for c in hand] == ["A♥", "JK★"]
        assert all(c["role"] == "img" and c["aria-label"] for c in hand)
        layoff = rows["nine-onto-joker-run"]
        assert len(layoff.select(".case__result .card")) == 4  # the meld after the lay-off
        seats = rows["rami-round-seat-two-out"].select(".seats:not(.seats--scores) .seat")
        assert len(seats) == 3 and "seat--winner" in seats[1]["class"]
        assert attrs["best-opening-rami51"] == {"data-verdict": "can_open",
                                                "data-points": "57"}
        assert attrs["best-opening-two-sets-no-pure-run"] == {"data-verdict": "cannot_open",
                                                              "data-points": "0"}
        scenario = attrs["open-then-go-out"]
        assert scenario == {
            "data-results": "legal legal legal not_opened opened legal legal legal legal "
            "round_over", "data-winner": "1", "data-scores": "0 11"}
        assert attrs["discard-the-taken-card"] == {
            "data-results": "legal discard_taken_card legal"}
        steps = rows["open-then-go-out"].select(".step")
        assert len(steps) == 10 and len(rows["open-then-go-out"].select(".step--bad")) == 1
        laid_off = steps[3].select(".card")  # action 4 lays off 9♠: drawn, named
        assert len(laid_off) == 1 and laid_off[0]["aria-label"]
        best = rows["best-opening-rami51"]
        # the hand drawn as a hand (no meld strip), then the best melds
        assert [len(m.select(".card")) for m in best.select(".hand")] == [13]
        assert [len(m.select(".card")) for m in best.select(".meld")] == [3, 4]
        assert len(best.select(".case__left .card")) == 6
    en = BeautifulSoup((project / "site/en/kinds/index.html").read_text(encoding="utf-8"),
                       "html.parser")
    not_opened = en.select_one("#lay-off-before-opening")
    assert not_opened is not None
    assert "The player has not opened yet." in not_opened.get_text()


# -- the two scenarios are cases on the pages --------------------------------------------


@pytest.mark.parametrize(
    ("case_id", "page", "game", "table", "actions"),
    [
        ("scenario-cardverse-meld-then-discard-taken-card", "cardverse", "cardverse", (),
         (Draw("discard"), Meld(cards("5C 6C 7C")), Discard(parse_card("9S")))),
        ("scenario-rami-meld-then-lay-off-taken-card", "rules", "rami51", ("10S JS QS",),
         (Draw("discard"), Meld(cards("5C 6C 7C")), LayOff(cards("9S"), 0))),
    ],
)
def test_issue_scenarios_are_on_their_pages(case_id: str, page: str, game: str,
                                            table: tuple[str, ...],
                                            actions: tuple[object, ...]) -> None:
    result = load_cases(REPO)
    [case] = [c for c in result.cases if c.id == case_id]
    assert case.inputs.start is not None
    assert (case.game, case.inputs.start.rules.game) == (game, game)
    start = case.inputs.start
    assert (start.hands, start.discard, start.stock) == (
        (cards("5C 6C 7C"), cards("4D 6H 7H JD")), cards("9S"), cards("10D 4S"))
    assert tuple(" ".join(c.code for c in m.cards) for m in start.table) == table
    assert start.opened == (True, True)  # both seats opened (CardVerse: always)
    assert case.inputs.actions == actions
    verified = verify_case(case)
    assert [verified.values[f"results[{n}]"] for n in (1, 2, 3)] == [
        "legal", "legal", "round_over"]
    assert (verified.values["end.reason"], verified.values["end.winner"]) == ("went_out", 1)
    assert verified.disagreements == ()
    text = (REPO / "content" / f"{page}.md").read_text(encoding="utf-8")
    blocks = text.split("```cases\n")[1:]
    assert any(case_id in block.split("```")[0].split() for block in blocks)
