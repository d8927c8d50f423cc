"""The one writer of the user's files (generator/layout/writing.py):
:func:`rewrite_file` writes a file only while it is as it was read, in its own form (line
ends, byte-order mark, permissions), through a temporary copy that a killed process's
successor sweeps away."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.layout import TEMP_TAG
from generator.layout import FileChanged
from generator.layout import FileState
from generator.layout import Layout
from generator.layout import in_form_of
from generator.layout import rewrite_file
from generator.layout import sweep_temporary_copies
from generator.layout import write_failure
from generator.layout import writing as layout
from tests.conftest import REPO


def _read(path: Path) -> FileState:
    return FileState.after_read(path, path.read_bytes())


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_file_as_read_is_rewritten_with_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"old\n")
    path.chmod(0o640)
    rewrite_file(_read(path), "new ♥\n")
    assert path.read_bytes() == "new ♥\n".encode()
    assert path.stat().st_mode & 0o777 == 0o640
    assert _names(tmp_path) == ["a.yaml"]


@pytest.mark.parametrize("edit", ["in place, same size", "renamed over", "appended",
                                  "removed", "made a link elsewhere"])
def test_a_file_changed_after_the_read_is_not_written(tmp_path: Path, edit: str) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"points: 30\n")
    state = _read(path)
    status = path.stat()
    (tmp_path / "other.yaml").write_bytes(b"other\n")
    if edit == "in place, same size":  # the same size and modification time: the digest
        with path.open("r+b") as fh:
            fh.write(b"points: 31\n")
        os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    elif edit == "renamed over":  # an editor's save: another file, renamed into place
        (tmp_path / "saved").write_bytes(b"points: 30\n")
        os.replace(tmp_path / "saved", path)
    elif edit == "appended":
        with path.open("ab") as fh:
            fh.write(b"# note\n")
    elif edit == "removed":
        path.unlink()
    else:
        path.unlink()
        path.symlink_to("other.yaml")
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(FileChanged) as caught:
        rewrite_file(state, b"points: 36\n")
    assert str(caught.value) == "the file changed since it was read; nothing written to it"
    assert (path.read_bytes() if path.exists() else None) == before
    assert (tmp_path / "other.yaml").read_bytes() == b"other\n"
    assert not [n for n in _names(tmp_path) if n.endswith(".tmp")]


def test_an_edit_saved_while_the_copy_is_prepared_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The window the final check closes: the new text is written to the temporary copy
    and flushed (seconds, on a slow disk), then another program saves the file."""
    path = tmp_path / "a.yaml"
    path.write_bytes(b"points: 30\n")
    state = _read(path)
    seen: list[Path] = []

    def save_meanwhile(named: Path) -> None:
        seen.append(named)
        copies = [n for n in _names(tmp_path) if TEMP_TAG in n]
        assert len(copies) == 1 and (tmp_path / copies[0]).read_bytes() == b"points: 36\n"
        path.write_bytes(b"points: 30\n# the author's note\n")

    monkeypatch.setattr(layout, "before_final_check", save_meanwhile)
    with pytest.raises(FileChanged):
        rewrite_file(state, b"points: 36\n")
    assert seen == [path]
    assert path.read_bytes() == b"points: 30\n# the author's note\n"
    assert _names(tmp_path) == ["a.yaml"]


def test_a_file_that_appeared_is_not_replaced(tmp_path: Path) -> None:
    path = tmp_path / "locales" / "cs" / "messages.po"
    state = FileState.after_read(path, None)  # no file yet: it is made
    rewrite_file(state, b"made\n")
    assert path.read_bytes() == b"made\n"
    with pytest.raises(FileChanged):  # the same state: a file is there now
        rewrite_file(state, b"made again\n")
    assert path.read_bytes() == b"made\n"


def test_a_link_s_target_is_rewritten_and_the_link_kept(tmp_path: Path) -> None:
    (tmp_path / "real.yaml").write_bytes(b"old\n")
    (tmp_path / "link.yaml").symlink_to("real.yaml")
    state = Layout.of(tmp_path).read_state("link.yaml")
    assert state.data == b"old\n" and state.real == tmp_path.resolve() / "real.yaml"
    rewrite_file(state, b"new\n")
    assert os.readlink(tmp_path / "link.yaml") == "real.yaml"
    assert (tmp_path / "real.yaml").read_bytes() == b"new\n"


@pytest.mark.parametrize(("original", "new", "written"), [
    (b"a\r\nb\r\n", b"a\nc\n", b"a\r\nc\r\n"),  # text made anew takes the CRLF
    (b"a\rb\r", b"a\nc\n", b"a\rc\r"),  # and CR alone
    (b"a\nb\r\n", b"a\nc\n", b"a\nc\n"),  # the first line's end counts
    (b"a\r\nb\n", b"a\r\nc\n", b"a\r\nc\n"),  # an edit of the text keeps its mixed ends
    (b"\xef\xbb\xbfa\r\n", b"b\n", b"\xef\xbb\xbfb\r\n"),  # the byte-order mark kept
    (b"\xef\xbb\xbfa\n", b"\xef\xbb\xbfb\n", b"\xef\xbb\xbfb\n"),  # never doubled
    (b"no line end", b"x\ny\n", b"x\ny\n"),
    (None, b"x\n", b"x\n"),  # a new file as given
])
def test_the_new_text_takes_the_file_s_form(original: bytes | None, new: bytes,
                                             written: bytes) -> None:
    assert in_form_of(original, new) == written


def test_a_write_failure_leaves_the_file_and_no_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"old\n")
    state = _read(path)

    def too_large(fd: int, data: bytes) -> None:
        raise OSError(errno.EFBIG, "File too large")

    monkeypatch.setattr(layout, "write_all", too_large)
    with pytest.raises(OSError, match="File too large"):
        rewrite_file(state, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert _names(tmp_path) == ["a.yaml"]


def test_a_write_failure_names_what_was_written_and_what_not() -> None:
    full = OSError(errno.ENOSPC, "No space left on device")
    assert write_failure("b.yaml", full, ["a.yaml"], ["c.yaml", "d.yaml"]) == (
        "b.yaml:1: cannot be written: No space left on device; the file is unchanged "
        "(written before it: a.yaml; not written: c.yaml, d.yaml)")
    assert write_failure("a.yaml", full, []) == (
        "a.yaml:1: cannot be written: No space left on device; the file is unchanged "
        "(nothing was written)")


KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from generator.layout import writing as layout
path = Path(sys.argv[1])
layout.before_final_check = lambda named: os.kill(os.getpid(), signal.SIGKILL)
layout.rewrite_file(layout.FileState.after_read(path, path.read_bytes()), b"new\\n")
"""


def test_a_killed_writer_s_copy_is_swept_by_the_next_write(tmp_path: Path) -> None:
    """kill -9 while the copy exists (after it was written, before the rename): the copy
    stays, since nothing runs in a killed process; the next write into the folder
    removes it, as no live process holds its lock."""
    path = tmp_path / "a.yaml"
    path.write_bytes(b"old\n")
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], cwd=REPO,
                            check=False, timeout=60)
    assert killed.returncode == -signal.SIGKILL
    left = [n for n in _names(tmp_path) if n != "a.yaml"]
    assert len(left) == 1 and left[0].startswith(f".a.yaml.{TEMP_TAG}"), left
    assert path.read_bytes() == b"old\n"
    (tmp_path / "b.yaml").write_bytes(b"b\n")
    rewrite_file(_read(tmp_path / "b.yaml"), b"b2\n")
    assert _names(tmp_path) == ["a.yaml", "b.yaml"]


def test_a_live_writer_s_copy_and_other_files_are_not_swept(tmp_path: Path) -> None:
    target = tmp_path / "a.yaml"
    target.write_bytes(b"old\n")
    fd, copy = layout._temporary_copy(target, b"being written\n")
    try:
        named_alike = [f".a.yaml.{TEMP_TAG}abc.tmp", f".a.yaml.{TEMP_TAG}abcdefgh.tmp.bak",
                       ".a.yaml.abcdefgh.tmp", f"a.yaml.{TEMP_TAG}abcdefgh.tmp"]
        for name in named_alike:
            (tmp_path / name).write_bytes(b"the user's\n")
        os.mkdir(tmp_path / f".b.yaml.{TEMP_TAG}abcdefgh.tmp")
        assert sweep_temporary_copies(tmp_path) == []
        assert Path(copy).read_bytes() == b"being written\n"
    finally:
        layout._discard(fd, copy)
    assert len(_names(tmp_path)) == 1 + len(named_alike) + 1
