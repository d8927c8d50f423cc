"""The ``check`` command's reports: text lines (docs/site.md format) and the JSON object, of
what loading and verifying the project found (:func:`generator.commands.project.load_project`),
and what ``--strict`` adds to them (:func:`untranslated`).

``check`` renders nothing, so ``check --strict`` cannot see every message a build shows
in English: it counts the site's own messages, those ``i18n extract`` writes to the
site's catalog and a build without ``--drafts`` looks up (the published pages' blocks,
the titles, notes and ``because`` of the verified cases those pages show, the texts of
``site.yaml``), in every language of the site, each looked up as the build does (the
site's catalog over the built-in one). The theme's and the engine's words, which only
rendering picks, are ``build --strict``'s to count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from generator.commands.project import Project
from generator.content.drafts import Publication
from generator.engine.codes import CaseStatus
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import InputWarning
from generator.errors import quoted
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Key
from generator.i18n.catalog import source_translator
from generator.i18n.coverage import Coverage
from generator.i18n.explain import Words
from generator.layout import catalog
from generator.render.site import strict_lines
from generator.verify import STATUS_FIELD
from generator.verify import CaseResult
from generator.verify import Disagreement
from generator.verify import explain_disagreement

NONE = "—"
"""How a value the engine does not give is shown."""

PENDING_NOTE = " (pending: listed, not failing)"
"""What ends the report's line of a ``pending`` case's disagreement."""
KNOWN_NOTE = " (known disagreement, not failing: "
"""What follows the values on the report's line of a ``known_disagreement`` case that
still disagrees; its ``because`` and ``)`` end the line."""
STALE_TEXT = (" is marked as a known disagreement, but the engine now agrees: remove status "
              "and because")
"""What follows ``case ID`` on the report's line of a ``known_disagreement`` that agrees
now (:func:`stale_message`)."""
_DISAGREEMENT_LINE = re.compile(r"[^\n]+?:[0-9]+: case (?:[^\s:]+: \S+ documented |\S+"
                                + re.escape(STALE_TEXT) + r"\Z)")


def shown_value(value: object) -> str:
    """A documented or engine value as the report shows it: ``—`` for none, a list as YAML writes it
    (``[0, 35]``), booleans as ``true``/``false``."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(shown_value(v) for v in value) + "]"
    return str(value)


def _reasoning(d: Disagreement, project: Project, w: Words) -> list[str]:
    return explain_disagreement(project.results[d.case.id], d, w)


def _status_note(d: Disagreement) -> str:
    """What a case's ``status`` makes of its disagreement, after the report's line: ``""``
    when it fails the check (no status, or a stale ``known_disagreement``)."""
    status = d.case.status
    if status == CaseStatus.PENDING:
        return PENDING_NOTE
    if status == CaseStatus.KNOWN_DISAGREEMENT and d.field != STATUS_FIELD:
        return f"{KNOWN_NOTE}{d.case.because})"
    return ""


def stale_message(case_id: str) -> str:
    """What a report says of a ``known_disagreement`` whose documented values all agree
    with the engine now (docs/site.md, "Reports")."""
    return f"case {case_id}{STALE_TEXT}"


def disagreement_message(d: Disagreement) -> str:
    """One disagreement as every report form words it, without its ``FILE:LINE:``:
    ``case ID: FIELD documented X, engine Y`` (a ``pending`` or ``known_disagreement``
    case's marked as not failing), or for a stale ``known_disagreement``
    :func:`stale_message`."""
    if d.field == STATUS_FIELD:
        return stale_message(d.case.id)
    return (f"case {d.case.id}: {d.field} documented {shown_value(d.documented)}, "
            f"engine {shown_value(d.engine)}{_status_note(d)}")


def status_message(result: CaseResult) -> str | None:
    """What a report says of a case whose ``status`` keeps it from failing, for the forms
    that report a case as a whole (a JUnit ``<skipped>``, a pytest skip or xfail, a
    GitHub notice): ``case ID is pending: being written, not failing`` (``case ID is
    pending, and every documented value agrees with the engine: remove status once it
    is written`` when nothing disagrees), ``case ID is a known disagreement, not
    failing: BECAUSE``; ``None`` for a case without a status and a stale
    ``known_disagreement`` (which fails)."""
    case = result.case
    if case.status == CaseStatus.PENDING:
        if not result.disagreements:
            return (f"case {case.id} is pending, and every documented value agrees with "
                    "the engine: remove status once it is written")
        return f"case {case.id} is pending: being written, not failing"
    if case.status == CaseStatus.KNOWN_DISAGREEMENT and not result.stale:
        return f"case {case.id} is a known disagreement, not failing: {case.because}"
    return None


def is_disagreement_line(line: str) -> bool:
    """Whether ``line`` is a report's line of a disagreement (:func:`disagreement_lines`:
    ``FILE:LINE: case ID: FIELD documented X, engine Y``, or a stale
    ``known_disagreement``'s ``FILE:LINE:`` and :func:`stale_message`), failing or not."""
    return _DISAGREEMENT_LINE.match(line) is not None


def is_status_line(line: str) -> bool:
    """Whether ``line`` is the report's line of a disagreement that its case's ``status``
    lists without failing (a ``pending`` case's, a ``known_disagreement`` still
    disagreeing: docs/site.md, "Case status")."""
    if not is_disagreement_line(line):
        return False
    return line.endswith(PENDING_NOTE) or (KNOWN_NOTE in line and line.endswith(")"))


def disagreement_lines(project: Project) -> list[str]:
    """``FILE:LINE: case ID: FIELD documented X, engine Y`` (:func:`disagreement_message`)
    for every disagreement a report lists, each followed by the engine's reasoning,
    indented (in English)."""
    w = Words(source_translator())
    lines: list[str] = []
    for d in project.reported:
        pos = d.position
        lines.append(f"{pos.file}:{pos.line}: {disagreement_message(d)}")
        lines.extend(f"    {text}" for text in _reasoning(d, project, w))
    return lines


def warning_lines(project: Project) -> list[str]:
    """``FILE:LINE: warning: message`` for every warning (docs/site.md, "Warnings"), by
    file and line, after the errors and disagreements of a report."""
    return [w.format() for w in project.warnings]


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class Strict:
    """What ``check --strict`` finds besides disagreements (module docstring).

    Attributes:
        coverage: by locale (English left out), the site's own messages it uses and
            those shown in English (untranslated, empty or fuzzy), each with the
            ``.po`` line to fix (:class:`generator.i18n.coverage.Coverage`).
        warnings: the project's warnings.
    """

    coverage: dict[str, Coverage]
    warnings: tuple[InputWarning, ...]

    @property
    def untranslated(self) -> int:
        """How many (locale, message) pairs are shown in English."""
        return sum(c.untranslated for c in self.coverage.values())

    def failing(self) -> bool:
        """Whether it fails the check (exit 1): a message shown in English, a warning."""
        return bool(self.untranslated or self.warnings)

    def lines(self) -> list[str]:
        """The untranslated messages as ``build --strict`` names them: one line per
        message at the ``.po`` line to fix, at most 20 per locale
        (:func:`generator.render.site.strict_lines`)."""
        return [line for loc, c in self.coverage.items() if c.untranslated
                for line in strict_lines(loc, c)]

    def warnings_of_untranslated(self) -> list[InputWarning]:
        """Every untranslated message as a finding at the ``.po`` line to fix (for
        ``--format json``'s ``"warnings"``)."""
        return [InputWarning(catalog(loc), line or 1, f"{what} of {quoted(msgid)} "
                             "(--strict); expected it translated")
                for loc, c in self.coverage.items() for msgid, line, what in c.missing]


def site_messages(project: Project) -> set[Key]:
    """The site's own messages a build of ``project`` without ``--drafts`` looks up: the
    blocks of every page it publishes (title and summary too), the titles, notes and
    ``because`` of the verified cases whose rows those pages show, and the texts of
    ``site.yaml`` (its title and description, defaults included). A draft page, a draft
    case's row and a case no published page shows are not rendered
    (:class:`generator.content.drafts.Publication`): their messages do not count."""
    published = Publication.of(project.pages, project.cases.cases, drafts=False)
    keys: set[Key] = {(None, m.msgid) for page in published.pages for m in page.messages}
    shown = {case_id for page in published.pages for fence in page.fences
             if fence.info == "cases" for case_id in published.shown(fence.case_ids)}
    for case in project.results.cases():
        if case.id in shown:
            keys.update((None, text) for text in (case.title, case.note, case.because)
                        if text)
    config = project.config
    keys.update((None, text.msgid) for text in config.messages())
    keys.update((None, text) for text in (config.title_msgid, config.description_msgid)
                if text)
    return keys


def untranslated(project: Project) -> Strict:
    """What ``check --strict`` fails on: each locale's site messages
    (:func:`site_messages`) that fall back to English, and the project's warnings."""
    keys = site_messages(project)
    coverage: dict[str, Coverage] = {}
    for loc in project.locales:
        translator = project.translators.get(loc)
        if loc == SOURCE_LOCALE or translator is None:
            continue
        missing = tuple(sorted(
            ((msgid, *translator.unused.get((ctx, msgid), (0, "missing translation")))
             for ctx, msgid in keys if (ctx, msgid) not in translator.messages),
            key=lambda m: (m[1] == 0, m[1], m[0])))
        coverage[loc] = Coverage(len(keys), len(missing), missing)
    return Strict(coverage, tuple(project.warnings))


def exit_code(project: Project, strict: Strict | None) -> int:
    """The check's exit status: the project's (2 with an input error, 1 with a failing
    disagreement), else 1 when ``strict`` (``--strict``'s findings) fails, else 0."""
    if project.exit_code != EXIT_OK:
        return project.exit_code
    return EXIT_DISAGREE if strict is not None and strict.failing() else EXIT_OK


def summary_line(project: Project, strict: Strict | None = None, *,
                 fixable: bool = False) -> str:
    """``130 cases checked: 1 disagreement, 0 input errors``, and when any case has a
    ``status``: ``; 2 pending, 1 known disagreement``; with ``--strict`` (``strict``),
    ``; 3 untranslated or fuzzy (--strict)``; with warnings, ``, 1 warning`` after the
    input errors; last, when ``fixable`` (``check --fix`` would settle every failing
    disagreement: :func:`generator.commands.fix.settles_all`), ``; check --fix would
    settle the 2 disagreements`` (``the disagreement`` for one)."""
    line = (f"{_plural(len(project.results), 'case')} checked: "
            f"{_plural(len(project.disagreements), 'disagreement')}, "
            f"{_plural(len(project.errors), 'input error')}")
    if project.warnings:
        line += f", {_plural(len(project.warnings), 'warning')}"
    counts = project.status_counts()
    if any(counts.values()):
        line += (f"; {counts[CaseStatus.PENDING]} pending, "
                 f"{_plural(counts[CaseStatus.KNOWN_DISAGREEMENT], 'known disagreement')}")
    if strict is not None:
        line += f"; {strict.untranslated} untranslated or fuzzy (--strict)"
    failing = len(project.disagreements)
    if fixable and failing:
        what = "the disagreement" if failing == 1 else f"the {failing} disagreements"
        line += f"; check --fix would settle {what}"
    return line


def json_report(project: Project, strict: Strict | None = None) -> dict[str, Any]:
    """The ``--format json`` object: ``{"cases", "disagreements", "errors", "status",
    "warnings"}`` (docs/site.md): every disagreement a report lists, at its ``"file"``,
    ``"line"`` (the documented field's) and ``"column"`` (its value's), with the text report's
    ``"message"`` (:func:`disagreement_message`), its case's ``"status"`` (``null``,
    ``"pending"``, ``"known_disagreement"``) and whether it is ``"failing"``;
    ``"status"``: how many cases have each status; ``"warnings"``: the project's
    warnings and, with ``--strict`` (``strict``), every message shown in English, each
    ``{"file", "line", "message"}``."""
    w = Words(source_translator())
    return {
        "cases": len(project.results),
        "disagreements": [
            {
                "file": d.position.file,
                "line": d.position.line,
                "column": d.column,
                "case": d.case.id,
                "field": d.field,
                "documented": d.documented,
                "engine": d.engine,
                "reasoning": _reasoning(d, project, w),
                "message": disagreement_message(d),
                "status": d.case.status,
                "failing": d.failing,
            }
            for d in project.reported
        ],
        "errors": [
            e.as_dict() for e in sorted(project.errors, key=InputError.sort_key)
        ],
        "status": project.status_counts(),
        "warnings": [w.as_dict() for w in sorted(
            [*project.warnings, *(strict.warnings_of_untranslated() if strict is not None
                                  else [])], key=InputWarning.sort_key)],
    }


def usage_error_report(errors: list[InputError]) -> dict[str, Any]:
    """The ``--format json`` object of a check that loaded no project (a usage error:
    no project folder, paths with ``--id``): no case, no disagreement, ``errors``."""
    return {"cases": 0, "disagreements": [], "errors": [e.as_dict() for e in errors],
            "status": dict.fromkeys(map(str, CaseStatus), 0), "warnings": []}
