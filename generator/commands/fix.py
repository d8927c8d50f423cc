"""``check --fix``: rewrite each disagreeing case's documented values to the engine's, with
exact text edits (:mod:`generator.cases.edit`) that keep every other byte of the file.

What is fixed (docs/site.md, "check --fix"): every disagreement of a case without a
``status`` or with ``status: pending``: the documented value becomes the engine's, and a
field the engine gives no value for (``—``) is removed; when the verdict flips, the
kind's :attr:`~generator.kinds.base.Kind.with_verdict` fields the engine gives are added
(a ``reason`` for a meld now invalid). A stale ``known_disagreement`` (every value agrees
now) loses its ``status`` and ``because``. A ``known_disagreement`` still disagreeing is
left as it is. Nothing is written while the project has an input error, nor into a file
that changed since it was read; each file is replaced atomically, in its own form (line
ends, byte-order mark, permissions) by :func:`generator.layout.rewrite_file`, and only
after its new text was loaded again and found to agree. The time is linear in the
files' size: each file is parsed once, its edits made in one pass, their diff computed
from the lines they touch (:func:`generator.cases.edit.edit_diff`).

``check --fix --diff`` plans the same rewrites and gives their diff, writing nothing
(``fix(..., write=False)``); ``check --fix PATH...`` and ``--id ID...`` fix only the
cases they name (:class:`generator.commands.project.Selection`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from generator.cases.edit import CannotEdit
from generator.cases.edit import Edit
from generator.cases.edit import TextEditor
from generator.cases.edit import apply_edits
from generator.cases.edit import edit_diff
from generator.cases.edit import in_order
from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.cases.loader import load_case_text
from generator.cases.model import CaseSet
from generator.commands.project import Project
from generator.commands.project import Selection
from generator.commands.project import load_project
from generator.engine.codes import CaseStatus
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.layout import FileChanged
from generator.layout import FileState
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import rewrite_file
from generator.layout import sweep_temporary_copies
from generator.layout import write_failure
from generator.verify import STATUS_FIELD
from generator.verify import CaseResult
from generator.verify import verify_case
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import parse_yaml

_MISSING = object()
"""A value the engine does not give: the documented field is removed."""

VERDICT = "verdict"
"""The ``expect`` field whose flip brings the case's other fields in line."""


@dataclass
class FixReport:
    """What ``check --fix`` did.

    Attributes:
        exit_code: 0 when everything agrees afterwards, 1 when disagreements remain, 2
            when nothing could be written (input errors, a file changed since read).
        diff: the unified diff of every file written (``a/FILE``, ``b/FILE``).
        lines: messages for standard output (why a case or file was not fixed).
        fixed: the number of cases changed.
        files: the files written, relative to the project.
        project: the project as loaded after the fix (``None`` when nothing was fixed).
    """

    exit_code: int
    diff: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    fixed: int = 0
    files: list[str] = field(default_factory=list)
    project: Project | None = None


def _path(where: str) -> YamlPath:
    """``"expect.results.1"`` → ``("expect", "results", 1)``."""
    return tuple(int(p) if p.isdigit() else p for p in where.split("."))


def _lookup(values: Any, path: YamlPath) -> Any:
    """The value at ``path`` within the engine's documented form, or :data:`_MISSING`."""
    for step in path:
        in_mapping = isinstance(values, dict) and isinstance(step, str) and step in values
        in_list = isinstance(values, list) and isinstance(step, int) and step < len(values)
        if not (in_mapping or in_list):
            return _MISSING
        values = values[step]
    return values


def case_indices(doc: YamlDocument) -> dict[tuple[int, int | None], int]:
    """The index in ``cases`` of each case, by where its mapping starts (line, column)."""
    cases = doc.value.get("cases") if isinstance(doc.value, dict) else None
    found: dict[tuple[int, int | None], int] = {}
    for index in range(len(cases) if isinstance(cases, list) else 0):
        mark = doc.marks.get(("cases", index))
        if mark is not None:
            found[(mark.line, mark.column)] = index
    return found


def plan_case(editor: TextEditor, index: int, result: CaseResult) -> int:
    """Plan the edits that bring one case in line with the engine; returns how many
    values change.

    Raises:
        CannotEdit: an edit cannot be made exactly.
    """
    base: YamlPath = ("cases", index)
    case = result.case
    if result.stale:
        for name in (STATUS_FIELD, "because"):
            if (*base, name) in editor.doc.nodes:
                editor.remove((*base, name))
        return 1
    kind = case.spec
    engine = kind.documented(case.inputs, result.engine_result, result.values)
    changed = 0
    flipped = False
    removed: set[YamlPath] = set()
    for mismatch in kind.mismatches(case.expect, result.engine_result, result.values):
        rel = _path(mismatch.where)
        value = _lookup({"expect": engine}, rel)
        flipped = flipped or rel == ("expect", VERDICT)
        if value is _MISSING:
            if not any(rel[:len(r)] == r for r in removed):
                editor.remove((*base, *rel))
                removed.add(rel)
        else:
            editor.replace((*base, *rel), value)
        changed += 1
    if flipped:
        for name in kind.with_verdict:
            if name in kind.expect and name not in case.expect and name in engine:
                editor.add((*base, "expect", name), engine[name])
                changed += 1
    return changed


def is_target(result: CaseResult) -> bool:
    """Whether ``--fix`` changes the case: a disagreeing case without a status or
    ``pending``, or a stale ``known_disagreement``."""
    return result.stale or bool(result.disagreements
                                and result.status != CaseStatus.KNOWN_DISAGREEMENT)


def _targets(project: Project) -> list[CaseResult]:
    """The cases ``--fix`` changes (:func:`is_target`)."""
    return [r for r in project.results.values() if is_target(r)]


@dataclass(frozen=True)
class PlannedFile:
    """A case file ``check --fix`` rewrites.

    Attributes:
        rel: the file, relative to the project.
        state: the file as read (:meth:`generator.layout.Layout.read_state`).
        new: its new text (without a byte-order mark: :func:`rewrite_file` keeps one).
        diff: the unified diff of the change (``a/FILE``, ``b/FILE``).
        fixed: the cases it fixes.
    """

    rel: str
    state: FileState
    new: str
    diff: list[str]
    fixed: int


def plan_fix(project: Project, root: Path, lines: list[str],
             results: list[CaseResult] | None = None) -> list[PlannedFile] | FixReport:
    """The rewrites that fix the cases of ``project`` (loaded and verified, without an
    input error), nothing written: each case file to change, read again and found as
    the project was loaded from it, with its new text and diff. Time linear in the case
    files' size.

    Args:
        project: the project as loaded.
        root: its folder.
        lines: receives a line for each case that cannot be fixed, and why.
        results: the cases to fix (default: every case ``--fix`` changes,
            :func:`is_target`).

    Returns:
        The files to rewrite, or a :class:`FixReport` (exit 2) when a file cannot be
        read or changed since the project was loaded.
    """
    by_file: dict[str, list[CaseResult]] = {}
    for result in _targets(project) if results is None else results:
        by_file.setdefault(result.case.position.file, []).append(result)
    layout = Layout.of(root)
    planned: list[PlannedFile] = []
    for rel, results in by_file.items():
        try:  # a link: its target is read, and replaced (rewrite_file)
            state = layout.read_state(rel, limit=MAX_CASE_FILE_BYTES, what="case file")
        except NotAnInput as exc:
            return FixReport(EXIT_INPUT, lines=[exc.error.format()], project=project)
        assert state.data is not None  # (read_state reads a file that is there)
        if state.digest != project.cases.digests.get(rel):
            return FixReport(EXIT_INPUT, lines=[_changed(rel)], project=project)
        fixed = _fix_file(rel, state.data, results, lines)
        if fixed is not None:
            text, edits, count = fixed
            planned.append(PlannedFile(rel, state, apply_edits(text, edits), edit_diff(
                text, edits, f"a/{rel}", f"b/{rel}"), count))
    return planned


def settles_all(project: Project) -> bool:
    """Whether ``check --fix`` would settle every disagreement that fails the check of
    ``project`` (loaded and verified): it has no input error, at least one failing
    disagreement, and the rewrites of the failing cases plan exactly and agree once made
    (:func:`plan_fix`, nothing written); ``False`` as soon as one of them cannot be
    fixed (a value reached through an alias, a file changed since it was read, ...).
    Reads and plans the files of the failing cases only."""
    failing = [r for r in project.results.verified() if r.failing]
    if project.errors or not failing or not all(is_target(r) for r in failing):
        return False
    lines: list[str] = []
    planned = plan_fix(project, project.root, lines, failing)
    return (not isinstance(planned, FixReport) and not lines
            and sum(p.fixed for p in planned) == len(failing))


def fix(root: Path, say: Callable[[str], None], *, selection: Selection | None = None,
        write: bool = True) -> FixReport:
    """Load and verify the project, then fix its case files (module docstring).

    Every file is read and planned before any is written (:func:`plan_fix`); then each
    is written with :func:`generator.layout.rewrite_file`, which writes nothing into a
    file that changed since it was read: that file is named and the others are written.
    A file that cannot be written (a full disk) stops the writing, and the line says
    which files were written before it and which were not. The diff holds the files
    written.

    Args:
        root: the project folder.
        say: prints a progress line to standard error.
        selection: the cases to fix (``check --fix PATH...``, ``--id ID...``; default
            every case); the others are neither verified nor changed.
        write: ``False`` (``check --fix --diff``): plan the same rewrites and give their
            diff, writing nothing; the exit code is then the check's of the files as
            they are.

    Returns:
        A :class:`FixReport`; its ``project`` is the project loaded again after writing
        (as loaded, when nothing was written).
    """
    project = load_project(root, selection=selection)
    if project.errors:
        what = "nothing written" if write else "no diff"
        return FixReport(EXIT_INPUT, lines=[
            f"check --fix: {what}: the input has errors (fix them first)"],
            project=project)
    if write:
        _sweep(project, root)
    if not _targets(project):
        return FixReport(project.exit_code, project=project)
    report = FixReport(EXIT_DISAGREE)
    planned = plan_fix(project, root, report.lines)
    if isinstance(planned, FixReport):
        return planned
    if not write:
        return _diff_only(project, planned, report, say)
    _write_planned(planned, report)
    say(f"fixed {_cases_in_files(report.fixed, len(report.files))}")
    report.project = load_project(root, selection=selection)
    if report.exit_code != EXIT_INPUT:
        report.exit_code = report.project.exit_code
    return report


def _sweep(project: Project, root: Path) -> None:
    """Remove the temporary copies a killed ``check --fix`` left beside the project's
    case files (:func:`generator.layout.sweep_temporary_copies`), whatever it fixes
    now."""
    layout = Layout.of(root)
    for folder in sorted({Path(os.path.realpath(layout.path(rel))).parent
                          for rel in project.cases.files}):
        sweep_temporary_copies(folder)


def _diff_only(project: Project, planned: list[PlannedFile], report: FixReport,
               say: Callable[[str], None]) -> FixReport:
    """``check --fix --diff``: ``report`` with the diff of every planned file, nothing
    written; its exit code the check's of the files as they are."""
    for plan in planned:
        report.files.append(plan.rel)
        report.diff.extend(plan.diff)
        report.fixed += plan.fixed
    say(f"--diff: {_cases_in_files(report.fixed, len(report.files))} would be fixed; "
        "nothing written")
    report.project = project
    report.exit_code = project.exit_code
    return report


def _write_planned(planned: list[PlannedFile], report: FixReport) -> None:
    """Write each planned file through the safe writer, adding what was written to
    ``report``: a file changed since it was read is named and skipped; a file that
    cannot be written stops the writing (the line names the files written before it and
    those not written). Either sets the exit code 2."""
    for at, plan in enumerate(planned):
        try:
            rewrite_file(plan.state, plan.new)
        except FileChanged:
            report.lines.append(_changed(plan.rel))
            report.exit_code = EXIT_INPUT
            continue
        except OSError as exc:
            report.lines.append(write_failure(plan.rel, exc, report.files,
                                              [p.rel for p in planned[at + 1:]]))
            report.exit_code = EXIT_INPUT
            break
        report.files.append(plan.rel)
        report.diff.extend(plan.diff)
        report.fixed += plan.fixed


def _cases_in_files(cases: int, files: int) -> str:
    """``3 cases in 2 files``."""
    return f"{cases} case{'s' if cases != 1 else ''} in {files} file{'s' if files != 1 else ''}"


def _changed(rel: str) -> str:
    """The line for a case file that changed since ``check --fix`` read it."""
    return f"{rel}:1: the file changed since it was read; nothing written to it (run " \
        "check --fix again)"


def _text(data: bytes) -> str:
    """A case file's text, without its byte-order mark (:func:`rewrite_file` writes it
    back)."""
    return data.decode("utf-8").removeprefix("\ufeff")


def _fix_file(rel: str, data: bytes, results: list[CaseResult], lines: list[str]
              ) -> tuple[str, list[Edit], int] | None:
    """The edits that fix the file's cases: ``(text, edits, cases fixed)``, or ``None``
    when nothing changes. A case that cannot be fixed exactly is left as it was and
    said in ``lines``: one whose edits cannot be made, one that would not agree
    afterwards, one whose edits would break the file (found by halving the cases
    planned). Each round loads the file's new text once: the time is linear in the file
    for every case that can be fixed."""
    text = _text(data)
    doc, _errors = parse_yaml(text, rel)
    if doc is None:
        return None
    indices = case_indices(doc)
    editor = TextEditor(text, doc)
    planned: list[tuple[CaseResult, list[Edit]]] = []
    for result in results:
        pos = result.case.position
        index = indices.get((pos.line, pos.column))
        if index is None:
            continue
        before = len(editor.edits)
        try:
            plan_case(editor, index, result)
            in_order(editor.edits[before:])  # (raises for edits that overlap)
        except CannotEdit as exc:
            del editor.edits[before:]
            lines.append(_not_fixed(result, str(exc)))
            continue
        planned.append((result, editor.edits[before:]))
    while planned:
        failing = _failing(text, rel, planned)
        if failing is None:
            break
        result, why = failing
        lines.append(_not_fixed(result, why))
        planned = [(r, edits) for r, edits in planned if r is not result]
    edits = [edit for _result, case_edits in planned for edit in case_edits]
    if not edits:
        return None
    return text, edits, len(planned)


def _not_fixed(result: CaseResult, why: str) -> str:
    pos = result.case.position
    return f"{pos.file}:{pos.line}: case {result.case.id}: not fixed: {why}"


def _failing(text: str, rel: str, planned: list[tuple[CaseResult, list[Edit]]]
             ) -> tuple[CaseResult, str] | None:
    """A planned case whose edits do not give what they should, and why; ``None`` when
    the text with every planned edit loads without an error and each case agrees.
    Where the text does not load, the first case whose edits break it is found by
    halving: the planned cases before it load."""
    loaded = _load(text, rel, planned)
    if loaded is not None:
        for result, _edits in planned:
            case = loaded.get(result.case.id)
            verified = verify_case(case) if case is not None else None
            if verified is None or verified.disagreements or verified.stale:
                return result, "the rewritten case would not agree; edit it by hand"
        return None
    good, bad = 0, len(planned)  # the first `good` load; the first `bad` do not
    while bad - good > 1:
        middle = (good + bad) // 2
        if _load(text, rel, planned[:middle]) is None:
            bad = middle
        else:
            good = middle
    return planned[bad - 1][0], "the rewritten file would not load; edit the case by hand"


def _load(text: str, rel: str, planned: list[tuple[CaseResult, list[Edit]]]
          ) -> CaseSet | None:
    """The cases of ``text`` with the planned edits made, or ``None`` when it does not
    load without an error."""
    edits = [edit for _result, case_edits in planned for edit in case_edits]
    cases, _doc = load_case_text(apply_edits(text, edits).encode("utf-8"), rel)
    return None if cases.errors else cases
