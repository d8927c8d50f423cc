"""Drafts (docs/site.md, "Drafts"): what a build publishes of the pages and cases.

A page with ``draft: true`` in its front matter, and a case with ``draft: true``, are
loaded, checked and verified as any other. A build that does not show drafts leaves them
out of the site: a draft page is rendered in no locale, so it is in no navigation, home
page, sitemap or search index; a draft case's row is left out of every table that lists
it (a table of drafts only is left out whole, its caption too), so it is in no search
index either. A build that shows them (``build --drafts``, ``serve``) renders them as
any other, each marked "Draft" (the theme's badge), and leaves draft pages out of the
sitemap only. The checks that depend on it (a link from a published page to a draft)
are :func:`generator.content.checks.check_pages`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from generator.cases.model import Case
from generator.content.source import SourcePage


@dataclass(frozen=True)
class Publication:
    """What one build publishes.

    Attributes:
        pages: the pages it renders, in navigation order.
        hidden: the ids of the cases whose rows it leaves out.
    """

    pages: tuple[SourcePage, ...]
    hidden: frozenset[str] = frozenset()

    @classmethod
    def of(cls, pages: Iterable[SourcePage], cases: Iterable[Case], *,
           drafts: bool) -> Publication:
        """What a build publishes of ``pages`` (in navigation order) and ``cases``:
        everything when it shows ``drafts``, else all but the draft pages and cases."""
        if drafts:
            return cls(tuple(pages))
        return cls(tuple(p for p in pages if not p.draft),
                   frozenset(c.id for c in cases if c.draft))

    def shown(self, case_ids: Iterable[str]) -> tuple[str, ...]:
        """The ids of a table's cases whose rows are shown, in the table's order."""
        return tuple(i for i in case_ids if i not in self.hidden)
