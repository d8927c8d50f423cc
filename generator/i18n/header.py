"""A catalog's header entry (``msgid ""``): its fields read once, as strictly as GNU
gettext's ``msgfmt --check`` reads them, and checked against what this site needs.

Two readers meet in a catalog's header and must agree on it. GNU gettext's tools (and
its runtime) look for the exact texts ``charset=``, ``nplurals=`` and ``plural=``
anywhere in the header, the first of each, and for fields by their exact names at the
start of a line. Babel (which reads the catalogs for the build, and writes them back for
``i18n update``) parses the header as e-mail headers: field names in any case, the last
of a repeated field wins, a line that starts with a space continues the field before, a
blank line ends the fields, and ``Content-Type``'s parameters as MIME parameters (any
case, quotes, spaces around ``=``). Where the two could read different things, the
header is refused, so that what ``check`` accepts is what both read:

- the header is one entry (never two, never one with a ``msgctxt``, which Babel also
  takes for the header), a ``Name: value`` field a line; each field once (in any case);
  a standard field (:data:`STANDARD_FIELDS`) spelled exactly so;
- ``Content-Type`` holds ``charset=UTF-8`` (the value in any case), written so, once;
- ``Plural-Forms`` is ``nplurals=N; plural=EXPRESSION;``, ``N`` the locale's number of
  forms and the expression picking the locale's form for every count
  (:func:`generator.i18n.plurals.plural_rule`); a catalog with plural messages has one;
- the first ``charset=``, ``nplurals=`` and ``plural=`` of the header (where gettext
  reads them) are in those fields.

A catalog without a header entry is read as UTF-8 with the locale's plural rule (where
``msgfmt --check`` refuses it). ``tests/test_catalog_header.py`` runs a table of headers
through this module and through ``msgfmt --check`` and names every difference.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

from babel.messages.pofile import unescape

from generator.errors import InputError

STANDARD_FIELDS = ("Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date",
                   "PO-Revision-Date", "Last-Translator", "Language-Team", "Language",
                   "MIME-Version", "Content-Type", "Content-Transfer-Encoding",
                   "Plural-Forms")
"""The header fields of the GNU gettext manual ("Filling in the Header Entry"), spelled
as gettext's tools look them up (``msgfmt --check-header``, ``msgmerge``)."""

_STANDARD = {name.lower(): name for name in STANDARD_FIELDS}

_FIELD = re.compile(r"([!-9;-~]+):(.*)")
"""A header line: a field name (printable ASCII but ``:``, as RFC 5322 has it), a colon,
the value."""

_PLURAL_FORMS = re.compile(r"\s*nplurals=(\d+)\s*;\s*plural=([^;]*?)\s*(?:;\s*)?")
"""``Plural-Forms`` as gettext writes it: ``nplurals=N; plural=EXPRESSION;``."""

_GETTEXT_KEYS = ("charset=", "nplurals=", "plural=")
"""The texts gettext's tools find anywhere in the header (the first of each)."""
_KEY_FIELD = {"charset=": "Content-Type", "nplurals=": "Plural-Forms",
              "plural=": "Plural-Forms"}
"""The field each of :data:`_GETTEXT_KEYS` belongs in (where Babel reads it)."""

EXAMPLE_CONTENT_TYPE = "Content-Type: text/plain; charset=UTF-8"
"""What errors about the charset expect."""


@dataclass(frozen=True)
class HeaderField:
    """One field of a catalog's header.

    Attributes:
        name: the name as written (``Plural-Forms``).
        value: the value, without the space after the colon.
        line: the catalog's line that holds the field's start.
    """

    name: str
    value: str
    line: int


@dataclass(frozen=True)
class PluralForms:
    """A ``Plural-Forms`` field that reads: ``nplurals`` and the ``plural`` expression
    as written, and the field's line."""

    nplurals: int
    plural: str
    line: int


@dataclass(frozen=True)
class Header:
    """A catalog's header entry as read.

    Attributes:
        line: the line of its ``msgstr``.
        fields: every field that reads as one, in order.
        plural_forms: the ``Plural-Forms`` field read, when it reads.
        plural_problem: what is wrong with the ``Plural-Forms`` field, when it does not
            read (:func:`header_errors` says it, with what the locale expects).
    """

    line: int
    fields: tuple[HeaderField, ...]
    plural_forms: PluralForms | None = None
    plural_problem: tuple[int, str] | None = None


Rule = Callable[[str], str | None]
"""Why a ``plural=`` expression is not the locale's (``"which gives msgstr[1] for 0
where the locale uses msgstr[2]"``), or ``None`` when it picks the same forms."""


@dataclass(frozen=True)
class LocaleForms:
    """What a locale's ``Plural-Forms`` must say: its number of forms, its expression
    (shown in errors) and the comparison of another expression with it."""

    locale: str
    nplurals: int
    expression: str
    differs: Rule


def read_header(parts: Sequence[tuple[str, int]], rel: str
                ) -> tuple[Header, list[InputError]]:
    """Read a header entry's ``msgstr``: its fields, and the errors of its form.

    Args:
        parts: the ``msgstr``'s quoted strings as written (between the quotes, escapes
            not yet read), each with its line in the catalog; the first on the
            ``msgstr`` line.
        rel: the catalog's path, for errors.

    Returns:
        The header and what is wrong with its form: a line that is not a ``Name:
        value`` field, a blank line before a field, a field given twice, a standard
        field spelled otherwise, and what is wrong in ``Content-Type`` and
        ``Plural-Forms`` (:func:`header_errors` checks them against the locale).
    """
    first = parts[0][1] if parts else 1
    text, line_at = _unescaped(parts)
    errors: list[InputError] = []
    fields: list[HeaderField] = []
    seen: dict[str, HeaderField] = {}
    blank: int | None = None
    offset = 0
    for raw in text.split("\n"):
        at, offset = line_at(offset), offset + len(raw) + 1
        if not raw:
            blank = blank or at
            continue
        found = _FIELD.fullmatch(raw)
        if raw[0] in " \t" or found is None:
            what = "starts with a space (Babel reads it as the field before's " \
                "continuation, gettext not)" if raw[0] in " \t" else "is not a field"
            errors.append(InputError(rel, at, None, f"the header line {_shown(raw)} {what}; "
                                     "expected one 'Name: value' field a line"))
            continue
        if blank is not None:
            errors.append(InputError(rel, blank, None, "a blank line inside the header "
                                     "(Babel reads no field after it); expected one "
                                     "'Name: value' field a line, no blank line"))
            blank = None
        field = HeaderField(found.group(1), found.group(2).removeprefix(" "), at)
        fields.append(field)
        key = field.name.lower()
        if key in seen:
            errors.append(InputError(rel, at, None, f"the header gives {field.name} twice "
                                     f"(first at line {seen[key].line}; gettext reads the "
                                     "first, Babel the last); expected each field once"))
            continue
        seen[key] = field
        standard = _STANDARD.get(key)
        if standard is not None and field.name != standard:
            errors.append(InputError(rel, at, None, f"the header field {field.name} is "
                                     f"spelled otherwise than gettext's tools look it up; "
                                     f"expected {standard}"))
    header = Header(first, tuple(fields))
    errors += _stray_keys(text, line_at, rel)
    content_type = seen.get("content-type")
    if content_type is not None:
        errors += _charset_errors(content_type, rel)
    forms = seen.get("plural-forms")
    if forms is not None:
        header = Header(first, tuple(fields), *_plural_forms(forms))
    return header, errors


def header_errors(header: Header | None, plural_line: int | None, rel: str,
                  forms: LocaleForms | None) -> list[InputError]:
    """What a header that reads (:func:`read_header`) says against the locale.

    Args:
        header: the header, or ``None`` for a catalog without one.
        plural_line: the line of the catalog's first plural message, or ``None``.
        rel: the catalog's path, for errors.
        forms: the locale's plural forms, or ``None`` when the locale is not known
            (only the form is checked then).

    Returns:
        The errors: plural messages and no ``Plural-Forms``; a ``Plural-Forms`` that does
        not read as ``nplurals=N; plural=EXPRESSION;``, or whose number of forms or rule
        is not the locale's.
    """
    expected = "; expected nplurals=N; plural=EXPRESSION;" if forms is None else (
        f"; expected nplurals={forms.nplurals}; plural={forms.expression} for "
        f"{forms.locale} (gettext, from CLDR via Babel)")
    read = header.plural_forms if header is not None else None
    if header is not None and header.plural_problem is not None:
        line, problem = header.plural_problem
        return [InputError(rel, line, None, problem + expected)]
    has_field = header is not None and any(f.name.lower() == "plural-forms"
                                           for f in header.fields)
    if not has_field and plural_line is not None:
        where = header.line if header is not None else plural_line
        return [InputError(rel, where, None, "the catalog has plural messages (the first "
                           f"at line {plural_line}) and its header no Plural-Forms"
                           + expected)]
    if read is None or forms is None:
        return []
    if read.nplurals != forms.nplurals:
        return [InputError(rel, read.line, None, f"Plural-Forms says nplurals="
                           f"{read.nplurals}{expected}")]
    why = forms.differs(read.plural)
    if why is None:
        return []
    shown = read.plural if len(read.plural) <= 80 else f"{read.plural[:77]}..."
    return [InputError(rel, read.line, None, f"Plural-Forms says plural={shown}, {why}"
                       f"{expected}")]


def _unescaped(parts: Sequence[tuple[str, int]]) -> tuple[str, Callable[[int], int]]:
    """The header's text (PO escapes read, as Babel reads them) and a function from an
    offset in it to the catalog's line of the string that holds it (of an empty string
    and the next, the next)."""
    texts = [unescape(f'"{raw}"') for raw, _line in parts]
    starts = []
    total = 0
    for part in texts:
        starts.append(total)
        total += len(part)

    def line_at(offset: int) -> int:
        """The catalog line of the text at ``offset`` of the joined header."""
        if not parts:
            return 1
        return parts[max(0, bisect_right(starts, offset) - 1)][1]

    return "".join(texts), line_at


def _shown(text: str) -> str:
    """A header line or value quoted for a message (control characters escaped), at
    most 60 characters."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _stray_keys(text: str, line_at: Callable[[int], int], rel: str) -> list[InputError]:
    """The first ``charset=``, ``nplurals=`` or ``plural=`` of the header outside its
    own field: gettext's tools read it there (the first in the header, wherever it is),
    Babel in the field."""
    errors = []
    for key in _GETTEXT_KEYS:
        own = _KEY_FIELD[key]
        found = text.find(key)
        if found < 0:
            continue
        at = text.rfind("\n", 0, found) + 1
        if text[at:at + len(own) + 1].lower() == f"{own.lower()}:":
            continue
        errors.append(InputError(rel, line_at(found), None, f"{key!r} outside the header's "
                                 f"{own} field, where gettext's tools read it (the first "
                                 f"{key!r} of the header wherever it is); expected it only "
                                 f"in {own}"))
    return errors


def _charset_errors(field: HeaderField, rel: str) -> list[InputError]:
    """What is wrong with ``Content-Type``'s charset: missing, written so that gettext's
    tools do not read it as Babel does (another case, spaces around ``=``, quotes),
    given twice, or not UTF-8."""
    def error(what: str) -> list[InputError]:
        """``what`` as the one error, at the field's line."""
        return [InputError(rel, field.line, None, what)]

    charsets = [item.strip() for item in field.value.split(";")[1:]
                if re.match(r"\s*charset\b", item, re.IGNORECASE)]
    if not charsets:
        return error(f"the header's Content-Type {_shown(field.value)} names no charset; "
                     f"expected {EXAMPLE_CONTENT_TYPE}")
    if len(charsets) > 1:
        return error("the header's Content-Type names the charset twice; expected "
                     f"{EXAMPLE_CONTENT_TYPE}")
    found = re.fullmatch(r"charset=([^\s\"']+)", charsets[0])
    if found is None:
        quoted = re.fullmatch(r"charset=([\"'])(.*)\1", charsets[0])
        why = ("gettext's tools read the quotes as part of the name" if quoted else
               "gettext's tools look for 'charset=' exactly, up to a space")
        return error(f"the header's Content-Type says {_shown(charsets[0])}: {why}; "
                     f"expected {EXAMPLE_CONTENT_TYPE}")
    if found.group(1).lower() != "utf-8":
        return error(f"the header says charset={found.group(1)}; expected charset=UTF-8 "
                     "(the file is read as UTF-8)")
    return []


def _plural_forms(field: HeaderField) -> tuple[PluralForms | None, tuple[int, str] | None]:
    """``Plural-Forms`` read: (the forms, ``None``) or (``None``, (its line, what is
    wrong)): gettext's tools read exactly ``nplurals=`` and ``plural=``, Babel also
    spaces around ``=`` and another case, and the last of a repeated one."""
    found = _PLURAL_FORMS.fullmatch(field.value)
    if found is not None and found.group(2):
        return PluralForms(int(found.group(1)), found.group(2), field.line), None
    if re.search(r"(?<![\w])nplurals=\d", field.value) is None:
        problem = "the header's Plural-Forms has no number of forms (nplurals=)"
    elif re.search(r"(?<![\w])plural=\s*[^;\s]", field.value) is None:
        problem = "the header's Plural-Forms has no rule (plural=)"
    else:
        problem = (f"the header's Plural-Forms {_shown(field.value)} holds more than "
                   "gettext reads alike with Babel (nplurals=N; plural=EXPRESSION;)")
    return None, (field.line, problem)
