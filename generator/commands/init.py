"""The ``init`` command: a new rules site, ready to build (README, "In CI").

The new project is the package's :data:`~generator.layout.SCAFFOLD` (a page, a case file,
English and a Czech catalog, on the default theme) and the editor schema its case files
name (:data:`~generator.layout.SCHEMA_FILE`, :func:`generator.cases.editor_schema.editor_schema`).
It is written to a fresh folder beside the target and renamed into place in one step, so
an interrupted or failed ``init`` leaves no half project; it never writes into a folder
that holds anything.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from pathlib import Path

from generator.cases.editor_schema import editor_schema
from generator.errors import InputError
from generator.layout import SCAFFOLD
from generator.layout import SCHEMA_FILE

_SKIPPED = ("__pycache__",)


class Refused(Exception):
    """``init`` will not write to the target (the :class:`InputError` says why)."""

    def __init__(self, error: InputError) -> None:
        super().__init__(error.format())
        self.error = error


def scaffold_files() -> list[str]:
    """The files of a new project (POSIX paths relative to it), sorted, the schema too."""
    files = [path.relative_to(SCAFFOLD).as_posix() for path in SCAFFOLD.rglob("*")
             if path.is_file() and not set(path.relative_to(SCAFFOLD).parts) & set(_SKIPPED)]
    return sorted([*files, SCHEMA_FILE])


def _refusal(target: Path) -> InputError | None:
    """Why ``target`` cannot become the new project, or ``None``."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return InputError(str(target), 1, None, "is not a folder; expected the name of a "
                          "new folder, or an empty folder, for the project")
    if target.is_dir():
        entries = sorted(os.listdir(target))
        if entries:
            shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
            return InputError(str(target), 1, None, f"the folder is not empty ({shown}); "
                              "expected a new or an empty folder: init never writes over "
                              "files")
    return None


def init_project(target: Path) -> list[str]:
    """Write a new project to ``target``.

    Args:
        target: a folder that does not exist yet (its parents are created) or is empty.

    Returns:
        The files written, relative to ``target`` (:func:`scaffold_files`).

    Raises:
        Refused: ``target`` is not empty, or is not a folder; nothing was written.
        OSError: the project could not be written (no space, no permission); nothing
            was left behind.
    """
    refusal = _refusal(target)
    if refusal is not None:
        raise Refused(refusal)
    parent = target.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.init-", dir=parent))
    try:
        files = scaffold_files()
        for rel in files:
            dest = fresh / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if rel == SCHEMA_FILE:
                dest.write_text(json.dumps(editor_schema(), ensure_ascii=False, indent=2)
                                + "\n", encoding="utf-8")
            else:
                shutil.copyfile(SCAFFOLD / rel, dest)
        umask = os.umask(0)
        os.umask(umask)
        fresh.chmod(0o777 & ~umask)  # mkdtemp's folder is private; a project is not
        os.replace(fresh, target)  # onto an empty folder too: rename(2) replaces it
    except BaseException as exc:
        with contextlib.suppress(OSError):
            shutil.rmtree(fresh)
        refusal = _refusal(target)
        if isinstance(exc, OSError) and exc.errno in (errno.ENOTEMPTY, errno.EEXIST) \
                and refusal is not None:
            raise Refused(refusal) from None  # something was put there meanwhile
        raise
    return files
