"""The slips an author makes while writing a case file, each told in one message that
says what to do (docs/site.md, "Slips"), in place of the errors that follow from it:

- a field of ``expect`` written at the case's indentation (dedented out of ``expect``):
  :func:`misplaced_expect`;
- ``{verdict:valid}``, no space after the colon, which YAML reads as one key
  ``verdict:valid`` with no value: :func:`colon_keys`, :func:`colon_message`;
- a missing ``- `` that runs two cases together into one mapping (its keys twice):
  :func:`merged_cases`;
- a misspelt ``defaults`` (``default:``, ``defualts:``), whose cases then miss what it
  holds: :func:`defaults_misspelt`.

The loader (:mod:`generator.cases.loader`) finds each, says it once and leaves out the
errors it causes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

import yaml

from generator.errors import did_you_mean
from generator.yamlpos import Mark
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import value_at

DEFAULTS = "defaults"
"""The file's key for the values its cases share."""

_COLON_KEY = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*):(?P<value>\S.*)", re.DOTALL)
"""A key that is a field name, a colon and a value with no space between: ``verdict:valid``."""


def _and(names: Iterable[str]) -> str:
    items = list(names)
    return items[0] if len(items) < 2 else f"{', '.join(items[:-1])} and {items[-1]}"


def colon_keys(mapping: Mapping[str, Any]) -> dict[str, str]:
    """The keys of ``mapping`` written ``name:value`` with no space after the colon, which
    YAML reads as one key with no value (``{verdict:valid}``), by the field name each
    meant (``{"verdict": "verdict:valid"}``)."""
    found: dict[str, str] = {}
    for key, value in mapping.items():
        match = _COLON_KEY.fullmatch(key) if isinstance(key, str) and value is None else None
        if match is not None:
            found.setdefault(match["name"], key)
    return found


def colon_message(keys: Iterable[str]) -> str:
    """The one message for the keys :func:`colon_keys` found in one mapping:
    ``'verdict:valid' is read as one key with no value (YAML needs a space after a
    colon); expected verdict: valid``."""
    written = list(keys)
    meant = ", ".join(key.replace(":", ": ", 1) for key in written)
    quoted = _and(repr(key) for key in written)
    read = "is read as one key" if len(written) == 1 else "are each read as one key"
    return (f"{quoted} {read} with no value (YAML needs a space after a colon); "
            f"expected {meant}")


def misplaced_expect(doc: YamlDocument, case: YamlPath, names: list[str]) -> str:
    """The one message for ``names``, fields of ``expect`` written as fields of the case
    at ``case`` (dedented out of ``expect``, or written without it): where they go.

    Args:
        doc: the parsed file.
        case: the case's path (``("cases", 2)``).
        names: the fields, in file order (at least one).
    """
    one = len(names) == 1
    fields = f"field {names[0]!r}" if one else f"fields {_and(names)}"
    belongs = f"{fields} {'belongs' if one else 'belong'} in expect"
    them = "it" if one else "them"
    expect = (*case, "expect")
    value = value_at(doc.value, expect)
    key = doc.key_marks.get(expect)
    if key is None:  # no expect at all
        return f"{belongs}, and the case has no expect; expected expect: with {them} " \
            "indented below it"
    node = doc.nodes.get(expect)
    flow = isinstance(node, yaml.MappingNode) and node.flow_style
    inside = [doc.key_marks[(*expect, k)] for k in value or {} if (*expect, k) in doc.key_marks]
    column = inside[0].column if inside else key.column + 2
    where = "inside expect's braces" if flow else \
        f"under expect:, indented to column {column}"
    first = doc.key_marks.get((*case, names[0]))
    if first is not None and first.line < key.line:
        return f"{belongs}, but {'is' if one else 'are'} written before it, as the " \
            f"case's; expected {them} {where}"
    if flow:
        return f"{belongs}, but {'is' if one else 'are'} written outside its {{...}}; " \
            f"expected {them} inside the braces"
    empty = ", so expect is empty" if not value else ""
    return (f"{fields} {'is' if one else 'are'} indented as the case's, not expect's"
            f"{empty}; expected {them} indented under expect (to column {column})")


def merged_cases(doc: YamlDocument, case: YamlPath,
                 duplicates: list[tuple[str, Mark, Mark]]) -> tuple[Mark, str] | None:
    """Where and what to say when the case at ``case`` holds two cases run together (a
    missing ``- ``): its ``id`` twice, or two keys or more twice; ``None`` for a
    duplicate key alone.

    Args:
        doc: the parsed file.
        case: the case's path.
        duplicates: the case mapping's duplicate keys: ``(key, first, again)``.

    Returns:
        The mark of the first key repeated (where the second case starts) and the
        message: ``a second 'id' in the case that starts at line 4: two cases run
        together; expected each case to start with '- ' (write line 12 as '  - id: b')``.
    """
    if len(duplicates) < 2 and not any(key == "id" for key, _first, _again in duplicates):
        return None
    key, _first, again = min(duplicates, key=lambda d: (d[2].line, d[2].column))
    start = doc.marks.get(case, Mark(1, 1))
    return again, (f"a second {key!r} in the case that starts at line {start.line}: two "
                   f"cases run together; expected each case to start with '- ' "
                   f"({_dash_hint(doc, case, start, again, key)})")


def second_cases_list(duplicates: list[tuple[str, Mark, Mark]]) -> tuple[Mark, str] | None:
    """Where and what to say when the file's top level has ``cases:`` twice, as when
    ``explain``'s output (which starts with ``cases:``) is added to a case file by hand
    or by ``>>``; ``None`` when no top-level key ``cases`` is repeated.

    Args:
        duplicates: the top-level mapping's duplicate keys: ``(key, first, again)``.

    Returns:
        The mark of the second ``cases`` and the message: ``a second 'cases:' (the
        first at line 2): a case file holds one list of cases; expected the new cases
        under the first (explain --append FILE adds a case to a case file)``.
    """
    for key, first, again in duplicates:
        if key == "cases":
            return again, (f"a second 'cases:' (the first at line {first.line}): a case "
                           "file holds one list of cases; expected the new cases under "
                           "the first (explain --append FILE adds a case to a case file)")
    return None


def _dash_hint(doc: YamlDocument, case: YamlPath, start: Mark, again: Mark, key: str) -> str:
    """``write line 12 as '  - id: b'`` where the case starts with a block ``- `` on its
    first key's line and the second case's key is indented as the first's; for a case
    written ``{...}``, where to close it; else ``write '- ' before 'id' at line 12``."""
    node = doc.nodes.get(case)
    if isinstance(node, yaml.MappingNode) and node.flow_style:
        return f"close the first case's {{...}} before {key!r} at line {again.line}, and " \
            "start the next case with '- {'"
    lines = doc.lines
    if start.line <= len(lines) and again.line <= len(lines):
        dash = lines[start.line - 1][:start.column - 1]
        own = lines[again.line - 1]
        if dash.strip() == "-" and own[:again.column - 1] == " " * len(dash):
            return f"write line {again.line} as {dash + own[again.column - 1:].rstrip()!r}"
    return f"write '- ' before {key!r} at line {again.line}"


def meant_defaults(mapping: Mapping[str, Any], names: Iterable[str]) -> set[str]:
    """The fields of ``names`` (those ``defaults`` may hold) that the keys of ``mapping``
    are or were meant as (a key close to one: ``gmae`` → ``game``)."""
    allowed = list(names)
    meant: set[str] = set()
    for key in mapping:
        if key in allowed:
            meant.add(key)
        else:
            meant.update(difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.75))
    return meant


def defaults_misspelt(value: Mapping[str, Any]) -> str | None:
    """The top-level key of a case file that is ``defaults`` misspelt (``default``,
    ``defualts``: close to it, and no ``defaults`` beside it), or ``None``."""
    if DEFAULTS in value:
        return None
    for key in value:
        if key != "cases" and did_you_mean(key, [DEFAULTS]):
            return str(key)
    return None
