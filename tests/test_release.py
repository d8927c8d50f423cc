"""The released package: one home for its version (``generator.__version__``) and for its
repository's address (``[project.urls]``), ``--version``, the changelog, and the wheel
itself, built and installed in a fresh environment where the release workflow's smoke
test (``tests/release_smoke.py``) runs on it."""

from __future__ import annotations

import re
import shutil
import site
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

import generator
from generator import package
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import run_process
from tests.release_smoke import SmokeFailure
from tests.release_smoke import check_wheel_files

SMOKE = REPO / "tests" / "release_smoke.py"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _repository() -> str:
    address = _pyproject()["project"]["urls"]["Repository"]
    assert isinstance(address, str)
    return address


def test_version_prints_the_packages_version() -> None:
    result = run_process("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"rules-site {generator.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", generator.__version__)


def test_pyproject_takes_the_version_from_the_package() -> None:
    project = _pyproject()
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "generator.__version__"}


def test_package_reads_the_installed_metadata() -> None:
    """The test environment's install (editable) carries pyproject's metadata: run
    ``pip install -e .`` again after changing the version or the addresses."""
    assert _pyproject()["project"]["name"] == package.DISTRIBUTION
    assert package.version() == generator.__version__
    assert package.repository_url() == _repository()
    assert package.project_urls() == _pyproject()["project"]["urls"]


def test_package_without_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> None:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    monkeypatch.setattr(metadata, "metadata", missing)
    assert package.version() == generator.__version__
    assert package.project_urls() == {}
    assert package.repository_url() is None


def test_package_reads_project_url_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    message = metadata.PathDistribution(Path("/nonexistent")).metadata  # an empty one
    message["Project-URL"] = "Homepage, https://example.org/"
    message["Project-URL"] = "Repository, https://example.org/owner/repo/"
    monkeypatch.setattr(metadata, "metadata", lambda name: message)
    assert package.project_urls() == {"Homepage": "https://example.org/",
                                      "Repository": "https://example.org/owner/repo/"}
    assert package.repository_url() == "https://example.org/owner/repo"


def test_every_project_url_is_under_the_repository() -> None:
    urls = _pyproject()["project"]["urls"]
    assert set(urls) == {"Homepage", "Repository", "Changelog", "Issues"}
    assert all(address.startswith(urls["Repository"]) for address in urls.values())


def _github_addresses(text: str) -> list[str]:
    """Every ``https://github.com/OWNER/rules-site-generator`` address in ``text``."""
    return re.findall(r"https://github\.com/[^/\s]+/rules-site-generator\b", text)


def test_the_readme_names_pyprojects_repository_and_version() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    addresses = _github_addresses(readme)
    assert addresses, "README.md names no github.com/…/rules-site-generator address"
    assert set(addresses) == {_repository()}
    assert _github_addresses("see https://github.com/OWNER/rules-site-generator.") == [
        "https://github.com/OWNER/rules-site-generator"]  # another owner would be found
    revs = re.findall(r"^\s*rev: (\S+)$", readme, re.M)
    assert revs and set(revs) == {f"v{generator.__version__}"}
    # the author's install line (from the repository at the release's tag, until the
    # first release on PyPI) and the versions the workflow snippets install
    tags = re.findall(r"rules-site-generator@v([0-9.]+)", readme)
    pins = re.findall(r"rules-site-generator==([0-9.]+)", readme)
    assert tags and pins and set(tags) | set(pins) == {generator.__version__}


def test_the_changelogs_newest_section_is_the_packages_version() -> None:
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert sections[0] == generator.__version__
    assert sections == sorted(sections, key=lambda v: tuple(map(int, v.split("."))),
                              reverse=True)
    assert "0.1.0" in sections


# The wheel, built and installed as users get it (extended round: about 10-20 s).


def _tracked(folder: str = "") -> list[str]:
    """The files git tracks (under ``folder``), as POSIX paths relative to the repository."""
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", *filter(None, [folder])],
                            capture_output=True, text=True, check=True).stdout
    return [name for name in listed.split("\0") if name]


def _source_copy(target: Path) -> Path:
    """The tracked files of the working tree copied to ``target``: the release is built
    from what git has (as the workflow's checkout is), and the build's scratch files
    (``build/``, ``*.egg-info``) stay out of the repository."""
    for name in _tracked():
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, f"{args} exited {result.returncode}:\n" \
        f"{result.stdout}\n{result.stderr}"
    return result


def _site_folders() -> list[Path]:
    """This environment's site-packages folders (the user's too, where Python reads it)."""
    folders = [Path(p) for p in site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        folders.append(Path(site.getusersitepackages()))
    return [folder for folder in folders if folder.is_dir()]


def _own_install(folder: Path) -> set[str]:
    """The names in ``folder`` (a site-packages) of the generator's install there, none
    when it is not installed there (the editable install: its ``.pth`` file, its finder
    module and its ``.dist-info`` folder)."""
    names: set[str] = set()
    for dist in metadata.distributions(name=package.DISTRIBUTION, path=[str(folder)]):
        names |= {Path(str(f)).parts[0] for f in dist.files or []} - {".."}  # (bin/)
    return names


def _shadow_of_this_environment(shadow: Path) -> set[str]:
    """``shadow`` filled with a symbolic link to each entry of this environment's
    site-packages but the generator's own install; returns the names left out.

    A fresh venv that lists ``shadow`` in a ``.pth`` file reaches this environment's
    libraries (jinja2, babel, pagefind, pip, ...) without a download. It does not reach
    the editable install of the generator: that install is a ``.pth`` file that runs a
    finder, and ``.pth`` files are read only in a site-packages folder itself (never in
    a folder a ``.pth`` file lists); its finder module and its ``.dist-info`` folder are
    left out here too, so ``pip`` and ``importlib.metadata`` see no
    ``rules-site-generator`` but the wheel's."""
    shadow.mkdir()
    left_out: set[str] = set()
    for folder in _site_folders():
        own = _own_install(folder)
        for entry in sorted(folder.iterdir()):
            if entry.name in own or entry.suffix == ".pth" or entry.name == "__pycache__":
                left_out.add(entry.name)
            elif not (shadow / entry.name).exists():
                (shadow / entry.name).symlink_to(entry)
    return left_out


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="builds and installs the wheel (RULES_EXTENDED=1)")
def test_the_wheel_installs_and_runs_a_site(tmp_path: Path) -> None:
    """The release as PyPI gets it: ``python -m build`` makes the sdist and, from it,
    the wheel (as release.yml does, so a file the sdist lacks is missing from the wheel
    too); ``twine check`` passes; the wheel, installed with ``--no-deps`` in a fresh venv
    outside the repository that reaches this environment's libraries and not its
    generator, passes the release workflow's smoke test."""
    assert not tmp_path.resolve().is_relative_to(REPO)
    source = _source_copy(tmp_path / "source")
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ".", cwd=source)
    wheel, = dist.glob("*.whl")
    sdist, = dist.glob("*.tar.gz")
    assert wheel.name == f"rules_site_generator-{generator.__version__}-py3-none-any.whl"
    checked = _run(sys.executable, "-m", "twine", "check", "--strict", *sorted(dist.iterdir()),
                   cwd=tmp_path)
    assert checked.stdout.count("PASSED") == 2, checked.stdout

    generator_files = _tracked("generator")
    assert any(n.startswith("generator/scaffold/.") for n in generator_files)  # dot files
    with zipfile.ZipFile(wheel) as archive:
        wheel_names = set(archive.namelist())
    assert set(generator_files) <= wheel_names, set(generator_files) - wheel_names
    root = f"rules_site_generator-{generator.__version__}/"
    with tarfile.open(sdist) as archive:
        sdist_names = {n.removeprefix(root) for n in archive.getnames()}
    assert {"README.md", "CHANGELOG.md", "pyproject.toml", "PKG-INFO"} <= sdist_names
    assert set(generator_files) <= sdist_names, set(generator_files) - sdist_names
    assert not any(n.startswith("tests/") for n in sdist_names)

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    purelib = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()"
                        "['purelib'])", cwd=tmp_path).stdout.strip())
    left_out = _shadow_of_this_environment(tmp_path / "shadow")
    own = set().union(*map(_own_install, _site_folders()))
    assert any(name.endswith(".dist-info") for name in own), own  # installed here
    assert own <= left_out
    (purelib / "test-environment.pth").write_text(f"{tmp_path / 'shadow'}\n",
                                                  encoding="utf-8")
    seen = _run(python, "-I", "-c", "import importlib.util as u, importlib.metadata as m\n"
                "print(u.find_spec('generator'))\n"
                "print(u.find_spec('jinja2').origin)\n"
                f"print([d.metadata['Name'] for d in m.distributions() "
                f"if d.metadata['Name'] == {package.DISTRIBUTION!r}])",
                cwd=tmp_path).stdout.split("\n")
    assert seen[:3] == ["None", str(tmp_path / "shadow" / "jinja2" / "__init__.py"), "[]"]

    installed = _run(python, "-m", "pip", "install", "--no-deps", "--no-index",
                     "--no-cache-dir", "--disable-pip-version-check", wheel, cwd=tmp_path)
    assert f"Successfully installed {package.DISTRIBUTION}-{generator.__version__}" in \
        installed.stdout
    smoke = _run(python, SMOKE, "--wheel", wheel, "--repo", REPO, "--workdir",
                 tmp_path / "smoke", "--version", generator.__version__, cwd=tmp_path)
    assert smoke.stdout.splitlines() == [
        f"wheel: {len(wheel_names)} files, every file git tracks under generator/ among them",
        f"installed: {package.DISTRIBUTION} {generator.__version__} from this environment",
        "init, build, check and explain: ok"]


def test_the_smoke_test_finds_a_file_left_out(tmp_path: Path) -> None:
    """The smoke test's file list fails on a wheel that lacks a file git tracks."""
    wheel = tmp_path / "rules_site_generator-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name in _tracked("generator"):
            if name != "generator/theme/page.html":
                archive.writestr(name, "")
    with pytest.raises(SmokeFailure, match=r"lacks 1 file\(s\) git tracks: "
                       r"generator/theme/page\.html$"):
        check_wheel_files(wheel, REPO)
    with zipfile.ZipFile(wheel, "a") as archive:
        archive.writestr("generator/theme/page.html", "")
    assert check_wheel_files(wheel, REPO) == len(_tracked("generator"))
