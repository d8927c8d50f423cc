"""A content page as data, parsed once from its English source (as mkdocs'
``structure/`` holds pages apart from rendering them): :class:`SourcePage`, its
translatable blocks (:class:`Message`) and generated blocks (:class:`Fence`), and each as
plain data for the build cache.

Every block (paragraph, heading, list item, table cell) is one catalog message whose
msgid is the block's inline Markdown source, as Sphinx does; per locale only the inline
text is translated and rendered (:mod:`generator.render.markdown`; docs/DESIGN.md,
"Content Markdown"). The page is parsed and checked by
:func:`generator.content.pages.parse_page`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from markdown_it.token import Token

from generator.i18n.catalog import BRACE_PLACEHOLDER

PLACEHOLDER = BRACE_PLACEHOLDER
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

    @classmethod
    def of(cls, text: str, line: int) -> Message:
        """The block of inline Markdown ``text`` whose first line is ``line``, its
        placeholders (:data:`PLACEHOLDER`) found in it."""
        return cls(text, line, tuple(PLACEHOLDER.findall(text)))

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
        """The page as plain JSON data, for the build cache
        (:func:`generator.content.pages.load_pages`): every attribute, each order kept in
        lists (the cache writes objects with their keys sorted), the tokens as one JSON
        text of :func:`_token_data` lists (decoded only when read: :attr:`tokens`).
        ``None`` for a page that does not fit plain data (a token's ``meta`` holding
        anything but its :class:`Fence`): it is parsed again each time.

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
