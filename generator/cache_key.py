"""The user's key of the build cache's entries (:func:`cache_key`): kept outside every
cache folder, so that a cache folder restored or written by someone else cannot hold an
entry this user's builds trust (:mod:`generator.cache`)."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from pathlib import Path

from generator.cache_files import APP
from generator.cache_files import OPEN_NEW
from generator.cache_files import OPEN_READ
from generator.cache_files import CacheRefused
from generator.cache_files import open_folder
from generator.layout import write_all

KEY_FILE = "cache-key"
"""The user's key (:func:`cache_key`) in ``<user configuration>/rules-site/``."""


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
        folder = open_folder(path.parent, APP, home, mode=0o700, heal=False)
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
        fd = os.open(KEY_FILE, OPEN_READ, dir_fd=folder)
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
    fd = os.open(tmp, OPEN_NEW, 0o600, dir_fd=folder)
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

