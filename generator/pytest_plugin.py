"""A pytest plugin: every case of a project's ``content/examples/`` as a test item.

Installed with the package (entry point ``pytest11``, pyproject.toml), so in a rules
project::

    pytest content/examples                 # the cases only
    pytest --rules-cases                    # the tests and the cases of the project at
                                            # pytest's rootdir
    pytest content/examples -k hearts       # cases whose id has "hearts"
    pytest content/examples --lf            # the cases that failed last time

Each case is one item, ``content/examples/melds-rami.yaml::queen-king-ace-hearts``; a
disagreement fails it with what ``check`` prints (``FILE:LINE: case ID: FIELD documented
X, engine Y`` and the engine's reasoning). A case's ``status`` counts as in ``check``: a
``pending`` case is skipped (the reason lists its disagreements), a
``known_disagreement`` is ``xfail(strict=True)`` (XFAIL while it disagrees; once it
agrees it fails, with ``check``'s line saying to remove the status). A file's input
errors (bad YAML, an unknown field) fail one item of that file, ``FILE::input_errors``
(``_`` is never in a case id), with ``check``'s ``FILE:LINE:COL`` lines; its good cases
still run.

Case files are collected only where asked: under a folder given on the command line that
is, or is inside, a project's ``content/examples/`` (never another YAML file, such as a
test suite's fixtures), or, with ``--rules-cases``, under ``<rootdir>/content/examples/``.
A plain ``pytest`` run of the generator's own tests (``testpaths = ["tests"]``) collects
none. Only the case files are read (all of them once per run: case ids are unique across
files); pages, catalogs and templates are ``check``'s.

The files are the loader's, never pytest's own walk of the folder: ``content/examples/``
and each folder in it is a :class:`CasesFolder` whose items are the files the loader
walked (:func:`generator.cases.loader.load_cases`, through the project's layout) and
every file or folder it reports an input error for, as ``check`` does: a FIFO, a
dangling or outward link, a name with a control character (named escaped, as ``check``
names it) or a linked folder leading out of the project fails an item
``FILE::input_errors`` like any other input error. (pytest before 8, without the folder
hook, collects the case files it finds itself.)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

import pytest

from generator.errors import shown

if TYPE_CHECKING:  # names for the annotations only; loaded when the first case file is
    from generator.cases.model import Case
    from generator.cases.model import CaseSet
    from generator.errors import InputError

EXAMPLES_PARTS = ("content", "examples")
"""Where a project's case files are (:data:`generator.layout.EXAMPLES`, as parts)."""

SUFFIXES = (".yaml", ".yml")
"""File suffixes (any case) read as case files; the loader says that only ``.yaml`` is
one, and that error fails the file's ``input_errors`` item."""

INPUT_ERRORS = "input_errors"
"""The name of a case file's item for its input errors."""

_CASES = pytest.StashKey[dict[Path, "CaseSet"]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--rules-cases``."""
    group = parser.getgroup("rules-cases", "rules-site example cases")
    group.addoption("--rules-cases", action="store_true", default=False,
                    help="also collect every case of content/examples/ under the rootdir "
                    "as a test item (rules-site)")


def pytest_configure(config: pytest.Config) -> None:
    """With ``--rules-cases``, add ``<rootdir>/content/examples`` to what is collected."""
    config.stash[_CASES] = {}
    if not config.getoption("rules_cases"):
        return
    examples = config.rootpath.joinpath(*EXAMPLES_PARTS)
    if examples.is_dir() and not any(_within(examples, arg) for arg in _arg_paths(config)):
        config.args.append(str(examples))


def _arg_paths(config: pytest.Config) -> list[Path]:
    """The paths given to collect (``FILE::NAME`` cut), absolute."""
    return [Path(config.invocation_params.dir, arg.split("::")[0]).absolute()
            for arg in config.args]


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def project_of(path: Path) -> Path | None:
    """The project whose ``content/examples/`` holds ``path`` (the nearest), or ``None``."""
    for parent in path.parents:
        if (parent.parent.name, parent.name) == EXAMPLES_PARTS:
            return parent.parent.parent
    return None


def _asked(config: pytest.Config, path: Path, project: Path) -> bool:
    """Whether ``path`` (a case file of ``project``) is to be collected."""
    examples = project.joinpath(*EXAMPLES_PARTS)
    if config.getoption("rules_cases") and project == config.rootpath:
        return True
    return any(_within(arg, examples) and _within(path, arg) for arg in _arg_paths(config))


def _examples_project(folder: Path) -> Path | None:
    """The project whose ``content/examples/`` is ``folder`` or holds it, or ``None``."""
    if (folder.parent.name, folder.name) == EXAMPLES_PARTS:
        return folder.parent.parent
    return project_of(folder)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> CasesFolder | None:
    """A :class:`CasesFolder` for ``content/examples/`` or a folder in it, where a case
    file was asked for in it or below it, or it lies below a folder asked for; else
    ``None`` (pytest's own collector)."""
    folder = path.absolute()
    project = _examples_project(folder)
    if project is None:
        return None
    config = parent.config
    examples = project.joinpath(*EXAMPLES_PARTS)
    rootdir_cases = config.getoption("rules_cases") and project == config.rootpath
    if not rootdir_cases and not any(
            _within(arg, examples) and (_within(folder, arg) or _within(arg, folder))
            for arg in _arg_paths(config)):
        return None
    found: CasesFolder = CasesFolder.from_parent(parent, path=path)
    return found


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> CaseFile | None:
    """A :class:`CaseFile` for a case file that was asked for (see the module's text):
    only where pytest walks a ``content/examples/`` folder itself, which it does not
    where :func:`pytest_collect_directory` is called (pytest 8 on)."""
    if file_path.suffix.lower() not in SUFFIXES:
        return None
    project = project_of(file_path.absolute())
    if project is None or not _asked(parent.config, file_path.absolute(), project):
        return None
    item: CaseFile = CaseFile.from_parent(parent, path=file_path)
    return item


def _load(config: pytest.Config, project: Path) -> CaseSet:
    """Every case file of ``project``, loaded once per run."""
    # Imported here, for a measured start-up cost: this module is loaded by every pytest
    # run of an environment the package is installed in (entry point pytest11), and the
    # loader and the engine take about 0.3 s to import (python -X importtime -c "import
    # generator.commands.report_formats", 2 cores); a run that collects no case file
    # should not pay for them.
    from generator.cases.loader import load_cases

    cache = config.stash[_CASES]
    if project not in cache:
        cache[project] = load_cases(project)
    return cache[project]


class CasesFolder(pytest.Directory):
    """``content/examples/`` or a folder in it: its items are what the loader's walk
    found there (see the module's text), in name order: a :class:`CaseFile` for each
    file and each entry it reports an input error for, a :class:`CasesFolder` for each
    folder holding any, and ``input_errors`` for the folder's own errors (a linked
    ``content/examples`` leading out of the project)."""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        """The folder's entries as the loader found them (see the class's text)."""
        folder = self.path.absolute()
        project = _examples_project(folder)
        assert project is not None  # pytest_collect_directory made sure
        cases = _load(self.config, project)
        here = folder.relative_to(project).as_posix()
        labels = dict.fromkeys([*cases.files, *(e.file for e in cases.errors)])
        own = [error for error in cases.errors if error.file == here]
        if own:
            yield InputErrorsItem.from_parent(self, name=INPUT_ERRORS, errors=own)
        entries: dict[str, bool] = {}  # name → a folder
        for label in labels:
            if label.startswith(f"{here}/"):
                name, _, rest = label[len(here) + 1:].partition("/")
                entries[name] = entries.get(name, False) or bool(rest)
        real = _real_names(self.path, entries)
        for name in sorted(entries):
            path = self.path / real.get(name, name)
            if entries[name]:
                yield CasesFolder.from_parent(self, path=path)
            else:
                yield CaseFile.from_parent(self, path=path)


def _real_names(folder: Path, names: Iterable[str]) -> dict[str, str]:
    """The names in ``folder`` that the loader shows escaped (a control character, a
    byte that is not UTF-8: ``bad\\x01name.yaml``), by their shown form: the item is
    the file itself, its errors show the name as ``check`` does."""
    if not any("\\" in name for name in names):
        return {}
    try:
        return {shown(name): name for name in os.listdir(folder) if shown(name) != name}
    except OSError:
        return {}


class CaseFile(pytest.File):
    """A case file: one :class:`CaseItem` per case, and an item for its input errors."""

    def collect(self) -> Iterator[pytest.Item]:
        """The file's cases without errors, in file order; then ``input_errors`` if the
        loader found any in this file."""
        path = self.path.absolute()
        project = project_of(path)
        assert project is not None  # pytest_collect_file made sure
        cases = _load(self.config, project)
        rel = shown(path.relative_to(project).as_posix())  # as the loader names it
        for case in cases.cases:
            if case.position.file == rel:
                yield CaseItem.from_parent(self, name=case.id, case=case)
        errors = [error for error in cases.errors if error.file == rel]
        if errors:
            yield InputErrorsItem.from_parent(self, name=INPUT_ERRORS, errors=errors)


class CaseFailed(Exception):
    """A case's disagreements or a file's input errors, as ``check`` prints them."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class StaleStatus(Exception):
    """A ``known_disagreement`` whose documented values all agree now: it fails as
    ``check`` fails it, with ``check``'s lines (not a :class:`CaseFailed`, which the
    case's ``xfail`` expects)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class _Reported(pytest.Item):
    """An item whose failure is shown as ``check`` shows it."""

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """The ``check`` lines of a :class:`CaseFailed` or :class:`StaleStatus`;
        pytest's report otherwise."""
        if isinstance(excinfo.value, (CaseFailed, StaleStatus)):
            return "\n".join(excinfo.value.lines)
        return str(super().repr_failure(excinfo, style=style))


def _verified(case: Case) -> tuple[bool, list[str], str | None]:
    """The case run through the engine: whether it is a stale ``known_disagreement``,
    what ``check`` prints for it (its disagreements' lines, or the stale one's) and what
    a report says of its ``status``
    (:func:`generator.commands.check.status_message`)."""
    from generator.commands.check import status_message  # see _load
    from generator.commands.report_formats import case_lines  # see _load
    from generator.verify import verify_case  # see _load

    result = verify_case(case)
    return result.stale, case_lines(result), status_message(result)


def _status_mark(case: Case) -> pytest.MarkDecorator | None:
    """The mark of a case's ``status``: ``skip`` for a ``pending`` case, the reason
    ``check``'s (the case verified for it); ``xfail(strict=True)`` for a
    ``known_disagreement``, the reason its ``because``."""
    from generator.engine.codes import CaseStatus  # see _load

    if case.status == CaseStatus.PENDING:
        _stale, lines, note = _verified(case)
        return pytest.mark.skip(reason="\n".join([note or "", *lines]))
    if case.status == CaseStatus.KNOWN_DISAGREEMENT:
        return pytest.mark.xfail(reason=f"known disagreement: {case.because}", strict=True,
                                 raises=CaseFailed)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Mark a case with a ``status`` (:func:`_status_mark`) before pytest's own setup
    reads the marks: a case is verified for its reason only when it runs (a case left
    out by ``-k`` never is)."""
    if isinstance(item, CaseItem) and item.case.status is not None:
        mark = _status_mark(item.case)
        if mark is not None:
            item.add_marker(mark)


class CaseItem(_Reported):
    """One case: passes when every documented value agrees with the engine. A
    ``pending`` case is skipped, the reason ``check``'s; a ``known_disagreement`` is
    ``xfail(strict=True)``: it fails as ``check`` does once it agrees
    (:func:`pytest_runtest_setup`)."""

    def __init__(self, *, case: Case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        """Run the case through the engine: raises :class:`CaseFailed` on a
        disagreement (that of a ``known_disagreement`` is its expected failure),
        :class:`StaleStatus` for a ``known_disagreement`` that agrees."""
        stale, lines, _note = _verified(self.case)
        if stale:
            raise StaleStatus(lines)
        if lines:
            raise CaseFailed(lines)

    def reportinfo(self) -> tuple[Path, int, str]:
        """Where the case is: its file, its line (0-based, as pytest counts) and id."""
        return self.path, self.case.position.line - 1, f"case {self.case.id}"


class InputErrorsItem(_Reported):
    """A case file's input errors: fails with them (``FILE:LINE:COL: what; expected``)."""

    def __init__(self, *, errors: list[InputError], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.errors = errors

    def runtest(self) -> None:
        """Raises :class:`CaseFailed` with the errors' lines."""
        raise CaseFailed([error.format() for error in self.errors])

    def reportinfo(self) -> tuple[Path, int, str]:
        """The file and the first error's line (0-based)."""
        line = self.errors[0].line - 1 if self.errors else 0
        return self.path, line, "input errors"
