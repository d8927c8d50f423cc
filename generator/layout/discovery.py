"""Where the project is when no ``--project`` names it: the nearest folder upward that
holds ``site.yaml``, as git finds a repository (docs/site.md, "Command line")."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from generator.layout.paths import CONFIG
from generator.layout.paths import real_path


@dataclass(frozen=True)
class FoundProject:
    """Where a command that was given no ``--project`` works (:func:`find_project`).

    Attributes:
        root: the project folder: ``.`` for the current folder, else the absolute path
            of the folder above it that holds ``site.yaml``.
        found: whether a ``site.yaml`` marked it (``False``: the current folder, taken
            as it is).
        stopped: why the search stopped below the root of the file system (``""``: it
            found the project, or reached ``/``): ``"home folder"``, ``"file-system
            boundary"``, ``"folder owned by another user"`` or ``"folder that cannot be
            read"``.
    """

    root: Path
    found: bool
    stopped: str = ""


def find_project(start: Path | None = None, *, home: Path | None = None,
                 uid: int | None = None) -> FoundProject:
    """The project of a command run in ``start`` without ``--project``: the nearest
    folder, ``start`` first, then each folder above it, that holds ``site.yaml`` (as git
    finds a repository). The search goes no higher than a folder that is the user's
    home folder, that lies on another file system than the folder below it, or that
    the user does not own (as git's ``GIT_CEILING_DIRECTORIES``,
    ``GIT_DISCOVERY_ACROSS_FILESYSTEM`` and ``safe.directory``): such a folder is not
    searched, so a stray ``~/site.yaml`` or another user's never takes a project over.
    ``start`` itself is always searched. Where no ``site.yaml`` is found, ``start`` is
    the project, as it always was.

    Args:
        start: where the command runs (default: the current folder, links resolved
            as the system gives it).
        home: the user's home folder (default: ``Path.home()``; none where it cannot
            be known).
        uid: the user's id (default: the effective user's).

    Returns:
        A :class:`FoundProject`; its ``root`` is ``.`` when the project is ``start`` and
        ``start`` is the current folder, else an absolute path.
    """
    try:
        here = Path(os.getcwd()) if start is None else Path(os.path.abspath(start))
    except OSError:  # the current folder was removed: it is the project, and missing
        return FoundProject(Path("."), False)
    if home is None:
        try:
            home = Path.home()
        except (RuntimeError, KeyError):  # no HOME and no entry in the password file
            home = None
    ceiling = real_path(home) if home is not None else None
    owner = os.geteuid() if uid is None else uid
    folder = here
    stopped = ""
    try:
        status = os.stat(folder)
    except OSError:
        status = None
    while True:
        if os.path.lexists(folder / CONFIG):  # (a broken one is reported when it is read)
            break
        parent = folder.parent
        if parent == folder:
            folder = here
            break
        try:
            above = os.stat(parent)
        except OSError:  # a folder above that cannot be looked at: nothing to search
            folder, stopped = here, "folder that cannot be read"
            break
        if ceiling is not None and parent == ceiling:
            folder, stopped = here, "home folder"
            break
        if status is not None and above.st_dev != status.st_dev:
            folder, stopped = here, "file-system boundary"
            break
        if above.st_uid != owner:
            folder, stopped = here, "folder owned by another user"
            break
        folder, status = parent, above
    found = os.path.lexists(folder / CONFIG)
    if folder == here and start is None:
        return FoundProject(Path("."), found, stopped)
    return FoundProject(folder, found, stopped)
