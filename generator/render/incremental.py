"""What each rendered page depends on, as digests, for the build cache
(docs/DESIGN.md, "The build cache"; :mod:`generator.cache`).

A page in a locale is rendered from: the generator itself (code, theme, rule-set data),
the project's templates and ``site.yaml``, the list of locales, the page list as the
navigation shows it (slugs, order, the titles' and summaries' msgids), the locale's
catalog, the page's own source and the cases it shows. :class:`RenderKeys` turns these
into one digest per page and locale: a page whose digest is unchanged is taken from the
cache, every other one is rendered.

A case counts by its content, not by its file: editing one case re-renders only the
pages that show it (:attr:`generator.cases.model.Case.digest`). A page counts only the
cases whose rows it shows (:class:`generator.content.drafts.Publication`): a build that
leaves the draft cases out and one that shows them never share a page or a table that
differs, and the page list is the published pages'.

A page's body (its Markdown and the tables it shows) and a table of cases depend on the
locale's messages they look up, not on the whole catalog: their keys leave the catalog
out (:meth:`RenderKeys.body`, :meth:`RenderKeys.table`), and what they keep carries the
digest of the messages they looked up
(:meth:`generator.i18n.catalog.Translator.messages_digest`), compared with the
catalog's when they are used again. Changing one catalog entry renders again only the
bodies and tables that show it; every page of the locale is still laid out again (its
navigation lists every page's title).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field

from generator.cases.model import Case
from generator.content.pages import SourcePage
from generator.digests import digest
from generator.digests import generator_hash
from generator.layout import CONFIG
from generator.layout import TEMPLATES
from generator.layout import catalog


@dataclass(frozen=True)
class RenderKeys:
    """The input digest of every page in every locale.

    Attributes:
        common: what every page depends on (generator, templates, ``site.yaml``,
            locales, the page list).
        catalogs: each locale's catalog digest (``""`` for English, which has none).
        pages: each page's own digest (its source, the cases it shows), by slug.
        cases: each case's digest, by id (a table's key: :meth:`table`).
    """

    common: str
    catalogs: Mapping[str, str]
    pages: Mapping[str, str]
    cases: Mapping[str, str] = field(default_factory=dict)
    """Each case's :attr:`generator.cases.model.Case.digest`, by id."""

    @classmethod
    def of(cls, inputs: Mapping[str, str], pages: Iterable[SourcePage],
           cases: Iterable[Case], locales: Iterable[str], site_url: str | None,
           hidden: AbstractSet[str] = frozenset()) -> RenderKeys:
        """The digests of a loaded project.

        Args:
            inputs: the SHA-256 of every input file, by project-relative path
                (:func:`generator.cache.input_digests`).
            pages: the pages rendered, in navigation order.
            cases: every loaded case.
            locales: the locale codes, in the site's order.
            site_url: ``site.yaml``'s ``site_url``.
            hidden: the ids of the cases whose rows the tables leave out (drafts).
        """
        pages = list(pages)
        locales = list(locales)
        by_id = {c.id: c.digest for c in cases}
        templates = sorted((rel, d) for rel, d in inputs.items()
                           if rel.startswith(f"{TEMPLATES}/"))
        nav = [part for p in pages for part in (
            p.slug, str(p.order), p.title.msgid, p.summary.msgid if p.summary else "")]
        common = digest(generator_hash(), *(x for t in templates for x in t),
                        inputs.get(CONFIG, ""), site_url or "", *locales, "nav", *nav)
        own = {p.slug: digest(inputs.get(p.rel, ""), *(
            by_id.get(i, "") for f in p.fences for i in f.case_ids if i not in hidden))
            for p in pages}
        return cls(common, {loc: inputs.get(catalog(loc), "") for loc in locales}, own, by_id)

    def page(self, lang: str, slug: str) -> str:
        """The digest of page ``slug`` in locale ``lang``."""
        return digest(self.common, lang, self.catalogs.get(lang, ""), self.pages[slug])

    def body(self, lang: str, slug: str) -> str:
        """The digest of page ``slug``'s body in locale ``lang``, its catalog left out:
        what the body kept shows of the catalog is checked by
        :meth:`generator.i18n.catalog.Translator.messages_digest`."""
        return digest(self.common, lang, "body", self.pages[slug])

    def table(self, lang: str, case_ids: Iterable[str], caption: str) -> str:
        """The digest of a table of cases in locale ``lang``: the cases it shows, its
        caption (its catalog left out, as for :meth:`body`)."""
        return digest(self.common, lang, "table", caption,
                      *(self.cases.get(i, "") for i in case_ids))

    def home(self, lang: str) -> str:
        """The digest of locale ``lang``'s home page (the page list, the catalog)."""
        return digest(self.common, lang, self.catalogs.get(lang, ""), "home")
