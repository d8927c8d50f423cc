"""``explain`` and case files (docs/site.md, "explain"): ``--case FILE`` prints the file
itself with each case completed (comments, ``defaults``, ``status`` and ``because``
kept), ``--id`` chooses a case of the file and ``--new-id`` renames it, ``--append FILE``
adds the case to a case file through the safe writer, and ``--lang`` for a locale no
catalog translates falls back to English and says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from generator.layout import writing as layout
from tests.conftest import REPO
from tests.conftest import SHIPPED_LOCALES
from tests.conftest import UNSHIPPED_LOCALE
from tests.conftest import run_cli

FILE = """\
# Jokers: my notes stay
defaults:
    game: rami51    # every case is Rami 51
cases:
    -   id: joker-run
        kind: meld
        cards: JK 7S 8S
        title: A run with a joker
        expect:
            verdict: valid
            points: 24      # the app's count
    -   id: app-counts-joker-high
        kind: meld
        cards: JK QS KS
        title: The app counts it high
        status: known_disagreement
        because: The app puts the joker at A.
        expect: {verdict: valid, points: 31}

    # a case being written
    -   kind: meld
        cards: [QH, KH, AH]
    -   {id: flow-case, kind: meld, cards: QH KH 2H, title: Flow}
"""

COMPLETED = """\
# Jokers: my notes stay
defaults:
    game: rami51    # every case is Rami 51
cases:
    -   id: joker-run
        kind: meld
        cards: JK 7S 8S
        title: A run with a joker
        expect:
            verdict: valid
            points: 21      # the app's count
    -   id: app-counts-joker-high
        kind: meld
        cards: JK QS KS
        title: The app counts it high
        status: known_disagreement
        because: The app puts the joker at A.
        expect: {verdict: valid, points: 31}

    # a case being written
    -   id: rami51-meld-qh-kh-ah
        kind: meld
        cards: [QH, KH, AH]
        title: A meld case  # a title to edit
        # Q♥ 10 + K♥ 10 + A♥ 11 = 31
        expect:
            verdict: valid
            type: run
            points: 31
    -   {id: flow-case, kind: meld, cards: QH KH 2H, title: Flow, expect: {verdict: invalid, \
type: run, reason: not_consecutive}}
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A project (found by its ``site.yaml``) with one page and ``content/examples/``."""
    root = tmp_path / "site"
    (root / "content/examples").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test rules\n", encoding="utf-8")
    (root / "content/page.md").write_text("# Page\n\nText.\n", encoding="utf-8")
    return root


def _without_comments(text: str) -> str:
    """``text`` without its comment lines (the engine's reasoning, worded elsewhere)."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith("#"))


# -- --case FILE: the file, each case completed ----------------------------------------------


def test_a_case_file_is_printed_as_it_is_each_case_completed(site: Path) -> None:
    """Comments, ``defaults``, the indentation and flow style, ``status`` and
    ``because`` stay; a documented value is brought in line as ``check --fix`` does (a
    ``known_disagreement`` keeps its documented value), and what is missing is filled
    in. The output passes ``check``."""
    path = site / "content/examples/jokers.yaml"
    path.write_text(FILE, encoding="utf-8")
    result = run_cli("explain", "--case", str(path), cwd=site)
    assert result.returncode == 0, result.stdout
    assert result.stdout == COMPLETED
    assert result.stderr == ("note: content/examples/jokers.yaml:11:13: case joker-run: "
                             "points documented 24, engine 21: printed with the engine's "
                             "value\n")
    assert path.read_text(encoding="utf-8") == FILE  # (it prints; it writes nothing)
    path.write_text(result.stdout, encoding="utf-8")
    check = run_cli("check", cwd=site)
    assert check.returncode == 0, check.stdout
    assert check.stderr == "4 cases checked: 0 disagreements, 0 input errors, 4 warnings; " \
        "0 pending, 1 known disagreement\n"


def test_a_stale_known_disagreement_loses_its_status(site: Path) -> None:
    path = site / "content/examples/jokers.yaml"
    path.write_text(FILE.replace("points: 31}", "points: 30}"), encoding="utf-8")
    result = run_cli("explain", "--case", "content/examples/jokers.yaml", cwd=site)
    assert result.returncode == 0, result.stdout
    assert "        title: The app counts it high\n        expect: {verdict: valid, " \
        "points: 30}\n" in result.stdout
    assert "note: content/examples/jokers.yaml:12:9: case app-counts-joker-high: status " \
        "known_disagreement and because left out: every documented value agrees now" \
        in result.stderr.splitlines()


def test_an_id_chooses_a_case_of_the_file(site: Path) -> None:
    path = site / "content/examples/jokers.yaml"
    path.write_text(FILE, encoding="utf-8")
    known = run_cli("explain", "--case", str(path), "--id", "app-counts-joker-high")
    assert known.returncode == 0, known.stdout
    assert _without_comments(known.stdout) == """\
cases:
  - id: app-counts-joker-high
    kind: meld
    game: rami51
    cards: JK QS KS
    title: The app counts it high
    status: known_disagreement
    because: The app puts the joker at A.
    expect:
      verdict: valid
      points: 31
"""
    assert "    # JK→J♠ 10 + Q♠ 10 + K♠ 10 = 30\n    expect:\n" in known.stdout
    renamed = run_cli("explain", "--case", str(path), "--id", "joker-run", "--new-id",
                      "joker-run-again")
    assert renamed.returncode == 0, renamed.stdout
    case = yaml.safe_load(renamed.stdout)["cases"][0]
    assert (case["id"], case["title"], case["expect"]) == (
        "joker-run-again", "A run with a joker", {"verdict": "valid", "type": "run",
                                                   "points": 21})


@pytest.mark.parametrize(("args", "message"), [
    (("--id", "joker-rn"), "{file}:1: no case has the id 'joker-rn' (did you mean "
     "'joker-run'?); expected one of: app-counts-joker-high, flow-case, joker-run"),
    (("--title", "One"), "{file}:1: --title takes one case, and the file holds 4; expected "
     "--id to choose one"),
    (("--new-id", "x", "--append", "other.yaml"), "{file}:1: --new-id and --append take one "
     "case, and the file holds 4; expected --id to choose one"),
])
def test_a_case_the_file_does_not_have(tmp_path: Path, args: tuple[str, ...],
                                       message: str) -> None:
    path = tmp_path / "jokers.yaml"
    path.write_text(FILE, encoding="utf-8")
    result = run_cli("explain", "--case", str(path), *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == message.format(file="jokers.yaml") + "\n"  # (in the project)
    assert not (tmp_path / "other.yaml").exists()


def test_a_file_of_one_case_is_named_by_id_as_it_always_was(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text("cases:\n  - id: old\n    kind: meld\n    game: rami51\n"
                    "    cards: QH KH AH\n    title: One\n", encoding="utf-8")
    result = run_cli("explain", "--case", str(path), "--id", "new")
    assert result.returncode == 0, result.stdout
    assert yaml.safe_load(result.stdout)["cases"][0]["id"] == "new"
    refused = run_cli("explain", "--game", "rami51", "--new-id", "x", "QH", "KH", "AH")
    assert (refused.returncode, refused.stdout) == (2, "command line: --new-id renames a "
                                                    "case read with --case; expected --id "
                                                    "to name a case made from the command "
                                                    "line\n")


# -- --append FILE -------------------------------------------------------------------------


APPENDED = """\
    -   id: rami51-meld-jk-7s-8s
        kind: meld
        game: rami51
        rules: reference
        cards: JK 7S 8S
        title: JK 7S 8S  # a title to edit
"""


def test_append_adds_the_case_in_the_file_s_own_form(site: Path) -> None:
    """CRLF line ends, a byte-order mark, the items' indentation (``-   ``, fields eight
    columns in, four more for ``expect``'s) and the comments stay; ``defaults`` that
    would change the case (``rules: house``) are overridden in the case."""
    text = FILE.replace("    game: rami51    #", "    game: rami51\n    rules: house    #") \
        + "# the end\n"
    path = site / "content/examples/jokers.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    completed = run_cli("explain", "--case", str(path), cwd=site)
    path.write_bytes(b"\xef\xbb\xbf" + completed.stdout.encode("utf-8"))  # (CRLF kept)
    before = path.read_bytes()
    result = run_cli("explain", "--game", "rami51", "JK", "7S", "8S", "--append",
                     "jokers.yaml", cwd=site / "content/examples")
    assert result.returncode == 0, result.stdout
    after = path.read_bytes()
    end = before.index(b"# the end")
    assert after[:end] == before[:end] and after.endswith(b"# the end\r\n")
    added = after[end:-len(b"# the end\r\n")].decode("utf-8")
    assert "\r\n" in added and "\n" not in added.replace("\r\n", "")
    assert _without_comments(added.replace("\r\n", "\n")) == APPENDED + """\
        expect:
            verdict: valid
            type: run
            points: 21
"""
    line = before[:end].count(b"\n") + 1
    assert result.stderr == "appended case rami51-meld-jk-7s-8s to " \
        f"content/examples/jokers.yaml (line {line})\n"
    assert _without_comments(result.stdout).startswith("cases:\n  - id: rami51-meld-jk-7s-8s\n")
    check = run_cli("check", cwd=site)
    assert check.returncode == 0, check.stdout
    assert check.stderr.startswith("5 cases checked: 0 disagreements, 0 input errors")


def test_append_makes_a_new_case_file(site: Path) -> None:
    result = run_cli("explain", "--game", "rami51", "--id", "three-kings", "KH", "KS", "KD",
                     "--title", "Three kings", "--append", "content/examples/kings.yaml",
                     cwd=site)
    assert result.returncode == 0, result.stdout
    assert (site / "content/examples/kings.yaml").read_text(encoding="utf-8") == result.stdout
    assert result.stdout.startswith("cases:\n  - id: three-kings\n")
    assert result.stderr == "appended case three-kings to content/examples/kings.yaml " \
        "(line 2)\n"
    header = "# yaml-language-server: $schema=../../case-file.schema.json\n"
    (site / "content/examples/empty.yaml").write_text(header, encoding="utf-8")
    second = run_cli("explain", "--game", "rami51", "--id", "three-queens", "QH", "QS", "QD",
                     "--title", "Three queens", "--append", "content/examples/empty.yaml",
                     cwd=site)
    assert second.returncode == 0, second.stdout
    assert (site / "content/examples/empty.yaml").read_text(encoding="utf-8") == \
        header + second.stdout
    (site / "content/examples/none.yaml").write_text("cases: []  # none yet\n",
                                                      encoding="utf-8")
    third = run_cli("explain", "--game", "rami51", "--id", "three-jacks", "JH", "JS", "JD",
                    "--title", "Three jacks", "--append", "content/examples/none.yaml",
                    cwd=site)
    assert third.returncode == 0, third.stdout
    assert (site / "content/examples/none.yaml").read_text(encoding="utf-8") == \
        "cases:  # none yet\n" + third.stdout.removeprefix("cases:\n")
    check = run_cli("check", cwd=site)
    assert check.returncode == 0, check.stdout
    assert check.stderr == "3 cases checked: 0 disagreements, 0 input errors, 3 warnings\n"


def test_append_outside_the_case_files_says_check_does_not_read_it(site: Path) -> None:
    result = run_cli("explain", "--game", "rami51", "QH", "KH", "AH", "--append",
                     "notes/new.yaml", cwd=site)
    assert result.returncode == 0, result.stdout
    assert (site / "notes/new.yaml").read_text(encoding="utf-8") == result.stdout
    assert result.stderr.splitlines()[1] == (
        f"note: notes/new.yaml is no case file of the project {site} (a .yaml file under "
        "content/examples/): check does not read it")


@pytest.mark.parametrize(("taken", "first"), [
    ("taken", "content/examples/other.yaml:2:5"),
    ("joker-run", "content/examples/jokers.yaml:5:9")])
def test_append_refuses_an_id_a_case_has(site: Path, taken: str, first: str) -> None:
    (site / "content/examples/other.yaml").write_text(
        "cases:\n  - id: taken\n    kind: meld\n    game: rami51\n    cards: QH KH AH\n"
        "    title: Taken\n    expect: {verdict: valid, points: 31}\n", encoding="utf-8")
    path = site / "content/examples/jokers.yaml"
    path.write_text(COMPLETED, encoding="utf-8")
    result = run_cli("explain", "--game", "rami51", "--id", taken, "JK", "7S", "8S",
                     "--append", "content/examples/jokers.yaml", cwd=site)
    assert result.returncode == 2
    assert result.stdout == (f"command line: duplicate case id {taken!r} (first defined at "
                             f"{first}); expected an id no case has: give one with --id; "
                             "nothing written to content/examples/jokers.yaml\n")
    assert path.read_text(encoding="utf-8") == COMPLETED


def test_append_writes_nothing_into_a_file_with_an_input_error(site: Path) -> None:
    path = site / "content/examples/jokers.yaml"
    path.write_text(FILE, encoding="utf-8")  # (cases without title and expect)
    result = run_cli("explain", "--game", "rami51", "QH", "KH", "AH", "--append",
                     "content/examples/jokers.yaml", cwd=site)
    assert result.returncode == 2
    assert result.stdout.splitlines()[-1] == (
        "content/examples/jokers.yaml:1: --append: nothing written: the file has input "
        "errors; expected a case file that check passes (fix them first)")
    assert path.read_text(encoding="utf-8") == FILE


def test_append_keeps_an_edit_saved_while_it_writes(site: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = site / "content/examples/jokers.yaml"
    path.write_text(COMPLETED, encoding="utf-8")
    saved = COMPLETED + "# the author's edit\n"

    def author_saves(where: Path) -> None:
        where.write_text(saved, encoding="utf-8")

    monkeypatch.setattr(layout, "before_final_check", author_saves)
    result = run_cli("explain", "--game", "rami51", "KH", "KS", "KD", "--append",
                     "content/examples/jokers.yaml", cwd=site)
    assert result.returncode == 2
    assert result.stdout == "content/examples/jokers.yaml:1: the file changed since it was " \
        "read; nothing written to it (run explain again)\n"
    assert path.read_text(encoding="utf-8") == saved
    assert [p.name for p in path.parent.iterdir()] == ["jokers.yaml"]


def test_append_refuses_a_link_out_of_the_project(site: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(COMPLETED, encoding="utf-8")
    (site / "content/examples/link.yaml").symlink_to(outside)
    result = run_cli("explain", "--game", "rami51", "QH", "KH", "AH", "--append",
                     "content/examples/link.yaml", cwd=site)
    assert result.returncode == 2
    assert result.stdout.startswith("content/examples/link.yaml:1: ")
    assert "outside the project" in result.stdout
    assert outside.read_text(encoding="utf-8") == COMPLETED


# -- --lang ------------------------------------------------------------------------------


def test_a_language_no_catalog_translates_falls_back_to_english_and_says_so(
        site: Path) -> None:
    lang = UNSHIPPED_LOCALE
    english = run_cli("explain", "--game", "rami51", "JK", "7S", "8S", cwd=site)
    other = run_cli("explain", "--game", "rami51", "--lang", lang, "JK", "7S", "8S",
                    cwd=site)
    assert other.returncode == 0
    assert other.stdout == english.stdout
    assert other.stderr == (
        f"note: --lang {lang}: no catalog translates '{lang}' (neither "
        f"locales/{lang}/LC_MESSAGES/messages.po in the project nor the generator's "
        f"built-in ones, which translate {', '.join(SHIPPED_LOCALES)}): the reasoning is "
        "in English\n")
    german = run_cli("explain", "--game", "rami51", "--lang", "de", "JK", "7S", "8S",
                     cwd=site)
    assert (german.returncode, german.stderr) == (0, "")
    assert german.stdout != english.stdout


def test_a_catalog_without_the_reasoning_s_messages_says_they_are_english(
        site: Path) -> None:
    lang = UNSHIPPED_LOCALE
    (site / f"locales/{lang}/LC_MESSAGES").mkdir(parents=True)
    update = run_cli("i18n", "update", cwd=site)
    assert update.returncode == 0, update.stdout + update.stderr
    assert (site / f"locales/{lang}/LC_MESSAGES/messages.po").is_file()
    result = run_cli("explain", "--game", "rami51", "--lang", lang, "JK", "7S", "8S",
                     cwd=site)
    assert result.returncode == 0, result.stdout
    assert re.fullmatch(rf"note: --lang {lang}: [1-9][0-9]* messages? of the reasoning "
                        rf"(are|is) not translated into '{lang}': shown in English\n",
                        result.stderr), result.stderr


def test_append_names_the_editor_schema_in_a_new_case_file(init_project: Path) -> None:
    """A case file ``--append`` makes in a project made by ``init`` starts, as init's own
    case file does, with the line naming the editor schema (relative to its folder)."""
    header = (init_project / "content/examples/melds.yaml").read_text("utf-8").splitlines()[0]
    for rel, schema in (("content/examples/kings.yaml", "../../case-file.schema.json"),
                        ("content/examples/sub/queens.yaml",
                         "../../../case-file.schema.json")):
        result = run_cli("explain", "--game", "rami51", "KH", "KS", "KD", "--title",
                         "Three kings", "--id", rel.rpartition("/")[2][:-5], "--append",
                         rel, cwd=init_project)
        assert result.returncode == 0, result.stdout + result.stderr
        text = (init_project / rel).read_text(encoding="utf-8")
        assert text == f"# yaml-language-server: $schema={schema}\n" + result.stdout
        assert (init_project / rel).parent.joinpath(schema).resolve() == \
            (init_project / "case-file.schema.json").resolve()
    assert header == "# yaml-language-server: $schema=../../case-file.schema.json"
    assert run_cli("check", cwd=init_project).returncode == 0


def test_the_readme_says_which_of_explains_lines_to_paste(tmp_path: Path) -> None:
    """``explain`` prints a whole case file, its ``cases:`` line first: the quickstart
    says to add the case with ``--append``, or to paste the lines after ``cases:`` (the
    whole output pasted into a case file is a duplicate key)."""
    printed = run_cli("explain", "--game", "rami51", "JK", "7S", "8S", cwd=tmp_path)
    assert printed.stdout.startswith("cases:\n  - id: ")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    step = readme.partition("\n3. **Write a case**")[2].partition("\n4. ")[0]
    assert "`--append\n   content/examples/melds.yaml` adds the case" in step
    assert "paste the printed lines\n   after `cases:`" in step
