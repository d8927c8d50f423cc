"""Loading the case files again in one process (``serve``; generator/cases/loader.py,
``_MEMO``): a file whose bytes did not change is not parsed again, yet every load gives
what a fresh load gives: the same cases, the same errors (an error in an unchanged file
on every load, ids unique across the files whichever file changed)."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generator.cases import CaseSet
from generator.cases import load_cases
from generator.cases import loader
from generator.commands.build import build
from generator.engine.rules import rami_variant
from generator.engine.rules import register_game
from generator.engine.rules import unregister_game
from tests.conftest import REPO

CASE = """\
  - id: {id}
    kind: meld
    game: rami51
    cards: {cards}
    title: {title}
    expect:
      verdict: valid
"""


def _file(*cases: tuple[str, str, str]) -> str:
    """A case file of meld cases ``(id, cards, title)``."""
    return "cases:\n" + "".join(CASE.format(id=i, cards=c, title=t) for i, c, t in cases)


def _write(root: Path, name: str, text: str) -> None:
    path = root / "content" / "examples" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The files each load parses (the memo emptied first, and again after)."""
    loader._MEMO.clear()
    calls: list[str] = []
    real = loader._load_file

    def counted(data: bytes, rel: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(rel)
        return real(data, rel, *args, **kwargs)

    monkeypatch.setattr(loader, "_load_file", counted)
    yield calls
    loader._MEMO.clear()


def _fresh(root: Path, parsed: list[str]) -> CaseSet:
    """What a load in a new process gives: a load with nothing kept (what the memo
    holds, and the files it parsed, left as they were)."""
    kept, count = loader._MEMO, len(parsed)
    loader._MEMO = loader._Memo(0)
    try:
        return load_cases(root)
    finally:
        loader._MEMO = kept
        del parsed[count:]


def _formatted(cases: CaseSet) -> list[str]:
    return [e.format() for e in cases.errors]


def test_only_the_changed_file_is_parsed_again(tmp_path: Path, parsed: list[str]) -> None:
    _write(tmp_path, "a.yaml", _file(("a1", "QH KH AH", "One"), ("a2", "2S 3S 4S", "Two")))
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings")))
    first = load_cases(tmp_path)
    assert parsed == ["content/examples/a.yaml", "content/examples/b.yaml"]
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings again")))
    parsed.clear()
    second = load_cases(tmp_path)
    assert parsed == ["content/examples/b.yaml"]
    assert second == _fresh(tmp_path, parsed)
    assert second.by_id["b1"].title == "Three kings again"
    # the unchanged file's cases are the very objects of the first load (their digests
    # are computed once per process)
    assert second.get("a1") is first.get("a1")
    parsed.clear()
    assert load_cases(tmp_path) == second
    assert parsed == []


def test_the_repositorys_cases_load_again_as_a_fresh_load(tmp_path: Path,
                                                          parsed: list[str]) -> None:
    fresh = load_cases(REPO)
    assert len(parsed) == len(fresh.files) > 1
    parsed.clear()
    again = load_cases(REPO)
    assert parsed == []
    assert again == fresh
    assert [c.digest for c in again.cases] == [c.digest for c in fresh.cases]


def test_an_error_in_an_unchanged_file_is_reported_on_every_load(
        tmp_path: Path, parsed: list[str]) -> None:
    _write(tmp_path, "a.yaml", _file(("a1", "QH KX AH", "A bad card"), ("a2", "2S 3S 4S", "Ok")))
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings")))
    error = ("content/examples/a.yaml:5:15: unknown card 'KX' (bad suit); expected a rank "
             "(A 2-10 J Q K, T for 10) and a suit (C D H S or ♣ ♦ ♥ ♠), or JK")
    assert _formatted(load_cases(tmp_path)) == [error]
    for title in ("Again", "And again"):
        _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", title)))
        parsed.clear()
        again = load_cases(tmp_path)
        assert parsed == ["content/examples/b.yaml"]
        assert _formatted(again) == [error]
        assert [c.id for c in again.cases] == ["a2", "b1"]
        assert again == _fresh(tmp_path, parsed)
    # fixed: read again, and the case is back
    _write(tmp_path, "a.yaml", _file(("a1", "QH KH AH", "A bad card"), ("a2", "2S 3S 4S", "Ok")))
    parsed.clear()
    fixed = load_cases(tmp_path)
    assert parsed == ["content/examples/a.yaml"]
    assert (fixed.errors, [c.id for c in fixed.cases]) == ((), ["a1", "a2", "b1"])


def test_a_file_that_is_not_yaml_stays_an_error_until_fixed(tmp_path: Path,
                                                            parsed: list[str]) -> None:
    _write(tmp_path, "a.yaml", "cases: [\n")
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings")))
    first = _formatted(load_cases(tmp_path))
    assert len(first) == 1 and first[0].startswith("content/examples/a.yaml:2:1: YAML syntax")
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings again")))
    assert _formatted(load_cases(tmp_path)) == first
    _write(tmp_path, "a.yaml", _file(("a1", "QH KH AH", "One")))
    assert load_cases(tmp_path).errors == ()


def test_ids_are_unique_across_files_whichever_file_changed(tmp_path: Path,
                                                            parsed: list[str]) -> None:
    """b.yaml repeats an id of a.yaml: its case is dropped while a.yaml defines the id,
    and back as soon as a.yaml no longer does, though b.yaml itself never changed (and
    is not parsed again)."""
    _write(tmp_path, "a.yaml", _file(("same", "QH KH AH", "In a")))
    _write(tmp_path, "b.yaml", _file(("same", "KH KS KD", "In b"), ("b2", "2S 3S 4S", "Two")))
    duplicate = ("content/examples/b.yaml:2:9: duplicate case id 'same' (first defined at "
                 "content/examples/a.yaml:2:9); expected ids unique across all case files")
    first = load_cases(tmp_path)
    assert (_formatted(first), [c.title for c in first.cases]) == ([duplicate],
                                                                   ["In a", "Two"])
    _write(tmp_path, "a.yaml", _file(("other", "QH KH AH", "In a")))
    parsed.clear()
    renamed = load_cases(tmp_path)
    assert parsed == ["content/examples/a.yaml"]
    assert (renamed.errors, [c.title for c in renamed.cases]) == ((), ["In a", "In b", "Two"])
    assert renamed == _fresh(tmp_path, parsed)
    # and a.yaml takes the id again: b.yaml's case (unchanged, not parsed) is dropped
    _write(tmp_path, "a.yaml", "\n" + _file(("same", "QH KH AH", "In a")))
    parsed.clear()
    again = load_cases(tmp_path)
    assert parsed == ["content/examples/a.yaml"]
    assert _formatted(again) == [duplicate.replace("a.yaml:2:9", "a.yaml:3:9")]
    assert [c.title for c in again.cases] == ["In a", "Two"]
    assert again == _fresh(tmp_path, parsed)


def test_a_duplicate_in_a_later_file_names_the_first_file_each_time(
        tmp_path: Path, parsed: list[str]) -> None:
    """Two cases of b.yaml repeat a.yaml's id: both are reported against a.yaml's (not
    the second against the first of b.yaml), on every load."""
    _write(tmp_path, "a.yaml", _file(("x", "QH KH AH", "A")))
    _write(tmp_path, "b.yaml", _file(("x", "KH KS KD", "B1"), ("x", "2S 3S 4S", "B2")))
    expected = [f"content/examples/b.yaml:{line}:9: duplicate case id 'x' (first defined at "
                "content/examples/a.yaml:2:9); expected ids unique across all case files"
                for line in (2, 9)]
    assert _formatted(load_cases(tmp_path)) == expected
    _write(tmp_path, "a.yaml", _file(("x", "QH KH AH", "A changed")))
    assert _formatted(load_cases(tmp_path)) == expected
    assert [c.title for c in load_cases(tmp_path).cases] == ["A changed"]


def test_what_is_kept_is_bounded(tmp_path: Path, parsed: list[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo keeps the files of the last load first, then those of the loads before
    it, newest first, as many as fit in its limit: a file too large for what is left is
    parsed on every load, still correctly; another project's load keeps this one's files
    while there is room, and pushes them out when there is none."""
    _write(tmp_path, "a.yaml", _file(("a1", "QH KH AH", "One")))
    _write(tmp_path, "b.yaml", _file(("b1", "KH KS KD", "Three kings")))
    size = (tmp_path / "content" / "examples" / "a.yaml").stat().st_size
    monkeypatch.setattr(loader._MEMO, "limit", size)
    first = load_cases(tmp_path)
    parsed.clear()
    assert load_cases(tmp_path) == first
    assert parsed == ["content/examples/b.yaml"]
    other = tmp_path / "other"
    _write(other, "c.yaml", _file(("c1", "2S 3S 4S", "Two")))
    load_cases(other)  # the same size as a.yaml: no room left for it
    parsed.clear()
    assert load_cases(tmp_path) == first
    assert parsed == ["content/examples/a.yaml", "content/examples/b.yaml"]
    every = sum(f.stat().st_size for f in tmp_path.rglob("*.yaml"))  # a, b and c
    monkeypatch.setattr(loader._MEMO, "limit", every)
    load_cases(tmp_path)  # both kept
    load_cases(other)  # c.yaml first, then both of the load before
    parsed.clear()
    assert load_cases(tmp_path) == first
    assert load_cases(other).cases[0].id == "c1"
    assert parsed == []


def test_builds_in_one_process_report_an_unchanged_files_error_each_time(
        tmp_path: Path, parsed: list[str]) -> None:
    """As ``serve`` builds: a case file with an error fails every build until it is
    fixed, while other files change; the lines are those of a fresh process's load."""
    root = tmp_path / "project"
    (root / "content").mkdir(parents=True)
    (root / "content" / "runs.md").write_text("# Runs\n\n```cases\nb1\n```\n",
                                              encoding="utf-8")
    _write(root, "a.yaml", _file(("a1", "QH KH AH", "One")).replace("rami51", "rami52"))
    _write(root, "b.yaml", _file(("b1", "KH KS KD", "Three kings")))
    first = build(root)
    assert first.exit_code == 2
    assert any(line.startswith("content/examples/a.yaml:4:11: ") for line in first.lines)
    for title in ("Again", "And again"):
        _write(root, "b.yaml", _file(("b1", "KH KS KD", title)))
        parsed.clear()
        again = build(root)
        assert parsed == ["content/examples/b.yaml"]
        assert (again.exit_code, again.lines) == (first.exit_code, first.lines)
    _write(root, "a.yaml", _file(("a1", "QH KH AH", "One")))
    assert build(root).exit_code == 0


def test_an_equal_case_is_run_through_the_engine_once_and_each_gets_its_own_result(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify_case`` keeps the results of the cases it verified: an equal case loaded
    again (another copy of the project, the memo of files emptied) is not run through
    the engine again, and its result, disagreements too, is about it; a case that
    differs in anything, its line too, is run again, and every case once a game is
    registered; only the last ``MEMO_CASES`` are kept."""
    from generator import verify

    monkeypatch.setattr(verify, "_RESULTS", verify.OrderedDict())
    runs: list[str] = []
    real = verify._verified

    def counted(case: Any) -> Any:
        runs.append(case.id)
        return real(case)

    monkeypatch.setattr(verify, "_verified", counted)
    text = _file(("a1", "QH KH AH", "One"), ("a2", "2S 3S 4S", "Two")).replace(
        "verdict: valid", "verdict: invalid", 1)
    for copy in ("one", "two"):
        _write(tmp_path / copy, "a.yaml", text)
    loader._MEMO.clear()
    first = load_cases(tmp_path / "one").cases
    loader._MEMO.clear()
    second = load_cases(tmp_path / "two").cases
    assert first == second and first[0] is not second[0]
    results = [verify.verify_case(c) for c in (*first, *second)]
    assert runs == ["a1", "a2"]
    for case, result in zip((*first, *second), results, strict=True):
        assert result.case is case
        assert all(d.case is case for d in result.disagreements)
    assert [(d.field, d.documented, d.engine, str(d.position)) for d in results[2].disagreements
            ] == [("verdict", "invalid", "valid", "content/examples/a.yaml:8:7")]
    assert results[2].values == results[0].values
    _write(tmp_path / "two", "a.yaml", "\n" + text)  # every line one lower
    loader._MEMO.clear()
    verify.verify_all(load_cases(tmp_path / "two").cases)
    assert runs == ["a1", "a2", "a1", "a2"]
    spec = rami_variant("rami70", "Rami 70", opening_threshold=70,
                        opening_needs_pure_run=False)
    register_game(spec)  # another registry of games: what was verified is forgotten
    try:
        verify.verify_case(first[0])
    finally:
        unregister_game(spec.id)
    assert runs == ["a1", "a2", "a1", "a2", "a1"]
    monkeypatch.setattr(verify, "MEMO_CASES", 2)
    _write(tmp_path / "two", "a.yaml", "\n\n" + text)
    loader._MEMO.clear()
    last = load_cases(tmp_path / "two").cases
    verify.verify_all(last)
    assert list(verify._RESULTS) == list(last)
    loader._MEMO.clear()
