"""The code's measures, through radon's API (docs/DEVELOPING.md, "Tests"; extended round):
no function in ``generator/`` outside the engine over cyclomatic complexity 20, no module
over 700 physical lines, no function over 60 lines in ``generator/render/`` and
``generator/commands/``. The engine's search functions may be more complex when their
docstring explains the search."""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class
from radon.visitors import Function

from tests.conftest import EXTENDED
from tests.conftest import REPO

pytestmark = [pytest.mark.extended, pytest.mark.skipif(
    not EXTENDED, reason="radon over generator/: RULES_EXTENDED=1 (the extended round)")]

GENERATOR = REPO / "generator"
MOST_COMPLEXITY = 20
"""The highest cyclomatic complexity of a function outside ``generator/engine/``."""
MOST_MODULE_LINES = 700
"""The most physical lines of a module of ``generator/``."""
MOST_FUNCTION_LINES = 60
"""The most lines of a function (its ``def`` to its last line) in :data:`SHORT`."""
SHORT = ("render", "commands")
"""The packages of ``generator/`` whose functions are at most :data:`MOST_FUNCTION_LINES`."""


def _modules() -> list[Path]:
    return sorted(GENERATOR.rglob("*.py"))


def _functions(blocks: list[Function | Class]) -> list[Function]:
    """Every function, method and closure of radon's ``blocks`` once (``cc_visit`` gives
    a method both alone and in its class), in line order."""
    found: dict[tuple[int, str], Function] = {}

    def visit(blocks: list[Function | Class]) -> None:
        for block in blocks:
            if isinstance(block, Class):
                visit([*block.methods, *block.inner_classes])
            else:
                found[(block.lineno, block.fullname)] = block
                visit(list(block.closures))

    visit(blocks)
    return [found[key] for key in sorted(found)]


def _where(path: Path, function: Function) -> str:
    return f"{path.relative_to(REPO).as_posix()}:{function.lineno} {function.fullname}"


def test_no_function_outside_the_engine_is_over_complexity_20() -> None:
    over = [f"{_where(path, f)}: complexity {f.complexity}"
            for path in _modules() if "engine" not in path.relative_to(GENERATOR).parts
            for f in _functions(cc_visit(path.read_text(encoding="utf-8")))
            if f.complexity > MOST_COMPLEXITY]
    assert over == [], "\n".join(over)


def test_no_module_is_over_700_lines() -> None:
    over = [f"{path.relative_to(REPO).as_posix()}: {lines} lines" for path in _modules()
            if (lines := len(path.read_text(encoding="utf-8").splitlines()))
            > MOST_MODULE_LINES]
    assert over == [], "\n".join(over)


def test_no_function_in_render_and_commands_is_over_60_lines() -> None:
    over = [f"{_where(path, f)}: {f.endline - f.lineno + 1} lines"
            for package in SHORT for path in sorted((GENERATOR / package).rglob("*.py"))
            for f in _functions(cc_visit(path.read_text(encoding="utf-8")))
            if f.endline - f.lineno + 1 > MOST_FUNCTION_LINES]
    assert over == [], "\n".join(over)
