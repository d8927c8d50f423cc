"""The ``build`` command, as named stages: load and verify (:func:`load_project`),
render every locale, render the shared files, write (SITE.md; DESIGN.md).

Every input error of a run is collected before anything is written; a build that
finds input errors (exit 2) or disagreements (exit 1) writes nothing. The site is
written to a fresh folder beside the output and swapped in at the end, so a killed
build leaves either the previous or the new site whole.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import traceback
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from jinja2 import TemplateError

from generator.commands.check import disagreement_lines
from generator.commands.project import EXIT_DISAGREE
from generator.commands.project import EXIT_INPUT
from generator.commands.project import EXIT_OK
from generator.commands.project import format_errors
from generator.commands.project import load_project
from generator.errors import Interrupted
from generator.layout import INPUT_FOLDERS
from generator.layout import OUTPUT
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import catalog
from generator.layout import output_path
from generator.layout import real_path
from generator.output import OutputError
from generator.output import SiteWriter
from generator.render.site import Coverage
from generator.render.site import SiteInput
from generator.render.site import render_common
from generator.render.site import render_locale


@dataclass
class BuildReport:
    """What a build did: exit code, lines for standard output, coverage per locale."""

    exit_code: int
    lines: list[str]
    coverage: dict[str, Coverage] = field(default_factory=dict)
    pages: int = 0
    cases: int = 0


def _template_error(exc: Exception, root: Path) -> str | None:
    """An error met while rendering, as ``FILE:LINE: what; expected`` (FILE a template's
    label: ``templates/NAME`` in the project, ``generator/theme/NAME`` in the theme): the
    position Jinja gives, or else the innermost frame of the traceback that is a
    template's (Jinja rewrites tracebacks so that a template's frames carry its file and
    line). A Python error (a division by zero, a recursion too deep) raised in a template
    is the template's error too.

    Returns:
        The line; ``None`` for an error that is not Jinja's and has no template frame
        (a fault of the generator, not of the templates).
    """
    layout = Layout.of(root)
    lineno = getattr(exc, "lineno", None)
    name = getattr(exc, "filename", None)
    shown = layout.label_of(name) if name else None
    if not name:
        frames = [(label, f.lineno) for f in traceback.extract_tb(exc.__traceback__)
                  if (label := layout.label_of(f.filename)) is not None]
        if frames:
            shown, lineno = frames[-1]
        elif not isinstance(exc, TemplateError):
            return None
    if shown is None:  # a template's name (Jinja's, or none): where the site reads it
        shown = (layout.template_label(str(name)) if name else None) or TEMPLATES
    what = str(exc) if isinstance(exc, TemplateError) else f"{type(exc).__name__}: {exc}"
    return f"{shown}:{lineno or 1}: template error: {what}; expected a template that renders"


PARALLEL_FROM = 100
"""Pages (all locales) from which rendering is spread over worker processes."""

_JOB: tuple[SiteInput, SiteWriter] | None = None
"""The job forked workers inherit (set only while a pool runs)."""


def _quiet_worker() -> None:
    """A worker's own errors travel back to the parent; what a worker would print when the
    parent is interrupted (a broken pipe) is noise, never a traceback for the user."""
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
    project = load_project(root, out=out)
    lines = format_errors(project.errors)
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
