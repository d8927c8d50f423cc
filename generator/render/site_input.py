"""What rendering a site needs, loaded and verified once (:class:`SiteInput`): the
pages, locales, catalogs, engine results and settings, with what every locale derives
from them (their names, addresses, the settings as templates show them)."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from functools import cache
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from babel.core import Locale
from jinja2 import TemplateError

from generator.config import ICON_TYPES
from generator.config import Config
from generator.config import static_url
from generator.content.pages import SourcePage
from generator.i18n.catalog import Lookups
from generator.i18n.catalog import Translator
from generator.i18n.catalog import language_tag
from generator.i18n.explain import Words
from generator.layout import STATIC_OUT
from generator.layout import Layout
from generator.memo import FileStore
from generator.render.environment import TEMPLATES
from generator.render.environment import make_environment
from generator.render.incremental import RenderKeys
from generator.verify import CaseResult

DEFAULT_FAVICON = f"{STATIC_OUT}/favicon.svg"
"""The theme's icon, where ``site.yaml`` names no ``favicon``."""


class Chrome(dict[str, Any]):
    """The settings as every template shows them (:meth:`SiteInput.chrome`), a dict of
    each field's value whose field read by name (``site.title``, ``site["title"]``,
    ``site.get("title")``) replays the lookups its words made
    (:meth:`Translator.replay`): a page counts a setting shown in English where it shows
    it (the description: on the home page alone), as it counts the theme's messages it
    renders. As a dict, it prints, copies and serializes as the plain dict did.

    Args:
        fields: each field's value and the lookups that made it.
        translator: the locale's translator, which records a page's lookups.
    """

    def __init__(self, fields: Mapping[str, tuple[Any, Lookups]],
                 translator: Translator) -> None:
        super().__init__((name, value) for name, (value, _looked) in fields.items())
        self._looked = {name: looked for name, (_value, looked) in fields.items()}
        self._translator = translator

    def __getitem__(self, name: str) -> Any:
        value = super().__getitem__(name)
        self._translator.replay(self._looked[name])
        return value

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name`` read (its lookups replayed), or ``default``."""
        if name not in self:
            return default
        return self[name]


@dataclass(frozen=True)
class SiteInput:
    """What rendering needs, loaded and verified once.

    Attributes:
        root: the project folder (its ``templates/``), or its layout with the output
            folder of the build (then the templates are read, and compiled, in the one
            environment the loading checked them in: :func:`make_environment`).
        pages: the pages to render, in navigation order (the published ones:
            :class:`generator.content.drafts.Publication`).
        locales: locale codes, the source first.
        translators: each locale's messages.
        results: the engine's result for every case, by id.
    """

    root: Path | Layout
    pages: Sequence[SourcePage]
    locales: Sequence[str]
    translators: Mapping[str, Translator]
    results: Mapping[str, CaseResult]
    config: Config = field(default_factory=Config)
    """The settings (``site.yaml``): the site's name, logo, footer, address, …"""
    cache: FileStore | None = None
    """The build cache, if the build has one: pages whose inputs did not change are
    taken from it."""
    keys: RenderKeys | None = None
    """Each page's input digest, for the cache."""
    hidden: AbstractSet[str] = frozenset()
    """The ids of the cases whose rows the tables leave out (drafts:
    :class:`generator.content.drafts.Publication`)."""

    @property
    def site_url(self) -> str | None:
        """The published site's address (``site.yaml``'s ``site_url``), or ``None``."""
        return self.config.site_url

    @property
    def site_path(self) -> str:
        """The path of the site's root on its web server, ending in ``/``: ``site_url``'s
        path (``/rules/`` for ``https://example.org/rules/``), or ``/`` without one (a
        site served at a domain's root). The "page not found" pages link from it: a web
        server shows them at any missing address, at any depth."""
        return (urlsplit(self.site_url).path or "/") if self.site_url else "/"

    def chrome(self, w: Words) -> Chrome:
        """What every template shows of the settings, in ``w``'s locale (the templates'
        ``site``): ``title`` and ``description`` (translated), ``logo`` and ``favicon``
        (paths below the site's root; the theme's card icon where no favicon is set)
        with ``favicon_type``, ``footer_text`` (translated, or ``None``) and
        ``footer_links`` (``text`` translated, ``url``)."""
        config = self.config
        favicon = static_url(config.favicon) if config.favicon else DEFAULT_FAVICON
        made: dict[str, Callable[[], Any]] = {
            "title": lambda: w.text(config.title_msgid),
            "description": lambda: w.text(config.description_msgid),
            "logo": lambda: static_url(config.logo) if config.logo else None,
            "favicon": lambda: favicon,
            "favicon_type": lambda: ICON_TYPES[PurePosixPath(favicon).suffix.lower()],
            "footer_text": lambda: w.text(config.footer_text.msgid) if config.footer_text
            else None,
            "footer_links": lambda: [{"text": w.text(link.text.msgid), "url": link.url}
                                     for link in config.footer_links],
        }
        fields: dict[str, tuple[Any, Lookups]] = {}
        for name, make in made.items():
            with w.translator.record() as looked:
                fields[name] = (make(), looked)
        return Chrome(fields, w.translator)

    def names(self) -> dict[str, str]:
        """Each locale's name in its own language ("čeština", "eesti")."""
        return {loc: _autonym(loc) for loc in self.locales}

    def alternates(self, slug: str, root: str) -> list[dict[str, str]]:
        """``hreflang`` alternates of a page (``slug`` ``""``: the locale home) in every
        locale, and ``x-default`` (the source language): absolute with ``site_url``,
        else relative to ``root``."""
        base = self.site_url or root
        path = f"{slug}/" if slug else ""
        tail = "" if self.site_url else "index.html"
        links = [{"code": language_tag(loc), "url": f"{base}{loc}/{path}{tail}"}
                 for loc in self.locales]
        return [*links, {"code": "x-default", "url": links[0]["url"]}]

    def canonical(self, alternates: Sequence[Mapping[str, str]], lang: str) -> str | None:
        """The page's own address among its ``alternates`` (``lang``'s), for ``<link
        rel=canonical>``: only with ``site_url`` (a canonical address is absolute)."""
        if self.site_url is None:
            return None
        return next(link["url"] for link in alternates if link["code"] == language_tag(lang))

    def sitemap_urls(self) -> list[dict[str, Any]]:
        """What ``sitemap.xml`` lists: every page in every locale (``loc``) with its
        ``alternates``, a draft page's excepted (one a build shows is no page to index);
        the addresses are absolute, so this needs ``site_url``."""
        urls = []
        for slug in ["", *(p.slug for p in self.pages if not p.draft)]:
            links = self.alternates(slug, "")
            urls += [{"loc": own["url"], "alternates": links} for own in links[:-1]]
        return urls

    def prepare(self) -> None:
        """Load and compile every template the site uses once (before worker processes
        fork: each would compile them again); most were compiled by the loading
        (:func:`template_errors`), in the same environment. The locales' names too
        (Babel loads each locale's data for them: 50 ms a process)."""
        self.names()
        env = make_environment(self.root)
        for name in (*TEMPLATES, *Layout.of(self.root).templates([])):
            try:
                env.get_template(name)
            except TemplateError:
                continue  # reported by the loading (commands.project.load_project)


@cache
def _autonym(locale: str) -> str:
    return Locale.parse(locale).get_display_name(locale) or locale
