"""Where rendering over worker processes starts to pay: a full build
(``--no-cache``) of our project scaled to each size, rendered in one process and over
forked workers, alternately, in fresh processes; prints the medians and the ratio.

    PYTHONPATH=. python benchmarks/parallel_threshold.py [--sizes 21,49,70,105,140,210]
                                                         [--rounds 5]

``generator.render.parallel.PARALLEL_FROM`` (pages, every locale counted) is set from
these figures: the smallest size at which the workers are faster. Figures only; run on a
quiet machine (other work on the same cores shows up in the figures).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scaling import REPO
from scaling import scale_project

BUILD = """
import sys
import generator.render.parallel as parallel
parallel.PARALLEL_FROM = {threshold}
from generator.cli import main
sys.exit(main(["build", "--no-cache", "--project", {project!r}, "--out", {out!r}]))
"""


def timed_build(project: Path, out: Path, parallel: bool) -> float:
    """Wall time of one build in a fresh process, in seconds."""
    code = BUILD.format(threshold=1 if parallel else 10**9, project=str(project),
                        out=str(out))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Print, per size, the median serial and parallel build times and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="21,49,70,105,140,210")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"cores: {os.cpu_count()}")
    print(f"{'pages':>6} {'serial s':>9} {'workers s':>10} {'workers/serial':>15}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            project = Path(tmp) / f"p{size}"
            scale_project(project, size)
            locales = 1 + sum(1 for _ in (project / "locales").glob("*/LC_MESSAGES"))
            pages = len(list((project / "content").glob("*.md"))) * locales
            times: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(args.rounds):
                for parallel in (False, True):
                    times[parallel].append(timed_build(project, project / "site", parallel))
            serial, workers = (statistics.median(times[p]) for p in (False, True))
            print(f"{pages:>6} {serial:>9.2f} {workers:>10.2f} {workers / serial:>15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
