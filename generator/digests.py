"""Digests: of any parts (:func:`digest`), and of the generator itself
(:func:`generator_hash`), the stuff every key of the build's stages is made of
(docs/DESIGN.md, "The build cache")."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
"""The generator's own files (code, theme): their hash keys every stage's result."""
LIBRARIES = ("jinja2", "markupsafe", "markdown_it", "mdit_py_plugins", "mdurl", "babel",
             "yaml", "jsonschema")
"""The libraries whose code shapes what a build writes (templating, escaping, Markdown
and its links' normalization, catalogs, case files and their schema): which of each is
installed keys every stage's result too (:func:`generator_hash`). Pagefind's program
keys the search indexes and whole builds (:func:`generator.render.search.version`)."""


def digest(*parts: str | bytes) -> str:
    """The SHA-256 hex digest of ``parts``, each length-prefixed (so that ``("ab", "c")``
    and ``("a", "bc")`` differ).

    Args:
        parts: text (hashed as UTF-8) or bytes.

    Returns:
        64 hex digits.
    """
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


@cache
def generator_hash() -> str:
    """A hash of the installed generator's files (its code, the theme and everything else
    in the package; compiled ``__pycache__`` files left out) and of which of its
    :data:`LIBRARIES` are installed (:func:`library_identity`), computed once per
    process: any change to the generator, the rules engine included, or a library
    installed again (another version) changes every key made with it.

    Returns:
        A SHA-256 hex digest (:func:`digest`).
    """
    parts: list[str | bytes] = [library_identity(name) for name in LIBRARIES]
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = Path(folder) / name
            parts += [path.relative_to(PACKAGE).as_posix(), path.read_bytes()]
    return digest(*parts)


def library_identity(name: str) -> str:
    """Which library ``name`` (an importable package) is installed, found without
    importing it (a no-change build imports none of them): the path, size and time of
    change of its ``__init__.py``, which an install of another version writes anew;
    ``name`` alone when it cannot be found. (A package's metadata would give its version,
    at 12 ms a build: importlib.metadata.)"""
    try:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        info = os.stat(origin) if origin else None
    except (ImportError, ValueError, OSError):
        info = None
    return name if info is None else f"{name}:{origin}:{info.st_size}:{info.st_mtime_ns}"
