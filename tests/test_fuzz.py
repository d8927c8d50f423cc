"""Fuzzing every input the generator reads: case files, card codes, Markdown pages and
``.po`` catalogs (docs/site.md: exit 0, 1 or 2, errors as ``FILE:LINE:COL: what; expected``,
never a traceback).

Most inputs go through the stages in this process (``load_cases`` and ``verify_all``,
the case-file extractor, ``parse_page`` and ``load_project`` and rendering,
``load_translator`` and rendering with the catalog): no exception may escape but the
documented ones, and every :class:`InputError` must name a file, a line (a column
where given) and say what was expected. A few whole projects, fuzzed in several places
at once, go through ``python -m generator build`` and ``check`` in a subprocess.

Inputs are generated with Hypothesis, derandomized (the same inputs on every run):
structured ones (case files built field by field from the schema's vocabulary, pages
built from Markdown blocks, catalogs built from the project's real messages) and raw
ones (random bytes and text, real files with random edits). A default run fuzzes about
a hundred inputs (every code path, a few times); ``RULES_EXTENDED=1`` fuzzes 1,700: run
it with ``RULES_EXTENDED=1 python3 -m pytest -m extended`` (as .ci/run does).
"""

from __future__ import annotations

import atexit
import functools
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path
from pathlib import PurePosixPath
from xml.etree import ElementTree

import pytest
import yaml
from babel.messages.catalog import Message
from babel.messages.pofile import read_po
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from generator.cases.loader import load_cases
from generator.commands.project import load_project
from generator.content.extractors import extract_cases
from generator.content.pages import make_parser
from generator.content.pages import parse_page
from generator.content.rule_numbers import facts
from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import all_cards
from generator.engine.cards import parse_card
from generator.engine.cards import parse_cards
from generator.engine.codes import Code
from generator.engine.rules import GAMES
from generator.errors import InputError
from generator.errors import shown
from generator.i18n.catalog import load_translator
from generator.i18n.catalog import source_translator
from generator.i18n.plurals import plural_rule
from generator.i18n.pofile import check_catalog_syntax
from generator.i18n.templates import template_messages
from generator.kinds import KINDS
from generator.kinds.first_meld import OPENING_REASONS
from generator.kinds.meld import MELD_REASONS
from generator.render.site import render_locale
from generator.render.site_input import SiteInput
from generator.verify import verify_all
from tests.conftest import no_hang
from tests.conftest import run_cli

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of hostile input need."""

REPO = Path(__file__).resolve().parent.parent
EXTENDED = os.environ.get("RULES_EXTENDED") == "1"
pytestmark = pytest.mark.extended  # its big round: RULES_EXTENDED=1 pytest -m extended

# Examples per test: (default, RULES_EXTENDED=1). Sum: 116 by default (a few inputs for
# every code path, so that the default run stays under a minute), 1,700 extended (sized
# so that the whole extended round stays near 8 minutes on 2 cores).
BUDGET = {
    "card_codes": (40, 500),
    "case_files": (30, 400),
    "raw_case_files": (15, 250),
    "pages": (5, 100),
    "catalogs": (15, 300),
    "links": (6, 80),
    "cli": (1, 10),
    "special_files": (4, 60),
}
FUZZED: Counter[str] = Counter()
"""Inputs fuzzed so far, per test (printed at the end of the module)."""


def fuzz(name: str) -> settings:
    """Hypothesis settings for one fuzz test: its budget, no deadline, derandomized."""
    default, extended = BUDGET[name]
    return settings(
        max_examples=extended if EXTENDED else default,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    total = sum(FUZZED.values())
    detail = ", ".join(f"{name} {n}" for name, n in FUZZED.items())
    print(f"\nfuzzed {total} inputs ({detail})", file=sys.stderr)
    if EXTENDED and set(FUZZED) == set(BUDGET):
        assert total >= 1_700, f"only {total} inputs fuzzed"


# -- what every error must look like -------------------------------------------------

CLEAR = re.compile(r"; expected |\bmust be .+; got |^cannot read ")
"""A message says what was expected (``what is wrong; what was expected``, or ``X must
be Y; got Z``), or that a file could not be read (with the system's reason)."""


def assert_errors(errors: Iterable[InputError], files: Iterable[str] | None = None) -> None:
    """Every error names a project file (relative, POSIX), a line, a column where given,
    and says in one line what is wrong and what was expected."""
    allowed = set(files) if files is not None else None
    for error in errors:
        assert isinstance(error, InputError), error
        assert error.file and not error.file.startswith("/"), error
        assert not re.search(r"\\(?![nrt]|x[0-9a-f]{2})", error.file), error  # escapes only
        if allowed is not None:
            assert error.file in allowed, error
        assert isinstance(error.line, int) and error.line >= 1, error
        assert error.column is None or (isinstance(error.column, int) and error.column >= 1), \
            error
        assert error.message, error
        assert "\n" not in error.message, error
        assert CLEAR.search(error.message), error
        assert error.format().startswith(f"{error.file}:{error.line}"), error


# -- shared pieces of generated input ------------------------------------------------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 120), st.integers(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["no", "on", "yes", "off", "~", "null", "1e3", "0x1F", "2024-01-01",
                     "QH KH AH", "JK", ": x", "- x", "#", "&a", "*a", "!!str", "{x}", "%"]),
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.one_of(st.text(max_size=6), st.integers(0, 3)), inner, max_size=3),
    max_leaves=6,
)
"""Any YAML value: what a field should not hold."""

RANK_CODES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "T",
              "a", "t", "q", "k", "1", "11", "0", "B", "", "ſ"]
SUIT_CODES = ["C", "D", "H", "S", "c", "d", "h", "s", "♣", "♦", "♥", "♠", "X", "♤", "",
              "ſ", "\u212a"]
CARD_CODES = [c.code for c in all_cards()]
CARD_CODE = st.one_of(
    st.sampled_from(CARD_CODES),
    st.builds(lambda r, s: r + s, st.sampled_from(RANK_CODES), st.sampled_from(SUIT_CODES)),
    st.sampled_from(["JK", "jk", "Jk", "JOKER", "J K", " QH ", "10♥", "T♠"]),
    st.text(max_size=5),
)


def card_list(codes: st.SearchStrategy[str] = CARD_CODE) -> st.SearchStrategy[object]:
    """A card list as a case file writes it: a YAML list or one string of codes."""
    items = st.lists(st.one_of(codes, codes, codes, JUNK), max_size=8)
    return st.one_of(items, st.lists(codes, max_size=8).map(" ".join))


@st.composite
def text_edits(draw: st.DrawFn, text: str) -> str:
    """``text`` with 0-3 random edits: a line repeated, dropped, swapped, or a snippet
    (a YAML tag, anchor, merge key, tab, quote, control character, ...) put in."""
    snippets = ["!!python/object:os.system ", "!foo ", "&a ", "*a", "<<: *a", "\t", "? ",
                "--- ", "...", "%YAML 1.1\n", "id: no", "kind: meld", "- ", "  ", "{", "[",
                "'", '"', "#", "\x00", "\ufeff", "\u2028", "\r", ":::", "```", "msgid ",
                "\\", "%", "{rami51.threshold}", "{nope}", "&#x0;"]
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        edit = draw(st.sampled_from(("repeat", "drop", "swap", "insert", "char")))
        if not lines:
            lines = [""]
        if edit == "repeat":
            lines.insert(at, lines[at])
        elif edit == "drop" and len(lines) > 1:
            lines.pop(at)
        elif edit == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif edit == "insert":
            line = lines[at]
            col = draw(st.integers(0, len(line)))
            lines[at] = line[:col] + draw(st.sampled_from(snippets)) + line[col:]
        else:
            line = lines[at]
            col = draw(st.integers(0, len(line)))
            lines[at] = line[:col] + draw(st.characters()) + line[col + 1:]
    return "\n".join(lines)


def encoded(text: str, how: str) -> bytes:
    if how == "utf-16":
        return text.encode("utf-16")
    if how == "bom":
        return b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if how == "latin-1":
        return text.encode("latin-1", "replace")
    return text.encode("utf-8", "surrogatepass")


ENCODINGS = st.sampled_from(["utf-8"] * 8 + ["utf-16", "bom", "latin-1"])


# -- card codes ----------------------------------------------------------------------

DOCUMENTED = re.compile(r"(A|[2-9]|10|T|J|Q|K)(C|D|H|S|♣|♦|♥|♠)|JK")


@fuzz("card_codes")
@given(code=st.one_of(CARD_CODE, st.text(max_size=8), st.binary(max_size=6).map(
    lambda b: b.decode("utf-8", "replace"))), codes=st.lists(CARD_CODE, max_size=6))
def test_card_codes_parse_or_say_what_was_expected(code: str, codes: list[str]) -> None:
    FUZZED["card_codes"] += 1
    try:
        card = parse_card(code)
    except CardCodeError as exc:
        message = str(exc)
        assert "; expected a rank" in message and "\n" not in message, message
    else:
        assert isinstance(card, Card)
        assert DOCUMENTED.fullmatch(code.strip().upper()), code
        assert parse_card(card.code) == card
        assert parse_card(code.lower()) == card  # case-insensitive
    try:
        cards = parse_cards(" ".join(codes))
    except CardCodeError as exc:
        assert "; expected" in str(exc)
    else:
        assert len(cards) == len(" ".join(codes).split())


# -- case files ----------------------------------------------------------------------

EXPECT_FIELDS = sorted({name for kind in KINDS.values() for name in kind.expect})
CODES = ["valid", "invalid", "accepted", "rejected", "allowed", "run", "set",
         *MELD_REASONS, *OPENING_REASONS, "not_opened", "breaks_meld", "no_joker",
         "wrong_card", "6S", "JK", "bogus"]
EXPECT = st.one_of(
    st.dictionaries(
        st.sampled_from([*EXPECT_FIELDS, "bogus"]),
        st.one_of(st.sampled_from(CODES), st.integers(0, 120),
                  st.lists(st.integers(0, 120), max_size=5), CARD_CODE, JUNK),
        max_size=5,
    ),
    JUNK,
)
FIELDS: dict[str, st.SearchStrategy[object]] = {
    "id": st.one_of(st.from_regex(r"[a-z0-9-]{1,10}", fullmatch=True),
                    st.sampled_from(["dup", "dup", "no", "on", "Bad Id", "", "x_y", "abc\n",
                                     "dup\n", "dup\n", "a\tb", "\u0085x"])),
    "kind": st.sampled_from([*KINDS, "scenario", "bogus", "Meld"]),
    "game": st.sampled_from([*GAMES, "rami", "Rami51"]),
    "rules": st.sampled_from(["reference", "house", "bogus"]),
    "options": st.dictionaries(st.sampled_from(["ace_high", "discard_to_win", "target"]),
                               st.one_of(st.booleans(), JUNK), max_size=3),
    "title": st.text(max_size=30),
    "note": st.text(max_size=30),
    "cards": card_list(),
    "meld": card_list(),
    "card": CARD_CODE,
    "melds": st.lists(card_list(), max_size=3),
    "hands": st.lists(card_list(), max_size=5),
    "players": st.integers(-1, 8),
    "opened": st.booleans(),
    "expect": EXPECT,
    "bogus": JUNK,
}


def _field(strategy: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.one_of(strategy, strategy, strategy, JUNK)


RANDOM_CASE = st.fixed_dictionaries(
    {}, optional={name: _field(strategy) for name, strategy in FIELDS.items()})
"""A case with any of the fields, most holding a value of the field's kind."""


@st.composite
def plausible_case(draw: st.DrawFn) -> dict[str, object]:
    """A case that is right but for its documented values, most of the time: a kind, a
    game it applies to, the kind's input fields with card codes, and ``expect`` fields
    of the kind."""
    kind_name = draw(st.sampled_from(sorted(KINDS)))
    kind = KINDS[kind_name]
    game = draw(st.sampled_from(kind.games))
    case: dict[str, object] = {
        "id": draw(st.from_regex(r"[a-z0-9][a-z0-9-]{0,8}", fullmatch=True)),
        "kind": kind_name, "game": game, "title": draw(st.text(min_size=1, max_size=20))}
    if game != "cardverse" and draw(st.booleans()):
        case["rules"] = draw(st.sampled_from(["reference", "house"]))
    if game == "cardverse" and draw(st.booleans()):
        case["options"] = {"ace_high": draw(st.booleans())}
    if draw(st.booleans()):
        case["note"] = draw(st.text(max_size=20))
    plain = [c for c in CARD_CODES if c != "JK"] if game == "cardverse" else CARD_CODES
    cards = st.lists(st.sampled_from(plain), min_size=1, max_size=8)
    as_text = draw(st.booleans())
    for name, spec in kind.inputs.items():
        if spec.shape == "cards":
            value: object = draw(cards)
        elif spec.shape == "card":
            value = draw(st.sampled_from(plain))
        elif spec.shape == "melds":
            value = draw(st.lists(cards, min_size=1, max_size=3))
        elif spec.shape == "hands":
            value = draw(st.lists(st.lists(st.sampled_from(plain), max_size=6),
                                  min_size=2, max_size=4))
        elif name == "players":
            value = draw(st.integers(1, 7))
        else:
            value = draw(st.booleans())
        if as_text and isinstance(value, list) and all(isinstance(v, str) for v in value):
            value = " ".join(value)  # type: ignore[arg-type]
        case[name] = value
    names = [n for n, spec in kind.expect.items() if game in spec.games]
    expect = draw(st.dictionaries(
        st.sampled_from(names),
        st.one_of(st.sampled_from(CODES), st.integers(0, 100),
                  st.lists(st.integers(0, 60), min_size=2, max_size=4)), max_size=4))
    for name in kind.required_expect:
        expect.setdefault(name, draw(st.sampled_from(CODES)))
    case["expect"] = expect
    return case


@st.composite
def case_document(draw: st.DrawFn) -> object:
    """A case file's value: ``defaults`` and ``cases`` (or something else entirely)."""
    cases = draw(st.lists(st.one_of(plausible_case(), plausible_case(), RANDOM_CASE, JUNK),
                          max_size=4))
    doc: dict[object, object] = {}
    if draw(st.integers(0, 3)) == 0:
        doc["defaults"] = draw(st.one_of(
            st.fixed_dictionaries({}, optional={n: _field(FIELDS[n]) for n in
                                                ("kind", "game", "rules", "options", "title")}),
            JUNK))
    if draw(st.integers(0, 9)):
        doc["cases"] = cases
    if draw(st.integers(0, 9)) == 0:
        doc[draw(st.text(max_size=6))] = draw(JUNK)
    return draw(st.sampled_from([doc] * 9 + [cases, draw(JUNK)]))


class _CodeDumper(yaml.SafeDumper):
    """``yaml.SafeDumper`` that writes the engine's codes (``StrEnum`` members, as the
    kinds' games and reason lists hold them) as the plain strings they equal."""


_CodeDumper.add_multi_representer(Code, yaml.representer.SafeRepresenter.represent_str)


@st.composite
def case_file(draw: st.DrawFn) -> bytes:
    """A case file's bytes: a generated document written as YAML (block or flow style),
    sometimes edited as text, sometimes in another encoding."""
    doc = draw(case_document())
    text = yaml.dump(doc, Dumper=_CodeDumper, allow_unicode=draw(st.booleans()),
                     sort_keys=False,
                     default_flow_style=draw(st.sampled_from([False, False, None])))
    if draw(st.booleans()):
        text = draw(text_edits(text))
    return encoded(text, draw(ENCODINGS))


REAL_CASE_FILES = sorted(p.read_bytes() for p in (REPO / "content" / "examples").glob("*.yaml"))


@st.composite
def raw_case_file(draw: st.DrawFn) -> bytes:
    """Random bytes, random text, a real case file with random edits, or deep nesting."""
    how = draw(st.sampled_from(["bytes", "text", "real", "real", "real", "deep"]))
    if how == "bytes":
        return draw(st.binary(max_size=400))
    if how == "text":
        return draw(st.text(max_size=400)).encode("utf-8", "surrogatepass")
    if how == "deep":
        depth = draw(st.integers(10, 3_000))
        shape = draw(st.sampled_from(["[", "{a: ", "- "]))
        if shape == "- ":
            body = "".join("  " * i + "- \n" for i in range(min(depth, 400)))
            return ("cases:\n" + body).encode()
        close = "]" if shape == "[" else "}"
        return ("cases: " + shape * depth + "x" + close * depth).encode()
    real = draw(st.sampled_from(REAL_CASE_FILES)).decode("utf-8")
    return encoded(draw(text_edits(real)), draw(ENCODINGS))


@pytest.fixture(scope="module")
def case_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project holding only ``content/examples/``, rewritten for every example."""
    root = tmp_path_factory.mktemp("cases")
    (root / "content" / "examples").mkdir(parents=True)
    return root


CASE_NAMES = st.sampled_from(["fuzz.yaml"] * 6 + ["sub/fuzz.yaml", "fuzz.yml", "fuzz.YAML"])


def check_case_file(root: Path, data: bytes, name: str) -> None:
    """Load, verify and extract one case file in this process; only input errors."""
    examples = root / "content" / "examples"
    shutil.rmtree(examples)
    path = examples / name
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    rel = path.relative_to(root).as_posix()
    case_set = load_cases(root)
    assert_errors(case_set.errors, {rel})
    ids = [case.id for case in case_set.cases]
    assert len(ids) == len(set(ids))
    for case in case_set.cases:
        assert re.fullmatch(r"[a-z0-9-]+", case.id) and case.kind in KINDS and case.game in GAMES
    for result in verify_all(case_set.cases):
        for d in result.disagreements:
            assert d.position.file == rel and d.position.line >= 1, d
    assert all(isinstance(message, str) for _, _, message, _ in extracted_titles(data))


def extracted_titles(data: bytes) -> list[tuple[int, str, object, list[str]]]:
    """What the Babel extractor finds in a case file (``i18n extract``)."""
    return list(extract_cases(io.BytesIO(data), {}, [], {}))


@fuzz("case_files")
@given(data=case_file(), name=CASE_NAMES)
def test_generated_case_files(case_project: Path, data: bytes, name: str) -> None:
    FUZZED["case_files"] += 1
    check_case_file(case_project, data, name)


@fuzz("raw_case_files")
@given(data=raw_case_file())
def test_raw_case_files(case_project: Path, data: bytes) -> None:
    FUZZED["raw_case_files"] += 1
    check_case_file(case_project, data, "fuzz.yaml")


def deeply_nested(depth: int) -> bytes:
    return ("cases: " + "[" * depth + "x" + "]" * depth).encode()


def test_loader_on_a_deeply_nested_case_file(case_project: Path) -> None:
    check_case_file(case_project, deeply_nested(1_000), "fuzz.yaml")
    assert load_cases(case_project).errors


def test_extractor_on_a_deeply_nested_case_file() -> None:
    assert list(extract_cases(io.BytesIO(deeply_nested(1_000)), {}, [], {})) == []


# -- Markdown pages ------------------------------------------------------------------

CASE_IDS = sorted(case.id for case in load_cases(REPO).cases)
PAGE_SLUGS = sorted(p.stem for p in (REPO / "content").glob("*.md"))
FACTS = sorted(facts())
INLINE = st.one_of(
    st.sampled_from(["The", "joker", "stands", "for", "a", "card", "Q♥ K♥ A♥", "run,", "set."]),
    st.text(max_size=12),
    st.sampled_from([*(f"{{{name}}}" for name in FACTS[:12]), "{nope}", "{rami51.nope}",
                     "{{", "}}", "{{rami51.threshold}}", "{", "}", "{ x }", "{a b}", "%",
                     "%(num)d"]),
    st.sampled_from([*(f"[page](../{slug}/)" for slug in PAGE_SLUGS), "[x](#in-brief)",
                     "[x](../rules/#sets)", "[x](../nope/)", "[x](#nope)",
                     "[x](https://example.org)", "[x](mailto:a@b.c)",
                     "[x](../rules/index.html)", "[x](/abs)", "[x](rules.md)", "[x](",
                     "[x]()", "<https://example.org>", "![img](x.png)", "[x](<../rules/>)",
                     '[x](../rules/ "title")', "[ref]", "[ref]: ../rules/"]),
    st.sampled_from(["**bold**", "*em*", "`code`", "<b>raw</b>", "<script>alert(1)</script>",
                     "&amp;", "&#0;", "\\", "|", "  ", "#", "***", "<!-- c -->", "~~x~~"]),
)
INLINE_TEXT = st.lists(INLINE, min_size=1, max_size=6).map(" ".join)
FENCE_BODY = st.lists(st.one_of(
    st.sampled_from(CASE_IDS),
    st.sampled_from(["nope", "", "  ", "game: rami51", "game: cardverse", "game: nope",
                     "game:", "Three-Kings"]),
    st.text(max_size=10),
), max_size=5).map("\n".join)


@st.composite
def fence(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(["```", "```", "~~~", "````"]))
    info = draw(st.sampled_from(["cases", "cases", "deck-table", "presets-table", "python",
                                 "", "cases x", "CASES", "{cases}"]))
    closing = marker if draw(st.integers(0, 5)) else ""
    return f"{marker}{info}\n{draw(FENCE_BODY)}\n{closing}"


@st.composite
def container(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["app-choice", "app-choice", "app-choice extra", "warning",
                                 ""]))
    inner = draw(st.one_of(INLINE_TEXT, fence()))
    closing = ":::" if draw(st.integers(0, 4)) else ""
    return f"::: {name}\n{inner}\n{closing}"


BLOCK = st.one_of(
    st.tuples(st.integers(1, 7), INLINE_TEXT).map(lambda t: "#" * t[0] + " " + t[1]),
    INLINE_TEXT,
    st.lists(INLINE_TEXT, min_size=1, max_size=4).map(lambda xs: "\n".join("- " + x for x in xs)),
    st.lists(INLINE_TEXT, min_size=1, max_size=3).map(
        lambda xs: "\n".join(f"{i}. {x}" for i, x in enumerate(xs, 1))),
    fence(), fence(), container(),
    st.tuples(INLINE_TEXT, INLINE_TEXT).map(lambda t: f"| {t[0]} | b |\n|---|---|\n| {t[1]} | d |"),
    st.sampled_from(["<div>\nx\n</div>", "<script>alert(1)</script>", "<!-- comment -->",
                     "<details><summary>s</summary>x</details>", "---", "***", "> quoted",
                     "    indented code", "[ref]: ../rules/", ""]),
    INLINE_TEXT.map(lambda x: "> " + x),
    st.text(max_size=40),
)


@st.composite
def page_source(draw: st.DrawFn) -> bytes:
    """A page: front matter (right or wrong, or none), a title (or none), random blocks;
    sometimes edited as text, sometimes raw bytes or text."""
    how = draw(st.integers(0, 9))
    if how == 0:
        return draw(st.binary(max_size=300))
    if how == 1:
        return draw(st.text(max_size=300)).encode("utf-8", "surrogatepass")
    parts = []
    front = draw(st.sampled_from(["none", "none", "good", "junk", "unknown", "order"]))
    if front == "good":
        summary = draw(INLINE_TEXT)
        parts.append(f"---\norder: {draw(st.integers(-5, 50))}\nsummary: {summary!r}\n---")
    elif front == "junk":
        parts.append(f"---\n{draw(st.text(max_size=30))}\n---")
    elif front == "unknown":
        parts.append("---\ntitle: x\n---")
    elif front == "order":
        parts.append(f"---\norder: {draw(st.sampled_from(['x', 'true', '1.5', '[1]', '']))}\n---")
    if draw(st.integers(0, 7)):
        parts.append("# " + draw(INLINE_TEXT))
    parts += draw(st.lists(BLOCK, max_size=8))
    text = draw(st.sampled_from(["\n\n", "\n"])).join(parts)
    if draw(st.integers(0, 3)) == 0:
        text = draw(text_edits(text))
    return encoded(text, draw(ENCODINGS))


@pytest.fixture(scope="module")
def page_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's project with one locale besides English (cs), for speed."""
    root = tmp_path_factory.mktemp("pages") / "project"
    for name in ("content",):
        shutil.copytree(REPO / name, root / name)
    shutil.copytree(REPO / "locales" / "cs", root / "locales" / "cs")
    return root


MD = make_parser()


@fuzz("pages")
@given(data=page_source(), name=st.sampled_from(["fuzz.md"] * 5 + ["Fuzz Page.md"]))
def test_pages(page_project: Path, data: bytes, name: str) -> None:
    FUZZED["pages"] += 1
    root = page_project
    for old in (root / "content").glob("*.md"):
        if old.stem not in PAGE_SLUGS:
            old.unlink()
    path = root / "content" / name
    path.write_bytes(data)
    rel = f"content/{name}"
    page, errors = parse_page(path, rel, MD, facts())
    assert_errors(errors, {rel})
    project = load_project(root)
    assert_errors(project.errors)
    if page is None or project.exit_code != 0:
        return
    mine = [p for p in project.pages if p.rel == rel]
    site = SiteInput(root, mine, ["en", "cs"], project.translators, project.results)
    for lang in ("en", "cs"):
        files = render_locale(site, lang).files
        html = files[f"{lang}/{page.slug}/index.html"].decode("utf-8")
        for block in page.fences:
            if block.info == "cases":
                for case_id in block.case_ids:
                    assert f'id="{case_id}"' in html
        assert "<script>alert" not in html  # raw HTML is off


# -- catalogs ------------------------------------------------------------------------

POT = read_po(io.BytesIO((REPO / "locales" / "cs" / "LC_MESSAGES" / "messages.po").read_bytes()))
REAL_MESSAGES = [m for m in POT if m.id]
PLACEHOLDERS = ["{rami51.threshold}", "{meld.min_cards}", "{nope}", "%(num)d", "%(num)s",
                "%(card)s", "%(other)s", "{{", "}}", "%%", "](../rules/)", "](../nope/)"]
EVIL = "evil.example"
"""The host of every link a fuzzed translation tries to add: it must never be published."""
AUTOLINKS = [f"<https://{EVIL}/phish>", f"<phish@{EVIL}>", f"<HTTPS://{EVIL}>",
             f"[x](https://{EVIL}/)", f"![x](https://{EVIL}/p.png)", f"<mailto:a@{EVIL}>",
             f"[x](<https://{EVIL}/a b>)", f"\\<https://{EVIL}/>", f"`<https://{EVIL}/>`"]
"""Links a translation may try to add: autolinks, e-mail autolinks, inline links and
images; the last two are no links (an escaped ``<`` and a code span)."""
HOSTILE_LOCALES = ['de@x" a="<script>alert(1)<', "de@a\nb", "DE", "de_de", "en-GB"]
"""Locale folder names that are no locale identifiers Babel writes back the same."""
LOCALES = ["cs", "cs", "sk", "sk", "et", "de", "pl", "hu", "xx", "sk_SK", *HOSTILE_LOCALES]


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@st.composite
def msgstr_text(draw: st.DrawFn, source: str) -> str:
    """A translation of ``source``: itself, cut, with placeholders dropped or added, or
    random text."""
    how = draw(st.sampled_from(["same", "same", "cut", "strip", "add", "random", "empty",
                                "link"]))
    if how == "same":
        return source
    if how == "cut":
        return source[: draw(st.integers(0, len(source)))]
    if how == "strip":
        return re.sub(r"\{[^}]*\}|%\(\w+\)\w", "", source)
    if how == "add":
        at = draw(st.integers(0, len(source)))
        return source[:at] + draw(st.sampled_from(PLACEHOLDERS)) + source[at:]
    if how == "random":
        return draw(st.text(max_size=30))
    if how == "link":
        at = draw(st.integers(0, len(source)))
        return source[:at] + draw(st.sampled_from(AUTOLINKS)) + source[at:]
    return ""


@st.composite
def po_entry(draw: st.DrawFn) -> list[str]:
    """One catalog entry as lines: a real message or a random one, plural or not, with
    any number of forms, sometimes fuzzy, obsolete, with a context, or broken."""
    if draw(st.integers(0, 4)):
        message = draw(st.sampled_from(REAL_MESSAGES))
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        context = message.context
    else:
        ids = tuple(draw(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=2)))
        context = None
    lines = []
    if draw(st.integers(0, 5)) == 0:
        lines.append("#, fuzzy")
    if draw(st.integers(0, 9)) == 0:
        context = draw(st.text(max_size=8))
    if context is not None:
        lines.append(f"msgctxt {po_quote(context)}")
    lines.append(f"msgid {po_quote(ids[0])}")
    plural = len(ids) > 1 if draw(st.integers(0, 5)) else not len(ids) > 1
    if plural:
        lines.append(f"msgid_plural {po_quote(ids[-1])}")
        forms = draw(st.integers(0, 4))
        first = draw(st.integers(0, 1)) if draw(st.integers(0, 9)) == 0 else 0
        for index in range(first, first + forms):
            source = ids[-1] if index else ids[0]
            lines.append(f"msgstr[{index}] {po_quote(draw(msgstr_text(source)))}")
    else:
        text = draw(msgstr_text(ids[0]))
        if len(text) > 20 and draw(st.booleans()):  # continuation lines
            lines += ['msgstr ""', po_quote(text[:20]), po_quote(text[20:])]
        else:
            lines.append(f"msgstr {po_quote(text)}")
    if draw(st.integers(0, 9)) == 0:
        lines = ["#~ " + line for line in lines]
    if draw(st.integers(0, 7)) == 0:  # break it
        at = draw(st.integers(0, len(lines) - 1))
        lines[at] = draw(st.sampled_from([
            lines[at][:-1], lines[at] + '"', "msgstr[x] \"\"", 'msgid "\\q"', "stray text",
            'msgstr "a" "b"', "msgstr", lines[at].replace('"', "'"), "",
        ]))
    return lines


HEADER = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset={charset}\\n"\n'
          '"Language: {locale}\\n"\n"Plural-Forms: {plural}\\n"\n')


@st.composite
def po_file(draw: st.DrawFn) -> bytes:
    """A catalog: a header (right, wrong or none) and generated entries; or raw bytes,
    raw text, or the real Czech catalog with random edits."""
    how = draw(st.integers(0, 11))
    if how == 0:
        return draw(st.binary(max_size=300))
    if how == 1:
        return draw(st.text(max_size=300)).encode("utf-8", "surrogatepass")
    if how == 2:
        real = (REPO / "locales" / "cs" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
        return draw(text_edits(real)).encode("utf-8", "surrogatepass")
    parts = []
    if draw(st.integers(0, 5)):
        parts.append(HEADER.format(
            charset=draw(st.sampled_from(["UTF-8"] * 5 + ["latin-1", "ascii", "", "bogus"])),
            locale=draw(st.sampled_from(["cs", "sk", "et", ""])),
            plural=draw(st.sampled_from([
                "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
                "nplurals=2; plural=(n != 1);", "nplurals=1; plural=0;",
                "nplurals=x; plural=n;", "nplurals=3; plural=n*;", "nplurals=9; plural=n;",
                ""])),
        ))
    parts += ["\n".join(draw(po_entry())) + "\n" for _ in range(draw(st.integers(0, 8)))]
    text = "\n".join(parts)
    if draw(st.integers(0, 4)) == 0:
        text = draw(text_edits(text))
    return text.encode("utf-8", "surrogatepass")


class Loaded:
    """A project loaded once (its pages render with each fuzzed catalog)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.project = load_project(root)
        assert self.project.exit_code == 0, self.project.errors
        self.templates = template_messages(root)

    def __repr__(self) -> str:
        return f"Loaded({self.root})"


@pytest.fixture(scope="module")
def po_project(tmp_path_factory: pytest.TempPathFactory) -> Loaded:
    root = tmp_path_factory.mktemp("catalogs") / "project"
    for name in ("content",):
        shutil.copytree(REPO / name, root / name)
    return Loaded(root)


@fuzz("catalogs")
@given(data=po_file(), locale=st.sampled_from(LOCALES))
def test_catalogs(po_project: Loaded, data: bytes, locale: str) -> None:
    FUZZED["catalogs"] += 1
    root, project = po_project.root, po_project.project
    rel = f"locales/{locale}/LC_MESSAGES/messages.po"
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    translator, errors = load_translator(path, rel, locale, template_keys=po_project.templates)
    folder = "locales/" + locale.encode("unicode_escape").decode("ascii")
    if locale in HOSTILE_LOCALES:
        assert [e.format() for e in errors] == [
            f"{folder}:1: the folder name '{folder[8:]}' is not a locale Babel knows; "
            "expected a locale identifier such as cs or pt_BR"]
        return
    assert_errors(errors, {rel, folder})
    assert_errors(check_catalog_syntax(path, rel), {rel})
    for message in REAL_MESSAGES:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        text, _ = translator.gettext(ids[0], message.context)
        assert isinstance(text, str)
        for n in (0, 1, 2, 5, 22, 101):
            text, _ = translator.ngettext(ids[0], ids[-1], n, message.context)
            assert isinstance(text, str)
    if errors:
        return
    site = SiteInput(root, project.pages, ["en", locale],
                     {"en": source_translator(), locale: translator}, project.results)
    rendered = render_locale(site, locale)
    files, coverage = rendered.files, rendered.coverage
    assert files and coverage.untranslated <= coverage.used
    for name, html in files.items():  # a translation adds no link the source lacks
        assert not re.search(rb"(?:href|src)=\"[^\"]*" + EVIL.encode(), html), name


PAGE_MESSAGES = [m for m in REAL_MESSAGES if isinstance(m.id, str) and any(
    str(where).startswith("content/") and not str(where).startswith("content/examples/")
    for where, _ in m.locations)]
"""The real catalog's page text (Markdown, rendered with its links)."""


@fuzz("links")
@given(message=st.sampled_from(PAGE_MESSAGES), link=st.sampled_from(AUTOLINKS),
       at=st.floats(0, 1), comment=st.booleans())
def test_a_translation_cannot_add_a_link(po_project: Loaded, message: Message, link: str,
                                         at: float, comment: bool) -> None:
    """A translator adds a link the English text lacks (an autolink, an e-mail autolink,
    an inline link or image) anywhere in a page's message: the catalog check refuses it
    at the msgstr, or the rendered page has no such link."""
    FUZZED["links"] += 1
    source = str(message.id)
    cut = int(at * len(source))
    rule = plural_rule("cs")
    rel = "locales/cs/LC_MESSAGES/messages.po"
    path = po_project.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    entry = ["#: content/rules.md:1"] if comment else []
    entry += [f"msgid {po_quote(source)}", f"msgstr {po_quote(source[:cut] + link + source[cut:])}"]
    header = HEADER.format(charset="UTF-8", locale="cs",
                           plural=f"nplurals={rule.nplurals}; plural={rule.expression};")
    path.write_text(header + "\n" + "\n".join(entry) + "\n", "utf-8")
    translator, errors = load_translator(path, rel, "cs", template_keys=po_project.templates)
    assert_errors(errors, {rel})
    if errors:
        assert len(errors) == 1 and errors[0].line == header.count("\n") + 3 + comment
        return
    project = po_project.project
    site = SiteInput(po_project.root, project.pages, ["en", "cs"],
                     {"en": source_translator(), "cs": translator}, project.results)
    files = render_locale(site, "cs").files
    for name, html in files.items():
        assert not re.search(rb"(?:href|src)=\"[^\"]*" + EVIL.encode(), html), name


def _build_cs_with(root: Path, msgid: str, msgstr: str) -> tuple[Path, Path]:
    """``root`` (a project with a Czech catalog) with ``msgstr`` the translation of
    ``msgid`` (an entry of the site's catalog, added for a built-in message)."""
    po = root / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    text = po.read_text("utf-8")
    if f"msgid {po_quote(msgid)}\nmsgstr " not in text:  # a built-in message: the site's
        text += f'\nmsgid {po_quote(msgid)}\nmsgstr ""\n'  # own entry overrides it
    at = text.index(f"msgid {po_quote(msgid)}\nmsgstr ")
    end = text.index("\n", text.index("msgstr ", at))
    po.write_text(text[:at] + f"msgid {po_quote(msgid)}\nmsgstr {po_quote(msgstr)}"
                  + text[end:], "utf-8")
    return root, po


@pytest.mark.parametrize("msgstr", ["Pravidla rummy 100 %", "Pravidla 100% rummy"])
def test_percent_sign_in_a_template_translation(lean_project: Path, tmp_path: Path,
                                                msgstr: str) -> None:
    """Jinja's newstyle gettext %-formats every template message: a lone '%' in its
    translation (Czech writes '100 %') must be shown as written or be an input error at
    the msgstr, never a crash ('incomplete format') or '100{}ummy'."""
    root, _ = _build_cs_with(lean_project, "Rummy rules", msgstr)
    out = tmp_path / "site"
    result = run_cli("build", "--project", str(root), "--out", str(out))
    assert result.returncode in (0, 2)
    if result.returncode == 2:
        assert re.search(r"^locales/cs/LC_MESSAGES/messages\.po:\d+", result.stdout, re.M)
    else:
        assert msgstr in (out / "cs" / "rules" / "index.html").read_text("utf-8")


def test_unknown_charset_in_the_header(tmp_path: Path) -> None:
    """A header naming an encoding that does not exist is an input error at the header,
    not a crash (Babel would raise LookupError while decoding the next line)."""
    rel = "locales/cs/LC_MESSAGES/messages.po"
    path = tmp_path / "messages.po"
    path.write_text(HEADER.format(charset="bogus", locale="cs", plural="")
                    + '\nmsgid "Rules"\nmsgstr "Pravidla"\n', "utf-8")
    _, errors = load_translator(path, rel, "cs")
    assert errors
    assert_errors(errors, {rel})


def test_unknown_charset_then_a_second_msgstr(tmp_path: Path) -> None:
    rel = "locales/cs/LC_MESSAGES/messages.po"
    path = tmp_path / "messages.po"
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=bogus\\n"\n'
                    'msgstr "x"\n\nmsgid "Rules"\nmsgstr "Pravidla"\n', "utf-8")
    _, errors = load_translator(path, rel, "cs")
    assert errors
    assert_errors(errors, {rel})


def test_plural_forms_header_that_is_not_a_number(tmp_path: Path) -> None:
    rel = "locales/cs/LC_MESSAGES/messages.po"
    path = tmp_path / "messages.po"
    path.write_text(HEADER.format(charset="UTF-8", locale="cs",
                                  plural="nplurals=x; plural=n;"), "utf-8")
    errors = check_catalog_syntax(path, rel)
    assert_errors(errors, {rel})
    assert errors


def test_po_error_message_is_one_line(tmp_path: Path) -> None:
    rel = "locales/cs/LC_MESSAGES/messages.po"
    path = tmp_path / "messages.po"
    path.write_text('msgid ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
                    '"Language: cs\\n"\n', "utf-8")
    _, errors = load_translator(path, rel, "cs")
    assert errors
    assert all("\n" not in error.message for error in errors), errors


# -- whole projects through the command line -----------------------------------------

ERROR_LINE = re.compile(r"^[^:\n]+:\d+(:\d+)?: ", re.M)
DISAGREEMENT_LINE = re.compile(r"^[^:\n]+:\d+: case [a-z0-9-]+: \w+ documented .+, engine .+$",
                               re.M)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "GENERATOR_DEBUG": ""})


@st.composite
def fuzzed_project(draw: st.DrawFn) -> dict[str, bytes]:
    """Files to put into a copy of the project: 1-3 of a case file, a page, a catalog,
    ``site.yaml``."""
    files: dict[str, bytes] = {}
    for what in draw(st.lists(st.sampled_from(["case", "case", "page", "po", "site"]),
                              min_size=1, max_size=3, unique=True)):
        if what == "case":
            files["content/examples/fuzz.yaml"] = draw(st.one_of(case_file(), raw_case_file()))
        elif what == "page":
            files["content/fuzz.md"] = draw(page_source())
        elif what == "po":
            locale = draw(st.sampled_from(["cs", "sk", "et"]))
            files[f"locales/{locale}/LC_MESSAGES/messages.po"] = draw(po_file())
        else:
            files["site.yaml"] = draw(st.one_of(
                st.sampled_from([b"site_url: https://example.org/\n", b"site_url: ftp://x\n",
                                 b"bogus: 1\n", b"- x\n", b": :\n",
                                 b'site_url: "https://e.org/a&b/<\'\\"x"\n',
                                 b"site_url: https://e.org/a&b'/\n",
                                 b"site_url: 'https://x/</loc><script>alert(1)</script>'\n"]),
                st.binary(max_size=40)))
    return files


@fuzz("cli")
@given(files=fuzzed_project(),
       command=st.sampled_from(["check", "check-json", "build", "build-strict"]))
def test_command_line_on_fuzzed_projects(files: dict[str, bytes], command: str) -> None:
    FUZZED["cli"] += 1
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"  # conftest's lean_project: every page, en and cs
        shutil.copytree(REPO / "content", root / "content")
        shutil.copytree(REPO / "locales" / "cs", root / "locales" / "cs")
        shutil.copyfile(REPO / "locales" / "messages.pot", root / "locales" / "messages.pot")
        for rel, data in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        out = Path(tmp) / "site"
        args = {"check": ["check"], "check-json": ["check", "--format", "json"],
                "build": ["build", "--out", str(out)],
                "build-strict": ["build", "--strict", "--out", str(out)]}[command]
        result = _run(*args, "--project", str(root))
        if (out / "sitemap.xml").exists():  # well-formed, whatever site_url held
            ElementTree.parse(out / "sitemap.xml")
    output = result.stdout + result.stderr
    assert result.returncode in (0, 1, 2), output
    assert "Traceback" not in output, output
    assert "the generator failed" not in output, output  # an internal error, caught
    if command == "check-json":
        report = json.loads(result.stdout)
        assert set(report) == {"cases", "disagreements", "errors", "status", "warnings"}
        assert (result.returncode == 2) == bool(report["errors"])
        for error in report["errors"]:
            assert set(error) == {"file", "line", "column", "message"}
            assert CLEAR.search(error["message"]), error
        return
    if result.returncode == 2:
        assert ERROR_LINE.search(result.stdout), output
        assert CLEAR.search(result.stdout), output
    elif result.returncode == 1 and command != "build-strict":
        assert DISAGREEMENT_LINE.search(result.stdout), output


# -- special files and hostile names (docs/site.md: inputs are the project's regular files) --

SECRET = "fuzz-secret-9d2e"
PLACES = ["content/{}.md", "content/examples/{}.yaml", "templates/{}.html",
          "templates/static/{}.css", "templates/root/{}", "locales/sk/LC_MESSAGES/messages.po",
          "site.yaml"]
KINDS_OF_FILE = ["fifo", "link-out", "link-out-folder", "link-loop", "link-nothing",
                 "link-git", "folder", "plain"]
NAMES = st.text(st.sampled_from("ab-z\n\r\t\x1b\x7f\x85é "), min_size=1, max_size=6)


def _plant(path: Path, kind: str, outside: Path, git: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(path):
        shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-out":
        path.symlink_to(outside / "secret.md")
    elif kind == "link-out-folder":
        path.symlink_to(outside, target_is_directory=True)
    elif kind == "link-loop":
        path.symlink_to(path.name)
    elif kind == "link-nothing":
        path.symlink_to(path.parent / "nothing-here")
    elif kind == "link-git":
        path.symlink_to(git)
    elif kind == "folder":
        path.mkdir()
    else:
        path.write_text("# Plain\n\nPlain text.\n", encoding="utf-8")


@fuzz("special_files")
@given(entries=st.lists(st.tuples(st.sampled_from(PLACES), st.sampled_from(KINDS_OF_FILE),
                                  NAMES), min_size=1, max_size=3))
def test_special_files_and_hostile_names(entries: list[tuple[str, str, str]]) -> None:
    """FIFOs, links out of the project (to a file, to a folder), loops, links to nothing
    or into .git/, folders where files belong, names with control characters: the
    project loads without hanging, every such entry is an input error at ``FILE:1``
    (its name printable on one line), nothing from outside is read."""
    FUZZED["special_files"] += 1
    with tempfile.TemporaryDirectory() as tmp:
        outside = Path(tmp) / "outside"
        outside.mkdir()
        (outside / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", encoding="utf-8")
        (outside / "secret.yaml").write_text(f"cases:\n  - id: {SECRET}\n", encoding="utf-8")
        root = Path(tmp) / "project"
        shutil.copytree(page_root(), root)
        git = root / ".git" / "config"
        git.parent.mkdir()
        git.write_text(SECRET, encoding="utf-8")
        planted: dict[str, str] = {}
        for place, kind, name in entries:
            rel = place.format(name.replace("/", "-"))
            if PurePosixPath(rel).name.startswith((".", "#")) or "{}" not in place:
                rel = place.format("x")
            _plant(root / rel, kind, outside, git)
            planted[rel] = kind
        with no_hang():
            project = load_project(root)
        assert_errors(project.errors)
        text = "\n".join(e.format() for e in project.errors)
        assert SECRET not in text
        assert all(SECRET not in str(page.messages) for page in project.pages)
        assert all(SECRET not in case.id for case in project.cases.cases)
        reported = {e.file for e in project.errors}
        for rel, kind in planted.items():
            # (a folder of case files may be named like one: tests/test_inputs.py)
            subfolder = kind == "folder" and rel.startswith(("templates/root/",
                                                              "templates/static/",
                                                              "content/examples/"))
            if rel != shown(rel) or not (kind == "plain" or subfolder):
                assert shown(rel) in reported, (rel, kind, text)
        assert project.exit_code == 2 or all(kind == "plain" or subfolder
                                             for kind in planted.values())


@functools.cache
def page_root() -> Path:
    """A small project (one page, one case file, English and Slovak) to plant files in."""
    from tests.test_i18n import _tiny

    root = Path(tempfile.mkdtemp(prefix="fuzz-special-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)  # one per test process
    return _tiny(root, "")
