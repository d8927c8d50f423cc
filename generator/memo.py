"""The stages keyed per item wrapped around the stage runner's store
(:func:`item_stage`, :func:`carried_stage`), what the store is to them (:class:`Store`,
:class:`FileStore`), and a process's own memos (:func:`remember`) (docs/DESIGN.md, "The
build cache").

A stage that keeps a result per item (a page parsed, a locale's compiled catalog, the
templates' messages, a case table) declares its slot, its inputs' digest and how its
result is made, encoded and decoded; :func:`item_stage` returns the result kept for
that digest, or makes and keeps it, so the function that makes it takes no store. The
store behind these protocols is the build cache (:class:`generator.cache.BuildCache`),
handed down by the stage runner (:mod:`generator.commands.stages`), whose trust checks
the stage never sees.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from typing import Protocol
from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K")


class Store(Protocol):
    """Results kept by slot (one per item) for the digest of the inputs they were made
    from."""

    def load(self, slot: str, inputs: str | None, *, shared: bool = False) -> Any:
        """The data kept in ``slot`` for ``inputs`` (any inputs: ``None``), or ``None``;
        ``shared``: remembered in the process, not to be changed by the caller."""

    def store(self, slot: str, inputs: str, data: Any) -> None:
        """Keep ``data`` (plain JSON data) in ``slot`` for ``inputs``."""


class FileStore(Store, Protocol):
    """A :class:`Store` that also keeps files' bytes under their SHA-256 digest, and
    says what it found damaged (:attr:`notes`)."""

    notes: list[str]

    def blob(self, sha: str) -> Path | None:
        """A checked copy of the bytes of digest ``sha``, or ``None``."""

    def load_blob(self, sha: str) -> bytes | None:
        """The bytes of digest ``sha``, or ``None``."""

    def load_blob_part(self, sha: str, at: int, length: int, part: str) -> bytes | None:
        """Bytes ``at`` to ``at + length`` of the blob ``sha`` when their digest is
        ``part``, or ``None``."""

    def store_blob(self, data: bytes) -> str:
        """Keep ``data``; returns its SHA-256 hex digest."""

    def keep_slots(self, slots: Iterable[str]) -> None:
        """Count ``slots`` as used by this build, unread."""

    def adopt(self, files: Mapping[str, str], folder: Path) -> None:
        """Keep the files just written below ``folder`` (relative path → SHA-256 hex
        digest)."""

    @property
    def spare_site(self) -> Path | None:
        """Where the output keeps a replaced site's folders for the next build."""

    def mark_used(self, names: Iterable[str], stored: Iterable[str] = ()) -> None:
        """Count entries a render worker used (and ``stored``) as this build's."""

    @property
    def used(self) -> frozenset[str]:
        """The entries this build looked up or stored (a render worker's, for the
        runner's bookkeeping)."""

    @property
    def stored(self) -> frozenset[str]:
        """Those of them this build stored."""


def remember(memo: OrderedDict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """Keep ``value`` in the process memo ``memo`` (the store's entries, compiled
    catalogs, inline HTML: what a process that builds again reuses) under ``key``, as
    the most recently used; beyond ``limit`` items, the least recently used are
    forgotten. (The search indexes' memo trims only after a build has them all:
    :class:`generator.render.search.Indexer`.)

    Args:
        memo: the process's memo.
        key: the item's key.
        value: what to keep.
        limit: how many items the memo holds at most.
    """
    memo[key] = value
    memo.move_to_end(key)
    while len(memo) > limit:
        memo.popitem(last=False)


MADE_LIMIT = 512
"""Results :func:`item_stage` remembers in the process, at most."""

_MADE: OrderedDict[tuple[str, str], Any] = OrderedDict()
"""What this process's stages made, encoded, by (slot, inputs' digest): a process that
builds another project of equal inputs (its tests; ``pytest`` over several sites) takes
them as a build takes its cache's, decoded, never made again."""


def item_stage(store: Store | None, slot: str, inputs: str, make: Callable[[], T], *,
               encode: Callable[[T], Any], decode: Callable[[Any], T | None],
               shared: bool = False) -> T:
    """An item's stage wrapped in the store: the result kept in ``slot`` for the
    inputs' digest ``inputs`` when there is one that decodes, else the result ``make``
    gives, kept there encoded.

    Args:
        store: the build's store, or ``None`` (no cache: ``make`` runs, nothing is kept).
        slot: the item's slot.
        inputs: the digest of the inputs the result is made from.
        make: makes the result from the inputs (a pure function of them).
        encode: the result as plain JSON data to keep, or ``None``: not to be kept (a
            result with errors, made again so that they are found again).
        decode: a kept entry as the result, or ``None``: not usable (then ``make``
            runs); raising ``KeyError``, ``TypeError`` or ``ValueError`` for an entry of
            another shape counts the same.
        shared: the entry is read as remembered in the process
            (:meth:`Store.load`'s ``shared``): ``decode`` must not change it.

    Returns:
        The kept result, the one this process made for equal inputs (for another
        project: :data:`_MADE`, read as ``shared``), or the one made now.
    """
    if store is None:
        return make()
    found = store.load(slot, inputs, shared=shared)
    result = _decoded(found, decode)
    if result is not None:
        return result
    made = _MADE.get((slot, inputs)) if inputs else None
    result = _decoded(made, decode)
    if result is not None:
        store.store(slot, inputs, made)
        return result
    result = make()
    data = encode(result)
    if data is not None:
        store.store(slot, inputs, data)
        if inputs:
            remember(_MADE, (slot, inputs), data, MADE_LIMIT)
    return result


def _decoded(found: Any, decode: Callable[[Any], T | None]) -> T | None:
    """A kept entry decoded, or ``None``: none, not usable, or of another shape
    (``decode`` raising ``KeyError``, ``TypeError`` or ``ValueError``, as an entry
    checksummed and of this generator, yet of another shape, does)."""
    if found is None:
        return None
    try:
        return decode(found)
    except (KeyError, TypeError, ValueError):
        return None


def carried_stage(store: Store | None, slot: str, inputs: str,
                  make: Callable[[K | None], T], *, encode: Callable[[T], Any],
                  decode: Callable[[Any], K | None]) -> T:
    """A stage that starts from what the last build learnt (the case files found
    valid, each locale's catalog digest), wrapped in the store: ``make`` is given that
    knowledge, decoded from ``slot``, and what it learns now is kept there when it
    differs.

    Args:
        store: the build's store, or ``None`` (``make`` is given ``None``; nothing kept).
        slot: the slot of the knowledge.
        inputs: the name it is kept under (the same for every build).
        make: the result, from the knowledge (``None``: none, or not of its shape).
        encode: what the result teaches, as plain JSON data.
        decode: the kept data as the knowledge, or ``None``: not of its shape.

    Returns:
        ``make``'s result.
    """
    found = store.load(slot, inputs) if store is not None else None
    known = decode(found) if found is not None else None
    result = make(known)
    if store is not None:
        data = encode(result)
        if data != found:
            store.store(slot, inputs, data)
    return result
