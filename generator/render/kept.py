"""A locale's rendered pages kept per page in the build's store (:class:`KeptPages`): a
page whose inputs' digest (:class:`generator.render.incremental.RenderKeys`) is the one
kept is taken whole; one whose body's inputs and messages are unchanged keeps its body
and is laid out again; every page rendered is kept (docs/DESIGN.md, "The build cache").
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.i18n.catalog import Lookups
from generator.i18n.catalog import Translator
from generator.memo import FileStore
from generator.render.incremental import RenderKeys
from generator.render.markdown import LocalePage

KeptPart = tuple[dict[str, Any], bytes]
"""A body taken from the store: its entry's part (:meth:`KeptPages.keep_page`) and its
bytes."""

BLANK = LocalePage("", "", False, "", False, "", [], frozenset())
"""What a home or "page not found" page keeps of itself besides its file: nothing (no
other page shows its title or summary)."""


@dataclass(frozen=True)
class Whole:
    """A page taken whole from the store.

    Attributes:
        page: what the other pages need of it: its title and summary.
        lookups: its lookups, its body's with its layout's (replayed).
        copy: its file's checked copy (:meth:`generator.output.SiteWriter.link`).
        sha: the copy's name (its SHA-256 hex digest).
    """

    page: LocalePage
    lookups: Lookups
    copy: Path
    sha: str


@dataclass(frozen=True)
class Body:
    """A page's body, rendered now or taken from the store, before its layout.

    Attributes:
        page: the page, its body's HTML in ``html``.
        lookups: what the body looked up.
        english: the msgids it shows in English (its title, body and cases).
        tables: the store slots of its tables of cases.
        kept: the entry's part and bytes, for a body taken from the store.
    """

    page: LocalePage
    lookups: Lookups
    english: frozenset[str]
    tables: frozenset[str]
    kept: KeptPart | None = None


@dataclass(frozen=True)
class KeptPages:
    """The pages of locale ``lang`` in ``store``, keyed by ``keys``."""

    store: FileStore
    keys: RenderKeys
    lang: str

    def page(self, slug: str) -> Whole | None:
        """The page ``slug`` kept for its inputs now, or ``None``."""
        return self._whole(f"page/{self.lang}/{slug}", self.keys.page(self.lang, slug))

    def home(self, slot: str) -> Whole | None:
        """The home page (``slot`` ``"home"``) or "page not found" page (``"404"``) kept
        for the inputs now, or ``None``."""
        return self._whole(f"{slot}/{self.lang}", self.keys.home(self.lang))

    def _whole(self, slot: str, inputs: str) -> Whole | None:
        """A page kept in ``slot`` for ``inputs``, its copy checked, or ``None``."""
        data = self.store.load(slot, inputs, shared=True)
        if not isinstance(data, dict):
            return None
        try:
            sha = str(data["html"])
            lp = _kept_page(data)
            lookups = Lookups.from_data(data["lookups"])
            tables: list[str] = []
            if data.get("body") is not None:
                body = Lookups.from_data(data["body"]["lookups"])
                lookups = Lookups(lookups.seen | body.seen, lookups.fallbacks | body.fallbacks)
                tables = [str(slot) for slot in data["body"]["tables"]]
        except (KeyError, TypeError, ValueError):
            self.store.notes.append(f"{slot}: a cache entry of another shape; ignored, rebuilt")
            return None
        html = self.store.blob(sha)
        if html is None:
            return None
        self.store.keep_slots(tables)  # what the page's next body may need again
        return Whole(lp, lookups, html, sha)

    def body(self, slug: str, translator: Translator) -> Body | None:
        """The body of page ``slug``, whatever the page's own inputs, when it was made
        from the inputs now (:meth:`RenderKeys.body`) and the messages it looked up are
        as the catalog holds them now (:meth:`Translator.messages_digest`), cut from
        the page's kept copy and checked by its digest; or ``None``."""
        slot = f"page/{self.lang}/{slug}"
        data = self.store.load(slot, None, shared=True)
        if not isinstance(data, dict) or not isinstance(data.get("body"), dict):
            return None
        body = data["body"]
        try:
            if body["key"] != self.keys.body(self.lang, slug):
                return None
            lookups = Lookups.from_data(body["lookups"])
            if body["messages"] != translator.messages_digest(lookups.seen):
                return None  # a message it shows was changed
            sha, at, length = str(data["html"]), int(body["at"]), int(body["length"])
            tables = frozenset(str(slot) for slot in body["tables"])
            body_sha = str(body["sha"])
            english = frozenset(str(m) for m in body["english"])
            lp = _kept_page(data, _kept_toc(body["toc"]), english)
        except (KeyError, TypeError, ValueError):
            self.store.notes.append(f"{slot}: a cache entry of another shape; ignored, rebuilt")
            return None
        cut = self.store.load_blob_part(sha, at, length, body_sha)
        if cut is None:
            return None  # the page's copy is gone, or the entry was edited: rendered again
        try:
            lp.html = cut.decode("utf-8")
        except UnicodeDecodeError:
            return None  # bytes of the right digest are the body kept: never
        self.store.keep_slots(tables)
        return Body(lp, lookups, english, tables, (body, cut))

    def keep_page(self, slug: str, body: Body, shown: Lookups, html: bytes,
                  translator: Translator) -> str:
        """Keep page ``slug`` laid out (``html``, what its layout looked up: ``shown``)
        with its body (:func:`_body_part`); returns its blob's name."""
        part = _body_part(translator, self.keys.body(self.lang, slug), body, html)
        return self._keep(f"page/{self.lang}/{slug}", self.keys.page(self.lang, slug),
                          body.page, shown, html, part)

    def keep_home(self, slot: str, shown: Lookups, html: bytes) -> str:
        """Keep the home page (``slot`` ``"home"``) or "page not found" page (``"404"``);
        returns its blob's name."""
        return self._keep(f"{slot}/{self.lang}", self.keys.home(self.lang), BLANK, shown,
                          html)

    def _keep(self, slot: str, inputs: str, lp: LocalePage, lookups: Lookups,
              html: bytes, body: dict[str, Any] | None = None) -> str:
        """Keep a rendered page, with what its layout looked up and, for a content page,
        its body; returns its blob's name."""
        sha = hashlib.sha256(html).hexdigest()  # the file, once written: BuildCache.adopt
        self.store.store(slot, inputs, {
            "html": sha, "title": lp.title, "title_html": lp.title_html,
            "title_en": lp.title_en, "summary": lp.summary, "summary_en": lp.summary_en,
            "lookups": lookups.as_data(), "body": body})
        return sha


def _kept_page(data: dict[str, Any], toc: list[dict[str, object]] | None = None,
               english: frozenset[str] = frozenset()) -> LocalePage:
    """The page an entry keeps: its title and summary, as the other pages' navigation
    and the home page need them, with the body's ``toc`` and ``english`` where the body
    is used too (its HTML set by the caller).

    Raises:
        KeyError, TypeError, ValueError: the entry is of another shape.
    """
    return LocalePage(str(data["title"]), str(data["title_html"]), bool(data["title_en"]),
                      str(data["summary"]), bool(data["summary_en"]), "",
                      [] if toc is None else toc, english)


def _kept_toc(toc: Any) -> list[dict[str, object]]:
    """A kept body's table of contents, each heading's fields checked.

    Raises:
        KeyError, TypeError, ValueError: the entry is of another shape.
    """
    return [{"id": str(h["id"]), "title": str(h["title"]),
             "title_html": str(h["title_html"]), "level": int(h["level"])} for h in toc]


def _body_part(translator: Translator, key: str, body: Body, page: bytes
               ) -> dict[str, Any]:
    """What a page's entry keeps of its body (:meth:`KeptPages.body`): its key, its
    lookups and the digest of the messages they found, its table of contents, the store
    slots of its tables, and where it sits in the page with its SHA-256 (the theme writes
    the body as it is, so it is not kept twice; ``at`` -1 where a layout changed it: the
    body is then not used again). A body taken from the store keeps its part as it was,
    with where it sits now: the same key, lookups and digests."""
    if body.kept is not None:
        part, cut = body.kept
        return {**part, "at": page.find(cut)}
    data = body.page.html.encode("utf-8")
    return {"key": key, "at": page.find(data), "length": len(data),
            "sha": hashlib.sha256(data).hexdigest(), "toc": body.page.toc,
            "english": sorted(body.english), "tables": sorted(body.tables),
            "lookups": body.lookups.as_data(),
            "messages": translator.messages_digest(body.lookups.seen)}
