"""The ``check`` command's reports: text lines (docs/site.md format) and the JSON object, of
what loading and verifying the project found (:func:`generator.commands.project.load_project`)."""

from __future__ import annotations

from typing import Any

from generator.commands.project import Project
from generator.errors import InputError
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
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


def disagreement_lines(project: Project) -> list[str]:
    """``FILE:LINE: case ID: FIELD documented X, engine Y`` for every disagreement, each
    followed by the engine's reasoning, indented (in English)."""
    w = Words(source_translator())
    lines: list[str] = []
    for d in project.disagreements:
        pos = d.position
        lines.append(f"{pos.file}:{pos.line}: case {d.case.id}: {d.field} documented "
                     f"{_shown(d.documented)}, engine {_shown(d.engine)}")
        lines.extend(f"    {text}" for text in _reasoning(d, project, w))
    return lines


def json_report(project: Project) -> dict[str, Any]:
    """The ``--format json`` object: ``{"cases", "disagreements", "errors"}`` (docs/site.md)."""
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
            }
            for d in project.disagreements
        ],
        "errors": [
            e.as_dict() for e in sorted(project.errors, key=InputError.sort_key)
        ],
    }
