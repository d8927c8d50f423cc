"""Reading a ``.po`` file: its bytes (a regular file, not too large), its lines lexed into
entries and checked for what Babel's lenient reader would accept in part or silently,
then Babel's reading of what passed.

The lexer is a table of line rules (:data:`LINE_RULES`: a blank or comment line, a
keyword line, a quoted continuation, anything else an error), and the entries it makes
go through a table of entry checks (:data:`ENTRY_CHECKS`), each a small function
registered by name; the header entry is read and checked by
:mod:`generator.i18n.header`.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError
from babel.messages.pofile import read_po

from generator.errors import InputError
from generator.i18n.header import Header
from generator.i18n.header import header_errors
from generator.i18n.header import read_header
from generator.i18n.merge import read_previous
from generator.i18n.plurals import locale_forms
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import read_regular

_STRING = r'"((?:[^"\\]++|\\.)*+)"'
"""A quoted string; possessive, so that matching a long line keeps no backtracking state
(memory constant, not about 40 bytes per character)."""
_KEYWORD = re.compile(r'^\s*(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+'
                      + _STRING + r'\s*$')
_CONTINUATION = re.compile(r'^\s*' + _STRING + r'\s*$')


@dataclass(frozen=True)
class Entry:
    """One entry of a catalog as written.

    Attributes:
        msgctxt: its ``msgctxt``, or ``None``.
        msgid: its ``msgid`` (``""``: the header entry, or none written).
        plural: its ``msgid_plural``, or ``None``.
        msgstr: its ``msgstr`` (the last ``msgstr[N]`` of a plural message), or ``None``.
        lines: the line of each keyword (``msgstr[N]`` under ``msgstr``).
        parts: the ``msgstr``'s quoted strings as written, each with its line.
        forms: for a plural message, the line of each ``msgstr[N]`` by ``N`` (Babel
            keeps only the msgid's line, and pads forms that are not written with empty
            ones).
    """

    msgctxt: str | None
    msgid: str
    plural: str | None
    msgstr: str | None
    lines: dict[str, int]
    parts: tuple[tuple[str, int], ...]
    forms: dict[int, int]

    @property
    def key(self) -> tuple[str | None, str]:
        """(msgctxt, msgid)."""
        return (self.msgctxt, self.msgid)

    @property
    def where(self) -> int:
        """The line of its ``msgid`` (1 when it has none)."""
        return self.lines.get("msgid", 1)


@dataclass
class _Lexing:
    """The state of lexing one catalog: the entries done, the errors found, and the
    entry being read (its strings' parts by keyword, joined when it is done)."""

    rel: str
    entries: list[Entry] = field(default_factory=list)
    errors: list[InputError] = field(default_factory=list)
    strings: dict[str, list[str]] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)
    forms: dict[int, int] = field(default_factory=dict)
    parts: list[tuple[str, int]] | None = None
    last: str = ""
    """The keyword the next quoted continuation line continues (``plural`` for
    ``msgid_plural``)."""

    def finish_entry(self) -> None:
        """Add the entry being read (if any) to :attr:`entries`, its strings joined, and
        start a new one."""
        if not self.strings:
            return
        joined = {name: "".join(parts) for name, parts in self.strings.items()}
        self.entries.append(Entry(
            msgctxt=joined.get("msgctxt"), msgid=joined.get("msgid", ""),
            plural=joined.get("plural"), msgstr=joined.get("msgstr"), lines=self.lines,
            parts=tuple(self.parts or ()), forms=self.forms))
        self.strings, self.lines, self.forms, self.parts = {}, {}, {}, None


LineRule = Callable[[_Lexing, int, str], bool]
"""A rule for one line of a catalog (its number, its text): whether it took the line."""


def _blank_or_comment(state: _Lexing, number: int, line: str) -> bool:
    """A blank line or a comment (``#``…): nothing to read."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _starts_entry(keyword: str, strings: dict[str, list[str]]) -> bool:
    """Whether a ``keyword`` line starts a new entry after the one holding ``strings``:
    a ``msgctxt`` or ``msgid`` after a translation, a plural or the same keyword, or a
    ``msgctxt`` after a ``msgid``."""
    if keyword not in ("msgctxt", "msgid"):
        return False
    return ("msgstr" in strings or "plural" in strings or keyword in strings
            or (keyword == "msgctxt" and "msgid" in strings))


def _msgstr_form(state: _Lexing, number: int, form: str | None) -> None:
    """Note a ``msgstr`` (``form`` None) or ``msgstr[N]`` line: a second ``msgstr`` of
    one message is an error; a form's line is kept."""
    if form is None and "msgstr" in state.strings:
        state.errors.append(InputError(state.rel, number, None, "a second msgstr for one "
                                       "message; expected one msgstr (or msgstr[N] for "
                                       "plurals)"))
    if form is not None:
        state.forms[int(form)] = number


def _keyword_line(state: _Lexing, number: int, line: str) -> bool:
    """A keyword and its quoted string (``msgid "…"``): it starts the entry's string of
    that keyword, and may start a new entry (:func:`_starts_entry`)."""
    found = _KEYWORD.match(line)
    if found is None:
        return False
    keyword, form, text = found.groups()
    if _starts_entry(keyword, state.strings):
        state.finish_entry()
    base = "msgstr" if keyword.startswith("msgstr") else keyword
    if base == "msgstr":
        _msgstr_form(state, number, form)
    name = "plural" if base == "msgid_plural" else base
    state.strings[name] = [text]
    state.lines[base] = number
    if keyword == "msgstr":
        state.parts = [(text, number)]
    state.last = name
    return True


def _continuation_line(state: _Lexing, number: int, line: str) -> bool:
    """A quoted string alone: it continues the last keyword's string."""
    more = _CONTINUATION.match(line)
    if more is None or not state.last:
        return False
    state.strings.setdefault(state.last, []).append(more.group(1))
    if state.last == "msgstr" and state.parts is not None:
        state.parts.append((more.group(1), number))
    return True


def _stray_text(state: _Lexing, number: int, line: str) -> bool:
    """Any other line (an unterminated string, stray text): an error."""
    state.errors.append(InputError(
        state.rel, number, None,
        f"bad .po syntax: {line.strip()[:40]!r}; expected a keyword (msgctxt, msgid, "
        'msgid_plural, msgstr, msgstr[N]) and a quoted "string", or a quoted '
        "continuation line",
    ))
    return True


LINE_RULES: list[tuple[str, LineRule]] = [
    ("blank or comment", _blank_or_comment),
    ("keyword", _keyword_line),
    ("continuation", _continuation_line),
    ("stray text", _stray_text),
]
"""The line rules, by name, in the order they are tried: the first that takes a line
reads it (the last takes every line)."""


@dataclass
class _Scan:
    """The state of checking a catalog's entries in order: the messages seen (each at
    its first line), the header entry and its line, the first plural message's line."""

    rel: str
    errors: list[InputError]
    seen: dict[tuple[str | None, str], int] = field(default_factory=dict)
    header: Header | None = None
    header_at: int = 0
    plural_line: int | None = None


EntryCheck = Callable[[_Scan, Entry], None]
"""A check of one entry, given what the entries before it held."""


def _given_twice(scan: _Scan, entry: Entry) -> None:
    """A message given a second time (Babel keeps one of the two)."""
    key = entry.key
    if key in scan.seen and key[1]:
        scan.errors.append(InputError(scan.rel, entry.where, None, f"message {key[1][:40]!r} "
                                      f"given twice (first at line {scan.seen[key]}); "
                                      "expected each message once"))
    scan.seen.setdefault(key, entry.where)


def _forms_without_plural(scan: _Scan, entry: Entry) -> None:
    """``msgstr[N]`` in a message without ``msgid_plural``."""
    if entry.forms and entry.plural is None:
        scan.errors.append(InputError(scan.rel, min(entry.forms.values()), None,
                                      "msgstr[N] for a message without msgid_plural; "
                                      "expected a plain msgstr"))


def _first_plural(scan: _Scan, entry: Entry) -> None:
    """Note the first plural message's line (a header must then say ``Plural-Forms``)."""
    if entry.plural is not None and scan.plural_line is None:
        scan.plural_line = entry.where


def _header_entry(scan: _Scan, entry: Entry) -> None:
    """An entry with an empty msgid is the header: read it (:func:`read_header`); a
    second one, or one with a ``msgctxt`` (Babel takes it for the header too), is an
    error."""
    if entry.msgid or entry.plural is not None:
        return
    if scan.header is not None or entry.msgctxt is not None:
        scan.errors.append(InputError(scan.rel, entry.where, None, (
            "msgctxt on a message with an empty msgid, which Babel reads as the header"
            if entry.msgctxt is not None else
            f"a second header entry (msgid \"\"; the first at line {scan.header_at})")
            + '; expected one header entry, msgid "" without msgctxt'))
        return
    scan.header, found = read_header(entry.parts, scan.rel)
    scan.header_at = entry.where
    scan.errors.extend(found)


ENTRY_CHECKS: list[tuple[str, EntryCheck]] = [
    ("given twice", _given_twice),
    ("msgstr[N] without msgid_plural", _forms_without_plural),
    ("first plural message", _first_plural),
    ("header entry", _header_entry),
]
"""The entry checks, by name, in the order each entry goes through them."""


def lex(data: bytes, rel: str, locale: str | None = None
        ) -> tuple[list[Entry], list[InputError]]:
    """The entries of a catalog as written, and what Babel's lenient reader would accept
    in part or silently: a line that is not a comment, blank, keyword or quoted
    continuation (an unterminated string, stray text); a message given twice;
    ``msgstr[N]`` without ``msgid_plural``; a second header entry, or one with a
    ``msgctxt``; a header that gettext's tools and Babel would read differently, or
    whose charset is not UTF-8, or whose ``Plural-Forms`` is missing (with plural
    messages) or disagrees with the locale's gettext rule (:mod:`generator.i18n.header`,
    when ``locale`` is given).

    Args:
        data: the catalog's bytes.
        rel: its path relative to the project, for error messages.
        locale: its locale, or ``None`` (the header's ``Plural-Forms`` is only read).

    Returns:
        (the entries in order, the errors in order of the lines, then the entries').
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad_line = data.count(b"\n", 0, exc.start) + 1
        return [], [InputError(rel, bad_line, None, "the catalog is not valid UTF-8; "
                               "expected UTF-8 text")]
    state = _Lexing(rel)
    # Lines as Babel's reader and gettext split them, at LF alone (str.splitlines also
    # splits at a form feed or U+2028 inside a string: "bad .po syntax", later lines
    # numbered one off).
    for number, line in enumerate(text.split("\n"), start=1):
        for _name, rule in LINE_RULES:
            if rule(state, number, line):
                break
    state.finish_entry()
    scan = _Scan(rel, state.errors)
    for entry in state.entries:
        for _check_name, check in ENTRY_CHECKS:
            check(scan, entry)
    forms = None if locale is None else locale_forms(locale)
    scan.errors.extend(header_errors(scan.header, scan.plural_line, rel, forms))
    return state.entries, state.errors


def msgstr_lines(entries: Iterable[Entry]) -> dict[int, dict[int, int]]:
    """The line of each ``msgstr`` (by form: 0 for a message without plural forms) of
    every message, by the line of its ``msgid`` (where Babel says the message is)."""
    found: dict[int, dict[int, int]] = {}
    for entry in entries:
        if "msgid" in entry.lines:
            forms = entry.forms or ({0: entry.lines["msgstr"]} if "msgstr" in entry.lines
                                    else {})
            found[entry.lines["msgid"]] = dict(forms)
    return found


def _for_babel(data: bytes) -> bytes:
    """The catalog with ``#~|`` lines (previous msgids of obsolete messages, which
    ``msgmerge --previous`` writes and Babel cannot read) turned into plain comments,
    so that line numbers stay the same."""
    return re.sub(rb"(?m)^#~\|", b"# ~|", data)


def restore_previous_lines(data: bytes) -> bytes:
    """The ``#~|`` lines :func:`_for_babel` turned into comments, as they were (Babel
    writes a comment as ``# `` and its text)."""
    return re.sub(rb"(?m)^# ~\|", b"#~|", data)


def read_catalog(data: bytes, rel: str, locale: str | None
                 ) -> tuple[Catalog | None, list[InputError]]:
    """Babel's reading of a catalog that passed :func:`lex`; what Babel still
    refuses becomes one input error on one line.

    Returns:
        (the catalog, no errors), or (``None``, the error).
    """
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
    errors = lex(data, rel, locale)[1]
    if errors:
        raise NotAnInput(errors[0])
    catalog, errors = read_catalog(data, rel, locale)
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
    errors = lex(data, rel, locale)[1]
    if not errors:
        errors.extend(read_catalog(data, rel, None)[1])
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
