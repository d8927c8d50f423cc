"""The ``build`` command: the build's stages (load, verify, open the output, render,
index, write: :mod:`generator.commands.stages`) run by the stage runner, which wraps
the build cache around them (:mod:`generator.commands.runner`; docs/site.md;
docs/DESIGN.md).

Every input error of a run is collected before anything is written; a build that
finds input errors (exit 2) or disagreements (exit 1) writes nothing. The site is
written to a fresh folder beside the output and swapped in at the end, so a killed
build leaves either the previous or the new site whole.
"""

from __future__ import annotations

from pathlib import Path

from generator.commands.output_folder import open_writer
from generator.commands.runner import SITE_SLOT
from generator.commands.runner import BuildReport as BuildReport
from generator.commands.runner import Outcome
from generator.commands.runner import Runner
from generator.commands.runner import cache_for
from generator.commands.runner import site_key
from generator.digests import generator_hash
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.i18n.coverage import Coverage
from generator.layout import OUTPUT
from generator.layout import Layout
from generator.layout import output_path
from generator.output import OutputError
from generator.output import SourceGone
from generator.output import holds_exactly
from generator.render.search import version as search_version


def build(root: Path, out: Path | None = None, *, strict: bool = False,
          cache: bool = True, search_later: bool = False, locales_later: bool = False,
          drafts: bool = False) -> BuildReport:
    """Check every case, then render and write the site (docs/site.md, ``build``).

    The whole build is looked up in the build cache first (its inputs unchanged: the
    same outcome, the same files, taken from the cache: :func:`_replay`); else the
    stages run (:data:`generator.commands.stages.STAGES`: load and verify the project,
    a build with input errors or disagreements, or with ``strict`` a warning, stopping
    there and writing nothing; open the output; render every locale, each page whose
    inputs did not change taken from the cache; every locale's search index; swap the
    new site in), and the runner keeps the outcome in the cache
    (:meth:`generator.commands.runner.Runner.keep`).

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
        locales_later: with ``search_later``, the pages of the source locale (the
            site's first) and of each locale whose catalog changed since the last build
            are rendered, and every other locale whose pages would be rendered keeps the
            files the last good build into this output folder wrote for it, pages and
            search index (``report.locales_behind``): the pages most often looked at
            are in place sooner; the build is not kept whole, the cache is not pruned,
            and the next build renders those locales (``serve`` builds so, then again).
            A locale the last build did not write (a page it lacks) is rendered.
        drafts: publish the draft pages and cases too, each marked (``build
            --drafts``, ``serve``); without, they are left out of the site, and a
            published page's link to one is an input error (docs/site.md, "Drafts").

    Returns:
        A :class:`BuildReport`; the site is replaced only when its exit code is 0. Its
        lines end with one ``note:`` per cache entry found damaged (ignored, rebuilt).
    """
    layout = Layout.of(root, out)
    with cache_for(root, layout, cache) as store:
        runner = Runner(store, layout, (generator_hash(), search_version(),
                                        str(layout.out), str(strict), str(drafts)))
        report = _replay(runner, root, out, site_key(root, out, drafts, strict))
        if report is None:
            outcome = runner.run(lambda r: _stages(r, root, out, strict=strict,
                                                   drafts=drafts,
                                                   search_later=search_later,
                                                   locales_later=locales_later))
            _keep(runner, outcome)
            report = outcome.report
    report.lines += [f"note: {line}" for line in sorted(store.notes)]
    return report


def _stages(runner: Runner, root: Path, out: Path | None, *, strict: bool, drafts: bool,
            search_later: bool, locales_later: bool) -> Outcome:
    """The build's stages, from what ``runner`` gives them (its store, the inputs'
    digests, the cases known to agree)."""
    # Imported here, not above: a build taken whole from the cache (_replay) needs none
    # of the loading or rendering, and importing them (Jinja, Babel, markdown-it, the
    # engine) is most of a no-change build's time (measured: python -X importtime).
    from generator.commands.stages import Start
    from generator.commands.stages import run_stages

    later = search_later and runner.store.enabled
    return run_stages(Start(root, out, strict, drafts, later, later and locales_later,
                            runner.items, runner.inputs if runner.items is not None else None,
                            runner.agreeing()))


def _keep(runner: Runner, outcome: Outcome) -> None:
    """Let the runner keep ``outcome``; an interrupt meanwhile, after the rendering,
    says whether the new site is in place."""
    try:
        runner.keep(outcome)
    except KeyboardInterrupt as exc:
        if not outcome.rendered:
            raise
        raise Interrupted.after(exc, new_site=outcome.report.exit_code == EXIT_OK) from None


def _replay(runner: Runner, root: Path, out: Path | None, site: str) -> BuildReport | None:
    """The build kept in the cache for inputs of digest ``whole``, done again from it:
    its report, and (for a build that succeeded) its files written from the cache's
    copies and swapped in like any build's, unless the site in place holds those bytes
    already (each file hashed and compared with the digest the entry names: the entry's
    HMAC vouches for the digests, so the copies need not be read). ``None`` when the
    cache has no such build, or a file of it is missing or damaged (then the build runs
    as if there were none). The files are kept as the last site's under ``site``
    (:data:`generator.commands.runner.SITE_SLOT`)."""
    store = runner.store
    kept = runner.kept()
    if kept is None:
        return None
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
        store.notes.append("the cache's last build is of another shape; ignored")
        return None
    target = output_path(out if out is not None else root / OUTPUT)
    if holds_exactly(target, names):  # the site in place is this build's: nothing to do
        store.store(SITE_SLOT, site, names)
        return BuildReport(EXIT_OK, lines, coverage, len(names), cases, cached=len(names),
                           files=names)
    files: dict[str, tuple[Path, str]] = {}
    for rel, sha in names.items():
        path = store.blob(sha)
        if path is None:
            return None
        files[rel] = (path, sha)  # checked again as it is copied (SiteWriter.link)
    writer = open_writer(root, out, store.spare_site)
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
    store.store(SITE_SLOT, site, names)
    warnings = [f"warning: {text}" for text in writer.warnings]
    return BuildReport(EXIT_OK, [*lines, *warnings], coverage, len(files), cases,
                       cached=len(files), files=names)
