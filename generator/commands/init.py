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
Everything is written to a fresh folder beside the target and renamed into place in one
step, so an interrupted or failed ``init`` leaves no half project; it never writes into
a folder that holds anything.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
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
    return (f"# yaml-language-server: $schema={SETTINGS_SCHEMA_FILE}\n"
            "# The site's settings; the generator's README lists them all (logo, favicon,\n"
            "# footer, nav, site_url).\n"
            f"title: {json.dumps(title, ensure_ascii=False)}\n"
            "# The languages to build, the default first (English is the pages' source).\n"
            f"languages: [{', '.join(languages)}]\n")


def _refusal(target: Path, making: str | None = None) -> InputError | None:
    """Why ``target`` cannot become the new project, or ``None`` (``making``: the name
    of the folder ``init`` is filling inside it, which does not count)."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        return InputError(str(target), 1, None, "is not a folder; expected the name of a "
                          "new folder, or an empty folder, for the project")
    if target.is_dir():
        entries = sorted(e for e in os.listdir(target) if e != making)
        if entries:
            shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
            return InputError(str(target), 1, None, f"the folder is not empty ({shown}); "
                              "expected a new or an empty folder: init never writes over "
                              "files")
    return None


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
                 title: str | None = None) -> list[str]:
    """Write a new project to ``target``.

    Args:
        target: a folder that does not exist yet (its parents are created) or is empty
            (``.`` and the current folder's own path included).
        languages: the site's languages, the first the default (English is added last
            where it is missing: the pages are written in English); ``None``:
            :data:`DEFAULT_LANGUAGES`. Check them with :func:`language_errors` first.
        title: the site's name (``site.yaml``'s ``title``); ``None``:
            :data:`generator.config.DEFAULT_TITLE`, which the built-in catalogs
            translate.

    Returns:
        The files written, relative to ``target`` (:func:`scaffold_files`).

    Raises:
        Refused: ``target`` is not empty, or is not a folder; nothing was written.
        OSError: the project could not be written (no space, no permission); nothing
            was left behind.
    """
    chosen = site_languages(languages)
    target = Path(os.path.abspath(target))  # "." names the folder itself, not its entry
    refusal = _refusal(target)
    if refusal is not None:
        raise Refused(refusal)
    if target.is_dir():  # empty: the project is made inside it, then moved up
        fresh = Path(tempfile.mkdtemp(prefix=".init-", dir=target))
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.init-", dir=target.parent))
    try:
        _write(fresh, title or DEFAULT_TITLE, chosen)
        umask = os.umask(0)
        os.umask(umask)
        fresh.chmod(0o777 & ~umask)  # mkdtemp's folder is private; a project is not
        if fresh.parent == target:  # the folder a shell may stand in stays itself
            _move_into(fresh, target)
        else:
            os.replace(fresh, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            shutil.rmtree(fresh)
        refusal = _refusal(target, fresh.name)
        if isinstance(exc, OSError) and exc.errno in (errno.ENOTEMPTY, errno.EEXIST) \
                and refusal is not None:
            raise Refused(refusal) from None  # something was put there meanwhile
        raise
    return scaffold_files(chosen)


def _move_into(fresh: Path, target: Path) -> None:
    """Move the entries of ``fresh`` into the empty folder ``target`` (which keeps its
    identity: a shell standing in it stays in the project), then remove ``fresh``. An
    entry that appeared in ``target`` meanwhile stops it (``EEXIST``): the entries
    moved before are taken back."""
    moved: list[str] = []
    if _refusal(target, fresh.name) is not None:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    try:
        for name in sorted(os.listdir(fresh)):
            if os.path.lexists(target / name):
                raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST),
                                      str(target / name))
            os.rename(fresh / name, target / name)
            moved.append(name)
    except BaseException:
        for name in moved:
            with contextlib.suppress(OSError):
                os.rename(target / name, fresh / name)
        raise
    fresh.rmdir()
