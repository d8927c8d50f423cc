"""The stages every command shares: load the project and verify its cases (as mkdocs'
``commands/build.py`` reads its stages). ``check`` reports what they find, ``build``
renders and writes the site when they find nothing wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from generator.cache import BuildCache
from generator.cases.loader import clean_files
from generator.cases.loader import load_cases
from generator.cases.model import CaseSet
from generator.config import Config
from generator.config import load_config
from generator.content.checks import check_pages
from generator.content.checks import template_ids
from generator.content.checks import unshown_cases
from generator.content.pages import SourcePage
from generator.content.pages import load_pages
from generator.engine.codes import CaseStatus
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import InputWarning
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.i18n.catalog import Translator
from generator.i18n.catalog import load_translators
from generator.i18n.catalog import site_locales
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import Layout
from generator.layout import generated_files
from generator.layout import search_output
from generator.render.site import template_errors
from generator.verify import Disagreement
from generator.verify import Results


@dataclass
class Project:
    """Everything loaded and verified, before rendering.

    Attributes:
        root: the project folder.
        cases: the case files' cases and input errors.
        pages: the content pages, parsed once, in navigation order.
        locales: the locale codes, the source (en) first.
        translators: each locale's messages.
        results: the engine's result for every case, by case id (each verified when
            first needed: :class:`generator.verify.Results`).
        errors: every input error (cases, pages, catalogs).
        config: the settings (``site.yaml``).
        warnings: what is probably not meant (a case no page shows: docs/site.md,
            "Warnings"), by file and line, when every page loaded; only ``--strict``
            fails on them.
    """

    root: Path
    cases: CaseSet
    pages: list[SourcePage]
    locales: list[str]
    translators: dict[str, Translator]
    results: Results
    errors: list[InputError] = field(default_factory=list)
    config: Config = field(default_factory=Config)
    warnings: list[InputWarning] = field(default_factory=list)

    @property
    def disagreements(self) -> list[Disagreement]:
        """Every disagreement that fails the check, in case-file order: those of the
        cases without a ``status``, and a stale ``known_disagreement``'s
        (:attr:`generator.verify.CaseResult.failing`)."""
        return [d for r in self.results.verified() for d in r.failing]

    @property
    def reported(self) -> list[Disagreement]:
        """Every disagreement a report lists, in case-file order: the failing ones and
        those a ``status`` keeps from failing (:attr:`generator.verify.CaseResult.reported`)."""
        return [d for r in self.results.verified() for d in r.reported]

    def status_counts(self) -> dict[str, int]:
        """How many cases have each ``status`` (every status, 0 included)."""
        counts = dict.fromkeys(CaseStatus, 0)
        for case in self.results.cases():
            if case.status is not None:
                counts[CaseStatus(case.status)] += 1
        return {str(status): n for status, n in counts.items()}

    @property
    def exit_code(self) -> int:
        """2 with any input error, else 1 with any failing disagreement, else 0."""
        if self.errors:
            return EXIT_INPUT
        return EXIT_DISAGREE if self.disagreements else EXIT_OK


VALID_SLOT = "case-files"
"""The build cache's entry of the case files known to load without an error (their
SHA-256 digests: :func:`generator.cases.loader.clean_files`)."""


def load_project(root: Path, *, out: Path | None = None,
                 agreeing: frozenset[str] = frozenset(),
                 cache: BuildCache | None = None, drafts: bool = False) -> Project:
    """The load and verify stages, shared by ``check`` and ``build`` (docs/site.md: any input
    error ``build`` would report, ``check`` reports too): cases, catalogs, pages with
    their links and case tables, templates (their syntax, without rendering) and
    ``site.yaml``, then every case through the engine.

    Args:
        root: the project folder (holding ``content/``, ``locales/``, ``templates/``).
        out: the output folder (default ``<root>/site``): never read as an input.
        agreeing: digests of cases the build cache knows to agree with the engine
            (:class:`generator.verify.Results`): verified only when a page shows them.
        cache: the build cache, for the parsed pages and the compiled catalogs
            (:func:`generator.content.pages.load_pages`,
            :func:`generator.i18n.catalog.load_translators`): an input unchanged since
            a build that found no error in it is taken from there, not read again; and
            for the case files known valid (:func:`generator.cases.loader.load_cases`).
        drafts: the build shows drafts (``build --drafts``, ``serve``): a published
            page may link to a draft (else an input error; docs/site.md, "Drafts").

    Returns:
        The :class:`Project`; its ``errors`` hold every input error found.
    """
    layout = Layout.of(root, out)
    known = cache.load(VALID_SLOT, "sha256") if cache is not None else None
    cases = load_cases(layout, valid=frozenset(str(d) for d in known)
                       if isinstance(known, list) else frozenset())
    clean = clean_files(cases)
    if cache is not None and clean != known:
        cache.store(VALID_SLOT, "sha256", clean)
    errors: list[InputError] = list(cases.errors)
    results = Results(cases.cases, agreeing)
    config, config_errors = load_config(layout)
    errors.extend(config_errors)
    locales = site_locales(layout, config.languages)
    translators, catalog_errors = load_translators(layout, locales, cache=cache)
    errors.extend(catalog_errors)
    pages, page_errors = load_pages(layout, cache=cache)
    errors.extend(page_errors)
    errors.extend(check_pages(pages, cases, template_ids(layout), drafts=drafts))
    errors.extend(template_errors(layout))
    errors.extend(layout.publish_errors(generated_files(
        locales, (p.slug for p in pages), sitemap=config.site_url is not None),
        owned={search_output(lang) for lang in locales}))
    errors.extend(nav_errors(config, pages))
    pages.sort(key=nav_order(config))
    if not pages and not errors:
        errors.append(InputError(CONTENT, 1, None, "no pages; expected Markdown "
                                 "files content/<slug>.md"))
    # (a page that did not load shows no case: no warning says its cases are shown nowhere)
    warnings = [] if page_errors else sorted(unshown_cases(pages, cases),
                                             key=InputWarning.sort_key)
    return Project(root, cases, pages, locales, translators, results, errors, config,
                   warnings)


def nav_errors(config: Config, pages: Sequence[SourcePage]) -> list[InputError]:
    """A page that ``site.yaml``'s ``nav`` names but the project does not have, at its
    place in ``site.yaml``, with a did-you-mean."""
    slugs = [p.slug for p in pages]
    return [InputError(CONFIG, e.mark.line, e.mark.column, f"nav names the page {e.slug!r}, "
                       f"which content/ does not have{did_you_mean(e.slug, slugs)}; expected "
                       f"{one_of(e.slug, slugs, noun='pages')}")
            for e in config.nav if e.slug not in slugs]


def nav_order(config: Config) -> Callable[[SourcePage], tuple[int, int, str]]:
    """The sort key of the navigation's order: the pages ``nav`` names, in its order,
    then the others by their ``order`` front matter and slug."""
    named = {e.slug: i for i, e in enumerate(config.nav)}

    def key(page: SourcePage) -> tuple[int, int, str]:
        index = named.get(page.slug)
        return (0, index, "") if index is not None else (1, page.order, page.slug)

    return key


def format_errors(errors: Iterable[InputError]) -> list[str]:
    """The errors as ``FILE:LINE:COL: what; expected`` lines, by file, line and column."""
    return [e.format() for e in sorted(errors, key=InputError.sort_key)]
