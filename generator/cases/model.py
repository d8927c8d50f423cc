"""The loaded case values (docs/DESIGN.md, "Case model").

Everything here is immutable: mappings are :class:`types.MappingProxyType` over
dicts nobody else holds, sequences are tuples.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from dataclasses import is_dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any
from typing import TypeVar

from generator.digests import digest
from generator.engine.rules import RuleSet
from generator.engine.rules import rule_set
from generator.errors import InputError
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds.base import Documented
from generator.kinds.base import Leaf

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class Position:
    """A place in an input file (1-based).

    Attributes:
        file: relative to the project, POSIX separators.
        line: 1-based line.
        column: 1-based column (characters), or ``None`` where unknown.
    """

    file: str
    line: int
    column: int | None

    def __str__(self) -> str:
        if self.column is None:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Case:
    """One documented example, checked by the loader and ready for the engine.

    Attributes:
        id: unique across all case files, ``[a-z0-9-]+``.
        kind: the name of one of :data:`generator.kinds.KINDS` (``"meld"``, ...).
        game: ``"rami40"``, ``"rami51"`` or ``"cardverse"``.
        rules: ``"reference"`` or ``"house"`` for Rami (``"reference"`` when not given);
            ``None`` for CardVerse.
        options: CardVerse: ``ace_high`` and ``discard_to_win``, both present
            (``False`` when not given); empty for Rami.
        title: English source text of the title.
        note: English source text of the note, or ``None``.
        inputs: what the kind reads from the case (its ``Inputs`` dataclass, e.g.
            :class:`generator.kinds.meld.CardsInput`), checked by the loader.
        expect: the documented values by field name (``"verdict"``, ``"points"``, ...);
            only the fields the case file states; lists as tuples (``scores``).
        position: where the case's mapping starts (its first key).
        field_positions: where each field given in the file (or in its ``defaults``) is
            (a field: its key; a list item: where the item starts), by dotted path:
            ``"id"``, ``"title"``, ``"expect"``, ``"expect.points"``,
            ``"cards"``, ``"cards.0"`` (each card, also within a card string where the
            column is known), ``"melds.1.2"``, ``"options.ace_high"``. Fields filled in
            from ``defaults`` have the default's position; fields filled in by the
            loader itself (``rules: reference``, CardVerse options) have none: use
            :meth:`position_of`.
        status: ``"pending"``, ``"known_disagreement"``
            (:class:`generator.engine.codes.CaseStatus`) or ``None`` (docs/site.md, "Case
            status").
        because: English source text of why a ``known_disagreement`` disagrees, or
            ``None``.
        draft: ``draft: true``: verified as any case, but left out of the built site
            unless the build shows drafts (docs/site.md, "Drafts").
    """

    id: str
    kind: str
    game: str
    rules: str | None
    options: Mapping[str, bool] = field(hash=False)
    title: str
    note: str | None
    inputs: Any = field(hash=False)
    expect: Mapping[str, Documented] = field(hash=False)
    position: Position
    field_positions: Mapping[str, Position] = field(hash=False, repr=False)
    value_positions: Mapping[str, Position] = field(
        hash=False, repr=False, default_factory=lambda: MappingProxyType({}))
    status: str | None = None
    because: str | None = None
    draft: bool = False

    @cached_property
    def digest(self) -> str:
        """A digest of everything the engine and a case's row read of it: the case as
        loaded (kind, game, rules, options, title, note, inputs, documented values,
        status, draft), not where it is in its file (neither :attr:`position` nor
        :attr:`field_positions`: a line added above it changes nothing a page shows, and
        nothing the engine reads), the same in every process (the build cache's key of a
        case)."""
        return digest(_canonical(self, unplaced=True))

    @property
    def spec(self) -> AnyKind:
        """The case's kind (:data:`generator.kinds.KINDS`): what runs it, explains it and
        draws its row."""
        return KINDS[self.kind]

    def rule_set(self) -> RuleSet:
        """The rule set the case is played under:
        ``generator.engine.rules.rule_set(game, rules, **options)``, made once per case
        (a case's row asks for it in every locale).

        Raises:
            generator.engine.rules.UnknownGameError: never for a case the loader made.
        """
        return self._rule_set

    @cached_property
    def _rule_set(self) -> RuleSet:
        return rule_set(self.game, self.rules, **self.options)

    def position_of(self, name: str) -> Position:
        """Where the field ``name`` (dotted, e.g. ``"expect.points"``) is documented:
        its own position, else that of the nearest enclosing field, else the case's."""
        while name:
            found = self.field_positions.get(name)
            if found is not None:
                return found
            name = name.rpartition(".")[0]
        return self.position

    def value_column_of(self, name: str) -> int | None:
        """The 1-based column where the value of the field ``name`` (dotted, as
        :meth:`position_of` takes it) starts, when the file states that field and its
        value starts on the field's own line; else the column :meth:`position_of` gives."""
        at = self.position_of(name)
        value = self.value_positions.get(name)
        if value is not None and value.file == at.file and value.line == at.line:
            return value.column
        return at.column


@dataclass(frozen=True)
class CaseSet:
    """Every case of a project, and every input error found while loading them.

    Attributes:
        cases: the cases without errors, in file order (files in sorted path order,
            cases in the order each file lists them). A case with an error is left out
            (of two with one id, the second); so is every case of a file whose frame is
            wrong (not readable, not YAML, a wrong top level or ``defaults``).
        errors: every input error of the run, by file (sorted path order), then line
            and column.
        files: every case file read, relative to the project, POSIX separators, sorted.
        digests: the SHA-256 (hex) of each file's bytes as read, by file: ``check --fix``
            refuses to rewrite a file that changed since.
    """

    cases: tuple[Case, ...] = ()
    errors: tuple[InputError, ...] = ()
    files: tuple[str, ...] = ()
    digests: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}),
                                       hash=False)

    @cached_property
    def by_id(self) -> Mapping[str, Case]:
        """The cases by id (``case_set.by_id["three-kings"]``)."""
        return MappingProxyType({case.id: case for case in self.cases})

    def get(self, case_id: str) -> Case | None:
        """The case with id ``case_id``, or ``None``."""
        return self.by_id.get(case_id)

    @property
    def ok(self) -> bool:
        """True when no input error was found."""
        return not self.errors


def frozen_mapping(items: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy of ``items`` (a :class:`types.MappingProxyType` over a new dict)."""
    return MappingProxyType(dict(items))


__all__ = ["Case", "CaseSet", "Documented", "Leaf", "Position", "frozen_mapping"]


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types whose ``repr`` is their canonical text (exactly these: not a subclass)."""

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""The field names of each dataclass :func:`_canonical` met, in declaration order."""

_UNPLACED = {"position": "None", "field_positions": "{}", "value_positions": "{}"}
"""The canonical text of :class:`Case`'s positions in its digest: left out (as if
``None`` and empty)."""


def _canonical(value: object, unplaced: bool = False) -> str:
    """``value`` as text that is the same in every process: ``repr``, but sets, whose
    order depends on the process's string hashing (``PYTHONHASHSEED``), written sorted
    (mappings keep their order: the file's). ``unplaced``: a :class:`Case`'s positions
    are written as :data:`_UNPLACED` says."""
    kind = type(value)
    if kind in _PLAIN:
        return repr(value)
    names = _FIELD_NAMES.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        skip = _UNPLACED if unplaced else {}
        inner = ", ".join(
            f"{name}={skip[name] if name in skip else _canonical(getattr(value, name))}"
            for name in names)
        return f"{kind.__name__}({inner})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_canonical(k)}: {_canonical(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_canonical(v) for v in value)) + "}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_canonical(v) for v in value) + ")"
    return repr(value)
