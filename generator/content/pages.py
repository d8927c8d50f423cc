"""Content pages as data: each ``content/<slug>.md`` parsed once, from its English
source, into its blocks, generated tables, heading ids and links (as mkdocs'
``structure/`` holds pages apart from rendering them).

Every block (paragraph, heading, list item, table cell) is one catalog message whose
msgid is the block's inline Markdown source, as Sphinx does; per locale only the inline
text is translated and rendered (:mod:`generator.render.markdown`; docs/DESIGN.md,
"Content Markdown").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.anchors.index import slugify
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from generator.cases.yamlpos import YamlDocument
from generator.cases.yamlpos import describe
from generator.cases.yamlpos import integer_hint
from generator.cases.yamlpos import parse_yaml
from generator.content.rule_numbers import facts
from generator.errors import InputError
from generator.errors import one_of
from generator.errors import too_large
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import is_slug
from generator.layout import read_regular

PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z0-9_.]+)\}(?!\})")
"""``{name}``: a rule number; ``{{`` and ``}}`` stand for literal braces."""
APP_CHOICE = "app-choice"
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

    @property
    def case_ids(self) -> tuple[str, ...]:
        """For a ``cases`` fence, the case ids in order."""
        return tuple(case_id for case_id, _ in self.case_lines)

    @property
    def case_lines(self) -> tuple[tuple[str, int], ...]:
        """For a ``cases`` fence, each case id with its line in the page (1-based)."""
        return tuple((text.strip(), self.line + 1 + i)
                     for i, text in enumerate(self.body.splitlines()) if text.strip())


@dataclass
class SourcePage:
    """A content page parsed once from its English source.

    Attributes:
        slug: the file name without ``.md``; the page's folder in every locale.
        rel: the file's path relative to the project.
        order: its place in the navigation (front matter ``order``; default 1000).
        title: the first ``#`` heading.
        summary: front matter ``summary``, if any.
        tokens: the block tokens, without the title heading.
        messages: every translatable block, in order (title and summary first).
        fences: the generated blocks, in order.
        anchors: heading ids, for collision checks with case ids.
        links: every link target in the English text, with its line.
        env: markdown-it's environment of the page (its reference definitions), for the
            inline parse of each translated block.
    """

    slug: str
    rel: str
    order: int
    title: Message
    summary: Message | None
    tokens: list[Token]
    messages: list[Message] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    links: list[tuple[str, int]] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)


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


def _params(text: str) -> tuple[str, ...]:
    return tuple(PLACEHOLDER.findall(text))


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
        bad front matter, no ``#`` title, unknown placeholder, unknown fence.
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
    env: dict[str, Any] = {}
    tokens = md.parse(source, env)
    meta: dict[str, Any] = {}
    doc: YamlDocument | None = None
    if tokens and tokens[0].type == "front_matter":
        # read as case files are (numbers as written, duplicate keys found); the opening
        # ``---`` line kept as an empty one, so that positions are the file's
        doc, problems = parse_yaml("\n" + tokens[0].content, rel)
        if doc is None or problems:
            return None, [replace(e, message=f"bad front matter: {e.message}")
                          for e in problems]
        loaded = doc.value if doc.value is not None else {}
        if not isinstance(loaded, dict) or set(loaded) - {"order", "summary"}:
            return None, [InputError(rel, 2, None, "unknown front matter; expected the "
                                     "fields order (a number) and summary (text)")]
        meta = loaded
        tokens = tokens[1:]
    order = meta.get("order", 1000)
    if not isinstance(order, int) or isinstance(order, bool):
        mark = doc.marks[("order",)] if doc is not None else None
        errors.append(InputError(rel, mark.line if mark else 2, mark.column if mark else None,
                                 f"front matter order is {describe(order)}; expected a "
                                 f"whole number{integer_hint(order)}"))
        order = 1000

    title: Message | None = None
    body: list[Token] = []
    messages: list[Message] = []
    fences: list[Fence] = []
    anchors: list[str] = []
    lines = source.splitlines()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open" and token.tag == "h1" and title is None:
            inline = tokens[i + 1]
            title = Message(inline.content, _line(inline), _params(inline.content))
            i += 3
            continue
        if token.type == "heading_open" and token.attrGet("id"):
            anchors.append(str(token.attrGet("id")))
        if token.type == "inline" and token.content:
            messages.append(Message(token.content, _line(token), _params(token.content)))
            for offset, text in enumerate(token.content.splitlines()):
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
    if isinstance(meta.get("summary"), str):
        text = meta["summary"]
        summary = Message(text, 2, _params(text))
    all_messages = [title, *([summary] if summary else []), *messages]
    for message in all_messages:
        for name in message.params:
            if name not in known:
                errors.append(InputError(
                    rel, message.line, None,
                    f"unknown placeholder {{{name}}}; expected "
                    + one_of(name, known, noun="placeholders"),
                ))
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
                      links, {"references": references} if references else {})
    return page, errors


def load_pages(project: Path | Layout, md: MarkdownIt | None = None
               ) -> tuple[list[SourcePage], list[InputError]]:
    """Parse every ``content/*.md`` of ``project`` (sorted by file name), each read
    through the project's layout (only a regular file inside the project).

    Returns:
        (the pages that could be read, every input error found in them).
    """
    layout = Layout.of(project)
    md = md or make_parser()
    known = facts()
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
        page, page_errors = parse_page(layout.path(rel), rel, md, known, data)
        errors.extend(page_errors)
        if page is not None:
            pages.append(page)
    return pages, errors


def _line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 1
