"""Reading a file only when it is a regular file, never blocking on a FIFO, and the
record of what a build read (docs/site.md, "Command line", "Inputs").

:meth:`generator.layout.Layout.read` reads every input through :func:`read_regular`,
which checks with ``stat`` before opening, opens without blocking and checks the opened
file again; the theme and the built-in catalogs, trusted package data, are read with
the same function but not bound to the project's folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from pathlib import Path

from generator.errors import InputError
from generator.errors import shown
from generator.errors import too_large


class NotAnInput(Exception):
    """A path that is not one of the project's inputs (or cannot be read).

    Attributes:
        error: the input error at ``FILE:1`` saying why.
    """

    def __init__(self, error: InputError) -> None:
        super().__init__(error.format())
        self.error = error


_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder where a file is expected"),
    (stat.S_ISFIFO, "a FIFO (named pipe), not a regular file"),
    (stat.S_ISCHR, "a character device, not a regular file"),
    (stat.S_ISBLK, "a block device, not a regular file"),
    (stat.S_ISSOCK, "a socket, not a regular file"),
)
EXPECTED_INPUT = "expected a regular file inside the project"
"""What a message of a path that is not an input expects."""


def link_leading(where: str, expected: str = EXPECTED_INPUT) -> str:
    """What is wrong with a path whose links lead ``where`` (``"outside the project"``,
    ``"into .git/"``, ``"into the output folder"``), where ``expected`` (a file, or
    ``"expected a folder inside the project"``) was."""
    return f"a symbolic link leading {where}; {expected} (a link is followed only to one)"


Bound = Callable[[str], str | None]
"""Where an opened file must be: given the real path of the file opened, ``None`` when
it may be read, else where it is instead (:meth:`generator.layout.Layout.inside`)."""


REPLACED = ("the file was replaced while it was opened; expected a file that stays in "
            "place while it is read (run the command again)")
"""What is wrong with a file whose path led to another file once it was open."""


def opened_outside(fd: int, path: str | Path, status: os.stat_result, bound: Bound
                   ) -> str | None:
    """What is wrong with the place of the file open as ``fd`` (opened at ``path``;
    ``status`` its ``fstat``), or ``None`` when it is within ``bound``. Asked of the
    file opened, not of the path alone, so that a link swapped between a check of the
    path and the opening cannot lead a read elsewhere.

    The path Linux names the open file by (``/proc/self/fd``) answers where it is within
    ``bound``; else ``path`` is resolved now, must be within ``bound``, and must still lead
    to the file opened (device and inode): that also holds where the system spells a
    path otherwise (a folder named in another case on a case-insensitive disk).

    Returns:
        ``None``, or a message's cause: :func:`link_leading` a place out of bounds, or
        :data:`REPLACED` (a save or a swap while the file was opened).
    """
    with contextlib.suppress(OSError):
        if bound(os.readlink(f"/proc/self/fd/{fd}")) is None:
            return None
    real = os.path.realpath(path)
    where = bound(real)
    if where is not None:
        return link_leading(where)
    try:
        now = os.stat(real)
    except OSError:
        return REPLACED
    return None if (now.st_dev, now.st_ino) == (status.st_dev, status.st_ino) else REPLACED


def kind_problem(mode: int) -> str | None:
    """What is wrong with a file of ``stat`` mode ``mode`` as an input (a folder, a FIFO,
    a device, ...); ``None`` for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, what in _KINDS:
        if test(mode):
            return f"{what}; {EXPECTED_INPUT}"
    return f"not a regular file; {EXPECTED_INPUT}"


_RECORDS: list[dict[str, str]] = []
"""The records of :func:`recorded_reads` open in this process."""


@contextlib.contextmanager
def recorded_reads() -> Iterator[dict[str, str]]:
    """Record every file read through :meth:`Layout.read` in this process while the
    block runs: its path (or a theme file's label) → the SHA-256 hex digest of the bytes
    read, ``""`` for a file read twice with other bytes. What a build checks against the
    digests it keyed its cache with (a file saved while the build ran:
    :func:`generator.commands.build.build`).

    Yields:
        The record, filled as files are read.
    """
    record: dict[str, str] = {}
    _RECORDS.append(record)
    try:
        yield record
    finally:
        _RECORDS.remove(record)


def reads_recorded() -> dict[str, str]:
    """What the records open in this process hold (:func:`recorded_reads`): a forked
    worker's reads, which its parent's record gets with :func:`record_reads`."""
    return {rel: sha for record in _RECORDS for rel, sha in record.items()}


def record_reads(reads: Mapping[str, str]) -> None:
    """Count ``reads`` (path → SHA-256, as :func:`reads_recorded` gives them: a worker's)
    in the records open in this process, as if read here."""
    for rel, sha in reads.items():
        record_read(rel, sha)


def recording() -> bool:
    """Whether a record of reads is open in this process (:func:`recorded_reads`): a
    reader hashes what it read only then."""
    return bool(_RECORDS)


def record_read(rel: str, sha: str) -> None:
    """One read of ``rel``, of bytes of SHA-256 ``sha``, in every open record; ``""``
    where the file was read before with other bytes."""
    for record in _RECORDS:
        record[rel] = sha if record.setdefault(rel, sha) == sha else ""

def read_regular(path: Path, rel: str, *, limit: int | None = None, what: str = "file",
                 advice: str = "", bound: Bound | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file (a link followed), checked before
    opening and again on the opened file; never blocks on a FIFO. :meth:`Layout.read`
    also checks that the file is inside the project.

    Args:
        path: the file.
        rel: its name in messages (relative to the project).
        limit: the largest size read, in bytes: a larger file is refused before it is
            read (:func:`generator.errors.too_large`, with ``what`` and ``advice``).
        bound: where the opened file must be (see :func:`open_regular`).

    Raises:
        NotAnInput: not a regular file, out of ``bound``, or it cannot be read; the error
            is at ``rel:1``.
    """
    fd = open_regular(path, rel, limit=limit, what=what, advice=advice, bound=bound)
    try:
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError as exc:
        raise _unreadable(rel, exc) from exc
    finally:
        os.close(fd)


def _unreadable(rel: str, exc: OSError) -> NotAnInput:
    """The error of a file that cannot be read (``rel:1``)."""
    return NotAnInput(InputError(shown(rel), 1, None, f"cannot read the file: "
                                 f"{exc.strerror or exc}; expected a readable file"))


_LAST_PART_A_LINK = frozenset({errno.ELOOP, errno.EMLINK})
"""What ``open`` with ``O_NOFOLLOW`` answers for a path whose last part is a symbolic
link: ``ELOOP`` (Linux, macOS), ``EMLINK`` (FreeBSD)."""


def open_regular(path: Path, rel: str, *, limit: int | None = None, what: str = "file",
                 advice: str = "", bound: Bound | None = None) -> int:
    """``path`` opened to read (blocking) if it is a regular file, checked as
    :func:`read_regular` checks it; the caller closes the descriptor.

    Args:
        path, rel, limit, what, advice: as :func:`read_regular`.
        bound: where the file opened must be, asked of the file the kernel opened
            (:func:`opened_outside`).

    Raises:
        NotAnInput: as :func:`read_regular`.
    """
    def error(why: str) -> NotAnInput:
        return NotAnInput(InputError(shown(rel), 1, None, why))

    try:
        why = kind_problem(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(f"a symbolic link loop; {EXPECTED_INPUT}") from exc
        raise _unreadable(rel, exc) from exc
    if why:
        raise error(why)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        try:
            fd = os.open(path, flags)
        except OSError as exc:
            if exc.errno not in _LAST_PART_A_LINK:
                raise
            # The link's target, resolved, opened only if it is no link itself by then.
            # Only a link is resolved: ``realpath`` looks at each part of the path in
            # Python, 15 of the 22 microseconds an open took when it resolved them all.
            fd = os.open(os.path.realpath(path), flags)
    except OSError as exc:
        raise _unreadable(rel, exc) from exc
    try:
        status = os.fstat(fd)
        why = kind_problem(status.st_mode)  # it may have changed since stat
        if why:
            raise error(why)
        wrong = opened_outside(fd, path, status, bound) if bound is not None else None
        if wrong is not None:
            raise error(wrong)
        large = None if limit is None else too_large(shown(rel), status.st_size, limit,
                                                     what, advice)
        if large is not None:
            raise NotAnInput(large)
        os.set_blocking(fd, True)
    except OSError as exc:
        os.close(fd)
        raise _unreadable(rel, exc) from exc
    except BaseException:
        os.close(fd)
        raise
    return fd
