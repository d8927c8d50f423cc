"""Content pages read and parsed: :func:`load_pages` reads every ``content/<slug>.md``
of a project once (through the build cache and this process's memory),
:func:`parse_page` parses one from its English source by running its checks
(:mod:`generator.content.page_checks`) into a :class:`SourcePage`
(:mod:`generator.content.source`), and :func:`make_parser` is the one Markdown parser of
the pages (docs/DESIGN.md, "Content Markdown").
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from generator.content.page_checks import MAX_PAGE_BYTES
from generator.content.page_checks import PAGE_ADVICE
from generator.content.page_checks import PAGE_CHECKS
from generator.content.page_checks import PageState
from generator.content.page_checks import checks_changed
from generator.content.rule_numbers import facts
from generator.content.source import APP_CHOICE
from generator.content.source import GENERATED_FENCES
from generator.content.source import PLACEHOLDER
from generator.content.source import Fence
from generator.content.source import Message
from generator.content.source import SourcePage
from generator.engine.rules import games
from generator.errors import InputError
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import read_regular
from generator.memo import Store
from generator.memo import item_stage

__all__ = [
    "APP_CHOICE", "GENERATED_FENCES", "MAX_PAGE_BYTES", "PAGE_SLOT", "PLACEHOLDER", "Fence",
    "Message", "SourcePage", "load_pages", "make_parser", "parse_page",
]
"""The pages' API: this module's own, and the records and names of
:mod:`generator.content.source` the renderer reads from here."""


def _inline_where_needed(state: Any) -> None:
    """Core rule replacing markdown-it's ``inline``: a page's source is parsed for its
    blocks only (each block is re-parsed per locale from its translation); headings
    alone need their inline children, for their ids."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "inline" and (
            state.inlineMode or (i and tokens[i - 1].type == "heading_open")
        ):
            token.children = []
            state.md.inline.parse(token.content, state.md, state.env, token.children)


def _slug(title: str) -> str:
    """A heading's id: GitHub-style, from the English text; ``section`` when the text
    has no letters or digits (``## ♠♠``)."""
    return slugify(title).strip("-") or "section"



def make_parser() -> MarkdownIt:
    """The one Markdown parser of the pages: CommonMark with tables, front matter,
    ``::: app-choice`` containers and heading ids (levels 2-3) from the English text;
    raw HTML off. Only headings are parsed inline here (:func:`_inline_where_needed`);
    :func:`generator.render.markdown.make_markdown` adds the render rules."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": False})
    md.enable("table")
    md.use(front_matter_plugin)
    md.use(container_plugin, APP_CHOICE)
    md.use(anchors_plugin, min_level=2, max_level=3, slug_func=_slug)
    md.core.ruler.at("inline", _inline_where_needed)
    return md


def parse_page(
    path: Path, rel: str, md: MarkdownIt, known: Mapping[str, int],
    data: bytes | None = None,
) -> tuple[SourcePage | None, list[InputError]]:
    """Parse one content page: run each check of
    :data:`generator.content.page_checks.PAGE_CHECKS` over it in order, until one finds
    the page cannot be used.

    Args:
        path: the Markdown file (its name gives the slug).
        data: the file's bytes, when already read (Babel's extractor hands a file object).
        rel: its path relative to the project.
        md: the parser from :func:`make_parser`.
        known: the rule numbers placeholders may name
            (:func:`generator.content.rule_numbers.facts`).

    Returns:
        The page (``None`` when it cannot be used) and its input errors: unreadable file,
        a control character (each, at its place), bad front matter, no ``#`` title,
        unknown placeholder, unknown fence.
    """
    try:
        raw = read_regular(path, rel, limit=MAX_PAGE_BYTES, what="page",
                           advice=PAGE_ADVICE) if data is None else data
    except NotAnInput as exc:
        return None, [exc.error]
    page = PageState(path, rel, md, known, raw)
    for _name, check in PAGE_CHECKS.enabled():
        check(page)
        if not page.usable:
            return None, page.errors
    return page.page(), page.errors


PAGE_SLOT = "page:"
"""The build cache's slot of a parsed page: this and its path (``page:content/a.md``)."""

MEMO_PAGES = 256
"""The most pages :func:`load_pages` keeps parsed in a process (the last parsed)."""

_PAGES: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
"""The pages parsed in this process without an error, by path and SHA-256 of their
bytes, as :meth:`SourcePage.as_data` gives them (each load makes its own page of
one: :meth:`SourcePage.from_data`)."""
_PAGES_LOCK = threading.Lock()
_PAGES_GAMES: list[object] = [games()]
"""The registry of games :data:`_PAGES` was parsed under (the rule numbers a page may
name come from it): a game registered or unregistered since forgets them all."""



def load_pages(project: Path | Layout, md: MarkdownIt | None = None,
               cache: Store | None = None
               ) -> tuple[list[SourcePage], list[InputError]]:
    """Parse every ``content/*.md`` of ``project`` (sorted by file name), each read
    through the project's layout (only a regular file inside the project).

    Args:
        project: the project folder, or its layout.
        md: the parser (default :func:`make_parser`'s).
        cache: the build cache: a page whose bytes it has seen parse without errors is
            taken from it (:meth:`SourcePage.from_data`; the entry keyed by the SHA-256
            of its bytes, the generator's hash checked by the cache), every other page
            is parsed and, when it has no error, kept there. A page with errors is never
            kept, so that its errors are always found by parsing it.

    Returns:
        (the pages that could be read, every input error found in them).

    A page this process parsed before, with the default parser, from the same path and
    bytes without an error is not parsed again: it is made from what that parse gave
    (as the build cache's is; the last :data:`MEMO_PAGES` are kept, while the registry
    of games stays the same). While the page checks are not the built-in ones
    (:func:`generator.content.page_checks.checks_changed`), the key holds them too.
    """
    loader = _Loader(Layout.of(project), md, cache)
    for rel in loader.layout.walk(CONTENT, loader.errors, skip=(EXAMPLES,),
                                  files_named=(".md",)):
        if _is_page(rel, loader.errors):
            loader.load(rel)
    return loader.pages, loader.errors


def _is_page(rel: str, errors: list[InputError]) -> bool:
    """Whether the file ``rel`` of ``content/`` is a page (``content/<slug>.md``): not
    an editor's lock or backup file; a Markdown file anywhere else is an error."""
    path = PurePosixPath(rel)
    if path.name.startswith((".", "#")):
        return False  # editors' lock and backup files
    if path.suffix.lower() in (".md", ".markdown") and (
            path.suffix != ".md" or path.parent.as_posix() != CONTENT):
        errors.append(InputError(rel, 1, None, "not read as a page; expected pages as "
                                 "content/<slug>.md (no subfolders, the extension .md)"))
        return False
    return path.suffix == ".md"


class _Loader:
    """One :func:`load_pages`: the pages and errors found so far, and the parser and
    rule numbers, each made when a page is first parsed.

    Attributes:
        remember: whether the pages parsed are kept in :data:`_PAGES` (the default
            parser's only).
        keep: whether a page parsed is kept at all (in the cache or :data:`_PAGES`):
            its plain data is then made.
    """

    def __init__(self, layout: Layout, md: MarkdownIt | None, cache: Store | None
                 ) -> None:
        self.layout = layout
        self.cache = cache
        self.md = md
        self.remember = md is None
        self.keep = cache is not None or self.remember
        self.known: Mapping[str, int] | None = None
        self.pages: list[SourcePage] = []
        self.errors: list[InputError] = []

    def load(self, rel: str) -> None:
        """Read the page ``rel`` and add it (from the cache, from this process's
        memory, or parsed) and its errors."""
        try:
            data = self.layout.read(rel, limit=MAX_PAGE_BYTES, what="page",
                                    advice=PAGE_ADVICE)
        except NotAnInput as exc:
            self.errors.append(exc.error)
            return
        key = _key(data)
        parsed = item_stage(self.cache, PAGE_SLOT + rel, key,
                            partial(self._parsed, rel, key, data),
                            encode=lambda parsed: parsed.data,
                            decode=partial(_decoded_page, rel))
        self.errors.extend(parsed.errors)
        if parsed.page is not None:
            self.pages.append(parsed.page)

    def _parsed(self, rel: str, key: str, data: bytes) -> _Parsed:
        """The page ``rel`` of bytes ``data`` (of key ``key``) as this process parsed it
        before, or parsed now, with its errors and its plain data when it is to be kept
        (no errors)."""
        kept = _remembered(rel, key) if self.remember else None
        if kept is not None:
            return _Parsed(SourcePage.from_data(kept), [], kept)
        self.md = self.md or make_parser()
        self.known = self.known if self.known is not None else facts()
        page, errors = parse_page(self.layout.path(rel), rel, self.md, self.known, data)
        if page is None or errors or not self.keep:
            return _Parsed(page, errors, None)
        kept = page.as_data()
        if kept is not None and self.remember:
            _remember(rel, key, kept)
        return _Parsed(page, errors, kept)


@dataclass(frozen=True)
class _Parsed:
    """A page's stage's result (:meth:`_Loader.load`).

    Attributes:
        page: the page, or ``None``: it could not be read.
        errors: its errors.
        data: its plain data (:meth:`SourcePage.as_data`) to keep, or ``None``: not kept
            (it has errors; nothing keeps it).
    """

    page: SourcePage | None
    errors: list[InputError]
    data: dict[str, Any] | None


def _key(data: bytes) -> str:
    """The key a page of bytes ``data`` is kept under: the SHA-256 of its bytes, and of
    the checks that run while they are not the built-in ones."""
    changed = checks_changed()
    if not changed:
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha256(data + b"\0" + changed.encode()).hexdigest()


def _remembered(rel: str, key: str) -> dict[str, Any] | None:
    """The page ``rel`` of bytes of SHA-256 ``key`` as this process parsed it before
    (:data:`_PAGES`, as :meth:`SourcePage.as_data` gives it), or ``None``."""
    with _PAGES_LOCK:
        if _PAGES_GAMES[0] is not games():
            _PAGES.clear()
            _PAGES_GAMES[0] = games()
        found = _PAGES.get((rel, key))
        if found is not None:
            _PAGES.move_to_end((rel, key))
    return found


def _remember(rel: str, key: str, kept: dict[str, Any]) -> None:
    """Keep the page ``rel`` of bytes of SHA-256 ``key`` (as :meth:`SourcePage.as_data`
    gives it) in :data:`_PAGES`, forgetting the oldest beyond :data:`MEMO_PAGES`."""
    with _PAGES_LOCK:
        if _PAGES_GAMES[0] is not games():
            _PAGES.clear()
            _PAGES_GAMES[0] = games()
        _PAGES[(rel, key)] = kept
        while len(_PAGES) > MEMO_PAGES:
            _PAGES.popitem(last=False)


def _decoded_page(rel: str, found: Any) -> _Parsed | None:
    """The page ``rel`` from the entry the cache keeps for its bytes (``found``), or
    ``None`` for another page's.

    Raises:
        ValueError: the entry is not a page (it is parsed again).
    """
    page = SourcePage.from_data(found)
    return _Parsed(page, [], found) if page.rel == rel else None
