"""``check --fix``: rewrite each disagreeing case's documented values to the engine's, with
exact text edits (:mod:`generator.cases.edit`) that keep every other byte of the file.

What is fixed (docs/site.md, "check --fix"): every disagreement of a case without a
``status`` or with ``status: pending``: the documented value becomes the engine's, and a
field the engine gives no value for (``—``) is removed; when the verdict flips, the
kind's :attr:`~generator.kinds.base.Kind.with_verdict` fields the engine gives are added
(a ``reason`` for a meld now invalid). A stale ``known_disagreement`` (every value agrees
now) loses its ``status`` and ``because``. A ``known_disagreement`` still disagreeing is
left as it is. Nothing is written while the project has an input error, or when a file
changed since it was read; each file is replaced atomically
(:func:`generator.layout.replace_file`), and only after its new text was loaded again
and found to agree.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from generator.cases.edit import CannotEdit
from generator.cases.edit import TextEditor
from generator.cases.loader import load_case_text
from generator.commands.project import Project
from generator.commands.project import load_project
from generator.engine.codes import CaseStatus
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import replace_file
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


def _case_index(doc: YamlDocument, result: CaseResult) -> int | None:
    """The index in ``cases`` of the case, found by where its mapping starts."""
    pos = result.case.position
    cases = doc.value.get("cases") if isinstance(doc.value, dict) else None
    for index in range(len(cases) if isinstance(cases, list) else 0):
        mark = doc.marks.get(("cases", index))
        if mark is not None and (mark.line, mark.column) == (pos.line, pos.column):
            return index
    return None


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


def _targets(project: Project) -> list[CaseResult]:
    """The cases ``--fix`` changes: a disagreeing case without a status or ``pending``,
    and a stale ``known_disagreement``."""
    return [r for r in project.results.values()
            if r.stale or (r.disagreements and r.status != CaseStatus.KNOWN_DISAGREEMENT)]


def fix(root: Path, say: Callable[[str], None]) -> FixReport:
    """Load and verify the project, then fix its case files (module docstring).

    Args:
        root: the project folder.
        say: prints a progress line to standard error.

    Returns:
        A :class:`FixReport`; its ``project`` is the project loaded again after writing.
    """
    project = load_project(root)
    if project.errors:
        return FixReport(EXIT_INPUT, lines=[
            "check --fix: nothing written: the input has errors (fix them first)"],
            project=project)
    by_file: dict[str, list[CaseResult]] = {}
    for result in _targets(project):
        by_file.setdefault(result.case.position.file, []).append(result)
    if not by_file:
        return FixReport(project.exit_code, project=project)
    layout = Layout.of(root)
    report = FixReport(EXIT_DISAGREE)
    planned: list[tuple[str, bytes, str]] = []
    for rel, results in by_file.items():
        try:
            data = layout.read(rel)
        except NotAnInput as exc:
            return FixReport(EXIT_INPUT, lines=[exc.error.format()], project=project)
        if hashlib.sha256(data).hexdigest() != project.cases.digests.get(rel):
            return FixReport(EXIT_INPUT, lines=[
                f"{rel}:1: the file changed since it was read; nothing written (run "
                "check --fix again)"], project=project)
        new = _fix_file(rel, data, results, report)
        if new is not None:
            planned.append((rel, data, new))
    for rel, data, new in planned:
        old = _text(data)
        report.diff.extend(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=f"a/{rel}", tofile=f"b/{rel}"))
    for rel, data, new in planned:
        target = root / rel  # a link: its target is read and replaced (replace_file)
        if target.read_bytes() != data:
            report.lines.append(f"{rel}:1: the file changed since it was read; not written "
                                "(run check --fix again)")
            report.exit_code = EXIT_INPUT
            continue
        replace_file(target, _bytes(new, data))
        report.files.append(rel)
    say(f"fixed {report.fixed} case{'s' if report.fixed != 1 else ''} in "
        f"{len(report.files)} file{'s' if len(report.files) != 1 else ''}")
    report.project = load_project(root)
    if report.exit_code != EXIT_INPUT:
        report.exit_code = report.project.exit_code
    return report


def _text(data: bytes) -> str:
    return data.decode("utf-8").removeprefix("\ufeff")


def _bytes(text: str, original: bytes) -> bytes:
    """``text`` encoded as the original was (with its byte-order mark, if it had one)."""
    bom = "\ufeff".encode() if original.startswith("\ufeff".encode()) else b""
    return bom + text.encode("utf-8")


def _fix_file(rel: str, data: bytes, results: list[CaseResult],
              report: FixReport) -> str | None:
    """The file's new text with its cases fixed, or ``None`` when nothing changes. Every
    case is planned on one editor and checked once; when that fails, case by case, and a
    case that cannot be fixed exactly is left as it was and said in ``report.lines``."""
    text = _text(data)
    doc, _errors = parse_yaml(text, rel)
    if doc is None:
        return None
    located = [(r, i) for r in results if (i := _case_index(doc, r)) is not None]
    editor = TextEditor(text, doc)
    try:
        for result, index in located:
            plan_case(editor, index, result)
        candidate = editor.apply()
    except CannotEdit:
        candidate = None
    if candidate is not None and _agrees(candidate, rel, [r.case.id for r, _ in located]):
        report.fixed += len(located)
        return candidate if candidate != text else None
    new = text
    for result, _index in located:
        reparsed, _errors = parse_yaml(new, rel)
        at = _case_index(reparsed, result) if reparsed is not None else None
        if reparsed is None or at is None:
            continue
        editor = TextEditor(new, reparsed)
        pos = result.case.position
        try:
            plan_case(editor, at, result)
            candidate = editor.apply()
        except CannotEdit as exc:
            report.lines.append(f"{pos.file}:{pos.line}: case {result.case.id}: not fixed: "
                                f"{exc}")
            continue
        if not _agrees(candidate, rel, [result.case.id]):
            report.lines.append(f"{pos.file}:{pos.line}: case {result.case.id}: not fixed: "
                                "the rewritten case would not agree; edit it by hand")
            continue
        new = candidate
        report.fixed += 1
    return new if new != text else None


def _agrees(text: str, rel: str, case_ids: list[str]) -> bool:
    """Whether ``text`` loads without an error and each of its cases ``case_ids`` agrees
    (a ``known_disagreement`` left as it is aside)."""
    cases, _doc = load_case_text(text.encode("utf-8"), rel)
    if cases.errors:
        return False
    for case_id in case_ids:
        case = cases.get(case_id)
        if case is None:
            return False
        result = verify_case(case)
        if result.disagreements or result.stale:
            return False
    return True
