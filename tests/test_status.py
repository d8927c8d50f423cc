"""Per-case ``status`` (docs/site.md, "Case status"): ``pending`` listed, not failing;
``known_disagreement`` with ``because`` shown side by side, failing once it agrees;
counted in ``check``'s summary and JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bs4 import BeautifulSoup

from generator.commands.serve_pages import report_entries
from generator.i18n import words
from generator.kinds import REGISTRY
from generator.render.preview import DISAGREEMENT
from generator.render.preview import STATUS
from tests.conftest import REPO
from tests.conftest import run_cli
from tests.test_fix import CASES
from tests.test_fix import small_project

STATUS_CASES = """\
defaults: {game: rami51}
cases:
  - id: being-written
    kind: meld
    cards: JK 7S 8S
    title: Being written
    status: pending
    expect: {verdict: valid, points: 24}
  - id: app-counts-nine
    kind: meld
    cards: JK 7S 8S
    title: The app counts the joker as a nine
    status: known_disagreement
    because: The app counts the joker as 9.
    expect: {verdict: valid, points: 24}
"""


def test_pending_and_known_disagreements_are_listed_and_do_not_fail(tmp_path: Path) -> None:
    root = small_project(tmp_path, STATUS_CASES)
    result = run_cli("check", "--project", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (f"{CASES}:8: case being-written: points documented 24, engine 21 "
                        "(pending: listed, not failing)")
    assert f"{CASES}:15: case app-counts-nine: points documented 24, engine 21 (known " \
        "disagreement, not failing: The app counts the joker as 9.)" in lines
    assert result.stderr.strip() == ("2 cases checked: 0 disagreements, 0 input errors; "
                                     "1 pending, 1 known disagreement")


def test_json_gives_each_reported_case_its_status(tmp_path: Path) -> None:
    root = small_project(tmp_path, STATUS_CASES)
    result = run_cli("check", "--format", "json", "--project", str(root))
    assert result.returncode == 0
    report = json.loads(result.stdout)
    assert [(d["case"], d["status"], d["failing"]) for d in report["disagreements"]] == [
        ("being-written", "pending", False), ("app-counts-nine", "known_disagreement", False)]
    assert report["status"] == {"pending": 1, "known_disagreement": 1}
    assert report["cases"] == 2 and report["errors"] == []


def test_a_known_disagreement_that_agrees_fails_with_a_sentence(tmp_path: Path) -> None:
    """Stale: every documented value agrees now. The text and JSON reports say so in one
    sentence at ``status``, with the engine's reasoning, and the summary that ``check
    --fix`` settles it (it removes ``status`` and ``because``)."""
    root = small_project(tmp_path, STATUS_CASES.replace("points: 24}\n", "points: 21}\n"))
    result = run_cli("check", "--project", str(root))
    assert result.returncode == 1
    sentence = ("case app-counts-nine is marked as a known disagreement, but the engine now "
                "agrees: remove status and because")
    reasoning = ["The joker stands for 6♠, not 9♠: fewer points.", "JK→6♠ 6 + 7♠ 7 + 8♠ 8 = 21"]
    assert result.stdout.splitlines()[-3:] == [f"{CASES}:13: {sentence}",
                                               *(f"    {line}" for line in reasoning)]
    assert result.stderr.strip() == ("2 cases checked: 1 disagreement, 0 input errors; 1 "
                                     "pending, 1 known disagreement; check --fix would settle "
                                     "the disagreement")
    report = json.loads(run_cli("check", "--format", "json", "--project", str(root)).stdout)
    assert report["disagreements"] == [{
        "file": CASES, "line": 13, "column": 13, "case": "app-counts-nine", "field": "status",
        "documented": "known_disagreement", "engine": None, "reasoning": reasoning,
        "message": sentence, "status": "known_disagreement", "failing": True}]


def test_serve_lists_a_stale_known_disagreement_with_the_disagreements() -> None:
    """``serve``'s error page sorts the report's lines by their form: the stale sentence
    is a failing disagreement's, as ``status documented ..., engine —`` was."""
    lines = [f"{CASES}:13: case app-counts-nine is marked as a known disagreement, but the "
             "engine now agrees: remove status and because", "    JK→6♠ 6 + 7♠ 7 + 8♠ 8 = 21",
             f"{CASES}:8: case being-written: points documented 24, engine 21 (pending: "
             "listed, not failing)"]
    assert [(e.kind, len(e.lines)) for e in report_entries(lines)] == [
        (DISAGREEMENT, 2), (STATUS, 1)]


def test_status_and_because_go_together(tmp_path: Path) -> None:
    text = STATUS_CASES.replace("    because: The app counts the joker as 9.\n", "") \
        .replace("    status: pending\n", "    because: It is new.\n")
    root = small_project(tmp_path, text)
    result = run_cli("check", "--project", str(root))
    assert result.returncode == 2
    assert result.stdout.splitlines() == [
        f"{CASES}:7:14: field 'because' goes with status known_disagreement; expected status: "
        "known_disagreement with it, or no because",
        f"{CASES}:9:5: missing field 'because' in case; expected because: <English text: why "
        "the documented value differs from the engine's> (status known_disagreement says "
        "why in because)",
    ]
    bad = run_cli("check", "--project", str(small_project(
        tmp_path / "2", STATUS_CASES.replace("status: pending", "status: draft"))))
    assert f"{CASES}:7:13: unknown status 'draft'; expected one of: pending, " \
        "known_disagreement" in bad.stdout


def test_the_page_shows_a_known_disagreement_side_by_side(tmp_path: Path) -> None:
    root = small_project(tmp_path, STATUS_CASES)
    (root / "content/page.md").write_text(
        "# Page\n\n```cases\nbeing-written\napp-counts-nine\n```\n", encoding="utf-8")
    shutil.copytree(REPO / "locales", root / "locales")
    result = run_cli("build", "--project", str(root))
    assert result.returncode == 0, result.stdout + result.stderr
    page = BeautifulSoup((root / "site/cs/page/index.html").read_text(encoding="utf-8"),
                         "html.parser")
    known = page.find(id="app-counts-nine")
    assert known["data-status"] == "known_disagreement"
    assert known["data-points"] == "21"  # the engine's, as always
    status = known.select_one(".case__status")
    assert status.select_one(".status-badge").get_text() == "Známý rozdíl"
    assert status.select_one(".case__known").get_text() == \
        "Body: stránka uvádí 24, podle herního jádra 21."
    because = status.select_one(".case__because")
    assert because.get_text() == "Proč: The app counts the joker as 9."
    assert because["lang"] == "en"  # not translated yet, and marked
    pending = page.find(id="being-written")
    assert pending["data-status"] == "pending"
    assert pending.select_one(".status-badge").get_text() == "Rozpracováno"
    assert pending.select_one(".case__known") is None
    english = BeautifulSoup((root / "site/en/page/index.html").read_text(encoding="utf-8"),
                            "html.parser")
    assert english.find(id="app-counts-nine").select_one(".case__known").get_text() == \
        "Points: the page documents 24, the engine gives 21."


def test_every_expect_field_has_its_words() -> None:
    fields = {name for kind in REGISTRY for name in kind.expect} - {"end"}
    fields |= {"end.round_over", "end.reason", "end.winner", "end.scores"}
    assert fields == set(words.EXPECT_FIELDS)
