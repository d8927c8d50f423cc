"""The ``build`` command, as named stages: load and verify (:func:`load_project`),
open the output, render every locale, render the shared files, swap the site in
(docs/site.md; docs/DESIGN.md).

Every input error of a run is collected before anything is written; a build that
finds input errors (exit 2) or disagreements (exit 1) writes nothing. The site is
written to a fresh folder beside the output and swapped in at the end, so a killed
build leaves either the previous or the new site whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from generator.commands.check import disagreement_lines
from generator.commands.project import EXIT_DISAGREE
from generator.commands.project import EXIT_INPUT
from generator.commands.project import EXIT_OK
from generator.commands.project import format_errors
from generator.commands.project import load_project
from generator.errors import Interrupted
from generator.layout import INPUT_FOLDERS
from generator.layout import OUTPUT
from generator.layout import output_path
from generator.layout import page_output
from generator.layout import real_path
from generator.output import OutputError
from generator.output import SiteWriter
from generator.render.errors import template_error
from generator.render.parallel import render_locales
from generator.render.search import SearchIndexError
from generator.render.search import search_index
from generator.render.site import Coverage
from generator.render.site import SiteInput
from generator.render.site import render_common
from generator.render.site import strict_lines


@dataclass
class BuildReport:
    """What a build did: exit code, lines for standard output, coverage per locale."""

    exit_code: int
    lines: list[str]
    coverage: dict[str, Coverage] = field(default_factory=dict)
    pages: int = 0
    cases: int = 0


def build(root: Path, out: Path | None = None, *, strict: bool = False) -> BuildReport:
    """Check every case, then render and write the site (docs/site.md, ``build``).

    The stages, in order: load and verify the project (:func:`load_project`; a build
    with input errors or disagreements stops there and writes nothing); open the output
    folder (:func:`_open_output`); render and write every locale
    (:func:`generator.render.parallel.render_locales`); the shared files
    (:func:`generator.render.site.render_common`); with ``strict``, stop on a message
    shown in English; every locale's search index, from the pages written
    (:func:`generator.render.search.search_index`); swap the new site in.

    Args:
        root: the project folder.
        out: the output folder (default ``<root>/site``).
        strict: also fail (exit 1) on any untranslated or fuzzy message.

    Returns:
        A :class:`BuildReport`; the site is replaced only when its exit code is 0.
    """
    project = load_project(root, out=out)
    lines = format_errors(project.errors) + disagreement_lines(project)
    if project.exit_code != EXIT_OK:
        return BuildReport(project.exit_code, lines)
    writer = _open_output(root, out)
    if isinstance(writer, str):
        return BuildReport(EXIT_INPUT, [*lines, writer])
    site = SiteInput(project.root, project.pages, project.locales, project.translators,
                     project.results, project.config.site_url)
    try:
        report = _render_and_write(site, writer, lines, strict)
    except (OutputError, SearchIndexError) as exc:
        writer.abort()
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
    return report


def _open_output(root: Path, out: Path | None) -> SiteWriter | str:
    """The output folder's writer, or the input error that refuses it: the folder holds
    the project, or is one the generator did not create (:class:`SiteWriter`)."""
    target = output_path(out if out is not None else root / OUTPUT)
    here = real_path(root)
    if target == here or target in here.parents:
        return (f"{target}: the output folder holds the project; expected a folder of its "
                "own, such as site/ (see --out)")
    try:
        return SiteWriter(target, forbidden=tuple(here / f for f in INPUT_FOLDERS))
    except OutputError as exc:
        return str(exc)


def _render_and_write(site: SiteInput, writer: SiteWriter, lines: list[str],
                      strict: bool) -> BuildReport:
    """Render every locale and the shared files into ``writer``'s new folder, then swap
    it in, unless a template fails or (``strict``) a message is shown in English."""
    results = render_locales(site, writer)
    errors = [error for *_, error in results if error]
    if errors:
        writer.abort()
        return BuildReport(EXIT_INPUT, [*lines, *sorted(set(errors))])
    common = render_common(site)
    writer.write(common)
    coverage = {lang: cov for lang, cov, _, _ in results if cov is not None}
    if strict and any(c.untranslated for c in coverage.values()):
        writer.abort()
        missing = [line for loc, c in coverage.items() if c.untranslated
                   for line in strict_lines(loc, c)]
        return BuildReport(EXIT_DISAGREE, [*lines, *missing], coverage)
    index = search_index({rel: writer.read(rel) for rel in (
        page_output(lang, page.slug) for lang in site.locales for page in site.pages)})
    writer.write(index)
    writer.commit()
    files = sum(n for _, _, n, _ in results) + len(common) + len(index)
    warnings = [f"warning: {text}" for text in writer.warnings]
    return BuildReport(EXIT_OK, [*lines, *warnings], coverage, files)
