"""The site's search index: one Pagefind index per locale, built from the rendered pages
(docs/site.md, "Search"; issue 13).

Pagefind (the PyPI package ``pagefind[bin]``, which ships its binary) reads the pages'
HTML and writes a static index that the browser loads in chunks: no server, no network.
What it indexes is marked in the theme: ``data-pagefind-body`` on a page's article (the
rule text and the case rows; the header, navigation, table of contents and footer are
left out) and ``data-pagefind-ignore`` on the drawings of cards. Each locale's pages are
indexed on their own, into ``<lang>/pagefind/`` (:func:`generator.layout.search_output`),
so a search in Czech finds Czech pages, with Czech word rules, and the index of a locale
depends only on that locale's pages (a cache may key it by their hash).

The index is byte-identical for the same pages: Pagefind names its files by a hash of
their content and writes no time. The one file whose order varies from run to run when
Pagefind indexes several languages at once (``pagefind-entry.json`` lists them from a
hash map) lists one language here, one run per locale (tests/test_search.py builds twice
and compares).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _package_version
from pathlib import Path

from pagefind.service import get_executable

from generator.layout import search_output

UNUSED = frozenset({
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
})
"""Files of Pagefind's bundle the site does not load (its own search interfaces and
highlighter; the theme's ``static/search.js`` talks to ``pagefind.js`` directly): left
out of the site."""

TIMEOUT = 600.0
"""Seconds one locale's indexing may take before it counts as failed."""


def version() -> str:
    """The installed Pagefind's version (``pagefind_bin``'s, whose program makes the
    index), ``""`` when unknown: part of the key a cached index is kept under."""
    try:
        return _package_version("pagefind_bin")
    except PackageNotFoundError:
        return ""


class SearchIndexError(Exception):
    """Pagefind could not index the pages: its binary is missing or it failed (the
    message says which, with what it printed)."""


_VALUE = rb"""(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?"""
_ATTRS = rb"""(?:\s+[^\s"'<>/=]+%s)*?""" % _VALUE
"""An opening tag's attributes, read as HTML reads them (a quoted value may hold
spaces and words such as ``data-pagefind-ignore``)."""
_OPENED = re.compile(rb"<([a-zA-Z][a-zA-Z0-9-]*)%s\s+(data-pagefind-body)(?=[\s=/>])"
                     % _ATTRS, re.I)
_ANGLE = re.compile(rb"""=\s*(?:"[^"]*[<>]|'[^']*[<>])""")
"""A quoted attribute value holding ``<`` or ``>`` (which HTML allows; the theme escapes
them): a page with one is indexed whole."""
_RAW = re.compile(rb"<!--|<(?:script|style|title|textarea|template|noscript|xmp|iframe|"
                  rb"noembed|noframes|plaintext|svg|math)\b")
"""Where HTML stops reading tags as tags (comments, raw text, foreign content): a page
with one in its body, or before its ``<body`` with one left open, is indexed whole."""
_OUTSIDE = re.compile(rb"data-pagefind-(?!ignore[\s>=/])|<(?:h1|img)\b")
"""What Pagefind takes from anywhere in a page: its attributes other than ``-ignore``
(meta, filters, sorts), the first ``h1`` (the title) and the first image after it. One
outside the cut keeps the page whole."""
_NO_SPAN = rb"[^<]*"
_SPAN1 = rb"%s(?:<span\b[^>]*>%s</span>%s)*" % (_NO_SPAN, _NO_SPAN, _NO_SPAN)
_SPAN2 = rb"%s(?:<span\b[^>]*>%s</span>%s)*" % (_NO_SPAN, _SPAN1, _NO_SPAN)
_IGNORE = rb"\s+data-pagefind-ignore(?=[\s=/>])%s%s\s*>" % (_VALUE, _ATTRS)
_IGNORED = re.compile(rb"<span%s%s%s</span>|<a%s%s[^<]*</a>"
                      % (_ATTRS, _IGNORE, _SPAN2, _ATTRS, _IGNORE))
"""An element that carries ``data-pagefind-ignore`` and holds text and spans only: a
``span`` with spans nested two deep at most (a card's drawing) or an ``a`` with text only
(a heading's ``#`` link). Lower case, as the theme writes it: another spelling is kept."""
_PAGEFIND = re.compile(rb"data-pagefind-", re.I)


def _unless_nested(match: re.Match[bytes]) -> bytes:
    return match[0] if len(_PAGEFIND.findall(match[0])) > 1 else b""


def _open_before(low: bytes) -> bool:
    """Whether ``low`` (a page up to its first ``<body``, in lower case) leaves a
    comment or a raw text element open, so that this ``<body`` is text, not a tag."""
    if b"<!--" in low:
        return True
    return any(low.count(b"<" + t) != low.count(b"</" + t)
               for t in (b"script", b"style", b"title", b"textarea", b"template",
                         b"noscript", b"xmp", b"iframe", b"noembed", b"noframes"))


def search_view(html: bytes) -> bytes:
    """What Pagefind needs of a page: the same index from far fewer bytes.

    The page's head, then only its ``data-pagefind-body`` element, without the elements
    marked ``data-pagefind-ignore`` whose shape is known (a card's drawing, a ``#``
    link: 40% of a rules page's bytes). Pagefind's time follows the bytes and elements
    it parses: on 100 pages of one locale (16 MB, a third of them rules pages) it took
    3.5 s of CPU on the pages, 1.2-1.4 s on their views (7.6 MB; README, "Benchmarks").

    Each step either gives Pagefind exactly what it would take from the page or is not
    taken. The page is returned whole when it has no ``data-pagefind-body`` element or
    more than one (in any case of letters), when something Pagefind takes from anywhere
    (its other attributes, an ``h1``, an ``img``) is outside the element, when a quoted
    attribute value holds ``<`` or ``>``, when a comment or a raw-text element (script,
    style, textarea...) could hide a tag, or when the element does not close. An ignored
    element of another shape, or with a Pagefind attribute inside, is kept. The review
    that found the cases behind these rules: tests/test_search.py.

    Args:
        html: a rendered page (UTF-8).

    Returns:
        The view (UTF-8), or ``html`` itself where a step above is not taken.
    """
    low = html.lower()  # HTML's names in any case; the view cuts ``html`` itself
    body = low.find(b"<body")
    start = low.find(b"data-pagefind-body")
    if (body < 0 or start < body or low.count(b"data-pagefind-body") != 1
            or _ANGLE.search(html) or _open_before(low[:body]) or _RAW.search(low, body)):
        return html
    opened = html.rfind(b"<", body, start)
    tag = _OPENED.match(html, opened) if opened > body else None
    if tag is None or tag.start(2) != start:
        return html
    end = low.rfind(b"</" + tag[1].lower() + b">")
    if end < start or _OUTSIDE.search(low, body, opened) or _OUTSIDE.search(low, end):
        return html
    inside = _IGNORED.sub(_unless_nested, html[opened:end])
    return b"%s<body>%s</%s></body></html>\n" % (html[:body], inside, tag[1])


def search_index(pages: Mapping[str, bytes]) -> dict[str, bytes]:
    """The search index of ``pages``: every file of each locale's Pagefind index.

    Args:
        pages: the rendered pages to index, site-relative POSIX path
            (``<lang>/<slug>/index.html``) → the page's HTML (UTF-8), or its
            :func:`search_view`, which gives the same index faster. The first part of
            a path is its locale; a page at the site's root belongs to none and is not
            indexed. Only what a page marks with ``data-pagefind-body`` is indexed (a
            page with no such element is left out once any page of its locale has one).

    Returns:
        Site-relative path (``<lang>/pagefind/…``) → bytes, sorted by path; the same
        pages give the same bytes. A locale's files depend only on its own pages.

    Raises:
        SearchIndexError: Pagefind's binary is missing, or it failed on a locale.
    """
    groups: dict[str, dict[str, bytes]] = {}
    for rel, data in sorted(pages.items()):
        lang, sep, rest = rel.partition("/")
        if sep and rest.endswith(".html"):
            groups.setdefault(lang, {})[rest] = data
    if not groups:
        return {}
    binary = get_executable()
    if binary is None:
        raise SearchIndexError("the search index needs Pagefind's program, which was not "
                               "found; expected the package pagefind[bin] installed "
                               "(pip install 'pagefind[bin]')")
    keys = {lang: _key(lang, pages) for lang, pages in groups.items()}
    parts = {lang: _MADE[keys[lang]] for lang in groups if keys[lang] in _MADE}
    todo = sorted(lang for lang in groups if lang not in parts)
    with tempfile.TemporaryDirectory(prefix="rules-search-") as tmp:
        base = Path(tmp)

        def index(lang: str) -> dict[str, bytes]:
            return _index_locale(binary, base / lang, groups[lang], search_output(lang))

        workers = max(1, min(len(todo), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            parts.update(zip(todo, pool.map(index, todo), strict=True))
    for lang in sorted(groups):  # the newest last; the oldest beyond MEMO forgotten
        _MADE[keys[lang]] = parts[lang]
        _MADE.move_to_end(keys[lang])
    while len(_MADE) > MEMO:
        _MADE.popitem(last=False)
    files = {rel: data for lang in sorted(groups) for rel, data in parts[lang].items()}
    return dict(sorted(files.items()))


MEMO = 32
"""Locale indexes kept in the process, by a digest of their pages (:func:`_key`): a
process that builds the same pages again (the test suite, a server rebuilding) indexes
them once; the output is the same either way."""
_MADE: OrderedDict[str, dict[str, bytes]] = OrderedDict()


def _key(lang: str, pages: Mapping[str, bytes]) -> str:
    h = hashlib.sha256(f"{version()}\0{lang}\0".encode())
    for rel, data in sorted(pages.items()):
        h.update(f"{len(rel)}:{rel}{len(data)}:".encode())
        h.update(data)
    return h.hexdigest()


def _index_locale(binary: Path, work: Path, pages: Mapping[str, bytes],
                  prefix: str) -> dict[str, bytes]:
    """Run Pagefind over one locale's ``pages`` (paths relative to the locale folder) in
    the scratch folder ``work``; its bundle's files under ``prefix``."""
    site, out = work / "site", work / "index"
    for rel, data in pages.items():
        path = site / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    command = [str(binary), "--site", str(site), "--output-path", str(out),
               "--keep-index-url", "--silent"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=TIMEOUT, check=False,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SearchIndexError(f"{prefix}: Pagefind could not index the pages: {exc}; "
                               "expected it to run (pip install 'pagefind[bin]')") from exc
    said = (done.stdout + done.stderr).decode("utf-8", "replace").strip()
    if done.returncode != 0 or not (out / "pagefind.js").is_file():
        raise SearchIndexError(f"{prefix}: Pagefind failed (exit {done.returncode}): "
                               f"{said or 'no message'}; expected an index of the pages")
    files: dict[str, bytes] = {}
    for folder, dirs, names in os.walk(out):
        dirs.sort()
        here = Path(folder)
        for name in sorted(names):
            rel = (here / name).relative_to(out).as_posix()
            if rel not in UNUSED:
                files[f"{prefix}/{rel}"] = (here / name).read_bytes()
    return files
