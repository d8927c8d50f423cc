"""The output folder: atomic swap, killed and concurrent builds, files we did not write."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.output import MARKER
from generator.output import OutputError
from generator.output import SiteWriter
from generator.output import write_site
from tests.conftest import REPO
from tests.conftest import run_cli


def _digest(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in site.rglob("*") if p.is_file()}


def _listed(site: Path) -> set[str]:
    return set((site / MARKER).read_text("utf-8").splitlines()[1:])


def test_marker_lists_every_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(out, {"index.html": b"a", "en/index.html": b"b"})
    assert _listed(out) == {"index.html", "en/index.html"}
    assert set(_digest(out)) == {"index.html", "en/index.html", MARKER}


def test_files_we_did_not_write_are_refused_not_deleted(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(out, {"index.html": b"a"})
    (out / "CNAME").write_text("rules.example.org", encoding="utf-8")
    with pytest.raises(OutputError, match=r"holds files this generator did not write \(CNAME\)"):
        write_site(out, {"index.html": b"b"})
    assert (out / "CNAME").read_text("utf-8") == "rules.example.org"
    assert (out / "index.html").read_bytes() == b"a"


def test_a_killed_builds_leftovers_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "site"
    stale = tmp_path / ".site.new-99999"
    stale.mkdir()
    (stale / MARKER).write_text("x", encoding="utf-8")
    (stale / "half.html").write_text("x", encoding="utf-8")
    foreign = tmp_path / ".site.new-12345"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep", encoding="utf-8")
    write_site(out, {"index.html": b"a"})
    assert not stale.exists()
    assert (foreign / "mine.txt").exists()  # not ours: no marker


def test_abort_leaves_the_previous_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old"})
    writer = SiteWriter(out)
    writer.write({"index.html": b"new"})
    writer.abort()
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site.new")) == []


def test_concurrent_builds_leave_a_whole_site(project: Path) -> None:
    for _ in range(3):
        procs = [subprocess.Popen([sys.executable, "-m", "generator", "build", "--project",
                                   str(project)], cwd=REPO, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE) for _ in range(2)]
        codes = [p.wait(timeout=120) for p in procs]
        for p in procs:
            assert p.stdout is not None and p.stderr is not None
            p.stdout.close()
            p.stderr.close()
        assert codes == [0, 0]
        site = project / "site"
        assert set(_digest(site)) == _listed(site) | {MARKER}
        assert (site / "cs" / "rules" / "index.html").is_file()
    assert not list(project.glob(".site.new-*")) and not list(project.glob(".site.old-*"))


def test_a_build_killed_at_any_moment_leaves_a_whole_site(project: Path) -> None:
    assert run_cli("build", "--project", str(project)).returncode == 0
    old = _digest(project / "site")
    page = project / "content" / "rules.md"
    page.write_text(page.read_text("utf-8").replace("## In brief", "## In short"),
                    encoding="utf-8")
    assert run_cli("build", "--project", str(project), "--out",
                   str(project.parent / "expected")).returncode == 0
    new = _digest(project.parent / "expected")
    assert new != old
    seen = set()
    for delay in (0.05, 0.15, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8):
        proc = subprocess.Popen([sys.executable, "-m", "generator", "build", "--project",
                                 str(project)], cwd=REPO, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
        now = _digest(project / "site")
        assert now in (old, new), f"half a site after {delay} s"
        seen.add("new" if now == new else "old")
    assert run_cli("build", "--project", str(project)).returncode == 0
    assert _digest(project / "site") == new
    assert not list(project.glob(".site.new-*")) and not list(project.glob(".site.old-*"))
