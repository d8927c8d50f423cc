"""The translators' workflow: extract ``messages.pot``, update and create ``.po`` files.

Messages come from the content pages (one per Markdown block, as Sphinx does), the case
titles and notes, the engine's code words and card names, the templates (Jinja's Babel
extractor, ``silent = false``) and the view code (Babel's Python extractor).
"""

from __future__ import annotations

from datetime import UTC
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from babel.messages.pofile import write_po
from jinja2 import TemplateError

from generator.cases.loader import load_cases
from generator.errors import InputError
from generator.i18n import words
from generator.render.markdown import load_pages
from generator.render.site import VERBATIM
from generator.render.site import template_errors

POT = "locales/messages.pot"
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


def extract(project: Path) -> tuple[Catalog, list[InputError]]:
    """Collect every message of the project into a template catalog, through Babel's
    ``extract_from_dir`` with the project's extractors (``rules_markdown``,
    ``rules_cases``), Jinja's (``silent = false``: a template with a syntax error is an
    error, never skipped) and Python's (view code), plus the engine's code words and
    card names.

    Returns:
        (the catalog, the input errors met on the way; with errors, do not write it).
    """
    catalog = Catalog(project="Rummy rules", version="1", creation_date=FIXED_DATE,
                      revision_date=FIXED_DATE, fuzzy=False, charset="utf-8")
    project = project.absolute()
    _pages, errors = load_pages(project)
    errors.extend(load_cases(project).errors)
    broken_templates = template_errors(project)
    errors.extend(broken_templates)
    method_map = [
        ("content/*.md", _method("rules_markdown",
                                 "generator.i18n.extractors:extract_markdown")),
        ("content/examples/**.yaml", _method("rules_cases",
                                             "generator.i18n.extractors:extract_cases")),
    ]
    if not broken_templates:  # reported once, as build and check report them
        method_map += [(f"templates/{folder}**", "ignore") for folder in VERBATIM]
        method_map.append(("templates/**.html", TEMPLATE_EXTRACTOR))
    options = {"templates/**.html": TEMPLATE_OPTIONS}

    def wanted(dirpath: str) -> bool:
        rel = Path(dirpath).relative_to(project).as_posix() if Path(dirpath) != project else ""
        top = rel.split("/")[0]
        return top in ("", "content", "templates") and not Path(dirpath).name.startswith(".")

    reading: list[str] = []

    def note_file(filename: str, _method: str, _options: object) -> None:
        reading[:] = [filename]  # Babel names each file before extracting from it

    try:
        found = sorted(extract_from_dir(project, method_map=method_map, options_map=options,
                                        directory_filter=wanted, callback=note_file),
                       key=lambda x: (x[0].startswith("content/examples/"),
                                      x[0].startswith("templates/"), x[0], x[1]))
    except Exception as exc:  # what Jinja's extractor refuses though the template parses
        name = reading[0] if reading else "templates"
        errors.append(InputError(name, getattr(exc, "lineno", 1) or 1, None,
                                 f"template cannot be read: {exc}; expected a template "
                                 "Jinja can parse"))
        found = []
    for filename, lineno, message, _comments, context in found:
        _add(catalog, message, (filename, lineno), context)
    package = Path(__file__).resolve().parent.parent
    for filename, lineno, message, _comments, context in extract_from_dir(
        package / "render", method_map=[("**.py", "python")], keywords=_PY_KEYWORDS,
    ):
        _add(catalog, message, (f"generator/render/{filename}", lineno), context)
    for context, msgid in words.all_code_messages():
        _add(catalog, msgid, None, context)
    return catalog, errors


def template_messages(project: Path) -> frozenset[tuple[str | None, str]]:
    """The (msgctxt, msgid) of every message the project's templates use
    (``templates/**/*.html`` but :data:`~generator.render.site.VERBATIM`; the singular of
    a plural message). Jinja's newstyle
    gettext %-formats each of them whether or not it has placeholders, so a lone ``%``
    in their translations would break the build: the catalog check decides by this set,
    the messages' real use, not by the ``#:`` comments a translator can delete.

    A template Jinja cannot parse adds nothing (rendering reports it, with its line)."""
    from babel.messages.extract import extract as babel_extract

    found: set[tuple[str | None, str]] = set()
    templates = project / "templates"
    for path in sorted(templates.rglob("*.html")) if templates.is_dir() else []:
        if not path.is_file() or path.relative_to(templates).as_posix().startswith(VERBATIM):
            continue  # static/ and root/ are published as they are, never rendered
        try:
            with path.open("rb") as fh:
                for _line, message, _comments, context in babel_extract(
                        TEMPLATE_EXTRACTOR, fh, options=TEMPLATE_OPTIONS):
                    found.add((context, message[0] if isinstance(message, tuple)
                               else message))
        except (TemplateError, UnicodeDecodeError, OSError):
            continue  # reported when the build loads the template
    return frozenset(found)


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a catalog as a ``.po``/``.pot`` file, in message order, no wrapping churn."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, catalog, width=0, sort_output=False, include_lineno=True,
                 include_previous=True)


def update(project: Path, template: Catalog, locales: list[str]) -> dict[str, int]:
    """Merge ``template`` into each locale's ``.po``: new messages added, empty (no
    fuzzy guesses), removed ones made obsolete (``#~``), so the translation of a
    changed English source stays in the file as an obsolete entry, not as a guess.

    Returns:
        The number of fuzzy messages per locale after the merge.
    """
    result: dict[str, int] = {}
    for locale in locales:
        path = project / "locales" / locale / "LC_MESSAGES" / "messages.po"
        if path.exists():
            with path.open("rb") as fh:
                catalog = read_po(fh, locale=locale)
        else:
            catalog = Catalog(locale=locale, project="Rummy rules", version="1",
                              creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                              fuzzy=False)
        # no fuzzy matching: Babel's guesses for new messages were wrong in practice;
        # a new or changed message arrives empty (README, "Update a language")
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.revision_date = FIXED_DATE
        catalog.creation_date = FIXED_DATE
        write_catalog(catalog, path)
        result[locale] = sum(1 for m in catalog if m.id and m.fuzzy)
    return result
