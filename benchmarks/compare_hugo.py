"""Our builds against Hugo's on equal content, side by side in one run.

    PYTHONPATH=. python benchmarks/compare_hugo.py [--scales 100,700,7000] [--rounds 5]

For each scale (pages in total, every locale counted) it writes, in a temporary folder,
our project copied to that size (``benchmarks/scaling.py``: every page repeated, each
copy with a paragraph of its own so that no cache can share work) and a Hugo site of the
same shape (the same Markdown, every case table as a Markdown table, one content folder
per language, minimal layouts). Then, ``--rounds`` times, it runs five scenarios, ours
then Hugo's, alternately (A B A B), each build in a fresh subprocess:

1. full build from nothing: no output folder, an empty cache folder (``XDG_CACHE_HOME``
   points into the temporary folder) and ``--no-cache`` if ``build --help`` offers it
   (then an untimed build follows so that the next scenarios find a cache);
2. a build with nothing changed;
3. a build after one case file changed (the title of the first case shown on
   content/rules.md; for Hugo the same title in the table of content/en/rules.md);
4. a build after one page changed (a paragraph of content/rules.md, which is that page
   in every locale; for Hugo the same paragraph of each language's content/*/rules.md);
5. a build after one catalog entry changed (the German title of content/rules.md; for
   Hugo the title in the front matter of content/de/rules.md).

Each scale is measured in two shapes (``--shapes``): ``own``, where every copy of a page
has case files of its own (ids of their own, cards with the suits swapped in an order
seeded by the copy, documented values then brought in line by ``check --fix``), so that a
case is shown on one page per locale, as on a real site; and ``shared``, where every copy
shows the original's cases (one case on a third of all pages).

Our builds run from a copy of the generator's package made at the start (so that an
edit to the working tree during a run changes no cache key), and a build with nothing
changed that took fewer files from the cache than it wrote is said on standard error.

Our build includes a search index (Pagefind, one run per locale); Hugo's does not. So
Hugo's side is also timed followed by Pagefind over its ``public/`` folder (``pagefind
--site public``, the program of the ``pagefind[bin]`` package our build uses), the usual
way to give a Hugo site search: the "Hugo+PF" columns, equal content and equal features.

It prints the median wall time (``time.perf_counter``) and peak memory of each side, the
ratio ours/Hugo, the ratio to our own full build, and the performance targets beside them;
then ``python -m generator check`` alone on the repository. Peak memory is the largest sum
of the proportional set sizes (PSS: a page shared by forked workers counted once) of
each build's whole process tree (our workers and Pagefind processes, or Hugo's), read
from ``/proc`` at its start and every 20 ms while it runs (Linux); not ``os.wait4``'s
largest resident set, which is never less than this benchmark's own. Reading it slows
what it reads (each read walks a process's memory map while the process waits to change
it: our 700-page full build took 18.0-18.5 s read, 15.0-15.8 s not), so the timed
rounds run unread, and one more round
of the same scenarios (its own edits) gives the memory alone. Figures only: nothing is
asserted, the exit status is 0 (unless a build fails). Installs nothing: without
``hugo`` on PATH (Debian: ``apt-get install hugo``) it still runs our side and prints
Hugo's columns as "—".

Run on a quiet machine: other work on the same cores shows up in the figures. Measured
on the 2-core development machine (Hugo 0.111, other sessions' load of 3-5):
``--scales 100 --rounds 1`` 9 s; ``--scales 100,700`` (5 rounds) 2 min 46 s;
``--scales 7000 --rounds 2`` 22 min (Hugo peaks at about 5.6 GB there, and removing the
temporary 1.7 GB takes a minute or two); the default run, not measured whole, about
50 min by extrapolation, nearly all of it the 7,000-page row.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scaling import REPO
from scaling import find_hugo
from scaling import hugo_site
from scaling import scale_project

SCENARIOS = ("full build", "nothing changed", "one case changed", "one page changed",
             "one catalog entry changed")
# The performance targets: printed beside the figures, never asserted.
TARGETS = {
    "full build": "≤ 1.0× Hugo+PF",
    "nothing changed": "≤ 0.1× our full",
    "one case changed": "≤ 0.25× our full",
    "one page changed": "≤ 0.25× our full",
    "one catalog entry changed": "≤ 0.3× our full",
}
MEMORY_TARGET = "tree peak ≤ Hugo's"
SHAPES = {"own": True, "shared": False}
"""The site's shapes (:func:`scaling.scale_project`): ``own``, every copy of a page with
cases of its own (a case on one page per locale, as on a real site); ``shared``, every
copy showing the original's cases (one case on a third of the pages)."""
PAGE_EDIT = (r"^(On your turn you draw a card, lay down runs or sets if you can, and then "
             r"discard one card\.)(?: \(edit \d+\))?$")
"""The paragraph of content/rules.md that "one page changed" edits (on Hugo's side, in
each language's copy of the page)."""
DASH = "—"
SAMPLE_S = 0.02
"""How often the process tree's memory is read while a build runs."""


@dataclass
class Run:
    seconds: float
    peak_mb: float
    """The largest sum of the proportional set sizes of the build's process tree (the
    build, its workers and the Pagefind processes), read every :data:`SAMPLE_S`
    seconds from its start; in a run whose memory was not read, the largest single
    resident set ``os.wait4`` reports, which is at least this process's own at the
    spawn (Linux keeps a process's peak across ``execve``, and the child begins as a copy
    of this process, or in its memory under ``vfork``)."""


@dataclass
class Side:
    """One builder's figures at one scale: the timed runs per scenario (memory not
    read), and the memory round's run per scenario."""

    runs: dict[str, list[Run]] = field(default_factory=lambda: {s: [] for s in SCENARIOS})
    memory: dict[str, list[Run]] = field(default_factory=lambda: {s: [] for s in SCENARIOS})

    def median_s(self, scenario: str) -> float | None:
        runs = self.runs[scenario]
        return statistics.median(r.seconds for r in runs) if runs else None

    def median_mb(self, scenario: str) -> float | None:
        runs = self.memory[scenario]
        return statistics.median(r.peak_mb for r in runs) if runs else None


def _pss_kb(pid: int, rss_kb: int) -> int:
    """Process ``pid``'s proportional set size (KiB): its resident pages, each shared one
    divided among the processes that share it (``/proc/PID/smaps_rollup``), so that a
    sum over forked workers counts their common pages once; ``rss_kb`` where it cannot
    be read."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return rss_kb


def tree_rss_kb(root: int) -> int:
    """The memory of process ``root`` and all its descendants, summed (KiB; Linux
    ``/proc``): each one's proportional set size (:func:`_pss_kb`)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    tree = {root}
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return sum(_pss_kb(pid, rss.get(pid, 0)) for pid in tree)


def run_timed(cmd: list[str], cwd: Path, env: dict[str, str], log: Path, *,
              sampled: bool = False) -> Run:
    """Run ``cmd`` in a fresh process; its wall time and the largest single resident set
    ``os.wait4`` reports (:class:`Run`); ``sampled``: the peak of its process tree's
    summed proportional set sizes instead, read at once and then every
    :data:`SAMPLE_S` s (``os.wait4``'s figure would add this process's own peak)."""
    with log.open("wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while True:
                peak[0] = max(peak[0], tree_rss_kb(proc.pid))
                if done.wait(SAMPLE_S):
                    return

        sampler = threading.Thread(target=sample, daemon=True)
        if sampled:
            sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        done.set()
        if sampled:
            sampler.join()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n"
                 f"{log.read_text(encoding='utf-8', errors='replace')}")
    return Run(seconds, (peak[0] if sampled else usage.ru_maxrss) / 1024)  # KiB on Linux


def replace_once(path: Path, pattern: str, repl: Callable[[re.Match[str]], str]) -> None:
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, repl, text, count=1, flags=re.M)
    if n != 1:
        sys.exit(f"{path}: no match for {pattern!r}")
    path.write_text(new, encoding="utf-8")


@dataclass
class Edits:
    """The edits of scenarios 3 and 4, on both sides, marked by the round's number."""

    case_file: Path  # the YAML file holding the case
    case_id: str
    case_title: str
    catalog: Path  # locales/de/LC_MESSAGES/messages.po
    page_title: str  # the msgid: the H1 of content/rules.md
    translated_title: str  # its msgstr

    @classmethod
    def find(cls, project: Path) -> Edits:
        rules = (project / "content" / "rules.md").read_text(encoding="utf-8")
        fences = re.findall(r"^```cases\n(.*?)^```", rules, flags=re.M | re.S)
        ids = [line.strip() for f in fences for line in f.splitlines() if line.strip()]
        for case_id in ids:
            for yml in sorted((project / "content" / "examples").glob("*.yaml")):
                block = re.search(rf"^  - id: {re.escape(case_id)}\n((?:    .*\n)+)",
                                  yml.read_text(encoding="utf-8"), re.M)
                title = block and re.search(r"^    title: ([^'\"\n].*)$", block.group(1), re.M)
                if title:
                    break
            else:
                continue
            break
        else:
            sys.exit("no case with a plain title shown on content/rules.md")
        h1 = re.search(r"^# (.+)$", rules, re.M)
        assert h1 is not None
        catalog = project / "locales" / "de" / "LC_MESSAGES" / "messages.po"
        po = catalog.read_text(encoding="utf-8")
        entry = re.search(rf'^msgid "{re.escape(h1.group(1))}"\nmsgstr "(.+)"$', po, re.M)
        if entry is None:
            sys.exit(f"{catalog}: no translation of {h1.group(1)!r}")
        return cls(yml, case_id, title.group(1), catalog, h1.group(1), entry.group(1))

    def case_ours(self, n: int) -> None:
        replace_once(self.case_file,
                     rf"^(  - id: {re.escape(self.case_id)}\n(?:    .*\n)*?    title: ).*$",
                     lambda m: f"{m.group(1)}{self.case_title} (edit {n})")

    def case_hugo(self, site: Path, n: int) -> None:
        replace_once(site / "content" / "en" / "rules.md",
                     rf"\*\*{re.escape(self.case_title)}(?: \(edit \d+\))?\*\*",
                     lambda m: f"**{self.case_title} (edit {n})**")

    def catalog_ours(self, n: int) -> None:
        replace_once(self.catalog,
                     rf'^(msgid "{re.escape(self.page_title)}"\nmsgstr ").*"$',
                     lambda m: f'{m.group(1)}{self.translated_title} ({n})"')

    def page_ours(self, project: Path, n: int) -> None:
        replace_once(project / "content" / "rules.md", PAGE_EDIT,
                     lambda m: f"{m.group(1)} (edit {n})")

    def page_hugo(self, site: Path, n: int) -> None:
        # our one source page is a page in each locale: Hugo's page in each language
        for page in sorted((site / "content").glob("*/rules.md")):
            replace_once(page, PAGE_EDIT, lambda m: f"{m.group(1)} (edit {n})")

    def catalog_hugo(self, site: Path, n: int) -> None:
        replace_once(site / "content" / "de" / "rules.md",
                     rf"^title: .*{re.escape(self.page_title)}.*$",
                     lambda m: f"title: {self.page_title} ({n})")


def has_no_cache(env: dict[str, str]) -> bool:
    help_text = subprocess.run(
        [sys.executable, "-m", "generator", "build", "--help"],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    ).stdout
    return "--no-cache" in help_text


def cache_missed(said: str) -> str | None:
    """What a build that should have taken every file from the cache said it took, when
    it took fewer (``built N files (M of them from the cache)``), else ``None``."""
    found = re.search(r"built (\d+) files(?: \((\d+) of them from the cache\))?", said)
    if found is None:
        return "no line 'built N files' in its output"
    if found.group(2) != found.group(1):
        return f"{found.group(2) or 0} of {found.group(1)} files from the cache"
    return None


def snapshot(dest: Path) -> Path:
    """A copy of the generator's package (``generator/``, without ``__pycache__``) in
    ``dest``, from which our builds run (their working folder): an edit to the working
    tree while the benchmark runs would change the generator's hash, and so every cache
    key, and show as a cache miss in the figures. Its modules are compiled at once, as
    pip compiles an installed package's: the first timed build does not compile them."""
    shutil.copytree(REPO / "generator", dest / "generator",
                    ignore=shutil.ignore_patterns("__pycache__"))
    compileall.compile_dir(dest / "generator", quiet=1)
    return dest


def bench_scale(pages: int, rounds: int, hugo: str | None, base: Path,
                env: dict[str, str], no_cache: bool, own_cases: bool, code: Path = REPO
                ) -> tuple[Side, Side, Side, str]:
    """The figures at one scale and shape: ours (run from ``code``: :func:`snapshot`),
    Hugo's, Hugo's followed by Pagefind over its output (the search our build includes;
    empty without Pagefind), and a line describing the two sites. A build with nothing
    changed that did not take every file from the cache is said on standard error."""
    project, out, cache = base / "project", base / "site", base / "cache"
    scale_project(project, pages, distinct_cases=own_cases)
    edits = Edits.find(project)
    ours_env = {**env, "XDG_CACHE_HOME": str(cache)}
    build = [sys.executable, "-m", "generator", "build", "--project", str(project),
             "--out", str(out)]
    hsite = base / "hugo"
    if hugo:
        hsite.mkdir()
        # with cases of its own, every copy is a page of the scaled project as it is
        hugo_site(hsite, pages, repo=project) if own_cases else hugo_site(hsite, pages)
    hugo_cmd = [hugo or "hugo", "--quiet"]
    pagefind = _pagefind()
    search_cmd = [str(pagefind), "--site", "public", "--silent"] if pagefind else None
    log = base / "build.log"
    ours, theirs, searched = Side(), Side(), Side()
    for n in range(1, rounds + 2):  # the last round: memory alone
        sampled = n > rounds
        for scenario in SCENARIOS:
            # A: ours
            cmd = build
            if scenario == "full build":
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(cache, ignore_errors=True)
                cmd = [*build, "--no-cache"] if no_cache else build
            elif scenario == "one case changed":
                edits.case_ours(n)
            elif scenario == "one page changed":
                edits.page_ours(project, n)
            elif scenario == "one catalog entry changed":
                edits.catalog_ours(n)
            (ours.memory if sampled else ours.runs)[scenario].append(
                run_timed(cmd, code, ours_env, log, sampled=sampled))
            if scenario == "nothing changed":
                missed = cache_missed(log.read_text(encoding="utf-8", errors="replace"))
                if missed:
                    print(f"warning: {pages} pages, round {n}, nothing changed: {missed}",
                          file=sys.stderr, flush=True)
            if scenario == "full build" and no_cache:
                run_timed(build, code, ours_env, log)  # untimed: fills the cache
            # B: Hugo
            if not hugo:
                continue
            if scenario == "full build":
                for name in ("public", "resources"):
                    shutil.rmtree(hsite / name, ignore_errors=True)
            elif scenario == "one case changed":
                edits.case_hugo(hsite, n)
            elif scenario == "one page changed":
                edits.page_hugo(hsite, n)
            elif scenario == "one catalog entry changed":
                edits.catalog_hugo(hsite, n)
            built = run_timed(hugo_cmd, hsite, env, log, sampled=sampled)
            (theirs.memory if sampled else theirs.runs)[scenario].append(built)
            if search_cmd is not None:  # Hugo's usual search: Pagefind over public/
                indexed = run_timed(search_cmd, hsite, env, log, sampled=sampled)
                (searched.memory if sampled else searched.runs)[scenario].append(
                    Run(built.seconds + indexed.seconds, max(built.peak_mb, indexed.peak_mb)))
    cases = sum(1 for _ in (project / "content" / "examples").glob("*.yaml"))
    ours_pages = sum(1 for _ in out.rglob("index.html"))
    hugo_pages = sum(1 for _ in (hsite / "public").rglob("index.html")) if hugo else None
    desc = (f"{pages} pages, {'cases of its own per copy' if own_cases else 'shared cases'}"
            f" ({cases} case files): ours {ours_pages} index.html files, "
            f"Hugo {hugo_pages if hugo else DASH}")
    return ours, theirs, searched, desc


def _pagefind() -> Path | None:
    """Pagefind's program, the one our build runs, if any."""
    from generator.render.search import get_executable
    return get_executable()


def fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return DASH if value is None else f"{value:{spec}}{suffix}"


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i < 2 or i == len(r) - 1 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--scales", default="100,700,7000",
                        help="pages in total, every locale counted (default 100,700,7000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--shapes", default="own,shared",
                        help="own (every copy with cases of its own), shared (every copy "
                        "showing the original's cases), or both (default own,shared)")
    args = parser.parse_args(argv)
    scales = [int(s.replace("_", "")) for s in args.scales.split(",") if s.strip()]
    started = time.perf_counter()

    env = dict(os.environ)
    hugo = find_hugo("running our side only, Hugo's columns are —")
    no_cache = has_no_cache(env)
    code_folder = tempfile.TemporaryDirectory(prefix="compare-hugo-code-")
    code = snapshot(Path(code_folder.name))
    print(f"python -m generator build: {'--no-cache' if no_cache else 'no --no-cache option'} "
          f"for the full build; {args.rounds} rounds, ours then Hugo's (A B A B)")

    shapes = [s.strip() for s in args.shapes.split(",") if s.strip()]
    if not shapes or any(s not in SHAPES for s in shapes):
        parser.error(f"--shapes: expected some of {', '.join(SHAPES)}")

    header = ["scale", "shape", "scenario", "ours s", "Hugo s", "ours/Hugo", "Hugo+PF s",
              "ours/(Hugo+PF)", "ours/our full", "ours MB", "Hugo+PF MB", "target"]
    rows = [header]
    for pages in scales:
        for shape in shapes:
            with tempfile.TemporaryDirectory(prefix=f"compare-hugo-{pages}-") as tmp:
                ours, theirs, searched, desc = bench_scale(
                    pages, args.rounds, hugo, Path(tmp), env, no_cache, SHAPES[shape],
                    code)
            print(desc, flush=True)
            full = ours.median_s("full build")
            for scenario in SCENARIOS:
                o_s, h_s = ours.median_s(scenario), theirs.median_s(scenario)
                hs_s = searched.median_s(scenario)
                o_mb, h_mb = ours.median_mb(scenario), searched.median_mb(scenario)
                target = TARGETS[scenario]
                if scenario == "full build":
                    target += f"; {MEMORY_TARGET}"
                rows.append([
                    f"{pages:,}", shape, scenario, fmt(o_s, ".3f"), fmt(h_s, ".3f"),
                    fmt(ratio(o_s, h_s), ".2f", "×"), fmt(hs_s, ".3f"),
                    fmt(ratio(o_s, hs_s), ".2f", "×"),
                    DASH if scenario == "full build" else fmt(ratio(o_s, full), ".2f", "×"),
                    fmt(o_mb, ".0f"), fmt(h_mb, ".0f"), target,
                ])

    with tempfile.TemporaryDirectory(prefix="compare-hugo-check-") as tmp:
        log = Path(tmp) / "check.log"
        check_env = {**env, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        checks = [run_timed([sys.executable, "-m", "generator", "check", "--project",
                             str(REPO)], REPO, check_env, log, sampled=n == args.rounds)
                  for n in range(args.rounds + 1)]

    print()
    print(table(rows))
    print()
    print(f"python -m generator check on the repository: median "
          f"{statistics.median(r.seconds for r in checks[:-1]):.3f} s ({args.rounds} runs), "
          f"peak {checks[-1].peak_mb:.0f} MB (one more run)")
    print(f"(medians of {args.rounds} timed rounds, memory not read; peak MB from one more "
          f"round: the largest sum of the PSS of each build's process tree, read every "
          f"{SAMPLE_S * 1000:.0f} ms; Hugo+PF: the larger of the two runs'; whole run "
          f"{time.perf_counter() - started:.0f} s)")
    code_folder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
