"""Rendering every locale, spread over worker processes where it pays (docs/DESIGN.md,
"Rendering contract"): forked workers inherit the parsed pages, the catalogs and the one
Jinja environment, render a locale each and write its files."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from generator.layout import page_output
from generator.output import SiteWriter
from generator.render.errors import template_error
from generator.render.search import LocalePlan
from generator.render.search import plan_locale
from generator.render.site import LocaleOutput
from generator.render.site import SiteInput
from generator.render.site import render_locale

PARALLEL_FROM = 100
"""Pages (all locales) from which rendering is spread over worker processes."""



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


class _Job(NamedTuple):
    site: SiteInput
    writer: SiteWriter
    scratch: Path | None
    strict: bool


_JOB: _Job | None = None
"""The job forked workers inherit (set only while a pool runs)."""


def _quiet_worker() -> None:
    """A worker's own errors travel back to the parent; what a worker would print when the
    parent is interrupted (a broken pipe) is noise, never a traceback for the user."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers so
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker


def _render_and_write(lang: str) -> LocaleDone:
    """Render one locale, write its files and plan its search index."""
    assert _JOB is not None
    site, writer, scratch, strict = _JOB
    try:
        out = render_locale(site, lang)
    except Exception as exc:  # a worker's error travels back as text, with its position
        where = template_error(exc, site.root)
        if where is None:
            raise
        return LocaleDone(lang, None, 0, where)
    writer.write(out.files)
    writer.link(out.links)
    plan = None
    if scratch is not None and not (strict and out.coverage.untranslated):
        # (a strict build with a message in English fails: no index for it)
        pages: dict[str, bytes | Path] = {}
        for page in site.pages:
            rel = page_output(lang, page.slug)
            pages[rel] = out.files[rel] if rel in out.files else out.links[rel]
        plan = plan_locale(lang, pages, scratch, site.cache)
    if site.cache is not None:
        site.cache.adopt({rel: out.blobs[rel] for rel in out.files}, writer.tmp)
        out.notes, out.entries = list(site.cache.notes), site.cache.used
    files = len(out.files) + len(out.links)
    out.files, out.links = {}, {}  # written: what travels back to the parent is the rest
    return LocaleDone(lang, out, files, None, plan)


def render_locales(site: SiteInput, writer: SiteWriter, *, scratch: Path | None = None,
                   strict: bool = False,
                   planned: Callable[[LocalePlan], None] | None = None) -> list[LocaleDone]:
    """Render and write every locale, and plan each one's search index: in forked worker
    processes, one per core, where the system can fork and the site has
    :data:`PARALLEL_FROM` pages or more; in this process otherwise. The output is the
    same either way.

    Args:
        site: what to render.
        writer: the output's writer; the files go into its fresh folder.
        scratch: a folder for the search views (:func:`plan_locale`); ``None``: no index.
        strict: the build fails on a message shown in English: a locale with one gets no
            plan.
        planned: called in this process with each locale's plan as soon as the locale
            is done (in the order the locales finish), so that its index is made while
            the others render (:class:`generator.render.search.Indexer`).

    Returns:
        Per locale, in ``site.locales`` order: what it gave (:class:`LocaleDone`).

    Raises:
        Exception: an error that is no template's (a fault of the generator), or what
            ``planned`` raises.
    """
    global _JOB
    site.prepare()
    workers = min(len(site.locales), os.cpu_count() or 1)
    if len(site.pages) * len(site.locales) < PARALLEL_FROM:
        workers = 1  # starting processes costs more than it saves
    _JOB = _Job(site, writer, scratch, strict)
    done: dict[str, LocaleDone] = {}

    def take(result: LocaleDone) -> None:
        done[result.lang] = result
        if result.search is not None and planned is not None:
            planned(result.search)

    try:
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers,
                                                          initializer=_quiet_worker) as pool:
                for result in pool.imap_unordered(_render_and_write, site.locales):
                    take(result)
        else:
            for lang in site.locales:
                take(_render_and_write(lang))
    finally:
        _JOB = None
    return [done[lang] for lang in site.locales]
