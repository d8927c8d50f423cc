"""What a reader's search costs when a locale's search index is split into page groups
that Pagefind's ``mergeIndex`` joins in the browser, against the one index per locale
the build makes (docs/site.md, "Search").

    python3 benchmarks/search_groups.py SITE [--locale cs] [--groups 1,2,4,10]
                                           [--rounds 5] [--terms žolík,postupka,kombinace]

SITE is a built site (``python -m generator build``; the 700-page shape of
``benchmarks/compare_hugo.py`` has 100 pages in each locale). For each number of groups
G it cuts each page of the locale to the view the build indexes
(:func:`generator.render.search_views.search_view`), puts each page in group
``sha256(path) % G`` and runs Pagefind on each group as the build runs it on a locale
(each run timed: what a one-page change would re-index in that locale). Then it serves
a copy of the site from 127.0.0.1 and, in headless Chromium (Selenium), loads group 0's
``pagefind.js``, merges the other groups, and searches each term in turn, the first five
results' data loaded as the search page loads them. Over two links:

- *local*: no delay;
- *slow 4G*: Lighthouse's mobile link (150 ms before each response, 1.6 Mbit/s shared
  by all responses), emulated by the server itself, so that the requests of Pagefind's
  web worker (which Chromium's own throttling leaves out) are slowed too.

The browser's cache is off (``Cache-Control: no-store``): each round is a reader's first
visit. It prints, per link and G, the medians over the rounds of the time to the
engine's start, to the first search's results, of each later search, the requests and
bytes served, the count of results of each term and the first three pages found (the
ranking: each group's index scores its own pages). Figures only, nothing is asserted.
Needs Selenium, Chromium and chromium-driver (``.ci/run`` installs them).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.render.search import get_executable
from generator.render.search_views import search_view

LINKS: dict[str, tuple[float, float]] = {"local": (0.0, 0.0), "slow 4G": (0.150, 1.6e6 / 8)}
"""Each link: seconds before a response, bytes a second shared by all (0: no limit)."""

SEARCH = """
const [groups, lang, terms, done] = arguments;
(async () => {
  const t0 = performance.now();
  const pagefind = await import(`/${lang}/pf${groups}-0/pagefind.js`);
  await pagefind.options({excerptLength: 18});
  for (let k = 1; k < groups; k++) await pagefind.mergeIndex(`/${lang}/pf${groups}-${k}/`);
  await pagefind.init();
  const out = {start: performance.now() - t0, searches: [], found: []};
  for (const term of terms) {
    const t = performance.now();
    const search = await pagefind.search(term);
    const data = await Promise.all(search.results.slice(0, 5).map(r => r.data()));
    out.searches.push(performance.now() - t);
    out.found.push([search.results.length, data.slice(0, 3).map(d => d.url)]);
  }
  done(out);
})().catch(e => done({error: String(e)}));
"""


class Link:
    """The emulated link: a delay before each response and one bandwidth for all."""

    def __init__(self) -> None:
        self.delay = 0.0
        self.rate = 0.0
        self.busy_until = 0.0
        self.served = 0
        self.requests = 0
        self.lock = threading.Lock()

    def set(self, delay: float, rate: float) -> None:
        with self.lock:
            self.delay, self.rate, self.served, self.requests = delay, rate, 0, 0

    def wait(self, size: int) -> float:
        """Seconds the response of ``size`` bytes waits before it is sent."""
        with self.lock:
            self.served += size
            self.requests += 1
            if not self.rate:
                return 0.0
            start = max(time.monotonic() + self.delay, self.busy_until)
            self.busy_until = start + size / self.rate
            return self.busy_until - time.monotonic()


class Handler(http.server.SimpleHTTPRequestHandler):
    link: Link

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        pause = self.link.wait(len(data))
        if pause > 0:
            time.sleep(pause)
        outputfile.write(data)


def make_groups(site: Path, lang: str, groups: int, out: Path) -> list[float]:
    """Index ``lang``'s pages of ``site`` in ``groups`` groups into
    ``out/<lang>/pf<groups>-<k>/``; returns each run's seconds."""
    pages = sorted(p for p in (site / lang).rglob("*.html") if "pagefind" not in p.parts)
    scratch = Path(tempfile.mkdtemp(prefix="search-groups-"))
    try:
        for page in pages:
            rel = page.relative_to(site)
            k = int(hashlib.sha256(str(rel).encode()).hexdigest(), 16) % groups
            view = scratch / f"g{k}" / rel
            view.parent.mkdir(parents=True, exist_ok=True)
            view.write_bytes(search_view(page.read_bytes()))
        program = get_executable()
        if program is None:
            sys.exit("no Pagefind program (pip install 'pagefind[bin]')")
        seconds = []
        for k in range(groups):
            start = time.perf_counter()
            subprocess.run([os.path.abspath(program), "--site", str(scratch / f"g{k}"),
                            "--output-path", str(out / lang / f"pf{groups}-{k}"),
                            "--keep-index-url", "--silent"], check=True)
            seconds.append(time.perf_counter() - start)
        return seconds
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@contextmanager
def served(root: Path, link: Link) -> Iterator[str]:
    """``root`` served over HTTP from a thread through ``link``: its base URL."""
    handler = type("LinkHandler", (Handler,), {"link": link})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    driver_path = shutil.which("chromedriver")
    service = Service(driver_path) if driver_path else Service()
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_script_timeout(300)
    return driver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--locale", default="cs")
    parser.add_argument("--groups", default="1,2,4,10")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--terms", default="žolík,postupka,kombinace")
    args = parser.parse_args(argv)
    counts = [int(g) for g in args.groups.split(",")]
    terms = args.terms.split(",")
    work = Path(tempfile.mkdtemp(prefix="search-groups-site-"))
    try:
        shutil.copytree(args.site, work / "site", ignore=shutil.ignore_patterns("pagefind"))
        for groups in counts:
            runs = make_groups(args.site, args.locale, groups, work / "site")
            print(f"G={groups:2}: Pagefind per group {statistics.median(runs):.2f} s "
                  f"(median of {groups}), all groups {sum(runs):.2f} s", flush=True)
        link = Link()
        driver = browser()
        try:
            with served(work / "site", link) as base:
                for name, (delay, rate) in LINKS.items():
                    for groups in counts:
                        _measure(driver, base, link, name, (delay, rate), groups,
                                 args.locale, terms, args.rounds)
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _measure(driver: Any, base: str, link: Link, name: str, shape: tuple[float, float],
             groups: int, lang: str, terms: list[str], rounds: int) -> None:
    results = []
    for _ in range(rounds):
        link.set(0.0, 0.0)
        driver.get(f"{base}/{lang}/404.html")
        link.set(*shape)
        found = driver.execute_async_script(SEARCH, groups, lang, terms)
        if "error" in found:
            sys.exit(f"G={groups}: {found['error']}")
        found.update(served=link.served, requests=link.requests)
        results.append(found)
    start = statistics.median(r["start"] for r in results)
    first = statistics.median(r["start"] + r["searches"][0] for r in results)
    later = statistics.median(statistics.mean(r["searches"][1:] or [0]) for r in results)
    print(f"{name:8} G={groups:2}: engine {start:6.0f} ms, first results {first:6.0f} ms, "
          f"later searches {later:5.0f} ms, {results[0]['requests']} requests, "
          f"{results[0]['served'] / 1024:.0f} KB; results "
          f"{[n for n, _ in results[0]['found']]}, first three "
          f"{[[_page(u) for u in urls] for _, urls in results[0]['found']]}",
          flush=True)


def _page(url: str) -> str:
    """A result's page folder (``/cs/rules-5/index.html``: ``rules-5``)."""
    return url.removesuffix("index.html").rstrip("/").rsplit("/", 1)[-1]


if __name__ == "__main__":
    sys.exit(main())
