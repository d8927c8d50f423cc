"""The build cache: what an earlier build found, so that a build redoes only what changed
(docs/site.md, "Incremental builds"; docs/DESIGN.md, "The build cache").

Where: ``$XDG_CACHE_HOME/rules-site/<hash of the project's real path>/`` (default
``~/.cache/...``), never inside the project, so that neither the repository nor a pull
request can carry a cache into a build. What: plain data only, never a pickle: JSON
entries and the bytes of files the build wrote.

**Trust.** The cache folder is not trusted: a CI may restore it from another run, or
another user may write into it. So nothing read from it reaches a build's output
unchecked:

- An **entry** (:meth:`BuildCache.load`, :meth:`BuildCache.store`) sits in a *slot* (one
  per page and locale, say) and holds the digest of every input its data was made from;
  a build looks the slot up with the digest of today's inputs, so a changed input is a
  miss. Each entry also carries :data:`FORMAT`, the generator's source hash
  (:func:`generator_hash`), the project's path, and an HMAC-SHA256 of all of these and
  its data under the user's key (:func:`cache_key`), which is kept outside the cache
  folder (``$XDG_CONFIG_HOME/rules-site/cache-key``): an entry written by another
  version of the generator, for another project or under another key (a cache restored
  from elsewhere: a cold cache) is a miss; one truncated, edited or forged (its HMAC
  wrong) is a damaged entry, never used.
- A **blob** (:meth:`BuildCache.load_blob`, :meth:`BuildCache.store_blob`) is a file's
  bytes under their SHA-256 digest, checked again when read; only an entry names the
  digest of a file to publish.
- Every file and folder of the cache is opened relative to its folder's descriptor
  without following a link (``O_NOFOLLOW``), created with ``O_EXCL`` and the modes the
  umask gives; a link where one of them belongs is removed (never followed) and the
  file or folder made again, and the pruning removes what it finds there by name, so
  that nothing planted in the cache folder makes a build read, create, change or remove
  a file elsewhere. A folder of the cache owned by another user turns the cache off for
  the build.

A damaged or foreign entry or blob is ignored and rebuilt, with one line in
:attr:`BuildCache.notes`; a cache that cannot be written (a full disk, a read-only home)
only makes builds slower: the cache can cost time, never change a build's output.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import importlib.util
import json
import os
import re
import secrets
import shutil
import stat
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
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
from generator.extensions import installed
from generator.extensions import origin
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import real_path
from generator.layout import write_all

FORMAT = 2
"""The layout of the cache's files; an entry of another format is a miss."""
APP = "rules-site"
"""The cache's folder in the user's cache folder, and the key's in the user's
configuration folder."""
KEY_FILE = "cache-key"
"""The user's key (:func:`cache_key`) in ``<user configuration>/rules-site/``."""
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
READ_LIMIT = 256 * 1024 * 1024
"""The largest entry or blob read from the cache, in bytes; a larger one is damaged (the
cache folder is not trusted: a planted file of any size must not exhaust memory)."""

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
"""Opens a folder, never through a link (the link itself fails: ``ENOTDIR``/``ELOOP``)."""
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
"""Opens a file to read, never through a link, without waiting at a FIFO."""
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
"""Creates a file that must be new."""
_NOT_A_FOLDER = (errno.ENOTDIR, errno.ELOOP)
"""What opening a link or a file as a folder with :data:`_DIR` gives."""


class CacheRefused(Exception):
    """The cache's key or folder cannot be used safely (a link, another user's file, a
    key readable by others); the message says which and why. The build goes on without
    the cache (:meth:`BuildCache.__enter__`)."""


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


def generator_hash() -> str:
    """A hash of the installed generator's files (its code, the theme and everything else
    in the package; compiled ``__pycache__`` files left out), of which of its
    :data:`LIBRARIES` are installed (:func:`library_identity`) and of the kinds and games
    from outside the package: the installed distributions' entry points
    (:func:`generator.extensions.installed`, each with its module's
    :func:`library_identity`) and what a call registered
    (:func:`generator.engine.rules.outside_identity`, read only once the engine is
    imported: nothing can be registered before). Any change to the generator, the rules
    engine included, a library installed again (another version) or another kind or game
    invalidates every entry."""
    rules = sys.modules.get("generator.engine.rules")  # not imported by a no-change build
    return _generator_hash(str(rules.outside_identity()) if rules is not None else "")


def clear_generator_hash() -> None:
    """Forget the hashes :func:`generator_hash` computed in this process, so that the next
    call reads the package's files and the libraries again."""
    _generator_hash.cache_clear()
    _package_hash.cache_clear()


@cache
def _generator_hash(outside: str) -> str:
    """:func:`generator_hash` with ``outside`` the calls' registrations."""
    extensions = [f"{origin(entry)} {library_identity(entry.module)}"
                  for entry in installed()]
    return digest(_package_hash(), *extensions, outside)


@cache
def _package_hash() -> str:
    """A hash of the package's files and of which :data:`LIBRARIES` are installed, once
    per process."""
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


def config_home() -> Path:
    """The user's configuration folder: ``$XDG_CONFIG_HOME`` when it is set to an absolute
    path (the XDG base directory specification), else ``~/.config``."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    return Path(base) if base and os.path.isabs(base) else Path.home() / ".config"


def key_path() -> Path:
    """Where the user's cache key is (:func:`cache_key`)."""
    return config_home() / APP / KEY_FILE


def cache_key() -> bytes:
    """The user's key for the cache's entries (their HMAC): 32 random bytes kept as 64
    hex digits in :func:`key_path`, outside every cache folder, so that a cache folder
    restored or written by someone else cannot hold an entry this user's builds trust.
    Made on first use, mode 0600: written to a new file (``O_EXCL``) and linked into
    place, so that two builds starting at once agree on one key. Neither the key's
    folder (``rules-site/``) nor the key is ever opened through a link.

    Returns:
        The key's bytes.

    Raises:
        CacheRefused: the key's folder or file is a link, not a folder or regular file,
            not the user's own, the key readable or writable by others (as ssh refuses
            such a private key) or not 64 hex digits; or it cannot be made (a read-only
            configuration folder).
    """
    path = key_path()
    try:
        path.parent.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        home = os.open(path.parent.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise CacheRefused(f"{path}: cannot make the build cache's key "
                           f"({exc.strerror or exc})") from exc
    try:
        folder = _open_folder(path.parent, APP, home, mode=0o700, heal=False)
    except OSError as exc:
        raise CacheRefused(f"{path.parent}: cannot use it for the build cache's key "
                           f"({exc.strerror or exc})") from exc
    finally:
        os.close(home)
    try:
        for _ in range(3):  # made by another build meanwhile: read that one
            try:
                return _read_key(path, folder)
            except FileNotFoundError:
                _make_key(path, folder)
        raise CacheRefused(f"{path}: the build cache's key keeps going away")
    except OSError as exc:
        raise CacheRefused(f"{path}: cannot make the build cache's key "
                           f"({exc.strerror or exc})") from exc
    finally:
        os.close(folder)


def _read_key(path: Path, folder: int) -> bytes:
    """The key in ``folder`` (:func:`cache_key`). Raises FileNotFoundError when there is
    none, CacheRefused when it is not a key of the user's own."""
    expected = ("expected a regular file of your own, mode 0600, holding 64 hex digits "
                "(remove it: the next build makes a new one)")
    try:
        fd = os.open(KEY_FILE, _READ, dir_fd=folder)
    except FileNotFoundError:
        raise
    except OSError as exc:
        why = "a symbolic link" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        raise CacheRefused(f"{path}: the build cache's key is {why}; {expected}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise CacheRefused(f"{path}: the build cache's key is not a regular file; "
                               f"{expected}")
        if info.st_uid != os.geteuid():
            raise CacheRefused(f"{path}: the build cache's key is another user's "
                               f"(uid {info.st_uid}); {expected}")
        if info.st_mode & 0o077:
            raise CacheRefused(f"{path}: the build cache's key is readable or writable by "
                               f"others (mode {stat.S_IMODE(info.st_mode):04o}); {expected}")
        text = os.read(fd, 128).strip()
    finally:
        os.close(fd)
    if not re.fullmatch(rb"[0-9a-f]{64}", text):
        raise CacheRefused(f"{path}: the build cache's key is not 64 hex digits; {expected}")
    return bytes.fromhex(text.decode("ascii"))


def _make_key(path: Path, folder: int) -> None:
    """Make a new key in ``folder`` unless another build made one meanwhile: written to a
    new temporary file, mode 0600, and linked (not renamed) into place, so that a key
    there is never replaced."""
    tmp = f".{KEY_FILE}.{os.getpid()}-{secrets.token_hex(4)}"
    fd = os.open(tmp, _NEW, 0o600, dir_fd=folder)
    try:
        try:
            os.fchmod(fd, 0o600)
            write_all(fd, secrets.token_hex(32).encode("ascii") + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, KEY_FILE, src_dir_fd=folder, dst_dir_fd=folder,
                    follow_symlinks=False)
        except FileExistsError:
            pass  # another build's key is the key
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP):
                raise
            os.rename(tmp, KEY_FILE, src_dir_fd=folder, dst_dir_fd=folder)  # no hard links
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)


def _open_folder(path: Path, name: str, parent: int, *, mode: int = 0o777,
                 heal: bool = True) -> int:
    """The folder ``name`` in the folder of descriptor ``parent`` (whose path is
    ``path.parent``; ``path`` names it in messages), opened without following a link and
    made (with ``mode``, less the umask) when missing. With ``heal``, a symbolic link
    there is removed, never followed, and a folder made in its place (a file there is an
    OSError: the cache cannot be written).

    Raises:
        CacheRefused: the folder belongs to another user; or (without ``heal``) a link or
            a non-folder is there.
        OSError: it cannot be opened or made.
    """
    for attempt in range(3):
        try:
            fd = os.open(name, _DIR, dir_fd=parent)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, mode, dir_fd=parent)
            continue
        except OSError as exc:
            if exc.errno not in _NOT_A_FOLDER:
                raise
            if not heal:
                raise CacheRefused(f"{path}: a symbolic link or a file, not a folder; "
                                   "expected a folder of your own (remove it)") from exc
            if attempt < 2 and stat.S_ISLNK(_mode_at(parent, name)):
                _discard_at(parent, name)  # the link itself
                continue
            raise
        owner = os.fstat(fd).st_uid
        if owner != os.geteuid():
            os.close(fd)
            raise CacheRefused(f"{path}: the folder belongs to another user (uid {owner}); "
                               "expected a folder of your own")
        return fd
    raise OSError(errno.ENOENT, "it keeps going away", str(path))


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

    def __init__(self, folder: Path | None, project: Path | str) -> None:
        self.folder = folder
        self.project = str(project)
        self.notes: list[str] = []
        """One line per entry or blob found damaged or foreign, or per failed write."""
        self._used: set[str] = set()
        self._stored: set[str] = set()
        self._lock: int | None = None
        self._fds: dict[str, int] = {}
        """The open folders: ``""`` the cache folder, ``entries``, ``blobs``,
        ``blobs/<2 hex digits>``."""
        self._key = b""
        self._key_id = ""

    def __enter__(self) -> BuildCache:
        """Open the folder and read the user's key (:meth:`_ready`), then take a shared
        lock on the folder (its file ``lock``) for one build: the builds of a project
        that run at once (``serve`` beside ``build``, two output folders) share the
        cache, and only a build that finds no other one running prunes it
        (:meth:`prune`), so that none removes what another has found and is about to
        copy. The lock file's time says when the folder was last used (:func:`sweep`).
        A folder that cannot be locked is used without the lock."""
        if self._ready() and fcntl is not None:
            try:
                self._lock = _open_file_at(self._fds[""], "lock", self._path("lock"),
                                           self._note)
                fcntl.flock(self._lock, fcntl.LOCK_SH)
                os.utime(self._lock)  # used now (sweep)
            except OSError:
                self._release()
        return self

    def __exit__(self, *exc: object) -> None:
        self._release()
        self._close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._close()

    def _release(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # which releases the lock
            self._lock = None

    def _close(self) -> None:
        fds, self._fds = self._fds, {}
        for fd in fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)

    def _ready(self) -> bool:
        """Whether the cache is on: the first time, read the user's key
        (:func:`cache_key`) and open the cache folder (made when missing); either
        refused, the cache is off for this build (with a note)."""
        if self.folder is None:
            return False
        if "" in self._fds:
            return True
        try:
            key = cache_key()
            self.folder.parent.mkdir(parents=True, exist_ok=True)
            parent = os.open(self.folder.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                self._fds[""] = _open_folder(self.folder, self.folder.name, parent)
            finally:
                os.close(parent)
        except CacheRefused as exc:
            self._off(f"{exc}: this build goes on without the build cache")
            return False
        except OSError as exc:
            self._off(f"{self.folder}: cannot write the cache ({exc.strerror or exc}); "
                      "this build goes on without it")
            return False
        self._key = key
        self._key_id = hmac.new(key, b"rules-site cache key", "sha256").hexdigest()[:16]
        return True

    def _off(self, line: str) -> None:
        """Turn the cache off for the rest of the build, saying why."""
        self._note(line)
        self.folder = None
        self._release()
        self._close()

    def _path(self, rel: str) -> Path:
        assert self.folder is not None
        return self.folder / rel

    def _dir(self, rel: str, create: bool = True) -> int:
        """The open folder ``rel`` of the cache (``entries``, ``blobs``, ``blobs/ab``),
        opened once and made when missing (not made without ``create``: then
        FileNotFoundError). Raises OSError, CacheRefused."""
        fd = self._fds.get(rel)
        if fd is not None:
            return fd
        above, _, name = rel.rpartition("/")
        parent = self._dir(above, create)
        if not create and not _exists_at(parent, name):
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(self._path(rel)))
        fd = _open_folder(self._path(rel), name, parent)
        self._fds[rel] = fd
        return fd

    @property
    def enabled(self) -> bool:
        """Whether lookups can hit and results are kept."""
        return self.folder is not None

    @property
    def spare_site(self) -> Path | None:
        """Where the output keeps a replaced site's folders for the next build
        (:class:`generator.output.SiteWriter`, ``spare``, which checks them and gives
        them the umask's modes); ``None`` without a cache."""
        return None if self.folder is None else self.folder / "spare-site"

    def _entry_name(self, slot: str) -> str:
        return f"{digest(slot)[:32]}.json"

    def _entry_path(self, slot: str) -> Path:
        return self._path(f"entries/{self._entry_name(slot)}")

    def _seal(self, generator: str, slot: str, inputs: str, text: str) -> str:
        """The HMAC-SHA256 (hex) of an entry's fields under the user's key: what makes an
        entry this user's builds' own (see the module's text)."""
        mac = hmac.new(self._key, digestmod="sha256")  # (by name: OpenSSL's own HMAC)
        for part in (str(FORMAT), self._key_id, generator, self.project, slot, inputs, text):
            data = part.encode("utf-8")
            mac.update(len(data).to_bytes(8, "little"))
            mac.update(data)
        return mac.hexdigest()

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
        if not self._ready():
            return None
        name = self._entry_name(slot)
        path = self._path(f"entries/{name}")
        self._used.add(name)
        try:
            fd = os.open(name, _READ, dir_fd=self._dir("entries", create=False))
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link where an entry belongs: never followed
                self._note(f"{path}: a damaged cache entry; ignored, its part rebuilt")
            return None
        except CacheRefused as exc:
            self._off(f"{exc}: this build goes on without the build cache")
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                if not stat.S_ISDIR(st.st_mode):  # (a folder: replaced when stored)
                    self._note(f"{path}: a damaged cache entry; ignored, its part rebuilt")
                return None
            stamp = (st.st_ino, st.st_size, st.st_mtime_ns)
            known = _SHARED.get((str(path), self.project)) if shared else None
            if known is not None and known[0] == stamp:
                _SHARED.move_to_end((str(path), self.project))
                return known[2] if inputs in (None, known[1]) else None
            raw = _read_bounded(fd, st.st_size)
        except OSError:
            return None
        finally:
            os.close(fd)
        if raw is None:  # larger than any entry a build writes
            self._note(f"{path}: a damaged cache entry; ignored, its part rebuilt")
            return None
        at = raw.find(b'"inputs": "')
        if inputs is not None and at >= 0 and (
                raw[at + 11:at + 12 + len(inputs)] != b'%s"' % inputs.encode()):
            return None  # an entry for other inputs (as store writes it): not parsed
        try:
            entry = json.loads(raw)
            ok = (isinstance(entry, dict) and entry.get("slot") == slot
                  and all(isinstance(entry.get(k), str)
                          for k in ("key", "generator", "project", "inputs", "mac", "data")))
        except (ValueError, TypeError, RecursionError):
            entry, ok = None, False
        if isinstance(entry, dict) and (entry.get("format") != FORMAT
                                        or (ok and entry["key"] != self._key_id)):
            return None  # another version's, or made under another key: a miss
        if ok:
            assert isinstance(entry, dict)
            ok = hmac.compare_digest(entry["mac"].encode(), self._seal(
                entry["generator"], slot, entry["inputs"], entry["data"]).encode())
        try:
            data = json.loads(entry["data"]) if ok else None
        except (ValueError, RecursionError):
            ok = False
        if not ok:
            self._note(f"{path}: a damaged cache entry; ignored, its part rebuilt")
            return None
        assert isinstance(entry, dict)
        if entry["generator"] != generator_hash() or entry["project"] != self.project:
            return None  # another version's, or a copied cache: a miss, never used
        if shared:
            remember(_SHARED, (str(path), self.project), (stamp, entry["inputs"], data),
                     SHARED)
        return data if inputs in (None, entry["inputs"]) else None

    def store(self, slot: str, inputs: str, data: Any) -> None:
        """Keep ``data`` (plain JSON data) in ``slot`` for these ``inputs``."""
        if not self._ready():
            return
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        generator = generator_hash()
        entry = {"format": FORMAT, "key": self._key_id, "generator": generator,
                 "project": self.project, "slot": slot, "inputs": inputs,
                 "mac": self._seal(generator, slot, inputs, text), "data": text}
        name = self._entry_name(slot)
        self._used.add(name)
        self._stored.add(name)
        self._write("entries", name, json.dumps(entry, ensure_ascii=False).encode("utf-8"))

    def _blob_path(self, sha: str) -> Path:
        return self._path(f"blobs/{sha[:2]}/{sha}")

    def blob(self, sha: str) -> Path | None:
        """The cache's copy of the bytes whose SHA-256 hex digest is ``sha``, checked
        (read in pieces and hashed) now, or ``None``: missing, or damaged (then with a
        note, and removed so that the part rebuilt is kept again). The copy's name is
        not trusted past the check: whoever publishes it checks its bytes again as it
        copies them (:meth:`generator.output.SiteWriter.link`)."""
        fd = self._open_blob(sha)
        if fd is None:
            return None
        try:
            found = _hash_bounded(fd)
        except OSError:
            return None
        finally:
            os.close(fd)
        if found != sha:
            self._damaged_blob(sha)
            return None
        return self._blob_path(sha)

    def _damaged_blob(self, sha: str) -> None:
        """Say that the blob ``sha`` is damaged, and remove it (by its name in its
        folder)."""
        self._note(f"{self._blob_path(sha)}: a damaged cache file; ignored, its part rebuilt")
        with contextlib.suppress(OSError, CacheRefused):
            os.unlink(sha, dir_fd=self._dir(f"blobs/{sha[:2]}", create=False))

    def adopt(self, files: Mapping[str, str], folder: Path) -> None:
        """Keep the files just written below ``folder`` (relative path → their SHA-256
        hex digest) as blobs, copied (a hard link would let a site file edited in place
        change the cache)."""
        for rel, sha in files.items():
            if not self._ready():  # (off now: a write below failed)
                return
            if self._has_blob(sha):
                continue
            try:
                data = (folder / rel).read_bytes()
            except OSError as exc:
                self._off(f"{self.folder}: cannot write the cache ({exc.strerror or exc});"
                          " this build goes on without it")
                return
            self._write(f"blobs/{sha[:2]}", sha, data)

    def _has_blob(self, sha: str) -> bool:
        """Whether a regular file is kept under ``sha`` (not checked)."""
        try:
            info = os.stat(sha, dir_fd=self._dir(f"blobs/{sha[:2]}", create=False),
                           follow_symlinks=False)
        except (OSError, CacheRefused):
            return False
        return stat.S_ISREG(info.st_mode)

    def _open_blob(self, sha: str) -> int | None:
        """The blob ``sha`` opened to read (a regular file, never through a link), or
        ``None``."""
        if not self._ready() or not re.fullmatch(r"[0-9a-f]{64}", sha):
            return None
        try:
            fd = os.open(sha, _READ, dir_fd=self._dir(f"blobs/{sha[:2]}", create=False))
        except (OSError, CacheRefused):
            return None
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                return fd
        except OSError:
            pass
        os.close(fd)
        return None

    def load_blob(self, sha: str) -> bytes | None:
        """The bytes whose SHA-256 hex digest is ``sha``, or ``None``: missing, or
        damaged (then with a note)."""
        fd = self._open_blob(sha)
        if fd is None:
            return None
        try:
            data = _read_bounded(fd, os.fstat(fd).st_size)
        except OSError:
            return None
        finally:
            os.close(fd)
        if data is None or hashlib.sha256(data).hexdigest() != sha:
            self._damaged_blob(sha)
            return None
        return data

    def load_blob_part(self, sha: str, at: int, length: int, part: str) -> bytes | None:
        """Bytes ``at`` to ``at + length`` of the blob whose SHA-256 hex digest is
        ``sha``, when their own SHA-256 hex digest is ``part``; else ``None`` (no such
        blob, or those bytes are others: the caller makes them again). Only the part is
        hashed, not the whole blob as :meth:`load_blob` does: that read and hashed a
        kept page of 130 KB in 0.33 ms, where the read alone takes 0.04 ms."""
        if at < 0 or not 0 <= length <= READ_LIMIT:
            return None
        fd = self._open_blob(sha)
        if fd is None:
            return None
        try:
            data = os.pread(fd, length, at)
        except OSError:
            return None
        finally:
            os.close(fd)
        return data if hashlib.sha256(data).hexdigest() == part else None

    def store_blob(self, data: bytes) -> str:
        """Keep ``data``; returns its SHA-256 hex digest (its name)."""
        sha = hashlib.sha256(data).hexdigest()
        if self._ready() and not self._has_blob(sha):
            self._write(f"blobs/{sha[:2]}", sha, data)
        return sha

    def _write(self, rel: str, name: str, data: bytes) -> None:
        """Write the file ``name`` of the cache's folder ``rel`` whole or not at all: a
        new temporary file (``O_EXCL``, never through a link, the umask's mode) renamed
        over it. A failure becomes a note and turns the cache off for the rest of the
        build."""
        try:
            folder = self._dir(rel)
            tmp = f".tmp-{secrets.token_hex(8)}"
            fd = os.open(tmp, _NEW, 0o666, dir_fd=folder)
            try:
                try:
                    write_all(fd, data)
                finally:
                    os.close(fd)
                try:
                    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
                except OSError as exc:  # a folder where the file belongs: not ours to keep
                    if exc.errno not in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST):
                        raise
                    shutil.rmtree(name, dir_fd=folder)
                    os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folder)
                raise
        except CacheRefused as exc:
            self._off(f"{exc}: this build goes on without the build cache")
        except OSError as exc:
            self._off(f"{self.folder}: cannot write the cache ({exc.strerror or exc}); "
                      "this build goes on without it")

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
        if self._ready():
            with contextlib.suppress(OSError, CacheRefused):
                entries = self._dir("entries", create=False)
                for name in self._stored:
                    _discard_at(entries, name)
        self._used -= self._stored
        self._stored.clear()

    def keep_slots(self, slots: Iterable[str]) -> None:
        """Count the entries of ``slots`` as used by this build, unread: the parts of
        something taken from the cache whole (a page's tables), which the next build may
        need again, so that :meth:`prune` keeps them."""
        if self.folder is not None:
            self._used.update(self._entry_name(slot) for slot in slots)

    def prune(self, blobs: Iterable[str]) -> None:
        """After a build that used every slot it needs: remove the entries no lookup or
        store of this build touched and every blob but ``blobs`` (the digests the kept
        entries name), so the cache holds one build's worth. Inside ``with`` (the shared
        lock), only when no other build holds the lock: another build's files are left
        alone, and the next build that runs alone prunes. Everything is removed by its
        name in its folder, never through a link (a link planted as ``entries`` is
        removed itself, not emptied)."""
        if not self._ready():
            return
        if self._lock is not None:
            assert fcntl is not None
            try:  # shared to exclusive; the shared lock may be lost on the way: we end
                fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return  # another build is running
        keep = set(blobs)
        try:
            entries = self._dir("entries", create=False)
        except (OSError, CacheRefused):
            pass
        else:
            for name in _names(entries):
                if name not in self._used:
                    _discard_at(entries, name)
        try:
            folder = self._dir("blobs", create=False)
        except (OSError, CacheRefused):
            pass
        else:
            for sub in _names(folder):
                try:
                    fd = self._dir(f"blobs/{sub}", create=False)
                except (OSError, CacheRefused):
                    _discard_at(folder, sub)  # a link or a file: not a folder of blobs
                    continue
                for name in _names(fd):
                    if name not in keep:
                        _discard_at(fd, name)
        assert self.folder is not None
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
    now (its lock taken), not named as :func:`cache_folder` names them, not a real
    folder of the user's own, or ``mine`` is left alone. Nothing is opened through a
    link. What cannot be removed stays.

    Args:
        parent: the folder of every project's cache.
        mine: this build's cache folder, never removed.
        now: the time to compare with (seconds since the epoch; default the clock's).

    Returns:
        The folders removed.
    """
    now = time.time() if now is None else now
    try:
        top = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        return _sweep(parent, top, mine, now)
    finally:
        os.close(top)


def _sweep(parent: Path, top: int, mine: Path, now: float) -> list[Path]:
    try:
        if now - os.stat(SWEPT, dir_fd=top, follow_symlinks=False).st_mtime < 86_400:
            return []
    except OSError:
        pass
    try:
        fd = _open_file_at(top, SWEPT, parent / SWEPT, lambda line: None)
        try:
            os.utime(fd, (now, now))
        finally:
            os.close(fd)
    except OSError:
        return []  # a cache that cannot be written: nothing to tidy
    removed = []
    for name in _names(top):
        if (parent / name == mine or not _CACHE_NAME.fullmatch(name)
                or not stat.S_ISDIR(_mode_at(top, name))):
            continue
        try:
            folder = _open_folder(parent / name, name, top, heal=False)
        except (OSError, CacheRefused):
            continue
        try:
            try:
                used = os.stat("lock", dir_fd=folder, follow_symlinks=False).st_mtime
            except OSError:
                used = os.fstat(folder).st_mtime
            if now - used < STALE_DAYS * 86_400:
                continue
            lock = _open_file_at(folder, "lock", parent / name / "lock", lambda line: None)
        except OSError:
            continue
        finally:
            os.close(folder)
        try:
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # no build uses it now
            shutil.rmtree(name, dir_fd=top)
            removed.append(parent / name)
        except OSError:
            pass
        finally:
            os.close(lock)
    return removed


def _open_file_at(folder: int, name: str, path: Path, note: Callable[[str], None]) -> int:
    """The regular file ``name`` of the cache's folder of descriptor ``folder`` opened to
    read and write, made when missing (the umask's mode), never through a link: a link,
    FIFO, folder or a file with other hard links there (``path`` in the note) is removed,
    said in a note, and the file made anew, so that opening or touching it never
    creates or changes a file elsewhere. Raises OSError."""
    for attempt in range(2):
        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC, 0o666, dir_fd=folder)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.EISDIR, errno.ENXIO) or attempt:
                raise
        else:
            info = os.fstat(fd)
            if stat.S_ISREG(info.st_mode) and info.st_nlink == 1 \
                    and info.st_uid == os.geteuid():
                return fd
            os.close(fd)
            if attempt:
                break
        note(f"{path}: not a regular file of the cache's own (a link, FIFO, folder, hard "
             "link or another user's file); replaced, never followed")
        _discard_at(folder, name)
    raise OSError(errno.EEXIST, "not a regular file of its own", str(path))


def _read_bounded(fd: int, size: int) -> bytes | None:
    """The content of the open file ``fd`` (``size`` bytes as ``fstat`` says), or
    ``None`` when it holds more than :data:`READ_LIMIT` bytes. Raises OSError."""
    if size > READ_LIMIT:
        return None
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, max(size - total, 0) + 65536)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > READ_LIMIT:
            return None
        chunks.append(chunk)


def _hash_bounded(fd: int) -> str | None:
    """The SHA-256 hex digest of the open file ``fd``, read in pieces from its start, or
    ``None`` when it holds more than :data:`READ_LIMIT` bytes. Raises OSError."""
    h = hashlib.sha256()
    total = 0
    while True:
        chunk = os.pread(fd, 1024 * 1024, total)
        if not chunk:
            return h.hexdigest()
        total += len(chunk)
        if total > READ_LIMIT:
            return None
        h.update(chunk)


def _names(folder: int) -> list[str]:
    """The names in the open folder ``folder``; none when it cannot be read."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def _exists_at(folder: int, name: str) -> bool:
    """Whether ``name`` exists in the open folder ``folder`` (a link counts)."""
    try:
        os.stat(name, dir_fd=folder, follow_symlinks=False)
    except OSError:
        return False
    return True


def _mode_at(folder: int, name: str) -> int:
    """The mode of ``name`` in the open folder ``folder`` (of a link, the link's); 0 when
    it cannot be read."""
    try:
        return os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except OSError:
        return 0


def _discard_at(folder: int, name: str) -> None:
    """Remove ``name`` from the cache's open folder ``folder``: a folder with what it
    holds, anything else (a link too) by its name alone; what cannot be removed stays
    (the pruning goes on with the others)."""
    try:
        if stat.S_ISDIR(_mode_at(folder, name)):
            shutil.rmtree(name, dir_fd=folder)
        else:
            os.unlink(name, dir_fd=folder)
    except OSError:
        pass
