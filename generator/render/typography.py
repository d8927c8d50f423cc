"""A locale's typography on its rendered pages (:func:`typeset`): a no-break space
(U+00A0) after a one-letter preposition or conjunction (Czech, Slovak, Polish), between
a number and the word after it and between "č." / "nr" and its number, and the
language's own quotation marks for straight (``"``) and English curly ones.

It works on a page's HTML as the theme writes it (well formed: a ``<`` or ``>`` in text
or in an attribute's value is escaped), on the text between tags only: never inside a
tag (attribute values: URLs, the search view's ``data-`` texts), in comments, in the
elements whose text is code or not text (``code``, ``pre``, ``kbd``, ``samp``,
``script``, ``style``, ``textarea``, ``svg``, ``math``) or in an element that says it is
in another language (``lang="en"`` on a passage shown in English, a language's name in
the language menu). Text reads on across inline tags (``v <strong>ruce</strong>``, a
card's ``<span>``) and stops at any other tag (a table cell, a paragraph). Each change
puts one character for one: the text keeps its words and its meaning.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import cache
from itertools import product

NBSP = "\u00a0"

ONE_LETTER_WORDS: dict[str, str] = {"cs": "vkszouai", "sk": "vkszouai", "pl": "wzioau"}
"""The one-letter prepositions and conjunctions that keep to the next word, by language
(both cases: a sentence's first word too)."""

NUMBER_SIGNS: dict[str, tuple[str, ...]] = {"cs": ("č.",), "sk": ("č.",), "pl": ("nr",)}
"""The abbreviations of "number" that keep to the number after them, by language
("kombinace č. 2", "układ nr 2"; either case). Each letter's cases are its upper and
lower case only (not ``s``, which ``re.IGNORECASE`` also finds as ``ſ``): a page is
looked at for them before it is scanned."""

QUOTES: dict[str, tuple[str, str]] = {
    "cs": ("\u201e", "\u201c"), "sk": ("\u201e", "\u201c"), "de": ("\u201e", "\u201c"),
    "et": ("\u201e", "\u201c"), "pl": ("\u201e", "\u201d"), "hu": ("\u201e", "\u201d"),
    "en": ("\u201c", "\u201d"),
}
"""Each language's opening and closing double quotation marks."""

SKIPPED = ("code", "pre", "kbd", "samp", "script", "style", "textarea", "svg", "math")
"""The elements whose text is left as it is."""

INLINE = frozenset((
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins",
    "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "svg", "math",
    "time", "u", "var", "wbr"))
"""The tags text reads on across; any other ends a run of text."""

_VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "html", "img", "input",
                   "link", "meta", "source", "track", "wbr"))
"""Elements with no end tag (and the root, whose ``lang`` is the page's)."""
_INLINE_TAGS = rf"(?:</?(?:{'|'.join(sorted(INLINE))})\b[^>]*>)*"
_SKIPPED = re.compile(rf"<!--.*?-->|<({'|'.join(SKIPPED)})\b[^>]*>.*?</\1\s*>",
                      re.DOTALL | re.IGNORECASE)
_LANG = re.compile(r" lang=\"([^\"]*)\"")
_NAME = re.compile(r"</?([a-zA-Z][a-zA-Z0-9-]*)")
_QUOTE = re.compile('"|&#34;|&quot;|&#x22;|\u201c|\u201d', re.IGNORECASE)
_QUOTED_TEXT = re.compile('>[^<]*?(?:"|&#34;|&quot;|&#x22;|\u201c|\u201d)[^<]*',
                          re.IGNORECASE)
"""A run of text (between a tag's end and the next tag) that holds a quotation mark."""
_OPENS_AFTER = frozenset(" \t\n\r\f" + NBSP + "([{\u2013\u2014-/\u201e")
"""A quotation mark after one of these (or at a run's start) opens a quotation."""
_TAG = r"(?:<[^>]*+>\s*+)++|"
"""The first alternative of the space patterns: whole tags and the white space between
them, matched (and passed over) as one, so that the scan tries no position inside a tag
(most of a page's characters are in its tags: the scan of a page of case tables takes
half the time). What it passes over is what :meth:`_Page.in_text` counts as inside a
tag, and white space, where no match starts; elsewhere the other alternative finds
what it found alone."""


@cache
def _spaces(letters: str) -> re.Pattern[str]:
    """An ordinary space that should not break (group 1; a tag matched instead: none):
    after a one-letter word of ``letters`` (either case) or after a number followed by
    a word, inline tags between them allowed."""
    both = letters + letters.upper()
    # (the first character a set, then the one character that can follow it, then the
    # look behind: the fastest scan)
    return re.compile(rf"{_TAG}[{both}\d](?=[ <\d.,])(?<![\w<].)(?:(?<=[{both}])|(?<=\d)\d*"
                      rf"(?:[.,]\d+)*(?={_INLINE_TAGS} {_INLINE_TAGS}[^\W\d_])){_INLINE_TAGS}"
                      r"( )")


@cache
def _number_signs(signs: tuple[str, ...]) -> re.Pattern[str]:
    """An ordinary space (group 1; a tag matched instead: none) between one of
    ``signs`` and the number after it, inline tags between them allowed."""
    # (each sign first and the look behind after it: the scan looks for its first
    # letter only)
    alternatives = "|".join(rf"{re.escape(sign)}(?<!\w.{{{len(sign)}}})" for sign in signs)
    return re.compile(rf"{_TAG}(?:{alternatives}){_INLINE_TAGS}( )(?={_INLINE_TAGS}\d)",
                      re.IGNORECASE)


def typeset(html: str, locale: str, tag: str, done: str = "") -> str:
    """``html``, a page of locale ``locale`` (``lang`` ``tag``), with the locale's
    typography (see the module's docstring); ``html`` itself when that changes nothing.

    Args:
        html: the page, as the theme writes it.
        locale: the locale identifier (``pt_BR``); its language part chooses the rules.
        tag: the page's ``lang`` (BCP 47): an element with another ``lang`` is left as
            it is.
        done: a part of the page typeset already, whole elements (the page's body,
            typeset when it was rendered): where the page holds it, it is left as it is
            and the rest typeset around it (the text stops at its edges' tags anyway).

    Returns:
        The page with no-break spaces and the language's quotation marks in its text.
    """
    at = html.find(done) if done else -1
    if at >= 0:
        end = at + len(done)
        return (_typeset(html[:at], locale, tag) + done
                + _typeset(html[end:], locale, tag))
    return _typeset(html, locale, tag)


def _typeset(html: str, locale: str, tag: str) -> str:
    """:func:`typeset` without a part typeset already."""
    language = locale.split("_")[0].split("@")[0].lower()
    letters = ONE_LETTER_WORDS.get(language)
    quotes = QUOTES.get(language)
    page = _Page(html, tag)
    edits: list[tuple[int, int, str]] = []
    if letters is not None:
        edits.extend(_nbsp(_spaces(letters), page))
    signs = NUMBER_SIGNS.get(language)
    if signs is not None and _holds_any(html, signs):
        edits.extend(_nbsp(_number_signs(signs), page))
    if quotes is not None:
        for run in _QUOTED_TEXT.finditer(html):
            if page.skipped(run.start() + 1):
                continue
            text = run.group()
            for mark in _QUOTE.finditer(text):
                at = run.start() + mark.start()
                prev = text[mark.start() - 1] if mark.start() > 1 else page.before(at)
                edits.append((at, run.start() + mark.end(),
                              quotes[prev not in _OPENS_AFTER]))
    if not edits:
        return html
    out: list[str] = []
    at = 0
    for start, end, new in sorted(edits):
        out += [html[at:start], new]
        at = end
    out.append(html[at:])
    return "".join(out)


def _nbsp(pattern: re.Pattern[str], page: _Page) -> list[tuple[int, int, str]]:
    """The edits that make the spaces ``pattern`` finds (group 1) no-break spaces,
    where they are in the page's text after no letter or digit (across inline tags)."""
    return [(found.start(1), found.end(1), NBSP) for found in pattern.finditer(page.html)
            if found.start(1) >= 0 and page.in_text(found.start())
            and not page.before(found.start()).isalnum()]


def _holds_any(html: str, signs: tuple[str, ...]) -> bool:
    """Whether ``html`` holds one of ``signs`` in any mix of upper and lower case (a
    quick look, in C, before the pattern's slower scan)."""
    return any("".join(spelling) in html for sign in signs
               for spelling in product(*({c, c.upper(), c.lower()} for c in sign)))


class _Page:
    """Where in a page's HTML text stands: outside tags and outside the elements left as
    they are (found when first asked)."""

    def __init__(self, html: str, tag: str) -> None:
        self.html = html
        self.tag = tag
        self._starts: list[int] | None = None
        self._ends: list[int] = []

    def in_text(self, at: int) -> bool:
        """Whether position ``at`` is in the page's text: not inside a tag, not in a
        skipped element."""
        html = self.html
        return html.rfind("<", 0, at) <= html.rfind(">", 0, at) and not self.skipped(at)

    def skipped(self, at: int) -> bool:
        """Whether position ``at`` is in a comment, a :data:`SKIPPED` element or an
        element in another language."""
        if self._starts is None:
            self._spans()
        assert self._starts is not None
        i = bisect_right(self._starts, at) - 1
        return i >= 0 and at < self._ends[i]

    def before(self, at: int) -> str:
        """The character of the text before position ``at``, across inline tags; a
        space at a run's start (after any other tag, or the page's start)."""
        html = self.html
        while at > 0 and html[at - 1] == ">":
            start = html.rfind("<", 0, at - 1)
            name = _NAME.match(html, start)
            if start < 0 or name is None or name.group(1).lower() not in INLINE:
                return " "
            at = start
        return html[at - 1] if at > 0 else " "

    def _spans(self) -> None:
        html = self.html
        spans = [m.span() for m in _SKIPPED.finditer(html)]
        for lang in _LANG.finditer(html):
            if lang.group(1) == self.tag:
                continue
            start = html.rfind("<", 0, lang.start())
            name = _NAME.match(html, start)
            if name is None or name.group(1).lower() in _VOID:
                continue
            end = html.find(f"</{name.group(1)}", lang.end())
            spans.append((start, len(html) if end < 0 else end))
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [s for s, _ in merged]
        self._ends = [e for _, e in merged]
