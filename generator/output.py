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


def write_site(out: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` (site-relative POSIX path → bytes) as the folder ``out``.

    The files go to ``.<name>.new-<pid>`` beside ``out`` first; then the new folder
    takes the place of the old in one atomic exchange (or two renames where the
    system has no exchange), and the old folder, which this build wrote, is removed.

    Raises:
        OutputError: ``out`` exists and is not a folder this generator wrote, or
            writing failed (the previous site is left as it was).
    """
    out = out.absolute()
    if out.exists() and not (out.is_dir() and (_ours(out) or not any(out.iterdir()))):
        raise OutputError(
            f"{out}: the output folder exists and was not written by this generator; "
            f"expected a new folder or one holding {MARKER} (remove it or choose --out)"
        )
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        for stale in parent.glob(f".{out.name}.new-*"):
            if stale.is_dir() and _ours(stale):
                shutil.rmtree(stale)
        tmp = parent / f".{out.name}.new-{os.getpid()}"
        tmp.mkdir()
        (tmp / MARKER).write_bytes(MARKER_TEXT)
        # Creating folders and files is latency-bound on most file systems: a few
        # threads overlap it.
        def write(rel: str) -> None:
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(files[rel])

        with ThreadPoolExecutor(max_workers=WRITERS) as pool:
            list(pool.map(write, sorted(files)))
        if out.exists():
            if not _exchange(tmp, out):
                old = parent / f".{out.name}.old-{os.getpid()}"
                out.rename(old)
                tmp.rename(out)
                tmp = old
            shutil.rmtree(tmp)
        else:
            tmp.rename(out)
    except OSError as exc:
        raise OutputError(f"{out}: cannot write the site: {exc}") from exc
