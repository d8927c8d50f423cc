"""The checks of the pages as a whole, before anything is rendered (as mkdocs' pages
validate their links): every ``cases`` table names existing cases of one kind, no id
appears twice on a page or collides with the page template's own, every link to this
site names an existing page and anchor, every ``deck-table`` a game."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from generator.cases.model import CaseSet
from generator.content.pages import SourcePage
from generator.engine.rules import GAMES
from generator.errors import InputError
from generator.errors import did_you_mean
from generator.errors import one_of
from generator.layout import Layout


def template_ids(layout: Layout) -> set[str]:
    """Element ids the page templates set themselves (e.g. ``content``, the skip link's
    target): a heading or case may not take them."""
    found: set[str] = set()
    for name in ("base.html", "page.html"):
        rel = layout.template_label(name)  # the project's override, or the theme's
        if rel is not None and layout.problem(rel) is None:  # else reported elsewhere
            found |= set(re.findall(r'\bid="([A-Za-z][\w-]*)"', layout.read_text(rel)))
    return found


def check_pages(pages: list[SourcePage], cases: CaseSet,
                 reserved: AbstractSet[str] = frozenset()) -> list[InputError]:
    """Fences name existing cases of one kind; ids on a page do not collide with each
    other or with the template's (``reserved``); every link to this site names an
    existing page and anchor."""
    errors: list[InputError] = []
    ids: dict[str, set[str]] = {}
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
    return errors


MAX_SUGGESTED = 20
"""The most link errors of one page that suggest close names (each suggestion compares
the name with every name of the page)."""


def _check_page(page: SourcePage, cases: CaseSet, reserved: AbstractSet[str]
                ) -> tuple[list[InputError], set[str]]:
    """One page's fences and ids; returns (errors, the ids on the page)."""
    errors: list[InputError] = []
    seen: dict[str, str] = {a: "a heading" for a in page.anchors}
    for anchor in page.anchors:
        if anchor in reserved:
            errors.append(InputError(page.rel, 1, None, f"a heading's id {anchor!r} is the "
                                     "page template's own; expected another heading text"))
    seen.update({r: "the page template" for r in reserved})
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
                                         + ", ".join(sorted(kinds)) + "); expected one kind"))
        elif fence.info == "deck-table":
            game = fence.body.strip().removeprefix("game:").strip()
            if game not in GAMES:
                expected = [f"'game: {g}'" for g in GAMES]
                errors.append(InputError(page.rel, fence.line, None,
                                         f"deck-table for {game!r}; expected "
                                         f"{', '.join(expected[:-1])} or {expected[-1]}"))
    return errors, {i for i, what in seen.items() if what != "the page template"}
