"""``explain``: a complete case in the case-file form, its ``expect`` filled with the
engine's values and a YAML comment holding the engine's reasoning, ready to paste into
a case file (docs/site.md, "explain").

The case comes from the command line (``--kind``, ``--game``, ``--rules``, ``--option``
and each kind's :attr:`~generator.kinds.base.Kind.arguments`: ``CARDS...``, ``--melds``,
``--players``, ...) or, for a kind whose input does not fit there (``scenario``), from a
file or standard input (``--case FILE``, ``--case -``): one case mapping or a case file,
``expect`` left out. Either way the case goes through the loader (every input error
reported as ``check`` reports it) and the engine; what is printed loads again and
agrees, so ``check`` passes it unchanged.

A case file given whole is printed as it is, each case completed with exact text edits
(:func:`_completed_file`): its comments, ``defaults``, layout, ``status`` and
``because`` stay. ``--id`` chooses one case of a file, ``--new-id`` renames it, and
``--append FILE`` adds the printed case to a case file through the safe writer, in that
file's own form (:func:`_append`).

A case read from a file or standard input is read as ``check`` reads case files: at
most :data:`~generator.cases.loader.MAX_CASE_FILE_BYTES` (a larger one is refused
after reading one byte more, never read whole), UTF-8 (a byte that is not is an error
at its line and column). ``--case FILE`` is a regular file or a pipe (a FIFO, or the
shell's ``<(command)``, which it waits for as ``cat`` would); a folder, a device or a
socket is refused before it is opened. Standard input may also be a terminal; a device
that is not one (``< /dev/zero``) is refused.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat
from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import BinaryIO

import yaml

from generator.cases.edit import CannotEdit
from generator.cases.edit import TextEditor
from generator.cases.edit import apply_edits
from generator.cases.edit import in_order
from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.cases.loader import SUFFIX
from generator.cases.loader import load_case_text
from generator.cases.loader import load_cases
from generator.cases.model import Case
from generator.cases.schema import DEFAULTABLE
from generator.commands.check import shown_value
from generator.commands.fix import case_indices
from generator.commands.fix import is_target
from generator.commands.fix import plan_case
from generator.engine.codes import CaseStatus
from generator.engine.rules import GAMES
from generator.engine.rules import default_preset
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.errors import or_list
from generator.errors import shown
from generator.errors import too_large
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.i18n.catalog import discover_locales
from generator.i18n.catalog import load_translators
from generator.i18n.catalog import locale_error
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds import KINDS
from generator.kinds import REGISTRY
from generator.kinds import AnyKind
from generator.kinds.base import with_reason
from generator.kinds.fields import Argument
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import SCHEMA_COMMENT
from generator.layout import SCHEMA_FILE
from generator.layout import FileChanged
from generator.layout import FileState
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_locales
from generator.layout import catalog
from generator.layout import read_regular
from generator.layout import real_path
from generator.layout import rewrite_file
from generator.verify import explain_case
from generator.verify import verify_case
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import parse_yaml

COMMAND_LINE = "command line"
"""How an error in a case built from the command line names where it is."""

STDIN = "<stdin>"
"""How an error in a case read from standard input names its file."""

OPTIONAL = frozenset({"id", "title", "expect"})
"""The fields a case given to ``explain`` may leave out: it fills them in."""

TITLE_COMMENT = "  # a title to edit"
"""Follows a title ``explain`` made up."""


def command_line_arguments() -> list[Argument]:
    """Every kind's command-line inputs, each flag once, in registry order.

    Raises:
        ValueError: two kinds give one flag different meanings.
    """
    found: dict[str, Argument] = {}
    for kind in REGISTRY:
        for argument in kind.arguments:
            seen = found.setdefault(argument.flag, argument)
            if seen != argument:
                raise ValueError(f"{argument.name} means two things: {seen} and {argument}")
    return list(found.values())


@dataclass
class ExplainRequest:
    """What ``explain`` was asked.

    Attributes:
        kind: ``--kind`` (``None``: ``meld``, or the case's own with ``--case``).
        game, rules: ``--game``, ``--rules``.
        options: ``--option`` names (each one on).
        given: the words of each kind argument given, by field (``{"cards": ["QH",
            "KH", "AH"]}``).
        case: ``--case`` (a file, or ``"-"`` for standard input), or ``None``.
        case_id: ``--id``: the case's id; with ``case``, the id of the case to explain
            (:func:`_chosen`).
        new_id: ``--new-id``: the new id of the case read with ``case``.
        title: ``--title``.
        lang: ``--lang``: the locale of the reasoning.
        project: the project whose catalogs give the reasoning's words, and whose case
            ids ``append`` keeps unique.
        append: ``--append``: the case file the case is added to (:func:`_append`).
        stdin: standard input (a binary stream, read only when ``case`` is ``"-"``,
            at most one byte past the limit), or its bytes.
    """

    kind: str | None = None
    game: str | None = None
    rules: str | None = None
    options: list[str] = field(default_factory=list)
    given: dict[str, list[str]] = field(default_factory=dict)
    case: str | None = None
    case_id: str | None = None
    new_id: str | None = None
    title: str | None = None
    lang: str = SOURCE_LOCALE
    project: Path = Path(".")
    append: str | None = None
    stdin: BinaryIO | bytes = b""


@dataclass
class ExplainReport:
    """What ``explain`` printed.

    Attributes:
        exit_code: 0, or 2 when the input is wrong (nothing printed then).
        text: the case file (``cases:`` and each case; or the case file read, each
            case completed), for standard output.
        errors: every input error, as lines.
        notes: what standard error says besides (the reasoning shown in English, the
            case appended).
    """

    exit_code: int
    text: str = ""
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _fail(*messages: str) -> ExplainReport:
    return ExplainReport(EXIT_INPUT, errors=list(messages))


def explain(request: ExplainRequest) -> ExplainReport:
    """Build the case, run it through the loader and the engine, and write it out in the
    case-file form (module docstring); with ``--append``, add it to a case file too.

    A case file read with ``--case`` and neither ``--id``, ``--new-id``, ``--title`` nor
    ``--append`` is printed as it is, every case completed (:func:`_completed_file`);
    otherwise the one case chosen (:func:`_chosen`), or the one case mapping read, is
    printed in the case-file form (:class:`_CaseItem`).

    Returns:
        An :class:`ExplainReport`; with an input error, its ``errors`` and exit code 2.
    """
    translator, problem, note = _translator(request)
    if translator is None:
        return _fail(problem)
    if request.new_id is not None and request.case is None:
        return _fail(f"{COMMAND_LINE}: --new-id renames a case read with --case; expected "
                     "--id to name a case made from the command line")
    loaded = (_from_case_file(request) if request.case is not None
              else _from_command_line(request))
    if isinstance(loaded, ExplainReport):
        return loaded
    w = Words(translator)
    if loaded.text is not None and not (request.case_id or request.new_id or request.title
                                        or request.append):
        report = _completed_file(loaded, w)
    else:
        chosen = _chosen(request, loaded)
        if isinstance(chosen, ExplainReport):
            return chosen
        report = _printed(request, loaded, chosen, w)
    if report.exit_code != EXIT_OK:
        return report
    if note:
        report.notes.insert(0, note)
    elif translator.fallbacks:
        n = len(translator.fallbacks)
        report.notes.insert(0, f"note: --lang {request.lang}: {n} message{'s' if n != 1 else ''}"
                            f" of the reasoning {'are' if n != 1 else 'is'} not translated "
                            f"into {request.lang!r}: shown in English")
    return report


def _chosen(request: ExplainRequest, loaded: Loaded) -> list[tuple[int, str | None]] | \
        ExplainReport:
    """The cases to print, each by its index in ``loaded`` with the id it gets (``None``:
    its own, or one made up): from the command line, the case, its id ``--id``; from
    ``--case``, the case whose id is ``--id`` (a file of one case whose id is another:
    that case, named ``--id``, as it always was), renamed ``--new-id``; with neither,
    the one case (``--title``, ``--new-id`` and ``--append`` name one) or every case."""
    cases = loaded.cases
    if loaded.generated:
        return [(0, request.case_id)]
    rel = loaded.rel
    if request.case_id is not None:
        found = [i for i, case in enumerate(cases) if case.id == request.case_id]
        if found:
            return [(found[0], request.new_id)]
        if len(cases) == 1 and request.new_id is None:
            return [(0, request.case_id)]
        ids = [case.id for case in cases if case.id]
        return _fail(f"{rel}:1: no case has the id {request.case_id!r}"
                     f"{did_you_mean(request.case_id, ids)}; expected "
                     f"{one_of(request.case_id, ids, noun='case ids', suggest=False)}")
    named = [flag for flag, value in (("--new-id", request.new_id),
                                      ("--title", request.title),
                                      ("--append", request.append)) if value is not None]
    if named and len(cases) != 1:
        return _fail(f"{rel}:1: {' and '.join(named)} {'take' if len(named) > 1 else 'takes'}"
                     f" one case, and the file holds {len(cases)}; expected --id to "
                     "choose one")
    return [(i, request.new_id) for i in range(len(cases))]


def _printed(request: ExplainRequest, loaded: Loaded, chosen: list[tuple[int, str | None]],
             w: Words) -> ExplainReport:
    """The chosen cases in the case-file form (``cases:`` and each), loaded again as
    ``check`` would load them; with ``--append``, the one case added to that file."""
    items = [_CaseItem.of(loaded.cases[i], loaded.raws[i], w, request, loaded.generated,
                          case_id) for i, case_id in chosen]
    text = "cases:\n" + "".join(_as_item(item.lines()) for item in items)
    # what --id and --title add is checked as check would: the printed case passes it
    printed, _doc = load_case_text(text.encode("utf-8"), COMMAND_LINE)
    if printed.errors:
        return _fail(*(f"{COMMAND_LINE}: {e.message}" for e in printed.errors))
    report = ExplainReport(EXIT_OK, text)
    if request.append is not None:
        appended = _append(request, items[0])
        if isinstance(appended, ExplainReport):
            return appended
        report.notes.extend(appended)
    return report


# -- the case ------------------------------------------------------------------------------


@dataclass
class Loaded:
    """The cases ``explain`` was given.

    Attributes:
        cases: the cases, loaded (``id``, ``title`` and ``expect`` may be missing).
        raws: each case as written (a mapping of plain values), the file's defaults that
            apply to it filled in.
        generated: whether they came from the command line (their id and title then
            made up from the words given).
        rel: the name their errors show (``command line``, ``<stdin>``, the file).
        text: a case file's text (``cases:`` and its items, ``defaults``, comments),
            without a byte-order mark; ``None`` for the command line or one case
            mapping read.
        doc: ``text`` parsed.
    """

    cases: list[Case]
    raws: list[dict[str, Any]]
    generated: bool
    rel: str = COMMAND_LINE
    text: str | None = None
    doc: YamlDocument | None = None


def _from_command_line(request: ExplainRequest) -> Loaded | ExplainReport:
    kind_name = request.kind or next(iter(KINDS))
    kind = KINDS.get(kind_name)
    if kind is None:  # pragma: no cover - argparse's choices
        return _fail(f"{COMMAND_LINE}: unknown kind {kind_name!r}")
    if not kind.arguments:
        return _fail(f"{COMMAND_LINE}: kind {kind_name!r} takes its input from a case file; "
                     "expected --case FILE (or --case - for standard input) holding the case "
                     "without expect")
    if request.game is None:
        return _fail(f"{COMMAND_LINE}: missing --game; expected --game and the game's id "
                     f"({or_list(GAMES)})")
    own = {a.field for a in kind.arguments}
    errors = [f"{COMMAND_LINE}: {a.name} does not apply to kind {kind_name!r}; expected "
              f"{_listing(kind.arguments)}"
              for a in command_line_arguments() if a.field in request.given
              and a.field not in own]
    raw: dict[str, Any] = {"kind": kind_name, "game": request.game}
    if request.rules is not None:
        raw["rules"] = request.rules
    if request.options:
        raw["options"] = dict.fromkeys(request.options, True)
    for argument in kind.arguments:
        words = request.given.get(argument.field)
        if words is None:
            continue
        value, problem = _value(argument, words)
        if problem:
            errors.append(f"{COMMAND_LINE}: {problem}")
        else:
            raw[argument.field] = value
    if errors:
        return _fail(*errors)
    text = "cases:\n" + dump_case(raw)
    cases, _doc = load_case_text(text.encode("utf-8"), COMMAND_LINE, optional=OPTIONAL)
    if cases.errors:
        return _fail(*(f"{COMMAND_LINE}: {e.message}" for e in cases.errors))
    return Loaded(list(cases.cases), [raw], True)


def _listing(arguments: tuple[Argument, ...]) -> str:
    return ", ".join(a.name for a in arguments)


def _value(argument: Argument, words: list[str]) -> tuple[Any, str]:
    """The YAML value of a command-line input, or the problem with its words."""
    if argument.shape == "cards":
        return " ".join(words), ""
    if argument.shape == "card lists":
        return [[] if word.strip() in ("", "-") else word for word in words], ""
    text = " ".join(words)
    if argument.shape == "integer":
        if re.fullmatch(r"-?[0-9]+", text):
            return int(text), ""
        return None, f"{argument.name} {text!r} is not a number; expected a plain decimal integer"
    if argument.shape == "boolean":
        flag = text.lower()
        if flag in ("true", "false"):
            return flag == "true", ""
        return None, f"{argument.name} {text!r}; expected true or false"
    return text, ""


def _from_case_file(request: ExplainRequest) -> Loaded | ExplainReport:
    given = [name for name, value in (("--kind", request.kind), ("--game", request.game),
                                      ("--rules", request.rules)) if value is not None]
    given += ["--option"] * bool(request.options)
    given += [a.name for a in command_line_arguments() if a.field in request.given]
    if given:
        return _fail(f"{COMMAND_LINE}: {', '.join(given)} with --case; expected the case "
                     "file to hold every field (the command line holds no input then)")
    rel = STDIN if request.case == "-" else _named(Path(str(request.case)),
                                                   Layout.of(request.project))
    try:
        data = (_read_stdin(request.stdin) if request.case == "-"
                else _read_named(Path(str(request.case)), rel))
    except NotAnInput as exc:
        return _fail(exc.error.format())
    data, shift = _as_case_file(data)
    cases, doc = load_case_text(data, rel, optional=OPTIONAL)
    if cases.errors:
        return _fail(*(_shifted(e, shift).format() for e in cases.errors))
    if doc is None or not cases.cases:
        return _fail(f"{rel}:1: no case; expected a case (a mapping with kind, game and "
                     "the kind's inputs) or a case file")
    raws = _raw_cases(doc.value, cases.cases)
    if shift:
        return Loaded(list(cases.cases), raws, False, rel)
    return Loaded(list(cases.cases), raws, False, rel, data.decode("utf-8").removeprefix(
        "\ufeff"), doc)


CASE_ADVICE = "explain one case, or a few"
"""What a too large case input is told to do."""
_EXPECTED_CASE = "expected a case file (a regular file or a pipe), or - for standard input"


def _read_named(path: Path, rel: str) -> bytes:
    """The bytes of ``--case FILE``: a regular file (its size checked before it is
    read) or a pipe (waited for, as ``cat`` would), at most
    :data:`MAX_CASE_FILE_BYTES`.

    Raises:
        NotAnInput: anything else (checked before opening it and again on the opened
            file), a file it cannot read, or one too large (at ``rel:1``).
    """
    def error(why: str) -> NotAnInput:
        return NotAnInput(InputError(rel, 1, None, why))

    try:
        problem = _named_kind(os.stat(path).st_mode)
    except OSError as exc:
        raise error(f"cannot read the case: {exc.strerror or exc}; expected a readable "
                    "case file") from exc
    if problem is not None:
        raise error(problem)
    try:
        with open(path, "rb") as stream:  # a FIFO: blocks until a writer opens it
            mode = os.fstat(stream.fileno())
            problem = _named_kind(mode.st_mode)  # it may have changed since stat
            if problem is not None:
                raise error(problem)
            if stat.S_ISREG(mode.st_mode):
                large = too_large(rel, mode.st_size, MAX_CASE_FILE_BYTES, "case file",
                                  CASE_ADVICE)
                if large is not None:
                    raise NotAnInput(large)
            return _bounded(stream, rel)
    except OSError as exc:
        raise error(f"cannot read the case: {exc.strerror or exc}; expected a readable "
                    "case file") from exc


def _named_kind(mode: int) -> str | None:
    """Why a file of ``mode`` is no case file ``explain`` reads by name, or ``None``."""
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode):
        return None
    what = ("a folder" if stat.S_ISDIR(mode) else "a character device"
            if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    return f"{what}; {_EXPECTED_CASE}"


def _read_stdin(stdin: BinaryIO | bytes) -> bytes:
    """Standard input's bytes for ``--case -``: a regular file, a pipe, a socket or a
    terminal, at most :data:`MAX_CASE_FILE_BYTES`.

    Raises:
        NotAnInput: a device that is not a terminal, a folder, or more than the limit
            (at ``<stdin>:1``).
    """
    if isinstance(stdin, bytes):
        stream: BinaryIO = io.BytesIO(stdin)
    else:
        stream = stdin
        try:
            descriptor = stream.fileno()
            mode = os.fstat(descriptor).st_mode
        except (OSError, ValueError, io.UnsupportedOperation):
            mode = None  # not a file descriptor (a test's stream): read it, bounded
        if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)
                                     or stat.S_ISSOCK(mode) or os.isatty(descriptor)):
            what = "a folder" if stat.S_ISDIR(mode) else (
                "a device that is not a terminal" if stat.S_ISCHR(mode) or
                stat.S_ISBLK(mode) else "not a regular file")
            raise NotAnInput(InputError(STDIN, 1, None, f"standard input is {what}; "
                                        "expected a case from a file, a pipe or the "
                                        "terminal"))
    try:
        return _bounded(stream, STDIN)
    except OSError as exc:
        raise NotAnInput(InputError(STDIN, 1, None, f"cannot read the case: "
                                    f"{exc.strerror or exc}; expected a readable case "
                                    "file")) from exc


def _bounded(stream: BinaryIO, rel: str) -> bytes:
    """At most :data:`MAX_CASE_FILE_BYTES` of ``stream``: one byte more is read to know
    that it holds more, never the rest.

    Raises:
        NotAnInput: it holds more (at ``rel:1``).
    """
    data = stream.read(MAX_CASE_FILE_BYTES + 1)
    if len(data) > MAX_CASE_FILE_BYTES:
        limit = f"{MAX_CASE_FILE_BYTES:,} bytes ({MAX_CASE_FILE_BYTES // 1_000_000} MB)"
        raise NotAnInput(InputError(rel, 1, None, f"the case holds more than the limit of "
                                    f"{limit} a case file may have; expected a smaller "
                                    f"case: {CASE_ADVICE}"))
    return data


def _as_case_file(data: bytes) -> tuple[bytes, bool]:
    """One case mapping written as a case file (``cases:`` and the case as its item,
    two columns in and one line down: :func:`_shifted` moves errors back); a case file
    as it is, and bytes that are not UTF-8 too (the loader says where)."""
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return data, False
    doc, _errors = parse_yaml(text, "")  # read as the loader reads it, which reports
    value = None if doc is None else doc.value  # what is wrong, at the file's name
    if not isinstance(value, dict) or "cases" in value or "defaults" in value:
        return data, False
    lines = text.splitlines(keepends=True)
    item = "".join(("- " if i == 0 else "  ") + line if line.strip() else line
                   for i, line in enumerate(lines))
    return ("cases:\n" + item).encode("utf-8"), True


def _shifted(error: InputError, shift: bool) -> InputError:
    if not shift or error.line < 2:
        return error
    column = error.column - 2 if error.column is not None and error.column > 2 else \
        error.column
    return InputError(error.file, error.line - 1, column, error.message)


def _raw_cases(value: Any, cases: tuple[Case, ...]) -> list[dict[str, Any]]:
    """Each loaded case as written (by its position in ``cases``), the file's defaults
    that apply to it filled in."""
    items = value.get("cases", []) if isinstance(value, dict) else []
    defaults = value.get("defaults", {}) if isinstance(value, dict) else {}
    by_id = {item.get("id"): item for item in items if isinstance(item, dict)}
    out: list[dict[str, Any]] = []
    for index, case in enumerate(cases):
        raw = by_id.get(case.id) if case.id else None
        if raw is None:
            raw = [i for i in items if isinstance(i, dict)][index]
        merged = dict(raw)
        for name in ("rules", "options"):
            if name not in merged and name in defaults and (
                    name != "rules" or presets_of(case.game)):
                merged[name] = defaults[name]
        out.append(merged)
    return out


# -- writing ---------------------------------------------------------------------------


@dataclass
class _CaseItem:
    """One case as ``explain`` writes it: its fields, the engine's reasoning (a comment
    before ``expect``) and ``expect``.

    Attributes:
        case: the case as loaded.
        fields: the fields before ``expect``, in order.
        reasoning: the engine's reasoning, one line each.
        expect: the engine's values; a ``known_disagreement`` still disagreeing keeps
            its documented ones.
        made_up_title: the title was made up (marked ``# a title to edit``).
    """

    case: Case
    fields: dict[str, Any]
    reasoning: list[str]
    expect: Any
    made_up_title: bool

    @classmethod
    def of(cls, case: Case, raw: Mapping[str, Any], w: Words, request: ExplainRequest,
           generated: bool, case_id: str | None) -> _CaseItem:
        """The item of ``case`` (``raw``: as written), named ``case_id`` (``None``: its
        own id, or one made up), titled ``--title`` (else its own, or one made up). A
        ``pending`` case keeps its status; a ``known_disagreement`` still disagreeing
        keeps its status, ``because`` and documented ``expect`` (one that agrees now
        loses them, as ``check --fix`` does); ``note`` stays."""
        kind = case.spec
        result = verify_case(case)
        expect: Any = kind.documented(case.inputs, result.engine_result, result.values)
        known = case.status == CaseStatus.KNOWN_DISAGREEMENT and not result.stale
        if known and "expect" in raw:
            expect = raw["expect"]
        title = request.title or case.title or None
        fields: dict[str, Any] = {
            "id": case_id or case.id or _made_up_id(case, raw, kind),
            "kind": case.kind,
            "game": case.game,
        }
        default = default_preset(case.game)
        if default is not None and ("rules" in raw or case.rules != default):
            fields["rules"] = case.rules
        if any(case.options.values()):
            fields["options"] = {name: True for name, on in case.options.items() if on}
        for name in kind.inputs:
            if name in raw:
                fields[name] = raw[name]
        fields["title"] = title or _made_up_title(case, raw, kind, generated)
        if case.note:
            fields["note"] = case.note
        if case.status == CaseStatus.PENDING or known:
            fields["status"] = case.status
        if known:
            fields["because"] = case.because
        reasoning = with_reason(explain_case(result, w), result.values, w)
        return cls(case, fields, [line for text in reasoning for line in text.splitlines()],
                   expect, title is None)

    def lines(self, step: int = 2, explicit: Collection[str] = ()) -> list[str]:
        """The item's lines, without indentation or line ends (its fields at column 0),
        nested mappings indented ``step`` columns; the fields of ``explicit`` that apply
        to the case (``rules``, ``options``: a file's ``defaults`` would fill them in
        otherwise) written out even where they hold the default."""
        fields = dict(self.fields)
        case = self.case
        if "rules" in explicit and presets_of(case.game):
            fields.setdefault("rules", case.rules)
        if "options" in explicit and options_of(case.game):
            fields["options"] = dict(case.options)
        order = ["id", "kind", "game", "rules", "options"]
        fields = {**{k: fields[k] for k in order if k in fields},
                  **{k: v for k, v in fields.items() if k not in order}}
        head = _dump(fields, step).splitlines()
        if self.made_up_title:
            head = [line + TITLE_COMMENT if line.startswith("title: ") else line
                    for line in head]
        comment = [f"# {line}" for line in self.reasoning]
        return [*head, *comment, *_dump({"expect": self.expect}, step).splitlines()]


def _as_item(lines: list[str]) -> str:
    """An item's lines (:meth:`_CaseItem.lines`) as an item of ``cases:``: ``  - `` and
    its fields four columns in."""
    return "".join(("  - " if i == 0 else "    ") + line + "\n" if line.strip() else "\n"
                   for i, line in enumerate(lines))


def _made_up_id(case: Case, raw: Mapping[str, Any], kind: AnyKind) -> str:
    """An id from the game, the preset, the kind and the inputs' words
    (``rami51-meld-qh-kh-ah``); for inputs that are no short words, a digest of them."""
    parts = [case.game]
    if case.rules and case.rules != default_preset(case.game):
        parts.append(case.rules)
    parts.append(case.kind.replace("_", "-"))
    words = _words(raw, kind)
    if words is not None and len(words) <= 60:
        parts.append(words)
    else:
        inputs = {name: raw[name] for name in kind.inputs if name in raw}
        parts.append(hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:8])
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return re.sub(r"-+", "-", slug)


def _words(raw: Mapping[str, Any], kind: AnyKind) -> str | None:
    """The command-line inputs' words joined (``QH KH AH``, ``QH KH AH / JK 7S 8S``), or
    ``None`` when the kind takes none."""
    if not kind.arguments:
        return None
    out: list[str] = []
    for argument in kind.arguments:
        value = raw.get(argument.field)
        if isinstance(value, list):
            out.append(" / ".join((" ".join(v) or "-") if isinstance(v, list) else str(v)
                                  for v in value))
        elif isinstance(value, bool):
            out.append(f"{argument.field} {str(value).lower()}")
        elif isinstance(value, int):
            out.append(f"{argument.field} {value}")
        elif value is not None:
            out.append(str(value))
    return " + ".join(out)


def _made_up_title(case: Case, raw: Mapping[str, Any], kind: AnyKind, generated: bool) -> str:
    words = _words(raw, kind) if generated else None
    return words or f"A {case.kind.replace('_', ' ')} case"


def _translator(request: ExplainRequest) -> tuple[Translator | None, str, str]:
    """The translator of ``--lang`` (the project's catalog over the built-in one) and a
    note for standard error: for a locale that neither translates, English and a note
    saying so; or the problem (``--lang`` names no locale).

    Returns:
        ``(translator, problem, note)``: the translator ``None`` with a problem.
    """
    if request.lang == SOURCE_LOCALE:
        return source_translator(), "", ""
    layout = Layout.of(request.project)
    locales = sorted({*discover_locales(layout), *builtin_locales()} - {SOURCE_LOCALE})
    if locale_error(request.lang) is not None:
        return None, (f"--lang: {shown(request.lang)!r} is not a locale Babel knows"
                      f"{did_you_mean(request.lang, [SOURCE_LOCALE, *locales])}; expected "
                      "a locale identifier such as cs or pt_BR (with a catalog: "
                      f"{', '.join([SOURCE_LOCALE, *locales])})"), ""
    if request.lang not in locales:
        return source_translator(), "", (
            f"note: --lang {request.lang}: no catalog translates {request.lang!r} (neither "
            f"{catalog(request.lang)} in the project nor the generator's built-in ones, "
            f"which translate {', '.join(builtin_locales()) or 'none'}): the reasoning is "
            "in English")
    translators, errors = load_translators(layout, [request.lang])
    if errors:
        return None, errors[0].format(), ""
    return translators[request.lang], "", ""


# -- a case file, completed ----------------------------------------------------------------


def _completed_file(loaded: Loaded, w: Words) -> ExplainReport:
    """The case file ``loaded`` read, as it is (its comments, ``defaults``, key order,
    quotes and styles, ``status`` and ``because``), each case completed: a case without
    ``id`` or ``title`` gets one made up (the title marked ``# a title to edit``), one
    without ``expect`` gets the engine's, after a comment with the reasoning, and a
    documented value the engine disagrees with is brought in line as ``check --fix``
    brings it (a ``known_disagreement`` still disagreeing is left as it is). What is
    printed loads and agrees, as ``check`` reads it.
    """
    assert loaded.text is not None and loaded.doc is not None  # (a case file was read)
    text, doc, rel = loaded.text, loaded.doc, loaded.rel
    editor = TextEditor(text, doc)
    step = editor.indent_step() or 2
    indices = case_indices(doc)
    taken = {case.id for case in loaded.cases if case.id}
    notes: list[str] = []
    for case, raw in zip(loaded.cases, loaded.raws, strict=True):
        index = indices.get((case.position.line, case.position.column))
        if index is None:  # pragma: no cover - every case loaded from the file is there
            continue
        before = len(editor.edits)
        try:
            notes += _complete(editor, index, case, raw, w, step, taken, loaded.generated)
            in_order(editor.edits[before:])  # (raises for edits that overlap)
        except CannotEdit as exc:
            return _fail(f"{case.position}: case {case.id or '(no id)'}: cannot be completed "
                         f"exactly: {exc}; complete it by hand")
    new = apply_edits(text, editor.edits)
    done, _doc = load_case_text(new.encode("utf-8"), rel)
    wrong = [f"{rel}: the completed file would not load ({e.format()}); complete it by "
             "hand" for e in done.errors]
    wrong += [f"{c.position}: case {c.id}: the completed case would not agree; complete it "
              "by hand" for c in done.cases if verify_case(c).failing]
    if wrong:  # pragma: no cover - what explain writes loads and agrees
        return _fail(*wrong)
    return ExplainReport(EXIT_OK, new, notes=notes)


def _complete(editor: TextEditor, index: int, case: Case, raw: Mapping[str, Any],
              w: Words, step: int, taken: set[str], generated: bool) -> list[str]:
    """Plan the edits that complete the case at ``index`` in a case file's ``cases``
    (:func:`_completed_file`); returns a note for each documented value it changes.

    Raises:
        CannotEdit: an edit cannot be made exactly.
    """
    kind = case.spec
    base: YamlPath = ("cases", index)
    node = editor.doc.nodes[base]
    flow = isinstance(node, yaml.MappingNode) and node.flow_style
    has_expect = (*base, "expect") in editor.doc.nodes
    first_key = node.value[0][0].value if isinstance(node, yaml.MappingNode) and \
        node.value else None
    if not case.id:
        made = _made_up_id(case, raw, kind)
        case_id, n = made, 1
        while case_id in taken:
            n += 1
            case_id = f"{made}-{n}"
        taken.add(case_id)
        if flow:
            editor.add((*base, "id"), case_id)
        else:
            editor.add_lines(base, [f"id: {case_id}"], before=first_key)
    if not case.title:
        title = _made_up_title(case, raw, kind, generated)
        if flow:
            editor.add((*base, "title"), title)
        else:
            line = _dump({"title": title}).rstrip("\n") + TITLE_COMMENT
            editor.add_lines(base, [line], before="expect" if has_expect else None)
    result = verify_case(case)
    if has_expect:
        if not is_target(result):
            return []
        plan_case(editor, index, result)
        if result.stale:
            return [f"note: {case.position}: case {case.id}: status known_disagreement and "
                    "because left out: every documented value agrees now"]
        return [f"note: {d.position}: case {case.id}: {d.field} documented "
                f"{shown_value(d.documented)}, engine {shown_value(d.engine)}: printed with "
                "the engine's value" for d in result.disagreements]
    expect = kind.documented(case.inputs, result.engine_result, result.values)
    if flow:
        editor.add((*base, "expect"), expect)
        return []
    reasoning = with_reason(explain_case(result, w), result.values, w)
    editor.add_lines(base, [*(f"# {line}" for text in reasoning for line in text.splitlines()),
                            *_dump({"expect": expect}, step).splitlines()])
    return []


# -- --append ------------------------------------------------------------------------------


def _append(request: ExplainRequest, item: _CaseItem) -> list[str] | ExplainReport:
    """Add ``item`` to the case file ``--append`` names, every other byte of it kept:
    as the last item of its ``cases:`` block list, placed and indented as its items are
    (its ``defaults``' fields that would change the case written out); a file that does
    not exist, or holds nothing but comments, gets ``cases:`` and the item (a new file
    of a project that has the editor schema, :data:`~generator.layout.SCHEMA_FILE`, a
    first line naming it, as ``init``'s case file has). Nothing is
    written when the file has an input error, when the case's id is one the file or the
    project (``--project``) already has, or when the file changed since it was read
    (the safe writer, :func:`generator.layout.rewrite_file`, as ``check --fix``).

    Returns:
        The notes for standard error (where the case went), or the report of why
        nothing was written (exit 2).
    """
    assert request.append is not None
    layout = Layout.of(request.project)
    path = Path(request.append)
    real = real_path(path.parent) / path.name
    rel = real.relative_to(layout.root).as_posix() if real.is_relative_to(layout.root) \
        else None
    name = shown(rel if rel else request.append)
    case_id = item.fields["id"]
    try:
        state = _append_state(layout, path, rel, name)
    except NotAnInput as exc:
        return _fail(exc.error.format())
    text = "" if state.data is None else state.data.decode("utf-8", errors="replace") \
        .removeprefix("\ufeff")
    doc, parse_errors = parse_yaml(text, name) if text.strip() else (None, [])
    fresh = state.data is None or (not parse_errors and (doc is None or doc.value is None))
    found = re.search(r"\r\n|[\r\n]", text)
    newline = found.group() if found else "\n"
    own: dict[str, str] = {}
    if fresh:
        schema = layout.root / SCHEMA_FILE
        if state.data is None and rel is not None and schema.is_file():
            text = f"{SCHEMA_COMMENT}{Path(os.path.relpath(schema, real.parent)).as_posix()}\n"
        new = text + (newline if text and not text.endswith(("\n", "\r")) else "") + \
            f"cases:{newline}" + _as_item(item.lines()).replace("\n", newline)
    else:
        assert state.data is not None
        cases, _doc = load_case_text(state.data, name)
        if cases.errors or doc is None:
            return _fail(*(e.format() for e in cases.errors),
                         f"{name}:1: --append: nothing written: the file has input errors; "
                         "expected a case file that check passes (fix them first)")
        own = {case.id: str(case.position) for case in cases.cases}
        editor = TextEditor(text, doc)
        defaults = doc.value.get("defaults") if isinstance(doc.value, dict) else None
        explicit = [n for n in DEFAULTABLE if isinstance(defaults, dict) and n in defaults]
        try:
            editor.append_item(("cases",), item.lines(editor.indent_step() or 2, explicit))
        except CannotEdit as exc:
            line = doc.key_mark(("cases",)).line
            return _fail(f"{name}:{line}: --append: cannot add the case: {exc}; expected "
                         "cases: as a block list (- items) to add it to")
        new = editor.apply()
    first = _project_ids(layout).get(case_id) or own.get(case_id)
    if first is not None:
        return _fail(f"{COMMAND_LINE}: duplicate case id {case_id!r} (first defined at "
                     f"{first}); expected an id no case has: give one with "
                     f"{'--new-id' if request.case is not None else '--id'}; nothing "
                     f"written to {name}")
    done, _doc = load_case_text(new.encode("utf-8"), name)
    added = done.get(case_id)
    if done.errors or added is None or verify_case(added).failing:  # pragma: no cover
        return _fail(f"{name}:1: --append: the case would not load or agree there; add it "
                     "by hand")
    try:
        rewrite_file(state, new)
    except FileChanged:
        return _fail(f"{name}:1: the file changed since it was read; nothing written to it "
                     "(run explain again)")
    except OSError as exc:
        return _fail(f"{name}:1: cannot be written: {exc.strerror or exc}; the file is "
                     "unchanged")
    notes = [f"appended case {case_id} to {name} (line {added.position.line})"]
    if rel is None or not rel.startswith(f"{EXAMPLES}/") or not rel.endswith(SUFFIX):
        notes.append(f"note: {name} is no case file of the project {shown(str(layout.root))}"
                     f" (a {SUFFIX} file under {EXAMPLES}/): check does not read it")
    return notes


def _named(path: Path, layout: Layout) -> str:
    """How messages name the file ``path``: relative to the project where it lies inside
    it (as ``check`` names it), else as given."""
    real = real_path(path.parent) / path.name
    if real != layout.root and real.is_relative_to(layout.root):
        return shown(real.relative_to(layout.root).as_posix())
    return shown(str(path))


def _append_state(layout: Layout, path: Path, rel: str | None, name: str) -> FileState:
    """The case file ``--append`` names, read to be rewritten: through the project's
    layout inside the project (a link out of it, a FIFO, a folder are refused), as a
    regular file outside it; a state of no file where there is none.

    Raises:
        NotAnInput: it cannot be appended to (at ``name:1``).
    """
    if rel is not None:
        where = layout.inside(real_path(path) if os.path.lexists(path) else
                              real_path(path.parent) / path.name)
        if where is not None:
            raise NotAnInput(InputError(name, 1, None, f"leads {where}; expected a case "
                                        "file of the project"))
    if not os.path.lexists(path):
        return FileState.after_read(path, None)
    if rel is not None:
        return layout.read_state(rel, limit=MAX_CASE_FILE_BYTES, what="case file",
                                 advice=CASE_ADVICE)
    data = read_regular(path, name, limit=MAX_CASE_FILE_BYTES, what="case file",
                        advice=CASE_ADVICE)
    return FileState.after_read(path, data)


def _project_ids(layout: Layout) -> dict[str, str]:
    """Where each case id of the project is first defined (``FILE:LINE:COL``); none for
    a folder without ``content/``."""
    if not (layout.root / CONTENT).is_dir():
        return {}
    return {case.id: str(case.position) for case in load_cases(layout).cases}


class _Dumper(yaml.SafeDumper):
    """Block mappings, flow lists of scalars, list items indented under their key."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_dict(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(),
                                    flow_style=False)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.Node:
    flat = all(not isinstance(v, (list, dict)) or v == [] for v in value) and \
        len(", ".join(map(str, value))) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flat)


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_multi_representer(str, yaml.representer.SafeRepresenter.represent_str)  # codes


def _dump(value: Any, step: int = 2) -> str:
    text: str = yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                          width=100, indent=step)
    return text


def dump_case(item: Mapping[str, Any]) -> str:
    """A case (a mapping of plain values) as the item of a ``cases:`` list: ``  - id:
    …`` and its fields four columns in."""
    return _as_item(_dump(dict(item)).splitlines())
