"""The stages every command shares: load the project and verify its cases (as mkdocs'
``commands/build.py`` reads its stages). ``check`` reports what they find, ``build``
renders and writes the site when they find nothing wrong.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from pathlib import PurePosixPath

from generator.cases.loader import clean_files
from generator.cases.loader import load_cases
from generator.cases.model import Case
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
from generator.errors import shown
from generator.i18n.catalog import Translator
from generator.i18n.catalog import load_translators
from generator.i18n.catalog import site_locales
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import generated_files
from generator.layout import real_path
from generator.layout import search_output
from generator.memo import Store
from generator.memo import carried_stage
from generator.render.environment import parsed_template
from generator.render.template_checks import template_errors
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
        results: the engine's result for every case the run verifies (every case, or
            those a :class:`Selection` names), by case id (each verified when first
            needed: :class:`generator.verify.Results`).
        errors: every input error (cases, pages, catalogs).
        config: the settings (``site.yaml``).
        warnings: what is probably not meant (a case no page shows: docs/site.md,
            "Warnings"), by file and line, when every page loaded; it changes no exit
            status but under ``--strict`` (exit 1).
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


@dataclass(frozen=True)
class Selection:
    """The cases a run verifies (``check PATH...``, ``check --id ID...``): those of the
    case files ``paths`` name, a folder naming every case file below it, and those
    ``ids`` name. Pages, catalogs, templates, ``site.yaml`` and every case file are
    still loaded and validated: a page shows cases of any file.

    Attributes:
        paths: the paths as given (relative to ``cwd``, or absolute).
        ids: case ids.
        cwd: the folder relative paths start from (the current folder).
    """

    paths: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    cwd: Path = Path(".")

    def __bool__(self) -> bool:
        return bool(self.paths or self.ids)

    @classmethod
    def of(cls, paths: Sequence[str], ids: Sequence[str]) -> Selection | None:
        """The selection of ``check PATH...`` or ``check --id ID...`` (paths relative to
        the current folder), or ``None`` (every case) when neither is given."""
        if not paths and not ids:
            return None
        return cls(tuple(paths), tuple(ids), Path(os.getcwd()))


def select_cases(selection: Selection, layout: Layout, cases: CaseSet
                 ) -> tuple[list[Case], list[InputError]]:
    """The cases of ``cases`` that ``selection`` names, in case-file order, and an
    input error for each path that is no case file of the project (nor a folder holding
    one) and each id that no case has, with a did-you-mean.

    A path's folders are resolved (links followed) but not its last part, so a case
    file that is a symbolic link is named by its own name, as the project lists it.
    The errors are at the path relative to the project where it lies inside it (the
    path as given where not), line 1; an id's at ``--id:1``.
    """
    files: set[str] = set()
    errors: list[InputError] = []
    for given in selection.paths:
        chosen, error = _files_named(given, selection.cwd, layout, cases)
        files.update(chosen)
        if error is not None:
            errors.append(error)
    ids = set(selection.ids)
    known = {case.id for case in cases.cases}
    for case_id in dict.fromkeys(selection.ids):
        if case_id not in known:
            hidden = " (or its case has an input error)" if cases.errors else ""
            errors.append(InputError("--id", 1, None, f"no case has the id {case_id!r}"
                                     f"{hidden}{did_you_mean(case_id, known)}; expected "
                                     f"{one_of(case_id, known, noun='case ids', suggest=False)}"))
    chosen_cases = [case for case in cases.cases
                    if case.position.file in files or case.id in ids]
    return chosen_cases, errors


def _files_named(given: str, cwd: Path, layout: Layout, cases: CaseSet
                 ) -> tuple[list[str], InputError | None]:
    """The case files ``given`` names (a case file, or a folder: the case files below
    it), relative to the project, or the error saying why it names none."""
    full = Path(os.path.join(cwd, given))
    folder = full.is_dir()
    real = real_path(full) if folder else real_path(full.parent) / full.name
    inside = real == layout.root or real.is_relative_to(layout.root)
    rel = (real.relative_to(layout.root).as_posix() if real != layout.root else "") \
        if inside else None
    where = shown(given if rel is None else rel or EXAMPLES)
    expected = f"expected a case file of the project (a .yaml file under {EXAMPLES}/)"
    if rel is None:
        return [], InputError(where, 1, None, f"outside the project ({shown(str(layout.root))}"
                              f"); {expected}")
    if folder:
        below = [f for f in cases.files if not rel or f.startswith(f"{rel}/")]
        if below:
            return below, None
        return [], InputError(where, 1, None, f"a folder that holds no case file; "
                              f"{expected}, or a folder holding some")
    if rel in cases.files:
        return [rel], None
    name = PurePosixPath(rel).name  # a file name close to the one given, in any folder
    close = [f for f in cases.files if did_you_mean(name, [PurePosixPath(f).name])]
    hint = did_you_mean(rel, close, cutoff=0.0) if close else ""
    what = "no case file of the project" if os.path.lexists(full) else "no such file"
    return [], InputError(where, 1, None, f"{what}{hint}; {expected}")


def load_project(root: Path, *, out: Path | None = None,
                 agreeing: frozenset[str] = frozenset(),
                 cache: Store | None = None, drafts: bool = False,
                 selection: Selection | None = None) -> Project:
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
            page may link to a draft (else an input error; docs/site.md, "Drafts"); else
            a project whose every page is a draft gets a warning (its site has no page).
        selection: the cases to verify (default: every case); a path or id it names
            that the project does not have is an input error
            (:func:`select_cases`).

    Returns:
        The :class:`Project`; its ``errors`` hold every input error found.
    """
    with collector_paused():
        return _load_project(root, out, agreeing, cache, drafts, selection)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the block runs, as it was after.

    A load makes hundreds of thousands of objects that all live on (each case, its
    fields and their positions), and almost no cycles: the collector, started again
    and again by the count of new objects, goes through the ones made so far each time
    and finds nothing to free (a second of the 700-page benchmark's 4.6-second load).

    What the block made is then moved to the oldest generation, unread (``gc.freeze``
    and ``gc.unfreeze``: two list splices): the next young collection would otherwise
    go through all of it once (0.13 s after a load of 700 pages) to move it there. The
    few cycles a load leaves (a thousand objects at 100 pages; the project itself is
    freed by its reference counts) wait for the next full collection.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()


def _load_project(root: Path, out: Path | None, agreeing: frozenset[str],
                  cache: Store | None, drafts: bool,
                  selection: Selection | None) -> Project:
    """:func:`load_project` with the collector paused."""
    layout = Layout.of(root, out)
    read: list[_Rest] = []
    cases = _load_case_files(layout, cache,
                             first=lambda: read.append(_Rest.load(layout, cache)))
    (rest,) = read
    errors: list[InputError] = list(cases.errors)
    chosen: Iterable[Case] = cases.cases
    if selection:
        chosen, selection_errors = select_cases(selection, layout, cases)
        errors.extend(selection_errors)
    results = Results(chosen, agreeing)
    config, locales, translators, pages = rest.config, rest.locales, rest.translators, rest.pages
    errors.extend(rest.errors)
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
    warnings = [] if rest.page_errors else _warnings(pages, cases, drafts)
    return Project(root, cases, pages, locales, translators, results, errors, config,
                   warnings)


@dataclass(frozen=True)
class _Rest:
    """What a load reads besides the case files, read while a forked helper parses them
    (:func:`load_cases`' ``first``): ``site.yaml``, the catalogs, the pages, and their
    errors in that order (``page_errors``: some are the pages')."""

    config: Config
    locales: list[str]
    translators: dict[str, Translator]
    pages: list[SourcePage]
    errors: tuple[InputError, ...]
    page_errors: bool

    @classmethod
    def load(cls, layout: Layout, cache: Store | None) -> _Rest:
        """Read them (the pages and catalogs from ``cache`` where it has them)."""
        config, config_errors = load_config(layout)
        locales = site_locales(layout, config.languages)
        translators, catalog_errors = load_translators(layout, locales, cache=cache,
                                                       parse=parsed_template)
        pages, page_errors = load_pages(layout, cache=cache)
        return cls(config, locales, translators, pages,
                   (*config_errors, *catalog_errors, *page_errors), bool(page_errors))


def _load_case_files(layout: Layout, cache: Store | None,
                     first: Callable[[], object] | None = None) -> CaseSet:
    """The project's case files, loaded (``first`` called before they are parsed, as
    :func:`load_cases` says); those the build cache knows valid are not validated
    again, and the cache learns the ones found valid now."""
    return carried_stage(
        cache, VALID_SLOT, "sha256",
        lambda known: load_cases(layout, valid=known or frozenset(), first=first),
        encode=clean_files,
        decode=lambda data: frozenset(str(d) for d in data) if isinstance(data, list)
        else None)


def _warnings(pages: list[SourcePage], cases: CaseSet, drafts: bool) -> list[InputWarning]:
    """The warnings of a project whose pages all loaded (a page that did not load shows
    no case, so none says its cases are shown nowhere): every page a draft (without
    ``drafts``), then each case no page shows."""
    warnings = sorted(unshown_cases(pages, cases), key=InputWarning.sort_key)
    if pages and not drafts and all(page.draft for page in pages):
        warnings.insert(0, InputWarning(CONTENT, 1, "every page is a draft; the site has "
                                        "no page but its home pages (build --drafts "
                                        "shows the drafts)"))
    return warnings


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
