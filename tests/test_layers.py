"""The import layers (pyproject.toml, ``[tool.importlinter]``; docs/DESIGN.md, "Layers"): the
contract holds, it fails on an upward import, and no module imports inside a function."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(no_cache=True, no_logo=True))")


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over the package ``generator`` found in ``root``, with the
    contracts of ``root/pyproject.toml``; no cache written."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", LINT], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_layers_contract_holds() -> None:
    result = _lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO / "generator", root / "generator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The engine importing the command line, at the top of a module."""
    root = _copy(tmp_path)
    cards = root / "generator" / "engine" / "cards.py"
    cards.write_text(cards.read_text(encoding="utf-8")
                     + "\nfrom generator.cli import main  # noqa\n", encoding="utf-8")
    result = _lint_imports(root)
    assert result.returncode == 1
    assert "Layers: each imports only what is below it BROKEN" in result.stdout
    assert "generator.engine.cards -> generator.cli" in result.stdout


def test_an_upward_import_inside_a_function_breaks_it_too(tmp_path: Path) -> None:
    """The catalogs importing the renderer lazily: the cycle this contract removed."""
    root = _copy(tmp_path)
    catalog = root / "generator" / "i18n" / "catalog.py"
    catalog.write_text(catalog.read_text(encoding="utf-8") + (
        "\n\ndef _markdown() -> object:\n"
        "    from generator.render.markdown import make_markdown\n\n"
        "    return make_markdown()\n"), encoding="utf-8")
    result = _lint_imports(root)
    assert result.returncode == 1
    assert "generator.i18n.catalog -> generator.render.markdown" in result.stdout


def test_a_cycle_between_commands_breaks_their_contract(tmp_path: Path) -> None:
    """``check`` importing ``build`` (the build ⇄ report cycle of old)."""
    root = _copy(tmp_path)
    check = root / "generator" / "commands" / "check.py"
    check.write_text(check.read_text(encoding="utf-8")
                     + "\nfrom generator.commands.build import build  # noqa\n",
                     encoding="utf-8")
    result = _lint_imports(root)
    assert result.returncode == 1
    assert "Commands: build and i18n over check over the stages they share BROKEN" \
        in result.stdout


ALLOWED_INSIDE_FUNCTIONS = {
    ("generator/__main__.py", "_command_line"),
    # A build taken whole from the cache needs neither loading nor rendering (Jinja,
    # Babel, markdown-it, the engine): generator.commands.build, _stages.
    ("generator/commands/build.py", "_stages"),
    ("generator/cli_arguments.py", "_add_explain_parser"),
    ("generator/cli.py", "_check"),
    ("generator/cli.py", "_check_fix"),
    ("generator/cli.py", "_explain"),
    ("generator/cli.py", "_i18n"),
    ("generator/layout/inputs.py", "template_label"),
    # the same for check's CI formats, schema and init (generator.cli, _check)
    ("generator/cli.py", "_check_to"),
    ("generator/cli.py", "_schema"),
    ("generator/cli.py", "_init"),
    # serve imports watchfiles and the HTTP server (generator.cli, _check)
    ("generator/cli.py", "_serve"),
    # loaded by every pytest run where the package is installed (entry point pytest11):
    # the loader and the engine only once a case file is collected
    ("generator/pytest_plugin.py", "_load"),
    ("generator/pytest_plugin.py", "_verified"),
    ("generator/pytest_plugin.py", "_status_mark"),
    # jsonschema (0.04 s) only for a case file the build cache does not know valid
    # (generator.cases.loader.load_cases, valid)
    ("generator/cases/problems.py", "_validator"),
    # the same for the engine protocol's messages (generator.protocol), and the engine
    # commands' modules (generator.cli, _check)
    ("generator/protocol/__init__.py", "_jsonschema_validator"),
    ("generator/cli.py", "_second_opinion"),
    ("generator/cli.py", "_engine"),
    ("generator/cli.py", "_conformance"),
}
"""Imports inside a function, each for a measured start-up cost (its comment says which)."""


def _imports_inside_functions(root: Path) -> list[tuple[str, str, int]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [(rel, func.name, node.lineno) for node in ast.walk(func)
                          if isinstance(node, (ast.Import, ast.ImportFrom))]
    return found


def test_no_import_inside_a_function_but_the_measured_one() -> None:
    found = _imports_inside_functions(REPO / "generator")
    assert [f for f in found if f[:2] not in ALLOWED_INSIDE_FUNCTIONS] == []
    assert {f[:2] for f in found} == ALLOWED_INSIDE_FUNCTIONS


def test_the_import_scan_finds_an_import_inside_a_function(tmp_path: Path) -> None:
    package = tmp_path / "generator"
    package.mkdir()
    (package / "a.py").write_text("import os\n\n\ndef f() -> None:\n    import re\n")
    assert _imports_inside_functions(package) == [("generator/a.py", "f", 5)]
