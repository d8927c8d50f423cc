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
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import BinaryIO

import yaml

from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.cases.loader import load_case_text
from generator.cases.model import Case
from generator.engine.codes import CaseStatus
from generator.engine.rules import DEFAULT_PRESET
from generator.engine.rules import is_rami
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import shown
from generator.errors import too_large
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.i18n.catalog import discover_locales
from generator.i18n.catalog import load_translators
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds import KINDS
from generator.kinds import REGISTRY
from generator.kinds import AnyKind
from generator.kinds.base import with_reason
from generator.kinds.fields import Argument
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_locales
from generator.verify import explain_case
from generator.verify import verify_case
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
        options: ``--option`` names (CardVerse: each one on).
        given: the words of each kind argument given, by field (``{"cards": ["QH",
            "KH", "AH"]}``).
        case: ``--case`` (a file, or ``"-"`` for standard input), or ``None``.
        case_id, title: ``--id``, ``--title``.
        lang: ``--lang``: the locale of the reasoning.
        project: the project whose catalogs give the reasoning's words.
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
    title: str | None = None
    lang: str = SOURCE_LOCALE
    project: Path = Path(".")
    stdin: BinaryIO | bytes = b""


@dataclass
class ExplainReport:
    """What ``explain`` printed.

    Attributes:
        exit_code: 0, or 2 when the input is wrong (nothing printed then).
        text: the case file (``cases:`` and each case), for standard output.
        errors: every input error, as lines.
    """

    exit_code: int
    text: str = ""
    errors: list[str] = field(default_factory=list)


def _fail(*messages: str) -> ExplainReport:
    return ExplainReport(EXIT_INPUT, errors=list(messages))


def explain(request: ExplainRequest) -> ExplainReport:
    """Build the case, run it through the loader and the engine, and write it out in the
    case-file form (module docstring).

    Returns:
        An :class:`ExplainReport`; with an input error, its ``errors`` and exit code 2.
    """
    translator, problem = _translator(request)
    if translator is None:
        return _fail(problem)
    loaded = (_from_case_file(request) if request.case is not None
              else _from_command_line(request))
    if isinstance(loaded, ExplainReport):
        return loaded
    cases, raws, generated = loaded
    if (request.case_id or request.title) and len(cases) != 1:
        return _fail(f"{request.case}:1: --id and --title name one case, and the file "
                     f"holds {len(cases)}; expected a file with one case")
    w = Words(translator)
    blocks = [_case_text(case, raw, w, request, generated) for case, raw in
              zip(cases, raws, strict=True)]
    text = "cases:\n" + "".join(blocks)
    # what --id and --title add is checked as check would: the printed case passes it
    printed, _doc = load_case_text(text.encode("utf-8"), COMMAND_LINE)
    if printed.errors:
        return _fail(*(f"{COMMAND_LINE}: {e.message}" for e in printed.errors))
    return ExplainReport(EXIT_OK, text)


# -- the case ------------------------------------------------------------------------------


Loaded = tuple[list[Case], list[dict[str, Any]], bool]
"""The cases, each as written (a mapping of plain values), and whether they came from
the command line (their id and title then made up from the words given)."""


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
                     "(rami40, rami51 or cardverse)")
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
    return list(cases.cases), [raw], True


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
    rel = STDIN if request.case == "-" else shown(str(request.case))
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
    return list(cases.cases), raws, False


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
                    name != "rules" or is_rami(case.game)):
                merged[name] = defaults[name]
        out.append(merged)
    return out


# -- writing ---------------------------------------------------------------------------


def _case_text(case: Case, raw: Mapping[str, Any], w: Words, request: ExplainRequest,
               generated: bool) -> str:
    """One case as a list item of ``cases:``: its fields, the reasoning as a comment,
    ``expect`` with the engine's values."""
    kind = case.spec
    result = verify_case(case)
    expect = kind.documented(case.inputs, result.engine_result, result.values)
    title = request.title or case.title or None
    made_up_title = title is None
    item: dict[str, Any] = {
        "id": request.case_id or case.id or _made_up_id(case, raw, kind),
        "kind": case.kind,
        "game": case.game,
    }
    if is_rami(case.game) and ("rules" in raw or case.rules != DEFAULT_PRESET):
        item["rules"] = case.rules
    if any(case.options.values()):
        item["options"] = {name: True for name, on in case.options.items() if on}
    for name in kind.inputs:
        if name in raw:
            item[name] = raw[name]
    item["title"] = title or _made_up_title(case, raw, kind, generated)
    if case.note:
        item["note"] = case.note
    if case.status == CaseStatus.PENDING:
        item["status"] = case.status
    head = dump_case(item)
    if made_up_title:
        head = re.sub(r"^(    title: .*)$", lambda m: m.group(1) + TITLE_COMMENT, head,
                      count=1, flags=re.MULTILINE)
    reasoning = with_reason(explain_case(result, w), result.values, w)
    comment = "".join(f"    # {line}\n" for text in reasoning for line in text.splitlines())
    body = _dump({"expect": expect})
    return head + comment + _indent(body, "    ")


def _made_up_id(case: Case, raw: Mapping[str, Any], kind: AnyKind) -> str:
    """An id from the game, the preset, the kind and the inputs' words
    (``rami51-meld-qh-kh-ah``); for inputs that are no short words, a digest of them."""
    parts = [case.game]
    if case.rules and case.rules != DEFAULT_PRESET:
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


def _translator(request: ExplainRequest) -> tuple[Translator | None, str]:
    """The translator of ``--lang``: the project's catalog over the built-in one, or
    the problem (a locale with neither)."""
    if request.lang == SOURCE_LOCALE:
        return source_translator(), ""
    layout = Layout.of(request.project)
    locales = sorted({*discover_locales(layout), *builtin_locales()} - {SOURCE_LOCALE})
    if request.lang not in locales:
        return None, (f"--lang: no catalog for {request.lang!r} in "
                      f"{request.project / 'locales'} or in the generator; expected one of: "
                      f"{', '.join([SOURCE_LOCALE, *locales])}")
    translators, errors = load_translators(layout, [request.lang])
    if errors:
        return None, errors[0].format()
    return translators[request.lang], ""


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


def _dump(value: Any) -> str:
    text: str = yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                          width=100)
    return text


def dump_case(item: Mapping[str, Any]) -> str:
    """A case (a mapping of plain values) as the item of a ``cases:`` list: ``  - id:
    …`` and its fields four columns in."""
    body = _dump(dict(item))
    lines = body.splitlines(keepends=True)
    return "".join(("  - " if i == 0 else "    ") + line if line.strip() else line
                   for i, line in enumerate(lines))


def _indent(text: str, prefix: str) -> str:
    return "".join(prefix + line if line.strip() else line
                   for line in text.splitlines(keepends=True))
