"""Content pages rendered in one locale: each block's translation parsed inline and
rendered, placeholders filled with the locale's numbers (the pages themselves are parsed
once, in :mod:`generator.content.pages`; docs/DESIGN.md, "Content Markdown").
"""

from __future__ import annotations

import html as html_lib
import json
import re
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markupsafe import escape

from generator.content.pages import APP_CHOICE
from generator.content.pages import GENERATED_FENCES
from generator.content.pages import PLACEHOLDER
from generator.content.pages import Fence
from generator.content.pages import Message
from generator.content.pages import SourcePage
from generator.content.pages import make_parser
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Lookups
from generator.i18n.catalog import Translator
from generator.memo import remember
from generator.render.environment import mark_card_codes
from generator.render.views import format_decimal


def _render_app_choice(self: Any, tokens: Sequence[Token], idx: int, options: Any,
                       env: Any) -> str:
    if tokens[idx].nesting == 1:
        label = env["label"]
        text = escape(label("Rule chosen by the app"))
        return f'<aside class="app-choice"><p class="app-choice__label">{text}</p>\n'
    return "</aside>\n"


def _render_fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    if token.info.strip() in GENERATED_FENCES:
        return str(env["fence"](token.meta["fence"], env.get("heading", "")))
    return str(self.rules_default_fence(tokens, idx, options, env))


def local_href(href: str) -> str:
    """A link to a folder of this site made to work from disk too: ``../rules/#x`` →
    ``../rules/index.html#x`` (as MkDocs does without directory URLs)."""
    if not href or "://" in href or href.startswith(("/", "#", "mailto:")):
        return href
    path, hash_, fragment = href.partition("#")
    if path.endswith("/"):
        path += "index.html"
    return path + hash_ + fragment


def _render_link_open(self: Any, tokens: Sequence[Token], idx: int, options: Any,
                      env: Any) -> str:
    token = tokens[idx]
    href = token.attrGet("href")
    if isinstance(href, str):
        token.attrSet("href", local_href(href))
    return str(self.renderToken(tokens, idx, options, env))


def _render_text(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return mark_card_codes(escapeHtml(tokens[idx].content))


def make_markdown() -> MarkdownIt:
    """The page parser (:func:`generator.content.pages.make_parser`) with this site's
    render rules: generated blocks (``cases``, ``deck-table``, ``presets-table``) from the
    renderer's ``env["fence"]``, ``::: app-choice`` as an aside with its translated label,
    links to a folder of the site made to work from disk, card codes in the text (``JK 7♠
    8♠``, not in code spans) marked as the engine's sentences mark them (the filter
    ``card_codes``: left out of the search index)."""
    md = make_parser()
    renderer: Any = md.renderer
    renderer.rules_default_fence = renderer.rules["fence"]
    md.add_render_rule(f"container_{APP_CHOICE}_open", _render_app_choice)
    md.add_render_rule(f"container_{APP_CHOICE}_close", _render_app_choice)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("text", _render_text)
    return md


def fallback_html(html: str, translated: bool) -> str:
    """Inline HTML as the page shows it: when it is not translated, wrapped in the mark
    of an English fallback (``<span class="untranslated" lang="en">``), the same for a
    paragraph, a heading, a page title in the navigation or the table of contents
    (docs/site.md, "Languages")."""
    if translated:
        return html
    return f'<span class="untranslated" lang="{SOURCE_LOCALE}">{html}</span>'


INLINE_MEMO = 20_000
"""How many blocks' inline HTML a process remembers (:data:`_INLINE`)."""
_INLINE: OrderedDict[tuple[str, str], str] = OrderedDict()
"""(the page's link references as JSON, a block's text in a locale) → its inline HTML,
the least recently used forgotten first: the HTML depends on nothing else (the render
rules are the same in every build of a process), so a block is parsed once per process
whatever page, locale or build shows it again (``serve``; untranslated blocks shown in
English in several locales)."""


@dataclass
class LocalePage:
    """One page rendered in one locale.

    Attributes:
        title: the page title as plain text (for ``<title>``; HTML-escaped there).
        title_html: the title as HTML, marked as an English fallback when it is one.
        title_en: the title is not translated and is shown in English.
        summary: the summary as inline HTML (marked when in English), or ``""``.
        summary_en: the summary is shown in English.
        html: the body.
        toc: ``{"id", "title", "title_html", "level"}`` for every ``##`` heading
            (``title`` plain text, ``title_html`` marked like :attr:`title_html`).
        english: the msgids of the blocks the page shows in English (title and body).
    """

    title: str
    title_html: str
    title_en: bool
    summary: str
    summary_en: bool
    html: str
    toc: list[dict[str, object]]
    english: frozenset[str]


class PageRenderer:
    """Renders parsed pages in one locale, caching each translated block.

    Args:
        md: the parser from :func:`make_markdown`.
        translator: the locale's messages.
        facts: the rule numbers for placeholders.
        fence: called with a :class:`Fence` and the plain text of the heading it stands
            under (its caption), returns the generated HTML (safe).
        label: called with an English template string, returns its translation.
    """

    def __init__(
        self,
        md: MarkdownIt,
        translator: Translator,
        facts: Mapping[str, int],
        fence: Callable[[Fence, str], str],
        label: Callable[[str], str],
    ) -> None:
        self.md = md
        self.translator = translator
        self.locale = translator.locale
        self.facts = facts
        self.env: dict[str, Any] = {"fence": fence, "label": label, "heading": ""}
        self._label = label
        self._cache: dict[tuple[int, str], tuple[str, bool, Lookups]] = {}
        self._renderer: Any = md.renderer
        self._numbers: dict[str, str] = {}
        self._env_keys: dict[int, str | None] = {}

    def _number(self, name: str) -> str:
        if name not in self._numbers:
            self._numbers[name] = format_decimal(self.facts[name], locale=self.locale)
        return self._numbers[name]

    def text(self, message: Message) -> tuple[str, bool]:
        """The message's Markdown in this locale, placeholders filled: (text, translated)."""
        if message.params:
            n = self.facts[message.params[0]]
            text, ok = self.translator.ngettext(message.msgid, message.msgid, n)
        else:
            text, ok = self.translator.gettext(message.msgid)
        text = PLACEHOLDER.sub(lambda m: self._number(m.group(1)), text)
        return text.replace("{{", "{").replace("}}", "}"), ok

    def inline(self, message: Message, env: dict[str, Any] | None = None
               ) -> tuple[str, bool]:
        """The message rendered as inline HTML, marked when shown in English.

        Args:
            message: the block.
            env: the page's markdown-it environment, when it defines references.
        """
        html, ok = self._inline(message, env)
        return fallback_html(html, ok), ok

    def _inline(self, message: Message, env: dict[str, Any] | None = None
                ) -> tuple[str, bool]:
        """The message rendered as inline HTML, unmarked: (html, translated); cached,
        its lookups replayed when the cached block is used again (so a page's recorded
        lookups are whole: :meth:`Translator.record`)."""
        key = (id(env) if env else 0, message.msgid)
        hit = self._cache.get(key)
        if hit is None:
            with self.translator.record() as lookups:
                text, ok = self.text(message)
            refs = self._env_key(env)
            html = _INLINE.get((refs, text)) if refs is not None else None
            if html is None:
                children = self.md.parseInline(text, dict(env or {}))[0].children or []
                html = self._renderer.renderInline(children, self.md.options, {})
            if refs is not None:
                remember(_INLINE, (refs, text), html, INLINE_MEMO)
            hit = (html, ok, lookups)
            self._cache[key] = hit
        else:
            self.translator.replay(hit[2])
        return hit[0], hit[1]

    def _env_key(self, env: dict[str, Any] | None) -> str | None:
        """What of a page's markdown-it environment its inline Markdown depends on (its
        link references), as text; ``None`` when it cannot be said as JSON (then its
        blocks are not shared through :data:`_INLINE`)."""
        if not env:
            return ""
        if id(env) not in self._env_keys:
            try:
                self._env_keys[id(env)] = json.dumps(env, sort_keys=True)
            except (TypeError, ValueError):
                self._env_keys[id(env)] = None
        return self._env_keys[id(env)]

    def _plain(self, message: Message, env: dict[str, Any] | None = None
               ) -> tuple[str, str, bool]:
        """A heading or title as plain text and as marked HTML: (text, html, translated)."""
        html, ok = self._inline(message, env)
        text = _strip_tags(html)
        return text, fallback_html(str(escape(text)), ok), ok

    def render(self, page: SourcePage) -> LocalePage:
        """Render ``page`` in this locale."""
        messages = iter(page.messages)
        title, title_html, title_ok = self._plain(next(messages))
        english = set() if title_ok else {page.messages[0].msgid}
        summary, summary_ok = "", True
        if page.summary is not None:  # shown on the home page only
            summary, summary_ok = self.inline(next(messages))
        renderer = self._renderer
        rules = renderer.rules
        out: list[str] = []
        toc: list[dict[str, object]] = []
        pending_heading: tuple[str, int] | None = None  # (id, level)
        label = self._label
        anchor_label = escape(label("Link to this section"))
        self.env["heading"] = title  # a table's caption: the heading it stands under
        tokens = page.tokens
        for idx, token in enumerate(tokens):
            if token.type == "inline":
                if not token.content:
                    continue  # an empty table cell
                message = next(messages)
                html, ok = self.inline(message, page.env)
                if not ok:
                    english.add(message.msgid)
                if pending_heading is not None:
                    text, marked, _ok = self._plain(message, page.env)
                    if pending_heading[1] == 2:
                        toc.append({"id": pending_heading[0], "title": text,
                                    "title_html": marked, "level": 2})
                    self.env["heading"] = text
                out.append(html)
                continue
            if token.type == "heading_open":
                pending_heading = (str(token.attrGet("id") or ""), int(token.tag[1:]))
            elif token.type == "heading_close" and pending_heading is not None:
                if pending_heading[0]:  # every heading with an id links to itself
                    out.append(f' <a class="heading-anchor" href="#{escape(pending_heading[0])}"'
                               f' aria-label="{anchor_label}" data-pagefind-ignore>#</a>')
                pending_heading = None
            rule = rules.get(token.type)
            if rule is not None:
                out.append(rule(tokens, idx, self.md.options, self.env))
            else:
                out.append(renderer.renderToken(tokens, idx, self.md.options, self.env))
        return LocalePage(title, title_html, not title_ok, summary, not summary_ok,
                          "".join(out), toc, frozenset(english))


_TAG = re.compile(r"<[^>]+>")


def _strip_tags(html: str) -> str:
    return html_lib.unescape(_TAG.sub("", html))
