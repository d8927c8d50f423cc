"""``python -m generator init DIR [--lang LIST] [--title TEXT]``: a new site repository
that checks and builds at once in the languages chosen, its case file and ``site.yaml``
valid for the editor schemas they name, its workflow and pre-commit configuration
pinned to the version that made it and run by the console script; a folder that holds
a file init would write is refused (exit 2), one that holds others (``.git/``, a README,
a ``.gitignore`` it adds its lines to) is filled; the scaffold ships as package data."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from generator.cases.editor_schema import editor_schema
from generator.cli import main
from generator.commands.init import scaffold_files
from generator.config import settings_schema
from generator.i18n.catalog import load_translator
from generator.layout import SCAFFOLD
from generator.package import DISTRIBUTION
from generator.package import repository_url
from generator.package import version
from tests.conftest import EXTENDED_ONLY
from tests.conftest import REPO
from tests.conftest import SHIPPED_LOCALES
from tests.conftest import UNSHIPPED_LOCALE
from tests.conftest import run_cli
from tests.conftest import run_process


def _init(target: Path, *args: str) -> None:
    result = run_cli("init", str(target), *args)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"created {target}" in result.stderr


def _page(site: Path, lang: str, slug: str = "melds") -> BeautifulSoup:
    return BeautifulSoup((site / lang / slug / "index.html").read_text("utf-8"), "html.parser")


def test_init_then_check_and_build_strict(tmp_path: Path) -> None:
    target = tmp_path / "new" / "rules"
    _init(target)
    assert sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                  if p.is_file()) == scaffold_files()
    check = run_cli("check", "--project", str(target))
    assert (check.returncode, check.stdout) == (0, "")
    assert "3 cases checked: 0 disagreements, 0 input errors" in check.stderr
    # --strict: every message the site shows is translated, the page's own by the
    # scaffold's catalog, the theme's and the engine's by the built-in one
    build = run_cli("build", "--strict", "--project", str(target))
    assert build.returncode == 0, build.stdout + build.stderr
    used = re.search(r"^cs: (\d+) of the (\d+) messages the site uses are translated "
                     r"\(100%\), complete$", build.stderr, re.M)
    assert used is not None and used[1] == used[2] and int(used[1]) > 20, build.stderr
    site = target / "site"
    english, czech = _page(site, "en"), _page(site, "cs")
    assert english.h1 is not None and english.h1.get_text(strip=True) == "Melds"
    assert czech.h1 is not None and czech.h1.get_text(strip=True) == "Kombinace"
    assert "Tvoje první vyložení musí mít hodnotu alespoň 51\xa0bodů." in czech.get_text()
    rows = {row["id"]: row.get("data-points") for row in czech.select("[data-verdict]")}
    assert rows == {"queen-king-ace-hearts": "31", "three-sevens": "21",
                    "pure-run-and-a-set": "52"}
    settings = yaml.safe_load((target / "site.yaml").read_text("utf-8"))
    assert settings == {"title": "Rummy rules", "languages": ["en", "cs"]}


def test_a_new_site_in_slovak_and_estonian_speaks_them_from_the_first_build(
        tmp_path: Path) -> None:
    """The theme's and the engine's messages come translated with the package: a site
    made with ``--lang sk,et`` shows Slovak and Estonian verdicts, reasons, card names
    and navigation on its first build, none of them in English (0 fallbacks)."""
    target = tmp_path / "site"
    _init(target, "--lang", "sk,et")
    settings = yaml.safe_load((target / "site.yaml").read_text("utf-8"))
    assert settings["languages"] == ["sk", "et", "en"]  # English, the source, added last
    assert sorted(p.parent.parent.name for p in (target / "locales").glob("*/*/*.po")) == \
        ["et", "sk"]
    build = run_cli("build", "--strict", "--project", str(target))
    assert build.returncode == 0, build.stdout + build.stderr
    for lang in ("sk", "et"):
        assert re.search(rf"^{lang}: (\d+) of the \1 messages the site uses are translated "
                         r"\(100%\), complete$", build.stderr, re.M), build.stderr
    slovak = _page(target / "site", "sk")
    assert slovak.html is not None and slovak.html["lang"] == "sk"
    assert not slovak.select('[lang="en"]:not([hreflang])')  # nothing shown in English
    badge = slovak.select_one("#queen-king-ace-hearts .verdict")
    assert badge is not None and badge.get_text(strip=True).lstrip("✓") == "Platná postupka"
    names = [c["aria-label"] for c in slovak.select("#queen-king-ace-hearts .card")]
    assert names == ["srdcová dáma", "srdcový kráľ", "srdcové eso"]
    label = slovak.select_one("label[for=site-search-input]")
    assert label is not None and label.get_text() == "Hľadať v\xa0pravidlách"
    estonian = _page(target / "site", "et")
    names = [c["aria-label"] for c in estonian.select("#three-sevens .card")]
    assert names == ["risti seitse", "ruutu seitse", "ärtu seitse"]
    # the front page speaks the default language, Slovak, and lists it first
    root = BeautifulSoup((target / "site" / "index.html").read_text("utf-8"), "html.parser")
    assert root.html is not None and root.html["lang"] == "sk"
    assert [a["hreflang"] for a in root.select(".root__languages a")] == ["sk", "et", "en"]


def test_a_language_without_built_in_catalogs_falls_back_and_says_so(tmp_path: Path) -> None:
    """A language without a built-in catalog (French, where the package does not ship
    it): the theme's and the engine's words are English, counted and refused by
    --strict, never silently."""
    lang = UNSHIPPED_LOCALE
    target = tmp_path / "site"
    _init(target, "--lang", lang)
    build = run_cli("build", "--project", str(target))
    assert build.returncode == 0, build.stdout + build.stderr
    found = re.search(rf"^{lang}: (\d+) of the (\d+) messages the site uses are translated "
                      r"\((\d+)%\), (\d+) untranslated or fuzzy, shown in English$",
                      build.stderr, re.M)
    assert found is not None and found[1] == "0" and int(found[4]) == int(found[2]) > 40
    strict = run_cli("build", "--strict", "--project", str(target), "--out",
                     str(tmp_path / "strict"))
    assert strict.returncode == 1
    listed = strict.stdout.splitlines()
    assert len(listed) == 21 and listed[-1] == (
        f"locales/{lang}/LC_MESSAGES/messages.po:1: and {int(found[2]) - 20} more untranslated "
        "or fuzzy messages (--strict)")


def test_the_title_is_shown_by_every_template(tmp_path: Path) -> None:
    target = tmp_path / "site"
    _init(target, "--title", "Pravidlá", "--lang", "sk")
    assert yaml.safe_load((target / "site.yaml").read_text("utf-8"))["title"] == "Pravidlá"
    pot = (target / "locales" / "messages.pot").read_text("utf-8")
    assert '#: site.yaml:4\nmsgid "Pravidlá"' in pot  # the site's own text, to translate
    assert run_cli("build", "--project", str(target)).returncode == 0
    site = target / "site"
    for rel in ("index.html", "404.html", "sk/index.html", "sk/404.html",
                "sk/melds/index.html", "en/index.html", "en/melds/index.html"):
        soup = BeautifulSoup((site / rel).read_text("utf-8"), "html.parser")
        assert soup.title is not None and "Pravidlá" in soup.title.get_text(), rel
        assert "Rummy rules" not in soup.get_text(), rel
        if rel.count("/") == 1 and not rel.endswith("404.html"):
            assert soup.select_one(".site-name").get_text(strip=True) == "♠Pravidlá", rel
    home = BeautifulSoup((site / "sk" / "index.html").read_text("utf-8"), "html.parser")
    assert home.h1 is not None and home.h1.get_text(strip=True) == "Pravidlá"


def test_the_new_case_file_and_settings_name_schemas_they_pass(tmp_path: Path) -> None:
    _init(tmp_path / "p")
    for rel, schema in (("content/examples/melds.yaml", editor_schema()),
                        ("site.yaml", settings_schema())):
        path = tmp_path / "p" / rel
        header = path.read_text(encoding="utf-8").splitlines()[0]
        assert header.startswith("# yaml-language-server: $schema=")
        named = (path.parent / header.partition("$schema=")[2]).resolve()
        assert json.loads(named.read_text(encoding="utf-8")) == schema
        Draft202012Validator(schema).validate(yaml.safe_load(path.read_text("utf-8")))


def test_the_workflow_installs_the_version_that_made_the_site(tmp_path: Path) -> None:
    """The workflow is valid for GitHub's schema; it checks every pull request and push,
    and builds and publishes the repository's default branch, whatever its name (a
    ``git init`` may make ``master``), with the release that made the site."""
    _init(tmp_path / "p")
    path = tmp_path / "p" / ".github" / "workflows" / "site.yml"
    result = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema",
         "vendor.github-workflows", str(path)],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    workflow = yaml.safe_load(path.read_text("utf-8"))
    on = workflow.pop(True)  # YAML 1.1 reads the key `on` as true; GitHub does not
    assert set(on) >= {"pull_request", "push"} and on["push"] is None  # every branch
    assert workflow["env"]["GENERATOR"] == f"{DISTRIBUTION}=={version()}"
    jobs = workflow["jobs"]
    runs = [step.get("run", "") for job in jobs.values() for step in job["steps"]]
    assert runs.count('python -m pip install "$GENERATOR"') == 2
    assert "rules-site check --format github" in runs
    assert "rules-site build --out site" in runs
    assert "-e ." not in " ".join(runs)  # nothing of the generator's own repository
    uses = [step.get("uses", "") for job in jobs.values() for step in job["steps"]]
    assert "actions/upload-pages-artifact@v3" in uses and "actions/deploy-pages@v4" in uses
    assert jobs["build"]["if"] == (
        "github.event_name != 'pull_request' && github.ref == "
        "format('refs/heads/{0}', github.event.repository.default_branch)")
    assert "main" not in jobs["build"]["if"] and "master" not in jobs["build"]["if"]
    assert jobs["deploy"]["needs"] == "build"
    assert jobs["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_the_workflow_and_the_readme_name_the_same_release_before_pypi(
        tmp_path: Path) -> None:
    """Until the release is on PyPI, the workflow's comment says to install it from its
    tag with the requirement the README's quickstart installs."""
    _init(tmp_path / "p")
    text = (tmp_path / "p" / ".github" / "workflows" / "site.yml").read_text("utf-8")
    instead = re.search(r'^#   GENERATOR: "(.+)"$', text, re.M)
    assert instead is not None, text
    requirement = f"{DISTRIBUTION} @ git+{repository_url()}@v{version()}"
    assert instead[1] == requirement
    readme = (REPO / "README.md").read_text("utf-8")
    quickstart = readme.partition("\n## Quickstart")[2].partition("\n## ")[0]
    assert f'python3 -m pip install "{requirement}"' in quickstart
    assert f'`GENERATOR: "{requirement}"`' in quickstart


def test_the_site_runs_the_console_script_never_python_m_generator(
        init_project: Path) -> None:
    """``python -m generator`` runs a ``generator`` package or ``generator.py`` of the
    site's own repository first: every file init writes, the hook and the text a reader
    sees name ``rules-site``."""
    from generator.render.site import SERVE_COMMAND

    scripts = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    for rel in scaffold_files():
        text = (init_project / rel).read_text("utf-8")
        assert "-m generator" not in text, rel
    for rel in ("README.md", ".github/workflows/site.yml", "content/melds.md"):
        assert "rules-site " in (init_project / rel).read_text("utf-8"), rel
    assert "-m generator" not in (REPO / ".pre-commit-hooks.yaml").read_text("utf-8")
    assert SERVE_COMMAND == "rules-site serve" and "rules-site" in scripts


def test_the_pre_commit_files_are_valid_and_run_the_check(tmp_path: Path) -> None:
    target = tmp_path / "p"
    _init(target)
    config = target / ".pre-commit-config.yaml"
    for what, path in (("validate-config", config),
                       ("validate-manifest", REPO / ".pre-commit-hooks.yaml")):
        result = subprocess.run([sys.executable, "-m", "pre_commit", what, str(path)],
                                capture_output=True, text=True, timeout=120, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
    (repo,) = yaml.safe_load(config.read_text("utf-8"))["repos"]
    assert repo["repo"] == repository_url() and repo["rev"] == f"v{version()}"
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert [h["id"] for h in repo["hooks"]] == [h["id"] for h in hooks]
    script, *args = hooks[0]["entry"].split()
    assert script == "rules-site"
    assert run_cli(*args, cwd=target).returncode == 0  # the hook's command, on the new site


def test_git_ignores_what_the_generator_writes(tmp_path: Path) -> None:
    target = tmp_path / "p"
    _init(target)
    assert run_cli("build", "--project", str(target)).returncode == 0
    (target / ".site.lock").write_text("", encoding="utf-8")
    (target / ".pytest_cache").mkdir()
    (target / ".pytest_cache" / "README.md").write_text("", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    listed = subprocess.run(["git", "-C", str(target), "status", "--porcelain",
                             "--untracked-files=all"], capture_output=True, text=True,
                            check=True).stdout
    files = sorted(line[3:] for line in listed.splitlines())
    assert files == scaffold_files()


@pytest.mark.parametrize("how", [".", pytest.param("absolute", marks=EXTENDED_ONLY)])
def test_init_in_the_empty_current_folder_keeps_the_folder(tmp_path: Path, how: str) -> None:
    """``init .`` and ``init "$PWD"``: the project is made in the folder the shell stands
    in, which stays the same folder (its inode), never replaced."""
    here = tmp_path / "here"
    here.mkdir()
    inode = here.stat().st_ino
    result = run_process("init", "." if how == "." else str(here), cwd=here)
    assert result.returncode == 0, result.stdout + result.stderr
    assert here.stat().st_ino == inode
    assert sorted(p.relative_to(here).as_posix() for p in here.rglob("*") if p.is_file()) \
        == scaffold_files()
    assert "next: python -m generator serve" in result.stderr  # no "cd" into itself


@pytest.mark.parametrize("mode", [0o3777, 0o2775], ids=["3777", "2775"])
@pytest.mark.parametrize("how", [".", "absolute", "by-name"])
def test_init_keeps_the_empty_folders_own_mode(tmp_path: Path, how: str, mode: int) -> None:
    """The empty folder init fills keeps its mode (sticky and set-group-id bits
    included), never replaced by a new folder of the umask's mode."""
    here = tmp_path / "here"
    here.mkdir()
    here.chmod(mode)
    target, cwd = {".": (".", here), "absolute": (str(here), here),
                   "by-name": ("here", tmp_path)}[how]
    result = run_cli("init", target, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr
    assert stat.S_IMODE(here.stat().st_mode) == mode
    assert (here / "site.yaml").is_file()


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
    assert not [p for p in (tmp_path / "empty").iterdir() if p.name.startswith(".init-")]


@pytest.mark.parametrize(("args", "said"), [
    (["--lang", "sk,xx-nonsense"], "--lang: 'xx-nonsense' is not a locale code Babel knows"),
    (["--lang", "sk,sk"], "--lang: 'sk' is given twice; expected each language once"),
    (["--title", " "], "--title: expected the site's name on one line")])
def test_bad_options_are_refused_before_anything_is_written(
        tmp_path: Path, args: list[str], said: str) -> None:
    result = run_cli("init", str(tmp_path / "p"), *args)
    assert result.returncode == 2
    assert result.stdout.startswith(said), result.stdout
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize(("title", "what"), [
    ("a\x1bb", "control character U+001B"), ("a\x7fb", "control character U+007F"),
    ("a\x85b", "control character U+0085"), ("a\u2028b", "line separator U+2028"),
    ("a\ufffeb", "noncharacter U+FFFE"), ("a\ufdd0b", "noncharacter U+FDD0"),
    ("a\udcedb", "byte 0xED that is not UTF-8")])
def test_a_title_site_yaml_cannot_hold_is_an_error_of_the_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], title: str, what: str) -> None:
    """A ``--title`` with a character a site's name may not hold (one YAML refuses, reads
    as another, or a byte of the argument that is not UTF-8) is an input error of the
    option, exit 2, nothing written: not a fault of the generator, never another title."""
    assert main(["init", str(tmp_path / "p"), "--title", title]) == 2
    out = capsys.readouterr().out
    assert out == (f"--title: {what}; expected the site's name in printable text on one "
                   "line (remove it)\n")
    assert not (tmp_path / "p").exists()


def test_init_fills_a_new_repositorys_folder_keeping_its_files(tmp_path: Path) -> None:
    """A repository just cloned (``.git/``, a README, a LICENSE and a ``.gitignore``, as
    GitHub makes one): init writes the project beside them, keeps the README, and adds
    the lines the ``.gitignore`` lacks after every byte it had."""
    target = tmp_path / "repo"
    (target / ".git").mkdir(parents=True)
    (target / ".git" / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    (target / "README.md").write_bytes(b"# Our rules\n")
    (target / "LICENSE").write_bytes(b"MIT\n")
    ignore = b"# Python\r\n__pycache__/\r\n  site/  \r\n*.pyc"  # no newline at its end
    (target / ".gitignore").write_bytes(ignore)
    result = run_cli("init", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"created {target} ({len(scaffold_files()) - 1} files; 3 lines added to " \
        ".gitignore); next: " in result.stderr
    assert (target / ".git" / "HEAD").read_bytes() == b"ref: refs/heads/main\n"
    assert (target / "README.md").read_bytes() == b"# Our rules\n"
    assert (target / "LICENSE").read_bytes() == b"MIT\n"
    scaffold_ignore = (SCAFFOLD / ".gitignore").read_text("utf-8").splitlines()
    assert (target / ".gitignore").read_bytes() == ignore + b"\n" + "".join(
        f"{line}\n" for line in scaffold_ignore if line.strip() != "site/").encode()
    written = sorted(p.relative_to(target).as_posix() for p in target.rglob("*")
                     if p.is_file() and ".git" not in p.relative_to(target).parts[:1])
    assert written == sorted({*scaffold_files(), "LICENSE"})
    assert run_cli("check", "--project", str(target)).returncode == 0
    other = tmp_path / "other"  # a .gitignore that has every line stays as it is
    other.mkdir()
    shutil.copyfile(target / ".gitignore", other / ".gitignore")
    again = run_cli("init", str(other))
    assert again.returncode == 0
    assert f"created {other} ({len(scaffold_files()) - 1} files); next: " in again.stderr
    assert (other / ".gitignore").read_bytes() == (target / ".gitignore").read_bytes()


def test_a_failed_init_into_a_folder_takes_back_what_it_moved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move that fails halfway (a full disk, a file put there meanwhile) leaves the
    folder as it was: the entries moved before are taken back, nothing is left."""
    import generator.commands.init as init

    target = tmp_path / "repo"
    (target / "content").mkdir(parents=True)
    (target / "content" / "other.md").write_text("# Other\n", encoding="utf-8")
    (target / ".gitignore").write_bytes(b"*.pyc\n")
    before = {p.relative_to(target).as_posix(): p.read_bytes() if p.is_file() else None
              for p in target.rglob("*")}
    rename = os.rename
    calls: list[str] = []

    def failing(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(os.fspath(dst))
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        rename(src, dst)

    monkeypatch.setattr(init.os, "rename", failing)
    result = run_cli("init", str(target))
    monkeypatch.undo()
    assert (result.returncode, result.stdout) == (
        2, f"{target}:1: cannot create the project: No space left on device; nothing was "
        "written\n")
    assert ".init-" not in calls[3] and ".init-" in calls[4]  # the fourth move failed,
    assert len(calls) == 7  # and the three before it were taken back
    assert {p.relative_to(target).as_posix(): p.read_bytes() if p.is_file() else None
            for p in target.rglob("*")} == before


def test_init_refuses_naming_every_file_it_would_write_over(tmp_path: Path) -> None:
    """A path init would write that exists (a file, or a file where one of its folders
    goes) is refused, every one named in the one error: exit 2, nothing written."""
    target = tmp_path / "project"
    (target / "content").mkdir(parents=True)
    (target / "content" / "melds.md").write_text("mine\n", encoding="utf-8")
    (target / "site.yaml").write_text("title: Mine\n", encoding="utf-8")
    (target / "locales").write_text("a file where a folder goes\n", encoding="utf-8")
    (target / ".gitignore").mkdir()  # no file to add lines to
    (target / "notes.txt").write_text("mine\n", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    result = run_cli("init", str(target))
    assert (result.returncode, result.stderr) == (2, "")
    assert result.stdout == (
        f"{target}:1: the folder holds files init would write over (.gitignore, "
        "content/melds.md, locales, site.yaml); expected a folder without them: init "
        "never writes over files\n")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before
    (target / "site.yaml").unlink()
    (target / "locales").unlink()
    (target / ".gitignore").rmdir()
    one = run_cli("init", str(target))
    assert one.stdout == (f"{target}:1: the folder holds a file init would write over "
                          "(content/melds.md); expected a folder without them: init never "
                          "writes over files\n")
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
    manifest = (REPO / "MANIFEST.in").read_text("utf-8").splitlines()
    assert {"graft generator/scaffold", "graft generator/locales"} <= set(manifest)
    shipped = {rel for rel in scaffold_files() if (SCAFFOLD / rel).is_file()}
    assert {".gitignore", ".pre-commit-config.yaml", ".github/workflows/site.yml",
            "content/melds.md"} <= shipped
    assert os.path.isfile(SCAFFOLD / "locales" / "sk" / "LC_MESSAGES" / "messages.po")


def test_the_scaffold_translates_its_page_into_every_shipped_language(
        tmp_path: Path) -> None:
    """The scaffold's catalogs hold its page's own messages, translated into every
    language the built-in catalogs know, so a new site in any of them builds with
    --strict from the start."""
    _init(tmp_path / "p")
    with (tmp_path / "p" / "locales" / "messages.pot").open("rb") as fh:
        template = read_po(fh)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert len(ids) == 9
    catalogs = sorted((SCAFFOLD / "locales").glob("*/LC_MESSAGES/messages.po"))
    assert [p.parent.parent.name for p in catalogs] == sorted(SHIPPED_LOCALES)
    for path in catalogs:
        translator, errors = load_translator(path, path.name, path.parent.parent.name)
        assert errors == []
        assert sorted(ids - {k[1] for k in translator.messages}) == [], path


def test_the_czech_and_slovak_scaffold_catalogs_keep_to_their_own_words() -> None:
    """Czech and Slovak share most words and differ in a few a translator mixes up: the
    Czech catalog holds none of the Slovak forms (its set of sevens is "trojice
    sedmiček", not the Slovak "sedem"), the Slovak one none of the Czech."""
    foreign = {"cs": {"sedem", "sú", "aspoň", "kráľ", "ktoré", "trojica", "sedmičky"},
               "sk": {"sedma", "sedmy", "jsou", "alespoň", "král", "které", "trojice"}}
    texts = {}
    for lang, words in foreign.items():
        with (SCAFFOLD / "locales" / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        texts[lang] = {m.id if isinstance(m.id, str) else m.id[0]:
                       m.string if isinstance(m.string, str) else " ".join(m.string)
                       for m in catalog if m.id}
        found = {w for text in texts[lang].values() for w in re.findall(r"\w+", text.lower())}
        assert found & words == set(), lang
    assert texts["cs"]["A pure run and a set of sevens"] == "Čistá postupka a trojice sedmiček"
    assert texts["sk"]["A pure run and a set of sevens"] == "Čistá postupka a trojica sedmičiek"
