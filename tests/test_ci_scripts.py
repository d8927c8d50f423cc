""".ci/run's helpers: ``.ci/readme-commands`` (the README's install and test commands,
which .ci/run runs as written) and ``.ci/lowest-constraints`` (pyproject.toml's runtime
dependencies pinned at their lower bounds, for the lowest-versions round)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

README_COMMANDS = REPO / ".ci" / "readme-commands"
LOWEST = REPO / ".ci" / "lowest-constraints"


def _run(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_ci_runs_the_readmes_install_and_test_commands() -> None:
    result = _run(README_COMMANDS)
    assert result.returncode == 0, result.stderr
    commands = [re.sub(r"\s+#.*", "", line) for line in result.stdout.splitlines()]
    assert commands == ["python3 -m pip install -e '.[test]' && python3 -m generator build",
                        "python3 -m pytest"]


def test_a_readme_without_two_commands_in_its_first_block_fails_ci(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n```sh\npip install .\n\npytest\ntox\n```\n\n```\na\nb\n```\n",
                      encoding="utf-8")
    result = _run(README_COMMANDS, str(readme))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"{readme}: the first fenced code block holds 3 commands; "
                             "expected two: the install command and the test command\n")
    readme.write_text("# x\n\nno code\n", encoding="utf-8")
    result = _run(README_COMMANDS, str(readme))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (f"{readme}: no fenced code block; expected one with the "
                             "install command and the test command\n")


def test_lowest_constraints_pin_each_dependency_at_its_lower_bound(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = [\n  "Jinja2>=3.1,<4",\n'
                         '  "pagefind[bin] >=1.5, <2",\n  "b==0.4.1",\n  "c~=2.2",\n]\n'
                         '[project.optional-dependencies]\ntest = ["pytest>=8"]\n',
                         encoding="utf-8")
    result = _run(LOWEST, str(pyproject))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == "jinja2==3.1\npagefind==1.5\nb==0.4.1\nc==2.2\n"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["d<2"]\n', encoding="utf-8")
    result = _run(LOWEST, str(pyproject))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"{pyproject}: 'd<2': expected one lower bound (>=, == or ~=)\n"


def test_every_runtime_dependency_has_a_lower_bound_its_upper_bound_allows() -> None:
    """What the lowest-versions round installs: every runtime dependency, each at a
    version its own requirement allows, below an upper bound."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    requirements = [Requirement(text) for text in project["dependencies"]]
    result = _run(LOWEST)
    assert result.returncode == 0, result.stderr
    pins = [line.split("==") for line in result.stdout.splitlines()]
    assert [name for name, _ in pins] == [canonicalize_name(r.name) for r in requirements]
    for requirement, (_, version) in zip(requirements, pins, strict=True):
        assert requirement.specifier.contains(version), (requirement, version)
        assert any(spec.operator == "<" for spec in requirement.specifier), requirement


def test_every_extra_is_bounded_below_a_next_major_version() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
    extras = [Requirement(text) for group in project["optional-dependencies"].values()
              for text in group]
    assert extras
    unbounded = [str(r) for r in extras if not any(s.operator == "<" for s in r.specifier)]
    assert unbounded == []
