"""The translators' workflow: extract ``messages.pot``, update and create ``.po`` files.

Messages come from the content pages (one per Markdown block, as Sphinx does), the case
titles and notes, the engine's code words and card names, the templates (Jinja's Babel
extractor, ``silent = false``) and the view code (Babel's Python extractor).
"""

from __future__ import annotations

import io
from datetime import UTC
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract as babel_extract
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po
from jinja2 import TemplateError

from generator.cases.loader import load_cases
from generator.errors import InputError
from generator.i18n import words
from generator.i18n.catalog import read_for_update
from generator.i18n.catalog import restore_previous_lines
from generator.layout import EXAMPLES
from generator.layout import TEMPLATES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import catalog as catalog_path
from generator.layout import replace_file
from generator.render.markdown import load_pages
from generator.render.site import template_errors

FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""Dates written into catalog headers: fixed, so that the same input gives the same bytes."""

TEMPLATE_EXTRACTOR = "jinja2.ext:babel_extract"
TEMPLATE_OPTIONS = {"silent": "false", "newstyle_gettext": "true",
                    "extensions": "jinja2.ext.i18n"}
"""How Babel reads the templates' messages (as ``babel.cfg`` says)."""

_PY_KEYWORDS = {"text": None, "ngettext": (1, 2), "gettext": None, "_": None, "label": None}


def _add(catalog: Catalog, msgid: str | tuple[str, ...], where: tuple[str, int] | None,
         context: str | None = None) -> None:
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


def _method(name: str, fallback: str) -> str:
    """The extractor's entry-point name when the package is installed (``pip install
    -e .``), else its import path (a plain source checkout)."""
    from importlib.metadata import entry_points

    found = {ep.name for ep in entry_points(group="babel.extractors")}
    return name if name in found else fallback


def extract(project: Path | Layout) -> tuple[Catalog, list[InputError]]:
    """Collect every message of the project into a template catalog, through Babel's
    ``extract`` with the project's extractors (``rules_markdown``, ``rules_cases``),
    Jinja's (``silent = false``: a template with a syntax error is an error, never
    skipped) and Python's (view code), plus the engine's code words and card names.
    The project's files are the pages, case files and templates its layout lists, each
    read through it (only regular files inside the project).

    Returns:
        (the catalog, the input errors met on the way; with errors, do not write it).
    """
    catalog = Catalog(project="Rummy rules", version="1", creation_date=FIXED_DATE,
                      revision_date=FIXED_DATE, fuzzy=False, charset="utf-8")
    layout = Layout.of(project)
    pages, errors = load_pages(layout)
    cases = load_cases(layout)
    errors.extend(cases.errors)
    broken_templates = template_errors(layout)
    errors.extend(broken_templates)  # reported once, as build and check report them
    templates = [] if broken_templates else layout.template_files([])
    markdown = _method("rules_markdown", "generator.i18n.extractors:extract_markdown")
    yaml_cases = _method("rules_cases", "generator.i18n.extractors:extract_cases")
    sources = [*((page.rel, markdown, {}) for page in pages),
               *((rel, yaml_cases, {}) for rel in cases.files),
               *((rel, TEMPLATE_EXTRACTOR, TEMPLATE_OPTIONS) for rel in templates)]
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
    found.sort(key=lambda x: (x[0].startswith(f"{EXAMPLES}/"),
                              x[0].startswith(f"{TEMPLATES}/"), x[0], x[1]))
    for filename, lineno, message, context in found:
        _add(catalog, message, (filename, lineno), context)
    package = Path(__file__).resolve().parent.parent
    for filename, lineno, message, _comments, context in extract_from_dir(
        package / "render", method_map=[("**.py", "python")], keywords=_PY_KEYWORDS,
    ):
        _add(catalog, message, (f"generator/render/{filename}", lineno), context)
    for context, msgid in words.all_code_messages():
        _add(catalog, msgid, None, context)
    return catalog, errors


def template_messages(project: Path | Layout) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of every message the project's templates use
    (:meth:`generator.layout.Layout.template_files`: ``templates/**/*.html`` but
    ``static/`` and ``root/``; the singular of a plural message). Jinja's newstyle
    gettext %-formats each of them whether or not it has placeholders, so a lone ``%``
    in their translations would break the build: the catalog check decides by this set,
    the messages' real use, not by the ``#:`` comments a translator can delete.

    A template Jinja cannot parse, or that is not an input file, adds nothing (the
    loading reports it, with its line)."""
    layout = Layout.of(project)
    found: set[tuple[str | None, str]] = set()
    for rel in layout.template_files([]):
        try:
            fileobj = io.BytesIO(layout.read(rel))
            for _line, message, _comments, context in babel_extract(
                    TEMPLATE_EXTRACTOR, fileobj, options=TEMPLATE_OPTIONS):
                found.add((context, message[0] if isinstance(message, tuple) else message))
        except (TemplateError, UnicodeDecodeError, NotAnInput):
            continue  # reported when the build loads the template
    return frozenset(found)


def catalog_bytes(catalog: Catalog) -> bytes:
    """A catalog as the bytes of a ``.po``/``.pot`` file, in message order, no wrapping
    churn; a translator's ``#~|`` lines (previous msgids of obsolete messages, read
    through :func:`generator.i18n.catalog.read_for_update`) written back as they were."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, sort_output=False, include_lineno=True,
             include_previous=True)
    return restore_previous_lines(buffer.getvalue())


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a catalog as a ``.po``/``.pot`` file (:func:`catalog_bytes`), atomically:
    a failure (a full disk, a kill) leaves the previous file whole.

    Raises:
        OSError: the file could not be written; the previous one is unchanged.
    """
    replace_file(path, catalog_bytes(catalog))


def update(project: Path | Layout, template: Catalog, locales: list[str],
           written: list[str] | None = None) -> dict[str, int]:
    """Merge ``template`` into each locale's ``.po``: new messages added, empty (no
    fuzzy guesses), removed ones made obsolete (``#~``), so the translation of a
    changed English source stays in the file as an obsolete entry, not as a guess;
    every line of the old catalog kept that Babel's merge keeps (``#~|`` lines
    included). Each catalog is replaced atomically.

    Args:
        project: the project folder or its layout.
        template: the template catalog (:func:`extract`).
        locales: the locales to update (a missing catalog is created).
        written: receives the path (relative to the project) of each catalog written.

    Returns:
        The number of fuzzy messages per locale after the merge.

    Raises:
        NotAnInput: a catalog is not an input file or Babel cannot read it (check with
            :func:`generator.i18n.catalog.check_catalog_syntax` first).
        OSError: a catalog could not be written; it and those after it are unchanged.
    """
    layout = Layout.of(project)
    result: dict[str, int] = {}
    for locale in locales:
        rel = catalog_path(locale)
        if layout.exists(rel):
            catalog = read_for_update(layout.read(rel), rel, locale)
        else:
            catalog = Catalog(locale=locale, project="Rummy rules", version="1",
                              creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                              fuzzy=False)
        # no fuzzy matching: Babel's guesses for new messages were wrong in practice;
        # a new or changed message arrives empty (README, "Update a language")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.revision_date = FIXED_DATE
        catalog.creation_date = FIXED_DATE
        write_catalog(catalog, layout.path(rel))
        if written is not None:
            written.append(rel)
        result[locale] = sum(1 for m in catalog if m.id and m.fuzzy)
    return result
