"""Reading ``explain --case FILE`` and ``--case -`` (docs/site.md, "explain"): a regular file
or a pipe by name, standard input (a file, a pipe, a socket or a terminal), each at most
:data:`~generator.cases.loader.MAX_CASE_FILE_BYTES` (one byte more is read to know that it
holds more, never the rest); one case mapping read as the item of a case file, its errors'
positions moved back to where they are in what was read.
"""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import BinaryIO

from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.errors import InputError
from generator.errors import shown
from generator.errors import too_large
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import real_path
from generator.yamlpos import parse_yaml

COMMAND_LINE = "command line"
"""How an error in a case built from the command line names where it is."""

STDIN = "<stdin>"
"""How an error in a case read from standard input names its file."""
CASE_ADVICE = "explain one case, or a few"
"""What a too large case input is told to do."""
_EXPECTED_CASE = "expected a case file (a regular file or a pipe), or - for standard input"


def named_file(path: Path, layout: Layout) -> str:
    """How messages name the file ``path``: relative to the project where it lies inside
    it (as ``check`` names it), else as given."""
    real = real_path(path.parent) / path.name
    if real != layout.root and real.is_relative_to(layout.root):
        return shown(real.relative_to(layout.root).as_posix())
    return shown(str(path))


def read_named(path: Path, rel: str) -> bytes:
    """The bytes of ``--case FILE``: a regular file (its size checked before it is
    read) or a pipe (waited for, as ``cat`` would), at most
    :data:`MAX_CASE_FILE_BYTES`.

    Raises:
        NotAnInput: anything else (checked before opening it and again on the opened
            file), a file it cannot read, or one too large (at ``rel:1``).
    """
    def error(why: str) -> NotAnInput:
        return NotAnInput(InputError(rel, 1, None, why))

    try:
        problem = _named_kind(os.stat(path).st_mode)
    except OSError as exc:
        raise error(f"cannot read the case: {exc.strerror or exc}; expected a readable "
                    "case file") from exc
    if problem is not None:
        raise error(problem)
    try:
        with open(path, "rb") as stream:  # a FIFO: blocks until a writer opens it
            mode = os.fstat(stream.fileno())
            problem = _named_kind(mode.st_mode)  # it may have changed since stat
            if problem is not None:
                raise error(problem)
            if stat.S_ISREG(mode.st_mode):
                large = too_large(rel, mode.st_size, MAX_CASE_FILE_BYTES, "case file",
                                  CASE_ADVICE)
                if large is not None:
                    raise NotAnInput(large)
            return _bounded(stream, rel)
    except OSError as exc:
        raise error(f"cannot read the case: {exc.strerror or exc}; expected a readable "
                    "case file") from exc


def _named_kind(mode: int) -> str | None:
    """Why a file of ``mode`` is no case file ``explain`` reads by name, or ``None``."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    what = ("a folder" if stat.S_ISDIR(mode) else "a character device"
            if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"{what}; {_EXPECTED_CASE}"


def read_stdin(stdin: BinaryIO | bytes) -> bytes:
    """Standard input's bytes for ``--case -``: a regular file, a pipe, a socket or a
    terminal, at most :data:`MAX_CASE_FILE_BYTES`.

    Raises:
        NotAnInput: a device that is not a terminal, a folder, or more than the limit
            (at ``<stdin>:1``).
    """
    if isinstance(stdin, bytes):
        stream: BinaryIO = io.BytesIO(stdin)
    else:
        stream = stdin
        try:
            descriptor = stream.fileno()
            mode = os.fstat(descriptor).st_mode
        except (OSError, ValueError, io.UnsupportedOperation):
            mode = None  # not a file descriptor (a test's stream): read it, bounded
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)
                                     or stat.S_ISSOCK(mode) or os.isatty(descriptor)):
            what = "a folder" if stat.S_ISDIR(mode) else (
                "a device that is not a terminal" if stat.S_ISCHR(mode) or
                stat.S_ISBLK(mode) else "not a regular file")
            raise NotAnInput(InputError(STDIN, 1, None, f"standard input is {what}; "
                                        "expected a case from a file, a pipe or the "
                                        "terminal"))
    try:
        return _bounded(stream, STDIN)
    except OSError as exc:
        raise NotAnInput(InputError(STDIN, 1, None, f"cannot read the case: "
                                    f"{exc.strerror or exc}; expected a readable case "
                                    "file")) from exc


def _bounded(stream: BinaryIO, rel: str) -> bytes:
    """At most :data:`MAX_CASE_FILE_BYTES` of ``stream``: one byte more is read to know
    that it holds more, never the rest.

    Raises:
        NotAnInput: it holds more (at ``rel:1``).
    """
    data = stream.read(MAX_CASE_FILE_BYTES + 1)
    if len(data) > MAX_CASE_FILE_BYTES:
        limit = f"{MAX_CASE_FILE_BYTES:,} bytes ({MAX_CASE_FILE_BYTES // 1_000_000} MB)"
        raise NotAnInput(InputError(rel, 1, None, f"the case holds more than the limit of "
                                    f"{limit} a case file may have; expected a smaller "
                                    f"case: {CASE_ADVICE}"))
    return data


def as_case_file(data: bytes) -> tuple[bytes, bool]:
    """One case mapping written as a case file (``cases:`` and the case as its item,
    two columns in and one line down: :func:`shifted` moves errors back); a case file
    as it is, and bytes that are not UTF-8 too (the loader says where)."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return data, False
    doc, _errors = parse_yaml(text, "")  # read as the loader reads it, which reports
    value = None if doc is None else doc.value  # what is wrong, at the file's name
    if not isinstance(value, dict) or "cases" in value or "defaults" in value:
        return data, False
    lines = text.splitlines(keepends=True)
    item = "".join(("- " if i == 0 else "  ") + line if line.strip() else line
                   for i, line in enumerate(lines))
    return ("cases:\n" + item).encode("utf-8"), True


def shifted(error: InputError, shift: bool) -> InputError:
    """``error`` of a case mapping read as a case file (:func:`as_case_file`, ``shift``)
    at its place in what was read: one line up, two columns left."""
    if not shift or error.line < 2:
        return error
    column = error.column - 2 if error.column is not None and error.column > 2 else \
        error.column
    return InputError(error.file, error.line - 1, column, error.message)
