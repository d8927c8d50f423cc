"""Work shared with a forked helper (generator.forks): the same results as doing it all
in one process, whatever happens to the helper; and the case files loaded that way."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import Any
from typing import TypeVar

import pytest

from generator import forks
from generator.cases import load_cases
from generator.cases import loader
from generator.commands.project import load_project
from generator.forks import shared_map
from tests.test_cases_loader import LOADER_FIXTURES
from tests.test_cases_loader import formatted
from tests.test_cases_loader import read_expected

L = TypeVar("L")

REPO = Path(__file__).resolve().parent.parent


def counted_forks(monkeypatch: pytest.MonkeyPatch,
                  in_the_helper: Callable[[], object] | None = None) -> list[int]:
    """The pids of the helpers forked from now on (``os.fork`` watched; ``in_the_helper``
    called in each right after the fork). The helper may be forked though the test's
    process runs another thread (pytest-xdist's: this test starts none)."""
    pids: list[int] = []
    fork = os.fork

    def watched() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        elif in_the_helper is not None:
            in_the_helper()
        return pid

    monkeypatch.setattr(forks.os, "fork", watched)
    monkeypatch.setattr(forks, "may_fork", lambda: True)
    return pids


def assert_gone(pids: list[int]) -> None:
    """Each pid was waited for: it is no child of this process any more."""
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def square_with_view(n: int) -> tuple[int, MappingProxyType[str, int], int]:
    return n * n, MappingProxyType({"n": n}), os.getpid()


def test_the_helper_does_every_item_while_this_process_is_busy_first(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pids = counted_forks(monkeypatch)

    def marked(n: int) -> tuple[int, MappingProxyType[str, int], int]:
        (tmp_path / str(n)).touch()
        return square_with_view(n)

    def first() -> None:  # until the helper has done all ten
        deadline = time.monotonic() + 30
        while len(list(tmp_path.iterdir())) < 10 and time.monotonic() < deadline:
            time.sleep(0.01)

    results = shared_map(marked, range(10), helped=True, first=first)
    assert [(n, dict(view)) for n, view, _pid in results] == [
        (n * n, {"n": n}) for n in range(10)]
    assert all(isinstance(view, MappingProxyType) for _n, view, _pid in results)
    assert len(pids) == 1
    assert {pid for _n, _view, pid in results} == set(pids)
    assert_gone(pids)


def test_this_process_takes_the_items_from_the_first_on_until_they_meet(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)

    def slow(n: int) -> tuple[int, MappingProxyType[str, int], int]:
        time.sleep(0.02)
        return square_with_view(n)

    results = shared_map(slow, range(20), helped=True)
    assert [n for n, _view, _pid in results] == [n * n for n in range(20)]
    made_by = ["here" if pid == os.getpid() else "helper" for _n, _view, pid in results]
    here = made_by.count("here")
    assert made_by == ["here"] * here + ["helper"] * (20 - here)
    assert 0 < here < 20
    assert_gone(pids)


def test_a_helper_that_cannot_be_forked_leaves_every_item_to_this_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forks.os, "fork", refused)
    monkeypatch.setattr(forks, "may_fork", lambda: True)
    order: list[str] = []
    assert shared_map(lambda n: order.append(str(n)) or n, range(3), helped=True,
                      first=lambda: order.append("first")) == [0, 1, 2]
    assert order == ["first", "0", "1", "2"]


def test_without_a_temporary_file_this_process_does_every_item(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> None:
        raise PermissionError(13, "Permission denied")

    pids = counted_forks(monkeypatch)
    monkeypatch.setattr(forks.tempfile, "TemporaryFile", refused)
    assert shared_map(lambda n: n + 1, range(3), helped=True) == [1, 2, 3]
    assert pids == []


def test_a_stopped_helper_holds_nothing_up(monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    started = time.monotonic()
    assert shared_map(stopping_in_the_helper(os.getpid()), range(8), helped=True) == [
        n + 1 for n in range(8)]
    assert time.monotonic() - started < 10
    assert len(pids) == 1
    assert_gone(pids)


def stopping_in_the_helper(parent: int) -> Callable[[int], int]:
    def work(n: int) -> int:
        if os.getpid() != parent and n == 6:  # its second item: one finished before
            os.kill(os.getpid(), signal.SIGSTOP)
        time.sleep(0.05)
        return n + 1

    return work


def test_a_signal_at_the_fork_waits_for_the_helpers_own_handling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that reaches the helper as it is forked is ignored there (the main
    process acts on its own copy): the helper does its items, never the main process's
    clean-ups."""
    pids = counted_forks(monkeypatch, in_the_helper=interrupted_at_birth)

    def slow(n: int) -> tuple[int, MappingProxyType[str, int], int]:
        time.sleep(0.02)
        return square_with_view(n)

    results = shared_map(slow, range(20), helped=True)
    assert [n for n, _view, _pid in results] == [n * n for n in range(20)]
    assert {pid for _n, _view, pid in results} == {os.getpid(), *pids}
    assert_gone(pids)


def interrupted_at_birth() -> None:
    """A Ctrl-C to the newly forked helper (whose main process would otherwise raise
    KeyboardInterrupt there and end at once, so that the test fails, not runs on)."""
    try:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # (where it would be raised)
    except KeyboardInterrupt:
        os._exit(3)


def test_no_helper_is_forked_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    fork = os.fork
    monkeypatch.setattr(forks.os, "fork", lambda: forked.append(1) or fork())
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert forks.may_fork() is False
        assert shared_map(lambda n: n * 2, range(4), helped=True) == [0, 2, 4, 6]
    finally:
        stop.set()
        other.join()
    assert forked == []


def test_a_helper_whose_main_process_died_stops(tmp_path: Path) -> None:
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN, encoding="utf-8")
    main = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            cwd=REPO, text=True)
    assert main.stdout is not None
    helper = int(main.stdout.readline())
    main.kill()
    main.wait()
    deadline = time.monotonic() + 5
    while _alive(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(helper)  # where it ran on, it had 100 items of 0.1 s left


ORPHAN = """
import os, sys, time
from generator import forks
fork = os.fork
def watched():
    pid = fork()
    if pid:
        print(pid, flush=True)
    return pid
forks.os.fork = watched
forks.may_fork = lambda: True
forks.shared_map(lambda n: time.sleep(0.1), range(200), helped=True,
                 first=lambda: time.sleep(60))
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (not gone, not a zombie waiting for its reaper)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return status.rpartition(")")[2].split()[0] != "Z"


def test_light_work_is_not_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    order: list[str] = []
    results = shared_map(lambda n: order.append(str(n)) or n, range(4), helped=False,
                         first=lambda: order.append("first"))
    assert results == [0, 1, 2, 3]
    assert order == ["first", "0", "1", "2", "3"] and pids == []


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
    first_calls: list[int] = []
    assert shared_map(fails_in_the_helper(how), range(6), helped=True,
                      first=lambda: first_calls.append(os.getpid())) == [1, 2, 3, 4, 5, 6]
    assert first_calls == [os.getpid()]
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
        shared_map(work, range(4), helped=True)
    with pytest.raises(ZeroDivisionError):
        shared_map(work, range(4), helped=True, first=lambda: 1 / 0)
    assert len(pids) == 2
    assert_gone(pids)


def alone_and_helped(load: Callable[[], L], monkeypatch: pytest.MonkeyPatch) -> tuple[L, L]:
    """What ``load`` gives as a small project's load does it (in this process alone),
    then with a helper forked for its case files (one, and waited for)."""
    alone = load()
    loader._MEMO.clear()
    monkeypatch.setattr(loader, "FORK_FROM_BYTES", 0)
    pids = counted_forks(monkeypatch)
    helped = load()
    assert len(pids) == 1
    assert_gone(pids)
    return alone, helped


@pytest.mark.parametrize("name", sorted(p.name for p in LOADER_FIXTURES.iterdir()
                                        if p.is_dir()))
def test_case_files_loaded_with_a_helper_give_the_same_cases_and_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    shutil.copytree(LOADER_FIXTURES / name, tmp_path / "content" / "examples")
    alone, shared = alone_and_helped(lambda: load_cases(tmp_path), monkeypatch)
    assert shared == alone
    expected = read_expected(LOADER_FIXTURES / f"{name}.expected")
    assert formatted(shared) == expected["errors"]
    if "loaded" in expected:
        assert [f"{c.id} {c.game}" for c in shared.cases] == expected["loaded"]


@pytest.mark.parametrize("broken", ["content/melds.md", "locales/cs/LC_MESSAGES/messages.po"])
def test_a_project_loaded_with_a_helper_reports_its_errors_in_the_same_order(
        init_project: Path, monkeypatch: pytest.MonkeyPatch, broken: str) -> None:
    """The pages, catalogs and ``site.yaml`` load while the helper parses the case
    files: every error and warning is where a load without the helper puts it."""
    examples = init_project / "content" / "examples"
    if broken.endswith(".po"):  # (a page's unknown id is not said beside a bad case file)
        (examples / "more.yaml").write_text(
            "cases:\n  - id: bad\n    kind: meld\n    game: rami51\n    title: Bad\n"
            "    cards: QH KH XX\n    expect: {valid: true}\n", encoding="utf-8")
    (examples / "unshown.yaml").write_text(
        (examples / "melds.yaml").read_text(encoding="utf-8").replace("id: ", "id: other-"),
        encoding="utf-8")
    path = init_project / broken
    path.write_text(path.read_text(encoding="utf-8") + (
        "\n```cases\nno-such-case\n```\n" if broken.endswith(".md") else '\nmsgid "x\n'),
        encoding="utf-8")
    alone, shared = alone_and_helped(lambda: load_project(init_project), monkeypatch)
    assert [e.format() for e in shared.errors] == [e.format() for e in alone.errors]
    assert [w.format() for w in shared.warnings] == [w.format() for w in alone.warnings]
    assert shared.cases == alone.cases
    assert shared.translators.keys() == alone.translators.keys() == {"en", "cs"}
    assert {e.file for e in shared.errors} == {broken} | (
        {"content/examples/more.yaml"} if broken.endswith(".po") else set())
    assert len(shared.warnings) == 3  # the three cases of unshown.yaml


def ended(pid: int) -> bool:
    """Whether the child ``pid`` has ended (a zombie, not yet waited for)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.01)
    return False


def test_a_started_value_is_the_helpers_once_it_has_finished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    started = forks.start(lambda: square_with_view(7))
    assert len(pids) == 1 and ended(pids[0])
    n, view, made_by = started.result()
    assert (n, dict(view), made_by) == (49, {"n": 7}, pids[0])
    assert isinstance(view, MappingProxyType)
    assert_gone(pids)


def test_a_started_value_the_helper_has_not_finished_is_made_here(
        monkeypatch: pytest.MonkeyPatch) -> None:
    here = os.getpid()

    def slow_in_the_helper() -> int:
        if os.getpid() != here:
            time.sleep(30)
        return os.getpid()

    pids = counted_forks(monkeypatch)
    began = time.monotonic()
    started = forks.start(slow_in_the_helper)
    assert started.result() == here
    assert time.monotonic() - began < 10
    assert len(pids) == 1
    assert_gone(pids)


@pytest.mark.parametrize("how", ["raises", "killed", "unpicklable"])
def test_a_started_value_whose_helper_failed_is_made_here(
        monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    pids = counted_forks(monkeypatch)
    work = fails_in_the_helper(how)
    started = forks.start(lambda: work(1))
    assert len(pids) == 1 and ended(pids[0])
    assert started.result() == 2
    assert_gone(pids)


def test_a_started_value_is_made_here_where_no_helper_may_be_forked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    monkeypatch.setattr(forks.os, "fork", lambda: forked.append(1) or -1)
    monkeypatch.setattr(forks, "may_fork", lambda: False)
    assert forks.start(os.getpid).result() == os.getpid()
    monkeypatch.setattr(forks, "may_fork", lambda: True)
    assert forks.start(os.getpid, helped=False).result() == os.getpid()

    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forks.os, "fork", refused)
    assert forks.start(os.getpid).result() == os.getpid()
    assert forked == []


def test_a_closed_start_stops_its_helper_and_still_makes_the_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    here = os.getpid()
    pids = counted_forks(monkeypatch)
    started = forks.start(lambda: time.sleep(30) if os.getpid() != here else 5)
    began = time.monotonic()
    started.close()
    started.close()
    assert time.monotonic() - began < 10
    assert_gone(pids)
    assert started.result() == 5


def test_an_error_of_a_started_value_made_here_is_raised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)

    def failing() -> int:
        raise ValueError("no value")

    started = forks.start(failing)
    with pytest.raises(ValueError, match="no value"):
        started.result()
    assert_gone(pids)


def interrupted_as_signals_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C held back across a helper's fork, raised as the signals are first let
    through again in this process (where Python runs a pending handler)."""
    mask = forks.signal.pthread_sigmask  # (the signal module's: patched for its callers)
    here = os.getpid()
    raised: list[bool] = []

    def let_through(how: int, signals: Any) -> Any:
        before = mask(how, signals)
        if how == signal.SIG_SETMASK and os.getpid() == here and not raised:
            raised.append(True)
            raise KeyboardInterrupt
        return before

    monkeypatch.setattr(forks.signal, "pthread_sigmask", let_through)


def test_a_ctrl_c_held_across_a_starts_fork_stops_its_helper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pids = counted_forks(monkeypatch)
    interrupted_as_signals_come_back(monkeypatch)
    held: list[forks.Started[Any]] = []
    with pytest.raises(KeyboardInterrupt):
        forks.start(lambda: time.sleep(30), held=held)
    assert len(pids) == 1 and len(held) == 1
    assert_gone(pids)


def test_a_build_interrupted_as_its_runtime_helper_starts_leaves_no_process(
        lean_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.commands.build import build
    from generator.render import checker_files

    monkeypatch.setattr(checker_files, "_RUNTIMES", {})  # packed by a helper: none kept
    pids = counted_forks(monkeypatch)
    interrupted_as_signals_come_back(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        build(lean_project, lean_project / "site", cache=False)
    assert len(pids) == 1
    assert_gone(pids)
    assert not (lean_project / "site").exists()
