"""Text in every language: untranslated titles and plural forms are marked fallbacks,
lists are joined the locale's way, and sentences with a seat or a number are whole
messages (docs/site.md, "Languages")."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from generator.commands.build import build
from tests.conftest import parsed_page
from tests.test_i18n import PLURAL_OK
from tests.test_i18n import PO_HEADER
from tests.test_i18n import _tiny

PO = "locales/sk/LC_MESSAGES/messages.po"


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_a_plural_with_one_empty_form_is_an_untranslated_fallback(tmp_path: Path) -> None:
    body = PLURAL_OK.replace('"Každý hráč dostane {rami.hand_size} karty."', '""')
    assert 'msgstr[1] ""' in body
    project = _tiny(tmp_path, body)
    report = build(project)
    assert report.exit_code == 0, report.lines
    soup = _soup(project / "site" / "sk" / "tiny" / "index.html")
    marked = [el for el in soup.select(".untranslated")
              if el.get_text() == "Each player is dealt 13 cards."]
    assert marked and marked[0]["lang"] == "en"
    assert "Každý hráč" not in soup.get_text()
    msgid = "Each player is dealt {rami.hand_size} cards."
    assert msgid in [m[0] for m in report.coverage["sk"].missing]
    strict = build(project, strict=True)
    assert strict.exit_code == 1
    line = (PO_HEADER + body).splitlines().index('msgstr[1] ""') + 1
    assert f"{PO}:{line}: empty form msgstr[1] in the translation of {msgid!r} " \
        "(--strict); expected it translated" in strict.lines


def _untranslate(project: Path, locale: str, *msgids: str) -> None:
    """Empty the translations of ``msgids`` in ``locale``'s catalog."""
    from babel.messages.pofile import read_po
    from babel.messages.pofile import write_po

    path = project / "locales" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    for msgid in msgids:
        message = catalog.get(msgid)
        assert message is not None and message.string, msgid
        message.string = ""
    with path.open("wb") as fh:
        write_po(fh, catalog, width=0)


def _english(element: object) -> bool:
    """The element holds the English-fallback mark (the one body text gets)."""
    from bs4 import Tag

    assert isinstance(element, Tag), element
    return element.select_one('span.untranslated[lang="en"]') is not None


def test_an_untranslated_page_title_is_marked_wherever_it_is_shown(lean_project: Path) -> None:
    project = lean_project
    _untranslate(project, "cs", "The first meld", "The threshold")
    report = build(project)
    assert report.exit_code == 0, report.lines
    site = project / "site" / "cs"
    page = _soup(site / "first-meld" / "index.html")
    h1 = page.select_one("article h1")
    assert h1 is not None and h1.get_text() == "The first meld" and _english(h1)
    assert "The first meld" in page.title.get_text()
    for toc in page.select("nav.toc"):
        entry = toc.select_one('a[href="#the-threshold"]')
        assert entry is not None and entry.get_text() == "The threshold" and _english(entry)
        others = [a for a in toc.select("a") if a is not entry]
        assert others and not any(_english(a) for a in others)  # translated: not marked
    heading = page.select_one("h2#the-threshold")
    assert heading is not None and _english(heading)
    rules = _soup(site / "rules" / "index.html")
    for soup in (page, rules, _soup(site / "index.html")):
        link = soup.select_one('.site-nav a[href$="first-meld/index.html"]')
        assert link is not None and link.get_text() == "The first meld" and _english(link)
        translated = soup.select_one('.site-nav a[href$="rules/index.html"]')
        assert translated is not None and not _english(translated)
    home = _soup(site / "index.html")
    item = home.select_one('.page-list__title[href="first-meld/index.html"]')
    assert item is not None and item.get_text() == "The first meld" and _english(item)
    # Counted: the coverage, and each page's notice (the navigation shows the title).
    assert {"The first meld", "The threshold"} <= {m[0] for m in report.coverage["cs"].missing}
    for soup, count in ((page, "2"), (rules, "1"), (home, "1")):
        notice = soup.select_one(".site-footer__untranslated")
        assert notice is not None and notice.get_text().split()[0] == count, notice


@pytest.fixture
def site(built_site: Path) -> Path:
    """The project's site, built once (conftest's ``built_site``) for the tests of
    composed text."""
    return built_site


def _texts(site: Path, lang: str, page: str, selector: str) -> list[str]:
    soup = parsed_page(site / lang / page / "index.html")
    return [" ".join(el.get_text("").split()) for el in soup.select(selector)]


@pytest.mark.parametrize(("locale", "three", "two"), [
    # CLDR binds the Czech and Slovak one-letter "a" to the next number (no-break space).
    ("cs", "2, 3 a\xa04", "2 a\xa03"), ("sk", "2, 3 a 4", "2 a\xa03"),
    ("pl", "2, 3 i 4", "2 i 3"),
    ("et", "2, 3 ja 4", "2 ja 3"), ("de", "2, 3 und 4", "2 und 3"),
    ("hu", "2, 3 és 4", "2 és 3"), ("en", "2, 3, and 4", "2 and 3"),
])
def test_seat_lists_are_joined_the_way_the_locale_joins_lists(locale: str, three: str,
                                                              two: str) -> None:
    from generator.i18n.catalog import source_translator
    from generator.i18n.explain import Words

    translator = source_translator()
    translator.locale = locale
    w = Words(translator)
    assert (w.seat_list([2, 3, 4]), w.seat_list([2, 3])) == (three, two)


@pytest.mark.parametrize(("lang", "page", "expected"), [
    ("cs", "rules", "nejnižší hodnotu karet v ruce mají hráči 2 a 3; vyhrává ten, kdo je "
     "v pořadí první, tedy hráč 2."),
    ("cs", "cardverse", "mají hráči 1, 2 a 3;"),
    ("et", "rules", "mängijatel 2 ja 3 on sama väikseim käe väärtus"),
    ("de", "rules", "Die Spieler 2 und 3 liegen"),
    ("hu", "cardverse", "a legkisebb kézértéken az 1., a 2. és a 3. játékos osztozik;"),
    ("hu", "rules", "a legkisebb kézértéken a 2. és a 3. játékos osztozik;"),
    ("en", "cardverse", "seats 1, 2, and 3 share the lowest hand value"),
])
def test_tied_seats_on_the_pages(site: Path, lang: str, page: str, expected: str) -> None:
    reasoning = _texts(site, lang, page, ".reasoning li")
    assert any(expected in text for text in reasoning), reasoning


def test_hungarian_seat_sentences_carry_the_article_of_the_number(site: Path) -> None:
    steps = _texts(site, "hu", "rules", ".step__what")
    assert steps[0].startswith("Az 1. játékos húz a dobópakliból: Q♥"), steps[0]
    reasoning = _texts(site, "hu", "rules", ".reasoning li")
    assert "A forduló folytatódik: a 2. játékos következik." in reasoning
    assert "A 2. játékos kiment, és megnyerte a fordulót." in reasoning
    assert "Az 1. játékos kiment, és megnyerte a fordulót." in reasoning
    assert any(text.endswith("közülük az ülésrendben legelső, a 2. játékos nyer.")
               for text in reasoning), reasoning
    assert "A forduló folytatódik: az 1. játékos következik." in _texts(
        site, "hu", "cardverse", ".reasoning li")


def test_hungarian_card_sentences_carry_the_article_of_the_card(site: Path) -> None:
    reasoning = _texts(site, "hu", "rules", ".reasoning li")
    assert "A dzsóker a 9♠ helyén áll." in reasoning
    assert "A dzsóker a J♥ helyén áll, nem az A♥ helyén, mert így kevesebb pontot ér." \
        in reasoning
    assert any(text.startswith("A 6♠ kerül a dzsóker helyére. Az új kombináció: 6♠ 7♠ 8♠.")
               for text in reasoning), reasoning


def test_a_step_is_one_sentence_with_the_seat_and_cards_where_the_language_puts_them(
        site: Path) -> None:
    step = parsed_page(site / "hu" / "rules" / "index.html").select_one(".step__what")
    assert step is not None
    seat = step.select_one(".seat__name")
    assert seat is not None and seat.get_text() == "Az 1. játékos"
    cards = step.select_one(".meld .card")
    assert cards is not None and cards["aria-label"]
    assert _texts(site, "cs", "rules", ".step__what")[0].startswith(
        "Hráč 1 si dobere Q♥ z odkládacího balíčku")


@pytest.mark.parametrize(("lang", "expected"), [
    ("cs", "Kombinace č. 2: eso nemůže stát zároveň za králem a před dvojkou."),
    ("sk", "Kombinácia č. 2: eso nemôže byť zároveň za kráľom aj pred dvojkou."),
    ("pl", "Układ nr 2: as nie może leżeć jednocześnie po królu i przed dwójką."),
    ("et", "2. kombinatsioon: äss ei saa olla korraga nii kuninga järel kui ka kahe ees."),
    ("hu", "2. kombináció: az ász nem állhat egyszerre a király után és a kettes előtt."),
    ("de", "Kombination 2: Das Ass kann nicht zugleich nach dem König und vor der Zwei "
     "stehen."),
])
def test_a_numbered_meld_reason_is_one_sentence(site: Path, lang: str, expected: str) -> None:
    assert expected in _texts(site, lang, "first-meld", ".reasoning li")


@pytest.mark.parametrize(("lang", "case", "badge"), [
    ("pl", "queen-king-ace-hearts", "Prawidłowy sekwens"),
    ("pl", "three-sevens-of-spades", "Nieprawidłowa grupa"),
    ("cs", "three-kings", "Platná trojice"),
    ("sk", "king-ace-two-hearts", "Zamietnutá postupka"),
    ("de", "queen-king-ace-hearts", "Gültige Folge"),
    ("en", "three-kings", "Valid set"),
])
def test_a_meld_rows_verdict_and_type_are_one_message(site: Path, lang: str, case: str,
                                                       badge: str) -> None:
    """Polish: "Prawidłowy sekwens", not "Prawidłowe (sekwens)": the adjective
    agrees with the type's gender, so the pair is one message (``meld verdict``)."""
    soup = parsed_page(site / lang / "rules" / "index.html")
    row = soup.find(id=case)
    assert row is not None
    verdict = row.select_one(".verdict")
    assert verdict is not None
    assert verdict.get_text().strip("✓✗") == badge
    assert not row.select(".type")


@pytest.mark.parametrize(("lang", "case", "badge"), [
    ("cs", "three-kings", "Platná trojice"),
    ("cs", "three-sevens-of-spades", "Neplatná trojice"),
    ("cs", "four-queens", "Platná čtveřice"),
    ("cs", "five-sevens", "Neplatná kombinace stejných hodnot"),
    ("sk", "three-kings", "Platná trojica"),
    ("sk", "three-sevens-of-spades", "Zamietnutá trojica"),
    ("sk", "four-queens", "Platná štvorica"),
    ("sk", "five-sevens", "Zamietnutá kombinácia rovnakých hodnôt"),
    ("en", "four-queens", "Valid set"),
    ("en", "five-sevens", "Invalid set"),
])
def test_a_sets_verdict_names_its_card_count(site: Path, lang: str, case: str,
                                            badge: str) -> None:
    """A set of three cards is a "trojice", of four a "čtveřice" (Slovak "trojica",
    "štvorica"); a set of five is neither, and its verdict names it neutrally."""
    row = parsed_page(site / lang / "rules" / "index.html").find(id=case)
    assert row is not None
    verdict = row.select_one(".verdict")
    assert verdict is not None
    assert verdict.get_text().strip("✓✗") == badge


def test_the_home_page_claims_no_examples_of_its_own(site: Path) -> None:
    """The home page shows no examples: its footer does not say "every example on this
    page", which would claim examples it does not have; a rules page still does."""
    for lang in ("en", "cs"):
        home = parsed_page(site / lang / "index.html").select_one(".site-footer")
        rules = parsed_page(site / lang / "rules" / "index.html").select_one(".site-footer")
        assert home is not None and rules is not None
        assert not home.select("p:not(.to-top)"), home
        assert len(rules.select("p:not(.to-top)")) == 1
    assert "Every example on this page" in _texts(site, "en", "rules",
                                                  ".site-footer p:not(.to-top)")[0]


@pytest.mark.parametrize("lang", ["en", "cs", "sk", "pl", "et", "hu", "de"])
def test_column_headings_start_with_a_capital(site: Path, lang: str) -> None:
    """Every column heading starts with a capital, the deck table's preset columns too
    (not "reference rules | house rules"), in every locale."""
    headings = [h for page in ("rules", "first-meld", "cardverse")
                for h in _texts(site, lang, page, "th")]
    assert len(headings) > 10
    assert [h for h in headings if h[:1].islower()] == []
