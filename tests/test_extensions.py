"""A kind or a game from outside the package (docs/site.md, "Extensions"): registered by a
call (``register_kind``) or by an installed distribution's entry point (groups
``rules_site.kinds`` and ``rules_site.games``), and a bad entry point named in one error
line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from generator.engine import rules
from generator.engine.rules import find_game
from generator.extensions import GAME_GROUP
from generator.extensions import KIND_GROUP
from generator.kinds import KINDS
from generator.kinds import REGISTRY
from generator.kinds import registry
from generator.kinds.hand import HandKind
from generator.kinds.registry import register_kind
from generator.kinds.registry import unregister_kind
from tests.conftest import REPO
from tests.conftest import run_cli

THEME_HAND = REPO / "generator" / "theme" / "kinds" / "hand.html"

TALLY_CASES = """\
defaults:
  game: rami51
cases:
  - id: three-kings-tallied
    kind: tally
    cards: KH KD KS
    title: Three kings tallied
    expect: {points: 30}
"""

TALLY_PAGE = """
```cases
three-kings-tallied
```
"""

EXTENSION_MODULE = """\
from generator.engine.rules import rami_variant
from generator.kinds.hand import HandKind


class TallyKind(HandKind):
    name = "tally"


class MeldAgain(HandKind):
    name = "meld"


KIND = TallyKind()
MELD = MeldAgain()
NOT_A_KIND = "tally"
GAME = rami_variant("rami70", "Rami 70", opening_threshold=70, opening_needs_pure_run=True)
"""


class TallyKind(HandKind):
    """A kind a project adds: a hand's points, under another name."""

    name = "tally"


@pytest.fixture
def registries() -> Iterator[None]:
    """The kinds' and the games' registries as they were, restored after the test."""
    kinds, games, loaded = registry._kinds, rules._registry, registry._loaded
    outside = dict(rules._outside)
    try:
        yield
    finally:
        registry._loaded = loaded
        registry._replace(kinds)
        rules._replace(games)
        rules._outside.clear()
        rules._outside.update(outside)
        sys.modules.pop("tally_extension", None)


def _load_again() -> None:
    """Make the registries load the entry points again, as a new process does."""
    registry._loaded = False
    rules.load_before_use(registry.load_entry_points)


def _tally_project(project: Path) -> Path:
    """``project`` with a case of kind ``tally``, shown on its page, and the kind's
    template in its ``templates/`` (a copy of the theme's ``hand`` template)."""
    (project / "content" / "examples" / "tally.yaml").write_text(TALLY_CASES,
                                                                 encoding="utf-8")
    page = next((project / "content").glob("*.md"))
    page.write_text(page.read_text(encoding="utf-8") + TALLY_PAGE, encoding="utf-8")
    (project / "templates" / "kinds").mkdir(parents=True)
    (project / "templates" / "kinds" / "tally.html").write_text(
        THEME_HAND.read_text(encoding="utf-8"), encoding="utf-8")
    return page


def _distribution(folder: Path, entry_points: str) -> Path:
    """An installed distribution ``tally-extension 1.0`` in ``folder`` (its module and its
    ``.dist-info``, as pip would leave them), with ``entry_points`` as its
    ``entry_points.txt``."""
    (folder / "tally_extension.py").write_text(EXTENSION_MODULE, encoding="utf-8")
    info = folder / "tally_extension-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tally-extension\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points), encoding="utf-8")
    return folder


def test_a_kind_registered_by_a_call_is_checked_and_built(
        registries: None, init_project: Path, tmp_path: Path) -> None:
    kind = TallyKind()
    register_kind(kind)
    assert KINDS["tally"] is kind and REGISTRY[-1] is kind
    page = _tally_project(init_project)

    checked = run_cli("check", "--project", str(init_project))
    assert checked.returncode == 0, checked.stdout + checked.stderr

    out = tmp_path / "site"
    built = run_cli("build", "--project", str(init_project), "--out", str(out))
    assert built.returncode == 0, built.stdout + built.stderr
    soup = BeautifulSoup((out / "en" / page.stem / "index.html").read_text(encoding="utf-8"),
                         "html.parser")
    row = soup.find(id="three-kings-tallied")
    assert row is not None and "Three kings tallied" in row.get_text(" ")

    assert unregister_kind("tally") is kind
    assert "tally" not in KINDS
    refused = run_cli("check", "--project", str(init_project))
    assert refused.returncode == 2
    assert "tally.yaml:5:11: unknown kind 'tally'" in refused.stdout + refused.stderr


def test_a_kind_that_cannot_be_registered_is_refused(registries: None) -> None:
    with pytest.raises(ValueError, match="kind 'meld' is registered already"):
        register_kind(KINDS["meld"])
    with pytest.raises(ValueError, match="str is not a kind"):
        register_kind("tally")  # type: ignore[arg-type]


def test_entry_points_add_a_kind_and_a_game(registries: None, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(_distribution(tmp_path, f"""\
        [{KIND_GROUP}]
        tally = tally_extension:KIND
        [{GAME_GROUP}]
        rami70 = tally_extension:GAME
        """)))
    _load_again()
    registry.load_entry_points()
    assert KINDS["tally"].name == "tally"
    assert find_game("rami70").rules.opening_threshold == 70
    registry.load_entry_points()  # once: a second call registers nothing again
    assert [kind.name for kind in REGISTRY].count("tally") == 1


@pytest.mark.parametrize(("entry", "wrong"), [
    ("tally = tally_extension:NOT_A_KIND",
     "is str; expected a generator.kinds.base.Kind instance"),
    ("tally = tally_extension:MELD", "names 'meld'; expected the entry point's name, 'tally'"),
    ("meld = tally_extension:MELD", "kind 'meld' is registered already; expected a new name"),
], ids=["wrong type", "another name", "name taken"])
def test_a_bad_entry_point_is_one_error_naming_it(
        entry: str, wrong: str, registries: None, init_project: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(_distribution(tmp_path, f"[{KIND_GROUP}]\n{entry}\n")))
    _load_again()
    checked = run_cli("check", "--project", str(init_project))
    assert checked.returncode == 2
    assert checked.stdout + checked.stderr == (
        f"error: entry point {entry} (group {KIND_GROUP}) of "
        f"distribution tally-extension 1.0: {wrong}\n")


def test_an_entry_point_that_does_not_import_is_exit_2_without_a_traceback(
        init_project: Path, tmp_path: Path) -> None:
    folder = _distribution(tmp_path, f"[{KIND_GROUP}]\ntally = tally_missing:KIND\n")
    env = {name: value for name, value in os.environ.items() if name != "GENERATOR_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(REPO)])
    checked = subprocess.run([sys.executable, "-m", "generator", "check", "--project",
                              str(init_project)], cwd=REPO, env=env, capture_output=True,
                             text=True, timeout=120, check=False)
    assert checked.returncode == 2
    assert checked.stdout + checked.stderr == (
        f"error: entry point tally = tally_missing:KIND (group {KIND_GROUP}) of "
        "distribution tally-extension 1.0: cannot be imported: ModuleNotFoundError: No "
        "module named 'tally_missing'; expected a module installed with the distribution\n")



def test_an_entry_point_whose_import_exits_is_an_error_not_a_silent_exit(
        registries: None, init_project: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A module that calls ``sys.exit`` while it imports stops no command silently: it is
    the entry point's error, exit 2."""
    folder = _distribution(tmp_path, f"[{KIND_GROUP}]\ntally = tally_exits:KIND\n")
    (folder / "tally_exits.py").write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    _load_again()
    checked = run_cli("check", "--project", str(init_project))
    sys.modules.pop("tally_exits", None)
    assert checked.returncode == 2
    assert checked.stdout + checked.stderr == (
        f"error: entry point tally = tally_exits:KIND (group {KIND_GROUP}) of "
        "distribution tally-extension 1.0: cannot be imported: SystemExit: 0; expected a "
        "module that imports without an error\n")


def test_any_file_of_an_extension_s_package_keys_the_build(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The generator's hash covers every file of the package an entry point names (a
    helper module the kind imports, a template), read without importing the package: a
    package whose ``__init__`` raises is hashed, not run."""
    from generator.digests import source_identity

    package = tmp_path / "count_ext"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('not run')\n", encoding="utf-8")
    (package / "kind.py").write_text("KIND = None\n", encoding="utf-8")
    (package / "helper.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    before = source_identity("count_ext.kind")
    assert str(package / "helper.py") in before and "count_ext" not in sys.modules
    (package / "helper.py").write_text("VALUE = 22\n", encoding="utf-8")
    assert source_identity("count_ext.kind") != before
    assert source_identity("not_installed_anywhere.kind") == "not_installed_anywhere.kind"
