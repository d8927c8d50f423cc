"""What a case kind is: the :class:`Kind` base class and the :class:`Reader` it reads from.

A kind module (``generator/kinds/<kind>.py``) states its games, its input and ``expect``
fields (:mod:`generator.kinds.fields`), checks and parses its inputs through a
:class:`Reader` (the loader implements it), runs the engine, gives the values it
compares, its reasoning (through :class:`generator.i18n.explain.Words`) and its row's
parts; its template is ``generator/theme/kinds/<kind>.html`` (macros ``head(rows)`` and
``row(row)``). Nothing outside ``generator/kinds/`` asks which kind a case is.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import ClassVar
from typing import Generic
from typing import Protocol
from typing import TypeGuard
from typing import TypeVar

from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.rules import GAMES
from generator.engine.rules import RuleSet
from generator.i18n import words
from generator.i18n.explain import Words
from generator.i18n.numbers import format_decimal
from generator.i18n.numbers import format_list
from generator.kinds.fields import Argument
from generator.kinds.fields import FieldSpec
from generator.kinds.fields import Schema

Path = tuple[str | int, ...]
"""A place within a case: ``("expect", "points")``, ``("hands", 2)``."""

Value = str | int | bool | tuple[int, ...] | None
"""An engine or documented value: a code (``"valid"``, ``"wraps_around"``), a card code
(``"6S"``), a number of points or cards, a list of numbers (``scores``, a tuple), or
``None`` where the engine gives none."""

Leaf = str | int | bool | tuple[int, ...]
"""A documented value: a code, a number, a flag, or a list of numbers (``scores``)."""

Documented = Leaf | tuple[str, ...] | Mapping[str, Leaf]
"""A documented ``expect`` value as the case holds it: YAML lists become tuples and
mappings read-only mappings (``scores: [0, 35]`` → ``(0, 35)``)."""

View = dict[str, Any]
"""A view for the templates (a row, a card, a seat)."""

I = TypeVar("I")  # noqa: E741 - the kind's inputs
R = TypeVar("R")  # the engine's result


class Reader(Protocol):
    """One case as the loader reads it, for a kind's checks (paths within the case).

    Attributes:
        value: the case's fields, the file's defaults filled in (plain YAML values).
        parsed: the card lists read, by path (``("cards",)``, ``("melds", 1)``,
            ``("start", "hands", 0)``): every field the kind declares card-shaped
            (:attr:`FieldSpec.shape`, the cards ``within`` a structure where its schema
            marks them), its inputs and its ``expect`` fields (``("expect",
            "joker_stands_for")``), is read by the loader before :meth:`Kind.check`,
            each bad code reported at it.
        failed: an error has been reported for the case.
    """

    @property
    def value(self) -> Mapping[str, Any]: ...

    @property
    def parsed(self) -> dict[Path, tuple[Card, ...]]: ...

    @property
    def failed(self) -> bool: ...

    def error(self, rel: Path, message: str, *, at_key: bool = False, code: str = "",
              params: tuple[tuple[str, str], ...] = ()) -> None:
        """Report ``message`` at ``rel`` (its key with ``at_key``); the case is dropped.
        ``code`` and ``params``: the problem's code word where a reader may meet it
        (:class:`~generator.engine.codes.InputReason`) and the values its words are
        filled in with (:class:`~generator.errors.InputError`)."""


@dataclass(frozen=True)
class Mismatch:
    """A documented value the engine does not give.

    Attributes:
        field: what the report names: ``"points"``, ``"results[2]"``, ``"end.winner"``.
        documented: the value the case file states.
        engine: the engine's value; ``None`` when it gives none.
        where: the dotted path of the documented value (``"expect.results.1"``).
    """

    field: str
    documented: Value
    engine: Value
    where: str


class Kind(Generic[I, R]):
    """One kind of case. Subclasses set the class attributes and override the methods
    their kind needs; one instance of each is in :data:`generator.kinds.REGISTRY`.

    Attributes:
        name: the ``kind`` code of case files (``"meld"``).
        games: the games the kind applies to (a list the registry keeps current:
            :data:`generator.engine.rules.GAMES`, :data:`generator.kinds.fields.RAMI_GAMES`).
        inputs: its input fields, required unless their spec says otherwise.
        expect: its ``expect`` fields, in the order messages list them.
        required_expect: the ``expect`` fields that must be present (``("verdict",)``).
        arguments: its inputs as ``explain`` takes them on the command line; none for a
            kind whose input does not fit there (``scenario``: a case file's text).
        with_verdict: the ``expect`` fields ``check --fix`` adds when it flips a documented
            verdict and the engine gives them (a ``reason`` for a now-invalid meld).
        checker: a card checker stands beside its example tables, where a reader tries
            their own cards (:mod:`generator.commands.checker`; its arguments are cards,
            a card or a flag).
    """

    name: ClassVar[str]
    games: ClassVar[Sequence[str]] = GAMES
    inputs: ClassVar[Mapping[str, FieldSpec]]
    expect: ClassVar[Mapping[str, FieldSpec]]
    required_expect: ClassVar[tuple[str, ...]] = ()
    arguments: ClassVar[tuple[Argument, ...]] = ()
    with_verdict: ClassVar[tuple[str, ...]] = ("points", "reason")
    checker: ClassVar[bool] = False

    @property
    def template(self) -> str:
        """The kind's template, relative to the templates folder."""
        return f"kinds/{self.name}.html"

    # -- loading -------------------------------------------------------------------

    def check(self, reader: Reader, rules: RuleSet | None) -> I | None:
        """Check what the schema cannot say and build the inputs.

        Args:
            reader: the case, its card fields read (:attr:`Reader.parsed`).
            rules: its rule set; ``None`` when the game or preset is wrong (then only
                the checks that need no rules run).

        Returns:
            The inputs, or ``None`` when they cannot be built (an error was reported, or
            is reported elsewhere).
        """
        raise NotImplementedError

    def editor_rules(self, rules: RuleSet) -> Schema:
        """What the editor schema of a case of this kind in ``rules``' game adds to its
        fields' own schemas: the bounds and rules :meth:`check` applies in code that a
        JSON Schema can say (card and seat counts, the seats a number may name, which
        keys go together), as keywords of the case. generator/cases/editor_schema.py
        merges it into the case's schema (a node with ``x-message`` replaces the
        field's). The loader does not read it: its messages come from :meth:`check`, and
        tests/test_editor_schema.py holds the two to agreeing on every mutated case.

        Args:
            rules: the game's rule set (the same for every preset of the game: the
                bounds here do not depend on the preset).

        Returns:
            A schema fragment (``properties``, ``allOf``, ...); empty by default.
        """
        return {}

    # -- verifying -----------------------------------------------------------------

    def run(self, inputs: I, rules: RuleSet) -> R:
        """The engine's answer for the inputs."""
        raise NotImplementedError

    def values(self, inputs: I, result: R) -> dict[str, Value]:
        """The engine's value of every ``expect`` field (``None`` where it gives none)."""
        raise NotImplementedError

    def mismatches(self, expect: Mapping[str, Documented], result: R,
                   values: Mapping[str, Value]) -> Iterator[Mismatch]:
        """The documented values the engine does not give, in field order."""
        for name, documented in expect.items():
            engine = values.get(name)
            if not agrees(self.expect[name], documented, engine):
                yield Mismatch(name, leaf(documented), engine, f"expect.{name}")

    def documented(self, inputs: I, result: R, values: Mapping[str, Value]) -> dict[str, Any]:
        """The engine's values as a case file writes its ``expect`` (plain YAML values,
        lists for tuples), the fields the engine gives no value left out: what
        ``explain`` prints and ``check --fix`` writes (docs/site.md, "Kinds and their
        fields")."""
        return {name: plain(values[name]) for name in self.expect
                if values.get(name) is not None}

    def sample(self, rules: RuleSet, rng: random.Random) -> dict[str, Any] | None:
        """Random inputs of a case in ``rules``, as a case file writes them (card lists
        as lists of codes), for the conformance kit (generator/commands/conformance.py);
        ``None`` (the default): the kit makes them from the input fields' shapes. A kind
        whose inputs are a structure (a scenario's) says here how to make one. The kit
        keeps only inputs the kind accepts.

        Args:
            rules: the rule set of the case.
            rng: the seeded source of randomness.
        """
        return None

    # -- words and rows -------------------------------------------------------------

    def field_label(self, field: str, w: Words) -> str:
        """The name of a reported ``expect`` field on a page (a ``known_disagreement``'s
        values side by side): ``Points``; ``results[2]``: "Result of action 2"."""
        name, _, rest = field.partition("[")
        if rest.endswith("]") and rest[:-1].isdigit():
            return w.code("expect field", name, num=int(rest[:-1]))
        if field in words.EXPECT_FIELDS:
            return w.code("expect field", field)
        return field

    def value_text(self, field: str, value: Value, w: Words) -> str:
        """A documented or engine value as a page shows it: ``—`` for none, numbers for
        the locale, a verdict, reason or event in words, a card as its label, a list of
        numbers joined as the locale joins lists."""
        locale = w.translator.locale
        if value is None:
            return "—"
        if isinstance(value, bool):
            return w.text("Yes") if value else w.text("No")
        if isinstance(value, int):
            return format_decimal(value, locale)
        if isinstance(value, tuple):
            return format_list(tuple(format_decimal(v, locale) for v in value), locale)
        for table in ("verdict", "reason", "event"):
            if value in words.CONTEXTS[table]:
                return w.code(table, value)
        try:
            return parse_card(value).label
        except CardCodeError:
            return value

    def explain(self, inputs: I, result: R, rules: RuleSet, w: Words) -> list[str]:
        """The engine's reasoning, as sentences in ``w``'s locale."""
        return []

    def explain_mismatch(self, field: str, inputs: I, result: R,
                         values: Mapping[str, Value], rules: RuleSet,
                         w: Words) -> list[str]:
        """The reasoning ``check`` shows under a disagreement on ``field``: the case's
        reasoning, and the reason when it does not say it already."""
        return with_reason(self.explain(inputs, result, rules, w), values, w)

    def context(self, inputs: I, result: R, rules: RuleSet, w: Words) -> str:
        """The small print under the points: the preset (Rami) or the game."""
        return preset_text(rules, w)

    def row(self, inputs: I, result: R, values: Mapping[str, Value], rules: RuleSet,
            w: Words) -> View:
        """The kind's parts of its row (``melds``: the card lists shown, and whatever its
        template reads); the generic parts are :func:`generator.render.views.case_row`'s."""
        return {}

    def shown(self, inputs: I, result: R, rules: RuleSet, w: Words) -> set[str]:
        """Sentences of the reasoning the row shows otherwise (left out of it)."""
        return set()


def with_reason(lines: list[str], values: Mapping[str, Value], w: Words) -> list[str]:
    """``lines``, and the words of the engine's ``reason`` value when they do not say it."""
    reason = values.get("reason")
    if isinstance(reason, str) and reason in words.REASONS:
        because = w.code("reason", reason)
        if because not in lines:  # a meld, lay-off or joker swap says it already
            lines.append(because)
    return lines


def preset_text(rules: RuleSet, w: Words) -> str:
    """The preset's name (Rami) or the game's (CardVerse)."""
    return w.code("preset", rules.preset) if rules.preset else w.code("game", rules.game)


def unscored_melds(rules: RuleSet, w: Words) -> View:
    """A row's parts where the game scores no melds (:attr:`RuleSet.meld_points` false,
    CardVerse): the table's note that says so once, and the points cell's words instead
    of a dash; nothing where melds score."""
    if rules.meld_points:
        return {}
    return {"table_note": w.text("%(game)s does not score melds: only the cards left in "
                                 "the hands count, at the end of a round.",
                                 game=w.code("game", rules.game)),
            "no_points_text": w.text("not scored")}


def threshold_context(threshold: int, rules: RuleSet, w: Words) -> str:
    """The points cell's context of a kind judged against the opening threshold
    (``first_meld``, ``best_opening``): "threshold 51, reference rules"."""
    return w.code("explanation", "threshold_context", threshold=threshold,
                  preset=preset_text(rules, w))


def agrees(spec: FieldSpec, documented: Documented, engine: Value) -> bool:
    """Whether a documented ``expect`` value is the engine's: a card field compares as
    cards (``joker_stands_for: 6s`` is the engine's ``6S``), lists item by item, the rest
    as values (``True`` is not ``1``)."""
    if spec.shape == "card" and isinstance(documented, str) and engine is not None:
        try:
            return parse_card(documented).code == engine
        except CardCodeError:  # pragma: no cover - the loader has read the card
            # (generator/cases/loader.py, check_cards: every card-shaped field)
            return False
    return same(documented, engine)


def same(documented: Documented, engine: Value) -> bool:
    """``documented == engine``, where a flag is never a number."""
    if isinstance(documented, bool) or isinstance(engine, bool):
        return type(documented) is type(engine) and documented == engine
    return documented == engine


def leaf(documented: Documented) -> Value:
    """A documented value as a :class:`Mismatch` holds it."""
    if isinstance(documented, (str, int, bool)):
        return documented
    if isinstance(documented, tuple) and all(isinstance(v, int) for v in documented):
        return tuple(v for v in documented if isinstance(v, int))
    raise ValueError(f"not a single documented value: {documented!r}")


def plain(value: Value) -> Any:
    """An engine value as YAML writes it: a code as its word, a tuple as a list."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, str):
        return str(value)
    return value


def is_int(value: object) -> TypeGuard[int]:
    """A YAML integer (not a flag)."""
    return isinstance(value, int) and not isinstance(value, bool)


def count(n: int, noun: str) -> str:
    """``"1 seat"``, ``"3 seats"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def at(path: tuple[str, ...], schema: Schema, *, required: bool = False) -> Schema:
    """``schema`` as the schema of the field at ``path`` within a case (nested
    ``properties``; ``required``: every step of the path must be there)."""
    for name in reversed(path):
        schema = {"properties": {name: schema}, **({"required": [name]} if required else {})}
    return schema


def seat_rules(hands: tuple[str, ...], rules: RuleSet,
               then: Callable[[int], Schema]) -> list[Schema]:
    """For each seat count the game allows, ``if`` the hands at ``hands`` list that many
    seats ``then`` what ``then(seats)`` says (the seats a documented value may name): an
    editor schema's rules (:meth:`Kind.editor_rules`)."""
    return [{"if": at(hands, {"type": "array", "minItems": seats, "maxItems": seats},
                      required=True),
             "then": then(seats)}
            for seats in range(rules.min_players, rules.max_players + 1)]


def seat_bounds(rules: RuleSet) -> Schema:
    """The hands of a round or a start position: one per seat, as many seats as the game
    allows players (:func:`check_seat_count`), as schema keywords."""
    return {"minItems": rules.min_players, "maxItems": rules.max_players,
            "description": f"one hand per seat, {rules.min_players} to {rules.max_players} "
            f"seats ({rules.game} is played by {rules.min_players} to {rules.max_players} "
            "players)"}


def seat_value_rules(seats: int) -> Schema:
    """A documented ``winner`` and ``scores`` that fit ``seats`` seats
    (:func:`check_seat_values`), as schema keywords of the mapping that holds them."""
    return {"properties": {"winner": {"maximum": seats},
                           "scores": {"minItems": seats, "maxItems": seats}}}


def check_seat_count(reader: Reader, rel: Path, seats: int, rules: RuleSet) -> None:
    """As many hands as the game allows players."""
    if not rules.min_players <= seats <= rules.max_players:
        reader.error(rel, f"hands lists {count(seats, 'seat')}; expected one hand per seat, "
                     f"{rules.min_players} to {rules.max_players} seats ({rules.game} is "
                     f"played by {rules.min_players} to {rules.max_players} players)")


def check_seat_values(reader: Reader, expect: Mapping[str, Any], rel: Path, seats: int,
                      source: str) -> None:
    """A documented ``winner`` is a seat; documented ``scores`` have one per seat."""
    winner = expect.get("winner")
    if is_int(winner) and winner > seats:
        reader.error((*rel, "winner"), f"winner {winner} is not a seat of this round; "
                     f"expected a seat number from 1 to {seats}")
    scores = expect.get("scores")
    if isinstance(scores, list) and len(scores) != seats:
        reader.error((*rel, "scores"), f"scores lists {count(len(scores), 'score')}; "
                     f"expected one per seat ({seats}, as in {source})")
