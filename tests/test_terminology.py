"""Terminology of the shipped catalogs: the terms each language uses, and the ones it does not.

Data-driven guards over every msgstr of ``locales/<lang>/LC_MESSAGES/messages.po`` and of
the package's built-in ``generator/locales/<lang>/LC_MESSAGES/messages.po``:

* ``TERMS``: one term per concept per locale. Each concept has the term the catalog's
  glossary prescribes (it must be used) and the variants it replaced (they must never
  appear in any msgstr, in any plural form).
* ``IN_MESSAGE``: a message that must say a given word: the term of the card app's own
  page for the same example (seeds 000 = Czech "První vyložení", 001 = Estonian CardVerse
  page, 003 = Slovak "Pravidlá hry Rami"), so players meet one word in the app and on the
  site, and the words whose loss changed a rule's meaning.
* ``EXACT``: short labels whose whole translation is fixed (meld verdicts, options).
* ``RANKS_IN_WORDS``: locales whose prose writes rank sequences out in words
  ("dáma, kráľ, eso"), never English rank letters ("Q-K-A").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest

from tests.conftest import repo_catalogs


@dataclass(frozen=True)
class Term:
    """One concept of one locale's glossary.

    Attributes:
        locale: catalog language code.
        concept: the English concept, for the test id and messages.
        required: regex (case-insensitive) that at least one msgstr must match.
        forbidden: regexes (case-insensitive) that no msgstr may match.
    """

    locale: str
    concept: str
    required: str
    forbidden: tuple[str, ...]


TERMS: tuple[Term, ...] = (
    # cs: the app's page (seed 000) says "trojice" ("v trojici es", "Dvě trojice"), never
    # "skupina".
    Term("cs", "set", r"\btrojic", (r"\bskupin",)),
    Term("cs", "rule preset", r"\bnastavení pravidel\b", (r"\bdvoj(?:í|ích|ím|ími) pravid",)),
    Term("cs", "a few points", r"\bněkolik bodů\b", (r"\bpár bodů\b",)),  # not colloquial
    Term("cs", "every other player", r"\bostatní hráči\b", (r"\bkaždý další hráč",)),
    Term("cs", "equal points", r"\bstejný počet bodů\b", (r"\bstejně bodů\b",)),
    Term("cs", "the stock runs out", r"\bvyčerpa",
         (r"\bbalíček (?:dojde|došel)\b", r"\bdojde dobírací")),
    Term("cs", "conditional 'if'", r"\bkdyby\b", (r"\bkdyž by\b",)),
    Term("cs", "count column headers", r"^Počet karet ", (r"^Karet ",)),
    # the catalog's glossary: rules engine = herní jádro (never the English "engine")
    Term("cs", "rules engine", r"\bherní\w* jádr", (r"(?<!%\()\bengin",)),
    # sk: the app's page (seed 003) names the reference rules one way only.
    Term("sk", "reference rules", r"\breferenčn", (r"\bštandardn", r"\bvýchoz")),
    Term("sk", "every other player", r"\bostatní hráči\b", (r"\bkaždý ďalší hráč",)),
    Term("sk", "equal points", r"\brovnaký počet bodov\b", (r"\brovnako bodov\b",)),
    Term("sk", "to fit", r"\bhod(?:í|ila)\b", (r"\bpas(?:ova|uj)\w*",)),
    Term("sk", "the joker in prose", r"\bžolík\b", (r"\bJK\b",)),
    Term("sk", "rules engine", r"\bhern\w* jadr", (r"(?<!%\()\bengin",)),
    Term("sk", "conditional 'if'", r"\bak by\b", (r"\bkeď by\b",)),
    Term("sk", "a few points", r"\bniekoľko bodov\b", (r"\bpár bodov\b",)),  # not colloquial
    # a numbered meld: "kombinácia č. 2" everywhere, not "2. kombinácia" or "kombinácia 2"
    Term("sk", "numbered meld", r"\bkombinácia č\. ",
         (r"\)s\. kombinácia\b", r"\bkombináci[ei] %\(num\)s")),
    # the reader is "ty" on every page, the 404 page too
    Term("cs", "address", r"\bnajdeš\b", (r"\bnajdete\b",)),
    Term("sk", "address", r"\bnájdeš\b", (r"\bnájdete\b",)),
    Term("cs", "address, asking", r"\bzadej\b",
         (r"\b(?:zadejte|vyberte|napište|vyplňte|vyzkoušejte)\b", r"\bvaše\b")),
    Term("sk", "address, asking", r"\bzadaj\b",
         (r"\b(?:zadajte|vyberte|napíšte|vyplňte|vyskúšajte)\b", r"\bvaše\b")),
    # de: "du"; a capital Sie/Ihr/Ihnen within a sentence is the formal address
    Term("de", "address", r"\bgib\b", (r"(?-i:(?<=[a-zäöüß,] )(?:Sie|Ihre?[mnrs]?|Ihnen)\b)",)),
    Term("hu", "address", r"\bválassz\b",
         (r"\bÖn\b", r"\b(?:válasszon|írjon|próbálja)\b")),
    Term("hu", "joker", r"\bdzsóker", (r"(?<![(.{_])\bjoker",)),
    Term("pl", "game (whole match)", r"\bpartii?\b", (r"\bKoniec gry\b", r"^Gra (?:toczy|kończy)")),
    Term("pl", "reference rules", r"\bzasady podstawowe\b", (r"\bzasad\w* standardow",)),
    Term("pl", "count column headers", r"^Liczba kart ", (r"^Kart ",)),
    Term("pl", "a first meld counts at the end of the turn", r"po zakończeniu tury",
         (r"\bpod koniec tury\b",)),
    # et: "iga teine mängija" reads as "every second player", which changes the meaning.
    Term("et", "every other player", r"\bülejäänud mängija",
         (r"\biga\w* teis\w* mängija",)),
    Term("et", "a suit not fixed", r"\bmääramata\b", (r"\blahti(?:ne|seks)\b",)),
    Term("et", "rulebook (a preset is reeglistik)", r"\breeglikogu\b",
         (r"\bametlikku reeglistikku\b",)),
    # et: the seed 001 page's mixed terms (seeds/README.md): one term each here.
    Term("et", "joker", r"\bjokker", (r"\bjoker\b",)),
    Term("et", "discard pile", r"\bmahaviskepak", (r"\bäravis", r"\bkaardivirn")),
    Term("et", "round", r"\bvoor", (r"\bjaotus\w*",)),
    Term("et", "address", r"\bsinu\b", (r"\bteie\b", r"\bteil\b")),
    Term("et", "rank letters", r"\bQ-K-A\b", (r"\bD-R-A\b", r"\bR-A-2\b")),
    Term("et", "page (leht, never lehekülg)", r"\blehel\b", (r"\blehekül",)),
    # hu: "a legelőrébb ül" is spatial ("sits furthest forward").
    Term("hu", "seat order", r"\belsőként következik\b", (r"\blegelőbb\b", r"\blegelőrébb\b")),
    Term("hu", "one more (not a calque of 'a second')", r"^Még egy\b", (r"^Egy második\b",)),
    Term("de", "deck (not 'card game')", r"\bKartendeck", (r"\bKartenspiel",)),
    Term("de", "leave a meld valid", r"\bgültig bleiben\b", (r"\bgültig lassen\b",)),
    # de: "Spielzug" reads as "Zug" (a turn); a move, one step of a turn, is an Aktion
    # (the heading "Erlaubte Spielzüge" names the moves a game allows).
    Term("de", "move (one step of a turn)", r"\bAktion",
         (r"\bSpielzug\b", r"(?<!^Erlaubte )\bSpielzüge\b")),
    Term("de", "follow on (one word, Duden)", r"\baufeinanderfolgen\b",
         (r"\baufeinander folgen\b",)),
    Term("de", "shuffled back (never 'nie wieder', which says it happened before)",
         r"\bzurückgemischt\b", (r"\bnie wieder\b",)),
)


@dataclass(frozen=True)
class InMessage:
    """A message whose translation must contain a phrase.

    Attributes:
        locale: catalog language code.
        context: the msgctxt, or None.
        msgid: the English source (singular form for plurals).
        phrase: regex (case-sensitive) every translated form must match.
        why: where the phrase comes from (a seed page) or what it gets right.
    """

    locale: str
    context: str | None
    msgid: str
    phrase: str
    why: str


SEED_000 = "seed 000, the app's Czech page"
SEED_003 = "seed 003, the app's Slovak page"
RESHUFFLE = "The discard pile, except its top card, was shuffled into a new stock."
SEARCH_SERVED = ("Search needs the site served by a web server: opened from a file, the "
                 "browser does not load the index. Serve the site folder, for example with "
                 "%(command)s, or with any web server.")

IN_MESSAGE: tuple[InMessage, ...] = (
    InMessage("cs", None, "Two sets, enough points, no pure run", r"^Dvě trojice,", SEED_000),
    InMessage("cs", None, "Pure run and a set, a few points short",
              r"^Čistá postupka a trojice, několik bodů chybí$", SEED_000),
    InMessage("cs", None, "In a set of aces every ace counts high.", r"^V trojici es ", SEED_000),
    InMessage("cs", None,
              "An ace after the king (Q-K-A) or in a set of aces: {rami.ace_high_points} points.",
              r"^Eso za králem \(dáma, král, eso\) nebo v trojici es: ", SEED_000),
    InMessage("cs", None, "The other melds may hold a joker. Two sets are never enough, however "
              "many points they are worth, and neither is a run with a joker.",
              r"\bDvě trojice nikdy nestačí", SEED_000),
    InMessage("sk", None,
              "An ace after the king (Q-K-A) or in a set of aces: {rami.ace_high_points} points.",
              r"^Eso za kráľom \(dáma, kráľ, eso\) alebo v trojici es: ", SEED_003),
    InMessage("sk", None, "An ace before the two (A-2-3): {rami.ace_low_points} point.",
              r"^Eso pred dvojkou \(eso, dvojka, trojka\): ", SEED_003),
    InMessage("sk", None, "The ace can be low, before the two (A-2-3), or high, after the king "
              "(Q-K-A), but never both at once. A run does not go round the corner: K-A-2 is "
              "not a run.", r": kráľ, eso, dvojka nie je postupka\.$", SEED_003),
    InMessage("sk", None, "Every meld you lay must be a valid set or run. There are no jokers.",
              r"\btrojica, štvorica alebo postupka\b", "four of a kind is a set too"),
    InMessage("cs", "event", RESHUFFLE, r"\bzamíchal\b", "the event reports the shuffle"),
    InMessage("sk", "event", RESHUFFLE, r"\bzamiešal\b", "the event reports the shuffle"),
    InMessage("pl", "event", RESHUFFLE, r"\bpotasowany\b", "the event reports the shuffle"),
    InMessage("et", "event", RESHUFFLE, r"\bsegati\b", "the event reports the shuffle"),
    InMessage("hu", "event", RESHUFFLE, r"\bmegkeverték\b", "the event reports the shuffle"),
    InMessage("de", "event", RESHUFFLE, r"\bgemischt\b", "the event reports the shuffle"),
    InMessage("de", "event", "The opening fell short: the melds went back to the hand.",
              r"^Die Erstmeldung reichte nicht: .* wurden ",
              "an event line reports what happened, in the past"),
    InMessage("hu", "explanation", "threshold %(threshold)s, %(preset)s",
              r"^ponthatár %\(threshold\)s, ", "no second colon after „A táblázat példái:”"),
    InMessage("hu", "explanation", "%(card)s takes the joker's place: %(meld)s. The player "
              "takes the joker and must lay it again this turn if they can.",
              r"^A\(z\) %\(card\)s kerül a dzsóker helyére\. Az új kombináció: %\(meld\)s\.",
              "one colon a sentence, the card's article chosen per card"),
    InMessage("hu", None, SEARCH_SERVED, r"például a következő paranccsal: %\(command\)s\.",
              "no unresolved „a(z)” before the command"),
    InMessage("et", None, SEARCH_SERVED, r"\bvõi kasuta mõnda muud veebiserverit\.$",
              "another way to serve the site, not another server to start"),
    InMessage("de", None, SEARCH_SERVED,
              r"^Die Suche funktioniert nur, wenn ein Webserver die Website ausliefert: Wird "
              r"sie als Datei geöffnet, .* oder mit einem beliebigen anderen Webserver\.$",
              "no dangling participle; any web server"),
)

# (locale, msgctxt, msgid, the whole translation): a set's verdict names its count in
# Czech and Slovak (trojice / čtveřice, trojica / štvorica), and a set of any other count
# neutrally.
EXACT: tuple[tuple[str, str | None, str, str], ...] = (
    ("cs", "meld verdict, set of three cards", "Valid set", "Platná trojice"),
    ("cs", "meld verdict, set of four cards", "Invalid set", "Neplatná čtveřice"),
    ("cs", "meld verdict", "Invalid set", "Neplatná kombinace stejných hodnot"),
    ("sk", "meld verdict, set of three cards", "Valid set", "Platná trojica"),
    ("sk", "meld verdict, set of four cards", "Invalid set", "Zamietnutá štvorica"),
    ("sk", "meld verdict", "Invalid set", "Zamietnutá kombinácia rovnakých hodnôt"),
    ("sk", "meld verdict", "Invalid run", "Zamietnutá postupka"),  # seed 003
    ("sk", "verdict", "Invalid", "Zamietnutá"),
    # the adjective agrees with the type, in one message
    ("pl", "meld verdict", "Valid run", "Prawidłowy sekwens"),
    ("pl", "meld verdict", "Invalid set", "Nieprawidłowa grupa"),
    # The option as the prose names it, in words (its code never shows on a page).
    ("cs", "option", "ace high", "volba „vysoké eso“"),
    ("cs", "option", "discard to win", "volba „zakončení odhozením“"),
    ("sk", "option", "ace high", "možnosť „vysoké eso“"),
    ("de", "option", "ace high", "Ass hoch"),
    ("de", "option", "discard to win", "Ausmachen nur mit Abwurf"),
    ("de", None, "Scores", "Punkte"),
    ("cs", "verdict", "Can open", "Stačí na první vyložení"),
    ("cs", "verdict", "Cannot open", "Nestačí na první vyložení"),
)

# Locales whose prose writes rank sequences in words, and the pattern of a sequence of
# English rank letters (Q-K-A, A-2-3, K-A-2, 10-J-Q).
RANKS_IN_WORDS = ("cs", "sk", "pl")
RANK_LETTERS = re.compile(r"\b(?:[AKQJ]|10|[2-9])(?:-(?:[AKQJ]|10|[2-9])){2,}\b")


@cache
def _forms(locale: str) -> tuple[tuple[str | None, str, str], ...]:
    """Every non-empty translated form of the site's catalog and the built-in one:
    (msgctxt, msgid, text); a message both translate, once (the site's, which the pages
    show)."""
    found: dict[tuple[str | None, str], list[str]] = {}
    for catalog in repo_catalogs(locale):
        for message in catalog:
            if not message.id:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            strings = message.string if isinstance(message.string, tuple) \
                else (message.string,)
            found.setdefault((message.context, msgid), [str(t) for t in strings if t])
    return tuple((ctx, msgid, text) for (ctx, msgid), texts in found.items()
                 for text in texts)


def _translations(locale: str, context: str | None, msgid: str) -> list[str]:
    forms = [text for ctx, mid, text in _forms(locale) if ctx == context and mid == msgid]
    assert forms, f"{locale}: no translation of {msgid!r} (msgctxt {context!r})"
    return forms


@pytest.mark.parametrize("term", TERMS, ids=lambda t: f"{t.locale}-{t.concept}")
def test_one_term_per_concept(term: Term) -> None:
    offending = sorted({
        f"{pattern} in {msgid!r}: {text!r}"
        for _ctx, msgid, text in _forms(term.locale)
        for pattern in term.forbidden
        if re.search(pattern, text, re.IGNORECASE | re.MULTILINE)
    })
    assert offending == []
    assert any(re.search(term.required, text, re.IGNORECASE | re.MULTILINE)
               for _ctx, _msgid, text in _forms(term.locale))


@pytest.mark.parametrize("item", IN_MESSAGE, ids=lambda i: f"{i.locale}-{i.msgid[:40]}")
def test_message_uses_the_term(item: InMessage) -> None:
    missing = [text for text in _translations(item.locale, item.context, item.msgid)
               if not re.search(item.phrase, text)]
    assert missing == [], item.why


@pytest.mark.parametrize(("locale", "context", "msgid", "expected"), EXACT,
                         ids=[f"{e[0]}-{e[1]}-{e[2]}" for e in EXACT])
def test_label_is_exact(locale: str, context: str | None, msgid: str, expected: str) -> None:
    assert _translations(locale, context, msgid) == [expected]


@pytest.mark.parametrize("locale", RANKS_IN_WORDS)
def test_prose_writes_rank_sequences_in_words(locale: str) -> None:
    letters = sorted({f"{match.group()} in {text!r}"
                      for _ctx, _msgid, text in _forms(locale)
                      for match in RANK_LETTERS.finditer(text)})
    assert letters == []
