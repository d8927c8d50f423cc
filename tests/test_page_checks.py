"""The checks of a page, registered by name (generator/content/page_checks.py): the
built-in ones listed in the order they run, a check registered at run time run and
reporting at its file, line and column, from parse_page, load_pages and the build
cache alike; and the list of rules itself (generator/content/ruler.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it.token import Token

from generator.cache import BuildCache
from generator.content.page_checks import BLOCK_CHECKS
from generator.content.page_checks import PAGE_CHECKS
from generator.content.page_checks import PageState
from generator.content.page_checks import checks_changed
from generator.content.page_checks import line_of
from generator.content.pages import load_pages
from generator.content.pages import make_parser
from generator.content.pages import parse_page
from generator.content.rule_numbers import facts
from generator.content.ruler import Ruler
from generator.layout import real_path

PAGE = b"# Title\n\nSome text.\n\n## Plans\n\nA TODO here, and\nanother TODO.\n"


def _todo(page: PageState) -> None:
    """Each ``TODO`` in a block of the page is an error at its line and column."""
    for message in page.blocks:
        for offset, text in enumerate(message.msgid.split("\n")):
            column = page.lines[message.line - 1 + offset].find("TODO")
            if "TODO" in text and column >= 0:
                page.report(message.line + offset, column + 1, TODO)


TODO = "a TODO is left in the text; expected the text it stands for"
SHORT = "a block of fewer than three characters; expected a sentence"


def _short_block(page: PageState, token: Token) -> None:
    """A block (not the title) of fewer than three characters is an error at its
    line and column."""
    if token.type == "inline" and token is not page.title_token and len(token.content) < 3:
        line = line_of(token)
        page.report(line, page.lines[line - 1].find(token.content) + 1, SHORT)


@pytest.fixture
def todo_check() -> Iterator[None]:
    """:func:`_todo` registered after the ``slug`` check for the test."""
    PAGE_CHECKS.after("slug", "todo", _todo)
    try:
        yield
    finally:
        PAGE_CHECKS.remove("todo")


def _errors(data: bytes, rel: str = "content/p.md") -> list[str]:
    _page, errors = parse_page(Path(rel), rel, make_parser(), facts(), data)
    return [e.format() for e in errors]


def test_the_built_in_checks_are_listed_by_name_in_the_order_they_run() -> None:
    assert PAGE_CHECKS.names() == [
        "size", "encoding", "control_characters", "markdown", "front_matter", "order",
        "draft", "summary", "blocks", "title", "placeholders", "slug", "links"]
    assert BLOCK_CHECKS.names() == [
        "title_text", "anchors", "messages", "unknown_containers", "app_choice_closed",
        "fences"]
    assert checks_changed() == ""


def test_a_check_registered_at_run_time_runs_and_reports_at_file_line_and_column(
        todo_check: None) -> None:
    names = PAGE_CHECKS.names()
    assert names.index("todo") == names.index("slug") + 1
    assert checks_changed() != ""
    assert _errors(PAGE) == [f"content/p.md:7:3: {TODO}", f"content/p.md:8:9: {TODO}"]
    # its errors follow those of the checks before it, in the order they run
    assert _errors(PAGE.replace(b"Some text.", b"Some\n:::text"), "content/P.md") == [
        "content/P.md:4:1: unknown block ':::text'; expected '::: app-choice' … ':::' on "
        "lines of their own, with a blank line before",
        "content/P.md:1: page file name 'P.md' is not a slug; expected lowercase "
        "letters, digits and hyphens, e.g. first-meld.md",
        f"content/P.md:8:3: {TODO}", f"content/P.md:9:9: {TODO}"]


def test_a_disabled_check_does_not_run_until_enabled_again(todo_check: None) -> None:
    PAGE_CHECKS.disable("todo")
    assert _errors(PAGE) == []
    assert "todo" in PAGE_CHECKS.names()
    PAGE_CHECKS.enable("todo")
    assert len(_errors(PAGE)) == 2


def test_a_block_check_registered_at_run_time_runs_on_each_block_in_order() -> None:
    BLOCK_CHECKS.before("fences", "short", _short_block)
    try:
        assert _errors(b"# Title\n\nok\n\n::: x\n\n- no\n") == [
            f"content/p.md:3:1: {SHORT}",
            "content/p.md:5:1: unknown block '::: x'; expected '::: app-choice' … ':::' "
            "on lines of their own, with a blank line before",
            f"content/p.md:7:3: {SHORT}"]
    finally:
        BLOCK_CHECKS.remove("short")
    assert checks_changed() == ""


def test_a_page_kept_by_the_build_cache_meets_a_check_registered_since(
        tmp_path: Path) -> None:
    """A page parsed without errors is kept (in the build cache, in the process's
    memory); once a check is registered, the same bytes are parsed again and it runs."""
    root = tmp_path / "site"
    (root / "content").mkdir(parents=True)
    (root / "content" / "p.md").write_bytes(PAGE)

    def load() -> list[str]:
        cache = BuildCache(tmp_path / "cache", real_path(root))
        pages, errors = load_pages(root, cache=cache)
        assert [page.slug for page in pages] == ["p"]
        return [e.format() for e in errors]

    assert load() == []
    assert load() == []  # from the cache
    PAGE_CHECKS.push("todo", _todo)
    try:
        assert load() == [f"content/p.md:7:3: {TODO}", f"content/p.md:8:9: {TODO}"]
    finally:
        PAGE_CHECKS.remove("todo")
    assert load() == []


def test_the_ruler_adds_replaces_and_removes_rules_by_name() -> None:
    ruler: Ruler[int] = Ruler([("a", 1), ("c", 3)])
    ruler.before("c", "b", 2)
    ruler.after("c", "d", 4)
    ruler.push("e", 5)
    ruler.at("a", 10)
    assert ruler.enabled() == [("a", 10), ("b", 2), ("c", 3), ("d", 4), ("e", 5)]
    ruler.disable("b")
    ruler.remove("d")
    assert ruler.names() == ["a", "b", "c", "e"]
    assert ruler.enabled() == [("a", 10), ("c", 3), ("e", 5)]
    with pytest.raises(ValueError, match="a rule is already named 'c'"):
        ruler.push("c", 0)
    with pytest.raises(KeyError, match="no rule named 'x'; expected one of: a, b, c, e"):
        ruler.after("x", "y", 0)
    with pytest.raises(KeyError, match="no rule named 'd'"):
        ruler.enable("d")
