"""The ``init`` command: a new site repository, ready to build, check in CI and publish
(as ``mkdocs new``, ``hugo new site`` and ``sphinx-quickstart`` start one).

The new project is the package's :data:`~generator.layout.SCAFFOLD` (a page with a few
cases, a ``.gitignore``, a GitHub workflow and a pre-commit configuration), plus what
``init`` writes from its options:

- ``site.yaml``: the title and the languages (the first is the default), naming the
  settings' editor schema (:data:`generator.config.SCHEMA_FILE`);
- the editor schemas of the settings and of the case files
  (:data:`~generator.layout.SCHEMA_FILE`);
- the site's catalogs: ``locales/messages.pot`` (``i18n extract``) and one catalog per
  language but English, with the scaffold's translations of its page where the package
  has them (``i18n update``); the theme's and the engine's messages are the built-in
  catalogs'.

The workflow installs the generator at the version that made the site
(``rules-site-generator==X.Y.Z``) and the pre-commit configuration names the
generator's repository (:func:`generator.package.repository_url`) at the tag
``vX.Y.Z``, so the site is built by the release that made it until someone raises it.
Everything is written to a fresh folder and renamed into place, so an interrupted or
failed ``init`` leaves no half project. The target may hold files already (``.git/``, the
``README.md`` or ``LICENSE`` a new repository gets): ``init`` never writes over a file;
it refuses, naming every one, when a path it would write exists, and adds the lines it
needs that an existing ``.gitignore`` lacks after that file's own bytes.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.cases.editor_schema import editor_schema
from generator.commands.i18n import catalog_bytes
from generator.commands.i18n import extract
from generator.commands.i18n import update
from generator.config import DEFAULT_TITLE
from generator.config import SCHEMA_FILE as SETTINGS_SCHEMA_FILE
from generator.config import settings_schema
from generator.errors import InputError
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import locale_error
from generator.layout import CONFIG
from generator.layout import POT
from generator.layout import SCAFFOLD
from generator.layout import SCHEMA_COMMENT
from generator.layout import SCHEMA_FILE
from generator.layout import Layout
from generator.layout import catalog
from generator.package import DISTRIBUTION
from generator.package import repository_url
from generator.package import version

_SKIPPED = ("__pycache__",)

DEFAULT_LANGUAGES = (SOURCE_LOCALE, "cs")
"""The languages of a project made without ``--lang``: English and Czech."""

TOKENS = {"@@DISTRIBUTION@@": DISTRIBUTION}
"""Placeholders in the scaffold's text files that ``init`` fills in (with
:func:`_tokens`: these and the version and the repository's address)."""

TEXT_SUFFIXES = (".md", ".yml", ".yaml", ".gitignore")
"""The scaffold's files whose placeholders are filled in."""

GITIGNORE = ".gitignore"
"""The one file ``init`` adds to where it exists (:func:`_ignore_lines`)."""

KEPT = ("README.md",)
"""The scaffold's files ``init`` writes only where the folder has none: a new
repository's own README stays."""


@dataclass(frozen=True)
class Made:
    """What ``init`` wrote.

    Attributes:
        files: the files written, relative to the target (:func:`scaffold_files` but a
            :data:`KEPT` file the folder had, and a ``.gitignore`` it had that lacked
            none of the lines).
        ignored: the lines added to a ``.gitignore`` that was there before (empty when
            ``init`` wrote the file, or the file had every line).
    """

    files: list[str]
    ignored: tuple[str, ...] = ()


class Refused(Exception):
    """``init`` will not write to the target (the :class:`InputError` says why)."""

    def __init__(self, error: InputError) -> None:
        super().__init__(error.format())
        self.error = error


def _tokens() -> dict[str, str]:
    """Each placeholder of the scaffold's text files and what replaces it: the
    distribution, its version (``0.2.0``) and the repository's address."""
    return {**TOKENS, "@@VERSION@@": version(),
            "@@REPOSITORY@@": repository_url() or f"https://pypi.org/project/{DISTRIBUTION}"}


def _scaffold_files() -> list[str]:
    """The scaffold's own files (POSIX paths relative to it), sorted; its catalogs are
    sources of translations, not files of the project."""
    return sorted(path.relative_to(SCAFFOLD).as_posix() for path in SCAFFOLD.rglob("*")
                  if path.is_file() and not set(path.relative_to(SCAFFOLD).parts)
                  & {*_SKIPPED, "locales"})


def scaffold_files(languages: Sequence[str] = DEFAULT_LANGUAGES) -> list[str]:
    """The files of a new project in ``languages`` (POSIX paths relative to it), sorted:
    the scaffold's, ``site.yaml``, the two editor schemas and the site's catalogs."""
    catalogs = [catalog(lang) for lang in languages if lang != SOURCE_LOCALE]
    return sorted([*_scaffold_files(), CONFIG, SCHEMA_FILE, SETTINGS_SCHEMA_FILE, POT,
                   *catalogs])


def language_errors(languages: Sequence[str]) -> list[str]:
    """What is wrong with ``--lang``'s locale codes (each must be one Babel knows, once);
    empty when they are right."""
    problems = []
    for index, code in enumerate(languages):
        if locale_error(code) is not None:
            problems.append(f"{code!r} is not a locale code Babel knows; expected codes such "
                            "as cs, sk, et, de, pl, hu, separated by commas")
        elif code in languages[:index]:
            problems.append(f"{code!r} is given twice; expected each language once")
    return problems


def site_languages(chosen: Sequence[str] | None) -> tuple[str, ...]:
    """The languages of a new site: ``chosen`` (the first is the default) with English,
    the language its pages are written in, added last where it is missing; without
    ``chosen``, :data:`DEFAULT_LANGUAGES`."""
    if not chosen:
        return DEFAULT_LANGUAGES
    return (*chosen, *(() if SOURCE_LOCALE in chosen else (SOURCE_LOCALE,)))


def _settings(title: str, languages: Sequence[str]) -> str:
    """The text of a new ``site.yaml``."""
    return (f"{SCHEMA_COMMENT}{SETTINGS_SCHEMA_FILE}\n"
            "# The site's settings; the generator's README lists them all (description,\n"
            "# logo, favicon, footer, nav, site_url, pyodide).\n"
            f"title: {json.dumps(title, ensure_ascii=False)}\n"
            "# The languages to build, the default first (English is the pages' source).\n"
            f"languages: [{', '.join(languages)}]\n")


def _refusal(target: Path, files: Sequence[str]) -> InputError | None:
    """Why ``target`` cannot become the new project whose ``files`` (relative to it)
    ``init`` writes, or ``None``: it is no folder, or it holds a path of ``files`` (or
    a file or link where one of their folders would be, or a ``.gitignore`` that is no
    regular file). Every other entry (``.git/``, a ``LICENSE``, a :data:`KEPT` file, the
    fresh folder being filled) does not count."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return InputError(str(target), 1, None, "is not a folder; expected the name of a "
                          "new folder, or a folder without the files init writes, for the "
                          "project")
    if not target.is_dir():
        return None
    clashes = sorted({clash for rel in files if (clash := _clash(target, rel))})
    if not clashes:
        return None
    some = "a file" if len(clashes) == 1 else "files"
    return InputError(str(target), 1, None, f"the folder holds {some} init would write "
                      f"over ({', '.join(clashes)}); expected a folder without them: init "
                      "never writes over files")


def _clash(target: Path, rel: str) -> str | None:
    """The path (relative to ``target``) that keeps ``init`` from writing ``rel``: ``rel``
    itself where it exists (a ``.gitignore`` only where it is no regular file), or the
    first of its folders that is a file or a link; ``None`` where nothing is in the
    way."""
    parts = rel.split("/")
    for depth in range(1, len(parts)):
        folder = target.joinpath(*parts[:depth])
        if folder.is_symlink() or (os.path.lexists(folder) and not folder.is_dir()):
            return "/".join(parts[:depth])
        if not folder.exists():
            return None
    path = target / rel
    if rel in KEPT:
        return None
    if rel == GITIGNORE:
        return rel if path.is_symlink() or (path.exists() and not path.is_file()) else None
    return rel if os.path.lexists(path) else None


def _ignore_lines(existing: bytes, needed: str) -> str:
    """The lines of ``needed`` (the scaffold's ``.gitignore``) that ``existing`` lacks,
    as text to add at its end: its rules that no line of ``existing`` states (spaces
    around them ignored), after the scaffold's comment; ``""`` when it has them all."""
    have = {line.strip() for line in existing.decode("utf-8", errors="replace").splitlines()}
    rules = [line for line in needed.splitlines()
             if line.strip() and not line.startswith("#") and line.strip() not in have]
    if not rules:
        return ""
    comments = [line for line in needed.splitlines()
                if line.startswith("#") and line.strip() not in have]
    return "".join(f"{line}\n" for line in (*comments, *rules))


def _write(fresh: Path, title: str, languages: Sequence[str]) -> None:
    """Write the new project into the empty folder ``fresh``."""
    tokens = _tokens()
    for rel in _scaffold_files():
        dest = fresh / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(TEXT_SUFFIXES):
            text = (SCAFFOLD / rel).read_text(encoding="utf-8")
            for token, value in tokens.items():
                text = text.replace(token, value)
            dest.write_text(text, encoding="utf-8")
        else:
            shutil.copyfile(SCAFFOLD / rel, dest)
    (fresh / CONFIG).write_text(_settings(title, languages), encoding="utf-8")
    for rel, schema in ((SCHEMA_FILE, editor_schema()),
                        (SETTINGS_SCHEMA_FILE, settings_schema())):
        (fresh / rel).write_text(json.dumps(schema, ensure_ascii=False, indent=2) + "\n",
                                 encoding="utf-8")
    translated = [lang for lang in languages if lang != SOURCE_LOCALE]
    for lang in translated:  # the scaffold's translations of its page, where it has them
        source = SCAFFOLD / catalog(lang)
        dest = fresh / catalog(lang)
        dest.parent.mkdir(parents=True, exist_ok=True)
        if source.is_file():
            shutil.copyfile(source, dest)
    template, errors = extract(fresh)
    if errors:  # the scaffold is the package's: a test keeps it valid
        raise RuntimeError(f"the scaffold does not load: {errors[0].format()}")
    (fresh / POT).parent.mkdir(parents=True, exist_ok=True)
    (fresh / POT).write_bytes(catalog_bytes(template))
    update(Layout.of(fresh), template, translated)


def init_project(target: Path, *, languages: Sequence[str] | None = None,
                 title: str | None = None) -> Made:
    """Write a new project to ``target``.

    Args:
        target: a folder that does not exist yet (its parents are created), or one that
            holds none of the files ``init`` writes (``.`` and the current folder's own
            path included; ``.git/``, a ``README.md`` (:data:`KEPT`) and any other file
            are left as they are, an existing ``.gitignore`` gets the lines it lacks
            added at its end).
        languages: the site's languages, the first the default (English is added last
            where it is missing: the pages are written in English); ``None``:
            :data:`DEFAULT_LANGUAGES`. Check them with :func:`language_errors` first.
        title: the site's name (``site.yaml``'s ``title``); ``None``:
            :data:`generator.config.DEFAULT_TITLE`, which the built-in catalogs
            translate.

    Returns:
        The files written, relative to ``target`` (:func:`scaffold_files`), and the
        lines added to an existing ``.gitignore``.

    Raises:
        Refused: ``target`` holds a file ``init`` would write (every one named), or is
            not a folder; nothing was written.
        OSError: the project could not be written (no space, no permission); nothing
            was left behind.
    """
    chosen = site_languages(languages)
    files = scaffold_files(chosen)
    target = Path(os.path.abspath(target))  # "." names the folder itself, not its entry
    refusal = _refusal(target, files)
    if refusal is not None:
        raise Refused(refusal)
    if target.is_dir():  # the project is made inside it, then moved up
        fresh = Path(tempfile.mkdtemp(prefix=".init-", dir=target))
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.init-", dir=target.parent))
    ignored, kept = "", frozenset[str]()
    try:
        _write(fresh, title or DEFAULT_TITLE, chosen)
        umask = os.umask(0)
        os.umask(umask)
        fresh.chmod(0o777 & ~umask)  # mkdtemp's folder is private; a project is not
        if fresh.parent == target:  # the folder a shell may stand in stays itself
            ignored, kept = _move_into(fresh, target, files)
        else:
            os.replace(fresh, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            shutil.rmtree(fresh)
        refusal = _refusal(target, files)
        if isinstance(exc, OSError) and exc.errno in (errno.ENOTEMPTY, errno.EEXIST) \
                and refusal is not None:
            raise Refused(refusal) from None  # something was put there meanwhile
        raise
    return Made([rel for rel in files if rel not in kept], tuple(ignored.splitlines()))


def _move_into(fresh: Path, target: Path, files: Sequence[str]
               ) -> tuple[str, frozenset[str]]:
    """Move the project made in ``fresh`` into ``target`` (which keeps its identity: a
    shell standing in it stays in the project), then remove ``fresh``: each entry
    ``target`` lacks is renamed into it whole, a folder both have is merged entry by
    entry, a :data:`KEPT` file ``target`` has stays, and an existing ``.gitignore`` gets
    the lines it lacks (:func:`_ignore_lines`) added at its end, last. An entry that
    appeared in ``target`` meanwhile stops it (``EEXIST``), as does any failure: what
    was moved is taken back, the ``.gitignore`` cut back to its own bytes.

    Returns:
        The lines added to an existing ``.gitignore`` (``""``: none), and the files of
        ``target`` left as they were (a :data:`KEPT` file it had, a ``.gitignore`` that
        had every line).
    """
    if _refusal(target, files) is not None:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    ignore = target / GITIGNORE
    appended = ignore.is_file() and not ignore.is_symlink()
    kept = frozenset(rel for rel in KEPT if os.path.lexists(target / rel))
    moved: list[str] = []
    size: int | None = None
    try:
        _merge(fresh, target, "", moved, skip=kept | ({GITIGNORE} if appended else set()))
        added = ""
        if appended:
            with ignore.open("rb+") as fh:
                existing = fh.read()
                size = len(existing)
                added = _ignore_lines(existing, (fresh / GITIGNORE).read_text("utf-8"))
                if added:
                    newline = b"" if not existing or existing.endswith(b"\n") else b"\n"
                    fh.write(newline + added.encode("utf-8"))
    except BaseException:
        if size is not None:
            with contextlib.suppress(OSError):
                os.truncate(ignore, size)
        for rel in reversed(moved):
            with contextlib.suppress(OSError):
                os.rename(target / rel, fresh / rel)
        raise
    shutil.rmtree(fresh)
    return added, kept | ({GITIGNORE} if appended and not added else set())


def _merge(source: Path, target: Path, rel: str, moved: list[str], *,
           skip: frozenset[str]) -> None:
    """Rename the entries of the folder ``source / rel`` into ``target / rel``: an entry
    the target lacks whole, a folder it has too entry by entry; each renamed path is
    added to ``moved`` (relative to both); the paths of ``skip`` (relative to them) are
    left.

    Raises:
        FileExistsError: an entry other than a folder is in the target already.
    """
    for name in sorted(os.listdir(source / rel)):
        path = f"{rel}{name}"
        if path in skip:
            continue
        there = target / path
        if (source / path).is_dir() and there.is_dir() and not there.is_symlink():
            _merge(source, target, f"{path}/", moved, skip=skip)
            continue
        if os.path.lexists(there):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(there))
        os.rename(source / path, there)
        moved.append(path)
