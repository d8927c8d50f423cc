"""``check``'s report in each ``--format``: ``text`` and ``json`` as ``check`` prints them,
and ``github`` and ``junit``, its findings for CI systems.

- ``github``: one GitHub Actions workflow command per finding,
  ``::error file=F,line=L,col=C,title=T::message`` (docs.github.com, "Workflow commands
  for GitHub Actions", *Setting an error message*), so a pull request shows each
  disagreement and input error on its line; a case whose ``status`` keeps it from
  failing is a ``::notice``. Escaping follows the Actions toolkit
  (``@actions/core``, ``command.ts``): in the message ``%``, CR and LF become ``%25``,
  ``%0D``, ``%0A``; in a property value ``:`` and ``,`` also become ``%3A``, ``%2C``.
- ``junit``: JUnit XML (the Ant/Surefire form GitLab, Jenkins, Azure and most CI servers
  read): ``<testsuites>`` with one ``<testsuite>`` per case file, one ``<testcase>`` per
  case (a ``<failure>`` per disagreement, ``<skipped>`` for a ``pending`` case or a
  known disagreement), and every input error as a ``<testcase>`` with
  an ``<error>`` in the testsuite of its file. Written with :mod:`xml.etree.ElementTree`;
  no timestamps or durations, so the same input gives the same bytes.

The CI formats report what ``check`` reports in text (the same ``FILE:LINE`` lines and
reasoning, :func:`generator.commands.check.disagreement_lines`); the exit status is the
check's. Each format's writer is registered by name in :data:`FORMATS`, a function of the
check's :class:`Findings` that returns the report's bytes.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path

from generator.cases.model import Case
from generator.cases.model import CaseSet
from generator.commands.check import Strict
from generator.commands.check import disagreement_lines
from generator.commands.check import json_report
from generator.commands.check import status_message
from generator.commands.check import untranslated
from generator.commands.check import usage_error_report
from generator.commands.check import warning_lines
from generator.commands.project import Project
from generator.commands.project import format_errors
from generator.commands.second_engine import Difference
from generator.commands.second_engine import SecondOpinion
from generator.errors import InputError
from generator.verify import STATUS_FIELD
from generator.verify import CaseResult
from generator.verify import Disagreement
from generator.verify import Results

SUITES_NAME = "rules-site check"
"""The ``name`` of the JUnit ``<testsuites>``."""

COUNTS = ("tests", "failures", "errors", "skipped")
"""What each JUnit ``<testsuite>`` and the ``<testsuites>`` count."""


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(command: str, message: str, **properties: str | int | None) -> str:
    """One GitHub Actions workflow command line, escaped as the Actions toolkit does.

    Args:
        command: ``error``, ``warning`` or ``notice``.
        message: the text (may hold newlines: GitHub shows them).
        properties: ``file``, ``line``, ``col``, ``title``, ...; ``None`` values are left out.

    Returns:
        ``::command prop=value,...::message``, one line.
    """
    props = ",".join(f"{name}={_escape_property(str(value))}"
                     for name, value in properties.items() if value is not None)
    return f"::{command}{' ' + props if props else ''}::{_escape_data(message)}"


def _in_repository(file: str, prefix: str) -> str:
    """``file`` (relative to the project) relative to the working folder (GitHub
    resolves annotation paths from the repository's root, where the workflow runs)."""
    return file if prefix in ("", ".") else f"{prefix.rstrip('/')}/{file}"


def case_lines(result: CaseResult) -> list[str]:
    """What ``check`` prints for the disagreements of one case's ``result``: for each,
    its ``FILE:LINE: case ID: FIELD documented X, engine Y`` line, then the engine's
    reasoning, indented (:func:`generator.commands.check.disagreement_lines`)."""
    one = Project(Path("."), CaseSet(), [], [], {}, Results.of([result]))
    return disagreement_lines(one)


def _text_of(d: Disagreement, result: CaseResult) -> list[str]:
    """What ``check`` prints for the disagreement ``d`` of ``result`` alone."""
    return case_lines(replace(result, disagreements=(d,)))


def _message(d: Disagreement, text: list[str]) -> str:
    """``case ID: FIELD documented X, engine Y`` and the reasoning, one per line (the
    file and line are the annotation's own)."""
    where = f"{d.position.file}:{d.position.line}: "
    return "\n".join([text[0].removeprefix(where), *(line.strip() for line in text[1:])])


def _title(d: Disagreement) -> str:
    """The GitHub title or JUnit type of a disagreement that fails the check:
    ``disagreement``, or ``stale status`` for a ``known_disagreement`` that agrees now."""
    return STALE if d.field == STATUS_FIELD else "disagreement"


STALE = "stale status"
"""The GitHub title and JUnit type of a stale ``known_disagreement``."""


def github_lines(project: Project, prefix: str = "") -> list[str]:
    """The ``--format github`` report: an ``::error`` per input error and failing
    disagreement, a ``::notice`` per case whose ``status`` keeps it from failing.

    Args:
        project: the loaded and verified project.
        prefix: the project folder relative to the working folder (``--project``), put
            before each file so that GitHub finds it from the repository's root.

    Returns:
        One workflow command per finding: input errors first (by file, line, column),
        then the cases in case-file order: an ``::error`` per failing disagreement
        (``title=disagreement``; ``title=stale status`` for a ``known_disagreement``
        that agrees now), a ``::notice`` per disagreement of a ``pending`` or
        ``known_disagreement`` case (``title=pending``, ``title=known disagreement``),
        and one at the ``status`` of a ``pending`` case that agrees.
    """
    lines = [error_command(e, prefix) for e in sorted(project.errors, key=InputError.sort_key)]
    for result in project.results.verified():
        case = result.case
        for d in result.reported:
            text = _text_of(d, result)
            failing = d.failing
            lines.append(workflow_command(
                "error" if failing else "notice", _message(d, text),
                file=_in_repository(d.position.file, prefix),
                line=d.position.line, col=d.position.column,
                title=_title(d) if failing else _status_title(case)))
        note = status_message(result)
        if note is not None and not result.reported:
            where = case.position_of(STATUS_FIELD)
            lines.append(workflow_command(
                "notice", note, file=_in_repository(where.file, prefix), line=where.line,
                col=where.column, title=_status_title(case)))
    return lines


def _status_title(case: Case) -> str:
    """``pending`` or ``known disagreement``: the GitHub title of a notice of a case with
    that ``status``."""
    return str(case.status).replace("_", " ")


def error_command(error: InputError, prefix: str = "") -> str:
    """One input error as an ``::error`` workflow command (``title=input error``)."""
    return workflow_command("error", error.message, file=_in_repository(error.file, prefix),
                            line=error.line, col=error.column, title="input error")


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold at all (control characters, lone surrogates)."""


def _xml(text: str) -> str:
    """``text`` with each character XML cannot hold written as an escape (``\\x01``)."""
    return _NOT_XML.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def junit_xml(results: Iterable[CaseResult], errors: Iterable[InputError],
              differences: Iterable[Difference] = ()) -> bytes:
    """The ``--format junit`` report: JUnit XML, UTF-8, with an XML declaration.

    Args:
        results: the engine's result of every case (``Project.results.values()``).
        errors: every input error.
        differences: the second engine's differences (``check --engine-cmd``), each a
            ``<failure type="second engine">`` in its case's ``<testcase>``.

    Returns:
        ``<testsuites name tests failures errors>``: a ``<testsuite>`` per file (sorted),
        each case a ``<testcase classname=FILE name=CASE-ID file line>`` with a
        ``<failure type="disagreement" message=... line column>`` per failing
        disagreement (its text what ``check`` prints; ``type="stale status"`` for a
        ``known_disagreement`` that agrees now), a ``<skipped message=...>`` in a case
        whose ``status`` keeps it from failing (its text the disagreements ``check``
        lists), each input error a ``<testcase name=FILE:LINE:COL>`` holding an
        ``<error type="input error" message=...>``, in the suite of its file; each
        ``<testsuite>`` and the ``<testsuites>`` count ``tests``, ``failures``,
        ``errors`` and ``skipped``.
    """
    by_file: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        by_file[result.case.position.file].append(result)
    errors_by_file: dict[str, list[InputError]] = defaultdict(list)
    for error in sorted(errors, key=InputError.sort_key):
        errors_by_file[error.file].append(error)
    second: dict[str, list[Difference]] = defaultdict(list)
    for difference in differences:
        second[difference.case.id].append(difference)
    root = ET.Element("testsuites", {"name": SUITES_NAME})
    totals = dict.fromkeys(COUNTS, 0)
    for file in sorted({*by_file, *errors_by_file}):
        counts = _testsuite(root, file, by_file.get(file, []), errors_by_file.get(file, []),
                            second)
        for key, value in counts.items():
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def _testsuite(root: ET.Element, file: str, results: list[CaseResult],
               errors: list[InputError],
               second: Mapping[str, list[Difference]]) -> dict[str, int]:
    """The ``<testsuite>`` of one file in ``root``: a ``<testcase>`` per case of
    ``results`` (with the ``second`` engine's differences, by case id), then one per
    input error of ``errors``; returns its counts."""
    suite = ET.SubElement(root, "testsuite", {"name": _xml(file)})
    counts = dict.fromkeys(COUNTS, 0)
    for result in results:
        testcase = ET.SubElement(suite, "testcase", {
            "classname": _xml(file), "name": result.case.id, "file": _xml(file),
            "line": str(result.case.position.line)})
        counts["tests"] += 1
        for d in result.failing:  # a status keeps the others from failing (exit 0)
            _failure(testcase, d, result)
        for difference in second.get(result.case.id, ()):
            failure = ET.SubElement(testcase, "failure", {
                "type": "second engine", "message": _xml(difference.message),
                "line": str(difference.position.line),
                **({"column": str(difference.column)} if difference.column is not None
                   else {})})
            failure.text = _xml("\n".join([f"{difference.position.file}:"
                                           f"{difference.position.line}: "
                                           f"{difference.message}", *difference.reasoning]))
        counts["skipped"] += _skipped(testcase, result)
        counts["failures"] += bool(result.failing) or result.case.id in second
    for error in errors:
        _error(suite, file, error)
        counts["tests"] += 1
        counts["errors"] += 1
    for key, value in counts.items():
        suite.set(key, str(value))
    return counts


def _failure(testcase: ET.Element, d: Disagreement, result: CaseResult) -> None:
    """A ``<failure>`` in ``testcase`` for the failing disagreement ``d``: its text what
    ``check`` prints for it."""
    text = _text_of(d, result)
    failure = ET.SubElement(testcase, "failure", {
        "type": _title(d), "message": _xml(_message(d, text[:1])),
        "line": str(d.position.line),
        **({"column": str(d.column)} if d.column is not None else {})})
    failure.text = _xml("\n".join(text))


def _skipped(testcase: ET.Element, result: CaseResult) -> bool:
    """A ``<skipped>`` in ``testcase`` where the case's ``status`` keeps it from failing,
    listing its disagreements as ``check`` lists them; whether there is one."""
    note = status_message(result)
    if note is None:
        return False
    skipped = ET.SubElement(testcase, "skipped", {"message": _xml(note)})
    if result.reported:
        skipped.text = _xml("\n".join(line for d in result.reported
                                       for line in _text_of(d, result)))
    return True


def _error(suite: ET.Element, file: str, error: InputError) -> None:
    """A ``<testcase name=FILE:LINE:COL>`` in ``suite`` holding the input error
    ``error`` as an ``<error type="input error">``."""
    where = error.format().removesuffix(f": {error.message}")
    testcase = ET.SubElement(suite, "testcase", {
        "classname": _xml(file), "name": _xml(where), "file": _xml(file),
        "line": str(error.line)})
    ET.SubElement(testcase, "error", {"type": "input error", "message": _xml(error.message)}
                  ).text = _xml(error.format())


@dataclass(frozen=True)
class Findings:
    """What ``check`` found, for its report in any format (:data:`FORMATS`).

    Attributes:
        project: the loaded and verified project; ``None`` when none was loaded (a
            usage error).
        errors: the input errors: the project's, or the usage error.
        strict: ``--strict``'s findings, or ``None``.
        aside: the warnings and ``--strict``'s lines (after the text report; on standard
            error with the CI formats, which have no place for them).
        prefix: the project folder relative to the working folder (GitHub finds the
            files from the repository's root).
    """

    project: Project | None
    errors: list[InputError]
    strict: Strict | None
    aside: list[str]
    prefix: str
    second: SecondOpinion | None = None

    @classmethod
    def of(cls, project: Project | None, missing: InputError | None, strict: bool,
           prefix: str, second: SecondOpinion | None = None) -> Findings:
        """The findings of ``project`` (``None``, with the usage error ``missing``);
        ``strict``: ``--strict`` given (its findings only for a project without input
        errors); ``second``: the second engine's opinion (``check --engine-cmd``)."""
        errors = [missing] if missing is not None else project.errors if project else []
        found = untranslated(project) if project and strict and not project.errors else None
        aside = [*warning_lines(project), *(found.lines() if found else [])] if project \
            else []
        return cls(project, errors, found, aside, prefix, second)


def _lines(lines: Iterable[str]) -> bytes:
    return "".join(f"{line}\n" for line in lines).encode("utf-8")


def text_report(findings: Findings) -> bytes:
    """``--format text``: the input errors, the disagreements with their reasoning, then
    the warnings and ``--strict``'s lines, as ``check`` prints them."""
    project = findings.project
    second = findings.second.lines() if findings.second else []
    return _lines([*format_errors(findings.errors),
                   *(disagreement_lines(project) if project else []), *second,
                   *findings.aside])


def json_bytes(findings: Findings) -> bytes:
    """``--format json``: :func:`generator.commands.check.json_report` (a usage error's:
    :func:`generator.commands.check.usage_error_report`), indented, UTF-8."""
    project = findings.project
    report = json_report(project, findings.strict) if project \
        else usage_error_report(findings.errors)
    if findings.second is not None:
        findings.second.add_to_json(report)
    return (json.dumps(report, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def github_report(findings: Findings) -> bytes:
    """``--format github``: :func:`github_lines` (a usage error's: its ``::error``)."""
    project = findings.project
    second = [workflow_command("error", "\n".join([d.message, *d.reasoning]),
                               file=_in_repository(d.position.file, findings.prefix),
                               line=d.position.line, col=d.column, title="second engine")
              for d in (findings.second.differences if findings.second else [])]
    return _lines([*(github_lines(project, findings.prefix) if project
                     else [error_command(e) for e in findings.errors]),  # (the folder's path)
                   *second])


def junit_report(findings: Findings) -> bytes:
    """``--format junit``: :func:`junit_xml`."""
    project = findings.project
    return junit_xml(project.results.values() if project else (), findings.errors,
                     findings.second.differences if findings.second else ())


FORMATS: dict[str, Callable[[Findings], bytes]] = {
    "text": text_report,
    "json": json_bytes,
    "github": github_report,
    "junit": junit_report,
}
"""``check --format``'s values, each with the writer of its report."""
