"""Writing the files the user keeps, and reports, so that a file is always whole
(docs/site.md, "Command line").

--fix``'s case files, ``i18n update``'s catalogs) reads it with :meth:`Layout.read_state`
and writes it with :func:`rewrite_file`: to a temporary copy in the same folder, then,
when the file is still as it was read, renamed into place, in the file's own form (its
permissions, line ends and byte-order mark). A write that fails or is killed leaves the
previous file whole, and a file another program saved meanwhile is not written
(:class:`FileChanged`). :func:`replace_file` writes a file that was not read (a report)
as a shell's ``>`` would: a symbolic link followed, a device or a pipe written to in
place. A copy left by a killed process carries a lock no process holds any more; the
next write into its folder removes it (:func:`sweep_temporary_copies`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from generator.layout.reading import NotAnInput
from generator.layout.reading import read_regular


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` as the file ``path`` names so that a file is always whole: to a
    temporary copy in the same folder (:func:`_temporary_copy`), flushed to disk, then
    renamed over it (keeping its permissions). A failure (a full disk, a kill) leaves the
    previous file as it was. For a file a command read and rewrites (a case file, a
    catalog), :func:`rewrite_file`, which also refuses a file changed since it was read.

    What a shell's ``>`` would write to stays what it is: a symbolic link is followed
    (its target is replaced, the link stays a link; a link to nothing creates its
    target), and a character device or a pipe (``/dev/null``, a FIFO) is written to in
    place, never replaced by a file. A block device or a folder is refused. A name of
    an open descriptor (``/dev/stdout``, ``/proc/self/fd/N``) is the command line's to
    recognise before (``generator.cli``): here it would be the file behind it.

    Args:
        path: the file to write; its folder is made when missing.
        data: the file's whole new content (bytes).

    Raises:
        OSError: the file could not be written (``ENOSPC`` from a full device,
            ``EISDIR`` for a folder, ``EPERM`` for a block device); a regular file is
            then unchanged and no temporary file is left behind.
    """
    try:
        st: os.stat_result | None = os.stat(path)  # the link's target, if one
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if st is not None and stat.S_ISBLK(st.st_mode):
        raise OSError(errno.EPERM, "a block device, not a file", str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        write_in_place(path, data)  # a device, a pipe, a socket
        return
    if os.path.islink(path):
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary_copy(path, data)
    _rename_into_place(fd, tmp, path, lambda: None)


TEMP_TAG = "rules-site-"
"""The mark in the name of a temporary copy, ``.NAME.rules-site-XXXXXXXX.tmp`` beside
NAME (:func:`_temporary_copy`): how a later write knows a copy that a killed process
left (:func:`sweep_temporary_copies`)."""
_TEMP_NAME = re.compile(r"\..{1,40}\." + re.escape(TEMP_TAG) + r"[a-z0-9_]{8}\.tmp",
                        re.DOTALL)


class FileChanged(Exception):
    """A file changed since the command read it (another program saved it meanwhile);
    nothing was written to it. The message reads "the file changed since it was read;
    nothing written to it", for a caller's ``FILE:1:`` line.

    Attributes:
        path: the file as the command named it.
    """

    def __init__(self, path: Path) -> None:
        super().__init__("the file changed since it was read; nothing written to it")
        self.path = path


Identity = tuple[int, int, int, int]
"""A file's (st_dev, st_ino, st_size, st_mtime_ns): another program's save (in place or
by renaming a new file over it) changes at least one of them, or its bytes."""


def _identity(status: os.stat_result) -> Identity:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


@dataclass(frozen=True)
class FileState:
    """A file of the user's as a command read it, to be rewritten only while it is still
    so (:func:`rewrite_file`).

    Attributes:
        path: the file as named (a symbolic link stays one: its target is rewritten).
        real: where ``path`` led when it was read (links resolved).
        data: its bytes as read; ``None``: there was no file.
        identity: its :data:`Identity` just after the read; ``None`` with no file, or
            when the file was gone by then.
        digest: the SHA-256 of ``data`` (hex); ``""`` with no file.
    """

    path: Path
    real: Path
    data: bytes | None
    identity: Identity | None
    digest: str

    @classmethod
    def after_read(cls, path: Path, data: bytes | None) -> FileState:
        """The state of ``path``, whose bytes ``data`` were just read (``None``: no file
        was there). The identity is taken now, after the read: a save that lands after
        this changes the identity, and one that landed during the read or just after it
        gives other bytes than ``data`` when the final check (:meth:`changed`) reads the
        file again, so that either shows.

        Args:
            path: the file as the command names it (a link, or the file).
            data: the bytes read from it, or ``None`` for a file that did not exist.
        """
        real = Path(os.path.realpath(path))
        identity: Identity | None = None
        if data is not None:
            with contextlib.suppress(OSError):  # gone already: changed, at the check
                identity = _identity(os.stat(real))
        digest = hashlib.sha256(data).hexdigest() if data is not None else ""
        return cls(path, real, data, identity, digest)

    def changed(self) -> bool:
        """Whether the file is no longer as it was read: its name leads elsewhere, a file
        appeared or went, its identity differs, or its bytes do (read again: a save of
        the same size within the file system's clock tick keeps the identity)."""
        if Path(os.path.realpath(self.path)) != self.real:
            return True
        try:
            now = os.stat(self.real)
        except FileNotFoundError:
            return self.data is not None
        except OSError:
            return True
        if self.data is None or self.identity is None or _identity(now) != self.identity:
            return True
        try:
            current = read_regular(self.real, self.real.name, limit=now.st_size)
        except NotAnInput:
            return True
        return hashlib.sha256(current).hexdigest() != self.digest


def before_final_check(path: Path) -> None:
    """Called by :func:`rewrite_file` with the file's name once the new content is
    written to the temporary copy and flushed to disk, just before the final check
    that the file is as it was read. Does nothing: a test replaces it (``monkeypatch``)
    to save another program's edit in that window."""


def rewrite_file(state: FileState, data: bytes | str) -> None:
    """Replace the file ``state`` read by ``data``, unless it changed since it was read;
    the one way a command rewrites a file of the user's (``check --fix``'s case files,
    ``i18n update``'s catalogs).

    ``data`` (a ``str`` is encoded as UTF-8) takes the form of the file it replaces
    (:func:`in_form_of`: its byte-order mark and its line ends) and is written to a
    temporary copy in the file's folder (stale copies of killed processes swept first),
    flushed to disk and given the file's permissions; then the file is checked again
    (:meth:`FileState.changed`: where its name leads, its identity, its bytes' digest)
    and the copy renamed over it. A symbolic link is followed (its target replaced, the
    link kept). A save that lands between the final check and the rename (a few system
    calls) is not seen: no rename can be made conditional.

    Args:
        state: the file as the command read it (:meth:`Layout.read_state`, or
            :meth:`FileState.after_read`).
        data: the file's whole new content.

    Raises:
        FileChanged: the file changed since it was read (or appeared, for a state of no
            file); nothing is written, no temporary copy is left.
        OSError: it could not be written (a full disk, a file size limit, no
            permission); the file is unchanged, no temporary copy is left.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = state.real
    if state.data is None:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary_copy(target, in_form_of(state.data, raw))

    def check() -> None:
        before_final_check(state.path)
        if state.changed():
            raise FileChanged(state.path)

    _rename_into_place(fd, tmp, target, check)


def in_form_of(original: bytes | None, data: bytes) -> bytes:
    """``data`` in the form of the file ``original`` it replaces: with its UTF-8
    byte-order mark, where ``original`` has one and ``data`` not; with its line ends
    (``\\r\\n`` or ``\\r``, as its first line ends) where ``data`` ends its lines with a
    plain ``\\n`` and holds no ``\\r`` at all (text made anew, as Babel writes a
    catalog); ``data`` with a ``\\r`` keeps its own line ends (an edit of the original's
    text, mixed ends and all)."""
    if original is None:
        return data
    bom = "\ufeff".encode()
    if original.startswith(bom) and not data.startswith(bom):
        data = bom + data
    if b"\r" not in data:
        end = re.search(rb"\r\n|[\r\n]", original)
        if end is not None and end.group() != b"\n":
            data = data.replace(b"\n", end.group())
    return data


def write_failure(rel: str, exc: OSError, written: Iterable[str],
                  left: Iterable[str] = ()) -> str:
    """The line that says a file could not be written, and what was: ``FILE:1: cannot
    be written: WHY; the file is unchanged (written before it: A, B; not written: C)``.

    Args:
        rel: the file that could not be written (relative to the project).
        exc: why.
        written: the files written before it.
        left: the files not written after it (the command stopped).
    """
    done = list(written)
    rest = list(left)
    outcome = f"written before it: {', '.join(done)}" if done else "nothing was written"
    if rest:
        outcome += f"; not written: {', '.join(rest)}"
    return (f"{rel}:1: cannot be written: {exc.strerror or exc}; the file is unchanged "
            f"({outcome})")


def _temporary_copy(target: Path, data: bytes) -> tuple[int, str]:
    """A temporary copy of ``data`` beside ``target`` (``.NAME.rules-site-XXXXXXXX.tmp``,
    :data:`TEMP_TAG`), written, flushed to disk and given ``target``'s permissions (a new
    file's, from the umask, where there is none). It is returned open and locked
    (``flock``) for :func:`_rename_into_place`: the lock, which the system drops when
    the process ends however it ends, tells a live copy from a killed process's, which
    :func:`sweep_temporary_copies` removes here first.

    Returns:
        The open descriptor and the copy's path.

    Raises:
        OSError: the copy could not be made; none is left.
    """
    folder = target.parent
    sweep_temporary_copies(folder)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    # (the name cut to 40 characters, 160 bytes at most: uncut, the copy's name, 25 bytes
    # longer than the file's, would be too long for the system for a name of 231 bytes)
    prefix = f".{target.name[:40]}.{TEMP_TAG}"
    for _attempt in range(10):
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.lstat(tmp).st_ino == os.fstat(fd).st_ino:
                break  # locked, and still the copy's name (no sweep took it meanwhile)
        except (BlockingIOError, FileNotFoundError):
            pass  # another process's sweep holds it, or removed it: another name
        except BaseException:
            _discard(fd, tmp)
            raise
        os.close(fd)
    else:
        raise OSError(errno.EAGAIN, "no temporary file could be kept", str(folder))
    try:
        write_all(fd, data)
        os.fsync(fd)
        os.fchmod(fd, mode)
    except BaseException:
        _discard(fd, tmp)
        raise
    return fd, tmp


def _rename_into_place(fd: int, tmp: str, target: Path, check: Callable[[], None]) -> None:
    """Run ``check``, then rename the locked copy ``tmp`` (open as ``fd``) over
    ``target`` and flush the folder. Whatever ``check`` or the rename raise, the copy
    is removed and the exception raised again."""
    try:
        check()
        os.replace(tmp, target)
    except BaseException:
        _discard(fd, tmp)
        raise
    os.close(fd)  # (after the rename: until then the lock keeps the copy from a sweep)
    _sync_folder(target.parent)


def _discard(fd: int, tmp: str) -> None:
    """Remove the temporary copy ``tmp`` and close its descriptor, quietly."""
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    with contextlib.suppress(OSError):
        os.close(fd)


def sweep_temporary_copies(folder: Path) -> list[str]:
    """Remove the temporary copies (:func:`_temporary_copy`) that processes killed while
    writing (``kill -9``, a power cut) left in ``folder``: each regular file named
    ``.NAME.rules-site-XXXXXXXX.tmp`` that no live process holds locked. A copy being
    written holds its lock; anything else, or what cannot be removed, stays.

    Returns:
        The names removed.
    """
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if TEMP_TAG not in entry.name or not _TEMP_NAME.fullmatch(entry.name):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            status = os.fstat(fd)
            if stat.S_ISREG(status.st_mode):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a live writer's: raises
                if os.lstat(entry.path).st_ino == status.st_ino:
                    os.unlink(entry.path)
                    removed.append(entry.name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def write_in_place(path: Path, data: bytes, *, append: bool = False) -> None:
    """Write ``data`` into the file ``path`` opens (a device, a pipe; with ``append``,
    at its end: another process's descriptor through ``/proc``), never replacing it.

    Raises:
        OSError: it cannot be opened or written (``ENOSPC`` from ``/dev/full``).
    """
    fd = os.open(path, os.O_WRONLY | (os.O_APPEND if append else 0) | os.O_CLOEXEC)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write ``data`` whole to the open file descriptor ``fd`` (``os.write`` may write
    part of it). Raises OSError."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
