"""``python -m generator init DIR``: a new project that checks and builds at once, in
English and Czech, its case file valid for the editor schema it names; a folder that
holds anything is refused (exit 2), and the scaffold ships as package data."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import yaml
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from generator.cases.editor_schema import editor_schema
from generator.commands.init import scaffold_files
from generator.layout import SCAFFOLD
from tests.conftest import REPO
from tests.conftest import run_cli


def _init(target: Path) -> None:
    result = run_cli("init", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"created {target}" in result.stderr


def test_init_then_check_and_build_strict(tmp_path: Path) -> None:
    target = tmp_path / "new" / "rules"
    _init(target)
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                  if p.is_file()) == scaffold_files()
    check = run_cli("check", "--project", str(target))
    assert (check.returncode, check.stdout) == (0, "")
    assert "1 case checked: 0 disagreements, 0 input errors" in check.stderr
    # --strict: every message the site shows is translated (else: python -m
    # tests.scaffold_catalog brings the scaffold's catalog up to date)
    build = run_cli("build", "--strict", "--project", str(target))
    assert build.returncode == 0, build.stdout + build.stderr
    used = re.search(r"^cs: (\d+) of the (\d+) messages the site uses are translated "
                     r"\(100%\), complete$", build.stderr, re.M)
    assert used is not None and used[1] == used[2] and int(used[1]) > 20, build.stderr
    site = target / "site"
    english = BeautifulSoup((site / "en" / "melds" / "index.html").read_text("utf-8"),
                            "html.parser")
    czech = BeautifulSoup((site / "cs" / "melds" / "index.html").read_text("utf-8"),
                          "html.parser")
    assert english.h1 is not None and english.h1.get_text(strip=True) == "Melds"
    assert czech.h1 is not None and czech.h1.get_text(strip=True) == "Kombinace"
    assert "Tvoje první vyložení musí mít hodnotu alespoň 51 bodů." in czech.get_text()
    row = czech.find(id="queen-king-ace-hearts")
    assert row is not None and row.get("data-points") == "31"


def test_the_new_case_file_names_a_schema_it_passes(tmp_path: Path) -> None:
    _init(tmp_path / "p")
    case_file = tmp_path / "p" / "content" / "examples" / "melds.yaml"
    header = case_file.read_text(encoding="utf-8").splitlines()[0]
    assert header == "# yaml-language-server: $schema=../../case-file.schema.json"
    schema_path = (case_file.parent / header.partition("$schema=")[2]).resolve()
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    assert schema == editor_schema()
    Draft202012Validator(schema).validate(yaml.safe_load(case_file.read_text("utf-8")))


def test_init_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    _init(tmp_path / "a")
    _init(tmp_path / "b")
    assert {rel: (tmp_path / "a" / rel).read_bytes() for rel in scaffold_files()} == \
        {rel: (tmp_path / "b" / rel).read_bytes() for rel in scaffold_files()}


def test_init_into_an_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    _init(tmp_path / "empty")
    assert (tmp_path / "empty" / "content" / "melds.md").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["empty"]  # no temporary folder left


def test_init_refuses_a_folder_that_holds_anything(tmp_path: Path) -> None:
    target = tmp_path / "project"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")
    result = run_cli("init", str(target))
    assert result.returncode == 2
    assert result.stdout == (f"{target}:1: the folder is not empty (notes.txt); expected a "
                             "new or an empty folder: init never writes over files\n")
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["project"]
    file = tmp_path / "file"
    file.write_text("", encoding="utf-8")
    refused = run_cli("init", str(file))
    assert refused.returncode == 2
    assert "is not a folder" in refused.stdout and "Traceback" not in refused.stdout


def test_every_scaffold_file_is_package_data() -> None:
    """MANIFEST.in grafts the whole scaffold (dot files too) and pyproject.toml makes what
    it grafts package data (tests/test_release.py builds the wheel and compares it with
    ``git ls-files generator``)."""
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["setuptools"]["include-package-data"] is True
    assert "graft generator/scaffold" in (REPO / "MANIFEST.in").read_text("utf-8").splitlines()
    files = [rel for rel in scaffold_files() if (SCAFFOLD / rel).is_file()]
    assert len(files) == len(scaffold_files()) - 1  # all but the generated schema
