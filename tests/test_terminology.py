"""Terminology of the shipped catalogs (issue 8, item 14: the translation review).

Data-driven guards over every msgstr of ``locales/<lang>/LC_MESSAGES/messages.po``:

* ``TERMS``: one term per concept per locale. Each concept has the term the catalog's
  glossary prescribes (it must be used) and the variants it replaced (they must never
  appear in any msgstr, in any plural form).
* ``IN_MESSAGE``: a message that must say a given word: the term of the card app's own
  page for the same example (seeds 000 = Czech "První vyložení", 001 = Estonian CardVerse
  page, 003 = Slovak "Pravidlá hry Rami"), so players meet one word in the app and on the
  site, and the words whose loss changed a rule's meaning.
* ``EXACT``: short labels whose whole translation is fixed (meld type names).
* ``RANKS_IN_WORDS``: locales whose prose writes rank sequences out in words
  ("dáma, kráľ, eso"), never English rank letters ("Q-K-A").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest
from babel.messages.pofile import read_po

from tests.conftest import REPO

LOCALES = ("cs", "sk", "pl", "et", "hu", "de")


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
    # et: "iga teine mängija" reads as "every second player" (review ET-1, meaning).
    Term("et", "every other player", r"\bülejäänud mängija",
         (r"\biga\w* teis\w* mängija",)),
)


@dataclass(frozen=True)
class InMessage:
    """A message whose translation must contain a phrase.

    Attributes:
        locale: catalog language code.
        context: the msgctxt, or None.
        msgid: the English source (singular form for plurals).
        phrase: regex (case-sensitive) every translated form must match.
        why: where the phrase comes from (seed page or review finding).
    """

    locale: str
    context: str | None
    msgid: str
    phrase: str
    why: str


IN_MESSAGE: tuple[InMessage, ...] = (
    InMessage("de", "event",
              "The discard pile, except its top card, was shuffled into a new stock.",
              r"\bgemischt\b", "review DE-1: the event reports the shuffle"),
)

# (locale, msgctxt, msgid, the whole translation): the set's meld-type label is the
# app's own ("Platná trojica alebo štvorica" on the Slovak page, seed 003).
EXACT: tuple[tuple[str, str | None, str, str], ...] = (
    ("sk", "meld type", "set", "trojica alebo štvorica"),
)

# Locales whose prose writes rank sequences in words, and the pattern of a sequence of
# English rank letters (Q-K-A, A-2-3, K-A-2, 10-J-Q).
RANKS_IN_WORDS = ("cs", "sk", "pl")
RANK_LETTERS = re.compile(r"\b(?:[AKQJ]|10|[2-9])(?:-(?:[AKQJ]|10|[2-9])){2,}\b")


@cache
def _forms(locale: str) -> tuple[tuple[str | None, str, str], ...]:
    """Every non-empty translated form of the catalog: (msgctxt, msgid, text)."""
    path = REPO / "locales" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale)
    found: list[tuple[str | None, str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found.extend((message.context, msgid, str(text)) for text in strings if text)
    return tuple(found)


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
        if re.search(pattern, text, re.IGNORECASE)
    })
    assert offending == []
    assert any(re.search(term.required, text, re.IGNORECASE)
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
