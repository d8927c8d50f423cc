"""A locale's typography on its pages (generator/render/typography.py): no-break spaces
after one-letter words and between a number and its word in Czech, Slovak and Polish,
and each language's quotation marks, in the text only (never in code, attributes or
another language's passage)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from generator.render import typography
from generator.render.typography import INLINE
from generator.render.typography import NBSP
from generator.render.typography import NUMBER_SIGNS
from generator.render.typography import ONE_LETTER_WORDS
from generator.render.typography import QUOTES
from generator.render.typography import SKIPPED
from generator.render.typography import typeset
from tests.conftest import EXTENDED

NO_BREAK_LOCALES = ("cs", "sk", "pl")


class _Text(HTMLParser):
    """The text of a page a reader reads in language ``lang`` (:func:`visible_text`)."""

    def __init__(self, lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = lang
        self.parts: list[str] = []
        self.skipping: list[str] = []  # the skipped elements open, innermost last

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            self._part(tag)
        elif self.skipping or tag in SKIPPED or \
                dict(attrs).get("lang") not in (None, self.lang):
            self.skipping.append(tag)
        else:
            self._part(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if self.skipping:
            self.skipping.pop()
        else:
            self._part(tag)

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)

    def _part(self, tag: str) -> None:
        if tag not in INLINE:
            self.parts.append("\n")


VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"))


def visible_text(html: str, lang: str) -> str:
    """The text of a page a reader reads in language ``lang``: every text node outside
    code and scripts (:data:`SKIPPED`) and outside an element in another language (the
    root ``html`` excepted), as the page writes it (its spaces not collapsed); the runs
    of text that a non-inline tag parts (a cell, a paragraph, a list item) parted by a
    line break."""
    parser = _Text(lang)
    parser.feed(re.sub(r"<html\b[^>]*>", "<html>", html, count=1))
    parser.close()
    return "".join(parser.parts)


def breakable_places(html: str, lang: str) -> list[str]:
    """Where a line may break that the language's typography keeps together: a
    one-letter word (:data:`ONE_LETTER_WORDS`, either case) followed by an ordinary
    space, a number followed by an ordinary space and a word, or "č." / "nr"
    (:data:`NUMBER_SIGNS`) followed by an ordinary space and a number, in the page's visible
    text (:func:`visible_text`); each with some text around it."""
    letters = ONE_LETTER_WORDS[lang] + ONE_LETTER_WORDS[lang].upper()
    text = visible_text(html, lang)
    signs = "|".join(re.escape(sign) for sign in NUMBER_SIGNS[lang])
    found = re.finditer(rf"(?<!\w)[{letters}] |(?<!\w)\d+ (?=[^\W\d_])"
                        rf"|(?<!\w)(?:{signs}) (?=\d)", text, re.IGNORECASE)
    return [text[max(0, m.start() - 20):m.end() + 20].strip() for m in found]


def count_breakable(site: Path) -> dict[str, int]:
    """:func:`breakable_places` on every page of each of :data:`NO_BREAK_LOCALES` in the
    built ``site``, counted per locale."""
    return {lang: sum(len(breakable_places(p.read_text("utf-8"), lang))
                      for p in sorted((site / lang).glob("**/*.html"))
                      if "pagefind" not in p.relative_to(site).parts)
            for lang in NO_BREAK_LOCALES}


# -- the transform ---------------------------------------------------------------------

def cs(html: str) -> str:
    return typeset(html, "cs", "cs")


@pytest.mark.parametrize(("html", "expected"), [
    ("<p>v ruce a k tomu</p>", f"<p>v{NBSP}ruce a{NBSP}k{NBSP}tomu</p>"),
    ("<p>V ruce. A pak</p>", f"<p>V{NBSP}ruce. A{NBSP}pak</p>"),
    ("<p>karta v <strong>ruce</strong></p>", f"<p>karta v{NBSP}<strong>ruce</strong></p>"),
    ("<p>karta <em>v</em> ruce</p>", f"<p>karta <em>v</em>{NBSP}ruce</p>"),
    ("<p>mám a</p><p> b</p>", "<p>mám a</p><p> b</p>"),
    ("<p>konec a</p>", "<p>konec a</p>"),
    ("<p>karta a</p>", "<p>karta a</p>"),
    ("<p>sada karet</p>", "<p>sada karet</p>"),
    ("<p>Pika a kříže</p>", f"<p>Pika a{NBSP}kříže</p>"),
    ("<p>x<b>a</b> b</p>", "<p>x<b>a</b> b</p>"),
    ("<p>13 karet, 51 bodů, 1.1 verze</p>",
     f"<p>13{NBSP}karet, 51{NBSP}bodů, 1.1{NBSP}verze</p>"),
    ("<p>10♠ a 10 ♠, 5 %, 11 + 21</p>", f"<p>10♠ a{NBSP}10 ♠, 5 %, 11 + 21</p>"),
    ("<p>H2 je</p>", "<p>H2 je</p>"),
    ("<td>Hráč 1</td><td>Hráč 2</td>", "<td>Hráč 1</td><td>Hráč 2</td>"),
    ("<p>a <code>v x</code> a</p><pre>a b\n3 karty</pre>",
     f"<p>a{NBSP}<code>v x</code> a</p><pre>a b\n3 karty</pre>"),
    ('<a href="/a b/" title="v ruce" data-none="a &#34;x&#34;">u nás</a>',
     f'<a href="/a b/" title="v ruce" data-none="a &#34;x&#34;">u{NBSP}nás</a>'),
    ("<p>a&nbsp;b &amp; a b</p>", f"<p>a&nbsp;b &amp; a{NBSP}b</p>"),
    ('<span lang="en">a card</span> a b', f'<span lang="en">a card</span> a{NBSP}b'),
    ("<script>var a = 1 b;</script><style>i a { }</style><!-- a b -->",
     "<script>var a = 1 b;</script><style>i a { }</style><!-- a b -->"),
    ("<title>Pravidla a body</title>", f"<title>Pravidla a{NBSP}body</title>"),
])
def test_no_break_spaces_go_to_the_text_only(html: str, expected: str) -> None:
    assert cs(html) == expected


def test_polish_has_its_own_one_letter_words() -> None:
    assert typeset("<p>w domu i z kartą, v x</p>", "pl", "pl") == \
        f"<p>w{NBSP}domu i{NBSP}z{NBSP}kartą, v x</p>"


@pytest.mark.parametrize(("lang", "html", "expected"), [
    ("cs", "<p>Kombinace č. 2: eso</p>", f"<p>Kombinace č.{NBSP}2: eso</p>"),
    ("sk", "<p>ku kombinácii č. <b>1</b></p>", f"<p>ku kombinácii č.{NBSP}<b>1</b></p>"),
    ("pl", "<p>Układ nr 2 i Nr 3</p>", f"<p>Układ nr{NBSP}2{NBSP}i{NBSP}Nr{NBSP}3</p>"),
    ("cs", "<p>č. a nr 2, abč. 2</p>", f"<p>č. a{NBSP}nr 2, abč. 2</p>"),
    ("de", "<p>Nr. 2</p>", "<p>Nr. 2</p>"),
])
def test_a_number_keeps_to_its_sign(lang: str, html: str, expected: str) -> None:
    """A number never parts from its sign at a line's end: "č. 2" in Czech and Slovak,
    "nr 2" in Polish."""
    assert typeset(html, lang, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("cs", "„hrát“"), ("sk", "„hrát“"), ("de", "„hrát“"), ("et", "„hrát“"),
    ("pl", "„hrát”"), ("hu", "„hrát”"), ("en", "“hrát”"),
])
def test_quotation_marks_are_the_languages(lang: str, expected: str) -> None:
    for quoted in ('"hrát"', "&#34;hrát&#34;", "&quot;hrát&quot;", "“hrát”"):
        assert typeset(f"<p>ne {quoted}.</p>", lang, lang) == f"<p>ne {expected}.</p>"


def test_quotation_marks_read_across_inline_tags_not_into_attributes() -> None:
    html = '<p>(<a href="x" title="&#34;y&#34;">"<strong>ruce</strong>"</a>)</p><p>"a"</p>'
    assert typeset(html, "de", "de") == \
        '<p>(<a href="x" title="&#34;y&#34;">„<strong>ruce</strong>“</a>)</p><p>„a“</p>'


def test_german_closing_marks_stay_closing() -> None:
    assert typeset("<p>„um die Ecke“ geht</p>", "de", "de") == "<p>„um die Ecke“ geht</p>"


def test_a_language_without_rules_is_left_as_it_is() -> None:
    html = '<p>v ruce "x"</p>'
    assert typeset(html, "fr", "fr") is html


def test_the_transform_is_one_character_for_one() -> None:
    html = "<p>a b</p>" * 3 + "<p>13 karet</p>"
    assert len(cs(html)) == len(html)


# -- the built site ----------------------------------------------------------------------

def test_the_counter_sees_places_across_inline_tags_only() -> None:
    assert breakable_places("<p>karta v <b>ruce</b></p>", "cs") == ["karta v ruce"]
    assert breakable_places("<td>Hráč 1</td> <td>Hráč 2</td>", "cs") == []
    assert breakable_places("<p><code>a b</code>1 karta</p>", "cs") == ["1 karta"]


def test_no_page_of_cs_sk_pl_breaks_after_a_one_letter_word_or_a_number(
        built_site: Path) -> None:
    counts = count_breakable(built_site)
    assert counts == dict.fromkeys(NO_BREAK_LOCALES, 0)


def test_every_quotation_mark_of_the_pages_is_the_languages(built_site: Path) -> None:
    for lang, (opening, closing) in QUOTES.items():
        for page in (built_site / lang).glob("*/index.html"):
            text = visible_text(page.read_text("utf-8"), lang)
            marks = set(re.findall('["“”„]', text))
            assert marks <= {opening, closing}, (page, marks)


# -- the scan passes over whole tags: the same spaces as a scan of every position ---

EXAMPLES = 3000 if EXTENDED else 300

_PIECES = ("v", "V", "a", "K", "z", " ", "  ", "<", ">", "<b>", "</b>", "<strong>",
           "</strong>", '<span class="a v 2">', "</span>", "<td>", "</td>", "<br>",
           "<!-- v 1 -->", "<code>", "</code>", '<p lang="en">', "</p>", "1", "22", "3.5",
           ",", ".", "č.", "Č.", "nr", "NR", "Nr", "ruce", "kart", NBSP, '"', "&lt;", "\n",
           "-", "(")


def _every_position(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` without its whole-tag alternative: a scan that tries every position."""
    return re.compile(pattern.pattern.removeprefix(typography._TAG), pattern.flags)


def _spaces_found(pattern: re.Pattern[str], html: str) -> list[tuple[int, int, str]]:
    page = typography._Page(html, "cs")
    return [(found.start(1), found.end(1), NBSP) for found in pattern.finditer(html)
            if page.in_text(found.start()) and not page.before(found.start()).isalnum()]


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join),
       st.sampled_from(sorted(ONE_LETTER_WORDS)))
def test_passing_over_tags_finds_the_spaces_a_scan_of_every_position_finds(
        html: str, language: str) -> None:
    page = typography._Page(html, "cs")
    for pattern in (typography._spaces(ONE_LETTER_WORDS[language]),
                    typography._number_signs(NUMBER_SIGNS[language])):
        assert typography._nbsp(pattern, page) == _spaces_found(
            _every_position(pattern), html)
    signs = _every_position(typography._number_signs(NUMBER_SIGNS[language]))
    assert typography._holds_any(html, NUMBER_SIGNS[language]) or \
        signs.search(html) is None


def test_the_quick_look_for_a_sign_knows_every_case_its_pattern_matches() -> None:
    """``_holds_any`` tries each letter of a sign in its upper and lower case: the pattern
    (``re.IGNORECASE``) matches no other character for it (it would for ``s``: ``ſ``)."""
    every = "".join(chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000)
    for sign in {s for signs in NUMBER_SIGNS.values() for s in signs}:
        for char in sign:
            matched = set(re.findall(re.escape(char), every, re.IGNORECASE))
            assert matched <= {char, char.upper(), char.lower()}, (sign, char)


@pytest.mark.parametrize(("lang", "html"), [
    ("cs", "<td>kombinace Č.<b> </b>2</td>"), ("pl", "<p>układ NR 2 i<i> </i>w domu</p>"),
    ("cs", '<td data-x="č. 2">v <a href="v x">k</a> ruce</td>')])
def test_a_page_typeset_passing_over_tags_is_the_page_typeset_at_every_position(
        monkeypatch: pytest.MonkeyPatch, lang: str, html: str) -> None:
    fast = typeset(html, lang, lang)
    for name in ("_spaces", "_number_signs"):
        made = getattr(typography, name)
        monkeypatch.setattr(typography, name,
                            lambda arg, made=made: _every_position(made(arg)))
    monkeypatch.setattr(typography, "_holds_any", lambda _html, _signs: True)
    assert typeset(html, lang, lang) == fast != html
