"""Work shared with a forked helper (generator.forks): the same results as doing it all
in one process, whatever happens to the helper; and the case files loaded that way."""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from generator import forks
from generator.cases import load_cases
from generator.cases import loader
from generator.forks import shared_map
from generator.forks import split_at
from tests.test_cases_loader import LOADER_FIXTURES
from tests.test_cases_loader import formatted
from tests.test_cases_loader import read_expected

PARENT = os.getpid()


def counted_forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the helpers forked from now on (``os.fork`` watched)."""
    pids: list[int] = []
    fork = os.fork

    def watched() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(forks.os, "fork", watched)
    return pids


def assert_gone(pids: list[int]) -> None:
    """Each pid was waited for: it is no child of this process any more."""
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def square_with_view(n: int) -> tuple[int, MappingProxyType[str, int], int]:
    return n * n, MappingProxyType({"n": n}), os.getpid()


@pytest.mark.parametrize(("weights", "at"), [
    ([], 0), ([5], 0), ([1, 1], 1), ([1, 1, 1, 1], 2), ([10, 1, 1, 1], 1),
    ([1, 1, 1, 10], 3), ([3, 3, 3, 3, 3, 3, 3, 3, 3, 3], 5), ([0, 0, 0], 2)])
def test_the_helper_is_given_a_little_under_half_the_weight(weights: list[int], at: int
                                                            ) -> None:
    assert split_at(weights) == at


def test_the_results_are_the_items_in_order_half_of_them_made_by_the_helper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    results = shared_map(square_with_view, range(10), [1] * 10, fork_from=0)
    assert [(n, dict(view)) for n, view, _pid in results] == [
        (n * n, {"n": n}) for n in range(10)]
    assert all(isinstance(view, MappingProxyType) for _n, view, _pid in results)
    assert [pid == os.getpid() for _n, _view, pid in results] == [True] * 5 + [False] * 5
    assert {pid for _n, _view, pid in results[5:]} == set(pids) and len(pids) == 1
    assert_gone(pids)


def test_light_work_is_not_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    results = shared_map(square_with_view, range(4), [10] * 4, fork_from=41)
    assert [n for n, _view, _pid in results] == [0, 1, 4, 9]
    assert {pid for _n, _view, pid in results} == {os.getpid()} and pids == []


def fails_in_the_helper(how: str) -> Callable[[int], Any]:
    parent = os.getpid()

    def failing_in_the_helper(n: int) -> Any:
        if os.getpid() != parent:
            if how == "raises":
                raise ValueError(n)
            if how == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            if how == "unpicklable":
                return lambda: n
        return n + 1

    return failing_in_the_helper


@pytest.mark.parametrize("how", ["raises", "killed", "unpicklable"])
def test_a_failed_helper_leaves_its_items_to_this_process(
        monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    pids = counted_forks(monkeypatch)
    assert shared_map(fails_in_the_helper(how), range(6), [1] * 6, fork_from=0) == [
        1, 2, 3, 4, 5, 6]
    assert len(pids) == 1
    assert_gone(pids)


def test_an_error_here_stops_the_helper_and_is_raised(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    pids = counted_forks(monkeypatch)
    parent = os.getpid()

    def work(n: int) -> int:
        if os.getpid() == parent:
            raise KeyError(n)
        signal.pause()  # the helper waits for ever: only its kill ends it
        return n

    with pytest.raises(KeyError):
        shared_map(work, range(4), [1] * 4, fork_from=0)
    assert len(pids) == 1
    assert_gone(pids)


@pytest.mark.parametrize("name", sorted(p.name for p in LOADER_FIXTURES.iterdir()
                                        if p.is_dir()))
def test_case_files_loaded_with_a_helper_give_the_same_cases_and_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    shutil.copytree(LOADER_FIXTURES / name, tmp_path / "content" / "examples")
    alone = load_cases(tmp_path)
    loader._MEMO.clear()
    monkeypatch.setattr(loader, "FORK_FROM_BYTES", 0)
    pids = counted_forks(monkeypatch)
    shared = load_cases(tmp_path)
    assert len(pids) == 1
    assert shared == alone
    expected = read_expected(LOADER_FIXTURES / f"{name}.expected")
    assert formatted(shared) == expected["errors"]
    if "loaded" in expected:
        assert [f"{c.id} {c.game}" for c in shared.cases] == expected["loaded"]
