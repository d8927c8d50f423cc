"""What a stage keyed per item sees of the stage runner's store (:class:`Store`,
:class:`FileStore`), and a process's own memos (:func:`remember`) (docs/DESIGN.md, "The
build cache").

A stage that keeps a result per item (a page parsed, a locale's compiled catalog, a
page rendered in one locale, a case table) is handed a store by the stage runner
(:mod:`generator.commands.stages`) and asks it for the result kept for the item's slot
and its inputs' digest; the store behind these protocols is the build cache
(:class:`generator.cache.BuildCache`), whose trust checks the stage never sees.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from typing import Protocol


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
