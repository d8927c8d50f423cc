"""``python -m generator serve`` (docs/site.md, "serve"): over HTTP on 127.0.0.1, the
page with its reload script, a saved change reloading it, a failed build's error page
in place of every page, a fix bringing the page back; never ``site/``; the port in use;
Ctrl-C."""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

import generator.render.search as search
from generator.commands import serve as serve_module
from generator.commands import serve_pages
from generator.commands.serve import Preview
from generator.commands.serve_pages import EVENTS
from generator.commands.serve_pages import SCRIPT
from generator.commands.serve_watch import InputFilter
from tests.conftest import EXTENDED
from tests.conftest import LEAN_LOCALES
from tests.conftest import REPO
from tests.conftest import replace_in
from tests.conftest import run_cli
from tests.conftest import translate_in

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all the preview's tests need."""


class Running:
    """A preview on a free port of 127.0.0.1, run in a thread, and its events stream."""

    def __init__(self, project: Path) -> None:
        self.said: list[str] = []
        self.preview = Preview(project, "127.0.0.1", 0, self.said.append, self.said.extend)
        self.preview.listen()
        self.preview.start()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.preview.run, args=(self.stop,), daemon=True)
        self.thread.start()
        self.events = http.client.HTTPConnection("127.0.0.1", self.preview.port, timeout=20)
        self.events.request("GET", EVENTS)
        self.stream = self.events.getresponse()
        assert self.stream.status == 200
        assert self.stream.getheader("Content-Type") == "text/event-stream"

    def get(self, path: str) -> tuple[int, str, str]:
        """GET ``path``: (status, content type, body)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.preview.port, timeout=20)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return (response.status, response.getheader("Content-Type") or "",
                    response.read().decode("utf-8"))
        finally:
            conn.close()

    def next_build(self, timeout: float = 60.0) -> dict[str, object]:
        """The next message of the events stream (a build), keep-alive comments skipped;
        within ``timeout`` seconds (the keep-alives would keep a socket timeout from
        ever firing)."""
        deadline = time.monotonic() + timeout
        while True:
            assert time.monotonic() < deadline, f"no build within {timeout} s: {self.said}"
            line = self.stream.readline().decode("utf-8")
            assert line, "the events stream ended"
            if line.startswith("data: "):
                message: dict[str, object] = json.loads(line[len("data: "):])
                assert self.stream.readline() == b"\n"
                return message

    def wait_said(self, text: str, timeout: float = 20.0) -> None:
        """Wait until the terminal has a line holding ``text`` (the index's build after a
        change: files saved before it ends may be part of it)."""
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.said):
            assert time.monotonic() < deadline, (text, self.said)
            time.sleep(0.02)

    def close(self) -> None:
        """Stop the preview (again: no effect)."""
        self.events.close()
        self.stop.set()
        self.thread.join(timeout=20)
        self.preview.close()


@pytest.fixture
def running(project: Path) -> Iterator[Running]:
    server = Running(project)
    try:
        yield server
    finally:
        server.close()


def _script_build(page: str) -> str:
    """The build number the page's reload script was served with."""
    tag = f'<script src="{SCRIPT}" data-session="'
    assert page.count(tag) == 1, "one reload script"
    start = page.index('data-build="', page.index(tag)) + len('data-build="')
    return page[start:page.index('"', start)]


def test_the_loop_page_change_error_and_fix(running: Running, project: Path) -> None:
    """One preview through an author's loop: served, a title changed, broken, fixed."""
    first = running.next_build()
    assert first["build"] == 1 and first["ok"] is True
    status, kind, page = running.get("/en/rules/")
    assert (status, kind) == (200, "text/html; charset=utf-8")
    assert "Queen, king and ace of hearts" in page
    assert _script_build(page) == "1"
    assert page.index(SCRIPT) < page.rindex("</body>")
    status, kind, script = running.get(SCRIPT)
    assert status == 200 and kind.startswith("text/javascript")
    assert f'new EventSource("{EVENTS}?page=" +' in script and "location.reload()" in script
    status, kind, _ = running.get("/static/style.css")
    assert (status, kind) == (200, "text/css")
    status, _, page = running.get("/cs/no-such-page/")  # the locale's own 404 page
    not_found = (running.preview.site / "cs" / "404.html").read_text(encoding="utf-8")
    assert status == 404
    assert page.replace(page[page.index(f'<script src="{SCRIPT}"'):
                             page.index("</script>", page.index(SCRIPT)) + 9], "") == not_found
    assert running.get("/.rules-site/")[0] == 404  # the build's marker folder is not served
    status, _, deep = running.get("/cs/rules/old-page/missing")  # deeper: links still work
    assert status == 404 and 'lang="cs"' in deep
    addresses = re.findall(r'(?:href|src)="(/[^"#]*)"', deep)
    assert "/static/style.css" in addresses and "/cs/rules/index.html" in addresses
    assert [a for a in addresses if running.get(a)[0] != 200] == []

    melds = project / "content" / "examples" / "melds-rami.yaml"
    replace_in(melds, "title: Queen, king and ace of hearts",
               "title: Queen, king and ace of hearts, edited")
    second = running.next_build()
    assert second["build"] == 2 and second["ok"] is True
    status, _, page = running.get("/en/rules/")
    assert status == 200
    assert "Queen, king and ace of hearts, edited" in page
    assert _script_build(page) == "2"
    # the Czech pages follow: only theirs change, so only they reload
    assert running.next_build()["build"] == 3
    running.wait_said("reloading the pages (build 3)")  # serve is idle again
    assert _script_build(running.get("/en/rules/")[2]) == "2"
    cs_page = running.get("/cs/rules/")[2]
    assert _script_build(cs_page) == "3" and "edited" in cs_page
    for path, version in (("/en/rules/", 2), ("/cs/rules/", 3), ("/cs/no-such-page/", 3)):
        stream = http.client.HTTPConnection("127.0.0.1", running.preview.port, timeout=20)
        try:
            stream.request("GET", f"{EVENTS}?page={quote(path)}")
            assert stream.getresponse().readline().startswith(
                f'data: {{"build": {version}, '.encode())
        finally:
            stream.close()

    # A YAML error in one file, a disagreement in another: one build shows both.
    replace_in(melds, "title: Three aces", "title: [Three aces")
    decks = project / "content" / "examples" / "decks.yaml"
    replace_in(decks, "hand_size: 13", "hand_size: 12")
    expected = run_cli("check", "--project", str(project))
    assert expected.returncode == 2
    report = expected.stdout.splitlines()
    assert any(line.startswith("content/examples/melds-rami.yaml:") for line in report)
    assert any(line.startswith("content/examples/decks.yaml:") and
               "hand_size documented 12, engine 13" in line for line in report)
    third = running.next_build()
    while running.preview.shown().errors != tuple(report):  # a build between the saves
        third = running.next_build()
    assert int(str(third["build"])) >= 4 and third["ok"] is False
    for path in ("/en/rules/", "/cs/", "/"):  # in place of every page
        status, kind, page = running.get(path)
        assert (status, kind) == (500, "text/html; charset=utf-8")
        for line in report:
            assert html.escape(line, quote=False) in page
        assert _script_build(page) == str(third["build"])
    assert "Queen, king and ace of hearts, edited" not in running.get("/en/rules/")[2]
    assert all(line in running.said for line in report)  # the terminal printed them

    replace_in(melds, "title: [Three aces", "title: Three aces")
    replace_in(decks, "hand_size: 12", "hand_size: 13")
    fourth = running.next_build()
    while fourth["ok"] is False:  # a build between the two saves: one file fixed
        fourth = running.next_build()
    assert int(str(fourth["build"])) > int(str(third["build"]))
    status, _, page = running.get("/en/rules/")
    assert status == 200
    assert "Queen, king and ace of hearts, edited" in page
    assert not (project / "site").exists()

    folder = running.preview.folder
    assert folder is not None and (folder / "site" / "en" / "rules" / "index.html").is_file()
    running.close()
    assert not folder.exists()
    # build's own output, of the same project, has no trace of the preview
    assert run_cli("build", "--project", str(project)).returncode == 0
    pages = sorted((project / "site").rglob("*.html"))
    assert len(pages) == 2 + 5 * len(LEAN_LOCALES)  # the 404 and home pages, 3 pages
    assert not [p for p in pages if "__serve__" in p.read_text(encoding="utf-8")]


def test_a_fault_of_the_generator_is_shown_not_fatal(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(root: Path, out: Path | None = None, **_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(serve_module, "build", broken)
    server = Running(project)
    try:
        message = server.next_build()
        assert message["ok"] is False
        status, _, page = server.get("/en/")
        assert status == 500
        assert "error: the generator failed: RuntimeError: boom" in page
        assert server.get(SCRIPT)[0] == 200  # still serving
    finally:
        server.close()


def test_the_port_in_use_is_an_input_error(project: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli("serve", "--project", str(project), "--port", str(port))
    assert result.returncode == 2
    assert result.stdout == (f"--port {port}: address already in use; expected a free port "
                             f"(try --port {port + 1})\n")
    assert not (project / "site").exists()


def test_only_inputs_start_a_build(tmp_path: Path) -> None:
    accepts = InputFilter(tmp_path)
    added = serve_module.watchfiles.Change.added
    for rel, expected in [("content/rules.md", True), ("content/examples/a.yaml", True),
                          ("locales/cs/LC_MESSAGES/messages.po", True),
                          ("templates/base.html", True), ("site.yaml", True),
                          ("site/en/index.html", False), (".git/index", False),
                          ("content/.rules.md.swp", False), ("site.yaml~", False),
                          ("generator/cli.py", False), ("site.yaml.bak/x", False)]:
        assert accepts(added, str(tmp_path / rel)) is expected, rel


def test_ctrl_c_stops_it_cleanly(tmp_path: Path) -> None:
    """SIGINT (Ctrl-C) after the first build: exit 0, no traceback, its folder removed
    (a project of ``init``'s, quick to build, in a process of its own)."""
    project = tmp_path / "new"
    assert run_cli("init", str(project)).returncode == 0
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--project", str(project), "--port", "0"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert process.stderr is not None
        said = [process.stderr.readline() for _ in range(2)]
        assert said[0].startswith(f"serving {project} at http://127.0.0.1:")
        assert "(build 1)" in said[1]
        assert len(list(temp.iterdir())) == 1
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
    assert err == "stopped\n"
    assert "Traceback" not in out
    assert list(temp.iterdir()) == []
    assert not (project / "site").exists()


def test_a_file_replaced_in_one_batch_is_named(tmp_path: Path) -> None:
    """``git checkout`` removes a file and writes it again within one batch: serve said
    "changed: (a file made and removed)"; now it names the file. An editor's temporary
    file, made and removed, is still left out."""
    from watchfiles import Change

    from generator.commands.serve_watch import changed_names

    page = tmp_path / "content" / "rules.md"
    page.parent.mkdir()
    page.write_text("# Rules\n", encoding="utf-8")
    swap = str(tmp_path / "content" / ".rules.md.swp")
    replaced = {(Change.deleted, str(page)), (Change.added, str(page))}
    assert changed_names(replaced, tmp_path) == ["content/rules.md"]
    passing = {(Change.added, swap), (Change.deleted, swap)}
    assert changed_names(passing, tmp_path) == ["(a file made and removed)"]
    assert changed_names(replaced | passing | {(Change.modified, str(tmp_path / "site.yaml"))},
                         tmp_path) == ["content/rules.md", "site.yaml"]


def test_changed_names_escape_control_characters(tmp_path: Path) -> None:
    """A file whose name holds terminal control sequences is named on the ``changed:``
    line with them escaped, as the error lines show it: no raw ESC or BEL."""
    from watchfiles import Change

    from generator.commands.serve_watch import changed_names

    name = "content/\x1b[2J\x1b]0;pwned\x07x.md"
    names = changed_names({(Change.added, str(tmp_path / name))}, tmp_path)
    assert names == ["content/\\x1b[2J\\x1b]0;pwned\\x07x.md"]


def _index(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.glob("*/pagefind/**/*")) if p.is_file()}


class _Builds:
    """serve's ``build``, recorded: each call's ``search_later`` and, right after it,
    the site's English rules page and search indexes; ``between`` runs before the
    second build of a rebuild (a file saved while the first one ran)."""

    def __init__(self, preview: Preview, between: Callable[[], object] = lambda: None
                 ) -> None:
        self.preview = preview
        self.between = between
        self.calls: list[tuple[bool, str, dict[str, bytes]]] = []
        self.real = serve_module.build

    def __call__(self, root: Path, out: Path | None = None, **options: Any) -> Any:
        if not options.get("search_later", False):
            self.between()
        report = self.real(root, out, **options)
        site = self.preview.site
        self.calls.append((bool(options.get("search_later", False)),
                           (site / "en" / "rules" / "index.html").read_text(encoding="utf-8"),
                           _index(site)))
        return report


def _preview(project: Path) -> tuple[Preview, list[str]]:
    said: list[str] = []
    preview = Preview(project, "127.0.0.1", 0, said.append, said.extend)
    preview.listen()
    preview.start()
    return preview, said


def test_a_page_is_reloaded_when_its_file_changes() -> None:
    """Each page's version is the build that last changed its file: a changed page gets
    the new build, the others keep theirs; a changed search index changes none; a file
    every page uses (a style sheet), a site whose files are not known, or pages that
    showed a failed build's lines give every page the new build; a failed build has no
    page versions (its lines replace every page: :meth:`Shown.version` is its build)."""
    from generator.commands.serve import _versions
    from generator.commands.serve_pages import Shown

    old = {"en/rules/index.html": "a", "en/index.html": "b", "cs/rules/index.html": "c",
           "en/pagefind/pagefind.js": "d", "static/style.css": "e"}
    before = Shown(5, None, 0, True, (), {"en/rules/index.html": 4, "en/index.html": 2,
                                          "cs/rules/index.html": 3})
    new = {**old, "en/rules/index.html": "a2", "en/pagefind/pagefind.js": "d2",
           "cs/new/index.html": "f"}
    assert _versions(before, old, new, 6) == {
        "en/rules/index.html": 6, "en/index.html": 2, "cs/rules/index.html": 3,
        "cs/new/index.html": 6}
    assert _versions(before, old, {**old, "en/pagefind/pagefind.js": "d2"}, 6) == \
        before.pages
    every = dict.fromkeys(before.pages, 6)
    assert _versions(before, old, {**old, "static/style.css": "e2"}, 6) == every
    assert _versions(before, {}, old, 6) == every
    failed = Shown(5, ("content/rules.md:1: error",), 2, True)
    assert _versions(failed, old, old, 6) == every
    assert _versions(before, old, {}, 6) == {}
    shown = Shown(6, None, 0, True, (), {"en/rules/index.html": 4})
    assert shown.version("en/rules/index.html") == 4
    assert shown.version("en/missing/index.html") == 6 and shown.version(None) == 6


def test_a_change_shows_the_pages_first_then_makes_their_index(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case changed: the first build swaps the source locale's new pages in, with the
    other locale's last pages and the last search indexes (the English pages reload),
    the second renders the other locale and makes the indexes (its pages reload, the
    English ones, the same, do not); the site is then a clean build's. A translation
    changed: its locale's pages come first, and the second build only makes the index
    (nothing reloads again)."""
    monkeypatch.setattr(search, "_MADE", OrderedDict())  # no index made in this process
    preview, said = _preview(project)
    try:
        assert preview.rebuild().build == 1
        before = _index(preview.site)
        builds = _Builds(preview)
        monkeypatch.setattr(serve_module, "build", builds)
        replace_in(project / "content" / "examples" / "melds-rami.yaml",
                   "title: Three kings", "title: Three crowned kings")
        shown = preview.rebuild()
        assert shown.build == 3 and shown.errors is None
        assert shown.version("en/rules/index.html") == 2  # reloaded once
        assert shown.version("cs/rules/index.html") == 3
        assert shown.version("en/cardverse/index.html") == 1  # not changed
        assert [later for later, _, _ in builds.calls] == [True, False]
        (_, page, index), (_, page2, index2) = builds.calls
        assert "Three crowned kings" in page and page2 == page
        assert index == before and index2 != before
        assert any("the pages of 1 more locale and the search index of 1 locale follow "
                   "(build 2)" in line for line in said)
        assert any("reloading the pages (build 3)" in line for line in said)
        clean = tmp_path / "clean"
        assert serve_module.build.real(project, clean, cache=False).exit_code == 0
        assert _index(preview.site) == _index(clean)
        for rel in ("en/rules/index.html", "cs/rules/index.html"):
            assert (preview.site / rel).read_bytes() == (clean / rel).read_bytes()
        translate_in(project / "locales" / "cs" / "LC_MESSAGES" / "messages.po",
                     "Three crowned kings", "Tři korunovaní králové")
        shown = preview.rebuild()  # (the card checker's Czech words change: every page)
        assert shown.build == 4 and shown.version("cs/rules/index.html") == 4
        assert any("search index updated (build 4)" in line for line in said)
    finally:
        preview.close()


def test_a_file_saved_while_the_pages_built_reloads_them_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change saved between the pages' build and the index's: the second build shows
    it, so the pages reload again."""
    monkeypatch.setattr(search, "_MADE", OrderedDict())  # no index made in this process
    preview, said = _preview(project)
    try:
        assert preview.rebuild().build == 1
        melds = project / "content" / "examples" / "melds-rami.yaml"
        builds = _Builds(preview, lambda: replace_in(melds, "title: Three aces",
                                                     "title: Three high aces"))
        monkeypatch.setattr(serve_module, "build", builds)
        replace_in(melds, "title: Three kings", "title: Three crowned kings")
        shown = preview.rebuild()
        assert shown.build == 3, said
        assert "Three high aces" in builds.calls[-1][1]
        assert sum("reloading the pages" in line for line in said) == 2
    finally:
        preview.close()


def test_a_search_index_that_cannot_be_made_is_not_called_wrong_input(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pagefind missing (or failing): exit 2, as for an output that cannot be written;
    the page in place of every page says so, not that the input is wrong."""
    monkeypatch.setattr(search, "get_executable", lambda: None)
    preview, _ = _preview(project)
    try:
        shown = preview.rebuild()
        assert shown.exit_code == 2 and shown.errors is not None
        assert any("pagefind[bin]" in line for line in shown.errors)
        page = serve_pages.error_page(shown, preview.session).decode("utf-8")
        assert "<title>Build failed: 1 error</title>" in page
        assert "input error" not in page
    finally:
        preview.close()


def test_a_project_folder_removed_and_put_back_is_watched_again(
        running: Running, project: Path, tmp_path: Path) -> None:
    """The project folder removed (``rm -rf``) and put back (a restore, a fresh clone):
    serve kept watching the dead folder and built no save again, saying nothing. Now it
    says the folder is gone, then watches the new one and builds it, and a save in it
    is built."""
    first = running.next_build()
    assert first["ok"] is True
    kept = tmp_path / "kept"
    shutil.copytree(project, kept)
    shutil.rmtree(project)
    running.wait_said(f"the project folder {project} is gone: serve waits for it to come "
                      "back (the pages stay as they are; Ctrl-C to stop)")
    assert running.get("/en/rules/")[0] == 200  # the last build, still shown
    shutil.copytree(kept, project)
    back = (f"the project folder {project} is a new folder now: watching it and building "
            "it")
    running.wait_said(back)
    deadline = time.monotonic() + 20
    while not any(line.startswith("built ") for line in
                  running.said[running.said.index(back):]):  # the same files: no reload
        assert time.monotonic() < deadline, running.said
        time.sleep(0.02)
    replace_in(project / "content" / "examples" / "melds-rami.yaml",
               "title: Three kings", "title: Three kings, restored")
    edited = running.next_build()
    assert edited == {**first, "build": 2}
    assert "Three kings, restored" in running.get("/en/rules/")[2]
    assert "changed: content/examples/melds-rami.yaml" in running.said


def test_temporary_sites_of_killed_serves_are_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A serve killed outright (SIGKILL) left its temporary site for good. The next
    serve removes such folders: only those named as serve names them, folders (not
    links, nothing followed through one), of this user, whose process is gone; a live
    serve's stays."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    ended = subprocess.Popen([sys.executable, "-c", ""])
    ended.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    outside = tmp_path / "outside"
    (outside / "site").mkdir(parents=True)
    (outside / "site" / "keep.html").write_text("kept", encoding="utf-8")
    prefix = serve_module.TEMP_PREFIX
    dead = temp / f"{prefix}{ended.pid}-a1b2_c3"
    (dead / "site" / "en").mkdir(parents=True)
    (dead / "site" / "en" / "index.html").write_text("old", encoding="utf-8")
    (dead / "site" / "out").symlink_to(outside)  # its content is not followed
    live = temp / f"{prefix}{alive.pid}-d4e5f6"
    (live / "site").mkdir(parents=True)
    link = temp / f"{prefix}{ended.pid}-link"
    link.symlink_to(outside)
    file = temp / f"{prefix}{ended.pid}-file"
    file.write_text("", encoding="utf-8")
    other_user = temp / f"{prefix}{ended.pid}-other"
    other_user.mkdir()
    others = [temp / f"{prefix}{ended.pid}", temp / f"{prefix}x{ended.pid}-abc",
              temp / f"rules-search-{ended.pid}-abc", temp / f"{prefix}{ended.pid}-a.b"]
    for folder in others:
        folder.mkdir()
    if os.getuid() == 0:
        os.chown(other_user, 12345, 12345)
    try:
        preview, said = _preview(tmp_path)  # (listen and start: no build)
        try:
            assert preview.folder is not None
            assert preview.folder.parent == temp
            assert preview.folder.name.startswith(f"{prefix}{os.getpid()}-")
            assert not dead.exists()
            assert live.is_dir() and link.is_symlink() and file.is_file()
            assert (outside / "site" / "keep.html").read_text(encoding="utf-8") == "kept"
            assert all(folder.is_dir() for folder in others)
            assert other_user.is_dir() or os.getuid() != 0
            assert said == []
        finally:
            preview.close()
    finally:
        alive.kill()
        alive.wait()
    assert serve_module.sweep_leftovers(temp) == [live]  # its process ended
    assert not live.exists()


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "test_temporary_sites_of_killed_serves_are_removed covers the sweep")
def test_a_killed_serve_leaves_a_folder_the_next_one_removes(tmp_path: Path) -> None:
    """A serve process killed with SIGKILL, then another serve: the first one's
    temporary site is gone."""
    project = tmp_path / "new"
    assert run_cli("init", str(project)).returncode == 0
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    killed = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--project", str(project), "--port",
         "0"], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert killed.stderr is not None
        assert killed.stderr.readline().startswith("serving ")
        assert "(build 1)" in killed.stderr.readline()  # its folder is made by then
        left = list(temp.iterdir())
        assert [p.name.startswith(f"{serve_module.TEMP_PREFIX}{killed.pid}-") for p in left
                ] == [True]
    finally:
        killed.kill()
        killed.communicate()
    assert left[0].is_dir()  # SIGKILL: nothing could remove it
    monkey = pytest.MonkeyPatch()
    monkey.setattr(tempfile, "tempdir", str(temp))
    try:
        preview, _ = _preview(project)
        preview.close()
    finally:
        monkey.undo()
    assert list(temp.iterdir()) == []
