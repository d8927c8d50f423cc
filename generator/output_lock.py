"""The lock beside an output folder (``.<name>.lock``, :class:`Lock`): two builds never write
one output at once, and the lock file records the pids of the builds of that output that
did not finish, whose folders beside it (``.<name>.new-<pid>``, ``.<name>.old-<pid>``) the
next build removes (:func:`leftovers`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from generator.output_files import OutputError

RECORD_LIMIT = 64
"""The most pids the lock file records (:class:`Lock`): builds killed one after another
whose folders could not be removed."""


def _pids(text: bytes) -> list[int]:
    """The pids a lock file records (one decimal number a line; anything else
    ignored), at most :data:`RECORD_LIMIT`, each once."""
    found: list[int] = []
    for line in text.split(b"\n"):
        line = line.strip()
        if line.isdigit() and len(line) <= 10 and int(line) not in found:
            found.append(int(line))
    return found[:RECORD_LIMIT]


def _recorded(lock: Path) -> list[int]:
    """The pids the lock file ``lock`` records, read without taking the lock; none when
    there is no such regular file (a link is not followed)."""
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        return _pids(os.pread(fd, 4096, 0))
    except OSError:
        return []
    finally:
        os.close(fd)


def left_by(parent: Path, name: str, pid: int) -> list[Path]:
    """The folders that the build ``pid`` of the output ``parent/name`` makes while it
    runs (``.<name>.new-<pid>``, ``.<name>.old-<pid>``) and that are there."""
    return [place for place in (parent / f".{name}.new-{pid}", parent / f".{name}.old-{pid}")
            if os.path.lexists(place)]


def leftovers(parent: Path, name: str) -> list[Path]:
    """The folders left beside the output ``parent/name`` by builds that did not finish:
    those of the pids its lock file records (:class:`Lock`), by exact name (another
    output's, ``.site.new-1`` for ``--out 's*'``, never matches)."""
    return [place for pid in _recorded(parent / f".{name}.lock")
            for place in left_by(parent, name, pid)]


LOCK_WAIT = 60.0
"""Seconds a build waits for another build's lock before it gives up (docs/site.md); the
environment variable ``RULES_LOCK_WAIT`` overrides it (tests)."""


def _lock_wait() -> float:
    try:
        return max(0.0, float(os.environ.get("RULES_LOCK_WAIT", LOCK_WAIT)))
    except ValueError:
        return LOCK_WAIT


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class Lock:
    """An exclusive lock on ``.<name>.lock`` beside the output (POSIX ``flock``; a no-op
    where there is none). Released when the process ends, however it ends.

    The lock file is opened without following a link (a link planted there is refused,
    never followed out of the folder; so is a file with other hard links, never written
    through). It records pids, one a line: first the build holding it, then the earlier
    builds that did not finish (:attr:`earlier`, read as the lock is taken; the holder
    writes the record, :meth:`record`). A build that finds it held says so, with the
    first pid, and waits at most ``wait`` seconds.
    """

    def __init__(self, path: Path, wait: float | None = None,
                 notify: Callable[[str], None] = _say) -> None:
        self.path = path
        self.fd: int | None = None
        self.wait = _lock_wait() if wait is None else wait
        self.notify = notify
        self.earlier: list[int] = []
        """The pids the lock file recorded when this build took it: builds of this
        output that started and did not finish (or are this one's own, from an earlier
        build in this process)."""

    def __enter__(self) -> Lock:
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP or self.path.is_symlink():
                raise OutputError(f"{self.path}: the lock file is a symbolic link; expected "
                                  "a regular file or none (remove the link)") from exc
            if exc.errno == errno.EISDIR:
                raise OutputError(f"{self.path}: the lock file is a folder; expected a "
                                  "regular file or none (remove it)") from exc
            raise
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise OutputError(f"{self.path}: the lock file is not a regular file; expected "
                              "a regular file or none (remove it)")
        if info.st_nlink > 1:  # another name of a file elsewhere: never written through
            os.close(fd)
            raise OutputError(f"{self.path}: the lock file has {info.st_nlink - 1} other "
                              "hard link(s); expected a file of its own or none (remove "
                              "it)")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                self._wait(fd, fcntl.flock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BaseException:
                os.close(fd)
                raise
        self.fd = fd
        with contextlib.suppress(OSError):
            self.earlier = _pids(os.pread(fd, 4096, 0))
        self.record([os.getpid(), *self.earlier])  # whose lock it is, for a build that waits
        return self

    def record(self, pids: list[int]) -> None:
        """Write ``pids`` as the lock file's record (see the class's text), while held."""
        if self.fd is None:
            return
        text = "".join(f"{pid}\n" for pid in _pids("\n".join(map(str, pids)).encode()))
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, text.encode(), 0)

    def _wait(self, fd: int, flock: Callable[[int, int], None], how: int) -> None:
        """Wait for the lock, at most :attr:`wait` seconds, after saying whose it is."""
        try:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").split("\n")[0].strip()
        except OSError:
            holder = ""
        whose = f"the build with pid {holder}" if holder.isdigit() else "another build"
        self.notify(f"{self.path}: waiting for {whose}, which is writing this output "
                    f"folder (at most {self.wait:g} s)")
        deadline = time.monotonic() + self.wait
        while True:
            try:
                flock(fd, how)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputError(
                        f"{self.path}: {whose} still holds the lock after {self.wait:g} s; "
                        "expected it to finish (try again later, or stop that build)"
                    ) from None
                time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
