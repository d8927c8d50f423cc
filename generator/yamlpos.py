"""YAML with positions: plain Python values plus where each node starts.

PyYAML composes the document into nodes (``yaml.compose``, with the C parser when
it is available); :func:`parse_yaml` turns the nodes into plain values (dicts,
lists, scalars as YAML resolves them, so a bare ``no`` is ``False``) and keeps,
for every path into the value, the node and its 1-based start position. It
rejects what the plain ``yaml.safe_load`` would let through silently: duplicate
keys, keys that are not strings, merge keys; and what would exhaust the process:
nesting deeper than :data:`MAX_DEPTH`, aliases beyond :data:`MAX_ALIASED`. Every YAML
file the generator reads goes through it: case files, pages' front matter,
``site.yaml``, ``explain --case``.

Numbers are what the author wrote (docs/site.md, "numbers in case files"): only a plain
decimal integer (``51``, ``-3``) becomes an ``int``. Any other unquoted scalar that
YAML 1.1 would read as a number (``051`` octal 41, ``1:48`` sexagesimal 108, ``0x1F``
and ``3_1`` both 31, ``51.0``, ``.inf``) or that only looks like one (``09``, ``1e3``)
stays its text, as a :class:`NumberText`, so a field that wants an integer reports it
as written and says what to write (:func:`decimal_digits`) instead of checking a
silently different number.

Booleans likewise, where the caller asks (``bool_words``: the case files): an unquoted
``yes``, ``no``, ``on`` or ``off`` (in any of YAML 1.1's spellings) is a boolean to YAML
1.1 and text to YAML 1.2, which editors speak (docs/site.md, "YAML 1.1 booleans"); it
stays its text, as a :class:`BoolText`, so that a field that wants ``true`` or ``false``
reports it and says which to write. Only ``true`` and ``false`` (``True``, ``TRUE``, ...),
on which both versions agree, become a ``bool``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from itertools import accumulate
from typing import Any
from typing import TypeAlias

import yaml
from yaml.constructor import SafeConstructor

from generator.errors import UNPRINTABLE
from generator.errors import InputError
from generator.errors import control_character
from generator.yaml_loaders import FAST_LOADER
from generator.yaml_loaders import implicit_tag

_FastLoader: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = FAST_LOADER

Key: TypeAlias = str | int
"""One step into a value: a mapping key or a list index."""

YamlPath: TypeAlias = tuple[Key, ...]
"""A path into a value, e.g. ``("cases", 0, "expect", "points")``; ``()`` is the root."""

MAX_ALIASED = 50_000
"""The most values a document may reach through aliases (each value inside an aliased
mapping or list counts once per alias): a guard against alias bombs. Values written
out count nothing here; the case file's size limit bounds them."""

MAX_DEPTH = 100
"""The deepest nesting of lists and mappings a YAML file may have (case files need six
levels; ``site.yaml`` one): deeper is an input error at the list or mapping that goes
too deep, found before the document is composed (libyaml's composer recurses in C,
PyYAML's in Python). It lies far below the parsers' own limits (libyaml's scanner in
PyYAML 6.0.4 stops at 1,000 levels; PyYAML's pure-Python parser has none), so the
error and its place are the same on every PyYAML version."""

_STANDARD = "tag:yaml.org,2002:"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_SCALAR_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in (
    "str", "int", "float", "bool", "null", "timestamp", "binary"))
_PLAIN = "expected a plain value (text, number, true/false)"
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NUMBER_LIKE = re.compile(r"[-+]?(?:0[xXoObB][0-9a-fA-F_]+"
                          r"|\.?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?)")
_DIGITS = re.compile(r"([-+]?)([0-9][0-9_]*)(?:\.0*)?")
_BOOL_TAG = "tag:yaml.org,2002:bool"
BOTH_VERSIONS_BOOLEANS = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
"""The boolean spellings of YAML 1.2's core schema, which YAML 1.1 reads alike."""


class NumberText(str):
    """An unquoted scalar that looks like a number but is no plain decimal integer
    (``051``, ``1:48``, ``0x1F``, ``3_1``, ``51.0``, ``09``): kept as the text the
    author wrote; where an integer is expected it is an input error."""

    __slots__ = ()


class BoolText(str):
    """An unquoted scalar that YAML 1.1 reads as a boolean and YAML 1.2 as text (``yes``,
    ``No``, ``ON``, ``off``, ...): kept as the text the author wrote, so that neither
    reading is taken silently; where a boolean or a text is expected it is an input
    error (:func:`boolean_hint`, :func:`string_hint`)."""

    __slots__ = ()

    @property
    def boolean(self) -> bool:
        """What YAML 1.1 reads: ``True`` for ``yes`` and ``on``, ``False`` for ``no`` and
        ``off``."""
        return self.lower() in ("yes", "on")


def boolean_hint(value: object) -> str:
    """What to write instead of ``value`` where ``true`` or ``false`` belongs, when it is a
    :class:`BoolText`: ``" (YAML 1.1 reads a bare no as false, YAML 1.2 and editors as
    text: write false)"``; ``""`` otherwise."""
    if not isinstance(value, BoolText):
        return ""
    word = "true" if value.boolean else "false"
    return (f" (YAML 1.1 reads a bare {value} as {word}, YAML 1.2 and editors as text: "
            f"write {word})")


def decimal_digits(text: str) -> str | None:
    """The plain decimal integer the author's digits say, or ``None`` when they say
    none: ``"051"`` → ``"51"``, ``"3_1"`` → ``"31"``, ``"+7"`` → ``"7"``, ``"51.0"`` →
    ``"51"``; ``"0x1F"``, ``"1:48"``, ``"1.5"``, ``"1e3"`` → ``None``."""
    found = _DIGITS.fullmatch(text.strip())
    if found is None:
        return None
    digits = found.group(2).replace("_", "").lstrip("0") or "0"
    return f"-{digits}" if found.group(1) == "-" and digits != "0" else digits


def integer_hint(value: object) -> str:
    """What to write instead of ``value`` where a plain decimal integer belongs, when the
    author's digits say which: ``" (write 51)"`` for ``051`` or ``51.0``, ``" (write 4
    without quotes)"`` for ``"4"``; ``""`` otherwise (``0x1F``, ``1:48``, ``true``)."""
    if not isinstance(value, str):
        return ""
    digits = decimal_digits(value)
    if digits is None:
        return ""
    return f" (write {digits})" if isinstance(value, NumberText) else \
        f" (write {digits} without quotes)"


@dataclass(frozen=True)
class Mark:
    """A 1-based position in the text.

    Attributes:
        line: 1-based line.
        column: 1-based column, in characters.
    """

    line: int
    column: int


def _tag(node: yaml.Node) -> str:
    """The node's tag as written: ``!!set``, ``!foo``."""
    tag = str(node.tag)
    return "!!" + tag.removeprefix(_STANDARD) if tag.startswith(_STANDARD) else tag


def _mark(node: yaml.Node) -> Mark:
    return Mark(node.start_mark.line + 1, node.start_mark.column + 1)


@dataclass
class YamlDocument:
    """A parsed YAML document.

    Attributes:
        value: the plain value: dicts (str keys, in file order), lists, and scalars
            (str, int, float, bool, None, and the dates and bytes YAML can produce).
        nodes: the node of every path into ``value``.
        marks: the start of every path's node.
        key_marks: for every mapping entry (path ending in its key), where the key starts.
        lines: the source text split into lines as YAML splits them.
        error_paths: each error :func:`parse_yaml` returned with the document, with the
            path of the value it is about (for a problem with a mapping key, the
            mapping's path; a node reached through several aliases, once per path):
            lets the loader tell an error in one case from one in the file's frame.
        duplicates: each duplicate key, by the path of its mapping, in file order:
            ``(key, where it is first, where it is again, the error said)``.
    """

    value: Any
    nodes: dict[YamlPath, yaml.Node] = field(default_factory=dict)
    marks: dict[YamlPath, Mark] = field(default_factory=dict)
    key_marks: dict[YamlPath, Mark] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    error_paths: list[tuple[InputError, YamlPath]] = field(default_factory=list)
    duplicates: dict[YamlPath, list[tuple[str, Mark, Mark, InputError]]] = field(
        default_factory=dict)
    _scalar_starts: dict[YamlPath, tuple[int, int] | None] = field(default_factory=dict)

    def mark(self, path: YamlPath) -> Mark:
        """Where the node at ``path`` starts; for a path into nothing (a missing field),
        where its nearest existing ancestor starts."""
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path, Mark(1, 1))

    def key_mark(self, path: YamlPath) -> Mark:
        """Where the key of the mapping entry at ``path`` starts (the node itself
        for a list item or the root)."""
        found = self.key_marks.get(path)
        return found if found is not None else self.mark(path)

    def column_in_scalar(self, path: YamlPath, offset: int) -> int | None:
        """The 1-based column of the character at ``offset`` in the string at ``path``.

        Known for a string scalar written on one line, plain or quoted without escapes
        (``"QH KX AH"``: offset 3 → the column of ``K``); ``None`` otherwise. The scalar
        is compared with its source once, so the columns of all its characters cost
        time linear in its length.
        """
        if path not in self._scalar_starts:
            self._scalar_starts[path] = self._scalar_start(path)
        found = self._scalar_starts[path]
        if found is None or not 0 <= offset < found[1]:
            return None
        return found[0] + offset

    def _scalar_start(self, path: YamlPath) -> tuple[int, int] | None:
        """(the 1-based column of the first character, the length) of the one-line string
        scalar at ``path`` written as its value is, or ``None``."""
        node = self.nodes.get(path)
        if not isinstance(node, yaml.ScalarNode) or not isinstance(node.value, str):
            return None
        start, end = node.start_mark, node.end_mark
        if start.line != end.line or start.line >= len(self.lines):
            return None
        raw = self.lines[start.line][start.column : end.column]
        if node.style in ("'", '"'):
            raw, shift = raw[1:-1], 1
        elif not node.style:  # plain: None from PyYAML, "" from libyaml
            shift = 0
        else:  # block scalars (| >) start on the next line
            return None
        if raw != node.value:
            return None
        return start.column + shift + 1, len(raw)


def is_number_text(node: yaml.ScalarNode) -> bool:
    """Whether ``node`` is written as a number other than a plain decimal integer (a
    YAML 1.1 int or float, or unquoted text that looks like a number): read as the text
    written, a :class:`NumberText`."""
    if node.tag == _INT_TAG:  # (an explicit ``!!int`` on other text: no number, said)
        return not _PLAIN_DECIMAL.fullmatch(node.value) and implicit_tag(node.value) == _INT_TAG
    if node.tag == _FLOAT_TAG:
        return implicit_tag(node.value) in (_INT_TAG, _FLOAT_TAG)
    return node.tag == _STR_TAG and not node.style and bool(_NUMBER_LIKE.fullmatch(node.value))


class _TooLarge(Exception):
    pass


class _TooDeep(Exception):
    """A list or mapping reached through aliases deeper than :data:`MAX_DEPTH` (the
    nesting written out is measured before composing: :func:`_too_deep`)."""

    def __init__(self, mark: Mark) -> None:
        super().__init__(mark)
        self.mark = mark


_DEEP = f"nested more than {MAX_DEPTH} levels deep; expected a few levels"
_LIBRARY_LIMIT = "maximum nesting depth"


class _Builder:
    """Turns composed nodes into plain values, recording positions and problems."""

    def __init__(self, file: str, doc: YamlDocument, *, bool_words: bool = False) -> None:
        self.file = file
        self.doc = doc
        self.bool_words = bool_words
        self.errors: list[InputError] = []
        self.constructor = SafeConstructor()
        self.aliased = 0
        self.built: set[int] = set()
        self.active: set[int] = set()

    def error(self, mark: Mark, message: str, path: YamlPath) -> InputError:
        error = InputError(self.file, mark.line, mark.column, message)
        self.errors.append(error)
        self.doc.error_paths.append((error, path))
        return error

    def scalar(self, node: yaml.ScalarNode, path: YamlPath, *, key: bool = False) -> Any:
        """The value of a scalar node: as YAML 1.1 resolves it, but a number other than a
        plain decimal integer as a :class:`NumberText` and, with ``bool_words``, a value
        (not a key) that only YAML 1.1 reads as a boolean as a :class:`BoolText`."""
        control = UNPRINTABLE.search(node.value)  # written as an escape ("\e"): YAML
        if control is not None:  # refuses the character itself
            self.error(_mark(node), control_character(control.group()), path)
        if node.tag not in _SCALAR_TAGS:
            self.error(_mark(node), f"unsupported YAML tag {_tag(node)!r}; {_PLAIN}", path)
            return node.value
        if is_number_text(node):
            return NumberText(node.value)
        if (self.bool_words and not key and node.tag == _BOOL_TAG and node.value.lower()
                in SafeConstructor.bool_values and node.value not in BOTH_VERSIONS_BOOLEANS):
            return BoolText(node.value)
        if node.tag == _STR_TAG:  # what the constructor makes of it, without the call
            return node.value
        try:
            if node.tag == f"{_STANDARD}null" != implicit_tag(node.value):
                raise ValueError(node.value)  # (PyYAML's !!null takes any text for null)
            return self.constructor.construct_object(node)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError, LookupError, AttributeError):
            if node.style or implicit_tag(node.value) != node.tag:  # a tag given: said
                self.error(_mark(node), f"{node.value!r} is no {_tag(node)} value; {_PLAIN}", path)
            return node.value  # no value of its tag (2024-13-45, "!!bool x"): its text

    def build(self, node: yaml.Node, path: YamlPath) -> Any:
        if id(node) in self.built:  # reached again: through an alias
            self.aliased += 1
            if self.aliased > MAX_ALIASED:
                raise _TooLarge
        else:
            self.built.add(id(node))
        self.doc.nodes[path] = node
        self.doc.marks[path] = _mark(node)
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        if len(path) >= MAX_DEPTH:  # a list or mapping at depth len(path) + 1
            raise _TooDeep(_mark(node))
        if id(node) in self.active:
            self.error(_mark(node), "recursive alias; expected a value that does not "
                       "contain itself", path)
            return None
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                self._check_tag(node, _SEQ_TAG, path)
                return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
            if isinstance(node, yaml.MappingNode):
                self._check_tag(node, _MAP_TAG, path)
                return self.mapping(node, path)
        finally:
            self.active.discard(id(node))
        raise TypeError(f"unexpected YAML node {node!r}")  # pragma: no cover

    def _check_tag(self, node: yaml.Node, tag: str, path: YamlPath) -> None:
        if node.tag != tag:
            kind = "list" if tag == _SEQ_TAG else "mapping"
            self.error(_mark(node), f"unsupported YAML tag {_tag(node)!r}; expected a plain "
                       f"{kind}", path)

    def mapping(self, node: yaml.MappingNode, path: YamlPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            where = _mark(key_node)
            if key_node.tag == _MERGE_TAG:
                self.error(where, "merge key '<<' is not supported; expected the fields "
                           "written out (use 'defaults' for values shared by the cases)", path)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                kind = "a list" if isinstance(key_node, yaml.SequenceNode) else "a mapping"
                self.error(where, f"field name must be a string; got {kind}", path)
                continue
            key = self.scalar(key_node, path, key=True)
            if not isinstance(key, str):
                self.error(where, f"field name must be a string; got {describe(key)}"
                           f"{string_hint(key)}", path)
                continue
            if key in first:
                seen = first[key]
                error = self.error(where, f"duplicate key {key!r} (first at line "
                                   f"{seen.line}, column {seen.column}); expected each key "
                                   "once in a mapping", path)
                self.doc.duplicates.setdefault(path, []).append((key, seen, where, error))
                continue
            first[key] = where
            self.doc.key_marks[(*path, key)] = where
            result[key] = self.build(value_node, (*path, key))
        return result


def describe(value: object) -> str:
    """A value as the error messages name it: ``boolean false``, ``integer 3``,
    ``string 'x'``, ``a list``, ``a mapping``, ``an empty value``."""
    if value is None:
        return "an empty value"
    if isinstance(value, NumberText):
        return str(value)
    if isinstance(value, BoolText):  # as YAML 1.1 reads it, which string_hint explains
        return f"boolean {'true' if value.boolean else 'false'}"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value!r}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, bytes):
        return "binary data"
    isoformat = getattr(value, "isoformat", None)
    if callable(isoformat):
        return f"date {isoformat()}"
    return type(value).__name__


def string_hint(value: object) -> str:
    """Why YAML did not read ``value`` as text, where a string was expected:
    ``" (YAML reads a bare no/off/false as a boolean: quote it)"``, or ``""``."""
    if isinstance(value, BoolText):
        value = value.boolean
    if value is True:
        return " (YAML reads a bare yes/on/true as a boolean: quote it)"
    if value is False:
        return " (YAML reads a bare no/off/false as a boolean: quote it)"
    if value is not None and not isinstance(value, (str, list, dict)):
        return " (quote it to make it text)"
    return ""


_GENERIC_HINT = "check the indentation and the quotes here and on the line before"

_CANNOT_START = re.compile(r"found character '(.+)' that cannot start any token")


_Rule: TypeAlias = Callable[[str, str], str | None]
"""A syntax hint's rule: the hint for a PyYAML error's ``problem`` and ``context``, or None."""


def _when(test: Callable[[str, str], bool], hint: str) -> _Rule:
    """The rule that gives ``hint`` where ``test(problem, context)`` holds."""
    return lambda problem, context: hint if test(problem, context) else None


def _block_end(problem: str, context: str) -> str | None:
    """A block that ends where it should not: a list item or a field out of column."""
    if "<block end>" not in problem:
        return None
    if "'-'" in problem or "block sequence" in problem:
        return ("check the indentation: the items of one list start in the same "
                "column, each starting with '- ', a space after the dash")
    if "'<scalar>'" in problem:
        return "quote the whole value, or check the indentation"
    return ("check the indentation: the fields of one mapping start in the same "
            "column, deeper than the field that holds them")


def _cannot_start(problem: str, context: str) -> str | None:
    """A value that starts with a character no YAML token starts with (``@``, a backquote)."""
    found = _CANNOT_START.search(problem)
    return f"quote a value that starts with '{found.group(1)}'" if found else None


SYNTAX_HINTS: tuple[_Rule, ...] = (
    _when(lambda p, c: "'\\t'" in p, "indent with spaces, not tabs"),
    _when(lambda p, c: "mapping values are not allowed" in p,
          "check the indentation and quote values containing ': '"),
    _when(lambda p, c: "could not find expected ':'" in p,
          "each field is 'name: value' on its own line: add the missing ':', or "
          "indent a continued text more than its field name"),
    _when(lambda p, c: "quoted scalar" in c and "end of stream" in p,
          "close the quote: a value that starts with a quote ends with the same quote"),
    _when(lambda p, c: "escape character" in p,
          "in double quotes write a backslash as \\\\, or use single quotes"),
    _when(lambda p, c: "flow sequence" in c,
          "close the '[' with ']' and separate the items with ','"),
    _when(lambda p, c: "flow mapping" in c,
          "close the '{' with '}' and separate the entries with ','"),
    _when(lambda p, c: "'<stream end>'" in p and "flow" in c,
          "close every '[' with ']' and every '{' with '}'"),
    _block_end,
    _cannot_start,
    _when(lambda p, c: "alias" in p or "alias" in c or "anchor" in c,
          "quote a value that starts with '*' or '&'"),
    _when(lambda p, c: "a comment or a line break" in p, "quote the whole value; a comment "
          "starts with ' #'"),
    _when(lambda p, c: "single document" in c, "one document per file: remove the '---' line"),
)
"""The syntax hints' rules, in order: the first that applies gives the hint."""


def syntax_hint(problem: str, context: str) -> str:
    """What to do about a PyYAML syntax error, from its ``problem`` and ``context``
    texts: the common mistakes in a case file (indentation, tabs, an unquoted ': ',
    a missing ':', an unclosed quote or bracket; :data:`SYNTAX_HINTS`, the first that
    applies), else a general hint."""
    for rule in SYNTAX_HINTS:
        hint = rule(problem, context)
        if hint is not None:
            return hint
    return _GENERIC_HINT


def _syntax_error(file: str, text: str, exc: yaml.YAMLError) -> InputError:
    """An :class:`InputError` for a YAML error: the problem's position and text."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if _is_nesting_limit(exc):  # a parser's own limit, reached where ours was not
            return InputError(file, mark.line + 1 if mark is not None else 1,
                              mark.column + 1 if mark is not None else None,
                              f"lists and mappings {_DEEP}")
        problem = exc.problem or exc.context or "unreadable YAML"
        if exc.context and exc.problem:
            if exc.problem.startswith("but "):  # "expected X, but found Y"
                problem = f"{exc.context}, {exc.problem}"
            else:
                problem = f"{exc.problem} ({exc.context}"
                if exc.context_mark is not None and mark is not None \
                        and exc.context_mark.line != mark.line:
                    problem += f" at line {exc.context_mark.line + 1}"
                problem += ")"
        hint = syntax_hint(exc.problem or "", exc.context or "")
        line = mark.line + 1 if mark is not None else 1
        column = mark.column + 1 if mark is not None else None
        return InputError(file, line, column,
                          f"YAML syntax error: {problem}; expected valid YAML ({hint})")
    if isinstance(exc, yaml.reader.ReaderError):
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        return InputError(file, line, column,
                          f"YAML syntax error: unacceptable character #x{exc.character:04x} "
                          f"({exc.reason}); expected printable text")
    return InputError(file, 1, None, f"YAML syntax error: {exc}; expected valid YAML "
                      f"({_GENERIC_HINT})")


def _first_too_deep(events: Iterable[yaml.Event]) -> Mark | None:
    """Where the first list or mapping among ``events`` that is nested deeper than
    :data:`MAX_DEPTH` starts (1-based), or ``None``. Raises the parser's
    :class:`yaml.YAMLError`."""
    depth = 0
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            start = event.start_mark
            if depth > MAX_DEPTH and start is not None:
                return Mark(start.line + 1, start.column + 1)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _is_nesting_limit(exc: yaml.YAMLError) -> bool:
    """Whether ``exc`` is a parser's own nesting limit rather than a syntax error:
    libyaml's scanner raises ``exceeded maximum nesting depth`` (while increasing flow
    or block level)."""
    return isinstance(exc, yaml.MarkedYAMLError) and _LIBRARY_LIMIT in (exc.problem or "")


def _too_deep(text: str) -> Mark | None:
    """Where the first list or mapping nested deeper than :data:`MAX_DEPTH` starts
    (1-based), or ``None``. Each list or mapping holds a character of its own among
    ``[{-?:`` (its bracket, or its first entry's indicator): a text with at most
    ``MAX_DEPTH`` of them is not read; another is read event by event with the fast
    parser (libyaml's parser keeps its own stack, where its composer recurses); a syntax
    error stops the reading (the composer reports it). libyaml's scanner reads up to
    1,024 characters ahead in a flow list or mapping, so its own nesting limit can stop
    it first: then the pure-Python parser, whose stack has no limit, measures the
    nesting (about 0.25 s for 30,000 nested ``[``)."""
    if sum(text.count(c) for c in "[{-?:") <= MAX_DEPTH:
        return None
    if _bracket_depth(text) <= MAX_DEPTH:  # libyaml's look-ahead stays within its limit
        try:
            return _first_too_deep(yaml.parse(text, Loader=_FastLoader))
        except yaml.YAMLError as exc:
            if _FastLoader is yaml.SafeLoader or not _is_nesting_limit(exc):
                return None
    else:  # the text up to its first bracket too deep: the same events, soon over
        try:
            found = _first_too_deep(yaml.parse(text[:_too_deep_bracket(text) + 1],
                                               Loader=yaml.SafeLoader))
        except yaml.YAMLError:
            found = None  # (brackets in quotes or comments: measured whole below)
        if found is not None:
            return found
    try:
        return _first_too_deep(yaml.parse(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return None


_BRACKETS = re.compile(r"[^\[\]{}]+")


def _bracket_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text``, counting every bracket (in quotes
    and comments too: an overestimate, which only sends the text to the slower, exact
    measure). Flow nesting deeper than :data:`MAX_DEPTH` goes to the pure-Python parser
    at once: libyaml's scanner would read ahead through up to 1,000 levels first, in time
    that grows with the square of the depth (7 s for the nesting tests, against 2.5 s)."""
    steps = (1 if c in "[{" else -1 for c in _BRACKETS.sub("", text))
    return max(accumulate(steps), default=0)


def _too_deep_bracket(text: str) -> int:
    """The index of the first ``[``/``{`` of ``text`` nested deeper than
    :data:`MAX_DEPTH`, counting as :func:`_bracket_depth` does (the text has one)."""
    depth = 0
    for found in re.finditer(r"[\[\]{}]", text):
        depth += 1 if found.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return found.start()
    return len(text)


def _compose(text: str, loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]) -> yaml.Node | None:
    node: yaml.Node | None = yaml.compose(text, Loader=loader)
    return node


def parse_yaml(text: str, file: str, *,
               bool_words: bool = False) -> tuple[YamlDocument | None, list[InputError]]:
    """Parse one YAML document, keeping positions.

    Args:
        text: the file's text (already decoded, without a byte-order mark).
        file: the file's name as errors show it (relative to the project, POSIX).
        bool_words: keep a value that only YAML 1.1 reads as a boolean (``yes``, ``no``,
            ``on``, ``off``) as a :class:`BoolText` (otherwise a ``bool``, as YAML 1.1
            reads it); a key stays a ``bool`` either way (a key must be text).

    Returns:
        ``(document, errors)``. The document is ``None`` when the text is not valid
        YAML (then ``errors`` holds the one syntax error, at PyYAML's problem mark), or
        nests deeper than :data:`MAX_DEPTH` (at the list or mapping that goes too deep;
        a parser's own nesting limit, if ever reached first, in the same words at the
        parser's mark), or its aliases reach more than :data:`MAX_ALIASED` values (at line 1); an
        empty file gives a document whose value is ``None``. Otherwise ``errors`` holds
        every duplicate key (at the second key), non-string key, unsupported tag or
        merge key; such entries are left out of the value (a duplicate keeps its first
        value). Never raises for bad input.
    """
    deep = _too_deep(text)
    if deep is not None:
        return None, [InputError(file, deep.line, deep.column, f"lists and mappings {_DEEP}")]
    try:
        node = _compose(text, _FastLoader)
    except yaml.YAMLError as exc:
        error = _syntax_error(file, text, exc)
        if _FastLoader is not yaml.SafeLoader:
            # the pure-Python parser words its errors better and the same on every
            # installation; fall back to libyaml's words if it has no complaint
            try:
                _compose(text, yaml.SafeLoader)
            except yaml.YAMLError as slow_exc:
                error = _syntax_error(file, text, slow_exc)
            except RecursionError:
                pass
        return None, [error]
    except RecursionError:  # (not reached: the nesting was measured)
        return None, [InputError(file, 1, None, f"lists and mappings {_DEEP}")]
    doc = YamlDocument(value=None, lines=tuple(_LINE_BREAK.split(text)))
    if node is None:
        return doc, []
    builder = _Builder(file, doc, bool_words=bool_words)
    try:
        doc.value = builder.build(node, ())
    except _TooLarge:
        return None, [InputError(file, 1, None, "aliases expand to more than "
                                 f"{MAX_ALIASED} values; expected each alias (*name) to "
                                 "repeat a small value, or the values written out")]
    except _TooDeep as exc:
        return None, [InputError(file, exc.mark.line, exc.mark.column,
                                 f"lists and mappings reached through aliases {_DEEP}")]
    return doc, builder.errors


def walk(value: Any, path: YamlPath = ()) -> Iterator[YamlPath]:
    """Every path into ``value``, parents before children, in file order."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, (*path, index))


def value_at(value: Any, path: YamlPath) -> Any:
    """The value at ``path`` within ``value`` (``None`` where there is none)."""
    for step in path:
        if isinstance(value, dict) and isinstance(step, str):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            return None
    return value
