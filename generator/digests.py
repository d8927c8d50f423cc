"""Digests: of any parts (:func:`digest`), and of the generator itself
(:func:`generator_hash`), the stuff every key of the build's stages is made of
(docs/DESIGN.md, "The build cache")."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from functools import cache
from pathlib import Path

from generator.extensions import installed
from generator.extensions import origin

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
        parts: text (hashed as UTF-8; the bytes of a path that is not UTF-8, which
            Python reads as lone surrogates, as those bytes) or bytes.

    Returns:
        64 hex digits.
    """
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def generator_hash() -> str:
    """A hash of the installed generator's files (its code, the theme and everything else
    in the package; compiled ``__pycache__`` files left out), of which of its
    :data:`LIBRARIES` are installed (:func:`library_identity`) and of the kinds and games
    from outside the package: the installed distributions' entry points
    (:func:`generator.extensions.installed`, each with its module's
    :func:`library_identity`) and what a call registered
    (:func:`generator.engine.rules.outside_identity`, read only once the engine is
    imported: nothing can be registered before). Computed once per process (until
    :func:`clear_generator_hash`): any change to the generator, the rules engine included,
    a library installed again (another version) or another kind or game changes every
    key made with it.

    Returns:
        A SHA-256 hex digest (:func:`digest`).
    """
    rules = sys.modules.get("generator.engine.rules")  # not imported by a no-change build
    return _generator_hash(str(rules.outside_identity()) if rules is not None else "")


def clear_generator_hash() -> None:
    """Forget the hashes :func:`generator_hash` computed in this process, so that the next
    call reads the package's files, the libraries and the entry points again."""
    _generator_hash.cache_clear()
    _package_hash.cache_clear()


@cache
def _generator_hash(outside: str) -> str:
    """:func:`generator_hash` with ``outside`` the calls' registrations."""
    extensions = [f"{origin(entry)} {source_identity(entry.module)}"
                  for entry in installed()]
    return digest(_package_hash(), *extensions, outside)


@cache
def _package_hash() -> str:
    """A hash of the package's files and of which :data:`LIBRARIES` are installed, once
    per process."""
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


def source_identity(module: str) -> str:
    """Which code the entry point's ``module`` runs, found without importing it: the
    path, size and time of change of every file of its top-level package (a kind's
    helper modules, templates and data included; ``__pycache__`` left out), or of the
    top-level module's file; ``module`` alone when it cannot be found. An edit to any
    file of an extension changes it.

    Args:
        module: a dotted module name (``cardcount_ext.kind``).

    Returns:
        One line of text per file, joined.
    """
    top = module.partition(".")[0]
    try:  # a top-level name is found without running any of the package's code
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return module
    places = list(spec.submodule_search_locations or [])
    files = [Path(spec.origin)] if not places and spec.origin else []
    for place in places:
        for folder, dirs, names in os.walk(place):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            files += [Path(folder) / name for name in sorted(names)]
    lines = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        lines.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(lines) or module
