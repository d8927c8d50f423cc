"""The build's stages, a flat list run in order (:data:`STAGES`, :func:`run_stages`):
load, verify, open the output, render, pack the card checker, index, write
(docs/DESIGN.md, "The build
cache"). Each is a small function over the previous stage's value (a frozen dataclass)
that gives the next stage's value, or an :class:`~generator.commands.runner.Outcome`
that ends the build.

The stages know no cache: the stage runner (:mod:`generator.commands.runner`) keys the
whole build and keeps its outcome; the item stages inside (pages parsed, catalogs,
pages rendered, case tables, search views and indexes) ask the store they are handed
(:attr:`Start.store`, a :class:`generator.memo.FileStore`) by their inputs' digests.
"""

from __future__ import annotations

import gc
import hashlib
import shutil
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path
from typing import Any

from generator import forks
from generator.commands.check import disagreement_lines
from generator.commands.check import warning_lines
from generator.commands.output_folder import open_writer
from generator.commands.output_folder import output_problem
from generator.commands.project import Project
from generator.commands.project import format_errors
from generator.commands.project import load_project
from generator.commands.runner import SITE_SLOT
from generator.commands.runner import BuildReport
from generator.commands.runner import Keep
from generator.commands.runner import Outcome
from generator.commands.runner import site_key
from generator.content.drafts import Publication
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.errors import signals_deferred
from generator.i18n.coverage import Coverage
from generator.layout import Layout
from generator.layout import record_reads
from generator.layout import search_output
from generator.memo import FileStore
from generator.output import OutputError
from generator.output import SiteWriter
from generator.output import SourceGone
from generator.render.checker_files import Runtime
from generator.render.checker_files import checker_files
from generator.render.errors import template_error
from generator.render.incremental import RenderKeys
from generator.render.parallel import render_locales
from generator.render.search import INDEX_SLOT
from generator.render.search import Indexer
from generator.render.search import SearchIndexError
from generator.render.search import scratch_folder
from generator.render.site import LocaleOutput
from generator.render.site import publish_files
from generator.render.site import render_common
from generator.render.site import strict_lines
from generator.render.site_input import SiteInput


@dataclass(frozen=True)
class Start:
    """What a build starts from.

    Attributes:
        root: the project folder.
        out: the output folder (default ``<root>/site``).
        strict: fail on a message shown in English or a warning.
        drafts: publish the drafts too.
        search_later: keep the last build's search index where a new one is needed.
        locales_later: with ``search_later``, a locale other than the source locale
            whose catalog did not change keeps the files the last build wrote for it
            where its pages would be rendered (:func:`render_locales`' ``last``).
        store: the store the item stages ask (``None``: no cache).
        inputs: every input's digest by path (``None``: no render keys).
        agreeing: the digests of the cases known to agree with the engine.
    """

    root: Path
    out: Path | None
    strict: bool = False
    drafts: bool = False
    search_later: bool = False
    locales_later: bool = False
    store: FileStore | None = None
    inputs: Mapping[str, str] | None = None
    agreeing: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Loaded:
    """The load stage's value: the project, loaded (cases, catalogs, pages, templates,
    ``site.yaml``)."""

    start: Start
    project: Project


@dataclass(frozen=True)
class Verified:
    """The verify stage's value: a project without input errors or disagreements (nor,
    with ``strict``, warnings), and its lines (warnings)."""

    loaded: Loaded
    lines: tuple[str, ...]


class Output:
    """The new site's folder (:class:`generator.output.SiteWriter`), the search indexer
    and its scratch folder, from the open stage on; the loaded project is left out of
    the cyclic garbage collection meanwhile (:meth:`release` gives all of it back).

    The loaded objects (pages, cases, catalogs, results) live to the build's end, and
    the collector went through them again and again while the pages were rendered, in
    this process and in every forked render worker, where its scan also copied the
    memory it touched (Python's docs advise freezing before a fork): ``gc.freeze``.
    """

    def __init__(self, writer: SiteWriter, store: FileStore | None) -> None:
        self.writer = writer
        self.scratch = scratch_folder()
        self.indexer = Indexer(made=self._index_made)
        self.runtime: Runtime | None = None
        """The card checker's ``runtime.zip``, packed while the locales render (``None``:
        the site has no checker)."""
        self.started: list[forks.Started[Any]] = []
        """The values forked helpers make meanwhile (:func:`generator.forks.start`),
        each put here as its helper starts: :meth:`release` stops them, though an
        interrupt came before their owner was set."""
        self._store = store
        self._held = True
        gc.freeze()

    def _index_made(self, files: dict[str, bytes]) -> None:
        """An index just made: into the new site and the store now, while the other
        locales are indexed (not after the last one)."""
        self.writer.write(files)
        if self._store is not None:
            for data in files.values():
                self._store.store_blob(data)

    def release(self) -> None:
        """Stop the indexer's runs, remove the scratch folder, unfreeze the collector;
        once (a second Ctrl-C waits until the scratch folder is gone)."""
        if not self._held:
            return
        self._held = False
        try:
            with signals_deferred():
                self.indexer.close()
                for started in self.started:
                    started.close()
                shutil.rmtree(self.scratch, ignore_errors=True)
        finally:
            gc.unfreeze()


@dataclass(frozen=True)
class Opened:
    """The open stage's value: what the site is rendered from, and where to."""

    verified: Verified
    site: SiteInput
    output: Output


@dataclass(frozen=True)
class Rendered:
    """The render stage's value: every locale and the shared files written into the new
    site's folder.

    Attributes:
        outputs: each locale's output (:class:`generator.render.site.LocaleOutput`).
        common: the shared files the build makes (site path → bytes).
        published: the files published as they are (site path → digest).
        files: how many files were written.
        coverage: each locale's coverage (but a locale's left behind).
        behind: the locales left at the files the last build wrote for them.
    """

    opened: Opened
    outputs: tuple[LocaleOutput, ...]
    common: Mapping[str, bytes]
    published: Mapping[str, str]
    files: int
    coverage: dict[str, Coverage]
    behind: tuple[str, ...] = ()


@dataclass(frozen=True)
class Indexed:
    """The index stage's value: every locale's search index (site path → digest)."""

    rendered: Rendered
    index: Mapping[str, str]


def load(start: Start) -> Loaded | Outcome:
    """The load stage: the project (:func:`generator.commands.project.load_project`),
    unless the output folder may not be written (said before the loading, which would
    name every input)."""
    problem = output_problem(start.root, start.out)
    if problem is not None:
        return Outcome(BuildReport(EXIT_INPUT, [problem]))
    project = load_project(start.root, out=start.out, agreeing=start.agreeing,
                           cache=start.store, drafts=start.drafts)
    return Loaded(start, project)


def verify(loaded: Loaded) -> Verified | Outcome:
    """The verify stage: a build with input errors or disagreements, or with ``strict``
    a warning, ends here and writes nothing (its outcome kept whole)."""
    project = loaded.project
    lines = (format_errors(project.errors) + disagreement_lines(project)
             + warning_lines(project))
    code = project.exit_code
    if code == EXIT_OK and loaded.start.strict and project.warnings:
        code = EXIT_DISAGREE
    if code != EXIT_OK:
        return Outcome(BuildReport(code, lines), Keep({"exit": code, "lines": lines}))
    return Verified(loaded, tuple(lines))


def open_output(verified: Verified) -> Opened | Outcome:
    """The open stage: what the build publishes
    (:class:`generator.content.drafts.Publication`), each page's render key where the
    build has a store (:class:`generator.render.incremental.RenderKeys`), the new
    site's folder (:func:`open_writer`), and the card checker's ``runtime.zip`` set
    packing meanwhile where neither this process nor the store has it
    (:class:`generator.render.checker_files.Runtime`)."""
    start, project = verified.loaded.start, verified.loaded.project
    writer = open_writer(start.root, start.out,
                         start.store.spare_site if start.store is not None else None)
    if isinstance(writer, str):
        return Outcome(BuildReport(EXIT_INPUT, [*verified.lines, writer]))
    try:  # from here on the fresh folder is removed whatever happens (run_stages)
        shown = Publication.of(project.pages, project.cases.cases, drafts=start.drafts)
        keys = None
        if start.inputs is not None and start.store is not None:
            keys = RenderKeys.of(start.inputs, shown.pages, project.cases.cases,
                                 project.locales, project.config.site_url, shown.hidden)
        store = start.store if keys is not None else None
        site = SiteInput(Layout.of(start.root, start.out), shown.pages, project.locales,
                         project.translators, project.results, project.config,
                         cache=store, keys=keys, hidden=shown.hidden)
        output = Output(writer, store)
    except BaseException:
        writer.abort()
        raise
    try:  # (forked once the loaded objects are frozen: a collection there copies none)
        if project.config.pyodide is not None:
            output.runtime = Runtime(tuple(sorted(project.locales)), store, helped=True,
                                     held=output.started)
    except BaseException:
        try:
            writer.abort()
        finally:
            output.release()
        raise
    return Opened(verified, site, output)


def render(opened: Opened) -> Rendered | Outcome:
    """The render stage: every locale (in worker processes:
    :func:`generator.render.parallel.render_locales`, each locale's search views
    planned and its index started as it ends), then the shared files; a template
    error ends the build, and (``strict``) a message shown in English."""
    site, output = opened.site, opened.output
    start = opened.verified.loaded.start
    last = _last_site(site.cache, start) if site.cache is not None else None
    results = render_locales(site, output.writer, scratch=output.scratch,
                             strict=start.strict, planned=output.indexer.add,
                             later=start.search_later, last=last)
    errors = [r.error for r in results if r.error]
    if errors:
        return _stopped(opened, EXIT_INPUT, sorted(set(errors)))
    common = render_common(site)
    output.writer.write(common)
    published = publish_files(site, output.writer, common.keys())
    outputs = tuple(r.output for r in results if r.output is not None)
    _workers_done(site.cache, outputs)
    coverage = {r.lang: r.output.coverage for r in results
                if r.output is not None and not r.behind}
    missing = [line for loc, c in coverage.items() if c.untranslated
               for line in strict_lines(loc, c)] if start.strict else []
    if missing:
        return _stopped(opened, EXIT_DISAGREE, missing, coverage)
    return Rendered(opened, outputs, common, published,
                    sum(r.files for r in results) + len(common) + len(published), coverage,
                    tuple(r.lang for r in results if r.behind))


def _last_site(store: FileStore, start: Start) -> dict[str, str] | None:
    """The files the last good build into this output folder, with these options,
    wrote (:data:`SITE_SLOT`), for a build that may leave locales behind (``serve``'s
    first build after a change: ``locales_later`` and ``search_later``, not ``strict``);
    else, or when there are none, ``None``."""
    if not (start.locales_later and start.search_later) or start.strict:
        return None
    data = store.load(SITE_SLOT, site_key(start.root, start.out, start.drafts,
                                          start.strict))
    if not isinstance(data, dict):
        return None
    return {str(rel): str(sha) for rel, sha in data.items()
            if isinstance(rel, str) and isinstance(sha, str)}


def _workers_done(store: FileStore | None, outputs: tuple[LocaleOutput, ...]) -> None:
    """Count what the render workers did as this build's: the entries they used and
    stored and their notes (with a store), and the inputs they read (a template read
    again there), for the runner's race bookkeeping."""
    if store is not None:
        store.notes.extend(n for o in outputs for n in o.notes if n not in store.notes)
        store.mark_used((e for o in outputs for e in o.entries),
                        (e for o in outputs for e in o.stored))
    for o in outputs:
        record_reads(o.reads)


def checker(rendered: Rendered) -> Rendered:
    """The checker stage: the card checker's files written into the new site's folder
    and counted with the shared files (:func:`generator.render.checker_files.checker_files`),
    unless ``site.yaml``'s ``pyodide`` is ``false``."""
    site = rendered.opened.site
    if site.config.pyodide is None:
        return rendered
    runtime = rendered.opened.output.runtime
    files = checker_files(Layout.of(site.root), site.locales, site.translators,
                          site.config.pyodide, site.cache,
                          runtime.zipped() if runtime is not None else None)
    rendered.opened.output.writer.write(files)
    return replace(rendered, common={**rendered.common, **files},
                   files=rendered.files + len(files))


def index(rendered: Rendered) -> Indexed:
    """The index stage: every locale's search index, once the indexer has them all
    (:meth:`generator.render.search.Indexer.finish`), each made now kept under its
    views' key. The files are in the new site's folder already: an index made now was
    written (and its files kept as blobs) as its Pagefind run ended; one the store kept
    (its views have the bytes an earlier index was made from, with the same Pagefind)
    was copied by the locale's render worker.

    Raises:
        generator.render.search.SearchIndexError: Pagefind is missing or failed.
    """
    site, output = rendered.opened.site, rendered.opened.output
    found, files = output.indexer.finish()  # written already
    made = {rel: found[rel] for rel in files}
    if site.cache is not None:
        for lang, plan in output.indexer.plans.items():
            if plan.kept is None:
                prefix = f"{search_output(lang)}/"
                site.cache.store(INDEX_SLOT.format(lang=lang), plan.key,
                                 {rel: sha for rel, sha in made.items()
                                  if rel.startswith(prefix)})
    output.release()
    return Indexed(rendered, found)


def write(indexed: Indexed) -> Outcome:
    """The write stage: swap the new site in; the report, and what the runner keeps
    (with a store: every file's digest, the files kept as blobs)."""
    rendered = indexed.rendered
    opened = rendered.opened
    writer, indexer, site = opened.output.writer, opened.output.indexer, opened.site
    writer.commit()
    project = opened.verified.loaded.project
    outputs = rendered.outputs
    lines = list(opened.verified.lines)
    coverage = rendered.coverage
    report = BuildReport(EXIT_OK, [*lines, *(f"warning: {text}" for text in writer.warnings)],
                         coverage, rendered.files + len(indexed.index),
                         len(project.results), cached=sum(o.cached for o in outputs),
                         search_behind=sorted(lang for lang, plan in indexer.plans.items()
                                              if plan.behind),
                         locales_behind=sorted(rendered.behind))
    if site.cache is None:
        return Outcome(report, Keep(), rendered=True)
    shared = {**{rel: hashlib.sha256(data).hexdigest()
                 for rel, data in rendered.common.items()}, **rendered.published}
    site.cache.adopt(shared, writer.out)  # the indexes made: kept as they were made
    files = {**{rel: sha for o in outputs for rel, sha in o.blobs.items()}, **shared,
             **indexed.index}
    views = {sha for plan in indexer.plans.values() for sha in plan.views.values()}
    start = opened.verified.loaded.start
    site.cache.store(SITE_SLOT, site_key(start.root, start.out, start.drafts, start.strict),
                     files)
    return Outcome(report, Keep(
        {"exit": EXIT_OK, "lines": lines, "files": files, "cases": report.cases,
         "coverage": {loc: [c.used, c.untranslated, [list(m) for m in c.missing]]
                      for loc, c in coverage.items()}},
        sorted(project.results.agreeing()), frozenset({*files.values(), *views}), files),
        rendered=True)


STAGES: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("load", load), ("verify", verify), ("open", open_output), ("render", render),
    ("checker", checker), ("index", index), ("write", write))
"""The build's stages by name, in order: each takes the value the one before gave."""


def run_stages(start: Start) -> Outcome:
    """Run :data:`STAGES` from ``start`` until one gives an :class:`Outcome`. Once the
    output is open, a failure removes the new site's folder (nothing of it is
    published) and a template's or the output's error becomes the build's input error
    (:func:`failed`); the output is released whatever happens.

    Raises:
        generator.output.SourceGone: a file the store gave changed or went away (the
            runner builds again without the store).
    """
    value: Any = start
    output: Output | None = None
    try:
        for _name, stage in STAGES:
            value = stage(value)
            if isinstance(value, Opened):
                output = value.output
            if isinstance(value, Outcome):
                return value
    except BaseException as exc:
        if output is None:
            raise
        return failed(exc, start, output, value)
    finally:
        if output is not None:
            output.release()
    raise AssertionError("the write stage gives the outcome")


def failed(exc: BaseException, start: Start, output: Output, value: Any) -> Outcome:
    """The outcome of a build whose stages failed once the output was open (``value``:
    the last stage's value): the new site's folder removed; a template's error, the
    output's or Pagefind's is the build's input error, after its lines.

    Raises:
        BaseException: ``exc`` again (a fault, an interrupt: after the swap, said as
            such: :meth:`generator.errors.Interrupted.after`), or
            :class:`generator.output.SourceGone` from a file the store gave.
    """
    output.writer.abort()
    lines = list(_verified(value).lines)
    if isinstance(exc, (OutputError, SearchIndexError)):
        if isinstance(exc, SourceGone) and start.store is not None:
            raise exc  # a copy in the store: the runner builds again without it
        return Outcome(BuildReport(EXIT_INPUT, [*lines, str(exc)]))
    where = template_error(exc, start.root) if isinstance(exc, Exception) else None
    if where is not None:
        return Outcome(BuildReport(EXIT_INPUT, [*lines, where]))
    if isinstance(exc, KeyboardInterrupt) and output.writer.swapped:
        raise Interrupted.after(exc, new_site=True) from None
    raise exc


def _verified(value: Any) -> Verified:
    """The verify stage's value inside a later stage's ``value``."""
    while not isinstance(value, Verified):
        value = value.rendered if isinstance(value, Indexed) else \
            value.opened if isinstance(value, Rendered) else value.verified
    return value


def _stopped(opened: Opened, code: int, more: list[str],
             coverage: dict[str, Coverage] | None = None) -> Outcome:
    """A build the render stage ends (a worker's template error, ``strict``'s messages
    in English): the new site's folder removed, ``more`` after the lines; only the race
    bookkeeping is kept."""
    opened.output.writer.abort()
    report = BuildReport(code, [*opened.verified.lines, *more], coverage or {},
                         cases=len(opened.verified.loaded.project.results))
    return Outcome(report, Keep(), rendered=True)
