"""Content pages as data: each ``content/<slug>.md`` parsed once, from its English
source, into its blocks, generated tables, heading ids and links (as mkdocs'
``structure/`` holds pages apart from rendering them).

Every block (paragraph, heading, list item, table cell) is one catalog message whose
msgid is the block's inline Markdown source, as Sphinx does; per locale only the inline
text is translated and rendered (:mod:`generator.render.markdown`; docs/DESIGN.md,
"Content Markdown").
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from generator.content.rule_numbers import facts
from generator.engine.rules import games
from generator.errors import LINE_BREAK
from generator.errors import InputError
from generator.errors import one_of
from generator.errors import too_large
from generator.errors import unprintable
from generator.errors import visible
from generator.i18n.catalog import BRACE_PLACEHOLDER
from generator.i18n.catalog import malformed_placeholder
from generator.i18n.catalog import stray_braces
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import is_slug
from generator.layout import read_regular
from generator.memo import Store
from generator.yamlpos import BoolText
from generator.yamlpos import YamlDocument
from generator.yamlpos import boolean_hint
from generator.yamlpos import describe
from generator.yamlpos import integer_hint
from generator.yamlpos import parse_yaml
from generator.yamlpos import string_hint

PLACEHOLDER = BRACE_PLACEHOLDER
"""``{name}``: a rule number; ``{{`` and ``}}`` stand for literal braces."""
APP_CHOICE = "app-choice"
FRONT_MATTER = ("order", "summary", "draft")
"""The fields a page's front matter may hold: its place in the navigation, its summary
(the home page's list) and whether it is a draft (docs/site.md, "Drafts")."""
GENERATED_FENCES = ("cases", "deck-table", "presets-table")


@dataclass(frozen=True)
class Message:
    """One translatable block of a page.

    Attributes:
        msgid: the block's inline Markdown source (English).
        line: its line in the source file (1-based).
        params: placeholder names in order of appearance; the first is the plural count.
    """

    msgid: str
    line: int
    params: tuple[str, ...]

    def as_data(self) -> list[Any]:
        """As plain data (for the build cache): ``[msgid, line, [params]]``."""
        return [self.msgid, self.line, list(self.params)]

    @classmethod
    def from_data(cls, data: Any) -> Message:
        """The message :meth:`as_data` returned.

        Raises:
            ValueError: ``data`` is not of that shape.
        """
        msgid, line, params = _shaped(data, 3)
        return cls(_str(msgid), _int(line), tuple(_str(p) for p in _list(params)))


@dataclass(frozen=True)
class Fence:
    """A generated block: a table of cases or a table from the rule-set data.

    Attributes:
        info: ``cases``, ``deck-table`` or ``presets-table``.
        body: the fence's text (case ids, one per line; or ``game: …``).
        line: the line of the fence's opening (1-based).
    """

    info: str
    body: str
    line: int

    def as_data(self) -> list[Any]:
        """As plain data (for the build cache): ``[info, body, line]``."""
        return [self.info, self.body, self.line]

    @classmethod
    def from_data(cls, data: Any) -> Fence:
        """The fence :meth:`as_data` returned.

        Raises:
            ValueError: ``data`` is not of that shape.
        """
        info, body, line = _shaped(data, 3)
        return cls(_str(info), _str(body), _int(line))

    @cached_property
    def case_ids(self) -> tuple[str, ...]:
        """For a ``cases`` fence, the case ids in order."""
        return tuple(case_id for case_id, _ in self.case_lines)

    @cached_property
    def case_lines(self) -> tuple[tuple[str, int], ...]:
        """For a ``cases`` fence, each case id with its line in the page (1-based;
        worked out once: the render keys and every locale's table read them)."""
        return tuple((text.strip(), self.line + 1 + i)
                     for i, text in enumerate(self.body.split("\n")) if text.strip())


class SourcePage:
    """A content page parsed once from its English source.

    Attributes:
        slug: the file name without ``.md``; the page's folder in every locale.
        rel: the file's path relative to the project.
        order: its place in the navigation (front matter ``order``; default 1000).
        title: the first ``#`` heading.
        summary: front matter ``summary``, if any.
        draft: front matter ``draft: true``: the page is left out of the built site
            unless the build shows drafts (docs/site.md, "Drafts").
        tokens: the block tokens, without the title heading (of a page from the build
            cache: decoded when first read, so that a build that renders the page from
            the cache never decodes them: :meth:`from_data`).
        messages: every translatable block, in order (title and summary first).
        fences: the generated blocks, in order.
        anchors: heading ids, each with its heading's line, for collision checks with
            case ids and the theme's ids.
        links: every link target in the English text, with its line.
        env: markdown-it's environment of the page (its reference definitions), for the
            inline parse of each translated block.

    Two pages are equal when every attribute is (the tokens compared as tokens).
    """

    def __init__(self, slug: str, rel: str, order: int, title: Message,
                 summary: Message | None, tokens: list[Token],
                 messages: list[Message] | None = None, fences: list[Fence] | None = None,
                 anchors: list[tuple[str, int]] | None = None,
                 links: list[tuple[str, int]] | None = None,
                 env: dict[str, Any] | None = None, *, draft: bool = False) -> None:
        self.slug = slug
        self.rel = rel
        self.order = order
        self.title = title
        self.summary = summary
        self._tokens: list[Token] | None = tokens
        self._packed: str | None = None
        """The tokens as :meth:`as_data` wrote them (JSON), until first read."""
        self.messages = [] if messages is None else messages
        self.fences = [] if fences is None else fences
        self.anchors = [] if anchors is None else anchors
        self.links = [] if links is None else links
        self.env = {} if env is None else env
        self.draft = draft

    @property
    def tokens(self) -> list[Token]:
        """The block tokens, without the title heading (see the class's text)."""
        if self._tokens is None:
            assert self._packed is not None
            try:
                self._tokens = [_token(t, self.fences) for t in _list(json.loads(self._packed))]
            except (ValueError, TypeError, IndexError) as exc:
                # the entry was checksummed and written by this very generator
                raise AssertionError(f"{self.rel}: cached tokens unreadable") from exc
            self._packed = None
        return self._tokens

    @tokens.setter
    def tokens(self, value: list[Token]) -> None:
        self._tokens, self._packed = value, None

    def _fields(self) -> tuple[Any, ...]:
        return (self.slug, self.rel, self.order, self.title, self.summary, self.tokens,
                self.messages, self.fences, self.anchors, self.links, self.env, self.draft)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SourcePage):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass's

    def __repr__(self) -> str:
        return f"SourcePage(slug={self.slug!r}, rel={self.rel!r}, order={self.order!r})"

    def as_data(self) -> dict[str, Any] | None:
        """The page as plain JSON data, for the build cache (:func:`load_pages`): every
        attribute, each order kept in lists (the cache writes objects with their keys
        sorted), the tokens as one JSON text of :func:`_token_data` lists (decoded only
        when read: :attr:`tokens`). ``None`` for a page that does not fit plain data (a
        token's ``meta`` holding anything but its :class:`Fence`): it is parsed again
        each time.

        :meth:`from_data` of the result, through JSON, equals the page (a test checks
        every page of the repository's project)."""
        fences = {id(f): i for i, f in enumerate(self.fences)}
        try:
            tokens = [_token_data(t, fences) for t in self.tokens]
        except _NotPlain:
            return None
        references = self.env.get("references")
        if set(self.env) - {"references"} or (
                references is not None and not isinstance(references, dict)):
            return None
        return {
            "slug": self.slug, "rel": self.rel, "order": self.order, "draft": self.draft,
            "title": self.title.as_data(),
            "summary": self.summary.as_data() if self.summary is not None else None,
            "tokens": json.dumps(tokens, ensure_ascii=False, separators=(",", ":")),
            "messages": [m.as_data() for m in self.messages],
            "fences": [f.as_data() for f in self.fences],
            "anchors": [[anchor, line] for anchor, line in self.anchors],
            "links": [[target, line] for target, line in self.links],
            "references": None if references is None else [
                [label, [[k, v] for k, v in ref.items()]]
                for label, ref in references.items()],
        }

    @classmethod
    def from_data(cls, data: Any) -> SourcePage:
        """The page :meth:`as_data` returned, its tokens still JSON (:attr:`tokens`).

        Raises:
            ValueError: ``data`` is not of that shape (an entry of another layout).
        """
        if not isinstance(data, dict):
            raise ValueError("not the shape of a cached page")
        try:
            references = data["references"]
            page = cls(
                slug=_str(data["slug"]), rel=_str(data["rel"]), order=_int(data["order"]),
                title=Message.from_data(data["title"]),
                summary=None if data["summary"] is None
                else Message.from_data(data["summary"]),
                tokens=[],
                messages=[Message.from_data(m) for m in _list(data["messages"])],
                fences=[Fence.from_data(f) for f in _list(data["fences"])],
                anchors=[(_str(a), _int(n)) for a, n in (_shaped(x, 2)
                                                          for x in _list(data["anchors"]))],
                links=[(_str(t), _int(n)) for t, n in (_shaped(x, 2)
                                                       for x in _list(data["links"]))],
                env={} if references is None else {"references": {
                    _str(label): {_str(k): v for k, v in (_shaped(p, 2)
                                                          for p in _list(ref))}
                    for label, ref in (_shaped(r, 2) for r in _list(references))}},
                draft=_bool(data["draft"]),
            )
            page._tokens, page._packed = None, _str(data["tokens"])
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError("not the shape of a cached page") from exc
        return page


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


LINK = re.compile(
    r"\]\(\s*(<[^>\n]*>|[^\s()<]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
"""A Markdown inline link's target (``[text](target "title")``)."""

MAX_PAGE_BYTES = 2_000_000
"""The largest page read (2 MB; this site's pages are about 10 KB; parsing one takes up
to about 100 times its size in memory): a larger one is an input error, not read."""
PAGE_ADVICE = "split it into several pages"


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


def _blank_title(inline: Token, lines: list[str]) -> str | None:
    """Why the title heading whose inline token is ``inline`` shows nothing (``#`` alone,
    or only spaces, invisible characters such as U+200B, or markup around nothing):
    the ``<h1>``, the ``<title>`` and every navigation's link to the page would be
    empty. ``None`` for a title that shows a letter, digit, punctuation or symbol."""
    shown = "".join(_inline_text(inline.children or []))
    if any(visible(char) for char in shown):
        return None
    if any(visible(char) for char in inline.content):
        written = inline.content if len(inline.content) <= 40 else inline.content[:37] + "..."
        what = f"shows no text ({written!r} is markup around none)"
    else:
        chars = sorted({f"U+{ord(c):04X}" for c in inline.content if not c.isspace()})
        what = "is empty" if not chars else f"shows nothing (only {', '.join(chars[:5])})"
    return f"the page's title {what}; expected its text after '# '"


def _inline_text(tokens: list[Token]) -> Iterator[str]:
    """The text an inline token list shows: its text, code spans and images' alt
    text."""
    for token in tokens:
        if token.type in ("text", "code_inline"):
            yield token.content
        elif token.type == "image":
            yield from _inline_text(token.children or [])
        elif token.children:
            yield from _inline_text(token.children)


def _params(text: str) -> tuple[str, ...]:
    return tuple(PLACEHOLDER.findall(text))


def placeholder_errors(message: Message, rel: str, lines: list[str],
                       known: Mapping[str, int]) -> list[InputError]:
    """The placeholders of a page's block as the pages fill them
    (:class:`generator.render.markdown.Renderer`): each ``{name}`` must name a rule
    number, and a brace that is neither part of one nor doubled
    (:func:`generator.i18n.catalog.stray_braces`: ``{}``, ``{ name }``, ``{name!r}``,
    ``{name:,}``, ``{name[0]}``, a ``{`` or ``}`` alone) is an error, where it would be
    shown as it is.

    Args:
        message: the block (its text and first line).
        rel: the page's path, for errors.
        lines: the page's lines (:data:`generator.errors.LINE_BREAK`), to find the
            column of each error on its line.
        known: the rule numbers (:func:`generator.content.rule_numbers.facts`).

    Returns:
        An error per unknown name and per malformed placeholder, at its line and, where
        the page's line holds its text, its column.
    """
    text = message.msgid
    errors: list[InputError] = []
    breaks = [m.start() for m in _NEWLINE.finditer(text)]
    for found in PLACEHOLDER.finditer(text):
        name = found.group(1)
        if name not in known:
            line, column = _where(message.line, breaks, lines, found.start(), found.group())
            errors.append(InputError(rel, line, column, f"unknown placeholder {{{name}}}; "
                                     "expected " + one_of(name, known, noun="placeholders")))
    for at, shown in stray_braces(text):
        line, column = _where(message.line, breaks, lines, at, shown)
        errors.append(InputError(rel, line, column, malformed_placeholder(shown, known)))
    return sorted(errors, key=lambda e: (e.line, e.column or 0))


_NEWLINE = re.compile("\n")


def _where(first: int, breaks: list[int], lines: list[str], offset: int, shown: str
           ) -> tuple[int, int | None]:
    """The line and column of the text ``shown`` at ``offset`` in a block whose first
    line is ``first`` and whose line breaks are at ``breaks``: its line counted from the
    block's first, its column where the page's line holds it, at or after its column
    in the block (the page's line adds indentation, a list or quote marker, a table's
    other cells before it); ``None`` where the line does not hold it (the front
    matter's summary)."""
    index = bisect_right(breaks, offset)
    line = first + index
    source = lines[line - 1] if 0 < line <= len(lines) else ""
    column = source.find(shown, offset - (breaks[index - 1] + 1 if index else 0))
    return line, (column + 1 if column >= 0 else None)


def parse_page(
    path: Path, rel: str, md: MarkdownIt, known: Mapping[str, int],
    data: bytes | None = None,
) -> tuple[SourcePage | None, list[InputError]]:
    """Parse one content page.

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
    errors: list[InputError] = []
    try:
        raw = read_regular(path, rel, limit=MAX_PAGE_BYTES, what="page",
                           advice=PAGE_ADVICE) if data is None else data
    except NotAnInput as exc:
        return None, [exc.error]
    large = too_large(rel, len(raw), MAX_PAGE_BYTES, "page", PAGE_ADVICE)
    if large is not None:
        return None, [large]
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return None, [InputError(rel, line, None, f"byte 0x{raw[exc.start]:02x} is not "
                                 "UTF-8; expected UTF-8 Markdown")]
    source = source.removeprefix("\ufeff")
    controls = unprintable(source, rel)
    if controls:
        return None, controls
    env: dict[str, Any] = {}
    tokens = md.parse(source, env)
    meta: dict[str, Any] = {}
    doc: YamlDocument | None = None
    if tokens and tokens[0].type == "front_matter":
        # read as case files are (numbers as written, duplicate keys found); the opening
        # ``---`` line kept as an empty one, so that positions are the file's
        doc, problems = parse_yaml("\n" + tokens[0].content, rel, bool_words=True)
        if doc is None or problems:
            return None, [replace(e, message=f"bad front matter: {e.message}")
                          for e in problems]
        loaded = doc.value if doc.value is not None else {}
        if not isinstance(loaded, dict) or set(loaded) - set(FRONT_MATTER):
            return None, [InputError(rel, 2, None, "unknown front matter; expected the "
                                     "fields order (a number), summary (text) and draft "
                                     "(true or false)")]
        meta = loaded
        tokens = tokens[1:]
    order = meta.get("order", 1000)
    if not isinstance(order, int) or isinstance(order, bool):
        mark = doc.marks[("order",)] if doc is not None else None
        errors.append(InputError(rel, mark.line if mark else 2, mark.column if mark else None,
                                 f"front matter order is {describe(order)}; expected a "
                                 f"whole number{integer_hint(order)}"))
        order = 1000
    draft = meta.get("draft", False)
    if not isinstance(draft, bool):  # yes/no/on/off too: YAML 1.1 and 1.2 read them apart
        mark = doc.marks[("draft",)] if doc is not None else None
        got = draft if isinstance(draft, BoolText) else describe(draft)
        errors.append(InputError(rel, mark.line if mark else 2, mark.column if mark else None,
                                 f"front matter draft is {got}; expected true or false"
                                 f"{boolean_hint(draft)}"))
        draft = True  # (the error keeps anything from being built)
    summary_text = meta.get("summary")
    if summary_text is not None and (not isinstance(summary_text, str)
                                     or isinstance(summary_text, BoolText)):
        mark = doc.marks[("summary",)] if doc is not None else None
        errors.append(InputError(rel, mark.line if mark else 2, mark.column if mark else None,
                                 f"front matter summary is {describe(summary_text)}; "
                                 f"expected text{string_hint(summary_text)}"))

    title: Message | None = None
    body: list[Token] = []
    messages: list[Message] = []
    fences: list[Fence] = []
    anchors: list[tuple[str, int]] = []
    lines = LINE_BREAK.split(source)  # as markdown-it counts them (not str.splitlines)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open" and token.tag == "h1" and title is None:
            inline = tokens[i + 1]
            title = Message(inline.content, _line(inline), _params(inline.content))
            blank = _blank_title(inline, lines)
            if blank is not None:
                errors.append(InputError(rel, title.line, None, blank))
            i += 3
            continue
        if token.type == "heading_open" and token.attrGet("id"):
            anchors.append((str(token.attrGet("id")), _line(token)))
        if token.type == "inline" and token.content:
            messages.append(Message(token.content, _line(token), _params(token.content)))
            for offset, text in enumerate(token.content.split("\n")):
                if text.lstrip().startswith(":::"):
                    errors.append(InputError(rel, _line(token) + offset, 1, "unknown block "
                                             f"{text.strip()!r}; expected "
                                             f"'::: {APP_CHOICE}' … ':::' on lines of "
                                             "their own, with a blank line before"))
        if token.type == f"container_{APP_CHOICE}_open" and token.map:
            last = lines[token.map[1]:token.map[1] + 1]
            if not last or last[0].strip() != ":::":
                errors.append(InputError(rel, token.map[0] + 1, 1, f"'::: {APP_CHOICE}' is "
                                         "never closed; expected a line ':::' after the "
                                         "rule"))
        if token.type == "fence":
            info = token.info.strip()
            if info in GENERATED_FENCES:
                fence = Fence(info, token.content, _line(token))
                token.meta["fence"] = fence
                fences.append(fence)
        body.append(token)
        i += 1
    if title is None:
        errors.append(InputError(rel, 1, 1, "the page has no title; expected a first "
                                 "heading '# Title'"))
        return None, errors
    summary = None
    if isinstance(meta.get("summary"), str) and not isinstance(meta["summary"], BoolText):
        text = meta["summary"]
        summary = Message(text, 2, _params(text))
    all_messages = [title, *([summary] if summary else []), *messages]
    for message in all_messages:
        errors.extend(placeholder_errors(message, rel, lines, known))
    slug = path.stem
    if not is_slug(slug):
        errors.append(InputError(rel, 1, None, f"page file name {path.name!r} is not a slug; "
                                 "expected lowercase letters, digits and hyphens, "
                                 "e.g. first-meld.md"))
    links = [(m.group(1).strip("<>"), message.line) for message in all_messages
             for m in LINK.finditer(message.msgid)]
    references = env.get("references", {})
    for ref in references.values():
        where = ref.get("map") or [0]  # markdown-it records each definition's lines
        links.append((str(ref.get("href", "")), where[0] + 1))
    page = SourcePage(slug, rel, order, title, summary, body, all_messages, fences, anchors,
                      links, {"references": references} if references else {}, draft=draft)
    return page, errors


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
    of games stays the same).
    """
    layout = Layout.of(project)
    remember = md is None  # (the default parser's pages only)
    known: Mapping[str, int] | None = None
    pages: list[SourcePage] = []
    errors: list[InputError] = []
    for rel in layout.walk(CONTENT, errors, skip=(EXAMPLES,), files_named=(".md",)):
        path = PurePosixPath(rel)
        if path.name.startswith((".", "#")):
            continue  # editors' lock and backup files
        if path.suffix.lower() in (".md", ".markdown") and (
                path.suffix != ".md" or path.parent.as_posix() != CONTENT):
            errors.append(InputError(rel, 1, None, "not read as a page; expected pages as "
                                     "content/<slug>.md (no subfolders, the extension .md)"))
            continue
        if path.suffix != ".md":
            continue
        try:
            data = layout.read(rel, limit=MAX_PAGE_BYTES, what="page", advice=PAGE_ADVICE)
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        key = hashlib.sha256(data).hexdigest()
        page = _cached_page(cache, rel, key)
        if page is None:
            kept = _remembered(rel, key) if remember else None
            if kept is not None:
                page = SourcePage.from_data(kept)
            else:
                md = md or make_parser()
                known = known if known is not None else facts()
                page, page_errors = parse_page(layout.path(rel), rel, md, known, data)
                errors.extend(page_errors)
                kept = page.as_data() if page is not None and not page_errors and (
                    cache is not None or remember) else None
                if kept is not None and remember:
                    _remember(rel, key, kept)
            if kept is not None and cache is not None:
                cache.store(PAGE_SLOT + rel, key, kept)
        if page is not None:
            pages.append(page)
    return pages, errors


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


def _cached_page(cache: Store | None, rel: str, key: str) -> SourcePage | None:
    """The page ``rel`` of bytes of SHA-256 ``key`` as the cache keeps it, or ``None``."""
    if cache is None:
        return None
    found = cache.load(PAGE_SLOT + rel, key)
    if found is None:
        return None
    try:
        page = SourcePage.from_data(found)
    except ValueError:
        return None  # checksummed and of this generator, yet not a page: parsed again
    return page if page.rel == rel else None


def _line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 1


class _NotPlain(Exception):
    """A token holds what plain data cannot (see :meth:`SourcePage.as_data`)."""


def _token_data(token: Token, fences: Mapping[int, int]) -> list[Any]:
    """A block token as a list: type, tag, nesting, attrs as ``[name, value]`` pairs (in
    order), map, level, children (``None`` or a list of such lists), content, markup,
    info, the index of its :class:`Fence` in the page's (or ``None``), block, hidden.

    Raises:
        _NotPlain: its ``meta`` holds anything but the page's fence.
    """
    fence = None
    if token.meta:
        found = token.meta.get("fence")
        if set(token.meta) != {"fence"} or id(found) not in fences:
            raise _NotPlain
        fence = fences[id(found)]
    return [token.type, token.tag, token.nesting, [[k, v] for k, v in token.attrs.items()],
            token.map, token.level,
            None if token.children is None else [_token_data(c, fences)
                                                 for c in token.children],
            token.content, token.markup, token.info, fence, token.block, token.hidden]


def _token(data: Any, fences: list[Fence]) -> Token:
    """The token :func:`_token_data` returned (``fences``: the page's, restored)."""
    (kind, tag, nesting, attrs, where, level, children, content, markup, info, fence,
     block, hidden) = _shaped(data, 13)
    if nesting not in (-1, 0, 1) or not isinstance(block, bool) \
            or not isinstance(hidden, bool):
        raise ValueError("not the shape of a cached token")
    return Token(
        _str(kind), _str(tag), nesting,
        attrs={_str(k): v for k, v in (_shaped(a, 2) for a in _list(attrs))},
        map=None if where is None else [_int(n) for n in _list(where)],
        level=_int(level),
        children=None if children is None else [_token(c, fences) for c in _list(children)],
        content=_str(content), markup=_str(markup), info=_str(info),
        meta={} if fence is None else {"fence": fences[_int(fence)]},
        block=block, hidden=hidden)


def _shaped(data: Any, n: int) -> list[Any]:
    """``data`` as a list of ``n`` items.

    Raises:
        ValueError: it is not one.
    """
    if not isinstance(data, list) or len(data) != n:
        raise ValueError("not the shape of cached page data")
    return data


def _list(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise ValueError("not the shape of cached page data")
    return data


def _str(data: Any) -> str:
    if not isinstance(data, str):
        raise ValueError("not the shape of cached page data")
    return data


def _bool(data: Any) -> bool:
    if not isinstance(data, bool):
        raise ValueError("not the shape of cached page data")
    return data


def _int(data: Any) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise ValueError("not the shape of cached page data")
    return data
