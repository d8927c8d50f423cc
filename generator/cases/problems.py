"""What is wrong with a case file or a case, as the case-file schemas see it, in human
words: :func:`file_problems`, :func:`case_problems`.

A value is validated against :func:`~generator.cases.schema.file_schema` or
:func:`~generator.cases.schema.case_schema` (jsonschema, draft 2020-12, imported only
when a value is checked), and each error is turned into messages of the form ``what is
wrong; what was expected`` from the failed node's ``x-`` annotations: its fixed message
(``x-message``), its message for the keyword (``x-messages``), else the keyword's rule
(:data:`_RULES`, one small function per keyword). jsonschema's own messages are never
shown.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Hashable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING
from typing import Any
from typing import Literal

from generator.cases.schema import CASE_FIELDS
from generator.cases.schema import DEFAULTABLE
from generator.cases.schema import case_schema
from generator.cases.schema import common_fields
from generator.cases.schema import expect_example
from generator.cases.schema import file_schema
from generator.cases.schema import listing
from generator.engine.rules import GAMES
from generator.engine.rules import per_registry
from generator.errors import did_you_mean
from generator.errors import or_list
from generator.kinds import KINDS
from generator.kinds.fields import FieldSpec
from generator.kinds.fields import Schema
from generator.memo import remember
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


class _CaseValidators:
    """Validators of :func:`case_schema` each holding only the conditional branches
    (``allOf``'s ``if``/``then``) that apply to one combination of the fields the
    branches' conditions read (``game``, ``kind``, ``status``): a case is checked against
    its own branches, not all of them (half the time), with the same errors, because a
    branch whose ``if`` fails adds none and a branch with an ``else`` is always kept.
    A case whose condition fields are not plain text (a wrong type) meets the whole
    schema."""

    def __init__(self) -> None:
        self.whole = _validator("case")
        schema: Schema = dict(self.whole.schema)  # type: ignore[arg-type]
        self._schema = schema
        self._branches: list[Schema] = list(schema.get("allOf", ()))
        keys: dict[str, None] = {}
        self._plain = True  # every condition reads named fields only: a probe of them
        for branch in self._branches:
            condition = branch.get("if", {})
            self._plain &= set(condition) <= {"properties", "required"}
            keys.update(dict.fromkeys(condition.get("properties", {})))
        self._keys = tuple(keys)
        self._made: dict[tuple[str | None, ...], Validator] = {}

    def for_case(self, instance: object) -> Validator:
        """The validator for ``instance``: its branches' own, or the whole schema's."""
        if not isinstance(instance, dict) or not self._plain:
            return self.whole
        key: list[str | None] = []
        for name in self._keys:
            value = instance.get(name)
            if value is not None and type(value) is not str:
                return self.whole
            key.append(value)
        found = self._made.get(tuple(key))
        if found is None:
            probe = {name: value for name, value in zip(self._keys, key, strict=True)
                     if value is not None}
            strict = type(self.whole)  # not evolve(): it picks the validator of the
            # schema's $schema, without the strict types
            kept = [branch for branch in self._branches if "else" in branch
                    or "if" not in branch or strict(branch["if"]).is_valid(probe)]
            found = self._made[tuple(key)] = strict({**self._schema, "allOf": kept})
        return found


@per_registry
def _case_validators() -> _CaseValidators:
    return _CaseValidators()


@dataclass(frozen=True)
class SchemaProblem:
    """One thing wrong with a value, as the schema sees it.

    Attributes:
        path: where, within the validated value (``("expect", "points")``).
        message: ``what is wrong; what was expected``.
        at_key: the problem is the mapping key at ``path`` (an unknown field), not
            its value.
        missing: for a missing field, its name.
        of_text: the value is text where a number or true/false belongs, and that is
            all that is wrong with it (the case loader leaves this unsaid where the YAML
            parser has already said why the value is text: a tag it does not fit).
    """

    path: YamlPath
    message: str
    at_key: bool = False
    missing: str | None = None
    of_text: bool = False


_SCALAR_TYPES = frozenset({"integer", "number", "boolean"})
"""The schema's types of a value that YAML reads from plain text other than a string."""

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
    yield SchemaProblem(failure.path, f"{failure.what} must be {expected}; got {got}{hint}",
                        of_text=isinstance(value, str) and set(types) <= _SCALAR_TYPES)


def _enum_problem(failure: _Failure) -> Iterator[SchemaProblem]:
    """A value not among the choices: an unknown word (with a close choice), or a value
    that is not a word at all."""
    choices = [str(choice) for choice in failure.expected]
    schema, value, what = failure.schema, failure.value, failure.what
    context = f" for kind {schema['x-for']!r}" if schema.get("x-for") else ""
    if isinstance(value, str) and not isinstance(value, BoolText):
        yield failure.problem(f"unknown {what} {value!r}{context}; expected one of: "
                              f"{listing(choices)}{did_you_mean(value, choices)}")
    else:
        yield failure.problem(f"{what}{context} must be one of: {listing(choices)}; "
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
                       f"expected one of: {listing(allowed)}")
        else:
            message = (f"unknown {word} {key!r} in {container}; expected one of: "
                       f"{listing(allowed)}{did_you_mean(key, allowed)}")
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
    validator = _validator("file") if which == "file" \
        else _case_validators().for_case(instance)
    for error in validator.iter_errors(instance):
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


CHECKED_LIMIT = 4096
"""Cases whose problems :func:`case_problems` remembers in the process, at most."""

_REMEMBERING = False
"""Whether :func:`case_problems` remembers problems by the case's value
(:func:`remember_problems`)."""


def remember_problems(on: bool = True) -> None:
    """From now on, remember each case's problems by its value (``on``), or stop: a
    process that loads the same files again and again (``serve``, after each save)
    checks a case that did not change once; a build that loads each case once does not
    remember (keying and keeping every case costs it more than it saves: at 4,800
    cases, 0.3 s and more)."""
    global _REMEMBERING
    _REMEMBERING = on


@per_registry
def _checked() -> OrderedDict[Hashable, tuple[SchemaProblem, ...]]:
    """The problems :func:`case_problems` found, by the case's value (:func:`_value_key`),
    for the registry as it is (a kind or a game registered: a new, empty memo)."""
    return OrderedDict()


def _value_key(value: object) -> Hashable:
    """A plain value (YAML's: mappings, lists, scalars) as a hashable key that tells
    apart what the schema tells apart: each scalar with its exact type (``1``, ``1.0``,
    ``True``, ``"1"`` and a :class:`~generator.yamlpos.BoolText` ``yes`` all differ).

    Raises:
        TypeError: a scalar that is not hashable.
    """
    if isinstance(value, dict):
        return ("{", tuple((_value_key(k), _value_key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("[", tuple(_value_key(v) for v in value))
    hash(value)
    return (type(value), value)


def case_problems(instance: object) -> list[SchemaProblem]:
    """Check one case, its defaults filled in, against :func:`case_schema`. The problems
    of a value checked before in the process are remembered once
    :func:`remember_problems` is on (``serve`` checks a saved file's every case again,
    most of them unchanged).

    Args:
        instance: the case's plain value (a dict).

    Returns:
        Every problem (types, values, missing and unknown fields, fields that do not
        apply to the kind or game), without repeats, paths relative to the case.
    """
    if not _REMEMBERING:
        return _check("case", instance)
    try:
        key = _value_key(instance)
    except TypeError:
        return _check("case", instance)
    memo = _checked()
    found = memo.get(key)
    if found is None:
        found = tuple(_check("case", instance))
    remember(memo, key, found, CHECKED_LIMIT)
    return list(found)
