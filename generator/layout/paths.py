"""Every path the generator reads or writes inside a project, the theme's and the
built-in catalogs' paths in the package, and the names a slug or a locale folder may have
(docs/site.md, "Layout of the repository").

=====================================  ============================================
``content/<slug>.md``                  the pages (English source)
``content/examples/**/*.yaml``         the case files
``templates/**/*.html``, ``*.xml``     the project's own templates (optional)
``templates/static/**``                the project's own assets (optional)
``templates/root/**``                  files published at the site's root
``locales/messages.pot``               the template catalog (``i18n extract``)
``locales/<lang>/LC_MESSAGES/messages.po``  each locale's catalog of the site's own
                                       messages (pages, case titles and notes)
``site.yaml``                          the optional settings
``site/``                              the default output folder
``site/<lang>/pagefind/``              a locale's search index (:func:`search_output`)
=====================================  ============================================

**The theme.** The templates and assets ship in the package, in ``generator/theme/``
(:data:`THEME`), as MkDocs' themes do; a project's ``templates/`` overrides them file by
file, as MkDocs' ``custom_dir``: ``templates/NAME`` (anything there, even what is not an
input, which is then reported) is used instead of the theme's ``NAME``, and
``templates/static/X`` is published instead of the theme's ``static/X``. A project needs
no ``templates/`` to build. The theme is trusted package data: read with the same
:func:`read_regular`, but not bound to the project's folder. Messages name a theme file
by its package path (:data:`THEME_LABEL`, ``generator/theme/page.html``), a project's
file by its path in the project (``templates/page.html``); both are a file's *label*,
and :meth:`Layout.read`, :meth:`Layout.problem` and :meth:`Layout.path` take either.

**The built-in catalogs.** The theme's and the engine's messages (verdicts, reasons,
step lines, card names, the navigation and search words) are translated once, in the
package: ``generator/locales/messages.pot`` and ``generator/locales/<lang>/LC_MESSAGES/
messages.po`` (:data:`BUILTIN_LOCALES`, :func:`builtin_catalog`). A message is looked up
in the site's catalog first, then in the built-in one, then shown in English.

**Names.** A page's slug and a locale folder's name are checked by *full* match
(:func:`is_slug`, :func:`is_locale_name`): ``$`` would let a final newline through.

"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

CONTENT = "content"
"""The pages' folder."""
EXAMPLES = "content/examples"
"""The case files' folder."""
TEMPLATES = "templates"
"""The project's own templates' folder (overriding the theme's, file by file)."""
THEME = Path(__file__).resolve().parent.parent / "theme"
"""The theme shipped in the package: its templates, and its assets in ``static/``."""
SCAFFOLD = Path(__file__).resolve().parent.parent / "scaffold"
"""The files of a new project (``init``), shipped in the package: a page, a case file and
a translated catalog, on the default theme."""
BUILTIN_LOCALES = Path(__file__).resolve().parent.parent / "locales"
"""The built-in catalogs shipped in the package: the theme's and the engine's messages,
translated into every locale the generator knows (:func:`builtin_catalog`)."""
BUILTIN_LABEL = "generator/locales"
"""How messages name :data:`BUILTIN_LOCALES` (``generator/locales/de/LC_MESSAGES/
messages.po``)."""
BUILTIN_POT = BUILTIN_LOCALES / "messages.pot"
"""The built-in template catalog: every message of the theme and the engine."""
BUILTIN_POT_LABEL = f"{BUILTIN_LABEL}/messages.pot"
"""How messages name :data:`BUILTIN_POT`."""
SCHEMA_FILE = "case-file.schema.json"
"""The editor schema in a project made by ``init`` (its case files name it)."""
SCHEMA_COMMENT = "# yaml-language-server: $schema="
"""How a YAML file's first line names its editor schema (the YAML language server's
modeline), the schema's path relative to the file's folder following it."""
THEME_LABEL = "generator/theme"
"""How messages and the template catalog's ``#:`` comments name :data:`THEME`."""
THEME_STATIC = "static"
"""The theme's assets' folder (in :data:`THEME`), copied to the site's ``static/``."""
TEMPLATE_SUFFIXES = (".html", ".xml")
"""The templates' file names end in one of these (``page.html``, ``sitemap.xml``)."""
STATIC = "templates/static"
"""Assets copied to the site's ``static/`` folder."""
ROOT_FILES = "templates/root"
"""Files published at the site's root (``CNAME``, ``robots.txt``, …)."""
LOCALES = "locales"
"""The catalogs' folder."""
POT = "locales/messages.pot"
"""The template catalog."""
CONFIG = "site.yaml"
"""The optional settings file."""
OUTPUT = "site"
"""The default output folder."""
GIT = ".git"
"""Git's folder: never an input."""
INPUT_PATHS = (CONTENT, TEMPLATES, LOCALES, GIT, CONFIG)
"""The project's inputs an output folder may neither be, be in nor hold (``site.yaml``
too: a site built there left the project unbuildable)."""

STATIC_OUT = "static"
"""Where :data:`STATIC`'s files go in the site."""
CHECKER_OUT = "checker"
"""The card checker's folder in the site (:mod:`generator.render.checker_files`)."""
PYODIDE_CDN = "cdn"
"""``pyodide: cdn``: Pyodide from its official CDN at the pinned version (the default)."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
"""The files of a Pyodide distribution the checker loads: those of the folder that
``site.yaml``'s ``pyodide`` names (:mod:`generator.config`), copied into the site."""
ROOT_INDEX = "index.html"
"""The site's front page (the languages)."""
SITEMAP = "sitemap.xml"
"""The sitemap at the site's root (with ``site_url``)."""
SEARCH = "pagefind"
"""The folder of a locale's search index, in the locale's folder (:func:`search_output`)."""
NOT_FOUND = "404.html"
"""The "page not found" page at the site's root (every language), and the name of each
locale's own (:func:`not_found_output`)."""

_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
_LOCALE_NAME = re.compile(r"[A-Za-z]{2,8}(?:_[A-Za-z0-9]{1,8})*(?:@[A-Za-z0-9]{1,8})?")


def is_slug(name: str) -> bool:
    """Whether ``name`` is a page slug: lowercase letters, digits and hyphens, not
    starting with a hyphen (whole string, no final newline)."""
    return _SLUG.fullmatch(name) is not None


def is_locale_name(name: str) -> bool:
    """Whether ``name`` is spelled as a locale code may be (``cs``, ``de_AT``,
    ``sr_Latn``, ``ca@valencia``): letters, digits, ``_`` and one ``@`` part, whole
    string. Whether Babel knows the locale is a further check (the catalog's)."""
    return _LOCALE_NAME.fullmatch(name) is not None


def catalog(locale: str) -> str:
    """The catalog of ``locale``, relative to the project:
    ``locales/<locale>/LC_MESSAGES/messages.po``."""
    return f"{LOCALES}/{locale}/LC_MESSAGES/messages.po"


def builtin_catalog(locale: str) -> Path:
    """The built-in catalog of ``locale`` in the package (it may not exist):
    ``generator/locales/<locale>/LC_MESSAGES/messages.po``."""
    return BUILTIN_LOCALES / locale / "LC_MESSAGES" / "messages.po"


def builtin_locales() -> list[str]:
    """The locales the package has a built-in catalog for, sorted."""
    try:
        names = sorted(os.listdir(BUILTIN_LOCALES))
    except OSError:
        return []
    return [name for name in names if builtin_catalog(name).is_file()]


def page_output(lang: str, slug: str) -> str:
    """The site-relative path of a page in one locale: ``<lang>/<slug>/index.html``."""
    return f"{lang}/{slug}/index.html"


def home_output(lang: str) -> str:
    """The site-relative path of a locale's home page: ``<lang>/index.html``."""
    return f"{lang}/index.html"


def search_output(lang: str) -> str:
    """The site-relative folder of a locale's search index, ``<lang>/pagefind``: the
    build writes everything in it (generator/render/search.py), and nothing else may."""
    return f"{lang}/{SEARCH}"


def not_found_output(lang: str) -> str:
    """The site-relative path of a locale's "page not found" page: ``<lang>/404.html``
    (a web server shows it for a missing address under ``<lang>/``, as GitHub Pages,
    Netlify or an nginx ``error_page`` can be told to)."""
    return f"{lang}/{NOT_FOUND}"


def generated_files(locales: Iterable[str], slugs: Iterable[str], *, sitemap: bool
                    ) -> set[str]:
    """The site-relative paths the build generates (besides ``static/``): the front
    page and the root ``404.html``, every locale's home, pages and ``404.html``, and
    ``sitemap.xml`` when there is one."""
    slugs = list(slugs)
    names = {ROOT_INDEX, NOT_FOUND, *([SITEMAP] if sitemap else [])}
    for lang in locales:
        names.add(home_output(lang))
        names.add(not_found_output(lang))
        names.update(page_output(lang, slug) for slug in slugs)
    return names


def theme_templates() -> list[str]:
    """The labels of the theme's templates (``generator/theme/page.html``, …; not its
    ``static/`` assets), sorted."""
    return [rel for rel in theme_files(skip=(THEME_STATIC,))
            if rel.endswith(TEMPLATE_SUFFIXES)]


def theme_rel(label: str) -> str | None:
    """A theme file's path in :data:`THEME` from its label (``generator/theme/NAME``), or
    ``None`` for a label that is a project's path."""
    prefix = f"{THEME_LABEL}/"
    return label[len(prefix):] if label.startswith(prefix) else None


def theme_files(folder: str = "", skip: tuple[str, ...] = ()) -> list[str]:
    """The labels of the theme's files below ``folder`` (relative to :data:`THEME`;
    ``""``: all), but in the folders ``skip``, sorted."""
    base = THEME / folder if folder else THEME
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "__"))
                       and (here / d).relative_to(THEME).as_posix() not in skip]
        found += [f"{THEME_LABEL}/{(here / n).relative_to(THEME).as_posix()}"
                  for n in filenames if not n.startswith(".")]
    return sorted(found)

def real_path(path: Path) -> Path:
    """``path`` made absolute with the links in it resolved (the last part too, when it
    exists): two spellings of one place compare equal."""
    return Path(os.path.realpath(path))


def output_path(path: Path) -> Path:
    """An output folder's path made absolute with the links in its parent resolved,
    but not in its last part (the output itself being a link is refused, not followed):
    ``--out`` through a link into ``content/`` names the place it leads to."""
    absolute = Path(os.path.abspath(path))
    return real_path(absolute.parent) / absolute.name
