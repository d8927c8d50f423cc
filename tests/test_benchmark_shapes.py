"""The benchmarks' realistic site shape (``benchmarks/scaling.py``): every copy of a page
with cases of its own, their ids its own and their cards' suits swapped, and the scaled
project as valid as the original."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import run_cli

sys.path.insert(0, str(REPO / "benchmarks"))

from scaling import own_cases
from scaling import scale_project

PAGE = "# Melds\n\n```cases\nqka\n# a comment\nset\n```\n\nText.\n\n```cases\nqka\n```\n"
CASES = {
    "qka": {"id": "qka", "kind": "meld", "game": "rami51", "title": "QH KH AH",
            "cards": "QH KH AH", "expect": {"verdict": "valid", "points": 31}},
    "set": {"id": "set", "kind": "meld", "game": "rami51", "title": "Tens",
            "cards": ["10S", "10H", "10D"], "expect": {"verdict": "valid", "points": 30}},
}


def test_a_copy_shows_cases_of_its_own_with_its_suits() -> None:
    text, made = own_cases(PAGE, "melds", 3, CASES)
    assert text.count("qka--melds-3") == 2
    assert "set--melds-3" in text and "# a comment" in text
    assert [c["id"] for c in made] == ["qka--melds-3", "set--melds-3"]
    qka, tens = made
    assert qka["title"] == "QH KH AH"  # text fields are left as they are
    swapped = [c[-1] for c in tens["cards"]]  # the images of S, H and D
    assert len(set(swapped)) == 3 and swapped != ["S", "H", "D"]  # never the same order
    assert [c[:-1] for c in tens["cards"]] == ["10", "10", "10"]
    hearts = swapped[1]
    assert qka["cards"] == f"Q{hearts} K{hearts} A{hearts}"  # one swap for the whole copy
    assert qka["expect"] == {"verdict": "valid", "points": 31}
    again, _ = own_cases(PAGE, "melds", 3, CASES)
    assert again == text and own_cases(PAGE, "melds", 3, CASES)[1] == made
    other = own_cases(PAGE, "melds", 4, CASES)[1]
    assert other[0]["id"] == "qka--melds-4"


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "a scaled project, check --fix and check, about 10 s")
def test_the_scaled_project_with_cases_of_its_own_checks(tmp_path: Path) -> None:
    """A 100-page project with cases of its own per copy: every id is one case's, every
    copy's page names its own, and ``check`` finds every documented value agreeing."""
    project = tmp_path / "project"
    copies = scale_project(project, 100, distinct_cases=True)
    assert copies == 4
    ids: list[str] = []
    for path in sorted((project / "content" / "examples").glob("*.yaml")):
        ids += [c["id"] for c in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]]
    assert len(ids) == len(set(ids))
    assert any(i.endswith("--rules-3") for i in ids)
    assert "three-kings--rules-2" in (project / "content" / "rules-2.md").read_text(
        encoding="utf-8")
    checked = run_cli("check", "--project", str(project))
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize(("said", "expected"), [
    ("568 cases checked; built 258 files (258 of them from the cache) in 0.04 s", None),
    ("568 cases checked; built 258 files (84 of them from the cache) in 2.1 s",
     "84 of 258 files from the cache"),
    ("568 cases checked; built 258 files in 4.26 s", "0 of 258 files from the cache"),
    ("error: content/rules.md:3: ...", "no line 'built N files' in its output"),
])
def test_a_build_that_missed_the_cache_is_told(said: str, expected: str | None) -> None:
    from compare_hugo import cache_missed

    assert cache_missed(said) == expected


def test_the_benchmark_runs_a_copy_of_the_generator(tmp_path: Path) -> None:
    from compare_hugo import snapshot

    code = snapshot(tmp_path)
    assert (code / "generator" / "engine" / "melds.py").read_bytes() == \
        (REPO / "generator" / "engine" / "melds.py").read_bytes()
    engine = code / "generator" / "engine"  # compiled there, as pip compiles a package
    assert sorted(p.name.split(".")[0] for p in (engine / "__pycache__").glob("*.pyc")) \
        == sorted(p.stem for p in engine.glob("*.py"))


def test_a_build_s_memory_is_its_own_not_the_benchmark_s(tmp_path: Path) -> None:
    """The memory round reads the child's process tree alone: a small child started by a
    benchmark that holds 300 MB shows a few MB (its ``wait4`` peak is at least the
    benchmark's own, kept across ``execve``), a child that holds 200 MB shows them."""
    from compare_hugo import run_timed

    held = b"x" * (300 << 20)  # touched: resident in this process
    small = run_timed([sys.executable, "-c", "pass"], tmp_path, {}, tmp_path / "log",
                      sampled=True)
    large = run_timed([sys.executable, "-c",
                       "import time; b = b'x' * (200 << 20); time.sleep(0.2)"],
                      tmp_path, {}, tmp_path / "log", sampled=True)
    del held
    assert 1 < small.peak_mb < 60
    assert 195 < large.peak_mb < 260
