"""Save-to-reload latency of ``python -m generator serve``, beside ``hugo server``'s on the
equal Hugo site (target: a median under 0.3 s, and below ``hugo server``'s).

    python3 benchmarks/serve_latency.py [--rounds 10] [--poll 0.01]

Ours: copies this repository's project (``content/``, ``locales/``, and ``templates/``
and ``site.yaml`` when there are any) to a temporary folder and starts ``serve`` on it (a
free port of 127.0.0.1, its own build cache). Hugo's: writes the Hugo site of the same
pages (``benchmarks/scaling.py``'s :func:`hugo_site`, as ``benchmarks/compare_hugo.py``
writes it: every case table a Markdown table, one content folder per language) and starts
``hugo server`` on it with its defaults (Fast Render Mode, pages served from memory,
LiveReload), on another free port. Then ROUNDS times, ours and Hugo's in turn, the same
change on each side: the title of the case ``queen-king-ace-hearts`` (ours: its ``title:``
in ``content/examples/melds-rami.yaml``; Hugo's: the same title in the table of
``content/en/rules.md``), and it times

- *page*: from the file's write to the moment the English rules page, fetched over HTTP
  every ``--poll`` seconds (a new connection each time), shows the new title, on both
  sides; and, for ours,
- *event*: from the write to the message of the new build on serve's events stream (the
  moment an open page is told to reload), and serve's own time of that build.

Each side's server CPU time (user and system, ``/proc/PID/stat``, Linux) is read from the
write to the page shown, the polls served included; for ours also over the whole round,
the build that follows (the other locales' pages, the search index) and its Pagefind
runs included. Before each write it waits a random 0 to 0.5 s (the same seeded waits on
both sides), so that no side's figures lock onto a fixed phase of a watcher's timer
(``hugo server`` shows a save 0.04 to 0.5 s after it, most of it waiting). It prints
each round, then each side's median and maximum and the targets beside them. Figures
only, nothing is asserted; without ``hugo`` on PATH (Debian: ``apt-get install hugo``)
Hugo's side is printed as "—" and ours still runs.

The polls cost ours more than Hugo's: serve answers each fetch in the process that
builds, one Python thread at a time, so frequent fetches slow its build (measured: the
build 0.19-0.20 s with fetches every 0.2 s, 0.20-0.27 s every 0.01 s). The default
0.01 s counts that against ours.

Measured on the 2-core development machine (Hugo 0.111, other sessions' load about 2):
the default 10 rounds take about 25 s.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
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

from scaling import copies_for
from scaling import find_hugo
from scaling import hugo_site
from scaling import languages
from scaling import sources

REPO = Path(__file__).resolve().parent.parent
CASE_FILE = "content/examples/melds-rami.yaml"
HUGO_FILE = "content/en/rules.md"
TITLE = "Queen, king and ace of hearts"
PAGE = "/en/rules/"
"""The page that shows the case whose title changes (on both sides)."""
TARGET_S = 0.3
DASH = "—"
MAX_WAIT_S = 20.0
"""How long a round waits for the page to show the new title before it gives up."""


@dataclass
class Figures:
    """One side's figures, a list per measure (seconds), a value per round."""

    measures: dict[str, list[float]] = field(default_factory=dict)

    def add(self, name: str, value: float | None) -> None:
        if value is not None:
            self.measures.setdefault(name, []).append(value)

    def median(self, name: str) -> float | None:
        values = self.measures.get(name)
        return statistics.median(values) if values else None

    def max(self, name: str) -> float | None:
        values = self.measures.get(name)
        return max(values) if values else None


def summary(ours: Figures, hugo: Figures | None, rounds: int) -> list[str]:
    """The closing lines: each side's median and maximum of the save-to-page time and
    the targets beside them (Hugo's figures "—" without ``hugo``), then our other
    measures and both servers' CPU time."""

    def fmt(value: float | None) -> str:
        return DASH if value is None else f"{value:.3f} s"

    def side(figures: Figures | None, name: str) -> tuple[str, str]:
        if figures is None:
            return DASH, DASH
        return fmt(figures.median(name)), fmt(figures.max(name))

    o_med, o_max = side(ours, "page")
    h_med, h_max = side(hugo, "page")
    ours_median, hugo_median = ours.median("page"), hugo.median("page") if hugo else None
    verdict = [f"under {TARGET_S} s: "
               + (DASH if ours_median is None else "yes" if ours_median < TARGET_S else "no"),
               "below hugo server's median: "
               + (DASH if ours_median is None or hugo_median is None
                  else "yes" if ours_median < hugo_median else "no")]
    lines = [f"save to page shown, {rounds} rounds:",
             f"  ours (serve):  median {o_med}, max {o_max}",
             f"  hugo server:   median {h_med}, max {h_max}",
             f"  target: ours' median under {TARGET_S} s and below hugo server's "
             f"({'; '.join(verdict)})"]
    for name, what in (("event", "ours, save to the events stream's message"),
                       ("build", "ours, the build itself (serve's terminal)"),
                       ("cpu", "ours, server CPU from the save to the page shown"),
                       ("cpu round", "ours, server CPU of the whole round (the search "
                                     "index's build and Pagefind included)")):
        med, top = side(ours, name)
        lines.append(f"{what}: median {med}, max {top}")
    med, top = side(hugo, "cpu")
    lines.append(f"hugo server, server CPU from the save to the page shown: median {med}, "
                 f"max {top}")
    return lines


def _cpu_seconds(pid: int, children: bool = False) -> float | None:
    """The process's user and system CPU time so far (``children``: with that of the
    children it waited for), or ``None`` off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str = PAGE) -> str:
    """The page at ``path``, or ``""`` when the server does not answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read().decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        conn.close()


def _until_shown(port: int, title: str, poll: float, since: float) -> float:
    """Poll the page every ``poll`` seconds until it shows ``title``; the time from
    ``since`` (``time.perf_counter``) to the answer that showed it."""
    while True:
        if title in _get(port):
            return time.perf_counter() - since
        if time.perf_counter() - since > MAX_WAIT_S:
            raise SystemExit(f"the page at port {port} did not show {title!r} "
                             f"within {MAX_WAIT_S:.0f} s")
        time.sleep(poll)


def _stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _copy_project(dest: Path) -> None:
    for name in ("content", "locales", "templates"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name)
    if (REPO / "site.yaml").is_file():
        shutil.copyfile(REPO / "site.yaml", dest / "site.yaml")


class Ours:
    """``python -m generator serve`` on a copy of the project, its events stream read in a
    thread."""

    def __init__(self, work: Path) -> None:
        project = work / "project"
        _copy_project(project)
        self.path = project / CASE_FILE
        self.text = self.path.read_text(encoding="utf-8")
        if f"title: {TITLE}\n" not in self.text:
            raise SystemExit(f"{self.path}: no case titled {TITLE!r}")
        env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"),
               "PYTHONPATH": str(REPO)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--project", str(project),
             "--port", "0"], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert self.process.stderr is not None
        first = self.process.stderr.readline()
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/", first)
        if found is None:
            _stop(self.process)
            raise SystemExit(f"serve did not start: {first}")
        self.port = int(found.group(1))
        self.said: list[str] = []
        threading.Thread(target=lambda: self.said.extend(self.process.stderr or ()),
                         daemon=True).start()
        self.events: list[tuple[float, dict[str, object]]] = []
        self._arrived = threading.Condition()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=None)
        conn.request("GET", "/__serve__/events")
        self._stream = conn.getresponse()
        threading.Thread(target=self._read_events, daemon=True).start()
        self.build = self._next_event(0, 120.0)

    def _read_events(self) -> None:
        for raw in self._stream:
            line = raw.decode("utf-8")
            if line.startswith("data: "):
                with self._arrived:
                    self.events.append((time.perf_counter(), json.loads(line[6:])))
                    self._arrived.notify_all()

    def _next_event(self, after: int, timeout: float) -> int:
        """Wait for the message of a build after build ``after``; its number."""
        with self._arrived:
            if not self._arrived.wait_for(
                    lambda: any(int(str(m["build"])) > after for _, m in self.events),
                    timeout):
                raise SystemExit(f"serve sent no message of a build after build {after}")
            return max(int(str(m["build"])) for _, m in self.events)

    def _idle(self, timeout: float = 20.0) -> None:
        """Wait until serve's last line about a build is about build :attr:`build` or a
        later one, and announces no build to follow ("the pages of N more locales ...
        follow", "the search index of N locales follows": docs/site.md, "serve"); that
        build is then :attr:`build`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ends = [(line, found) for line in self.said
                    if (found := re.search(r"\(build (\d+)\)\s*$", line))]
            if ends and int(ends[-1][1].group(1)) >= self.build \
                    and " follow" not in ends[-1][0]:
                self.build = int(ends[-1][1].group(1))
                return
            time.sleep(0.02)

    def _build_seconds(self, build: int) -> float | None:
        """The time serve printed for build ``build``."""
        for _ in range(20):
            for line in self.said:
                found = re.match(r"built .* in ([0-9.]+) s; .*\(build (\d+)\)", line)
                if found and int(found.group(2)) == build:
                    return float(found.group(1))
            time.sleep(0.05)
        return None

    def round(self, n: int, poll: float, wait: float, figures: Figures) -> str:
        """Change the title, time the page, the event and the CPU; the round's line."""
        self._idle()  # the previous round's builds done (the index's too)
        time.sleep(wait)
        title = f"{TITLE} (edit {n})"
        cpu = _cpu_seconds(self.process.pid)
        whole = _cpu_seconds(self.process.pid, children=True)
        before = len(self.events)
        saved = time.perf_counter()
        self.path.write_text(self.text.replace(f"title: {TITLE}\n", f"title: {title}\n", 1),
                             encoding="utf-8")
        page = _until_shown(self.port, title, poll, saved)
        after = _cpu_seconds(self.process.pid)
        build = self._next_event(self.build, MAX_WAIT_S)
        told, message = next((t, m) for t, m in self.events[before:]
                             if int(str(m["build"])) > self.build)
        if not message["ok"]:
            raise SystemExit(f"round {n}: the build failed: {message}")
        self.build = build
        self._idle()
        done = _cpu_seconds(self.process.pid, children=True)
        seconds = self._build_seconds(int(str(message["build"])))
        used = None if after is None or cpu is None else after - cpu
        round_cpu = None if done is None or whole is None else done - whole
        for name, value in (("page", page), ("event", told - saved), ("build", seconds),
                            ("cpu", used), ("cpu round", round_cpu)):
            figures.add(name, value)
        return (f"page {page:.3f} s, event {told - saved:.3f} s"
                + (f", build {seconds:.2f} s" if seconds is not None else "")
                + (f", CPU {used:.3f} s" if used is not None else "")
                + (f" ({round_cpu:.3f} s with the index)" if round_cpu is not None else ""))

    def close(self) -> None:
        _stop(self.process)


class Hugo:
    """``hugo server`` on the equal Hugo site."""

    def __init__(self, hugo: str, work: Path) -> None:
        site = work / "hugo"
        site.mkdir()
        # the repository's pages once each (every locale counted): the project ours serves
        self.describe = hugo_site(site, len(languages()) * len(sources()))
        assert copies_for(len(languages()) * len(sources())) == 1
        self.path = site / HUGO_FILE
        self.text = self.path.read_text(encoding="utf-8")
        if f"**{TITLE}**" not in self.text:
            raise SystemExit(f"{self.path}: no table row titled {TITLE!r}")
        self.port = _free_port()
        self.process = subprocess.Popen(
            [hugo, "server", "--bind", "127.0.0.1", "--port", str(self.port)], cwd=site,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.process.stdout is not None
        said: list[str] = []
        for line in self.process.stdout:
            said.append(line)
            if "Web Server is available at" in line:
                break
        else:
            raise SystemExit(f"hugo server did not start:\n{''.join(said)}")
        threading.Thread(target=lambda: [None for _ in self.process.stdout or ()],
                         daemon=True).start()  # drained, not kept
        _until_shown(self.port, TITLE, 0.05, time.perf_counter())

    def round(self, n: int, poll: float, wait: float, figures: Figures) -> str:
        time.sleep(0.3 + wait)  # its last rebuild long done
        title = f"{TITLE} (edit {n})"
        cpu = _cpu_seconds(self.process.pid)
        saved = time.perf_counter()
        self.path.write_text(self.text.replace(f"**{TITLE}**", f"**{title}**", 1),
                             encoding="utf-8")
        page = _until_shown(self.port, title, poll, saved)
        after = _cpu_seconds(self.process.pid)
        used = None if after is None or cpu is None else after - cpu
        figures.add("page", page)
        figures.add("cpu", used)
        return f"page {page:.3f} s" + (f", CPU {used:.3f} s" if used is not None else "")

    def close(self) -> None:
        _stop(self.process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds (default 10)")
    parser.add_argument("--poll", type=float, default=0.01,
                        help="seconds between two fetches of the page (default 0.01)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    hugo_program = find_hugo(f"timing ours only, Hugo's figures are {DASH}")
    work = Path(tempfile.mkdtemp(prefix="serve-latency-"))
    closers: list[Callable[[], None]] = []
    try:
        start = time.perf_counter()
        ours = Ours(work)
        closers.append(ours.close)
        print(f"serve: first build {time.perf_counter() - start:.2f} s after its start "
              "(cold cache)")
        hugo = None
        if hugo_program:
            start = time.perf_counter()
            hugo = Hugo(hugo_program, work)
            closers.append(hugo.close)
            print(f"{hugo.describe}; hugo server: first page {time.perf_counter() - start:.2f}"
                  " s after its start")
        ours_figures, hugo_figures = Figures(), Figures() if hugo else None
        waits = random.Random(0)
        for n in range(1, args.rounds + 1):
            wait = waits.uniform(0.0, 0.5)
            line = f"round {n}: ours {ours.round(n, args.poll, wait, ours_figures)}"
            if hugo is not None and hugo_figures is not None:
                line += f"; hugo server {hugo.round(n, args.poll, wait, hugo_figures)}"
            else:
                line += f"; hugo server {DASH}"
            print(line, flush=True)
        print()
        for line in summary(ours_figures, hugo_figures, args.rounds):
            print(line)
        print(f"(the page fetched every {args.poll * 1000:.0f} ms; load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
              f"whole run {time.perf_counter() - started:.0f} s)")
    finally:
        for close in reversed(closers):
            close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
