"""The build cache: what an earlier build found, so that a build redoes only what changed
(docs/site.md, "Incremental builds"; docs/DESIGN.md, "The build cache").

Where: ``$XDG_CACHE_HOME/rules-site/<hash of the project's real path>/`` (default
``~/.cache/...``), never inside the project, so that neither the repository nor a pull
request can carry a cache into a build. What: plain data only, never a pickle: JSON
entries and the bytes of files the build wrote.

- An **entry** (:meth:`BuildCache.load`, :meth:`BuildCache.store`) sits in a *slot* (one
  per page and locale, say) and holds the digest of every input its data was made from;
  a build looks the slot up with the digest of today's inputs, so a changed input is a
  miss. Each entry also carries :data:`FORMAT`, the generator's source hash
  (:func:`generator_hash`), the project's path and a checksum of its data: an entry
  written by another version of the generator, for another project, truncated or edited
  by hand, is never used.
- A **blob** (:meth:`BuildCache.load_blob`, :meth:`BuildCache.store_blob`) is a file's
  bytes under their SHA-256 digest, checked again when read.

A damaged or foreign entry or blob is ignored and rebuilt, with one line in
:attr:`BuildCache.notes`; a cache that cannot be written (a full disk, a read-only home)
only makes builds slower: the cache can cost time, never change a build's output.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import tempfile
import time
from collections import OrderedDict
from collections.abc import Iterable
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # not on POSIX: the cache is used without its lock
    fcntl = None  # type: ignore[assignment]

from generator.errors import InputError
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import real_path

FORMAT = 1
"""The layout of the cache's files; an entry of another format is a miss."""
APP = "rules-site"
"""The cache's folder in the user's cache folder."""
PACKAGE = Path(__file__).resolve().parent
"""The generator's own files (code, theme): their hash keys every entry."""
LIBRARIES = ("jinja2", "markupsafe", "markdown_it", "mdit_py_plugins", "mdurl", "babel",
             "yaml", "jsonschema")
"""The libraries whose code shapes what a build writes (templating, escaping, Markdown
and its links' normalization, catalogs, case files and their schema): which of each is
installed keys every entry too (:func:`generator_hash`). Pagefind's program keys the
search indexes and whole builds (:func:`generator.render.search.version`)."""
SHARED = 4096
"""How many entries read with ``shared`` (:meth:`BuildCache.load`) a process remembers,
the least recently used forgotten first."""
_SHARED: OrderedDict[tuple[str, str], tuple[tuple[int, int, int], Any, Any]] = OrderedDict()
"""(entry file, project) → (its inode, size and modification time when read; its
inputs; its data)."""
INPUT_LIMIT = 16 * 1024 * 1024
"""The largest input file hashed up front, in bytes; a larger one (an input error for
every reader) makes :func:`input_digests` give up."""


def remember(memo: OrderedDict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """Keep ``value`` in the process memo ``memo`` (the cache's entries, compiled
    catalogs, inline HTML: what a process that builds again reuses) under ``key``, as
    the most recently used; beyond ``limit`` items, the least recently used are
    forgotten. (The search indexes' memo trims only after a build has them all:
    :class:`generator.render.search.Indexer`.)"""
    memo[key] = value
    memo.move_to_end(key)
    while len(memo) > limit:
        memo.popitem(last=False)


def digest(*parts: str | bytes) -> str:
    """The SHA-256 hex digest of ``parts``, each length-prefixed (so that ``("ab", "c")``
    and ``("a", "bc")`` differ)."""
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
    installed again (another version) invalidates every entry."""
    parts: list[str | bytes] = [str(FORMAT), *(library_identity(name) for name in LIBRARIES)]
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


def cache_folder(project: Path) -> Path:
    """The project's cache folder: ``<user cache>/rules-site/<16 hex digits>``, the digits
    a hash of the project folder's real path. The user cache is ``$XDG_CACHE_HOME`` when
    it is set to an absolute path (the XDG base directory specification), else
    ``~/.cache``."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / APP / digest(str(real_path(project)))[:16]


def input_digests(layout: Layout) -> dict[str, str] | None:
    """The SHA-256 digest of every input file of the project: the files below
    ``content/``, ``locales/`` and ``templates/``, and ``site.yaml``, by path relative to
    the project.

    Returns:
        The digests, or ``None`` when an entry there is not a plain input (a link out of
        the project, a FIFO, a file over :data:`INPUT_LIMIT` bytes, a name the walk
        refuses): the readers report it; a build that meets one does without the cache
        of whole builds.
    """
    errors: list[InputError] = []
    found = [rel for folder in (CONTENT, LOCALES, TEMPLATES)
             for rel in layout.walk(folder, errors)]
    if errors:
        return None
    if os.path.lexists(layout.root / CONFIG):
        found.append(CONFIG)
    digests: dict[str, str] = {}
    for rel in found:
        try:
            data = layout.read(rel, limit=INPUT_LIMIT)
        except NotAnInput:
            return None
        digests[rel] = hashlib.sha256(data).hexdigest()
    return digests


class BuildCache:
    """One project's cache folder (see the module's text).

    Args:
        folder: the cache folder (:func:`cache_folder`); ``None`` for a build without a
            cache (``build --no-cache``): every lookup misses, nothing is written.
        project: the project's real path, stored in each entry (an entry of another
            project is foreign).
    """

    def __init__(self, folder: Path | None, project: Path) -> None:
        self.folder = folder
        self.project = str(project)
        self.notes: list[str] = []
        """One line per entry or blob found damaged or foreign, or per failed write."""
        self._used: set[str] = set()
        self._stored: set[str] = set()
        self._lock: int | None = None

    def __enter__(self) -> BuildCache:
        """Take a shared lock on the folder (its file ``lock``) for one build: the builds
        of a project that run at once (``serve`` beside ``build``, two output folders)
        share the cache, and only a build that finds no other one running prunes it
        (:meth:`prune`), so that none removes what another has found and is about to
        copy. The lock file's time says when the folder was last used (:func:`sweep`).
        A folder that cannot be locked is used without the lock."""
        if self.folder is not None and fcntl is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                self._lock = os.open(self.folder / "lock", os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self._lock, fcntl.LOCK_SH)
                os.utime(self._lock)  # used now (sweep)
            except OSError:
                self._release()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # which releases the lock
            self._lock = None

    @property
    def enabled(self) -> bool:
        """Whether lookups can hit and results are kept."""
        return self.folder is not None

    @property
    def spare_site(self) -> Path | None:
        """Where the output keeps a replaced site's folders for the next build
        (:class:`generator.output.SiteWriter`, ``spare``); ``None`` without a cache."""
        return None if self.folder is None else self.folder / "spare-site"

    def _entry_path(self, slot: str) -> Path:
        assert self.folder is not None
        return self.folder / "entries" / f"{digest(slot)[:32]}.json"

    def load(self, slot: str, inputs: str | None, *, shared: bool = False) -> Any:
        """The data stored in ``slot`` for these ``inputs`` (a digest), or ``None``: no
        entry, an entry for other inputs, or one that is damaged or foreign (then with a
        note). With ``inputs`` ``None``, the data whatever inputs it was stored for
        (for a part of it the caller checks on its own: a page's body, keyed inside).

        With ``shared``, the data is remembered in this process (:data:`SHARED`
        entries) and given again, not read again, while the entry's file is the one it
        was read from (same inode, size and modification time): ``serve`` builds again
        in one process. The caller must then not change the data it gets.
        """
        if self.folder is None:
            return None
        path = self._entry_path(slot)
        self._used.add(path.name)
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
                known = _SHARED.get((str(path), self.project)) if shared else None
                if known is not None and known[0] == stamp:
                    _SHARED.move_to_end((str(path), self.project))
                    return known[2] if inputs in (None, known[1]) else None
                raw = f.read()
        except OSError:
            return None
        at = raw.find(b'"inputs": "')
        if inputs is not None and at >= 0 and (
                raw[at + 11:at + 12 + len(inputs)] != b'%s"' % inputs.encode()):
            return None  # an entry for other inputs (as store writes it): not parsed
        try:
            entry = json.loads(raw)
            ok = (isinstance(entry, dict) and entry.get("slot") == slot
                  and isinstance(entry.get("data"), str)
                  and entry.get("sum") == digest(entry["data"]))
            data = json.loads(entry["data"]) if ok else None
        except (ValueError, TypeError, KeyError, RecursionError):
            ok, data = False, None
        if not ok:
            self._note(f"{path}: a damaged cache entry; ignored, its part rebuilt")
            return None
        if entry.get("format") != FORMAT or entry.get("generator") != generator_hash() \
                or entry.get("project") != self.project:
            return None  # another version's, or a copied cache: a miss, never used
        if shared:
            remember(_SHARED, (str(path), self.project), (stamp, entry.get("inputs"), data),
                     SHARED)
        return data if inputs in (None, entry.get("inputs")) else None

    def store(self, slot: str, inputs: str, data: Any) -> None:
        """Keep ``data`` (plain JSON data) in ``slot`` for these ``inputs``."""
        if self.folder is None:
            return
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        entry = {"format": FORMAT, "generator": generator_hash(), "project": self.project,
                 "slot": slot, "inputs": inputs, "sum": digest(text), "data": text}
        path = self._entry_path(slot)
        self._used.add(path.name)
        self._stored.add(path.name)
        self._write(path, json.dumps(entry, ensure_ascii=False).encode("utf-8"))

    def _blob_path(self, sha: str) -> Path:
        assert self.folder is not None
        return self.folder / "blobs" / sha[:2] / sha

    def blob(self, sha: str) -> Path | None:
        """The cache's copy of the bytes whose SHA-256 hex digest is ``sha``, checked
        (read and hashed) now, or ``None``: missing, or damaged (then with a note, and
        removed so that the part rebuilt is kept again)."""
        return self._blob_path(sha) if self.load_blob(sha) is not None else None

    def adopt(self, files: Mapping[str, str], folder: Path) -> None:
        """Keep the files just written below ``folder`` (relative path → their SHA-256
        hex digest) as blobs, copied (a hard link would let a site file edited in place
        change the cache)."""
        for rel, sha in files.items():
            if self.folder is None:  # (off now: a write below failed)
                return
            path = self._blob_path(sha)
            if path.exists():
                continue
            try:
                self._write(path, (folder / rel).read_bytes())
            except OSError as exc:
                self._note(f"{self.folder}: cannot write the cache ({exc.strerror or exc});"
                           " this build goes on without it")
                self.folder = None
                return

    def load_blob(self, sha: str) -> bytes | None:
        """The bytes whose SHA-256 hex digest is ``sha``, or ``None``: missing, or
        damaged (then with a note)."""
        if self.folder is None or len(sha) != 64:
            return None
        path = self._blob_path(sha)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if hashlib.sha256(data).hexdigest() != sha:
            self._note(f"{path}: a damaged cache file; ignored, its part rebuilt")
            with contextlib.suppress(OSError):
                path.unlink()  # so that the rebuilt part is kept again
            return None
        return data

    def load_blob_part(self, sha: str, at: int, length: int, part: str) -> bytes | None:
        """Bytes ``at`` to ``at + length`` of the blob whose SHA-256 hex digest is
        ``sha``, when their own SHA-256 hex digest is ``part``; else ``None`` (no such
        blob, or those bytes are others: the caller makes them again). Only the part is
        hashed, not the whole blob as :meth:`load_blob` does: that read and hashed a
        kept page of 130 KB in 0.33 ms, where the read alone takes 0.04 ms."""
        if self.folder is None or len(sha) != 64 or at < 0 or length < 0:
            return None
        try:
            with open(self._blob_path(sha), "rb") as f:
                f.seek(at)
                data = f.read(length)
        except OSError:
            return None
        return data if hashlib.sha256(data).hexdigest() == part else None

    def store_blob(self, data: bytes) -> str:
        """Keep ``data``; returns its SHA-256 hex digest (its name)."""
        sha = hashlib.sha256(data).hexdigest()
        if self.folder is not None:
            path = self._blob_path(sha)
            if not path.exists():
                self._write(path, data)
        return sha

    def _write(self, path: Path, data: bytes) -> None:
        """Write ``path`` whole or not at all (a temporary file renamed); a failure
        becomes a note and turns the cache off for the rest of the build."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                if path.is_dir() and not path.is_symlink():
                    shutil.rmtree(path)  # a folder where an entry belongs: not ours to keep
                os.replace(tmp, path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError as exc:
            self._note(f"{self.folder}: cannot write the cache ({exc.strerror or exc}); "
                       "this build goes on without it")
            self.folder = None

    def _note(self, line: str) -> None:
        if line not in self.notes:
            self.notes.append(line)

    @property
    def used(self) -> frozenset[str]:
        """The entries this build looked up or stored (file names), for
        :meth:`mark_used` in the parent of a worker process."""
        return frozenset(self._used)

    def mark_used(self, names: Iterable[str], stored: Iterable[str] = ()) -> None:
        """Count entries a worker process used (:attr:`used`) as this build's, and
        those of them it stored (:attr:`stored`)."""
        self._used.update(names)
        self._stored.update(stored)

    @property
    def stored(self) -> frozenset[str]:
        """The entries this build stored (file names), for :meth:`mark_used`."""
        return frozenset(self._stored)

    def forget_stored(self) -> None:
        """Remove every entry this build stored (:attr:`stored`, the workers' counted):
        a build whose inputs changed while it ran may have kept what it made of the new
        bytes under the old bytes' digests (:func:`generator.commands.build.build`)."""
        if self.folder is None:
            return
        for name in self._stored:
            _discard(self.folder / "entries" / name)
        self._used -= self._stored
        self._stored.clear()

    def keep_slots(self, slots: Iterable[str]) -> None:
        """Count the entries of ``slots`` as used by this build, unread: the parts of
        something taken from the cache whole (a page's tables), which the next build may
        need again, so that :meth:`prune` keeps them."""
        if self.folder is not None:
            self._used.update(self._entry_path(slot).name for slot in slots)

    def prune(self, blobs: Iterable[str]) -> None:
        """After a build that used every slot it needs: remove the entries no lookup or
        store of this build touched and every blob but ``blobs`` (the digests the kept
        entries name), so the cache holds one build's worth. Inside ``with`` (the shared
        lock), only when no other build holds the lock: another build's files are left
        alone, and the next build that runs alone prunes."""
        if self.folder is None:
            return
        if self._lock is not None:
            assert fcntl is not None
            try:  # shared to exclusive; the shared lock may be lost on the way: we end
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return  # another build is running
        keep = set(blobs)
        for path in _listing(self.folder / "entries"):
            if path.name not in self._used:
                _discard(path)
        for sub in _listing(self.folder / "blobs"):
            for path in _listing(sub):
                if path.name not in keep:
                    _discard(path)
        sweep(self.folder.parent, self.folder)


STALE_DAYS = 30
"""A project's cache folder not used for this many days is removed (:func:`sweep`)."""
SWEPT = ".swept"
"""The file in ``<user cache>/rules-site/`` whose time says when :func:`sweep` last ran."""
_CACHE_NAME = re.compile(r"[0-9a-f]{16}")


def sweep(parent: Path, mine: Path, now: float | None = None) -> list[Path]:
    """Remove the cache folders of ``parent`` (``<user cache>/rules-site/``) that no build
    used for :data:`STALE_DAYS` days: a project moved, renamed or deleted (a checkout in
    a temporary folder) leaves its cache behind, named by the old path's hash, and
    nothing else would ever remove it. Runs at most once a day (the time of
    ``parent/.swept``); a folder's last use is its ``lock`` file's time (every build
    takes the lock, :meth:`BuildCache.__enter__`, and marks it); a folder a build holds
    now (its lock taken), not named as :func:`cache_folder` names them, or ``mine`` is
    left alone. What cannot be removed stays.

    Args:
        parent: the folder of every project's cache.
        mine: this build's cache folder, never removed.
        now: the time to compare with (seconds since the epoch; default the clock's).

    Returns:
        The folders removed.
    """
    now = time.time() if now is None else now
    stamp = parent / SWEPT
    try:
        if now - os.stat(stamp).st_mtime < 86_400:
            return []
    except OSError:
        pass
    try:
        stamp.touch()
        os.utime(stamp, (now, now))
    except OSError:
        return []  # a cache that cannot be written: nothing to tidy
    removed = []
    for folder in _listing(parent):
        if folder == mine or not _CACHE_NAME.fullmatch(folder.name) or folder.is_symlink():
            continue
        lock = folder / "lock"
        try:
            if now - os.stat(lock if lock.exists() else folder).st_mtime < STALE_DAYS * 86_400:
                continue
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            continue
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # no build uses it now
            shutil.rmtree(folder)
            removed.append(folder)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def _listing(folder: Path) -> list[Path]:
    """What ``folder`` holds; nothing when it cannot be read (or is no folder)."""
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _discard(path: Path) -> None:
    """Remove a file or folder of the cache; one that cannot be removed stays (the
    pruning goes on with the others)."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except OSError:
        pass
