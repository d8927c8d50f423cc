"""``check --fix`` (docs/site.md, "check --fix"): exact text edits of the disagreeing cases,
every other byte kept; refused while an input error stands or when a file changed since
it was read; the file replaced atomically."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from generator.commands import fix as fix_module
from generator.commands.project import load_project
from generator.layout import writing as layout
from tests.conftest import REPO
from tests.conftest import run_cli

CASES = "content/examples/cases.yaml"


def small_project(root: Path, cases: str) -> Path:
    """A project of one page and one case file holding ``cases``; the page shows every
    case (a table each, so that cases of several kinds may be shown), so that no case is
    a warning of its own."""
    (root / "content" / "examples").mkdir(parents=True)
    ids = dict.fromkeys(re.findall(r"^\s*- id: ([a-z0-9-]+)(?![^\s#])", cases, re.M))
    tables = "".join(f"\n```cases\n{case_id}\n```\n" for case_id in ids)
    (root / "content" / "page.md").write_text(f"# Page\n\nText.\n{tables}",
                                             encoding="utf-8")
    (root / CASES).write_text(cases, encoding="utf-8")
    return root


BEFORE = """\
# Melds of Rami 51: every comment stays
defaults: {game: rami51}   # the game of every case
cases:
  - id: joker-run            # the joker's points are wrong
    kind: meld
    cards: "JK 7S 8S"
    title: 'A run with a joker'
    expect: {verdict: valid, type: run, points: 24}   # flow, comment after
  - id: untouched
    kind: meld
    cards: [QH, KH, AH]
    title: Untouched   # agrees
    expect:
      verdict: valid
      points: 31
  - id: no-wrap
    kind: meld
    cards: QH KH 2H
    title: No wrap
    expect:
      verdict: 'valid'     # quoted, flips
      # a comment inside expect
      points: 33
    note: Key order kept.
"""

AFTER = """\
# Melds of Rami 51: every comment stays
defaults: {game: rami51}   # the game of every case
cases:
  - id: joker-run            # the joker's points are wrong
    kind: meld
    cards: "JK 7S 8S"
    title: 'A run with a joker'
    expect: {verdict: valid, type: run, points: 21}   # flow, comment after
  - id: untouched
    kind: meld
    cards: [QH, KH, AH]
    title: Untouched   # agrees
    expect:
      verdict: valid
      points: 31
  - id: no-wrap
    kind: meld
    cards: QH KH 2H
    title: No wrap
    expect:
      verdict: 'invalid'     # quoted, flips
      # a comment inside expect
      reason: not_consecutive
    note: Key order kept.
"""


def test_fix_rewrites_the_values_and_keeps_every_other_byte(tmp_path: Path) -> None:
    root = small_project(tmp_path, BEFORE)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (root / CASES).read_text(encoding="utf-8") == AFTER
    assert result.stdout.startswith(f"--- a/{CASES}\n+++ b/{CASES}\n")
    assert "-    expect: {verdict: valid, type: run, points: 24}   # flow, comment after\n" \
        "+    expect: {verdict: valid, type: run, points: 21}   # flow, comment after" \
        in result.stdout
    assert "-      points: 33\n+      reason: not_consecutive" in result.stdout
    assert "fixed 2 cases in 1 file" in result.stderr
    assert "3 cases checked: 0 disagreements, 0 input errors" in result.stderr
    again = run_cli("check", "--project", str(root))
    assert again.returncode == 0 and again.stdout == ""


HAND_OFF_BY_35 = "    kind: hand\n    game: rami51\n    cards: AH JK\n    expect: {points: 1}\n"
"""A hand worth 36 documented as 1."""


def _one_case(body: str) -> str:
    return f"cases:\n  - id: x\n    title: X\n{body}"


@pytest.mark.parametrize(("before", "after"), [
    pytest.param(  # a value in a block mapping
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    expect:\n      points: 30\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    expect:\n      points: 36\n",
        id="replace-block"),
    pytest.param(  # the engine gives no value: removed, first entry of a flow mapping
        "    kind: meld\n    game: cardverse\n    cards: 5H 6H 8H\n"
        "    expect: {type: set, verdict: invalid}\n",
        "    kind: meld\n    game: cardverse\n    cards: 5H 6H 8H\n"
        "    expect: {type: run, verdict: invalid}\n",
        id="replace-flow-first"),
    pytest.param(  # a field the engine leaves empty goes, with its comma
        "    kind: first_meld\n    game: rami51\n    melds: [QH KH AH, QS KS 5D]\n"
        "    expect: {verdict: rejected, points: 40, reason: invalid_meld}\n",
        "    kind: first_meld\n    game: rami51\n    melds: [QH KH AH, QS KS 5D]\n"
        "    expect: {verdict: rejected, reason: invalid_meld}\n",
        id="remove-flow"),
    pytest.param(  # a verdict flipped to invalid in flow style: points out, reason in
        "    kind: meld\n    game: rami51\n    cards: QH KH 2H\n"
        "    expect: {verdict: valid, points: 22}\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH 2H\n"
        "    expect: {verdict: invalid, reason: not_consecutive}\n",
        id="flip-flow"),
    pytest.param(  # a verdict flipped to valid: the reason goes, the points come
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: invalid\n      reason: not_consecutive  # wrong\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: valid\n      points: 31\n",
        id="flip-block"),
    pytest.param(  # one item of a block list, its comment kept
        "    kind: round\n    game: rami51\n    hands: [5C 6C, [], JK AH]\n    expect:\n"
        "      scores:\n        - 11\n        - 5   # wrong\n        - 36\n",
        "    kind: round\n    game: rami51\n    hands: [5C 6C, [], JK AH]\n    expect:\n"
        "      scores:\n        - 11\n        - 0   # wrong\n        - 36\n",
        id="list-item"),
    pytest.param(  # a card compared as a card; a wrong one written as the engine's code
        "    kind: joker_swap\n    game: rami51\n    meld: JK 7S 8S\n    card: 6S\n"
        "    expect: {verdict: allowed, joker_stands_for: 9s}\n",
        "    kind: joker_swap\n    game: rami51\n    meld: JK 7S 8S\n    card: 6S\n"
        "    expect: {verdict: allowed, joker_stands_for: 6S}\n",
        id="card"),
    pytest.param(  # a scenario's result, and an end left empty goes whole
        "    kind: scenario\n    game: rami51\n    start:\n"
        "      hands: [5C 6C 7C KH KS KD 2D 9S 3H 4S 8D JC QS, 2C 3C 4D 6H 7H 9D 10D JD"
        " QD KC AC 8S 5D]\n      discard: QH\n      stock: 3D 4D 9C\n"
        "    actions: [{draw: discard}, {discard: QH}]\n    expect:\n"
        "      results: [legal, legal]\n      end:\n        winner: 1\n",
        "    kind: scenario\n    game: rami51\n    start:\n"
        "      hands: [5C 6C 7C KH KS KD 2D 9S 3H 4S 8D JC QS, 2C 3C 4D 6H 7H 9D 10D JD"
        " QD KC AC 8S 5D]\n      discard: QH\n      stock: 3D 4D 9C\n"
        "    actions: [{draw: discard}, {discard: QH}]\n    expect:\n"
        "      results: [legal, discard_taken_card]\n",
        id="scenario"),
    pytest.param(  # a stale known_disagreement loses its status and because
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n"
        "    status: known_disagreement   # the app said 30\n"
        "    because: The app counted the ace as 10.\n    expect: {verdict: valid, points: 31}\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n"
        "    expect: {verdict: valid, points: 31}\n",
        id="stale-status"),
    pytest.param(  # a pending case is fixed and stays pending
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    status: pending\n"
        "    expect: {points: 1}\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    status: pending\n"
        "    expect: {points: 36}\n",
        id="pending"),
    pytest.param(  # a block scalar removed: the comment line after it stays
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: invalid\n      reason: |-\n        not_consecutive\n"
        "      # a comment after the block\n    note: N\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: valid\n      points: 31\n"
        "      # a comment after the block\n    note: N\n",
        id="block-removed-comment-kept"),
    pytest.param(  # a block scalar replaced: its style kept, the next line's break too
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: |-\n        invalid\n      # a comment after the block\n"
        "      type: run\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: |-\n        valid\n      # a comment after the block\n"
        "      type: run\n      points: 31\n",
        id="block-replaced"),
    pytest.param(  # two block scalars, the next field on the line after them
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: >-\n        invalid\n      reason: |-\n        not_consecutive\n"
        "\n    note: N\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: >-\n        valid\n      points: 31\n\n    note: N\n",
        id="block-then-field"),
    pytest.param(  # a stale status: `because: |` goes, the comment after it stays
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    status: known_disagreement\n    because: |\n      The app said 30.\n"
        "    # a comment after because\n    expect: {points: 36}\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    # a comment after because\n    expect: {points: 36}\n",
        id="stale-block-comment-kept"),
    pytest.param(  # a stale status: `because: |` right before the next field
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    status: known_disagreement\n    because: |\n      The app said 30.\n"
        "      And it still did in May.\n    expect: {points: 36}\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    expect: {points: 36}\n",
        id="stale-block-then-field"),
    pytest.param(  # the value's tag and anchor stay: only the value changes
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: !!str invalid  # tagged\n      reason: &why not_consecutive\n",
        "    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
        "      verdict: !!str valid  # tagged\n      points: 31\n",
        id="tag-kept"),
    pytest.param(  # a tag, then a comment and the value on the next line
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    expect:\n"
        "      points: !!int   # the hand\n        30\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n    expect:\n"
        "      points: !!int   # the hand\n        36\n",
        id="tag-and-comment-kept"),
    pytest.param(  # a tag and an anchor in a flow mapping
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    expect: {points: &p !!int 30}\n",
        "    kind: hand\n    game: rami51\n    cards: AH JK\n"
        "    expect: {points: &p !!int 36}\n",
        id="tag-in-flow"),
])
def test_each_kind_of_edit(tmp_path: Path, before: str, after: str) -> None:
    root = small_project(tmp_path, _one_case(before))
    result = run_cli("check", "--fix", "--project", str(root))
    assert (root / CASES).read_text(encoding="utf-8") == _one_case(after), result.stdout
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_known_disagreement_still_disagreeing_is_left_alone(tmp_path: Path) -> None:
    text = _one_case("    kind: hand\n    game: rami51\n    cards: AH JK\n"
                     "    status: known_disagreement\n    because: The app says 30.\n"
                     "    expect: {points: 30}\n")
    root = small_project(tmp_path, text)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0
    assert result.stdout.startswith(f"{CASES}:9: case x: points documented 30, engine 36 "
                                    "(known disagreement, not failing: The app says 30.)")
    assert (root / CASES).read_text(encoding="utf-8") == text


def test_fix_writes_nothing_while_an_input_error_stands(tmp_path: Path) -> None:
    text = _one_case(HAND_OFF_BY_35)
    root = small_project(tmp_path, text)
    bad = "cases:\n  - id: y\n    kind: hand\n    game: rami51\n    cards: AX\n" \
        "    title: Y\n    expect: {points: 1}\n"
    (root / "content/examples/bad.yaml").write_text(bad, encoding="utf-8")
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 2
    assert "content/examples/bad.yaml:5:12: unknown card 'AX'" in result.stdout
    assert "nothing written" in result.stdout
    assert (root / CASES).read_text(encoding="utf-8") == text
    assert (root / "content/examples/bad.yaml").read_text(encoding="utf-8") == bad


def test_fix_refuses_a_file_changed_since_it_was_read(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    text = _one_case(HAND_OFF_BY_35)
    root = small_project(tmp_path, text)
    changed = text + "# the author saved again\n"

    def load_then_save(project_root: Path, **kwargs: object) -> object:
        project = load_project(project_root)
        (root / CASES).write_text(changed, encoding="utf-8")  # after the loader read it
        return project

    monkeypatch.setattr(fix_module, "load_project", load_then_save)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 2
    assert f"{CASES}:1: the file changed since it was read; nothing written" in result.stdout
    assert (root / CASES).read_text(encoding="utf-8") == changed


def test_fix_replaces_a_linked_file_s_target_atomically(tmp_path: Path) -> None:
    text = _one_case(HAND_OFF_BY_35)
    root = small_project(tmp_path, "cases: []\n")
    (root / CASES).unlink()
    (root / "content/real.yaml").write_text(text, encoding="utf-8")
    os.symlink("../real.yaml", root / CASES)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (root / CASES).is_symlink()
    assert "points: 36" in (root / "content/real.yaml").read_text(encoding="utf-8")
    assert [p.name for p in (root / "content").iterdir() if p.name.startswith(".")] == []


def test_fix_with_nothing_to_fix_writes_nothing(tmp_path: Path) -> None:
    root = small_project(tmp_path, BEFORE.replace("points: 24", "points: 21")
                         .replace("'valid'", "'invalid'").replace("points: 33",
                                                                  "reason: not_consecutive"))
    before = (root / CASES).stat().st_mtime_ns
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0 and result.stdout == ""
    assert (root / CASES).stat().st_mtime_ns == before


def test_fix_takes_no_other_format(tmp_path: Path) -> None:
    root = small_project(tmp_path, BEFORE)
    result = run_cli("check", "--fix", "--format", "json", "--project", str(root))
    assert result.returncode == 2
    assert "--fix prints a diff, not json" in result.stdout
    assert (root / CASES).read_text(encoding="utf-8") == BEFORE


def test_fix_takes_no_output_file(tmp_path: Path) -> None:
    """``--fix --output FILE`` is refused (exit 2): nothing is fixed and no file written."""
    root = small_project(tmp_path, BEFORE)
    result = run_cli("check", "--fix", "--output", str(tmp_path / "fix.diff"),
                     "--project", str(root))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        "--output:1: --fix prints its diff on standard output; expected --fix without "
        "--output"]
    assert (root / CASES).read_text(encoding="utf-8") == BEFORE
    assert not (tmp_path / "fix.diff").exists()


def two_files(root: Path) -> dict[str, str]:
    """Three case files, each with one case whose points are off (36 documented 1)."""
    texts = {}
    for name in ("a", "b", "c"):
        text = f"cases:\n  - id: {name}\n    title: X\n{HAND_OFF_BY_35}"
        (root / f"content/examples/{name}.yaml").write_text(text, encoding="utf-8")
        texts[f"content/examples/{name}.yaml"] = text
    return texts


def _temporary_files(root: Path) -> list[str]:
    return [p.name for p in (root / "content/examples").iterdir() if p.name.startswith(".")]


def test_fix_keeps_an_edit_saved_while_it_writes(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The author saves b.yaml after --fix read it, while its new text is written to
    the temporary copy (that write held open here): the save is kept, said,
    exit 2; a.yaml and c.yaml are fixed, and the diff shows them alone."""
    root = small_project(tmp_path, "cases: []\n")
    texts = two_files(root)
    saved = texts["content/examples/b.yaml"] + "# the author's edit\n"

    def author_saves(path: Path) -> None:
        if path.name == "b.yaml":
            path.write_text(saved, encoding="utf-8")

    monkeypatch.setattr(layout, "before_final_check", author_saves)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 2
    assert (root / "content/examples/b.yaml").read_text(encoding="utf-8") == saved
    for name in ("a", "c"):
        assert "points: 36" in (root / f"content/examples/{name}.yaml").read_text("utf-8")
    assert "--- a/content/examples/a.yaml" in result.stdout
    assert "--- a/content/examples/c.yaml" in result.stdout
    assert "b.yaml\n" not in result.stdout.split("content/examples/b.yaml:1:")[0]
    assert "content/examples/b.yaml:1: the file changed since it was read; nothing written " \
        "to it (run check --fix again)" in result.stdout.splitlines()
    assert "content/examples/b.yaml:7: case b: points documented 1, engine 36" \
        in result.stdout
    assert "fixed 2 cases in 2 files" in result.stderr
    assert _temporary_files(root) == []


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="names an open file by /proc")
def test_fix_says_which_files_it_wrote_when_one_cannot_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """b.yaml cannot be written (over the file size limit, ``ulimit -f``; a full disk
    alike): a.yaml was written before it and c.yaml is not written after it, and the line
    says so, with the file (not "nothing was written" without one)."""
    root = small_project(tmp_path, "cases: []\n")
    texts = two_files(root)
    real_fsync = os.fsync

    def too_large(fd: int) -> None:
        if ".b.yaml." in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EFBIG, "File too large")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", too_large)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 2
    assert "content/examples/b.yaml:1: cannot be written: File too large; the file is " \
        "unchanged (written before it: content/examples/a.yaml; not written: " \
        "content/examples/c.yaml)" in result.stdout.splitlines()
    assert "points: 36" in (root / "content/examples/a.yaml").read_text(encoding="utf-8")
    for rel in ("content/examples/b.yaml", "content/examples/c.yaml"):
        assert (root / rel).read_text(encoding="utf-8") == texts[rel]
    assert result.stdout.count("--- a/") == 1 and "--- a/content/examples/a.yaml" \
        in result.stdout
    assert "fixed 1 case in 1 file" in result.stderr
    assert _temporary_files(root) == []


def test_fix_on_a_full_disk_names_the_file(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = small_project(tmp_path, _one_case(HAND_OFF_BY_35))
    before = (root / CASES).read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 2
    assert f"{CASES}:1: cannot be written: No space left on device; the file is unchanged " \
        "(nothing was written)" in result.stdout.splitlines()
    assert "the generator failed" not in result.stdout
    assert (root / CASES).read_bytes() == before
    assert _temporary_files(root) == []


KILLED_FIX = """
import os, signal, sys
os.fsync = lambda fd: os.kill(os.getpid(), signal.SIGKILL)  # the copy written, not renamed
from generator.cli import main
main(["check", "--fix", "--project", sys.argv[1]])
"""


def test_a_killed_fix_leaves_a_copy_the_next_fix_removes(tmp_path: Path) -> None:
    """kill -9 while --fix writes: the case file is whole (the old text), and the
    temporary copy it leaves is removed by the next --fix, which fixes the file."""
    root = small_project(tmp_path, _one_case(HAND_OFF_BY_35))
    before = (root / CASES).read_text(encoding="utf-8")
    killed = subprocess.run([sys.executable, "-c", KILLED_FIX, str(root)], cwd=REPO,
                            capture_output=True, check=False, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert (root / CASES).read_text(encoding="utf-8") == before
    assert len(_temporary_files(root)) == 1
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0, result.stdout
    assert "points: 36" in (root / CASES).read_text(encoding="utf-8")
    assert _temporary_files(root) == []
    # fixed by hand after the kill: the next --fix, with nothing to fix, removes it too
    (root / CASES).write_text(before, encoding="utf-8")
    killed = subprocess.run([sys.executable, "-c", KILLED_FIX, str(root)], cwd=REPO,
                            capture_output=True, check=False, timeout=120)
    assert killed.returncode == -signal.SIGKILL and len(_temporary_files(root)) == 1
    (root / CASES).write_text(before.replace("points: 1", "points: 36"), encoding="utf-8")
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0 and result.stdout == ""
    assert _temporary_files(root) == []


def test_fix_keeps_a_byte_order_mark_and_crlf(tmp_path: Path) -> None:
    root = small_project(tmp_path, "")
    text = _one_case("    kind: meld\n    game: rami51\n    cards: QH KH AH\n    expect:\n"
                     "      verdict: invalid\n      reason: not_consecutive\n")
    (root / CASES).write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    result = run_cli("check", "--fix", "--project", str(root))
    assert result.returncode == 0, result.stdout
    assert (root / CASES).read_bytes() == b"\xef\xbb\xbf" + text.replace(
        "verdict: invalid\n      reason: not_consecutive", "verdict: valid\n      points: 31"
    ).replace("\n", "\r\n").encode()


# -- --diff --------------------------------------------------------------------------------


def _diff_part(stdout: str) -> str:
    """The unified diff at the start of ``check --fix``'s output (before the report)."""
    lines = stdout.splitlines(keepends=True)
    end = next((i for i, line in enumerate(lines) if line.startswith("content/")), len(lines))
    return "".join(lines[:end])


@pytest.mark.parametrize("flags", [("--fix", "--diff"), ("--diff",)])
def test_fix_diff_prints_what_fix_writes_and_writes_nothing(
        tmp_path: Path, flags: tuple[str, ...]) -> None:
    root = small_project(tmp_path, BEFORE)
    stamp = (root / CASES).stat().st_mtime_ns
    shown = run_cli("check", *flags, "--project", str(root))
    assert shown.returncode == 1  # as check: the files still disagree
    assert (root / CASES).read_text(encoding="utf-8") == BEFORE
    assert (root / CASES).stat().st_mtime_ns == stamp
    assert [p.name for p in (root / "content/examples").iterdir()] == ["cases.yaml"]
    assert shown.stderr.splitlines() == [
        "--diff: 2 cases in 1 file would be fixed; nothing written",
        "3 cases checked: 3 disagreements, 0 input errors"]
    report = shown.stdout[len(_diff_part(shown.stdout)):]
    assert report.startswith(f"{CASES}:8: case joker-run: points documented 24, engine 21\n")
    written = run_cli("check", "--fix", "--project", str(root))
    assert written.returncode == 0
    assert _diff_part(shown.stdout) == written.stdout
    assert (root / CASES).read_text(encoding="utf-8") == AFTER


@pytest.mark.parametrize("text", [
    "a: 1\nb: 2\nc: 50",  # the value on the last line, no line feed after it
    "a: 1\r\nb: 2\r\nc: 50",
    "a: 1 # \u2028 \x0c\nb: 2\nc: 50\n",  # breaks to str.splitlines, not to patch
])
def test_fix_diffs_last_line_without_a_line_feed_is_marked(tmp_path: Path,
                                                           text: str) -> None:
    """The diff of a file whose last line has no line feed says so (``\\ No newline at
    end of file``, as ``diff -u``), and lines are the ones ``patch`` counts: the diff
    applies and gives what ``--fix`` writes."""
    from generator.cases.edit import Edit
    from generator.cases.edit import apply_edits
    from generator.cases.edit import edit_diff

    at = text.index("50")
    edits = [Edit(at, at + 2, "52")]
    diff = edit_diff(text, edits, "a/f.yaml", "b/f.yaml")
    if not text.endswith("\n"):
        assert diff[-4:] == ["-c: 50\n", "\\ No newline at end of file\n", "+c: 52\n",
                             "\\ No newline at end of file\n"]
    target = tmp_path / "f.yaml"
    target.write_bytes(text.encode("utf-8"))
    (tmp_path / "f.diff").write_bytes("".join(diff).encode("utf-8"))
    applied = subprocess.run(["git", "apply", "--unsafe-paths", "f.diff"], cwd=tmp_path,
                             capture_output=True, text=True, check=False)
    assert applied.returncode == 0, applied.stderr
    assert target.read_bytes() == apply_edits(text, edits).encode("utf-8")


def test_fix_diff_with_nothing_to_fix_or_an_input_error(tmp_path: Path) -> None:
    root = small_project(tmp_path, AFTER)
    nothing = run_cli("check", "--fix", "--diff", "--project", str(root))
    assert (nothing.returncode, nothing.stdout) == (0, "")
    (root / CASES).write_text(BEFORE.replace("JK 7S 8S", "JK 7S 8X"), encoding="utf-8")
    broken = run_cli("check", "--fix", "--diff", "--project", str(root))
    assert broken.returncode == 2
    assert broken.stdout.splitlines()[-1] == \
        "check --fix: no diff: the input has errors (fix them first)"
    assert broken.stdout.startswith(f"{CASES}:6:19: unknown card '8X'")


def test_the_summary_offers_fix_only_when_it_settles_every_failing_disagreement(
        tmp_path: Path) -> None:
    """``b``'s points are reached through an alias: ``--fix`` cannot edit them, so it
    would not settle every disagreement; without ``b`` it would."""
    text = ("defaults: {game: rami51}\ncases:\n"
            "  - {id: a, kind: hand, cards: AH JK, title: A, expect: {points: &p 30}}\n"
            "  - {id: b, kind: hand, cards: AH JK, title: B, expect: {points: *p}}\n")
    root = small_project(tmp_path, text)
    assert len(load_project(root).disagreements) == 2
    assert not fix_module.settles_all(load_project(root))
    (root / CASES).write_text(text.rsplit("  - ", 1)[0], encoding="utf-8")
    assert fix_module.settles_all(load_project(root))
