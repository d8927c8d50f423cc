"""The page ``serve`` shows in place of every page while the build fails (docs/site.md,
"serve").

It lists the failed build's errors, each with the lines of its file around its position
(as a browser overlay of Hugo shows them: line numbers, the line marked, the column
pointed at), and apart from them what the build lists without failing: the pending cases
and known disagreements, the warnings and notes. Its own words are the package's, in the
language of the page asked for (the built-in catalogs, :func:`page_locale`); the build's
lines are English, as the terminal prints them.

The files are the project's and may be hostile: everything taken from them, or from the
build's lines (which name files: a name may hold any character but ``/``), is
HTML-escaped, a control character or a bidirectional control is shown as a visible
mark, a line is cut to :data:`MAX_LINE_CHARS` around the column, and a file's lines are
shown only when the position's file is one of the project's inputs
(:func:`read_excerpt`): a regular file under ``content/``, ``locales/``, ``templates/``
or ``site.yaml`` whose real path, every symbolic link followed, is inside the project
(the file opened, too); one over :data:`MAX_EXCERPT_BYTES` or holding a NUL byte (not
text) is named, not shown.
"""

from __future__ import annotations

import errno
import html
import os
import re
import stat
import unicodedata
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from generator.errors import CONTROL_CHARACTERS
from generator.errors import LINE_BREAK
from generator.errors import InputError
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.i18n.catalog import builtin_bytes
from generator.i18n.catalog import builtin_label
from generator.i18n.catalog import language_tag
from generator.i18n.catalog import load_translator
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_catalog
from generator.layout import builtin_locales
from generator.layout import opened_outside

INPUT = "input"
"""An entry's kind: an input error (``FILE:LINE[:COL]: what; expected``), failing."""
DISAGREEMENT = "disagreement"
"""An entry's kind: a documented value the engine disagrees with, failing."""
ERROR = "error"
"""An entry's kind: a failure that names no file (a fault of the generator), failing."""
STATUS = "status"
"""An entry's kind: a pending case's or a known disagreement's lines, not failing."""
WARNING = "warning"
"""An entry's kind: a warning or a note, not failing."""
FAILING = (INPUT, DISAGREEMENT, ERROR)
"""The kinds that fail a build, in the order the page counts them."""

CONTEXT_LINES = 3
"""The lines an excerpt shows before and after the position's line."""
MAX_EXCERPTS = 20
"""The most excerpts one page shows (the first errors'): a file with hundreds of
errors gives a page of their lines, not of hundreds of excerpts."""
MAX_LINE_CHARS = 200
"""The most characters an excerpt shows of one line (around the column): a minified
line of a megabyte is cut, not sent."""
MAX_EXCERPT_BYTES = 10_000_000
"""The largest file an excerpt is read from (the largest input, a catalog); a larger
one is named, not read."""
TAB_WIDTH = 4
"""The columns of a tab in an excerpt (tabs are expanded, so the pointer stays under
its column)."""
_WATCHED = (CONTENT, LOCALES, TEMPLATES)
"""The input folders (with :data:`generator.layout.CONFIG`) an excerpt may be of."""

NOT_AN_INPUT = "not an input"
"""Why an excerpt has no lines: the file is not one of the project's inputs (outside it,
a link leading out of it, missing, not a regular file)."""
NOT_TEXT = "not text"
"""Why an excerpt has no lines: the file holds a NUL byte."""
TOO_LARGE = "too large"
"""Why an excerpt has no lines: the file is over :data:`MAX_EXCERPT_BYTES`."""
NO_LINE = "no line"
"""Why an excerpt has no lines: the file has no such line (it changed since)."""

_POSITION = re.compile(r"(?P<file>[^\n]+?):(?P<line>[1-9][0-9]*)(?::(?P<column>[1-9][0-9]*))?: ")

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_VISIBLE = {
    **{code: f"\\x{code:02x}" for code in [*range(0x20), *range(0x7F, 0xA0)] if code != 0x09},
    **{ord(char): f"\\u{ord(char):04x}" for char in _BIDI},
    **{code: f"\\u{code:04x}" for code in [*range(0xFDD0, 0xFDF0), 0x2028, 0x2029]},
}
"""Characters an excerpt shows escaped, as ``\\x1b`` or ``\\u202e`` (as messages show
such a character in a name): the control characters but tab (C0, DEL, C1), the
bidirectional controls (which would reorder what is shown around them), the
noncharacters the pages' rendering uses as marks, the line and paragraph separators."""


@dataclass(frozen=True)
class Position:
    """Where a line of the build's report points.

    Attributes:
        file: the file as the line names it (relative to the project).
        line: 1-based line.
        column: 1-based column (characters), or ``None``.
    """

    file: str
    line: int
    column: int | None


@dataclass(frozen=True)
class Excerpt:
    """The lines of a file around a position.

    Attributes:
        rows: ``(line number, text)`` of each line shown, the text as the file has it
            (not escaped); empty when ``missing``.
        missing: why there are no rows (:data:`NOT_AN_INPUT`, :data:`NOT_TEXT`,
            :data:`TOO_LARGE`, :data:`NO_LINE`), or ``None``.
    """

    rows: tuple[tuple[int, str], ...]
    missing: str | None = None


@dataclass(frozen=True)
class Entry:
    """One item of a build's report: its first line and the indented lines after it.

    Attributes:
        kind: :data:`INPUT`, :data:`DISAGREEMENT`, :data:`ERROR`, :data:`STATUS` or
            :data:`WARNING`.
        lines: the report's lines, as printed (the first, then the reasoning).
        position: where the first line points, if it names a file and line.
        excerpt: the lines of the file there (a failing entry's, once read).
    """

    kind: str
    lines: tuple[str, ...]
    position: Position | None = None
    excerpt: Excerpt | None = None


def position_of(line: str) -> tuple[Position | None, str]:
    """The position a report's line starts with (``FILE:LINE:COL: ``, ``FILE:LINE: ``),
    or ``None``; and the rest of the line (all of it without a position)."""
    found = _POSITION.match(line)
    if found is None:
        return None, line
    column = found.group("column")
    return Position(found.group("file"), int(found.group("line")),
                    int(column) if column else None), line[found.end():]


def with_excerpts(root: Path | Layout, entries: Iterable[Entry]) -> tuple[Entry, ...]:
    """``entries`` with the excerpt of each failing entry that has a position (the first
    :data:`MAX_EXCERPTS`), each file read once.

    Args:
        root: the project (its folder or layout).
        entries: the report's entries.

    Returns:
        The entries, in their order.
    """
    layout = Layout.of(root)
    texts: dict[str, list[str] | str] = {}
    out: list[Entry] = []
    left = MAX_EXCERPTS
    for entry in entries:
        if entry.kind in FAILING and entry.position is not None and left > 0:
            left -= 1
            entry = replace(entry, excerpt=read_excerpt(layout, entry.position, texts))
        out.append(entry)
    return tuple(out)


def read_excerpt(layout: Layout, position: Position,
                 texts: dict[str, list[str] | str] | None = None) -> Excerpt:
    """The lines of ``position``'s file around its line: :data:`CONTEXT_LINES` before
    and after it. The file must be one of the project's inputs (module docstring);
    nothing of any other file is read.

    Args:
        layout: the project's layout.
        position: where to look.
        texts: the files read so far (their lines, or why they have none), filled in.

    Returns:
        The excerpt; its ``missing`` says why it has no lines.
    """
    texts = {} if texts is None else texts
    if position.file not in texts:
        texts[position.file] = _file_lines(layout, position.file)
    lines = texts[position.file]
    if isinstance(lines, str):
        return Excerpt((), lines)
    if position.line > len(lines):
        return Excerpt((), NO_LINE)
    # the empty "line" after the last line break is shown only where the position is
    # (the end of the file, where YAML places an unfinished document's error)
    shown = len(lines) - 1 if len(lines) > 1 and lines[-1] == "" else len(lines)
    first = max(1, position.line - CONTEXT_LINES)
    last = max(position.line, min(shown, position.line + CONTEXT_LINES))
    return Excerpt(tuple((n, lines[n - 1]) for n in range(first, last + 1)))


def _file_lines(layout: Layout, rel: str) -> list[str] | str:
    """The lines of the input file ``rel`` (as :data:`generator.errors.LINE_BREAK`
    counts them), or why it is not shown."""
    parts = rel.split("/")
    if not (rel == CONFIG or (len(parts) > 1 and parts[0] in _WATCHED)) \
            or any(part in ("", ".", "..") for part in parts) or "\\" in rel \
            or CONTROL_CHARACTERS.search(rel):  # (a report shows such a name escaped)
        return NOT_AN_INPUT
    try:
        data = _read_input(layout, rel)
    except NotAnInput:
        return NOT_AN_INPUT
    except OverflowError:
        return TOO_LARGE
    if b"\0" in data:
        return NOT_TEXT
    decoded = data.decode("utf-8", errors="replace")
    return LINE_BREAK.split(decoded.removeprefix("\ufeff"))


def _read_input(layout: Layout, rel: str) -> bytes:
    """The bytes of ``rel``, checked again on the opened file: its real path (every link
    followed) inside the project, a regular file, at most :data:`MAX_EXCERPT_BYTES`.
    A folder on the way swapped for a link while it is opened (the path's check and the
    opening are two steps) is found on the opened file itself: where the system names
    an open file's path (Linux's ``/proc/self/fd``), that path must be inside the
    project; elsewhere the file opened must be the one the path leads to after it.

    Raises:
        NotAnInput: it is not a regular file inside the project, or cannot be read
            (also when the files on its path change while it is checked).
        OverflowError: it is larger.
    """
    try:
        problem = layout.problem(rel)  # missing, a link leading out, not a regular file…
        real = Path(os.path.realpath(layout.root / rel))
    except (OSError, ValueError) as exc:  # a link made or removed while it is followed
        raise _not_an_input(rel) from exc
    if problem is not None:
        raise NotAnInput(problem)
    if layout.inside(real) is not None:  # a link changed since
        raise _not_an_input(rel)
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
                     | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise _not_an_input(rel) from exc
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) or not _opened_inside(layout, fd, real, status):
            raise _not_an_input(rel)
        if status.st_size > MAX_EXCERPT_BYTES:
            raise OverflowError(rel)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_EXCERPT_BYTES + 1)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise OverflowError(rel) from exc
        raise _not_an_input(rel) from exc
    finally:
        os.close(fd)
    if len(data) > MAX_EXCERPT_BYTES:  # grown since fstat
        raise OverflowError(rel)
    return data


def _opened_inside(layout: Layout, fd: int, real: Path, status: os.stat_result) -> bool:
    """Whether the file open as ``fd`` (opened at ``real``; ``status`` its
    :func:`os.fstat`) is inside the project (:func:`generator.layout.opened_outside`)."""
    return opened_outside(fd, real, status, layout.inside) is None


def _not_an_input(rel: str) -> NotAnInput:
    return NotAnInput(InputError(rel, 1, None, "not an input file"))


def page_locale(path: str) -> str:
    """The language of the page at the site path ``path``: its first folder when the
    package translates into that language (``/cs/rules/`` → ``cs``), else English."""
    first = path.lstrip("/").split("/", 1)[0]
    return first if first in _locales() else SOURCE_LOCALE


@lru_cache(maxsize=1)
def _locales() -> frozenset[str]:
    return frozenset(builtin_locales())


@lru_cache(maxsize=16)
def _translator(locale: str) -> Translator:
    """The package's messages in ``locale`` (English where it has none)."""
    if locale == SOURCE_LOCALE:
        return source_translator()
    try:
        data = builtin_bytes(locale)
    except NotAnInput:
        data = None
    if data is None:
        return source_translator()
    translator, _errors = load_translator(builtin_catalog(locale), builtin_label(locale),
                                          locale, data)
    return translator


def summary(entries: Sequence[Entry], w: Words) -> str:
    """What failed, counted: ``2 input errors, 1 disagreement`` (empty when nothing
    failed), in ``w``'s language."""
    counts = {kind: sum(1 for e in entries if e.kind == kind) for kind in FAILING}
    parts = []
    if counts[INPUT]:
        parts.append(w.plural("%(num)s input error", "%(num)s input errors", counts[INPUT]))
    if counts[DISAGREEMENT]:
        parts.append(w.plural("%(num)s disagreement", "%(num)s disagreements",
                              counts[DISAGREEMENT]))
    if counts[ERROR]:
        parts.append(w.plural("%(num)s error", "%(num)s errors", counts[ERROR]))
    return ", ".join(parts)


def english_summary(entries: Sequence[Entry]) -> str:
    """:func:`summary` in English, for the terminal."""
    return summary(entries, Words(source_translator()))


STYLE = """\
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 1rem;
       max-width: 70rem; color: #222; background: #fff; }
h1 { color: #a00; font-size: 1.35rem; margin: .5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 2rem 0 .5rem; }
ol, ul { list-style: none; padding: 0; margin: 0; }
li.entry { margin: 0 0 1.25rem; }
pre { margin: 0; font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre.lines { white-space: pre-wrap; overflow-wrap: anywhere; padding: .5rem .75rem;
            background: #fff4f4; border: 1px solid #e0b4b4; border-radius: 4px 4px 0 0; }
.listed pre.lines { background: #f6f6f6; border-color: #d4d4d4; border-radius: 4px; }
pre.excerpt { position: relative; overflow-x: auto; padding: .4rem 0; background: #fafafa;
              border: 1px solid #e0b4b4; border-top: 0; border-radius: 0 0 4px 4px; }
pre.excerpt code { display: inline-block; min-width: 100%; font: inherit; }
.row { display: block; padding: 0 .75rem 0 0; white-space: pre; }
.no { display: inline-block; position: sticky; left: 0; padding: 0 .6em; margin-right: .6em;
      text-align: right; color: #767676; background: #fafafa; border-right: 1px solid #ddd;
      -webkit-user-select: none; user-select: none; }
.row.at { background: #ffe3e3; }
.row.at .no { color: #a00; font-weight: bold; background: #ffe3e3; }
.row.pointer { color: #a00; font-weight: bold; }
mark { background: #e33; color: #fff; border-radius: 2px; }
p.missing { margin: 0; padding: .4rem .75rem; font-size: .9rem; color: #555;
            border: 1px solid #e0b4b4; border-top: 0; border-radius: 0 0 4px 4px; }
"""
"""The error page's style sheet (inline: the page needs no file of the site)."""

SCROLL_TO_MARK = """\
document.querySelectorAll("pre.excerpt").forEach(function (pre) {
  var mark = pre.querySelector("mark");
  if (mark && mark.offsetLeft + mark.offsetWidth > pre.clientWidth) {
    pre.scrollLeft = mark.offsetLeft - pre.clientWidth / 3;
  }
});
"""
"""The error page's script: an excerpt whose marked column is out of its view (a narrow
screen, a long line) is scrolled to show it."""


def error_page(entries: Sequence[Entry], *, locale: str, kept: bool, exit_code: int) -> str:
    """The error page's HTML (without the reload script, which serve adds).

    Args:
        entries: the failed build's report, with the excerpts (:func:`with_excerpts`).
        locale: the language of its words (:func:`page_locale`).
        kept: whether a good site is kept (a build succeeded before).
        exit_code: the build's exit status.

    Returns:
        The page.
    """
    w = Words(_translator(locale))
    what = summary(entries, w) or f"exit {exit_code}"
    heading = w.text("Build failed: %(what)s", what=what)
    failing = [e for e in entries if e.kind in FAILING]
    first = next((e.position.file for e in failing if e.position is not None), None)
    title = f"{heading} — {first}" if first else heading
    intro = (w.text("The last good site is kept aside; this page is shown in place of every "
                    "page and reloads when a file is saved.") if kept
             else w.text("No build has succeeded yet; this page reloads when a file is "
                         "saved."))
    parts = [f"<h1>{_text(heading)}</h1>\n<p>{_text(intro)}</p>\n"]
    if failing:
        parts.append('<ol class="errors">\n')
        parts += [_entry_html(e, w) for e in failing]
        parts.append("</ol>\n")
    for kind, name in ((STATUS, w.text("Pending cases and known disagreements (not "
                                       "failing)")),
                       (WARNING, w.text("Warnings and notes (not failing)"))):
        listed = [e for e in entries if e.kind == kind]
        if listed:
            parts.append(f'<section class="listed {kind}">\n<h2>{_text(name)}</h2>\n<ul>\n')
            parts += [_entry_html(e, w) for e in listed]
            parts.append("</ul>\n</section>\n")
    return f"""<!DOCTYPE html>
<html lang="{_attr(language_tag(locale))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{_text(title.translate(_VISIBLE))}</title>
<style>
{STYLE}</style>
</head>
<body>
<main>
{"".join(parts)}</main>
<script>
{SCROLL_TO_MARK}</script>
</body>
</html>
"""


def _entry_html(entry: Entry, w: Words) -> str:
    lines = "\n".join(_text(line.translate(_VISIBLE)) for line in entry.lines)
    out = [f'<li class="entry {entry.kind}">\n<pre class="lines" lang="en">{lines}</pre>\n']
    excerpt, position = entry.excerpt, entry.position
    if excerpt is not None and position is not None:
        out.append(_excerpt_html(excerpt, position, w))
    out.append("</li>\n")
    return "".join(out)


def _excerpt_html(excerpt: Excerpt, position: Position, w: Words) -> str:
    if excerpt.missing is not None:
        why = {NOT_AN_INPUT: w.text("Its lines are not shown: the file is not one of the "
                                    "project's input files."),
               NOT_TEXT: w.text("Its lines are not shown: the file is not text."),
               TOO_LARGE: w.text("Its lines are not shown: the file is too large."),
               NO_LINE: w.text("Its lines are not shown: the file has no line %(line)s "
                               "now.", line=position.line),
               }[excerpt.missing]
        return f'<p class="missing">{_text(why)}</p>\n'
    where = (w.text("Line %(line)s, column %(column)s", line=position.line,
                    column=position.column) if position.column is not None
             else w.text("Line %(line)s", line=position.line))
    width = len(str(excerpt.rows[-1][0]))
    rows = []
    for number, source in excerpt.rows:
        at = number == position.line
        shown, pointer = _shown_line(source, position.column if at else None)
        no = str(number).rjust(width)
        rows.append(f'<span class="row{" at" if at else ""}"><span class="no">{no}</span>'
                    f"{shown}</span>")
        if pointer is not None:
            rows.append(f'<span class="row pointer" aria-hidden="true"><span class="no">'
                        f'{" " * width}</span>{" " * pointer}^</span>')
    return (f'<pre class="excerpt" translate="no" role="figure" aria-label="{_attr(where)}">'
            f'<code>{"".join(rows)}</code></pre>\n')


def _shown_line(source: str, column: int | None) -> tuple[str, int | None]:
    """One line of an excerpt as HTML: cut to :data:`MAX_LINE_CHARS` around ``column``,
    control characters escaped (:data:`_VISIBLE`), tabs expanded, the character at
    ``column`` marked. Returns it and, with a column, how many columns its pointer
    (``^``) stands after."""
    index = None if column is None else column - 1
    start = 0
    if len(source) > MAX_LINE_CHARS and index is not None and index >= MAX_LINE_CHARS - 20:
        start = max(0, min(index - MAX_LINE_CHARS // 2, len(source) - MAX_LINE_CHARS))
    cut = source[start:start + MAX_LINE_CHARS]
    head = "…" if start > 0 else ""
    tail = "…" if start + MAX_LINE_CHARS < len(source) else ""
    if index is None:
        shown, _ = _expand(head + cut.translate(_VISIBLE) + tail, 0)
        return _text(shown), None
    at = index - start
    before, col = _expand(head + cut[:at].translate(_VISIBLE), 0)
    char = cut[at:at + 1].translate(_VISIBLE)
    marked, after_col = _expand(char, col) if char else (" ", col + 1)
    after, _ = _expand(cut[at + 1:].translate(_VISIBLE) + tail, after_col)
    return (f"{_text(before)}<mark>{_text(marked)}</mark>{_text(after)}", col)


def _expand(part: str, column: int) -> tuple[str, int]:
    """``part`` with its tabs expanded, starting at display column ``column``; and the
    display column after it (a wide character takes two, a combining mark none)."""
    out = []
    for char in part:
        if char == "\t":
            n = TAB_WIDTH - column % TAB_WIDTH
            out.append(" " * n)
            column += n
            continue
        out.append(char)
        if unicodedata.combining(char):
            continue
        column += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return "".join(out), column


def _text(value: str) -> str:
    """``value`` escaped for an element's content."""
    return html.escape(value, quote=False)


def _attr(value: str) -> str:
    """``value`` escaped for a quoted attribute's value."""
    return html.escape(value, quote=True)
