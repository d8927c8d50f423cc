"""Reading one case of a case file: :class:`CaseReader`.

A case is read after its file's frame (:mod:`generator.cases.loader`): its fields are
filled in from the file's ``defaults`` (only those that apply to its kind and game),
checked against :func:`~generator.cases.schema.case_schema` (the problems an author's
slip explains said once, by the slip's own message: :mod:`generator.cases.slips`), then
its card codes are read (every field its kind declares card-shaped, in the inputs and in
``expect``), how often a card is used and the jokers counted against its game, its kind's
own checks run (:meth:`generator.kinds.base.Kind.check`, through the
:class:`~generator.kinds.base.Reader` this class is), and its :class:`Case` is built with
the position of every field.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from itertools import islice
from typing import Any
from typing import Protocol

from generator.cases.model import Case
from generator.cases.model import Position
from generator.cases.model import frozen_mapping
from generator.cases.problems import SchemaProblem
from generator.cases.problems import case_problems
from generator.cases.schema import DEFAULTABLE
from generator.cases.schema import INPUT_FIELDS
from generator.cases.schema import common_fields
from generator.cases.schema import field_applies
from generator.cases.slips import colon_keys
from generator.cases.slips import colon_message
from generator.cases.slips import misplaced_expect
from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.codes import InputReason
from generator.engine.rules import GAMES
from generator.engine.rules import RuleSet
from generator.engine.rules import UnknownGameError
from generator.engine.rules import default_preset
from generator.engine.rules import games
from generator.engine.rules import options_of
from generator.engine.rules import per_registry
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds.fields import FieldSpec
from generator.kinds.fields import Schema
from generator.yamlpos import BoolText
from generator.yamlpos import Mark
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import value_at
from generator.yamlpos import walk

_CODE = re.compile(r"\S+")


class CaseFile(Protocol):
    """The file a case is read in, as :class:`CaseReader` needs it.

    Attributes:
        doc: the parsed file (its values and their positions).
        optional: fields every case needs that may be missing here.
        schema: whether the case is checked against the schema (``False``: the file is
            known valid).
        values_said: where (line, column) the YAML parser has reported a value of its
            own, read as its text.
    """

    @property
    def doc(self) -> YamlDocument: ...

    @property
    def optional(self) -> frozenset[str]: ...

    @property
    def schema(self) -> bool: ...

    @property
    def values_said(self) -> frozenset[tuple[int, int | None]]: ...

    def error(self, mark: Mark, message: str, *, code: str = "",
              params: tuple[tuple[str, str], ...] = ()) -> None:
        """Record ``message`` at ``mark`` among the file's errors, with its ``code`` and
        ``params`` (:class:`~generator.errors.InputError`)."""

    def position(self, mark: Mark) -> Position:
        """``mark`` in this file."""


@dataclass(frozen=True)
class FileDefaults:
    """What a file's ``defaults`` give its cases.

    Attributes:
        values: the fields it gives (of :data:`~generator.cases.schema.DEFAULTABLE`,
            those without an error).
        bad: the fields it means to give but gets wrong (an error said at ``defaults``):
            a case that misses one fails quietly.
    """

    values: Mapping[str, Any] = field(default_factory=dict)
    bad: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Slips:
    """A case's slips (:mod:`generator.cases.slips`) that its own message says, and the
    schema's problems that they explain.

    Attributes:
        colons: by the path of a mapping, its keys written ``name:value``
            (:func:`~generator.cases.slips.colon_keys`).
        misplaced: the fields that belong in ``expect`` (:meth:`CaseReader._misplaced`).
        slipped: the paths of the slips: a problem at or under one is said by the slip.
        missed: ``(path, field)``: a field missing at a mapping because of a slip.
    """

    colons: dict[YamlPath, dict[str, str]]
    misplaced: list[str]
    slipped: tuple[YamlPath, ...]
    missed: frozenset[tuple[YamlPath, str]]

    @classmethod
    def of(cls, colons: dict[YamlPath, dict[str, str]], misplaced: list[str]) -> _Slips:
        """The slips of a case: its keys written ``name:value`` and its fields that
        belong in ``expect``."""
        slipped = (*((*rel, key) for rel, found in colons.items() for key in found.values()),
                   *((name,) for name in misplaced))
        missed = {(rel, name) for rel, found in colons.items() for name in found}
        missed.update((("expect",), name) for name in misplaced)
        if misplaced:
            missed.add(((), "expect"))
        return cls(colons, misplaced, slipped, frozenset(missed))

    def explain(self, problem: SchemaProblem, value: Mapping[str, Any]) -> bool:
        """Whether a slip explains ``problem`` of the case ``value``: a field missing
        because of it, a problem at or under it, or an empty ``expect`` whose fields
        were written outside it."""
        return ((problem.path, problem.missing) in self.missed
                or any(problem.path[:len(s)] == s for s in self.slipped)
                or (bool(self.misplaced) and problem.path == ("expect",)
                    and not value.get("expect")))


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


class CaseReader:
    """Checks one case and builds its :class:`Case` (the
    :class:`~generator.kinds.base.Reader` its kind's checks read it through).

    Args:
        file: the file the case is in.
        path: where the case is in the file (``("cases", 3)``).
        raw: the case as written.
        defaults: what the file's ``defaults`` give it.
    """

    def __init__(self, file: CaseFile, path: YamlPath, raw: dict[str, Any],
                 defaults: FileDefaults) -> None:
        self.file = file
        self.bad_defaults = defaults.bad
        self.doc = file.doc
        self.path = path
        self.mark = self.doc.mark(path)
        self.value: dict[str, Any] = dict(raw)
        self.from_defaults: set[str] = set()
        for name in DEFAULTABLE:  # kind and game first: the others depend on them
            if name in raw or name not in defaults.values:
                continue
            if field_applies(name, self._text("kind"), self._text("game")):
                self.value[name] = defaults.values[name]
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

    def report(self, mark: Mark, message: str, *, code: str = "",
               params: tuple[tuple[str, str], ...] = ()) -> None:
        """Report ``message`` at ``mark``, with its ``code`` and ``params`` where a
        reader may meet it (:class:`~generator.errors.InputError`); the case is
        dropped."""
        self.failed = True
        self.file.error(mark, message, code=code, params=params)

    def error(self, rel: YamlPath, message: str, *, at_key: bool = False, code: str = "",
              params: tuple[tuple[str, str], ...] = ()) -> None:
        """Report ``message`` at ``rel`` within the case (its key with ``at_key``), with
        its ``code`` and ``params`` (:meth:`report`)."""
        self.report(self.locate(rel, at_key), message, code=code, params=params)

    # -- values ------------------------------------------------------------------

    def _text(self, name: str) -> str | None:
        value = self.value.get(name)
        return value if isinstance(value, str) and not isinstance(value, BoolText) else None

    def _known(self, name: str, choices: Collection[str]) -> str | None:
        value = self._text(name)
        return value if value in choices else None

    # -- checks ------------------------------------------------------------------

    def load(self) -> Case | None:
        """Check the case (the schema unless the file is known valid, its cards, its
        kind's checks): its :class:`Case`, or ``None`` after an error."""
        if self.file.schema:
            self.check_schema()
        name = self._known("kind", KINDS)
        kind = KINDS[name] if name is not None else None
        game = self._known("game", GAMES)
        rules = self._rule_set(game)
        self.check_cards(kind)
        if rules is not None:
            self.check_card_counts(rules)
        inputs = kind.check(self, rules) if kind is not None else None
        if self.failed or kind is None or game is None or inputs is None:
            return None
        return self.build(kind, game, inputs)

    def check_schema(self) -> None:
        """Report the case's schema problems, in the schema's order, then its slips
        (keys written ``name:value``, fields that belong in ``expect``), each once: a
        problem a slip explains, or one said at ``defaults``, only drops the case."""
        slips = _Slips.of(self._colons(), self._misplaced())
        for problem in case_problems(self.value):
            if problem.missing is not None and problem.missing in self.file.optional:
                continue
            if problem.missing in self.bad_defaults or slips.explain(problem, self.value):
                self.failed = True  # said at the default, or by the slip's message below
                continue
            if problem.of_text and self._said_by_the_parser(problem.path):
                self.failed = True  # why the value is text: said by the parser
                continue
            self._schema_problem(problem)
        for rel, found in slips.colons.items():
            self.error((*rel, next(iter(found.values()))), colon_message(found.values()),
                       at_key=True)
        if slips.misplaced:
            self.error((slips.misplaced[0],),
                       misplaced_expect(self.doc, self.path, slips.misplaced), at_key=True)

    def _said_by_the_parser(self, rel: YamlPath) -> bool:
        """Whether the YAML parser has reported the value at ``rel`` within the case
        (:attr:`CaseFile.values_said`)."""
        mark = self.locate(rel)
        return (mark.line, mark.column) in self.file.values_said

    def _schema_problem(self, problem: SchemaProblem) -> None:
        """Report a schema problem at its field; one in a field that ``defaults`` gives
        at the case, which is what needs a value of its own (a ``first_meld`` case in a
        file whose default game is ``cardverse``), naming the default's line."""
        rel = problem.path
        if not (rel and rel[0] in self.from_defaults):
            self.report(self.locate(rel, problem.at_key), problem.message)
            return
        where = self.doc.mark(("defaults", rel[0]))
        what, sep, rest = problem.message.partition("; ")
        self.report(self.mark, f"{what} ({rel[0]} from defaults at line {where.line}){sep}{rest}")

    def _colons(self) -> dict[YamlPath, dict[str, str]]:
        """The case's mappings (not those ``defaults`` gives) with keys written
        ``name:value`` (:func:`~generator.cases.slips.colon_keys`), by their paths."""
        return {rel: found for rel in walk(self.value)
                if not (rel and rel[0] in self.from_defaults)
                and isinstance(mapping := value_at(self.value, rel), dict)
                and (found := colon_keys(mapping))}

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
        every bad code (but those of structures with cards ``within``, whose layout is
        their kind's)."""
        found: list[tuple[YamlPath, FieldSpec]] = []
        expect = self.value.get("expect")
        kinds = [kind] if kind is not None else list(KINDS.values())
        for path in [*((name,) for name in self.value if name in INPUT_FIELDS),
                     *(("expect", name) for name in
                       (expect if isinstance(expect, dict) else ()))]:
            spec = next((s for k in kinds if (s := _declared(k, path)) is not None), None)
            if spec is not None and spec.shape != "value" and (
                    kind is not None or spec.shape != "within"):
                found.append((path, spec))
        return found

    def check_cards(self, kind: AnyKind | None) -> None:
        """Read every card-shaped field (:meth:`_card_fields`) into :attr:`parsed`, each
        code that names no card an error at it: the inputs' cards are the cards in play
        (but those of a field not :attr:`~FieldSpec.in_play`), ``expect``'s are
        documented values (its ``card`` fields' errors name the field)."""
        expect: Any = self.value.get("expect")
        for path, spec in self._card_fields(kind):
            value = self.value[str(path[0])] if len(path) == 1 else expect[path[1]]
            count = path[0] != "expect" and spec.in_play
            if spec.shape == "cards":
                self.card_list(value, path, str(path[-1]), count=count)
            elif spec.shape == "card":
                self._card_field(value, path)
            elif spec.shape == "within":
                self._within(spec.schema, value, path, count=count)
            elif isinstance(value, list):
                what = "hand" if spec.shape == "hands" else "meld"
                for index, item in enumerate(value):
                    self.card_list(item, (*path, index), what, count=count,
                                   may_be_empty=spec.shape == "hands")

    def _card_field(self, value: object, path: YamlPath) -> None:
        """Read the field at ``path`` that holds one card code (``value``): a card in
        play, or a documented one in ``expect`` (:meth:`documented_card`)."""
        if not isinstance(value, str):
            return  # the schema has said so
        if path[0] != "expect":
            card = self.card(path, value, self.locate(path))
        else:
            card = self.documented_card(path, value)
        if card is not None:
            self.parsed[path] = (card,)

    def _within(self, node: Schema, value: object, path: YamlPath, *, count: bool) -> None:
        """Read the cards within ``value`` (at ``path``) where its schema ``node`` marks
        them (``x-cards``: a card list, or one card code), in the schema's order: a
        mapping's fields as its ``properties`` list them, a list's items in order. A
        value of the wrong type is the schema's to report."""
        cards = node.get("x-cards")
        if cards == "list":
            self.card_list(value, path, node["x-what"], may_be_empty="minItems" not in node,
                           count=count)
        elif cards is not None:
            card = self.card(path, value, self.locate(path), count=count) \
                if isinstance(value, str) else None
            if card is not None:
                self.parsed[path] = (card,)
        elif isinstance(value, dict):
            for name, sub in node.get("properties", {}).items():
                if name in value:
                    self._within(sub, value[name], (*path, name), count=count)
        elif isinstance(value, list) and isinstance(node.get("items"), dict):
            for index, item in enumerate(value):
                self._within(node["items"], item, (*path, index), count=count)

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
        """Report the cards in play that ``rules`` do not deal: a joker where the game
        has none, more jokers than any of its presets deals (at the first one too many),
        a card used more often than its decks hold (where it is used once too often)."""
        game = rules.game
        jokers = [mark for card, mark in self.cards if card.is_joker]
        if not rules.has_jokers:
            for mark in jokers:
                self.report(mark, f"jokers are not used in {game}; expected natural cards only",
                            code=InputReason.NO_JOKERS, params=(("game", game),))
        else:
            most = max(rule_set(game, preset).max_jokers
                       for preset in presets_of(game) or (None,))
            if len(jokers) > most:
                self.report(jokers[most], f"{len(jokers)} jokers in this case; expected at most "
                            f"{most} ({game} is played with at most {most} jokers)",
                            code=InputReason.TOO_MANY_JOKERS,
                            params=(("count", str(len(jokers))), ("most", str(most)),
                                    ("game", game)))
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
                            f"expected at most {limit} ({game} is played with {decks})",
                            code=InputReason.TOO_MANY_COPIES,
                            params=(("card", card.code), ("count", str(total[card])),
                                    ("most", str(limit)), ("game", game)))

    def id_at(self) -> tuple[str | None, Position | None]:
        """The case's id and where it is, for the ids across files
        (:mod:`generator.cases.loader`); ``(None, None)`` when it is
        not a non-empty string (the schema has said so). Duplicates are looked for
        whatever the id's characters (the schema reports those): two cases ``"dup\\n"``
        are two errors, not one case replacing the other."""
        case_id = self._text("id")
        if not case_id:
            return None, None
        return case_id, self.file.position(self.locate(("id",)))

    # -- the case ----------------------------------------------------------------

    def build(self, kind: AnyKind, game: str, inputs: object) -> Case:
        """The checked case of ``kind`` in ``game`` with the kind's ``inputs``, the
        positions of its fields (a key's, a list item's start, a card's code) and of its
        values."""
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
