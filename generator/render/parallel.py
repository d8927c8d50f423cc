"""Rendering every locale, spread over worker processes where it pays (docs/DESIGN.md,
"Rendering contract"): forked workers inherit the parsed pages, the catalogs and the one
Jinja environment, render a locale at a time and write its files.

The workers are this module's own (:func:`_forked`), not a ``multiprocessing.Pool``: a
pool's workers share a lock on its task queue, and a worker killed while it waits for a
task (a SIGTERM to the whole process group, as a supervisor sends it) dies holding that
lock, so that the pool's clean-up waited for it forever. Here each worker has a pipe of
its own to the parent, which hands out the locales one at a time and, when the build
stops early, kills the workers outright: no lock is shared.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Mapping
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any
from typing import NamedTuple
from typing import NoReturn

from generator.errors import signals_deferred
from generator.i18n.coverage import Coverage
from generator.layout import home_output
from generator.layout import not_found_output
from generator.layout import page_output
from generator.layout import reads_recorded
from generator.layout import search_output
from generator.memo import carried_stage
from generator.output import SiteWriter
from generator.render.errors import template_error
from generator.render.search import LocalePlan
from generator.render.search import plan_locale
from generator.render.site import LocaleOutput
from generator.render.site import kept_locale
from generator.render.site import render_locale
from generator.render.site_input import SiteInput

PARALLEL_FROM = 100
"""Pages (all locales) from which rendering is spread over worker processes."""

PARALLEL_FROM_ROWS = 2000
"""Case rows (each case verified, all locales) from which rendering is spread over
worker processes, however few the pages: a case's row costs about as much to render as
a short page (4,000 rows on 84 pages render in a fifth less time over two workers)."""



class LocaleDone(NamedTuple):
    """One locale rendered and written (:func:`render_locales`)."""

    lang: str
    output: LocaleOutput | None
    """What rendering gave (its files already written), ``None`` after a template error."""
    files: int
    """How many files were written."""
    error: str | None
    """The template error's line, or ``None``."""
    search: LocalePlan | None = None
    """Its search index's plan (:func:`generator.render.search.plan_locale`), when the
    build makes one."""
    behind: bool = False
    """Its files are the ones the last build wrote, not rendered for these inputs
    (``last`` of :func:`render_locales`): the next build renders it."""


class _Job(NamedTuple):
    site: SiteInput
    writer: SiteWriter
    scratch: Path | None
    strict: bool
    later: bool
    last: Mapping[str, str]
    """The last build's files (site path → SHA-256) a locale may be left at."""
    deferred: frozenset[str]
    """The locales that may be left at the last build's files."""


_JOB: _Job | None = None
"""The job forked workers inherit (set only while a pool runs)."""


def _quiet_worker() -> None:
    """A worker's own errors travel back to the parent; what a worker would print when the
    parent is interrupted (a broken pipe) is noise, never a traceback for the user. Ctrl-C
    reaches the whole process group: the parent alone stops the build (and its workers);
    a SIGTERM ends a worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker


class WorkerDied(RuntimeError):
    """A render worker ended before it had sent every locale it was given (killed by a
    signal, or by the system); the message names its exit status."""


def _worker(conn: Connection, others: Sequence[Connection]) -> NoReturn:
    """A forked worker's life: render each locale the parent sends (:func:`_render_and_write`)
    and send back what it gave, or the exception it raised; end at ``None`` or when the
    parent is gone. Never returns (``os._exit``: the parent's clean-ups are the parent's)."""
    code = 0
    try:
        # The parent's ends of the pipes, its own too: a worker whose parent died (a
        # second Ctrl-C stopped its clean-up) then reads the end of its pipe and ends,
        # where it waited forever, holding the output's lock.
        for other in others:
            other.close()
        _quiet_worker()
        while (lang := conn.recv()) is not None:
            try:
                answer: tuple[str, object] = ("done", _render_and_write(lang))
            except Exception as exc:  # a fault of the generator: raised in the parent
                answer = ("fault", _portable(exc))
            conn.send(answer)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _portable(exc: Exception) -> Exception:
    """``exc``, or where it cannot travel through a pipe (pickle), a RuntimeError that
    names it."""
    try:
        pickle.dumps(exc)
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _forked(langs: Sequence[str], workers: int) -> Generator[LocaleDone, None, None]:
    """Render ``langs`` over ``workers`` forked processes at a time (:func:`_worker`),
    each locale in one of its own, forked as the one before ends (the memory a worker
    made, which Python's allocator keeps once freed, goes back with it: at 700 pages a
    third lower peak, 454 MB against 675); what each locale gave, in the order they
    finish. However it ends (done, an error, an interrupt), no worker is left: they are
    told to stop, or killed (SIGKILL) when the build stops early, and waited for (a
    second Ctrl-C or SIGTERM then waits until they are).

    Raises:
        WorkerDied: a worker ended before it answered.
        Exception: the fault a worker sent back (an error that is no template's).
    """
    todo = list(langs)
    children: dict[Connection, int] = {}
    finished = False

    def fork(lang: str) -> None:
        mine, theirs = multiprocessing.Pipe()
        pid = os.fork()
        if pid == 0:
            _worker(theirs, [*children, mine])
        theirs.close()
        children[mine] = pid
        mine.send(lang)

    try:
        for _ in range(min(workers, len(todo))):
            fork(todo.pop(0))
        while children:
            for conn in wait(list(children)):
                assert isinstance(conn, Connection)
                try:
                    kind, value = conn.recv()
                except EOFError:
                    _, status = os.waitpid(children.pop(conn), 0)
                    raise WorkerDied(f"a render worker ended early ({_status(status)})"
                                     ) from None
                if kind == "fault":
                    assert isinstance(value, Exception)
                    raise value
                assert isinstance(value, LocaleDone)
                conn.send(None)  # done: the worker ends, and gives its memory back
                conn.close()
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(children.pop(conn), 0)
                if todo:
                    fork(todo.pop(0))
                yield value
        finished = True
    finally:
        with signals_deferred():  # a second Ctrl-C: once every worker is gone
            for conn, pid in children.items():
                if not finished:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                conn.close()
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(pid, 0)


def worker_count(pages: int, cases: int, locales: int) -> int:
    """How many processes render a site of ``pages`` pages and ``cases`` cases in
    ``locales`` locales: one per locale up to the cores, or one (no worker forked) below
    :data:`PARALLEL_FROM` pages and :data:`PARALLEL_FROM_ROWS` rows, all locales
    counted, where starting processes costs more than it saves."""
    if pages * locales < PARALLEL_FROM and cases * locales < PARALLEL_FROM_ROWS:
        return 1
    return max(1, min(locales, os.cpu_count() or 1))


def _status(status: int) -> str:
    """A process's exit status, in words."""
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit {os.waitstatus_to_exitcode(status)}"


def _render_and_write(lang: str) -> LocaleDone:
    """Render one locale, write its files and plan its search index; or, for a locale
    that may be left behind and whose pages would be rendered, put the files the last
    build wrote for it in place (:func:`_left_behind`)."""
    assert _JOB is not None
    site, writer, scratch, strict, later, last, deferred = _JOB
    try:
        out = None
        if lang in deferred:
            out = kept_locale(site, lang)
            if out is None:
                behind = _left_behind(site, writer, lang, last)
                if behind is not None:
                    return behind
        if out is None:
            out = render_locale(site, lang, sink=writer.write)
    except Exception as exc:  # a worker's error travels back as text, with its position
        where = template_error(exc, site.root)
        if where is None:
            raise
        return LocaleDone(lang, None, 0, where)
    writer.write(out.files)
    writer.link({rel: (path, out.blobs[rel]) for rel, path in out.links.items()})
    plan = None
    if scratch is not None and site.pages and not (strict and out.coverage.untranslated):
        # (a strict build with a message in English fails: no index for it; a site
        # without a page published has nothing to index, and its pages no search box)
        pages: dict[str, bytes | Path] = {}
        for page in site.pages:  # a page taken from the cache: its copy in the new site
            rel = page_output(lang, page.slug)  # (the cache's may be gone by now)
            pages[rel] = out.files[rel] if rel in out.files else writer.tmp / rel
        plan = plan_locale(lang, pages, scratch, site.cache, digests=out.blobs, later=later)
        if plan.kept is not None:  # here, while the other locales render: its one copy
            writer.link(plan.kept)
    if site.cache is not None:
        site.cache.adopt({rel: out.blobs[rel] for rel in (*out.files, *out.written)},
                         writer.tmp)
    _recorded(site, out)
    files = len(out.files) + len(out.written) + len(out.links)
    out.files, out.links, out.written = {}, {}, []  # written: what travels back to the
    # parent is the rest
    return LocaleDone(lang, out, files, None, plan)


def _left_behind(site: SiteInput, writer: SiteWriter, lang: str, last: Mapping[str, str]
                 ) -> LocaleDone | None:
    """Locale ``lang`` left at the files the last build wrote for it (``last``): its
    pages, home and "page not found" pages and its search index, each the cache's checked
    copy, put into the new site; ``None`` when the last build had no file for one of
    today's pages, or the cache lacks a copy (then the locale is rendered)."""
    if site.cache is None:
        return None
    wanted = {page_output(lang, page.slug) for page in site.pages}
    wanted |= {home_output(lang), not_found_output(lang)}
    index = search_output(lang) + "/"
    names = {rel: sha for rel, sha in last.items() if rel in wanted or rel.startswith(index)}
    if not wanted <= names.keys():
        return None
    files: dict[str, tuple[Path, str]] = {}
    for rel, sha in names.items():
        copy = site.cache.blob(sha)
        if copy is None:
            return None
        files[rel] = (copy, sha)
    writer.link(files)
    out = LocaleOutput({}, Coverage(0, 0), blobs=dict(names))
    _recorded(site, out)
    return LocaleDone(lang, out, len(files), None, behind=True)


def _recorded(site: SiteInput, out: LocaleOutput) -> None:
    """What this process did for a locale, into ``out`` for the parent: the cache's
    notes, the entries used and stored, the inputs read."""
    if site.cache is not None:
        out.notes, out.entries = list(site.cache.notes), site.cache.used
        out.stored = site.cache.stored
    out.reads = reads_recorded()


ORDER_SLOT = "render-order"
"""The cache entry of each locale's catalog digest as the last build had it
(:func:`_order`)."""


def _order(site: SiteInput) -> tuple[list[str], frozenset[str]]:
    """The locales in the order they are rendered: those whose catalog changed since the
    last build first (with the cache: their pages are the ones to render, and their
    search index the one to make, so it starts while the others are taken from the
    cache), then the others, each group in the site's order. Without the cache, the
    site's order. With it, the locales whose catalog changed (every locale when the
    cache does not know the last build's catalogs)."""
    order = list(site.locales)
    if site.cache is None or site.keys is None:
        return order, frozenset(order)
    catalogs = {lang: site.keys.catalogs.get(lang, "") for lang in order}

    def changed_first(last: dict[str, Any] | None) -> tuple[list[str], frozenset[str]]:
        if last is None:
            return order, frozenset(order)
        order.sort(key=lambda lang: last.get(lang) == catalogs[lang])  # stable: False first
        return order, frozenset(lang for lang in order if last.get(lang) != catalogs[lang])

    return carried_stage(site.cache, ORDER_SLOT, "catalogs", changed_first,
                         encode=lambda _order: catalogs,
                         decode=lambda data: data if isinstance(data, dict) else None)


def render_locales(site: SiteInput, writer: SiteWriter, *, scratch: Path | None = None,
                   strict: bool = False,
                   planned: Callable[[LocalePlan], None] | None = None,
                   later: bool = False, last: Mapping[str, str] | None = None
                   ) -> list[LocaleDone]:
    """Render and write every locale, and plan each one's search index: in forked worker
    processes, one per core, where the system can fork and the site has
    :data:`PARALLEL_FROM` pages or :data:`PARALLEL_FROM_ROWS` case rows or more
    (:func:`worker_count`); in this process otherwise; the locales whose
    catalog changed first (:func:`_order`). The output is the same either way.

    Args:
        site: what to render.
        writer: the output's writer; the files go into its fresh folder.
        scratch: a folder for the search views (:func:`plan_locale`); ``None``: no index.
        strict: the build fails on a message shown in English: a locale with one gets no
            plan.
        planned: called in this process with each locale's plan as soon as the locale
            is done (in the order the locales finish), so that its index is made while
            the others render (:class:`generator.render.search.Indexer`).
        later: an index to make is left to the next build: the last one is taken
            (``later`` of :func:`generator.render.search.plan_locale`).
        last: the files the last build wrote (site path → SHA-256), or ``None``: with
            them, a locale other than the source locale (the first) whose catalog did
            not change and whose pages would be rendered keeps those files instead
            (:attr:`LocaleDone.behind`), so that the source locale's pages (and a
            changed catalog's) are in place sooner; the next build renders it.

    Returns:
        Per locale, in ``site.locales`` order: what it gave (:class:`LocaleDone`).

    Raises:
        Exception: an error that is no template's (a fault of the generator), or what
            ``planned`` raises.
    """
    global _JOB
    site.prepare()
    workers = worker_count(len(site.pages), len(site.results), len(site.locales))
    order, changed = _order(site)
    deferred = frozenset(site.locales[1:]) - changed if last is not None else frozenset()
    _JOB = _Job(site, writer, scratch, strict, later, last or {}, deferred)
    done: dict[str, LocaleDone] = {}

    def take(result: LocaleDone) -> None:
        done[result.lang] = result
        if result.search is not None and planned is not None:
            planned(result.search)

    try:
        if workers > 1 and hasattr(os, "fork"):
            with contextlib.closing(_forked(order, workers)) as results:
                for result in results:
                    take(result)
        else:
            for lang in order:
                take(_render_and_write(lang))
    finally:
        _JOB = None
    return [done[lang] for lang in site.locales]
