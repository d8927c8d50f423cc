"""The engine protocol (docs/engine-protocol.md): JSON lines between a client and an engine.

The engine writes a handshake first (:func:`handshake`), then answers each request
(:func:`request`) with one reply, in order, one request in flight at a time. The shapes
are in the JSON Schema shipped beside this module (:func:`protocol_schema`); the kinds
and games named in a handshake, and the fields of a reply, come from the registries
(:data:`generator.kinds.KINDS`, :func:`generator.engine.rules.games`).

This module also judges a request with this package's engine without the case-file
loader (:func:`judge`): the conformance kit asks it for cases it generated itself.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from importlib import resources
from typing import Any

from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.rules import GAMES
from generator.engine.rules import UnknownGameError
from generator.engine.rules import rule_set
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds.base import Path
from generator.kinds.fields import FieldSpec
from generator.kinds.fields import Schema

VERSION = 1
"""The protocol version this package speaks."""

SCHEMA_FILE = "engine-protocol.schema.json"
"""The protocol's JSON Schema, beside this module."""

PARTS = ("handshake", "request", "reply")
"""The message shapes the schema defines (``$defs``)."""


@cache
def protocol_schema() -> Schema:
    """The protocol's JSON Schema (draft 2020-12), as shipped in the package."""
    text = resources.files(__package__).joinpath(SCHEMA_FILE).read_text("utf-8")
    schema: Schema = json.loads(text)
    return schema


def _jsonschema_validator(schema: Schema) -> Any:
    """A draft 2020-12 validator of ``schema`` (jsonschema imported here, 0.04 s: only a
    run that speaks the protocol needs it, not every ``check`` whose reports import
    this module)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


@cache
def _validator(part: str) -> Any:
    """A validator of the message shape ``part``."""
    return _jsonschema_validator({"$defs": protocol_schema()["$defs"],
                                  "$ref": f"#/$defs/{part}"})


def schema_problem(schema: Schema, value: object) -> str | None:
    """jsonschema's message for the first thing ``schema`` refuses in ``value``, or
    ``None`` (a field's schema: a request's input, a reply's value)."""
    kept = _FIELD_VALIDATORS.get(id(schema))
    if kept is None or kept[0] is not schema:
        kept = _FIELD_VALIDATORS[id(schema)] = (schema, _jsonschema_validator(schema))
    error = next(iter(kept[1].iter_errors(value)), None)
    return None if error is None else str(error.message)


_FIELD_VALIDATORS: dict[int, tuple[Schema, Any]] = {}
"""The validators of the fields' schemas made so far (a kind's fields are made once),
by the schema's identity (the schema kept with it)."""


def problem(message: object, part: str) -> str | None:
    """What is wrong with ``message`` as a ``part`` (``handshake``, ``request``,
    ``reply``) of the protocol, or ``None`` when it fits the schema."""
    errors = sorted(_validator(part).iter_errors(message), key=lambda e: list(e.path))
    if not errors:
        return None
    first = errors[0]
    where = "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in first.path)
    return f"{where.lstrip('.') or 'the message'}: {first.message}"


def kinds_supported() -> dict[str, list[str]]:
    """Every kind of the registry with the ``expect`` fields it documents."""
    return {name: list(kind.expect) for name, kind in KINDS.items()}


def handshake(engine: str) -> dict[str, Any]:
    """The handshake of an engine named ``engine`` that judges every kind and game of
    the registries (this package's engine)."""
    return {"protocol": VERSION, "engine": engine, "kinds": kinds_supported(),
            "games": list(GAMES)}


def request(number: int, kind: str, game: str, rules: str | None,
            options: Mapping[str, bool], inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A request: ``rules`` left out where ``None`` (a game without presets),
    ``options`` where empty (a game without options)."""
    message: dict[str, Any] = {"id": number, "kind": kind, "game": game}
    if rules is not None:
        message["rules"] = rules
    if options:
        message["options"] = dict(options)
    message["inputs"] = dict(inputs)
    return message


# -- the inputs, card codes canonical ------------------------------------------------


def read_cards(kind: AnyKind, inputs: Mapping[str, Any]) -> dict[Path, tuple[Card, ...]]:
    """The cards of ``inputs`` (a kind's input fields as a case file writes them), by
    path, read as the loader reads them (each field by its :attr:`FieldSpec.shape`).

    Raises:
        CardCodeError: a code that names no card.
        ValueError: a card field of the wrong type.
    """
    parsed: dict[Path, tuple[Card, ...]] = {}
    for name, value in inputs.items():
        spec = kind.inputs.get(name)
        if spec is not None:
            _read_field(spec, value, (name,), parsed)
    return parsed


def _card_list(value: object) -> tuple[Card, ...]:
    if isinstance(value, str):
        return tuple(parse_card(code) for code in value.split())
    if isinstance(value, list) and all(isinstance(code, str) for code in value):
        return tuple(parse_card(code) for code in value)
    raise ValueError(f"expected a list of card codes, not {json.dumps(value)}")


def _read_field(spec: FieldSpec, value: object, path: Path,
                parsed: dict[Path, tuple[Card, ...]]) -> None:
    if spec.shape == "cards":
        parsed[path] = _card_list(value)
    elif spec.shape == "card":
        if not isinstance(value, str):
            raise ValueError(f"expected a card code, not {json.dumps(value)}")
        parsed[path] = (parse_card(value),)
    elif spec.shape in ("melds", "hands"):
        if not isinstance(value, list):
            raise ValueError(f"expected a list of card lists, not {json.dumps(value)}")
        for index, item in enumerate(value):
            parsed[(*path, index)] = _card_list(item)
    elif spec.shape == "within":
        _within(spec.schema, value, path, parsed)


def _within(node: Schema, value: object, path: Path,
            parsed: dict[Path, tuple[Card, ...]]) -> None:
    cards = node.get("x-cards")
    if cards == "list":
        parsed[path] = _card_list(value)
    elif cards is not None and isinstance(value, str):
        parsed[path] = (parse_card(value),)
    elif isinstance(value, dict):
        for name, sub in node.get("properties", {}).items():
            if name in value:
                _within(sub, value[name], (*path, name), parsed)
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for index, item in enumerate(value):
            _within(node["items"], item, (*path, index), parsed)


def canonical_inputs(kind: AnyKind, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """``inputs`` (a kind's input fields as a case file writes them) with every card
    list a list of canonical codes (``"Q♥ KH ah"`` → ``["QH", "KH", "AH"]``) and every
    card a canonical code; the other values as they are (plain JSON values).

    Raises:
        CardCodeError, ValueError: as :func:`read_cards`.
    """
    parsed = read_cards(kind, inputs)
    out: dict[str, Any] = json.loads(json.dumps(dict(inputs)))
    for path, cards in sorted(parsed.items(), key=lambda item: len(item[0])):
        codes: Any = [c.code for c in cards]
        spec = kind.inputs[str(path[0])]
        single = spec.shape == "card" or (spec.shape == "within" and _is_single(
            spec.schema, path[1:]))
        _put(out, path, codes[0] if single else codes)
    return out


def _is_single(node: Schema, rest: Path) -> bool:
    for step in rest:
        node = node.get("items", {}) if isinstance(step, int) else \
            node.get("properties", {}).get(step, {})
    return node.get("x-cards") not in (None, "list")


def _put(target: Any, path: Path, value: Any) -> None:
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


# -- judging a request with this package's engine -----------------------------------


@dataclass
class _Reader:
    """A request read as a case for a kind's checks (:class:`generator.kinds.base.Reader`)."""

    value: Mapping[str, Any]
    parsed: dict[Path, tuple[Card, ...]]
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.problems)

    def error(self, rel: Path, message: str, *, at_key: bool = False, code: str = "",
              params: tuple[tuple[str, str], ...] = ()) -> None:
        self.problems.append(message)


@dataclass(frozen=True)
class Judgement:
    """This package's engine's answer to a request.

    Attributes:
        values: the kind's ``expect`` values in the case-file form (the fields the
            engine gives no value left out); ``None`` with an error.
        error: what is wrong with the request, or ``None``.
        result: the engine's result (for the reasoning), ``None`` with an error.
        inputs: the kind's inputs as it built them, ``None`` with an error.
    """

    values: dict[str, Any] | None
    error: str | None = None
    result: object = None
    inputs: object = None


def judge(message: Mapping[str, Any]) -> Judgement:
    """Judge a request (its kind, game, preset, options and inputs) with this package's
    engine, the inputs read as the loader reads a case file's but without its schema
    (a request this package made: :mod:`generator.commands.conformance`)."""
    kind = KINDS.get(str(message.get("kind")))
    if kind is None:
        return Judgement(None, f"unknown kind {message.get('kind')!r}")
    game = str(message.get("game"))
    options = message.get("options") or {}
    try:
        rules = rule_set(game, message.get("rules"), **options)
    except (UnknownGameError, TypeError, ValueError) as exc:
        return Judgement(None, f"{exc}")
    inputs = message.get("inputs") or {}
    try:
        parsed = read_cards(kind, inputs)
    except (CardCodeError, ValueError) as exc:
        return Judgement(None, f"{exc}")
    if not rules.has_jokers and any(c.is_joker for cards in parsed.values() for c in cards):
        return Judgement(None, f"a joker in a game without jokers ({game})")
    reader = _Reader({"kind": kind.name, "game": game, **inputs}, parsed)
    try:
        built = kind.check(reader, rules)
        if built is None or reader.problems:
            return Judgement(None, "; ".join(reader.problems)
                             or "the inputs do not fit the kind")
        result = kind.run(built, rules)
    except ValueError as exc:  # the engine refuses the inputs (a table meld that is none)
        return Judgement(None, str(exc))
    values = kind.values(built, result)
    return Judgement(kind.documented(built, result, values), None, result, built)


__all__ = ["PARTS", "SCHEMA_FILE", "VERSION", "Judgement", "canonical_inputs", "handshake",
           "judge", "kinds_supported", "problem", "protocol_schema", "read_cards", "request",
           "schema_problem", "values_problem"]


def values_problem(kind: AnyKind, values: Mapping[str, Any]) -> str | None:
    """What is wrong with a reply's ``values`` for ``kind`` (a field the kind does not
    document, a value its field's schema refuses), or ``None``."""
    for name, value in values.items():
        spec = kind.expect.get(name)
        if spec is None:
            return (f"values.{name} is not an expect field of kind {kind.name!r}; expected "
                    f"{', '.join(kind.expect)}")
        wrong = schema_problem(spec.schema, value)
        if wrong is not None:
            return f"values.{name}: {wrong}"
        if spec.shape == "card":
            try:
                parse_card(str(value))
            except CardCodeError as exc:
                return f"values.{name}: {exc}"
    return None
