"""The checks of the pages as a whole, before anything is rendered (as mkdocs' pages
validate their links): every ``cases`` table names existing cases of one kind, no id
appears twice on a page or collides with the page template's own, every link to this
site names an existing page and anchor (on a published page, not a draft, unless the
build shows drafts), every ``deck-table`` a game; and the warnings: a case that no page
shows."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from jinja2 import Environment
from jinja2 import TemplateSyntaxError

from generator.cases.model import CaseSet
from generator.content.source import SourcePage
from generator.engine.rules import GAMES
from generator.errors import InputError
from generator.errors import InputWarning
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.errors import or_list
from generator.layout import Layout
from generator.layout import NotAnInput


def template_ids(layout: Layout) -> dict[str, str]:
    """The element ids the site's templates set themselves (``content``, the skip link's
    target; ``site-search-panel``, the search box's): a heading or case may not take
    them. Read from every template the site uses (:meth:`Layout.templates`: the
    project's overrides, else the theme's), in its literal text as Jinja's lexer gives
    it (not its comments; not an id Jinja fills in, such as a case row's).

    Returns:
        Each id and where it is set (``generator/theme/search.html:16``), its first
        place in the templates' name order.
    """
    found: dict[str, str] = {}
    for rel in layout.templates([]).values():
        if layout.problem(rel) is not None:
            continue  # reported by the template checks
        try:
            ids = _literal_ids(layout.read_text(rel))
        except NotAnInput:
            continue  # reported by the template checks
        for ident, line in ids:
            found.setdefault(ident, f"{rel}:{line}")
    return found


@lru_cache(maxsize=256)
def _literal_ids(source: str) -> tuple[tuple[str, int], ...]:
    """The ids a template's literal text sets, each with its line, in order (each
    template text lexed once per process: ``serve`` checks them again and again); none
    for a template Jinja cannot lex (its error is reported by the template checks)."""
    found = []
    try:
        tokens = list(_LEXER.lex(source))
    except TemplateSyntaxError:
        return ()
    for line, kind, value in tokens:
        if kind != "data":
            continue
        for match in _ID.finditer(value):
            if match.group(3) is not None and match.end() == len(value):
                continue  # id=x-{{ n }}: Jinja fills the rest in
            found.append((match.group(1) or match.group(2) or match.group(3),
                          line + value.count("\n", 0, match.start())))
    return tuple(found)


_LEXER = Environment()
"""Jinja's lexer with the default delimiters, as the site's templates use them."""
_ID = re.compile(r"""(?<![\w-])id\s*=\s*(?:"([^"{}]+)"|'([^'{}]+)'|([^\s"'=<>`{}]+))""")
"""An ``id`` attribute in a template's literal text, quoted or not."""


def check_pages(pages: list[SourcePage], cases: CaseSet,
                 reserved: Mapping[str, str] | None = None, *,
                 drafts: bool = False) -> list[InputError]:
    """Fences name existing cases of one kind; ids on a page do not collide with each
    other or with the templates' (``reserved``: each id and where a template sets it,
    :func:`template_ids`); every link to this site names an existing page and anchor,
    and, unless the build shows ``drafts``, a link on a published page leads to no draft
    (a draft page, a draft case's row: :func:`_draft_target`)."""
    reserved = {} if reserved is None else reserved
    errors: list[InputError] = []
    ids: dict[str, set[str]] = {}
    by_slug = {page.slug: page for page in pages}
    for page in pages:
        page_errors, ids[page.slug] = _check_page(page, cases, reserved)
        errors.extend(page_errors)
    for page in pages:
        suggested = 0  # a few errors of a page say "did you mean": bounded work and output
        for target, line in page.links:
            if "://" in target or target.startswith("mailto:"):
                continue
            path, _, anchor = target.partition("#")
            slug = page.slug
            if path:
                parts = path.split("/")
                if len(parts) != 3 or parts[0] != ".." or parts[2] not in ("", "index.html"):
                    errors.append(InputError(page.rel, line, None, f"link {target!r} is not a "
                                             "page of this site; expected ../<slug>/ or "
                                             "#anchor"))
                    continue
                slug = parts[1]
                if slug not in ids:
                    suggested += 1
                    errors.append(InputError(page.rel, line, None, f"link {target!r} names no "
                                             "page; expected " + one_of(
                                                 path, [f"../{s}/" for s in ids],
                                                 noun="pages",
                                                 suggest=suggested <= MAX_SUGGESTED)))
                    continue
            if anchor and anchor not in ids[slug]:
                suggested += 1
                errors.append(InputError(page.rel, line, None, f"link {target!r}: no heading "
                                         f"or case {anchor!r} on page {slug}; expected "
                                         + one_of(anchor, ids[slug], noun="ids",
                                                  suggest=suggested <= MAX_SUGGESTED)))
                continue
            if not drafts and not page.draft:
                draft = _draft_target(target, by_slug[slug], anchor, cases)
                if draft is not None:
                    errors.append(InputError(page.rel, line, None, draft))
    return errors


def _draft_target(target: str, page: SourcePage, anchor: str, cases: CaseSet) -> str | None:
    """The message for the link ``target`` of a published page when it leads to a draft:
    ``page`` (the page it names) is one, or ``anchor`` names a draft case's row on it;
    ``None`` when it leads to a published page and row."""
    published = "(drafts are published by build --drafts only)"
    if page.draft:
        return (f"link {target!r} leads to page {page.slug}, a draft (draft: true in "
                f"{page.rel}); expected a link to a published page {published}")
    case = cases.get(anchor) if anchor else None
    if case is None or not case.draft or not any(
            anchor in fence.case_ids for fence in page.fences if fence.info == "cases"):
        return None
    return (f"link {target!r} leads to case {anchor}, a draft (draft: true at "
            f"{case.position_of('draft')}); expected a link to a published case {published}")


def unshown_cases(pages: list[SourcePage], cases: CaseSet) -> list[InputWarning]:
    """A warning for each case that no page's ``cases`` table lists, at the case: ``case
    ID is shown on no page`` (docs/site.md, "Warnings"). A draft case is expected to be
    shown nowhere yet: no warning; a case that only a draft page shows is shown on that
    page."""
    shown = {case_id for page in pages for fence in page.fences if fence.info == "cases"
             for case_id in fence.case_ids}
    return [InputWarning(case.position.file, case.position.line,
                         f"case {case.id} is shown on no page")
            for case in cases.cases if case.id not in shown and not case.draft]


MAX_SUGGESTED = 20
"""The most link errors of one page that suggest close names (each suggestion compares
the name with every name of the page)."""


def _check_page(page: SourcePage, cases: CaseSet, reserved: Mapping[str, str]
                ) -> tuple[list[InputError], set[str]]:
    """One page's fences and ids; returns (errors, the ids on the page)."""
    errors: list[InputError] = []
    seen: dict[str, str] = {a: "a heading" for a, _line in page.anchors}
    for anchor, line in page.anchors:
        if anchor in reserved:
            errors.append(InputError(page.rel, line, None, f"a heading's id {anchor!r} is "
                                     f"the page template's own ({reserved[anchor]} sets "
                                     "it); expected another heading text"))
    seen.update({r: f"the templates, {where}" for r, where in reserved.items()})
    by_id = cases.by_id
    for fence in page.fences:
        if fence.info == "cases":
            kinds = set()
            if not fence.case_ids:
                errors.append(InputError(page.rel, fence.line, None, "empty cases table; "
                                         "expected case ids, one per line"))
            for case_id, line in fence.case_lines:
                case = by_id.get(case_id)
                if case is None:
                    if not cases.errors:
                        errors.append(InputError(page.rel, line, None,
                                                 f"unknown case id {case_id!r}; expected "
                                                 "an id from content/examples/"
                                                 + did_you_mean(case_id, by_id)))
                    continue
                kinds.add(case.kind)
                if case_id in seen:
                    errors.append(InputError(page.rel, line, None,
                                             f"id {case_id!r} twice on the page (also "
                                             f"{seen[case_id]}); expected each id once"))
                seen[case_id] = "a case"
            if len(kinds) > 1:
                errors.append(InputError(page.rel, fence.line, None,
                                         "cases of different kinds in one table ("
                                         + ", ".join(sorted(kinds)) + "); expected one kind a "
                                         "table: a cases fence for each kind"))
        elif fence.info == "deck-table":
            game = fence.body.strip().removeprefix("game:").strip()
            if game not in GAMES:
                expected = or_list(f"'game: {g}'" for g in GAMES)
                errors.append(InputError(page.rel, fence.line, None,
                                         f"deck-table for {game!r}; expected {expected}"))
    return errors, {i for i, what in seen.items() if i not in reserved}
