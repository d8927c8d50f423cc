"""The theme's and the engine's words shown in English on a page, marked as such.

While a page renders, every message of the theme or the engine that its locale does not
translate comes between :data:`~generator.i18n.explain.ENGLISH_OPEN` and
:data:`~generator.i18n.explain.ENGLISH_CLOSE` (:attr:`generator.i18n.explain.Words.marked`).
:func:`mark_english` then turns each such passage into ``<span class="untranslated"
lang="en">…</span>`` where it is the text of an element, as the pages' own untranslated
blocks are marked (:mod:`generator.render.markdown`), and drops the marks where a span
cannot stand: inside a tag (an attribute's value) and in ``<title>``, ``<script>``,
``<style>`` and ``<textarea>``, whose text is not markup. A passage inside another is
part of the outer span.
"""

from __future__ import annotations

import re

from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.explain import ENGLISH_CLOSE
from generator.i18n.explain import ENGLISH_OPEN

SPAN = f'<span class="untranslated" lang="{SOURCE_LOCALE}">'
"""How a passage shown in English starts (the pages' own untranslated blocks too)."""

_RAW_TEXT = ("title", "script", "style", "textarea")
_TOKEN = re.compile(
    rf"{ENGLISH_OPEN}|{ENGLISH_CLOSE}|<(/?)({'|'.join(_RAW_TEXT)})\b|<|>", re.IGNORECASE)


def mark_english(html: str) -> str:
    """``html`` with its English passages marked (see the module's docstring) and no
    mark left; ``html`` itself when it holds none (one search, no copy).

    The HTML is the theme's (well formed: a ``<`` or ``>`` in text or in an attribute is
    escaped), so a scan for tags' angle brackets tells where a passage stands. A mark
    left open at the end is closed there.
    """
    if ENGLISH_OPEN not in html:
        return html
    out: list[str] = []
    at = 0
    depth = 0  # passages open
    in_tag = False
    raw: str | None = None  # the raw-text element the scan is in
    spanned = False  # whether the outermost open passage became a span
    for token in _TOKEN.finditer(html):
        text = token.group()
        if text == ENGLISH_OPEN:
            out.append(html[at:token.start()])
            at = token.end()
            depth += 1
            if depth == 1:
                spanned = not in_tag and raw is None
                if spanned:
                    out.append(SPAN)
        elif text == ENGLISH_CLOSE:
            out.append(html[at:token.start()])
            at = token.end()
            if depth:
                depth -= 1
                if depth == 0 and spanned:
                    out.append("</span>")
        elif text == ">":
            in_tag = False
        elif raw is not None:  # only its end tag counts there
            if token.group(1) == "/" and token.group(2).lower() == raw:
                in_tag = True
                raw = None
        else:
            in_tag = True
            if token.group(2) and not token.group(1):
                raw = token.group(2).lower()
    out.append(html[at:])
    if depth and spanned:
        out.append("</span>")
    return "".join(out)
