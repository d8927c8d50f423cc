"""The site's search index: one Pagefind index per locale, built from the rendered pages
(docs/site.md, "Search").

Pagefind (the PyPI package ``pagefind[bin]``, which ships its binary) reads the pages'
HTML and writes a static index that the browser loads in chunks: no server, no network.
What it indexes is marked in the theme: ``data-pagefind-body`` on a page's article (the
rule text and the case rows; the header, navigation, table of contents and footer are
left out) and ``data-pagefind-ignore`` on the drawings of cards. Each locale's pages are
indexed on their own, into ``<lang>/pagefind/`` (:func:`generator.layout.search_output`),
so a search in Czech finds Czech pages, with Czech word rules, and the index of a locale
depends only on that locale's pages (a cache may key it by their hash).

The index is byte-identical for the same pages: Pagefind names its files by a hash of
their content and writes no time. The one file whose order varies from run to run when
Pagefind indexes several languages at once (``pagefind-entry.json`` lists them from a
hash map) lists one language here, one run per locale (tests/test_search.py builds twice
and compares).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from generator.digests import digest
from generator.errors import shown
from generator.layout import search_output
from generator.memo import FileStore
from generator.render.search_views import cut_view
from generator.render.search_views import parts_digest
from generator.render.search_views import search_view
from generator.render.search_views import view_parts

UNUSED = frozenset({
    "pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
    "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js",
})
"""Files of Pagefind's bundle the site does not load (its own search interfaces and
highlighter; the theme's ``static/search.js`` talks to ``pagefind.js`` directly): left
out of the site."""

TIMEOUT = 600.0
"""Seconds one locale's indexing may take before it counts as failed."""


def get_executable() -> Path | None:
    """Pagefind's program, found where ``pagefind.service.get_executable`` looks, in its
    order: the ``PAGEFIND_BINARY_PATH`` variable, the packages ``pagefind_bin_extended``
    and ``pagefind_bin`` (``pagefind[bin]``), then ``pagefind_extended`` or ``pagefind``
    on the ``PATH``; ``None`` when there is none. (Not that function itself: its module
    imports asyncio for Pagefind's service, 20 ms of every build's start.)"""
    named = os.environ.get("PAGEFIND_BINARY_PATH")
    if named is not None:
        return Path(named)
    for package in ("pagefind_bin_extended", "pagefind_bin"):
        try:
            found: Path = __import__(package).get_executable()
        except (ImportError, OSError):  # not installed, or its program missing
            continue
        return found
    on_path = shutil.which("pagefind_extended") or shutil.which("pagefind")
    return None if on_path is None else Path(on_path)


def version() -> str:
    """Which Pagefind makes the index: its program's path, size and time of change
    (``""`` when there is none), part of the key a cached index and the views are kept
    under. The program itself, not a package's version: ``PAGEFIND_BINARY_PATH`` may
    name another one, and a program installed again is a new one. A ``stat``, not the
    package's metadata (importlib.metadata: 12 ms at each build's start, and 2 ms each
    call)."""
    program = get_executable()
    if program is None:
        return ""
    try:
        info = os.stat(program)
    except OSError:
        return ""
    return f"{os.path.abspath(program)}:{info.st_size}:{info.st_mtime_ns}"


class SearchIndexError(Exception):
    """Pagefind could not index the pages: its binary is missing or it failed (the
    message says which, with what it printed)."""


@dataclass
class LocalePlan:
    """One locale's search index as planned where the locale was rendered
    (:func:`plan_locale`): the key of its views, and where its index comes from.

    Attributes:
        lang: the locale.
        key: the digest of its views (each page's site path and view's SHA-256) and of
            Pagefind's program (:func:`version`): the same key, the same index.
        views: each page's view's SHA-256, by site path (the cache keeps them: the build
            names them among the blobs to keep).
        kept: the cache's checked copy of the index made from these views (site path →
            (copy, SHA-256)), or ``None``.
        folder: the scratch folder holding the views when the index must be made
            (``site/``, for Pagefind; ``None`` when ``kept`` or the process memo has it).
        behind: ``kept`` is the index the last build made, of other views (asked for
            with ``later``: the index these views need is made by the next build).
    """

    lang: str
    key: str
    views: dict[str, str]
    kept: dict[str, tuple[Path, str]] | None = None
    folder: Path | None = None
    behind: bool = False


VIEWS_SLOT = "search-views/{lang}"
"""The cache entry that remembers, for a locale's pages as the last build wrote them,
each page's SHA-256, its view's (a blob), the digest of the view's parts
(:func:`view_parts`) and the SHA-256 of its element where it passed the view's checks
(else ``""``): a page whose bytes did not change needs no new view, nor one that
changed outside its head and article only (its navigation's titles, its footer), and
the checks of such a page look only around its element (``checked``)."""
INDEX_SLOT = "search/{lang}"
"""The cache entry of a locale's index: under its views' key, the SHA-256 of each file."""


def plan_locale(lang: str, pages: Mapping[str, bytes | Path], scratch: Path,
                cache: FileStore | None = None, *, cut: bool = True,
                digests: Mapping[str, str] | None = None, later: bool = False
                ) -> LocalePlan:
    """Prepare one locale's search index, in the process that rendered the locale: make
    each page's view (:func:`search_view`), taken from the cache where the page's bytes
    did not change, and find the index in the cache or the process memo by the views'
    key; else write the views into ``scratch/<lang>/site/`` for Pagefind
    (:class:`Indexer`).

    Args:
        lang: the locale.
        pages: the locale's content pages (site path → their bytes, or a file holding
            them, such as the new site's copy of a page taken from the cache).
        scratch: a folder of the build's own for the views.
        cache: the build cache, or ``None`` (``--no-cache``): no view or index kept.
        cut: make views; ``False`` indexes the pages as they are.
        digests: the pages' SHA-256 where known (the cache's names of their copies): a
            page whose digest the cache remembers with its view is then not read at all.
        later: where the index must be made, take the one the last build made instead
            (``behind``), if the cache has it: ``serve`` shows the pages first and makes
            their index in the build after (docs/site.md, "serve"). A page whose view
            the cache does not know by the page's SHA-256 makes the index one to make
            without its view being made: that build makes the views (most of a small
            change's planning time), and the views the cache knows are kept for it.

    Returns:
        The plan (see :class:`LocalePlan`).

    Raises:
        OSError: a page's file cannot be read, or a view written.
    """
    program = version()  # (a lookup and a stat: once)
    known = (cache.load(VIEWS_SLOT.format(lang=lang), program, shared=True)
             if cache else None)
    memo = known if isinstance(known, dict) else {}
    if later and cut and cache is not None:
        behind = _behind(lang, pages, cache, digests or {}, memo)
        if behind is not None:
            return behind
    views = _planned_views(pages, cache, cut, digests or {}, memo)
    if cache is not None and cut and views.remembered != memo:
        cache.store(VIEWS_SLOT.format(lang=lang), program, views.remembered)
    key = _views_key(program, views.shas)
    kept = _kept_files(cache, cache.load(INDEX_SLOT.format(lang=lang), key)) if cache else None
    if kept is not None or key in _MADE:
        return LocalePlan(lang, key, views.shas, kept)
    last = _kept_files(cache, cache.load(INDEX_SLOT.format(lang=lang), None)) \
        if cache is not None and later else None
    if last is not None:
        return LocalePlan(lang, key, views.shas, last, behind=True)
    folder = scratch / lang
    for rel, made in views.made.items():
        view = made if made is not None else _kept_view(cache, views.shas[rel], pages[rel])
        path = folder / "site" / rel.partition("/")[2]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(view)
    return LocalePlan(lang, key, views.shas, None, folder)


def _planned_views(pages: Mapping[str, bytes | Path], cache: FileStore | None, cut: bool,
                   digests: Mapping[str, str], memo: Mapping[str, object]) -> _LocaleViews:
    """Each page's view as :func:`plan_locale` plans it (:func:`_plan_view`; without
    ``cut``, the page itself), in site path order."""
    views = _LocaleViews({}, {}, {})
    for rel in sorted(pages):
        if not cut:
            data = _bytes(pages[rel])
            views.made[rel], views.shas[rel] = data, hashlib.sha256(data).hexdigest()
        else:
            _plan_view(views, rel, pages[rel], cache, digests.get(rel), memo.get(rel))
    return views


def _behind(lang: str, pages: Mapping[str, bytes | Path], cache: FileStore,
            digests: Mapping[str, str], memo: Mapping[str, object]) -> LocalePlan | None:
    """The plan of a locale whose index is left to the next build (``later`` of
    :func:`plan_locale`) without its views made: the last build's index, where the cache
    has it and a page's view is not known by the page's SHA-256 (an index of the views
    the cache knows may need no new index: then ``None``, planned as usual). The views it
    knows are named, so that the cache keeps them for the next build."""
    shas = {rel: digests.get(rel) or hashlib.sha256(_bytes(page)).hexdigest()
            for rel, page in pages.items()}
    seen = {rel: memo.get(rel) for rel in pages}
    views = {rel: str(item[1]) for rel, item in seen.items()
             if isinstance(item, list) and len(item) == 4 and item[0] == shas[rel]
             and isinstance(item[1], str)}
    if len(views) == len(pages):
        return None
    last = _kept_files(cache, cache.load(INDEX_SLOT.format(lang=lang), None))
    if last is None:
        return None
    return LocalePlan(lang, "", views, last, behind=True)


@dataclass(frozen=True)
class _LocaleViews:
    """A locale's views as :func:`plan_locale` plans them.

    Attributes:
        made: each page's view made now, by site path (``None``: the cache has it).
        shas: each view's SHA-256, by site path.
        remembered: what :data:`VIEWS_SLOT` keeps of each page.
    """

    made: dict[str, bytes | None]
    shas: dict[str, str]
    remembered: dict[str, list[str]]


def _plan_view(views: _LocaleViews, rel: str, page: bytes | Path, cache: FileStore | None,
               page_sha: str | None, seen: object) -> None:
    """Plan the view of page ``rel`` into ``views``: the cache's where the page's bytes
    are those it remembers (``seen``: :data:`VIEWS_SLOT`'s item), or where they changed
    outside what the view takes; else made now (and kept as a blob with the cache)."""
    page_sha = page_sha or hashlib.sha256(_bytes(page)).hexdigest()
    if not (isinstance(seen, list) and len(seen) == 4
            and all(isinstance(x, str) for x in seen)):
        seen = ["", "", "", ""]
    if seen[0] == page_sha:
        views.made[rel], views.shas[rel], source, inside = None, seen[1], seen[2], seen[3]
    else:
        data = _bytes(page)
        parts = view_parts(data, seen[3] if cache is not None else "")
        source = inside = ""
        if parts is not None and cache is not None:
            inside = parts.sha or hashlib.sha256(parts.inside).hexdigest()
            source = parts_digest(parts, inside)
        if source and source == seen[2]:  # changed outside what the view takes
            views.made[rel], views.shas[rel] = None, seen[1]
        else:
            view = views.made[rel] = data if parts is None else cut_view(parts)
            views.shas[rel] = (cache.store_blob(view) if cache
                               else hashlib.sha256(view).hexdigest())
    views.remembered[rel] = [page_sha, views.shas[rel], source, inside]


def _kept_view(cache: FileStore | None, sha: str, page: bytes | Path) -> bytes:
    """The view of SHA-256 ``sha`` from the cache, or made again from ``page`` when its
    copy is missing or damaged (and kept again)."""
    view = cache.load_blob(sha) if cache is not None else None
    if view is None:
        view = search_view(_bytes(page))
        if cache is not None:
            cache.store_blob(view)
    return view


def _bytes(page: bytes | Path) -> bytes:
    """A page's bytes, given or read from its file."""
    return page if isinstance(page, bytes) else page.read_bytes()


def _views_key(program: str, shas: Mapping[str, str]) -> str:
    """The key of a locale's index: Pagefind's program (:func:`version`), each page's
    site path and its view's SHA-256, in path order."""
    return digest(program, *(x for rel in sorted(shas) for x in (rel, shas[rel])))


def _kept_files(cache: FileStore, kept: object) -> dict[str, tuple[Path, str]] | None:
    """The cache's copies of an index it kept (``kept``: site path → SHA-256), by site
    path, with their digests; ``None`` when there is none, it is of another shape, or a
    copy is missing or damaged."""
    if not isinstance(kept, dict) or not kept:
        return None
    found: dict[str, tuple[Path, str]] = {}
    for rel, sha in kept.items():
        path = cache.blob(sha) if isinstance(rel, str) and isinstance(sha, str) else None
        if path is None:
            return None
        found[rel] = (path, sha)
    return found


class Indexer:
    """Runs Pagefind over the locales whose index must be made, as their plans come in
    (:meth:`add`), at most one run per core at a time, beside the rendering of the
    other locales; :meth:`finish` waits for them and gives every locale's index.

    A locale's index is made in a process of its own (Pagefind's program) over the
    views its plan wrote; what it writes depends only on those views. The files of each
    index made are kept in the process memo (:data:`MEMO` locales), so that a process
    that builds the same pages again (the test suite, ``serve``) indexes them once.

    Args:
        workers: how many Pagefind runs at most at a time (default: the cores).
        made: called in this process with each index's files (site path → bytes) as
            soon as it is made or found in the process memo, while the other locales
            are indexed or rendered (a build writes them into the new site then, not
            after the last index); :meth:`finish` gives them all the same.
    """

    def __init__(self, workers: int | None = None,
                 made: Callable[[dict[str, bytes]], None] | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._on_made = made
        self.plans: dict[str, LocalePlan] = {}
        self._waiting: list[LocalePlan] = []
        self._running: dict[str, tuple[LocalePlan, subprocess.Popen[bytes], float]] = {}
        self._made: dict[str, dict[str, bytes]] = {}
        self._binary: Path | None = None

    def add(self, plan: LocalePlan) -> None:
        """Take one locale's plan: its index is in the cache or the memo, or it is made
        now (started at once if fewer than ``workers`` runs are going).

        Raises:
            SearchIndexError: Pagefind's program is missing, cannot start, or failed.
            Exception: what ``made`` raises (a build's: ``OutputError``).
        """
        self.plans[plan.lang] = plan
        if plan.kept is None:
            self._executable()  # even when the memo has the index: as a new process would
            if plan.folder is None and self._on_made is not None:
                self._on_made(_MADE[plan.key])
        if plan.folder is not None:
            self._waiting.append(plan)
            self._poll()

    def finish(self) -> tuple[dict[str, str], dict[str, bytes]]:
        """Wait for every run and give the indexes of all locales added. (An index the
        cache kept is copied into the site by the process that planned its locale:
        :func:`generator.render.parallel.render_locales`.)

        Returns:
            (every index file, the cache's kept ones too → its SHA-256 hex digest; the
            files made now, or taken from the process memo → their bytes), each by site
            path, sorted.

        Raises:
            SearchIndexError: Pagefind failed on a locale, or took longer than
                :data:`TIMEOUT` seconds.
            Exception: what ``made`` raises (a build's: ``OutputError``).
        """
        while self._waiting or self._running:
            self._poll(block=True)
        made: dict[str, bytes] = {}
        digests: dict[str, str] = {}
        for lang in sorted(self.plans):
            plan = self.plans[lang]
            if plan.kept is not None:
                digests.update({rel: sha for rel, (_, sha) in plan.kept.items()})
                continue
            files = self._made.get(lang)
            if files is None:
                files = _MADE[plan.key]  # a plan without folder nor kept: in the memo
            _MADE[plan.key] = files
            _MADE.move_to_end(plan.key)
            made.update(files)
            digests.update({rel: hashlib.sha256(data).hexdigest()
                            for rel, data in files.items()})
        while len(_MADE) > MEMO:
            _MADE.popitem(last=False)
        return dict(sorted(digests.items())), dict(sorted(made.items()))

    def close(self) -> None:
        """Stop every run still going (a build that fails or is interrupted): each run
        is a process group of its own (Pagefind, or a wrapper and what it started),
        killed whole."""
        self._waiting.clear()
        for _, process, _ in self._running.values():
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                process.wait(timeout=10)
        self._running.clear()

    def _poll(self, block: bool = False) -> None:
        """Collect the runs that ended (with ``block``, wait until one has), then start
        waiting ones while fewer than ``workers`` run."""
        while True:
            ended = [lang for lang, (_, process, _) in self._running.items()
                     if process.poll() is not None]
            for lang in ended:
                plan, process, _ = self._running.pop(lang)
                files = self._made[lang] = _collect(process, plan)
                if self._on_made is not None:
                    self._on_made(files)
            if ended or not block or not self._running:
                break
            late = [lang for lang, (_, _, started) in self._running.items()
                    if time.monotonic() - started > TIMEOUT]
            if late:
                self.close()
                raise SearchIndexError(
                    f"{search_output(late[0])}: Pagefind took longer than {TIMEOUT:.0f} s; "
                    "expected an index of the pages")
            time.sleep(0.005)
        while self._waiting and len(self._running) < self.workers:
            plan = self._waiting.pop(0)
            self._running[plan.lang] = (plan, self._start(plan), time.monotonic())

    def _executable(self) -> Path:
        """Pagefind's program.

        Raises:
            SearchIndexError: it is not installed."""
        if self._binary is None:
            self._binary = get_executable()
        if self._binary is None:
            raise SearchIndexError("the search index needs Pagefind's program, which was "
                                   "not found; expected the package pagefind[bin] "
                                   "installed (pip install 'pagefind[bin]')")
        return self._binary

    def _start(self, plan: LocalePlan) -> subprocess.Popen[bytes]:
        assert plan.folder is not None
        command = [os.path.abspath(self._executable()), "--site", str(plan.folder / "site"),
                   "--output-path",
                   str(plan.folder / "index"), "--keep-index-url", "--silent"]
        with open(plan.folder / "said.txt", "wb") as said:  # (no fault of Pagefind's)
            try:
                # A session of its own: Ctrl-C stops the build, which ends the run
                # (close), and a run that started processes of its own ends with them.
                return subprocess.Popen(command, stdout=said, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True,
                                        cwd=plan.folder, env=_pagefind_environment())
            except OSError as exc:
                named = os.environ.get("PAGEFIND_BINARY_PATH")
                expected = ("expected it to run (pip install 'pagefind[bin]')" if named is None
                            else f"expected PAGEFIND_BINARY_PATH ('{shown(named)}') to name "
                            "its program")
                raise SearchIndexError(
                    f"{search_output(plan.lang)}: Pagefind could not index the pages: "
                    f"{exc}; {expected}") from exc


def _pagefind_environment() -> dict[str, str]:
    """The environment a Pagefind run gets: this process's without Pagefind's own
    settings (``PAGEFIND_*``, such as ``PAGEFIND_EXCLUDE_SELECTORS``). With the run's
    working folder the scratch folder (no ``pagefind.yml`` there), what it indexes
    depends on the pages alone, as the views and the cached indexes assume: the theme
    says what is indexed (``data-pagefind-*``)."""
    return {k: v for k, v in os.environ.items() if not k.upper().startswith("PAGEFIND_")}


def _collect(process: subprocess.Popen[bytes], plan: LocalePlan) -> dict[str, bytes]:
    """The files of the index Pagefind made for ``plan`` (site path → bytes), without
    :data:`UNUSED`.

    Raises:
        SearchIndexError: it failed (its exit status and what it printed)."""
    assert plan.folder is not None
    prefix, out = search_output(plan.lang), plan.folder / "index"
    if process.returncode != 0 or not (out / "pagefind.js").is_file():
        said = _shown((plan.folder / "said.txt").read_bytes())
        raise SearchIndexError(f"{prefix}: Pagefind failed (exit {process.returncode}): "
                               f"{said or 'no message'}; expected an index of the pages")
    files: dict[str, bytes] = {}
    for folder, dirs, names in os.walk(out):
        dirs.sort()
        here = Path(folder)
        for name in sorted(names):
            rel = (here / name).relative_to(out).as_posix()
            if rel not in UNUSED:
                files[f"{prefix}/{rel}"] = (here / name).read_bytes()
    return files


SAID_LIMIT = 1000
"""The most characters of what Pagefind printed that an error message shows (its end,
where Pagefind says what went wrong)."""


def _shown(said: bytes) -> str:
    """What a program printed, fit for an error message: its lines as a file name is
    shown (:func:`generator.layout.shown`: control characters and bytes that are not
    UTF-8 as escapes, so no terminal codes), joined with `` | ``, at most
    :data:`SAID_LIMIT` characters (its end)."""
    lines = [shown(line).strip() for line in said.decode("utf-8", "surrogateescape")
             .splitlines()]
    text = " | ".join(line for line in lines if line)
    if len(text) > SAID_LIMIT:
        text = "…" + text[-SAID_LIMIT:]
    return text


def sweep_scratch(base: Path | None = None) -> None:
    """Remove the scratch folders (:data:`SCRATCH_PREFIX`) that builds killed outright
    (SIGKILL, a power cut) left in the temporary folder ``base`` (default: the system's):
    those of this user whose process is gone. A folder of a live process, or another
    user's, stays."""
    base = Path(base or tempfile.gettempdir())
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        match = _SCRATCH.fullmatch(name)
        path = base / name
        if match is None or path.is_symlink() or not path.is_dir():
            continue
        try:
            if path.stat().st_uid != os.getuid():
                continue
            os.kill(int(match[1]), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def scratch_folder() -> Path:
    """A new scratch folder for a build's search views (``rules-search-<pid>-…`` in the
    system's temporary folder), after sweeping what killed builds left there."""
    sweep_scratch()
    return Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))


SCRATCH_PREFIX = "rules-search-"
"""The start of a build's scratch folder's name; the build's process id follows."""
_SCRATCH = re.compile(re.escape(SCRATCH_PREFIX) + r"([0-9]+)-[A-Za-z0-9_]+")


def search_index(pages: Mapping[str, bytes]) -> dict[str, bytes]:
    """The search index of ``pages``: every file of each locale's Pagefind index (what
    a build does over :func:`plan_locale` and :class:`Indexer`, without a cache).

    Args:
        pages: the rendered pages to index, site-relative POSIX path
            (``<lang>/<slug>/index.html``) → the page's HTML (UTF-8), or its
            :func:`search_view`, which gives the same index faster. The first part of
            a path is its locale; a page at the site's root belongs to none and is not
            indexed. Only what a page marks with ``data-pagefind-body`` is indexed (a
            page with no such element is left out once any page of its locale has one).

    Returns:
        Site-relative path (``<lang>/pagefind/…``) → bytes, sorted by path; the same
        pages give the same bytes. A locale's files depend only on its own pages.

    Raises:
        SearchIndexError: Pagefind's binary is missing, or it failed on a locale.
    """
    groups: dict[str, dict[str, bytes]] = {}
    for rel, data in sorted(pages.items()):
        lang, sep, rest = rel.partition("/")
        if sep and rest.endswith(".html"):
            groups.setdefault(lang, {})[rel] = data
    indexer = Indexer()
    with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-") as tmp:
        try:
            for lang, group in groups.items():
                indexer.add(plan_locale(lang, dict(group), Path(tmp), cut=False))
            _, made = indexer.finish()
        finally:
            indexer.close()
    return made


MEMO = 32
"""Locale indexes kept in the process, by their views' key (:func:`_views_key`): a
process that builds the same pages again (the test suite, a server rebuilding) indexes
them once; the output is the same either way."""
_MADE: OrderedDict[str, dict[str, bytes]] = OrderedDict()
