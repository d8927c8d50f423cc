"""The ``build`` command, as named stages: load and verify (:func:`load_project`),
open the output, render every locale, render the shared files, swap the site in
(docs/site.md; docs/DESIGN.md).

Every input error of a run is collected before anything is written; a build that
finds input errors (exit 2) or disagreements (exit 1) writes nothing. The site is
written to a fresh folder beside the output and swapped in at the end, so a killed
build leaves either the previous or the new site whole.
"""

from __future__ import annotations

import gc
import hashlib
import shutil
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.cache import BuildCache
from generator.cache import cache_folder
from generator.cache import input_digests
from generator.digests import digest
from generator.digests import generator_hash
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.errors import signals_deferred
from generator.i18n.coverage import Coverage
from generator.layout import INPUT_PATHS
from generator.layout import OUTPUT
from generator.layout import THEME_LABEL
from generator.layout import Layout
from generator.layout import output_path
from generator.layout import real_path
from generator.layout import record_reads
from generator.layout import recorded_reads
from generator.layout import search_output
from generator.output import OutputError
from generator.output import SiteWriter
from generator.output import SourceGone
from generator.output import holds_exactly
from generator.output import overlap_error
from generator.render.search import version as search_version

if TYPE_CHECKING:
    from generator.render.search import Indexer
    from generator.render.site import SiteInput

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


def build(root: Path, out: Path | None = None, *, strict: bool = False,
          cache: bool = True, search_later: bool = False, drafts: bool = False
          ) -> BuildReport:
    """Check every case, then render and write the site (docs/site.md, ``build``).

    The stages, in order: look the whole build up in the build cache (its inputs
    unchanged: the same outcome, the same files, taken from the cache: :func:`_replay`);
    load and verify the project (:func:`load_project`; a build with input errors or
    disagreements, or with ``strict`` a warning, stops there and writes nothing); what it
    publishes (:class:`generator.content.drafts.Publication`); open the output folder
    (:func:`_open_output`); render and write every locale, each page whose inputs did not
    change taken from the cache (:func:`generator.render.parallel.render_locales`); the
    shared files (:func:`generator.render.site.render_common`); with ``strict``, stop on
    a message shown in English; every locale's search index, from its pages as written,
    taken from the cache where they are unchanged (:func:`_search_index`); swap the new
    site in; keep the outcome in the cache.

    Args:
        root: the project folder.
        out: the output folder (default ``<root>/site``).
        strict: also fail (exit 1) on any untranslated or fuzzy message, and on any
            warning (a case no page shows).
        cache: use and keep the build cache (:mod:`generator.cache`); ``False``
            (``--no-cache``) builds everything, and keeps nothing.
        search_later: with the cache, a locale whose pages need a new search index
            keeps the one the last build made (``report.search_behind``), so the pages
            are in place sooner; such a build is not kept whole, and the next build
            makes the index (``serve`` builds so, then again: docs/site.md, "serve").
            The first build of a locale makes its index all the same.
        drafts: publish the draft pages and cases too, each marked (``build
            --drafts``, ``serve``); without, they are left out of the site, and a
            published page's link to one is an input error (docs/site.md, "Drafts").

    Returns:
        A :class:`BuildReport`; the site is replaced only when its exit code is 0. Its
        lines end with one ``note:`` per cache entry found damaged (ignored, rebuilt).
    """
    layout = Layout.of(root, out)
    with BuildCache(cache_folder(root) if cache else None, layout.root) as store:
        inputs = input_digests(layout)
        whole = None
        if store.enabled and inputs is not None:
            whole = digest(generator_hash(), search_version(), str(layout.out), str(strict),
                           str(drafts), *(x for item in sorted(inputs.items()) for x in item))
            replayed = _replay(store, whole, root, out)
            if replayed is not None:
                return replayed
        with recorded_reads() as read:
            try:
                report = _build(root, out, strict, store, inputs, whole, search_later,
                                lambda: _changed_inputs(inputs, read), drafts)
            except SourceGone as exc:  # the cache's copies went away: none is trusted now
                store.notes.append(f"{store.folder or 'the build cache'}: a file taken from "
                                   "the build cache changed or went away while the build "
                                   f"ran ({exc}); built again without it")
                with BuildCache(None, layout.root) as bare:
                    report = _build(root, out, strict, bare, None, None, drafts=drafts)
    report.lines += [f"note: {line}" for line in sorted(store.notes)]
    return report


def _changed_inputs(inputs: dict[str, str] | None, read: dict[str, str]) -> list[str]:
    """The inputs saved while the build ran: read, here or in a render worker, with
    other bytes than those of the digests it keyed its cache with (``read``:
    :func:`generator.layout.recorded_reads`); sorted. A build with such an input keeps
    nothing it made in the cache (it may have made it of the new bytes under the old
    digest). A file saved after the build read it changes nothing the build made."""
    if inputs is None:
        return []
    return sorted(rel for rel, sha in read.items()
                  if not rel.startswith(f"{THEME_LABEL}/") and inputs.get(rel) != sha)


def _race_note(changed: list[str]) -> str:
    """The note of a build that an input's save overtook (:func:`_changed_inputs`)."""
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return (f"note: {', '.join(changed[:3])}{more} changed while the build ran: what it "
            "built of them is not kept in the cache; build again to show them")


def _build(root: Path, out: Path | None, strict: bool, store: BuildCache,
           inputs: dict[str, str] | None, whole: str | None,
           search_later: bool = False,
           changed: Callable[[], list[str]] = list, drafts: bool = False) -> BuildReport:
    """The stages after the cache of whole builds missed (see :func:`build`);
    ``changed`` gives the inputs saved while it ran (:func:`_changed_inputs`), asked
    before anything the build made is kept."""
    # Imported here, not above: a build taken whole from the cache (_replay) needs none
    # of the loading or rendering, and importing them (Jinja, Babel, markdown-it, the
    # engine) is most of a no-change build's time (measured: python -X importtime).
    from generator.commands.check import disagreement_lines
    from generator.commands.check import warning_lines
    from generator.commands.project import format_errors
    from generator.commands.project import load_project
    from generator.content.drafts import Publication
    from generator.render.errors import template_error
    from generator.render.incremental import RenderKeys
    from generator.render.search import SearchIndexError
    from generator.render.site import SiteInput

    problem = _output_problem(root, out)
    if problem is not None:  # before the loading, which would name every input
        return BuildReport(EXIT_INPUT, [problem])
    cached = store.enabled  # (a write that fails later turns the store off, not this)
    known = store.load("cases", "agreeing") if inputs is not None else None
    agreeing = frozenset(str(d) for d in known) if isinstance(known, list) else frozenset()
    project = load_project(root, out=out, agreeing=agreeing,
                           cache=store if store.enabled else None, drafts=drafts)
    lines = (format_errors(project.errors) + disagreement_lines(project)
             + warning_lines(project))
    code = project.exit_code
    if code == EXIT_OK and strict and project.warnings:
        code = EXIT_DISAGREE
    if code != EXIT_OK:
        overtaken = changed() if store.enabled else []
        if overtaken:
            store.forget_stored()
            lines = [*lines, _race_note(overtaken)]
        elif whole is not None:
            store.store("build", whole, {"exit": code, "lines": lines})
        return BuildReport(code, lines)
    writer = _open_output(root, out, store.spare_site)
    if isinstance(writer, str):
        return BuildReport(EXIT_INPUT, [*lines, writer])
    try:  # from here on the fresh folder is removed whatever happens (writer.abort)
        shown = Publication.of(project.pages, project.cases.cases, drafts=drafts)
        keys = None
        if inputs is not None and store.enabled:
            keys = RenderKeys.of(inputs, shown.pages, project.cases.cases,
                                 project.locales, project.config.site_url, shown.hidden)
        site = SiteInput(Layout.of(root, out), shown.pages, project.locales,
                         project.translators, project.results, project.config,
                         cache=store if keys is not None else None, keys=keys,
                         hidden=shown.hidden)
        with _loaded_frozen():
            report, files, views = _render_and_write(site, writer, lines, strict,
                                                     search_later)
    except (OutputError, SearchIndexError) as exc:
        writer.abort()
        if isinstance(exc, SourceGone) and cached:
            raise  # a copy in the cache: build() builds again without it
        return BuildReport(EXIT_INPUT, [*lines, str(exc)])
    except BaseException as exc:
        writer.abort()
        where = template_error(exc, root) if isinstance(exc, Exception) else None
        if where is not None:
            return BuildReport(EXIT_INPUT, [*lines, where])
        if isinstance(exc, KeyboardInterrupt) and writer.swapped:
            raise Interrupted.after(exc, new_site=True) from None
        raise
    report.cases = len(project.results)
    try:  # the new site is in place: an interrupt now says so
        overtaken = changed() if store.enabled else []
        if overtaken:
            store.forget_stored()
            report.lines.append(_race_note(overtaken))
        elif files is not None and store.enabled:
            report.files = files
            if whole is not None and not report.search_behind:  # (else not this build's)
                store.store("build", whole, {
                    "exit": report.exit_code, "lines": lines, "files": files,
                    "cases": report.cases,
                    "coverage": {loc: [c.used, c.untranslated, [list(m) for m in c.missing]]
                                 for loc, c in report.coverage.items()}})
            store.store("cases", "agreeing", sorted(project.results.agreeing()))
            store.prune({*files.values(), *views})
    except KeyboardInterrupt as exc:
        raise Interrupted.after(exc, new_site=report.exit_code == EXIT_OK) from None
    return report


@contextmanager
def _loaded_frozen() -> Iterator[None]:
    """Leave the objects made so far (the loaded project: its pages, cases, catalogs and
    results) out of Python's cyclic garbage collection while the block runs
    (``gc.freeze``): they live to the build's end, and the collector went through them
    again and again while the pages were rendered (a third of the decoding of a
    changed locale's cached pages at 700 pages), in this process and in every forked
    render worker, where its scan also copied the memory it touched (Python's docs
    advise freezing before a fork). Unfrozen after, for ``serve``'s next build."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _replay(store: BuildCache, whole: str, root: Path, out: Path | None
            ) -> BuildReport | None:
    """The build kept in the cache for inputs of digest ``whole``, done again from it:
    its report, and (for a build that succeeded) its files written from the cache's
    copies and swapped in like any build's, unless the site in place holds those bytes
    already (each file hashed and compared with the digest the entry names: the entry's
    HMAC vouches for the digests, so the copies need not be read). ``None`` when the
    cache has no such build, or a file of it is missing or damaged (then the build runs
    as if there were none)."""
    kept = store.load("build", whole)
    try:
        code, lines = int(kept["exit"]), [str(line) for line in kept["lines"]]
        if code != EXIT_OK:
            return BuildReport(code, lines)
        names = {str(rel): str(sha) for rel, sha in kept["files"].items()}
        coverage = {str(loc): Coverage(int(used), int(untranslated),
                                       tuple((str(m), int(n), str(w)) for m, n, w in missing))
                    for loc, (used, untranslated, missing) in kept["coverage"].items()}
        cases = int(kept["cases"])
    except (TypeError, KeyError, ValueError, AttributeError):
        if kept is not None:
            store.notes.append("the cache's last build is of another shape; ignored")
        return None
    target = output_path(out if out is not None else root / OUTPUT)
    if holds_exactly(target, names):  # the site in place is this build's: nothing to do
        return BuildReport(EXIT_OK, lines, coverage, len(names), cases, cached=len(names),
                           files=names)
    files: dict[str, tuple[Path, str]] = {}
    for rel, sha in names.items():
        path = store.blob(sha)
        if path is None:
            return None
        files[rel] = (path, sha)  # checked again as it is copied (SiteWriter.link)
    writer = _open_output(root, out, store.spare_site)
    if isinstance(writer, str):
        return BuildReport(EXIT_INPUT, [*lines, writer])
    try:
        writer.link(files)
        writer.commit()
    except SourceGone:  # a copy changed or went away after its check: built as if none were kept
        writer.abort()
        return None
    except OutputError as exc:
        writer.abort()
        return BuildReport(EXIT_INPUT, [*lines, str(exc)])
    except BaseException as exc:
        writer.abort()
        if isinstance(exc, KeyboardInterrupt) and writer.swapped:
            raise Interrupted.after(exc, new_site=True) from None
        raise
    warnings = [f"warning: {text}" for text in writer.warnings]
    return BuildReport(EXIT_OK, [*lines, *warnings], coverage, len(files), cases,
                       cached=len(files), files=names)


def _output_problem(root: Path, out: Path | None) -> str | None:
    """Why the output folder may not be written, from the paths alone: it holds the
    project, or overlaps one of its input folders (:func:`generator.output.overlap_error`);
    ``None`` when it may be."""
    target = output_path(out if out is not None else root / OUTPUT)
    here = real_path(root)
    if target == here or target in here.parents:
        return (f"{target}: the output folder holds the project; expected a folder of its "
                "own, such as site/ (see --out)")
    return overlap_error(target, tuple(here / f for f in INPUT_PATHS))


def _open_output(root: Path, out: Path | None, spare: Path | None = None
                 ) -> SiteWriter | str:
    """The output folder's writer, or the input error that refuses it: the folder holds
    the project (:func:`_output_problem`), or is one the generator did not create
    (:class:`SiteWriter`)."""
    problem = _output_problem(root, out)
    if problem is not None:
        return problem
    target = output_path(out if out is not None else root / OUTPUT)
    try:
        return SiteWriter(target, forbidden=tuple(real_path(root) / f
                                                  for f in INPUT_PATHS), spare=spare)
    except OutputError as exc:
        return str(exc)


def _render_and_write(site: SiteInput, writer: SiteWriter, lines: list[str],
                      strict: bool, search_later: bool = False
                      ) -> tuple[BuildReport, dict[str, str] | None, set[str]]:
    """Render every locale and the shared files into ``writer``'s new folder, with every
    locale's search index, then swap it in, unless a template fails or (``strict``) a
    message is shown in English. Each locale's index is made (Pagefind, by an
    :class:`~generator.render.search.Indexer`) from the views its worker wrote into a
    scratch folder, while the other locales render; with ``search_later``, the last
    build's index is taken instead where there is one (``BuildReport.search_behind``).

    Returns:
        The report; with a cache, the name of each file's copy in it (by site-relative
        path), and the other copies this build used (the search views), ``None``
        without one.
    """
    # Imported here: see _build (and Pagefind's module brings asyncio).
    from generator.render.parallel import render_locales
    from generator.render.search import Indexer
    from generator.render.search import scratch_folder
    from generator.render.site import publish_files
    from generator.render.site import render_common
    from generator.render.site import strict_lines

    def index_made(files: dict[str, bytes]) -> None:
        """An index just made: into the new site and the cache now, while the other
        locales are indexed (not after the last one)."""
        writer.write(files)
        if site.cache is not None:
            for data in files.values():
                site.cache.store_blob(data)

    indexer = Indexer(made=index_made)
    scratch = scratch_folder()
    try:
        results = render_locales(site, writer, scratch=scratch, strict=strict,
                                 planned=indexer.add, later=search_later)
        errors = [r.error for r in results if r.error]
        if errors:
            writer.abort()
            return BuildReport(EXIT_INPUT, [*lines, *sorted(set(errors))]), None, set()
        common = render_common(site)
        writer.write(common)
        published = publish_files(site, writer, common.keys())
        outputs = [r.output for r in results if r.output is not None]
        coverage = {r.lang: r.output.coverage for r in results if r.output is not None}
        if site.cache is not None:
            site.cache.notes.extend(n for o in outputs for n in o.notes
                                    if n not in site.cache.notes)
            assert isinstance(site.cache, BuildCache)
            site.cache.mark_used((e for o in outputs for e in o.entries),
                                 (e for o in outputs for e in o.stored))
        for o in outputs:
            record_reads(o.reads)  # the workers' (a template read again there)
        if strict and any(c.untranslated for c in coverage.values()):
            writer.abort()
            missing = [line for loc, c in coverage.items() if c.untranslated
                       for line in strict_lines(loc, c)]
            return BuildReport(EXIT_DISAGREE, [*lines, *missing], coverage), None, set()
        index = _search_index(site, indexer)
    finally:
        with signals_deferred():  # a second Ctrl-C: once the scratch folder is gone
            indexer.close()
            shutil.rmtree(scratch, ignore_errors=True)
    writer.commit()
    files = sum(r.files for r in results) + len(common) + len(published) + len(index)
    warnings = [f"warning: {text}" for text in writer.warnings]
    report = BuildReport(EXIT_OK, [*lines, *warnings], coverage, files,
                         cached=sum(o.cached for o in outputs),
                         search_behind=sorted(lang for lang, plan in indexer.plans.items()
                                              if plan.behind))
    if site.cache is None:
        return report, None, set()
    shared = {**{rel: hashlib.sha256(data).hexdigest() for rel, data in common.items()},
              **published}
    site.cache.adopt(shared, writer.out)  # the indexes made: kept as they were made
    views = {sha for plan in indexer.plans.values() for sha in plan.views.values()}
    return report, {**{rel: sha for o in outputs for rel, sha in o.blobs.items()}, **shared,
                    **index}, views


def _search_index(site: SiteInput, indexer: Indexer) -> dict[str, str]:
    """Every locale's search index, once ``indexer`` has them all
    (:meth:`generator.render.search.Indexer.finish`), and the indexes made now kept in
    the cache under their views' key. The files are in the new site's folder already:
    an index made now was written (and its files kept as blobs) as its Pagefind run
    ended (``index_made`` in :func:`_render_and_write`); one the cache kept (its views
    have the bytes an earlier index was made from, with the same Pagefind: a change
    outside what is indexed, such as another page's title in the navigation, makes no
    new index) was copied by the locale's render worker.

    Returns:
        Every index file → its SHA-256 hex digest.

    Raises:
        generator.render.search.SearchIndexError: Pagefind is missing or failed.
    """
    from generator.render.search import INDEX_SLOT

    index, files = indexer.finish()  # written already
    made = {rel: index[rel] for rel in files}
    store = site.cache
    if store is not None:
        for lang, plan in indexer.plans.items():
            if plan.kept is None:
                prefix = f"{search_output(lang)}/"
                store.store(INDEX_SLOT.format(lang=lang), plan.key,
                            {rel: sha for rel, sha in made.items() if rel.startswith(prefix)})
    return index
