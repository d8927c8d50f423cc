"""Work shared with one forked helper process (:func:`shared_map`): the items' later part
is done in a child forked for it while this process does the first, and comes back by
pickle. The result is the same as doing every item here; a helper that fails only costs
time (this process then does its part itself).
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import signal
import sys
from collections.abc import Callable
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any
from typing import NoReturn
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

HELPER_SHARE = 0.47
"""The share of the work (by weight) the helper is given: a little under half, because
it also pickles its results (measured: an eighth of the time they took to make) and
this process reads them (a thirteenth) after its own part."""


def _mapping(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``items`` (how a pickled mapping proxy is made again)."""
    return MappingProxyType(items)


def _dumps(value: object) -> bytes:
    """``value`` pickled, a mapping proxy (which pickle refuses) as the dict it shows."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {MappingProxyType: lambda m: (_mapping, (dict(m),))}
    pickler.dump(value)
    return out.getvalue()


def split_at(weights: Sequence[int], share: float = HELPER_SHARE) -> int:
    """Where ``weights`` are cut so that those from the cut on weigh about ``share`` of
    the whole (at least one item on each side of two or more).

    Returns:
        An index from 1 to ``len(weights) - 1`` (0 for fewer than two items).
    """
    if len(weights) < 2:
        return 0
    target = sum(weights) * (1 - share)
    total = 0
    for at, weight in enumerate(weights):
        if total + weight / 2 > target:
            return min(max(at, 1), len(weights) - 1)
        total += weight
    return len(weights) - 1


def _helper(out: int, work: Callable[[T], R], items: Sequence[T]) -> NoReturn:
    """The forked helper's life: do ``items``, write the results pickled to file
    descriptor ``out``, end (``os._exit``: the parent's clean-ups are the parent's) with
    status 0 once all is written, 1 on any failure. Ctrl-C is the parent's to act on."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the helper
        data = _dumps([work(item) for item in items])
        with open(out, "wb", closefd=True) as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)


def shared_map(work: Callable[[T], R], items: Sequence[T], weights: Sequence[int], *,
               fork_from: int) -> list[R]:
    """``[work(item) for item in items]``, the later items (about
    :data:`HELPER_SHARE` of ``weights``) done at the same time by a forked helper
    process, where the system can fork and the items weigh ``fork_from`` or more.

    ``work`` must be a function of its item alone (what it changes in the helper's
    memory is lost), and its results must pickle (a mapping proxy may be in them).

    Args:
        work: what is done to each item.
        items: the items, in order.
        weights: each item's cost, in any unit (bytes of a file).
        fork_from: the least total weight worth a helper.

    Returns:
        The results in the items' order. When the helper fails (killed, an error, a
        result that does not pickle), this process does the helper's items itself.

    Raises:
        Exception: what ``work`` raises in this process; the helper is stopped
            (SIGKILL) and waited for whenever this process stops early.
    """
    at = split_at(weights)
    if at == 0 or sum(weights) < fork_from or not hasattr(os, "fork"):
        return [work(item) for item in items]
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(reader)
        _helper(writer, work, items[at:])
    os.close(writer)
    status: int | None = None
    try:
        with open(reader, "rb", closefd=True) as pipe:
            done = [work(item) for item in items[:at]]
            data = pipe.read()  # until the helper ends
        _, status = os.waitpid(pid, 0)
    finally:
        if status is None:  # this process stops early: so does the helper
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    helped: list[R] | None = None
    if os.waitstatus_to_exitcode(status) == 0:
        with contextlib.suppress(Exception):  # unreadable: done here instead
            helped = pickle.loads(data)
    if helped is None or len(helped) != len(items) - at:
        helped = [work(item) for item in items[at:]]
    return done + helped
