"""Hungarian articles chosen by the word after them (generator/i18n/articles.py): "a" or
"az" before a card's code, a seat's number and a list of seats, as a Hungarian reader
writes them (docs/site.md, "Languages")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from generator.engine.cards import Suit
from generator.engine.cards import all_cards
from generator.i18n import words
from generator.i18n.articles import choose_articles
from generator.i18n.articles import hungarian_article
from generator.i18n.explain import Words
from generator.layout import BUILTIN_LOCALES
from tests.conftest import REPO
from tests.conftest import repo_translator

SPOKEN = {
    "A": ("ász", "az"), "2": ("kettes", "a"), "3": ("hármas", "a"), "4": ("négyes", "a"),
    "5": ("ötös", "az"), "6": ("hatos", "a"), "7": ("hetes", "a"), "8": ("nyolcas", "a"),
    "9": ("kilences", "a"), "10": ("tízes", "a"), "J": ("bubi", "a"), "Q": ("dáma", "a"),
    "K": ("király", "a"),
}
"""Each rank's code → its Hungarian name and the article a reader writes before the
card ("az ász", "az 5♠", "a 10♠", "a J♠")."""


def _hu() -> Words:
    return Words(repo_translator("hu"))


@pytest.mark.parametrize("card", all_cards(), ids=lambda c: c.code)
def test_every_card_takes_the_article_of_how_it_is_read(card: object) -> None:
    label = str(card)
    if label == "JK":
        assert hungarian_article(label) == "a"  # a dzsóker
        return
    rank = label[:-1]
    assert hungarian_article(label) == SPOKEN[rank][1]
    assert hungarian_article(SPOKEN[rank][0]) == SPOKEN[rank][1]  # the same read as a word


@pytest.mark.parametrize(("word", "article"), [
    ("1.", "az"), ("2.", "a"), ("3.", "a"), ("4.", "a"), ("5.", "az"), ("6.", "a"),
    ("10.", "a"), ("11", "a"), ("15", "a"), ("50", "az"), ("51-et", "az"), ("40-ben", "a"),
    ("100", "a"), ("500", "az"), ("1000", "az"), ("12 000", "a"), ("1.1.0-s", "az"),
    ("A-2-3", "az"), ("K-A-2", "a"), ("Q-K-2-3", "a"), ("JK→5♠", "a"), ("„A♠”", "az"),
    ("ász", "az"), ("Ász", "az"), ("dzsóker", "a"), ("ötös", "az"), ("Rami", "a"),
])
def test_numbers_letters_and_words(word: str, article: str) -> None:
    assert hungarian_article(word) == article


def test_the_mark_is_resolved_in_hungarian_only() -> None:
    text = "A(z) A♠ kerül a(z) 5♠ és a(z) 9♠ helyére (a(z) 1. kombináció)."
    assert choose_articles(text, "hu") == \
        "Az A♠ kerül az 5♠ és a 9♠ helyére (az 1. kombináció)."
    assert choose_articles(text, "hu_HU").startswith("Az A♠")
    assert choose_articles(text, "cs") == text


@pytest.mark.parametrize(("card", "other", "sentence"), [
    ("6♠", "9♠", "A dzsóker a 6♠ helyén áll, nem a 9♠ helyén, mert így kevesebb pontot ér."),
    ("J♥", "A♥", "A dzsóker a J♥ helyén áll, nem az A♥ helyén, mert így kevesebb pontot ér."),
    ("5♣", "10♣", "A dzsóker az 5♣ helyén áll, nem a 10♣ helyén, mert így kevesebb pontot "
     "ér."),
])
def test_a_joker_sentence_puts_the_article_of_each_card(card: str, other: str,
                                                         sentence: str) -> None:
    assert _hu().code("explanation", "joker_fewer_points", card=card, other=other) == sentence


@pytest.mark.parametrize(("card", "start"), [("A♠", "Az A♠ kerül"), ("5♠", "Az 5♠ kerül"),
                                             ("9♠", "A 9♠ kerül"), ("K♠", "A K♠ kerül")])
def test_a_card_opening_a_sentence_takes_a_capital_article(card: str, start: str) -> None:
    text = _hu().code("explanation", "joker_taken", card=card, meld="7♠ 8♠ 9♠")
    assert text.startswith(f"{start} a dzsóker helyére. Az új kombináció: 7♠ 8♠ 9♠.")


@pytest.mark.parametrize(("seats", "listed"), [
    ([2, 3], "a 2. és a 3."), ([1, 5], "az 1. és az 5."), ([1, 2, 3], "az 1., a 2. és a 3."),
    ([4, 5, 6], "a 4., az 5. és a 6."),
])
def test_a_hungarian_list_of_seats_gives_each_its_article(seats: list[int],
                                                          listed: str) -> None:
    w = _hu()
    assert w.seat_list(seats) == listed
    tied = w.code("explanation", "winner_tied", seats=w.seat_list(seats),
                  seat=w.seat(seats[0]))
    assert f"a legkisebb kézértéken {listed} játékos osztozik; közülük az ülésrendben " \
        f"legelső, {w.seat(seats[0])} nyer." in tied


def test_the_seats_messages_agree_with_the_rule() -> None:
    """The seats' own messages ("Az 1. játékos", "a 2. játékos") carry the article the
    rule gives their number."""
    w = _hu()
    for seat in range(1, words.max_seats() + 1):
        article = hungarian_article(f"{seat}.")
        assert w.seat(seat) == f"{article} {seat}. játékos"
        assert w.seat(seat, opens_sentence=True) == f"{article.capitalize()} {seat}. játékos"


_WRITTEN = re.compile(r"(?<![\w(])([Aa]z?) ((?:\d|[AJQK](?=[♠♥♦♣→-])|JK)\S*)")
"""An article written before a number or a card's code in a translation."""


@pytest.mark.parametrize("catalog", [BUILTIN_LOCALES / "hu" / "LC_MESSAGES" / "messages.po",
                                     REPO / "locales" / "hu" / "LC_MESSAGES" / "messages.po"],
                         ids=["built-in", "site"])
def test_every_article_written_before_a_number_or_card_follows_the_rule(catalog: Path
                                                                         ) -> None:
    with catalog.open("rb") as fh:
        messages = [m for m in read_po(fh) if m.id and m.string]
    found: list[tuple[str, str]] = []
    wrong: list[str] = []
    for message in messages:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in forms:
            for match in _WRITTEN.finditer(str(text)):
                found.append((match[1], match[2]))
                if match[1].lower() != hungarian_article(match[2]):
                    wrong.append(match[0])
    assert wrong == []
    assert len(found) > 5, found  # the scan reads the catalog's articles


def test_no_mark_is_left_on_a_page(built_site: Path) -> None:
    """Every ``a(z)`` of the Hungarian catalogs is resolved on the built pages."""
    left = [page for page in (built_site / "hu").rglob("*.html")
            if "a(z)" in page.read_text(encoding="utf-8").lower()]
    assert left == []


def test_suits_do_not_change_the_article() -> None:
    for rank in SPOKEN:
        assert {hungarian_article(f"{rank}{suit.symbol}") for suit in Suit} == \
            {SPOKEN[rank][1]}
