"""The project's settings file, ``site.yaml`` (as MkDocs has ``mkdocs.yml``); every
setting is optional (docs/site.md, "Settings")::

    # yaml-language-server: $schema=site.schema.json
    title: Pravidla rami                  # the site's name (translated through the catalogs)
    description: The rules of our app.    # the home page's introduction (translated)
    languages: [cs, sk, en]               # which languages, in this order; cs the default
    site_url: https://rules.example.org/  # where the site is published
    logo: templates/static/logo.svg       # shown before the title in the header
    favicon: templates/static/icon.png    # the browser tab's icon
    footer:
      text: Made by the CardVerse team.   # translated
      links:
        - {text: Privacy, url: "https://example.org/privacy"}
    nav: [rules, first-meld]              # the navigation's order (pages not named follow)
    pyodide: node_modules/pyodide         # the card checker's runtime (default: cdn; false: off)

Each setting is one :class:`Setting` record of :data:`SETTINGS`: its JSON Schema (what
``schema --settings`` prints for editors) and the function that reads it with positioned
errors. The texts a reader sees (``title``, ``description``, the footer's) are English
source text, extracted into the site's catalog and translated per locale; where they are
not set, the theme's own words are used (:data:`DEFAULT_TITLE`,
:data:`DEFAULT_DESCRIPTION`), which the built-in catalogs translate.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import SplitResult
from urllib.parse import urlsplit

from babel.core import Locale
from babel.core import UnknownLocaleError

from generator.errors import InputError
from generator.errors import did_you_mean
from generator.layout import CONFIG
from generator.layout import PYODIDE_CDN as PYODIDE_CDN
from generator.layout import PYODIDE_FILES as PYODIDE_FILES
from generator.layout import STATIC
from generator.layout import STATIC_OUT
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.layout import is_locale_name
from generator.layout import is_slug
from generator.yamlpos import BOTH_VERSIONS_BOOLEANS
from generator.yamlpos import Mark
from generator.yamlpos import YamlDocument
from generator.yamlpos import YamlPath
from generator.yamlpos import describe
from generator.yamlpos import parse_yaml
from generator.yamlpos import string_hint

MAX_CONFIG_BYTES = 100_000
"""The largest ``site.yaml`` read, in bytes: one setting takes a line (a larger file is
an input error, never read whole)."""

DEFAULT_TITLE = "Rummy rules"
"""The site's name where ``title`` is not set (a message of the built-in catalogs)."""

DEFAULT_DESCRIPTION = ("The rules of rummy card games, with worked examples. Every example "
                       "is checked by the rules engine.")
"""The home page's introduction where ``description`` is not set (a message of the
built-in catalogs)."""

SCHEMA_FILE = "site.schema.json"
"""The settings' editor schema in a project made by ``init`` (its ``site.yaml`` names it)."""

ICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon",
              ".gif": "image/gif", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
              ".webp": "image/webp"}
"""The image files ``logo`` and ``favicon`` may name, by suffix, with their media type."""

MAX_TEXT = 500
"""The longest ``title``, ``description`` or footer text, in characters."""

MAX_ITEMS = 200
"""The most entries ``languages``, ``footer.links`` or ``nav`` may list."""


@dataclass(frozen=True)
class Text:
    """A text of the settings that a reader sees, translated through the catalogs.

    Attributes:
        msgid: the English source text as written.
        line: its line in ``site.yaml`` (for the catalog's ``#:`` comment).
    """

    msgid: str
    line: int


@dataclass(frozen=True)
class Link:
    """A footer link.

    Attributes:
        text: what the link says (translated).
        url: where it leads: an absolute ``http``, ``https`` or ``mailto`` address.
    """

    text: Text
    url: str


@dataclass(frozen=True)
class NavEntry:
    """A page named by ``nav``.

    Attributes:
        slug: the page's slug as written.
        mark: where it is written in ``site.yaml``.
    """

    slug: str
    mark: Mark


@dataclass(frozen=True)
class Config:
    """The settings (each ``None`` or empty where ``site.yaml`` does not set it).

    Attributes:
        title: the site's name; ``None``: :data:`DEFAULT_TITLE`.
        description: the home page's introduction; ``None``: :data:`DEFAULT_DESCRIPTION`.
        languages: the locales to build, the default first; ``None``: English and every
            locale with a catalog.
        site_url: the published site's address, ending in ``/``.
        logo: the logo's file, relative to the project (in ``templates/static/``).
        favicon: the icon's file, relative to the project (in ``templates/static/``).
        footer_text: a line of text in every page's footer.
        footer_links: links in every page's footer.
        nav: the pages in the navigation's order (the others follow).
        pyodide: where the card checker's Pyodide comes from: :data:`PYODIDE_CDN`, a
            folder of the project holding a Pyodide distribution (copied into the
            site), or ``None``: no checker.
    """

    title: Text | None = None
    description: Text | None = None
    languages: tuple[str, ...] | None = None
    site_url: str | None = None
    logo: str | None = None
    favicon: str | None = None
    footer_text: Text | None = None
    footer_links: tuple[Link, ...] = ()
    nav: tuple[NavEntry, ...] = field(default=())
    pyodide: str | None = "cdn"

    @property
    def title_msgid(self) -> str:
        """The site's name as a msgid: ``title``, else :data:`DEFAULT_TITLE`."""
        return self.title.msgid if self.title is not None else DEFAULT_TITLE

    @property
    def description_msgid(self) -> str:
        """The home page's introduction as a msgid: ``description``, else
        :data:`DEFAULT_DESCRIPTION`."""
        return self.description.msgid if self.description is not None \
            else DEFAULT_DESCRIPTION

    def messages(self) -> list[Text]:
        """The texts of ``site.yaml`` that a reader sees, in file order: what ``i18n
        extract`` adds to the site's catalog."""
        texts = [self.title, self.description, self.footer_text,
                 *(link.text for link in self.footer_links)]
        return sorted((t for t in texts if t is not None), key=lambda t: t.line)


def static_url(rel: str) -> str:
    """Where a file of ``templates/static/`` is published, relative to the site's root:
    ``templates/static/img/logo.svg`` → ``static/img/logo.svg``."""
    return f"{STATIC_OUT}/{rel.removeprefix(f'{STATIC}/')}"


class _Reader:
    """Reads one setting's value, collecting positioned errors."""

    def __init__(self, doc: YamlDocument, errors: list[InputError]) -> None:
        self.doc = doc
        self.errors = errors

    def error(self, path: YamlPath, message: str, *, at_key: bool = False) -> None:
        mark = self.doc.key_mark(path) if at_key else self.doc.mark(path)
        self.errors.append(InputError(CONFIG, mark.line, mark.column, message))

    def plain_boolean(self, path: YamlPath) -> bool:
        """Whether the value at ``path`` is written ``true`` or ``false`` (in a spelling
        YAML 1.1 and 1.2 read alike), not a bare ``yes``, ``no``, ``on`` or ``off``."""
        node = self.doc.nodes.get(path)
        return node is not None and node.value in BOTH_VERSIONS_BOOLEANS

    def text(self, path: YamlPath, value: Any, what: str, example: str) -> Text | None:
        """A text a reader sees: a string of one line, printable, at most
        :data:`MAX_TEXT` characters."""
        name = ".".join(str(p) for p in path if isinstance(p, str))
        if not isinstance(value, str) or not value.strip():
            self.error(path, f"{name} is {describe(value)}{string_hint(value)}; expected "
                       f"{what}, e.g. {name.rsplit('.', 1)[-1]}: {example}")
            return None
        if len(value) > MAX_TEXT or "\n" in value.strip():
            self.error(path, f"{name} has {len(value)} characters on "
                       f"{value.strip().count(chr(10)) + 1} lines; expected {what} on one "
                       f"line of at most {MAX_TEXT} characters")
            return None
        return Text(" ".join(value.split()), self.doc.mark(path).line)

    def items(self, path: YamlPath, value: Any, what: str) -> list[Any] | None:
        """A list of at most :data:`MAX_ITEMS` entries."""
        if not isinstance(value, list):
            self.error(path, f"{path[-1]} is {describe(value)}; expected {what}")
            return None
        if len(value) > MAX_ITEMS:
            self.error(path, f"{path[-1]} lists {len(value)} entries; expected at most "
                       f"{MAX_ITEMS}")
            return None
        return value

    def static_file(self, path: YamlPath, value: Any, layout: Layout) -> str | None:
        """An image file in ``templates/static/`` that is an input of the project."""
        name = str(path[-1])
        example = f"{name}: {STATIC}/{name}.svg"
        if not isinstance(value, str) or not value:
            self.error(path, f"{name} is {describe(value)}; expected the path of an image "
                       f"in {STATIC}/, e.g. {example}")
            return None
        rel = PurePosixPath(value)
        if rel.is_absolute() or ".." in rel.parts or not rel.is_relative_to(STATIC) \
                or rel == PurePosixPath(STATIC):
            self.error(path, f"{name} {value!r} is not in {STATIC}/; expected the path, "
                       f"relative to the project, of an image in {STATIC}/ (it is "
                       f"published from there), e.g. {example}")
            return None
        suffix = rel.suffix.lower()
        if suffix not in ICON_TYPES:
            self.error(path, f"{name} {value!r} is not an image file the browsers show; "
                       f"expected a file ending in {', '.join(ICON_TYPES)}")
            return None
        problem = layout.problem(rel.as_posix())
        if problem is not None:
            # the names below templates/static/ compared, not the paths they share
            inside = [f.removeprefix(f"{STATIC}/") for f in layout.walk(STATIC, [])
                      if f.lower().endswith(suffix)]
            close = difflib.get_close_matches(rel.relative_to(STATIC).as_posix(), inside,
                                              n=1, cutoff=0.75)
            hint = f" (did you mean '{STATIC}/{close[0]}'?)" if close else ""
            self.error(path, f"{name} {value!r}: {problem.message}{hint}")
            return None
        return rel.as_posix()


def _read_title(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    return replace(config, title=r.text(("title",), value, "the site's name",
                                        "Rummy rules"))


def _read_description(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    return replace(config, description=r.text(("description",), value, "a sentence that "
                                              "introduces the site", "The rules of our app."))


def _read_languages(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    items = r.items(("languages",), value, "a list of locale codes, the default first, "
                    "e.g. languages: [cs, sk, en]")
    if items is None:
        return config
    if not items:
        r.error(("languages",), "languages is an empty list; expected at least one locale "
                "code, e.g. languages: [en]")
        return config
    found: list[str] = []
    for index, code in enumerate(items):
        path = ("languages", index)
        if not isinstance(code, str) or not is_locale_name(code) or not _known_locale(code):
            shown = repr(code) if isinstance(code, str) else describe(code)
            r.error(path, f"{shown} is not a locale code Babel knows{string_hint(code)}; "
                    "expected a code such as cs, sk, et, en, de, pl, hu or pt_BR")
        elif code in found:
            r.error(path, f"{code!r} is listed twice (first at position "
                    f"{found.index(code) + 1}); expected each language once")
        else:
            found.append(code)
    return replace(config, languages=tuple(found)) if len(found) == len(items) else config


def _known_locale(code: str) -> bool:
    """Whether Babel knows ``code`` and writes it back the same (``Locale.parse`` alone
    accepts any text after ``@``)."""
    try:
        return str(Locale.parse(code)) == code
    except (UnknownLocaleError, ValueError):
        return False


def _read_site_url(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    problem = site_url_problem(value)
    if problem is not None:
        shown = repr(value) if isinstance(value, (str, int, float)) else describe(value)
        r.error(("site_url",), f"site_url {shown} is not a web address ({problem}); "
                "expected the absolute http(s) address of the site's root folder, e.g. "
                "https://rules.example.org/", at_key=True)
        return config
    url = str(value)
    return replace(config, site_url=url if url.endswith("/") else url + "/")


def _read_logo(r: _Reader, value: Any, config: Config, layout: Layout) -> Config:
    return replace(config, logo=r.static_file(("logo",), value, layout))


def _read_favicon(r: _Reader, value: Any, config: Config, layout: Layout) -> Config:
    return replace(config, favicon=r.static_file(("favicon",), value, layout))


_FOOTER_KEYS = ("text", "links")
_LINK_KEYS = ("text", "url")


def _read_footer(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    if not isinstance(value, dict):
        r.error(("footer",), f"footer is {describe(value)}; expected a mapping of text and "
                "links, e.g. footer: {text: Made by our team.}")
        return config
    _unknown(r, ("footer",), value, _FOOTER_KEYS)
    text = r.text(("footer", "text"), value["text"], "a line of text",
                  "Made by our team.") if "text" in value else None
    links: list[Link] = []
    items = r.items(("footer", "links"), value["links"], "a list of links, e.g. links: "
                    "[{text: Privacy, url: 'https://example.org/privacy'}]") \
        if "links" in value else None
    for index, item in enumerate(items or []):
        path: YamlPath = ("footer", "links", index)
        if not isinstance(item, dict):
            r.error(path, f"a footer link is {describe(item)}; expected a mapping of text "
                    "and url, e.g. {text: Privacy, url: 'https://example.org/privacy'}")
            continue
        _unknown(r, path, item, _LINK_KEYS)
        missing = [k for k in _LINK_KEYS if k not in item]
        if missing:
            r.error(path, f"a footer link has no {' and no '.join(missing)}; expected both "
                    "text and url")
            continue
        label = r.text((*path, "text"), item["text"], "what the link says", "Privacy")
        problem = link_problem(item["url"])
        if problem is not None:
            shown = repr(item["url"]) if isinstance(item["url"], str) \
                else describe(item["url"])
            r.error((*path, "url"), f"url {shown} is not a web address ({problem}); "
                    "expected an absolute http(s) or mailto: address")
        elif label is not None:
            links.append(Link(label, str(item["url"])))
    return replace(config, footer_text=text, footer_links=tuple(links))


def _read_nav(r: _Reader, value: Any, config: Config, _layout: Layout) -> Config:
    items = r.items(("nav",), value, "a list of page slugs in the navigation's order, "
                    "e.g. nav: [rules, first-meld]")
    entries: list[NavEntry] = []
    for index, slug in enumerate(items or []):
        path = ("nav", index)
        if not isinstance(slug, str) or not is_slug(slug):
            shown = repr(slug) if isinstance(slug, str) else describe(slug)
            r.error(path, f"{shown} is not a page slug{string_hint(slug)}; expected the "
                    "name of a page's file in content/ without .md, e.g. rules")
        elif slug in (e.slug for e in entries):
            r.error(path, f"page {slug!r} is named twice in nav; expected each page once")
        else:
            entries.append(NavEntry(slug, r.doc.mark(path)))
    return replace(config, nav=tuple(entries))



PYODIDE_VERSION = "0.29.5"
"""The Pyodide release the checker runs on: from the CDN, and the one a folder holds
(``npm install pyodide@0.29.5``; later releases lay out other files)."""


def _read_pyodide(r: _Reader, value: Any, config: Config, layout: Layout) -> Config:
    example = "pyodide: node_modules/pyodide"
    expected = (f"{PYODIDE_CDN} (the default), false (no card checker) or the folder of a "
                f"Pyodide distribution in the project, e.g. {example}")
    if value is False and r.plain_boolean(("pyodide",)):
        return replace(config, pyodide=None)
    if isinstance(value, bool):  # a bare yes/no/on/off: YAML 1.1 and 1.2 read it apart
        spelt = r.doc.nodes[("pyodide",)].value
        r.error(("pyodide",), f"pyodide is {spelt}, which YAML 1.1 reads as {str(value).lower()} "
                f"and YAML 1.2 and editors as text; expected {expected} (write false for no "
                "card checker)")
        return config
    if not isinstance(value, str) or not value.strip():
        r.error(("pyodide",), f"pyodide is {describe(value)}{string_hint(value)}; expected "
                f"{expected}")
        return config
    if value == PYODIDE_CDN:
        return replace(config, pyodide=PYODIDE_CDN)
    if value.strip().lower() == PYODIDE_CDN:
        r.error(("pyodide",), f"pyodide is {value!r} (did you mean {PYODIDE_CDN!r}?); "
                f"expected {expected}")
        return config
    rel = PurePosixPath(value.rstrip("/"))
    if rel.is_absolute() or ".." in rel.parts:
        r.error(("pyodide",), f"pyodide {value!r} is not in the project; expected the path, "
                f"relative to the project, of a folder holding Pyodide, e.g. {example}")
        return config
    missing = [name for name in PYODIDE_FILES
               if layout.problem(f"{rel.as_posix()}/{name}") is not None]
    if missing:
        r.error(("pyodide",), f"pyodide {value!r} does not hold {', '.join(missing)}; "
                f"expected a folder of the project holding a Pyodide distribution "
                f"({', '.join(PYODIDE_FILES)}), e.g. {example} after "
                f"npm install pyodide@{PYODIDE_VERSION}")
        return config
    return replace(config, pyodide=rel.as_posix())


def _unknown(r: _Reader, path: YamlPath, value: dict[str, Any], keys: tuple[str, ...]
             ) -> None:
    where = ".".join(str(p) for p in path if isinstance(p, str))
    for key in value:
        if key not in keys:
            r.error((*path, key), f"unknown field {key!r} in {where}"
                    f"{did_you_mean(key, keys)}; expected {' or '.join(keys)}", at_key=True)


_TEXT_SCHEMA: dict[str, Any] = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT,
                                "pattern": r"^[^\n]*\S[^\n]*\n?$"}
_IMAGE_SCHEMA: dict[str, Any] = {
    "type": "string",
    "pattern": f"^{STATIC}/.*({'|'.join(re.escape(s) for s in ICON_TYPES)})$"}


@dataclass(frozen=True)
class Setting:
    """One setting of ``site.yaml``.

    Attributes:
        name: its key.
        schema: its JSON Schema (with a ``description`` for editors' hover).
        read: reads its value into the settings: ``(reader, value, settings so far,
            the project's layout) → settings``, errors collected by the reader.
    """

    name: str
    schema: dict[str, Any]
    read: Callable[[_Reader, Any, Config, Layout], Config]


SETTINGS: tuple[Setting, ...] = (
    Setting("title", {**_TEXT_SCHEMA, "description": "The site's name, in English (translated "
                      "through the catalogs); shown in the header, the tab title and the "
                      "home page."}, _read_title),
    Setting("description", {**_TEXT_SCHEMA, "description": "The home page's introduction, "
                            "in English (translated)."}, _read_description),
    Setting("languages", {
        "type": "array", "minItems": 1, "maxItems": MAX_ITEMS, "uniqueItems": True,
        "items": {"type": "string", "pattern": "^[A-Za-z]{2,8}(_[A-Za-z0-9]{1,8})*"
                  "(@[A-Za-z0-9]{1,8})?$"},
        "description": "The languages to build, in this order; the first is the default "
                       "(the front page's language). Default: English and every language "
                       "with a catalog in locales/."}, _read_languages),
    Setting("site_url", {"type": "string", "format": "uri",
                         "pattern": r"^https?://[^/?#@\s]+(/[^?#\s]*)?$",
                         "description": "The published site's address (makes the language "
                         "alternates absolute and writes sitemap.xml)."}, _read_site_url),
    Setting("logo", {**_IMAGE_SCHEMA, "description": "An image in templates/static/ shown "
                     "before the site's name in the header."}, _read_logo),
    Setting("favicon", {**_IMAGE_SCHEMA, "description": "An image in templates/static/ for "
                        "the browser tab (default: the theme's card icon)."}, _read_favicon),
    Setting("footer", {
        "type": "object", "additionalProperties": False,
        "properties": {
            "text": {**_TEXT_SCHEMA, "description": "A line in every page's footer, in "
                     "English (translated)."},
            "links": {"type": "array", "maxItems": MAX_ITEMS, "items": {
                "type": "object", "additionalProperties": False, "required": ["text", "url"],
                "properties": {"text": _TEXT_SCHEMA,
                               "url": {"type": "string", "pattern":
                                       r"^(https?://[^/?#@\s]+([/?#]\S*)?|mailto:\S+)$"}}},
                "description": "Links in every page's footer."}},
        "description": "What every page's footer says besides the theme's own line."},
        _read_footer),
    Setting("nav", {"type": "array", "maxItems": MAX_ITEMS, "uniqueItems": True,
                    "items": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"},
                    "description": "Page slugs (file names in content/ without .md) in the "
                    "navigation's order; the pages not named follow, in their own order."},
            _read_nav),
    Setting("pyodide", {"anyOf": [{"const": PYODIDE_CDN}, {"const": False},
                                  {"type": "string", "pattern": r"^[^/].*$"}],
                        "description": "Where the card checker's runtime, Pyodide, comes "
                        "from: cdn (its official CDN at the pinned version, with integrity "
                        "hashes; the default), a folder of the project holding a Pyodide "
                        "distribution (copied into the site: no network needed), or false "
                        "(no card checker)."}, _read_pyodide),
)
"""Every setting, in the order the documentation lists them."""

KEYS = tuple(s.name for s in SETTINGS)
"""The settings' names."""


def settings_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``site.yaml``, for editors (``schema
    --settings``; :data:`SCHEMA_FILE` in a project made by ``init``)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "site.yaml of a rules site",
        "description": "The settings of a rules site (docs/site.md, \"Settings\").",
        "type": ["object", "null"],
        "properties": {s.name: s.schema for s in SETTINGS},
        "additionalProperties": False,
    }


def load_config(project: Path | Layout) -> tuple[Config, list[InputError]]:
    """Read ``site.yaml`` if there is one.

    Args:
        project: the project folder or its layout.

    Returns:
        (the settings, the input errors: not YAML (read as case files are: a syntax
        error, a duplicate key, nesting or aliases beyond their limits, each at its
        position), not a mapping, an unknown setting (with a did-you-mean), a value of
        the wrong form (at the value); a setting with an error is left unset).
    """
    layout = Layout.of(project)
    if not layout.exists(CONFIG):
        return Config(), []
    try:
        text = layout.read(CONFIG, limit=MAX_CONFIG_BYTES, what="settings file",
                           advice="keep only the settings").decode("utf-8")
        text = text.removeprefix("\ufeff")
    except NotAnInput as exc:
        return Config(), [exc.error]
    except UnicodeDecodeError as exc:
        return Config(), [InputError(CONFIG, 1, None, f"cannot read the settings: {exc}; "
                                     "expected UTF-8 YAML")]
    doc, errors = parse_yaml(text, CONFIG)  # positions, and the guards case files have
    if doc is None:
        return Config(), errors
    data = {} if doc.value is None else doc.value
    if not isinstance(data, dict):
        return Config(), [InputError(CONFIG, 1, None, "the settings are not a mapping; "
                                     "expected one setting a line, e.g. 'title: Rummy rules'")]
    reader = _Reader(doc, errors)
    config = Config()
    by_name = {s.name: s for s in SETTINGS}
    for key, value in data.items():
        setting = by_name.get(key)
        if setting is None:
            reader.error((key,), f"unknown setting {key!r}{did_you_mean(key, KEYS)}; "
                         f"expected one of: {', '.join(KEYS)}", at_key=True)
        elif value is None:
            reader.error((key,), f"{key} is empty; expected a value, or no {key} line",
                         at_key=True)
        else:
            config = setting.read(reader, value, config, layout)
    return config, errors


_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f\"'<>\\`{}|^]")
"""Characters a URL must not hold as written: whitespace, controls, quotes, angle
brackets and the others RFC 3986 excludes (they would need percent-encoding)."""


def _web_address(url: object, schemes: tuple[str, ...]) -> tuple[SplitResult | None, str | None]:
    """``url`` split into its parts, or what is wrong with it as an absolute address of
    one of ``schemes`` written as a page may link it: not text, a character a URL may
    not hold as written, a port that is no number, another scheme; for ``http`` and
    ``https``, no host, or a user name or password (every page would publish them).

    Returns:
        ``(parts, None)``, or ``(None, a short reason)``.
    """
    if not isinstance(url, str):
        return None, "not text"
    bad = _UNSAFE.search(url)
    if bad:
        return None, f"it holds {bad.group()!r}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        return None, str(exc)
    if parts.scheme not in schemes:
        return None, f"not {', '.join(schemes[:-1])} or {schemes[-1]}"
    if parts.scheme in ("http", "https"):
        if not parts.hostname:
            return None, "no host"
        if parts.username is not None or parts.password is not None:
            return None, "a user name or password, which every page would publish"
    return parts, None


def site_url_problem(url: object) -> str | None:
    """What is wrong with a ``site_url`` value, or ``None`` when it is an absolute
    ``http``/``https`` address of a folder: a host, no user name or password (every
    page would publish them), no query or fragment (page paths are appended to it), no
    whitespace, control characters, quotes or angle brackets.

    Returns:
        a short reason (e.g. ``"no host"``), or ``None``.
    """
    parts, problem = _web_address(url, ("http", "https"))
    if parts is None:
        return problem
    if parts.query or parts.fragment or str(url).endswith(("?", "#")):
        return "a query or fragment, where page paths are appended"
    return None


def link_problem(url: object) -> str | None:
    """What is wrong with a footer link's ``url``, or ``None`` when it is an absolute
    ``http``/``https`` address with a host and no user name or password, or a
    ``mailto:`` address, with no whitespace, control characters, quotes or angle
    brackets.

    Returns:
        a short reason, or ``None``.
    """
    parts, problem = _web_address(url, ("http", "https", "mailto"))
    if parts is None:
        return problem
    return "no address after mailto:" if parts.scheme == "mailto" and not parts.path \
        else None
