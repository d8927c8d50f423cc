"""Loading the case files: ``content/examples/**/*.yaml`` → :class:`CaseSet`.

For each file, in sorted path order: read and decode it, parse the YAML with
positions (:mod:`generator.yamlpos`), check its frame against
:func:`~generator.cases.schema.file_schema`, fill each case in from the file's
``defaults`` (only the fields that apply to the case's kind and game), check the case
against :func:`~generator.cases.schema.case_schema`, then what a schema cannot say:
card codes (in the inputs and in ``expect``: every field its kind declares card-shaped),
how often a card is used, jokers in CardVerse, the player count (one case:
:class:`~generator.cases.reader.CaseReader`), ids unique across all files. Every error of
the run is collected. An error in one case (a field, a card, its id) drops that case only;
an error in the file itself (unreadable, not YAML, a wrong top level or a wrong
``defaults``) drops every case of the file. A case file named ``*.yml`` or ``*.YAML`` (any
spelling but ``.yaml``) is an error, not silently skipped.

Each file is loaded on its own (:func:`_load_file`: everything but the ids of the other
files), then the files are joined in order (:func:`_join`: ids unique across them). What a
file gives on its own depends on its path and bytes only, so a process that loads the
project again (``serve``) keeps it by path and SHA-256 (:data:`_MEMO`) and loads again
only the files whose bytes changed; the join always runs over every file, so the cases and
errors are a fresh load's. Because a file's load depends on nothing else, a forked helper
parses some of them where there are many (:func:`generator.forks.shared_map`), while
this process parses the others and the caller loads the pages and catalogs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from collections.abc import Collection
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any

from yaml import ScalarNode

from generator.cases.model import Case
from generator.cases.model import CaseSet
from generator.cases.model import Position
from generator.cases.model import frozen_mapping
from generator.cases.problems import SchemaProblem
from generator.cases.problems import file_problems
from generator.cases.reader import CaseReader
from generator.cases.reader import FileDefaults
from generator.cases.schema import DEFAULTABLE
from generator.cases.slips import colon_keys
from generator.cases.slips import colon_message
from generator.cases.slips import defaults_misspelt
from generator.cases.slips import meant_defaults
from generator.cases.slips import merged_cases
from generator.cases.slips import second_cases_list
from generator.engine.rules import games
from generator.errors import InputError
from generator.forks import shared_map
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.yamlpos import Mark
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import parse_yaml
from generator.yamlpos import value_at
from generator.yamlpos import walk

SUFFIX = ".yaml"
"""The case files' suffix, exactly."""

_MISNAMED = frozenset({".yaml", ".yml"})
"""Suffixes (lowercased) of files meant as case files: any spelling but :data:`SUFFIX`
is an error."""

MAX_CASE_FILE_BYTES = 5_000_000
"""The largest case file read (5 MB, about 30,000 cases; reading one takes about 100
times its size in memory): a larger one is an input error, refused before it is read."""

MEMO_BYTES = 10_000_000
"""The most case-file bytes whose loaded cases :data:`_MEMO` keeps between two loads
(measured: what it keeps takes about 20 times the files' size in memory)."""


@dataclass(frozen=True)
class _Entry:
    """One case of a file loaded on its own (:func:`_load_file`).

    Attributes:
        id: the case's id when it is a non-empty string, else ``None`` (the schema has
            said what is wrong).
        where: where the id is (``None`` with no id).
        case: the case, or ``None`` when anything in its file is wrong with it (the
            ids of other files aside: :func:`_join`).
    """

    id: str | None
    where: Position | None
    case: Case | None


@dataclass(frozen=True)
class _FileCases:
    """What one case file gives on its own: every case in file order (those with an
    error too, for their ids), and the file's errors in the order found (repeats
    kept); a function of the file's path and bytes only."""

    entries: tuple[_Entry, ...] = ()
    errors: tuple[InputError, ...] = ()


class _Memo:
    """What the last :func:`load_cases` calls of this process loaded: each file's
    :class:`_FileCases` by its path and the SHA-256 of its bytes, for the next loads (a
    process that loads the project again: ``serve``; one that loads copies of a project,
    as the tests do). It holds the files of the last load (in path order, each that
    still fits in ``limit`` bytes of files), then, in the room left, those of the loads
    before it, the newest first: a file changed, or other projects' loads, push the
    oldest out; a game registered or unregistered since
    (:func:`generator.engine.rules.register_game`) forgets them all.

    Args:
        limit: the most bytes of files whose cases are kept.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: tuple[object, dict[tuple[str, str], tuple[int, _FileCases]]] = (
            games(), {})

    def get(self, rel: str, sha: str) -> _FileCases | None:
        """What file ``rel`` with bytes of SHA-256 hex digest ``sha`` gave, or ``None``."""
        registry, kept = self._kept
        found = kept.get((rel, sha)) if registry is games() else None
        return None if found is None else found[1]

    def keep(self, files: Iterable[tuple[str, str, int, _FileCases]]) -> None:
        """Keep these files first: ``(rel, sha, size in bytes, what it gave)`` each, then
        those kept before (under the same games), the newest first, while their sizes add
        up to at most :attr:`limit`."""
        kept: dict[tuple[str, str], tuple[int, _FileCases]] = {}
        budget = self.limit
        for rel, sha, size, loaded in files:
            if size <= budget:
                kept[(rel, sha)] = (size, loaded)
                budget -= size
        registry, before = self._kept
        for key, (size, loaded) in before.items() if registry is games() else ():
            if key not in kept and size <= budget:
                kept[key] = (size, loaded)
                budget -= size
        self._kept = (games(), kept)  # one assignment: a load in another thread sees either

    def clear(self) -> None:
        """Forget every file."""
        self._kept = (games(), {})


FORK_FROM_BYTES = 150_000
"""The case-file bytes to parse from which a forked helper parses some of them
(:func:`generator.forks.shared_map`): about a quarter of a second's work, where the
helper's start and the results' way back cost a few hundredths."""

_MEMO = _Memo(MEMO_BYTES)
"""The case files the last :func:`load_cases` calls of this process loaded."""


def load_cases(project: Path | Layout, *, valid: Collection[str] = frozenset(),
               first: Callable[[], object] | None = None) -> CaseSet:
    """Load and check every case file of ``project``.

    Args:
        project: the project folder; case files are ``content/examples/**/*.yaml``
            under it (none is not an error; ``*.yml``, ``*.YAML``, ... are errors).
        valid: SHA-256 digests of case files known to load without an error (the build
            cache's, by this generator: :func:`clean_files`): such a file is not checked
            against the schema again (nor is jsonschema imported for it), which finds
            nothing in it; the set is the same.
        first: called once, after the files are read and before any is parsed here:
            what the caller does meanwhile where a forked helper parses them
            (:func:`generator.forks.shared_map`; ``load_project`` loads the pages and
            the catalogs).

    Returns:
        A :class:`CaseSet`: the cases without errors (file order), every input error
        (files in sorted order, then by line and column) and the files read. A case
        with an error is left out; so is every case of a file whose frame is wrong
        (not readable, not YAML, a wrong top level or ``defaults``). Never raises for
        bad input: unreadable files, non-UTF-8 text and bad YAML are errors in the set.
        A file this process loaded before with the same bytes is not parsed again
        (:data:`_MEMO`); the set is the same.
    """
    layout = Layout.of(project)
    errors: list[InputError] = []
    paths = sorted((rel for rel in layout.walk(EXAMPLES, errors)
                    if PurePosixPath(rel).suffix.lower() in _MISNAMED),
                   key=lambda rel: PurePosixPath(rel).parts)
    cases: list[Case] = []
    files: list[str] = []
    ids: dict[str, Position] = {}
    digests: dict[str, str] = {}
    read: list[InputError | tuple[str, bytes, str]] = []  # each path: its error, or
    # its path, bytes and SHA-256, in path order
    for rel in paths:
        suffix = PurePosixPath(rel).suffix
        if suffix != SUFFIX:
            stem = PurePosixPath(rel).stem
            read.append(InputError(rel, 1, None, f"file name ends in {suffix!r}, so it is "
                                   f"not read as a case file; expected a name ending in "
                                   f"{SUFFIX} (rename it to {stem}{SUFFIX})"))
            continue
        try:
            data = layout.read(rel, limit=MAX_CASE_FILE_BYTES, what="case file",
                               advice="split its cases over several files in "
                               "content/examples/")
        except NotAnInput as exc:
            read.append(exc.error)
            continue
        read.append((rel, data, hashlib.sha256(data).hexdigest()))
    loaded = _loaded([item for item in read if not isinstance(item, InputError)], valid,
                     first)
    memo: list[tuple[str, str, int, _FileCases]] = []
    for item in read:
        if isinstance(item, InputError):
            errors.append(item)
            continue
        rel, data, sha = item
        files.append(rel)
        digests[rel] = sha
        memo.append((rel, sha, len(data), loaded[rel]))
        _join(rel, loaded[rel], ids, cases, errors)
    _MEMO.keep(memo)
    return CaseSet(cases=tuple(cases), errors=tuple(errors), files=tuple(files),
                   digests=frozen_mapping(digests))


def _loaded(files: list[tuple[str, bytes, str]], valid: Collection[str],
            first: Callable[[], object] | None) -> dict[str, _FileCases]:
    """What each file (path, bytes, SHA-256) gives on its own, by path: the memo's
    (:data:`_MEMO`), or loaded now (:func:`_load_file`), shared with a forked helper
    from :data:`FORK_FROM_BYTES` of files to load (while this process runs ``first``)."""
    found = {rel: _MEMO.get(rel, sha) for rel, _data, sha in files}
    todo = [(rel, data, sha not in valid) for rel, data, sha in files
            if found[rel] is None]
    made = shared_map(lambda item: _load_file(item[1], item[0], schema=item[2]), todo,
                      helped=sum(len(data) for _rel, data, _schema in todo) >= FORK_FROM_BYTES,
                      first=first)
    return {**{rel: loaded for rel, loaded in found.items() if loaded is not None},
            **{rel: loaded for (rel, _data, _schema), loaded in zip(todo, made, strict=True)}}


def clean_files(cases: CaseSet) -> list[str]:
    """The SHA-256 digests of the case files of ``cases`` that loaded without any error
    (what :func:`load_cases` takes as ``valid`` next time), sorted."""
    failed = {e.file for e in cases.errors}
    return sorted({sha for rel, sha in cases.digests.items() if rel not in failed})


def _by_position(error: InputError) -> tuple[int, int]:
    return (error.line, error.column or 0)


def _join(rel: str, loaded: _FileCases, ids: dict[str, Position], cases: list[Case],
          errors: list[InputError]) -> None:
    """Add file ``rel``'s cases and errors (``loaded``) to ``cases`` and ``errors``, after
    the files before it, whose ids are in ``ids``: a case whose id is already there is
    dropped with an error at its id (the first definition stays); the others' ids are
    added. The file's errors are sorted by position; at one position, in the order found
    (the schema's field order; a duplicate id is found last of its case's)."""
    found = list(loaded.errors)
    for entry in loaded.entries:
        if entry.id is not None and entry.where is not None:
            first = ids.get(entry.id)
            if first is not None:
                found.append(InputError(rel, entry.where.line, entry.where.column,
                                        f"duplicate case id {entry.id!r} (first defined at "
                                        f"{first}); expected ids unique across all case "
                                        "files"))
                continue
            ids[entry.id] = entry.where
        if entry.case is not None:
            cases.append(entry.case)
    errors.extend(sorted(dict.fromkeys(found), key=_by_position))


def _decode(data: bytes, rel: str) -> tuple[str | None, InputError | None]:
    """The file's text, or the error that keeps it from being decoded."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        return None, InputError(rel, before.count(b"\n") + 1, column,
                                f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                                "expected UTF-8 text")
    return text.removeprefix("\ufeff"), None


def load_case_text(data: bytes, rel: str, *, optional: Collection[str] = (),
                   schema: bool = True) -> tuple[CaseSet, YamlDocument | None]:
    """Load the cases of one case file given as bytes (not read from a project: the case
    that ``explain`` reads from a file or standard input).

    Args:
        data: the file's bytes (UTF-8 YAML in the case-file form).
        rel: the name its errors show (``<stdin>``, a path).
        optional: fields every case needs that may be left out here (``explain``:
            ``id``, ``title``, ``expect``, which it fills in itself); a case without
            them has ``""`` (``id``, ``title``) and an empty ``expect``.
        schema: check the file and its cases against the schema (``False``: the text is
            known to fit it, as the card checker's cases are, made from the choices a
            page offers: jsonschema is not imported).

    Returns:
        ``(cases, document)``: the :class:`CaseSet` (its ``files`` is ``(rel,)``) and the
        parsed document (``None`` when it is not YAML), whose ``value`` holds each case
        as written.
    """
    text, _error = _decode(data, rel)
    cases: list[Case] = []
    errors: list[InputError] = []
    _join(rel, _load_file(data, rel, frozenset(optional), schema=schema), {}, cases, errors)
    doc = parse_yaml(text, rel, bool_words=True)[0] if text is not None and cases else None
    return CaseSet(cases=tuple(cases), errors=tuple(errors), files=(rel,)), doc


def _load_file(data: bytes, rel: str, optional: frozenset[str] = frozenset(), *,
               schema: bool = True) -> _FileCases:
    """One file (its bytes, its path ``rel``) loaded on its own: its cases, each with its
    id (the case ``None`` when it has an error; every case ``None`` when the file's frame
    is wrong) and its errors, all but the ids of other files (:func:`_join`).
    ``optional``: required fields that may be missing (:func:`load_case_text`);
    ``schema``: check the file and its cases against the schema (``False``: the file is
    known valid, see :func:`load_cases`)."""
    text, read_error = _decode(data, rel)
    if text is None:
        return _FileCases(errors=(read_error,) if read_error else ())
    doc, errors = parse_yaml(text, rel, bool_words=True)  # yes/no: neither bool nor text
    if doc is None:
        return _FileCases(errors=tuple(errors))
    if doc.value is None:
        return _FileCases(errors=(*errors, InputError(
            rel, 1, None, "the file is empty; expected a mapping with 'cases' (a list of "
            "cases)")))
    loader = _FileLoader(rel, doc, optional, schema=schema)
    loader.errors.extend(loader.merged_cases(errors))
    for _, where in doc.error_paths:
        # a duplicate key, an unsupported tag, ...: in one case, or in the file's frame
        if len(where) >= 2 and where[0] == "cases" and isinstance(where[1], int):
            loader.bad_cases.add(where[1])
        else:
            loader.file_failed = True
    entries = loader.load()
    if loader.file_failed:
        entries = [_Entry(e.id, e.where, None) for e in entries]
    return _FileCases(tuple(entries), tuple(loader.errors))


class _FileLoader:
    """Checks the cases of one parsed file.

    Attributes:
        errors: every error found in the file.
        file_failed: an error in the file's frame (top level, ``defaults``): none of
            its cases is kept.
        bad_cases: the indexes (in ``cases``) of the cases with an error found before
            :meth:`load` (by the YAML parser, or because the item is not a mapping).
        merged: the indexes of the items that hold two cases run together (a missing
            ``- ``): said once (:meth:`merged_cases`), and not checked further.
        values_said: where the YAML parser has reported a value of its own (a tag it
            does not fit, an unsupported tag, a control character), by line and column:
            the value is read as its text, and the schema's "must be an integer; got
            string" there only follows from that, so it is not said again
            (:meth:`generator.cases.reader.CaseReader.check_schema`).
    """

    def __init__(self, rel: str, doc: YamlDocument,
                 optional: frozenset[str] = frozenset(), *, schema: bool = True) -> None:
        self.rel = rel
        self.optional = optional
        self.schema = schema
        self.doc = doc
        self.errors: list[InputError] = []
        self.file_failed = False
        self.bad_cases: set[int] = set()
        self.merged: set[int] = set()
        self.values_said = frozenset(
            (error.line, error.column) for error, where in doc.error_paths
            if isinstance(doc.nodes.get(where), ScalarNode))

    def merged_cases(self, errors: list[InputError]) -> list[InputError]:
        """``errors`` (the parser's) with the duplicate keys of each item that holds two
        cases run together (:func:`generator.cases.slips.merged_cases`) replaced by the
        one error that says so, those items going to :attr:`merged`; and a second
        top-level ``cases:`` by the error that says to add to the first
        (:func:`generator.cases.slips.second_cases_list`)."""
        replaced: set[int] = set()
        said: list[InputError] = []
        for path, duplicates in self.doc.duplicates.items():
            if not path and (second := second_cases_list([d[:3] for d in duplicates])):
                mark, message = second
                replaced.update(id(d[3]) for d in duplicates if d[0] == "cases")
                said.append(InputError(self.rel, mark.line, mark.column, message))
                continue
            if len(path) != 2 or path[0] != "cases" or not isinstance(path[1], int):
                continue
            found = merged_cases(self.doc, path, [d[:3] for d in duplicates])
            if found is not None and path[1] not in self.merged:
                mark, message = found
                self.merged.add(path[1])
                replaced.update(id(d[3]) for d in duplicates)
                said.append(InputError(self.rel, mark.line, mark.column, message))
        return [e for e in errors if id(e) not in replaced] + said

    def error(self, mark: Mark, message: str, *, code: str = "",
              params: tuple[tuple[str, str], ...] = ()) -> None:
        self.errors.append(InputError(self.rel, mark.line, mark.column, message, code,
                                      params))

    def position(self, mark: Mark) -> Position:
        return Position(self.rel, mark.line, mark.column)

    def load(self) -> list[_Entry]:
        """Every case of the file that is a mapping, with its id; the case itself when
        it has no error (the caller drops them all when :attr:`file_failed` is set)."""
        value = self.doc.value
        bad_defaults = self.check_frame(value)
        if not isinstance(value, dict):
            return []
        defaults = _defaults(value, bad_defaults)
        raw_cases = value.get("cases")
        if not isinstance(raw_cases, list):
            return []
        return [self._entry(index, raw, defaults) for index, raw in enumerate(raw_cases)
                if isinstance(raw, dict)]

    def _entry(self, index: int, raw: dict[str, Any], defaults: FileDefaults) -> _Entry:
        """The case at ``index`` in ``cases`` (``raw``, a mapping) read with the file's
        ``defaults``: its id, and the case unless it has an error (one found before,
        two cases run together included)."""
        reader = CaseReader(self, ("cases", index), raw, defaults)
        case = reader.load() if index not in self.merged else None
        return _Entry(*reader.id_at(), None if index in self.bad_cases else case)

    def check_frame(self, value: object) -> frozenset[str]:
        """Report what is wrong with the file's frame (``value``: its top level, its
        ``defaults``, each item of ``cases`` for being a mapping), unless it is known
        valid: the schema's problems in its order, then the keys of ``defaults`` written
        ``name:value``, once for each mapping.

        Returns:
            The fields ``defaults`` means to give but gets wrong (misspelt, wrong, or
            written ``name:value``): a case that misses one fails quietly.
        """
        bad = _misspelt_defaults(value)
        colons = self._default_colons(value) if self.schema else {}
        slipped = {(*rel, key) for rel, found in colons.items() for key in found.values()}
        for problem in file_problems(value) if self.schema else ():
            bad.update(self._frame_problem(problem, slipped))
        for rel, found in colons.items():
            self.file_failed = True
            bad.update(found)
            self.error(self.doc.key_mark((*rel, next(iter(found.values())))),
                       colon_message(found.values()))
        return frozenset(bad)

    def _default_colons(self, value: object) -> dict[YamlPath, dict[str, str]]:
        """The mappings in ``defaults`` with keys written ``name:value``
        (:func:`~generator.cases.slips.colon_keys`), by their paths."""
        defaults = value.get("defaults") if isinstance(value, dict) else None
        return {rel: found for rel in walk(defaults, ("defaults",))
                if isinstance(mapping := value_at(value, rel), dict)
                and (found := colon_keys(mapping))}

    def _frame_problem(self, problem: SchemaProblem, slipped: Collection[YamlPath]) -> set[str]:
        """Record one problem of the file's frame: an item of ``cases`` that is not a
        mapping fails that case, any other the whole file; report it unless it is at a
        key written ``name:value`` (in ``slipped``, said once for its mapping).

        Returns:
            The fields of ``defaults`` the problem is in.
        """
        full = problem.path
        bad: set[str] = set()
        if len(full) >= 2 and full[0] == "defaults":
            bad = meant_defaults({str(full[1]): None}, DEFAULTABLE)
        if len(full) == 2 and full[0] == "cases" and isinstance(full[1], int):
            self.bad_cases.add(full[1])  # an item that is not a mapping
        else:
            self.file_failed = True
        if full not in slipped:
            mark = self.doc.key_mark(full) if problem.at_key else self.doc.mark(full)
            self.error(mark, problem.message)
        return bad


def _misspelt_defaults(value: object) -> set[str]:
    """The fields a misspelt ``defaults`` (``default:``, ``Defaults:``) would give: its
    cases miss them quietly (the misspelling is the file's error)."""
    misspelt = defaults_misspelt(value) if isinstance(value, dict) else None
    if misspelt is not None and isinstance(value, dict) and isinstance(value[misspelt], dict):
        return meant_defaults(value[misspelt], DEFAULTABLE)
    return set()


def _defaults(value: dict[str, Any], bad: frozenset[str]) -> FileDefaults:
    """What the file ``value``'s ``defaults`` give its cases: the fields it may hold,
    but those it gets wrong (``bad``)."""
    defaults = value.get("defaults")
    if not isinstance(defaults, dict):
        defaults = {}
    return FileDefaults(
        {k: v for k, v in defaults.items() if k in DEFAULTABLE and k not in bad}, bad)
