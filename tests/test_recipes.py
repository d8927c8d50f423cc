"""docs/DESIGN.md's recipes, followed on a copy of the repository (extended round): each
test makes a recipe's change (a case kind, a game, a language, a page check, a message of
the theme) by editing the copy's files as a developer would, runs the commands that show
it works (``check``, ``build``, ``i18n``), and holds the files ``git status`` lists to the
recipe's ``files`` list, so that a recipe naming a file the change does not need, or
missing one it needs, fails.

A recipe's list is a fenced block of info string ``files`` in its section: one path a
line, ``<name>`` standing for any one path part (``<lang>``, ``<kind>``), then what the
file gets; a line whose words say "when" names a file the change needs only then (it may
be changed, it need not be). The copy is a clone of the repository's last commit
(``git clone --shared``): commit a change to DESIGN.md's code before running these.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.test_extensions import TALLY_PAGE
from tests.test_games import RAMI60_CASES
from tests.test_games import RAMI60_PAGE

pytestmark = [pytest.mark.extended, pytest.mark.skipif(
    not EXTENDED, reason="the recipes on a clone: RULES_EXTENDED=1 (the extended round)")]

DESIGN = REPO / "docs" / "DESIGN.md"


@dataclass(frozen=True)
class Named:
    """One line of a recipe's ``files`` list.

    Attributes:
        line: the line as written.
        pattern: the paths it names (``<name>``: one path part).
        needed: whether every change by the recipe touches it (no "when").
    """

    line: str
    pattern: re.Pattern[str]
    needed: bool


def recipe(title: str) -> list[Named]:
    """The ``files`` list of DESIGN.md's section ``## <title>``.

    Raises:
        AssertionError: no such section, or it has no ``files`` list.
    """
    text = DESIGN.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found is not None, f"docs/DESIGN.md has no section '## {title}'"
    fence = re.search(r"^```files\n(.*?)^```", found.group(1), re.M | re.S)
    assert fence is not None, (f"docs/DESIGN.md, '{title}': no ```files list of the files "
                               "the recipe touches")
    named = []
    for line in fence.group(1).splitlines():
        if not line.strip():
            continue
        path, _, words = line.strip().partition(" ")
        parts = re.split(r"(<[a-z_]+>)", path)
        pattern = "".join("[^/]+" if re.fullmatch(r"<[a-z_]+>", p) else re.escape(p)
                          for p in parts)
        named.append(Named(line.strip(), re.compile(pattern),
                           re.search(r"\bwhen\b", words) is None))
    return named


def changed(copy: Path) -> list[str]:
    """The files of ``copy`` that ``git status`` lists (changed, new), sorted."""
    status = subprocess.run(["git", "status", "--porcelain", "-uall"], cwd=copy,
                            capture_output=True, text=True, check=True).stdout
    return sorted(line[3:].split(" -> ")[-1].strip('"') for line in status.splitlines())


def assert_follows(copy: Path, title: str) -> None:
    """The files changed in ``copy`` are the ones recipe ``title`` names: none it does not
    name, and each it needs."""
    named = recipe(title)
    files = changed(copy)
    unnamed = [f for f in files if not any(n.pattern.fullmatch(f) for n in named)]
    untouched = [n.line for n in named
                 if n.needed and not any(n.pattern.fullmatch(f) for f in files)]
    assert (unnamed, untouched) == ([], []), (
        f"docs/DESIGN.md, '{title}': changed but not named: {unnamed}; named but not "
        f"changed: {untouched}")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A clone of the repository's last commit, its objects shared with it."""
    target = tmp_path / "copy"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--shared", "--no-checkout", str(REPO),
                    str(target)], check=True)
    subprocess.run(["git", "checkout", "-q", head], cwd=target, check=True)
    return target


def generator(copy: Path, *args: str, cwd: Path | None = None) -> str:
    """Run ``python -m generator ARGS`` from the copy's code; its output, exit 0 asserted."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("GENERATOR_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd or copy,
                          env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout + done.stderr


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one ``old`` in ``path`` by ``new``."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)


def page_text(site: Path, lang: str, slug: str) -> str:
    html = (site / lang / slug / "index.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").get_text(" ")


# -- the recipes ----------------------------------------------------------------------


TALLY_ENGINE = '''\
"""Tallies: the points of a hand's cards counted one by one (docs/rules.md, "Hand
values")."""

from __future__ import annotations

from collections.abc import Sequence

from generator.engine.cards import Card
from generator.engine.hand import hand_value
from generator.engine.rules import RuleSet


def tally(cards: Sequence[Card], rules: RuleSet) -> int:
    """The points of ``cards`` under ``rules``."""
    return hand_value(cards, rules)
'''

TALLY_KIND = '''\
"""Kind ``tally``: a hand's cards counted one by one."""

from __future__ import annotations

from generator.engine.rules import RuleSet
from generator.engine.tally import tally
from generator.kinds.hand import HandKind
from generator.kinds.meld import CardsInput


class TallyKind(HandKind):
    """A tally: ``cards`` → points."""

    name = "tally"

    def run(self, inputs: CardsInput, rules: RuleSet) -> int:
        return tally(inputs.cards, rules)


KIND = TallyKind()
'''

TALLY_CASES = """\
defaults:
  game: rami51
  kind: tally
cases:
  - id: three-kings-tallied
    cards: KH KD KS
    title: Three kings tallied
    expect: {points: 30}
"""



def test_the_recipe_of_a_case_kind(copy: Path, tmp_path: Path) -> None:
    generator_dir = copy / "generator"
    (generator_dir / "engine" / "tally.py").write_text(TALLY_ENGINE, encoding="utf-8")
    (generator_dir / "kinds" / "tally.py").write_text(TALLY_KIND, encoding="utf-8")
    edit(generator_dir / "kinds" / "__init__.py", "from generator.kinds import scenario\n",
         "from generator.kinds import scenario\nfrom generator.kinds import tally\n")
    edit(generator_dir / "kinds" / "__init__.py", "    hand_size.KIND,\n",
         "    hand_size.KIND,\n    tally.KIND,\n")
    theme = generator_dir / "theme" / "kinds"
    (theme / "tally.html").write_text((theme / "hand.html").read_text(encoding="utf-8")
                                      .replace("Kind hand:", "Kind tally:"),
                                      encoding="utf-8")
    generator(copy, "i18n", "update", "--builtin")
    (copy / "content" / "examples" / "tallies.yaml").write_text(TALLY_CASES,
                                                                 encoding="utf-8")
    append(copy / "content" / "rules.md", TALLY_PAGE)
    generator(copy, "i18n", "update")

    assert "0 disagreements, 0 input errors" in generator(copy, "check")
    site = tmp_path / "site"
    generator(copy, "build", "--out", str(site))
    assert "Three kings tallied" in page_text(site, "en", "rules")
    assert_follows(copy, "How to add a case kind")


def test_the_recipe_of_a_game(copy: Path, tmp_path: Path) -> None:
    edit(copy / "generator" / "engine" / "rules.py",
         '    rami_variant("rami51", "Rami 51", opening_threshold=51, '
         'opening_needs_pure_run=True),\n',
         '    rami_variant("rami51", "Rami 51", opening_threshold=51, '
         'opening_needs_pure_run=True),\n'
         '    rami_variant("rami60", "Rami 60", opening_threshold=60, '
         'opening_needs_pure_run=True),\n')
    generator(copy, "i18n", "update", "--builtin")
    (copy / "content" / "examples" / "rami60.yaml").write_text(RAMI60_CASES,
                                                               encoding="utf-8")
    append(copy / "content" / "first-meld.md", RAMI60_PAGE)
    generator(copy, "i18n", "update")

    assert "0 disagreements, 0 input errors" in generator(copy, "check")
    assert "game: rami60" in generator(copy, "explain", "--game", "rami60", "--kind",
                                       "first_meld", "--melds", "QH KH AH", "7C 7D 7H")
    site = tmp_path / "site"
    generator(copy, "build", "--out", str(site))
    assert "In Rami 60 a first meld needs 60 points." in page_text(site, "en", "first-meld")
    assert_follows(copy, "How to add a game")


def test_the_recipe_of_a_language(copy: Path, tmp_path: Path) -> None:
    (copy / "generator" / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    generator(copy, "i18n", "update", "--builtin")
    scaffold = copy / "generator" / "scaffold" / "locales"
    (scaffold / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (scaffold / "fr" / "LC_MESSAGES" / "messages.po").write_text(
        (scaffold / "cs" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
        .replace("Language: cs", "Language: fr"), encoding="utf-8")
    (copy / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    generator(copy, "i18n", "update")

    site = tmp_path / "site"
    generator(copy, "build", "--out", str(site))
    assert (site / "fr" / "rules" / "index.html").is_file()
    assert_follows(copy, "How to add a language")


NO_TODO = '''

def _no_todo(page: PageState) -> None:
    """A page holds no ``TODO`` its author left."""
    for number, line in enumerate(page.lines, 1):
        column = line.find("TODO")
        if column >= 0:
            page.report(number, column + 1, "a TODO left in the page; expected it done")

'''


def test_the_recipe_of_a_page_check(copy: Path, tmp_path: Path) -> None:
    checks = copy / "generator" / "content" / "page_checks.py"
    edit(checks, "\nPAGE_CHECKS: Ruler[PageCheck] = Ruler([",
         NO_TODO + "\nPAGE_CHECKS: Ruler[PageCheck] = Ruler([")
    edit(checks, '    ("links", _links),\n', '    ("links", _links),\n'
         '    ("no_todo", _no_todo),\n')

    edit(copy / "tests" / "test_page_checks.py", '"slug", "links"]', '"slug", "links",\n'
         '        "no_todo"]')
    edit(copy / "docs" / "site.md", "\n## Pages\n",
         "\n## Pages\n\nA page holds no `TODO`.\n")
    edit(copy / "CHANGELOG.md", "### Added\n", "### Added\n\n- Pages: no `TODO` left.\n")
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
         "tests/test_page_checks.py::"
         "test_the_built_in_checks_are_listed_by_name_in_the_order_they_run"],
        cwd=copy, env={**os.environ, "PYTHONPATH": str(copy)}, capture_output=True,
        text=True, timeout=600, check=False)
    assert listed.returncode == 0, listed.stdout + listed.stderr

    project = tmp_path / "small"
    generator(copy, "init", str(project))
    page = next((project / "content").glob("*.md"))
    append(page, "\nTODO: more examples.\n")
    env = {**os.environ, "PYTHONPATH": str(copy)}
    refused = subprocess.run([sys.executable, "-m", "generator", "check", "--project",
                              str(project)], cwd=copy, env=env, capture_output=True,
                             text=True, timeout=600, check=False)
    assert refused.returncode == 2
    assert "a TODO left in the page; expected it done" in refused.stdout + refused.stderr
    assert_follows(copy, "How to add a page check")


THEME_MESSAGE = "Printed from the rules site"


def test_the_recipe_of_a_message_of_the_theme(copy: Path, tmp_path: Path) -> None:
    edit(copy / "generator" / "theme" / "page.html", "  </article>\n</div>\n",
         f'    <p>{{{{ _("{THEME_MESSAGE}") }}}}</p>\n  </article>\n</div>\n')
    generator(copy, "i18n", "update", "--builtin")
    catalogs = sorted((copy / "generator" / "locales").glob("*/LC_MESSAGES/messages.po"))
    for catalog in catalogs:
        edit(catalog, f'msgid "{THEME_MESSAGE}"\nmsgstr ""',
             f'msgid "{THEME_MESSAGE}"\nmsgstr "{THEME_MESSAGE} ({catalog.parts[-3]})"')

    project = tmp_path / "small"
    generator(copy, "init", str(project))
    site = tmp_path / "site"
    generator(copy, "build", "--project", str(project), "--out", str(site))
    slug = next((project / "content").glob("*.md")).stem
    assert THEME_MESSAGE in page_text(site, "en", slug)
    assert f"{THEME_MESSAGE} (cs)" in page_text(site, "cs", slug)
    assert_follows(copy, "How to add a message to the theme")


def test_a_recipe_s_list_is_read_as_paths_and_conditions() -> None:
    """The parser itself, on this file's own kind recipe: a placeholder stands for one
    path part, and a line with "when" is not needed."""
    named = {n.line.split()[0]: n for n in recipe("How to add a case kind")}
    kind = named["generator/kinds/<kind>.py"]
    assert kind.needed and kind.pattern.fullmatch("generator/kinds/tally.py")
    assert not kind.pattern.fullmatch("generator/kinds/sub/tally.py")
    assert not named["generator/engine/codes.py"].needed
