"""Gettext catalogs: reading ``.po`` files with Babel, lookups with visible fallback.

A message that is missing, empty or fuzzy in a locale falls back to the English
source text; every lookup says whether it did, so pages can mark the passage and
the build can count it (docs/site.md, "Languages").
"""

from __future__ import annotations

import hashlib
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
from functools import partial
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.core import UnknownLocaleError

from generator.digests import digest
from generator.errors import InputError
from generator.i18n.placeholders import BRACE_PLACEHOLDER as BRACE_PLACEHOLDER
from generator.i18n.placeholders import malformed_placeholder as malformed_placeholder
from generator.i18n.placeholders import stray_braces as stray_braces
from generator.i18n.plurals import FORM_HINTS
from generator.i18n.plurals import PluralRule
from generator.i18n.plurals import plural_rule
from generator.i18n.plurals import single_count_forms
from generator.i18n.pofile import MAX_CATALOG_BYTES
from generator.i18n.pofile import lex
from generator.i18n.pofile import msgstr_lines
from generator.i18n.pofile import read_catalog
from generator.i18n.pofile import read_catalog_file
from generator.i18n.templates import Parse
from generator.i18n.templates import template_messages
from generator.i18n.translation_checks import check_translations
from generator.layout import BUILTIN_LABEL
from generator.layout import LOCALES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_catalog
from generator.layout import catalog as catalog_path
from generator.layout import is_locale_name
from generator.layout import read_regular
from generator.memo import Store
from generator.memo import item_stage
from generator.memo import remember

SOURCE_LOCALE = "en"
"""The language the content is written in."""

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
    """Keys as sorted ``[context, msgid]`` pairs (:func:`_key_order`)."""
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
        key = (context, msgid)
        self.seen.add(key)
        found = self.messages.get(key)
        if isinstance(found, str):
            return found, True
        if isinstance(found, tuple) and found:
            return found[0], True
        if self.locale != SOURCE_LOCALE:
            self.fallbacks.add(key)
        return msgid, self.locale == SOURCE_LOCALE

    def ngettext(
        self, singular: str, plural: str, n: int, context: str | None = None
    ) -> tuple[str, bool]:
        """The plural form of ``singular``/``plural`` for count ``n``: (text, translated)."""
        key = (context, singular)
        self.seen.add(key)
        found = self.messages.get(key)
        if isinstance(found, tuple):
            index = self.plural(n)
            if index < len(found):
                return found[index], True
        if self.locale != SOURCE_LOCALE:
            self.fallbacks.add(key)
        return (singular if n == 1 else plural), self.locale == SOURCE_LOCALE


def _str(data: Any) -> str:
    """``data`` where it is a string.

    Raises:
        ValueError: it is not.
    """
    if not isinstance(data, str):
        raise ValueError("not a string")
    return data


def _opt_str(data: Any) -> str | None:
    """``data`` where it is a string or ``None`` (:func:`_str`)."""
    return None if data is None else _str(data)


def _int(data: Any) -> int:
    """``data`` where it is a whole number (not a bool).

    Raises:
        ValueError: it is not.
    """
    if not isinstance(data, int) or isinstance(data, bool):
        raise ValueError("not a whole number")
    return data


def source_translator() -> Translator:
    """The English translator: every msgid is its own text."""
    return Translator(SOURCE_LOCALE, {}, plural_rule(SOURCE_LOCALE))


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
    entries, errors = lex(data, rel, locale)
    if errors:
        return source_translator(), errors
    read, errors = read_catalog(data, rel, locale)
    if read is None:
        return source_translator(), errors
    catalog = read
    rule = plural_rule(locale)
    msgstrs = msgstr_lines(entries)
    errors.extend(check_translations(catalog, rel, msgstrs, template_keys,
                                     single_count_forms(locale)))
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
                    f"(gettext order: {FORM_HINTS.get(locale, 'see Plural-Forms')})",
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
    project: Path | Layout, locales: Iterable[str], *, cache: Store | None = None,
    parse: Parse | None = None
) -> tuple[dict[str, Translator], list[InputError]]:
    """Every locale's translator (English, the source, has none: its msgids are its
    text), with every catalog error: the site's catalog (read through the project's
    layout: only a regular file inside it) over the package's built-in one
    (:func:`layered`). A locale needs neither: without both, every message falls back to
    English.

    Args:
        project: the project folder, or its layout.
        locales: the locale codes to load.
        parse: how rendering parses a template, for the messages the templates use
            (:func:`generator.i18n.templates.template_messages`).
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
    template_keys = template_messages(project, cache=cache, parse=parse)
    keys_digest = digest(*(part for c, m in sorted(template_keys, key=_key_order)
                           for part in ("" if c is None else f"c{c}", m)))
    for locale in locales:
        if locale == SOURCE_LOCALE:
            continue
        builtin = builtin_bytes(locale) if locale_error(locale) is None else None
        try:
            inputs = _LocaleInputs.read(layout, locale, builtin)
        except NotAnInput as exc:
            translators[locale] = source_translator()
            errors.append(exc.error)
            continue
        key = inputs.digest(keys_digest)
        translators[locale], found = item_stage(
            cache, CATALOG_SLOT + locale, key,
            partial(_compile_locale, layout, inputs, template_keys),
            encode=_encoded_catalog, decode=partial(_decoded_catalog, locale, key),
            shared=True)
        errors.extend(found)
    return translators, errors


@dataclass(frozen=True)
class _LocaleInputs:
    """What a locale's messages are compiled from.

    Attributes:
        locale: the locale.
        rel: the site's catalog of it, relative to the project.
        data: that catalog's bytes, or ``None``: it has none, or the locale's name is no
            locale (reported when it is compiled, before anything is read).
        builtin: the package's built-in catalog's bytes, or ``None``.
    """

    locale: str
    rel: str
    data: bytes | None
    builtin: bytes | None

    @classmethod
    def read(cls, layout: Layout, locale: str, builtin: bytes | None) -> _LocaleInputs:
        """The catalogs of ``locale``: the site's read through ``layout``, the built-in
        one's bytes ``builtin`` (:func:`builtin_bytes`).

        Raises:
            NotAnInput: the site's catalog is not an input file or too large.
        """
        rel = catalog_path(locale)
        if locale_error(locale) is not None:
            return cls(locale, rel, None, None)
        data = read_catalog_file(layout.path(rel), rel, layout) if layout.exists(rel) \
            else None
        return cls(locale, rel, data, builtin)

    def digest(self, keys_digest: str) -> str:
        """The digest of these inputs and of the template messages (``keys_digest``):
        the build cache's key of the compiled messages."""
        return digest(*(hashlib.sha256(d).hexdigest() if d is not None else "-"
                        for d in (self.data, self.builtin)), self.rel, keys_digest)


def _compile_locale(layout: Layout, inputs: _LocaleInputs, template_keys: AbstractSet[Key]
                    ) -> tuple[Translator, list[InputError]]:
    """A locale's messages compiled: the site's catalog (:func:`load_translator`; none
    for a locale without one) over the built-in one (:func:`layered`).

    Returns:
        (the translator, the errors of both catalogs).
    """
    locale, rel = inputs.locale, inputs.rel
    found: list[InputError] = []
    if inputs.data is None and locale_error(locale) is None:
        site = Translator(locale, {}, plural_rule(locale))  # the built-in one alone
    else:
        site, errs = load_translator(layout.path(rel), rel, locale, inputs.data or b"",
                                     template_keys=template_keys)
        found.extend(errs)
    base = None
    if inputs.builtin is not None:
        # the package's own catalog: compiled once per content, as a site's is
        base, errs = _compiled(builtin_label(locale), locale, inputs.builtin, frozenset())
        found.extend(errs)
    return layered(base, site), found


def _key_order(key: Key) -> tuple[bool, str, str]:
    """The sort order of message keys: without a context first, then by context and msgid."""
    return (key[0] is not None, key[0] or "", key[1])


def _encoded_catalog(compiled: tuple[Translator, list[InputError]]
                     ) -> dict[str, Any] | None:
    """A locale's compiled messages as the build cache keeps them, or ``None`` (not
    kept) when its catalogs had errors."""
    translator, errors = compiled
    return None if errors else translator.as_data()


def _decoded_catalog(locale: str, key: str, found: Any
                     ) -> tuple[Translator, list[InputError]] | None:
    """Locale ``locale``'s translator for inputs of digest ``key`` from the entry the
    cache keeps (``found``, shared: not changed), without errors; ``None`` for another
    locale's.

    Raises:
        ValueError: the entry is not a catalog.
    """
    kept = _KEPT.get(key)
    if kept is None:
        kept = Translator.from_data(found)
    remember(_KEPT, key, kept, KEPT)
    # A translator of its own (its lookups are this build's), sharing the messages and
    # what messages_digest said of them, which no one changes.
    return (replace(kept, seen=set(), fallbacks=set()), []) if kept.locale == locale \
        else None


KEPT = 32
"""How many compiled catalogs a process remembers (``serve`` builds again and again)."""
_KEPT: OrderedDict[str, Translator] = OrderedDict()
"""The translators :func:`_decoded_catalog` made, by their inputs' digest: a build in
the same process takes the same catalog without making it again, and without saying its
messages again for :meth:`Translator.messages_digest`."""
