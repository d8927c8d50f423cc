"""What counts as a project input (docs/site.md, "Command line"; generator/layout/): the
regular files inside the project. A link out of it, a loop, a FIFO, a device or a folder
where a file is expected is an input error at ``FILE:1``: never opened, read or
published, and never a hang. Names are checked by full match. Files the user keeps
(catalogs) are replaced atomically, and ``#~|`` lines survive ``i18n update``.

Tests that could hang on a FIFO run under :func:`no_hang` (an alarm), so that a
regression fails instead of blocking the suite.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator import cli
from generator.cases.loader import load_cases
from generator.commands.build import build
from generator.commands.project import load_project
from generator.content.pages import load_pages
from generator.errors import InputError
from generator.layout import Layout
from generator.layout import NotAnInput
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import SITE_LOCALES
from tests.conftest import no_hang
from tests.conftest import run_cli
from tests.test_i18n import _tiny

SECRET = "top-secret-3f1c"


def lines(errors: object) -> list[str]:
    return sorted(e.format() for e in errors)  # type: ignore[attr-defined]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A one-page project with a Slovak catalog (tests/test_i18n.py)."""
    return _tiny(tmp_path, "")


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A folder outside the project with a page, a case file and an asset in it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.md").write_text(f"# Notes\n\n{SECRET}\n", encoding="utf-8")
    (outside / "leak.txt").write_text(SECRET, encoding="utf-8")
    (outside / "stolen.yaml").write_text(f"cases:\n  - id: {SECRET}\n", encoding="utf-8")
    return outside


FIFO = "a FIFO (named pipe), not a regular file; expected a regular file inside the project"


# -- special files: errors at FILE:1, never a hang -------------------------------------

def test_fifos_everywhere_are_input_errors_not_hangs(tiny: Path) -> None:
    places = ["locales/sk/LC_MESSAGES/messages.po", "templates/extra.html", "site.yaml",
              "content/pipe.md", "content/examples/pipe.yaml", "templates/static/pipe.css",
              "templates/root/pipe.txt"]
    for rel in places:
        path = tiny / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    with no_hang():
        project = load_project(tiny)
    assert lines(project.errors) == sorted(f"{rel}:1: {FIFO}" for rel in places)
    with no_hang():
        report = build(tiny)
    assert report.exit_code == 2
    assert not (tiny / "site").exists()


def test_fifos_for_i18n_extract_update_and_stats(tiny: Path) -> None:
    for rel in ("content/pipe.md", "content/examples/pipe.yaml",
                "locales/sk/LC_MESSAGES/messages.po"):
        (tiny / rel).unlink(missing_ok=True)
        os.mkfifo(tiny / rel)
    for action in ("extract", "update", "stats"):
        with no_hang():
            result = run_cli("i18n", action, "--project", str(tiny))
        assert result.returncode == 2, (action, result.stdout, result.stderr)
        assert f"content/pipe.md:1: {FIFO}" in result.stdout.splitlines()
        assert f"content/examples/pipe.yaml:1: {FIFO}" in result.stdout.splitlines()
        assert "nothing written" in result.stderr
    assert not (tiny / "locales" / "messages.pot").exists()


def test_a_folder_named_like_a_template(tiny: Path) -> None:
    (tiny / "templates" / "base.html").mkdir(parents=True)
    report = build(tiny)
    assert report.exit_code == 2
    assert "templates/base.html:1: a folder where a file is expected; expected a regular " \
           "file" in report.lines
    assert not any("the generator failed" in line for line in report.lines)


def test_a_folder_where_a_catalog_or_page_is_expected(tiny: Path) -> None:
    (tiny / "content" / "folder.md").mkdir()
    (tiny / "site.yaml").mkdir()
    (tiny / "content" / "examples" / "folder.yaml").mkdir()  # a folder of case files
    assert lines(load_project(tiny).errors) == [
        "content/folder.md:1: a folder where a file is expected; expected a regular file",
        "site.yaml:1: a folder where a file is expected; expected a regular file inside "
        "the project"]


# -- symbolic links --------------------------------------------------------------------

def test_links_out_of_the_project_are_never_published(tiny: Path, secret: Path) -> None:
    (tiny / "content" / "notes.md").symlink_to(secret / "notes.md")
    (tiny / "templates" / "static").mkdir(parents=True)
    (tiny / "templates" / "static" / "leak.txt").symlink_to(secret / "leak.txt")
    (tiny / "templates" / "root").mkdir()
    (tiny / "templates" / "root" / "robots.txt").symlink_to(secret / "leak.txt")
    (tiny / "content" / "examples" / "more").symlink_to(secret, target_is_directory=True)
    report = build(tiny)
    outside = "a symbolic link leading outside the project; expected a regular file " \
              "inside the project (a link is followed only to one)"
    assert report.exit_code == 2
    assert sorted(report.lines) == sorted([
        "content/examples/more:1: a symbolic link leading outside the project; expected a "
        "folder inside the project (a link is followed only to one)",
        f"content/notes.md:1: {outside}",
        f"templates/root/robots.txt:1: {outside}",
        f"templates/static/leak.txt:1: {outside}",
    ])
    assert SECRET not in "\n".join(report.lines)
    assert not (tiny / "site").exists()


def test_the_examples_folder_linked_out_is_not_walked(tiny: Path, secret: Path) -> None:
    shutil.rmtree(tiny / "content" / "examples")
    (tiny / "content" / "examples").symlink_to(secret, target_is_directory=True)
    cases = load_cases(tiny)
    assert lines(cases.errors) == [
        "content/examples:1: a symbolic link leading outside the project; expected a "
        "folder inside the project (a link is followed only to one)"]
    assert cases.files == ()


def test_links_inside_the_project_are_followed_but_not_into_git_or_the_output(
        tiny: Path) -> None:
    shared = tiny / "shared"
    shared.mkdir()
    shutil.copy(tiny / "content" / "tiny.md", shared / "alias.md")
    (tiny / "content" / "alias.md").symlink_to(Path("..", "shared", "alias.md"))
    (tiny / ".git").mkdir()
    (tiny / ".git" / "config.md").write_text("# Git\n", encoding="utf-8")
    (tiny / "content" / "git.md").symlink_to(tiny / ".git" / "config.md")
    (tiny / "site").mkdir()
    (tiny / "site" / "old.md").write_text("# Old\n", encoding="utf-8")
    (tiny / "content" / "old.md").symlink_to(tiny / "site" / "old.md")
    pages, errors = load_pages(tiny)
    assert sorted(p.slug for p in pages) == ["alias", "tiny"]
    assert lines(errors) == [
        "content/git.md:1: a symbolic link leading into .git/; expected a regular file "
        "inside the project (a link is followed only to one)",
        "content/old.md:1: a symbolic link leading into the output folder; expected a "
        "regular file inside the project (a link is followed only to one)"]


OUTSIDE = ("content/notes.md:1: a symbolic link leading outside the project; expected a "
           "regular file inside the project (a link is followed only to one)")


def _a_link_swapped_out_once_checked(tiny: Path, secret: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Layout]:
    """``content/notes.md``, a link to a page in the project (read once, as it is), and
    its layout; from now on, each check of a path (``Layout.problem``) swaps the link to
    lead outside the project (to ``secret``) once it has approved it."""
    shared = tiny / "shared"
    shared.mkdir()
    (shared / "notes.md").write_text("# Notes\n", encoding="utf-8")
    link = tiny / "content" / "notes.md"
    link.symlink_to(shared / "notes.md")
    layout = Layout.of(tiny)
    assert layout.read("content/notes.md") == b"# Notes\n"
    checked = Layout.problem

    def swapped_after(self: Layout, rel: str) -> InputError | None:
        found = checked(self, rel)
        link.unlink()
        link.symlink_to(secret / "notes.md")
        return found

    monkeypatch.setattr(Layout, "problem", swapped_after)
    return link, layout


def test_a_link_swapped_after_its_check_leads_no_read_or_copy_out(
        tiny: Path, secret: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link inside the project swapped to lead outside it between the check of its
    path and the opening (a race another process could win) is refused by what the
    kernel opened: the secret is neither read nor copied."""
    link, layout = _a_link_swapped_out_once_checked(tiny, secret, monkeypatch)
    shared = tiny / "shared"
    for use in (lambda: layout.read("content/notes.md"),
                lambda: layout.copy_to("content/notes.md", tiny / "copied.md")):
        link.unlink()
        link.symlink_to(shared / "notes.md")
        with pytest.raises(NotAnInput) as refused:
            use()
        assert refused.value.error.format() == OUTSIDE
    assert not (tiny / "copied.md").exists()


@pytest.mark.parametrize("named", ["none", "another-spelling"])
def test_where_the_system_names_no_open_file_its_path_must_still_lead_to_it(
        tiny: Path, secret: Path, monkeypatch: pytest.MonkeyPatch, named: str) -> None:
    """Without ``/proc`` (``none``), or where the system names the open file otherwise
    than its path (``another-spelling``: a folder in another case on a case-insensitive
    disk), the path resolved again must lead to the file opened: a file read as ever, a
    link swapped out refused, a file replaced once open said to be replaced."""
    real_readlink = os.readlink

    def readlink(path: Any, *args: Any, **kwargs: Any) -> str:
        if str(path).startswith("/proc/self/fd/"):
            if named == "none":
                raise FileNotFoundError(path)
            return "/ELSEWHERE" + real_readlink(path).upper()
        return real_readlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "readlink", readlink)
    checked = Layout.problem
    _link, layout = _a_link_swapped_out_once_checked(tiny, secret, monkeypatch)
    assert b"# Tiny" in layout.read("content/tiny.md")
    with pytest.raises(NotAnInput) as refused:
        layout.read("content/notes.md")
    assert refused.value.error.format() == OUTSIDE
    monkeypatch.setattr(Layout, "problem", checked)
    real_fstat = os.fstat

    def saved_once_open(fd: int) -> os.stat_result:
        found = real_fstat(fd)
        page = tiny / "content" / "tiny.md"
        page.with_name("new.md").write_bytes(page.read_bytes())
        page.with_name("new.md").replace(page)  # as an editor saves
        return found

    monkeypatch.setattr(os, "fstat", saved_once_open)
    with pytest.raises(NotAnInput) as replaced:
        layout.read("content/tiny.md")
    assert replaced.value.error.format() == (
        "content/tiny.md:1: the file was replaced while it was opened; expected a file "
        "that stays in place while it is read (run the command again)")


def test_link_loops_and_links_to_nothing(tiny: Path) -> None:
    (tiny / "content" / "loop.md").symlink_to("loop.md")
    (tiny / "content" / "gone.md").symlink_to("nowhere.md")
    (tiny / "content" / "examples" / "up").symlink_to("..", target_is_directory=True)
    with no_hang():
        project = load_project(tiny)
    assert lines(project.errors) == [
        "content/examples/up/examples:1: a symbolic link to a folder already read (a loop, "
        "or twice); expected each folder once",
        "content/gone.md:1: a symbolic link to nothing; expected a regular file inside the "
        "project",
        "content/loop.md:1: a symbolic link loop; expected a regular file inside the "
        "project"]


# -- names -----------------------------------------------------------------------------

def test_a_newline_in_a_page_name_is_refused_and_shown_escaped(tiny: Path) -> None:
    (tiny / "content" / "evil\n.md").write_text("# Evil\n", encoding="utf-8")
    report = build(tiny)
    assert report.exit_code == 2
    assert report.lines == ["content/evil\\n.md:1: the name holds a control character or a "
                            "byte that is not UTF-8; expected a plain file name"]
    assert not (tiny / "site").exists()
    # page-name-newline-rebuild, -removed: no site holds the name, so builds go on
    assert build(tiny).exit_code == 2
    (tiny / "content" / "evil\n.md").unlink()
    assert build(tiny).exit_code == 0
    assert build(tiny).exit_code == 0


def test_a_slug_is_matched_whole() -> None:
    from generator.layout import is_locale_name
    from generator.layout import is_slug

    assert is_slug("first-meld") and not is_slug("evil\n") and not is_slug("-x")
    assert is_locale_name("cs") and is_locale_name("de_AT") and is_locale_name("ca@valencia")
    assert not is_locale_name("de@a\nb") and not is_locale_name('de@x" a="<script>')
    assert not is_locale_name("cs\n")


def test_a_locale_folder_with_a_newline_is_refused(tiny: Path) -> None:
    po = tiny / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    bad = tiny / "locales" / "de@a\nb" / "LC_MESSAGES"
    bad.mkdir(parents=True)
    shutil.copy(po, bad / "messages.po")
    report = build(tiny)
    assert report.exit_code == 2
    assert report.lines == ["locales/de@a\\nb:1: the folder name 'de@a\\nb' is not a locale "
                            "Babel knows; expected a locale identifier such as cs or pt_BR"]
    assert not (tiny / "site").exists()
    # locale-modifier-newline-rebuild: no site holds the name, so builds go on
    shutil.rmtree(bad.parent)
    assert build(tiny).exit_code == 0
    assert build(tiny).exit_code == 0


# -- templates/root --------------------------------------------------------------------

def test_a_root_file_never_replaces_a_generated_one(tiny: Path) -> None:
    root = tiny / "templates" / "root"
    for rel in ("en/tiny/index.html", "index.html", "static/style.css", ".rules-site",
                "sk/index.html/x", "CNAME"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("mine", encoding="utf-8")
    report = build(tiny)
    assert report.exit_code == 2
    clash = "; expected a name the generator does not write (rename or remove it)"
    assert sorted(report.lines) == [
        f"templates/root/.rules-site:1: clashes with the generated file .rules-site{clash}",
        f"templates/root/en/tiny/index.html:1: clashes with the generated file "
        f"en/tiny/index.html{clash}",
        f"templates/root/index.html:1: clashes with the generated file index.html{clash}",
        f"templates/root/sk/index.html/x:1: clashes with the generated file "
        f"sk/index.html{clash}",
        "templates/root/static/style.css:1: publishes static/style.css, as "
        "generator/theme/static/style.css does; expected one file of each name in the site",
    ]
    for rel in ("en/tiny/index.html", "index.html", "static/style.css", ".rules-site",
                "sk/index.html/x"):
        (root / rel).unlink()
    report = build(tiny)
    assert report.exit_code == 0, report.lines
    assert (tiny / "site" / "CNAME").read_text("utf-8") == "mine"
    assert "mine" not in (tiny / "site" / "en" / "tiny" / "index.html").read_text("utf-8")


def test_a_root_file_where_the_site_has_its_static_folder_is_an_input_error(
        tiny: Path) -> None:
    """``templates/root/static`` as a file is an input error at its file, as
    ``templates/root/cs`` is, in ``check`` and ``build`` alike (not "cannot write the
    site: [Errno 21] Is a directory"): the folder of the theme's assets is one the site
    needs too."""
    root = tiny / "templates" / "root"
    root.mkdir(parents=True)
    (root / "static").write_text("mine", encoding="utf-8")
    said = ["templates/root/static:1: clashes with the generated folder static/; expected "
            "a name the generator does not write (rename or remove it)"]
    report = build(tiny)
    assert (report.exit_code, report.lines) == (2, said)
    result = run_cli("check", "--project", str(tiny))
    assert result.returncode == 2
    assert said[0] in result.stdout


# -- catalogs: atomic writes, nothing dropped ------------------------------------------

def _catalogs(project: Path) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes()
            for p in sorted((project / "locales").rglob("*.po*"))}


def test_a_full_disk_during_update_leaves_every_catalog_whole(
        project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from babel.messages import pofile

    from generator.commands import i18n as extract

    before = _catalogs(project)
    real = pofile.write_po
    calls = []

    def half_then_full(fileobj: io.BufferedIOBase, catalog: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) < 3:
            real(fileobj, catalog, **kwargs)
            return
        buffer = io.BytesIO()
        real(buffer, catalog, **kwargs)
        fileobj.write(buffer.getvalue()[: len(buffer.getvalue()) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(extract, "write_po", half_then_full)
    (project / "content" / "rules.md").open("a", encoding="utf-8").write("\nA new line.\n")
    code = cli.main(["i18n", "update", "--project", str(project)])
    out = capsys.readouterr().out
    assert code == 2
    # the template, then each catalog in the order of its locale: the second one fails
    first, failed, *rest = [f"locales/{lang}/LC_MESSAGES/messages.po"
                            for lang in SITE_LOCALES[1:]]
    assert out.splitlines() == [
        f"{failed}:1: cannot be written: No space left on device; the file is unchanged "
        f"(written before it: locales/messages.pot, {first}; not written: "
        f"{', '.join(rest)})"]
    after = _catalogs(project)
    for rel in (failed, rest[0]):
        assert after[rel] == before[rel]
    assert after[first] != before[first]  # written whole before the disk filled
    assert not [p for p in (project / "locales").rglob("*") if p.name.endswith(".tmp")]


def test_update_keeps_a_translators_save_made_while_it_writes(
        project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translator saves the Czech catalog after ``i18n update`` read it, while it
    writes its new text: the save is kept (exit 2, the catalog named), the other
    catalogs are written; run again, the update merges the save."""
    from generator.layout import writing as layout

    cs = project / "locales/cs/LC_MESSAGES/messages.po"
    de = project / "locales/de/LC_MESSAGES/messages.po"
    (project / "content" / "rules.md").open("a", encoding="utf-8").write(
        "\nA new paragraph.\n")
    saved = cs.read_text("utf-8") + '\n# the translator\'s save\nmsgid "A new paragraph."\n' \
        'msgstr "Nový odstavec."\n'
    de_before = de.read_bytes()

    def translator_saves(path: Path) -> None:
        if path == cs:
            cs.write_text(saved, encoding="utf-8")

    monkeypatch.setattr(layout, "before_final_check", translator_saves)
    code = cli.main(["i18n", "update", "--project", str(project)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out.splitlines() == [
        "locales/cs/LC_MESSAGES/messages.po:1: the file changed since it was read; nothing "
        "written to it (run i18n update again)"]
    assert "locales/cs/LC_MESSAGES/messages.po: updated" not in err
    assert "locales/de/LC_MESSAGES/messages.po: updated, 0 fuzzy" in err
    assert cs.read_text("utf-8") == saved
    assert de.read_bytes() != de_before and b'msgid "A new paragraph."' in de.read_bytes()
    assert not [p for p in (project / "locales").rglob("*") if p.name.endswith(".tmp")]
    monkeypatch.undo()
    assert cli.main(["i18n", "update", "--project", str(project)]) == 0
    text = cs.read_text("utf-8")
    assert 'msgid "A new paragraph."\nmsgstr "Nový odstavec."\n' in text
    assert "# the translator's save" in text


def test_update_keeps_a_catalogs_line_ends(tiny: Path) -> None:
    """A catalog with CRLF line ends (a Windows editor's) stays CRLF, every line, as
    ``check --fix`` keeps a case file's; its permissions stay too."""
    po = tiny / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    po.write_bytes(po.read_bytes().replace(b"\n", b"\r\n")
                   + b'#~ msgid "Old"\r\n#~ msgstr "Star\xc3\xbd"\r\n')
    po.chmod(0o604)
    assert cli.main(["i18n", "update", "--project", str(tiny)]) == 0
    data = po.read_bytes()
    assert data.count(b"\n") == data.count(b"\r\n") > 10
    assert b'msgid "Plain paragraph."\r\nmsgstr ""\r\n' in data
    assert b'#~ msgid "Old"\r\n#~ msgstr "Star\xc3\xbd"\r\n' in data
    assert po.stat().st_mode & 0o777 == 0o604
    pot = (tiny / "locales" / "messages.pot").read_bytes()
    assert b"\r" not in pot  # a new file: plain line ends
    assert cli.main(["check", "--project", str(tiny)]) == 0


def test_replace_file_keeps_the_old_file_when_the_write_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.layout import replace_file

    path = tmp_path / "messages.po"
    path.write_bytes(b"old catalog")
    path.chmod(0o640)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        replace_file(path, b"new catalog" * 1000)
    assert path.read_bytes() == b"old catalog"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messages.po"]
    monkeypatch.undo()
    replace_file(path, b"new")
    assert path.read_bytes() == b"new" and (path.stat().st_mode & 0o777) == 0o640


def test_replace_file_writes_where_a_shell_would(tmp_path: Path) -> None:
    """``check --output`` does not rename its temporary file over whatever the name is,
    which would make a link to ``/dev/null`` (or, as root, ``/dev/null`` itself) a
    regular file. A link is followed (its target replaced, the link kept), a link to
    nothing creates its target, a device is written to in place, a folder refused."""
    from generator.layout import replace_file

    (tmp_path / "real.xml").write_bytes(b"old")
    links = {"to-real": "real.xml", "to-nothing": "made.xml", "to-null": os.devnull,
             "to-full": "/dev/full"}
    for name, target in links.items():
        (tmp_path / name).symlink_to(target)
    replace_file(tmp_path / "to-real", b"report")
    replace_file(tmp_path / "to-nothing", b"new report")
    replace_file(tmp_path / "to-null", b"report")
    if Path("/dev/full").exists():
        with pytest.raises(OSError) as full:
            replace_file(tmp_path / "to-full", b"report")
        assert full.value.errno == errno.ENOSPC
    with pytest.raises(IsADirectoryError):
        replace_file(tmp_path, b"report")
    assert {name: os.readlink(tmp_path / name) for name in links} == links
    assert (tmp_path / "real.xml").read_bytes() == b"report"
    assert (tmp_path / "made.xml").read_bytes() == b"new report"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*links, "real.xml", "made.xml"])  # no temporary file left


@pytest.mark.extended
def test_update_killed_at_any_moment_leaves_the_catalog_whole(lean_project: Path) -> None:
    """kill -9 while ``i18n update`` rewrites a large catalog (the moment the catalog
    shrinks, as an in-place rewrite makes it, or after a delay): the old or the new
    catalog, never a cut one. (The lean project: its one catalog is the large one, so
    the update does not rewrite five others first.)"""
    import time

    project = lean_project

    po = project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    header, _, body = po.read_text("utf-8").partition("\n\n")
    # 40,000 entries (2.4 MB, 3.3 s of update) in the extended round; by default 10,000
    # (680 KB, 1.3 s): an in-place rewrite leaves it cut for far longer than a poll.
    entries = 40_000 if EXTENDED else 10_000
    extra = "".join(f'#~ msgid "obsolete {n}"\n#~ msgstr "zastaralé {n}"\n\n'
                    for n in range(entries))
    po.write_text(header + "\n\n" + body + extra, encoding="utf-8")
    size = po.stat().st_size
    for delay in ((None, 1.5) if EXTENDED else (None,)):  # the moment it shrinks, by default
        proc = subprocess.Popen([sys.executable, "-m", "generator", "i18n", "update",
                                 "--project", str(project)], cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        start = time.monotonic()
        while proc.poll() is None and time.monotonic() - start < 120:
            shrunk = po.stat().st_size < size * 0.9
            if shrunk or (delay is not None and time.monotonic() - start > delay):
                proc.kill()
                break
            time.sleep(0.0002)  # a poll every 0.2 ms, not a core spinning beside the update
        proc.wait(timeout=60)
        now = po.read_bytes()
        assert len(now) >= size * 0.9, f"catalog cut to {len(now)} of {size} bytes"
        assert now.endswith(b"\n") and f'msgstr "zastaralé {entries - 1}"'.encode() in now


def test_update_keeps_previous_msgid_lines(tiny: Path, capfd: pytest.CaptureFixture[str]
                                           ) -> None:
    po = tiny / "locales" / "sk" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text("utf-8") + '# translator\'s note\n#~| msgid "Older text"\n'
                  '#~ msgid "Old text"\n#~ msgstr "Starý text"\n', encoding="utf-8")
    assert cli.main(["i18n", "update", "--project", str(tiny)]) == 0
    text = po.read_text("utf-8")
    assert '# translator\'s note\n#~| msgid "Older text"\n#~ msgid "Old text"\n' \
           '#~ msgstr "Starý text"\n' in text
    assert "WARNING" not in capfd.readouterr().err
