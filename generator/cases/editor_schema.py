"""The editor schema: one JSON Schema (draft 2020-12) of a whole case file, for editors.

``python -m generator schema`` prints it; ``init`` writes it into a new site; the YAML
language server (VS Code's YAML extension, JetBrains, Neovim) validates a case file
against it while it is typed (README, "In the editor"). It is made from what the loader
checks: the fields of :func:`~generator.cases.schema.common_fields` and of each kind
(:data:`generator.kinds.KINDS`, with the games each applies to), the loader's messages
for a field that does not apply (:mod:`generator.cases.schema`), the card codes of
:func:`generator.engine.cards.code_pattern`, and each kind's
:meth:`~generator.kinds.base.Kind.editor_rules` (the bounds its ``check`` applies in
code). A new kind or field reaches editors with nothing written here.

**One schema per kind and game.** A case is checked by the schema of its kind and game
(``$defs``: ``meld-in-rami51``; ``meld`` where the game is missing, unknown or not one the
kind applies to; ``case`` and ``case-in-G`` where the kind is missing or unknown), chosen
by ``if``/``then`` on its own ``kind`` and ``game``, or else on the file's ``defaults``
(the loader's order: a case's own values win). Each such schema lists exactly the
fields that apply, closed with ``additionalProperties: false``, so that an editor names
a misspelt field, a missing one and one that does not apply (the loader's message, and
left out of completion: ``doNotSuggest``).

**Messages.** The ``x-`` annotations the loader turns into messages become the keywords
editors show: ``errorMessage`` (a wrong type or value; the YAML language server shows it
instead of every other message of the same node, so a mapping's own ``errorMessage``
sits in an ``allOf`` beside it, where it cannot hide a missing or an unknown field),
``patternErrorMessage``, ``description`` (hover). Draft 2020-12 validators ignore them.

What a JSON Schema cannot say stays with ``check``: ids unique across files and keys
unique in a mapping, what the engine says (a disagreement, a meld on the table that is
not valid), how often a card is used across the lists of a case and how many jokers its
preset deals, the size limits of a file, the number of ``results`` against the number of
``actions``, and numbers or booleans that YAML 1.1 reads otherwise than YAML 1.2 (``051``,
``25.0``, ``0x1F``; a bare ``no`` where text belongs). tests/test_editor_schema.py holds
``check`` and this schema to agreeing on everything else.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.cases.reader import most_cards
from generator.cases.schema import DIALECT
from generator.cases.schema import INPUT_FIELDS
from generator.cases.schema import REQUIRED
from generator.cases.schema import STATUS_RULES
from generator.cases.schema import case_schema
from generator.cases.schema import common_field_elsewhere
from generator.cases.schema import common_fields
from generator.cases.schema import expect_elsewhere
from generator.cases.schema import expect_example
from generator.cases.schema import expect_in_game_elsewhere
from generator.cases.schema import file_schema
from generator.cases.schema import input_elsewhere
from generator.cases.schema import input_in_game_elsewhere
from generator.cases.schema import inputs_text
from generator.cases.schema import kind_elsewhere
from generator.engine.cards import CODE_EXPECTED
from generator.engine.cards import NATURAL_EXPECTED
from generator.engine.rules import GAMES
from generator.engine.rules import per_registry
from generator.engine.rules import rule_set
from generator.kinds import KINDS
from generator.kinds.fields import Schema
from generator.kinds.fields import card_codes_pattern
from generator.kinds.fields import card_pattern
from generator.kinds.fields import not_here
from generator.kinds.fields import text_pattern

_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SUBSCHEMA_MAPS = ("properties", "$defs", "patternProperties", "dependentSchemas")
_SUBSCHEMA_ONE = ("not", "if", "then", "else", "items", "additionalProperties", "contains")


# -- one node: the loader's annotations as editors' keywords ---------------------------


def _count_text(least: int, most: int) -> str:
    """``"13 or 14"``, ``"1 to 160"``, ``"at most 3"``."""
    if least == most:
        return str(least)
    if most == least + 1:
        return f"{least} or {most}"
    return f"at most {most}" if least == 0 else f"{least} to {most}"


def _card_keywords(out: Schema, cards: str, game: str | None, jokers: bool) -> None:
    """Add to ``out`` (a card field's schema, ``x-cards`` ``cards``) the patterns the
    loader's reading of card codes comes to: ``card`` and ``natural card`` one code,
    ``list`` a list of codes or a string of codes separated by spaces (no commas), as
    many as its ``minItems`` and ``maxItems`` say (at most :func:`most_cards`). The
    messages do not name the field (the editor shows them at it), so that the fields
    share these parts (:func:`_shared`)."""
    natural = cards == "natural card" or not jokers
    if cards == "natural card":
        expected = f"{NATURAL_EXPECTED}, not JK"
    elif not jokers:
        expected = f"{NATURAL_EXPECTED} ({game} has no jokers)"
    else:
        expected = CODE_EXPECTED
    code: Schema = {"pattern": card_pattern(joker=not natural),
                    "patternErrorMessage": f"unknown card; expected {expected}"}
    if cards != "list":
        out.update(code)
        return
    least = out.get("minItems", 0)
    most = min(out.get("maxItems", most_cards()), most_cards())
    out["maxItems"] = most
    out["items"] = {**out.get("items", {}), **code}
    if most < most_cards():  # a kind's bound (best_opening: 13 or 14)
        count = _count_text(least, most)
        wrong, codes = f"unknown card, or not {count} cards", f"{count} card codes"
    else:  # the loader's bound of every card list, too large to be worth a mention
        wrong, codes = ("unknown card", "card codes") if least else \
            ("unknown card", "no card, or card codes")
        if least:
            wrong += ", or no card"
    out.setdefault("allOf", []).append({
        "if": {"pattern": ","},
        "then": {"pattern": "^[^,]*$", "patternErrorMessage": (
            "a card list written with commas in one string; expected the codes separated "
            "by spaces (QH KH AH) or a YAML list ([QH, KH, AH])")},
        "else": {"pattern": card_codes_pattern(least, most, joker=not natural),
                 "patternErrorMessage": f"{wrong}; expected {codes} separated by spaces, "
                 f"each {expected}"},
    })


@dataclass(frozen=True)
class _Target:
    """What a node is turned for.

    Attributes:
        game: the game of the case schema (``None``: any), named in card messages.
        jokers: whether ``JK`` is a card there (``False``: ``game`` has no jokers).
    """

    game: str | None = None
    jokers: bool = True


_Annotation = Callable[[Schema, Schema, _Target], None]
"""A step of :func:`_editor_node`: adds to the turned node (its first argument) the
editors' keywords of one kind of annotation of the loader's node (its second)."""


def _keywords(node: Schema, target: _Target) -> Schema:
    """``node``'s keywords without its ``x-`` annotations, its sub-schemas turned
    (:func:`_editor_node`), a ``pattern`` in the editors' syntax."""
    out: Schema = {}
    for key, value in node.items():
        if key.startswith("x-"):
            continue
        if key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _editor_node(sub, target.game, target.jokers)
                        for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS or key in _SUBSCHEMA_ONE:
            out[key] = _editor_node(value, target.game, target.jokers)
        elif key == "pattern" and isinstance(value, str):
            # ECMA-262 (the editors' regular expressions) has no \Z; without the m flag
            # its $ is the end of the text
            out[key] = value.replace("\\Z", "$")
        else:
            out[key] = value
    return out


def _cards(out: Schema, node: Schema, target: _Target) -> None:
    """A card field (``x-cards``): the patterns of its codes (:func:`_card_keywords`)."""
    if node.get("x-cards"):
        _card_keywords(out, node["x-cards"], target.game, target.jokers)


def _text(out: Schema, node: Schema, target: _Target) -> None:
    """A text field (``x-text``): printable characters only."""
    if node.get("x-text"):
        out["pattern"] = text_pattern()
        out["patternErrorMessage"] = ("a control character or a noncharacter; expected "
                                      "printable text (remove it)")


def _value_message(node: Schema) -> str | None:
    """The message of a value not among ``node``'s choices or not of its type (``None``:
    ``node`` says neither what it is nor what it expects)."""
    what, expected = node.get("x-what"), node.get("x-expected")
    if "enum" in node and what:
        return f"unknown {what}; expected one of: " + ", ".join(map(str, node["enum"]))
    if "type" in node and what and expected:
        message = f"{what} must be {expected}"
        if node["type"] == "boolean":
            message += " (not yes, no, on or off)"
        return message
    return None


def _error_message(out: Schema, node: Schema, target: _Target) -> None:
    """A wrong value's message (:func:`_value_message`) as ``errorMessage``; a mapping's
    beside its type, in an ``allOf``: the YAML language server shows a node's
    ``errorMessage`` instead of its messages of missing and unknown fields."""
    message = _value_message(node)
    if message and node.get("type") == "object":
        del out["type"]
        out["allOf"] = [{"type": "object", "errorMessage": message}, *out.get("allOf", [])]
    elif message:
        out["errorMessage"] = message


def _pattern_message(out: Schema, node: Schema, target: _Target) -> None:
    """The loader's message of a pattern (``x-messages``), without the value."""
    pattern_message = node.get("x-messages", {}).get("pattern")
    if pattern_message:
        out["patternErrorMessage"] = pattern_message.replace(" {value!r}", "")


def _missing_message(out: Schema, node: Schema, target: _Target) -> None:
    """A mapping that needs its one field for a reason (``x-needs``): the missing
    field's message, on a node of its own (as an object's type's)."""
    needs, required = node.get("x-needs"), node.get("required")
    if needs and isinstance(required, list) and len(required) == 1:
        name = required[0]
        example = node.get("properties", {}).get(name, {}).get("x-example", "<a value>")
        del out["required"]
        out["allOf"] = [*out.get("allOf", []), {"required": [name], "errorMessage": (
            f"missing field {name!r}; expected {name}: {example} ({needs})")}]


def _description(out: Schema, node: Schema, target: _Target) -> None:
    """What the node expects (``x-expected``, ``x-what``) as its hover text, unless it
    has one."""
    what, expected = node.get("x-what"), node.get("x-expected")
    if expected and "description" not in out:
        out["description"] = f"{what}: {expected}" if what else str(expected)


_ANNOTATIONS: tuple[_Annotation, ...] = (
    _cards, _text, _error_message, _pattern_message, _missing_message, _description)
"""The steps of :func:`_editor_node`, in the order they add their keywords."""


def _editor_node(node: object, game: str | None = None, jokers: bool = True) -> object:
    """``node`` with the loader's ``x-`` annotations turned into the keywords editors
    show, recursively: a field that must not be there (``x-message``) into an ``enum``
    of nothing with its message, left out of completion; ``x-what``/``x-expected`` into
    ``errorMessage`` and ``description``; card fields (``x-cards``) into patterns (no
    joker where ``jokers`` is false: ``game`` has none). The steps: :data:`_ANNOTATIONS`."""
    if isinstance(node, list):
        return [_editor_node(item, game, jokers) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("x-message"):
        return {"enum": [], "errorMessage": node["x-message"], "doNotSuggest": True}
    target = _Target(game, jokers)
    out = _keywords(node, target)
    for annotate in _ANNOTATIONS:
        annotate(out, node, target)
    return out


# -- a case of one kind and game ---------------------------------------------------------


def _merged(base: Any, extra: Any) -> Any:
    """``extra`` (a kind's :meth:`~generator.kinds.base.Kind.editor_rules`) merged into
    ``base`` (a new value; neither changes): mappings key by key, lists one after the
    other, a field that does not apply (``x-message``) in place of the other."""
    if not isinstance(base, dict) or not isinstance(extra, dict):
        if isinstance(base, list) and isinstance(extra, list):
            return [*copy.deepcopy(base), *copy.deepcopy(extra)]
        return copy.deepcopy(extra)
    if "x-message" in extra or "x-message" in base:
        return copy.deepcopy(extra if "x-message" in extra else base)
    out = copy.deepcopy(base)
    for key, value in extra.items():
        out[key] = _merged(base[key], value) if key in base else copy.deepcopy(value)
    return out


def _def_name(kind: str | None, game: str | None) -> str:
    """``meld-in-rami51``, ``meld``, ``case-in-cardverse``, ``case``."""
    return (kind or "case") + (f"-in-{game}" if game else "")


def _ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def _kind_field() -> Schema:
    """``kind``: one of the kinds, each described by its inputs and ``expect`` fields."""
    schema = copy.deepcopy(common_fields()["kind"].schema)
    schema["enumDescriptions"] = [f"{inputs_text(kind)} → expect {expect_example(kind, None)}"
                                  for kind in KINDS.values()]
    return schema


def _game_field(kind_name: str | None) -> Schema:
    """``game``: one of the games; one the kind applies to, or the loader's message."""
    schema = copy.deepcopy(common_fields()["game"].schema)
    if kind_name is not None:
        other = [game for game in GAMES if game not in KINDS[kind_name].games]
        if other:
            schema["allOf"] = [{"if": {"const": game},
                                "then": not_here(kind_elsewhere(kind_name, game))}
                               for game in other]
    return schema


def _expect(kind_name: str | None, game: str | None) -> Schema:
    """``expect`` of a case of ``kind_name`` in ``game`` (``None``: not known): the kind's
    fields that apply, the others with the loader's message, and a field that the engine
    gives with some verdicts only (:attr:`~generator.kinds.fields.FieldSpec.verdicts`)
    refused with the others."""
    generic: Schema = copy.deepcopy(case_schema()["properties"]["expect"])
    if kind_name is None:
        return generic
    kind = KINDS[kind_name]
    properties: Schema = {}
    rules: list[Schema] = []
    verdicts = kind.expect["verdict"].schema.get("enum", []) if "verdict" in kind.expect else []
    for name, spec in kind.expect.items():
        if game is not None and game not in spec.games:
            properties[name] = not_here(expect_in_game_elsewhere(name, kind_name, game))
            continue
        properties[name] = copy.deepcopy(spec.schema)
        rules.extend({
            "if": {"properties": {"verdict": {"const": verdict}}, "required": ["verdict"]},
            "then": {"properties": {name: not_here(
                f"field {name!r} in expect does not apply to verdict {verdict!r} (the "
                f"engine gives {name} only with verdict {' or '.join(spec.verdicts)}); "
                f"expected no {name} here")}},
        } for verdict in verdicts if spec.verdicts and verdict not in spec.verdicts)
    for other in KINDS.values():
        for name in other.expect:
            properties.setdefault(name, True)  # another kind's: _elsewhere() says so
    generic.update({
        "title": "expect",
        "x-expected": f"a mapping of the documented values: {expect_example(kind, game)[1:-1]}",
        "properties": properties,
        "additionalProperties": False,
        "required": list(kind.required_expect),
    })
    if rules:
        generic["allOf"] = rules
    return generic


def _common_property(name: str, kind_name: str | None, game: str | None) -> Schema:
    """The common field ``name`` in a case of ``kind_name`` in ``game``: ``kind`` and
    ``game`` with their choices, a field that does not apply to the game with the
    loader's message, any other as the loader's schema has it."""
    spec = common_fields()[name]
    if name == "kind":
        return _kind_field()
    if name == "game":
        return _game_field(kind_name)
    if game is not None and game not in spec.games:
        return not_here(common_field_elsewhere(name, game))
    return copy.deepcopy(spec.schema)


def _input_property(name: str, kind_name: str | None, game: str | None) -> Schema | bool:
    """The input field ``name`` in a case of ``kind_name`` in ``game``: ``true`` where
    the kind is not known (typed by the kind) or the field is another kind's
    (:func:`_elsewhere` says so), the loader's message where it does not apply to the
    game, else the kind's schema of it."""
    spec = KINDS[kind_name].inputs.get(name) if kind_name is not None else None
    if spec is None or kind_name is None:
        return True
    if game is not None and game not in spec.games:
        return not_here(input_in_game_elsewhere(name, kind_name, game))
    return copy.deepcopy(spec.schema)


def _required(kind_name: str | None, game: str | None) -> list[str]:
    """The fields a case of ``kind_name`` in ``game`` needs, but ``kind`` and ``game``
    (the file's ``defaults`` may give them): the common ones, then the kind's inputs
    that apply to the game, in :data:`INPUT_FIELDS` order."""
    required = [name for name in REQUIRED if name not in ("kind", "game")]
    if kind_name is None:
        return required
    inputs = KINDS[kind_name].inputs
    return [*required, *(name for name in INPUT_FIELDS if name in inputs
                         and (game is None or game in inputs[name].games)
                         and inputs[name].required)]


def _case_def(kind_name: str | None, game: str | None) -> Schema:
    """The schema of a case of ``kind_name`` in ``game`` (either ``None``: missing,
    unknown or, for the game, not one the kind applies to), for editors."""
    kind = KINDS[kind_name] if kind_name is not None else None
    properties: Schema = {name: _common_property(name, kind_name, game)
                          for name in common_fields()}
    properties.update({name: _input_property(name, kind_name, game) for name in INPUT_FIELDS})
    properties["expect"] = _expect(kind_name, game)
    title = f"{kind_name or 'a'} case" + (f" in {game}" if game else "")
    what = (f"{kind_name}: {inputs_text(kind, game)}, and expect" if kind is not None
            else "id, kind, game, title, expect, ...")
    body: Schema = {
        "title": title,
        "description": f"{title}: {what}",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "required": _required(kind_name, game),
        "allOf": [*copy.deepcopy(STATUS_RULES),
                  *([_ref(f"{kind_name}-elsewhere")] if kind_name is not None else [])],
    }
    rules = rule_set(game) if game is not None else None
    if kind is not None and rules is not None:
        body = _merged(body, kind.editor_rules(rules))
    result = _editor_node(body, game, rules.has_jokers if rules is not None else True)
    assert isinstance(result, dict)
    return result


def _elsewhere(kind_name: str) -> Schema:
    """The fields of the other kinds in a case of ``kind_name``, each with the loader's
    message (the case schemas of the kind list them as ``true`` and refer here: one
    copy of the messages for every game)."""
    kind = KINDS[kind_name]
    expect = {name: not_here(expect_elsewhere(name, kind_name))
              for other in KINDS.values() for name in other.expect if name not in kind.expect}
    node = {"properties": {
        **{name: not_here(input_elsewhere(name, kind_name))
           for name in INPUT_FIELDS if name not in kind.inputs},
        "expect": {"properties": expect}}}
    result = _editor_node(node)
    assert isinstance(result, dict)
    return result


# -- which case schema a case follows ----------------------------------------------------


def _states(field: str, value: str | None) -> Schema:
    """The condition "the case states ``field`` (``kind``, ``game``) as ``value``"
    (``None``: as a value that is none of the known ones)."""
    known = list(KINDS) if field == "kind" else list(GAMES)
    test: Schema = {"const": value} if value is not None else {"not": {"enum": known}}
    return {"properties": {field: test}, "required": [field]}


def _missing(field: str) -> Schema:
    """A case without ``field``, where ``defaults`` does not give it either."""
    choices = list(KINDS) if field == "kind" else list(GAMES)
    return {"required": [field], "errorMessage": f"missing field {field!r} in case (nor in "
            f"defaults); expected {field}: {', '.join(choices)}"}


def _route_name(kind: str | None, default_game: str | None) -> str:
    return f"{kind or 'case'}-by-game-default-{default_game or 'none'}"


def _by_game(kind: str | None, default_game: str | None) -> Schema:
    """The case schema of a case of ``kind`` (``None``: unknown or missing) chosen by its
    own game, else by ``default_game`` (``None``: none, or one that is not known)."""
    parts: list[Schema] = []
    for game in GAMES:
        fits = kind is None or game in KINDS[kind].games
        parts.append({"if": _states("game", game),
                      "then": _ref(_def_name(kind, game if fits else None))})
    parts.append({"if": _states("game", None), "then": _ref(_def_name(kind, None))})
    absent: Schema
    if default_game is None:
        absent = {"allOf": [_ref(_def_name(kind, None)), _missing("game")]}
    elif kind is None or default_game in KINDS[kind].games:
        absent = _ref(_def_name(kind, default_game))
    else:
        what, _, expected = kind_elsewhere(kind, default_game).partition("; ")
        absent = {"allOf": [_ref(_def_name(kind, None)), {
            "required": ["game"],
            "errorMessage": f"{what} (game from defaults); {expected}"}]}
    parts.append({"if": {"not": {"required": ["game"]}}, "then": absent})
    return {"allOf": parts}


def _by_kind(default_game: str | None) -> Schema:
    """The routes of a case that states its kind, by that kind."""
    parts = [{"if": _states("kind", kind), "then": _ref(_route_name(kind, default_game))}
             for kind in KINDS]
    parts.append({"if": _states("kind", None), "then": _ref(_route_name(None, default_game))})
    return {"allOf": parts}


def _defaults_give(kind: str | None, game: str | None) -> Schema:
    """The condition "the file's ``defaults`` give this kind and game" (``None``: none,
    or a value that is none of the known ones)."""
    defaults: Schema = {"type": "object", "properties": {}}
    required: list[str] = []
    unknown: list[Schema] = []
    for field, value, known in (("kind", kind, list(KINDS)), ("game", game, list(GAMES))):
        if value is not None:
            defaults["properties"][field] = {"const": value}
            required.append(field)
        else:
            unknown.append({"properties": {field: {"enum": known}}, "required": [field]})
    if required:
        defaults["required"] = required
    if unknown:
        defaults["not"] = {"anyOf": unknown}
    condition: Schema = {"properties": {"defaults": defaults}}
    if required:
        condition["required"] = ["defaults"]
    return condition


def _case_item(kind: str | None, game: str | None) -> Schema:
    """A case of a file whose ``defaults`` give ``kind`` and ``game``."""
    without_kind = (_ref(_route_name(kind, game)) if kind is not None
                    else {"allOf": [_ref(_route_name(None, game)), _missing("kind")]})
    by_kind = _ref(f"by-kind-default-{game or 'none'}")
    return {"if": {"type": "object"},
            "then": {"if": {"required": ["kind"]}, "then": by_kind, "else": without_kind}}


# -- the whole schema ----------------------------------------------------------------------


SHARED_MIN_CHARS = 200
"""A sub-schema of at least this many characters (as compact JSON) that occurs again is
written once: the later copies are ``$ref`` pointers to the first (the case schemas of
the kinds and games share most of their fields)."""


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


def editor_schema() -> Schema:
    """The JSON Schema (draft 2020-12) of a whole case file, for editors.

    Returns:
        A new schema dict (JSON-serialisable, the same for the same kinds and games):
        the file's frame (:func:`~generator.cases.schema.file_schema`) and, in ``$defs``,
        one schema
        of a case per kind and game (``meld-in-rami51``; ``meld`` for a case whose game
        is missing, unknown or not one of the kind's; ``case``, ``case-in-G`` for one
        whose kind is missing or unknown), each case led to its own by its ``kind`` and
        ``game`` or else by the file's ``defaults``.
    """
    return copy.deepcopy(_editor_schema())


@per_registry
def _editor_schema() -> Schema:
    kinds: list[str | None] = [*KINDS, None]
    games: list[str | None] = [*GAMES, None]
    defs: Schema = {}
    for kind in kinds:
        for game in games:
            if kind is None or game is None or game in KINDS[kind].games:
                defs[_def_name(kind, game)] = _case_def(kind, game)
    for name in KINDS:
        defs[f"{name}-elsewhere"] = _elsewhere(name)
    for game in games:
        defs[f"by-kind-default-{game or 'none'}"] = _by_kind(game)
        for kind in kinds:
            defs[_route_name(kind, game)] = _by_game(kind, game)
    frame = _editor_node(file_schema())
    assert isinstance(frame, dict)
    items = frame["properties"]["cases"]["items"]
    items.update({"title": "case", "description": "a case: id, kind, game, title, the kind's "
                  "inputs and expect (the documented values)"})
    branches = [{"if": _defaults_give(kind, game),
                 "then": {"properties": {"cases": {"items": _case_item(kind, game)}}}}
                for kind in kinds for game in games]
    return _shared({
        "$schema": DIALECT,
        "title": "Rules-site case file",
        "description": "A case file of a rules site (content/examples/*.yaml), generated by "
        "`rules-site schema` from the case kinds. The generator's own check "
        "(`rules-site check`) also checks what the engine says, ids unique across "
        "files, how often a card is used and numbers as written.",
        **{k: v for k, v in frame.items() if k not in ("$schema", "title", "description")},
        "allOf": [*frame.get("allOf", []), *branches],
        "$defs": defs,
    })


__all__ = ["editor_schema"]
