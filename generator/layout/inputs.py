"""A project's layout: where its inputs are and which files count as inputs
(docs/site.md, "Layout of the repository", "Inputs").

**Inputs.** The project's inputs are the regular files inside the project folder. A
symbolic link is followed only when its real target is a regular file inside the
project and outside ``.git/`` and the output folder; a link leading anywhere else (or a
loop, or to nothing), a FIFO, a device, a socket or a folder where a file is expected
is an input error at ``FILE:1``, never opened, read or published. Every reader goes
through :meth:`Layout.read` (which checks with ``stat`` before opening, opens without
blocking and checks the opened file again) and every folder walk through
:meth:`Layout.walk` (which follows a linked folder only into the project, once).
"""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from pathlib import PurePosixPath

from generator.errors import CONTROL_CHARACTERS
from generator.errors import InputError
from generator.errors import shown
from generator.layout import paths
from generator.layout.paths import GIT
from generator.layout.paths import LOCALES
from generator.layout.paths import OUTPUT
from generator.layout.paths import ROOT_FILES
from generator.layout.paths import STATIC
from generator.layout.paths import STATIC_OUT
from generator.layout.paths import TEMPLATE_SUFFIXES
from generator.layout.paths import TEMPLATES
from generator.layout.paths import THEME_LABEL
from generator.layout.paths import THEME_STATIC
from generator.layout.paths import catalog
from generator.layout.paths import output_path
from generator.layout.paths import real_path
from generator.layout.paths import theme_files
from generator.layout.paths import theme_rel
from generator.layout.reading import EXPECTED_INPUT
from generator.layout.reading import Bound
from generator.layout.reading import NotAnInput
from generator.layout.reading import kind_problem
from generator.layout.reading import link_leading
from generator.layout.reading import open_regular
from generator.layout.reading import read_regular
from generator.layout.reading import record_read
from generator.layout.reading import recording
from generator.layout.writing import FileState
from generator.output import MARKER
from generator.output import ReadFailed
from generator.output import copy_into


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
        theme = theme_rel(rel)
        return paths.THEME / theme if theme is not None else self.root / rel

    def rel(self, path: Path) -> str:
        """``path`` (below the project) as a POSIX path relative to it."""
        return Path(os.path.abspath(path)).relative_to(self.root).as_posix()

    def exists(self, rel: str) -> bool:
        """Whether anything is at ``rel`` (a link to nothing counts: it is an error to
        report, not an absence)."""
        return os.path.lexists(self.root / rel)

    def inside(self, real: Path | str) -> str | None:
        """``None`` when the real path ``real`` (absolute, normalized: no link, no ``..``)
        is inside the project and outside ``.git/`` and the output folder, else where it
        is (for a message). Compared as text, part by part: a check of every file read."""
        text = os.fspath(real)
        root = os.fspath(self.root)
        below = root.rstrip("/") + "/"
        if text == root or not text.startswith(below):
            return "outside the project"
        if text[len(below):].split("/", 1)[0] == GIT:
            return "into .git/"
        out = os.fspath(self.out)
        if text == out or text.startswith(out.rstrip("/") + "/"):
            return "into the output folder"
        return None

    def _bound(self, rel: str) -> Bound | None:
        """Where the file ``rel`` must be once opened (:func:`open_regular`): inside the
        project (:meth:`inside`); a theme file's label is bound nowhere."""
        return None if theme_rel(rel) is not None else self.inside

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
        if theme_rel(rel) is not None:
            try:
                kind = kind_problem(os.stat(self.path(rel)).st_mode)
            except OSError as exc:
                kind = f"cannot read the file: {exc.strerror or exc}; expected a readable file"
            return InputError(rel, 1, None, kind) if kind else None
        path = self.root / rel
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                why = f"a symbolic link loop; {EXPECTED_INPUT}"
            elif os.path.islink(path):
                why = f"a symbolic link to nothing; {EXPECTED_INPUT}"
            else:
                why = f"cannot read the file: {exc.strerror or exc}; expected a readable " \
                      "file"
            return InputError(shown(rel), 1, None, why)
        where = self.inside(os.path.realpath(path))
        if where is not None:
            return InputError(shown(rel), 1, None, link_leading(where))
        kind = kind_problem(mode)
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
        data = read_regular(self.path(rel), rel, limit=limit, what=what, advice=advice,
                            bound=self._bound(rel))
        if recording():
            record_read(rel, hashlib.sha256(data).hexdigest())
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
        fd = open_regular(self.path(rel), rel, bound=self._bound(rel))
        try:
            sha = copy_into(fd, target)
        except ReadFailed as exc:
            cause = exc.__cause__
            why = cause.strerror if isinstance(cause, OSError) else None
            raise NotAnInput(InputError(shown(rel), 1, None, f"cannot read the file: "
                                        f"{why or cause}; expected a readable file")) from exc
        finally:
            os.close(fd)
        if recording():
            record_read(rel, sha)
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
            errors.append(InputError(shown(folder), 1, None, link_leading(
                where, "expected a folder inside the project")))
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
        for rel in theme_files(skip=(THEME_STATIC,)):
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
        for base, label in ((paths.THEME, THEME_LABEL), (self.root / TEMPLATES, TEMPLATES)):
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
        for rel in theme_files(THEME_STATIC):
            files[f"{STATIC_OUT}/{rel.removeprefix(f'{THEME_LABEL}/{THEME_STATIC}/')}"] = rel
        for folder, prefix in ((STATIC, f"{STATIC_OUT}/"), (ROOT_FILES, "")):
            for rel in self.walk(folder, errors):
                name = prefix + rel[len(folder) + 1:]
                error = self.problem(rel)
                if error is not None:
                    errors.append(error)
                elif name in files and (folder != STATIC or theme_rel(files[name]) is None):
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
