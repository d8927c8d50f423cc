"""What the card checker needs in the site (docs/site.md, "The card checker"): packed by
the build into :data:`~generator.layout.CHECKER_OUT` when ``site.yaml``'s ``pyodide``
does not turn it off.

- ``runtime.zip``: the Python the answer runs (:mod:`generator.commands.checker`): the
  generator's modules and theme templates, the project's ``templates/`` (under
  ``project/``), and the pure-Python libraries its rendering imports, taken from the
  installed environment (:data:`LIBRARIES`; Babel with the data of the site's locales
  alone);
- ``templates.zip``: the project's ``templates/`` (under ``project/``);
- ``<locale>.json``: each locale's messages, compiled (the site's catalog over the
  built-in one: :meth:`generator.i18n.catalog.Translator.as_data`);
- ``manifest.json``: where Pyodide comes from and the Subresource Integrity hash of
  every file the page loads;
- ``pyodide/``: a Pyodide distribution copied from the project (``pyodide: PATH``).

Nothing here is loaded with a page: the page's script fetches it when a reader opens a
checker.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import io
import json
import zipfile
from collections.abc import Iterable
from collections.abc import Mapping
from functools import cache
from functools import partial
from pathlib import Path
from typing import Any

from babel import localedata

from generator import forks
from generator.config import PYODIDE_CDN
from generator.config import PYODIDE_FILES
from generator.config import PYODIDE_VERSION
from generator.digests import digest
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.layout import CHECKER_OUT
from generator.layout import Layout
from generator.layout import paths
from generator.memo import FileStore

PYODIDE_CDN_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
"""Pyodide's official CDN at :data:`PYODIDE_VERSION`."""

PYODIDE_SRI: Mapping[str, str] = {
    "pyodide.js": "sha384-VR47TfKeAmT7vMej7bwOVg0tHTQLLGMSIpsXtFMCZG5OpKZSIXoSLtGY//qHcxc6",
    "pyodide.asm.js":
        "sha384-8mBRd9rjeP9blbPmWuCum2qq484+GPVFDSaebLOh+ryUrQZz9SJ4v2dh4STKX9Jo",
    "pyodide.asm.wasm":
        "sha384-8LoW84uYNGn2avpfQNVvzVXqylKrFwJgbBNJ87g6D5Ud+8bzAJzOV38jQkOpVBq7",
    "python_stdlib.zip":
        "sha384-qFTVfVvRHvt1V/9yXR9tJ0uAKF7men+qhxh13+YPQPYWYMAq4dKaaL6N+/DIo4gR",
    "pyodide-lock.json":
        "sha384-xDHcZeNLjl7+brzrlYDRbrxe3I9kROtVuWNljcqvsUtLl47M+jg2UGQ13S7KV5Xc",
}
"""The Subresource Integrity hash of each file of :data:`PYODIDE_FILES` at
:data:`PYODIDE_VERSION` (those of the npm package ``pyodide``, which the CDN serves
unchanged)."""

LIBRARIES = ("jinja2", "markupsafe", "yaml", "markdown_it", "mdurl", "mdit_py_plugins",
             "babel")
"""The libraries the answer imports, each pure Python (a compiled speed-up of theirs,
``markupsafe._speedups`` or PyYAML's ``_yaml``, is left out: each falls back to its
Python code)."""

RUNTIME_BUDGET = 1_800_000
"""The most bytes ``runtime.zip`` may have (docs/site.md, "The card checker";
tests/test_checker.py holds the example site to it)."""

LOCALE_BUDGET = 250_000
"""The most bytes a locale's messages (``<locale>.json``) may have."""

_LEFT_OUT = ("scaffold", "locales", "static", "__pycache__")
"""The generator's folders the answer needs none of."""


def sri(data: bytes) -> str:
    """The Subresource Integrity hash of ``data`` (SHA-384)."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def _files(root: Path, package: str) -> Iterable[tuple[str, Path]]:
    """The Python files and data of ``package`` below ``root``, by their name in the
    archive, sorted; templates (``.html``, ``.xml``) and Babel's ``.dat`` too."""
    for path in sorted((root / package).rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or any(part in _LEFT_OUT for part in rel.parts[1:-1]):
            continue
        if path.suffix in (".py", ".html", ".xml", ".dat"):
            yield rel.as_posix(), path


def _locale_data(locales: Iterable[str]) -> set[str]:
    """The names of Babel's locale data files ``locales`` need: theirs, their parents'
    and ``root``."""
    needed = {"root", SOURCE_LOCALE}
    for locale in locales:
        parts = locale.split("_")
        needed.update("_".join(parts[:n]) for n in range(1, len(parts) + 1))
    return {f"{name}.dat" for name in needed if localedata.exists(name)}


@cache
def _library_sources(locales: tuple[str, ...]) -> tuple[tuple[str, Path], ...]:
    """The archive's entries from the generator and :data:`LIBRARIES`: each one's name
    and file (found once per process for a set of locales)."""
    sources: list[tuple[str, Path]] = []
    generator_root = paths.THEME.parent.parent
    data = _locale_data(locales)
    sources.extend(_files(generator_root, "generator"))
    for name in LIBRARIES:
        module = importlib.import_module(name)
        assert module.__file__ is not None
        root = Path(module.__file__).parent.parent
        sources.extend((rel, path) for rel, path in _files(root, name)
                       if not (path.suffix == ".dat" and path.parent.name == "locale-data"
                               and path.name not in data))
    return tuple(sources)


def _sources_key(sources: Iterable[tuple[str, Path]]) -> str:
    """The key of ``runtime.zip`` in the build cache: each entry's name, and its file's
    size and modification time (nanoseconds), as ``make`` tells a changed file (an
    upgraded library, an edited module) without reading it."""
    parts: list[str] = []
    for rel, path in sources:
        stat = path.stat()
        parts.extend((rel, str(stat.st_size), str(stat.st_mtime_ns)))
    return digest(RUNTIME_FORMAT, *parts)


@cache
def _runtime_key(locales: tuple[str, ...]) -> str:
    """:func:`_sources_key` of :func:`_library_sources` (``locales``), found once per
    process, as its sources are: the archive then holds the modules as this process
    found them (a ``serve`` or a test process builds many sites; each build looked at
    the 350-odd files again, 1 ms of a small site's 30 ms)."""
    return _sources_key(_library_sources(locales))


def _zipped(entries: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip archive of ``entries`` (name, bytes), byte-identical for the same entries
    (no timestamps)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data, compresslevel=6)
    return out.getvalue()


RUNTIME_SLOT = "checker-runtime"
"""The build cache's entry of ``runtime.zip``: the SHA-256 of its bytes (kept as a blob)
under :func:`_sources_key`."""

RUNTIME_FORMAT = "1"
"""How ``runtime.zip`` is packed (:func:`_zipped`): part of its key in the cache."""

_RUNTIMES: dict[str, bytes] = {}
"""``runtime.zip`` by its key, made or read in this process (``serve``, the tests)."""


class Runtime:
    """``runtime.zip`` on its way (module docstring): made once per process for a set of
    locales and sources (:func:`_sources_key`) and kept in the build cache, so that a
    build whose generator and libraries did not change reads it from there. Where
    neither has it, a forked helper packs it (:func:`generator.forks.start`: 0.15-0.3 s
    of compression) while the build goes on; :meth:`zipped` takes it. Close it
    (:meth:`close`) whatever happens.

    Args:
        locales: the site's locales, sorted (Babel's data of these alone).
        cache: the build cache, or ``None``.
        helped: pack it in a helper where one may be forked.
        held: where the packing is put as it starts, for the caller's clean-up to stop
            (:func:`generator.forks.start`).
    """

    def __init__(self, locales: tuple[str, ...], cache: FileStore | None = None, *,
                 helped: bool = False, held: list[forks.Started[Any]] | None = None
                 ) -> None:
        sources = _library_sources(locales)
        self._key = _runtime_key(locales)
        self._cache = cache
        self._made = _RUNTIMES.get(self._key)
        if self._made is None and cache is not None:
            kept = cache.load(RUNTIME_SLOT, self._key)
            self._made = cache.load_blob(kept) if isinstance(kept, str) else None
            if self._made is not None:
                _RUNTIMES[self._key] = self._made
        self._packing = None if self._made is not None else \
            forks.start(partial(_zipped_sources, sources), helped=helped, held=held)

    def zipped(self) -> bytes:
        """The archive's bytes (packed here where the helper has not finished it).

        Raises:
            OSError: a source file cannot be read.
        """
        if self._made is None:
            assert self._packing is not None
            self._made = self._packing.result()
            if self._cache is not None:
                self._cache.store(RUNTIME_SLOT, self._key, self._cache.store_blob(self._made))
            _RUNTIMES[self._key] = self._made
        return self._made

    def close(self) -> None:
        """Stop the helper, if one still packs (once)."""
        if self._packing is not None:
            self._packing.close()


def _zipped_sources(sources: Iterable[tuple[str, Path]]) -> bytes:
    """The archive of ``sources`` (name, file), read now."""
    return _zipped((rel, path.read_bytes()) for rel, path in sources)


def runtime_zip(locales: tuple[str, ...], cache: FileStore | None = None) -> bytes:
    """``runtime.zip`` made in this process (:class:`Runtime`).

    Args:
        locales: the site's locales, sorted (Babel's data of these alone).
        cache: the build cache, or ``None``.
    """
    runtime = Runtime(locales, cache)
    try:
        return runtime.zipped()
    finally:
        runtime.close()


def templates_zip(layout: Layout) -> bytes:
    """``templates.zip``: the project's own templates (its ``templates/``, under
    ``project/``), which override the theme's in the answer as on the pages."""
    labels = [layout.template_label(name) for name in layout.templates([])]
    return _zipped((f"project/{rel}", layout.read(rel))
                   for rel in sorted(r for r in labels if r and paths.theme_rel(r) is None))


def messages_json(translator: Translator) -> bytes:
    """A locale's compiled messages as the page's script hands them to Python."""
    return json.dumps(translator.as_data(), ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def checker_files(layout: Layout, locales: Iterable[str],
                  translators: Mapping[str, Translator], pyodide: str,
                  cache: FileStore | None = None, runtime: bytes | None = None
                  ) -> dict[str, bytes]:
    """Every file of the checker's folder in the site (site path → bytes).

    Args:
        layout: the project.
        locales: the site's locales.
        translators: each locale's messages (English needs none).
        pyodide: ``site.yaml``'s ``pyodide``: :data:`~generator.config.PYODIDE_CDN`, or
            the project's folder holding a Pyodide distribution (checked by the loading
            of ``site.yaml``).
        cache: the build cache, or ``None`` (:func:`runtime_zip`).
        runtime: ``runtime.zip`` for these locales where the caller has it already
            (:class:`Runtime`); else it is made now.
    """
    locales = list(locales)
    files: dict[str, bytes] = {}
    if runtime is None:
        runtime = runtime_zip(tuple(sorted(locales)), cache)
    files[f"{CHECKER_OUT}/runtime.zip"] = runtime
    templates = files[f"{CHECKER_OUT}/templates.zip"] = templates_zip(layout)
    messages = {}
    for lang in locales:
        translator = translators.get(lang)
        if translator is not None and lang != SOURCE_LOCALE:
            data = messages_json(translator)
            files[f"{CHECKER_OUT}/{lang}.json"] = data
            messages[lang] = sri(data)
    if pyodide == PYODIDE_CDN:
        base, hashes = PYODIDE_CDN_URL, dict(PYODIDE_SRI)
    else:
        base, hashes = "pyodide/", {}
        for name in PYODIDE_FILES:
            data = layout.read(f"{pyodide}/{name}")
            files[f"{CHECKER_OUT}/pyodide/{name}"] = data
            hashes[name] = sri(data)
    manifest = {"pyodide": base, "files": hashes, "runtime": sri(runtime),
                "templates": sri(templates),
                "messages": messages}
    files[f"{CHECKER_OUT}/manifest.json"] = json.dumps(
        manifest, sort_keys=True, indent=1).encode("utf-8")
    return files
