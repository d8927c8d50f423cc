"""The incremental path as ``serve`` uses it (its target: one case file changed on the
repository's site rebuilt in under 0.3 s, measured in-process, without start-up).

    PYTHONPATH=. python benchmarks/bench_incremental.py [--rounds 5]

Copies the repository's project to a temporary folder (its cache there too), builds it
once in this process, then ``--rounds`` times: changes the title of one case (the first
of content/examples/melds-rami.yaml) and times ``build()`` again, in this process; then
``--rounds`` times the same change as ``serve`` builds it (docs/site.md, "serve"): the
source locale's pages first (``build(search_later=True, locales_later=True)``: the
other locales' pages and the search indexes the last build's), then the build that
renders the rest and makes the indexes; then a build with nothing changed; then
``--rounds`` builds after the Czech
translation of that title changed (a translator's save). Prints the median and the
largest time of each, and how many pages came from the cache. Figures only.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.commands.build import build  # noqa: E402 - after the path is set


def main(argv: list[str] | None = None) -> int:
    """Print the in-process rebuild times after one case changed and with nothing changed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        project = Path(tmp) / "project"
        for name in ("content", "locales", "templates"):
            if (REPO / name).is_dir():
                shutil.copytree(REPO / name, project / name)
        start = time.perf_counter()
        first = build(project)
        print(f"first build (in this process, imports done): "
              f"{time.perf_counter() - start:.2f} s, {first.pages} files")
        cases = project / "content" / "examples" / "melds-rami.yaml"
        text = cases.read_text(encoding="utf-8")
        changed: list[float] = []
        cached = 0
        for i in range(args.rounds):
            cases.write_text(text.replace("title: Three kings", f"title: Three kings {i}", 1),
                             encoding="utf-8")
            start = time.perf_counter()
            report = build(project)
            changed.append(time.perf_counter() - start)
            assert report.exit_code == 0, report.lines
            cached = report.cached
        shown: list[float] = []
        indexed: list[float] = []
        for i in range(args.rounds):
            cases.write_text(text.replace("title: Three kings", f"title: Three kings {i}.",
                                          1), encoding="utf-8")
            start = time.perf_counter()
            report = build(project, search_later=True, locales_later=True)
            shown.append(time.perf_counter() - start)
            assert report.exit_code == 0 and report.behind, report.lines
            start = time.perf_counter()
            report = build(project)
            indexed.append(time.perf_counter() - start)
            assert report.exit_code == 0 and not report.behind, report.lines
        same: list[float] = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            build(project)
            same.append(time.perf_counter() - start)
        cases.write_text(text, encoding="utf-8")  # the title the catalog translates
        build(project)
        po = project / "locales" / "cs" / "LC_MESSAGES" / "messages.po"
        catalog = po.read_text(encoding="utf-8")
        entry = re.search(r'^msgid "Three kings"\nmsgstr "(.+)"$', catalog, re.M)
        assert entry is not None, "the Czech catalog translates Three kings"
        translated: list[float] = []
        for i in range(args.rounds):
            po.write_text(catalog[:entry.end(1)] + f" {i}" + catalog[entry.end(1):],
                          encoding="utf-8")
            start = time.perf_counter()
            report = build(project)
            translated.append(time.perf_counter() - start)
            assert report.exit_code == 0, report.lines
    print(f"one case changed: median {statistics.median(changed):.3f} s, "
          f"max {max(changed):.3f} s ({cached} of {first.pages} files from the cache)")
    print(f"one case changed, as serve builds it: the source locale's pages in place "
          f"after median {statistics.median(shown):.3f} s (max {max(shown):.3f} s), the "
          f"other locales' and the search index median {statistics.median(indexed):.3f} s "
          f"later (max {max(indexed):.3f} s)")
    print(f"one catalog entry changed (cs, the case's title): median "
          f"{statistics.median(translated):.3f} s, max {max(translated):.3f} s")
    print(f"nothing changed:  median {statistics.median(same):.3f} s, max {max(same):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
