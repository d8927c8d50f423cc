"""Golden card names: all 53 cards in all 7 locales, and CLDR plural forms.

The expected names are composed here from each language's own words and grammar
(suit adjectives agreeing in gender with the rank noun in Czech and Slovak; "Herz-Dame";
"dama kier"; "kőr dáma"; "ärtu emand"), independently of the catalogs they test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.cards import all_cards
from generator.i18n import words
from generator.i18n.catalog import Translator
from generator.i18n.catalog import load_translator
from generator.i18n.catalog import source_translator
from generator.i18n.plurals import plural_rule
from generator.layout import BUILTIN_LOCALES
from generator.layout import BUILTIN_POT
from tests.conftest import REPO
from tests.conftest import SHIPPED_LOCALES
from tests.conftest import repo_translator

R = Rank
S = Suit
RANKS = [R.ACE, R.TWO, R.THREE, R.FOUR, R.FIVE, R.SIX, R.SEVEN, R.EIGHT, R.NINE, R.TEN,
         R.JACK, R.QUEEN, R.KING]

# Slavic: rank noun and its gender (m, f, n); the suit adjective agrees with it.
CS_RANKS = ["eso n", "dvojka f", "trojka f", "čtyřka f", "pětka f", "šestka f", "sedma f",
            "osma f", "devítka f", "desítka f", "kluk m", "dáma f", "král m"]
CS_SUITS = {S.CLUBS: "křížov", S.DIAMONDS: "károv", S.HEARTS: "srdcov", S.SPADES: "pikov"}
CS_ENDINGS = {"m": "ý", "f": "á", "n": "é"}
SK_RANKS = ["eso n", "dvojka f", "trojka f", "štvorka f", "päťka f", "šestka f",
            "sedmička f", "osmička f", "deviatka f", "desiatka f", "dolník m", "dáma f",
            "kráľ m"]
SK_SUITS = {S.CLUBS: "krížov", S.DIAMONDS: "károv", S.HEARTS: "srdcov", S.SPADES: "pikov"}


def _slavic(ranks: list[str], suits: dict[Suit, str], card: Card) -> str:
    assert card.rank is not None and card.suit is not None
    noun, gender = ranks[RANKS.index(card.rank)].split()
    return f"{suits[card.suit]}{CS_ENDINGS[gender]} {noun}"


DE_RANKS = ["Ass", "Zwei", "Drei", "Vier", "Fünf", "Sechs", "Sieben", "Acht", "Neun",
            "Zehn", "Bube", "Dame", "König"]
DE_SUITS = {S.CLUBS: "Kreuz", S.DIAMONDS: "Karo", S.HEARTS: "Herz", S.SPADES: "Pik"}
PL_RANKS = ["as", "dwójka", "trójka", "czwórka", "piątka", "szóstka", "siódemka", "ósemka",
            "dziewiątka", "dziesiątka", "walet", "dama", "król"]
PL_SUITS = {S.CLUBS: "trefl", S.DIAMONDS: "karo", S.HEARTS: "kier", S.SPADES: "pik"}
HU_RANKS = ["ász", "kettes", "hármas", "négyes", "ötös", "hatos", "hetes", "nyolcas",
            "kilences", "tízes", "bubi", "dáma", "király"]
HU_SUITS = {S.CLUBS: "treff", S.DIAMONDS: "káró", S.HEARTS: "kőr", S.SPADES: "pikk"}
ET_RANKS = ["äss", "kaks", "kolm", "neli", "viis", "kuus", "seitse", "kaheksa", "üheksa",
            "kümme", "soldat", "emand", "kuningas"]
ET_SUITS = {S.CLUBS: "risti", S.DIAMONDS: "ruutu", S.HEARTS: "ärtu", S.SPADES: "poti"}
EN_RANKS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "jack", "queen", "king"]
EN_SUITS = {S.CLUBS: "clubs", S.DIAMONDS: "diamonds", S.HEARTS: "hearts", S.SPADES: "spades"}
JOKERS = {"en": "joker", "cs": "žolík", "sk": "žolík", "de": "Joker", "pl": "joker",
          "hu": "dzsóker", "et": "jokker"}


def expected(locale: str, card: Card) -> str:
    """The card's name in ``locale``, composed from the tables above."""
    if card == JOKER:
        return JOKERS[locale]
    assert card.rank is not None and card.suit is not None
    i = RANKS.index(card.rank)
    return {
        "cs": lambda: _slavic(CS_RANKS, CS_SUITS, card),
        "sk": lambda: _slavic(SK_RANKS, SK_SUITS, card),
        "de": lambda: f"{DE_SUITS[card.suit]}-{DE_RANKS[i]}",  # type: ignore[index]
        "pl": lambda: f"{PL_RANKS[i]} {PL_SUITS[card.suit]}",  # type: ignore[index]
        "hu": lambda: f"{HU_SUITS[card.suit]} {HU_RANKS[i]}",  # type: ignore[index]
        "et": lambda: f"{ET_SUITS[card.suit]} {ET_RANKS[i]}",  # type: ignore[index]
        "en": lambda: f"{EN_RANKS[i]} of {EN_SUITS[card.suit]}",  # type: ignore[index]
    }[locale]()


def _translator(locale: str) -> Translator:
    """What the site shows in ``locale`` (its catalog over the built-in one)."""
    return source_translator() if locale == "en" else repo_translator(locale)


@pytest.mark.parametrize("locale", ["en", "cs", "sk", "de", "pl", "hu", "et"])
def test_golden_card_names(locale: str) -> None:
    translator = _translator(locale)
    cards = all_cards()
    assert len(cards) == 53
    got = {c.code: translator.gettext(words.card_msgid(c), words.CARD_CONTEXT) for c in cards}
    assert got == {c.code: (expected(locale, c), True) for c in cards}
    # Spot checks of gender agreement.
    if locale == "cs":
        assert got["QH"][0] == "srdcová dáma" and got["KH"][0] == "srdcový král"
        assert got["AH"][0] == "srdcové eso" and got["7S"][0] == "piková sedma"
    if locale == "sk":
        assert got["KH"][0] == "srdcový kráľ" and got["7S"][0] == "piková sedmička"
        assert got["AC"][0] == "krížové eso"


# CLDR via Babel's gettext rules: msgstr index per count, and the form a reader sees.
FORMS = {
    "cs": (["karta", "karty", "karet"], {1: "karta", 2: "karty", 3: "karty", 5: "karet",
                                         21: "karet", 22: "karet", 25: "karet"}),
    "sk": (["karta", "karty", "kariet"], {1: "karta", 2: "karty", 3: "karty", 5: "kariet",
                                          21: "kariet", 22: "kariet", 25: "kariet"}),
    "pl": (["karta", "karty", "kart"], {1: "karta", 2: "karty", 3: "karty", 5: "kart",
                                        21: "kart", 22: "karty", 25: "kart"}),
}


@pytest.mark.parametrize("locale", sorted(FORMS))
def test_plural_forms(locale: str) -> None:
    forms, cases = FORMS[locale]
    rule = plural_rule(locale)
    assert rule.nplurals == 3
    assert {n: forms[rule(n)] for n in cases} == cases


@pytest.mark.parametrize("locale", sorted(FORMS))
def test_the_shipped_catalog_says_it_right(locale: str) -> None:
    translator = _translator(locale)
    for n in (1, 2, 3, 5, 21, 22, 25):
        text, ok = translator.ngettext("%(num)s card", "%(num)s cards", n)
        assert ok
        assert text % {"num": n} == f"{n} {FORMS[locale][1][n]}"


@pytest.mark.parametrize(("catalogs", "template"), [
    (REPO / "locales", REPO / "locales" / "messages.pot"),
    (BUILTIN_LOCALES, BUILTIN_POT)], ids=["site", "built-in"])
def test_every_shipped_catalog_is_complete(catalogs: Path, template: Path) -> None:
    """Every message of the template is translated, not fuzzy, in every shipped locale:
    the site's own catalogs and the package's built-in ones."""
    from babel.messages.pofile import read_po

    with template.open("rb") as fh:
        ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
               for m in read_po(fh) if m.id}
    locales = sorted(p.parent.parent.name for p in catalogs.glob("*/LC_MESSAGES/messages.po"))
    assert locales == sorted(SHIPPED_LOCALES)
    for locale in locales:
        path = catalogs / locale / "LC_MESSAGES" / "messages.po"
        translator, errors = load_translator(path, str(path), locale)
        assert errors == []
        missing = sorted(str(i[1])[:40] for i in ids if i not in translator.messages)
        assert missing == [], f"{locale}: {missing[:5]}"
        assert len(ids) > 300


@pytest.mark.parametrize(
    ("locale", "code", "name"),
    [("cs", "QH", "srdcovou dámu"), ("cs", "KS", "pikového krále"), ("cs", "AH", "srdcové eso"),
     ("sk", "QH", "srdcovú dámu"), ("sk", "KS", "pikového kráľa"), ("pl", "QH", "damę kier"),
     ("pl", "AC", "asa trefl"), ("de", "JC", "Kreuz-Buben"), ("de", "QH", "Herz-Dame"),
     ("en", "QH", "queen of hearts")],
)
def test_card_names_as_the_object_of_a_verb(locale: str, code: str, name: str) -> None:
    """In a sentence ("seat 1 discards …") a card's name takes the object form."""
    from generator.engine.cards import parse_card

    text, ok = _translator(locale).gettext(words.card_msgid(parse_card(code)),
                                           words.CARD_OBJECT_CONTEXT)
    assert (text, ok) == (name, True)
