"""The build cache's folder and files (:mod:`generator.cache`), each opened by its name
in its folder's descriptor, never through a link: a link, FIFO or another user's file
where one of the cache's belongs is refused or removed, never followed; and the removal
of the cache folders no build used for a month (:func:`sweep`).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import stat
import time
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on POSIX: the cache is used without its lock
    fcntl = None  # type: ignore[assignment]

APP = "rules-site"
"""The cache's folder in the user's cache folder, and the key's in the user's
configuration folder."""
READ_LIMIT = 256 * 1024 * 1024
"""The largest entry or blob read from the cache, in bytes; a larger one is damaged (the
cache folder is not trusted: a planted file of any size must not exhaust memory)."""

OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""Opens a folder, never through a link (the link itself fails: ``ENOTDIR``/``ELOOP``)."""
OPEN_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""Opens a file to read, never through a link, without waiting at a FIFO."""
OPEN_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""Creates a file that must be new."""
NOT_A_FOLDER = (errno.ENOTDIR, errno.ELOOP)
"""What opening a link or a file as a folder with :data:`OPEN_DIR` gives."""


class CacheRefused(Exception):
    """The cache's key or folder cannot be used safely (a link, another user's file, a
    key readable by others); the message says which and why. The build goes on without
    the cache (:meth:`BuildCache.__enter__`)."""



def open_folder(path: Path, name: str, parent: int, *, mode: int = 0o777,
                 heal: bool = True) -> int:
    """The folder ``name`` in the folder of descriptor ``parent`` (whose path is
    ``path.parent``; ``path`` names it in messages), opened without following a link and
    made (with ``mode``, less the umask) when missing. With ``heal``, a symbolic link
    there is removed, never followed, and a folder made in its place (a file there is an
    OSError: the cache cannot be written).

    Raises:
        CacheRefused: the folder belongs to another user; or (without ``heal``) a link or
            a non-folder is there.
        OSError: it cannot be opened or made.
    """
    for attempt in range(3):
        try:
            fd = os.open(name, OPEN_DIR, dir_fd=parent)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, mode, dir_fd=parent)
            continue
        except OSError as exc:
            if exc.errno not in NOT_A_FOLDER:
                raise
            if not heal:
                raise CacheRefused(f"{path}: a symbolic link or a file, not a folder; "
                                   "expected a folder of your own (remove it)") from exc
            if attempt < 2 and stat.S_ISLNK(mode_at(parent, name)):
                discard_at(parent, name)  # the link itself
                continue
            raise
        owner = os.fstat(fd).st_uid
        if owner != os.geteuid():
            os.close(fd)
            raise CacheRefused(f"{path}: the folder belongs to another user (uid {owner}); "
                               "expected a folder of your own")
        return fd
    raise OSError(errno.ENOENT, "it keeps going away", str(path))



STALE_DAYS = 30
"""A project's cache folder not used for this many days is removed (:func:`sweep`)."""
SWEPT = ".swept"
"""The file in ``<user cache>/rules-site/`` whose time says when :func:`sweep` last ran."""
_CACHE_NAME = re.compile(r"[0-9a-f]{16}")


def sweep(parent: Path, mine: Path, now: float | None = None) -> list[Path]:
    """Remove the cache folders of ``parent`` (``<user cache>/rules-site/``) that no build
    used for :data:`STALE_DAYS` days: a project moved, renamed or deleted (a checkout in
    a temporary folder) leaves its cache behind, named by the old path's hash, and
    nothing else would ever remove it. Runs at most once a day (the time of
    ``parent/.swept``); a folder's last use is its ``lock`` file's time (every build
    takes the lock, :meth:`BuildCache.__enter__`, and marks it); a folder a build holds
    now (its lock taken), not named as :func:`cache_folder` names them, not a real
    folder of the user's own, or ``mine`` is left alone. Nothing is opened through a
    link. What cannot be removed stays.

    Args:
        parent: the folder of every project's cache.
        mine: this build's cache folder, never removed.
        now: the time to compare with (seconds since the epoch; default the clock's).

    Returns:
        The folders removed.
    """
    now = time.time() if now is None else now
    try:
        top = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        return _sweep(parent, top, mine, now)
    finally:
        os.close(top)


def _sweep(parent: Path, top: int, mine: Path, now: float) -> list[Path]:
    try:
        if now - os.stat(SWEPT, dir_fd=top, follow_symlinks=False).st_mtime < 86_400:
            return []
    except OSError:
        pass
    try:
        fd = open_file_at(top, SWEPT, parent / SWEPT, lambda line: None)
        try:
            os.utime(fd, (now, now))
        finally:
            os.close(fd)
    except OSError:
        return []  # a cache that cannot be written: nothing to tidy
    removed = []
    for name in names_in(top):
        if (parent / name == mine or not _CACHE_NAME.fullmatch(name)
                or not stat.S_ISDIR(mode_at(top, name))):
            continue
        try:
            folder = open_folder(parent / name, name, top, heal=False)
        except (OSError, CacheRefused):
            continue
        try:
            try:
                used = os.stat("lock", dir_fd=folder, follow_symlinks=False).st_mtime
            except OSError:
                used = os.fstat(folder).st_mtime
            if now - used < STALE_DAYS * 86_400:
                continue
            lock = open_file_at(folder, "lock", parent / name / "lock", lambda line: None)
        except OSError:
            continue
        finally:
            os.close(folder)
        try:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # no build uses it now
            shutil.rmtree(name, dir_fd=top)
            removed.append(parent / name)
        except OSError:
            pass
        finally:
            os.close(lock)
    return removed



def open_file_at(folder: int, name: str, path: Path, note: Callable[[str], None]) -> int:
    """The regular file ``name`` of the cache's folder of descriptor ``folder`` opened to
    read and write, made when missing (the umask's mode), never through a link: a link,
    FIFO, folder or a file with other hard links there (``path`` in the note) is removed,
    said in a note, and the file made anew, so that opening or touching it never
    creates or changes a file elsewhere. Raises OSError."""
    for attempt in range(2):
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o666, dir_fd=folder)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO) or attempt:
                raise
        else:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode) and info.st_nlink == 1 \
                    and info.st_uid == os.geteuid():
                return fd
            os.close(fd)
            if attempt:
                break
        note(f"{path}: not a regular file of the cache's own (a link, FIFO, folder, hard "
             "link or another user's file); replaced, never followed")
        discard_at(folder, name)
    raise OSError(errno.EEXIST, "not a regular file of its own", str(path))


def read_bounded(fd: int, size: int) -> bytes | None:
    """The content of the open file ``fd`` (``size`` bytes as ``fstat`` says), or
    ``None`` when it holds more than :data:`READ_LIMIT` bytes. Raises OSError."""
    if size > READ_LIMIT:
        return None
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, max(size - total, 0) + 65536)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > READ_LIMIT:
            return None
        chunks.append(chunk)


def hash_bounded(fd: int) -> str | None:
    """The SHA-256 hex digest of the open file ``fd``, read in pieces from its start, or
    ``None`` when it holds more than :data:`READ_LIMIT` bytes. Raises OSError."""
    h = hashlib.sha256()
    total = 0
    while True:
        chunk = os.pread(fd, 1024 * 1024, total)
        if not chunk:
            return h.hexdigest()
        total += len(chunk)
        if total > READ_LIMIT:
            return None
        h.update(chunk)


def names_in(folder: int) -> list[str]:
    """The names in the open folder ``folder``; none when it cannot be read."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def exists_at(folder: int, name: str) -> bool:
    """Whether ``name`` exists in the open folder ``folder`` (a link counts)."""
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return True


def mode_at(folder: int, name: str) -> int:
    """The mode of ``name`` in the open folder ``folder`` (of a link, the link's); 0 when
    it cannot be read."""
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        return 0


def discard_at(folder: int, name: str) -> None:
    """Remove ``name`` from the cache's open folder ``folder``: a folder with what it
    holds, anything else (a link too) by its name alone; what cannot be removed stays
    (the pruning goes on with the others)."""
    try:
        if stat.S_ISDIR(mode_at(folder, name)):
            shutil.rmtree(name, dir_fd=folder)
        else:
            os.unlink(name, dir_fd=folder)
    except OSError:
        pass

