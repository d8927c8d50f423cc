"""The messages the templates use, read with Jinja's Babel extractor (as ``babel.cfg``
says): for the catalog check and for ``i18n extract``."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from babel.messages.extract import extract as babel_extract
from jinja2 import TemplateError

from generator.layout import Layout
from generator.layout import NotAnInput

TEMPLATE_EXTRACTOR = "jinja2.ext:babel_extract"
TEMPLATE_OPTIONS = {"silent": "false", "newstyle_gettext": "true",
                    "extensions": "jinja2.ext.i18n"}
"""How Babel reads the templates' messages (as ``babel.cfg`` says)."""


def template_messages(project: Path | Layout) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of every message the templates the site uses hold
    (:meth:`generator.layout.Layout.templates`: the project's ``templates/**/*.html``
    but ``static/`` and ``root/``, and the theme's others; the singular of a plural
    message). Jinja's newstyle
    gettext %-formats each of them whether or not it has placeholders, so a lone ``%``
    in their translations would break the build: the catalog check decides by this set,
    the messages' real use, not by the ``#:`` comments a translator can delete.

    A template Jinja cannot parse, or that is not an input file, adds nothing (the
    loading reports it, with its line)."""
    layout = Layout.of(project)
    found: set[tuple[str | None, str]] = set()
    for rel in layout.templates([]).values():
        try:
            found |= _messages_in(layout.read(rel))
        except (TemplateError, UnicodeDecodeError, NotAnInput):
            continue  # reported when the build loads the template
    return frozenset(found)


@lru_cache(maxsize=256)
def _messages_in(source: bytes) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of one template's source, extracted once per content (a
    second load in one process, a rebuild or a test, reuses it).

    Raises:
        TemplateError, UnicodeDecodeError: Jinja cannot parse it.
    """
    return frozenset(
        (context, message[0] if isinstance(message, tuple) else message)
        for _line, message, _comments, context in babel_extract(
            TEMPLATE_EXTRACTOR, io.BytesIO(source), options=TEMPLATE_OPTIONS))
