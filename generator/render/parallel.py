"""Rendering every locale, spread over worker processes where it pays (docs/DESIGN.md,
"Rendering contract"): forked workers inherit the parsed pages, the catalogs and the one
Jinja environment, render a locale each and write its files."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys

from generator.output import SiteWriter
from generator.render.errors import template_error
from generator.render.site import LocaleOutput
from generator.render.site import SiteInput
from generator.render.site import render_locale

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


def _render_and_write(lang: str) -> tuple[str, LocaleOutput | None, int, str | None]:
    """Render one locale and write its files: (locale, coverage, files, template error)."""
    assert _JOB is not None
    site, writer = _JOB
    try:
        out = render_locale(site, lang)
    except Exception as exc:  # a worker's error travels back as text, with its position
        where = template_error(exc, site.root)
        if where is None:
            raise
        return lang, None, 0, where
    writer.write(out.files)
    writer.link(out.links)
    if site.cache is not None:
        site.cache.adopt({rel: out.blobs[rel] for rel in out.files}, writer.tmp)
        out.notes = list(site.cache.notes)
    files = len(out.files) + len(out.links)
    out.files, out.links = {}, {}  # written: what travels back to the parent is the rest
    return lang, out, files, None


def render_locales(
    site: SiteInput, writer: SiteWriter
) -> list[tuple[str, LocaleOutput | None, int, str | None]]:
    """Render and write every locale: in forked worker processes, one per core, where the
    system can fork and the site has :data:`PARALLEL_FROM` pages or more; in this
    process otherwise. The output is the same either way.

    Returns:
        Per locale, in ``site.locales`` order: (locale, its output, the files already
        written, or ``None`` after a template error; files written; the template
        error's line or ``None``).

    Raises:
        Exception: an error that is no template's (a fault of the generator).
    """
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
