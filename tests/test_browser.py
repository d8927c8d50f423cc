"""The built site in a real browser: Debian's Chromium driven through
Selenium and chromium-driver, the site served over HTTP on 127.0.0.1 from a thread.

Not in the default run: ``python3 -m pytest -m browser -n 0`` (one browser for the whole
run; with xdist each worker starts its own). ``.ci/run`` installs Chromium, its driver
and axe-core (``npm install --prefix .ci axe-core``) and runs them. Without Chromium,
its driver, Selenium or axe-core the tests are skipped, saying which is missing; with
``RULES_BROWSER_REQUIRED=1`` (as ``.ci/run`` sets) they fail instead.

Every page of every locale (the locale's home and its content pages) is loaded once and
looked at in each of :data:`WIDTHS`, the window resized through the DevTools protocol:
no element is clipped or spills out (:data:`CLIPPED_JS` says exactly what counts), and
axe-core finds no violation. Then the language switcher, the search, the copy-link
control, the page without JavaScript and from ``file://``. Screenshots of the content
pages at :data:`SHOT_WIDTHS` (in :data:`SHOT_LOCALES`) go to ``RULES_SHOTS`` (default:
a folder in pytest's temporary folder), with ``report.json``, what was found per page
and width; the run prints the folder's path.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from tests.conftest import REPO

pytestmark = pytest.mark.browser

WIDTHS = (320, 390, 768, 1024, 1280)
"""Viewport widths in CSS pixels: small and common phones, a tablet upright and lying, a
laptop."""
AXE_WIDTHS = (320, 768, 1280)
"""The widths axe-core runs at: one in each layout of the theme's breakpoints (a phone:
cases stacked, the contents a menu; a tablet: cases in columns, the menu; a desktop: the
contents beside the article). axe takes 1-3 s a run on a rules page, most of the test's
time; the clipping check, cheap, runs at every one of WIDTHS."""
HEIGHT = 800
SHOT_WIDTHS = (390, 1280)
"""The screenshots' widths: a phone, a desktop."""
SHOT_LOCALES = os.environ.get("RULES_SHOTS_LOCALES", "en cs").split()
"""The locales whose content pages are shot (``RULES_SHOTS_LOCALES``, words; ``all``:
every locale): a full-page shot of the longest page takes seconds."""
CHROMIUM = Path(os.environ.get("RULES_CHROMIUM", "/usr/bin/chromium"))
DRIVER = Path(os.environ.get("RULES_CHROMEDRIVER", shutil.which("chromedriver")
                             or "/usr/bin/chromedriver"))
AXE = Path(os.environ.get("RULES_AXE", REPO / ".ci" / "node_modules" / "axe-core"
                          / "axe.min.js"))
REQUIRED = os.environ.get("RULES_BROWSER_REQUIRED") == "1"
SITE = os.environ.get("RULES_BROWSER_SITE")
"""A site built before (its folder) to test instead of the repository's, built here:
``RULES_BROWSER_SITE=/tmp/old-site`` counts what an older version clips."""
SCROLLS_BY_DESIGN: tuple[str, ...] = (".site-nav ul",)
"""Selectors of containers meant to scroll sideways, whose hidden part is not counted as
clipped: the pages' strip, one row on phones that scrolls (its ends fade; the current
page is scrolled into view)."""

CLIPPED_JS = r"""
// What is clipped or spills out at the current width. An element counts when it is
// rendered (it has a box wider and taller than 1 px, and no clipping ancestor of 1 px or
// less: visually hidden text, such as a screen reader's table head, is not shown) and
//  - "clipped": its box reaches more than 1 px past the visible box (the padding box,
//    left + clientLeft + clientWidth) of its nearest ancestor whose overflow-x is not
//    visible (a scroll container or a clip: what is past its edge is hidden or must be
//    scrolled to), or past the viewport when none is; or
//  - "spills": it is a box (not inline) whose overflow-x is visible and whose content
//    is wider than it (scrollWidth > clientWidth + 1): something sticks out of it.
// Only the outermost of nested findings counts (a clipped table, not each of its cells
// again); inside the containers of SCROLLS_BY_DESIGN nothing counts; and the page
// scrolling sideways is a finding of its own.
const exempt = arguments[0];
const view = document.documentElement.clientWidth;
const found = [];
const flagged = new Set();
const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
  (typeof el.className === "string" && el.className.trim()
    ? "." + el.className.trim().split(/\s+/).join(".") : "");
const path = (el) => {
  const parts = [];
  for (let p = el; p && p !== document.body && parts.length < 4; p = p.parentElement) {
    parts.unshift(name(p));
  }
  return parts.join(" > ");
};
const box = (el) => {
  for (let p = el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
    if (p !== document.body && getComputedStyle(p).overflowX !== "visible") {
      const r = p.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return null;  // visually hidden: not shown
      return [p, r.left + p.clientLeft, r.left + p.clientLeft + p.clientWidth];
    }
  }
  return [null, 0, view];
};
const inFlagged = (el) => {
  for (let p = el.parentElement; p; p = p.parentElement) {
    if (flagged.has(p)) return true;
  }
  return false;
};
const scroller = document.scrollingElement;
if (scroller.scrollWidth > scroller.clientWidth + 1) {
  found.push({kind: "page", what: "html", by: scroller.scrollWidth - scroller.clientWidth});
}
for (const el of document.body.querySelectorAll("*")) {
  if (exempt.some((s) => el.closest(s))) continue;
  const style = getComputedStyle(el);
  if (style.visibility === "hidden" || style.display === "none") continue;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) continue;
  if (inFlagged(el)) continue;
  const clip = box(el);
  if (clip === null) continue;
  const [container, left, right] = clip;
  const by = Math.max(r.right - right, left - r.left);
  if (by > 1) {
    flagged.add(el);
    found.push({kind: "clipped", what: path(el), by: Math.round(by),
                within: container ? path(container) : "viewport"});
    continue;
  }
  if (style.display !== "inline" && style.display !== "contents" &&
      style.overflowX === "visible" && el.scrollWidth > el.clientWidth + 1 &&
      el.clientWidth > 0) {
    flagged.add(el);
    found.push({kind: "spills", what: path(el), by: el.scrollWidth - el.clientWidth});
  }
}
return found;
"""

AXE_JS = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))),
  (e) => done([{id: "axe-error", impact: "error", nodes: 0, targets: [String(e)]}]));
"""


def _missing() -> str | None:
    """What the browser tests lack on this machine, said plainly, or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (pip install -e '.[test]')"
    if not CHROMIUM.is_file():
        return (f"Chromium is not installed at {CHROMIUM} (apt-get install chromium "
                "chromium-driver; .ci/run does; RULES_CHROMIUM names another)")
    if not DRIVER.is_file():
        return (f"chromium-driver is not installed at {DRIVER} (apt-get install "
                "chromium-driver; RULES_CHROMEDRIVER names another)")
    return None


def _skip(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"RULES_BROWSER_REQUIRED=1 but {why}")
    pytest.skip(why)


# -- the site, served ----------------------------------------------------------------------

class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(request: pytest.FixtureRequest) -> Path:
    """The site under test: ``RULES_BROWSER_SITE``, or the repository's project built
    once (the ``built_site`` fixture)."""
    if SITE:
        return Path(SITE)
    built: Path = request.getfixturevalue("built_site")
    return built


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``folder`` served over HTTP on 127.0.0.1 from a thread while the block runs: its
    base URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """The site served over HTTP on 127.0.0.1 from a thread: its base URL."""
    with serving(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module (a fresh profile, no network of its own)."""
    why = _missing()
    if why:
        _skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rules-chromium-")
    options = Options()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}", f"--window-size={WIDTHS[-1]},{HEIGHT}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    driver.set_script_timeout(120)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script (from npm)."""
    if not AXE.is_file():
        _skip(f"axe-core is not installed at {AXE} (npm install --prefix .ci axe-core; "
              ".ci/run does; RULES_AXE names another file)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory,
          request: pytest.FixtureRequest) -> Iterator[Path]:
    """The folder for screenshots and ``report.json``: ``RULES_SHOTS`` or one in pytest's
    temporary folder; its path is printed at the end of the run."""
    named = os.environ.get("RULES_SHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("browser-shots")
    folder.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {}
    request.config.stash[_REPORT] = report
    yield folder
    (folder / "report.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n",
                                        encoding="utf-8")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    line = f"browser tests: screenshots and report.json in {folder}"
    if reporter is not None:
        reporter.write_line(line)
    else:  # pragma: no cover - without a terminal
        print(line)


_REPORT = pytest.StashKey[dict[str, Any]]()


def _site_pages() -> list[tuple[str, str]]:
    """(locale, slug) of every page of the site: each locale's home (slug ``""``) and its
    content pages, from the repository's content and catalogs."""
    slugs = sorted(p.stem for p in (REPO / "content").glob("*.md"))
    langs = ["en", *sorted(p.name for p in (REPO / "locales").iterdir()
                           if (p / "LC_MESSAGES" / "messages.po").is_file() and p.name != "en")]
    return [(lang, slug) for lang in langs for slug in ["", *slugs]]


PAGES = _site_pages()
CONTENT_SLUGS = sorted({slug for _, slug in PAGES if slug})


def _url(lang: str, slug: str) -> str:
    return f"{lang}/{slug}/index.html" if slug else f"{lang}/index.html"


def _width(driver: Any, width: int, height: int = HEIGHT) -> None:
    """Lay the page out at ``width`` CSS pixels (the viewport, not the window)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_async_script(  # two frames: the new layout is done and painted
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")


def _wait(condition: Callable[[], Any], seconds: float = 10.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def _shot(driver: Any, path: Path) -> None:
    """A screenshot of the whole page (beyond the viewport) as PNG."""
    data = driver.execute_cdp_cmd("Page.captureScreenshot",
                                  {"format": "png", "captureBeyondViewport": True})
    path.write_bytes(base64.b64decode(data["data"]))


# -- every page at every width -----------------------------------------------------------

def _fit_and_axe(browser: Any, url: str, axe_source: str, widths: tuple[int, ...],
                 axe_widths: tuple[int, ...],
                 shoot: Callable[[int], Path | None] = lambda width: None,
                 ) -> tuple[dict[str, Any], list[str]]:
    """Load ``url`` and look at it at each of ``widths``: what CLIPPED_JS finds, and at
    each of ``axe_widths`` axe-core's violations; a screenshot where ``shoot`` names a
    file for the width. Returns what was found per width (for ``report.json``) and the
    problems, one line each; the window is left at the widest of WIDTHS."""
    browser.get(url)
    browser.execute_script(axe_source)
    report: dict[str, Any] = {}
    problems = []
    try:
        for width in widths:
            _width(browser, width)
            clipped = browser.execute_script(CLIPPED_JS, list(SCROLLS_BY_DESIGN))
            violations = (browser.execute_async_script(AXE_JS) if width in axe_widths
                          else [])
            report[str(width)] = {"clipped": clipped, "axe": violations}
            problems += [f"{width}px: {c['kind']} {c['what']} by {c['by']} px"
                         + (f" in {c['within']}" if c.get("within") else "") for c in clipped]
            problems += [f"{width}px: axe {v['id']} ({v['impact']}) on {v['nodes']} node(s): "
                         + "; ".join(v["targets"]) for v in violations]
            shot = shoot(width)
            if shot is not None:
                _shot(browser, shot)
    finally:
        _width(browser, WIDTHS[-1])
    return report, problems


@pytest.mark.parametrize(("lang", "slug"), PAGES,
                         ids=[f"{lang}-{slug or 'home'}" for lang, slug in PAGES])
def test_page_fits_and_axe_finds_nothing(browser: Any, server: str, axe_source: str,
                                         shots: Path, request: pytest.FixtureRequest,
                                         lang: str, slug: str) -> None:
    """At each of WIDTHS no element of the page is clipped or spills out (CLIPPED_JS),
    at each of AXE_WIDTHS axe-core reports no violation; the content pages are shot at
    SHOT_WIDTHS."""
    shot_lang = lang in SHOT_LOCALES or "all" in SHOT_LOCALES
    report, problems = _fit_and_axe(
        browser, server + _url(lang, slug), axe_source, WIDTHS, AXE_WIDTHS,
        lambda width: (shots / f"{lang}-{slug}-{width}.png"
                       if slug and shot_lang and width in SHOT_WIDTHS else None))
    request.config.stash[_REPORT].setdefault(_url(lang, slug), {}).update(report)
    assert not problems, f"{_url(lang, slug)}:\n" + "\n".join(problems[:40])


SWEEP_WIDTHS = (320, 375, 414, 768, 1024, 1280, 1440, 1920)
"""The extended round's widths: small, common and large phones, a tablet upright and
lying, a laptop, a wide and a full-HD desktop."""


SWEEP_AXE_EVERYWHERE = os.environ.get("RULES_SWEEP_AXE") == "all"
"""``RULES_SWEEP_AXE=all``: the sweep runs axe-core at every width of every page (296
runs, about 5 minutes on 2 processors); by default, at one width of each page."""


def _sweep_axe_widths(index: int) -> tuple[int, ...]:
    """The width the sweep runs axe-core at on its ``index``-th page: the widths the
    default round's axe does not look at, in turn, so that each is looked at on a few
    pages of every kind (axe takes 1-3 s a run, the clipping check milliseconds)."""
    others = [width for width in SWEEP_WIDTHS if width not in AXE_WIDTHS]
    return (others[index % len(others)],)


def _every_html_page(site: Path) -> list[str]:
    """Every HTML page of the built ``site``, as paths from its root: each locale's home,
    content pages and "page not found" page, and the root's."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


@pytest.mark.extended
def test_every_page_fits_and_axe_finds_nothing_at_every_width(
        browser: Any, server: str, site: Path, axe_source: str, shots: Path,
        request: pytest.FixtureRequest) -> None:
    """Every HTML page of the site (every locale's pages, the "page not found" pages,
    the root's page) at each of SWEEP_WIDTHS: nothing is clipped or spills out
    (CLIPPED_JS), and axe-core reports no violation at the width it runs at
    (:func:`_sweep_axe_widths`; every width with ``RULES_SWEEP_AXE=all``). The default
    round samples: its pages at WIDTHS, axe at AXE_WIDTHS. What was found per page and width
    goes to ``report.json`` under ``sweep``, with the counts."""
    pages = _every_html_page(site)
    assert len(pages) >= len(PAGES), pages
    sweep: dict[str, Any] = {}
    problems = []
    axe_runs = 0
    began = time.monotonic()
    for index, page in enumerate(pages):
        axe_widths = SWEEP_WIDTHS if SWEEP_AXE_EVERYWHERE else _sweep_axe_widths(index)
        report, found = _fit_and_axe(browser, server + page, axe_source, SWEEP_WIDTHS,
                                     axe_widths)
        axe_runs += len(axe_widths)
        sweep[page] = report
        problems += [f"{page} {line}" for line in found]
    counts = {
        "pages": len(pages), "widths": list(SWEEP_WIDTHS),
        "page_widths": len(pages) * len(SWEEP_WIDTHS),
        "overflowing_page_widths": sum(bool(at["clipped"]) for report in sweep.values()
                                       for at in report.values()),
        "axe_runs": axe_runs,
        "axe_violations": sum(len(at["axe"]) for report in sweep.values()
                              for at in report.values()),
        "seconds": round(time.monotonic() - began, 1)}
    request.config.stash[_REPORT]["sweep"] = {"counts": counts, "pages": sweep}
    assert not problems, f"{counts}\n" + "\n".join(problems[:80])


# -- the language switcher -------------------------------------------------------------

def test_language_switcher_keeps_page_and_anchor(browser: Any, server: str,
                                                 site: Path) -> None:
    """From a heading's and from a case row's #anchor, the switcher's link to another
    locale leads to the same page there, at the same anchor."""
    from selenium.webdriver.common.by import By

    html = (site / "en" / "first-meld" / "index.html").read_text(encoding="utf-8")
    soup = BeautifulSoup(html, "html.parser")
    heading = soup.select_one("article h2[id]")
    row = soup.select_one("article tr[id]")
    assert heading is not None and row is not None
    for start, to, anchor in (("en", "cs", heading["id"]), ("cs", "de", row["id"])):
        browser.get(f"{server}{start}/first-meld/index.html#{anchor}")
        browser.find_element(By.CSS_SELECTOR, f'.lang-switch a[hreflang="{to}"]').click()
        want = f"{server}{to}/first-meld/index.html#{anchor}"
        assert _wait(lambda want=want: browser.current_url == want), \
            f"{start} → {to}: {browser.current_url}, expected {want}"
        assert browser.execute_script("return document.documentElement.lang") == to


# -- search ----------------------------------------------------------------------------

def _rare_title_word(site: Path, lang: str) -> tuple[str, str, str]:
    """A case of ``lang``'s pages and a word of its title found least often in the
    locale's pages: (the word, the page's slug, the case's id)."""
    texts = {slug: BeautifulSoup((site / lang / slug / "index.html").read_text(
        encoding="utf-8"), "html.parser") for slug in CONTENT_SLUGS}
    words = re.findall(r"\w+", " ".join(
        s.select_one("article").get_text(" ") for s in texts.values()).lower())
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    best: tuple[int, str, str, str] | None = None
    for slug, soup in sorted(texts.items()):
        for row in soup.select("article tr[id]"):
            title = row.select_one(".case__name")
            if title is None:
                continue
            for word in re.findall(r"[^\W\d_]{5,}", title.get_text().lower()):
                key = (counts.get(word, 0), word, slug, str(row["id"]))
                if best is None or key < best:
                    best = key
    assert best is not None, f"{lang}: no case titles found"
    return best[1], best[2], best[3]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_search_finds_a_case_by_a_word_of_its_title(browser: Any, server: str,
                                                    site: Path, lang: str) -> None:
    """Nothing of the search loads before the box is focused; typed into it, a word of a
    case's title finds that case: a result links to its page at its #id."""
    from selenium.webdriver.common.by import By

    word, slug, case_id = _rare_title_word(site, lang)
    browser.get(f"{server}{lang}/index.html")
    loaded = "return performance.getEntriesByType('resource').map((e) => e.name)"
    before = [n for n in browser.execute_script(loaded) if "search" in n or "pagefind" in n]
    assert before == [], f"loaded before the box was focused: {before}"
    box = browser.find_element(By.CSS_SELECTOR, "form.site-search input[type=search]")
    box.click()
    box.send_keys(word)
    want = f"{server}{lang}/{slug}/index.html#{case_id}"

    def links() -> list[str]:
        return [a.get_attribute("href") for a in
                browser.find_elements(By.CSS_SELECTOR, ".site-search__results a")]

    found = _wait(lambda: want in links(), 15)
    assert found, f"searching {word!r} in {lang}: {links()[:12]}, expected {want}"
    after = [n for n in browser.execute_script(loaded) if "pagefind" in n]
    assert any(n.endswith(f"/{lang}/pagefind/pagefind.js") for n in after), after
    # the panel fits the narrowest width
    _width(browser, WIDTHS[0])
    panel = browser.find_element(By.CSS_SELECTOR, ".site-search__panel")
    right = browser.execute_script("return arguments[0].getBoundingClientRect().right", panel)
    assert right <= WIDTHS[0], f"the results reach {right} px at {WIDTHS[0]} px"
    _width(browser, WIDTHS[-1])


JOKER = {"en": "joker", "cs": "žolík", "sk": "žolík", "et": "jokker", "de": "Joker",
         "pl": "joker", "hu": "dzsóker"}
"""Each locale's word for the joker (its catalog's glossary)."""


def _search(browser: Any, word: str) -> Any:
    """Type ``word`` into the page's search box (emptied first)."""
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.CSS_SELECTOR, "form.site-search input[type=search]")
    box.click()
    box.clear()
    box.send_keys(word)
    return box


def _status(browser: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.CSS_SELECTOR, ".site-search__status").text)


def _result_links(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [a.get_attribute("href") for a in
            browser.find_elements(By.CSS_SELECTOR, ".site-search__results a")]


@pytest.mark.parametrize("lang", sorted(JOKER))
def test_search_finds_words_not_card_codes(browser: Any, server: str, lang: str) -> None:
    """A word the pages do not hold finds nothing, whatever letter it starts with (the
    card codes J♥, Q♥, K♥, A♥ are not in the index), and says so in the locale's words;
    the locale's word for the joker finds the rules page's section on it. Where the
    locale's word is another, "joker" finds nothing. A section's heading is shown once
    in its excerpt."""
    from selenium.webdriver.common.by import By

    browser.get(f"{server}{lang}/rules/index.html")
    form = browser.find_element(By.CSS_SELECTOR, "form.site-search")
    nonsense = ["abracadabra", "qwerty", "kxyzzy", "jelly"]
    if JOKER[lang].lower() != "joker":
        nonsense.append("joker")
    for word in nonsense:
        _search(browser, word)
        none = str(form.get_attribute("data-none")).replace("{query}", word)
        said = _wait(lambda none=none: _status(browser) == none, 15)
        assert said, f"{lang} {word!r}: {_status(browser)!r}, {_result_links(browser)[:6]}"
        assert _result_links(browser) == []
    _search(browser, JOKER[lang])
    want = f"{server}{lang}/rules/index.html#the-joker"
    found = _wait(lambda: want in _result_links(browser), 15)
    assert found, f"{lang} {JOKER[lang]!r}: {_result_links(browser)[:12]}, expected {want}"
    # the section's excerpt is its first paragraph's start: the heading is not repeated
    excerpt = browser.execute_script(
        "return [...document.querySelectorAll('.site-search__place')].find((a) => a.href"
        " === arguments[0]).querySelector('.site-search__excerpt').textContent", want)
    paragraph = browser.execute_script(
        "return document.querySelector('#the-joker').nextElementSibling.textContent")
    assert excerpt.split()[:5] == paragraph.split()[:5], (lang, excerpt, paragraph)


def test_search_from_the_keyboard(browser: Any, server: str) -> None:
    """"/" goes to the search box; the number of results is said in the live region;
    the arrow keys move from the box into the results and back; Enter opens the top
    hit."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(f"{server}cs/index.html")
    box = browser.find_element(By.CSS_SELECTOR, "form.site-search input[type=search]")
    ActionChains(browser).send_keys("/").perform()
    assert browser.switch_to.active_element == box
    assert box.get_attribute("value") == ""
    box.send_keys("žolík")
    _wait(lambda: browser.find_elements(By.CSS_SELECTOR, ".site-search__page"), 15)
    pages = browser.find_elements(By.CSS_SELECTOR, ".site-search__page")
    status = browser.find_element(By.CSS_SELECTOR, ".site-search__status")
    assert status.get_attribute("aria-live") == "polite"
    # cs: 1 výsledek, 2-4 výsledky, 0 and 5+ výsledků
    forms = {1: "výsledek", 2: "výsledky", 3: "výsledky", 4: "výsledky"}
    assert _status(browser) == f"{len(pages)} {forms.get(len(pages), 'výsledků')}"
    links = browser.find_elements(By.CSS_SELECTOR, ".site-search__results a")
    assert len(links) >= 2
    box.send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element == links[0]
    ActionChains(browser).send_keys(Keys.ARROW_DOWN).perform()
    assert browser.switch_to.active_element == links[1]
    ActionChains(browser).send_keys(Keys.ARROW_UP, Keys.ARROW_UP).perform()
    assert browser.switch_to.active_element == box
    top = links[0].get_attribute("href")
    box.send_keys(Keys.ENTER)
    assert _wait(lambda: browser.current_url == top, 10), (browser.current_url, top)
    # "/" typed in the box is a character, not the shortcut
    box = browser.find_element(By.CSS_SELECTOR, "form.site-search input[type=search]")
    box.click()
    box.send_keys("a/b")
    assert box.get_attribute("value") == "a/b"


def test_search_from_a_file_says_it_needs_a_server(browser: Any, site: Path) -> None:
    """Opened from disk, the focused search box says (in the page's language, from the
    catalog) that search needs the site served, and names a command."""
    from selenium.webdriver.common.by import By

    browser.get((site / "cs" / "rules" / "index.html").as_uri())
    form = browser.find_element(By.CSS_SELECTOR, "form.site-search")
    form.find_element(By.CSS_SELECTOR, "input").click()
    status = browser.find_element(By.CSS_SELECTOR, ".site-search__status")
    assert _wait(lambda: status.text)
    assert status.text == form.get_attribute("data-file")
    assert "rules-site serve" in status.text
    assert status.text.startswith("Vyhledávání")  # Czech, not the English msgid


def test_without_javascript_the_page_reads(browser: Any, server: str) -> None:
    """With scripts disabled there is no search box (it could not work) and the page's
    text, tables and links are all there."""
    from selenium.webdriver.common.by import By

    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        browser.get(f"{server}en/rules/index.html")
        assert not browser.find_element(By.CSS_SELECTOR, "form.site-search").is_displayed()
        article = browser.find_element(By.CSS_SELECTOR, "article")
        assert article.find_element(By.CSS_SELECTOR, "h1").text
        assert len(article.find_elements(By.CSS_SELECTOR, "tr[id]")) > 10
        assert browser.find_element(By.CSS_SELECTOR, '.lang-switch a[hreflang="cs"]') \
            .get_attribute("href").endswith("/cs/rules/index.html")
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


# -- the copy-link control ---------------------------------------------------------------

def test_copy_link_yields_the_rows_url(browser: Any, server: str) -> None:
    """The copy-link control of a case row puts the row's URL (the page's, with the row's
    #id) on the clipboard, and links to it."""
    from selenium.webdriver.common.by import By

    page = f"{server}en/first-meld/index.html"
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.rstrip("/"),
        "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.get(page)
    rows = browser.find_elements(By.CSS_SELECTOR, "article tr[id]")
    assert rows
    row = rows[len(rows) // 2]
    row_id = row.get_attribute("id")
    controls = row.find_elements(By.CSS_SELECTOR, "[data-copy-link]")
    assert controls, f"row #{row_id} has no copy-link control ([data-copy-link])"
    control = controls[0]
    assert control.get_attribute("href") == f"{page}#{row_id}"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", control)
    browser.execute_script("arguments[0].focus()", control)
    control.click()
    copied = browser.execute_async_script(
        "const done = arguments[0];"
        "navigator.clipboard.readText().then(done, (e) => done('error: ' + e));")
    assert copied == f"{page}#{row_id}"


# -- where an #anchor lands --------------------------------------------------------------

LAND_WIDTHS = (375, 768, 1024, 1440)
"""The widths an #anchor's landing is checked at: a phone, a tablet (the sticky menu on
top), the narrowest and a wide desktop (the contents beside the article)."""
LAND_LOCALES = ("en", "hu")
"""The locales sampled: English, and Hungarian, whose long words turn the most tables
into cards."""

LANDED_JS = """
// Where the element with the id arguments[0] is, against the sticky menu's bottom edge
// (0 where the menu is not shown): CSS pixels from the viewport's top.
const row = document.getElementById(arguments[0]);
const bar = document.querySelector(".toc--mobile");
const shown = bar && getComputedStyle(bar).display !== "none";
return {top: row.getBoundingClientRect().top, bottom: row.getBoundingClientRect().bottom,
        bar: shown ? bar.getBoundingClientRect().bottom : 0, height: innerHeight,
        stacked: !!row.closest(".is-stacked")};
"""


def _rows_by_kind(site: Path, lang: str, every: bool) -> list[tuple[str, str]]:
    """(slug, row id) of example rows of ``lang``'s pages: the first and last row of each
    case kind's tables (``every``: all rows)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for slug in CONTENT_SLUGS:
        soup = BeautifulSoup((site / lang / slug / "index.html").read_text(encoding="utf-8"),
                             "html.parser")
        for table in soup.select("article table.cases"):
            kind = next(c for c in table["class"] if c.startswith("cases--"))
            found.setdefault(kind, []).extend(
                (slug, str(row["id"])) for row in table.select("tr[id]"))
    picked = []
    for rows in found.values():
        picked += rows if every else sorted({rows[0], rows[-1]}, key=rows.index)
    return picked


def _arrive(browser: Any, url: str) -> None:
    """Open ``url`` as a new arrival (not a jump within the page) and wait until the page
    has loaded and its script has laid the tables out."""
    browser.get("about:blank")
    browser.get(url)
    _wait(lambda: browser.execute_script("return document.readyState") == "complete")
    browser.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));")


def _switch_language(browser: Any, lang: str) -> None:
    """Click the shown link to ``lang`` in the header: a pill, or on phones the link in
    the languages' menu, opened first."""
    from selenium.webdriver.common.by import By

    shown = [a for a in browser.find_elements(By.CSS_SELECTOR,
                                              f'.lang-switch a[hreflang="{lang}"]')
             if a.is_displayed()]
    if not shown:
        browser.find_element(By.CSS_SELECTOR, ".lang-switch--menu summary").click()
        shown = [a for a in browser.find_elements(By.CSS_SELECTOR,
                                                  f'.lang-switch a[hreflang="{lang}"]')
                 if a.is_displayed()]
    assert shown, f"no link to {lang} shown"
    shown[0].click()


def _landing_problem(browser: Any, where: str, row_id: str) -> str | None:
    at = browser.execute_script(LANDED_JS, row_id)
    if at["top"] < at["bar"] - 0.5 or at["top"] >= at["height"]:
        return (f"{where}: #{row_id} lands at {at['top']:.0f} px, the sticky menu ends at "
                f"{at['bar']:.0f} px, the screen at {at['height']} px"
                + (" (as cards)" if at["stacked"] else ""))
    return None


@pytest.mark.parametrize("lang", LAND_LOCALES)
def test_example_anchor_lands_below_the_sticky_menu(browser: Any, server: str, site: Path,
                                                    lang: str) -> None:
    """Arriving at a page by a link to an example row (a link, a search hit: the page's
    address with the row's #id), the row's top edge is on screen below the sticky "On this
    page" menu, at each of LAND_WIDTHS, whether the row's table is shown as a table or as
    cards; and arriving through the language switcher lands the same way."""

    rows = _rows_by_kind(site, lang, every=False)
    assert len(rows) >= 18, rows
    other = "cs" if lang != "cs" else "en"
    problems = []
    try:
        for width in LAND_WIDTHS:
            _width(browser, width)
            for slug, row_id in rows:
                _arrive(browser, f"{server}{lang}/{slug}/index.html#{row_id}")
                problems.append(_landing_problem(browser, f"{lang}/{slug} {width}px", row_id))
            slug, row_id = rows[len(rows) // 2]
            _arrive(browser, f"{server}{other}/{slug}/index.html#{row_id}")
            _switch_language(browser, lang)
            _wait(lambda: browser.current_url.startswith(f"{server}{lang}/"))
            _wait(lambda: browser.execute_script("return document.readyState") == "complete")
            problems.append(_landing_problem(
                browser, f"{other} → {lang}/{slug} {width}px", row_id))
    finally:
        _width(browser, WIDTHS[-1])
    problems = [p for p in problems if p]
    assert not problems, "\n".join(problems)


SWEEP_JS = """
// Jumps to each example row of the page in turn (its #id set as the address's anchor: the
// browser scrolls at once, and reading a box lays the page out) and returns those whose
// top edge is not on screen below the sticky menu.
const rows = [...document.querySelectorAll("article table.cases tr[id]")];
const bar = document.querySelector(".toc--mobile");
const edge = bar && getComputedStyle(bar).display !== "none" ? () =>
  bar.getBoundingClientRect().bottom : () => 0;
const wrong = [];
for (const row of rows) {
  location.hash = row.id;
  const top = row.getBoundingClientRect().top;
  if (top < edge() - 0.5 || top >= innerHeight) wrong.push([row.id, top, edge()]);
}
return {count: rows.length, wrong};
"""


@pytest.mark.extended
def test_every_example_anchor_lands_below_the_sticky_menu(browser: Any, server: str) -> None:
    """Every example row of every locale, at each of LAND_WIDTHS, reached by a jump to its
    #id on its page (the sampled test arrives from outside the page)."""
    problems = []
    seen = 0
    try:
        for width in LAND_WIDTHS:
            _width(browser, width)
            for lang in sorted({lang for lang, _ in PAGES}):
                for slug in CONTENT_SLUGS:
                    _arrive(browser, f"{server}{lang}/{slug}/index.html")
                    found = browser.execute_script(SWEEP_JS)
                    seen += found["count"]
                    problems += [f"{lang}/{slug} {width}px: #{row} lands at {top:.0f} px, "
                                 f"the sticky menu ends at {edge:.0f} px"
                                 for row, top, edge in found["wrong"]]
    finally:
        _width(browser, WIDTHS[-1])
    assert seen >= 100 * len(LAND_WIDTHS) * len({lang for lang, _ in PAGES}), seen
    assert not problems, f"{len(problems)} rows:\n" + "\n".join(problems[:40])


def test_language_switcher_keeps_the_section_being_read(browser: Any, server: str) -> None:
    """A reader who stops in a section (no #anchor in the address) and scrolls back up to
    the switcher finds its links naming that section (so a new tab or a copied address
    keeps it too); following one lands there in the other language."""
    from selenium.webdriver.common.by import By

    browser.get(f"{server}en/rules/index.html")
    heads = browser.find_elements(By.CSS_SELECTOR, "article h2[id]")
    assert len(heads) > 3
    head = heads[3]
    browser.execute_script("scrollTo(0, arguments[0].getBoundingClientRect().top"
                           " + scrollY - 10)", head)
    link = browser.find_element(By.CSS_SELECTOR, '.lang-switch a[hreflang="pl"]')
    want = f"{server}pl/rules/index.html#{head.get_attribute('id')}"
    assert _wait(lambda: link.get_attribute("href") == want), link.get_attribute("href")
    browser.execute_script("scrollTo(0, 0)")
    time.sleep(0.6)  # past the pause after which the place is taken again
    assert link.get_attribute("href") == want
    link.click()
    assert _wait(lambda: browser.current_url == want), browser.current_url


CLS_JS = """
// The page's cumulative layout shift since it started loading (shifts after a reader's
// input do not count, as in Core Web Vitals), after two frames past the load event.
const done = arguments[0];
let total = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
}).observe({type: "layout-shift", buffered: true});
const settle = () => requestAnimationFrame(() => requestAnimationFrame(() =>
  setTimeout(() => done(total), 300)));
if (document.readyState === "complete") settle(); else addEventListener("load", settle);
"""


@pytest.mark.parametrize("width", [375, 1350])
def test_nothing_shifts_while_a_page_loads(browser: Any, server: str, width: int) -> None:
    """Every content page of two locales loads with a cumulative layout shift under 0.1
    (Core Web Vitals' "good") on a phone and on a desktop."""
    problems = []
    try:
        _width(browser, width, 940)
        for lang in ("en", "de"):
            for slug in ["", *CONTENT_SLUGS]:
                _arrive(browser, server + _url(lang, slug))
                shift = browser.execute_async_script(CLS_JS)
                if shift >= 0.1:
                    problems.append(f"{_url(lang, slug)} at {width} px: CLS {shift:.3f}")
    finally:
        _width(browser, WIDTHS[-1])
    assert not problems, "\n".join(problems)


# -- the header on phones ----------------------------------------------------------------

PHONES = ((375, 667), (320, 568))
"""Phone screens (CSS pixels): the header takes at most a fifth of the first screen."""

COVERED_JS = """
// The focus stops of the page (links, buttons, summaries, inputs shown) that something else
// covers once scrolled into the middle or near the bottom of the screen (where a floating
// button would be), after the page's script has had two frames to react to the scroll:
// what the browser finds at the stop's centre is neither the stop nor inside it.
const done = arguments[0];
const stops = [...document.querySelectorAll("a[href], button, summary, input")]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden"
          && !el.closest(".visually-hidden, details:not([open]) > :not(summary)"));
const covered = [];
const frames = () => new Promise((go) => requestAnimationFrame(() => requestAnimationFrame(go)));
(async () => {
  for (const el of stops) {
    for (const [block, up] of [["center", 0], ["end", 32]]) {
      el.scrollIntoView({block});
      scrollBy(0, up);  // its centre 2 rem above the screen's bottom edge
      await frames();
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (at && at !== el && !el.contains(at) && !at.contains(el)) {
        covered.push(el.textContent.trim().slice(0, 30) + " under " +
          ((at.closest("[class]") || at).className || at.tagName));
        break;
      }
    }
  }
  done(covered);
})();
"""


@pytest.mark.parametrize(("width", "height"), PHONES, ids=["375x667", "320x568"])
def test_the_phone_header_leaves_the_screen_to_the_page(browser: Any, server: str,
                                                        width: int, height: int) -> None:
    """On a phone the header (name, languages, search, pages) takes at most 20 % of the
    first screen on every content page of every locale: the languages are one menu and
    search opens from a button; the menu and the button work, and no focus stop of the
    page is covered by anything (the sticky menu, a floating button)."""
    from selenium.webdriver.common.by import By

    problems = []
    try:
        _width(browser, width, height)
        for lang, slug in PAGES:
            if not slug:
                continue
            browser.get(server + _url(lang, slug))
            high = browser.execute_script(
                "return document.querySelector('.site-header').getBoundingClientRect().height")
            if high > 0.2 * height:
                problems.append(f"{_url(lang, slug)}: the header is {high:.0f} px of {height}")
        browser.get(f"{server}hu/rules/index.html")
        toggle = browser.find_element(By.CSS_SELECTOR, ".search-toggle")
        box = browser.find_element(By.CSS_SELECTOR, "form.site-search input")
        assert toggle.is_displayed() and not box.is_displayed()
        assert toggle.get_attribute("aria-expanded") == "false"
        toggle.click()
        assert box.is_displayed() and toggle.get_attribute("aria-expanded") == "true"
        assert browser.switch_to.active_element == box
        _switch_language(browser, "pl")
        assert _wait(lambda: browser.current_url == f"{server}pl/rules/index.html")
        covered = browser.execute_async_script(COVERED_JS)
        problems += [f"pl/rules at {width} px: {c}" for c in covered]
    finally:
        _width(browser, WIDTHS[-1])
    assert not problems, "\n".join(problems)
