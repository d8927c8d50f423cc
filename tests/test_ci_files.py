"""The ready-made integrations: ``.github/workflows/site.yml`` and ``release.yml`` against
the published GitHub workflow schema (check-jsonschema's vendored copy; the workflows
cannot run here) and what each must do, ``.pre-commit-hooks.yaml`` in pre-commit's
manifest form running our ``check``, and the README's "In CI" section showing both."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml

from tests.conftest import REPO
from tests.conftest import replace_in
from tests.conftest import run_cli

WORKFLOW = REPO / ".github" / "workflows" / "site.yml"
RELEASE = REPO / ".github" / "workflows" / "release.yml"
HOOKS = REPO / ".pre-commit-hooks.yaml"


def _check_jsonschema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema",
         "vendor.github-workflows", str(path)],
        capture_output=True, text=True, timeout=120, check=False)


def _workflow(path: Path = WORKFLOW) -> dict[Any, Any]:
    value = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    value["on"] = value.pop(True)  # YAML 1.1 reads the key `on` as true; GitHub does not
    return value


def test_the_workflow_is_valid_for_githubs_schema(tmp_path: Path) -> None:
    result = _check_jsonschema(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout
    broken = tmp_path / "site.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:"),
                      encoding="utf-8")
    failed = _check_jsonschema(broken)
    assert failed.returncode == 1
    assert "'runs-on' is a required property" in failed.stdout


def test_the_workflow_checks_pull_requests_and_publishes_the_default_branch() -> None:
    workflow = _workflow()
    assert set(workflow["on"]) >= {"pull_request", "push"}
    assert workflow["on"]["push"] is None  # every branch is checked
    jobs = workflow["jobs"]
    runs = [step.get("run", "") for step in jobs["check"]["steps"]]
    assert "python -m generator check --format github" in runs
    assert "github.ref == format('refs/heads/{0}', " \
        "github.event.repository.default_branch)" in jobs["build"]["if"]
    assert "pull_request" in jobs["build"]["if"]
    build_uses = [step.get("uses", "") for step in jobs["build"]["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in build_uses)
    assert "python -m generator build --out site" in [s.get("run") for s in jobs["build"]["steps"]]
    upload = next(s for s in jobs["build"]["steps"]
                  if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    deploy = jobs["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]


def test_the_release_workflow_is_valid_for_githubs_schema() -> None:
    result = _check_jsonschema(RELEASE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout


def _runs(job: dict[str, Any]) -> list[str]:
    return [" ".join(str(step.get("run", "")).split()) for step in job["steps"]]


def _uses(job: dict[str, Any]) -> list[str]:
    return [str(step.get("uses", "")) for step in job["steps"]]


def test_the_release_workflow_builds_tests_and_publishes_a_tag() -> None:
    """release.yml: on a tag v*, build and twine check; the wheel installed in a fresh venv
    passes tests/release_smoke.py with the tag as the version it must have; only then the
    upload to PyPI, the only job that may ask for an OIDC token (trusted publishing)."""
    workflow = _workflow(RELEASE)
    assert workflow["on"] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    jobs = workflow["jobs"]
    assert set(jobs) == {"build", "test", "publish"}
    assert [name for name, job in jobs.items()
            if "id-token" in job.get("permissions", {})] == ["publish"]
    assert jobs["publish"]["permissions"] == {"id-token": "write"}

    build = jobs["build"]
    assert "python -m build" in _runs(build)
    assert "python -m twine check --strict dist/*" in _runs(build)
    assert _runs(build).index("python -m build") < _runs(build).index(
        "python -m twine check --strict dist/*")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))[
        "project"]["optional-dependencies"]["test"]
    install = next(r for r in _runs(build) if r.startswith("python -m pip install"))
    assert set(re.findall(r'"([^"]+)"', install)) == {
        e for e in extras if e.startswith(("build", "twine"))}  # the test extras' bounds
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith(
        "actions/upload-artifact@"))
    assert upload["with"]["name"] == "dist" and upload["with"]["path"] == "dist/"

    test = jobs["test"]
    assert test["needs"] == "build"
    assert any(u.startswith("actions/checkout@") for u in _uses(test))
    smoke = next(r for r in _runs(test) if "release_smoke.py" in r)
    assert smoke == ('"$RUNNER_TEMP/venv/bin/python" tests/release_smoke.py --wheel '
                     'dist/*.whl --repo . --workdir "$RUNNER_TEMP/smoke" '
                     '--version "${GITHUB_REF_NAME#v}"')
    assert (REPO / "tests" / "release_smoke.py").is_file()
    assert ('python -m venv "$RUNNER_TEMP/venv" "$RUNNER_TEMP/venv/bin/python" -m pip '
            'install dist/*.whl') in _runs(test)

    publish = jobs["publish"]
    assert publish["needs"] == "test"
    assert publish["environment"]["name"] == "pypi"
    assert _uses(publish)[-1] == "pypa/gh-action-pypi-publish@release/v1"
    for job in (test, publish):
        download = next(s for s in job["steps"] if s.get("uses", "").startswith(
            "actions/download-artifact@"))
        assert download["with"] == {"name": "dist", "path": "dist/"}


def _hook() -> dict[str, Any]:
    hooks = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(hooks, list) and len(hooks) == 1
    hook = hooks[0]
    assert isinstance(hook, dict)
    return hook


def test_the_pre_commit_hook_has_the_manifests_form() -> None:
    """pre-commit's manifest: a list of hooks, each with id, name, entry and language
    (pre-commit.com, "Creating new hooks"); our check reads the whole project, so it
    takes no file names and runs when an input changes."""
    hook = _hook()
    assert {"id", "name", "entry", "language"} <= set(hook)
    assert hook["id"] == "rules-site-check"
    assert hook["language"] == "python"  # pre-commit installs this repository with pip
    assert hook["pass_filenames"] is False
    files = re.compile(hook["files"])
    for path in ("content/examples/melds-rami.yaml", "content/rules.md", "site.yaml",
                 "locales/cs/LC_MESSAGES/messages.po", "templates/base.html"):
        assert files.search(path), path
    for path in ("README.md", "tests/test_cli.py", "generator/cli.py", "site.yaml.bak"):
        assert not files.search(path), path


def test_the_hooks_entry_is_our_check(tmp_path: Path) -> None:
    project = tmp_path / "project"
    assert run_cli("init", str(project)).returncode == 0
    script, *args = _hook()["entry"].split()
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    assert scripts[script] == "generator.__main__:run"
    assert run_cli(*args, cwd=project).returncode == 0
    replace_in(project / "content" / "examples" / "melds.yaml", "      points: 31\n",
               "      points: 30\n")
    failed = run_cli(*args, cwd=project)
    assert failed.returncode == 1
    assert "case queen-king-ace-hearts: points documented 30, engine 31" in failed.stdout


def test_the_readme_shows_both_in_ci() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.partition("\n## In CI\n")[2].partition("\n## ")[0]
    assert ".github/workflows/site.yml" in section
    assert f"id: {_hook()['id']}" in section
    assert "check --format github" in section and "--format junit" in section
    assert "rules-site init" in section
