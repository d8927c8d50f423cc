"""The checks of a catalog's translations against their English source, one small
function per check, registered by name in :data:`TRANSLATION_CHECKS`.

Each check looks at one written form of a translation (:class:`Source` says what its
English needs) and returns what is wrong, or ``None``. The first check that finds
something reports it, at the form's ``msgstr`` line; the others are not asked. Which
messages are %-formatted is decided by the messages' use, never by their ``#:``
comments or flags, which a translator can delete.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import replace

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message

from generator.errors import UNPRINTABLE
from generator.errors import InputError
from generator.errors import control_character
from generator.errors import invisible_only
from generator.errors import visible
from generator.i18n.placeholders import BRACE_PLACEHOLDER
from generator.i18n.placeholders import link_targets
from generator.i18n.placeholders import malformed_placeholder
from generator.i18n.placeholders import percent_placeholders
from generator.i18n.placeholders import placeholders
from generator.i18n.placeholders import stray_braces


@dataclass(frozen=True)
class Source:
    """What a message's English source asks of a translation, or of one form of a plural
    translation (:meth:`form`).

    Attributes:
        text: the msgid (the singular of a plural message).
        placeholders: the placeholders the translation holds, each
            (:func:`~generator.i18n.placeholders.placeholders`): the msgid's; for a form
            of a plural message, see :meth:`form`.
        links: its link targets (:func:`~generator.i18n.placeholders.link_targets`).
        formatted: whether the message is %-formatted: the templates use it (newstyle
            gettext formats them all) or one of its English forms has ``%(name)``
            placeholders (the code formats those).
        braced: whether it is a page's text whose placeholders and doubled braces the
            pages fill.
        optional: placeholders the translation may hold or leave out (for a form of a
            plural message: see :meth:`form`).
        plural: a plural message's English plural's placeholders; ``None`` for a message
            without plural forms.
    """

    text: str
    placeholders: frozenset[str]
    links: frozenset[str]
    formatted: bool
    braced: bool
    optional: frozenset[str] = frozenset()
    plural: frozenset[str] | None = None

    @classmethod
    def of(cls, message: Message, template_keys: AbstractSet[tuple[str | None, str]]) -> Source:
        """The source of ``message``, %-formatted when ``template_keys`` (the messages
        the templates use) holds it or one of its English forms has ``%(name)``
        placeholders."""
        forms = [str(form) for form in message.id] if isinstance(message.id, tuple) \
            else [str(message.id)]
        text = forms[0]
        return cls(
            text=text,
            placeholders=placeholders(text),
            links=link_targets(text),
            formatted=any("%(" in form for form in forms)
            or (message.context, text) in template_keys,
            braced=BRACE_PLACEHOLDER.search(text) is not None or "{{" in text
            or "}}" in text,
            plural=placeholders(forms[1]) if len(forms) > 1 else None,
        )

    def form(self, single: bool) -> Source:
        """What one form of the translation must hold: the source itself for a message
        without plural forms. A form of a plural message may hold the placeholders of
        either English form (gettext fills every form from the same values). One the
        locale uses for more counts than one must hold the English plural's (the number
        among them: "5 hrušek", not "hrušek"); one it uses for a single count
        (``single``: :func:`~generator.i18n.plurals.single_count_forms`, as cs's form
        for 1) may leave any out ("Jedna hruška"), as GNU ``msgfmt -c`` allows, but in a
        page's text (:attr:`braced`), counted by its first placeholder, only that one:
        the others are rule numbers, which a translation never types."""
        if self.plural is None:
            return self
        either = self.placeholders | self.plural
        required = self.plural
        if single:
            counted = BRACE_PLACEHOLDER.search(self.text) if self.braced else None
            required = self.plural - {counted.group(0)} if counted else frozenset()
        return replace(self, placeholders=required, optional=either - required)


TranslationCheck = Callable[[Source, str], str | None]
"""A check of one form of a translation against its source: what is wrong (the error's
message), or ``None``."""


def _control_character(source: Source, text: str) -> str | None:
    """A control character (:data:`~generator.errors.UNPRINTABLE`): it would reach the
    pages as it is."""
    control = UNPRINTABLE.search(text)
    if control is None:
        return None
    return control_character(control.group(), " in the translation")


def _shows_nothing(source: Source, text: str) -> str | None:
    """A translation that shows nothing (white space, U+200B) for a source that shows
    something: a title, a link would be blank."""
    if any(visible(char) for char in text) or not any(visible(char) for char in source.text):
        return None
    held = invisible_only(text) or "only white space"
    return (f"the translation shows nothing ({held}); expected the text in the catalog's "
            "language, or an empty msgstr (the English is shown)")


def _lone_percent(source: Source, text: str) -> str | None:
    """A lone ``%`` in a message that is %-formatted (:attr:`Source.formatted`):
    formatting it would fail."""
    if not source.formatted or not percent_placeholders(text)[1]:
        return None
    return ("a lone '%' in a message that is %-formatted (template or code text); "
            "expected %% for a percent sign")


def _malformed_placeholder(source: Source, text: str) -> str | None:
    """A stray brace or malformed placeholder in the translation of a page's text
    (:attr:`Source.braced`), which the pages would show as it is."""
    stray = stray_braces(text) if source.braced else []
    if not stray:
        return None
    known = (m.group(1) for m in BRACE_PLACEHOLDER.finditer(source.text))
    return "in the translation: " + malformed_placeholder(stray[0][1], known)


def _differs(what: str, found: frozenset[str], want: frozenset[str]) -> str | None:
    """The error for a translation's ``what`` (``found``) that are not the source's
    (``want``), or ``None`` when they are the same."""
    if found == want:
        return None
    return (f"translation's {what} ({', '.join(sorted(found)) or 'none'}) differ from the "
            f"source's; expected {', '.join(sorted(want)) or 'none'}")


def _placeholders_differ(source: Source, text: str) -> str | None:
    """Placeholders, conversion included, other than the source's: each of
    :attr:`Source.placeholders`, and of :attr:`Source.optional` any."""
    found = placeholders(text)
    if not source.optional:
        return _differs("placeholders", found, source.placeholders)
    if source.placeholders <= found <= source.placeholders | source.optional:
        return None
    return (f"translation's placeholders ({', '.join(sorted(found)) or 'none'}) differ from "
            f"the source's; expected {', '.join(sorted(source.placeholders)) or 'none'}, "
            f"and any of {', '.join(sorted(source.optional))} (of either English form)")


def _link_targets_differ(source: Source, text: str) -> str | None:
    """Link targets other than the source's."""
    return _differs("link targets", link_targets(text), source.links)


TRANSLATION_CHECKS: list[tuple[str, TranslationCheck]] = [
    ("control character", _control_character),
    ("shows nothing", _shows_nothing),
    ("lone percent", _lone_percent),
    ("malformed placeholder", _malformed_placeholder),
    ("placeholders", _placeholders_differ),
    ("link targets", _link_targets_differ),
]
"""The checks of a translation's form, by name, in the order they are asked."""


def translation_error(source: Source, text: str) -> str | None:
    """What the first of :data:`TRANSLATION_CHECKS` finds wrong with ``text``, a form of
    a translation of ``source``, or ``None``."""
    for _name, check in TRANSLATION_CHECKS:
        found = check(source, text)
        if found is not None:
            return found
    return None


def _used(catalog: Catalog) -> Iterator[Message]:
    """The messages of ``catalog`` whose translation is used: not the header, not
    untranslated, not fuzzy (the English is shown for those)."""
    return (m for m in catalog if m.id and m.string and not m.fuzzy)


def _written_forms(message: Message, msgstrs: dict[int, dict[int, int]]
                   ) -> Iterator[tuple[int, int, str]]:
    """Each written (not empty) form of ``message``'s translation: its index, its
    ``msgstr`` line (``msgstrs``: by the msgid's line, by form; the msgid's line where
    not known) and its text."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    where = message.lineno or 1
    for index, text in enumerate(strings):
        if text:
            yield index, msgstrs.get(where, {}).get(index, where), str(text)


def check_translations(catalog: Catalog, rel: str, msgstrs: dict[int, dict[int, int]],
                       template_keys: AbstractSet[tuple[str | None, str]],
                       single: AbstractSet[int] = frozenset()) -> list[InputError]:
    """Every translation of ``catalog`` checked against its source
    (:data:`TRANSLATION_CHECKS`), each form of a plural one against what that form must
    hold (:meth:`Source.form`).

    Args:
        catalog: the catalog as Babel read it.
        rel: its path relative to the project, for error messages.
        msgstrs: the line of each ``msgstr`` by form, by the line of its msgid
            (:func:`generator.i18n.pofile.msgstr_lines`).
        template_keys: the messages the templates use (they are %-formatted).
        single: the plural forms the catalog's locale uses for a single count
            (:func:`generator.i18n.plurals.single_count_forms`).

    Returns:
        One input error per form with a problem, in the catalog's order.
    """
    errors: list[InputError] = []
    for message in _used(catalog):
        source = Source.of(message, template_keys)
        for index, line, text in _written_forms(message, msgstrs):
            found = translation_error(source.form(index in single), text)
            if found is not None:
                errors.append(InputError(rel, line, None, found))
    return errors
