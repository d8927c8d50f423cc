"""Loading the case files: ``content/examples/**/*.yaml`` → :class:`CaseSet`.

For each file, in sorted path order: read and decode it, parse the YAML with
positions (:mod:`generator.yamlpos`), check its frame against
:func:`~generator.cases.schema.file_schema`, fill each case in from the file's
``defaults`` (only the fields that apply to the case's kind and game), check the case
against :func:`~generator.cases.schema.case_schema`, then what a schema cannot say:
card codes (in the inputs and in ``expect``: every field its kind declares card-shaped),
how often a card is used, jokers in CardVerse, the player count, ids
unique across all files. Every error of the run is collected. An error in one case
(a field, a card, its id) drops that case only; an error in the file itself (unreadable,
not YAML, a wrong top level or a wrong ``defaults``) drops every case of the file. A
case file named ``*.yml`` or ``*.YAML`` (any spelling but ``.yaml``) is an error, not
silently skipped.

Each file is loaded on its own (:func:`_load_file`: everything but the ids of the other
files), then the files are joined in order (:func:`_join`: ids unique across them). What a
file gives on its own depends on its path and bytes only, so a process that loads the
project again (``serve``) keeps it by path and SHA-256 (:data:`_MEMO`) and loads again
only the files whose bytes changed; the join always runs over every file, so the cases and
errors are a fresh load's.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Collection
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any

from generator.cases.model import Case
from generator.cases.model import CaseSet
from generator.cases.model import Position
from generator.cases.model import frozen_mapping
from generator.cases.schema import DEFAULTABLE
from generator.cases.schema import INPUT_FIELDS
from generator.cases.schema import case_problems
from generator.cases.schema import common_fields
from generator.cases.schema import field_applies
from generator.cases.schema import file_problems
from generator.cases.slips import colon_keys
from generator.cases.slips import colon_message
from generator.cases.slips import defaults_misspelt
from generator.cases.slips import meant_defaults
from generator.cases.slips import merged_cases
from generator.cases.slips import misplaced_expect
from generator.cases.slips import second_cases_list
from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.rules import GAMES
from generator.engine.rules import RuleSet
from generator.engine.rules import UnknownGameError
from generator.engine.rules import default_preset
from generator.engine.rules import games
from generator.engine.rules import options_of
from generator.engine.rules import per_registry
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.errors import InputError
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds.fields import FieldSpec
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.yamlpos import BoolText
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

_CODE = re.compile(r"\S+")

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


_MEMO = _Memo(MEMO_BYTES)
"""The case files the last :func:`load_cases` calls of this process loaded."""


def load_cases(project: Path | Layout, *, valid: Collection[str] = frozenset()) -> CaseSet:
    """Load and check every case file of ``project``.

    Args:
        project: the project folder; case files are ``content/examples/**/*.yaml``
            under it (none is not an error; ``*.yml``, ``*.YAML``, ... are errors).
        valid: SHA-256 digests of case files known to load without an error (the build
            cache's, by this generator: :func:`clean_files`): such a file is not checked
            against the schema again (nor is jsonschema imported for it), which finds
            nothing in it; the set is the same.

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
    memo: list[tuple[str, str, int, _FileCases]] = []
    for rel in paths:
        suffix = PurePosixPath(rel).suffix
        if suffix != SUFFIX:
            stem = PurePosixPath(rel).stem
            errors.append(InputError(rel, 1, None, f"file name ends in {suffix!r}, so it "
                                     f"is not read as a case file; expected a name ending "
                                     f"in {SUFFIX} (rename it to {stem}{SUFFIX})"))
            continue
        try:
            data = layout.read(rel, limit=MAX_CASE_FILE_BYTES, what="case file",
                               advice="split its cases over several files in "
                               "content/examples/")
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        files.append(rel)
        sha = digests[rel] = hashlib.sha256(data).hexdigest()
        loaded = _MEMO.get(rel, sha)
        if loaded is None:
            loaded = _load_file(data, rel, schema=sha not in valid)
        memo.append((rel, sha, len(data), loaded))
        _join(rel, loaded, ids, cases, errors)
    _MEMO.keep(memo)
    return CaseSet(cases=tuple(cases), errors=tuple(errors), files=tuple(files),
                   digests=frozen_mapping(digests))


def clean_files(cases: CaseSet) -> list[str]:
    """The SHA-256 digests of the case files of ``cases`` that loaded without any error
    (what :func:`load_cases` takes as ``valid`` next time), sorted."""
    failed = {e.file for e in cases.errors}
    return sorted({sha for rel, sha in cases.digests.items() if rel not in failed})


@per_registry
def most_cards() -> int:
    """The most cards in play in any game and preset: the most one card list may hold."""
    return max(row.cards for spec in games()
               for preset in (spec.presets or (None,))
               for row in spec.rule_set(preset).deck)


def _declared(kind: AnyKind, path: YamlPath) -> FieldSpec | None:
    """How ``kind`` declares the field at ``path`` (``("cards",)``, ``("expect",
    "joker_stands_for")``); ``None`` for a field it does not have."""
    declared = kind.expect if path[0] == "expect" else kind.inputs
    return declared.get(str(path[-1]))


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


def load_case_text(data: bytes, rel: str, *,
                   optional: Collection[str] = ()) -> tuple[CaseSet, YamlDocument | None]:
    """Load the cases of one case file given as bytes (not read from a project: the case
    that ``explain`` reads from a file or standard input).

    Args:
        data: the file's bytes (UTF-8 YAML in the case-file form).
        rel: the name its errors show (``<stdin>``, a path).
        optional: fields every case needs that may be left out here (``explain``:
            ``id``, ``title``, ``expect``, which it fills in itself); a case without
            them has ``""`` (``id``, ``title``) and an empty ``expect``.

    Returns:
        ``(cases, document)``: the :class:`CaseSet` (its ``files`` is ``(rel,)``) and the
        parsed document (``None`` when it is not YAML), whose ``value`` holds each case
        as written.
    """
    text, _error = _decode(data, rel)
    cases: list[Case] = []
    errors: list[InputError] = []
    _join(rel, _load_file(data, rel, frozenset(optional)), {}, cases, errors)
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

    def error(self, mark: Mark, message: str) -> None:
        self.errors.append(InputError(self.rel, mark.line, mark.column, message))

    def position(self, mark: Mark) -> Position:
        return Position(self.rel, mark.line, mark.column)

    def load(self) -> list[_Entry]:
        """Every case of the file that is a mapping, with its id; the case itself when
        it has no error (the caller drops them all when :attr:`file_failed` is set)."""
        value = self.doc.value
        bad_defaults: set[str] = set()
        misspelt = defaults_misspelt(value) if isinstance(value, dict) else None
        if misspelt is not None and isinstance(value[misspelt], dict):
            # what the misspelt defaults would give: its cases miss it quietly
            bad_defaults.update(meant_defaults(value[misspelt], DEFAULTABLE))
        defaults_value = value.get("defaults") if isinstance(value, dict) else None
        colons = {rel: found for rel in walk(defaults_value, ("defaults",))
                  if isinstance(mapping := value_at(value, rel), dict)
                  and (found := colon_keys(mapping))} if self.schema else {}
        slipped = {(*rel, key) for rel, found in colons.items() for key in found.values()}
        for problem in file_problems(value) if self.schema else ():
            full = problem.path
            if len(full) >= 2 and full[0] == "defaults":
                bad_defaults.update(meant_defaults({str(full[1]): None}, DEFAULTABLE))
            if len(full) == 2 and full[0] == "cases" and isinstance(full[1], int):
                self.bad_cases.add(full[1])  # an item that is not a mapping
            else:
                self.file_failed = True
            if full in slipped:
                continue  # said below, once for its mapping
            mark = self.doc.key_mark(full) if problem.at_key else self.doc.mark(full)
            self.error(mark, problem.message)
        for rel, found in colons.items():
            self.file_failed = True
            bad_defaults.update(found)
            self.error(self.doc.key_mark((*rel, next(iter(found.values())))),
                       colon_message(found.values()))
        if not isinstance(value, dict):
            return []
        defaults = value.get("defaults")
        if not isinstance(defaults, dict):
            defaults = {}
        defaults = {k: v for k, v in defaults.items() if k in DEFAULTABLE and k not in bad_defaults}
        raw_cases = value.get("cases")
        if not isinstance(raw_cases, list):
            return []
        entries: list[_Entry] = []
        for index, raw in enumerate(raw_cases):
            if isinstance(raw, dict):
                loader = _CaseLoader(self, ("cases", index), raw, defaults, bad_defaults)
                case = loader.load() if index not in self.merged else None
                entries.append(_Entry(*loader.id_at(),
                                      None if index in self.bad_cases else case))
        return entries


class _CaseLoader:
    """Checks one case and builds its :class:`Case`."""

    def __init__(self, file: _FileLoader, path: YamlPath, raw: dict[str, Any],
                 defaults: dict[str, Any], bad_defaults: set[str]) -> None:
        self.file = file
        self.bad_defaults = bad_defaults
        self.doc = file.doc
        self.path = path
        self.mark = self.doc.mark(path)
        self.value: dict[str, Any] = dict(raw)
        self.from_defaults: set[str] = set()
        for name in DEFAULTABLE:  # kind and game first: the others depend on them
            if name in raw or name not in defaults:
                continue
            if field_applies(name, self._text("kind"), self._text("game")):
                self.value[name] = defaults[name]
                self.from_defaults.add(name)
        self.positions: dict[str, Mark] = {}
        self.cards: list[tuple[Card, Mark]] = []
        self.parsed: dict[YamlPath, tuple[Card, ...]] = {}
        self.failed = False

    # -- positions ---------------------------------------------------------------

    def _full(self, rel: YamlPath) -> YamlPath:
        if rel and rel[0] in self.from_defaults:
            return ("defaults", *rel)
        return (*self.path, *rel)

    def locate(self, rel: YamlPath, at_key: bool = False) -> Mark:
        """Where ``rel`` (a path within the case) is: in the case, or in ``defaults``."""
        full = self._full(rel)
        return self.doc.key_mark(full) if at_key else self.doc.mark(full)

    def report(self, mark: Mark, message: str) -> None:
        """Report ``message`` at ``mark``; the case is dropped."""
        self.failed = True
        self.file.error(mark, message)

    def error(self, rel: YamlPath, message: str, *, at_key: bool = False) -> None:
        """Report ``message`` at ``rel`` within the case (its key with ``at_key``)."""
        self.report(self.locate(rel, at_key), message)

    def read_card(self, rel: YamlPath, code: str, *, count: bool = True) -> Card | None:
        """The card of ``code`` at ``rel`` (see :meth:`card`)."""
        return self.card(rel, code, self.locate(rel), count=count)

    # -- values ------------------------------------------------------------------

    def _text(self, name: str) -> str | None:
        value = self.value.get(name)
        return value if isinstance(value, str) and not isinstance(value, BoolText) else None

    def _known(self, name: str, choices: Collection[str]) -> str | None:
        value = self._text(name)
        return value if value in choices else None

    # -- checks ------------------------------------------------------------------

    def load(self) -> Case | None:
        if self.file.schema:
            self.check_schema()
        name = self._known("kind", KINDS)
        kind = KINDS[name] if name is not None else None
        game = self._known("game", GAMES)
        rules = self._rule_set(game)
        self.check_cards(kind)
        if kind is not None:
            kind.read(self)
        if rules is not None:
            self.check_card_counts(rules)
        inputs = kind.check(self, rules) if kind is not None else None
        if self.failed or kind is None or game is None or inputs is None:
            return None
        return self.build(kind, game, inputs)

    def check_schema(self) -> None:
        colons = {rel: found for rel in walk(self.value)
                  if not (rel and rel[0] in self.from_defaults)
                  and isinstance(mapping := value_at(self.value, rel), dict)
                  and (found := colon_keys(mapping))}
        misplaced = self._misplaced()
        slipped = [*((*rel, key) for rel, found in colons.items() for key in found.values()),
                   *((name,) for name in misplaced)]
        missed = {(rel, name) for rel, found in colons.items() for name in found}
        missed.update((("expect",), name) for name in misplaced)
        if misplaced:
            missed.add(((), "expect"))
        for problem in case_problems(self.value):
            if problem.missing is not None and problem.missing in self.file.optional:
                continue
            if (problem.missing in self.bad_defaults
                    or (problem.path, problem.missing) in missed
                    or any(problem.path[:len(s)] == s for s in slipped)
                    or (misplaced and problem.path == ("expect",)
                        and not self.value.get("expect"))):
                # said at the default, or by the slip's message below: fail quietly
                self.failed = True
                continue
            rel = problem.path
            message = problem.message
            if rel and rel[0] in self.from_defaults:
                # e.g. a first_meld case in a file whose default game is cardverse:
                # say so at the case, which is what needs a game of its own
                where = self.doc.mark(("defaults", rel[0]))
                what, sep, rest = message.partition("; ")
                message = f"{what} ({rel[0]} from defaults at line {where.line}){sep}{rest}"
                mark = self.mark
            else:
                mark = self.locate(rel, problem.at_key)
            self.report(mark, message)
        for rel, found in colons.items():
            self.error((*rel, next(iter(found.values()))), colon_message(found.values()),
                       at_key=True)
        if misplaced:
            self.error((misplaced[0],), misplaced_expect(self.doc, self.path, misplaced),
                       at_key=True)

    def _misplaced(self) -> list[str]:
        """The fields of the case that belong in its ``expect``: fields of its kind's
        ``expect`` and not of the case itself, written after ``expect`` (dedented out of
        it), or, when no kind takes them as an input either (``cards`` is an input of a
        meld and an ``expect`` field of a deck), before it or without it
        (:func:`generator.cases.slips.misplaced_expect`)."""
        name = self._known("kind", KINDS)
        if name is None:
            return []
        kind = KINDS[name]
        expect = self.doc.key_marks.get((*self.path, "expect"))
        found = []
        for key in self.value:
            if (key not in kind.expect or key in kind.inputs or key in common_fields()
                    or key in self.from_defaults):
                continue
            mark = self.doc.key_marks.get((*self.path, key))
            after = expect is not None and mark is not None and mark.line > expect.line
            if after or key not in INPUT_FIELDS:
                found.append(key)
        return found

    def _rule_set(self, game: str | None) -> RuleSet | None:
        if game is None:
            return None
        options = self.value.get("options")
        flags: dict[str, bool] = {}
        if isinstance(options, dict):
            flags = {k: v for k, v in options.items()
                     if k in options_of(game) and isinstance(v, bool)}
        preset = self._known("rules", presets_of(game)) if presets_of(game) else None
        try:
            return rule_set(game, preset, **flags)
        except UnknownGameError:  # pragma: no cover - game and preset are checked above
            return None

    def _card_fields(self, kind: AnyKind | None) -> list[tuple[YamlPath, FieldSpec]]:
        """The fields present that hold cards (a :attr:`FieldSpec.shape` other than
        ``value``, as the kind declares them), with how to read them: the input fields in
        file order (so that a card used too often is reported where it is used once too
        often), then the ``expect`` fields (documented values, no cards in play). A
        field of no kind, or of another kind than the case's, is the schema's to
        report; with an unknown kind, every kind's declarations are read, to report
        every bad code."""
        found: list[tuple[YamlPath, FieldSpec]] = []
        expect = self.value.get("expect")
        kinds = [kind] if kind is not None else list(KINDS.values())
        for path in [*((name,) for name in self.value if name in INPUT_FIELDS),
                     *(("expect", name) for name in
                       (expect if isinstance(expect, dict) else ()))]:
            spec = next((s for k in kinds if (s := _declared(k, path)) is not None), None)
            if spec is not None and spec.shape != "value":
                found.append((path, spec))
        return found

    def check_cards(self, kind: AnyKind | None) -> None:
        """Read every card-shaped field (:meth:`_card_fields`) into :attr:`parsed`, each
        code that names no card an error at it: the inputs' cards are the cards in play,
        ``expect``'s are documented values (its ``card`` fields' errors name the field)."""
        expect: Any = self.value.get("expect")
        for path, spec in self._card_fields(kind):
            value = self.value[str(path[0])] if len(path) == 1 else expect[path[1]]
            name = str(path[-1])
            in_play = path[0] != "expect"
            if spec.shape == "cards":
                self.card_list(value, path, name, count=in_play)
            elif spec.shape == "card":
                if not isinstance(value, str):
                    continue  # the schema has said so
                if in_play:
                    card = self.card(path, value, self.locate(path))
                else:
                    card = self.documented_card(path, value)
                if card is not None:
                    self.parsed[path] = (card,)
            elif isinstance(value, list):
                what = "hand" if spec.shape == "hands" else "meld"
                for index, item in enumerate(value):
                    self.card_list(item, (*path, index), what, count=in_play,
                                   may_be_empty=spec.shape == "hands")

    def documented_card(self, rel: YamlPath, code: str) -> Card | None:
        """The card of the documented value ``code`` at ``rel`` (an ``expect`` field), or
        ``None`` after an error that names the field: not a card in play, and the
        field's position stays its key's (where a disagreement is reported)."""
        try:
            return parse_card(code)
        except CardCodeError as exc:
            self.error(rel, f"{rel[-1]}: {exc}")
            return None

    def card_list(self, value: object, rel: YamlPath, what: str, *,
                  may_be_empty: bool = False, count: bool = True) -> None:
        """Read a card list (a list of codes or a string of codes) into ``self.parsed``;
        record each card and where it is, and an error for each code that names no card
        (and for no card at all, unless ``may_be_empty``: a hand of a seat that went out).
        ``count=False``: the cards name cards of the case counted elsewhere (a scenario's
        actions), not more cards in play."""
        most = most_cards()
        if isinstance(value, (list, str)) and (
                len(value) > most if isinstance(value, list)
                else next(islice(_CODE.finditer(value), most, None), None) is not None):
            # not read card by card: a list that long is wrong whatever its cards
            self.report(self.locate(rel), f"{what} has more than {most} cards; expected at "
                       f"most {most} (the most cards in play in any game)")
            return
        if isinstance(value, list):
            items = [((*rel, index), item, self.locate((*rel, index)))
                     for index, item in enumerate(value)]
        elif isinstance(value, str):
            start = self.locate(rel)
            if "," in value:
                codes = [code for code in re.split(r"[\s,]+", value) if code]
                self.report(start, f"{what} {value!r} is a list written with commas in one "
                           f"string; expected the codes separated by spaces "
                           f"({' '.join(codes)}) or a YAML list ([{', '.join(codes)}])")
                return
            items = []
            for index, match in enumerate(_CODE.finditer(value)):
                column = self.doc.column_in_scalar(self._full(rel), match.start())
                mark = Mark(start.line, column) if column is not None else start
                items.append(((*rel, index), match.group(), mark))
            if not items and not may_be_empty:
                self.report(start, f"{what} is empty; expected at least one card")
        else:
            return  # the schema has said so
        cards: list[Card] = []
        for item_path, code, mark in items:
            if not isinstance(code, str):
                continue  # the schema has said so
            card = self.card(item_path, code, mark, count=count)
            if card is not None:
                cards.append(card)
        if len(cards) == len(items):
            self.parsed[rel] = tuple(cards)

    def card(self, rel: YamlPath, code: str, mark: Mark, *, count: bool = True) -> Card | None:
        """The card of ``code`` (recorded with its position, and among the cards in play
        unless ``count`` is false), or ``None`` after an error."""
        try:
            card = parse_card(code)
        except CardCodeError as exc:
            self.report(mark, str(exc))
            return None
        if count:
            self.cards.append((card, mark))
        self.positions[".".join(map(str, rel))] = mark
        return card

    def check_card_counts(self, rules: RuleSet) -> None:
        game = rules.game
        jokers = [mark for card, mark in self.cards if card.is_joker]
        if not rules.has_jokers:
            for mark in jokers:
                self.report(mark, f"jokers are not used in {game}; expected natural cards only")
        else:
            most = max(rule_set(game, preset).max_jokers
                       for preset in presets_of(game) or (None,))
            if len(jokers) > most:
                self.report(jokers[most], f"{len(jokers)} jokers in this case; expected at most "
                           f"{most} ({game} is played with at most {most} jokers)")
        limit = rules.max_copies
        total = Counter(card for card, _ in self.cards if not card.is_joker)
        seen: Counter[Card] = Counter()
        decks = "one deck" if limit == 1 else f"at most {limit} decks"
        for card, mark in self.cards:
            if card.is_joker:
                continue
            seen[card] += 1
            if seen[card] == limit + 1:
                self.report(mark, f"card {card.code} is used {total[card]} times in this case; "
                           f"expected at most {limit} ({game} is played with {decks})")

    def id_at(self) -> tuple[str | None, Position | None]:
        """The case's id and where it is, for :func:`_join`; ``(None, None)`` when it is
        not a non-empty string (the schema has said so). Duplicates are looked for
        whatever the id's characters (the schema reports those): two cases ``"dup\\n"``
        are two errors, not one case replacing the other."""
        case_id = self._text("id")
        if not case_id:
            return None, None
        return case_id, self.file.position(self.locate(("id",)))

    # -- the case ----------------------------------------------------------------

    def build(self, kind: AnyKind, game: str, inputs: object) -> Case:
        value = self.value
        field_positions: dict[str, Position] = {}
        value_positions: dict[str, Position] = {}
        for rel in walk(value):
            if rel:  # a field: where its key is; a list item: where it starts
                at_key = isinstance(rel[-1], str)
                dotted = ".".join(map(str, rel))
                field_positions[dotted] = self.file.position(self.locate(rel, at_key))
                if at_key:
                    value_positions[dotted] = self.file.position(self.locate(rel))
        for dotted, mark in self.positions.items():
            field_positions[dotted] = self.file.position(mark)
        options = value.get("options", {})
        return Case(
            id=value.get("id", ""),
            kind=kind.name,
            game=game,
            rules=value.get("rules", default_preset(game)) if presets_of(game) else None,
            options=frozen_mapping(
                {name: bool(options.get(name, False)) for name in options_of(game)}
            ),
            title=value.get("title", ""),
            note=value.get("note"),
            inputs=inputs,
            expect=frozen_mapping({k: _frozen(v) for k, v in value.get("expect", {}).items()}),
            position=self.file.position(self.mark),
            field_positions=frozen_mapping(field_positions),
            value_positions=frozen_mapping(value_positions),
            status=value.get("status"),
            because=value.get("because"),
            draft=value.get("draft", False) is True,
        )


def _frozen(value: Any) -> Any:
    """A documented value made immutable: lists become tuples, mappings read-only."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return frozen_mapping({k: _frozen(v) for k, v in value.items()})
    return value
