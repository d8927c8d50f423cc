"""The build's stage runner: the build cache wrapped around the build's stages
(docs/DESIGN.md, "The build cache").

The runner keys the whole build by the digest of every input and of the generator
(:attr:`Runner.key`): the stages of a build whose key is kept are not run, their kept
outcome is (:meth:`Runner.kept`). Otherwise the stages run
(:func:`generator.commands.stages.run_stages`), each item stage (a page parsed, a
locale's catalog, a page rendered in a locale, a case table, a locale's search index)
asking the store it is handed (:class:`generator.memo.FileStore`) for its result by its
inputs' digest; the runner then keeps what the build made (:meth:`Runner.keep`), unless
an input was saved while the stages ran (the race bookkeeping: :meth:`Runner.overtaken`).
No stage imports the cache: only this module and :mod:`generator.cache` do.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from generator.cache import BuildCache
from generator.cache import cache_folder
from generator.cache import input_digests
from generator.digests import digest
from generator.i18n.coverage import Coverage
from generator.layout import THEME_LABEL
from generator.layout import Layout
from generator.layout import recorded_reads
from generator.memo import FileStore
from generator.output import SourceGone

WHOLE_SLOT = "build"
"""The cache's slot of the whole build's outcome (:meth:`Runner.kept`)."""
SITE_SLOT = "site-files"
"""The cache's slot of the files the last good build into an output folder wrote (site
path → SHA-256), under :func:`site_key`."""
AGREEING_SLOT = "cases"
"""The cache's slot of the digests of the cases known to agree with the engine
(:meth:`Runner.agreeing`), under the inputs ``"agreeing"``."""


@dataclass
class BuildReport:
    """What a build did: exit code, lines for standard output, coverage per locale."""

    exit_code: int
    lines: list[str]
    coverage: dict[str, Coverage] = field(default_factory=dict)
    pages: int = 0
    cases: int = 0
    cached: int = 0
    """Pages (home pages counted) taken from the build cache, not rendered."""
    files: dict[str, str] = field(default_factory=dict)
    """Each file of the site written, by site path: its SHA-256 hex digest (with the
    cache; empty without one)."""
    search_behind: list[str] = field(default_factory=list)
    """The locales whose search index is the one the last build made, not one of these
    pages (``build(..., search_later=True)``): the next build makes theirs."""
    locales_behind: list[str] = field(default_factory=list)
    """The locales whose files (pages and search index) are the ones the last build
    wrote, not rendered for these inputs (``build(..., locales_later=True)``): the next
    build renders them."""

    @property
    def behind(self) -> bool:
        """Whether a part of the site is the last build's (:attr:`search_behind`,
        :attr:`locales_behind`): the next build brings it up to date."""
        return bool(self.search_behind or self.locales_behind)


@dataclass(frozen=True)
class Keep:
    """What the runner keeps of a build whose stages ran (:meth:`Runner.keep`).

    Attributes:
        whole: the build's outcome for the whole build's slot (its exit code, lines,
            and for a good build its files, cases and coverage), or ``None``.
        agreeing: the digests of the cases that agree with the engine (a good build).
        blobs: the files the build used (a good build): every other is pruned.
        files: each file of the site by site path, its digest (a good build), for
            :attr:`BuildReport.files`.
    """

    whole: dict[str, Any] | None = None
    agreeing: list[str] | None = None
    blobs: frozenset[str] | None = None
    files: dict[str, str] | None = None


@dataclass(frozen=True)
class Outcome:
    """A build's report, and what the runner may keep of it (``None``: nothing, not
    even the race bookkeeping, as after a template or output error; an empty
    :class:`Keep`: the race bookkeeping alone). ``rendered``: the stages reached the
    site's rendering (an interrupt while the runner keeps says whether the new site is
    in place)."""

    report: BuildReport
    keep: Keep | None = None
    rendered: bool = False


class Runner:
    """Runs a build's stages with the build cache wrapped around them.

    Args:
        store: the build cache (disabled: ``build --no-cache``).
        layout: the project's layout.
        parts: what keys the whole build besides its inputs (the generator's hash,
            Pagefind's version, the output folder, the options).
    """

    def __init__(self, store: BuildCache, layout: Layout, parts: tuple[str, ...]) -> None:
        self.store = store
        self.inputs = input_digests(layout) if store.enabled else None
        """Every input's digest by path (:func:`generator.cache.input_digests`);
        ``None`` without the cache or where an input is not a plain file."""
        self.key = None if self.inputs is None else digest(
            *parts, *(x for item in sorted(self.inputs.items()) for x in item))
        """The whole build's key, or ``None``."""
        self._read: dict[str, str] = {}
        self._layout = layout

    @property
    def items(self) -> FileStore | None:
        """The store the item stages ask (the cache, when it is on)."""
        return self.store if self.store.enabled else None

    def kept(self) -> Any:
        """The outcome kept for this build's key (plain data, its shape unchecked), or
        ``None``."""
        return self.store.load(WHOLE_SLOT, self.key) if self.key is not None else None

    def agreeing(self) -> frozenset[str]:
        """The digests of the cases an earlier build found to agree with the engine."""
        known = self.store.load(AGREEING_SLOT, "agreeing") if self.inputs is not None \
            else None
        return frozenset(str(d) for d in known) if isinstance(known, list) else frozenset()

    def run(self, stages: Callable[[Runner], Outcome]) -> Outcome:
        """Run ``stages`` with this runner, the inputs they read recorded
        (:meth:`overtaken`); where a file the cache gave changed or went away while they
        ran (:class:`generator.output.SourceGone`), run them again without the cache,
        which is then trusted for nothing (with a note)."""
        with recorded_reads() as read:
            self._read = read
            try:
                return stages(self)
            except SourceGone as exc:
                self.store.notes.append(
                    f"{self.store.folder or 'the build cache'}: a file taken from the build "
                    f"cache changed or went away while the build ran ({exc}); built again "
                    "without it")
        with BuildCache(None, self.store.project) as bare:
            return stages(Runner(bare, self._layout, ()))

    def overtaken(self) -> list[str]:
        """The inputs saved while the stages ran: read, here or in a render worker, with
        other bytes than those of the digests the stages were keyed with; sorted. A build
        with such an input keeps nothing it made in the cache (it may have made it of the
        new bytes under the old digest). A file saved after the build read it changes
        nothing the build made."""
        if self.inputs is None or not self.store.enabled:
            return []
        inputs = self.inputs
        return sorted(rel for rel, sha in self._read.items()
                      if not rel.startswith(f"{THEME_LABEL}/") and inputs.get(rel) != sha)

    def keep(self, outcome: Outcome) -> None:
        """Keep what ``outcome`` says in the cache, unless an input was saved while the
        stages ran: then forget every entry they stored, and say so in the report. A
        good build's report gets its files' digests; its whole outcome is kept unless a
        locale's search index or pages are the last build's (not this build's own), and
        the cache is pruned to this build's entries and files unless a locale's pages
        are."""
        keep, report = outcome.keep, outcome.report
        if keep is None:
            return
        overtaken = self.overtaken()
        if overtaken:
            self.store.forget_stored()
            report.lines.append(race_note(overtaken))
            return
        if not self.store.enabled:
            return
        if keep.files is not None:
            report.files = keep.files
        if keep.whole is not None and self.key is not None and not report.behind:
            self.store.store(WHOLE_SLOT, self.key, keep.whole)
        if keep.agreeing is not None:
            self.store.store(AGREEING_SLOT, "agreeing", keep.agreeing)
        if keep.blobs is not None and not report.locales_behind:
            # (a locale left behind used none of its entries: the next build needs them)
            self.store.prune(keep.blobs)


def site_key(root: Path, out: Path | None, drafts: bool, strict: bool) -> str:
    """What :data:`SITE_SLOT` is kept under: the output folder and the build's options."""
    return digest(str(Layout.of(root, out).out), str(drafts), str(strict))


def race_note(changed: list[str]) -> str:
    """The note of a build that an input's save overtook (:meth:`Runner.overtaken`)."""
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return (f"note: {', '.join(changed[:3])}{more} changed while the build ran: what it "
            "built of them is not kept in the cache; build again to show them")


@contextmanager
def cache_for(root: Path, layout: Layout, cache: bool) -> Iterator[BuildCache]:
    """The project's build cache for one build (its shared lock held), or a disabled
    one (``cache`` false: ``--no-cache``)."""
    with BuildCache(cache_folder(root) if cache else None, layout.root) as store:
        yield store
