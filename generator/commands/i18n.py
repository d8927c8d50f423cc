"""The ``i18n`` command, the translators' workflow: extract ``messages.pot``, update and
create ``.po`` files, show how complete each catalog is.

Messages come from the content pages (one per Markdown block, as Sphinx does), the case
titles and notes, the engine's code words and card names, the templates (Jinja's Babel
extractor, ``silent = false``) and the view code (Babel's Python extractor).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.catalog import Message
from babel.messages.extract import extract as babel_extract
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from babel.messages.pofile import write_po

from generator.cases.loader import load_cases
from generator.commands.project import format_errors
from generator.config import DEFAULT_DESCRIPTION
from generator.config import DEFAULT_TITLE
from generator.config import load_config
from generator.content.extractors import extract_cases
from generator.content.extractors import extract_markdown
from generator.content.pages import load_pages
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.i18n import words
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import locale_error
from generator.i18n.merge import merge
from generator.i18n.merge import with_previous_lines
from generator.i18n.pofile import MAX_CATALOG_BYTES
from generator.i18n.pofile import check_catalog_syntax
from generator.i18n.pofile import read_catalog_file
from generator.i18n.pofile import read_for_update
from generator.i18n.pofile import restore_previous_lines
from generator.i18n.stats import format_stats
from generator.i18n.stats import stats
from generator.i18n.templates import TEMPLATE_EXTRACTOR
from generator.i18n.templates import TEMPLATE_OPTIONS
from generator.layout import BUILTIN_LABEL
from generator.layout import BUILTIN_LOCALES
from generator.layout import BUILTIN_POT
from generator.layout import BUILTIN_POT_LABEL
from generator.layout import CONFIG
from generator.layout import EXAMPLES
from generator.layout import LOCALES
from generator.layout import POT
from generator.layout import TEMPLATES
from generator.layout import FileChanged
from generator.layout import FileState
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import catalog as catalog_path
from generator.layout import read_regular
from generator.layout import rewrite_file
from generator.layout import theme_templates
from generator.layout import write_failure
from generator.render.template_checks import template_errors

FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Dates written into catalog headers: fixed, so that the same input gives the same bytes."""

BUILTIN_PROJECT = "rules-site-generator"
"""The project the built-in catalogs' headers name."""

VIEW_CODE = ("kinds", "render")
"""The package folders whose Python code has messages (the rows' and tables' words)."""

_PY_KEYWORDS = {"text": None, "ngettext": (1, 2), "plural": (1, 2), "gettext": None, "_": None,
                "label": None}


def _add(catalog: Catalog, msgid: str | tuple[str, ...], where: tuple[str, int] | None,
         context: str | None = None) -> None:
    """Add ``msgid`` (of ``context``) at ``where`` to ``catalog``, flagged by its
    placeholders; a message already there gets one more location."""
    text = msgid[0] if isinstance(msgid, tuple) else msgid
    flags = []
    if "%(" in text:
        flags.append("python-format")
    elif "{" in text:
        flags.append("python-brace-format")
    existing = catalog.get(msgid if isinstance(msgid, str) else msgid[0], context)
    if existing is not None and where is not None:
        existing.locations.append(where)
        return
    catalog.add(msgid, locations=[where] if where else [], flags=flags, context=context)


def _catalog(project: str) -> Catalog:
    """An empty template catalog whose header names ``project``, dated
    :data:`FIXED_DATE`."""
    return Catalog(project=project, version="1", creation_date=FIXED_DATE,
                   revision_date=FIXED_DATE, fuzzy=False, charset="utf-8")


def _extract_files(layout: Layout, sources: Iterable[tuple[str, Any, dict[str, str]]],
                   errors: list[InputError]
                   ) -> list[tuple[str, int, str | tuple[str, ...], str | None]]:
    """The messages of each ``(label, extraction method, options)`` source, each file
    read through the layout (a project's file: only a regular file inside it); a file
    that cannot be read or parsed adds an error."""
    found: list[tuple[str, int, str | tuple[str, ...], str | None]] = []
    for rel, method, options in sources:
        try:
            fileobj = io.BytesIO(layout.read(rel))  # only input files, never a FIFO
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        fileobj.name = rel
        try:
            found += [(rel, lineno, message, context) for lineno, message, _comments, context
                      in babel_extract(method, fileobj, options=options)]
        except Exception as exc:  # Jinja's TemplateSyntaxError and friends
            errors.append(InputError(rel, getattr(exc, "lineno", 1) or 1, None,
                                     f"template cannot be read: {exc}; expected a template "
                                     "Jinja can parse"))
    return found


def extract_builtin() -> tuple[Catalog, list[InputError]]:
    """The generator's own messages, which its built-in catalogs translate
    (``generator/locales/messages.pot``): the theme's templates (Jinja's extractor,
    ``silent = false``), the view code (Babel's Python extractor), the settings'
    default texts, and the engine's code words and card names.

    Returns:
        (the catalog, the errors met: a theme template Jinja cannot parse).
    """
    catalog = _catalog(BUILTIN_PROJECT)
    layout = Layout.of(BUILTIN_LOCALES.parent)  # (a theme file is read from the package
    # through any layout)
    errors: list[InputError] = []
    found = _extract_files(layout, ((rel, TEMPLATE_EXTRACTOR, TEMPLATE_OPTIONS)
                                    for rel in theme_templates()), errors)
    for filename, lineno, message, context in sorted(found, key=lambda x: (x[0], x[1])):
        _add(catalog, message, (filename, lineno), context)
    package = BUILTIN_LOCALES.parent
    for folder in VIEW_CODE:
        for filename, _lineno, message, _comments, context in extract_from_dir(
            package / folder, method_map=[("**.py", "python")], keywords=_PY_KEYWORDS,
        ):
            # the file alone (Babel writes no line 0): a line number would change with
            # every edit of the code, and every catalog with it (a translator finds the
            # message by its text)
            _add(catalog, message, (f"generator/{folder}/{filename}", 0), context)
    for default in (DEFAULT_TITLE, DEFAULT_DESCRIPTION):
        _add(catalog, default, ("generator/config.py", 0))
    for context, msgid in words.all_code_messages():
        _add(catalog, msgid, None, context)
    return catalog, errors


def builtin_catalog_template() -> Catalog:
    """The built-in template catalog as the package ships it
    (``generator/locales/messages.pot``); empty when the package has none."""
    try:
        data = read_regular(BUILTIN_POT, BUILTIN_POT_LABEL, limit=MAX_CATALOG_BYTES,
                            what="catalog", advice="")
    except NotAnInput:
        return Catalog()
    return read_po(io.BytesIO(data))


def builtin_keys() -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of every message of the built-in template catalog."""
    return frozenset((m.context, _msgid(m)) for m in builtin_catalog_template() if m.id)


def _msgid(message: Message) -> str:
    """A message's msgid; the singular of a plural message."""
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


def _obsolete_key(message: Message) -> Any:
    """The key Babel files ``message`` under in a catalog's ``obsolete``: its msgid, or
    (msgid, context) with a context."""
    key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
    return (key, message.context) if message.context is not None else key


def extract(project: Path | Layout) -> tuple[Catalog, list[InputError]]:
    """Collect the site's own messages into its template catalog: its pages (one message
    per Markdown block), its case files' titles, notes and reasons (``rules_markdown``,
    ``rules_cases``), the texts of ``site.yaml`` (title, description, the footer's) and
    the messages of its own templates (``templates/``, Jinja's extractor, ``silent =
    false``) that the built-in catalogs do not hold. The theme's and the engine's
    messages are the built-in catalogs' (:func:`extract_builtin`). The project's files
    are the pages, case files and templates its layout lists, each read through it
    (only regular files inside the project).

    Returns:
        (the catalog, the input errors met on the way; with errors, do not write it).
    """
    layout = Layout.of(project)
    config, errors = load_config(layout)
    catalog = _catalog(config.title_msgid)
    pages, page_errors = load_pages(layout)
    errors.extend(page_errors)
    cases = load_cases(layout)
    errors.extend(cases.errors)
    broken_templates = template_errors(layout)
    errors.extend(broken_templates)  # reported once, as build and check report them
    own_templates = [] if broken_templates else layout.template_files([])
    found = _extract_files(layout, [
        *((page.rel, extract_markdown, {}) for page in pages),
        *((rel, extract_cases, {}) for rel in cases.files),
        *((rel, TEMPLATE_EXTRACTOR, TEMPLATE_OPTIONS) for rel in own_templates)], errors)
    found += [(CONFIG, text.line, text.msgid, None) for text in config.messages()]
    builtin = builtin_keys()  # a template's or a setting's message the package translates
    found = [f for f in found if not f[0].startswith((f"{TEMPLATES}/", CONFIG))
             or (f[3], f[2][0] if isinstance(f[2], tuple) else f[2]) not in builtin]
    found.sort(key=lambda x: (x[0] == CONFIG, x[0].startswith(f"{EXAMPLES}/"),
                              x[0].startswith(f"{TEMPLATES}/"), x[0], x[1]))
    for filename, lineno, message, context in found:
        _add(catalog, message, (filename, lineno), context)
    return catalog, errors


def catalog_bytes(catalog: Catalog) -> bytes:
    """A catalog as the bytes of a ``.po``/``.pot`` file, in message order, no wrapping
    churn; a translator's ``#~|`` lines (previous msgids of obsolete messages, read
    through :func:`generator.i18n.pofile.read_for_update`) written back as they were."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, sort_output=False, include_lineno=True)
    return with_previous_lines(restore_previous_lines(buffer.getvalue()), catalog)


def write_catalog(catalog: Catalog, state: FileState) -> None:
    """Write a catalog as a ``.po``/``.pot`` file (:func:`catalog_bytes`) over the file
    ``state`` read (or found missing), with :func:`generator.layout.rewrite_file`:
    atomically, in the file's own form (its line ends, its permissions), and only while
    the file is as it was read.

    Raises:
        FileChanged: the file changed since it was read; it is unchanged.
        OSError: the file could not be written; the previous one is unchanged.
    """
    rewrite_file(state, catalog_bytes(catalog))


def catalog_state(layout: Layout, rel: str) -> FileState:
    """The catalog ``rel`` as read before it is rewritten: its bytes and state, or the
    state of no file where there is none yet.

    Raises:
        NotAnInput: it is not an input file, is larger than :data:`MAX_CATALOG_BYTES` or
            cannot be read.
    """
    path = layout.path(rel)
    if not layout.exists(rel):
        return FileState.after_read(path, None)
    return FileState.after_read(path, read_catalog_file(path, rel, layout))


def update(project: Path | Layout, template: Catalog, locales: list[str],
           written: list[str] | None = None,
           overrides: AbstractSet[tuple[str | None, str]] = frozenset(), *,
           read: Mapping[str, FileState] | None = None,
           changed: list[str] | None = None) -> dict[str, int]:
    """Merge ``template`` into each locale's ``.po`` as GNU ``msgmerge --previous``
    does (:func:`generator.i18n.merge.merge`): an obsolete entry whose English is back
    revived, a changed English given the old translation marked fuzzy with its old
    msgid (``#| msgid``), a new message added empty, a removed one made obsolete
    (``#~``); every line of the old catalog kept that Babel's merge keeps (``#~|`` lines
    included). Each catalog is replaced atomically (:func:`write_catalog`), and only
    while it is as it was read: a translator's save meanwhile is kept.

    Args:
        project: the project folder or its layout.
        template: the template catalog (:func:`extract`).
        locales: the locales to update (a missing catalog is created).
        written: receives the path (relative to the project) of each catalog written.
        overrides: the keys of messages a translation in the catalog may override
            though the template does not hold them (the built-in catalogs' messages): a
            translated entry of such a message stays, not obsolete.
        read: the catalogs as read already (:func:`catalog_state`), by path relative
            to the project; a catalog not in it is read here.
        changed: receives the path of each catalog not written because it changed
            since it was read (the others are written); without it,
            :class:`~generator.layout.FileChanged` is raised.

    Returns:
        The number of fuzzy messages per locale after the merge (of the catalogs
        written).

    Raises:
        NotAnInput: a catalog is not an input file or Babel cannot read it (check with
            :func:`generator.i18n.pofile.check_catalog_syntax` first).
        FileChanged: a catalog changed since it was read, and ``changed`` is ``None``.
        OSError: a catalog could not be written; it and those after it are unchanged.
    """
    layout = Layout.of(project)
    result: dict[str, int] = {}
    for locale in locales:
        rel = catalog_path(locale)
        state = (read or {}).get(rel) or catalog_state(layout, rel)
        catalog = _merged(_catalog_to_update(state, rel, locale), template, overrides)
        try:
            write_catalog(catalog, state)
        except FileChanged:
            if changed is None:
                raise
            changed.append(rel)
            continue
        if written is not None:
            written.append(rel)
        result[locale] = sum(1 for m in catalog if m.id and m.fuzzy)
    return result


def _catalog_to_update(state: FileState, rel: str, locale: str) -> Catalog:
    """The catalog ``rel`` of ``locale`` as ``state`` read it
    (:func:`generator.i18n.pofile.read_for_update`), or a new empty one where there is
    none yet.

    Raises:
        NotAnInput: Babel cannot read it.
    """
    if state.data is not None:
        return read_for_update(state.data, rel, locale)
    return Catalog(locale=locale, project="Rummy rules", version="1",
                   creation_date=FIXED_DATE, revision_date=FIXED_DATE, fuzzy=False)


def _merged(catalog: Catalog, template: Catalog,
            overrides: AbstractSet[tuple[str | None, str]]) -> Catalog:
    """``catalog`` with ``template`` merged in (:func:`generator.i18n.merge.merge`: as
    msgmerge, revived, exact, fuzzy with ``#| msgid``), its translations of
    ``overrides`` the template does not hold kept (they override built-in ones), dated
    :data:`FIXED_DATE`; returned."""
    kept = [m for m in catalog if m.id and m.string and not m.fuzzy
            and (m.context, _msgid(m)) in overrides
            and template.get(m.id, m.context) is None]
    merge(catalog, template)
    for message in kept:
        catalog.obsolete.pop(_obsolete_key(message), None)
        catalog[message.id] = message
    catalog.revision_date = FIXED_DATE
    catalog.creation_date = FIXED_DATE
    return catalog


def _in_package(write: Callable[[Any], None]) -> Callable[[Any], None]:
    """``write`` (a line, or lines) with a leading ``locales/`` named as the package's
    ``generator/locales/``."""
    def relabel(line: str) -> str:
        """``line`` with a leading ``locales/`` named ``generator/locales/``."""
        return f"{BUILTIN_LABEL}/{line[len(LOCALES) + 1:]}" \
            if line.startswith(f"{LOCALES}/") else line

    def written(what: Any) -> None:
        """Write ``what`` (a line, or lines) relabelled."""
        write(relabel(what) if isinstance(what, str) else [relabel(x) for x in what])

    return written


def _plural(n: int, noun: str) -> str:
    """``n`` and the English ``noun``, an ``s`` added but for one."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _write_problem(layout: Layout, path: Path) -> str | None:
    """Why i18n must not write the catalog file ``path`` (``FILE:1: <this>; expected
    ...``), or ``None``: it leads out of the project, or to another of its inputs, or
    it is not a regular file."""
    real = Path(os.path.realpath(path))
    where = layout.inside(real)
    if where is not None:
        return f"a symbolic link leading {where}"
    if not real.is_relative_to(os.path.realpath(layout.path(LOCALES))):
        return "a symbolic link leading to another input of the project"
    if os.path.exists(path) and not os.path.isfile(path):
        return "not a regular file (a FIFO would hold i18n until read)"
    return None


def i18n(layout: Layout, action: str, emit: Callable[[Iterable[str]], None],
         say: Callable[[str], None], *, builtin: bool = False) -> int:
    """Run ``i18n extract|update|stats`` on a project (docs/site.md, "Command line"): on
    the site's own messages (:func:`extract`), or with ``builtin`` on the generator's
    built-in catalogs in the package (:func:`extract_builtin`; for the generator's
    developers).

    Every catalog is read and checked before anything is written (Babel would drop the
    lines it cannot parse); with an input error nothing is written. Each file is written
    with :func:`generator.layout.rewrite_file`: a catalog saved by a translator since it
    was read is not written (named, exit 2; the others are), and a file that cannot be
    written stops the writing (named, with the files written before it and those not).

    Args:
        layout: the project's layout (ignored with ``builtin``: the package's
            ``generator/`` folder, whose ``locales/`` are the built-in catalogs).
        action: ``extract`` (write ``locales/messages.pot``), ``update`` (also merge it
            into every ``locales/<lang>/LC_MESSAGES/messages.po``, creating the catalog
            of each language ``site.yaml`` lists or that has a ``locales/<lang>/
            LC_MESSAGES/`` folder) or ``stats`` (translated, fuzzy and untranslated
            messages per locale and source, the built-in messages as the site shows
            them included).
        emit: prints report lines (standard output).
        say: prints one progress or summary line (standard error).
        builtin: work on the built-in catalogs instead of the site's.

    Returns:
        The exit status: 0, or 2 for an input error or a catalog that cannot be written.
    """
    run, errors = _start(layout, action, emit, say, builtin)
    read, found = _read_catalogs(run.layout, run.locales)
    errors.extend(found)
    if errors:
        return _nothing_written(run, format_errors(errors))
    if action == "stats":
        builtin_template = None if builtin else builtin_catalog_template()
        run.emit(format_stats(stats(run.catalog, run.layout, run.locales, builtin_template)))
        return EXIT_OK
    problems = _write_problems(run.layout, [
        run.layout.path(POT), *(run.layout.path(catalog_path(loc)) for loc in run.locales)])
    if problems:
        return _nothing_written(run, problems)
    return _write(run, read)


@dataclass(frozen=True)
class _Run:
    """One run of ``i18n`` (:func:`i18n`).

    Attributes:
        layout: the project's layout (the package's ``generator/`` folder with
            ``builtin``).
        action: ``extract``, ``update`` or ``stats``.
        builtin: whether it works on the built-in catalogs.
        emit: prints report lines (paths named as the repository names them).
        say: prints one progress or summary line.
        catalog: the template catalog extracted.
        locales: the locales whose catalogs it reads (and updates), sorted.
    """

    layout: Layout
    action: str
    builtin: bool
    emit: Callable[[Iterable[str]], None]
    say: Callable[[str], None]
    catalog: Catalog
    locales: list[str]


def _start(layout: Layout, action: str, emit: Callable[[Iterable[str]], None],
           say: Callable[[str], None], builtin: bool) -> tuple[_Run, list[InputError]]:
    """The run :func:`i18n`'s arguments ask for: the messages extracted (the site's, or
    the package's with ``builtin``, its paths then named ``generator/locales/...``) and
    the locales: those with a catalog or a ``locales/<lang>/LC_MESSAGES/`` folder, and
    those ``site.yaml`` lists, but English.

    Returns:
        (the run, the input errors met while extracting).
    """
    listed: tuple[str, ...] = ()
    if builtin:
        layout = Layout.of(BUILTIN_LOCALES.parent)
        catalog, errors = extract_builtin()
        emit = _in_package(emit)
        say = _in_package(say)
    else:
        catalog, errors = extract(layout)
        listed = load_config(layout)[0].languages or ()
    locales = sorted({*layout.catalog_locales(), *layout.locale_folders(), *listed}
                     - {SOURCE_LOCALE})
    return _Run(layout, action, builtin, emit, say, catalog, locales), errors


def _read_catalogs(layout: Layout, locales: Iterable[str]
                   ) -> tuple[dict[str, FileState], list[InputError]]:
    """Each locale's catalog read and checked before anything is written (Babel would
    drop the lines it cannot parse).

    Returns:
        (each catalog as read, by its path relative to the project; the input errors:
        a locale name Babel does not know, a catalog that is not an input file, its
        syntax errors).
    """
    read: dict[str, FileState] = {}
    errors: list[InputError] = []
    for locale in locales:
        bad_name = locale_error(locale)
        if bad_name is not None:
            errors.append(bad_name)
            continue
        rel = catalog_path(locale)
        try:
            read[rel] = catalog_state(layout, rel)
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        data = read[rel].data
        if data is not None:
            errors.extend(check_catalog_syntax(layout.path(rel), rel, data, locale))
    return read, errors


def _nothing_written(run: _Run, lines: Iterable[str]) -> int:
    """Report ``lines`` and that nothing is written; the exit status for an input
    error."""
    run.emit(lines)
    run.say("nothing written")
    return EXIT_INPUT


def _write_problems(layout: Layout, targets: list[Path]) -> list[str]:
    """Why the files i18n writes (``targets``) must not be written, one line each, or
    nothing. Each must be a file of ``locales/``: a ``messages.pot`` (or a catalog not
    yet made) that is a link elsewhere would have the file it leads to replaced (such as
    ``~/.bashrc``, or a page of the project), a FIFO would hold i18n until read. Then
    each must be writable (or, not yet made, its folder)."""
    astray = [(t, why) for t in targets if (why := _write_problem(layout, t)) is not None]
    if astray:
        return [f"{layout.rel(t)}:1: {why}; expected a file inside the project's locales/ "
                "(i18n writes it)" for t, why in astray]
    locked = [t for t in targets if (t.exists() and not os.access(t, os.W_OK))
              or (not t.exists() and not os.access(t.parent, os.W_OK)
                  and t.parent.exists())]
    return [f"{layout.rel(t)}:1: cannot be written; expected a writable catalog"
            for t in locked]


@dataclass
class _Progress:
    """What a run wrote: the paths written, and those not written because they changed
    since they were read, in order."""

    written: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)


def _write(run: _Run, read: Mapping[str, FileState]) -> int:
    """Write ``messages.pot`` and, for ``update``, merge it into every catalog
    (:func:`update`, over the catalogs as ``read``).

    Returns:
        The exit status: 0, or 2 when a file changed since it was read (named) or could
        not be written (named, with the files written before it and those not).
    """
    progress = _Progress()
    try:
        _write_template(run, progress)
        if run.action == "update":
            _update_catalogs(run, read, progress)
    except (OSError, NotAnInput) as exc:
        return _write_stopped(run, exc, progress)
    if progress.changed:
        run.emit([_changed(rel, run.action) for rel in progress.changed])
        return EXIT_INPUT
    return EXIT_OK


def _write_template(run: _Run, progress: _Progress) -> None:
    """Write the template catalog ``messages.pot`` (unless it changed since it was read)
    and say how many messages it holds.

    Raises:
        NotAnInput, OSError: as :func:`catalog_state` and :func:`write_catalog`.
    """
    try:
        write_catalog(run.catalog, catalog_state(run.layout, POT))
        progress.written.append(POT)
        run.say(f"{POT}: {_plural(len(run.catalog), 'message')}")
    except FileChanged:
        progress.changed.append(POT)


def _update_catalogs(run: _Run, read: Mapping[str, FileState], progress: _Progress
                     ) -> None:
    """Merge the template into every locale's catalog (:func:`update`; a site's catalog
    keeps its translations of built-in messages) and say how many are fuzzy in each.

    Raises:
        NotAnInput, OSError: as :func:`update`.
    """
    keep = frozenset() if run.builtin else builtin_keys()
    for locale, fuzzy in update(run.layout, run.catalog, run.locales, progress.written,
                                keep, read=read, changed=progress.changed).items():
        run.say(f"{catalog_path(locale)}: updated, {fuzzy} fuzzy")


def _write_stopped(run: _Run, exc: OSError | NotAnInput, progress: _Progress) -> int:
    """Report the file that could not be written (``exc``), with the files written
    before it and those left, after the files that changed since they were read; the
    exit status for an input error."""
    order = [POT, *(map(catalog_path, run.locales) if run.action == "update" else ())]
    failed = next(rel for rel in order
                  if rel not in progress.written and rel not in progress.changed)
    left = order[order.index(failed) + 1:]
    error = OSError(exc.error.message) if isinstance(exc, NotAnInput) else exc
    run.emit([*(_changed(rel, run.action) for rel in progress.changed),
              write_failure(failed, error, progress.written, left)])
    return EXIT_INPUT


def _changed(rel: str, action: str) -> str:
    """The line for a catalog that changed since ``i18n ACTION`` read it."""
    return f"{rel}:1: the file changed since it was read; nothing written to it (run i18n " \
        f"{action} again)"
