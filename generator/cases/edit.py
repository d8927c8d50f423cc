"""Exact text edits of a case file: replace a value, remove a field, add a field, at the
positions the YAML parser gave (:mod:`generator.yamlpos`), every other byte kept
(comments, key order, quoting, flow or block style), as ``check --fix`` needs them.

An edit is planned on the parsed document (:class:`TextEditor`) and applied to the text
in one pass (:meth:`TextEditor.apply`); an edit that cannot be made exactly (a value
reached through an alias, a field that shares its line with another) raises
:class:`CannotEdit` instead of guessing. A value's properties (a tag such as ``!!int``,
an anchor ``&name``) stay; a block scalar (``|``, ``>``) ends at its last line of
text, so that the comments and fields after it stay, and a one-line value replacing one
written ``|-`` or ``>-`` keeps that style. :func:`edit_diff` gives the unified diff of
the edits, in time linear in the text.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import json
import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from typing import Literal
from typing import TypeAlias

import yaml

from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_PLAIN_SAFE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*")
_PROPERTY = re.compile(r"[!&][^\s,\[\]{}]*")
"""A node's tag (``!!int``, ``!local``, ``!<tag:…>``) or anchor (``&name``)."""
_SEPARATION = re.compile("(?:[ \t]+|#[^\r\n\x85\u2028\u2029]*|\r\n"
                         "|[\r\n\x85\u2028\u2029])*")
"""What may stand between a node's properties and its text: spaces, comments, breaks."""
_BLOCK_HEADER = re.compile(r"[|>][0-9+-]*")
"""A block scalar's indicator with its chomping and indentation indicators (``|-``)."""


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

    def _content_start(self, node: yaml.Node) -> int:
        """Where the node's own text starts: after its properties (a tag ``!!int``, an
        anchor ``&name``), which an edit of its value keeps."""
        at = self._start(node)
        end = self._offset(node.end_mark.line, node.end_mark.column)
        while at < end and self.text[at] in "!&":
            match = _PROPERTY.match(self.text, at)
            assert match is not None  # (it starts with ! or &)
            at = _SEPARATION.match(self.text, match.end()).end()  # type: ignore[union-attr]
        return min(at, end)  # (an empty value after its tag: where the node ends)

    def _end(self, node: yaml.Node) -> int:
        """Where the node's own text ends: for a block collection, after its last item,
        and for a block scalar after its last line of text (not at the next token, which
        may be lines of comments, blank lines or the next field further)."""
        if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)) and not node.flow_style:
            items = node.value
            if items:
                last = items[-1][1] if isinstance(node, yaml.MappingNode) else items[-1]
                return self._end(last)
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            return self._block_end(node)
        return self._offset(node.end_mark.line, node.end_mark.column)

    def _block_lines(self, node: yaml.ScalarNode) -> tuple[re.Match[str], int, int]:
        """A block scalar's header (``|-``) and the range of its lines of text: the
        first and the last line (0-based) after the header that hold more than spaces,
        ``(header, 0, -1)`` when none does. With a keeping header (``|+``) the blank
        lines after the text are the value's too, and count."""
        header = _BLOCK_HEADER.match(self.text, self._content_start(node))
        assert header is not None  # (the parser found a block scalar here)
        first_line = self._line_of(header.start()) + 1
        end = node.end_mark
        # the parser's end is after the line breaks that follow the text (column 0 of the
        # next line), or, at the end of a text without a final break, on the last line
        last_line = end.line if end.column else end.line - 1
        if "+" in header.group():
            return header, first_line, last_line
        while last_line >= first_line and not self._line_text(last_line).strip(" \t"):
            last_line -= 1
        line = first_line
        while line <= last_line and not self._line_text(line).strip(" \t"):
            line += 1
        return header, line, last_line

    def _block_end(self, node: yaml.ScalarNode) -> int:
        header, _first, last = self._block_lines(node)
        return self._line_end(last) if last >= self._line_of(header.start()) + 1 \
            else header.end()

    def _line_text(self, line: int) -> str:
        """A line's text without its line break."""
        return self.text[self._starts[line]:self._line_end(line)]

    def _line_end(self, line: int) -> int:
        """The offset where a line's text ends, before its line break."""
        if line + 1 >= len(self._starts):
            return len(self.text)
        at = self._starts[line + 1]
        return at - 2 if self.text.startswith("\r\n", at - 2) else at - 1

    def _key_start(self, path: YamlPath) -> int:
        mark = self.doc.key_marks.get(path)
        if mark is None:
            raise CannotEdit(f"no key at {_dotted(path)}")
        return self._offset(mark.line - 1, mark.column - 1)

    def _line_of(self, offset: int) -> int:
        """The 0-based line holding ``offset``."""
        return bisect.bisect_right(self._starts, offset) - 1

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
        start, end = self._content_start(node), self._end(node)
        if isinstance(node, yaml.ScalarNode):
            if node.style in ("|", ">"):
                header, first, last = self._block_lines(node)
                if _fits_block(value, header.group()) and first <= last:
                    first_text = self._line_text(first)
                    start = self._starts[first] + len(first_text) - len(
                        first_text.lstrip(" "))
                    new = value  # the header and the indentation kept
                else:
                    new = scalar_text(value)
            else:
                new = scalar_text(value, node.style or None)
            if self.text[start:end] != new:
                self.edits.append(Edit(start, end, new))
            return
        if isinstance(node, yaml.SequenceNode) and isinstance(value, list) \
                and len(value) == len(node.value):
            for index, item in enumerate(value):
                self.replace((*path, index), item)
            return
        self.edits.append(Edit(start, end, flow_text(value)))

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

    def add_lines(self, path: YamlPath, lines: Sequence[str], *,
                  before: str | None = None) -> None:
        """Add ``lines`` to the block mapping at ``path``: fields, comments or a key and
        its block, each line written without the mapping's indentation (its own
        indentation relative to the keys kept) and without its line end. They go before
        the entry ``before`` (at the start of its line), or after the mapping's last
        entry, indented to its keys' column, ending in the text's own line ends.

        Raises:
            CannotEdit: ``path`` is not a block mapping with fields, or ``before``'s key
                shares its line with another field.
        """
        parent = self._node(path)
        if not isinstance(parent, yaml.MappingNode) or parent.flow_style or not parent.value:
            raise CannotEdit(f"{_dotted(path)} is not a block mapping with fields")
        first_key = (*path, parent.value[0][0].value)
        if first_key not in self.doc.key_marks:
            raise CannotEdit(f"{_dotted(path)} has no key to align with")
        indent = " " * (self.doc.key_marks[first_key].column - 1)
        if before is not None:
            key_start = self._key_start((*path, before))
            at = self._starts[self._line_of(key_start)]
            if self.text[at:key_start].strip(" ") not in ("", "-"):
                raise CannotEdit(f"{_dotted((*path, before))} shares its line with another "
                                 "field")
            if self.text[at:key_start].strip(" ") == "-":  # the item's first line: the
                at = key_start  # lines go after its "- ", the key after them
                entry = "".join(f"{line}{self.newline}{indent}" if line else self.newline
                                for line in lines)
                self.edits.append(Edit(at, at, entry))
                return
        else:
            at = self._after_line(self._end(parent.value[-1][1]))
        entry = "".join(f"{indent}{line}{self.newline}" if line else self.newline
                        for line in lines)
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            entry = self.newline + entry.removesuffix(self.newline)
        self.edits.append(Edit(at, at, entry))

    def append_item(self, path: YamlPath, lines: Sequence[str]) -> None:
        """Add an item at the end of the block sequence at ``path``: ``lines`` (its text,
        its first line where ``- `` goes, the others indented relative to it, without
        line ends), placed as the sequence's items are (the column of their ``-`` and
        of their text after it), ending in the text's own line ends.

        Raises:
            CannotEdit: ``path`` is not a block sequence with items.
        """
        node = self._node(path)
        if isinstance(node, yaml.SequenceNode) and node.flow_style and not node.value:
            self._first_item(path, node, lines)
            return
        if not isinstance(node, yaml.SequenceNode) or node.flow_style or not node.value:
            raise CannotEdit(f"{_dotted(path)} is not a block list")
        first = self._start(node.value[0])
        dash = self.text.rfind("-", 0, first)
        line_start = self._starts[self._line_of(dash)]
        if dash < 0 or self.text[dash + 1:first].strip(" \t\r\n") or \
                self.text[line_start:dash].strip(" "):
            raise CannotEdit(f"{_dotted(path)}'s items start in a way it cannot copy")
        dash_column = dash - line_start
        gap = first - dash if self._line_of(first) == self._line_of(dash) else 2
        head = " " * dash_column + "-" + " " * (gap - 1)
        rest = " " * (dash_column + gap)
        entry = "".join((head if i == 0 else rest if line else "") + line + self.newline
                        for i, line in enumerate(lines))
        at = self._after_line(self._end(node.value[-1]))
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            entry = self.newline + entry.removesuffix(self.newline)
        self.edits.append(Edit(at, at, entry))

    def _first_item(self, path: YamlPath, node: yaml.SequenceNode, lines: Sequence[str]
                    ) -> None:
        """An empty flow list (``cases: []``) made a block list of one item: the ``[]``
        removed, the item on the lines after its key's, two columns in from the key."""
        key = self.doc.key_marks.get(path)
        if key is None:
            raise CannotEdit(f"{_dotted(path)} is not a mapping's entry")
        start, end = self._content_start(node), self._end(node)
        while start > 0 and self.text[start - 1] in " \t":
            start -= 1  # (the space after the colon too: "cases:" is left)
        self.edits.append(Edit(start, end, ""))
        indent = " " * (key.column - 1 + 2)
        entry = "".join((indent[:-2] + "  - " if i == 0 else indent + "  " if line else "")
                        + line + self.newline for i, line in enumerate(lines))
        at = self._after_line(end)
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            entry = self.newline + entry.removesuffix(self.newline)
        self.edits.append(Edit(at, at, entry))

    def indent_step(self) -> int | None:
        """How many columns the document indents a block mapping under its key (the
        first such mapping's; ``None`` when it holds none)."""
        for node_path, node in self.doc.nodes.items():
            if not node_path or not isinstance(node_path[-1], str):
                continue
            if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
                child = self.doc.key_marks.get((*node_path, node.value[0][0].value))
                key = self.doc.key_marks.get(node_path)
                if child is not None and key is not None and child.line > key.line:
                    return child.column - key.column
        return None

    def apply(self) -> str:
        """The text with every planned edit made.

        Raises:
            CannotEdit: two edits overlap.
        """
        return apply_edits(self.text, self.edits)


def _fits_block(value: Any, header: str) -> bool:
    """Whether ``value`` can be written as the one line of text of a block scalar whose
    header is ``header`` and read back the same: a string of one line, without spaces
    at its ends, under a header that strips the final line break (``|-``, ``>-``)."""
    return isinstance(value, str) and "-" in header and value == value.strip() != "" \
        and _BREAK.search(value) is None


def in_order(edits: Sequence[Edit]) -> list[Edit]:
    """The edits in the order of the text.

    Raises:
        CannotEdit: two edits overlap.
    """
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for a, b in itertools.pairwise(ordered):
        if b.start < a.end:
            raise CannotEdit("two edits overlap")
    return ordered


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with every edit made (in one pass: time linear in the text and edits).

    Raises:
        CannotEdit: two edits overlap.
    """
    ordered = in_order(edits)
    parts: list[str] = []
    at = 0
    for edit in ordered:
        parts += [text[at:edit.start], edit.new]
        at = edit.end
    parts.append(text[at:])
    return "".join(parts)


def edit_diff(text: str, edits: Sequence[Edit], fromfile: str, tofile: str,
              context: int = 3) -> list[str]:
    """The unified diff (as :func:`difflib.unified_diff` gives it, ``context`` lines
    around each change) of ``text`` and ``text`` with ``edits`` made.

    Lines are what ``patch`` and ``git apply`` take them to be: each ends with a line
    feed (a carriage return before it is part of the line); a last line without one is
    followed by ``\\ No newline at end of file``, as ``diff -u`` writes it.

    Only the lines the edits touch are compared (:class:`difflib.SequenceMatcher` on
    each group of them), the others being equal by construction: the time is linear in
    the text, where a diff of the whole texts grows with the square of the number of
    changes.

    Raises:
        CannotEdit: two edits overlap.
    """
    new = apply_edits(text, edits)
    old_lines = _lines(text)
    new_lines = _lines(new)
    raw = list(_edit_opcodes(text, old_lines, in_order(edits)))
    old_at, new_at = (raw[-1][2], raw[-1][4]) if raw else (0, 0)
    if len(old_lines) - old_at != len(new_lines) - new_at:  # (line ends ran together)
        return list(_marked(difflib.unified_diff(old_lines, new_lines, fromfile, tofile,
                                                 n=context)))
    raw.append(("equal", old_at, len(old_lines), new_at, len(new_lines)))
    codes: list[Opcode] = []
    for code in raw:  # as SequenceMatcher gives them: no empty step, no two equal in a row
        tag, i1, i2, _j1, j2 = code
        if tag == "equal" and i1 == i2:
            continue
        if tag == "equal" and codes and codes[-1][0] == "equal":
            codes[-1] = ("equal", codes[-1][1], i2, codes[-1][3], j2)
        else:
            codes.append(code)
    return list(_marked(_unified(_KnownOpcodes(codes).get_grouped_opcodes(context),
                                 old_lines, new_lines, fromfile, tofile)))


NO_FINAL_NEWLINE = "\\ No newline at end of file\n"
"""The line a unified diff writes after a file's last line when it has no line feed."""


def _lines(text: str) -> list[str]:
    """``text``'s lines as a diff counts them: each up to and with its line feed (the
    last one without, when the text does not end with one)."""
    lines = text.split("\n")
    out = [line + "\n" for line in lines[:-1]]
    return [*out, lines[-1]] if lines[-1] else out


def _marked(diff: Iterable[str]) -> Iterator[str]:
    """``diff``'s lines, a line without a line feed (a file's last) ended with one and
    followed by :data:`NO_FINAL_NEWLINE`."""
    for line in diff:
        if line.endswith("\n"):
            yield line
        else:
            yield line + "\n"
            yield NO_FINAL_NEWLINE


Opcode: TypeAlias = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
"""One step of a diff, as :meth:`difflib.SequenceMatcher.get_opcodes` gives it."""


def _edit_opcodes(text: str, old_lines: list[str], edits: list[Edit]) -> Iterator[Opcode]:
    """The opcodes of ``text``'s lines against the lines of ``text`` with ``edits``
    (sorted, not overlapping) made, up to the last line an edit touches: the lines
    between groups of touched lines are equal."""
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    ends_with_break = bool(old_lines) and old_lines[-1].endswith("\n")

    def line_at(offset: int) -> int:
        """The line holding ``offset``; at the end of the text, the line after the last
        when the text ends with a line break."""
        if offset < len(text):
            return bisect.bisect_right(starts, offset) - 1
        return len(old_lines) if ends_with_break or not old_lines else len(old_lines) - 1

    old_at = new_at = 0  # the lines of each text before the next group
    index = 0
    while index < len(edits):
        first = last = line_at(edits[index].start)  # the group: lines first .. last - 1
        pieces: list[str] = []
        at = starts[first]
        while index < len(edits) and line_at(edits[index].start) <= last:
            edit = edits[index]
            pieces += [text[at:edit.start], edit.new]
            at = edit.end
            end_line = line_at(edit.end)
            at_line_start = edit.end > edit.start and edit.end == starts[end_line]
            last = max(last, min(end_line if at_line_start else end_line + 1,
                                 len(old_lines)))
            index += 1
        pieces.append(text[at:starts[last]])
        new_group = _lines("".join(pieces))
        new_first = new_at + first - old_at
        yield "equal", old_at, first, new_at, new_first
        matcher = difflib.SequenceMatcher(None, old_lines[first:last], new_group)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            yield tag, first + i1, first + i2, new_first + j1, new_first + j2
        old_at, new_at = last, new_first + len(new_group)


class _KnownOpcodes(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """A matcher whose opcodes are given, for :meth:`get_grouped_opcodes`."""

    def __init__(self, codes: list[Opcode]) -> None:
        super().__init__(None, [], [])
        self._codes = codes

    def get_opcodes(self) -> list[Opcode]:
        return self._codes


def _unified(groups: Iterable[list[tuple[str, int, int, int, int]]], old: list[str], new: list[str],
             fromfile: str, tofile: str) -> Iterator[str]:
    """The lines of a unified diff of the grouped opcodes, as
    :func:`difflib.unified_diff` writes them."""
    started = False
    for group in groups:
        if not started:
            started = True
            yield f"--- {fromfile}\n"
            yield f"+++ {tofile}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in old[i1:i2])
                continue
            yield from ("-" + line for line in old[i1:i2])
            yield from ("+" + line for line in new[j1:j2])


def _range(start: int, stop: int) -> str:
    """A hunk's line range as a unified diff writes it (``3``, ``3,4``, ``2,0``)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _dotted(path: YamlPath) -> str:
    return ".".join(map(str, path)) or "the document"
