"""``explain --append FILE``: the case ``explain`` printed, added to a case file through the
safe writer (docs/site.md, "explain"), every other byte of the file kept.

The steps, one function each (:func:`append_case`): name the file (:class:`_Target`), read
it (:func:`_read`), make its new text (:func:`_new_file` for a file that does not exist or
holds nothing but comments, :func:`_added_item` for a case file), refuse an id the file or
the project has (:func:`_refuse_taken_id`), load and verify the new text
(:func:`_reloaded`), write it (:func:`_rewrite`) and say where the case went
(:func:`_notes`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from generator.cases.edit import CannotEdit
from generator.cases.edit import TextEditor
from generator.cases.loader import MAX_CASE_FILE_BYTES
from generator.cases.loader import SUFFIX
from generator.cases.loader import load_case_text
from generator.cases.loader import load_cases
from generator.cases.model import Case
from generator.cases.schema import DEFAULTABLE
from generator.commands.explain_case import CaseItem
from generator.commands.explain_case import as_item
from generator.commands.explain_read import CASE_ADVICE
from generator.commands.explain_read import COMMAND_LINE
from generator.errors import InputError
from generator.errors import shown
from generator.layout import CONTENT
from generator.layout import EXAMPLES
from generator.layout import SCHEMA_COMMENT
from generator.layout import SCHEMA_FILE
from generator.layout import FileChanged
from generator.layout import FileState
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import read_regular
from generator.layout import real_path
from generator.layout import rewrite_file
from generator.verify import verify_case
from generator.yamlpos import YamlDocument
from generator.yamlpos import parse_yaml


class NotAppended(Exception):
    """Nothing was written to the case file: the input errors that say why (exit 2).

    Attributes:
        lines: the errors, one line each.
    """

    def __init__(self, *lines: str) -> None:
        super().__init__(*lines)
        self.lines = lines


@dataclass(frozen=True)
class _Target:
    """The case file ``--append`` names.

    Attributes:
        layout: the project's layout (``--project``).
        path: the file as given.
        real: the file in its folder's real path.
        rel: its path in the project, or ``None`` outside it.
        name: how messages name it (its path in the project, else as given).
    """

    layout: Layout
    path: Path
    real: Path
    rel: str | None
    name: str

    @classmethod
    def of(cls, given: str, project: Path) -> _Target:
        """The target of ``--append given`` in the project ``project``."""
        layout = Layout.of(project)
        path = Path(given)
        real = real_path(path.parent) / path.name
        rel = real.relative_to(layout.root).as_posix() if real.is_relative_to(layout.root) \
            else None
        return cls(layout, path, real, rel, shown(rel if rel else given))


@dataclass(frozen=True)
class _Read:
    """The case file's text as read.

    Attributes:
        state: the file as read, to be rewritten (``data`` ``None``: no file).
        text: its text, without a byte-order mark (bytes that are not UTF-8 replaced).
        doc: the text parsed, or ``None`` (blank, or a YAML error).
        fresh: no file, or one holding nothing but comments: it gets ``cases:``.
        newline: the file's line end (``\\n`` where it has none).
    """

    state: FileState
    text: str
    doc: YamlDocument | None
    fresh: bool
    newline: str


def append_case(given: str, project: Path, item: CaseItem, id_flag: str) -> list[str]:
    """Add ``item`` to the case file ``given`` (``--append``), every other byte of it kept:
    as the last item of its ``cases:`` block list, placed and indented as its items are
    (its ``defaults``' fields that would change the case written out); a file that does
    not exist, or holds nothing but comments, gets ``cases:`` and the item (a new file
    of a project that has the editor schema, :data:`~generator.layout.SCHEMA_FILE`, a
    first line naming it, as ``init``'s case file has). Nothing is written when the file
    has an input error, when the case's id is one the file or the project (``project``)
    already has, or when the file changed since it was read (the safe writer,
    :func:`generator.layout.rewrite_file`, as ``check --fix``).

    Args:
        given: the file, as ``--append`` names it.
        project: the project folder (``--project``).
        item: the case, as ``explain`` printed it.
        id_flag: the option that gives the case another id (``--id``, ``--new-id``),
            for the duplicate id's message.

    Returns:
        The notes for standard error: where the case went, and whether ``check`` reads
        the file.

    Raises:
        NotAppended: nothing was written (its lines say why).
    """
    target = _Target.of(given, project)
    read = _read(target)
    own: dict[str, str] = {}
    if read.fresh:
        new = _new_file(target, read, item)
    else:
        new, own = _added_item(target, read, item)
    case_id = item.fields["id"]
    _refuse_taken_id(target, own, case_id, id_flag)
    added = _reloaded(target, new, case_id)
    _rewrite(target, read.state, new)
    return _notes(target, case_id, added)


def _read(target: _Target) -> _Read:
    """Read the case file (:func:`_append_state`) and parse it.

    Raises:
        NotAppended: it cannot be appended to.
    """
    try:
        state = _append_state(target)
    except NotAnInput as exc:
        raise NotAppended(exc.error.format()) from None
    text = "" if state.data is None else state.data.decode("utf-8", errors="replace") \
        .removeprefix("\ufeff")
    doc, parse_errors = parse_yaml(text, target.name) if text.strip() else (None, [])
    fresh = state.data is None or (not parse_errors and (doc is None or doc.value is None))
    found = re.search(r"\r\n|[\r\n]", text)
    return _Read(state, text, doc, fresh, found.group() if found else "\n")


def _new_file(target: _Target, read: _Read, item: CaseItem) -> str:
    """The text of a file that gets ``cases:`` and the item: after its comments, or, new
    in a project with the editor schema, after the line naming the schema."""
    text, newline = read.text, read.newline
    schema = target.layout.root / SCHEMA_FILE
    if read.state.data is None and target.rel is not None and schema.is_file():
        text = f"{SCHEMA_COMMENT}{Path(os.path.relpath(schema, target.real.parent)).as_posix()}\n"
    return text + (newline if text and not text.endswith(("\n", "\r")) else "") + \
        f"cases:{newline}" + as_item(item.lines()).replace("\n", newline)


def _added_item(target: _Target, read: _Read, item: CaseItem) -> tuple[str, dict[str, str]]:
    """The case file's text with the item added to its ``cases:``, and where each case
    id of the file is (``FILE:LINE:COL``).

    Raises:
        NotAppended: the file has input errors, or its ``cases:`` is no block list.
    """
    assert read.state.data is not None
    name, doc = target.name, read.doc
    cases, _doc = load_case_text(read.state.data, name)
    if cases.errors or doc is None:
        raise NotAppended(*(e.format() for e in cases.errors),
                          f"{name}:1: --append: nothing written: the file has input errors; "
                          "expected a case file that check passes (fix them first)")
    own = {case.id: str(case.position) for case in cases.cases}
    editor = TextEditor(read.text, doc)
    defaults = doc.value.get("defaults") if isinstance(doc.value, dict) else None
    explicit = [n for n in DEFAULTABLE if isinstance(defaults, dict) and n in defaults]
    try:
        editor.append_item(("cases",), item.lines(editor.indent_step() or 2, explicit))
    except CannotEdit as exc:
        line = doc.key_mark(("cases",)).line
        raise NotAppended(f"{name}:{line}: --append: cannot add the case: {exc}; expected "
                          "cases: as a block list (- items) to add it to") from None
    return editor.apply(), own


def _refuse_taken_id(target: _Target, own: dict[str, str], case_id: str,
                     id_flag: str) -> None:
    """Refuse an id a case of the project, or of the file, has already.

    Raises:
        NotAppended: the id is taken (where it is first defined said).
    """
    first = _project_ids(target.layout).get(case_id) or own.get(case_id)
    if first is not None:
        raise NotAppended(f"{COMMAND_LINE}: duplicate case id {case_id!r} (first defined at "
                          f"{first}); expected an id no case has: give one with {id_flag}; "
                          f"nothing written to {target.name}")


def _reloaded(target: _Target, new: str, case_id: str) -> Case:
    """The case added, loaded from the new text as ``check`` would load it.

    Raises:
        NotAppended: the new text would not load, or the case not agree.
    """
    done, _doc = load_case_text(new.encode("utf-8"), target.name)
    added = done.get(case_id)
    if done.errors or added is None or verify_case(added).failing:  # pragma: no cover
        raise NotAppended(f"{target.name}:1: --append: the case would not load or agree "
                          "there; add it by hand")
    return added


def _rewrite(target: _Target, state: FileState, new: str) -> None:
    """Write the new text through the safe writer.

    Raises:
        NotAppended: the file changed since it was read, or cannot be written.
    """
    name = target.name
    try:
        rewrite_file(state, new)
    except FileChanged:
        raise NotAppended(f"{name}:1: the file changed since it was read; nothing written to "
                          "it (run explain again)") from None
    except OSError as exc:
        raise NotAppended(f"{name}:1: cannot be written: {exc.strerror or exc}; the file is "
                          "unchanged") from None


def _notes(target: _Target, case_id: str, added: Case) -> list[str]:
    """Where the case went; for a file that is no case file of the project, that
    ``check`` does not read it."""
    name, rel, layout = target.name, target.rel, target.layout
    notes = [f"appended case {case_id} to {name} (line {added.position.line})"]
    if rel is None or not rel.startswith(f"{EXAMPLES}/") or not rel.endswith(SUFFIX):
        notes.append(f"note: {name} is no case file of the project {shown(str(layout.root))}"
                     f" (a {SUFFIX} file under {EXAMPLES}/): check does not read it")
    return notes


def _append_state(target: _Target) -> FileState:
    """The case file ``--append`` names, read to be rewritten: through the project's
    layout inside the project (a link out of it, a FIFO, a folder are refused), as a
    regular file outside it; a state of no file where there is none.

    Raises:
        NotAnInput: it cannot be appended to (at ``name:1``).
    """
    layout, path, rel, name = target.layout, target.path, target.rel, target.name
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
