"""Work shared with one forked helper process (:func:`shared_map`): the helper works
through the items from the last one backwards while this process does something else
first, then takes them from the first one on, until the two meet; the helper's results
come back by pickle, through a temporary file. The result is the same as doing every
item here; a helper that fails, or cannot be had, only costs time (this process then
does the rest itself), and one that hangs is stopped once this process is done.

A single value can be made the same way while this process goes on with other stages
(:func:`start`, :class:`Started`).
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import pickle
import signal
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from types import MappingProxyType
from typing import IO
from typing import Any
from typing import Generic
from typing import NoReturn
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

_COUNT = struct.Struct("q")
"""One counter of :class:`_Progress` (8 bytes: written and read whole)."""


class _Progress:
    """Where the two processes are, in memory both see (an anonymous shared map):
    how many items this process has started, from the first on (:attr:`started`),
    and how many the helper has finished, from the last one back (:attr:`finished`).
    Each counter has one writer; a stale read only makes both do an item."""

    def __init__(self) -> None:
        self._map = mmap.mmap(-1, 2 * _COUNT.size)

    @property
    def started(self) -> int:
        return int(_COUNT.unpack_from(self._map, 0)[0])

    @started.setter
    def started(self, count: int) -> None:
        _COUNT.pack_into(self._map, 0, count)

    @property
    def finished(self) -> int:
        return int(_COUNT.unpack_from(self._map, _COUNT.size)[0])

    @finished.setter
    def finished(self, count: int) -> None:
        _COUNT.pack_into(self._map, _COUNT.size, count)

    def close(self) -> None:
        self._map.close()


def _mapping(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``items`` (how a pickled mapping proxy is made again)."""
    return MappingProxyType(items)


def _pickler(out: io.BytesIO) -> pickle.Pickler:
    """A pickler into ``out`` that writes a mapping proxy (which pickle refuses) as the
    dict it shows."""
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {MappingProxyType: lambda m: (_mapping, (dict(m),))}
    return pickler


STOPS = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals that stop a run: held back across the fork, so that the helper meets one
only once its own handling is in place (never the main process's clean-ups)."""


def may_fork() -> bool:
    """Whether this process may fork a helper: the system forks and blocks signals, and
    this process runs one thread (a lock another thread holds at the fork would stay
    held in the helper for ever; ``/proc/self/task`` counts the threads Python did not
    start too, as Python 3.12's warning about such a fork does)."""
    if not hasattr(os, "fork") or not hasattr(signal, "pthread_sigmask"):
        return False
    try:
        threads = len(os.listdir("/proc/self/task"))
    except OSError:
        threads = threading.active_count()
    return threads == 1


def _helper(out: int, work: Callable[[T], R], items: Sequence[T], progress: _Progress,
            mask: Iterable[int], parent: int) -> NoReturn:
    """The forked helper's life: do the items from the last one back while the main
    process (``parent``) has not started them and lives, appending each result,
    pickled, to file descriptor ``out`` before counting it finished; end
    (``os._exit``: the main process's clean-ups are its own). Ctrl-C is the main
    process's to act on; the signals held back across the fork (``mask`` is the mask
    before) come once that is set."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the helper
        for at in range(len(items) - 1, -1, -1):
            if at < progress.started or os.getppid() != parent:
                break
            result = io.BytesIO()
            _pickler(result).dump(work(items[at]))
            view = result.getbuffer()
            while view:
                view = view[os.write(out, view):]
            progress.finished = len(items) - at
        code = 0
    finally:
        os._exit(code)


def shared_map(work: Callable[[T], R], items: Sequence[T], *, helped: bool,
               first: Callable[[], object] | None = None) -> list[R]:
    """``[work(item) for item in items]``, after ``first()`` (called once, in this
    process, before any item here).

    With ``helped`` (where this process may fork: :func:`may_fork`; for two items or
    more), a forked helper process does the items from the last one backwards
    meanwhile, and this process takes them from the first one on once ``first`` has
    returned, until it reaches one the helper has finished: however long ``first``
    and each item take, both work to the end. An item both reach at once is done twice,
    its result the same. The helper's results wait in a temporary file; once this
    process has done its part, the helper is stopped (SIGKILL) wherever it is and the
    results it finished are read: a helper that is slow, stopped or stuck never holds
    this process up. A helper whose main process is gone stops after its item.

    ``work`` must be a function of its item alone (what it changes in the helper's
    memory is lost), and its results must pickle (a mapping proxy may be in them).

    Args:
        work: what is done to each item.
        items: the items, in order.
        helped: share the items with a helper (the caller judges whether they are
            worth a process: a few hundredths of a second to start it and to bring back
            its results).
        first: what this process does before its items, while the helper works.

    Returns:
        The results in the items' order. When the helper fails (it cannot be forked,
        is killed, raises, or makes a result that does not pickle), this process does
        the items it left.

    Raises:
        Exception: what ``first`` or ``work`` raises in this process; the helper is
            stopped and waited for however this process stops.
    """
    if helped and len(items) >= 2 and may_fork():
        with contextlib.ExitStack() as held:
            try:  # (no temporary file or shared map to be had: this process does it all)
                out = held.enter_context(tempfile.TemporaryFile())
                progress = _Progress()
            except OSError:
                pass
            else:
                held.callback(progress.close)
                return _shared(work, items, first, out.fileno(), progress)
    if first is not None:
        first()
    return [work(item) for item in items]


def _shared(work: Callable[[T], R], items: Sequence[T], first: Callable[[], object] | None,
            out: int, progress: _Progress) -> list[R]:
    """:func:`shared_map` with a helper, its results appended to ``out``."""
    parent = os.getpid()  # (asked here: in the helper, its parent may be gone already)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        pid = os.fork()
    except OSError:  # no process to be had (a limit, memory): this one does it all
        pid = -1
    if pid == 0:
        _helper(out, work, items, progress, mask, parent)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if first is not None:
            first()
        done = _from_the_first(work, items, progress) if pid > 0 else \
            [work(item) for item in items]
    finally:
        if pid > 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    helped_back = _results(out, progress.finished) if pid > 0 else []
    helped_back.reverse()  # the helper's first result is the last item's
    left = len(items) - len(helped_back)
    done.extend(work(item) for item in items[len(done):left])
    return done + helped_back[len(done) - left:]


def _from_the_first(work: Callable[[T], R], items: Sequence[T], progress: _Progress
                    ) -> list[R]:
    """The items done in this process, from the first on, until one the helper has
    finished."""
    done: list[R] = []
    for at, item in enumerate(items):
        if at >= len(items) - progress.finished:
            break
        progress.started = at + 1
        done.append(work(item))
    return done


def _results(out: int, count: int) -> list[Any]:
    """The first ``count`` results the helper appended to ``out``, in its order; those
    from one that cannot be read on are dropped (done here instead)."""
    size = os.fstat(out).st_size
    data = bytearray()
    while len(data) < size:
        piece = os.pread(out, size - len(data), len(data))
        if not piece:
            break
        data += piece
    results: list[Any] = []
    stream = io.BytesIO(data)
    with contextlib.suppress(Exception):
        while len(results) < count:
            results.append(pickle.load(stream))
    return results


class Started(Generic[R]):
    """A value a forked helper makes while this process goes on (:func:`start`): taken
    from the helper where it has finished (:meth:`result`), else made here. Close it
    (:meth:`close`) whatever happens: the helper is then stopped and waited for."""

    def __init__(self, work: Callable[[], R], pid: int = 0,
                 out: IO[bytes] | None = None, progress: _Progress | None = None) -> None:
        self._work = work
        self._pid = pid
        self._out = out
        self._progress = progress

    def result(self) -> R:
        """``work()``: the value the helper made, where it finished; else (it is still
        at work, it failed, or none was forked) made here, the helper stopped first.

        Raises:
            Exception: what ``work`` raises here.
        """
        helped: list[Any] = []
        if self._out is not None and self._progress is not None:
            self._progress.started = 1  # (a helper that has not begun never does)
            self._stop()
            if self._progress.finished:
                helped = _results(self._out.fileno(), 1)
        self.close()
        return helped[0] if helped else self._work()

    def _stop(self) -> None:
        """Stop the helper (SIGKILL) and wait for it, once."""
        if self._pid > 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self._pid, 0)
            self._pid = 0

    def close(self) -> None:
        """Stop the helper and wait for it; close its temporary file and shared map.
        Once (a second call does nothing); :meth:`result` still makes the value here."""
        try:
            self._stop()
        finally:
            out, progress, self._out, self._progress = self._out, self._progress, None, None
            if progress is not None:
                progress.close()
            if out is not None:
                out.close()


def start(work: Callable[[], R], *, helped: bool = True,
          held: list[Started[Any]] | None = None) -> Started[R]:
    """``work()`` begun in a forked helper process, where this process may fork
    (:func:`may_fork`) and ``helped``; its value waits in a temporary file until
    :meth:`Started.result` asks for it.

    ``work`` must be a function of nothing this process changes meanwhile (the helper
    sees this process's memory as it was at the fork), and its value must pickle.

    Args:
        work: what makes the value.
        helped: fork a helper (the caller judges whether the work is worth a process).
        held: where the value on its way is put before a Ctrl-C or SIGTERM held back
            across the fork can stop this process: the caller's clean-up closes what
            is there, though the interrupt came before this call returned.

    Returns:
        The value on its way; without a helper (none forked, or none could be: no
        process, no temporary file), :meth:`Started.result` makes it then.

    Raises:
        KeyboardInterrupt: a signal that came while it was held back (the helper
            stopped and waited for first).
    """
    if not (helped and may_fork()):
        return Started(work)
    try:
        out = tempfile.TemporaryFile()  # noqa: SIM115 - closed by Started.close
    except OSError:
        return Started(work)
    try:
        progress = _Progress()
    except OSError:
        out.close()
        return Started(work)
    parent = os.getpid()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        pid = os.fork()
    except OSError:  # no process to be had: the value is made here when asked for
        pid = -1
    if pid == 0:
        _helper(out.fileno(), lambda _none: work(), (None,), progress, mask, parent)
    if pid < 0:
        progress.close()
        out.close()
        started = Started(work)
    else:
        started = Started(work, pid, out, progress)
    if held is not None:
        held.append(started)
    try:  # (a signal held back is raised here, once let through)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    except BaseException:
        started.close()
        raise
    return started
