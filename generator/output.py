"""Writing the site: to a fresh folder beside the output, swapped in at the end.

docs/site.md: a build killed at any moment leaves either the previous or the new site
whole; a failing build leaves the previous one untouched; the build never deletes
anything it did not write (an output folder it did not create is refused).

How: the output folder holds a marker file listing every file the build wrote. A build
takes a lock beside the output (so two builds never write at once), writes the new
site into ``.<name>.new-<pid>``, and exchanges it with the old folder in one atomic
step (Linux ``renameat2``; elsewhere two renames). The old folder then loses the files
its marker lists, its marker last (:func:`_retire`); anything else in it, put there
while the build ran, is moved into the new site or kept beside it, never deleted. The
lock file records the pid of every build of that output that has
not finished (``.<name>.lock``, :class:`_Lock`): a build killed on the way leaves its
pid there beside its folders, and the next build removes the folders of those pids
alone, and only when they hold its marker or folders alone; a folder that merely has
such a name (``--out .site.new-99999``) is somebody's, never removed.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import functools
import hashlib
import os
import re
import shutil
import stat
import sys
import time
from collections.abc import Callable
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import TracebackType

from generator.errors import Interrupted
from generator.errors import shown
from generator.errors import signals_deferred

MARKER = ".rules-site"
"""The marker file in every output folder: it says the folder is this generator's and
lists the files it wrote."""
MARKER_HEADER = "Written by the rules site generator; the next build replaces this folder.\n"

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

WRITERS = 4
"""Threads writing files at once (creating files is latency-bound on most file systems)."""

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

_SOURCE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
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


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    fn = _renameat2()
    if fn is None:
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(rc == 0)


def _rename_new(a: Path, b: Path) -> bool:
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


def _ours(folder: Path) -> bool:
    """Whether ``folder`` holds a marker (a regular file, not a link)."""
    return (folder / MARKER).is_file() and not (folder / MARKER).is_symlink()


def _listed(folder: Path) -> set[str] | None:
    """The files the marker of ``folder`` lists; ``None`` for a marker without a list
    or one that is not ours (not our header, not UTF-8)."""
    try:
        text = (folder / MARKER).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith(MARKER_HEADER) or text == MARKER_HEADER:
        return None
    return set(text[len(MARKER_HEADER):].split("\n")[:-1])


RECORD_LIMIT = 64
"""The most pids the lock file records (:class:`_Lock`): builds killed one after another
whose folders could not be removed."""


def _pids(text: bytes) -> list[int]:
    """The pids a lock file records (one decimal number a line; anything else
    ignored), at most :data:`RECORD_LIMIT`, each once."""
    found: list[int] = []
    for line in text.split(b"\n"):
        line = line.strip()
        if line.isdigit() and len(line) <= 10 and int(line) not in found:
            found.append(int(line))
    return found[:RECORD_LIMIT]


def _recorded(lock: Path) -> list[int]:
    """The pids the lock file ``lock`` records, read without taking the lock; none when
    there is no such regular file (a link is not followed)."""
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        return _pids(os.pread(fd, 4096, 0))
    except OSError:
        return []
    finally:
        os.close(fd)


def _left_by(parent: Path, name: str, pid: int) -> list[Path]:
    """The folders that the build ``pid`` of the output ``parent/name`` makes while it
    runs (``.<name>.new-<pid>``, ``.<name>.old-<pid>``) and that are there."""
    return [place for place in (parent / f".{name}.new-{pid}", parent / f".{name}.old-{pid}")
            if os.path.lexists(place)]


def _leftovers(parent: Path, name: str) -> list[Path]:
    """The folders left beside the output ``parent/name`` by builds that did not finish:
    those of the pids its lock file records (:class:`_Lock`), by exact name (another
    output's, ``.site.new-1`` for ``--out 's*'``, never matches)."""
    return [place for pid in _recorded(parent / f".{name}.lock")
            for place in _left_by(parent, name, pid)]


def _inside_output(out: Path) -> Path | None:
    """The output folder of an earlier build that holds ``out`` (a folder above it with
    a marker), or ``None``: a site written inside another would block every later build
    of that one."""
    for place in out.parents:
        if _ours(place):
            return place
    return None


def _entries(folder: Path, *, folders: bool = True) -> list[str]:
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


def _folders_of(files: set[str]) -> set[str]:
    """The folders that hold ``files`` (site-relative POSIX paths), at every depth."""
    folders: set[str] = set()
    for rel in files:
        cut = rel.rfind("/")
        while cut > 0 and rel[:cut] not in folders:
            folders.add(rel[:cut])
            cut = rel.rfind("/", 0, cut)
    return folders


def _remove(folder: Path) -> None:
    """Remove a folder this generator wrote, its marker last."""
    for entry in sorted(folder.iterdir()):
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    (folder / MARKER).unlink(missing_ok=True)
    folder.rmdir()


def _take_spare(spare: Path | None, fresh: Path) -> bool:
    """Make ``spare`` (folders only, kept by :func:`_keep_spare`) the fresh folder
    ``fresh``: moved there, then claimed (:func:`_claim_folders`: each a real folder of
    the user's own holding folders alone, given the mode the umask gives a new folder).
    ``False`` when there is none, or it is not usable (a file or a link in it, a folder
    of another user's): then it goes back where it was, untouched but for the modes,
    and nothing of it is published. The spare lies in the build cache, which is not
    trusted (docs/site.md, "Incremental builds")."""
    if spare is None:
        return False
    try:
        if not stat.S_ISDIR(os.lstat(spare).st_mode):
            return False
        os.rename(spare, fresh)
    except OSError:
        return False
    try:
        if _claim_folders(fresh):
            return True
    except OSError:
        pass
    try:
        os.rename(fresh, spare)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)
    return False


def _umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux's
    ``/proc/self/status``; setting it to read it would change it for other threads
    meanwhile)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _claim_folders(top: Path) -> bool:
    """Whether ``top`` and every folder below it is a real folder of the user's own
    holding folders alone (no file, no link), giving each the mode a new folder gets
    from the umask on the way. Each folder is opened without following a link, given
    its mode, and only then listed: once it is the user's with that mode nobody else
    adds to it, so what the listing shows is what it holds. Raises OSError."""
    mode = 0o777 & ~_umask()
    uid = os.geteuid()

    def claim(fd: int) -> bool:
        info = os.fstat(fd)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            return False
        if stat.S_IMODE(info.st_mode) != mode:
            os.fchmod(fd, mode)
        with os.scandir(fd) as listing:
            names = []
            for entry in listing:
                if not entry.is_dir(follow_symlinks=False):
                    return False
                names.append(entry.name)
        for name in names:
            sub = os.open(name, _DIR, dir_fd=fd)
            try:
                if not claim(sub):
                    return False
            finally:
                os.close(sub)
        return True

    fd = os.open(top, _DIR)
    try:
        return claim(fd)
    finally:
        os.close(fd)


def _folders_only(folder: Path) -> bool:
    """Whether ``folder`` is a real folder holding folders alone, at any depth: no file
    and no link (what :func:`_keep_spare` leaves; nothing of anybody's)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    for base, dirs, files in os.walk(folder):
        if files or any(os.path.islink(os.path.join(base, d)) for d in dirs):
            return False
    return True


def _keep_spare(old: Path, spare: Path | None) -> bool:
    """Keep the replaced site ``old``, emptied of its files (:func:`_retire`), as
    ``spare``, the next build's fresh folder (:func:`_take_spare`); ``False`` when that
    cannot be done (no cache, another file system, a spare already there)."""
    if spare is None or os.path.lexists(spare):
        return False
    try:
        spare.parent.mkdir(parents=True, exist_ok=True)
        os.rename(old, spare)
    except OSError:
        return False
    return True


def _sort_out(folder: Path, listed: set[str]) -> tuple[list[str], list[str]]:
    """What the site folder ``folder`` holds, by whose it is (POSIX paths relative to
    it; the marker neither): the regular files its marker lists (``listed``), which
    its build wrote, and the topmost entries it does not list (files, links, folders
    holding no listed file, a listed name that is now a folder), which somebody else
    put there. Links are not followed; a name the marker lists counts only where the
    folder holds it (a listed ``../x`` names nothing)."""
    folders = _folders_of(listed)
    own: list[str] = []
    foreign: list[str] = []

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for entry in entries:
            rel = prefix + entry.name
            if rel == MARKER:
                continue
            if entry.is_dir(follow_symlinks=False):
                if rel in folders:
                    walk(entry.path, rel + "/")
                else:
                    foreign.append(rel)
            elif rel in listed and entry.is_file(follow_symlinks=False):
                own.append(rel)
            else:
                foreign.append(rel)

    walk(os.fspath(folder), "")
    return own, foreign


def _move_into(old: Path, new: Path, rel: str) -> list[str]:
    """Move the entry ``rel`` of the folder ``old`` to the same place in ``new``, making
    its folders there (never through a link); where that place is taken, the entry
    stays, but a folder whose place is a folder has each of its entries moved so.

    Returns:
        The entries of ``old`` that stay (``rel``, or some below it).
    """
    src, dst = old / rel, new / rel
    try:
        here = new
        for part in rel.split("/")[:-1]:
            here = here / part
            try:
                mode = os.lstat(here).st_mode
            except FileNotFoundError:
                os.mkdir(here)
                continue
            if not stat.S_ISDIR(mode):  # a file or a link where a folder belongs
                return [rel]
        if _rename_new(src, dst):
            return []
        if not (stat.S_ISDIR(os.lstat(src).st_mode) and stat.S_ISDIR(os.lstat(dst).st_mode)):
            return [rel]
        names = sorted(os.listdir(src))
    except OSError:
        return [rel]
    stay = [left for name in names for left in _move_into(old, new, f"{rel}/{name}")]
    if not stay:
        with contextlib.suppress(OSError):
            os.rmdir(src)
    return stay


AT_MOST = 5
"""The names a message gives at most (then ``…``)."""


def _names(found: list[str]) -> str:
    """``found`` as a message names them: at most :data:`AT_MOST`, each shown plainly."""
    return ", ".join(shown(f) for f in found[:AT_MOST]) + (" …" if len(found) > AT_MOST else "")


def _set_aside(folder: Path, out: Path) -> Path:
    """Rename ``folder`` to the first free ``<out>.kept-<n>`` beside the output ``out``
    (never over anything) and return that. Raises OSError."""
    for n in range(1, 1000):
        place = out.parent / f"{out.name}.kept-{n}"
        if _rename_new(folder, place):
            return place
    raise OSError(errno.EEXIST, "no free name", str(out.parent / f"{out.name}.kept-1"))


def _retire(old: Path, out: Path, new: Path | None, spare: Path | None) -> list[str]:
    """Take the replaced site ``old`` (of the output ``out``) apart without deleting
    anything its build did not write (docs/site.md, "Output folder"): what its marker
    does not list (put into the output folder while the build ran, after the check that
    refuses such a folder) is moved to the same place in the new site ``new``; the
    files its marker lists are removed, then the marker (last, so that an interrupted
    step leaves a folder the next build knows as its own); its folders become the
    ``spare`` (:func:`_keep_spare`) or are removed. Something that cannot join the new
    site (its place taken there; or ``new`` is ``None``: what a killed build left) stays
    in ``old``, which is then renamed to ``<out>.kept-<n>`` (:func:`_set_aside`).

    Returns:
        One warning for the entries moved into the new site, one for a folder set aside.

    Raises:
        OSError: a file or folder cannot be removed or renamed.
    """
    own, foreign = _sort_out(old, _listed(old) or set())
    warnings: list[str] = []
    stay = list(foreign)
    if new is not None and foreign:
        stay = [left for rel in foreign for left in _move_into(old, new, rel)]
        moved = [rel for rel in foreign if rel not in stay]
        if moved:
            them = "it" if len(moved) == 1 else "them"
            warnings.append(
                f"{out}: {_names(moved)}: put into the output folder while the build ran, "
                "so not written by this generator; kept in the new site, but the next build "
                f"refuses the folder until you move {them} away (files to publish belong in "
                "templates/root/)")
    for rel in own:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(old / rel)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(old / MARKER)
    if not stay and _keep_spare(old, spare):
        return warnings
    for base, _dirs, _files in os.walk(old, topdown=False):
        with contextlib.suppress(OSError):  # (one that holds something stays)
            os.rmdir(base)
    if os.path.lexists(old):
        left = _entries(old)
        aside = _set_aside(old, out)
        warnings.append(
            f"{aside}: holds {_names(left)}, put into the output folder {out} while a build "
            "ran: not written by this generator, so kept here for you to move")
    return warnings


def _remove_empty_folders(folder: Path) -> None:
    """Remove the folders below ``folder`` that hold no file (left from a spare folder
    by pages this site no longer has)."""
    for base, _dirs, files in os.walk(folder, topdown=False):
        if base != str(folder) and not files and not os.listdir(base):
            os.rmdir(base)


LOCK_WAIT = 60.0
"""Seconds a build waits for another build's lock before it gives up (docs/site.md); the
environment variable ``RULES_LOCK_WAIT`` overrides it (tests)."""


def _lock_wait() -> float:
    try:
        return max(0.0, float(os.environ.get("RULES_LOCK_WAIT", LOCK_WAIT)))
    except ValueError:
        return LOCK_WAIT


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class _Lock:
    """An exclusive lock on ``.<name>.lock`` beside the output (POSIX ``flock``; a no-op
    where there is none). Released when the process ends, however it ends.

    The lock file is opened without following a link (a link planted there is refused,
    never followed out of the folder; so is a file with other hard links, never written
    through). It records pids, one a line: first the build holding it, then the earlier
    builds that did not finish (:attr:`earlier`, read as the lock is taken; the holder
    writes the record, :meth:`record`). A build that finds it held says so, with the
    first pid, and waits at most ``wait`` seconds.
    """

    def __init__(self, path: Path, wait: float | None = None,
                 notify: Callable[[str], None] = _say) -> None:
        self.path = path
        self.fd: int | None = None
        self.wait = _lock_wait() if wait is None else wait
        self.notify = notify
        self.earlier: list[int] = []
        """The pids the lock file recorded when this build took it: builds of this
        output that started and did not finish (or are this one's own, from an earlier
        build in this process)."""

    def __enter__(self) -> _Lock:
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP or self.path.is_symlink():
                raise OutputError(f"{self.path}: the lock file is a symbolic link; expected "
                                  "a regular file or none (remove the link)") from exc
            if exc.errno == errno.EISDIR:
                raise OutputError(f"{self.path}: the lock file is a folder; expected a "
                                  "regular file or none (remove it)") from exc
            raise
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise OutputError(f"{self.path}: the lock file is not a regular file; expected "
                              "a regular file or none (remove it)")
        if info.st_nlink > 1:  # another name of a file elsewhere: never written through
            os.close(fd)
            raise OutputError(f"{self.path}: the lock file has {info.st_nlink - 1} other "
                              "hard link(s); expected a file of its own or none (remove "
                              "it)")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                self._wait(fd, fcntl.flock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BaseException:
                os.close(fd)
                raise
        self.fd = fd
        with contextlib.suppress(OSError):
            self.earlier = _pids(os.pread(fd, 4096, 0))
        self.record([os.getpid(), *self.earlier])  # whose lock it is, for a build that waits
        return self

    def record(self, pids: list[int]) -> None:
        """Write ``pids`` as the lock file's record (see the class's text), while held."""
        if self.fd is None:
            return
        text = "".join(f"{pid}\n" for pid in _pids("\n".join(map(str, pids)).encode()))
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, text.encode(), 0)

    def _wait(self, fd: int, flock: Callable[[int, int], None], how: int) -> None:
        """Wait for the lock, at most :attr:`wait` seconds, after saying whose it is."""
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").split("\n")[0].strip()
        except OSError:
            holder = ""
        whose = f"the build with pid {holder}" if holder.isdigit() else "another build"
        self.notify(f"{self.path}: waiting for {whose}, which is writing this output "
                    f"folder (at most {self.wait:g} s)")
        deadline = time.monotonic() + self.wait
        while True:
            try:
                flock(fd, how)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputError(
                        f"{self.path}: {whose} still holds the lock after {self.wait:g} s; "
                        "expected it to finish (try again later, or stop that build)"
                    ) from None
                time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _resolved(out: Path) -> Path:
    """``out`` absolute, links in its parent resolved (not in the output itself: a link
    there is refused)."""
    absolute = Path(os.path.abspath(out))
    return Path(os.path.realpath(absolute.parent)) / absolute.name


def overlap_error(out: Path, forbidden: tuple[Path, ...]) -> str | None:
    """Why the output folder ``out`` may not be written, seen from the paths alone (before
    anything is read or written): it is the root folder, or it is, holds or lies in one
    of the ``forbidden`` folders (the project's inputs); ``None`` when it may be.

    Returns:
        The message (``OUT: what; expected ...``), or ``None``.
    """
    out = _resolved(out)
    if out.parent == out:
        return (f"{out}: cannot replace the root folder; expected a folder of its own for "
                "the site (see --out)")
    for place in forbidden:
        place = Path(os.path.realpath(place))
        if out == place or place in out.parents or out in place.parents:
            return (f"{out}: the output folder overlaps {place}; expected a folder outside "
                    "the project's content/, locales/, templates/ and site.yaml, not "
                    "holding the project (see --out)")
    return None


class SiteWriter:
    """Writes a site into a fresh folder beside ``out`` and swaps it in at the end.

    Create it (which checks that ``out`` may be replaced and waits for any other build
    writing there), :meth:`write` files as often as needed (also from forked worker
    processes), then :meth:`commit` or :meth:`abort`; either releases the lock. Until
    :meth:`commit`, the previous ``out`` is untouched.

    Raises:
        OutputError: ``out`` exists and is not a folder this generator wrote, holds files
            it did not write, or the fresh folder cannot be made.
    """

    def __init__(self, out: Path, *, forbidden: tuple[Path, ...] = (),
                 wait: float | None = None, spare: Path | None = None) -> None:
        self.spare = spare
        """Where the folders of a replaced site are kept, emptied of files, to be the next
        build's fresh folder (:func:`_take_spare`): creating and removing a site's
        hundreds of folders is most of an incremental build's writing on some file
        systems. ``None``: fresh folders are made and old ones removed."""
        out = _resolved(out)
        self.out = out
        self.warnings: list[str] = []
        self.swapped = False
        """The new site is in place (set by :meth:`commit`)."""
        problem = overlap_error(out, forbidden)
        if problem is not None:
            raise OutputError(problem)
        holder = _inside_output(out)
        if holder is not None:
            raise OutputError(f"{out}: the output folder is inside {holder}, the site of "
                              "an earlier build; expected a folder outside it (see --out)")
        self._check_replaceable()  # before taking the lock: refuse without leaving a trace
        parent = out.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            self._lock = _Lock(parent / f".{out.name}.lock", wait).__enter__()
        except OSError as exc:
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc
        self.tmp = parent / f".{out.name}.new-{os.getpid()}"
        self._left: list[int] = []
        """Earlier builds' pids whose folders could not be removed (kept in the record)."""
        try:
            self._check_replaceable()  # again, now that no other build is writing
            for pid in self._lock.earlier:  # builds of this output that did not finish
                for stale in _left_by(parent, out.name, pid):
                    if not (stale.is_dir() and not stale.is_symlink() and (
                            _ours(stale) or _folders_only(stale))):
                        continue  # not what a build leaves: somebody's, left alone
                    try:  # left by a build that was killed
                        if _listed(stale) is None:  # a fresh folder, or folders alone
                            _remove(stale)
                        else:  # a site (an old one, or a new one never swapped in)
                            self.warnings += _retire(stale, out, None, None)
                    except OSError as exc:
                        self._left.append(pid)
                        self.warnings.append(f"{stale}: could not remove what an earlier "
                                             f"build left: {exc}")
            self._lock.record([os.getpid(), *self._left])
            if not _take_spare(spare, self.tmp):
                self.tmp.mkdir()
            (self.tmp / MARKER).write_text(MARKER_HEADER, encoding="utf-8")
        except OutputError:
            self._unlock()
            raise
        except OSError as exc:
            self._unlock()
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc

    def _unlock(self) -> None:
        """Release the lock, its record kept true: this build's pid stays in it while a
        folder of this build's is left beside the output (the next build removes it)."""
        out = self.out
        mine = _left_by(out.parent, out.name, os.getpid())
        self._lock.record([*self._left, *([os.getpid()] if mine else [])])
        self._lock.__exit__(None, None, None)

    def _check_replaceable(self) -> None:
        out = self.out
        if out.is_symlink():
            raise OutputError(f"{out}: the output folder is a symbolic link; expected a "
                              "real folder (or none): the build replaces it as a whole")
        if not out.exists():
            return
        if not out.is_dir() or not (_ours(out) or not any(out.iterdir())):
            raise OutputError(
                f"{out}: the output folder exists and was not written by this generator; "
                f"expected a new folder or one holding {MARKER} (remove it or choose --out)"
            )
        listed = _listed(out) if _ours(out) else set()
        if listed is None:
            raise OutputError(
                f"{out}: its {MARKER} lists no files, so this generator cannot tell its "
                "own files from yours; expected a folder a build wrote, whose marker lists "
                "every file (remove the folder or choose --out)")
        folders = _folders_of(listed)
        foreign = [f for f in _entries(out) if f not in listed and f not in folders]
        if foreign:
            raise OutputError(
                f"{out}: holds files this generator did not write ({_names(foreign)}); "
                "expected only the previous build's files (move them away, or put files to "
                "publish in templates/root/)"
            )

    def write(self, files: Mapping[str, bytes]) -> None:
        """Write ``files`` (site-relative POSIX path → bytes) into the fresh folder.

        Raises:
            OutputError: a file cannot be written.
        """
        tmp = self.tmp
        bad = next((rel for rel in files if _CONTROL.search(rel)), None)
        if bad is not None:
            raise OutputError(f"{self.out}: a file name holds a control character "
                              f"({bad!r}); expected plain names")

        def write(rel: str) -> None:
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[rel])

        try:
            with ThreadPoolExecutor(max_workers=WRITERS) as pool:
                list(pool.map(write, sorted(files)))
        except OSError as exc:
            raise OutputError(f"{self.out}: cannot write the site: {exc}") from exc

    def copy(self, rel: str, fill: Callable[[Path], str]) -> str:
        """Write the file ``rel`` (a site-relative POSIX path) of the fresh folder with
        ``fill``, which is given its path, writes it and returns the SHA-256 hex digest of
        its bytes: a file copied in pieces (:func:`copy_into`), never held whole in
        memory. A file that ``fill`` does not finish is removed.

        Returns:
            What ``fill`` returns.

        Raises:
            OutputError: the file cannot be written (an ``OSError`` of ``fill``).
            Whatever else ``fill`` raises.
        """
        if _CONTROL.search(rel):
            raise OutputError(f"{self.out}: a file name holds a control character "
                              f"({rel!r}); expected plain names")
        path = self.tmp / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return fill(path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                path.unlink()
            if isinstance(exc, OSError):
                raise OutputError(f"{self.out}: cannot write the site: {exc}") from exc
            raise

    def link(self, files: Mapping[str, tuple[Path, str]]) -> None:
        """Put ``files`` (site-relative POSIX path → a file to publish as it is, such as
        a copy in the build cache, and the SHA-256 hex digest its bytes must have) into
        the fresh folder, copied (never a hard link: a site file edited in place must
        change no other site, nor the cache). Each source is opened without following a
        link and checked while it is copied: the bytes published are the bytes whose
        digest is checked, whatever happens to the source's name meanwhile.

        Raises:
            SourceGone: a file of ``files`` cannot be read, is a link or not a regular
                file, or holds other bytes than its digest (its copy is removed).
            OutputError: a file cannot be written.
        """
        bad = next((rel for rel in files if _CONTROL.search(rel)), None)
        if bad is not None:
            raise OutputError(f"{self.out}: a file name holds a control character "
                              f"({bad!r}); expected plain names")
        for rel in sorted(files):
            source, sha = files[rel]
            self._copy_checked(rel, source, sha)

    def _copy_checked(self, rel: str, source: Path, sha: str) -> None:
        """Copy ``source`` into the fresh folder as ``rel``, checked against ``sha``
        (:meth:`link`)."""
        expected = "expected it to stay as the build checked it while the build runs"
        try:
            fd = os.open(source, _SOURCE)
        except OSError as exc:
            why = ("a symbolic link, never followed" if exc.errno == errno.ELOOP
                   else exc.strerror or str(exc))
            raise SourceGone(f"{source}: cannot read it to publish it as {rel}: {why}; "
                             f"{expected}") from exc
        path = self.tmp / rel
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SourceGone(f"{source}: not a regular file any more, so it is not "
                                 f"published as {rel}; {expected}")
            os.set_blocking(fd, True)
            path.parent.mkdir(parents=True, exist_ok=True)
            got = copy_into(fd, path)
        except ReadFailed as exc:
            cause = exc.__cause__
            reason = cause.strerror if isinstance(cause, OSError) else None
            raise SourceGone(f"{source}: cannot read it to publish it as {rel}: "
                             f"{reason or cause}; {expected}") from exc
        except OSError as exc:
            raise OutputError(f"{self.out}: cannot write the site: {exc}") from exc
        finally:
            os.close(fd)
        if got != sha:
            with contextlib.suppress(OSError):
                path.unlink()
            raise SourceGone(f"{source}: holds other bytes than the copy the build checked, "
                             f"so it is not published as {rel}; {expected}")

    def commit(self) -> None:
        """List the written files in the marker, put the fresh folder in the place of
        ``out`` (atomically where the system can exchange two folders) and remove the
        previous site.

        Raises:
            OutputError: the swap failed; the previous site is still in place.
            Interrupted: SIGINT or SIGTERM came after the swap (``new_site``: while the
                previous site was being removed; the next build removes the rest).
        """
        out, tmp = self.out, self.tmp
        try:
            _remove_empty_folders(tmp)  # a spare folder's that this site does not use
            listing = "".join(f"{f}\n" for f in _entries(tmp, folders=False))
            (tmp / MARKER).write_text(MARKER_HEADER + listing, encoding="utf-8")
            with signals_deferred():  # the swap and ``swapped`` agree, whenever Ctrl-C comes
                if out.exists():
                    old = out.parent / f".{out.name}.old-{os.getpid()}"
                    if _exchange(tmp, out):
                        self.swapped = True
                        tmp.rename(old)
                    else:
                        out.rename(old)
                        tmp.rename(out)
                        self.swapped = True
                else:
                    tmp.rename(out)
                    self.swapped = True
                    old = None
        except OSError as exc:
            self._unlock()
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc
        except KeyboardInterrupt as exc:  # held back until the swap was done, or not begun
            if not self.swapped:
                raise
            self._unlock()
            raise Interrupted.after(exc, new_site=True) from None
        # The new site is in place: the build has succeeded. Removing the previous one is
        # housekeeping; what cannot be removed now is removed by the next build.
        try:
            if old is not None:
                self.warnings += _retire(old, out, out, self.spare)
        except OSError as exc:
            self.warnings.append(f"{old}: could not remove the previous site: {exc}")
        except KeyboardInterrupt as exc:
            raise Interrupted.after(exc, new_site=True) from None
        finally:
            self._unlock()

    def abort(self) -> None:
        """Remove the fresh folder; ``out`` stays as it was. A Ctrl-C or SIGTERM that comes
        meanwhile is acted on once the folder is gone.

        Raises:
            Interrupted: a signal came while the folder was removed.
        """
        with signals_deferred():
            try:
                if self.tmp.exists():
                    _remove(self.tmp)
            except OSError:
                shutil.rmtree(self.tmp, ignore_errors=True)
            finally:
                self._unlock()


def holds_exactly(out: Path, files: Mapping[str, str]) -> bool:
    """Whether the output folder ``out`` already is the site ``files`` describes
    (site-relative POSIX path → the SHA-256 hex digest of the bytes it must hold): a real
    folder this generator wrote, whose marker lists exactly these files, holding nothing
    else, each a regular file with those bytes (read and hashed now), with no folder a
    killed build left beside it. A build whose site this is has nothing to write
    (docs/site.md, "Incremental builds")."""
    if out.is_symlink() or not out.is_dir() or _listed(out) != set(files) \
            or _leftovers(out.parent, out.name):  # what a killed build left: removed first
        return False
    found: set[str] = set()
    for folder, dirs, names in os.walk(out):
        dirs.sort()
        base = os.path.relpath(folder, out)
        for name in names:
            rel = name if base == "." else f"{base}/{name}".replace(os.sep, "/")
            if rel != MARKER:
                found.add(rel)
    if found != set(files):
        return False
    for rel, sha in files.items():
        try:
            fd = os.open(out / rel, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            with open(fd, "rb", closefd=False) as f:
                if hashlib.file_digest(f, "sha256").hexdigest() != sha:
                    return False
        except OSError:
            return False
        finally:
            os.close(fd)
    return True


def write_site(out: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` (site-relative POSIX path → bytes) as the folder ``out``, through a
    :class:`SiteWriter`.

    Raises:
        OutputError: ``out`` exists and is not a folder this generator wrote, or
            writing failed (the previous site is left as it was).
    """
    writer = SiteWriter(out)
    try:
        writer.write(files)
        writer.commit()
    except BaseException:
        writer.abort()
        raise
