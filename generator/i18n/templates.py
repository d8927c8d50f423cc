"""The messages the templates use, read with Jinja's Babel extractor (as ``babel.cfg``
says): for the catalog check and for ``i18n extract``."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.extract import extract as babel_extract
from jinja2 import TemplateError
from jinja2 import nodes
from jinja2.ext import extract_from_ast

from generator.digests import digest
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.memo import Store
from generator.memo import item_stage

TEMPLATE_WHITESPACE = {"trim_blocks": True, "lstrip_blocks": True,
                       "keep_trailing_newline": True}
"""Jinja's whitespace options of the templates, for rendering them
(:func:`generator.render.environment.make_environment`) and for reading their messages
alike: a ``{% trans %}`` block's message is its text as these options leave it, so a
block written over several lines has one message id in the catalog and on the page."""

TEMPLATE_EXTRACTOR = "jinja2.ext:babel_extract"
TEMPLATE_OPTIONS = {"silent": "false", "newstyle_gettext": "true",
                    "extensions": "jinja2.ext.i18n",
                    **{name: str(on).lower() for name, on in TEMPLATE_WHITESPACE.items()}}
"""How Babel reads the templates' messages (as ``babel.cfg`` says)."""


TEMPLATES_SLOT = "template-messages"
"""The build cache's slot of :func:`template_messages`."""


Parse = Callable[[str, str, str], nodes.Template]
"""A template's syntax tree from its name, source text and file name, as rendering
parses it (:func:`generator.render.environment.parsed_template`)."""


def template_messages(project: Path | Layout, *, cache: Store | None = None,
                      parse: Parse | None = None) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of every message the templates the site uses hold
    (:meth:`generator.layout.Layout.templates`: the project's ``templates/**/*.html``
    but ``static/`` and ``root/``, and the theme's others; the singular of a plural
    message). Jinja's newstyle
    gettext %-formats each of them whether or not it has placeholders, so a lone ``%``
    in their translations would break the build: the catalog check decides by this set,
    the messages' real use, not by the ``#:`` comments a translator can delete.

    A template Jinja cannot parse, or that is not an input file, adds nothing (the
    loading reports it, with its line).

    With ``cache`` (the build cache), the set found for the same template files (names
    and bytes) is taken from it, and a set found is kept there. With ``parse``, each
    template's messages are read from the syntax tree rendering and the template checks
    parse too (Babel's extraction of it: the same messages, as both read the templates
    with :data:`TEMPLATE_WHITESPACE`), not from a parse of Babel's own."""
    layout = Layout.of(project)
    sources = _template_sources(layout)
    key = digest(*(part for label, data in sources for part in (
        label, "-" if data is None else hashlib.sha256(data).hexdigest())))
    return item_stage(cache, TEMPLATES_SLOT, key,
                      lambda: _messages_of(layout, sources, parse),
                      encode=_encoded, decode=_decoded)


Messages = frozenset[tuple[str | None, str]]
"""Messages by (msgctxt, msgid), the singular of a plural message."""


def _template_sources(layout: Layout) -> list[tuple[str, bytes | None]]:
    """Each template the site uses, as its name and path (``name\\0path``) and its bytes,
    ``None`` for one that is not an input file."""
    sources: list[tuple[str, bytes | None]] = []
    for name, rel in layout.templates([]).items():
        try:
            sources.append((f"{name}\0{rel}", layout.read(rel)))
        except NotAnInput:
            sources.append((f"{name}\0{rel}", None))
    return sources


def _encoded(messages: Messages) -> list[list[str | None]]:
    """The messages as the build cache keeps them: ``[context or None, msgid]`` each,
    those without a context first."""
    return sorted(([c, m] for c, m in messages),
                  key=lambda k: (k[0] is not None, k[0] or "", k[1]))


def _decoded(kept: object) -> Messages | None:
    """The messages the build cache keeps (:func:`_encoded`), or ``None``: not of
    that shape."""
    if not isinstance(kept, list) or not all(_is_key(k) for k in kept):
        return None
    return frozenset((k[0], k[1]) for k in kept)


def _is_key(data: object) -> bool:
    """Whether ``data`` is a message's key as stored: ``[context or None, msgid]``."""
    return (isinstance(data, list) and len(data) == 2 and isinstance(data[1], str)
            and (data[0] is None or isinstance(data[0], str)))


def _messages_of(layout: Layout, sources: Iterable[tuple[str, bytes | None]],
                 parse: Parse | None) -> Messages:
    """The messages of every template source (``name\\0label`` and bytes); one that is
    not an input file (``None``), that Jinja cannot parse or that nests too deep adds
    none (the build reports it when it loads it)."""
    found: set[tuple[str | None, str]] = set()
    for label, data in sources:
        if data is None:
            continue
        name, _, rel = label.partition("\0")
        try:
            found |= _messages_in(data) if parse is None else _messages_parsed(
                parse, name, data.decode("utf-8"), str(layout.path(rel)))
        except (TemplateError, UnicodeDecodeError, RecursionError):  # (a tree too deep
            continue  # to walk: thousands of ``+`` in a row, which the template checks say)
    return frozenset(found)


@lru_cache(maxsize=256)
def _messages_in(source: bytes) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of one template's source, extracted once per content (a
    second load in one process, a rebuild or a test, reuses it).

    Raises:
        TemplateError, UnicodeDecodeError: Jinja cannot parse it.
    """
    return _keys(babel_extract(TEMPLATE_EXTRACTOR, io.BytesIO(source),
                               options=TEMPLATE_OPTIONS))


@lru_cache(maxsize=256)
def _messages_parsed(parse: Parse, name: str, source: str, filename: str
                     ) -> frozenset[tuple[str | None, str]]:
    """:func:`_messages_in` from the tree ``parse`` gives (Babel's keywords and their
    arguments, as its extractor takes them from the tree it parses itself).

    Raises:
        TemplateError: Jinja cannot parse it.
    """
    tree = parse(name, source, filename)

    def from_tree(fileobj: object, keywords: Mapping[str, object], comment_tags: object,
                  options: object) -> Iterator[Any]:  # (Babel passes them by name)
        for line, function, message in extract_from_ast(tree, tuple(keywords)):
            yield line, function, message, []

    return _keys(babel_extract(from_tree, io.BytesIO()))


def _keys(extracted: Iterable[tuple[int, str | tuple[str, ...], list[str], str | None]]
          ) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of Babel's extracted messages (the singular of a plural)."""
    return frozenset((context, message[0] if isinstance(message, tuple) else message)
                     for _line, message, _comments, context in extracted)
