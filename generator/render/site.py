"""Rendering a locale: every page of one locale in one Jinja environment
(:func:`render_locale`), and the files every locale shares (:func:`render_common`,
:func:`publish_files`).

Per locale the gettext callables are installed once, the case macros bound once, and
each case row and case table rendered once and reused on every page that shows it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from jinja2 import Environment
from jinja2 import Template
from jinja2 import UndefinedError
from markupsafe import Markup

from generator.content.pages import SourcePage
from generator.content.rule_numbers import facts
from generator.errors import InputError
from generator.errors import quoted
from generator.i18n.catalog import Key
from generator.i18n.catalog import Lookups
from generator.i18n.catalog import Translator
from generator.i18n.catalog import language_tag
from generator.i18n.coverage import Coverage
from generator.i18n.explain import Words
from generator.layout import NOT_FOUND
from generator.layout import ROOT_INDEX
from generator.layout import SITEMAP
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import catalog
from generator.layout import home_output
from generator.layout import not_found_output
from generator.layout import page_output
from generator.layout import search_output
from generator.output import SiteWriter
from generator.render.blocks import LocaleRenderer
from generator.render.environment import install_words
from generator.render.environment import make_environment
from generator.render.errors import call_macro
from generator.render.fallbacks import mark_english
from generator.render.kept import Body
from generator.render.kept import KeptPages
from generator.render.kept import Whole
from generator.render.markdown import LocalePage
from generator.render.markdown import PageRenderer
from generator.render.markdown import make_markdown
from generator.render.site_input import SiteInput
from generator.render.typography import typeset


def strict_lines(locale: str, coverage: Coverage) -> list[str]:
    """One line per message shown in English, at the line of the ``.po`` to fix (a fuzzy
    message's msgid, an empty msgstr, a plural message's empty ``msgstr[N]``), or at
    line 1 when the catalog lacks it (run ``i18n update``); the msgid cut at 60
    characters (:func:`generator.errors.quoted`)."""
    rel = catalog(locale)
    lines = [f"{rel}:{line or 1}: {what} of {quoted(msgid)} (--strict); expected it "
             "translated" for msgid, line, what in coverage.missing[:20]]
    if len(coverage.missing) > 20:
        lines.append(f"{rel}:1: and {len(coverage.missing) - 20} more untranslated or "
                     "fuzzy messages (--strict)")
    return lines

class SiteNav:
    """The site navigation of one locale (``base.html``'s ``nav_html``): every page's
    item (``nav.html``'s ``nav_item``) rendered once, not once on every page that
    lists it (each page lists every page: that work grew with the square of the
    pages); a page's own item, marked as the current page, is rendered on that page.

    Args:
        macros: ``nav.html``, its module made now (after this locale's gettext
            callables are installed).
        nav: the items (``slug``, ``title``, ``title_html``, ``url``), in order.
        translator: the locale's messages: what the items looked up is replayed on
            every page that shows them (:meth:`Translator.record`).
    """

    def __init__(self, macros: Template, nav: list[dict[str, Any]],
                 translator: Translator) -> None:
        self.nav = nav
        self.translator = translator
        self._item = _exported(macros, "nav_item")
        self._items: list[str] | None = None
        self._lookups = Lookups(set(), set())

    def html(self, current: int | None = None) -> Markup:
        """The items, the one at index ``current`` marked as the page shown."""
        if self._items is None:  # on first use: home and 404 pages may come from the cache
            with self.translator.record() as self._lookups:
                self._items = [str(call_macro(self._item, item, False)) for item in self.nav]
        else:
            self.translator.replay(self._lookups)
        items = self._items
        if current is not None:
            items = [*items[:current], str(call_macro(self._item, self.nav[current], True)),
                     *items[current + 1:]]
        return Markup("".join(items))


def _exported(template: Template, name: str) -> Any:
    """The macro ``name`` of ``template``'s module, made now.

    Raises:
        UndefinedError: the template does not define it (an override copied from an
            older theme), at the template's file (:func:`generator.render.errors.template_error`).
    """
    macro = getattr(template.make_module(), name, None)
    if macro is None:
        error = UndefinedError(f"the template {template.name!r} does not export the "
                               f"requested name {name!r}")
        error.filename, error.lineno = template.filename, 1  # type: ignore[attr-defined]
        raise error
    return macro

@dataclass
class LocaleOutput:
    """What rendering one locale gave.

    Attributes:
        files: the files rendered now, by site-relative POSIX path.
        links: the files taken from the cache: its checked copies, by site-relative
            path (:meth:`generator.output.SiteWriter.link`).
        coverage: the locale's coverage.
        cached: how many of its pages (the home page counted) came from the cache.
        blobs: the name of each file's copy in the cache, by site-relative path.
        notes: the cache's notes (a damaged entry ignored).
        entries: the cache entries looked up or stored (:attr:`BuildCache.used`).
        stored: those it stored (:attr:`BuildCache.stored`).
        reads: the input files read, as :func:`generator.layout.reads_recorded` gives
            them (a template a worker read again), for the parent's check.
        written: the files rendered now and handed to the ``sink`` of
            :func:`render_locale` as each was made (not in :attr:`files`), in order.
    """

    files: dict[str, bytes]
    coverage: Coverage
    cached: int = 0
    links: dict[str, Path] = field(default_factory=dict)
    blobs: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    entries: frozenset[str] = frozenset()
    """The cache entries looked up or stored (:attr:`BuildCache.used`)."""
    stored: frozenset[str] = frozenset()
    """Those of them stored (:attr:`BuildCache.stored`)."""
    reads: dict[str, str] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)

@dataclass(frozen=True)
class LocaleScene:
    """What every page of one locale is rendered with, made once per locale
    (:func:`_scene`).

    Attributes:
        site: the site's input.
        lang: the locale.
        env: the shared environment, this locale's gettext callables installed.
        names: each locale's name in its own language.
        translator: the locale's messages.
        chrome: what every template shows of the settings (:meth:`SiteInput.chrome`;
            a field read replays its lookups).
        blocks: the locale's generated blocks (tables of cases, decks, presets).
        renderer: the locale's Markdown renderer of page bodies.
        kept: the locale's pages in the build's store, or ``None`` without one.
        sink: takes each file as soon as it is made (:func:`render_locale`), or ``None``.
    """

    site: SiteInput
    lang: str
    env: Environment
    names: Mapping[str, str]
    translator: Translator
    chrome: Mapping[str, Any]
    blocks: LocaleRenderer
    renderer: PageRenderer
    kept: KeptPages | None
    sink: Callable[[dict[str, bytes]], None] | None = None


@dataclass(frozen=True)
class LocaleNav:
    """A locale's navigation, made once its pages' titles are known.

    Attributes:
        items: every page's item (``slug``, ``title``, ``title_html``, ``url``), for a
            page at ``<lang>/<slug>/``.
        pages: the navigation of a page (its links one level up).
        home: the navigation of the home and "page not found" pages (at ``<lang>/``).
        english_titles: the msgids of the pages' titles shown in English.
    """

    items: list[dict[str, Any]]
    pages: SiteNav
    home: SiteNav
    english_titles: frozenset[str]


def render_locale(site: SiteInput, lang: str,
                  sink: Callable[[dict[str, bytes]], None] | None = None) -> LocaleOutput:
    """Render every page of one locale, its home page and its "page not found" page;
    with ``site.cache``, a page whose inputs did not change (``site.keys``) is taken
    from the cache instead (:class:`generator.render.kept.KeptPages`), and every page
    rendered is kept there. A page's body is let go once the page is laid out, so that
    a locale of a thousand pages is not held in memory whole.

    Args:
        site: the site's input.
        lang: the locale.
        sink: takes each file as soon as it is made (the output writer's ``write``):
            the files are then named in ``written``, not held in ``files``.

    Returns:
        The files, the coverage (the same as rendering every page would give: a cached
        page's lookups are replayed) and the cache's bookkeeping.

    Raises:
        jinja2.TemplateError: a template that does not load or render.
    """
    scene = replace(_scene(site, lang), sink=sink)
    out = LocaleOutput({}, Coverage(0, 0))
    rendered, bodies = _page_bodies(scene, out)
    nav = _navigation(scene, rendered)
    for slug, page_of in rendered.items():  # what the home and 404 pages show of each
        rendered[slug] = replace(page_of, html="")
    page_tpl = scene.env.get_template("page.html")
    for index, page in enumerate(site.pages):
        body = bodies.pop(page.slug, None)
        if body is not None:  # (else taken whole from the cache)
            _lay_out(scene, out, page_tpl, nav, index, body)
    home_tpl = scene.env.get_template("home.html")
    _locale_page(scene, out, "home", home_output(lang), lambda shown: _render_home(
        home_tpl, scene, rendered, nav.home, shown))
    # A web server shows it at any missing address: its links start at the site's root
    # path (SiteInput.site_path). It depends on what the home page does (the pages'
    # titles and summaries).
    _locale_page(scene, out, "404", not_found_output(lang), lambda _shown: mark_english(
        _render_not_found(scene, rendered, nav)))
    out.coverage = _coverage(scene.translator)
    return out


def kept_locale(site: SiteInput, lang: str) -> LocaleOutput | None:
    """Locale ``lang`` as :func:`render_locale` gives it when the cache keeps every one of
    its pages (its home and "page not found" pages too) whole for the inputs now: each
    page's copy linked, its lookups replayed, nothing rendered; ``None`` when a page
    would be rendered (or without the cache).

    Raises:
        jinja2.TemplateError: a template that does not load.
    """
    if site.cache is None or site.keys is None:
        return None
    kept = KeptPages(site.cache, site.keys, lang)
    wholes: list[tuple[str, Whole, bool]] = []
    for page in site.pages:
        whole = kept.page(page.slug)
        if whole is None:
            return None
        wholes.append((page_output(lang, page.slug), whole, True))
    for slot, rel in (("home", home_output(lang)), ("404", not_found_output(lang))):
        whole = kept.home(slot)
        if whole is None:
            return None
        wholes.append((rel, whole, slot == "home"))
    scene = _scene(site, lang)
    out = LocaleOutput({}, Coverage(0, 0))
    for rel, whole, counted in wholes:
        _linked(scene, out, rel, whole, counted=counted)
    out.coverage = _coverage(scene.translator)
    return out


def _scene(site: SiteInput, lang: str) -> LocaleScene:
    """The environment, words, settings and renderers of locale ``lang``, its gettext
    callables installed (:func:`install_words`)."""
    env = make_environment(site.root)
    translator = site.translators[lang]
    cache = site.cache if site.keys is not None else None
    env.get_template("page.html")  # (loaded before the locale's callables are installed)
    env.get_template("home.html")
    w = Words(translator, marked=True)
    install_words(env, w)
    chrome = site.chrome(w)
    blocks = LocaleRenderer(env, w, site.results, cache, site.keys, site.hidden,
                            checker=site.config.pyodide is not None)
    renderer = PageRenderer(make_markdown(), translator, facts(), blocks.fence, w.text)
    kept = None if cache is None or site.keys is None else KeptPages(cache, site.keys, lang)
    return LocaleScene(site, lang, env, site.names(), translator, chrome,
                       blocks, renderer, kept)


def _page_bodies(scene: LocaleScene, out: LocaleOutput
                 ) -> tuple[dict[str, LocalePage], dict[str, Body]]:
    """Every page's body, in navigation order: taken whole from the cache (its copy
    linked into ``out``), its body taken from the cache, or rendered now.

    Returns:
        Every page by slug (what the navigation and the home page need of it), and the
        bodies of the pages to lay out now.
    """
    rendered: dict[str, LocalePage] = {}
    bodies: dict[str, Body] = {}
    for page in scene.site.pages:
        whole = scene.kept.page(page.slug) if scene.kept is not None else None
        if whole is not None:
            rendered[page.slug] = whole.page
            _linked(scene, out, page_output(scene.lang, page.slug), whole, counted=True)
            continue
        body = scene.kept.body(page.slug, scene.translator) if scene.kept is not None \
            else None
        if body is not None:
            scene.translator.replay(body.lookups)
        else:
            body = _render_body(scene, page)
        rendered[page.slug], bodies[page.slug] = body.page, body
    return rendered, bodies


def _render_body(scene: LocaleScene, page: SourcePage) -> Body:
    """Page ``page``'s body rendered now, with what it looked up, what it shows in
    English and the cache slots of its tables."""
    blocks = scene.blocks
    blocks.shown_in_english = set()
    blocks.table_slots = set()
    with scene.translator.record() as lookups:
        lp = scene.renderer.render(page)
    lp.html = typeset(lp.html, scene.lang, language_tag(scene.lang))
    return Body(lp, lookups, lp.english | blocks.shown_in_english,
                frozenset(blocks.table_slots))


def _linked(scene: LocaleScene, out: LocaleOutput, rel: str, whole: Whole, *,
            counted: bool) -> None:
    """A page taken whole from the cache: its copy linked at ``rel``, its lookups
    replayed; ``counted`` among the pages taken from the cache."""
    out.links[rel], out.blobs[rel] = whole.copy, whole.sha
    scene.translator.replay(whole.lookups)
    out.cached += counted


def _navigation(scene: LocaleScene, rendered: Mapping[str, LocalePage]) -> LocaleNav:
    """The locale's navigation, from every page's title."""
    pages = scene.site.pages
    # Every page sits at <lang>/<slug>/, so one list of links serves them all.
    items = [{"slug": p.slug, "title": rendered[p.slug].title,
              "title_html": Markup(rendered[p.slug].title_html),
              "url": f"../{p.slug}/index.html"} for p in pages]
    macros = scene.env.get_template("nav.html")
    page_nav = SiteNav(macros, items, scene.translator)
    # The home and 404 pages sit at <lang>/: their links to the pages are one level up.
    home_nav = SiteNav(macros, [{**item, "url": f"{item['slug']}/index.html"}
                                for item in items], scene.translator)
    titles = frozenset(p.title.msgid for p in pages if rendered[p.slug].title_en)
    return LocaleNav(items, page_nav, home_nav, titles)


def _lay_out(scene: LocaleScene, out: LocaleOutput, page_tpl: Template, nav: LocaleNav,
             index: int, body: Body) -> None:
    """Lay page ``index`` out in ``page.html`` around its body into ``out``, and keep it
    in the cache. The messages shown in English are counted once however often they are
    shown: the page's own, and the titles of the other pages in the navigation."""
    page = scene.site.pages[index]
    own = body.english | nav.english_titles
    framed = body.lookups.fallbacks
    with scene.translator.record() as shown:
        html = _counted(partial(page_tpl.render, **_page_context(scene, nav, index, body)),
                        own, framed, shown)
    rel = page_output(scene.lang, page.slug)
    data = _made(scene, out, rel, _page_bytes(scene, html, body.page.html))
    if scene.kept is not None:
        out.blobs[rel] = scene.kept.keep_page(page.slug, body, shown, data,
                                              scene.translator)


def _page_context(scene: LocaleScene, nav: LocaleNav, index: int, body: Body
                  ) -> dict[str, Any]:
    """What ``page.html`` renders page ``index`` with (but ``untranslated``)."""
    site, lang, names, lp = scene.site, scene.lang, scene.names, body.page
    page = site.pages[index]
    items = nav.items
    alternates = site.alternates(page.slug, "../../")
    return dict(
        alternates=alternates, canonical=site.canonical(alternates, lang),
        description=Markup(lp.summary).striptags(),
        lang=language_tag(lang), lang_name=names[lang], root="../../",
        home_url="../index.html",
        site=scene.chrome,
        page={"title": lp.title, "title_html": Markup(lp.title_html),
              "slug": page.slug, "html": Markup(lp.html), "draft": page.draft,
              "toc": [{**h, "title_html": Markup(h["title_html"])} for h in lp.toc]},
        languages=[{"code": language_tag(o), "name": names[o],
                    "url": f"../../{o}/{page.slug}/index.html",
                    "current": o == lang} for o in site.locales],
        nav=items, nav_html=nav.pages.html(index), current_slug=page.slug,
        **_search_box(site, lang, "../../"),
        pager={"prev": items[index - 1] if index else None,
               "next": items[index + 1] if index + 1 < len(items) else None},
    )


def _locale_page(scene: LocaleScene, out: LocaleOutput, slot: str, rel: str,
                 render: Callable[[Lookups], str]) -> None:
    """The locale's home page (``slot`` ``"home"``) or "page not found" page
    (``"404"``) at ``rel``: taken whole from the cache (only the home page counted
    among the pages taken from it), or rendered now (``render``, given the lookups it
    makes as they are recorded; its HTML with the English passages marked) and kept."""
    whole = scene.kept.home(slot) if scene.kept is not None else None
    if whole is not None:
        _linked(scene, out, rel, whole, counted=slot == "home")
        return
    with scene.translator.record() as shown:
        html = render(shown)
    data = _made(scene, out, rel, _page_bytes(scene, html))
    if scene.kept is not None:
        out.blobs[rel] = scene.kept.keep_home(slot, shown, data)


def _made(scene: LocaleScene, out: LocaleOutput, rel: str, data: bytes) -> bytes:
    """File ``rel`` of the locale, made now: handed to the scene's sink (and named in
    ``out.written``), else kept in ``out.files``; returns ``data``."""
    if scene.sink is None:
        out.files[rel] = data
    else:
        scene.sink({rel: data})
        out.written.append(rel)
    return data


def _page_bytes(scene: LocaleScene, html: str, body: str = "") -> bytes:
    """A page of the locale as it is written: with the locale's typography
    (:func:`generator.render.typography.typeset`; ``body``, the page's body, typeset
    already when it was rendered, so that the page holds it as the cache keeps it), in
    UTF-8."""
    return typeset(html, scene.lang, language_tag(scene.lang), body).encode("utf-8")


def _coverage(translator: Translator) -> Coverage:
    """The locale's coverage: the messages looked up, those shown in English, and each
    of these with its catalog line and why (untranslated ones of the catalog first)."""
    missing = tuple(sorted(
        ((msgid, *translator.unused.get((ctx, msgid), (0, "missing translation")))
         for ctx, msgid in translator.fallbacks), key=lambda m: (m[1] == 0, m[1], m[0])))
    return Coverage(len(translator.seen), len(translator.fallbacks), missing)


def _counted(render: Callable[..., str], own: AbstractSet[str], body: AbstractSet[Key],
             shown: Lookups) -> str:
    """A page rendered (``render(untranslated=N)``) with the number of the passages it
    shows in English, each counted once by its key (context and msgid, as the locale's
    coverage counts them): the page's own (``own``: msgids, no context) and the
    messages of the theme and the engine that fell back, in its body (``body``) and in
    its frame (recorded in ``shown`` while it renders; the count's own sentence may be
    one of them, so it renders again until the count holds, at most three times), the
    English passages marked (:func:`generator.render.fallbacks.mark_english`)."""
    keys = {(None, msgid) for msgid in own} | body
    count = len(keys)
    html = render(untranslated=count)
    for _ in range(2):
        seen = len(keys | shown.fallbacks)
        if seen == count:
            break
        count = seen
        html = render(untranslated=count)
    return mark_english(html)


def _render_home(home_tpl: Template, scene: LocaleScene,
                 rendered: Mapping[str, LocalePage], nav: SiteNav, shown: Lookups) -> str:
    """A locale's home page: the page list with each page's summary, and the number of
    passages it shows in English (:func:`_counted`: the pages' titles and summaries, and
    the theme's messages and the settings it shows, recorded in ``shown`` as it
    renders), those marked."""
    site, lang, names = scene.site, scene.lang, scene.names
    pages = site.pages
    alternates = site.alternates("", "../")
    own = {m.msgid for p in pages for m, en in (
        (p.title, rendered[p.slug].title_en), (p.summary, rendered[p.slug].summary_en))
        if m is not None and en}
    return _counted(partial(
        home_tpl.render,
        alternates=alternates, canonical=site.canonical(alternates, lang),
        description="",  # home.html's own: its introduction
        lang=language_tag(lang), lang_name=names[lang], root="../", home_url="index.html",
        site=scene.chrome,
        pages=_page_list(pages, rendered),
        languages=_home_languages(site, names, lang),
        nav=nav.nav, nav_html=nav.html(), current_slug="",
        page={"title": "", "title_html": "", "slug": "", "html": "", "toc": []},
        **_search_box(site, lang, "../"),
    ), own, frozenset(), shown)


def _render_not_found(scene: LocaleScene, rendered: Mapping[str, LocalePage],
                      nav: LocaleNav) -> str:
    """A locale's "page not found" page (``404.html``): the locale's pages. Every link
    starts at the site's root path (:attr:`SiteInput.site_path`), so that the page works
    at whatever missing address, at whatever depth, a web server shows it."""
    site, lang, names = scene.site, scene.lang, scene.names
    root = site.site_path
    here = f"{root}{lang}/"
    items = [{**item, "url": f"{here}{item['slug']}/index.html"} for item in nav.items]
    absolute_nav = SiteNav(scene.env.get_template("nav.html"), items, scene.translator)
    return scene.env.get_template("404.html").render(
        alternates=[], canonical=None, description="",
        lang=language_tag(lang), lang_name=names[lang], root=root,
        home_url=f"{here}index.html", site=scene.chrome,
        pages=[{**page, "url": f"{here}{page['url']}"}
               for page in _page_list(site.pages, rendered)],
        languages=[{**other, "url": f"{root}{other['url'].removeprefix('../')}"}
                   for other in _home_languages(site, names, lang)],
        nav=absolute_nav.nav, nav_html=absolute_nav.html(), current_slug="",
        untranslated=0,
        page={"title": "", "title_html": "", "slug": "", "html": "", "toc": []},
        **_search_box(site, lang, root),
    )


def _page_list(pages: Sequence[SourcePage], rendered: Mapping[str, LocalePage]
               ) -> list[dict[str, Any]]:
    """The pages as a locale's home and "page not found" pages list them."""
    return [{"title": rendered[p.slug].title,
             "title_html": Markup(rendered[p.slug].title_html),
             "url": f"{p.slug}/index.html",
             "summary": Markup(rendered[p.slug].summary)} for p in pages]


def _home_languages(site: SiteInput, names: Mapping[str, str], lang: str
                    ) -> list[dict[str, Any]]:
    """The language menu of a page at ``<lang>/``."""
    return [{"code": language_tag(o), "name": names[o], "url": f"../{o}/index.html",
             "current": o == lang} for o in site.locales]


SERVE_COMMAND = "rules-site serve"
"""What the search box, opened from a file, suggests to serve the site with."""


def _search_box(site: SiteInput, lang: str, root: str) -> dict[str, dict[str, str]]:
    """The ``search`` a page ``root`` below the site's root passes its template, for
    ``search.html``: the locale's index (``bundle``), the locale's folder its results
    are relative to (``base``), and :data:`SERVE_COMMAND`. Nothing (no search box) when
    the site publishes no page: it has no index."""
    if not site.pages:
        return {}
    return {"search": {"bundle": f"{root}{search_output(lang)}/", "base": f"{root}{lang}/",
                       "command": SERVE_COMMAND}}


def render_common(site: SiteInput) -> dict[str, bytes]:
    """The files every locale shares that the build makes: ``index.html`` (the
    languages), ``404.html`` (the languages, each saying "Page not found" in its own
    words) and ``sitemap.xml`` (its template, with ``site_url``). The files published
    as they are: :func:`publish_files`.

    Raises:
        jinja2.TemplateError: a template that does not load or render.
    """
    env = make_environment(site.root)
    # the front page speaks the default language (the first of the site's): its own
    # translator, so that its lookups are not counted as those of the locale's pages
    default = site.locales[0]
    own = site.translators[default]
    w = Words(replace(own, seen=set(), fallbacks=set()), marked=True)
    install_words(env, w)
    names = site.names()
    chrome = site.chrome(w)
    root_html = env.get_template("root.html").render(
        not_found=False, lang=language_tag(default), site=chrome,
        languages=[{"code": language_tag(loc), "name": names[loc],
                    "url": f"{loc}/index.html"} for loc in site.locales])
    # The root 404: each language's "Page not found", linking to its home; its links
    # start at the site's root path, as the locales' 404 pages' do.
    root = site.site_path
    root_404 = env.get_template("root.html").render(
        not_found=True, root=root, lang=language_tag(default), site=chrome,
        languages=[{"code": language_tag(loc), "name": names[loc],
                    "url": f"{root}{loc}/index.html",
                    "not_found": Words(site.translators[loc]).text("Page not found")}
                   for loc in site.locales])
    files = {ROOT_INDEX: mark_english(root_html).encode("utf-8"),
             NOT_FOUND: mark_english(root_404).encode("utf-8")}
    if site.site_url is not None:  # a sitemap's addresses are absolute
        sitemap = env.get_template("sitemap.xml").render(urls=site.sitemap_urls())
        files[SITEMAP] = sitemap.encode("utf-8")
    return files


def publish_files(site: SiteInput, writer: SiteWriter,
                  generated: AbstractSet[str]) -> dict[str, str]:
    """Copy the files published as they are into ``writer``'s fresh folder: ``static/``
    (the theme's ``static/``, each file replaced by the project's ``templates/static/``
    file of its name) and the files of ``templates/root/`` at the site's root
    (:func:`generator.layout.Layout.published_files`), each copied in pieces
    (:meth:`generator.layout.Layout.copy_to`), so that a large image or font takes no
    more memory than a small one. One that clashes with a ``generated`` file (site
    paths) is an input error the loading reports, never published.

    Returns:
        Each file copied, by site path: the SHA-256 hex digest of its bytes.

    Raises:
        generator.output.OutputError: a file cannot be written.
    """
    layout = Layout.of(site.root)
    errors: list[InputError] = []  # reported by the loading (commands.project.load_project)
    copied: dict[str, str] = {}
    for name, rel in layout.published_files(errors).items():
        if name in generated:
            continue
        try:
            copied[name] = writer.copy(name, functools.partial(layout.copy_to, rel))
        except NotAnInput:
            continue  # reported by the loading
    return copied
