"""Wall time of whole builds, as a user runs them (a fresh process each time).

    python benchmarks/bench_build.py [--runs 7] [--pages 700]

Prints the median, fastest and slowest wall time of ``python -m generator build`` on
the repository's project, then on a copy whose pages are repeated until the site has
about ``--pages`` pages (every locale counted), each copy with a paragraph of its own
(``benchmarks/scaling.py``). ``benchmarks/hugo_baseline.sh`` builds
the same scaled pages with Hugo on this machine, for comparison. Figures only: nothing
here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scaling import REPO
from scaling import scale_project


def _time_builds(project: Path, out: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "generator", "build", "--project", str(project),
             "--out", str(out)],
            capture_output=True, text=True, check=False, cwd=REPO,
        )
        times.append(time.perf_counter() - start)
        if result.returncode != 0:
            sys.exit(f"build failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return times


def _report(label: str, pages: int, times: list[float]) -> None:
    print(f"{label}: {pages} pages, {len(times)} runs: median {statistics.median(times):.3f} s, "
          f"fastest {min(times):.3f} s, slowest {max(times):.3f} s")


def _count_pages(site: Path) -> int:
    return sum(1 for _ in site.rglob("index.html"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pages", type=int, default=700)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        out = base / "site"
        times = _time_builds(REPO, out, args.runs)
        _report("repository", _count_pages(out), times)

        big = base / "big"
        scale_project(big, args.pages)
        big_out = base / "big-site"
        times = _time_builds(big, big_out, args.runs)
        _report("scaled copy", _count_pages(big_out), times)


if __name__ == "__main__":
    main()
