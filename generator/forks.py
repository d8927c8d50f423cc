"""Work shared with one forked helper process (:func:`shared_map`): the helper works
through the items from the last one backwards while this process does something else
first, then takes them from the first one on, until the two meet; the helper's results
come back by pickle. The result is the same as doing every item here; a helper that
fails only costs time (this process then does the rest itself).
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
from collections.abc import Callable
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any
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


def _helper(out: int, work: Callable[[T], R], items: Sequence[T], progress: _Progress
            ) -> NoReturn:
    """The forked helper's life: do the items from the last one back while this process
    has not started them, pickling each result as it comes; write them all to file
    descriptor ``out`` (the last item's first); end (``os._exit``: the parent's
    clean-ups are the parent's) with status 0 once all is written, 1 on any failure.
    Ctrl-C is the parent's to act on."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the helper
        results = io.BytesIO()
        pickler = _pickler(results)
        for at in range(len(items) - 1, -1, -1):
            if at < progress.started:
                break
            pickler.dump(work(items[at]))
            pickler.clear_memo()  # each result read on its own
            progress.finished = len(items) - at
        with open(out, "wb", closefd=True) as pipe:
            pipe.write(results.getbuffer())
        code = 0
    finally:
        os._exit(code)


def shared_map(work: Callable[[T], R], items: Sequence[T], *, helped: bool,
               first: Callable[[], object] | None = None) -> list[R]:
    """``[work(item) for item in items]``, after ``first()`` (called once, in this
    process, before any item here).

    With ``helped`` (where the system can fork, for two items or more), a forked helper
    process does the items from the last one backwards meanwhile, and this process takes
    them from the first one on once ``first`` has returned, until it reaches one the
    helper has finished: however long ``first`` and each item take, both work to the
    end. An item both reach at once is done twice, its result the same.

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
        The results in the items' order. When the helper fails (killed, an error, a
        result that does not pickle), this process does the items it left.

    Raises:
        Exception: what ``first`` or ``work`` raises in this process; the helper is
            stopped (SIGKILL) and waited for whenever this process stops early.
    """
    if not helped or len(items) < 2 or not hasattr(os, "fork"):
        if first is not None:
            first()
        return [work(item) for item in items]
    progress = _Progress()
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        _helper(writer, work, items, progress)
    os.close(writer)
    status: int | None = None
    try:
        with open(reader, "rb", closefd=True) as pipe:
            if first is not None:
                first()
            done = _from_the_first(work, items, progress)
            data = pipe.read()  # until the helper ends
        _, status = os.waitpid(pid, 0)
    finally:
        progress.close()
        if status is None:  # this process stops early: so does the helper
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    helped_back = _results(data) if os.waitstatus_to_exitcode(status) == 0 else []
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


def _results(data: bytes) -> list[Any]:
    """The results the helper wrote, in its order, read one by one; those after one
    that cannot be read are dropped (done here instead)."""
    results: list[Any] = []
    stream = io.BytesIO(data)
    with contextlib.suppress(Exception):
        while stream.tell() < len(data):
            results.append(pickle.load(stream))
    return results
