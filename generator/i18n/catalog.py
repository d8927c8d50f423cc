"""Gettext catalogs: reading ``.po`` files with Babel, lookups with visible fallback.

A message that is missing, empty or fuzzy in a locale falls back to the English
source text; every lookup says whether it did, so pages can mark the passage and
the build can count it (docs/site.md, "Languages").
"""

from __future__ import annotations

import gettext
import hashlib
import io
import json
import re
from collections import OrderedDict
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from functools import cache
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.core import UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import PoFileError
from babel.messages.pofile import read_po
from markdown_it import MarkdownIt

from generator.digests import digest
from generator.errors import UNPRINTABLE
from generator.errors import InputError
from generator.errors import control_character
from generator.errors import invisible_only
from generator.errors import visible
from generator.i18n.header import Header
from generator.i18n.header import LocaleForms
from generator.i18n.header import header_errors
from generator.i18n.header import read_header
from generator.i18n.merge import read_previous
from generator.i18n.templates import template_messages
from generator.layout import BUILTIN_LABEL
from generator.layout import LOCALES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_catalog
from generator.layout import catalog as catalog_path
from generator.layout import is_locale_name
from generator.layout import read_regular
from generator.memo import Store
from generator.memo import remember

SOURCE_LOCALE = "en"
"""The language the content is written in."""

_PERCENT = re.compile(r"%\(\w+\)[#0\- +]*\d*(?:\.\d+)?[a-zA-Z]|%\w")
BRACE_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z0-9_.]+)\}(?!\})")
"""A page's placeholder, ``{name}`` (a rule number's name); ``{{`` and ``}}`` stand for
literal braces (:func:`stray_braces`)."""
_BRACES = re.compile(r"\{\{|\}\}|[{}]")
_LONE_PERCENT = re.compile(r"%(?!\(\w+\)[#0\- +]*\d*(?:\.\d+)?[a-zA-Z])")


def placeholders(text: str) -> frozenset[str]:
    """The placeholders of a message as written, conversion included: ``%(num)s``,
    ``%(num)d`` (templates, code; newstyle gettext) and ``{rami51.threshold}`` (content
    prose). A translation must use exactly the source's."""
    return frozenset(_PERCENT.findall(text)) | frozenset(
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


_FORM_HINTS = {
    "cs": "[0] 1, [1] 2-4, [2] other",
    "sk": "[0] 1, [1] 2-4, [2] other",
    "pl": "[0] 1, [1] 2-4 and 22-24…, [2] other",
    "et": "[0] 1, [1] other",
    "de": "[0] 1, [1] other",
    "hu": "[0] 1, [1] other",
}

Key = tuple[str | None, str]
"""A message's key: (msgctxt, msgid); for plural messages the singular msgid."""


@dataclass
class Lookups:
    """The messages looked up while something was rendered (:meth:`Translator.record`).

    Attributes:
        seen: every key looked up.
        fallbacks: the keys among them shown in English.
    """

    seen: set[Key]
    fallbacks: set[Key]

    def as_data(self) -> dict[str, list[list[str | None]]]:
        """As plain data (for the build cache): sorted ``[context, msgid]`` pairs."""
        return {"seen": _pairs(self.seen), "fallbacks": _pairs(self.fallbacks)}

    @classmethod
    def from_data(cls, data: dict[str, list[list[str | None]]]) -> Lookups:
        """The lookups :meth:`as_data` returned.

        Raises:
            ValueError: ``data`` is not of that shape.
        """
        try:
            return cls(*({(None if c is None else str(c), str(m)) for c, m in data[name]}
                         for name in ("seen", "fallbacks")))
        except (KeyError, TypeError) as exc:
            raise ValueError("not the shape of recorded lookups") from exc


def _pairs(keys: set[Key]) -> list[list[str | None]]:
    return [[c, m] for c, m in sorted(keys, key=_key_order)]


@dataclass
class Translator:
    """The messages of one locale and the plural rule of its catalog.

    Attributes:
        locale: the locale code, e.g. ``"sk"``.
        messages: translated messages by key: a string, or a tuple of plural forms.
        plural: the gettext plural rule: ``n`` (an integer) → index of the plural form.
        unused: the messages the catalog holds but does not use (fuzzy, empty, or a
            plural message with an empty form): the ``.po`` line to fix (1-based) and
            what is wrong there, by key.
        fallbacks: keys looked up that fell back to English (filled while rendering).
        seen: every key looked up (filled while rendering).
    """

    locale: str
    messages: dict[Key, str | tuple[str, ...]]
    plural: PluralRule
    unused: dict[Key, tuple[int, str]] = field(default_factory=dict)
    fallbacks: set[Key] = field(default_factory=set)
    seen: set[Key] = field(default_factory=set)
    _said: dict[Key, str] = field(default_factory=dict, repr=False, compare=False)
    """Each key looked up and what the catalog holds for it, as JSON
    (:meth:`messages_digest`)."""

    @contextmanager
    def record(self) -> Iterator[Lookups]:
        """Record the lookups made inside the ``with`` block (they still count in
        :attr:`seen` and :attr:`fallbacks`): what a cached block or page replays
        (:meth:`replay`) when it is used again without rendering."""
        outer = Lookups(self.seen, self.fallbacks)
        inner = Lookups(set(), set())
        self.seen, self.fallbacks = inner.seen, inner.fallbacks
        try:
            yield inner
        finally:
            self.seen, self.fallbacks = outer.seen, outer.fallbacks
            self.replay(inner)

    def as_data(self) -> dict[str, Any]:
        """The compiled catalog as plain data, for the build cache
        (:func:`load_translators`): the locale, ``messages`` as ``[context, msgid,
        text or [forms]]`` and ``unused`` as ``[context, msgid, line, what]``, in order;
        not the lookups (a translator from the cache starts with none) nor the plural
        rule (the locale's, made again)."""
        return {"locale": self.locale,
                "messages": [[c, m, list(t) if isinstance(t, tuple) else t]
                             for (c, m), t in self.messages.items()],
                "unused": [[c, m, line, what] for (c, m), (line, what) in self.unused.items()]}

    @classmethod
    def from_data(cls, data: Any) -> Translator:
        """The translator :meth:`as_data` returned, with no lookups recorded.

        Raises:
            ValueError: ``data`` is not of that shape.
        """
        try:
            locale = data["locale"]
            messages: dict[Key, str | tuple[str, ...]] = {}
            for c, m, t in data["messages"]:
                messages[(_opt_str(c), _str(m))] = (
                    t if isinstance(t, str) else tuple(_str(x) for x in t))
            unused = {(_opt_str(c), _str(m)): (_int(line), _str(what))
                      for c, m, line, what in data["unused"]}
            return cls(_str(locale), messages, plural_rule(locale), unused=unused)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError("not the shape of a cached catalog") from exc

    def messages_digest(self, keys: Iterable[Key]) -> str:
        """The digest of what this catalog holds for each of ``keys``: a translation,
        its plural forms, or nothing (a message missing, fuzzy or with an empty form is
        not held). Two catalogs of a locale give equal digests exactly when every lookup
        of these keys gives the same text: the plural rule is the locale's, not the
        catalog's (:func:`plural_rule`). What the build cache checks before it uses a
        rendered part again (:mod:`generator.render.incremental`).

        Args:
            keys: the ``(context, msgid)`` keys a rendered part looked up
                (:attr:`Lookups.seen`).

        Returns:
            A SHA-256 hex digest.
        """
        said = self._said
        messages = self.messages
        parts = []
        for key in keys:
            text = said.get(key)
            if text is None:  # each key said once per catalog, as JSON: unambiguous,
                # and on one line (JSON writes a newline as \n)
                text = said[key] = json.dumps([*key, messages.get(key)], ensure_ascii=False)
            parts.append(text)
        parts.sort()  # the texts, not the keys: one order for any set, no key function
        return hashlib.sha256("\n".join([self.locale, *parts]).encode()).hexdigest()

    def replay(self, lookups: Lookups) -> None:
        """Count ``lookups`` as made now (a cached block or page shown again)."""
        self.seen |= lookups.seen
        self.fallbacks |= lookups.fallbacks

    def gettext(self, msgid: str, context: str | None = None) -> tuple[str, bool]:
        """The translation of ``msgid``: (text, translated); English when not translated."""
        self.seen.add((context, msgid))
        found = self.messages.get((context, msgid))
        if isinstance(found, str):
            return found, True
        if isinstance(found, tuple) and found:
            return found[0], True
        if self.locale != SOURCE_LOCALE:
            self.fallbacks.add((context, msgid))
        return msgid, self.locale == SOURCE_LOCALE

    def ngettext(
        self, singular: str, plural: str, n: int, context: str | None = None
    ) -> tuple[str, bool]:
        """The plural form of ``singular``/``plural`` for count ``n``: (text, translated)."""
        self.seen.add((context, singular))
        found = self.messages.get((context, singular))
        if isinstance(found, tuple):
            index = self.plural(n)
            if index < len(found):
                return found[index], True
        if self.locale != SOURCE_LOCALE:
            self.fallbacks.add((context, singular))
        return (singular if n == 1 else plural), self.locale == SOURCE_LOCALE


def _str(data: Any) -> str:
    if not isinstance(data, str):
        raise ValueError("not a string")
    return data


def _opt_str(data: Any) -> str | None:
    return None if data is None else _str(data)


def _int(data: Any) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise ValueError("not a whole number")
    return data


class PluralRule:
    """A gettext plural rule compiled from a ``Plural-Forms`` header (e.g. cs: 3 forms).

    Calling it with a count returns the index of the plural form to use.
    """

    def __init__(self, expression: str, nplurals: int) -> None:
        self.nplurals = nplurals
        self.expression = expression
        self._fn = gettext.c2py(expression)

    def __call__(self, n: int) -> int:
        return int(self._fn(n))


def plural_rule(locale: str) -> PluralRule:
    """The gettext plural rule Babel gives for ``locale`` (CLDR-derived; cs/sk: 3 forms)."""
    info = get_plural(locale)
    return PluralRule(info.plural_expr, info.num_plurals)


def source_translator() -> Translator:
    """The English translator: every msgid is its own text."""
    return Translator(SOURCE_LOCALE, {}, plural_rule(SOURCE_LOCALE))


def _msgstr_lines(entries: Iterable[dict[str, Any]]) -> dict[int, dict[int, int]]:
    """The line of each ``msgstr`` (by form: 0 for a message without plural forms) of
    every message, by the line of its ``msgid`` (where Babel says the message is)."""
    found: dict[int, dict[int, int]] = {}
    for entry in entries:
        lines = entry.get("lines", {})
        if "msgid" in lines:
            forms = entry.get("forms") or ({0: lines["msgstr"]} if "msgstr" in lines else {})
            found[lines["msgid"]] = dict(forms)
    return found


def _check_translations(
    catalog: Catalog, rel: str, msgstrs: dict[int, dict[int, int]], errors: list[InputError],
    template_keys: AbstractSet[Key],
) -> None:
    """Every translation: no control character (:data:`~generator.errors.UNPRINTABLE`:
    it would reach the pages as it is); none that shows nothing (white space, U+200B)
    for a source that shows something (a title, a link would be blank); its
    placeholders and link targets against its source; a lone ``%`` in a
    message that is %-formatted: one the templates use (``template_keys``: newstyle
    gettext formats them all) or whose msgid has ``%(name)`` placeholders (the
    code formats those). Decided by the messages' use, never by their ``#:`` comments or
    flags, which a translator can delete."""
    for message in catalog:
        if not message.id or not message.string or message.fuzzy:
            continue  # a fuzzy translation is not used: the English is shown
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = placeholders(str(ids[0]))
        links = link_targets(str(ids[0]))
        formatted = "%(" in str(ids[0]) or (message.context, str(ids[0])) in template_keys
        # a page's text, whose placeholders and doubled braces the pages fill
        braced = BRACE_PLACEHOLDER.search(str(ids[0])) is not None or "{{" in str(ids[0]) \
            or "}}" in str(ids[0])
        for index, text in enumerate(strings):
            if not text:
                continue
            line = msgstrs.get(message.lineno or 1, {}).get(index, message.lineno or 1)
            control = UNPRINTABLE.search(str(text))
            if control is not None:
                errors.append(InputError(rel, line, None, control_character(
                    control.group(), " in the translation")))
            elif (not any(visible(char) for char in str(text))
                  and any(visible(char) for char in str(ids[0]))):
                held = invisible_only(str(text)) or "only white space"
                errors.append(InputError(
                    rel, line, None,
                    f"the translation shows nothing ({held}); "
                    "expected the text in the catalog's language, or an empty msgstr (the "
                    "English is shown)"))
            elif formatted and _LONE_PERCENT.search(str(text).replace("%%", "")):
                errors.append(InputError(
                    rel, line, None,
                    "a lone '%' in a message that is %-formatted (template or code text); "
                    "expected %% for a percent sign",
                ))
            elif braced and (stray := stray_braces(str(text))):
                errors.append(InputError(rel, line, None, "in the translation: "
                                         + malformed_placeholder(stray[0][1], (
                                             m.group(1) for m in
                                             BRACE_PLACEHOLDER.finditer(str(ids[0]))))))
            else:
                for what, found, want in (("placeholders", placeholders(str(text)), expected),
                                          ("link targets", link_targets(str(text)), links)):
                    if found != want:
                        errors.append(InputError(
                            rel, line, None,
                            f"translation's {what} ({', '.join(sorted(found)) or 'none'}) "
                            f"differ from the source's; expected "
                            f"{', '.join(sorted(want)) or 'none'}",
                        ))
                        break


_STRING = r'"((?:[^"\\]++|\\.)*+)"'
"""A quoted string; possessive, so that matching a long line keeps no backtracking state
(memory constant, not about 40 bytes per character)."""
_KEYWORD = re.compile(r'^\s*(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+'
                      + _STRING + r'\s*$')
_CONTINUATION = re.compile(r'^\s*' + _STRING + r'\s*$')


def _lex(data: bytes, rel: str, locale: str | None = None
         ) -> tuple[list[dict[str, Any]], list[InputError]]:
    """The entries of a catalog as written, and what Babel's lenient reader would accept
    in part or silently: a line that is not a comment, blank, keyword or quoted
    continuation (an unterminated string, stray text); a message given twice;
    ``msgstr[N]`` without ``msgid_plural``; a second header entry, or one with a
    ``msgctxt``; a header that gettext's tools and Babel would read differently, or
    whose charset is not UTF-8, or whose ``Plural-Forms`` is missing (with plural
    messages) or disagrees with the locale's gettext rule (:mod:`generator.i18n.header`,
    when ``locale`` is given).

    Each entry holds its strings by keyword (``msgctxt``, ``msgid``, ``plural``,
    ``msgstr``), ``lines`` (the line of each keyword), ``parts`` (the ``msgstr``'s
    quoted strings as written, each with its line) and, for a plural message,
    ``forms``: the line of each ``msgstr[N]`` by ``N`` (Babel keeps only the msgid's
    line, and pads forms that are not written with empty ones)."""
    errors: list[InputError] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + 1
        return [], [InputError(rel, bad_line, None, "the catalog is not valid UTF-8; "
                               "expected UTF-8 text")]
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {}  # a string's parts as a list, joined when the entry is done
    last = ""
    # Lines as Babel's reader and gettext split them, at LF alone (str.splitlines also
    # splits at a form feed or U+2028 inside a string: "bad .po syntax", later lines
    # numbered one off).
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        found = _KEYWORD.match(line)
        if found:
            keyword = found.group(1)
            if keyword in ("msgctxt", "msgid") and (
                    "msgstr" in entry or "plural" in entry or keyword in entry
                    or (keyword == "msgctxt" and "msgid" in entry)):
                entries.append(_joined(entry))
                entry = {}
            base = "msgstr" if keyword.startswith("msgstr") else keyword
            if base == "msgstr" and found.group(2) is None and "msgstr" in entry:
                errors.append(InputError(rel, number, None, "a second msgstr for one message; "
                                         "expected one msgstr (or msgstr[N] for plurals)"))
            if base == "msgstr" and found.group(2) is not None:
                entry.setdefault("forms", {})[int(found.group(2))] = number
            entry[base if base != "msgid_plural" else "plural"] = [found.group(3)]
            entry.setdefault("lines", {})[base] = number
            if keyword == "msgstr":
                entry["parts"] = [(found.group(3), number)]
            last = base if base != "msgid_plural" else "plural"
            continue
        more = _CONTINUATION.match(line)
        if more and last:
            entry.setdefault(last, []).append(more.group(1))
            if last == "msgstr" and "parts" in entry:
                entry["parts"].append((more.group(1), number))
            continue
        errors.append(InputError(
            rel, number, None,
            f"bad .po syntax: {stripped[:40]!r}; expected a keyword (msgctxt, msgid, "
            'msgid_plural, msgstr, msgstr[N]) and a quoted "string", or a quoted '
            "continuation line",
        ))
    if entry:
        entries.append(_joined(entry))
    seen: dict[tuple[str | None, str], int] = {}
    header: Header | None = None
    header_at = 0  # the header's msgid line
    plural_line: int | None = None
    for item in entries:
        lines = item.get("lines", {})
        where = lines.get("msgid", 1)
        key = (item.get("msgctxt"), item.get("msgid", ""))
        if key in seen and key[1]:
            errors.append(InputError(rel, where, None, f"message {key[1][:40]!r} given "
                                     f"twice (first at line {seen[key]}); expected each "
                                     "message once"))
        seen.setdefault(key, where)
        if item.get("forms") and "plural" not in item:
            errors.append(InputError(rel, min(item["forms"].values()), None, "msgstr[N] for "
                                     "a message without msgid_plural; expected a plain "
                                     "msgstr"))
        if "plural" in item and plural_line is None:
            plural_line = where
        if key[1] or "plural" in item:
            continue
        # an empty msgid: the header entry, which Babel also takes with a msgctxt
        if header is not None or key[0] is not None:
            errors.append(InputError(rel, where, None, (
                "msgctxt on a message with an empty msgid, which Babel reads as the header"
                if key[0] is not None else
                f"a second header entry (msgid \"\"; the first at line {header_at})")
                + '; expected one header entry, msgid "" without msgctxt'))
            continue
        header, header_errors_found = read_header(item.get("parts", []), rel)
        header_at = where
        errors.extend(header_errors_found)
    forms = None if locale is None else _locale_forms(locale)
    errors.extend(header_errors(header, plural_line, rel, forms))
    return entries, errors


def _joined(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry of :func:`_lex` with each string's parts joined."""
    return {key: "".join(value) if key in _STRINGS else value for key, value in entry.items()}


_STRINGS = frozenset({"msgctxt", "msgid", "plural", "msgstr"})


@lru_cache(maxsize=64)
def _locale_forms(locale: str) -> LocaleForms:
    """What ``locale``'s ``Plural-Forms`` must say (:class:`LocaleForms`)."""
    rule = plural_rule(locale)
    return LocaleForms(locale, rule.nplurals, rule.expression,
                       lambda expression: _plural_differs(expression, rule))


PLURAL_CHECKED = (*range(1000), *(10**k + d for k in range(3, 10) for d in range(-2, 25)))
"""The counts at which a catalog's own plural expression is compared with the locale's:
0-999 (every rule of CLDR's gettext forms repeats within ``n % 100`` from 100 on) and
a few around each power of ten up to 10⁹ (a rule that singles out a large count)."""


def _plural_differs(expression: str, rule: PluralRule) -> str | None:
    """Why a catalog's plural expression is not the locale's ``rule`` (translators'
    tools number the forms by it: msgstr[1] written for "2-4" is shown for the counts
    the locale's rule gives form 1), or ``None`` when it picks the same form for every
    count of :data:`PLURAL_CHECKED` (written alike or not)."""
    if " ".join(expression.split()) == " ".join(rule.expression.split()):
        return None
    try:
        theirs = PluralRule(expression, rule.nplurals)
    except (ValueError, SyntaxError, RecursionError):  # gettext.c2py's refusals
        return "which gettext cannot read"
    for n in PLURAL_CHECKED:
        try:
            form = theirs(n)
        except ArithmeticError:  # n/0, n%0
            return f"which gettext cannot work out for {n}"
        if form != rule(n):
            return f"which gives msgstr[{form}] for {n} where the locale uses msgstr[{rule(n)}]"
    return None


def _for_babel(data: bytes) -> bytes:
    """The catalog with ``#~|`` lines (previous msgids of obsolete messages, which
    ``msgmerge --previous`` writes and Babel cannot read) turned into plain comments,
    so that line numbers stay the same."""
    return re.sub(rb"(?m)^#~\|", b"# ~|", data)


def restore_previous_lines(data: bytes) -> bytes:
    """The ``#~|`` lines :func:`_for_babel` turned into comments, as they were (Babel
    writes a comment as ``# `` and its text)."""
    return re.sub(rb"(?m)^# ~\|", b"#~|", data)


def read_for_update(data: bytes, rel: str, locale: str) -> Catalog:
    """A catalog read for ``i18n update``: as :func:`check_catalog_syntax` reads it, so
    that nothing it accepts is dropped (``#~|`` lines become comments that
    :func:`restore_previous_lines` turns back; ``#|`` lines a fuzzy message's previous
    msgid: :func:`generator.i18n.merge.read_previous`), and only when it passes that check (a
    header Babel would read otherwise than gettext, e.g. with a million plural forms or
    another charset, would be written back so).

    Raises:
        NotAnInput: it does not pass :func:`check_catalog_syntax`, or Babel cannot read
            it (the first error, at its line).
    """
    errors = _lex(data, rel, locale)[1]
    if errors:
        raise NotAnInput(errors[0])
    catalog, errors = _read_catalog(data, rel, locale)
    if catalog is None:
        raise NotAnInput(errors[0])
    return read_previous(catalog)


def check_catalog_syntax(path: Path, rel: str, data: bytes | None = None,
                         locale: str | None = None) -> list[InputError]:
    """The syntax errors of a ``.po`` file (before ``i18n update`` rewrites it: Babel's
    reader would silently drop what it cannot read), its header's included, checked as
    :func:`load_translator` checks them.

    Args:
        path: the file (read only when ``data`` is ``None``, and only if it is a
            regular file).
        rel: its path relative to the project, for error messages.
        data: the file's bytes, when already read (through the project's layout).
        locale: the catalog's locale: its header's ``Plural-Forms`` must be the
            locale's (``None``: only its form is checked).
    """
    try:
        data = read_catalog_file(path, rel) if data is None else data
    except NotAnInput as exc:
        return [exc.error]
    errors = _lex(data, rel, locale)[1]
    if not errors:
        errors.extend(_read_catalog(data, rel, None)[1])
    return errors


MAX_CATALOG_BYTES = 10_000_000
"""The largest catalog read (10 MB; this site's are about 120 KB): a larger one is an
input error, refused before it is read."""


def read_catalog_file(path: Path, rel: str, layout: Layout | None = None) -> bytes:
    """A catalog's bytes: a regular file (inside the project, when ``layout`` is given)
    of at most :data:`MAX_CATALOG_BYTES`, checked before it is read.

    Raises:
        NotAnInput: not such a file, too large, or it cannot be read (at ``rel:1``).
    """
    limit = {"limit": MAX_CATALOG_BYTES, "what": "catalog",
             "advice": "remove the obsolete (#~) messages, or shorten the translations"}
    if layout is not None:
        return layout.read(rel, **limit)  # type: ignore[arg-type]
    return read_regular(path, rel, **limit)  # type: ignore[arg-type]


def _read_catalog(data: bytes, rel: str, locale: str | None
                  ) -> tuple[Catalog | None, list[InputError]]:
    """Babel's reading of a catalog that passed :func:`_lex`; what Babel still
    refuses becomes one input error on one line."""
    try:
        return read_po(io.BytesIO(_for_babel(data)), locale=locale, abort_invalid=True), []
    except PoFileError as exc:
        line = (getattr(exc, "lineno", 0) or 0) + 1
        text = " ".join(str(exc).split())
        return None, [InputError(rel, line, None, f"bad .po syntax: {text[:120]}; expected "
                                 "a gettext catalog")]
    except (LookupError, ValueError) as exc:
        text = " ".join(str(exc).split())
        return None, [InputError(rel, 1, None, f"the catalog cannot be read: {text[:120]}; "
                                 "expected a UTF-8 gettext catalog with a valid header")]


def load_translator(path: Path, rel: str, locale: str, data: bytes | None = None, *,
                    template_keys: AbstractSet[Key] = frozenset()
                    ) -> tuple[Translator, list[InputError]]:
    """Read one ``.po`` file into a :class:`Translator`.

    Args:
        path: the ``.po`` file (read only when ``data`` is ``None``, and only if it is
            a regular file).
        rel: its path relative to the project, for error messages.
        locale: the locale code (the folder name under ``locales/``).
        data: the file's bytes, when already read (through the project's layout).
        template_keys: the messages the templates use
            (:func:`generator.i18n.templates.template_messages`): Jinja %-formats them, so
            a lone ``%`` in their translations is an error.

    Returns:
        The translator (fuzzy and empty messages left out, so they fall back to English)
        and the input errors found: bad syntax, unknown locale, a wrong number of plural
        forms, placeholders that differ from the source.
    """
    bad_name = locale_error(locale)
    if bad_name is not None:
        return source_translator(), [bad_name]
    try:
        data = read_catalog_file(path, rel) if data is None else data
    except NotAnInput as exc:
        return source_translator(), [exc.error]
    translator, found = _compiled(rel, locale, data, frozenset(template_keys))
    # A fresh translator each time: what a build looks up is its own.
    return replace(translator, fallbacks=set(), seen=set()), list(found)


@lru_cache(maxsize=32)
def _compiled(rel: str, locale: str, data: bytes, template_keys: frozenset[Key]
              ) -> tuple[Translator, list[InputError]]:
    """:func:`load_translator`'s work on a catalog's bytes, done once per content (and
    per set of template messages): a second build in one process (tests, a rebuild)
    reuses it. Neither the translator's ``messages`` nor the list is changed after
    this; callers copy the lookup sets and the list."""
    errors: list[InputError] = []
    entries, errors = _lex(data, rel, locale)
    if errors:
        return source_translator(), errors
    read, errors = _read_catalog(data, rel, locale)
    if read is None:
        return source_translator(), errors
    catalog = read
    rule = plural_rule(locale)
    msgstrs = _msgstr_lines(entries)
    _check_translations(catalog, rel, msgstrs, errors, template_keys)
    messages: dict[Key, str | tuple[str, ...]] = {}
    unused: dict[Key, tuple[int, str]] = {}
    for message in catalog:
        if not message.id:
            continue
        where = message.lineno or 1
        key = (message.context, str(message.id[0] if isinstance(message.id, tuple)
                                    else message.id))
        lines = msgstrs.get(where, {})
        if message.fuzzy:
            unused[key] = (where, "fuzzy translation")
            continue
        if isinstance(message.id, tuple):
            forms = tuple(message.string) if isinstance(message.string, tuple) else ()
            if any(forms) and len(lines) != rule.nplurals:
                # Babel pads forms that are not written with "" (and refuses extra ones).
                errors.append(InputError(
                    rel, where, None,
                    f"{len(lines)} plural forms; expected {rule.nplurals} for {locale} "
                    f"(gettext order: {_FORM_HINTS.get(locale, 'see Plural-Forms')})",
                ))
            elif forms and all(forms):
                messages[key] = forms
            else:
                # One empty form leaves the message untranslated as a whole (docs/site.md).
                empty = next((i for i, f in enumerate(forms) if not f), 0)
                unused[key] = (lines.get(empty, where), f"empty form msgstr[{empty}] in the "
                               "translation")
        elif isinstance(message.string, str) and message.string:
            messages[key] = message.string
        else:
            unused[key] = (lines.get(0, where), "empty translation")
    return Translator(locale, messages, rule, unused=unused), errors


def locale_error(name: str) -> InputError | None:
    """Whether ``name`` (a folder under ``locales/``) is a locale identifier Babel knows
    and writes back the same (``Locale.parse`` alone accepts any text after ``@``, and
    the name goes into folder names, ``lang`` attributes and ``sitemap.xml``).

    Returns:
        ``None`` for a good name; else the input error at ``locales/<name>:1`` (control
        characters in the name shown escaped, so the error stays one line).
    """
    shown = name.encode("unicode_escape").decode("ascii")
    if is_locale_name(name):
        try:
            if str(Locale.parse(name)) == name:
                return None
        except (UnknownLocaleError, ValueError):
            pass
    return InputError(f"{LOCALES}/{shown}", 1, None, f"the folder name '{shown}' is not a "
                      "locale Babel knows; expected a locale identifier such as cs or pt_BR")


SCRIPT_MODIFIERS = {"latin": "Latn", "cyrillic": "Cyrl", "arabic": "Arab",
                    "devanagari": "Deva", "greek": "Grek", "hebrew": "Hebr"}
"""The gettext modifiers (``@latin``) that name a script, and the script's ISO 15924
code (the subtag a language tag gives it: ``sr@latin`` is ``sr-Latn``)."""


@cache
def language_tag(locale: str) -> str:
    """The BCP 47 language tag of the locale identifier ``locale`` (Babel's and gettext's
    form, a folder's name under ``locales/``), as HTML's ``lang`` and ``hreflang`` and
    the sitemap's ``hreflang`` take it: its parts joined by ``-``, each as BCP 47 writes
    it: ``pt_BR`` → ``pt-BR``, ``sr_Latn_RS`` → ``sr-Latn-RS``, ``ca_ES_VALENCIA`` →
    ``ca-ES-valencia``. A ``@modifier`` that names a script (:data:`SCRIPT_MODIFIERS`)
    is its script subtag (``cs@latin`` → ``cs-Latn``) where the identifier names no
    script; one of a variant subtag's form (five to eight letters or digits, or a digit
    and three more) is a variant (``be@tarask`` → ``be-tarask``); any other (``@euro``)
    has no subtag in BCP 47 and is left out. An identifier Babel does not know (refused
    as an input error where a site names it) keeps its letters and digits, ``-``
    between them."""
    try:
        parsed = Locale.parse(locale)
    except (UnknownLocaleError, ValueError, TypeError):
        return "-".join(part for part in re.split(r"[^A-Za-z0-9]+", locale) if part) or "und"
    script = parsed.script
    variants = [parsed.variant.lower()] if parsed.variant else []
    modifier = (parsed.modifier or "").lower()
    if modifier in SCRIPT_MODIFIERS:
        script = script or SCRIPT_MODIFIERS[modifier]
    elif _VARIANT.fullmatch(modifier) and modifier not in variants:
        variants.append(modifier)
    parts = [parsed.language, script, parsed.territory, *variants]
    return "-".join(part for part in parts if part)


_VARIANT = re.compile(r"[a-z0-9]{5,8}|[0-9][a-z0-9]{3}")
"""A BCP 47 variant subtag (RFC 5646, 2.1), lower case."""


def discover_locales(project: Path | Layout) -> list[str]:
    """Locale codes with a catalog (``locales/<lang>/LC_MESSAGES/messages.po``), sorted."""
    return Layout.of(project).catalog_locales()


def site_locales(project: Path | Layout, languages: Sequence[str] | None) -> list[str]:
    """The locales a site is built in, the default first: ``site.yaml``'s
    ``languages`` where it sets them, else English (the source) and every locale with a
    catalog in ``locales/``, sorted."""
    if languages is not None:
        return list(languages)
    return [SOURCE_LOCALE, *(x for x in discover_locales(project) if x != SOURCE_LOCALE)]


CATALOG_SLOT = "catalog:"
"""The build cache's slot of a locale's compiled messages (the site's catalog over the
built-in one): this and the locale (``catalog:de``)."""


def builtin_label(locale: str) -> str:
    """How messages name the built-in catalog of ``locale``:
    ``generator/locales/<locale>/LC_MESSAGES/messages.po``."""
    return f"{BUILTIN_LABEL}/{locale}/LC_MESSAGES/messages.po"


def builtin_bytes(locale: str) -> bytes | None:
    """The bytes of the package's built-in catalog of ``locale`` (the theme's and the
    engine's messages), or ``None`` when the package has none for it."""
    path = builtin_catalog(locale)
    if not path.is_file():
        return None
    return read_regular(path, builtin_label(locale), limit=MAX_CATALOG_BYTES,
                        what="catalog", advice="")


def layered(builtin: Translator | None, site: Translator) -> Translator:
    """A locale's messages: the site's catalog over the built-in one (a message the
    site translates is the site's; one it leaves empty, fuzzy or out is the built-in
    one's). What neither translates falls back to English; the site's empty or fuzzy
    entries for such messages stay in ``unused`` (``--strict`` names their lines)."""
    if builtin is None:
        return site
    messages = {**builtin.messages, **site.messages}
    unused = {**{k: v for k, v in builtin.unused.items() if k not in messages},
              **{k: v for k, v in site.unused.items() if k not in messages}}
    return Translator(site.locale, messages, site.plural, unused=unused)


def load_translators(
    project: Path | Layout, locales: Iterable[str], *, cache: Store | None = None
) -> tuple[dict[str, Translator], list[InputError]]:
    """Every locale's translator (English, the source, has none: its msgids are its
    text), with every catalog error: the site's catalog (read through the project's
    layout: only a regular file inside it) over the package's built-in one
    (:func:`layered`). A locale needs neither: without both, every message falls back to
    English.

    Args:
        project: the project folder, or its layout.
        locales: the locale codes to load.
        cache: the build cache: the messages compiled without errors from the same
            bytes (both catalogs) against the same template messages are taken from it
            (:meth:`Translator.from_data`), every other one is compiled and, when it
            has no error, kept. A catalog with errors is never kept, so that its
            errors are always found by reading it.

    Returns:
        (the translators by locale, every catalog error).
    """
    layout = Layout.of(project)
    translators = {SOURCE_LOCALE: source_translator()}
    errors: list[InputError] = []
    template_keys = template_messages(project, cache=cache)
    keys_digest = digest(*(part for c, m in sorted(template_keys, key=_key_order)
                           for part in ("" if c is None else f"c{c}", m)))
    for locale in locales:
        if locale == SOURCE_LOCALE:
            continue
        rel = catalog_path(locale)
        data: bytes | None = None  # a name that is no locale is reported before reading
        builtin: bytes | None = None
        if locale_error(locale) is None:
            builtin = builtin_bytes(locale)
            if layout.exists(rel):
                try:
                    data = read_catalog_file(layout.path(rel), rel, layout)
                except NotAnInput as exc:
                    translators[locale] = source_translator()
                    errors.append(exc.error)
                    continue
        key = digest(*(hashlib.sha256(d).hexdigest() if d is not None else "-"
                       for d in (data, builtin)), rel, keys_digest)
        cached = _cached_translator(cache, locale, key)
        if cached is not None:
            translators[locale] = cached
            continue
        found: list[InputError] = []
        if data is None and locale_error(locale) is None:
            site = Translator(locale, {}, plural_rule(locale))  # the built-in one alone
        else:
            site, errs = load_translator(layout.path(rel), rel, locale, data or b"",
                                         template_keys=template_keys)
            found.extend(errs)
        base = None
        if builtin is not None:
            # the package's own catalog: compiled once per content, as a site's is
            base, errs = _compiled(builtin_label(locale), locale, builtin, frozenset())
            found.extend(errs)
        translators[locale] = layered(base, site)
        errors.extend(found)
        if cache is not None and not found:
            cache.store(CATALOG_SLOT + locale, key, translators[locale].as_data())
    return translators, errors


def _key_order(key: Key) -> tuple[bool, str, str]:
    return (key[0] is not None, key[0] or "", key[1])


def _cached_translator(cache: Store | None, locale: str, key: str
                       ) -> Translator | None:
    """Locale ``locale``'s translator for inputs of digest ``key`` as the cache keeps
    it, or ``None``."""
    if cache is None:
        return None
    found = cache.load(CATALOG_SLOT + locale, key, shared=True)
    if found is None:
        return None
    kept = _KEPT.get(key)
    if kept is None:
        try:
            kept = Translator.from_data(found)
        except ValueError:
            return None  # checksummed and of this generator, yet not a catalog: read again
    remember(_KEPT, key, kept, KEPT)
    # A translator of its own (its lookups are this build's), sharing the messages and
    # what messages_digest said of them, which no one changes.
    return replace(kept, seen=set(), fallbacks=set()) if kept.locale == locale else None


KEPT = 32
"""How many compiled catalogs a process remembers (``serve`` builds again and again)."""
_KEPT: OrderedDict[str, Translator] = OrderedDict()
"""The translators :func:`_cached_translator` made, by their inputs' digest: a build in
the same process takes the same catalog without making it again, and without saying its
messages again for :meth:`Translator.messages_digest`."""
