"""What every part of writing the output folder relies on: its marker (:data:`MARKER`, the
list of the files a build wrote), the errors of writing it, and the file operations it is
written with, none of which follows a link: a copy that hashes what it writes
(:func:`copy_into`), an atomic exchange of two folders and a rename that never replaces
(Linux ``renameat2``; elsewhere a check just before).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

MARKER = ".rules-site"
"""The marker file in every output folder: it says the folder is this generator's and
lists the files it wrote."""
MARKER_HEADER = "Written by the rules site generator; the next build replaces this folder.\n"
_RENAME_NOREPLACE = 1
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class OutputError(Exception):
    """The output folder cannot be written: not ours, holds files we did not write, or a
    file system error."""


class SourceGone(OutputError):
    """A file to publish as it is (:meth:`SiteWriter.link`, such as a copy in the build
    cache) is not the file the build checked any more: removed (a cache emptied while the
    build ran), unreadable, replaced by a symbolic link or by something else than a
    regular file, or holding other bytes than its digest. The output is not at fault;
    the message names the file."""


CHUNK = 1024 * 1024
"""The bytes copied at a time by :func:`copy_into` (a file is never read whole)."""
SOURCE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""Opens a file to publish, never through a link, without waiting at a FIFO."""
_TARGET = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
"""Opens a file of the new site to write (never through a link)."""


class ReadFailed(Exception):
    """Reading the source of :func:`copy_into` failed (its ``OSError`` is the cause); an
    ``OSError`` that :func:`copy_into` raises is the target's."""


def _write_all(fd: int, data: bytes | memoryview) -> None:
    """Write all of ``data`` to ``fd``. Raises OSError."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def copy_into(source: int, target: Path) -> str:
    """Copy the open file ``source``, from its start, into a new file ``target`` (made or
    emptied, never through a link), :data:`CHUNK` bytes at a time, hashing what it
    copies: memory stays bounded whatever the file's size, and the digest returned is
    that of the bytes written.

    Returns:
        The SHA-256 hex digest of the bytes copied.

    Raises:
        ReadFailed: ``source`` could not be read.
        OSError: ``target`` could not be written.
    """
    h = hashlib.sha256()
    out = os.open(target, _TARGET, 0o666)
    try:
        at = 0
        while True:
            try:
                chunk = os.pread(source, CHUNK, at)
            except OSError as exc:
                raise ReadFailed(exc) from exc
            if not chunk:
                return h.hexdigest()
            h.update(chunk)
            _write_all(out, chunk)
            at += len(chunk)
    finally:
        os.close(out)


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """The C library's ``renameat2`` (Linux), or ``None`` where there is none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        fn: Callable[..., int] = ctypes.CDLL(name, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    return fn


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    fn = _renameat2()
    if fn is None:
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(rc == 0)


def rename_new(a: Path, b: Path) -> bool:
    """Rename ``a`` to ``b`` unless something is at ``b`` (never replacing it: Linux
    ``renameat2(RENAME_NOREPLACE)``; elsewhere, or on a file system without it, checked
    just before). Returns False when ``b`` exists. Raises OSError."""
    fn = _renameat2()
    if fn is not None:
        rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_NOREPLACE)
        if rc == 0:
            return True
        err = ctypes.get_errno()
        if err == errno.EEXIST:
            return False
        if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise OSError(err, os.strerror(err), str(a))
    if os.path.lexists(b):
        return False
    os.rename(a, b)
    return True


def holds_marker(folder: Path) -> bool:
    """Whether ``folder`` holds a marker (a regular file, not a link)."""
    return (folder / MARKER).is_file() and not (folder / MARKER).is_symlink()


def marker_listing(folder: Path) -> set[str] | None:
    """The files the marker of ``folder`` lists; ``None`` for a marker without a list
    or one that is not ours (not our header, not UTF-8)."""
    try:
        text = (folder / MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith(MARKER_HEADER) or text == MARKER_HEADER:
        return None
    return set(text[len(MARKER_HEADER):].split("\n")[:-1])


def entries_below(folder: Path, *, folders: bool = True) -> list[str]:
    """Everything below ``folder`` (POSIX paths relative to it, in a stable order), the
    marker excepted: files and links, and with ``folders`` the folders too; links are not
    followed."""
    found: list[str] = []
    top = os.fspath(folder)
    for base, dirs, files in os.walk(top):  # as text: pathlib took 12 ms a build
        dirs.sort()
        rel = base[len(top):].lstrip(os.sep).replace(os.sep, "/")
        prefix = rel + "/" if rel else ""
        if folders:
            found += [prefix + d for d in dirs]
        found += [prefix + f for f in sorted(files)]
    return [f for f in found if f != MARKER]


def folders_of(files: set[str]) -> set[str]:
    """The folders that hold ``files`` (site-relative POSIX paths), at every depth."""
    folders: set[str] = set()
    for rel in files:
        cut = rel.rfind("/")
        while cut > 0 and rel[:cut] not in folders:
            folders.add(rel[:cut])
            cut = rel.rfind("/", 0, cut)
    return folders
