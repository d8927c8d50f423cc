"""``serve``'s error page (docs/site.md, "serve"): each error with the lines of its file
around it (numbered, the line marked, the column pointed at, everything escaped), the
pending cases and known disagreements apart, a title that says what failed, in the
language of the page asked for; nothing shown of a file that is not one of the project's
inputs; the terminal printing a pending or known case's lines once.

Each test builds an ``init`` project whose build fails at ``check`` (nothing rendered),
in a preview without its watcher: :meth:`Preview.rebuild` is the build a save starts."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from bs4 import Tag

from generator.commands import serve_pages
from generator.commands.serve import Preview
from generator.commands.serve_pages import Shown
from generator.layout import Layout
from generator.render import preview as preview_page
from tests.conftest import replace_in

CASES = """\
defaults:
  game: rami51
cases:
  - id: queen-king-ace-hearts
    kind: meld
    cards: QH KH AH
    title: Queen, king and ace of hearts
    expect:
      verdict: valid
      type: run
      points: 30
  - id: three-sevens
    kind: meld
    cards: 7C 7D 7H
    title: Three sevens
    status: pending
    expect:
      verdict: valid
      type: set
      points: 22
  - id: pure-run-and-a-set
    kind: first_meld
    melds:
      - [QH, KH, AH]
      - [7C, 7D, 7H]
    title: A pure run and a set of sevens
    status: known_disagreement
    because: The app counts it so.
    expect:
      verdict: accepted
      points: 50
  - id: hostile
    kind: meld
    cards: QH KH AX
    # </pre><script>alert(1)</script> & <b>bold</b>
    title: Hostile
    expect:
      verdict: valid
  - id: orphan
    kind: meld
    cards: 2H 3H 4H
    title: Orphan
    expect: {verdict: valid, type: run, points: 9}
"""
"""A case file with one of each: a disagreement (line 11), a pending case (line 20), a
known disagreement (line 31), an input error (line 34, column 18) with markup in a
comment under it, a case shown on no page (a warning, line 39)."""

FILE = "content/examples/melds.yaml"
INPUT_ERROR = (f"{FILE}:34:18: unknown card 'AX' (bad suit); expected a rank (A 2-10 J Q "
               "K, T for 10) and a suit (C D H S or ♣ ♦ ♥ ♠), or JK")
DISAGREEMENT = f"{FILE}:11: case queen-king-ace-hearts: points documented 30, engine 31"
PENDING = (f"{FILE}:20: case three-sevens: points documented 22, engine 21 (pending: "
           "listed, not failing)")
KNOWN = (f"{FILE}:31: case pure-run-and-a-set: points documented 50, engine 52 (known "
         "disagreement, not failing: The app counts it so.)")


@contextmanager
def _serving(project: Path) -> Iterator[tuple[Preview, list[str]]]:
    """A preview of ``project`` serving on a free port (no watcher), and what it said."""
    said: list[str] = []
    preview = Preview(project, "127.0.0.1", 0, said.append, said.extend)
    preview.listen()
    preview.start()
    try:
        yield preview, said
    finally:
        preview.close()


def _get(preview: Preview, path: str) -> tuple[int, BeautifulSoup, str]:
    conn = http.client.HTTPConnection("127.0.0.1", preview.port, timeout=20)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read().decode("utf-8")
    finally:
        conn.close()
    return response.status, BeautifulSoup(body, "html.parser"), body


def _rows(excerpt: Tag) -> list[tuple[str, str, bool]]:
    """An excerpt's rows: (line number, text, marked); the pointer's row as ("", text)."""
    return [(row.select_one(".no").get_text().strip(),  # type: ignore[union-attr]
             row.get_text()[len(row.select_one(".no").get_text()):],  # type: ignore[union-attr]
             "at" in row["class"])
            for row in excerpt.select(".row")]


@pytest.fixture
def failing(init_project: Path) -> Path:
    """The ``init`` project with :data:`CASES` as its case file."""
    (init_project / FILE).write_text(CASES, encoding="utf-8")
    return init_project


def test_each_error_shows_its_lines_and_the_listed_cases_stand_apart(failing: Path) -> None:
    with _serving(failing) as (preview, said):
        shown = preview.rebuild()
        assert shown.exit_code == 2
        status, page, body = _get(preview, "/en/melds/")
        _, czech, _ = _get(preview, "/cs/melds/")
    assert status == 500
    title = "Build failed: 1 input error, 1 disagreement"
    assert page.title is not None and page.title.get_text() == f"{title} — {FILE}"
    assert page.h1 is not None and page.h1.get_text() == title
    assert page.html is not None and page.html["lang"] == "en"

    errors = page.select("ol.errors > li")
    assert [e.select_one("pre.lines").get_text() for e in errors] == [  # type: ignore[union-attr]
        INPUT_ERROR, f"{DISAGREEMENT}\n    Q♥ 10 + K♥ 10 + A♥ 11 = 31"]
    unknown_card = errors[0].select_one("pre.excerpt")
    assert unknown_card is not None and unknown_card["aria-label"] == "Line 34, column 18"
    assert _rows(unknown_card) == [
        ("31", "      points: 50", False),
        ("32", "  - id: hostile", False),
        ("33", "    kind: meld", False),
        ("34", "    cards: QH KH AX", True),
        ("", " " * 17 + "^", False),  # under column 18
        ("35", "    # </pre><script>alert(1)</script> & <b>bold</b>", False),
        ("36", "    title: Hostile", False),
        ("37", "    expect:", False)]
    assert [m.get_text() for m in unknown_card.select("mark")] == ["A"]
    # the file's markup is text: escaped, never an element of the page
    assert "# &lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" \
        in body
    assert "<script>alert" not in body and "<b>bold" not in body
    assert [s.get("src") for s in page.select("script")] == [None, serve_pages.SCRIPT]
    assert page.select("script")[0].get_text() == f"\n{preview_page.SCROLL_TO_MARK}"
    points = errors[1].select_one("pre.excerpt")
    assert points is not None and points["aria-label"] == "Line 11"
    assert [(n, marked) for n, _, marked in _rows(points)] == [
        (str(n), n == 11) for n in range(8, 15)]
    assert not points.select("mark") and not points.select(".pointer")

    listed = page.select("section.listed.status li pre.lines")
    assert page.select_one("section.listed.status h2").get_text() == (  # type: ignore[union-attr]
        "Pending cases and known disagreements (not failing)")
    assert [p.get_text().split("\n")[0] for p in listed] == [PENDING, KNOWN]
    assert not page.select("section.listed li pre.excerpt")
    warnings = page.select("section.listed.warning li pre.lines")
    assert [w.get_text().split(": warning: ")[0] for w in warnings] == [f"{FILE}:39"]
    # the page's words in the language of the page asked for; the build's lines English
    assert czech.html is not None and czech.html["lang"] == "cs"
    assert czech.h1 is not None and czech.h1.get_text() == (
        "Sestavení webu selhalo: 1 chyba ve vstupu, 1 rozdíl")
    assert czech.select_one("pre.excerpt")["aria-label"] == "Řádek 34, sloupec 18"  # type: ignore[index]
    assert czech.select_one("section.listed h2").get_text() == (  # type: ignore[union-attr]
        "Rozpracované příklady a známé rozdíly (nejsou chybou)")
    assert czech.select_one("pre.lines[lang=en]").get_text() == INPUT_ERROR  # type: ignore[union-attr]
    assert said[-1].startswith("the build failed (exit 2) in ")
    assert said[-1].endswith(": 1 input error, 1 disagreement; the pages show them until "
                             "the files are fixed (build 1)")


def test_the_terminal_prints_pending_and_known_lines_once(failing: Path) -> None:
    """Printed by the first build, not by the next ones while they stay the same; one
    that changed is printed again (it alone)."""
    cases = failing / FILE
    with _serving(failing) as (preview, said):
        preview.rebuild()
        assert PENDING in said and KNOWN in said and INPUT_ERROR in said
        said.clear()
        replace_in(cases, "title: Hostile", "title: Hostile, edited")
        preview.rebuild()
        assert INPUT_ERROR in said and DISAGREEMENT in said  # errors: every build
        assert not [line for line in said if "not failing" in line]
        assert "    7♣ 7 + 7♦ 7 + 7♥ 7 = 21" not in said
        said.clear()
        replace_in(cases, "points: 22", "points: 23")
        preview.rebuild()
        assert PENDING.replace("documented 22", "documented 23") in said
        assert KNOWN not in said
        # the page lists them all the same
        status, page, _ = _get(preview, "/en/")
    assert status == 500
    assert len(page.select("section.listed.status li")) == 2


def test_no_file_outside_the_project_is_shown(failing: Path, tmp_path: Path) -> None:
    """A case file that is a link leading out of the project: the build names it, the
    page shows nothing of its target. Positions the build never gives (``../``, an
    absolute path, ``.git/``) show nothing either."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("cases: []\nSECRET-LINE\n", encoding="utf-8")
    (failing / "content" / "examples" / "leak.yaml").symlink_to(secret)
    (failing / ".git").mkdir()
    (failing / ".git" / "config").write_text("SECRET-LINE\n", encoding="utf-8")
    depth = len(failing.relative_to(tmp_path).parts)
    with _serving(failing) as (preview, _):
        shown = preview.rebuild()
        _, page, body = _get(preview, "/en/")
        assert any(line.startswith("content/examples/leak.yaml:1: a symbolic link leading "
                                   "outside the project") for line in shown.errors or ())
        lines = (f"content/{'../' * depth}secret.yaml:2:1: forged",
                 f"{secret}:2:1: forged", ".git/config:1: forged",
                 "content/examples/leak.yaml:2: forged")
        forged = Shown(shown.build, lines, 2, False, preview_page.with_excerpts(
            failing, serve_pages.report_entries(lines)))
        forged_page = serve_pages.error_page(forged, preview.session).decode("utf-8")
    assert "SECRET-LINE" not in body and "SECRET-LINE" not in forged_page
    leak = next(e for e in page.select("ol.errors > li") if "leak.yaml" in e.get_text())
    assert leak.select_one("p.missing").get_text() == (  # type: ignore[union-attr]
        "Its lines are not shown: the file is not one of the project's input files.")
    assert forged_page.count('<p class="missing">Its lines are not shown: the file is not '
                             "one of the project's input files.</p>") == 4


def test_a_file_not_text_too_large_or_with_a_long_line(
        failing: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A NUL byte: not shown. Over the excerpts' size limit: not read. A long line is
    cut around its column; a control character is shown as a visible mark."""
    examples = failing / "content" / "examples"
    (examples / "nul.yaml").write_bytes(b"cases:\n  - id: x\0\n")
    long_line = "    title: " + "x" * 3000 + "\x1b" + "y" * 3000
    replace_in(failing / FILE, "    title: Hostile", long_line)
    (examples / "large.yaml").write_text("cases: [\n" + "# filler\n" * 2500, encoding="utf-8")
    monkeypatch.setattr(preview_page, "MAX_EXCERPT_BYTES", 20_000)
    with _serving(failing) as (preview, _):
        shown = preview.rebuild()
        _, page, _ = _get(preview, "/en/")
    by_file = {e.position.file: e.excerpt for e in shown.entries if e.position is not None}
    assert by_file["content/examples/nul.yaml"] == preview_page.Excerpt((), "not text")
    assert by_file["content/examples/large.yaml"] == preview_page.Excerpt((), "too large")
    control = next(e for e in page.select("ol.errors > li")
                   if "unacceptable character #x001b" in e.get_text())
    assert control.select_one("pre.lines").get_text().startswith(  # type: ignore[union-attr]
        f"{FILE}:36:3012: ")
    marked = control.select_one(".row.at")
    assert marked is not None
    text = marked.get_text()
    # the number, two ellipses, the character escaped
    assert len(text) <= preview_page.MAX_LINE_CHARS + 2 + 2 + 3
    assert text.endswith("…") and "…" + "x" * 10 in text
    assert [m.get_text() for m in marked.select("mark")] == ["\\x1b"]
    pointer = control.select_one(".pointer")
    assert pointer is not None
    before = text[len(marked.select_one(".no").get_text()):].index("\\x1b")  # type: ignore[union-attr]
    assert pointer.get_text().endswith(" " * before + "^")
    notes = {p.get_text() for p in page.select("p.missing")}
    assert notes == {"Its lines are not shown: the file is not text.",
                     "Its lines are not shown: the file is too large."}


def test_an_excerpt_is_read_at_most_once_per_file_and_at_most_so_many(
        failing: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    real_read = preview_page._read_input

    def counting(layout: object, rel: str) -> bytes:
        read.append(rel)
        return real_read(layout, rel)  # type: ignore[arg-type]

    lines = [f"{FILE}:{n}:1: error {n}" for n in range(1, 40)]
    monkeypatch.setattr(preview_page, "_read_input", counting)
    entries = preview_page.with_excerpts(failing, serve_pages.report_entries(lines))
    assert [e.excerpt is not None for e in entries] == (
        [True] * preview_page.MAX_EXCERPTS + [False] * (39 - preview_page.MAX_EXCERPTS))
    assert read == [FILE]
    assert entries[0].excerpt is not None and entries[0].excerpt.rows[0] == (1, "defaults:")


def test_the_end_of_the_file(failing: Path) -> None:
    """The empty "line" after the file's last line break is shown only where the
    position is (YAML's end of the stream); a line past it is named, not shown."""
    layout = Layout.of(failing)
    last = len(CASES.splitlines())

    def numbers(line: int) -> list[int]:
        excerpt = preview_page.read_excerpt(layout, preview_page.Position(FILE, line, 1))
        return [n for n, _ in excerpt.rows]

    assert numbers(last) == list(range(last - 3, last + 1))
    assert numbers(last + 1) == list(range(last - 2, last + 2))
    assert preview_page.read_excerpt(layout, preview_page.Position(FILE, last + 2, 1)) == (
        preview_page.Excerpt((), preview_page.NO_LINE))


def test_a_file_swapped_or_named_oddly_while_its_excerpt_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The excerpt's checks and its reading are steps apart: the file's folder swapped
    for a link leading out of the project just before the file is opened shows nothing
    of the file outside; a link that changes while it is followed (the system says
    EINVAL), or a position whose file holds a NUL byte, is no input, never an exception
    that would stop the preview."""
    project = tmp_path / "project"
    (project / "content" / "examples").mkdir(parents=True)
    (project / "content" / "examples" / "a.yaml").write_text("cases: []\nINSIDE\n",
                                                             encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.yaml").write_text("cases: []\nSECRET-LINE\n", encoding="utf-8")
    layout = Layout.of(project)
    position = preview_page.Position("content/examples/a.yaml", 2, 1)
    assert preview_page.read_excerpt(layout, position).rows[1] == (2, "INSIDE")
    real_open = preview_page.os.open

    def swapping_open(path: str, flags: int, *args: int) -> int:
        folder = project / "content" / "examples"
        if folder.is_dir() and not folder.is_symlink():
            folder.rename(project / "content" / "kept")
            folder.symlink_to(outside)
        return real_open(path, flags, *args)

    monkeypatch.setattr(preview_page.os, "open", swapping_open)
    assert preview_page.read_excerpt(layout, position) == preview_page.Excerpt(
        (), preview_page.NOT_AN_INPUT)
    monkeypatch.undo()

    def changing(path: object) -> str:
        raise OSError(22, "Invalid argument")

    monkeypatch.setattr(preview_page.os.path, "realpath", changing)
    (project / "content" / "examples").unlink()
    (project / "content" / "kept").rename(project / "content" / "examples")
    assert preview_page.read_excerpt(layout, position).missing == preview_page.NOT_AN_INPUT
    monkeypatch.undo()
    nul = preview_page.Position("content/examples/a.yaml\0", 1, 1)
    assert preview_page.read_excerpt(layout, nul).missing == preview_page.NOT_AN_INPUT


def test_a_bidirectional_control_in_a_files_name_is_shown_escaped() -> None:
    """A file's name may hold a bidirectional control (U+202E shows what follows it
    backwards: ``evil\\u202egnp.yaml`` reads as ``evillmay.png``): in the error's lines
    and the page's title it is shown as ``\\u202e``, as in an excerpt."""
    line = "content/examples/evil\u202egnp.yaml:3:1: an error\u2066"
    entries = serve_pages.report_entries([line])
    page = preview_page.error_page(entries, locale="en", kept=False, exit_code=2)
    assert "\u202e" not in page and "\u2066" not in page
    soup = BeautifulSoup(page, "html.parser")
    assert soup.select_one("pre.lines").get_text() == (  # type: ignore[union-attr]
        "content/examples/evil\\u202egnp.yaml:3:1: an error\\u2066")
    assert soup.title is not None
    assert soup.title.get_text().endswith(" — content/examples/evil\\u202egnp.yaml")
