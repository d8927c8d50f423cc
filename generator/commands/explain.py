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
file's own form (:func:`~generator.commands.explain_append.append_case`).

A case read from a file or standard input is read as ``check`` reads case files: at
most :data:`~generator.cases.loader.MAX_CASE_FILE_BYTES` (a larger one is refused
after reading one byte more, never read whole), UTF-8 (a byte that is not is an error
at its line and column). ``--case FILE`` is a regular file or a pipe (a FIFO, or the
shell's ``<(command)``, which it waits for as ``cat`` would); a folder, a device or a
socket is refused before it is opened. Standard input may also be a terminal; a device
that is not one (``< /dev/zero``) is refused.
"""

from __future__ import annotations

import re
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
from generator.cases.loader import load_case_text
from generator.cases.model import Case
from generator.commands.check import shown_value
from generator.commands.explain_append import NotAppended
from generator.commands.explain_append import append_case
from generator.commands.explain_case import TITLE_COMMENT
from generator.commands.explain_case import CaseItem
from generator.commands.explain_case import as_item
from generator.commands.explain_case import dump_case
from generator.commands.explain_case import dump_yaml
from generator.commands.explain_case import made_up_id
from generator.commands.explain_case import made_up_title
from generator.commands.explain_read import COMMAND_LINE
from generator.commands.explain_read import STDIN
from generator.commands.explain_read import as_case_file
from generator.commands.explain_read import named_file
from generator.commands.explain_read import read_named
from generator.commands.explain_read import read_stdin
from generator.commands.explain_read import shifted
from generator.commands.fix import case_indices
from generator.commands.fix import is_target
from generator.commands.fix import plan_case
from generator.engine.rules import GAMES
from generator.engine.rules import presets_of
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.errors import or_list
from generator.errors import shown
from generator.i18n.catalog import SOURCE_LOCALE
from generator.i18n.catalog import Translator
from generator.i18n.catalog import discover_locales
from generator.i18n.catalog import load_translators
from generator.i18n.catalog import locale_error
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds import KINDS
from generator.kinds import REGISTRY
from generator.kinds.base import with_reason
from generator.kinds.fields import Argument
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import builtin_locales
from generator.layout import catalog
from generator.verify import explain_case
from generator.verify import verify_case
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath

OPTIONAL = frozenset({"id", "title", "expect"})
"""The fields a case given to ``explain`` may leave out: it fills them in."""


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
        append: ``--append``: the case file the case is added to
            (:func:`~generator.commands.explain_append.append_case`).
        stdin: standard input (a binary stream, read only when ``case`` is ``"-"``,
            at most one byte past the limit), or its bytes.
        translator: the reasoning's messages, given (the card checker's, packed by the
            build); ``None``: ``lang``'s, read from ``project`` and the built-in catalogs.
        schema: check the case against the case-file schema (``False``: it is made from
            choices known to fit it, and jsonschema is not imported).
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
    translator: Translator | None = None
    schema: bool = True


@dataclass
class ExplainReport:
    """What ``explain`` printed.

    Attributes:
        exit_code: 0, or 2 when the input is wrong (nothing printed then).
        text: the case file (``cases:`` and each case; or the case file read, each
            case completed), for standard output.
        errors: every input error, as lines.
        input_errors: the loader's errors behind ``errors`` for a case made from the
            command line, with their codes (the card checker says those in the reader's
            language).
        notes: what standard error says besides (the reasoning shown in English, the
            case appended).
    """

    exit_code: int
    text: str = ""
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    input_errors: list[InputError] = field(default_factory=list)


def _fail(*messages: str) -> ExplainReport:
    return ExplainReport(EXIT_INPUT, errors=list(messages))


def explain(request: ExplainRequest) -> ExplainReport:
    """Build the case, run it through the loader and the engine, and write it out in the
    case-file form (module docstring); with ``--append``, add it to a case file too.

    A case file read with ``--case`` and neither ``--id``, ``--new-id``, ``--title`` nor
    ``--append`` is printed as it is, every case completed (:func:`_completed_file`);
    otherwise the one case chosen (:func:`_chosen`), or the one case mapping read, is
    printed in the case-file form (:class:`CaseItem`).

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
    items = [CaseItem.of(loaded.cases[i], loaded.raws[i], w, request.title, loaded.generated,
                         case_id) for i, case_id in chosen]
    text = "cases:\n" + "".join(as_item(item.lines()) for item in items)
    # what --id and --title add is checked as check would: the printed case passes it
    printed, _doc = load_case_text(text.encode("utf-8"), COMMAND_LINE, schema=request.schema)
    if printed.errors:
        return _fail(*(f"{COMMAND_LINE}: {e.message}" for e in printed.errors))
    report = ExplainReport(EXIT_OK, text)
    if request.append is not None:
        flag = "--new-id" if request.case is not None else "--id"
        try:
            report.notes.extend(append_case(request.append, request.project, items[0], flag))
        except NotAppended as exc:
            return _fail(*exc.lines)
    return report


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
    cases, _doc = load_case_text(text.encode("utf-8"), COMMAND_LINE, optional=OPTIONAL,
                                 schema=request.schema)
    if cases.errors:
        failed = _fail(*(f"{COMMAND_LINE}: {e.message}" for e in cases.errors))
        failed.input_errors = list(cases.errors)
        return failed
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
    rel = STDIN if request.case == "-" else named_file(Path(str(request.case)),
                                                   Layout.of(request.project))
    try:
        data = (read_stdin(request.stdin) if request.case == "-"
                else read_named(Path(str(request.case)), rel))
    except NotAnInput as exc:
        return _fail(exc.error.format())
    data, shift = as_case_file(data)
    cases, doc = load_case_text(data, rel, optional=OPTIONAL)
    if cases.errors:
        return _fail(*(shifted(e, shift).format() for e in cases.errors))
    if doc is None or not cases.cases:
        return _fail(f"{rel}:1: no case; expected a case (a mapping with kind, game and "
                     "the kind's inputs) or a case file")
    raws = _raw_cases(doc.value, cases.cases)
    if shift:
        return Loaded(list(cases.cases), raws, False, rel)
    return Loaded(list(cases.cases), raws, False, rel, data.decode("utf-8").removeprefix(
        "\ufeff"), doc)


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


def _translator(request: ExplainRequest) -> tuple[Translator | None, str, str]:
    """The translator of ``--lang`` (the project's catalog over the built-in one) and a
    note for standard error: for a locale that neither translates, English and a note
    saying so; or the problem (``--lang`` names no locale).

    Returns:
        ``(translator, problem, note)``: the translator ``None`` with a problem.
    """
    if request.translator is not None:
        return request.translator, "", ""
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
        made = made_up_id(case, raw, kind)
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
        title = made_up_title(case, raw, kind, generated)
        if flow:
            editor.add((*base, "title"), title)
        else:
            line = dump_yaml({"title": title}).rstrip("\n") + TITLE_COMMENT
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
                            *dump_yaml({"expect": expect}, step).splitlines()])
    return []
