"""The project's layout and what counts as one of its inputs (docs/site.md, "Layout of the
repository" and "Command line").

One home for every path the generator reads or writes inside a project, as Sphinx's
``CatalogRepository`` owns the catalog paths:

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

**Inputs.** The project's inputs are the regular files inside the project folder. A
symbolic link is followed only when its real target is a regular file inside the
project and outside ``.git/`` and the output folder; a link leading anywhere else (or a
loop, or to nothing), a FIFO, a device, a socket or a folder where a file is expected
is an input error at ``FILE:1``, never opened, read or published. Every reader goes
through :meth:`Layout.read` (which checks with ``stat`` before opening, opens without
blocking and checks the opened file again) and every folder walk through
:meth:`Layout.walk` (which follows a linked folder only into the project, once).

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

**Files the user keeps.** Every command that rewrites a file of the user's (``check
--fix``'s case files, ``i18n update``'s catalogs) reads it with :meth:`Layout.read_state`
and writes it with :func:`rewrite_file`: to a temporary copy in the same folder, then,
when the file is still as it was read, renamed into place, in the file's own form (its
permissions, line ends and byte-order mark). A write that fails or is killed leaves the
previous file whole, and a file another program saved meanwhile is not written
(:class:`FileChanged`). :func:`replace_file` writes a file that was not read (a report)
as a shell's ``>`` would: a symbolic link followed, a device or a pipe written to in
place. A copy left by a killed process carries a lock no process holds any more; the
next write into its folder removes it (:func:`sweep_temporary_copies`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from pathlib import PurePosixPath

from generator.errors import CONTROL_CHARACTERS
from generator.errors import InputError
from generator.errors import shown
from generator.errors import too_large
from generator.output import MARKER
from generator.output import ReadFailed
from generator.output import copy_into

CONTENT = "content"
"""The pages' folder."""
EXAMPLES = "content/examples"
"""The case files' folder."""
TEMPLATES = "templates"
"""The project's own templates' folder (overriding the theme's, file by file)."""
THEME = Path(__file__).resolve().parent / "theme"
"""The theme shipped in the package: its templates, and its assets in ``static/``."""
SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
"""The files of a new project (``init``), shipped in the package: a page, a case file and
a translated catalog, on the default theme."""
BUILTIN_LOCALES = Path(__file__).resolve().parent / "locales"
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


class NotAnInput(Exception):
    """A path that is not one of the project's inputs (or cannot be read).

    Attributes:
        error: the input error at ``FILE:1`` saying why.
    """

    def __init__(self, error: InputError) -> None:
        super().__init__(error.format())
        self.error = error


_KINDS: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISDIR, "a folder where a file is expected"),
    (stat.S_ISFIFO, "a FIFO (named pipe), not a regular file"),
    (stat.S_ISCHR, "a character device, not a regular file"),
    (stat.S_ISBLK, "a block device, not a regular file"),
    (stat.S_ISSOCK, "a socket, not a regular file"),
)
_EXPECTED = "expected a regular file inside the project"


def _kind_problem(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    for test, what in _KINDS:
        if test(mode):
            return f"{what}; {_EXPECTED}"
    return f"not a regular file; {_EXPECTED}"


_RECORDS: list[dict[str, str]] = []
"""The records of :func:`recorded_reads` open in this process."""


@contextlib.contextmanager
def recorded_reads() -> Iterator[dict[str, str]]:
    """Record every file read through :meth:`Layout.read` in this process while the
    block runs: its path (or a theme file's label) → the SHA-256 hex digest of the bytes
    read, ``""`` for a file read twice with other bytes. What a build checks against the
    digests it keyed its cache with (a file saved while the build ran:
    :func:`generator.commands.build.build`).

    Yields:
        The record, filled as files are read.
    """
    record: dict[str, str] = {}
    _RECORDS.append(record)
    try:
        yield record
    finally:
        _RECORDS.remove(record)


def reads_recorded() -> dict[str, str]:
    """What the records open in this process hold (:func:`recorded_reads`): a forked
    worker's reads, which its parent's record gets with :func:`record_reads`."""
    return {rel: sha for record in _RECORDS for rel, sha in record.items()}


def record_reads(reads: Mapping[str, str]) -> None:
    """Count ``reads`` (path → SHA-256, as :func:`reads_recorded` gives them: a worker's)
    in the records open in this process, as if read here."""
    for rel, sha in reads.items():
        _record(rel, sha)


def _record(rel: str, sha: str) -> None:
    """One read of ``rel``, of bytes of SHA-256 ``sha``, in every open record; ``""``
    where the file was read before with other bytes."""
    for record in _RECORDS:
        record[rel] = sha if record.setdefault(rel, sha) == sha else ""


@dataclass(frozen=True)
class Layout:
    """Where a project's inputs are, and which files count as inputs.

    Attributes:
        root: the project folder, absolute, symbolic links resolved.
        out: the output folder, absolute, links in its existing part resolved (never
            an input, even through a link).
    """

    root: Path
    out: Path

    @classmethod
    def of(cls, project: Path | Layout, out: Path | None = None) -> Layout:
        """The layout of ``project`` (a folder, or a layout returned as it is) with its
        output folder ``out`` (default ``<project>/site``)."""
        if isinstance(project, Layout):
            return project if out is None else cls(project.root, output_path(out))
        root = real_path(project)
        return cls(root, output_path(out) if out is not None else root / OUTPUT)

    # -- paths -------------------------------------------------------------------------

    def path(self, rel: str) -> Path:
        """The absolute path of ``rel`` (a POSIX path relative to the project, or a theme
        file's label, ``generator/theme/NAME``)."""
        theme = _theme_rel(rel)
        return THEME / theme if theme is not None else self.root / rel

    def rel(self, path: Path) -> str:
        """``path`` (below the project) as a POSIX path relative to it."""
        return Path(os.path.abspath(path)).relative_to(self.root).as_posix()

    def exists(self, rel: str) -> bool:
        """Whether anything is at ``rel`` (a link to nothing counts: it is an error to
        report, not an absence)."""
        return os.path.lexists(self.root / rel)

    def inside(self, real: Path) -> str | None:
        """``None`` when the real path ``real`` is inside the project and outside
        ``.git/`` and the output folder, else where it is (for a message)."""
        if real == self.root or not real.is_relative_to(self.root):
            return "outside the project"
        if real.relative_to(self.root).parts[0] == GIT:
            return "into .git/"
        if real == self.out or real.is_relative_to(self.out):
            return "into the output folder"
        return None

    def catalog_locales(self) -> list[str]:
        """The locales with a catalog (``locales/<lang>/LC_MESSAGES/messages.po``, or
        anything at that place: what is not a file is reported when it is read), sorted."""
        return [name for name in self._locale_dirs()
                if os.path.lexists(self.root / catalog(name))]

    def locale_folders(self) -> list[str]:
        """The locales with a ``locales/<lang>/LC_MESSAGES/`` folder (``i18n update``
        creates their catalog), sorted."""
        return [name for name in self._locale_dirs()
                if (self.root / LOCALES / name / "LC_MESSAGES").is_dir()]

    def _locale_dirs(self) -> list[str]:
        base = self.root / LOCALES
        try:
            names = sorted(os.listdir(base))
        except OSError:
            return []
        return [n for n in names if not n.startswith(".") and (base / n).is_dir()]

    # -- inputs ------------------------------------------------------------------------

    def problem(self, rel: str) -> InputError | None:
        """Why ``rel`` is not an input file (``FILE:1: what; expected``), or ``None``
        when it is one (a theme file's label: whether it is a regular file). Never opens
        the file."""
        if _theme_rel(rel) is not None:
            try:
                kind = _kind_problem(os.stat(self.path(rel)).st_mode)
            except OSError as exc:
                kind = f"cannot read the file: {exc.strerror or exc}; expected a readable file"
            return InputError(rel, 1, None, kind) if kind else None
        path = self.root / rel
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                why = f"a symbolic link loop; {_EXPECTED}"
            elif os.path.islink(path):
                why = f"a symbolic link to nothing; {_EXPECTED}"
            else:
                why = f"cannot read the file: {exc.strerror or exc}; expected a readable " \
                      "file"
            return InputError(shown(rel), 1, None, why)
        where = self.inside(Path(os.path.realpath(path)))
        if where is not None:
            return InputError(shown(rel), 1, None, f"a symbolic link leading {where}; "
                              f"{_EXPECTED} (a link is followed only to one)")
        kind = _kind_problem(mode)
        return InputError(shown(rel), 1, None, kind) if kind else None

    def read(self, rel: str, *, limit: int | None = None, what: str = "file",
             advice: str = "") -> bytes:
        """The bytes of the input file ``rel``.

        Args:
            rel: the file, relative to the project (POSIX).
            limit: the largest size read, in bytes (see :func:`read_regular`).
            what: what the file is, for the message of a file over ``limit``.
            advice: what to do about a file over ``limit``.

        Raises:
            NotAnInput: ``rel`` is not an input file (see :meth:`problem`), is larger
                than ``limit`` or cannot be read; its ``error`` is at ``rel:1``.
        """
        error = self.problem(rel)
        if error is not None:
            raise NotAnInput(error)
        data = read_regular(self.path(rel), rel, limit=limit, what=what, advice=advice)
        if _RECORDS:
            _record(rel, hashlib.sha256(data).hexdigest())
        return data

    def copy_to(self, rel: str, target: Path) -> str:
        """Copy the input file ``rel`` (checked as :meth:`read` checks it; no size limit)
        into the new file ``target``, in pieces (:func:`generator.output.copy_into`): a
        file of any size (a large image or font of ``templates/static/``) takes the same
        memory. The copy counts as a read (:func:`recorded_reads`).

        Returns:
            The SHA-256 hex digest of the bytes copied.

        Raises:
            NotAnInput: as :meth:`read`, or the file could not be read while copied.
            OSError: ``target`` could not be written.
        """
        error = self.problem(rel)
        if error is not None:
            raise NotAnInput(error)
        fd = open_regular(self.path(rel), rel)
        try:
            sha = copy_into(fd, target)
        except ReadFailed as exc:
            cause = exc.__cause__
            why = cause.strerror if isinstance(cause, OSError) else None
            raise NotAnInput(InputError(shown(rel), 1, None, f"cannot read the file: "
                                        f"{why or cause}; expected a readable file")) from exc
        finally:
            os.close(fd)
        if _RECORDS:
            _record(rel, sha)
        return sha

    def read_state(self, rel: str, *, limit: int | None = None, what: str = "file",
                   advice: str = "") -> FileState:
        """The input file ``rel`` read to be rewritten (:func:`rewrite_file`): its bytes
        (``data``) and its state, read as :meth:`read` reads them (arguments alike).

        Raises:
            NotAnInput: as :meth:`read`.
        """
        data = self.read(rel, limit=limit, what=what, advice=advice)
        return FileState.after_read(self.path(rel), data)

    def read_text(self, rel: str) -> str:
        """The text of the input file ``rel``, read as UTF-8 (a byte that is not UTF-8
        becomes U+FFFD).

        Raises:
            NotAnInput: as :meth:`read`.
        """
        return self.read(rel).decode("utf-8", errors="replace")

    def walk(self, folder: str, errors: list[InputError], *,
             skip: tuple[str, ...] = (), files_named: tuple[str, ...] = ()) -> list[str]:
        """Every entry below ``folder`` that is not a folder (files, links to files,
        special files: :meth:`read` tells which are inputs), as POSIX paths relative to
        the project, sorted.

        A linked folder is followed only when its real path is inside the project
        (outside ``.git/`` and the output) and not yet walked; otherwise, and for a name
        with a control character, an error is appended to ``errors`` and the entry left
        out. ``folder`` itself may be missing (nothing found). Folders in ``skip``
        (relative to the project) are not entered; a folder whose name ends in one of
        ``files_named`` (lowercase suffixes such as ``.md``) is where a file is expected:
        an error, not entered.
        """
        found: list[str] = []
        start = self.root / folder
        if not os.path.lexists(start):
            return found
        seen: set[Path] = set()
        self._walk(folder, errors, skip, seen, found, files_named)
        return sorted(found)

    def _walk(self, folder: str, errors: list[InputError], skip: tuple[str, ...],
              seen: set[Path], found: list[str], files_named: tuple[str, ...]) -> None:
        path = self.root / folder
        try:
            real = Path(os.path.realpath(path, strict=True))
        except OSError as exc:
            what = "a symbolic link loop" if exc.errno == errno.ELOOP else "cannot be read"
            errors.append(InputError(shown(folder), 1, None,
                                     f"{what}; expected a folder inside the project"))
            return
        where = self.inside(real)
        if where is not None:
            errors.append(InputError(shown(folder), 1, None, f"a symbolic link leading "
                                     f"{where}; expected a folder inside the project (a "
                                     "link is followed only to one)"))
            return
        if real in seen:
            errors.append(InputError(shown(folder), 1, None, "a symbolic link to a folder "
                                     "already read (a loop, or twice); expected each folder "
                                     "once"))
            return
        seen.add(real)
        try:
            names = sorted(os.listdir(path))
        except OSError as exc:
            errors.append(InputError(shown(folder), 1, None, f"cannot list the folder: "
                                     f"{exc.strerror or exc}; expected a readable folder"))
            return
        for name in names:
            rel = f"{folder}/{name}"
            if CONTROL_CHARACTERS.search(name):
                errors.append(InputError(shown(rel), 1, None, "the name holds a control "
                                         "character or a byte that is not UTF-8; expected "
                                         "a plain file name"))
                continue
            if rel in skip:
                continue
            entry = self.root / rel
            if entry.is_dir() and name.lower().endswith(files_named or ("/",)):
                errors.append(InputError(rel, 1, None, "a folder where a file is expected; "
                                         "expected a regular file"))
            elif entry.is_dir():  # follows a link: _walk checks where it leads
                self._walk(rel, errors, skip, seen, found, files_named)
            else:
                found.append(rel)

    def template_files(self, errors: list[InputError]) -> list[str]:
        """The project's own templates: every ``*.html`` and ``*.xml``
        (:data:`TEMPLATE_SUFFIXES`) below ``templates/`` but in ``static/`` and ``root/``
        (published as they are), relative to the project, sorted.

        Args:
            errors: receives an error for a linked folder that leads out of the project
                and for a folder named like a template (``templates/base.html/``).
        """
        return [rel for rel in self.walk(TEMPLATES, errors, skip=(STATIC, ROOT_FILES),
                                         files_named=TEMPLATE_SUFFIXES)
                if rel.endswith(TEMPLATE_SUFFIXES)]

    def templates(self, errors: list[InputError]) -> dict[str, str]:
        """The templates the site is rendered from: every template name (``page.html``,
        ``kinds/meld.html``) → its label, the project's ``templates/NAME``
        (:meth:`template_files`) where there is one, else the theme's
        ``generator/theme/NAME``; sorted by name.

        Args:
            errors: as :meth:`template_files`.
        """
        found: dict[str, str] = {}
        for rel in _theme_files(skip=(THEME_STATIC,)):
            name = rel.removeprefix(f"{THEME_LABEL}/")
            # anything at templates/NAME overrides the theme's NAME; what is not a
            # template file, such as a folder, is an error of template_files
            if rel.endswith(TEMPLATE_SUFFIXES) and not self.exists(f"{TEMPLATES}/{name}"):
                found[name] = rel
        found.update({rel.removeprefix(f"{TEMPLATES}/"): rel
                      for rel in self.template_files(errors)})
        return dict(sorted(found.items()))

    def template_label(self, name: str) -> str | None:
        """The label of the template ``name`` the site uses: ``templates/NAME`` when
        anything is there (an override; what is not an input is reported, never
        replaced by the theme's), else the theme's, else ``None``."""
        # Jinja's own rule for names, imported here: a build taken from the cache never
        # asks, and importing Jinja is a measured part of its start-up (python -X
        # importtime; generator.commands.build).
        from jinja2 import TemplateNotFound
        from jinja2.loaders import split_template_path

        try:
            parts = split_template_path(name)
        except TemplateNotFound:  # a name with ``..``: none of the project's
            return None
        rel = "/".join([TEMPLATES, *parts])
        if self.exists(rel):
            return rel
        theme = "/".join([THEME_LABEL, *parts])
        return theme if os.path.isfile(self.path(theme)) else None

    def label_of(self, filename: str) -> str | None:
        """The label of a template's file (a Jinja frame's or error's ``filename``):
        ``templates/…`` in the project, ``generator/theme/…`` in the theme, else
        ``None``."""
        path = Path(os.path.abspath(filename))
        for base, label in ((THEME, THEME_LABEL), (self.root / TEMPLATES, TEMPLATES)):
            if path.is_relative_to(base):
                return f"{label}/{path.relative_to(base).as_posix()}"
        return None

    def published_files(self, errors: list[InputError]) -> dict[str, str]:
        """The files published as they are: the theme's ``static/**`` and the project's
        ``templates/static/**`` (which replaces the theme's file of the same name) as
        ``static/**``, and ``templates/root/**`` at the site's root.

        Args:
            errors: receives an error for every entry that is not an input file (a
                link out of the project, a FIFO, …) and for a root file that has the
                name of a static asset; such entries are left out.

        Returns:
            Site-relative POSIX path → the file's label (its path relative to the
            project, or ``generator/theme/static/…``).
        """
        files: dict[str, str] = {}
        for rel in _theme_files(THEME_STATIC):
            files[f"{STATIC_OUT}/{rel.removeprefix(f'{THEME_LABEL}/{THEME_STATIC}/')}"] = rel
        for folder, prefix in ((STATIC, f"{STATIC_OUT}/"), (ROOT_FILES, "")):
            for rel in self.walk(folder, errors):
                name = prefix + rel[len(folder) + 1:]
                error = self.problem(rel)
                if error is not None:
                    errors.append(error)
                elif name in files and (folder != STATIC or _theme_rel(files[name]) is None):
                    errors.append(InputError(rel, 1, None, f"publishes {name}, as "
                                             f"{files[name]} does; expected one file of "
                                             "each name in the site"))
                else:
                    files[name] = rel  # a project's asset replaces the theme's
        return files

    def publish_errors(self, generated: AbstractSet[str],
                       owned: AbstractSet[str] = frozenset()) -> list[InputError]:
        """Every problem with the files published as they are (see
        :meth:`published_files`), and every file of ``templates/root/`` that clashes
        with a generated file (``generated``: site-relative paths): of the same name, a
        file where the site needs a folder or a folder where it needs a file, inside a
        folder the build fills alone (``owned``, such as a locale's search index), or
        the output marker. A generated, engine-checked page is never replaced."""
        errors: list[InputError] = []
        published = self.published_files(errors)
        folders = {parent for name in (*generated, *published)  # static/ is published
                   for parent in PurePosixPath(name).parents if parent.name}
        for name, rel in published.items():
            path = PurePosixPath(name)
            inside = next((p for p in path.parents if p.as_posix() in owned), None)
            if name in generated or name == MARKER:
                why = f"the generated file {name}"
            elif path in folders:
                why = f"the generated folder {name}/"
            elif inside is not None or name in owned:
                why = f"the generated folder {(inside or path).as_posix()}/"
            else:
                above = next((p for p in path.parents if p.as_posix() in generated), None)
                if above is None:
                    continue
                why = f"the generated file {above.as_posix()}"
            errors.append(InputError(rel, 1, None, f"clashes with {why}; expected a name "
                                     "the generator does not write (rename or remove it)"))
        return errors

def theme_templates() -> list[str]:
    """The labels of the theme's templates (``generator/theme/page.html``, …; not its
    ``static/`` assets), sorted."""
    return [rel for rel in _theme_files(skip=(THEME_STATIC,))
            if rel.endswith(TEMPLATE_SUFFIXES)]


def _theme_rel(label: str) -> str | None:
    """A theme file's path in :data:`THEME` from its label (``generator/theme/NAME``), or
    ``None`` for a label that is a project's path."""
    prefix = f"{THEME_LABEL}/"
    return label[len(prefix):] if label.startswith(prefix) else None


def _theme_files(folder: str = "", skip: tuple[str, ...] = ()) -> list[str]:
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


def read_regular(path: Path, rel: str, *, limit: int | None = None, what: str = "file",
                 advice: str = "") -> bytes:
    """The bytes of ``path`` if it is a regular file (a link followed), checked before
    opening and again on the opened file; never blocks on a FIFO. :meth:`Layout.read`
    also checks that the file is inside the project.

    Args:
        path: the file.
        rel: its name in messages (relative to the project).
        limit: the largest size read, in bytes: a larger file is refused before it is
            read (:func:`generator.errors.too_large`, with ``what`` and ``advice``).

    Raises:
        NotAnInput: not a regular file, or it cannot be read; the error is at ``rel:1``.
    """
    fd = open_regular(path, rel, limit=limit, what=what, advice=advice)
    try:
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError as exc:
        raise _unreadable(rel, exc) from exc
    finally:
        os.close(fd)


def _unreadable(rel: str, exc: OSError) -> NotAnInput:
    """The error of a file that cannot be read (``rel:1``)."""
    return NotAnInput(InputError(shown(rel), 1, None, f"cannot read the file: "
                                 f"{exc.strerror or exc}; expected a readable file"))


def open_regular(path: Path, rel: str, *, limit: int | None = None, what: str = "file",
                 advice: str = "") -> int:
    """``path`` opened to read (blocking) if it is a regular file, checked as
    :func:`read_regular` checks it; the caller closes the descriptor.

    Raises:
        NotAnInput: as :func:`read_regular`.
    """
    def error(why: str) -> NotAnInput:
        return NotAnInput(InputError(shown(rel), 1, None, why))

    try:
        why = _kind_problem(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(f"a symbolic link loop; {_EXPECTED}") from exc
        raise _unreadable(rel, exc) from exc
    if why:
        raise error(why)
    try:
        fd = os.open(os.path.realpath(path), os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
                     | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise _unreadable(rel, exc) from exc
    try:
        status = os.fstat(fd)
        why = _kind_problem(status.st_mode)  # it may have changed since stat
        if why:
            raise error(why)
        large = None if limit is None else too_large(shown(rel), status.st_size, limit,
                                                     what, advice)
        if large is not None:
            raise NotAnInput(large)
        os.set_blocking(fd, True)
    except OSError as exc:
        os.close(fd)
        raise _unreadable(rel, exc) from exc
    except BaseException:
        os.close(fd)
        raise
    return fd


@dataclass(frozen=True)
class FoundProject:
    """Where a command that was given no ``--project`` works (:func:`find_project`).

    Attributes:
        root: the project folder: ``.`` for the current folder, else the absolute path
            of the folder above it that holds ``site.yaml``.
        found: whether a ``site.yaml`` marked it (``False``: the current folder, taken
            as it is).
        stopped: why the search stopped below the root of the file system (``""``: it
            found the project, or reached ``/``): ``"home folder"``, ``"file-system
            boundary"``, ``"folder owned by another user"`` or ``"folder that cannot be
            read"``.
    """

    root: Path
    found: bool
    stopped: str = ""


def find_project(start: Path | None = None, *, home: Path | None = None,
                 uid: int | None = None) -> FoundProject:
    """The project of a command run in ``start`` without ``--project``: the nearest
    folder, ``start`` first, then each folder above it, that holds ``site.yaml`` (as git
    finds a repository). The search goes no higher than a folder that is the user's
    home folder, that lies on another file system than the folder below it, or that
    the user does not own (as git's ``GIT_CEILING_DIRECTORIES``,
    ``GIT_DISCOVERY_ACROSS_FILESYSTEM`` and ``safe.directory``): such a folder is not
    searched, so a stray ``~/site.yaml`` or another user's never takes a project over.
    ``start`` itself is always searched. Where no ``site.yaml`` is found, ``start`` is
    the project, as it always was.

    Args:
        start: where the command runs (default: the current folder, links resolved
            as the system gives it).
        home: the user's home folder (default: ``Path.home()``; none where it cannot
            be known).
        uid: the user's id (default: the effective user's).

    Returns:
        A :class:`FoundProject`; its ``root`` is ``.`` when the project is ``start`` and
        ``start`` is the current folder, else an absolute path.
    """
    try:
        here = Path(os.getcwd()) if start is None else Path(os.path.abspath(start))
    except OSError:  # the current folder was removed: it is the project, and missing
        return FoundProject(Path("."), False)
    if home is None:
        try:
            home = Path.home()
        except (RuntimeError, KeyError):  # no HOME and no entry in the password file
            home = None
    ceiling = real_path(home) if home is not None else None
    owner = os.geteuid() if uid is None else uid
    folder = here
    stopped = ""
    try:
        status = os.stat(folder)
    except OSError:
        status = None
    while True:
        if os.path.lexists(folder / CONFIG):  # (a broken one is reported when it is read)
            break
        parent = folder.parent
        if parent == folder:
            folder = here
            break
        try:
            above = os.stat(parent)
        except OSError:  # a folder above that cannot be looked at: nothing to search
            folder, stopped = here, "folder that cannot be read"
            break
        if ceiling is not None and parent == ceiling:
            folder, stopped = here, "home folder"
            break
        if status is not None and above.st_dev != status.st_dev:
            folder, stopped = here, "file-system boundary"
            break
        if above.st_uid != owner:
            folder, stopped = here, "folder owned by another user"
            break
        folder, status = parent, above
    found = os.path.lexists(folder / CONFIG)
    if folder == here and start is None:
        return FoundProject(Path("."), found, stopped)
    return FoundProject(folder, found, stopped)


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


def replace_file(path: Path, data: bytes) -> None:
    """Write ``data`` as the file ``path`` names so that a file is always whole: to a
    temporary copy in the same folder (:func:`_temporary_copy`), flushed to disk, then
    renamed over it (keeping its permissions). A failure (a full disk, a kill) leaves the
    previous file as it was. For a file a command read and rewrites (a case file, a
    catalog), :func:`rewrite_file`, which also refuses a file changed since it was read.

    What a shell's ``>`` would write to stays what it is: a symbolic link is followed
    (its target is replaced, the link stays a link; a link to nothing creates its
    target), and a character device or a pipe (``/dev/null``, a FIFO) is written to in
    place, never replaced by a file. A block device or a folder is refused. A name of
    an open descriptor (``/dev/stdout``, ``/proc/self/fd/N``) is the command line's to
    recognise before (``generator.cli``): here it would be the file behind it.

    Args:
        path: the file to write; its folder is made when missing.
        data: the file's whole new content (bytes).

    Raises:
        OSError: the file could not be written (``ENOSPC`` from a full device,
            ``EISDIR`` for a folder, ``EPERM`` for a block device); a regular file is
            then unchanged and no temporary file is left behind.
    """
    try:
        st: os.stat_result | None = os.stat(path)  # the link's target, if one
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if st is not None and stat.S_ISBLK(st.st_mode):
        raise OSError(errno.EPERM, "a block device, not a file", str(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        write_in_place(path, data)  # a device, a pipe, a socket
        return
    if os.path.islink(path):
        path = Path(os.path.realpath(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary_copy(path, data)
    _rename_into_place(fd, tmp, path, lambda: None)


TEMP_TAG = "rules-site-"
"""The mark in the name of a temporary copy, ``.NAME.rules-site-XXXXXXXX.tmp`` beside
NAME (:func:`_temporary_copy`): how a later write knows a copy that a killed process
left (:func:`sweep_temporary_copies`)."""
_TEMP_NAME = re.compile(r"\..{1,40}\." + re.escape(TEMP_TAG) + r"[a-z0-9_]{8}\.tmp",
                        re.DOTALL)


class FileChanged(Exception):
    """A file changed since the command read it (another program saved it meanwhile);
    nothing was written to it. The message reads "the file changed since it was read;
    nothing written to it", for a caller's ``FILE:1:`` line.

    Attributes:
        path: the file as the command named it.
    """

    def __init__(self, path: Path) -> None:
        super().__init__("the file changed since it was read; nothing written to it")
        self.path = path


Identity = tuple[int, int, int, int]
"""A file's (st_dev, st_ino, st_size, st_mtime_ns): another program's save (in place or
by renaming a new file over it) changes at least one of them, or its bytes."""


def _identity(status: os.stat_result) -> Identity:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


@dataclass(frozen=True)
class FileState:
    """A file of the user's as a command read it, to be rewritten only while it is still
    so (:func:`rewrite_file`).

    Attributes:
        path: the file as named (a symbolic link stays one: its target is rewritten).
        real: where ``path`` led when it was read (links resolved).
        data: its bytes as read; ``None``: there was no file.
        identity: its :data:`Identity` just after the read; ``None`` with no file, or
            when the file was gone by then.
        digest: the SHA-256 of ``data`` (hex); ``""`` with no file.
    """

    path: Path
    real: Path
    data: bytes | None
    identity: Identity | None
    digest: str

    @classmethod
    def after_read(cls, path: Path, data: bytes | None) -> FileState:
        """The state of ``path``, whose bytes ``data`` were just read (``None``: no file
        was there). The identity is taken now, after the read: a save that lands after
        this changes the identity, and one that landed during the read or just after it
        gives other bytes than ``data`` when the final check (:meth:`changed`) reads the
        file again, so that either shows.

        Args:
            path: the file as the command names it (a link, or the file).
            data: the bytes read from it, or ``None`` for a file that did not exist.
        """
        real = Path(os.path.realpath(path))
        identity: Identity | None = None
        if data is not None:
            with contextlib.suppress(OSError):  # gone already: changed, at the check
                identity = _identity(os.stat(real))
        digest = hashlib.sha256(data).hexdigest() if data is not None else ""
        return cls(path, real, data, identity, digest)

    def changed(self) -> bool:
        """Whether the file is no longer as it was read: its name leads elsewhere, a file
        appeared or went, its identity differs, or its bytes do (read again: a save of
        the same size within the file system's clock tick keeps the identity)."""
        if Path(os.path.realpath(self.path)) != self.real:
            return True
        try:
            now = os.stat(self.real)
        except FileNotFoundError:
            return self.data is not None
        except OSError:
            return True
        if self.data is None or self.identity is None or _identity(now) != self.identity:
            return True
        try:
            current = read_regular(self.real, self.real.name, limit=now.st_size)
        except NotAnInput:
            return True
        return hashlib.sha256(current).hexdigest() != self.digest


def before_final_check(path: Path) -> None:
    """Called by :func:`rewrite_file` with the file's name once the new content is
    written to the temporary copy and flushed to disk, just before the final check
    that the file is as it was read. Does nothing: a test replaces it (``monkeypatch``)
    to save another program's edit in that window."""


def rewrite_file(state: FileState, data: bytes | str) -> None:
    """Replace the file ``state`` read by ``data``, unless it changed since it was read;
    the one way a command rewrites a file of the user's (``check --fix``'s case files,
    ``i18n update``'s catalogs).

    ``data`` (a ``str`` is encoded as UTF-8) takes the form of the file it replaces
    (:func:`in_form_of`: its byte-order mark and its line ends) and is written to a
    temporary copy in the file's folder (stale copies of killed processes swept first),
    flushed to disk and given the file's permissions; then the file is checked again
    (:meth:`FileState.changed`: where its name leads, its identity, its bytes' digest)
    and the copy renamed over it. A symbolic link is followed (its target replaced, the
    link kept). A save that lands between the final check and the rename (a few system
    calls) is not seen: no rename can be made conditional.

    Args:
        state: the file as the command read it (:meth:`Layout.read_state`, or
            :meth:`FileState.after_read`).
        data: the file's whole new content.

    Raises:
        FileChanged: the file changed since it was read (or appeared, for a state of no
            file); nothing is written, no temporary copy is left.
        OSError: it could not be written (a full disk, a file size limit, no
            permission); the file is unchanged, no temporary copy is left.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = state.real
    if state.data is None:
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary_copy(target, in_form_of(state.data, raw))

    def check() -> None:
        before_final_check(state.path)
        if state.changed():
            raise FileChanged(state.path)

    _rename_into_place(fd, tmp, target, check)


def in_form_of(original: bytes | None, data: bytes) -> bytes:
    """``data`` in the form of the file ``original`` it replaces: with its UTF-8
    byte-order mark, where ``original`` has one and ``data`` not; with its line ends
    (``\\r\\n`` or ``\\r``, as its first line ends) where ``data`` ends its lines with a
    plain ``\\n`` and holds no ``\\r`` at all (text made anew, as Babel writes a
    catalog); ``data`` with a ``\\r`` keeps its own line ends (an edit of the original's
    text, mixed ends and all)."""
    if original is None:
        return data
    bom = "\ufeff".encode()
    if original.startswith(bom) and not data.startswith(bom):
        data = bom + data
    if b"\r" not in data:
        end = re.search(rb"\r\n|[\r\n]", original)
        if end is not None and end.group() != b"\n":
            data = data.replace(b"\n", end.group())
    return data


def write_failure(rel: str, exc: OSError, written: Iterable[str],
                  left: Iterable[str] = ()) -> str:
    """The line that says a file could not be written, and what was: ``FILE:1: cannot
    be written: WHY; the file is unchanged (written before it: A, B; not written: C)``.

    Args:
        rel: the file that could not be written (relative to the project).
        exc: why.
        written: the files written before it.
        left: the files not written after it (the command stopped).
    """
    done = list(written)
    rest = list(left)
    outcome = f"written before it: {', '.join(done)}" if done else "nothing was written"
    if rest:
        outcome += f"; not written: {', '.join(rest)}"
    return (f"{rel}:1: cannot be written: {exc.strerror or exc}; the file is unchanged "
            f"({outcome})")


def _temporary_copy(target: Path, data: bytes) -> tuple[int, str]:
    """A temporary copy of ``data`` beside ``target`` (``.NAME.rules-site-XXXXXXXX.tmp``,
    :data:`TEMP_TAG`), written, flushed to disk and given ``target``'s permissions (a new
    file's, from the umask, where there is none). It is returned open and locked
    (``flock``) for :func:`_rename_into_place`: the lock, which the system drops when
    the process ends however it ends, tells a live copy from a killed process's, which
    :func:`sweep_temporary_copies` removes here first.

    Returns:
        The open descriptor and the copy's path.

    Raises:
        OSError: the copy could not be made; none is left.
    """
    folder = target.parent
    sweep_temporary_copies(folder)
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    # (the name cut to 40 characters, 160 bytes at most: uncut, the copy's name, 25 bytes
    # longer than the file's, would be too long for the system for a name of 231 bytes)
    prefix = f".{target.name[:40]}.{TEMP_TAG}"
    for _attempt in range(10):
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=folder)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if os.lstat(tmp).st_ino == os.fstat(fd).st_ino:
                break  # locked, and still the copy's name (no sweep took it meanwhile)
        except (BlockingIOError, FileNotFoundError):
            pass  # another process's sweep holds it, or removed it: another name
        except BaseException:
            _discard(fd, tmp)
            raise
        os.close(fd)
    else:
        raise OSError(errno.EAGAIN, "no temporary file could be kept", str(folder))
    try:
        write_all(fd, data)
        os.fsync(fd)
        os.fchmod(fd, mode)
    except BaseException:
        _discard(fd, tmp)
        raise
    return fd, tmp


def _rename_into_place(fd: int, tmp: str, target: Path, check: Callable[[], None]) -> None:
    """Run ``check``, then rename the locked copy ``tmp`` (open as ``fd``) over
    ``target`` and flush the folder. Whatever ``check`` or the rename raise, the copy
    is removed and the exception raised again."""
    try:
        check()
        os.replace(tmp, target)
    except BaseException:
        _discard(fd, tmp)
        raise
    os.close(fd)  # (after the rename: until then the lock keeps the copy from a sweep)
    _sync_folder(target.parent)


def _discard(fd: int, tmp: str) -> None:
    """Remove the temporary copy ``tmp`` and close its descriptor, quietly."""
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    with contextlib.suppress(OSError):
        os.close(fd)


def sweep_temporary_copies(folder: Path) -> list[str]:
    """Remove the temporary copies (:func:`_temporary_copy`) that processes killed while
    writing (``kill -9``, a power cut) left in ``folder``: each regular file named
    ``.NAME.rules-site-XXXXXXXX.tmp`` that no live process holds locked. A copy being
    written holds its lock; anything else, or what cannot be removed, stays.

    Returns:
        The names removed.
    """
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if TEMP_TAG not in entry.name or not _TEMP_NAME.fullmatch(entry.name):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                         | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            status = os.fstat(fd)
            if stat.S_ISREG(status.st_mode):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a live writer's: raises
                if os.lstat(entry.path).st_ino == status.st_ino:
                    os.unlink(entry.path)
                    removed.append(entry.name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def write_in_place(path: Path, data: bytes, *, append: bool = False) -> None:
    """Write ``data`` into the file ``path`` opens (a device, a pipe; with ``append``,
    at its end: another process's descriptor through ``/proc``), never replacing it.

    Raises:
        OSError: it cannot be opened or written (``ENOSPC`` from ``/dev/full``).
    """
    fd = os.open(path, os.O_WRONLY | (os.O_APPEND if append else 0) | os.O_CLOEXEC)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """Write ``data`` whole to the open file descriptor ``fd`` (``os.write`` may write
    part of it). Raises OSError."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
