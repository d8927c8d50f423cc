"""The case-file schema (JSON Schema, draft 2020-12) and human messages for its errors.

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
``x-message``, ...) that :func:`file_problems` and :func:`case_problems` turn into messages of the
form ``what is wrong; what was expected``; jsonschema's own messages are never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING
from typing import Any
from typing import Literal

from generator.engine.codes import CaseStatus
from generator.engine.rules import GAMES
from generator.engine.rules import OPTIONS
from generator.engine.rules import PRESETS
from generator.engine.rules import per_registry
from generator.errors import and_list
from generator.errors import did_you_mean
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
from generator.yamlpos import BoolText
from generator.yamlpos import YamlPath
from generator.yamlpos import boolean_hint
from generator.yamlpos import describe
from generator.yamlpos import integer_hint
from generator.yamlpos import string_hint

if TYPE_CHECKING:  # jsonschema is imported where a value is checked: a build whose case
    # files are all known valid (generator.cases.loader.load_cases) needs none of it
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

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


def _listing(names: Iterable[str]) -> str:
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
    text = _listing(name for name, spec in specs.items() if spec.required)
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
    applicable = _listing([n for n, s in kind.expect.items() if game in s.games])
    return (f"field {name!r} in expect does not apply to game {game!r} for kind "
            f"{kind_name!r}{kind.expect[name].note_for(game)}; expected one of: {applicable}")


def expect_elsewhere(name: str, kind_name: str, game: str | None = None) -> str:
    """Why the ``expect`` field ``name`` of another kind does not apply to ``kind_name``
    (the fields it has listed: those that apply to ``game`` when given)."""
    allowed = [n for n, s in KINDS[kind_name].expect.items() if game is None or game in s.games]
    return (f"field {name!r} in expect does not apply to kind {kind_name!r}; "
            f"expected one of: {_listing(allowed)}")


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
                + _listing(DEFAULTABLE) + ")",
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


def _is_integer(_checker: object, instance: object) -> bool:
    # JSON Schema counts 3.0 as an integer and Python counts True as one: neither here
    return isinstance(instance, int) and not isinstance(instance, bool)


def _is_string(_checker: object, instance: object) -> bool:
    # a bare yes/no is text to YAML 1.2 only: not a string here (nor a boolean)
    return isinstance(instance, str) and not isinstance(instance, BoolText)


@per_registry
def _validator(which: Literal["file", "case"]) -> Validator:
    """The validator of :func:`file_schema` or :func:`case_schema`: draft 2020-12,
    except that ``integer`` means a Python int that is not a bool, and ``string`` a str
    that is not a :class:`~generator.yamlpos.BoolText` (a bare ``yes`` is neither a
    string nor a boolean)."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    strict: type[Validator] = extend(  # type: ignore[no-untyped-call]
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
            {"integer": _is_integer, "string": _is_string}),
    )
    schema = file_schema() if which == "file" else case_schema()
    validator: Validator = strict(schema)
    return validator


@dataclass(frozen=True)
class SchemaProblem:
    """One thing wrong with a value, as the schema sees it.

    Attributes:
        path: where, within the validated value (``("expect", "points")``).
        message: ``what is wrong; what was expected``.
        at_key: the problem is the mapping key at ``path`` (an unknown field), not
            its value.
        missing: for a missing field, its name.
    """

    path: YamlPath
    message: str
    at_key: bool = False
    missing: str | None = None


_TYPE_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "number": "a number",
    "null": "empty",
}


def _example(name: str, schema: object, container: dict[str, Any]) -> str:
    """What a missing field ``name`` should hold, as its message shows it after
    ``expected name:`` (``valid or invalid``, ``<English text>``)."""
    if name == "expect":
        kind = container.get("kind")
        if isinstance(kind, str) and kind in KINDS:
            return expect_example(KINDS[kind], container.get("game"))
        return "<the documented values, e.g. verdict, points>"
    if not isinstance(schema, dict):
        return "<a value>"
    if "x-example" in schema:
        return str(schema["x-example"])
    if "enum" in schema:
        return or_list(str(choice) for choice in schema["enum"])
    return f"<{schema.get('x-expected', 'a value')}>"


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
        parts.append("optionally " + _listing(optional))
    elif optional:
        parts.append("one or more of " + _listing(optional))
    return "<" + ", ".join(parts) + ">"


def _case_fields_for(kind: object, game: object) -> list[str]:
    """The fields a case of ``kind`` may have (those that apply to ``game`` when it is
    known), in :data:`CASE_FIELDS` order; empty for an unknown kind."""
    if not isinstance(kind, str) or kind not in KINDS:
        return []
    known_game = game if isinstance(game, str) and game in GAMES else None
    spec = KINDS[kind]

    def applies(field_spec: FieldSpec) -> bool:
        return known_game is None or known_game in field_spec.games

    return [name for name in CASE_FIELDS
            if (name in common_fields() and applies(common_fields()[name]))
            or (name in spec.inputs and applies(spec.inputs[name]))
            or name == "expect"]


@dataclass(frozen=True)
class _Failure:
    """One jsonschema error, read for its message.

    Attributes:
        schema: the schema node that failed (its ``x-`` annotations).
        path: where, within the validated value.
        keyword: the keyword that failed (``type``, ``enum``, ``required``, ...).
        expected: the keyword's value in the schema (the types, the choices, ...).
        value: the value that failed.
        what: how the messages name the value (``x-what``, else its key).
    """

    schema: Schema
    path: YamlPath
    keyword: str
    expected: Any
    value: Any
    what: str

    @classmethod
    def of(cls, error: ValidationError) -> _Failure:
        """The failure jsonschema's ``error`` reports."""
        schema: Schema = error.schema if isinstance(error.schema, dict) else {}
        path: YamlPath = tuple(error.absolute_path)
        what = schema.get("x-what") or (str(path[-1]) if path else "value")
        return cls(schema, path, str(error.validator), error.validator_value, error.instance,
                   what)

    def problem(self, message: str) -> SchemaProblem:
        """A problem with ``message`` at the failed value."""
        return SchemaProblem(self.path, message)


_Rule = Callable[[_Failure], Iterator[SchemaProblem]]
"""The messages of a failed keyword."""


def _type_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """A value of the wrong type: what it must be, what it is, and a hint for text that
    YAML reads as another type (``yes``, ``051``)."""
    expected_value, value = failure.expected, failure.value
    types = expected_value if isinstance(expected_value, list) else [expected_value]
    expected = failure.schema.get("x-expected") or " or ".join(_TYPE_WORDS[t] for t in types)
    got = describe(value)
    if "boolean" in types and isinstance(value, BoolText):
        got, hint = value, boolean_hint(value)
    elif "string" in types:
        hint = string_hint(value)
    elif "integer" in types:
        hint = integer_hint(value)
    else:
        hint = ""
    yield failure.problem(f"{failure.what} must be {expected}; got {got}{hint}")


def _enum_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """A value not among the choices: an unknown word (with a close choice), or a value
    that is not a word at all."""
    choices = [str(choice) for choice in failure.expected]
    schema, value, what = failure.schema, failure.value, failure.what
    context = f" for kind {schema['x-for']!r}" if schema.get("x-for") else ""
    if isinstance(value, str) and not isinstance(value, BoolText):
        yield failure.problem(f"unknown {what} {value!r}{context}; expected one of: "
                              f"{_listing(choices)}{did_you_mean(value, choices)}")
    else:
        yield failure.problem(f"{what}{context} must be one of: {_listing(choices)}; "
                              f"got {describe(value)}{string_hint(value)}")


def _required_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """One problem per missing field of a mapping, each with an example of its value."""
    schema, value, path = failure.schema, failure.value, failure.path
    if not isinstance(value, dict):
        yield from _other_problem(failure)
        return
    container = schema.get("x-name", "mapping")
    properties: Schema = schema.get("properties", {})
    needs = f" ({schema['x-needs']})" if schema.get("x-needs") else ""
    for name in failure.expected:
        if name not in value:
            extra = " (nor in defaults)" if name in DEFAULTABLE else ""
            example = _example(name, properties.get(name), value)
            yield SchemaProblem(path, f"missing field {name!r} in {container}{extra}; "
                                f"expected {name}: {example}{needs}", missing=name)


def _additional_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """One problem per field a mapping does not take, at its key: one of another kind
    (``x-elsewhere``, with why), or an unknown one (with a close name)."""
    schema, value = failure.schema, failure.value
    if not isinstance(value, dict):
        yield from _other_problem(failure)
        return
    container = schema.get("x-name", "mapping")
    word = schema.get("x-field", "field")
    allowed = list(schema.get("properties", {}))
    if schema.get("x-name") == "case":
        allowed = _case_fields_for(value.get("kind"), value.get("game")) or allowed
    elsewhere: dict[str, str] = schema.get("x-elsewhere", {})
    for key in value:
        if key in allowed:
            continue
        if key in elsewhere:
            message = (f"{word} {key!r} in {container} {elsewhere[key]}; "
                       f"expected one of: {_listing(allowed)}")
        else:
            message = (f"unknown {word} {key!r} in {container}; expected one of: "
                       f"{_listing(allowed)}{did_you_mean(key, allowed)}")
        yield SchemaProblem((*failure.path, key), message, at_key=True)


def _empty_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """An empty string or list where one is needed."""
    yield failure.problem(f"{failure.what} is empty; expected "
                          f"{failure.schema.get('x-expected')}")


def _minimum_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """A number below its least value."""
    yield failure.problem(f"{failure.what} must be at least {failure.expected}; "
                          f"got {describe(failure.value)}")


def _other_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """A keyword no rule names: where, and what was expected, not jsonschema's words."""
    expected = failure.schema.get("x-expected", "a valid value")
    yield failure.problem(f"{failure.what} is not valid ({failure.keyword}); "
                          f"expected {expected}")


_RULES: Mapping[str, _Rule] = MappingProxyType({
    "type": _type_problem,
    "enum": _enum_problem,
    "required": _required_problem,
    "additionalProperties": _additional_problem,
    "minLength": _empty_problem,
    "minItems": _empty_problem,
    "minimum": _minimum_problem,
})
"""The messages of each keyword the schemas use, by keyword (another:
:func:`_other_problem`)."""


def _problems(error: ValidationError) -> Iterator[SchemaProblem]:
    """The human messages for one jsonschema error (several for ``required`` and
    ``additionalProperties``, one per field): the node's fixed message (``x-message``: a
    field that does not apply), else its message for the keyword (``x-messages``), else
    the keyword's rule (:data:`_RULES`)."""
    failure = _Failure.of(error)
    template = failure.schema.get("x-messages", {}).get(failure.keyword)
    if failure.schema.get("x-message"):
        yield failure.problem(failure.schema["x-message"])
    elif template:
        yield failure.problem(template.format(value=failure.value))
    else:
        yield from _RULES.get(failure.keyword, _other_problem)(failure)


def _check(which: Literal["file", "case"], instance: Any) -> list[SchemaProblem]:
    seen: dict[SchemaProblem, None] = {}
    for error in _validator(which).iter_errors(instance):
        for problem in _problems(error):
            seen.setdefault(problem, None)
    return list(seen)


def file_problems(instance: object) -> list[SchemaProblem]:
    """Check a whole case file against :func:`file_schema` (the cases only for being
    mappings).

    Args:
        instance: the file's plain value (from :func:`generator.yamlpos.parse_yaml`).

    Returns:
        Every problem, without repeats; empty when the file's frame is right.
    """
    return _check("file", instance)


def case_problems(instance: object) -> list[SchemaProblem]:
    """Check one case, its defaults filled in, against :func:`case_schema`.

    Args:
        instance: the case's plain value (a dict).

    Returns:
        Every problem (types, values, missing and unknown fields, fields that do not
        apply to the kind or game), without repeats, paths relative to the case.
    """
    return _check("case", instance)
