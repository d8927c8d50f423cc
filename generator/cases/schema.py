"""The case-file schema (JSON Schema, draft 2020-12), built from the fields and the kinds.

The schema is generated from the fields every case has (:func:`common_fields`, with the
games each applies to) and from the kinds (:data:`generator.kinds.REGISTRY`: per kind,
the games it applies to, its input fields and its ``expect`` fields, each with the games
it applies to), so a new kind adds nothing here.

Two schemas come out: :func:`file_schema` (the file: ``defaults`` and the list of
``cases``, each only checked to be a mapping) and :func:`case_schema` (one case,
after the file's defaults have filled it in), each made again when a game is registered
(:func:`generator.engine.rules.per_registry`). Applicability is part of the schema:
``if kind is meld then`` only ``cards`` and the meld ``expect`` fields are allowed,
``if game is cardverse then`` no ``rules`` and no meld ``points``, and so on.

Schema nodes carry annotations (``x-what``, ``x-expected``, ``x-example``, ``x-name``,
``x-message``, ...) that :func:`~generator.cases.problems.file_problems` and
:func:`~generator.cases.problems.case_problems` turn into messages of the form ``what is
wrong; what was expected``; jsonschema's own messages are never shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from types import MappingProxyType

from generator.engine.codes import CaseStatus
from generator.engine.rules import GAMES
from generator.engine.rules import OPTIONS
from generator.engine.rules import PRESETS
from generator.engine.rules import per_registry
from generator.errors import and_list
from generator.errors import or_list
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds.fields import OPTION_GAMES
from generator.kinds.fields import RAMI_GAMES
from generator.kinds.fields import FieldSpec
from generator.kinds.fields import Schema
from generator.kinds.fields import boolean
from generator.kinds.fields import enum
from generator.kinds.fields import not_here
from generator.kinds.fields import string

DIALECT = "https://json-schema.org/draft/2020-12/schema"

ID_CHARACTERS = "[a-z0-9-]"


def _options_schema() -> Schema:
    return {
        "type": "object",
        "x-what": "options",
        "x-expected": "a mapping of " + and_list(OPTIONS) + " (true or false)",
        "x-name": "options",
        "x-field": "option",
        "properties": {
            name: {"type": "boolean", "x-what": f"option {name}", "x-expected": "true or false"}
            for name in OPTIONS
        },
        "additionalProperties": False,
    }


@per_registry
def common_fields() -> Mapping[str, FieldSpec]:
    """The fields every case may have, before the kind's input fields and ``expect``
    (``status`` and ``because``: docs/site.md, "Case status"; ``draft``: "Drafts"), for
    the games registered now."""
    return MappingProxyType({
        "id": FieldSpec({
            "type": "string",
            "minLength": 1,
            # \Z, not $: $ also matches before a final newline, and "abc\n" would pass.
            "pattern": f"^{ID_CHARACTERS}*\\Z",
            "x-what": "case id",
            "x-expected": "a string",
            "x-example": "<lowercase letters, digits and hyphens, unique across all case "
            "files>",
            "x-messages": {
                "pattern": "id {value!r} has characters outside " + ID_CHARACTERS
                + "; expected lowercase letters, digits and hyphens",
                "minLength": "case id is empty; expected lowercase letters, digits and "
                "hyphens",
            },
        }),
        "kind": FieldSpec(enum("kind", tuple(KINDS))),
        "game": FieldSpec(enum("game", tuple(GAMES))),
        "rules": FieldSpec(
            enum("rules preset", tuple(PRESETS)),
            games=RAMI_GAMES,
            note=" ({game} has options: {options})",
        ),
        "options": FieldSpec(
            _options_schema(),
            games=OPTION_GAMES,
            note=" ({game} has rules: {presets})",
        ),
        "title": FieldSpec(string("title", empty="the English title",
                                  example="<English text>")),
        "note": FieldSpec(string("note", empty="English text, or no note field")),
        "status": FieldSpec(enum("status", tuple(CaseStatus))),
        "because": FieldSpec(string(
            "because", empty="why the documented value differs from the engine's",
            example="<English text: why the documented value differs from the engine's>")),
        "draft": FieldSpec(boolean("draft")),
    })


STATUS_RULES: list[Schema] = [
    {
        "if": {"properties": {"status": {"const": CaseStatus.KNOWN_DISAGREEMENT}},
               "required": ["status"]},
        "then": {"x-name": "case", "x-needs": f"status {CaseStatus.KNOWN_DISAGREEMENT} "
                 "says why in because",
                 "properties": {"because": common_fields()["because"].schema},
                 "required": ["because"]},
        "else": {"properties": {"because": {
            "not": {}, "x-message": "field 'because' goes with status "
            f"{CaseStatus.KNOWN_DISAGREEMENT}; expected status: "
            f"{CaseStatus.KNOWN_DISAGREEMENT} with it, or no because"}}},
    },
]
"""``because`` goes with ``status: known_disagreement``, and that status needs it."""

DEFAULTABLE = ("kind", "game", "rules", "options")
"""The fields ``defaults`` may hold."""

REQUIRED = ("id", "kind", "game", "title", "expect")
"""The fields every case needs (``kind``, ``game`` may come from ``defaults``)."""

INPUT_FIELDS: tuple[str, ...] = tuple(
    dict.fromkeys(name for kind in KINDS.values() for name in kind.inputs)
)
"""Every kind's input fields, in order, without repeats."""

CASE_FIELDS: tuple[str, ...] = (*common_fields(), *INPUT_FIELDS, "expect")
"""Every field a case may have, in the order messages list them."""


def field_applies(name: str, kind: str | None, game: str | None) -> bool:
    """Whether the case field ``name`` applies to a case of ``kind`` and ``game``.

    Args:
        name: a case field (``"rules"``, ``"options"``, ``"cards"``, ...).
        kind, game: the case's kind and game; ``None`` (or an unknown value) where not
            known, in which case a field limited to some kinds or games does not apply.

    Returns:
        True when the field may be given (so a default may fill it in).
    """
    spec = common_fields().get(name)
    if spec is None:
        kind_spec = KINDS.get(kind or "")
        spec = kind_spec.inputs.get(name) if kind_spec is not None else None
        if spec is None:
            return name == "expect"
    if spec.games == GAMES:
        return True
    return game in spec.games


_na = not_here


def _when(conditions: Mapping[str, str], then: Schema) -> Schema:
    return {
        "if": {
            "properties": {name: {"const": value} for name, value in conditions.items()},
            "required": list(conditions),
        },
        "then": then,
    }


def listing(names: Iterable[str]) -> str:
    """Names as messages list them after ``expected one of:``: ``a, b, c``."""
    return ", ".join(names)


def _expect_schema(kind_name: str, kind: AnyKind) -> Schema:
    elsewhere = {
        name: f"does not apply to kind {kind_name!r}"
        for other in KINDS.values()
        for name in other.expect
        if name not in kind.expect
    }
    return {
        "x-name": "expect",
        "properties": {name: spec.schema for name, spec in kind.expect.items()},
        "additionalProperties": False,
        "required": list(kind.required_expect),
        "x-elsewhere": elsewhere,
    }


def inputs_text(kind: AnyKind, game: str | None = None) -> str:
    """The kind's input fields (those that apply to ``game`` when given), as messages
    list them after ``expected``: ``meld, cards (optionally opened)``."""
    specs = {name: spec for name, spec in kind.inputs.items()
             if game is None or game in spec.games}
    text = listing(name for name, spec in specs.items() if spec.required)
    optional = [name for name, spec in specs.items() if not spec.required]
    if optional:
        text += f" (optionally {or_list(optional)})"
    return text


# -- why a field does not apply (the loader's messages; the editor schema's too) --------


def common_field_elsewhere(name: str, game: str) -> str:
    """Why the common field ``name`` (``rules``, ``options``) does not apply to ``game``."""
    spec = common_fields()[name]
    return (f"field {name!r} does not apply to game {game!r}{spec.note_for(game)}; "
            f"expected it only with {or_list(spec.games)}")


def input_elsewhere(name: str, kind_name: str) -> str:
    """Why the input field ``name`` of another kind does not apply to ``kind_name``."""
    return (f"field {name!r} does not apply to kind {kind_name!r}; "
            f"expected {inputs_text(KINDS[kind_name])}")


def kind_elsewhere(kind_name: str, game: str) -> str:
    """Why the kind ``kind_name`` does not apply to ``game``."""
    return (f"kind {kind_name!r} does not apply to game {game!r}; "
            f"expected game {or_list(KINDS[kind_name].games)}")


def input_in_game_elsewhere(name: str, kind_name: str, game: str) -> str:
    """Why the kind's input field ``name`` does not apply to ``game``."""
    kind = KINDS[kind_name]
    return (f"field {name!r} does not apply to game {game!r} for kind {kind_name!r}"
            f"{kind.inputs[name].note_for(game)}; expected {inputs_text(kind, game)}")


def expect_in_game_elsewhere(name: str, kind_name: str, game: str) -> str:
    """Why the kind's ``expect`` field ``name`` does not apply to ``game``."""
    kind = KINDS[kind_name]
    applicable = listing([n for n, s in kind.expect.items() if game in s.games])
    return (f"field {name!r} in expect does not apply to game {game!r} for kind "
            f"{kind_name!r}{kind.expect[name].note_for(game)}; expected one of: {applicable}")


def expect_elsewhere(name: str, kind_name: str, game: str | None = None) -> str:
    """Why the ``expect`` field ``name`` of another kind does not apply to ``kind_name``
    (the fields it has listed: those that apply to ``game`` when given)."""
    allowed = [n for n, s in KINDS[kind_name].expect.items() if game is None or game in s.games]
    return (f"field {name!r} in expect does not apply to kind {kind_name!r}; "
            f"expected one of: {listing(allowed)}")


def _kind_branch(kind_name: str, kind: AnyKind) -> Schema:
    properties: Schema = {name: spec.schema for name, spec in kind.inputs.items()}
    for name in INPUT_FIELDS:
        if name not in kind.inputs:
            properties[name] = _na(input_elsewhere(name, kind_name))
    properties["expect"] = _expect_schema(kind_name, kind)
    then: Schema = {
        "x-name": f"{kind_name} case",
        "properties": properties,
        "required": [name for name, spec in kind.inputs.items() if spec.required],
    }
    by_game: list[Schema] = []
    for game in GAMES:
        if game not in kind.games:
            message = kind_elsewhere(kind_name, game)
            by_game.append(_when({"game": game}, {"properties": {"game": _na(message)}}))
            continue
        game_properties: Schema = {
            name: _na(input_in_game_elsewhere(name, kind_name, game))
            for name, spec in kind.inputs.items()
            if game not in spec.games
        }
        na_expect = {
            name: _na(expect_in_game_elsewhere(name, kind_name, game))
            for name, spec in kind.expect.items()
            if game not in spec.games
        }
        if na_expect:
            game_properties["expect"] = {"properties": na_expect}
        if game_properties:
            by_game.append(_when({"game": game}, {"properties": game_properties}))
    if by_game:
        then["allOf"] = by_game
    return _when({"kind": kind_name}, then)


@per_registry
def case_schema() -> Schema:
    """The schema of one case, its defaults filled in (not to be changed: it is shared)."""
    properties: Schema = {name: spec.schema for name, spec in common_fields().items()}
    properties.update({name: True for name in INPUT_FIELDS})  # typed per kind
    properties["expect"] = {
        "type": "object",
        "minProperties": 1,
        "x-what": "expect",
        "x-expected": "a mapping of the documented values (verdict, points, ...)",
        "x-messages": {"minProperties": "expect is empty; expected at least one documented "
                       "value"},
    }
    branches: list[Schema] = []
    for game in GAMES:
        na = {
            name: _na(common_field_elsewhere(name, game))
            for name, spec in common_fields().items()
            if game not in spec.games
        }
        if na:
            branches.append(_when({"game": game}, {"properties": na}))
    branches.extend(STATUS_RULES)
    branches.extend(_kind_branch(name, kind) for name, kind in KINDS.items())
    return {
        "$schema": DIALECT,
        "title": "A case of a rules-site case file (after the file's defaults)",
        "type": "object",
        "x-what": "a case",
        "x-expected": "a mapping of fields (id, kind, game, title, expect, ...)",
        "x-name": "case",
        "x-needs": "a case needs " + and_list(REQUIRED),
        "properties": properties,
        "additionalProperties": False,
        "required": list(REQUIRED),
        "allOf": branches,
    }


@per_registry
def file_schema() -> Schema:
    """The schema of a case file; each case is checked with :func:`case_schema`
    separately (not to be changed: it is shared)."""
    return {
        "$schema": DIALECT,
        "title": "A rules-site case file (content/examples/*.yaml)",
        "type": "object",
        "x-what": "the file",
        "x-expected": "a mapping with 'cases' (a list) and optionally 'defaults'",
        "x-name": "the file",
        "properties": {
            "defaults": {
                "type": "object",
                "x-what": "defaults",
                "x-expected": "a mapping of values shared by the cases ("
                + listing(DEFAULTABLE) + ")",
                "x-name": "defaults",
                "properties": {name: common_fields()[name].schema for name in DEFAULTABLE},
                "additionalProperties": False,
            },
            "cases": {
                "type": "array",
                "x-what": "cases",
                "x-expected": "a list of cases",
                "x-example": "<a list of cases>",
                "items": {
                    "type": "object",
                    "x-what": "a case",
                    "x-expected": "a mapping of fields (id, kind, game, title, expect, ...)",
                },
            },
        },
        "additionalProperties": False,
        "required": ["cases"],
    }


def expect_example(kind: AnyKind, game: object) -> str:
    """The ``expect`` fields of a kind (those that apply to ``game`` when it is known):
    ``<verdict (valid or invalid), optionally type, points, reason>``."""
    names = [name for name, spec in kind.expect.items()
             if not isinstance(game, str) or game not in GAMES or game in spec.games]
    required = [name for name in kind.required_expect if name in names]
    optional = [name for name in names if name not in required]
    parts = []
    for name in required:
        choices = kind.expect[name].schema.get("enum")
        parts.append(f"{name} ({or_list(map(str, choices))})" if choices else name)
    if required and optional:
        parts.append("optionally " + listing(optional))
    elif optional:
        parts.append("one or more of " + listing(optional))
    return "<" + ", ".join(parts) + ">"
