"""The ``check`` command's reports: text lines (docs/site.md format) and the JSON object, of
what loading and verifying the project found (:func:`generator.commands.project.load_project`)."""

from __future__ import annotations

from typing import Any

from generator.commands.project import Project
from generator.engine.codes import CaseStatus
from generator.errors import InputError
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.verify import STATUS_FIELD
from generator.verify import Disagreement
from generator.verify import explain_disagreement

NONE = "—"
"""How a value the engine does not give is shown."""


def _shown(value: object) -> str:
    """A value as the report shows it: ``—`` for none, a list as YAML writes it
    (``[0, 35]``), booleans as ``true``/``false``."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


def _reasoning(d: Disagreement, project: Project, w: Words) -> list[str]:
    return explain_disagreement(project.results[d.case.id], d, w)


def _status_note(d: Disagreement) -> str:
    """What a case's ``status`` makes of its disagreement, after the report's line: ``""``
    when it fails the check (no status, or a stale ``known_disagreement``)."""
    status = d.case.status
    if status == CaseStatus.PENDING:
        return " (pending: listed, not failing)"
    if status == CaseStatus.KNOWN_DISAGREEMENT and d.field != STATUS_FIELD:
        return f" (known disagreement, not failing: {d.case.because})"
    return ""


def disagreement_lines(project: Project) -> list[str]:
    """``FILE:LINE: case ID: FIELD documented X, engine Y`` for every disagreement a
    report lists (a ``pending`` or ``known_disagreement`` case's marked as not failing),
    each followed by the engine's reasoning, indented (in English)."""
    w = Words(source_translator())
    lines: list[str] = []
    for d in project.reported:
        pos = d.position
        lines.append(f"{pos.file}:{pos.line}: case {d.case.id}: {d.field} documented "
                     f"{_shown(d.documented)}, engine {_shown(d.engine)}{_status_note(d)}")
        lines.extend(f"    {text}" for text in _reasoning(d, project, w))
    return lines


def warning_lines(project: Project) -> list[str]:
    """``FILE:LINE: warning: message`` for every warning (docs/site.md, "Warnings"), by
    file and line, after the errors and disagreements of a report."""
    return [w.format() for w in project.warnings]


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def summary_line(project: Project) -> str:
    """``130 cases checked: 1 disagreement, 0 input errors``, then ``, 1 warning`` when
    there are warnings and, when any case has a ``status``, ``; 2 pending, 1 known
    disagreement``."""
    line = (f"{_plural(len(project.results), 'case')} checked: "
            f"{_plural(len(project.disagreements), 'disagreement')}, "
            f"{_plural(len(project.errors), 'input error')}")
    if project.warnings:
        line += f", {_plural(len(project.warnings), 'warning')}"
    counts = project.status_counts()
    if any(counts.values()):
        line += (f"; {counts[CaseStatus.PENDING]} pending, "
                 f"{_plural(counts[CaseStatus.KNOWN_DISAGREEMENT], 'known disagreement')}")
    return line


def json_report(project: Project) -> dict[str, Any]:
    """The ``--format json`` object: ``{"cases", "disagreements", "errors", "status",
    "warnings"}`` (docs/site.md): every disagreement a report lists with its case's
    ``"status"`` (``null``, ``"pending"``, ``"known_disagreement"``) and whether it is
    ``"failing"``; ``"status"``: how many cases have each status; ``"warnings"``: each
    warning's ``{"file", "line", "message"}``."""
    w = Words(source_translator())
    return {
        "cases": len(project.results),
        "disagreements": [
            {
                "file": d.position.file,
                "line": d.position.line,
                "case": d.case.id,
                "field": d.field,
                "documented": d.documented,
                "engine": d.engine,
                "reasoning": _reasoning(d, project, w),
                "status": d.case.status,
                "failing": d.failing,
            }
            for d in project.reported
        ],
        "errors": [
            e.as_dict() for e in sorted(project.errors, key=InputError.sort_key)
        ],
        "status": project.status_counts(),
        "warnings": [w.as_dict() for w in project.warnings],
    }
