"""Writing the site: to a fresh folder beside the output, swapped in at the end.

docs/site.md: a build killed at any moment leaves either the previous or the new site
whole; a failing build leaves the previous one untouched; the build never deletes
anything it did not write (an output folder it did not create is refused).

How: the output folder holds a marker file listing every file the build wrote. A build
takes a lock beside the output (so two builds never write at once), writes the new
site into ``.<name>.new-<pid>``, and exchanges it with the old folder in one atomic
step (Linux ``renameat2``; elsewhere two renames). The old folder then loses the files
its marker lists, its marker last (:func:`retire`); anything else in it, put there
while the build ran, is moved into the new site or kept beside it, never deleted. The
lock file records the pid of every build of that output that has
not finished (``.<name>.lock``, :class:`Lock`): a build killed on the way leaves its
pid there beside its folders, and the next build removes the folders of those pids
alone, and only when they hold its marker or folders alone; a folder that merely has
such a name (``--out .site.new-99999``) is somebody's, never removed.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import shutil
import stat
from collections.abc import Callable
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from generator.errors import Interrupted
from generator.errors import signals_deferred
from generator.output_files import MARKER
from generator.output_files import MARKER_HEADER
from generator.output_files import SOURCE
from generator.output_files import OutputError
from generator.output_files import ReadFailed
from generator.output_files import SourceGone
from generator.output_files import copy_into
from generator.output_files import entries_below
from generator.output_files import exchange
from generator.output_files import folders_of
from generator.output_files import holds_marker
from generator.output_files import marker_listing
from generator.output_lock import Lock
from generator.output_lock import left_by
from generator.output_lock import leftovers
from generator.output_retire import folders_only
from generator.output_retire import names_shown
from generator.output_retire import remove_empty_folders
from generator.output_retire import remove_site_folder
from generator.output_retire import retire
from generator.output_retire import take_spare

__all__ = ["MARKER", "WRITERS", "OutputError", "ReadFailed", "SiteWriter", "SourceGone",
           "copy_into", "holds_exactly", "overlap_error", "write_site"]
"""The output folder's writer and what its users need of the modules below it
(:mod:`generator.output_files`, :mod:`generator.output_lock`,
:mod:`generator.output_retire`)."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
WRITERS = 4
"""Threads writing files at once (creating files is latency-bound on most file systems)."""
POOLED_FROM = 64
"""The fewest files written by :data:`WRITERS` threads; fewer are written one after the
other. Starting the threads costs more than they save on a small batch (measured: 16 files
of 20 kB, 1-2 ms one by one against 3-14 ms pooled, on disk and on tmpfs; 256 files on
disk, 70 ms one by one against 32 ms pooled)."""


def _inside_output(out: Path) -> Path | None:
    """The output folder of an earlier build that holds ``out`` (a folder above it with
    a marker), or ``None``: a site written inside another would block every later build
    of that one."""
    for place in out.parents:
        if holds_marker(place):
            return place
    return None


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
        build's fresh folder (:func:`take_spare`): creating and removing a site's
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
            self._lock = Lock(parent / f".{out.name}.lock", wait).__enter__()
        except OSError as exc:
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc
        self.tmp = parent / f".{out.name}.new-{os.getpid()}"
        self._left: list[int] = []
        """Earlier builds' pids whose folders could not be removed (kept in the record)."""
        try:
            self._check_replaceable()  # again, now that no other build is writing
            for pid in self._lock.earlier:  # builds of this output that did not finish
                for stale in left_by(parent, out.name, pid):
                    if not (stale.is_dir() and not stale.is_symlink() and (
                            holds_marker(stale) or folders_only(stale))):
                        continue  # not what a build leaves: somebody's, left alone
                    try:  # left by a build that was killed
                        if marker_listing(stale) is None:  # a fresh folder, or folders alone
                            remove_site_folder(stale)
                        else:  # a site (an old one, or a new one never swapped in)
                            self.warnings += retire(stale, out, None, None)
                    except OSError as exc:
                        self._left.append(pid)
                        self.warnings.append(f"{stale}: could not remove what an earlier "
                                             f"build left: {exc}")
            self._lock.record([os.getpid(), *self._left])
            if not take_spare(spare, self.tmp):
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
        mine = left_by(out.parent, out.name, os.getpid())
        self._lock.record([*self._left, *([os.getpid()] if mine else [])])
        self._lock.__exit__(None, None, None)

    def _check_replaceable(self) -> None:
        out = self.out
        if out.is_symlink():
            raise OutputError(f"{out}: the output folder is a symbolic link; expected a "
                              "real folder (or none): the build replaces it as a whole")
        if not out.exists():
            return
        if not out.is_dir() or not (holds_marker(out) or not any(out.iterdir())):
            raise OutputError(
                f"{out}: the output folder exists and was not written by this generator; "
                f"expected a new folder or one holding {MARKER} (remove it or choose --out)"
            )
        listed = marker_listing(out) if holds_marker(out) else set()
        if listed is None:
            raise OutputError(
                f"{out}: its {MARKER} lists no files, so this generator cannot tell its "
                "own files from yours; expected a folder a build wrote, whose marker lists "
                "every file (remove the folder or choose --out)")
        folders = folders_of(listed)
        foreign = [f for f in entries_below(out) if f not in listed and f not in folders]
        if foreign:
            raise OutputError(
                f"{out}: holds files this generator did not write ({names_shown(foreign)}); "
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
            if len(files) < POOLED_FROM:
                for rel in sorted(files):
                    write(rel)
            else:
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
            fd = os.open(source, SOURCE)
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
            remove_empty_folders(tmp)  # a spare folder's that this site does not use
            listing = "".join(f"{f}\n" for f in entries_below(tmp, folders=False))
            (tmp / MARKER).write_text(MARKER_HEADER + listing, encoding="utf-8")
            with signals_deferred():  # the swap and ``swapped`` agree, whenever Ctrl-C comes
                if out.exists():
                    old = out.parent / f".{out.name}.old-{os.getpid()}"
                    if exchange(tmp, out):
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
                self.warnings += retire(old, out, out, self.spare)
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
                    remove_site_folder(self.tmp)
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
    if out.is_symlink() or not out.is_dir() or marker_listing(out) != set(files) \
            or leftovers(out.parent, out.name):  # what a killed build left: removed first
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
