"""The "page not found" pages and printing in a real browser (the fixtures of
:mod:`tests.test_browser`: Debian's Chromium through Selenium).

A web host shows a site's ``404.html`` at any missing address, at any depth (GitHub Pages
its root ``404.html``; ``rules-site serve`` the locale's ``<lang>/404.html``, else the
root one): :class:`_Host` does the same, for a site at a domain's root and one under a
sub-path (``site_url``). The page must be styled and every link on it must resolve.

The print test prints the Czech rules page to A4 through the DevTools protocol
(``Page.printToPDF``) and counts the PDF's pages.
"""

from __future__ import annotations

import base64
import functools
import http.server
import io
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag
from urllib.parse import urlsplit

import pytest

from tests.conftest import run_cli
from tests.test_browser import browser  # noqa: F401  (a fixture)
from tests.test_browser import site  # noqa: F401  (a fixture)

pytestmark = pytest.mark.browser

MISSING = ("en/rules/missing", "xx/yy/zz", "cs/rules/old-page/", "en/nope")
"""Missing addresses below the site's root: deep in a locale, deep outside any, one
folder down."""


class _Host(http.server.SimpleHTTPRequestHandler):
    """A static host of the folder ``directory`` at the path ``prefix``: a missing file
    is answered, status 404, with the locale's ``<lang>/404.html`` (the first folder of
    the address, as ``rules-site serve`` does), else the root ``404.html`` (as GitHub
    Pages does)."""

    prefix = "/"

    def __init__(self, *args: Any, directory: str, prefix: str, **kwargs: Any) -> None:
        self.prefix = prefix
        super().__init__(*args, directory=directory, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        path = urlsplit(self.path).path
        if not path.startswith(self.prefix):
            return self._not_found(None)
        rel = path[len(self.prefix):]
        self.path = "/" + rel
        target = Path(self.translate_path(self.path))
        if target.is_dir() and not (target / "index.html").is_file():
            return self._not_found(rel)
        if not target.exists():
            return self._not_found(rel)
        return super().send_head()

    def _not_found(self, rel: str | None) -> Any:
        root = Path(self.directory)
        first = (rel or "").split("/", 1)[0]
        page = root / first / "404.html" if first else root / "404.html"
        if not page.is_file():
            page = root / "404.html"
        data = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser that drops a connection (a page left while loading) is no error


def _serve(folder: Path, prefix: str) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Host, directory=str(folder), prefix=prefix)
    httpd = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"


@pytest.fixture(scope="module")
def host(site: Path) -> Iterator[str]:  # noqa: F811
    """The site under test served at the root of 127.0.0.1:PORT: its base URL."""
    httpd, base = _serve(site, "/")
    try:
        yield base
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def sub_path_host(lean_project: Path) -> Iterator[str]:
    """The lean project built with a ``site_url`` under ``/games/rules/`` and served
    there: its base URL."""
    (lean_project / "site.yaml").write_text(
        "site_url: https://rules.example.org/games/rules/\n", "utf-8")
    result = run_cli("build", "--project", str(lean_project))
    assert result.returncode == 0, result.stdout + result.stderr
    httpd, base = _serve(lean_project / "site", "/games/rules/")
    try:
        yield base
    finally:
        httpd.shutdown()
        httpd.server_close()


STYLED_JS = """
const sheets = [...document.styleSheets].filter((s) => s.href && s.href.endsWith(
  "/static/style.css"));
let rules = 0;
for (const s of sheets) { try { rules += s.cssRules.length; } catch (e) { rules = -1; } }
const header = document.querySelector(".site-header");  /* the root page: its body */
const painted = header || document.querySelector("body.root-page");
return {rules: rules, header: painted ? getComputedStyle(painted).backgroundImage
          + " " + getComputedStyle(painted).backgroundColor : null,
        font: getComputedStyle(document.body).fontFamily,
        links: [...document.querySelectorAll("a[href], link[href]")].map((a) => a.href)
          .concat([...document.querySelectorAll("script[src], img[src]")].map((s) => s.src)),
        ids: [...document.querySelectorAll("[id]")].map((e) => e.id)};
"""


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def _check_not_found(driver: Any, base: str) -> list[str]:
    """What is wrong with the 404 page at each of :data:`MISSING` below ``base``."""
    problems = []
    for missing in MISSING:
        url = base + missing
        assert _status(url) == 404, url
        driver.get(url)
        seen = driver.execute_script(STYLED_JS)
        if seen["rules"] <= 0:
            problems.append(f"{missing}: the stylesheet is not applied ({seen['rules']})")
        if seen["header"] in (None, "none rgba(0, 0, 0, 0)"):
            problems.append(f"{missing}: the header has no background ({seen['header']})")
        for link in seen["links"]:
            target, fragment = urldefrag(link)
            if target == url:  # a link within the page
                if fragment not in seen["ids"]:
                    problems.append(f"{missing}: #{fragment} names no element")
            elif not target.startswith(base):
                problems.append(f"{missing}: {link} leaves the site")
            elif (status := _status(target)) != 200:
                problems.append(f"{missing}: {link} answers {status}")
    return problems


def test_not_found_pages_work_at_any_depth(browser: Any, host: str) -> None:  # noqa: F811
    """At a missing address one folder down and deeper, the page is styled (its
    stylesheet's rules loaded, the header painted) and every link resolves."""
    assert _check_not_found(browser, host) == []


def test_not_found_pages_work_under_a_sub_path(browser: Any,  # noqa: F811
                                               sub_path_host: str) -> None:
    """The same for a site published under a sub-path (``site_url``'s path)."""
    assert _check_not_found(browser, sub_path_host) == []


# -- print -----------------------------------------------------------------------------

A4 = {"paperWidth": 8.27, "paperHeight": 11.69}
"""A4 in inches, the other settings Chromium's defaults (its margins, no background)."""
MAX_PAGES = 23
"""The most A4 pages the Czech rules page prints to."""
LEFT_OUT = (".site-nav", ".lang-switch", ".site-search", ".search-toggle", ".toc",
            ".case__link", ".to-top", ".skip-link", ".pager")
"""What print leaves out: the navigation, the languages, search, the contents, copy-link
and back-to-top controls."""

PRINTED_JS = """
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
const card = document.querySelector(".cases .card");
const style = getComputedStyle(card);
return {shown: arguments[0].filter((s) => [...document.querySelectorAll(s)].some(shown)),
        card: [style.display, style.borderTopStyle, style.backgroundColor, style.boxShadow],
        text: card.innerText.replace(/\\s+/g, ""), label: card.getAttribute("aria-label"),
        captions: [...document.querySelectorAll("table caption")]
          .map((c) => c.innerText.replace(/\\s+/g, " ").trim()).filter((t) => t)};
"""


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _orphaned_captions(pages: list[str], captions: list[str]) -> list[int]:
    """The pages (from 1) whose text ends with a table's caption: its table starts on the
    next page."""
    ends = {_squeezed(c)[-30:] for c in captions}
    return [n for n, text in enumerate(pages[:-1], start=1)
            if any(_squeezed(text).endswith(end) for end in ends)]


def test_cs_rules_prints_on_few_pages_captions_with_their_tables(
        browser: Any, host: str) -> None:  # noqa: F811
    """The Czech rules page printed to A4: at most :data:`MAX_PAGES` pages, no page ends
    with a caption whose table starts on the next, the screen's controls left out, the
    cards printed as text ("Q♥", no tile)."""
    pypdf = pytest.importorskip("pypdf")
    browser.get(host + "cs/rules/index.html")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        seen = browser.execute_script(PRINTED_JS, list(LEFT_OUT))
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", A4)["data"])
    pages = [page.extract_text() or "" for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    orphaned = _orphaned_captions(pages, seen["captions"])
    assert len(pages) <= MAX_PAGES and not orphaned, (len(pages), orphaned)
    assert seen["shown"] == []
    assert seen["card"] == ["inline", "none", "rgba(0, 0, 0, 0)", "none"]
    assert re.fullmatch(r"(10|[2-9AJQK])[♠♥♦♣]|JK★", seen["text"]), seen
