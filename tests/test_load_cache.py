"""The build cache of the load stage (docs/DESIGN.md, "The build cache"): parsed
pages, compiled catalogs and the templates' messages kept as plain JSON, keyed by their
files' bytes; what comes back equals what parsing gives, a changed file is read again, a
file with errors is never kept, a damaged entry is noted and rebuilt."""

from __future__ import annotations

import filecmp
import gc
import hashlib
import json
import shutil
import subprocess
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

import generator.cases.loader
import generator.cases.problems
import generator.commands.project
import generator.content.pages
import generator.i18n.catalog
import generator.memo
from generator.cache import BuildCache
from generator.cache import cache_folder
from generator.cache import entry_name
from generator.commands.build import build
from generator.commands.project import load_project
from generator.content.pages import PAGE_SLOT
from generator.content.pages import SourcePage
from generator.content.pages import load_pages
from generator.engine.rules import rami_variant
from generator.engine.rules import register_game
from generator.engine.rules import unregister_game
from generator.i18n.catalog import CATALOG_SLOT
from generator.i18n.catalog import Translator
from generator.i18n.catalog import discover_locales
from generator.i18n.catalog import load_translators
from generator.i18n.templates import template_messages
from generator.layout import real_path
from tests.conftest import REPO
from tests.conftest import SITE_LOCALES
from tests.conftest import override


@pytest.fixture(autouse=True)
def _nothing_made_for_another_project(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with the process memo of item stages empty: these tests count
    what a build makes and takes from its own cache, which the memo would otherwise answer
    with what another test's project made of equal inputs."""
    monkeypatch.setattr(generator.memo, "_MADE", OrderedDict())


def _through_json(data: Any) -> Any:
    """``data`` written and read as the build cache does."""
    return json.loads(json.dumps(data, ensure_ascii=False, sort_keys=True,
                                 separators=(",", ":")))


@pytest.fixture(autouse=True)
def _no_page_parsed_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's loads start as a new process's: no page parsed in it yet (what
    comes from the build cache is what these tests count)."""
    monkeypatch.setattr(generator.content.pages, "_PAGES", OrderedDict())


def _store(root: Path, tmp_path: Path) -> BuildCache:
    """A fresh handle on one cache folder (each build opens its own)."""
    return BuildCache(tmp_path / "load-cache", real_path(root))


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Any]:
    """Record the second argument (the file's path relative to the project) of every
    call of ``module.name``."""
    calls: list[Any] = []
    real = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _same_tree(a: Path, b: Path) -> None:
    files_a = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    assert files_a == files_b
    _match, mismatch, errors = filecmp.cmpfiles(a, b, files_a, shallow=False)
    assert (mismatch, errors) == ([], [])


def test_every_page_of_the_project_restored_from_its_data_equals_the_parsed_page() -> None:
    pages, errors = load_pages(REPO)
    assert errors == []
    assert [p.rel for p in pages] == ["content/cardverse.md", "content/first-meld.md",
                                      "content/rules.md"]
    for page in pages:
        data = page.as_data()
        assert data is not None, page.rel
        restored = SourcePage.from_data(_through_json(data))
        assert (restored.slug, restored.rel, restored.order) == (page.slug, page.rel,
                                                                 page.order)
        assert restored.title == page.title
        assert restored.summary == page.summary
        assert restored.messages == page.messages
        assert restored.fences == page.fences
        assert restored.anchors == page.anchors
        assert restored.links == page.links
        assert restored.env == page.env
        assert list(restored.env.get("references", {})) == list(
            page.env.get("references", {}))
        assert len(restored.tokens) == len(page.tokens) > 10
        for mine, theirs in zip(restored.tokens, page.tokens, strict=True):
            assert mine.as_dict() == theirs.as_dict()
            assert list(mine.attrs.items()) == list(theirs.attrs.items())  # attribute order
            if "fence" in theirs.meta:
                # the very fence of the restored page, as in a parsed one
                assert any(mine.meta["fence"] is f for f in restored.fences)
        assert restored == page
    assert sum(len(p.fences) for p in pages) > 0  # the fences' round trip was exercised


def test_a_page_with_reference_definitions_round_trips(tmp_path: Path) -> None:
    page = tmp_path / "content" / "refs.md"
    page.parent.mkdir()
    page.write_text("# Refs\n\nSee [the rules][rules] and [Runs][].\n\n"
                    '[rules]: ../rules/ "The rules"\n[runs]: #runs\n\n## Runs\n\nText.\n',
                    encoding="utf-8")
    (parsed,), errors = load_pages(tmp_path)
    assert errors == []
    assert list(parsed.env["references"]) == ["RULES", "RUNS"]
    data = parsed.as_data()
    assert data is not None
    restored = SourcePage.from_data(_through_json(data))
    assert restored.env == parsed.env
    assert list(restored.env["references"]) == ["RULES", "RUNS"]
    assert restored.links == parsed.links == [("../rules/", 5), ("#runs", 6)]
    assert restored == parsed


def test_unchanged_pages_come_from_the_cache_and_a_changed_one_is_parsed(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = _count_calls(monkeypatch, generator.content.pages, "parse_page")
    first, errors = load_pages(project, cache=_store(project, tmp_path))
    assert errors == []
    assert sorted(parsed) == [p.rel for p in first]
    parsed.clear()
    again, errors = load_pages(project, cache=_store(project, tmp_path))
    assert (parsed, errors) == ([], [])
    assert again == first
    assert all(a is not b for a, b in zip(again, first, strict=True))
    page = project / "content" / "rules.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\n## ", "\nA paragraph of its own.\n\n## ", 1),
                    encoding="utf-8")
    changed, errors = load_pages(project, cache=_store(project, tmp_path))
    assert (parsed, errors) == (["content/rules.md"], [])
    fresh = {p.rel: p for p in load_pages(project)[0]}
    assert {p.rel: p for p in changed} == fresh
    assert any(m.msgid == "A paragraph of its own." for m in fresh["content/rules.md"].messages)


def test_a_page_with_errors_is_never_kept_and_its_errors_are_found_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = project / "content" / "rules.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("\n## ", "\nSee {no.such_number}.\n\n## ", 1),
                    encoding="utf-8")
    parsed = _count_calls(monkeypatch, generator.content.pages, "parse_page")
    _pages, errors = load_pages(project, cache=_store(project, tmp_path))
    found = [e.format() for e in errors]
    assert len(found) == 1 and found[0].startswith("content/rules.md:")
    assert "unknown placeholder {no.such_number}" in found[0]
    parsed.clear()
    _pages, errors = load_pages(project, cache=_store(project, tmp_path))
    assert parsed == ["content/rules.md"]  # parsed again: never kept
    assert [e.format() for e in errors] == found


def test_a_page_parsed_before_in_the_process_is_not_parsed_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the build cache, a page this process parsed without an error from the
    same path and bytes (another copy of the project, ``serve``'s next build) is made
    from that parse: equal to a parse, a page of its own; a page with an error, or read
    with a parser of the caller's, is parsed each time, and every page once a game is
    registered; the build cache still gets every page."""
    parsed = _count_calls(monkeypatch, generator.content.pages, "parse_page")
    first, errors = load_pages(project)
    assert errors == [] and sorted(parsed) == [p.rel for p in first]
    parsed.clear()
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    again, errors = load_pages(copy)
    assert (parsed, errors) == ([], [])
    assert again == first
    assert all(a is not b and a.tokens is not b.tokens
               for a, b in zip(again, first, strict=True))
    cache = _store(copy, tmp_path)
    load_pages(copy, cache=cache)
    assert parsed == []
    assert all(cache.load(PAGE_SLOT + p.rel, hashlib.sha256(
        (copy / p.rel).read_bytes()).hexdigest()) is not None for p in first)
    load_pages(copy, md=generator.content.pages.make_parser())
    assert sorted(parsed) == [p.rel for p in first]
    parsed.clear()
    page = copy / "content" / "rules.md"
    page.write_text(page.read_text(encoding="utf-8").replace(
        "\n## ", "\nSee {no.such_number}.\n\n## ", 1), encoding="utf-8")
    for _ in range(2):
        _pages, errors = load_pages(copy)
        assert len(errors) == 1
    assert parsed == ["content/rules.md", "content/rules.md"]
    parsed.clear()
    load_pages(project)
    assert parsed == []
    spec = rami_variant("rami70", "Rami 70", opening_threshold=70,
                        opening_needs_pure_run=False)
    register_game(spec)  # its rule numbers may be named: every page is parsed again
    try:
        load_pages(project)
    finally:
        unregister_game(spec.id)
    assert sorted(parsed) == [p.rel for p in first]


def _catalog_fields(t: Translator) -> tuple[Any, ...]:
    return (t.locale, list(t.messages.items()), list(t.unused.items()),
            t.plural.expression, t.plural.nplurals, t.seen, t.fallbacks)


def test_unchanged_catalogs_come_from_the_cache_and_a_changed_one_is_read(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locales = ["en", *discover_locales(project)]
    assert locales == list(SITE_LOCALES)
    read = _count_calls(monkeypatch, generator.i18n.catalog, "load_translator")
    first, errors = load_translators(project, locales, cache=_store(project, tmp_path))
    assert errors == []
    assert len(read) == len(locales) - 1  # the site's catalogs (the built-in ones:
    # compiled once a process)
    read.clear()
    again, errors = load_translators(project, locales, cache=_store(project, tmp_path))
    assert (read, errors) == ([], [])
    assert list(again) == list(first)
    for locale in locales:
        assert _catalog_fields(again[locale]) == _catalog_fields(first[locale])
    assert again["de"].gettext("Goal") == ("Ziel", True)
    assert again["cs"].plural(3) == first["cs"].plural(3) == 1
    po = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Ziel"', 'msgstr "Das Ziel"'),
                  encoding="utf-8")
    changed, errors = load_translators(project, locales, cache=_store(project, tmp_path))
    assert (read, errors) == (["locales/de/LC_MESSAGES/messages.po"], [])
    assert changed["de"].gettext("Goal") == ("Das Ziel", True)


def test_a_catalog_with_errors_is_never_kept_and_its_errors_are_found_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    po = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Ziel"', 'msgstr "Ziel {x}"'),
                  encoding="utf-8")
    read = _count_calls(monkeypatch, generator.i18n.catalog, "load_translator")
    _t, errors = load_translators(project, ["en", "de"], cache=_store(project, tmp_path))
    found = [e.format() for e in errors]
    assert len(found) == 1 and found[0].startswith("locales/de/LC_MESSAGES/messages.po:")
    assert "placeholders ({x}) differ" in found[0]
    read.clear()
    _t, errors = load_translators(project, ["en", "de"], cache=_store(project, tmp_path))
    assert read == ["locales/de/LC_MESSAGES/messages.po"]
    assert [e.format() for e in errors] == found


def test_case_files_known_valid_are_not_checked_against_the_schema_again(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case file that loaded without an error is not validated again while its bytes
    are the same (and jsonschema is not even imported: 0.07 s of a build); the cases
    are those a full check gives, and a file changed since is checked whole."""
    checked = _count_calls(monkeypatch, generator.cases.problems, "_check")

    def load() -> Any:
        generator.cases.loader._MEMO.clear()  # as a new process: no file loaded yet,
        generator.cases.problems._checked().clear()  # no case checked yet
        return load_project(project, cache=_store(project, tmp_path))

    first = load()
    assert first.errors == []  # every file, then every case, checked once
    assert len(checked) == len(first.cases.files) + len(first.cases.cases) > 0
    checked.clear()
    again = load()
    assert (checked, again.errors) == ([], [])
    assert again.cases.cases == first.cases.cases
    script = ("import sys; from pathlib import Path; from generator.cache import BuildCache; "
              "from generator.layout import real_path; "
              "from generator.commands.project import load_project; "
              f"root = Path({str(project)!r}); "
              f"p = load_project(root, cache=BuildCache(Path({str(tmp_path / 'load-cache')!r}),"
              " real_path(root))); print(len(p.errors), 'jsonschema' in sys.modules)")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=False, timeout=120)
    assert ran.stdout == "0 False\n", ran.stderr
    hands = project / "content" / "examples" / "hands.yaml"
    text = hands.read_text(encoding="utf-8")
    hands.write_text(text.replace("points: 31", "points: thirty-one", 1), encoding="utf-8")
    broken = load()
    assert checked and {e.file for e in broken.errors} == {"content/examples/hands.yaml"}
    assert [e.format() for e in broken.errors] == [
        e.format() for e in load_project(project).errors]


def test_the_templates_messages_come_from_the_cache_until_a_template_changes(
        project: Path, tmp_path: Path) -> None:
    plain = template_messages(project)
    assert (None, "Skip to content") in plain
    assert template_messages(project, cache=_store(project, tmp_path)) == plain
    assert template_messages(project, cache=_store(project, tmp_path)) == plain
    home = override(project, "home.html")
    home.write_text(home.read_text(encoding="utf-8").replace(
        "<h1>{{ site.title }}</h1>", '<h1>{{ site.title }} {{ _("Zanzibar") }}</h1>'),
        encoding="utf-8")
    again = template_messages(project, cache=_store(project, tmp_path))
    assert again == plain | {(None, "Zanzibar")}


def test_a_truncated_page_entry_gives_one_note_and_the_clean_output(
        lean_project: Path, tmp_path: Path) -> None:
    project = lean_project  # four builds: two locales are enough
    assert build(project).exit_code == 0
    cases = project / "content" / "examples" / "melds-rami.yaml"
    text = cases.read_text(encoding="utf-8")
    assert "title: Three kings" in text
    cases.write_text(text.replace("title: Three kings", "title: Three kings again", 1),
                     encoding="utf-8")  # so that the build loads the project again
    entries = cache_folder(project) / "entries"
    entry = entries / entry_name(PAGE_SLOT + "content/rules.md")
    catalog = entries / entry_name(CATALOG_SLOT + "cs")
    for path in (entry, catalog):
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    report = build(project)
    assert report.exit_code == 0
    notes = [line for line in report.lines if line.startswith("note: ")]
    assert sorted(notes) == sorted(f"note: {p}: a damaged cache entry; ignored, its part "
                                   "rebuilt" for p in (entry, catalog))
    clean = build(project, tmp_path / "clean", cache=False)
    assert clean.exit_code == 0
    _same_tree(project / "site", tmp_path / "clean")
    assert "Three kings again" in (project / "site" / "en" / "rules" / "index.html"
                                   ).read_text(encoding="utf-8")
    # kept again: the next build after a change reads both entries without a note
    cases.write_text(text, encoding="utf-8")
    shutil.rmtree(tmp_path / "clean")
    report = build(project)
    assert (report.exit_code, [n for n in report.lines if n.startswith("note: ")]) == (0, [])


@pytest.mark.parametrize("enabled", [True, False])
def test_the_load_runs_without_collections_and_leaves_the_collector_as_it_was(
        enabled: bool, lean_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    seen: list[tuple[str, bool, int]] = []  # (a step of the load, collector on, collections)

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    def watched(name: str) -> None:
        step = getattr(generator.commands.project, name)

        def step_seen(*args: Any, **kwargs: Any) -> Any:
            result = step(*args, **kwargs)
            seen.append((name, gc.isenabled(), len(started)))
            return result
        monkeypatch.setattr(generator.commands.project, name, step_seen)

    watched("load_pages")  # the last file read (while the case files are parsed)
    watched("load_cases")  # which ends after it: the last step but the checks
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    gc.callbacks.append(collecting)
    try:
        project = load_project(lean_project)
        assert gc.isenabled() is enabled
    finally:
        gc.callbacks.remove(collecting)
        (gc.enable if was else gc.disable)()
    assert len(project.cases.cases) > 100  # objects enough to start collections
    assert seen == [("load_pages", False, 0), ("load_cases", False, 0)]


def test_what_the_load_made_goes_to_the_oldest_generation_unread(lean_project: Path) -> None:
    was = gc.isenabled()
    gc.disable()  # (no collection meanwhile: the generations stay as the load left them)
    try:
        project = load_project(lean_project)
        young = len(gc.get_objects(generation=0))
    finally:
        (gc.enable if was else gc.disable)()
    assert len(project.cases.cases) > 100  # a load of tens of thousands of objects
    assert young < 100  # those made after the load's end alone
