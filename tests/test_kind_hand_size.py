"""Kind hand_size: the cards dealt to each player and the stock after the deal, from the
rule sets (docs/rules.md "Cards and decks"), and the rows the pages show of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cases import load_cases
from generator.engine.rules import rule_set
from generator.kinds import KINDS
from generator.kinds.deck import PlayersInput
from generator.verify import verify_all
from tests.conftest import parsed_page

REPO = Path(__file__).resolve().parent.parent
KIND = KINDS["hand_size"]


@pytest.mark.parametrize(
    ("game", "preset", "players", "dealt", "stock"),
    [
        # Rami: 13 cards each; 2 decks + 4 jokers = 108 cards for 2-4 players, 3 decks + 4
        # jokers = 160 for 5-6 (house: 106 and 159); one card turned up; the rest is stock
        ("rami51", "reference", 2, 13, 108 - 2 * 13 - 1),
        ("rami51", "reference", 3, 13, 108 - 3 * 13 - 1),
        ("rami51", "reference", 4, 13, 55),
        ("rami51", "reference", 5, 13, 94),
        ("rami51", "reference", 6, 13, 81),
        ("rami40", "reference", 4, 13, 55),
        ("rami51", "house", 4, 13, 53),
        ("rami51", "house", 6, 13, 159 - 6 * 13 - 1),
        # CardVerse: one 52-card deck; 7 cards each with 2 players, 10 with 3 or 4
        ("cardverse", None, 2, 7, 37),
        ("cardverse", None, 3, 10, 21),
        ("cardverse", None, 4, 10, 11),
    ],
)
def test_dealt_and_stock_from_the_rule_set(game: str, preset: str | None, players: int,
                                           dealt: int, stock: int) -> None:
    inputs = PlayersInput(players)
    result = KIND.run(inputs, rule_set(game, preset))
    assert KIND.values(inputs, result) == {"dealt": dealt, "stock": stock}
    assert result.cards == result.players * result.dealt + result.discard + result.stock


def test_the_deal_cases_agree_with_the_engine() -> None:
    result = load_cases(REPO)
    deals = {c.id: c for c in result.cases if c.kind == "hand_size"}
    assert sorted(deals) == ["deal-cardverse-2", "deal-cardverse-3", "deal-cardverse-4",
                             "deal-rami-2", "deal-rami-4", "deal-rami-5", "deal-rami-house-4"]
    verified = verify_all(deals.values())
    assert [d for r in verified for d in r.disagreements] == []
    assert {r.case.id: dict(r.values) for r in verified}["deal-rami-house-4"] == {
        "dealt": 13, "stock": 53}


def test_a_player_count_the_game_does_not_allow(tmp_path: Path) -> None:
    path = tmp_path / "content" / "examples" / "x.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("cases:\n  - id: a\n    kind: hand_size\n    game: cardverse\n"
                    "    players: 5\n    title: T\n    expect: {dealt: 10}\n", encoding="utf-8")
    assert [e.format() for e in load_cases(tmp_path).errors] == [
        "content/examples/x.yaml:5:14: cardverse does not allow 5 players; expected 2 to 4"]


def test_a_wrong_stock_is_a_disagreement(tmp_path: Path) -> None:
    path = tmp_path / "content" / "examples" / "x.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("cases:\n  - id: a\n    kind: hand_size\n    game: rami51\n"
                    "    players: 4\n    title: T\n    expect: {dealt: 13, stock: 56}\n",
                    encoding="utf-8")
    [result] = verify_all(load_cases(tmp_path).cases)
    assert [(d.field, d.documented, d.engine, str(d.position)) for d in result.disagreements
            ] == [("stock", 56, 55, "content/examples/x.yaml:7:25")]


def _rows(path: Path) -> dict[str, tuple[dict[str, str], list[str]]]:
    soup = parsed_page(path)
    return {str(tr["id"]): ({k: str(v) for k, v in tr.attrs.items()},
                            [td.get_text(" ", strip=True) for td in tr.find_all("td")])
            for tr in soup.select("tr[id^=deal-]")}


def test_the_pages_show_the_deal(built_site: Path) -> None:
    out = built_site
    rules = _rows(out / "en" / "rules" / "index.html")
    assert sorted(rules) == ["deal-rami-2", "deal-rami-4", "deal-rami-5", "deal-rami-house-4"]
    attrs, cells = rules["deal-rami-4"]
    assert (attrs["data-players"], attrs["data-dealt"], attrs["data-stock"]) == ("4", "13", "55")
    assert cells[:2] == ["4", "13"]
    # the preset most rows share is said once, in the caption; a row that differs says its own
    assert cells[2].startswith("55 In play")
    assert rules["deal-rami-house-4"][1][2].startswith("53 house rules")
    caption = parsed_page(out / "en" / "rules" / "index.html").select_one(
        "table.cases--hand_size caption")
    assert caption is not None and "Examples in this table: reference rules, unless a row " \
        "says otherwise." in caption.get_text()
    assert "In play: 108. Dealt: 4 × 13 = 52. Turned up: 1. Stock: 55." in cells[2]
    cardverse = _rows(out / "cs" / "cardverse" / "index.html")
    attrs, cells = cardverse["deal-cardverse-2"]
    assert (attrs["data-dealt"], attrs["data-stock"]) == ("7", "37")
    assert "Ve hře: 52. Rozdáno: 2 × 7 = 14." in cells[2]
    head = parsed_page(out / "cs" / "cardverse" / "index.html").select(
        "table.cases--hand_size th[scope=col]")
    assert [th.get_text() for th in head] == [
        "Příklad", "Hráči", "Počet karet na hráče", "Dobírací balíček po rozdání"]
