"""Writing the site: to a fresh folder beside the output, swapped in at the end.

SITE.md: a build killed at any moment leaves either the previous or the new site
whole; a failing build leaves the previous one untouched; the build never deletes
anything it did not write (an output folder it did not create is refused).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MARKER = ".rules-site"
"""A file the build writes into every output folder, so it knows the folder is its own."""
MARKER_TEXT = b"Written by the rules site generator; the next build replaces this folder.\n"

WRITERS = 4
"""Threads writing files at once."""

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


class OutputError(Exception):
    """The output folder cannot be written (not ours, or a file system error)."""


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux ``renameat2(RENAME_EXCHANGE)``); False if unsupported."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    rc = fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return bool(rc == 0)


def _ours(folder: Path) -> bool:
    return (folder / MARKER).is_file()


class SiteWriter:
    """Writes a site into a fresh folder beside ``out`` and swaps it in at the end.

    Create it (which checks that ``out`` may be replaced), :meth:`write` files as often as
    needed (also from forked worker processes), then :meth:`commit` or :meth:`abort`.
    Until :meth:`commit`, the previous ``out`` is untouched.

    Raises:
        OutputError: ``out`` exists and is not a folder this generator wrote, or the
            fresh folder cannot be made.
    """

    def __init__(self, out: Path) -> None:
        out = out.absolute()
        if out.exists() and not (out.is_dir() and (_ours(out) or not any(out.iterdir()))):
            raise OutputError(
                f"{out}: the output folder exists and was not written by this generator; "
                f"expected a new folder or one holding {MARKER} (remove it or choose --out)"
            )
        self.out = out
        parent = out.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            for stale in parent.glob(f".{out.name}.new-*"):
                if stale.is_dir() and _ours(stale):
                    shutil.rmtree(stale)
            self.tmp = parent / f".{out.name}.new-{os.getpid()}"
            self.tmp.mkdir()
            (self.tmp / MARKER).write_bytes(MARKER_TEXT)
        except OSError as exc:
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc

    def write(self, files: Mapping[str, bytes]) -> None:
        """Write ``files`` (site-relative POSIX path → bytes) into the fresh folder.

        Raises:
            OutputError: a file cannot be written.
        """
        tmp = self.tmp

        # Creating folders and files is latency-bound on most file systems: a few
        # threads overlap it.
        def write(rel: str) -> None:
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[rel])

        try:
            with ThreadPoolExecutor(max_workers=WRITERS) as pool:
                list(pool.map(write, sorted(files)))
        except OSError as exc:
            raise OutputError(f"{self.out}: cannot write the site: {exc}") from exc

    def commit(self) -> None:
        """Put the fresh folder in the place of ``out`` (atomically where the system
        can exchange two folders) and remove the previous site.

        Raises:
            OutputError: the swap failed; the previous site is still in place.
        """
        out, tmp = self.out, self.tmp
        try:
            if out.exists():
                if not _exchange(tmp, out):
                    old = out.parent / f".{out.name}.old-{os.getpid()}"
                    out.rename(old)
                    tmp.rename(out)
                    tmp = old
                shutil.rmtree(tmp)
            else:
                tmp.rename(out)
        except OSError as exc:
            raise OutputError(f"{out}: cannot write the site: {exc}") from exc

    def abort(self) -> None:
        """Remove the fresh folder; ``out`` stays as it was."""
        shutil.rmtree(self.tmp, ignore_errors=True)


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
