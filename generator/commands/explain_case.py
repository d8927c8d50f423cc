"""One case as ``explain`` writes it (docs/site.md, "explain"): its fields in the case-file
order, the engine's reasoning as a comment before ``expect``, and ``expect`` with the
engine's values; an id and a title made up where the case has none; the YAML form of a
case's plain values.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import yaml

from generator.cases.model import Case
from generator.engine.codes import CaseStatus
from generator.engine.rules import default_preset
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.i18n.explain import Words
from generator.kinds import AnyKind
from generator.kinds.base import with_reason
from generator.verify import CaseResult
from generator.verify import explain_case
from generator.verify import verify_case

TITLE_COMMENT = "  # a title to edit"
"""Follows a title ``explain`` made up."""


@dataclass
class CaseItem:
    """One case as ``explain`` writes it: its fields, the engine's reasoning (a comment
    before ``expect``) and ``expect``.

    Attributes:
        case: the case as loaded.
        fields: the fields before ``expect``, in order.
        reasoning: the engine's reasoning, one line each.
        expect: the engine's values; a ``known_disagreement`` still disagreeing keeps
            its documented ones.
        made_up_title: the title was made up (marked ``# a title to edit``).
    """

    case: Case
    fields: dict[str, Any]
    reasoning: list[str]
    expect: Any
    made_up_title: bool

    @classmethod
    def of(cls, case: Case, raw: Mapping[str, Any], w: Words, title: str | None,
           generated: bool, case_id: str | None) -> CaseItem:
        """The item of ``case`` (``raw``: as written), named ``case_id`` (``None``: its
        own id, or one made up), titled ``title`` (``--title``; else its own, or one made
        up). A ``pending`` case keeps its status; a ``known_disagreement`` still
        disagreeing keeps its status, ``because`` and documented ``expect`` (one that
        agrees now loses them, as ``check --fix`` does); ``note`` stays."""
        result = verify_case(case)
        known = case.status == CaseStatus.KNOWN_DISAGREEMENT and not result.stale
        expect = _expect(case, raw, result, known)
        title = title or case.title or None
        fields: dict[str, Any] = {
            **_head_fields(case, raw, case_id), **_input_fields(case, raw),
            "title": title or made_up_title(case, raw, case.spec, generated),
            **_status_fields(case, known)}
        reasoning = with_reason(explain_case(result, w), result.values, w)
        return cls(case, fields, [line for text in reasoning for line in text.splitlines()],
                   expect, title is None)

    def lines(self, step: int = 2, explicit: Collection[str] = ()) -> list[str]:
        """The item's lines, without indentation or line ends (its fields at column 0),
        nested mappings indented ``step`` columns; the fields of ``explicit`` that apply
        to the case (``rules``, ``options``: a file's ``defaults`` would fill them in
        otherwise) written out even where they hold the default."""
        fields = dict(self.fields)
        case = self.case
        if "rules" in explicit and presets_of(case.game):
            fields.setdefault("rules", case.rules)
        if "options" in explicit and options_of(case.game):
            fields["options"] = dict(case.options)
        order = ["id", "kind", "game", "rules", "options"]
        fields = {**{k: fields[k] for k in order if k in fields},
                  **{k: v for k, v in fields.items() if k not in order}}
        head = dump_yaml(fields, step).splitlines()
        if self.made_up_title:
            head = [line + TITLE_COMMENT if line.startswith("title: ") else line
                    for line in head]
        comment = [f"# {line}" for line in self.reasoning]
        return [*head, *comment, *dump_yaml({"expect": self.expect}, step).splitlines()]


def _expect(case: Case, raw: Mapping[str, Any], result: CaseResult, known: bool) -> Any:
    """The ``expect`` written: the engine's values, or the documented ones of a
    ``known_disagreement`` still disagreeing (``known``)."""
    if known and "expect" in raw:
        return raw["expect"]
    return case.spec.documented(case.inputs, result.engine_result, result.values)


def _head_fields(case: Case, raw: Mapping[str, Any], case_id: str | None) -> dict[str, Any]:
    """``id`` (``case_id``, else the case's own, else one made up), ``kind``, ``game``,
    ``rules`` where it is written or not the default, and the options turned on."""
    fields: dict[str, Any] = {
        "id": case_id or case.id or made_up_id(case, raw, case.spec),
        "kind": case.kind,
        "game": case.game,
    }
    default = default_preset(case.game)
    if default is not None and ("rules" in raw or case.rules != default):
        fields["rules"] = case.rules
    if any(case.options.values()):
        fields["options"] = {name: True for name, on in case.options.items() if on}
    return fields


def _input_fields(case: Case, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The kind's input fields, as written, in the kind's order."""
    return {name: raw[name] for name in case.spec.inputs if name in raw}


def _status_fields(case: Case, known: bool) -> dict[str, Any]:
    """``note``; ``status`` of a pending case or of a ``known_disagreement`` still
    disagreeing (``known``), which keeps its ``because`` too."""
    fields: dict[str, Any] = {}
    if case.note:
        fields["note"] = case.note
    if case.status == CaseStatus.PENDING or known:
        fields["status"] = case.status
    if known:
        fields["because"] = case.because
    return fields


def as_item(lines: list[str]) -> str:
    """An item's lines (:meth:`CaseItem.lines`) as an item of ``cases:``: ``  - `` and
    its fields four columns in."""
    return "".join(("  - " if i == 0 else "    ") + line + "\n" if line.strip() else "\n"
                   for i, line in enumerate(lines))


def made_up_id(case: Case, raw: Mapping[str, Any], kind: AnyKind) -> str:
    """An id from the game, the preset, the kind and the inputs' words
    (``rami51-meld-qh-kh-ah``); for inputs that are no short words, a digest of them."""
    parts = [case.game]
    if case.rules and case.rules != default_preset(case.game):
        parts.append(case.rules)
    parts.append(case.kind.replace("_", "-"))
    words = _words(raw, kind)
    if words is not None and len(words) <= 60:
        parts.append(words)
    else:
        inputs = {name: raw[name] for name in kind.inputs if name in raw}
        parts.append(hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:8])
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return re.sub(r"-+", "-", slug)


def _words(raw: Mapping[str, Any], kind: AnyKind) -> str | None:
    """The command-line inputs' words joined (``QH KH AH``, ``QH KH AH / JK 7S 8S``), or
    ``None`` when the kind takes none."""
    if not kind.arguments:
        return None
    out: list[str] = []
    for argument in kind.arguments:
        value = raw.get(argument.field)
        if isinstance(value, list):
            out.append(" / ".join((" ".join(v) or "-") if isinstance(v, list) else str(v)
                                  for v in value))
        elif isinstance(value, bool):
            out.append(f"{argument.field} {str(value).lower()}")
        elif isinstance(value, int):
            out.append(f"{argument.field} {value}")
        elif value is not None:
            out.append(str(value))
    return " + ".join(out)


def made_up_title(case: Case, raw: Mapping[str, Any], kind: AnyKind, generated: bool) -> str:
    """A title for a case without one: the words of a case made from the command line
    (``generated``), else ``A <kind> case``."""
    words = _words(raw, kind) if generated else None
    return words or f"A {case.kind.replace('_', ' ')} case"


class _Dumper(yaml.SafeDumper):
    """Block mappings, flow lists of scalars, list items indented under their key."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _represent_dict(dumper: yaml.SafeDumper, value: dict[str, Any]) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(),
                                    flow_style=False)


def _represent_list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.Node:
    flat = all(not isinstance(v, (list, dict)) or v == [] for v in value) and \
        len(", ".join(map(str, value))) <= 60
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flat)


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)
_Dumper.add_multi_representer(str, yaml.representer.SafeRepresenter.represent_str)  # codes


def dump_yaml(value: Any, step: int = 2) -> str:
    """``value`` (plain values) as YAML in ``explain``'s form: block mappings, short lists
    of scalars in flow style, nested mappings indented ``step`` columns."""
    text: str = yaml.dump(value, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                          width=100, indent=step)
    return text


def dump_case(item: Mapping[str, Any]) -> str:
    """A case (a mapping of plain values) as the item of a ``cases:`` list: ``  - id:
    …`` and its fields four columns in."""
    return as_item(dump_yaml(dict(item)).splitlines())
