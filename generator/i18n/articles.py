"""Articles chosen by the word after them: Hungarian "a" or "az".

Hungarian writes "az" before a word read with a vowel sound and "a" before any other.
A translation cannot know the value a placeholder takes (a card's code, a seat's
number), so before such a placeholder it writes ``a(z)``, the language's own mark for
an article not chosen yet ("A dzsóker a(z) %(card)s helyén áll."); once the sentence is
filled in, :func:`choose_articles` puts the article its next word needs ("a 9♠ helyén",
"az A♠ helyén", "az 5♠ helyén"). The rule is :func:`hungarian_article`; the seats'
messages, which name their number, are written with it ("Az 1. játékos", "A 2.
játékos"), and a test holds every article before a number or a card code in the
Hungarian catalogs to it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

HUNGARIAN_VOWELS = frozenset("aáeéiíoóöőuúüű")
"""The vowels of Hungarian: a word starting with one takes "az"."""

HUNGARIAN_VOWEL_LETTER_NAMES = frozenset("AÁEÉIÍOÓÖŐUÚÜŰFLMNRSXY")
"""The capital letters whose Hungarian names start with a vowel (á, é, ef, el, em, en,
er, es, iksz, ipszilon…): a letter read as a letter ("A" of "A♠", "az A-2-3") takes
"az"; "J", "Q", "K" (jé, kú, ká) take "a"."""

_LEADING_DIGITS = re.compile(r"\d+")


def _number_article(digits: str) -> str:
    """The article before a number whose first digits (one group, no separator) are
    ``digits``, read aloud: "az" before egy (1, and 1,000 to 1,999 read "ezer…"), öt
    (5), ötven (50 to 59) and ötszáz (500 to 599) and the thousands and millions they
    begin; "a" before any other (kettő, tíz, tizen-, száz…)."""
    lead = len(digits) % 3 or 3  # the group read first: "12 000" is tizenkétezer
    first = digits[0]
    return "az" if first == "5" or (first == "1" and lead == 1) else "a"


def hungarian_article(word: str) -> str:
    """The Hungarian definite article before ``word`` as a reader reads it aloud.

    Args:
        word: the text after the article, up to the next space: a number or an ordinal
            ("2.", "10", "1.1.0-s"), a card's code ("9♠", "A♥", "10♦", "JK", "JK→5♠"),
            a letter or a word; leading quotes, brackets and emphasis are skipped.

    Returns:
        ``"az"`` before a vowel sound: a number read from egy or öt (1, 5, 50, 1000),
        a capital letter whose name starts with a vowel (A, E, F, L, M, N, R, S…), a
        word starting with a vowel; ``"a"`` otherwise (2♠ to 10♠ but the 5, J, Q, K,
        the joker).
    """
    start = next((i for i, char in enumerate(word) if char.isalnum()), None)
    if start is None:
        return "a"
    rest = word[start:]
    if rest[0].isdigit():
        digits = _LEADING_DIGITS.match(rest)
        assert digits is not None
        return _number_article(digits.group())
    letters = re.match(r"[^\W\d_]+", rest)
    run = letters.group() if letters is not None else rest[0]
    if run.isupper():  # a letter or an abbreviation, read letter by letter
        return "az" if run[0] in HUNGARIAN_VOWEL_LETTER_NAMES else "a"
    return "az" if run[0].lower() in HUNGARIAN_VOWELS else "a"


_HUNGARIAN_MARK = re.compile(r"(?<!\w)([Aa])\(z\)(\s+)(\S+)")
"""A Hungarian ``a(z)`` (``A(z)`` at the start of a sentence), the space after it and the
word it stands before."""


def _choose_hungarian(text: str) -> str:
    """``text`` with each ``a(z)`` before a word replaced by the article that word needs
    (:func:`hungarian_article`), capitalised as the mark is."""
    def chosen(match: re.Match[str]) -> str:
        article = hungarian_article(match[3])
        if match[1] == "A":
            article = article.capitalize()
        return f"{article}{match[2]}{match[3]}"
    return _HUNGARIAN_MARK.sub(chosen, text) if "(z)" in text else text


CHOOSERS: dict[str, Callable[[str], str]] = {"hu": _choose_hungarian}
"""Languages whose articles depend on the next word → what chooses them in a filled-in
sentence."""


def choose_articles(text: str, locale: str) -> str:
    """``text``, a sentence filled in for ``locale``, with the articles its language
    leaves open until the next word is known chosen (Hungarian ``a(z)`` → "a" or
    "az"); as it is in any other language.

    Args:
        text: the sentence, its placeholders filled in.
        locale: the locale identifier (``"hu"``, ``"hu_HU"``).

    Returns:
        The sentence with its articles chosen.
    """
    choose = CHOOSERS.get(_language(locale))
    return choose(text) if choose is not None else text


@functools.cache
def _language(locale: str) -> str:
    """The language of a locale identifier (``"hu"`` of ``"hu_HU"``), worked out once
    per identifier: :func:`choose_articles` runs for every sentence a page shows."""
    return re.split(r"[_@-]", locale, maxsplit=1)[0]
