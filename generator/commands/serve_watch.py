"""What the preview watches (docs/site.md, "serve"): the inputs whose changes start a build
(:class:`InputFilter`), the project folder's identity while it is watched
(:class:`ProjectFolder`), and the names a batch of changes is shown by.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import watchfiles

from generator.errors import shown as shown_name
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import TEMPLATES

WATCH_STEP_MS = 20
"""The quiet time (milliseconds) watchfiles waits for after a change before it reports
the changes together (an editor's save is several events, written within a millisecond
or two): a save is built 20 to 40 ms after it (watchfiles looks every step and reports
once a step brought nothing new)."""
IDLE_MS = 250
"""How long (milliseconds) one wait of the watcher lasts when nothing changes: the
first wait tells that the watcher is in place (then the first build starts)."""
WATCHED = (CONTENT, LOCALES, TEMPLATES, CONFIG)
"""The inputs whose changes start a build (paths relative to the project)."""


class ProjectFolder:
    """The project folder as one watcher watches it: :meth:`state` tells whether the
    path still leads to it. An open descriptor keeps the folder's identity (device,
    inode) its own while it is watched: a folder made in its place after ``rm -rf``
    cannot be given the same inode number."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._fd: int | None = None
        with contextlib.suppress(OSError):
            self._fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        self._identity = self._now() if self._fd is None else _identity(os.fstat(self._fd))

    def _now(self) -> tuple[int, int] | None:
        try:
            return _identity(os.stat(self.root))
        except OSError:
            return None

    def state(self) -> str:
        """``"here"`` (the path leads to the watched folder), ``"gone"`` (to nothing) or
        ``"new"`` (to another folder, or a file)."""
        now = self._now()
        return "gone" if now is None else "here" if now == self._identity else "new"

    def close(self) -> None:
        """Let the folder go (again: no effect)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def changed_names(found: set[tuple[watchfiles.Change, str]], root: Path) -> list[str]:
    """The files of one batch of changes, relative to ``root``, sorted, for the line
    ``changed: ...``: a file both made and removed within the batch counts only if it
    is there now (``git checkout`` removes a file and writes it again; an editor's
    temporary file is gone). ``["(a file made and removed)"]`` when nothing else is left.
    Each name is shown as :func:`generator.errors.shown` shows it (control characters
    escaped): a file's name never sends a terminal control sequence."""
    added = {path for change, path in found if change == watchfiles.Change.added}
    gone = {path for change, path in found if change == watchfiles.Change.deleted}
    passing = {path for path in added & gone if not os.path.lexists(path)}
    return sorted({shown_name(os.path.relpath(path, root)) for _, path in found
                   if path not in passing} or {"(a file made and removed)"})


class InputFilter(watchfiles.DefaultFilter):
    """The changes that start a build: a file under ``content/``, ``locales/`` or
    ``templates/``, or ``site.yaml`` (:data:`WATCHED`), except what watchfiles' default
    filter leaves out (editors' swap and backup files, ``.git/``). The project folder is
    watched whole so that a ``templates/`` or ``site.yaml`` made later is seen.

    Args:
        root: the project folder (resolved, as the watched path).
    """

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = str(root)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        """Whether the change of ``path`` (absolute) starts a build."""
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        first = rel.split("/", 1)[0]
        if not (first in WATCHED and (first != CONFIG or rel == CONFIG)):
            return False
        return bool(super().__call__(change, path))


