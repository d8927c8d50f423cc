"""The pipeline: load → verify → render → write (SITE.md; DESIGN.md).

Every input error of a run is collected before anything is written; a build that
finds input errors (exit 2) or disagreements (exit 1) writes nothing. The site is
written to a fresh folder beside the output and swapped in at the end, so a killed
build leaves either the previous or the new site whole.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from jinja2 import TemplateError

from generator.cases.loader import load_cases
from generator.cases.model import CaseSet
from generator.config import Config
from generator.config import load_config
from generator.errors import InputError
from generator.errors import Interrupted
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.i18n.catalog import discover_locales
from generator.i18n.catalog import load_translators
from generator.layout import CONTENT
from generator.layout import INPUT_FOLDERS
from generator.layout import OUTPUT
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import catalog
from generator.layout import generated_files
from generator.layout import output_path
from generator.layout import real_path
from generator.output import OutputError
from generator.output import SiteWriter
from generator.render.markdown import SourcePage
from generator.render.markdown import load_pages
from generator.render.site import Coverage
from generator.render.site import SiteInput
from generator.render.site import render_common
from generator.render.site import render_locale
from generator.render.site import template_errors
from generator.verify import CaseResult
from generator.verify import Disagreement
from generator.verify import verify_all

EXIT_OK = 0
EXIT_DISAGREE = 1
EXIT_INPUT = 2


@dataclass
class Project:
    """Everything loaded and verified, before rendering.

    Attributes:
        root: the project folder.
        cases: the case files' cases and input errors.
        pages: the content pages, parsed once, in navigation order.
        locales: the locale codes, the source (en) first.
        translators: each locale's messages.
        results: the engine's result for every case, by case id.
        errors: every input error (cases, pages, catalogs).
    """

    root: Path
    cases: CaseSet
    pages: list[SourcePage]
    locales: list[str]
    translators: dict[str, Translator]
    results: dict[str, CaseResult]
    errors: list[InputError] = field(default_factory=list)
    config: Config = field(default_factory=Config)

    @property
    def disagreements(self) -> list[Disagreement]:
        """Every disagreement, in case-file order."""
        return [d for r in self.results.values() for d in r.disagreements]

    @property
    def exit_code(self) -> int:
        """2 with any input error, else 1 with any disagreement, else 0."""
        if self.errors:
            return EXIT_INPUT
        return EXIT_DISAGREE if self.disagreements else EXIT_OK


def load_project(root: Path, *, out: Path | None = None) -> Project:
    """The load and verify stages, shared by ``check`` and ``build`` (SITE.md: any input
    error ``build`` would report, ``check`` reports too): cases, catalogs, pages with
    their links and case tables, templates (their syntax, without rendering) and
    ``site.yaml``, then every case through the engine.

    Args:
        root: the project folder (holding ``content/``, ``locales/``, ``templates/``).
        out: the output folder (default ``<root>/site``): never read as an input.

    Returns:
        The :class:`Project`; its ``errors`` hold every input error found.
    """
    layout = Layout.of(root, out)
    cases = load_cases(layout)
    errors: list[InputError] = list(cases.errors)
    results = {r.case.id: r for r in verify_all(cases.cases)}
    locales = [SOURCE_LOCALE, *(x for x in discover_locales(layout) if x != SOURCE_LOCALE)]
    translators, catalog_errors = load_translators(layout, locales)
    errors.extend(catalog_errors)
    pages, page_errors = load_pages(layout)
    errors.extend(page_errors)
    errors.extend(_check_pages(pages, cases, _template_ids(layout)))
    errors.extend(template_errors(layout))
    config, config_errors = load_config(layout)
    errors.extend(config_errors)
    errors.extend(layout.publish_errors(generated_files(
        locales, (p.slug for p in pages), sitemap=config.site_url is not None)))
    pages.sort(key=lambda p: (p.order, p.slug))
    if not pages and not errors:
        errors.append(InputError(CONTENT, 1, None, "no pages; expected Markdown "
                                 "files content/<slug>.md"))
    return Project(root, cases, pages, locales, translators, results, errors, config)


def _template_ids(layout: Layout) -> set[str]:
    """Element ids the page templates set themselves (e.g. ``content``, the skip link's
    target): a heading or case may not take them."""
    import re

    found: set[str] = set()
    for name in ("base.html", "page.html"):
        rel = f"{TEMPLATES}/{name}"
        if layout.problem(rel) is None:  # what is not an input is reported elsewhere
            found |= set(re.findall(r'\bid="([A-Za-z][\w-]*)"', layout.read_text(rel)))
    return found


def _check_pages(pages: list[SourcePage], cases: CaseSet,
                 reserved: AbstractSet[str] = frozenset()) -> list[InputError]:
    """Fences name existing cases of one kind; ids on a page do not collide with each
    other or with the template's (``reserved``); every link to this site names an
    existing page and anchor."""
    errors: list[InputError] = []
    ids: dict[str, set[str]] = {}
    for page in pages:
        page_errors, ids[page.slug] = _check_page(page, cases, reserved)
        errors.extend(page_errors)
    for page in pages:
        suggested = 0  # a few errors of a page say "did you mean": bounded work and output
        for target, line in page.links:
            if "://" in target or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            slug = page.slug
            if path:
                parts = path.split("/")
                if len(parts) != 3 or parts[0] != ".." or parts[2] not in ("", "index.html"):
                    errors.append(InputError(page.rel, line, None, f"link {target!r} is not a "
                                             "page of this site; expected ../<slug>/ or "
                                             "#anchor"))
                    continue
                slug = parts[1]
                if slug not in ids:
                    suggested += 1
                    errors.append(InputError(page.rel, line, None, f"link {target!r} names no "
                                             "page; expected " + one_of(
                                                 path, [f"../{s}/" for s in ids],
                                                 noun="pages",
                                                 suggest=suggested <= MAX_SUGGESTED)))
                    continue
            if anchor and anchor not in ids[slug]:
                suggested += 1
                errors.append(InputError(page.rel, line, None, f"link {target!r}: no heading "
                                         f"or case {anchor!r} on page {slug}; expected "
                                         + one_of(anchor, ids[slug], noun="ids",
                                                  suggest=suggested <= MAX_SUGGESTED)))
    return errors


MAX_SUGGESTED = 20
"""The most link errors of one page that suggest close names (each suggestion compares
the name with every name of the page)."""


def _check_page(page: SourcePage, cases: CaseSet, reserved: AbstractSet[str]
                ) -> tuple[list[InputError], set[str]]:
    """One page's fences and ids; returns (errors, the ids on the page)."""
    errors: list[InputError] = []
    seen: dict[str, str] = {a: "a heading" for a in page.anchors}
    for anchor in page.anchors:
        if anchor in reserved:
            errors.append(InputError(page.rel, 1, None, f"a heading's id {anchor!r} is the "
                                     "page template's own; expected another heading text"))
    seen.update({r: "the page template" for r in reserved})
    by_id = cases.by_id
    for fence in page.fences:
        if fence.info == "cases":
            kinds = set()
            if not fence.case_ids:
                errors.append(InputError(page.rel, fence.line, None, "empty cases table; "
                                         "expected case ids, one per line"))
            for case_id, line in fence.case_lines:
                case = by_id.get(case_id)
                if case is None:
                    if not cases.errors:
                        errors.append(InputError(page.rel, line, None,
                                                 f"unknown case id {case_id!r}; expected "
                                                 "an id from content/examples/"
                                                 + did_you_mean(case_id, by_id)))
                    continue
                kinds.add(case.kind)
                if case_id in seen:
                    errors.append(InputError(page.rel, line, None,
                                             f"id {case_id!r} twice on the page (also "
                                             f"{seen[case_id]}); expected each id once"))
                seen[case_id] = "a case"
            if len(kinds) > 1:
                errors.append(InputError(page.rel, fence.line, None,
                                         "cases of different kinds in one table ("
                                         + ", ".join(sorted(kinds)) + "); expected one kind"))
        elif fence.info == "deck-table":
            game = fence.body.strip().removeprefix("game:").strip()
            if game not in ("rami40", "rami51", "cardverse"):
                errors.append(InputError(page.rel, fence.line, None,
                                         f"deck-table for {game!r}; expected 'game: rami40', "
                                         "'game: rami51' or 'game: cardverse'"))
    return errors, {i for i, what in seen.items() if what != "the page template"}


def _format_errors(errors: Iterable[InputError]) -> list[str]:
    return [e.format() for e in sorted(errors, key=lambda e: (e.file, e.line, e.column or 0))]


@dataclass
class BuildReport:
    """What a build did: exit code, lines for standard output, coverage per locale."""

    exit_code: int
    lines: list[str]
    coverage: dict[str, Coverage] = field(default_factory=dict)
    pages: int = 0
    cases: int = 0


def _template_error(exc: Exception, root: Path) -> str | None:
    """An error met while rendering, as ``FILE:LINE: what; expected`` (FILE relative to
    the project): the position Jinja gives, or else the innermost frame of the traceback
    that is a template's (Jinja rewrites tracebacks so that a template's frames carry its
    file and line). A Python error (a division by zero, a recursion too deep) raised in a
    template is the template's error too.

    Returns:
        The line; ``None`` for an error that is not Jinja's and has no template frame
        (a fault of the generator, not of the templates).
    """
    import traceback

    templates = (root / TEMPLATES).resolve()
    lineno = getattr(exc, "lineno", None)
    name = getattr(exc, "filename", None)
    if not name:
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if Path(f.filename).resolve().is_relative_to(templates)]
        if frames:
            name, lineno = frames[-1].filename, frames[-1].lineno
        elif not isinstance(exc, TemplateError):
            return None
    name = name or TEMPLATES
    try:
        shown = Path(name).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        shown = str(name) if str(name).startswith(TEMPLATES) else f"{TEMPLATES}/{name}"
    what = str(exc) if isinstance(exc, TemplateError) else f"{type(exc).__name__}: {exc}"
    return f"{shown}:{lineno or 1}: template error: {what}; expected a template that renders"


PARALLEL_FROM = 100
"""Pages (all locales) from which rendering is spread over worker processes."""

_JOB: tuple[SiteInput, SiteWriter] | None = None
"""The job forked workers inherit (set only while a pool runs)."""


def _quiet_worker() -> None:
    """A worker's own errors travel back to the parent; what a worker would print when the
    parent is interrupted (a broken pipe) is noise, never a traceback for the user."""
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers so
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker


def _render_and_write(lang: str) -> tuple[str, Coverage | None, int, str | None]:
    """Render one locale and write its files: (locale, coverage, files, template error)."""
    assert _JOB is not None
    site, writer = _JOB
    try:
        files, coverage = render_locale(site, lang)
    except Exception as exc:  # a worker's error travels back as text, with its position
        where = _template_error(exc, site.root)
        if where is None:
            raise
        return lang, None, 0, where
    writer.write(files)
    return lang, coverage, len(files), None


def _render_locales(
    site: SiteInput, writer: SiteWriter
) -> list[tuple[str, Coverage | None, int, str | None]]:
    """Render and write every locale: in forked worker processes, one per core, where the
    system can fork; in this process otherwise. The output is the same either way."""
    global _JOB
    site.prepare()
    workers = min(len(site.locales), os.cpu_count() or 1)
    if len(site.pages) * len(site.locales) < PARALLEL_FROM:
        workers = 1  # starting processes costs more than it saves
    _JOB = (site, writer)
    try:
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers,
                                                          initializer=_quiet_worker) as pool:
                return list(pool.map(_render_and_write, site.locales, chunksize=1))
        return [_render_and_write(lang) for lang in site.locales]
    finally:
        _JOB = None


def _strict_lines(locale: str, coverage: Coverage) -> list[str]:
    """One line per message shown in English, at the line of the ``.po`` to fix (a fuzzy
    message's msgid, an empty msgstr, a plural message's empty ``msgstr[N]``), or at
    line 1 when the catalog lacks it (run ``i18n update``)."""
    rel = catalog(locale)
    lines = [f"{rel}:{line or 1}: {what} of {msgid[:60]!r} (--strict); expected it "
             "translated" for msgid, line, what in coverage.missing[:20]]
    if len(coverage.missing) > 20:
        lines.append(f"{rel}:1: and {len(coverage.missing) - 20} more untranslated or "
                     "fuzzy messages (--strict)")
    return lines


def build(root: Path, out: Path | None = None, *, strict: bool = False) -> BuildReport:
    """Check every case, then render and write the site (SITE.md, ``build``).

    Args:
        root: the project folder.
        out: the output folder (default ``<root>/site``).
        strict: also fail (exit 1) on any untranslated or fuzzy message.

    Returns:
        A :class:`BuildReport`; the site is replaced only when its exit code is 0.
    """
    from generator.report import disagreement_lines

    project = load_project(root, out=out)
    lines = _format_errors(project.errors)
    lines += disagreement_lines(project)
    if project.exit_code != EXIT_OK:
        return BuildReport(project.exit_code, lines)
    site = SiteInput(project.root, project.pages, project.locales, project.translators,
                     project.results, project.config.site_url)
    target = output_path(out if out is not None else root / OUTPUT)
    here = real_path(root)
    if target == here or target in here.parents:
        return BuildReport(EXIT_INPUT, [*lines, f"{target}: the output folder holds the "
                                        "project; expected a folder of its own, such as "
                                        "site/ (see --out)"])
    try:
        writer = SiteWriter(target, forbidden=tuple(here / f for f in INPUT_FOLDERS))
    except OutputError as exc:
        return BuildReport(EXIT_INPUT, [*lines, str(exc)])
    try:
        results = _render_locales(site, writer)
        errors = [error for *_, error in results if error]
        if errors:
            writer.abort()
            return BuildReport(EXIT_INPUT, [*lines, *sorted(set(errors))])
        common = render_common(site)
        writer.write(common)
        coverage = {lang: cov for lang, cov, _, _ in results if cov is not None}
        if strict and any(c.untranslated for c in coverage.values()):
            writer.abort()
            for loc, c in coverage.items():
                if c.untranslated:
                    lines += _strict_lines(loc, c)
            return BuildReport(EXIT_DISAGREE, lines, coverage)
        writer.commit()
        files = sum(n for _, _, n, _ in results) + len(common)
        lines += [f"warning: {text}" for text in writer.warnings]
        return BuildReport(EXIT_OK, lines, coverage, files, len(project.results))
    except OutputError as exc:
        writer.abort()
        return BuildReport(EXIT_INPUT, [*lines, str(exc)])
    except BaseException as exc:
        writer.abort()
        where = _template_error(exc, root) if isinstance(exc, Exception) else None
        if where is not None:
            return BuildReport(EXIT_INPUT, [*lines, where])
        if isinstance(exc, KeyboardInterrupt) and writer.swapped:
            raise Interrupted.after(exc, new_site=True) from None
        raise
