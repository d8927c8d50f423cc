"""The editor schema: one JSON Schema (draft 2020-12) of a whole case file, for editors.

``python -m generator schema`` prints it; the YAML language server (VS Code's YAML
extension, JetBrains, Neovim) validates a case file against it while it is typed
(README, "For authors"). It is derived from the loader's own schemas
(:data:`~generator.cases.schema.FILE_SCHEMA` and
:data:`~generator.cases.schema.CASE_SCHEMA`, built from :data:`generator.kinds.KINDS`), so
a new kind or field reaches editors with nothing written here.

Two things differ from what the loader checks:

- **The file form.** The loader fills each case from the file's ``defaults`` before it
  checks the case; a schema cannot copy values. So for every value ``defaults`` may give
  ``kind`` and ``game`` (or none), the case schema is *partially evaluated* with that
  value (:func:`fixed`): a condition on the defaulted field is decided, a constraint on it
  checked once, and the field is no longer required. A case that states its own ``kind``
  or ``game`` is checked with its own, as the loader does.
- **Annotations.** The ``x-`` annotations the loader turns into messages become the
  keywords editors show: ``description`` (hover), ``errorMessage`` (a wrong type or
  value), ``deprecationMessage`` (a field that does not apply: the YAML language server
  shows it at the field), ``patternErrorMessage``. Draft 2020-12 validators ignore them.

What only the loader can check stays there: card codes, how often a card is used,
ids unique across files, plain decimal numbers (``51.0`` is an integer to JSON Schema).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from functools import cache

from jsonschema import Draft202012Validator

from generator.cases.schema import CASE_SCHEMA
from generator.cases.schema import DIALECT
from generator.cases.schema import FILE_SCHEMA
from generator.engine.rules import GAMES
from generator.kinds import KINDS
from generator.kinds.fields import Schema

DEFAULTED = ("kind", "game")
"""The fields ``defaults`` may give that decide which rules a case follows."""

_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "$defs", "patternProperties")
_SUBSCHEMA_ONE = ("not", "if", "then", "else", "items", "additionalProperties", "contains")


def _condition_fields(condition: object) -> set[str] | None:
    """The fields an ``if`` of :func:`generator.cases.schema._when`'s form tests
    (``{"properties": {F: {"const": v}}, "required": [F]}``); ``None`` for another form."""
    if not isinstance(condition, dict) or set(condition) - {"properties", "required"}:
        return None
    properties = condition.get("properties", {})
    if not all(isinstance(s, dict) and set(s) == {"const"} for s in properties.values()):
        return None
    return set(properties)


def _at_level(node: Schema, values: Mapping[str, str]) -> Schema:
    """``node`` (a schema of the case object itself) with the fields of ``values`` fixed.

    Conditions on fixed fields are decided (the ``then`` or ``else`` taken in); a
    ``properties`` constraint on a fixed field is checked against its value and dropped,
    or, when the value breaks it, the node fails with its message; fixed fields are no
    longer ``required``. Sub-schemas of the same object (``allOf``, a branch) are treated
    alike; those of its fields (``properties``) are left as they are.
    """
    out: Schema = {k: v for k, v in node.items() if k not in ("if", "then", "else")}
    parts: list[Schema] = []
    if "if" in node:
        tested = _condition_fields(node["if"])
        if tested is not None and tested <= set(values):
            taken = node.get("then") if Draft202012Validator(node["if"]).is_valid(
                {name: values[name] for name in tested}) else node.get("else")
            if isinstance(taken, dict):
                parts.append(_at_level(taken, values))
        else:
            out["if"] = node["if"]
            for branch in ("then", "else"):
                if isinstance(node.get(branch), dict):
                    out[branch] = _at_level(node[branch], values)
    if "allOf" in node:
        parts[:0] = [_at_level(part, values) for part in node["allOf"]]
        del out["allOf"]
    properties = out.get("properties")
    if isinstance(properties, dict):
        kept = dict(properties)
        for name, value in values.items():
            rule = kept.pop(name, None)
            if isinstance(rule, dict) and not Draft202012Validator(rule).is_valid(value):
                # the case as a whole fails (its field is in defaults, not in the case)
                parts.append({"not": {}, "x-case-message": rule.get("x-message")
                              or f"{name} {value!r} from defaults does not apply here"})
        if kept:
            out["properties"] = kept
        else:
            del out["properties"]
    if "required" in out:
        out["required"] = [name for name in out["required"] if name not in values]
    parts = [part for part in parts if part]
    if parts:
        out["allOf"] = parts
    return out


def fixed(case_schema: Schema, values: Mapping[str, str]) -> Schema:
    """The schema of a case that does not state the fields of ``values``, which the
    file's ``defaults`` give it (``{"game": "cardverse"}``).

    Args:
        case_schema: a schema of one case, its defaults filled in (the loader's
            :data:`~generator.cases.schema.CASE_SCHEMA`).
        values: the defaulted fields and their values.

    Returns:
        A schema without those fields' conditions: the rules of a case of that kind and
        game. ``case_schema`` is not changed.
    """
    return _at_level(copy.deepcopy(case_schema), values)


def _editor_node(node: object) -> object:
    """``node`` with the ``x-`` annotations turned into the keywords editors show
    (``description``, ``errorMessage``, ``deprecationMessage``), recursively."""
    if isinstance(node, list):
        return [_editor_node(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: Schema = {}
    for key, value in node.items():
        if key.startswith("x-"):
            continue
        if key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _editor_node(sub) for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS or key in _SUBSCHEMA_ONE:
            out[key] = _editor_node(value)
        elif key == "pattern" and isinstance(value, str):
            # ECMA-262 (the editors' regular expressions) has no \Z; without the m flag
            # its $ is the end of the text
            out[key] = value.replace("\\Z", "$")
        else:
            out[key] = value
    what, expected = node.get("x-what"), node.get("x-expected")
    if node.get("x-case-message"):
        # the YAML language server says "Matches a schema that is not allowed" and names
        # the schema's title as the diagnostic's source
        out["title"] = out["errorMessage"] = node["x-case-message"]
    elif node.get("x-message"):
        out["deprecationMessage"] = node["x-message"]
        out["errorMessage"] = node["x-message"]
    elif "enum" in node and what:
        out["errorMessage"] = f"unknown {what}; expected one of: " + ", ".join(
            map(str, node["enum"]))
    elif "type" in node and what and expected:
        out["errorMessage"] = f"{what} must be {expected}"
    message = node.get("x-messages", {}).get("pattern")
    if message:
        out["patternErrorMessage"] = message.replace(" {value!r}", "")
    if expected and "description" not in out:
        out["description"] = f"{what}: {expected}" if what else str(expected)
    return out


SHARED_MIN_CHARS = 200
"""A sub-schema of at least this many characters (as compact JSON) that occurs again is
written once: the later copies are ``$ref`` pointers to the first (the variants of the
case schema share most of their fields)."""


def _pointer(path: tuple[str, ...]) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in path)


def _shared(schema: Schema) -> Schema:
    """``schema`` with each repeated sub-schema (:data:`SHARED_MIN_CHARS`) replaced by a
    ``$ref`` to its first occurrence, in document order."""
    first: dict[str, str] = {}

    def walk(node: object, path: tuple[str, ...]) -> object:
        if isinstance(node, list):
            return [walk(item, (*path, str(i))) for i, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        text = json.dumps(node, sort_keys=True, separators=(",", ":"))
        if len(text) >= SHARED_MIN_CHARS and path and path[-1] not in _SUBSCHEMA_MAPS:
            if text in first:
                return {"$ref": first[text]}
            first[text] = _pointer(path)
        return {key: walk(value, (*path, key)) for key, value in node.items()}

    result = walk(schema, ())
    assert isinstance(result, dict)
    return result


def _defaults_are(kind: str | None, game: str | None) -> Schema:
    """The condition "the file's ``defaults`` give this kind and game" (``None``: none)."""
    defaults: Schema = {}
    required: list[str] = []
    absent: list[Schema] = []
    for name, value in (("kind", kind), ("game", game)):
        if value is None:
            absent.append({"required": [name]})
        else:
            defaults.setdefault("properties", {})[name] = {"const": value}
            required.append(name)
    if required:
        defaults["required"] = required
    if absent:
        defaults["not"] = {"anyOf": absent}
    condition: Schema = {"properties": {"defaults": defaults}}
    if required:
        condition["required"] = ["defaults"]
    return condition


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def _name(kind: str | None, game: str | None) -> str:
    parts = [f"kind={kind}" if kind else "", f"game={game}" if game else ""]
    return "case-" + ",".join(p for p in parts if p) if kind or game else "case"


def editor_schema() -> Schema:
    """The JSON Schema (draft 2020-12) of a whole case file, for editors.

    Returns:
        A new schema dict (JSON-serialisable, the same for the same kinds): the file's
        frame (:data:`~generator.cases.schema.FILE_SCHEMA`), and each case checked by
        :data:`~generator.cases.schema.CASE_SCHEMA` as the file's ``defaults`` fill it in
        (``$defs``: ``case``, ``case-game=G``, ``case-kind=K``, ``case-kind=K,game=G``).
    """
    return copy.deepcopy(_editor_schema())


@cache
def _editor_schema() -> Schema:
    kinds: list[str | None] = [None, *KINDS]
    games: list[str | None] = [None, *GAMES]
    defs: Schema = {}
    for kind in kinds:
        for game in games:
            values = {name: value for name, value in (("kind", kind), ("game", game))
                      if value is not None}
            body = fixed(CASE_SCHEMA, values)
            body.pop("$schema", None)
            body.pop("title", None)
            defs[_name(kind, game)] = _editor_node(body)

    def cases_under(kind: str | None, game: str | None) -> Schema:
        # a case's own kind and game win over the defaults (the loader's order)
        return {
            "if": {"required": ["kind"]},
            "then": {"if": {"required": ["game"]}, "then": _ref(_name(None, None)),
                     "else": _ref(_name(None, game))},
            "else": {"if": {"required": ["game"]}, "then": _ref(_name(kind, None)),
                     "else": _ref(_name(kind, game))},
        }

    frame = _editor_node(FILE_SCHEMA)
    assert isinstance(frame, dict)
    frame["properties"]["cases"]["items"] = {"type": "object", "description": "a case"}
    branches = [
        {"if": _defaults_are(kind, game),
         "then": {"properties": {"cases": {"items": cases_under(kind, game)}}}}
        for kind in kinds for game in games
    ]
    return _shared({
        "$schema": DIALECT,
        "title": "Rules-site case file (content/examples/*.yaml)",
        "description": "Generated by `python -m generator schema` from the case kinds; "
        "the generator's own check (`python -m generator check`) also checks card codes, "
        "card counts and unique ids.",
        **{k: v for k, v in frame.items() if k not in ("$schema", "title")},
        "allOf": branches,
        "$defs": defs,
    })


__all__ = ["DEFAULTED", "editor_schema", "fixed"]
