"""A page's view for the search index (:func:`search_view`): the page cut to what
Pagefind indexes (the element marked ``data-pagefind-body``, without the drawings and
links marked ``data-pagefind-ignore`` and without its plain spans' tags), made in parts
(:func:`view_parts`, :func:`cut_view`) so that a page changed outside those parts keeps
its view (:func:`generator.render.search.plan_locale`)."""

from __future__ import annotations

import hashlib
import operator
import re
import unicodedata
from typing import NamedTuple

from generator.digests import digest

_WS = rb"[ \t\n\r\f]"
"""HTML's whitespace between a tag's name and its attributes (not ``\\s``: a vertical
tab there is part of the name, so ``<span\\vdata-pagefind-ignore>`` is no ignored span)."""
_VALUE = rb"""(?:%s*=%s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?""" % (_WS, _WS)
_ATTRS = rb"""(?:%s+[^\s"'<>/=]+%s)*?""" % (_WS, _VALUE)
"""An opening tag's attributes, read as HTML reads them (a quoted value may hold
spaces and words such as ``data-pagefind-ignore``)."""
_OPENED = re.compile(rb"<([a-zA-Z][a-zA-Z0-9-]*)%s%s+(data-pagefind-body)(?=%s|[=/>])"
                     % (_ATTRS, _WS, _WS), re.I)
_ANGLE = re.compile(rb"""=\s*+(?:"[^"<>]*+[<>]|'[^'<>]*+[<>])""")
"""A quoted attribute value holding ``<`` or ``>`` (which HTML allows; the theme escapes
them): a page with one is indexed whole."""
_RAW_OPENING = (rb"[!?]|/(?![a-z])|(?![a-z/])|(?:script|style|title|textarea|template|"
                rb"noscript|xmp|iframe|noembed|noframes|plaintext|svg|math)\b")
_RAW = re.compile(rb"<(?:%s|[^<>]*+<)" % _RAW_OPENING)
"""Where HTML stops reading tags as tags (comments, bogus comments such as ``<!x>``,
``<?x>`` or ``</ x>``, raw text, foreign content), a ``<`` that opens no tag (text: ``a <
b``, ``<<span``) and a ``<`` inside a tag (an unquoted value or a name: ``<p
title=a<span>``): a page with one in its body (in lower case), or before its ``<body``
with one left open, is indexed whole. (The theme writes none: Markdown and Jinja escape
a ``<`` of the text. Cutting around one could join it to the next tag's text, or
unwrap a ``<span`` that HTML never opened.) Searched by :func:`_raw_search`."""
_RAW_AT_OPENING = re.compile(rb"<(?:%s)" % _RAW_OPENING)
""":data:`_RAW` without its ``<`` inside a tag: what a ``<`` itself opens."""
_ANGLES_ONLY = bytes(range(256)).translate(None, b"<>")
"""Every byte but ``<`` and ``>``: what ``bytes.translate`` deletes to leave a text's
angle brackets in order."""


def _raw_search(low: bytes, start: int, stop: int | None = None) -> re.Match[bytes] | None:
    """``_RAW.search(low, start, stop)``, the same match start, in half the time:
    a ``<`` inside a tag (a ``<`` after a ``<`` with no ``>`` between them) shows as
    ``<<`` in the text's angle brackets alone (a copy made in C); where there is none,
    the search for what a ``<`` opens (:data:`_RAW_AT_OPENING`) need not read each tag
    to its end."""
    end = len(low) if stop is None else stop
    if b"<<" in low[start:end].translate(None, _ANGLES_ONLY):
        return _RAW.search(low, start, end)
    return _RAW_AT_OPENING.search(low, start, end)
_OUTSIDE = re.compile(rb"data-pagefind-|<(?:h1|img|html)\b")
"""What Pagefind takes from anywhere in a page: its attributes (meta, filters, sorts; an
``-ignore="all"`` around the element excludes the page), the first ``h1`` (the title),
the first image after it and the language of any ``<html>`` tag. One outside the cut
keeps the page whole. (The theme has none there.)"""
_INLINE = (rb"a|abbr|acronym|b|bdo|big|br|button|cite|code|dfn|em|i|img|input|kbd|label|map|"
           rb"object|output|q|samp|select|small|span|strong|sub|sup|time|tt|var")
_ANCHORED_DRAWING = re.compile(
    rb"id(?<=%sid)%s*=[^>]*+>(?:[^<]++|(?!<span\b[^>]*data-pagefind-ignore)"
    rb"</?(?:%s)\b[^>]*+>)*+<span\b[^>]*data-pagefind-ignore[^>]*+>[^<]*+<"
    % (_WS, _WS, _INLINE))
"""An ignored element holding another (a card's drawing) reached from an element with an
``id`` through inline elements only (lower case): Pagefind gives that element's anchor
the text of the inner one though the outer one is ignored, so a view without it would
index other anchor text; the page is then read whole. (The theme draws cards in table
cells and list items, which break the chain: none of its pages has one.)"""
_NO_SPAN = rb"[^<]*"
_SPAN_OPEN = rb"<span(?=%s|[/>])[^>]*>" % _WS
_SPAN1 = rb"%s(?:%s%s</span>%s)*" % (_NO_SPAN, _SPAN_OPEN, _NO_SPAN, _NO_SPAN)
_SPAN2 = rb"%s(?:%s%s</span>%s)*" % (_NO_SPAN, _SPAN_OPEN, _SPAN1, _NO_SPAN)
_IGNORE = rb"%s+data-pagefind-ignore(?=%s|[=/>])%s%s%s*>" % (_WS, _WS, _VALUE, _ATTRS, _WS)
_IGNORED = re.compile(rb"<(?=(?:span|a)%s[^>]*data-pagefind-ignore)"
                      rb"(?:span%s%s%s</span>|a%s%s[^<]*</a>)"
                      % (_WS, _ATTRS, _IGNORE, _SPAN2, _ATTRS, _IGNORE))
"""An element that carries ``data-pagefind-ignore`` and holds text and spans only: a
``span`` with spans nested two deep at most (a card's drawing) or an ``a`` with text only
(a heading's ``#`` link). Lower case, as the theme writes it: another spelling is kept."""
_DRAWING = re.compile(rb'<span class="card[a-z -]*" role="img" aria-label="([^"<>]*)" '
                      rb'data-pagefind-ignore data-pagefind-index-attrs="aria-label"'
                      rb'(?: lang="[a-zA-Z-]*")?><span aria-hidden="true">[^<]*'
                      rb'<span class="suit">[^<]*</span></span></span>')
"""A card's drawing as the theme writes it: its shown rank and suit ignored, its name
(``aria-label``) indexed (``data-pagefind-index-attrs``), so a search finds "king" and
never the rank's letter. The view keeps the name alone, as the text Pagefind makes of
the attribute (:func:`_name_only`)."""
_NAME_ONLY = rb'<span aria-label="\1" data-pagefind-index-attrs="aria-label"></span>'
"""A drawing's name as an empty span that Pagefind reads as it reads the drawing: where
the name is not written as text (:func:`_name_only`)."""
_SENTENCE_END = frozenset("_'\")$*0123456789")
"""The characters other than letters after which Pagefind ends an indexed attribute's
text with a full stop (its ``SENTENCE_CHARS``, ``[\\w'"\\)\\$\\*]``, where ``\\w`` also
takes every letter)."""
_NO_SENTENCE_END = frozenset(" !#%+,-./:;<=>?@[]^`{|}~")
"""ASCII characters after which it adds none."""


def _name_only(drawing: re.Match[bytes]) -> bytes:
    """A card's drawing (:data:`_DRAWING`) as what Pagefind makes of its name: the
    attribute's text between two spaces, a full stop after a name that ends in a letter,
    a digit or one of ``_'")$*`` (Pagefind's parser, ``index_attrs``), so that the view
    holds no element for it (10% less of Pagefind's time over a locale's views). A name
    with an entity (``&``) or whose last character is neither a letter nor plain ASCII
    (a combining mark, a symbol: where Rust's ``\\w`` and this test could part) keeps
    the empty span (:data:`_NAME_ONLY`)."""
    name = drawing[1]
    text = name.decode("utf-8")
    last = text[-1:]
    if b"&" in name:
        return drawing.expand(_NAME_ONLY)
    if last == "" or last in _NO_SENTENCE_END:
        return b" %s " % name
    if last in _SENTENCE_END or unicodedata.category(last).startswith("L"):
        return b" %s. " % name
    return drawing.expand(_NAME_ONLY)
_PLAIN_SPAN = re.compile(rb'<span(?:%s+(?!id=|data-pagefind-)[a-z][a-z-]*="[^"]*")*>'
                         rb"([^<]*)</span>" % _WS)
"""A ``span`` that holds text only and whose attributes Pagefind never reads (no ``id``,
no ``data-pagefind-`` attribute; each in lower case, its value in double quotes): the
theme's styling spans (a verdict, a meld, a seat's name). Pagefind adds a span's text to
its parent's as it is, with the parent's anchors (a span is inline: no space, no full
stop, no weight), so the view keeps the text and drops the tags: about 15% less of
Pagefind's time over a locale's views (0.59 s → 0.51 s)."""
_TEXT = operator.itemgetter(1)
"""A plain span's replacement: its text (a match's group 1), called in C. The template
``rb"\\1"`` expands each match in Python (3.11): half a second of a 700-page build."""
_PAGEFIND = re.compile(rb"data-pagefind-", re.I)


def _unless_nested(match: re.Match[bytes]) -> bytes:
    return match[0] if len(_PAGEFIND.findall(match[0])) > 1 else b""


def _open_before(low: bytes) -> bool:
    """Whether ``low`` (a page up to its first ``<body``, in lower case) leaves a
    comment or a raw text element open, so that this ``<body`` is text, not a tag."""
    if b"<!--" in low or b"<?" in low or re.search(rb"<!(?!doctype[\s>])|</(?![a-z])", low):
        return True
    return any(low.count(b"<" + t) != low.count(b"</" + t)
               for t in (b"script", b"style", b"title", b"textarea", b"template",
                         b"noscript", b"xmp", b"iframe", b"noembed", b"noframes"))


def search_view(html: bytes) -> bytes:
    """What Pagefind needs of a page: the same index from far fewer bytes.

    The page's head, then only its ``data-pagefind-body`` element, without the elements
    marked ``data-pagefind-ignore`` whose shape is known (a card's drawing, a ``#``
    link: 40% of a rules page's bytes) and with the tags of its plain spans dropped,
    their text kept (:data:`_PLAIN_SPAN`). Pagefind's time follows the bytes and
    elements it parses: on 100 pages of one locale (16 MB, a third of them rules pages)
    it took 3.5 s of CPU on the pages, 1.0 s on their views with the spans (7.7 MB) and
    0.85 s without them (5.4 MB; docs/DEVELOPING.md, "Benchmarks").

    Each step either gives Pagefind exactly what it would take from the page or is not
    taken. The page is returned whole when it has no ``data-pagefind-body`` element or
    more than one (in any case of letters), when something Pagefind takes from anywhere
    (its other attributes, an ``h1``, an ``img``) is outside the element, when a quoted
    attribute value holds ``<`` or ``>``, when a comment or a raw-text element (script,
    style, textarea...) could hide a tag, or when the element does not close. An ignored
    element of another shape, or with a Pagefind attribute inside, is kept. The cases
    behind these rules: tests/test_search.py.

    Args:
        html: a rendered page (UTF-8).

    Returns:
        The view (UTF-8), or ``html`` itself where a step above is not taken.
    """
    parts = view_parts(html)
    return html if parts is None else cut_view(parts)


class ViewParts(NamedTuple):
    """What a page's view is made of (:func:`view_parts`), the view itself made by
    :func:`cut_view`: a function of these bytes alone, so a page whose parts did not
    change keeps its view (:func:`plan_locale`)."""

    head: bytes
    """The page up to its ``<body`` (the title, the language)."""
    inside: bytes
    """Its ``data-pagefind-body`` element from its ``<`` up to its end tag."""
    tag: bytes
    """That element's name, as written."""
    alone: bool
    """Whether every Pagefind attribute in it but the body's is a lower-case ``-ignore``."""
    sha: str = ""
    """The SHA-256 (hex) of ``inside`` where :func:`view_parts` computed it (given
    ``checked``), else ``""``."""


def view_parts(html: bytes, checked: str = "") -> ViewParts | None:
    """The parts of ``html``'s view (:func:`search_view`), or ``None`` where the view
    is the page whole (a step the view cannot take exactly).

    Args:
        html: a rendered page (UTF-8).
        checked: the SHA-256 (hex) of an element (``ViewParts.inside``) that passed
            every check in an earlier page. When this page's element has it, only what
            lies around it is checked again: what the checks find in the element depends
            on its bytes alone (a match that starts in it ends at its end tag's ``<`` at
            the latest), so the answer is the one a full check gives. A title changed
            in the navigation of 99 pages of a locale (16 MB) then costs 39 ms of
            checks instead of 148.
    """
    low = html.lower()  # HTML's names in any case; the view cuts ``html`` itself
    found = _body_element(html, low)
    if found is None:
        return None
    body, opened, end, tag = found
    inside = html[opened:end]
    sha = hashlib.sha256(inside).hexdigest() if checked else ""
    if sha and sha == checked:
        if _around_fails(html, low, body, opened, end):
            return None
    elif (low.count(b"data-pagefind-body") != 1 or _ANGLE.search(html)
            or _raw_search(low, body) or _ANCHORED_DRAWING.search(low, opened, end)):
        return None
    if _OUTSIDE.search(low, body, opened) or _OUTSIDE.search(low, end):
        return None
    # Where every Pagefind attribute but the body's is a lower-case -ignore, an element
    # holding another holds only ignored ones: no need to look inside each match.
    alone = low.count(b"data-pagefind-", opened, end) == 1 + inside.count(b"data-pagefind-ignore")
    return ViewParts(html[:body], inside, tag, alone, sha)


def _body_element(html: bytes, low: bytes) -> tuple[int, int, int, bytes] | None:
    """Where the element marked ``data-pagefind-body`` sits in ``html`` (``low`` its
    lower-case copy): (the ``<body`` tag's place, the element's ``<``, its end tag's
    ``<``, its tag's name), or ``None`` where the view cannot cut it exactly (no
    ``<body``, a tag left open before it, the mark not on an element's own tag, no
    plain end tag of its name after it)."""
    body = low.find(b"<body")
    start = low.find(b"data-pagefind-body")
    if body < 0 or start < body or _open_before(low[:body]):
        return None
    opened = html.rfind(b"<", body, start)
    tag = _OPENED.match(html, opened) if opened > body else None
    if tag is None or tag.start(2) != start:
        return None
    closing = b"</" + tag[1].lower()
    end = low.rfind(closing)  # its end tag: the last of its name, written plainly
    if end < start or low[end:end + len(closing) + 1] != closing + b">":
        return None
    return body, opened, end, tag[1]


def _around_fails(html: bytes, low: bytes, body: int, opened: int, end: int) -> bool:
    """Whether the checks of a view fail around its element alone (an element that
    passed them before): a match that starts before it ends at its ``<`` at the latest
    (``opened + 1``); one the cut string shows at ``opened`` is its own. (A second
    ``data-pagefind-body`` around it is one of ``_OUTSIDE``'s.)"""
    return bool(_before(_ANGLE.search(html, 0, opened + 1), opened)
                or _ANGLE.search(html, end)
                or _before(_raw_search(low, body, opened + 1), opened)
                or _raw_search(low, end))


def _before(match: re.Match[bytes] | None, place: int) -> bool:
    """Whether ``match`` starts before ``place``."""
    return match is not None and match.start() < place


def cut_view(parts: ViewParts) -> bytes:
    """The view made of ``parts`` (:func:`view_parts`): the head, then the element
    without its ignored drawings and links and without its plain spans' tags."""
    inside = _DRAWING.sub(_name_only, parts.inside)
    inside = _IGNORED.sub(b"" if parts.alone else _unless_nested, inside)
    unwrapped = 1
    while unwrapped:  # inner spans first: a span holding only them holds text then
        inside, unwrapped = _PLAIN_SPAN.subn(_TEXT, inside)
    return b"%s<body>%s</%s></body></html>\n" % (parts.head, inside, parts.tag)


def parts_digest(parts: ViewParts, inside: str) -> str:
    """The key of a view by its parts (:func:`plan_locale`), ``inside`` the SHA-256 of
    ``parts.inside`` (``tag`` and ``alone`` follow from it)."""
    return digest(parts.head, inside)
