"""Nesting limits in ``generator.yamlpos``: our :data:`MAX_DEPTH` is met before any
parser's own limit, with our words at the list or mapping that goes too deep, whichever
PyYAML version pyproject allows (libyaml's scanner in 6.0.4 refuses 1,000 nested flow
levels while reading ahead; 6.0.3's does not) and with or without libyaml. A parser's
own limit, if ever reached, is reported in our words at the parser's place.

The parsers' limits are simulated with a pure-Python loader whose scanner refuses as
libyaml's does (the same exception, problem and context), so every test here means the
same on every installation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from yaml.scanner import ScannerError

from generator import yamlpos

REPO = Path(__file__).resolve().parent.parent

DEEP = "lists and mappings nested more than 100 levels deep; expected a few levels"


def _limited_loader(max_flow_level: int) -> type[yaml.SafeLoader]:
    """A pure-Python loader whose scanner raises libyaml's nesting error on entering
    flow level ``max_flow_level + 1``, at that bracket."""

    class Limited(yaml.SafeLoader):
        def fetch_flow_collection_start(self, TokenClass: type[yaml.Token]) -> None:
            if self.flow_level >= max_flow_level:
                mark = self.get_mark()
                raise ScannerError("while increasing flow level", mark,
                                   "exceeded maximum nesting depth", mark)
            super().fetch_flow_collection_start(TokenClass)

    return Limited


def _errors(text: str) -> list[str]:
    _, errors = yamlpos.parse_yaml(text, "x.yaml")
    return [error.format() for error in errors]


@pytest.mark.parametrize(("text", "at"), [
    ("cases: " + "[" * 99 + "x" + "]" * 99 + "\n", None),  # 100 levels: the limit
    ("cases: " + "[" * 100 + "x" + "]" * 100 + "\n", "1:107"),
    ("cases: " + "[" * 1000 + "]" * 1000 + "\n", "1:107"),
    ("cases: " + "[" * 30_000 + "\n", "1:107"),
    ("{a: " * 1000 + "}" * 1000 + "\n", "1:401"),
    ("cases:\n" + "- " * 2000 + "x\n", "2:199")],
    ids=["100-levels", "101-levels", "1000-flow", "30000-unclosed", "1000-flow-maps",
         "2000-block"])
@pytest.mark.parametrize("loader", ["installed", "pure-python"])
def test_our_limit_is_met_first_with_or_without_libyaml(
        monkeypatch: pytest.MonkeyPatch, text: str, at: str | None, loader: str) -> None:
    if loader == "pure-python":
        monkeypatch.setattr(yamlpos, "_FastLoader", yaml.SafeLoader)
    assert _errors(text) == ([] if at is None else [f"x.yaml:{at}: {DEEP}"])


def test_a_parser_that_refuses_while_reading_ahead_is_measured_by_the_pure_parser(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """libyaml's scanner (PyYAML 6.0.4) reads ahead of its events in a flow list and
    refuses at its own limit before the events reach level 101: the nesting is measured
    by the pure-Python parser and reported at the list that goes too deep."""
    text = "cases: " + "[" * 1000 + "]" * 1000 + "\n"
    limited = _limited_loader(500)
    with pytest.raises(ScannerError, match="exceeded maximum nesting depth"):
        yaml.compose(text, Loader=limited)
    monkeypatch.setattr(yamlpos, "_FastLoader", limited)
    assert _errors(text) == [f"x.yaml:1:107: {DEEP}"]


def test_a_parsers_own_limit_is_reported_in_our_words_at_its_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A parser whose limit lies below ours (three flow levels here): our message at the
    bracket where the parser stopped, never "YAML syntax error: exceeded maximum
    nesting depth"."""
    monkeypatch.setattr(yamlpos, "_FastLoader", _limited_loader(3))
    assert _errors("cases:\n  - [[[x]]]\n") == []
    assert _errors("cases:\n  - [[[[x]]]]\n") == [f"x.yaml:2:8: {DEEP}"]
    many = "cases:\n" + "".join(f"  - id: c{i}\n" for i in range(60)) + "  - [[[[x]]]]\n"
    assert _errors(many) == [f"x.yaml:62:8: {DEEP}"]


def test_case_files_are_measured_by_the_fast_parser_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python parser (10-100 times slower) is consulted only when the fast one
    stops at its own limit: never for the repository's case files."""
    loaders: list[object] = []
    parse = yaml.parse

    def recording(stream: str, Loader: type[yaml.SafeLoader]) -> object:
        loaders.append(Loader)
        return parse(stream, Loader=Loader)

    monkeypatch.setattr(yaml, "parse", recording)
    files = sorted((REPO / "content" / "examples").glob("*.yaml"))
    assert len(files) >= 5
    for path in files:
        document, errors = yamlpos.parse_yaml(path.read_text(encoding="utf-8"), path.name)
        assert errors == [] and document is not None and document.value["cases"]
    assert loaders  # the larger files are read event by event
    assert set(loaders) == {yamlpos._FastLoader}


@pytest.mark.parametrize("text", [
    "a: plain words", "a: 'quoted'", 'a: "1"', "a: '2024-01-01'", 'a: "yes"',
    "a: |\n  a block\n  of lines\n", "a: >\n  folded\n  text\n", "a: Q♥ K♥ A♥",
    "a: !!str true", "a: ''",
])
def test_text_values_are_what_yaml_reads(text: str) -> None:
    doc, errors = yamlpos.parse_yaml(text, "t.yaml", bool_words=True)
    assert errors == [] and doc is not None
    expected = yaml.safe_load(text)["a"]
    assert type(doc.value["a"]) is str and doc.value["a"] == expected


def _scalar_tags(node: yaml.Node) -> list[tuple[str, str]]:
    if isinstance(node, yaml.ScalarNode):
        return [(node.value, node.tag)]
    children = node.value if isinstance(node, yaml.SequenceNode) else [
        part for pair in node.value for part in pair]
    return [tag for child in children for tag in _scalar_tags(child)]


def test_a_scalars_tag_remembered_is_the_one_yaml_resolves() -> None:
    text = ("a: 1\nb: '1'\nc: yes\nd: 'yes'\ne: ~\nf: '~'\ng: 0x1F\nh: 2024-01-01\n"
            "i: 1.5\nj: QH\nk: !!str 7\nl: [1, '1', yes, 'yes']\nm: null\n'1': 1\n")
    composed = yaml.compose(text, Loader=yaml.SafeLoader)
    assert composed is not None
    expected = _scalar_tags(composed)
    assert ("1", "tag:yaml.org,2002:int") in expected
    assert ("1", "tag:yaml.org,2002:str") in expected
    for _ in range(2):  # the second time from what the first remembered
        node = yamlpos._compose(text, yamlpos._FastLoader)
        assert node is not None and _scalar_tags(node) == expected


@pytest.mark.parametrize(("text", "said", "value"), [
    ("title: !!bool x\n", "1:8: 'x' is no !!bool value", {"title": "x"}),
    ("!!bool 1: x\n", "1:1: '1' is no !!bool value", {"1": "x"}),
    ("a: !!timestamp 31\n", "1:4: '31' is no !!timestamp value", {"a": "31"}),
    ("a: !!timestamp '31'\n", "1:4: '31' is no !!timestamp value", {"a": "31"}),
    ("a: 2024-13-45\n", None, {"a": "2024-13-45"}),  # no tag written: text, as before
])
def test_a_tag_its_value_does_not_fit_is_an_input_error(
        text: str, said: str | None, value: dict[str, str]) -> None:
    doc, errors = yamlpos.parse_yaml(text, "site.yaml", bool_words=True)
    assert doc is not None and doc.value == value
    shown = [f"{e.line}:{e.column}: {e.message}" for e in errors]
    if said is None:
        assert shown == []
    else:
        assert len(shown) == 1 and shown[0].startswith(said)
        assert shown[0].endswith("expected a plain value (text, number, true/false)")
