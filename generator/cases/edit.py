"""Exact text edits of a case file: replace a value, remove a field, add a field, at the
positions the YAML parser gave (:mod:`generator.yamlpos`), every other byte kept
(comments, key order, quoting, flow or block style), as ``check --fix`` needs them.

An edit is planned on the parsed document (:class:`TextEditor`) and applied to the text
in one pass (:meth:`TextEditor.apply`); an edit that cannot be made exactly (a value
reached through an alias, a field that shares its line with another) raises
:class:`CannotEdit` instead of guessing.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_PLAIN_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*")


class CannotEdit(Exception):
    """An edit that cannot be made as an exact text edit; the message says why."""


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` by ``new`` (character offsets)."""

    start: int
    end: int
    new: str


def scalar_text(value: Any, style: str | None = None) -> str:
    """A value as a YAML scalar: ``true``/``false``, a decimal integer, a code or card
    code plain (``wraps_around``, ``6S``), anything else quoted; ``style`` ``'`` or
    ``"`` keeps the original's quotes.

    Raises:
        CannotEdit: for a value that is not a scalar.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str):
        raise CannotEdit(f"not a scalar: {value!r}")
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    if style == '"' or not _PLAIN_SAFE.fullmatch(value) or value.lower() in _YAML_WORDS:
        return json.dumps(value, ensure_ascii=False)
    return value


_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


def flow_text(value: Any) -> str:
    """A value in YAML flow style: ``[0, 35]``, ``{round_over: true}``, a scalar."""
    if isinstance(value, list):
        return "[" + ", ".join(flow_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow_text(v)}" for k, v in value.items()) + "}"
    return scalar_text(value)


class TextEditor:
    """Plans exact edits of one document's text.

    Attributes:
        text: the text the document was parsed from.
        doc: the parsed document (nodes and key positions by path).
        edits: the edits planned so far.
    """

    def __init__(self, text: str, doc: YamlDocument) -> None:
        self.text = text
        self.doc = doc
        self.edits: list[Edit] = []
        self._starts = [0] + [m.end() for m in _BREAK.finditer(text)]
        newline = _BREAK.search(text)
        self.newline = newline.group() if newline else "\n"
        self._shared = self._aliased_nodes()

    # -- positions ----------------------------------------------------------------

    def _offset(self, line: int, column: int) -> int:
        """The character offset of a 0-based line and column."""
        return self._starts[line] + column

    def _start(self, node: yaml.Node) -> int:
        return self._offset(node.start_mark.line, node.start_mark.column)

    def _end(self, node: yaml.Node) -> int:
        """Where the node's own text ends: for a block collection, after its last item
        (not at the next token, which may be lines of comments further)."""
        if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and not node.flow_style:
            items = node.value
            if items:
                last = items[-1][1] if isinstance(node, yaml.MappingNode) else items[-1]
                return self._end(last)
        return self._offset(node.end_mark.line, node.end_mark.column)

    def _key_start(self, path: YamlPath) -> int:
        mark = self.doc.key_marks.get(path)
        if mark is None:
            raise CannotEdit(f"no key at {_dotted(path)}")
        return self._offset(mark.line - 1, mark.column - 1)

    def _line_of(self, offset: int) -> int:
        lo, hi = 0, len(self._starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _after_line(self, offset: int) -> int:
        """The offset just after the line break of the line holding ``offset`` (the
        text's end on the last line)."""
        line = self._line_of(offset)
        return self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)

    def _aliased_nodes(self) -> set[int]:
        seen: dict[int, int] = {}
        for node in self.doc.nodes.values():
            seen[id(node)] = seen.get(id(node), 0) + 1
        return {key for key, n in seen.items() if n > 1}

    def _node(self, path: YamlPath) -> yaml.Node:
        node = self.doc.nodes.get(path)
        if node is None:
            raise CannotEdit(f"nothing at {_dotted(path)}")
        if id(node) in self._shared:
            raise CannotEdit(f"{_dotted(path)} is reached through an alias (*name); "
                             "edit it by hand")
        return node

    # -- edits --------------------------------------------------------------------

    def replace(self, path: YamlPath, value: Any) -> None:
        """Write ``value`` in place of the value at ``path``: a scalar in the same quotes,
        a list of the same length item by item (its style kept), else in flow style."""
        node = self._node(path)
        if isinstance(node, yaml.ScalarNode):
            new = scalar_text(value, node.style or None)
            if self.text[self._start(node):self._end(node)] != new:
                self.edits.append(Edit(self._start(node), self._end(node), new))
            return
        if isinstance(node, yaml.SequenceNode) and isinstance(value, list) \
                and len(value) == len(node.value):
            for index, item in enumerate(value):
                self.replace((*path, index), item)
            return
        self.edits.append(Edit(self._start(node), self._end(node), flow_text(value)))

    def remove(self, path: YamlPath) -> None:
        """Remove the mapping entry at ``path`` (its key and value; in block style its
        lines, in flow style with its comma); a mapping left empty goes with its own
        entry."""
        parent_path = path[:-1]
        parent = self._node(parent_path)
        if not isinstance(parent, yaml.MappingNode):
            raise CannotEdit(f"{_dotted(parent_path)} is not a mapping")
        keys = [k.value for k, _ in parent.value]
        index = keys.index(path[-1])
        if len(keys) == 1 and parent_path and isinstance(parent_path[-1], str):
            self.remove(parent_path)
            return
        value_end = self._end(self._node(path))
        if parent.flow_style:
            if index > 0:
                before = self._end(parent.value[index - 1][1])
                self.edits.append(Edit(before, value_end, ""))
            elif len(keys) > 1:
                self.edits.append(Edit(self._key_start(path),
                                       self._key_start((*parent_path, keys[1])), ""))
            else:
                self.edits.append(Edit(self._key_start(path), value_end, ""))
            return
        key_start = self._key_start(path)
        line_start = self._starts[self._line_of(key_start)]
        after = self._after_line(value_end)
        rest = self.text[value_end:after].strip()
        if self.text[line_start:key_start].strip() or (rest and not rest.startswith("#")):
            raise CannotEdit(f"{_dotted(path)} shares its line with another field; "
                             "edit it by hand")
        self.edits.append(Edit(line_start, after, ""))

    def add(self, path: YamlPath, value: Any) -> None:
        """Add the entry ``path[-1]: value`` at the end of the mapping at ``path[:-1]``,
        in its style (a new line at its keys' indentation, or ``, key: value`` in a flow
        mapping)."""
        parent_path = path[:-1]
        parent = self._node(parent_path)
        if not isinstance(parent, yaml.MappingNode) or not parent.value:
            raise CannotEdit(f"{_dotted(parent_path)} is not a mapping with fields")
        key = str(path[-1])
        last_end = self._end(parent.value[-1][1])
        if parent.flow_style:
            self.edits.append(Edit(last_end, last_end, f", {key}: {flow_text(value)}"))
            return
        first_key = (*parent_path, parent.value[0][0].value)
        indent = self.doc.key_marks[first_key].column - 1 if first_key in \
            self.doc.key_marks else 0
        at = self._after_line(last_end)
        entry = f"{' ' * indent}{key}: {flow_text(value)}"
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            entry = self.newline + entry
        else:
            entry += self.newline
        self.edits.append(Edit(at, at, entry))

    def apply(self) -> str:
        """The text with every planned edit made.

        Raises:
            CannotEdit: two edits overlap.
        """
        edits = sorted(self.edits, key=lambda e: (e.start, e.end))
        for a, b in itertools.pairwise(edits):
            if b.start < a.end:
                raise CannotEdit("two edits overlap")
        out = self.text
        for edit in reversed(edits):
            out = out[:edit.start] + edit.new + out[edit.end:]
        return out


def _dotted(path: YamlPath) -> str:
    return ".".join(map(str, path)) or "the document"
