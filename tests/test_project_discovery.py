"""The project of a command given no ``--project`` (docs/site.md, "Command line"): the
nearest folder holding ``site.yaml``, the current one or one above it, as git finds a
repository; the search stops at the home folder, a file-system boundary and a folder the
user does not own; without one, the current folder, as before. Positions are relative
to the project."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator.layout import FoundProject
from generator.layout import find_project
from tests.conftest import replace_in
from tests.conftest import run_cli


def _site(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.yaml").write_text("title: Rules\n", encoding="utf-8")
    return folder


def test_a_command_in_a_subfolder_works_on_the_project_above(init_project: Path) -> None:
    line = replace_in(init_project / "content/examples/melds.yaml", "points: 31", "points: 30")
    examples = init_project / "content/examples"
    result = run_cli("check", cwd=examples)
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == (
        f"content/examples/melds.yaml:{line}: case queen-king-ace-hearts: points documented "
        "30, engine 31")
    fixed = run_cli("check", "--fix", cwd=examples)
    assert fixed.returncode == 0, fixed.stdout
    assert fixed.stdout.startswith("--- a/content/examples/melds.yaml\n")
    built = run_cli("build", cwd=examples.parent)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (init_project / "site/en/melds/index.html").is_file()
    assert not (init_project / "content/site").exists()


def test_without_site_yaml_the_current_folder_is_the_project(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "notes"
    here.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    result = run_cli("check", cwd=here)
    assert result.returncode == 2
    message = (f"no content/ folder in {here}, and no site.yaml there or in a folder above "
               "it (the search goes no higher than the home folder); expected to run in a "
               "project (a folder holding site.yaml or content/, or one below it), or "
               "--project DIR")
    assert result.stdout == f"content:1: {message}\n"
    data = json.loads(run_cli("check", "--format", "json", cwd=here).stdout)
    assert data["errors"] == [{"file": "content", "line": 1, "column": None,
                               "message": message}]
    named = run_cli("check", "--project", "notes", cwd=tmp_path)
    assert named.stdout == "notes:1: no content/ folder; expected a project folder holding " \
        "content/ and content/examples/ (see --project)\n"


def test_a_project_whose_site_yaml_has_no_content_says_so(tmp_path: Path) -> None:
    root = _site(tmp_path / "rules")
    (root / "drafts").mkdir()
    result = run_cli("check", cwd=root / "drafts")
    assert result.returncode == 2
    assert result.stdout == f"content:1: no content/ folder in the project {root} (the " \
        "folder of its site.yaml); expected content/ and content/examples/ there\n"


def test_the_nearest_site_yaml_wins(tmp_path: Path) -> None:
    outer = _site(tmp_path / "outer")
    inner = _site(outer / "inner")
    start = inner / "a" / "b"
    start.mkdir(parents=True)
    assert find_project(start, home=tmp_path / "home") == FoundProject(inner, True)
    assert find_project(inner, home=tmp_path / "home") == FoundProject(inner, True)
    (outer / "x").mkdir()
    assert find_project(outer / "x", home=tmp_path / "home") == FoundProject(outer, True)


def test_the_search_stops_below_the_home_folder(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A stray ``~/site.yaml`` (or the one of a project the home folder is) is not taken
    from a folder below it; from the home folder itself it is."""
    home = _site(tmp_path / "home")
    work = home / "work"
    work.mkdir()
    assert find_project(work, home=home) == FoundProject(work, False, "home folder")
    assert find_project(home, home=home) == FoundProject(home, True)
    assert find_project(work, home=tmp_path / "elsewhere") == FoundProject(home, True)
    monkeypatch.setenv("HOME", str(home))
    result = run_cli("check", cwd=work)
    assert result.returncode == 2
    assert result.stdout == f"content:1: no content/ folder in {work}, and no site.yaml " \
        "there or in a folder above it (the search goes no higher than the home folder); " \
        "expected to run in a project (a folder holding site.yaml or content/, or one " \
        "below it), or --project DIR\n"


def test_the_search_stops_below_a_folder_of_another_user(tmp_path: Path) -> None:
    root = _site(tmp_path / "theirs")
    mine = root / "mine"
    mine.mkdir()
    me = os.stat(mine).st_uid
    assert find_project(mine, home=tmp_path / "home", uid=me) == FoundProject(root, True)
    other = FoundProject(mine, False, "folder owned by another user")
    assert find_project(mine, home=tmp_path / "home", uid=me + 1) == other


def test_the_search_stops_at_a_file_system_boundary(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``root`` (holding ``site.yaml``) stands for a mount point's parent: the folder
    below it is on another device, as a mounted disk is."""
    root = _site(tmp_path / "root")
    mounted = root / "mounted"
    (mounted / "inside").mkdir(parents=True)
    real_stat = os.stat

    def stat(path: str | os.PathLike[str], *args: object, **kwargs: object) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        if Path(path) in (mounted, mounted / "inside"):
            values = list(found)
            values[2] = found.st_dev + 1  # (st_dev)
            return os.stat_result(values)
        return found

    monkeypatch.setattr(os, "stat", stat)
    home = tmp_path / "home"
    assert find_project(mounted / "inside", home=home) == \
        FoundProject(mounted / "inside", False, "file-system boundary")
    monkeypatch.undo()
    assert find_project(mounted / "inside", home=home) == FoundProject(root, True)


def test_the_current_folder_is_named_dot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    here = _site(tmp_path / "here")
    monkeypatch.chdir(here)
    assert find_project(home=tmp_path / "home") == FoundProject(Path("."), True)
    (here / "sub").mkdir()
    monkeypatch.chdir(here / "sub")
    assert find_project(home=tmp_path / "home") == FoundProject(here, True)
