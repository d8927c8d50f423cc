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
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import in_child
from tests.conftest import run_cli

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of the swap, kills and concurrent builds need."""


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


def test_what_we_did_not_write_is_named_at_any_depth(tmp_path: Path) -> None:
    """Folders and files below the top are told apart from the site's own: a folder
    that holds a listed file is the site's, an empty one or a file it does not list is
    named, in the walk's order."""
    out = tmp_path / "site"
    site = {"index.html": b"a", "en/rules/index.html": b"b", "en/a/b/c/d.html": b"c"}
    write_site(out, site)
    write_site(out, site)  # every folder the site's own: replaced
    assert _listed(out) == set(site)
    (out / "en" / "rules" / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "en" / "drafts").mkdir()
    (out / "en" / "a" / "b" / "x").mkdir()
    with pytest.raises(OutputError, match=r"did not write \(en/drafts, en/a/b/x, "
                                          r"en/rules/notes.txt\)"):
        write_site(out, site)
    assert (out / "en" / "rules" / "notes.txt").read_text("utf-8") == "mine"


def test_a_foreign_name_is_shown_on_one_line(tmp_path: Path) -> None:
    """A file we did not write whose name holds a newline or bytes that are not UTF-8 is
    named escaped, so that the message stays one line (not printed raw)."""
    out = tmp_path / "site"
    write_site(out, {"index.html": b"a"})
    (out / "notes\nTODO.txt").write_text("mine", encoding="utf-8")
    (out / os.fsdecode(b"bad\xff.txt")).write_text("mine", encoding="utf-8")
    with pytest.raises(OutputError) as caught:
        write_site(out, {"index.html": b"b"})
    assert "\n" not in str(caught.value)
    assert "(bad\\xff.txt, notes\\nTODO.txt)" in str(caught.value)
    assert (out / "notes\nTODO.txt").read_text("utf-8") == "mine"


KILLED_WHILE_WRITING = """
import os, signal, sys
from pathlib import Path
from generator.output import SiteWriter
writer = SiteWriter(Path(sys.argv[1]))
writer.write({"half.html": b"x"})
os.kill(os.getpid(), signal.SIGKILL)
"""


def _killed_while_writing(out: Path) -> Path:
    """What a build of ``out`` killed outright while it writes leaves: its folder."""
    proc = subprocess.run([sys.executable, "-c", KILLED_WHILE_WRITING, str(out)], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    [left] = out.parent.glob(f".{out.name}.new-*")
    assert (left / "half.html").read_bytes() == b"x"
    return left


def test_a_killed_builds_leftovers_are_removed_and_nothing_else(tmp_path: Path) -> None:
    """The next build removes what a killed build left beside the output (its pid is in
    the lock file's record); a complete site built with ``--out .site.new-99999`` (only
    named like a leftover) and a folder with somebody's file stay."""
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old"})
    left = _killed_while_writing(out)
    named_alike = tmp_path / ".site.new-99999"
    write_site(named_alike, {"index.html": b"mine"})
    foreign = tmp_path / ".site.new-12345"
    foreign.mkdir()
    (foreign / "mine.txt").write_text("keep", encoding="utf-8")
    write_site(out, {"index.html": b"a"})
    assert not left.exists()
    assert (named_alike / "index.html").read_bytes() == b"mine"
    assert _listed(named_alike) == {"index.html"}
    assert (foreign / "mine.txt").read_text("utf-8") == "keep"
    assert (tmp_path / ".site.lock").read_text("ascii") == ""  # nothing left to remove
    write_site(out, {"index.html": b"b"})
    assert (named_alike / "index.html").read_bytes() == b"mine"


def test_a_site_named_like_a_leftover_survives_the_next_build(lean_project: Path) -> None:
    """``build --out PROJECT/.site.new-99999`` and then a build of ``site/``: both sites
    stay (the second took the first for a killed build's leftover and removed it)."""
    from generator.commands.build import build

    first = lean_project / ".site.new-99999"
    assert build(lean_project, first).exit_code == 0
    before = _digest(first)
    assert build(lean_project).exit_code == 0
    assert (lean_project / "site" / "index.html").is_file()
    assert _digest(first) == before


def test_abort_leaves_the_previous_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old"})
    writer = SiteWriter(out)
    writer.write({"index.html": b"new"})
    writer.abort()
    assert (out / "index.html").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site.new")) == []


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_aborting_comes_after_the_fresh_folder_is_gone(
        tmp_path: Path, number: int) -> None:
    """A second Ctrl-C while a build removes its half-written site would cut the
    removal short and leave ``.site.new-N``. The signal comes once the folder is gone:
    the same interruption, nothing left behind. (In a
    child process: :func:`tests.conftest.in_child`.)"""
    import generator.output as output
    from generator.errors import Interrupted

    def body() -> None:
        out = tmp_path / "site"
        write_site(out, {"index.html": b"old"})
        writer = SiteWriter(out)
        writer.write({f"{n}/index.html": b"new" for n in range(50)})
        remove = output.remove_site_folder

        def signalled(folder: Path) -> None:
            os.kill(os.getpid(), number)  # as the removal starts
            remove(folder)

        output.remove_site_folder = signalled
        signal.signal(signal.SIGTERM, Interrupted.raise_on_signal)  # as the command line does
        with pytest.raises(KeyboardInterrupt) as stopped:  # (Interrupted is one)
            writer.abort()
        assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]
        assert isinstance(stopped.value, Interrupted)
        assert (stopped.value.signum, stopped.value.new_site) == (number, False)
        assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]
        assert (out / "index.html").read_bytes() == b"old"
        output.remove_site_folder = remove
        write_site(out, {"index.html": b"next"})  # the lock was given back
        assert (out / "index.html").read_bytes() == b"next"

    in_child(body)


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "two whole builds at once (2 s of CPU)")
def test_concurrent_builds_leave_a_whole_site(project: Path) -> None:
    for _ in range(3 if EXTENDED else 1):  # two builds at once; more rounds extended
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


KILL_DELAYS = ((0.05, 0.15, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.8) if EXTENDED
               else (0.05, 0.3, 0.6))
"""Seconds after its start at which a build is killed: start-up, rendering, the move
into place; every tenth of a second of a build in the extended round."""


@pytest.mark.extended
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
    for delay in KILL_DELAYS:
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


# -- hostile output folders ------------------------------------------------------------

def test_a_marker_without_a_list_is_not_taken_as_ours(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / MARKER).write_text("Written by the rules site generator; the next build "
                              "replaces this folder.\n", encoding="utf-8")
    (out / "precious.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputError, match=r"lists no files, so this generator cannot tell"):
        write_site(out, {"index.html": b"a"})
    assert (out / "precious.txt").read_text("utf-8") == "mine"


@pytest.mark.parametrize("name", ["s*", "site[1]", "s?te"])
def test_stale_folders_are_matched_by_exact_name(tmp_path: Path, name: str) -> None:
    other = tmp_path / ".site.new-999999"  # another output's temporary folder
    other.mkdir()
    (other / MARKER).write_text("x", encoding="utf-8")
    own = tmp_path / f".{name}.new-999999"  # this output's, left by a killed build
    own.mkdir()
    (own / MARKER).write_text("x", encoding="utf-8")
    (tmp_path / f".{name}.lock").write_text("999999\n", encoding="ascii")  # its record
    write_site(tmp_path / name, {"index.html": b"a"})
    assert other.is_dir() and (other / MARKER).is_file()
    assert not own.exists()


def test_out_through_a_link_into_content_is_refused(project: Path, tmp_path: Path) -> None:
    from generator.commands.build import build

    link = tmp_path / "link"
    link.symlink_to(project / "content", target_is_directory=True)
    report = build(project, link / "site")
    assert report.exit_code == 2
    assert report.lines[-1].startswith(f"{project / 'content' / 'site'}: the output folder "
                                       f"overlaps {project / 'content'}")
    assert not (project / "content" / "site").exists()


@pytest.mark.parametrize("where", ["/", "parent", "content", "locales/cs", "site.yaml",
                                   "site.yaml/sub"])
def test_an_out_over_the_inputs_is_one_error_before_the_loading(
        project: Path, where: str) -> None:
    """``--out /`` (or the project's parent, or an input folder) is one line naming the
    output folder, found before the loading runs (which would call every input "a
    symbolic link leading into the output folder")."""
    from generator.commands.build import build

    out = {"/": Path("/"), "parent": project.parent}.get(where, project / where)
    report = build(project, out, cache=False)
    assert report.exit_code == 2
    if where in ("/", "parent"):
        assert report.lines == [f"{out}: the output folder holds the project; expected a "
                                "folder of its own, such as site/ (see --out)"]
    else:
        folder = project / where.split("/")[0]
        assert report.lines == [f"{out}: the output folder overlaps {folder}; expected a "
                                "folder outside the project's content/, locales/, "
                                "templates/ and site.yaml, not holding the project (see "
                                "--out)"]
    assert (project / "content" / "rules.md").is_file()
    assert not (project / "site.yaml").exists()  # a site there left the project unbuildable


def test_project_given_as_a_link_is_compared_by_real_path(project: Path, tmp_path: Path
                                                          ) -> None:
    from generator.commands.build import build

    link = tmp_path / "link"
    link.symlink_to(project, target_is_directory=True)
    report = build(link, project / "content" / "site")
    assert report.exit_code == 2
    assert "overlaps" in report.lines[-1]
    assert not (project / "content" / "site").exists()


def test_out_inside_an_earlier_site_is_refused(tmp_path: Path) -> None:
    write_site(tmp_path / "site", {"index.html": b"a"})
    with pytest.raises(OutputError, match=r"site/sub: the output folder is inside .*site, "
                                          r"the site of an earlier build"):
        write_site(tmp_path / "site" / "sub", {"index.html": b"b"})
    write_site(tmp_path / "site", {"index.html": b"c"})  # still buildable
    assert (tmp_path / "site" / "index.html").read_bytes() == b"c"


def test_a_planted_lock_link_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "created-by-the-build"
    target.parent.mkdir()
    (tmp_path / ".site.lock").symlink_to(target)
    with pytest.raises(OutputError, match=r"\.site\.lock: the lock file is a symbolic link"):
        write_site(tmp_path / "site", {"index.html": b"a"})
    assert not target.exists() and not (tmp_path / "site").exists()


def test_a_lock_file_hard_linked_to_another_file_is_not_written_through(
        tmp_path: Path) -> None:
    """As a symbolic link is refused, so is a hard link to a file elsewhere: it is not
    truncated and given the build's pid."""
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_bytes(b"precious data\n")
    os.link(victim, tmp_path / ".site.lock")
    with pytest.raises(OutputError, match=r"\.site\.lock: the lock file has 1 other hard "
                                          r"link\(s\); expected a file of its own or none"):
        write_site(tmp_path / "site", {"index.html": b"a"})
    assert victim.read_bytes() == b"precious data\n"
    assert not (tmp_path / "site").exists()
    (tmp_path / ".site.lock").unlink()
    (tmp_path / ".site.lock").mkdir()  # a folder there: said so, as for a link (not
    with pytest.raises(OutputError, match=r"\.site\.lock: the lock file is a folder; "
                                          r"expected a regular file or none"):  # Errno 21)
        write_site(tmp_path / "site", {"index.html": b"a"})
    (tmp_path / ".site.lock").rmdir()
    write_site(tmp_path / "site", {"index.html": b"b"})  # a lock of its own again
    assert (tmp_path / "site" / "index.html").read_bytes() == b"b"
    assert os.stat(tmp_path / ".site.lock").st_nlink == 1


def test_a_build_waiting_for_the_lock_says_whose_and_gives_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lock held by another open file (``flock`` locks an open file, so this process
    holding it blocks the build it runs as another process would)."""
    import fcntl

    out = tmp_path / "site"
    lock = os.open(tmp_path / ".site.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        os.write(lock, b"4242\n")
        fcntl.flock(lock, fcntl.LOCK_EX)
        said: list[str] = []
        start = time.monotonic()
        with pytest.raises(OutputError, match=r"the build with pid 4242 still holds the "
                                              r"lock after 0\.3 s"):
            from generator import output_lock

            output_lock.Lock(tmp_path / ".site.lock", 0.3, said.append).__enter__()
        assert time.monotonic() - start >= 0.3
        assert said == [f"{tmp_path / '.site.lock'}: waiting for the build with pid 4242, "
                        "which is writing this output folder (at most 0.3 s)"]
        monkeypatch.setenv("RULES_LOCK_WAIT", "0.5")
        result = run_cli("build", "--project", str(REPO), "--out", str(out))
        assert result.returncode == 2, result.stdout + result.stderr
        assert "waiting for the build with pid 4242" in result.stderr
        assert "still holds the lock after 0.5 s" in result.stdout
        assert not out.exists()
    finally:
        os.close(lock)
    from generator import output_lock

    taken = output_lock.Lock(tmp_path / ".site.lock").__enter__()  # free again
    try:
        # the holder first, then the build that did not finish (as far as it knows)
        assert (tmp_path / ".site.lock").read_text("ascii") == f"{os.getpid()}\n4242\n"
    finally:
        taken.__exit__(None, None, None)
    write_site(out, {"index.html": b"a"})
    assert (tmp_path / ".site.lock").read_text("ascii") == ""  # finished: nothing recorded


def test_a_name_with_a_newline_never_reaches_the_marker(tmp_path: Path) -> None:
    """page-name-newline: the marker listed 'en/evil' and '/index.html', and no later
    build could replace the site. Names are checked at the source (layout); the writer
    refuses one that slips through, so the marker's list stays one name a line."""
    with pytest.raises(OutputError, match=r"a file name holds a control character"):
        write_site(tmp_path / "site", {"index.html": b"a", "en/evil\n/index.html": b"b"})
    assert not (tmp_path / "site").exists()
    write_site(tmp_path / "site", {"index.html": b"a"})
    assert _listed(tmp_path / "site") == {"index.html"}


def test_a_full_disk_while_copying_is_the_sites_error_not_the_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails while a file is copied into the site (a full output disk) is
    the site's error; a source that is gone is ``SourceGone`` (the build is made again
    without its cache)."""
    import errno

    from generator import output_files
    from generator.output import SourceGone

    source = tmp_path / "kept.html"
    source.write_bytes(b"kept")
    sha = hashlib.sha256(b"kept").hexdigest()

    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output_files, "_write_all", full)
    writer = SiteWriter(tmp_path / "site")
    with pytest.raises(OutputError, match=r"cannot write the site: .*No space left") as caught:
        writer.link({"index.html": (source, sha)})
    assert not isinstance(caught.value, SourceGone)
    monkeypatch.undo()
    source.unlink()
    with pytest.raises(SourceGone, match=r"kept\.html: cannot read it to publish it as "):
        writer.link({"index.html": (source, sha)})
    writer.abort()


def test_a_copy_is_published_only_with_the_bytes_of_its_digest(tmp_path: Path) -> None:
    """``link`` opens each source without following a link and checks the bytes it
    copies against their digest: a source replaced by a link (to a private file) or by
    other bytes after the build checked it is refused, and nothing of it is published."""
    from generator.output import SourceGone

    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"TOP-SECRET")
    kept = tmp_path / "kept.html"
    kept.write_bytes(b"<p>kept</p>")
    sha = hashlib.sha256(b"<p>kept</p>").hexdigest()
    writer = SiteWriter(tmp_path / "site")
    writer.link({"ok.html": (kept, sha)})
    assert (writer.tmp / "ok.html").read_bytes() == b"<p>kept</p>"
    kept.unlink()
    kept.symlink_to(secret)
    with pytest.raises(SourceGone, match=r"kept\.html: cannot read it to publish it as "
                       r"index\.html: a symbolic link, never followed"):
        writer.link({"index.html": (kept, sha)})
    assert not (writer.tmp / "index.html").exists()
    kept.unlink()
    kept.write_bytes(b"TOP-SECRET")
    with pytest.raises(SourceGone, match=r"kept\.html: holds other bytes than the copy"):
        writer.link({"index.html": (kept, sha)})
    assert not (writer.tmp / "index.html").exists()
    writer.abort()
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("spare", [False, True], ids=["no-cache", "spare"])
def test_what_is_put_into_the_site_while_the_build_runs_is_kept(tmp_path: Path,
                                                                 spare: bool) -> None:
    """The output folder is checked for files the build did not write as the build
    starts; what is put into it after that check (a file, a folder of files, an empty
    folder) is not deleted with the replaced site: it is moved to its place in the new
    site, with a warning naming it, and the next build refuses the folder."""
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old", "en/index.html": b"old"})
    writer = SiteWriter(out, spare=tmp_path / "cache" / "spare-site" if spare else None)
    writer.write({"index.html": b"new", "en/index.html": b"new", "cs/index.html": b"new"})
    (out / "NOTES.txt").write_text("the only copy of my notes", encoding="utf-8")
    (out / "en" / "drafts").mkdir()
    (out / "en" / "drafts" / "a.md").write_text("draft", encoding="utf-8")
    (out / "empty").mkdir()
    writer.commit()
    assert (out / "NOTES.txt").read_text("utf-8") == "the only copy of my notes"
    assert (out / "en" / "drafts" / "a.md").read_text("utf-8") == "draft"
    assert (out / "empty").is_dir()
    assert (out / "cs" / "index.html").read_bytes() == b"new"
    assert _listed(out) == {"index.html", "en/index.html", "cs/index.html"}
    assert writer.warnings == [
        f"{out}: NOTES.txt, empty, en/drafts: put into the output folder while the build "
        "ran, so not written by this generator; kept in the new site, but the next build "
        "refuses the folder until you move them away (files to publish belong in "
        "templates/root/)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == (
        [".site.lock", "cache", "site"] if spare else [".site.lock", "site"])
    if spare:
        assert not [p for p in (tmp_path / "cache").rglob("*") if not p.is_dir()]
    with pytest.raises(OutputError, match=r"did not write \(empty, NOTES.txt, en/drafts, "):
        write_site(out, {"index.html": b"newer"})


def test_what_cannot_join_the_new_site_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    """A file put into the output folder while the build runs, at a name the new site
    writes too: the replaced site's own files are removed and the folder, holding that
    file alone, is kept beside the output as ``site.kept-1``."""
    out = tmp_path / "site"
    write_site(out, {"index.html": b"old"})
    writer = SiteWriter(out)
    writer.write({"index.html": b"new", "rules.html": b"new"})
    (out / "rules.html").write_text("mine", encoding="utf-8")
    writer.commit()
    aside = tmp_path / "site.kept-1"
    assert (out / "rules.html").read_bytes() == b"new"
    assert sorted(p.name for p in aside.iterdir()) == ["rules.html"]
    assert (aside / "rules.html").read_text("utf-8") == "mine"
    assert writer.warnings == [
        f"{aside}: holds rules.html, put into the output folder {out} while a build ran: "
        "not written by this generator, so kept here for you to move"]
    write_site(out, {"index.html": b"newer"})
    assert (aside / "rules.html").read_text("utf-8") == "mine"


def test_a_killed_builds_old_site_loses_only_its_own_files(tmp_path: Path) -> None:
    """A build killed after the swap leaves the replaced site beside the output; the next
    build removes the files its marker lists and sets aside anything else."""
    out = tmp_path / "site"
    write_site(tmp_path / "earlier", {"index.html": b"old", "en/index.html": b"old"})
    left = tmp_path / ".site.old-424242"
    (tmp_path / "earlier").rename(left)
    (left / "en" / "mine.txt").write_text("keep", encoding="utf-8")
    write_site(out, {"index.html": b"now"})
    (tmp_path / ".site.lock").write_text("424242\n", encoding="ascii")
    writer = SiteWriter(out)
    aside = tmp_path / "site.kept-1"
    assert writer.warnings == [
        f"{aside}: holds en, en/mine.txt, put into the output folder {out} while a build "
        "ran: not written by this generator, so kept here for you to move"]
    writer.abort()
    assert not left.exists()
    assert sorted(p.relative_to(aside).as_posix() for p in aside.rglob("*")) == [
        "en", "en/mine.txt"]


def test_a_copy_that_fails_half_way_leaves_no_part_in_the_site(tmp_path: Path) -> None:
    """``SiteWriter.copy``: a file whose copy fails on the way (its source unreadable) is
    removed, so that no part of it is published; a write that fails is the site's
    error."""
    import errno

    writer = SiteWriter(tmp_path / "site")

    def half(path: Path) -> str:
        path.write_bytes(b"half")
        raise ValueError("the source went away")

    with pytest.raises(ValueError, match="went away"):
        writer.copy("static/big.bin", half)
    assert not (writer.tmp / "static" / "big.bin").exists()

    def full(path: Path) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OutputError, match=r"cannot write the site: .*No space left"):
        writer.copy("static/big.bin", full)
    assert writer.copy("static/ok.txt", lambda path: path.write_bytes(b"ok") and "sha") == "sha"
    writer.commit()
    assert _listed(tmp_path / "site") == {"static/ok.txt"}
