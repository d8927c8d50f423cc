"""The checks of one content page, each a small function registered by name in order,
as markdown-it registers its rules (:class:`generator.content.ruler.Ruler`):
:data:`PAGE_CHECKS` over the whole page, :data:`BLOCK_CHECKS` over each block token in
turn. :func:`generator.content.pages.parse_page` runs them over a :class:`PageState`.

A few entries gather rather than check (``markdown`` parses the source, ``blocks`` runs
the block checks, ``links`` collects the link targets): the checks after them read what
they gathered. A check reports an input error at the page's file, line and column
(:meth:`PageState.report`); one after which the page cannot be used stops the run
(:meth:`PageState.stop`). docs/DESIGN.md, "How to add a page check".
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from generator.content.ruler import Ruler
from generator.content.source import APP_CHOICE
from generator.content.source import GENERATED_FENCES
from generator.content.source import PLACEHOLDER
from generator.content.source import Fence
from generator.content.source import Message
from generator.content.source import SourcePage
from generator.errors import LINE_BREAK
from generator.errors import InputError
from generator.errors import one_of
from generator.errors import too_large
from generator.errors import unprintable
from generator.errors import visible
from generator.i18n.catalog import malformed_placeholder
from generator.i18n.catalog import stray_braces
from generator.layout import is_slug
from generator.yamlpos import BoolText
from generator.yamlpos import YamlDocument
from generator.yamlpos import boolean_hint
from generator.yamlpos import describe
from generator.yamlpos import integer_hint
from generator.yamlpos import parse_yaml
from generator.yamlpos import string_hint

FRONT_MATTER = ("order", "summary", "draft")
"""The fields a page's front matter may hold: its place in the navigation, its summary
(the home page's list) and whether it is a draft (docs/site.md, "Drafts")."""

MAX_PAGE_BYTES = 2_000_000
"""The largest page read (2 MB; this site's pages are about 10 KB; parsing one takes up
to about 100 times its size in memory): a larger one is an input error, not read."""
PAGE_ADVICE = "split it into several pages"

LINK = re.compile(
    r"\]\(\s*(<[^>\n]*>|[^\s()<]*(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
"""A Markdown inline link's target (``[text](target "title")``)."""


@dataclass(eq=False)
class PageState:
    """One page while its checks run, as markdown-it's rules share their state: what
    the page was given, and what the checks before have found and gathered.

    Attributes:
        path: the Markdown file (its name gives the slug).
        rel: its path relative to the project, for errors.
        md: the parser (:func:`generator.content.pages.make_parser`).
        known: the rule numbers placeholders may name
            (:func:`generator.content.rule_numbers.facts`).
        raw: the file's bytes.
        source: its text (from the ``encoding`` check on; a byte-order mark dropped).
        lines: its lines as markdown-it counts them (:data:`generator.errors.LINE_BREAK`).
        tokens: its block tokens (from ``markdown`` on; without the front matter's from
            ``front_matter`` on).
        env: markdown-it's environment of the parse (its reference definitions).
        meta: the front matter's fields; ``doc``: the front matter with positions.
        order, draft, summary: the front matter's values as the page keeps them.
        title: the title, the first ``#`` heading (from ``blocks`` on), and
            ``title_token``: its inline token.
        body: the block tokens but the title's, in order (from ``blocks`` on).
        blocks: each translatable block of the body (``messages`` fills it).
        fences, anchors, links: the generated blocks, the heading ids and the link
            targets, each in order, with their lines.
        errors: the input errors found, in the order found.
        usable: ``False`` once a check has found the page cannot be used.
    """

    path: Path
    rel: str
    md: MarkdownIt
    known: Mapping[str, int]
    raw: bytes
    source: str = ""
    lines: list[str] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    doc: YamlDocument | None = None
    order: int = 1000
    draft: bool = False
    summary: Message | None = None
    title: Message | None = None
    title_token: Token | None = None
    body: list[Token] = field(default_factory=list)
    blocks: list[Message] = field(default_factory=list)
    fences: list[Fence] = field(default_factory=list)
    anchors: list[tuple[str, int]] = field(default_factory=list)
    links: list[tuple[str, int]] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    usable: bool = True

    def report(self, line: int, column: int | None, message: str) -> None:
        """Add the input error ``message`` at ``line`` (1-based) and ``column`` (1-based;
        ``None`` for the whole line) of the page."""
        self.errors.append(InputError(self.rel, line, column, message))

    def stop(self, *errors: InputError) -> None:
        """Add ``errors`` and end the run: the page cannot be used, no check runs after
        this one."""
        self.errors.extend(errors)
        self.usable = False

    @property
    def messages(self) -> list[Message]:
        """Every translatable block, in order: the title, the summary, the body's."""
        assert self.title is not None, "read after the title check"
        return [self.title, *([self.summary] if self.summary else []), *self.blocks]

    def page(self) -> SourcePage:
        """The page the checks found and gathered (after all of them)."""
        assert self.title is not None, "read after the title check"
        references = self.env.get("references", {})
        return SourcePage(self.path.stem, self.rel, self.order, self.title, self.summary,
                          self.body, self.messages, self.fences, self.anchors, self.links,
                          {"references": references} if references else {},
                          draft=self.draft)


PageCheck = Callable[[PageState], None]
"""A check of the whole page."""
BlockCheck = Callable[[PageState, Token], None]
"""A check of one block token (the title's inline token among them)."""


def line_of(token: Token) -> int:
    """The line (1-based) a block token starts on."""
    return token.map[0] + 1 if token.map else 1


def _size(page: PageState) -> None:
    """A page over :data:`MAX_PAGE_BYTES` is not parsed."""
    large = too_large(page.rel, len(page.raw), MAX_PAGE_BYTES, "page", PAGE_ADVICE)
    if large is not None:
        page.stop(large)


def _encoding(page: PageState) -> None:
    """The page is UTF-8 (a byte-order mark dropped); else the first byte that is not,
    at its line. Fills in the source and its lines."""
    try:
        source = page.raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = page.raw.count(b"\n", 0, exc.start) + 1
        page.stop(InputError(page.rel, line, None, f"byte 0x{page.raw[exc.start]:02x} is "
                             "not UTF-8; expected UTF-8 Markdown"))
        return
    page.source = source.removeprefix("\ufeff")
    page.lines = LINE_BREAK.split(page.source)


def _control_characters(page: PageState) -> None:
    """No control character anywhere in the page: each one an error at its place
    (:func:`generator.errors.unprintable`)."""
    controls = unprintable(page.source, page.rel)
    if controls:
        page.stop(*controls)


def _markdown(page: PageState) -> None:
    """Parse the source into block tokens (:func:`generator.content.pages.make_parser`);
    not a check: the checks after it read the tokens."""
    page.tokens = page.md.parse(page.source, page.env)


def _front_matter(page: PageState) -> None:
    """The front matter, if any, is YAML read as case files are (numbers as written,
    duplicate keys found; the opening ``---`` line kept as an empty one, so that
    positions are the file's), a mapping of :data:`FRONT_MATTER` fields only. Takes its
    token off the page's."""
    if not page.tokens or page.tokens[0].type != "front_matter":
        return
    doc, problems = parse_yaml("\n" + page.tokens[0].content, page.rel, bool_words=True)
    if doc is None or problems:
        page.stop(*[replace(e, message=f"bad front matter: {e.message}") for e in problems])
        return
    loaded = doc.value if doc.value is not None else {}
    if not isinstance(loaded, dict) or set(loaded) - set(FRONT_MATTER):
        page.stop(InputError(page.rel, 2, None, "unknown front matter; expected the fields "
                             "order (a number), summary (text) and draft (true or false)"))
        return
    page.meta, page.doc = loaded, doc
    page.tokens = page.tokens[1:]


def _report_field(page: PageState, name: str, message: str) -> None:
    """Report ``message`` at the front matter field ``name`` (at line 2 where its place
    is not known)."""
    mark = page.doc.marks[(name,)] if page.doc is not None else None
    page.report(mark.line if mark else 2, mark.column if mark else None, message)


def _order(page: PageState) -> None:
    """Front matter ``order`` is a whole number (default 1000, also after an error)."""
    order = page.meta.get("order", 1000)
    if not isinstance(order, int) or isinstance(order, bool):
        _report_field(page, "order", f"front matter order is {describe(order)}; expected "
                      f"a whole number{integer_hint(order)}")
        order = 1000
    page.order = order


def _draft(page: PageState) -> None:
    """Front matter ``draft`` is ``true`` or ``false`` (yes/no/on/off too are errors:
    YAML 1.1 and 1.2 read them apart). After an error the page counts as a draft (the
    error keeps anything from being built)."""
    draft = page.meta.get("draft", False)
    if not isinstance(draft, bool):
        got = draft if isinstance(draft, BoolText) else describe(draft)
        _report_field(page, "draft", f"front matter draft is {got}; expected true or "
                      f"false{boolean_hint(draft)}")
        draft = True
    page.draft = draft


def _summary(page: PageState) -> None:
    """Front matter ``summary``, if any, is text: the page's summary, a message at
    line 2."""
    text = page.meta.get("summary")
    if text is None:
        return
    if isinstance(text, str) and not isinstance(text, BoolText):
        page.summary = Message.of(text, 2)
    else:
        _report_field(page, "summary", f"front matter summary is {describe(text)}; "
                      f"expected text{string_hint(text)}")


def _blocks(page: PageState) -> None:
    """Run :data:`BLOCK_CHECKS` over each block token in order: the title's inline
    token (:func:`_take_title`) and the body's, each body token kept in the body."""
    title = _take_title(page)
    checks = [check for _name, check in BLOCK_CHECKS.enabled()]
    for token in page.tokens:
        if any(token is t for t in title):
            continue
        for check in checks:
            check(page, token)
        if token is not page.title_token:
            page.body.append(token)


def _take_title(page: PageState) -> tuple[Token, ...]:
    """Find the title, the first ``#`` heading, and fill in ``title`` and
    ``title_token`` (its inline token).

    Returns:
        Its opening and closing tokens (none without a title): they are no block of
        the page.
    """
    tokens = page.tokens
    for start, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == "h1":
            page.title_token = tokens[start + 1]
            page.title = Message.of(page.title_token.content, line_of(page.title_token))
            return token, tokens[start + 2]
    return ()


def _title(page: PageState) -> None:
    """The page has a title, a first heading ``# Title``."""
    if page.title is None:
        page.stop(InputError(page.rel, 1, 1, "the page has no title; expected a first "
                             "heading '# Title'"))


def _placeholders(page: PageState) -> None:
    """Each placeholder of every block names a rule number, and no brace is malformed
    (:func:`placeholder_errors`)."""
    for message in page.messages:
        page.errors.extend(placeholder_errors(message, page.rel, page.lines, page.known))


def _slug(page: PageState) -> None:
    """The file name is a slug (the page's folder in every locale)."""
    if not is_slug(page.path.stem):
        page.report(1, None, f"page file name {page.path.name!r} is not a slug; expected "
                    "lowercase letters, digits and hyphens, e.g. first-meld.md")


def _links(page: PageState) -> None:
    """Gather every link target with its line: the blocks' inline links, then the
    reference definitions (checked with the other pages:
    :func:`generator.content.checks.check_pages`)."""
    page.links = [(m.group(1).strip("<>"), message.line) for message in page.messages
                  for m in LINK.finditer(message.msgid)]
    for ref in page.env.get("references", {}).values():
        where = ref.get("map") or [0]  # markdown-it records each definition's lines
        page.links.append((str(ref.get("href", "")), where[0] + 1))


def _title_text(page: PageState, token: Token) -> None:
    """The title shows some text (:func:`_blank_title`)."""
    if token is page.title_token and page.title is not None:
        blank = _blank_title(token)
        if blank is not None:
            page.report(page.title.line, None, blank)


def _anchors(page: PageState, token: Token) -> None:
    """Gather each heading's id with its line."""
    if token.type == "heading_open" and token.attrGet("id"):
        page.anchors.append((str(token.attrGet("id")), line_of(token)))


def _is_block_text(page: PageState, token: Token) -> bool:
    """Whether ``token`` is the inline text of a body's block (not the title's)."""
    return token.type == "inline" and bool(token.content) and token is not page.title_token


def _messages(page: PageState, token: Token) -> None:
    """Gather each block of the body as a translatable message."""
    if _is_block_text(page, token):
        page.blocks.append(Message.of(token.content, line_of(token)))


def _unknown_containers(page: PageState, token: Token) -> None:
    """A line of a block's text that starts with ``:::`` is a container markdown-it did
    not read as one (an unknown name, or no blank line before)."""
    if not _is_block_text(page, token):
        return
    for offset, text in enumerate(token.content.split("\n")):
        if text.lstrip().startswith(":::"):
            page.report(line_of(token) + offset, 1, f"unknown block {text.strip()!r}; "
                        f"expected '::: {APP_CHOICE}' … ':::' on lines of their own, with "
                        "a blank line before")


def _app_choice_closed(page: PageState, token: Token) -> None:
    """Each ``::: app-choice`` is closed by a line ``:::``."""
    if token.type != f"container_{APP_CHOICE}_open" or not token.map:
        return
    last = page.lines[token.map[1]:token.map[1] + 1]
    if not last or last[0].strip() != ":::":
        page.report(token.map[0] + 1, 1, f"'::: {APP_CHOICE}' is never closed; expected a "
                    "line ':::' after the rule")


def _fences(page: PageState, token: Token) -> None:
    """Gather each generated fence (:data:`GENERATED_FENCES`), kept in its token's
    ``meta`` too."""
    if token.type == "fence" and token.info.strip() in GENERATED_FENCES:
        fence = Fence(token.info.strip(), token.content, line_of(token))
        token.meta["fence"] = fence
        page.fences.append(fence)


def _blank_title(inline: Token) -> str | None:
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



PAGE_CHECKS: Ruler[PageCheck] = Ruler([
    ("size", _size),
    ("encoding", _encoding),
    ("control_characters", _control_characters),
    ("markdown", _markdown),
    ("front_matter", _front_matter),
    ("order", _order),
    ("draft", _draft),
    ("summary", _summary),
    ("blocks", _blocks),
    ("title", _title),
    ("placeholders", _placeholders),
    ("slug", _slug),
    ("links", _links),
])
"""The checks of a page, in the order they run (:func:`generator.content.pages.parse_page`).
A project or a test adds one by name (``PAGE_CHECKS.after("slug", "name", check)``),
disables or replaces one."""

BLOCK_CHECKS: Ruler[BlockCheck] = Ruler([
    ("title_text", _title_text),
    ("anchors", _anchors),
    ("messages", _messages),
    ("unknown_containers", _unknown_containers),
    ("app_choice_closed", _app_choice_closed),
    ("fences", _fences),
])
"""The checks of each block token, in the order they run over it (the ``blocks`` page
check runs them, token by token)."""

_BUILT_IN = (PAGE_CHECKS.enabled(), BLOCK_CHECKS.enabled())


def checks_changed() -> str:
    """The checks that run, each as its name and its function's qualified name, when
    they are not the built-in ones (a check registered, disabled or replaced); ``""``
    while they are. A page parsed without errors is kept under its bytes' digest and
    this (:func:`generator.content.pages.load_pages`): a check registered since is run
    on it."""
    now = (PAGE_CHECKS.enabled(), BLOCK_CHECKS.enabled())
    if now == _BUILT_IN:
        return ""
    return " ".join(f"{name}={getattr(rule, '__module__', '')}."
                    f"{getattr(rule, '__qualname__', repr(rule))}"
                    for rules in now for name, rule in rules)
