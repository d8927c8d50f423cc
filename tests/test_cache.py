"""The build cache (docs/site.md, "Incremental builds"): a cached build writes
the bytes a clean build writes after every kind of change, redoes only what changed,
and ignores a damaged or foreign cache with a note."""

from __future__ import annotations

import filecmp
import hashlib
import json
import os
import shutil
import signal
from collections import OrderedDict
from collections.abc import Callable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

import generator.cache
import generator.cache_files
import generator.cache_key
import generator.commands.build
import generator.commands.project
import generator.commands.stages
import generator.digests
import generator.engine.melds
import generator.memo
import generator.output
import generator.render.incremental
import generator.render.parallel
import generator.verify
from generator.cache import cache_folder
from generator.cache_files import APP
from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.content.pages import SourcePage
from generator.kinds.base import View
from generator.render.blocks import LocaleRenderer
from generator.render.markdown import LocalePage
from generator.render.markdown import PageRenderer
from generator.render.site import LocaleOutput
from generator.render.site_input import SiteInput
from tests.conftest import no_hang

PAGE_A = """---
order: 1
summary: The first page.
---

# Runs

A run is three or more cards of one suit in sequence.

```cases
queen-king-ace
three-kings
```
"""

PAGE_B = """---
order: 2
---

# Sets

A set is three or four cards of one rank.

```cases
three-queens
```
"""

CASES = """defaults:
  game: rami51
cases:
  - id: queen-king-ace
    kind: meld
    cards: QH KH AH
    title: Queen, king and ace
    expect:
      verdict: valid
      points: 31
  - id: three-kings
    kind: meld
    cards: KH KS KD
    title: Three kings
    expect:
      verdict: valid
      points: 30
"""

SETS = """cases:
  - id: three-queens
    kind: meld
    game: rami51
    cards: QH QS QD
    title: Three queens
    expect:
      verdict: valid
      points: 30
"""

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2);\\n"

msgid "Runs"
msgstr "Postupky"

msgid "Sets"
msgstr "Skupiny"

msgid "Three kings"
msgstr "Tři králové"
"""

PAGES = 6
"""Page slots of the small project: 2 pages and a home page in en and cs."""


@pytest.fixture(autouse=True)
def _nothing_made_for_another_project(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with the process memo of item stages empty: these tests count
    what a build makes and takes from its own cache, which the memo would otherwise answer
    with what another test's project made of equal inputs."""
    monkeypatch.setattr(generator.memo, "_MADE", OrderedDict())


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A small project: two pages in en and cs, three cases in two files."""
    root = tmp_path / "small"
    (root / "content" / "examples").mkdir(parents=True)
    (root / "content" / "runs.md").write_text(PAGE_A, encoding="utf-8")
    (root / "content" / "sets.md").write_text(PAGE_B, encoding="utf-8")
    (root / "content" / "examples" / "runs.yaml").write_text(CASES, encoding="utf-8")
    (root / "content" / "examples" / "sets.yaml").write_text(SETS, encoding="utf-8")
    po = root / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _same_tree(a: Path, b: Path) -> None:
    """``a`` and ``b`` hold the same files with the same bytes."""
    files_a = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    _match, mismatch, errors = filecmp.cmpfiles(a, b, files_a, shallow=False)
    assert (mismatch, errors) == ([], [])


def _clean(root: Path, tmp: Path) -> BuildReport:
    """A build without the cache into a folder of its own (what the cached one must match)."""
    report = build(root, tmp / "clean", cache=False)
    assert report.exit_code == 0, report.lines
    return report


def _page_change(root: Path) -> None:
    _edit(root / "content" / "runs.md", "in sequence.", "in sequence, like 5♥ 6♥ 7♥.")


def _case_change(root: Path) -> None:
    _edit(root / "content" / "examples" / "sets.yaml", "Three queens", "Three queens again")


def _line_added_above_the_cases(root: Path) -> None:
    """Moves every case of runs.yaml a line down: their positions change, nothing a page
    shows does (Case.digest leaves positions out)."""
    path = root / "content" / "examples" / "runs.yaml"
    path.write_text("# runs\n" + path.read_text(encoding="utf-8"), encoding="utf-8")


def _catalog_change(root: Path) -> None:
    _edit(root / "locales" / "cs" / "LC_MESSAGES" / "messages.po", '"Skupiny"', '"Trojice"')


def _catalog_entry_made_fuzzy(root: Path) -> None:
    """"Three kings" (a title in the runs table) shown in English again."""
    _edit(root / "locales" / "cs" / "LC_MESSAGES" / "messages.po", 'msgid "Three kings"',
          '#, fuzzy\nmsgid "Three kings"')


def _template_change(root: Path) -> None:
    theme = Path(generator.digests.PACKAGE) / "theme" / "base.html"
    mine = root / "templates" / "base.html"
    mine.parent.mkdir()
    mine.write_text(theme.read_text(encoding="utf-8").replace("</body>", "<!-- mine --></body>"),
                    encoding="utf-8")


def _config_change(root: Path) -> None:
    (root / "site.yaml").write_text("site_url: https://rules.example.org/\n", encoding="utf-8")


CHANGES: dict[str, tuple[Callable[[Path], None], int]] = {
    "a page": (_page_change, PAGES - 2),  # runs.md in en and cs
    "a case": (_case_change, PAGES - 2),  # sets.md in en and cs
    "a line above the cases": (_line_added_above_the_cases, PAGES),  # nothing shown changed
    "a catalog entry": (_catalog_change, PAGES // 2),  # every cs page and home
    "a catalog entry made fuzzy": (_catalog_entry_made_fuzzy, PAGES // 2),
    "a template": (_template_change, 0),
    "site.yaml": (_config_change, 0),
}
"""Each kind of change and how many page slots the next build takes from the cache."""


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_cached_build_writes_a_clean_builds_bytes_after(change: str, small: Path,
                                                          tmp_path: Path) -> None:
    first = build(small)
    assert (first.exit_code, first.cached) == (0, 0)
    edit, cached = CHANGES[change]
    edit(small)
    second = build(small)
    assert (second.exit_code, second.cached) == (0, cached)
    clean = _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")
    assert (second.lines, second.coverage, second.pages) == (
        clean.lines, clean.coverage, clean.pages)


def test_a_catalog_change_renders_again_only_what_shows_the_message(
        small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of the locale is laid out again (the navigation lists every title),
    but a page's body and a table of cases are rendered again only when a message they
    looked up was changed (:meth:`Translator.messages_digest`); none made for another
    project before."""
    assert build(small).exit_code == 0
    bodies: list[tuple[str, str]] = []
    tables: list[tuple[str, tuple[str, ...]]] = []
    render_body = PageRenderer.render
    render_table = LocaleRenderer._cases_table

    def body(self: PageRenderer, page: SourcePage) -> LocalePage:
        bodies.append((self.translator.locale, page.slug))
        return render_body(self, page)

    def table(self: LocaleRenderer, ids: Sequence[str], plain: list[View],
              caption: str) -> str:
        tables.append((self.translator.locale, tuple(ids)))
        return render_table(self, ids, plain, caption)

    monkeypatch.setattr(PageRenderer, "render", body)
    monkeypatch.setattr(LocaleRenderer, "_cases_table", table)
    _catalog_change(small)  # "Sets": the title of sets.md, its table's caption
    assert build(small).exit_code == 0
    assert (bodies, tables) == ([("cs", "sets")], [("cs", ("three-queens",))])
    bodies.clear()
    tables.clear()
    _catalog_entry_made_fuzzy(small)  # "Three kings": a row of the runs table
    assert build(small).exit_code == 0
    assert (bodies, tables) == ([("cs", "runs")], [("cs", ("queen-king-ace", "three-kings"))])
    bodies.clear()
    tables.clear()
    po = small / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    with po.open("a", encoding="utf-8") as f:  # a paragraph of runs.md: not its table
        f.write('\nmsgid "A run is three or more cards of one suit in sequence."\n'
                'msgstr "Postupka jsou tři nebo více karet jedné barvy za sebou."\n')
    assert build(small).exit_code == 0
    assert (bodies, tables) == ([("cs", "runs")], [])
    assert "Postupka jsou tři" in (small / "site" / "cs" / "runs" / "index.html").read_text(
        encoding="utf-8")


def test_the_tables_of_a_body_taken_from_the_cache_stay_in_it(
        small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that takes a page's body from the cache does not look its tables up, yet
    keeps them: the next catalog change that renders the body again finds its tables
    (pruned, every table would be rendered again)."""
    assert build(small).exit_code == 0
    _catalog_change(small)  # "Sets": runs.md's body and table are taken from the cache
    assert build(small).exit_code == 0
    tables: list[tuple[str, ...]] = []
    render_table = LocaleRenderer._cases_table

    def table(self: LocaleRenderer, ids: Sequence[str], plain: list[View],
              caption: str) -> str:
        tables.append(tuple(ids))
        return render_table(self, ids, plain, caption)

    monkeypatch.setattr(LocaleRenderer, "_cases_table", table)
    po = small / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
    with po.open("a", encoding="utf-8") as f:  # runs.md's paragraph: not its table
        f.write('\nmsgid "A run is three or more cards of one suit in sequence."\n'
                'msgstr "Postupka jsou tři nebo více karet jedné barvy za sebou."\n')
    assert build(small).exit_code == 0
    assert tables == []


def test_an_entry_gives_back_the_data_it_kept_whatever_its_text(tmp_path: Path) -> None:
    """An entry's data comes back equal, with newlines, quotes, backslashes and
    non-ASCII text in it, for a project whose path holds a newline and quotes (the
    entry's first line holds the path; its data's text follows it); a file in the
    former layout (the data quoted in one line of JSON) is a miss without a note."""
    project = '/projects/a "quoted"\nname'
    cache = generator.cache.BuildCache(tmp_path / "cache", project)
    data = {"text": 'line one\nline "two" \\ \u2019 žolík \u00a0 </script>',
            "list": [1, 2.5, None, True, "\n"], "nested": {"b": {}, "a": []}}
    cache.store("page/cs/x", "digest-1", data)
    assert cache.load("page/cs/x", "digest-1") == data
    assert cache.load("page/cs/x", "digest-2") is None  # other inputs: a miss
    path = cache._entry_path("page/cs/x")
    fields = generator.cache.entry_fields(path.read_bytes())
    assert fields["format"] == generator.cache.FORMAT
    assert fields["project"] == project
    assert json.loads(fields["data"]) == data
    former = {**fields, "format": generator.cache.FORMAT - 1}
    path.write_text(json.dumps(former, ensure_ascii=False), encoding="utf-8")
    assert cache.load("page/cs/x", "digest-1") is None
    assert cache.notes == []
    # A generator of the former layout looks its entries up under the slot's digest
    # alone: it never opens this layout's files, which it would call damaged.
    assert path.name != f"{generator.digests.digest('page/cs/x')[:32]}.json"


def test_a_part_of_a_blob_is_given_only_with_its_own_digest(tmp_path: Path) -> None:
    """``load_blob_part`` gives bytes of a kept blob checked by their own SHA-256 (a
    page's body), whatever the rest of the blob holds; other bytes, a missing blob or a
    part outside it give ``None``."""
    cache = generator.cache.BuildCache(tmp_path / "cache", "/project")
    page = b"<html><body><article>the body</article></body></html>"
    sha = cache.store_blob(page)
    at, length = page.index(b"<article>"), len(b"<article>the body</article>")
    part = hashlib.sha256(page[at:at + length]).hexdigest()
    assert cache.load_blob_part(sha, at, length, part) == page[at:at + length]
    assert cache.load_blob_part(sha, at + 1, length, part) is None
    assert cache.load_blob_part(sha, at, length + 100, part) is None
    assert cache.load_blob_part(sha, -1, length, part) is None
    assert cache.load_blob_part("0" * 64, at, length, part) is None
    blob = cache._blob_path(sha)
    blob.write_bytes(page.replace(b"<html>", b"<HTML>"))  # damaged outside the part
    assert cache.load_blob_part(sha, at, length, part) == page[at:at + length]
    assert cache.load_blob(sha) is None  # the whole is checked there
    blob.write_bytes(page.replace(b"the body", b"THE body"))
    assert cache.load_blob_part(sha, at, length, part) is None


def test_a_body_cut_elsewhere_than_kept_is_rendered_again(small: Path,
                                                          tmp_path: Path) -> None:
    """An entry edited with its checksum made again (so it reads as whole) whose body
    part points at other bytes of the page is not used: the body's own digest is
    checked."""
    assert build(small).exit_code == 0
    cache = generator.cache.BuildCache(cache_folder(small), small.resolve())
    path = cache._entry_path("page/cs/runs")
    entry = generator.cache.entry_fields(path.read_bytes())
    data = json.loads(entry.pop("data"))
    data["body"]["at"] += 1
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    entry["sum"] = generator.digests.digest(text)
    path.write_bytes(generator.cache.entry_file(entry, text))
    _catalog_change(small)  # the page is laid out again, its body looked up
    assert build(small).exit_code == 0
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_body_taken_from_the_cache_is_kept_as_a_fresh_render_keeps_it(
        small: Path) -> None:
    """A page laid out again around a body the cache gave (another page's title changed
    in the navigation) keeps that body's part of its entry as it was, with where the
    body sits in the new page (the title before it is longer): the entry is the one a
    build without the cache writes for the same inputs."""
    assert build(small).exit_code == 0
    cache = generator.cache.BuildCache(cache_folder(small), small.resolve())

    def entry() -> Any:
        raw = cache._entry_path("page/cs/runs").read_bytes()
        return json.loads(generator.cache.entry_fields(raw)["data"])

    before = entry()
    _edit(small / "locales" / "cs" / "LC_MESSAGES" / "messages.po", '"Skupiny"',
          '"Skupiny karet"')  # "Sets" in the navigation of runs.md, not in its body
    assert build(small).exit_code == 0
    reused = entry()
    assert reused["body"]["at"] == before["body"]["at"] + len(" karet")
    shutil.rmtree(cache_folder(small))
    assert build(small).exit_code == 0
    assert reused == entry()


def test_a_build_beside_another_leaves_the_cache_unpruned(small: Path) -> None:
    """Builds of one project that run at once (serve beside build, two output folders)
    share the cache: one that finds another running does not prune it, so that it never
    removes a copy the other has found and is about to use (which would fail that build
    with "No such file or directory"); the next build alone prunes."""
    assert build(small).exit_code == 0
    old = hashlib.sha256((small / "site" / "en" / "runs" / "index.html").read_bytes()
                         ).hexdigest()
    copy = cache_folder(small) / "blobs" / old[:2] / old
    assert copy.is_file()
    with generator.cache.BuildCache(cache_folder(small), small.resolve()):  # another build
        _page_change(small)
        assert build(small).exit_code == 0
        assert copy.is_file()  # not this build's, yet kept
    _edit(small / "content" / "runs.md", "like 5♥ 6♥ 7♥.", "like 6♥ 7♥ 8♥.")
    assert build(small).exit_code == 0
    assert not copy.exists()


def test_a_locale_whose_catalog_changed_is_rendered_first(
        small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its pages are the ones to render and its index the one to make: it goes first,
    while the others come from the cache (the site's order otherwise)."""
    assert build(small).exit_code == 0
    order: list[str] = []
    render = generator.render.parallel._render_and_write

    def recorded(lang: str) -> generator.render.parallel.LocaleDone:
        order.append(lang)
        return render(lang)

    monkeypatch.setattr(generator.render.parallel, "_render_and_write", recorded)
    _catalog_change(small)
    assert build(small).exit_code == 0
    assert order == ["cs", "en"]
    order.clear()
    _page_change(small)
    assert build(small).exit_code == 0
    assert order == ["en", "cs"]


@pytest.mark.parametrize("forked", [False, True], ids=["serial", "forked"])
def test_the_loaded_project_is_frozen_while_the_pages_render(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: bool) -> None:
    """The project's pages, cases and catalogs are out of the garbage collector's scans
    while the locales render (``gc.freeze``: they live to the build's end; in a 700-page
    build the scans took a third of decoding a changed locale's pages), in the forked
    render workers too, and back in after the build (``serve`` builds again in the
    process)."""
    import gc

    counts = tmp_path / "frozen"
    render = generator.render.parallel._render_and_write

    def counted(lang: str) -> generator.render.parallel.LocaleDone:
        with open(counts, "a", encoding="utf-8") as f:  # (from a worker too)
            f.write(f"{gc.get_freeze_count()}\n")
        return render(lang)

    monkeypatch.setattr(generator.render.parallel, "_render_and_write", counted)
    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1 if forked else 10**9)
    before = gc.get_freeze_count()
    assert build(small).exit_code == 0
    frozen = [int(n) for n in counts.read_text(encoding="utf-8").split()]
    assert len(frozen) == 2 and min(frozen) > before + 10_000  # (70,000-80,000 here)
    assert gc.get_freeze_count() == before


def test_a_cache_no_build_used_for_30_days_is_removed(small: Path) -> None:
    """A project moved or deleted leaves its cache folder behind (named by its old
    path's hash; 87 of them, 654 MB, on the machine this was written on). A build
    removes the folders no build used for 30 days, at most once a day; a folder in use
    (its lock held), one not named as the cache names them, and the build's own stay."""
    import fcntl
    import time

    parent = cache_folder(small).parent
    month = time.time() - 31 * 86_400

    def cache(name: str, used: float) -> Path:
        folder = parent / name
        (folder / "entries").mkdir(parents=True)
        (folder / "entries" / "x.json").write_text("{}", encoding="utf-8")
        (folder / "lock").touch()
        os.utime(folder / "lock", (used, used))
        return folder

    stale = cache("0123456789abcdef", month)
    held = cache("1123456789abcdef", month)
    recent = cache("2123456789abcdef", time.time() - 29 * 86_400)
    other = cache("not-a-cache", month)
    fd = os.open(held / "lock", os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_SH)  # a build of that project runs now
    try:
        assert build(small).exit_code == 0
    finally:
        os.close(fd)
    assert sorted(p.name for p in parent.iterdir() if not p.name.startswith(".")) == sorted(
        [cache_folder(small).name, held.name, recent.name, other.name])
    assert not stale.exists()
    again = cache("3123456789abcdef", month)
    _page_change(small)
    assert build(small).exit_code == 0
    assert again.exists()  # swept today already
    swept = parent / generator.cache_files.SWEPT
    os.utime(swept, (time.time() - 86_401, time.time() - 86_401))
    _case_change(small)
    assert build(small).exit_code == 0
    assert not again.exists() and not held.exists() and recent.exists()
    assert (cache_folder(small) / "entries").is_dir()


def test_a_project_whose_path_is_not_utf8_keeps_its_cache(small: Path) -> None:
    """A project folder whose name is not UTF-8 (a byte 0xFF: Linux takes any byte but
    ``/`` and NUL) builds with its cache, and the next build takes every page from it;
    the cache's folder name, an entry's project and its seal took the path as UTF-8
    text and failed ("the generator failed")."""
    odd = small.parent / os.fsdecode(b"odd\xffname")
    try:
        small.rename(odd)
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    first = build(odd)
    again = build(odd)
    assert (first.exit_code, again.exit_code) == (0, 0)
    assert (again.cached, _notes(again)) == (first.pages, [])


def test_nothing_changed_writes_nothing(small: Path) -> None:
    """A build with nothing changed finds its site in place and leaves it untouched."""
    first = build(small)
    assert first.exit_code == 0
    page = small / "site" / "cs" / "runs" / "index.html"
    before = os.stat(page)
    again = build(small)
    after = os.stat(page)
    assert (again.exit_code, again.cached, again.pages) == (0, first.pages, first.pages)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_a_site_edited_by_hand_is_built_again(small: Path, tmp_path: Path) -> None:
    """A site file edited in place changes neither another output folder built from the
    same cache nor the cache (the site's files are copies, never hard links): the next
    build writes the clean build's bytes again, from the cache, with no note."""
    assert build(small).exit_code == 0
    assert build(small, tmp_path / "other").exit_code == 0
    page = small / "site" / "en" / "runs" / "index.html"
    with page.open("ab") as f:
        f.write(b"<!-- edited -->")
    _clean(small, tmp_path)
    _same_tree(tmp_path / "other", tmp_path / "clean")
    again = build(small)
    assert again.exit_code == 0
    assert [line for line in again.lines if line.startswith("note: ")] == []
    _same_tree(small / "site", tmp_path / "clean")


def test_a_damaged_cache_file_is_noted_once_and_kept_again(small: Path,
                                                           tmp_path: Path) -> None:
    assert build(small).exit_code == 0
    page = (small / "site" / "en" / "runs" / "index.html").read_bytes()
    [blob] = [p for p in (cache_folder(small) / "blobs").rglob("*/*")
              if p.read_bytes() == page]  # a page the next build takes from the cache
    blob.write_bytes(page[:10])
    _case_change(small)
    first = build(small)
    assert [line for line in first.lines if line.startswith("note: ")] == [
        f"note: {blob}: a damaged cache file; ignored, its part rebuilt"]
    _case_change_back = (small / "content" / "examples" / "sets.yaml")
    _edit(_case_change_back, "Three queens again", "Three queens")
    second = build(small)
    assert [line for line in second.lines if line.startswith("note: ")] == []
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def _entries(root: Path) -> list[Path]:
    return sorted((cache_folder(root) / "entries").iterdir())


@pytest.mark.parametrize("damage", ["truncated", "edited", "not JSON"])
def test_a_damaged_entry_is_ignored_with_one_note(damage: str, small: Path,
                                                  tmp_path: Path) -> None:
    assert build(small).exit_code == 0
    _page_change(small)  # so that the next build reads the page entries, not the last build
    for entry in _entries(small):
        data = entry.read_bytes()
        if damage == "truncated":
            entry.write_bytes(data[: len(data) // 2])
        elif damage == "edited":  # its data changed, the checksum left as it was
            kept = generator.cache.entry_fields(data)
            text = kept.pop("data").replace("a", "b", 1)
            entry.write_bytes(generator.cache.entry_file(kept, text))
        else:
            entry.write_bytes(b"\x00\xff not json")
    report = build(small)
    assert report.exit_code == 0
    notes = [line for line in report.lines if line.startswith("note: ")]
    assert notes and all(n.endswith("a damaged cache entry; ignored, its part rebuilt")
                         for n in notes)
    assert len(notes) == len(set(notes))  # one line each
    assert report.cached == 0
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_an_entry_remembered_in_the_process_and_then_damaged_is_noted(
        small: Path, tmp_path: Path) -> None:
    """An entry read earlier in the same process (``serve``: BuildCache.load's
    ``shared``) is read again once its file changed: the damage is noted, not hidden
    behind what the process remembered."""
    assert build(small).exit_code == 0
    _page_change(small)
    assert build(small).cached == 4  # sets.md and the home pages read from their entries
    for entry in _entries(small):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2])
    _edit(small / "content" / "runs.md", "like 5♥ 6♥ 7♥.", "like 6♥ 7♥ 8♥.")
    report = build(small)
    notes = [line for line in report.lines if line.startswith("note: ")]
    assert (report.exit_code, report.cached) == (0, 0)
    assert any(n.endswith("a damaged cache entry; ignored, its part rebuilt") for n in notes)
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_block_is_parsed_once_per_process(small: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A page changed in one paragraph parses that paragraph alone, once for both
    locales (Czech shows it in English): its other blocks' HTML is remembered
    (generator.render.markdown._INLINE)."""
    assert build(small).exit_code == 0
    parsed: list[str] = []
    parse = MarkdownIt.parseInline

    def counted(self: MarkdownIt, src: str, env: Any = None) -> Any:
        parsed.append(src)
        return parse(self, src, env)

    monkeypatch.setattr(MarkdownIt, "parseInline", counted)
    _edit(small / "content" / "runs.md", "in sequence.", "in sequence, as 9♣ 10♣ J♣ are.")
    assert build(small).exit_code == 0
    assert parsed == ["A run is three or more cards of one suit in sequence, as 9♣ 10♣ J♣ are."]


def test_an_entry_replaced_by_a_folder_is_replaced_again(small: Path,
                                                          tmp_path: Path) -> None:
    """Every entry turned into a folder: the folder is removed and the entry written in
    its place, so the next build says nothing (rather than every later build saying the
    cache cannot be written and going on without it, never pruning)."""
    assert build(small).exit_code == 0
    _page_change(small)
    for entry in _entries(small):
        entry.unlink()
        (entry / "inside").mkdir(parents=True)
    first = build(small)
    assert first.exit_code == 0
    assert not [line for line in first.lines if "cannot write the cache" in line]
    assert all(entry.is_file() for entry in _entries(small))
    _edit(small / "content" / "runs.md", "like 5♥ 6♥ 7♥.", "like 8♥ 9♥ 10♥.")
    second = build(small)
    assert [line for line in second.lines if line.startswith("note: ")] == []
    assert second.cached > 0
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_foreign_cache_is_ignored(small: Path, tmp_path: Path) -> None:
    """Another project's cache (here: the same files elsewhere) put in this project's
    place is never used: no page comes from it, the output is the clean build's."""
    other = tmp_path / "other"
    shutil.copytree(small, other)
    _case_change(other)
    assert build(other).exit_code == 0
    shutil.copytree(cache_folder(other), cache_folder(small))
    report = build(small)
    assert (report.exit_code, report.cached) == (0, 0)
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_an_engine_change_is_verified_again(small: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is keyed by the generator's source hash: the engine changed (a king in a
    run now counts 11, and the hash with it, as a new version would) re-verifies every
    case, and the documented 31 points of Q♥ K♥ A♥ disagree."""
    assert build(small).exit_code == 0
    points = generator.engine.melds.rank_points
    monkeypatch.setattr(generator.engine.melds, "rank_points",
                        lambda rank, place: points(rank, place) + (place == 13))
    unchanged = build(small)  # the same source hash: the cache's outcome stands
    assert (unchanged.exit_code, unchanged.cached) == (0, unchanged.pages)
    monkeypatch.setattr(generator.cache, "generator_hash", lambda: "a new version")
    monkeypatch.setattr(generator.commands.build, "generator_hash", lambda: "a new version")
    monkeypatch.setattr(generator.render.incremental, "generator_hash",
                        lambda: "a new version")
    # (a new version runs in a new process: no case verified in it yet)
    monkeypatch.setattr(generator.verify, "_RESULTS", OrderedDict())
    report = build(small)
    assert report.exit_code == 1
    assert [line for line in report.lines if line.startswith("content/")] == [
        "content/examples/runs.yaml:10: case queen-king-ace: points documented 31, engine 32"]


def test_a_library_installed_again_builds_everything_again(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    """The cache is keyed by which of the generator's libraries is installed too (a new
    Jinja or markdown-it may write other bytes): a library installed again in another
    version (its ``__init__.py`` written anew) makes every page again, and the site is a
    clean build's. Before, only the generator's own files keyed it."""
    request.addfinalizer(generator.digests.clear_generator_hash)
    library = tmp_path / "libs" / "zebralib"
    library.mkdir(parents=True)
    (library / "__init__.py").write_text("VERSION = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "libs"))
    monkeypatch.setattr(generator.digests, "LIBRARIES",
                        (*generator.digests.LIBRARIES, "zebralib"))
    generator.digests.clear_generator_hash()
    assert build(small).exit_code == 0
    generator.digests.clear_generator_hash()
    unchanged = build(small)
    assert (unchanged.exit_code, unchanged.cached) == (0, unchanged.pages)
    (library / "__init__.py").write_text("VERSION = 22\n", encoding="utf-8")
    generator.digests.clear_generator_hash()
    report = build(small)
    assert (report.exit_code, report.cached) == (0, 0)
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_no_cache_reads_and_writes_none(small: Path) -> None:
    assert build(small, cache=False).exit_code == 0
    assert not cache_folder(small).exists()
    assert build(small).exit_code == 0
    kept = {p: p.stat().st_mtime_ns for p in cache_folder(small).rglob("*")}
    _case_change(small)
    report = build(small, cache=False)
    assert (report.exit_code, report.cached) == (0, 0)
    assert {p: p.stat().st_mtime_ns for p in cache_folder(small).rglob("*")} == kept


def test_the_cache_folder_is_the_users(small: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``$XDG_CACHE_HOME/rules-site/<16 hex digits>`` (a relative XDG_CACHE_HOME is
    ignored, as the XDG specification says), never inside the project."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = cache_folder(small)
    assert folder.parent == tmp_path / "xdg" / APP
    assert len(folder.name) == 16 and int(folder.name, 16) >= 0
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_folder(small).parent == tmp_path / "home" / ".cache" / APP
    assert build(small).exit_code == 0
    assert sorted(p.name for p in small.iterdir() if not p.name.startswith(".")) == [
        "content", "locales", "site"]


def test_a_cache_that_cannot_be_written_only_slows(small: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    report = build(small)
    assert report.exit_code == 0
    notes = [line for line in report.lines if line.startswith("note: ")]
    assert len(notes) == 1 and "cannot write the cache" in notes[0]
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_the_parallel_path_writes_the_serial_bytes(small: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Rendering over forked workers (PARALLEL_FROM lowered so that the small site takes
    that path) gives the serial build's bytes, and the workers' cache entries survive
    for the next build."""
    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1)
    assert build(small).exit_code == 0
    _catalog_change(small)
    report = build(small)
    assert (report.exit_code, report.cached) == (0, PAGES // 2)
    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 10**9)
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def _children() -> list[int]:
    """The processes whose parent is this one, still there (zombies counted)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="utf-8").rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_render_worker_killed_ends_the_build_at_once(
        small: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A render worker killed by a signal (here it sends itself SIGTERM on the Czech
    locale, as a supervisor's SIGTERM to the process group does) ends the build at once
    with WorkerDied: no worker left behind, the previous site in place. Over
    multiprocessing.Pool the build waited forever, for the lost locale, and in the pool's
    clean-up for a lock that a worker killed while it waited for a task held."""
    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert build(small).exit_code == 0
    site = {p.relative_to(small).as_posix(): p.read_bytes()
            for p in (small / "site").rglob("*") if p.is_file()}
    real = generator.render.parallel.render_locale

    def dying(site: SiteInput, lang: str, **given: Any) -> LocaleOutput:
        if lang == "cs":
            os.kill(os.getpid(), signal.SIGTERM)
        return real(site, lang, **given)

    monkeypatch.setattr(generator.render.parallel, "render_locale", dying)
    _page_change(small)
    with no_hang(30), pytest.raises(generator.render.parallel.WorkerDied,
                                    match="killed by signal 15"):
        build(small)
    assert _children() == []
    assert {p.relative_to(small).as_posix(): p.read_bytes()
            for p in (small / "site").rglob("*") if p.is_file()} == site


def test_a_replaced_sites_folders_are_kept_for_the_next_build_never_its_files(
        small: Path, tmp_path: Path) -> None:
    """The folders of a replaced site, emptied, are the next build's fresh folder (making
    and removing hundreds of folders is most of the writing on some file systems); a file
    put into them is never published, and a folder the new site does not use is gone."""
    assert build(small).exit_code == 0
    _page_change(small)
    assert build(small).exit_code == 0
    spare = cache_folder(small) / "spare-site"
    kept = {p.relative_to(spare).as_posix() for p in spare.rglob("*")}
    assert {"cs", "cs/runs", "cs/sets", "en/runs", "en/sets"} <= kept
    assert not [p for p in spare.rglob("*") if not p.is_dir()]
    (spare / "cs" / "gone").mkdir()
    (spare / "planted.html").write_text("<p>not ours</p>", encoding="utf-8")
    _case_change(small)
    assert build(small).exit_code == 0
    assert not (small / "site" / "planted.html").exists()
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")
    (spare / "planted.html").unlink()
    _catalog_change(small)
    assert build(small).exit_code == 0
    assert not (small / "site" / "cs" / "gone").exists()
    build(small, tmp_path / "clean2", cache=False)
    _same_tree(small / "site", tmp_path / "clean2")


def _snapshot(root: Path) -> dict[Path, bytes]:
    """Every file of the project but its site."""
    return {p: p.read_bytes() for p in root.rglob("*")
            if p.is_file() and "site" not in p.relative_to(root).parts}


def _restore(root: Path, files: dict[Path, bytes]) -> None:
    """The project as :func:`_snapshot` took it (files added since removed)."""
    for path in _snapshot(root):
        if path not in files:
            path.unlink()
    for path, data in files.items():
        path.write_bytes(data)


def _case_file_broken(root: Path) -> None:
    _edit(root / "content" / "examples" / "sets.yaml", "title: Three queens",
          "title: [Three queens")


RACES = {**{name: edit for name, (edit, _) in CHANGES.items()
            if name != "a line above the cases"},
         "a case file broken": _case_file_broken}
"""The saves that may land while a build runs (after it took the inputs' digests)."""


@pytest.mark.parametrize("change", list(RACES))
def test_a_file_saved_while_the_build_runs_is_not_kept_under_the_old_bytes(
        change: str, small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build takes the inputs' digests, then reads the files: a save in between
    was built from the new bytes and kept under the old ones' digests, so that the old
    bytes, saved again, showed the new ones (a fixed typo still failing, from the whole
    build kept; a page from its entry). Now such a build says so in a note and keeps
    nothing it made; the next build of the old bytes is a clean build's."""
    assert build(small).exit_code == 0
    _line_added_above_the_cases(small)  # other inputs: no build kept whole for these
    before = _snapshot(small)
    real = generator.commands.stages.load_project

    def saved_meanwhile(*args: Any, **kwargs: Any) -> Any:
        RACES[change](small)
        return real(*args, **kwargs)

    monkeypatch.setattr(generator.commands.stages, "load_project", saved_meanwhile)
    raced = build(small)
    monkeypatch.setattr(generator.commands.stages, "load_project", real)
    assert any("changed while the build ran" in line for line in raced.lines), raced.lines
    _restore(small, before)
    again = build(small)
    assert again.exit_code == 0, again.lines
    assert not any("changed while the build ran" in line for line in again.lines)
    clean = _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")
    assert (again.lines, again.coverage) == (clean.lines, clean.coverage)


def test_a_template_a_render_worker_reads_again_counts_as_read(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A template saved after the parent compiled it, just before the render workers
    fork, is read again by the workers (Jinja sees its file changed): their reads reach
    the parent's check, so that build keeps nothing either."""
    monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1)
    assert build(small).exit_code == 0
    _page_change(small)  # a page to render again, with the template
    before = _snapshot(small)
    real = SiteInput.prepare

    def saved_meanwhile(site: SiteInput) -> None:
        real(site)  # the templates compiled in the parent, before the workers fork
        _template_change(small)

    monkeypatch.setattr(SiteInput, "prepare", saved_meanwhile)
    raced = build(small)
    monkeypatch.setattr(SiteInput, "prepare", real)
    assert any("templates/base.html changed while the build ran" in line
               for line in raced.lines), raced.lines
    _restore(small, before)
    again = build(small)
    assert again.exit_code == 0, again.lines
    clean = _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")
    assert (again.lines, again.coverage) == (clean.lines, clean.coverage)


def _cache_emptied_at_first_link(root: Path, monkeypatch: pytest.MonkeyPatch,
                                 after: bool = False) -> list[int]:
    """The build cache's folder removed as the first files are copied from it into the
    site (after the build checked them, as when a user empties ``~/.cache`` while a
    build runs), or with ``after`` just after they were copied; returns the numbers of
    files each copy was given."""
    seen: list[int] = []
    link = generator.output.SiteWriter.link

    def emptying_link(self: generator.output.SiteWriter,
                      files: dict[str, tuple[Path, str]]) -> None:
        first = bool(files) and not any(seen)
        seen.append(len(files))
        if first and after:
            link(self, files)
        if first:  # (another worker may be writing entries there: no error raised)
            shutil.rmtree(cache_folder(root), ignore_errors=True)
        if not (first and after):
            link(self, files)

    monkeypatch.setattr(generator.output.SiteWriter, "link", emptying_link)
    return seen


@pytest.mark.parametrize("forked", [False, True], ids=["serial", "forked"])
def test_a_cache_emptied_while_the_build_copies_from_it_only_slows(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: bool) -> None:
    """The pages the build took from the cache are gone when it copies them: the build
    is made again without the cache, with one note, and writes a clean build's bytes
    (it failed with exit 2 and "cannot write the site", blaming the site). On the forked
    path the copy fails in a render worker."""
    assert build(small).exit_code == 0
    _catalog_change(small)
    if forked:
        monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1)
    seen = _cache_emptied_at_first_link(small, monkeypatch)
    report = build(small)
    assert forked or any(seen), "no file was taken from the cache"
    assert report.exit_code == 0, report.lines
    notes = [line for line in report.lines if line.startswith("note: ")]
    again = [line for line in notes if "built again without it" in line]
    assert len(again) == 1 and str(cache_folder(small)) in again[0], notes
    # A render worker that was writing an entry as the folder went may say so too (a
    # full run of the suite saw a second note once, on the forked path).
    assert all("cannot write the cache" in line for line in notes if line not in again), notes
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


@pytest.mark.parametrize("forked", [False, True], ids=["serial", "forked"])
def test_a_cache_emptied_once_its_pages_are_copied_is_not_read_again(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forked: bool) -> None:
    """The cache emptied just after the pages taken from it were copied into the new
    site: their search views are made from the copies in the site, not read from the
    cache again (which would fail the build with "the generator failed:
    FileNotFoundError" when the cache is removed while a large build runs)."""
    assert build(small).exit_code == 0
    _page_change(small)  # the index must be made again: the views are read
    if forked:
        monkeypatch.setattr(generator.render.parallel, "PARALLEL_FROM", 1)
    _cache_emptied_at_first_link(small, monkeypatch, after=True)
    report = build(small)
    assert report.exit_code == 0, report.lines
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_cache_emptied_while_a_kept_build_is_copied_only_slows(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same when the whole build is taken from the cache (its inputs unchanged, the
    site removed): it is built again."""
    assert build(small).exit_code == 0
    shutil.rmtree(small / "site")
    seen = _cache_emptied_at_first_link(small, monkeypatch)
    report = build(small)
    assert seen and seen[0] > 0, "the build was not taken from the cache"
    assert report.exit_code == 0, report.lines
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_kept_copy_swapped_for_a_link_after_its_check_is_never_published(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build taken whole from the cache checks its copies, then opens the output
    (which may wait for another build's lock): a copy replaced meanwhile by a link to a
    private file is refused as it is copied, and the site is built again with the bytes
    a clean build writes; the private file reaches no file of the site."""
    assert build(small).exit_code == 0
    page = small / "site" / "index.html"
    sha = hashlib.sha256(page.read_bytes()).hexdigest()
    blob = cache_folder(small) / "blobs" / sha[:2] / sha
    assert blob.is_file()
    shutil.rmtree(small / "site")
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET key material", encoding="utf-8")
    real = generator.commands.build.open_writer
    swapped: list[Path] = []

    def swapping(*args: Any, **kwargs: Any) -> Any:
        if not swapped:  # the copies are checked: the blob becomes a link
            blob.unlink()
            blob.symlink_to(secret)
            swapped.append(blob)
        return real(*args, **kwargs)

    monkeypatch.setattr(generator.commands.build, "open_writer", swapping)
    report = build(small)
    assert swapped and report.exit_code == 0, report.lines
    assert not any(b"TOP-SECRET" in p.read_bytes()
                   for p in (small / "site").rglob("*") if p.is_file())
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


def test_a_cache_that_fails_while_keeping_the_site_files_goes_on_without_it(
        tmp_path: Path) -> None:
    """Keeping the new site's files (``adopt``) when the cache's blobs cannot be written
    (the cache made read-only as the build runs): one note, the cache off, no error
    (not "the generator failed: AssertionError" at the next file)."""
    site = tmp_path / "site"
    site.mkdir()
    files = {}
    for name in ("a.html", "b.html"):
        data = name.encode()
        (site / name).write_bytes(data)
        files[name] = hashlib.sha256(data).hexdigest()
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / "blobs").write_text("not a folder", encoding="utf-8")
    cache = generator.cache.BuildCache(folder, tmp_path)
    cache.adopt(files, site)
    assert cache.folder is None
    assert len(cache.notes) == 1 and "cannot write the cache" in cache.notes[0]


# -- the cache folder is not trusted (docs/site.md, "Incremental builds") --------------

def _key_file() -> Path:
    return Path(os.environ["XDG_CONFIG_HOME"]) / APP / generator.cache_key.KEY_FILE


def _notes(report: BuildReport) -> list[str]:
    return [line for line in report.lines if line.startswith("note: ")]


SCRIPT = b"<script>alert(1)</script>"


def _planted_page(root: Path) -> tuple[str, dict[str, Any]]:
    """The kept whole build with one page's digest replaced by that of the page with a
    script added, whose bytes are put in the cache as a blob of its own: (the entry's
    file, the entry with its data changed and its checksums left as they were)."""
    folder = cache_folder(root)
    path = folder / "entries" / generator.cache.entry_name("build")
    entry = generator.cache.entry_fields(path.read_bytes())
    data = json.loads(entry["data"])
    page = (root / "site" / "en" / "runs" / "index.html").read_bytes()
    evil = page.replace(b"</body>", SCRIPT + b"</body>")
    sha = hashlib.sha256(evil).hexdigest()
    (folder / "blobs" / sha[:2]).mkdir(exist_ok=True)
    (folder / "blobs" / sha[:2] / sha).write_bytes(evil)
    data["files"]["en/runs/index.html"] = sha
    entry["data"] = json.dumps(data, ensure_ascii=False, sort_keys=True,
                               separators=(",", ":"))
    return str(path), entry


def test_a_forged_entry_is_never_used_and_one_signed_with_the_key_is(small: Path,
                                                                     tmp_path: Path) -> None:
    """An entry edited with its checksum computed again (SHA-256 of its data, all a
    cache folder tells) is damaged: one note, the clean build's bytes. The HMAC under
    the user's key (kept outside the cache folder) is what makes an entry used: the
    same entry stored with the key is taken as it is."""
    assert build(small).exit_code == 0
    path, entry = _planted_page(small)
    for field in ("sum", "mac"):  # whichever checksum the entry has, computed again
        if field in entry:
            entry[field] = generator.digests.digest(entry["data"])
    text = entry.pop("data")
    Path(path).write_bytes(generator.cache.entry_file(entry, text))
    report = build(small)
    page = small / "site" / "en" / "runs" / "index.html"
    assert report.exit_code == 0
    assert SCRIPT not in page.read_bytes()
    assert _notes(report) == [f"note: {path}: a damaged cache entry; ignored, its part rebuilt"]
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")
    _path, entry = _planted_page(small)
    with generator.cache.BuildCache(cache_folder(small), small.resolve()) as store:
        store.store("build", entry["inputs"], json.loads(entry["data"]))
    again = build(small)
    assert (again.exit_code, _notes(again)) == (0, [])
    assert SCRIPT in page.read_bytes()  # the key, not the cache folder, says what is used


def test_a_build_without_the_key_has_a_cold_cache_and_makes_the_key(small: Path) -> None:
    """A cache restored without the key that signed it (a CI that restores the cache
    folder alone) is a cold cache, without a note, never a trusted one; the key is made
    (mode 0600, 64 hex digits) and the next build uses what this one kept."""
    assert build(small).exit_code == 0
    key = _key_file()
    first = key.read_text(encoding="ascii")
    key.unlink()
    _page_change(small)
    cold = build(small)
    assert (cold.exit_code, cold.cached, _notes(cold)) == (0, 0, [])
    info = os.lstat(key)
    assert (oct(info.st_mode & 0o7777), info.st_nlink) == (oct(0o600), 1)
    assert len(key.read_text(encoding="ascii").strip()) == 64
    assert key.read_text(encoding="ascii") != first
    assert [p.name for p in key.parent.iterdir()] == [key.name]  # no temporary file left
    _case_change(small)
    warm = build(small)
    assert (warm.exit_code, warm.cached, _notes(warm)) == (0, PAGES - 2, [])


def _key_planted(how: str, victim: Path) -> None:
    key = _key_file()
    key.parent.mkdir(parents=True, exist_ok=True)
    if how == "a link":
        victim.write_text("f" * 64 + "\n", encoding="ascii")
        key.symlink_to(victim)
    elif how == "readable by others":
        key.write_text("f" * 64 + "\n", encoding="ascii")
        key.chmod(0o644)
    elif how == "another user's":
        key.write_text("f" * 64 + "\n", encoding="ascii")
        key.chmod(0o600)
        os.chown(key, 54321, 54321)
    elif how == "a folder":
        key.mkdir()
    elif how == "its folder a link":
        key.parent.rmdir()
        victim.mkdir()
        key.parent.symlink_to(victim)
    else:
        key.write_text("not a key\n", encoding="ascii")
        key.chmod(0o600)


KEY_PLANTS = ["a link", "readable by others", "another user's", "a folder",
              "its folder a link", "not a key"]


@pytest.mark.parametrize("how", KEY_PLANTS)
def test_a_key_that_is_not_the_users_own_turns_the_cache_off(how: str, small: Path,
                                                             tmp_path: Path) -> None:
    """A key file that is a link, another user's, readable by others, not a regular file
    or not a key is refused: the build goes on without the cache (nothing read or
    written there), with one note; nothing is made through the link."""
    if how == "another user's" and os.geteuid() != 0:
        pytest.skip("needs root to give a file to another user")
    victim = tmp_path / "victim"
    _key_planted(how, victim)
    report = build(small)
    assert report.exit_code == 0
    [note] = _notes(report)
    assert "this build goes on without the build cache" in note
    assert str(_key_file().parent) in note
    assert not cache_folder(small).exists()
    if how == "its folder a link":
        assert list(victim.iterdir()) == []
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


@pytest.mark.parametrize("target", ["missing", "existing"])
def test_the_cache_lock_is_never_opened_through_a_link(target: str, small: Path,
                                                       tmp_path: Path) -> None:
    """A link planted as the cache's ``lock`` (and as the sweep's ``.swept`` and a stale
    project cache's ``lock``) is removed, never followed: its target is neither
    created nor touched, and the cache goes on working."""
    assert build(small).exit_code == 0
    victim = tmp_path / "victim.txt"
    if target == "existing":
        victim.write_text("mine", encoding="utf-8")
        os.utime(victim, (1_000_000, 1_000_000))
    folder = cache_folder(small)
    (folder / "lock").unlink()
    (folder / "lock").symlink_to(victim)
    parent = folder.parent
    (parent / generator.cache_files.SWEPT).unlink()
    (parent / generator.cache_files.SWEPT).symlink_to(victim)
    stale = parent / "0123456789abcdef"
    stale.mkdir()
    (stale / "lock").symlink_to(victim)
    os.utime(stale, (1_000_000, 1_000_000))
    _page_change(small)
    report = build(small)
    assert (report.exit_code, report.cached) == (0, PAGES - 2)
    if target == "existing":
        assert victim.read_text("utf-8") == "mine"
        assert os.stat(victim).st_mtime == 1_000_000
    else:
        assert not victim.exists()
    assert not (folder / "lock").is_symlink() and (folder / "lock").is_file()


@pytest.mark.parametrize("where", ["entries", "blobs", "a blob folder"])
def test_a_link_in_the_cache_folder_is_never_followed_by_the_pruning(
        where: str, small: Path, tmp_path: Path) -> None:
    """A link planted as a folder of the cache: the build neither writes through it nor
    prunes the folder it leads to (the pruning removed every file there that it did not
    know)."""
    assert build(small).exit_code == 0
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text("mine", encoding="utf-8")
    folder = cache_folder(small)
    planted = {"entries": folder / "entries", "blobs": folder / "blobs",
               "a blob folder": next((folder / "blobs").iterdir())}[where]
    shutil.rmtree(planted)
    planted.symlink_to(victim, target_is_directory=True)
    _page_change(small)
    assert build(small).exit_code == 0
    _case_change(small)
    assert build(small).exit_code == 0
    assert [p.name for p in victim.iterdir()] == ["notes.txt"]
    assert (victim / "notes.txt").read_text("utf-8") == "mine"
    assert planted.is_dir() and not planted.is_symlink()
    _clean(small, tmp_path)
    _same_tree(small / "site", tmp_path / "clean")


@pytest.mark.parametrize("how", ["modes", "another user's"])
def test_spare_folders_reach_the_site_with_the_umasks_modes(how: str, small: Path) -> None:
    """The folders kept in the cache (``spare-site/``) and used as the next build's
    fresh folder get the mode a new folder gets from the umask (0755 under 022), not
    the one the cache folder gave them (0777, 1777); a spare holding another user's
    folder is not used."""
    if how == "another user's" and os.geteuid() != 0:
        pytest.skip("needs root to give a folder to another user")
    old = os.umask(0o022)
    try:
        assert build(small).exit_code == 0
        _page_change(small)
        assert build(small).exit_code == 0
        spare = cache_folder(small) / "spare-site"
        folders = [spare, *(p for p in spare.rglob("*") if p.is_dir())]
        assert len(folders) > 5
        for path in folders:
            path.chmod(0o777)
        (spare / "en").chmod(0o1777)
        if how == "another user's":
            os.chown(spare / "cs", 54321, 54321)
        _case_change(small)
        assert build(small).exit_code == 0
    finally:
        os.umask(old)
    site = small / "site"
    modes = {p.relative_to(site).as_posix(): oct(p.stat().st_mode & 0o7777)
             for p in [site, *site.rglob("*")] if p.is_dir()}
    assert set(modes.values()) == {oct(0o755)}, modes
    assert {p.stat().st_uid for p in [site, *site.rglob("*")]} == {os.geteuid()}


@pytest.mark.parametrize(("pages", "cases", "expected"), [
    (3, 130, 1),  # this repository's site: 21 pages and 910 rows in seven locales
    (12, 568, 2),  # 84 pages, but 3,976 rows: worth two workers
    (100, 0, 2),  # 700 pages
    (14, 285, 1),  # 98 pages and 1,995 rows: below both
])
def test_rendering_is_spread_over_workers_by_pages_or_rows(
        monkeypatch: pytest.MonkeyPatch, pages: int, cases: int, expected: int) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert generator.render.parallel.worker_count(pages, cases, 7) == expected
    assert generator.render.parallel.worker_count(pages, cases, 1) == 1  # one locale


def test_each_locale_renders_in_a_worker_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker ends with its locale (giving back the memory it made), and the next
    locale is rendered in a new one: at most two at a time, the locales in the order
    they finish, no worker left."""
    from generator.render.parallel import LocaleDone

    def pid_of(lang: str) -> LocaleDone:
        return LocaleDone(lang, None, 0, str(os.getpid()))

    monkeypatch.setattr(generator.render.parallel, "_render_and_write", pid_of)
    done = list(generator.render.parallel._forked(["en", "cs", "de", "pl"], 2))
    assert sorted(d.lang for d in done) == ["cs", "de", "en", "pl"]
    pids = [int(str(d.error)) for d in done]
    assert len(set(pids)) == 4 and os.getpid() not in pids
    for pid in pids:
        with pytest.raises(ChildProcessError):  # waited for: no such child any more
            os.waitpid(pid, os.WNOHANG)


def test_a_locale_keeps_only_its_most_recent_rows_and_renders_the_same(
        init_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A locale keeps at most ``ROWS_KEPT`` case views and rows for the tables that show
    them again; one that was let go is made again, the same: the locale's files are those
    of a locale that kept them all, and its pages reach the sink as each is made."""
    import generator.render.blocks
    from generator.render.site import render_locale
    from generator.render.site_input import SiteInput

    project = generator.commands.project.load_project(init_project)
    assert project.errors == []
    site = SiteInput(init_project, project.pages, ["en", "cs"], project.translators,
                     project.results)
    kept_all = render_locale(site, "cs").files
    made: list[str] = []
    sunk: dict[str, bytes] = {}
    monkeypatch.setattr(generator.render.blocks, "ROWS_KEPT", 1)
    real = generator.render.blocks.LocaleRenderer.row

    def row(self: Any, case_id: str, **given: bool) -> Any:
        made.append(case_id)
        view = real(self, case_id, **given)
        assert len(self._rows) <= 1 and len(self._views) <= 1
        return view

    monkeypatch.setattr(generator.render.blocks.LocaleRenderer, "row", row)
    out = render_locale(site, "cs", sink=sunk.update)
    assert out.files == {} and sorted(out.written) == sorted(kept_all)
    assert sunk == kept_all
    assert len(made) >= 3
