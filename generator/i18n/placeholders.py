"""Placeholders and link targets of a message's text: what a translation must keep of
its source (``%(num)s``, ``{rami51.threshold}``, the links' targets), and the braces of a
page's text that are no placeholder."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from markdown_it import MarkdownIt

_DIRECTIVE = re.compile(
    r"%(?:%|\([^()]*\)[#0\- +]*\d*(?:\.\d+)?[hlL]?[diouxXeEfFgGcrsa])")
"""What a ``%`` of a message formatted with a mapping (newstyle gettext, the code's
``%`` with a dict) may start, as Python reads it: ``%%`` (a percent sign), or a keyed
placeholder: ``(key)``, flags, width, precision and a conversion (``%(num)s``,
``%(num)5.1f``). A key holding parentheses or a ``*`` width, which Python reads too,
counts as none: the message's mapping cannot fill them."""
_POSITIONAL = re.compile(r"%\w")
"""A placeholder without a key (``%s``, ``%d``): a placeholder to keep, and a lone ``%``
where a mapping formats the message."""
BRACE_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z0-9_.]+)\}(?!\})")
"""A page's placeholder, ``{name}`` (a rule number's name); ``{{`` and ``}}`` stand for
literal braces (:func:`stray_braces`)."""
_BRACES = re.compile(r"\{\{|\}\}|[{}]")


def percent_placeholders(text: str) -> tuple[list[str], bool]:
    """The %-placeholders of ``text`` read left to right as Python's %-formatting reads
    them (:data:`_DIRECTIVE`; ``%%`` is a percent sign, so ``%%(num)s`` holds none), and
    whether a ``%`` starts no ``%%`` and no keyed placeholder (a lone ``%``: ``5 %
    sady``, or ``%s``, which formatting with a mapping refuses or misreads)."""
    found: list[str] = []
    lone = False
    at = text.find("%")
    while at >= 0:
        directive = _DIRECTIVE.match(text, at)
        if directive is None:
            lone = True
            directive = _POSITIONAL.match(text, at)
        if directive is None:
            at = text.find("%", at + 1)
            continue
        if directive.group() != "%%":
            found.append(directive.group())
        at = text.find("%", directive.end())
    return found, lone


def placeholders(text: str) -> frozenset[str]:
    """The placeholders of a message as written, conversion included: ``%(num)s``,
    ``%(num)d`` (templates, code; newstyle gettext: :func:`percent_placeholders`) and
    ``{rami51.threshold}`` (content prose). A translation must use exactly the
    source's."""
    return frozenset(percent_placeholders(text)[0]) | frozenset(
        m.group(0) for m in BRACE_PLACEHOLDER.finditer(text))


def stray_braces(text: str) -> list[tuple[int, str]]:
    """The braces of a page's text that are neither part of a placeholder
    (:data:`BRACE_PLACEHOLDER`) nor doubled (``{{``, ``}}``: a literal brace), as the
    pages fill placeholders (:class:`generator.render.markdown.Renderer`), which show
    them as they are: a malformed placeholder (``{}``, ``{ name }``, ``{name!r}``,
    ``{name:,}``, ``{name[0]}``) or a lone ``{`` or ``}``.

    Returns:
        Each as (its offset in ``text``, the text shown in an error: from the ``{`` to
        its ``}`` on the same line, or the brace alone), in order.
    """
    spans = [m.span() for m in BRACE_PLACEHOLDER.finditer(text)]
    found: list[tuple[int, str]] = []
    upcoming = 0
    skip_to = 0
    for brace in _BRACES.finditer(text):
        at = brace.start()
        while upcoming < len(spans) and spans[upcoming][1] <= at:
            upcoming += 1
        if at < skip_to or len(brace.group()) == 2 or (
                upcoming < len(spans) and spans[upcoming][0] <= at):
            continue
        group = _BRACE_GROUP.match(text, at) if brace.group() == "{" else None
        if group is not None:
            found.append((at, group.group()))
            skip_to = group.end()
        else:
            found.append((at, brace.group()))
    return found


_BRACE_GROUP = re.compile(r"\{[^{}\n]*\}")
"""A ``{`` and its ``}`` on the same line, no brace between (each text scanned once)."""


def malformed_placeholder(shown: str, known: Iterable[str] = ()) -> str:
    """The message for a stray brace or malformed placeholder ``shown``
    (:func:`stray_braces`): what is wrong and what to write (the placeholder it starts
    with, when ``known`` names it)."""
    literal = "or {{ and }} for a brace shown as it is"
    if shown in ("{", "}"):
        return (f"a lone {shown!r}; expected a placeholder such as {{rami51.threshold}}, "
                f"{literal}")
    name = re.match(r"\s*([A-Za-z0-9_.]+)", shown[1:])
    if BRACE_PLACEHOLDER.fullmatch(shown):
        return (f"{shown!r} is next to another brace; expected {shown} apart from "
                f"braces, {literal}")
    write = f"{{{name.group(1)}}}" if name is not None and name.group(1) in set(known) \
        else "a rule number's name in braces, such as {rami51.threshold}"
    return (f"{shown!r} is not a placeholder (a name in braces, no spaces, conversion, "
            f"format or index); expected {write}, {literal}")


def link_targets(text: str) -> frozenset[str]:
    """The targets of the links and images a message renders to, as the site's Markdown
    parser reads it: inline links and images, autolinks (``<https://…>``) and e-mail
    autolinks (``<a@b.c>``, target ``mailto:a@b.c``), normalized as rendered. (A
    reference link ``[text][label]`` can only name a definition of the English page.)"""
    if "<" not in text and "](" not in text:
        return frozenset()  # neither an inline link nor an autolink: no parse needed
    tokens = _inline_markdown().parseInline(text, {})[0].children or []
    return frozenset(str(t.attrGet("href") if t.type == "link_open" else t.attrGet("src"))
                     for t in tokens if t.type in ("link_open", "image"))


@cache
def _inline_markdown() -> MarkdownIt:
    """CommonMark without raw HTML, as the pages are parsed: a block's links are its
    inline tokens, which the pages' block-level plugins do not change."""
    return MarkdownIt("commonmark", {"html": False})
