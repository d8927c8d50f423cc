"""Save-to-reload latency of ``python -m generator serve`` (its target: under 0.5 s).

Copies this repository's project (``content/``, ``locales/``, and ``templates/`` and
``site.yaml`` when there are any) to a temporary folder, starts ``serve`` on it (a free
port of 127.0.0.1, its own build cache), then ROUNDS times: changes one case's title
in ``content/examples/melds-rami.yaml``, and times

- *event*: from the file's write to the events stream's message of the new build (the
  moment an open page is told to reload), and
- *page*: to the page that shows the case served with the new title (what the reload
  fetches),

and the server's CPU time per round (``/proc/PID/stat``, Linux). Prints each round, then
the median and the maximum. Figures only, nothing is asserted.

    python3 benchmarks/serve_latency.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASE_FILE = "content/examples/melds-rami.yaml"
TITLE = "Queen, king and ace of hearts"
PAGE = "/en/rules/"
"""The page that shows the case whose title changes."""
TARGET = 0.5


def _cpu_seconds(pid: int) -> float | None:
    """The process's user and system CPU time so far, or ``None`` off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _build_seconds(said: list[str], n: int) -> float | None:
    """The build time serve printed for round ``n`` (its build ``n + 1``)."""
    for _ in range(20):
        for line in said:
            found = re.match(r"built .* in ([0-9.]+) s; .*\(build (\d+)\)", line)
            if found and int(found.group(2)) == n + 1:
                return float(found.group(1))
        time.sleep(0.05)
    return None


def _idle(said: list[str], build: int, timeout: float = 10.0) -> None:
    """Wait until serve has printed the end of build ``build``: the line of the build
    that made its search index, where one followed ("the search index of N locales
    follows"), else its own line (docs/site.md, "serve")."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = [line for line in said if line.rstrip().endswith(f"(build {build})")]
        if lines and ("follows" not in lines[0] or len(lines) > 1):
            return
        time.sleep(0.02)


def _copy_project(dest: Path) -> None:
    for name in ("content", "locales", "templates"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name)
    if (REPO / "site.yaml").is_file():
        shutil.copyfile(REPO / "site.yaml", dest / "site.yaml")


class Events:
    """The events stream of the preview at ``port``."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/__serve__/events")
        self.stream = self.conn.getresponse()

    def next(self) -> dict[str, object]:
        while True:
            line = self.stream.readline().decode("utf-8")
            if not line:
                raise SystemExit("the events stream ended")
            if line.startswith("data: "):
                message: dict[str, object] = json.loads(line[6:])
                return message


def _page(port: int) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", PAGE)
        return conn.getresponse().read().decode("utf-8")
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="serve-latency-"))
    project = work / "project"
    _copy_project(project)
    env = {**os.environ, "XDG_CACHE_HOME": str(work / "cache"), "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--project", str(project),
         "--port", "0"], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stderr is not None
    said: list[str] = []
    try:
        first = process.stderr.readline()
        found = re.search(r"at http://127\.0\.0\.1:(\d+)/", first)
        if found is None:
            raise SystemExit(f"serve did not start: {first}{process.stderr.read()}")
        port = int(found.group(1))
        threading.Thread(target=lambda: said.extend(process.stderr or ()),
                         daemon=True).start()
        events = Events(port)
        start = time.perf_counter()
        build = int(str(events.next()["build"]))
        print(f"first build: {time.perf_counter() - start:.2f} s after connecting "
              f"(cold cache)")
        path = project / CASE_FILE
        text = path.read_text(encoding="utf-8")
        event_times, page_times, cpu_times, build_times = [], [], [], []
        for n in range(1, args.rounds + 1):
            _idle(said, build)  # the previous round's builds done (the index's too)
            time.sleep(0.1)
            title = f"{TITLE} (edit {n})"
            cpu = _cpu_seconds(process.pid)
            saved = time.perf_counter()
            path.write_text(text.replace(f"title: {TITLE}\n", f"title: {title}\n", 1),
                            encoding="utf-8")
            message = events.next()
            told = time.perf_counter()
            if not message["ok"] or int(str(message["build"])) <= build:
                raise SystemExit(f"unexpected build message {message}")
            build = int(str(message["build"]))
            shown = title in _page(port)
            fetched = time.perf_counter()
            if not shown:
                raise SystemExit(f"round {n}: the page does not show the new title")
            after = _cpu_seconds(process.pid)
            build_s = _build_seconds(said, n)
            event_times.append(told - saved)
            page_times.append(fetched - saved)
            used = after - cpu if after is not None and cpu is not None else None
            if used is not None:
                cpu_times.append(used)
            if build_s is not None:
                build_times.append(build_s)
            print(f"round {n}: event {told - saved:.3f} s, page {fetched - saved:.3f} s"
                  + (f", of which the build {build_s:.2f} s" if build_s is not None else "")
                  + (f", server CPU {used:.3f} s" if used is not None else ""))
        print(f"event: median {statistics.median(event_times):.3f} s, "
              f"max {max(event_times):.3f} s")
        print(f"page:  median {statistics.median(page_times):.3f} s, "
              f"max {max(page_times):.3f} s (target under {TARGET} s)")
        if build_times:
            print(f"the build itself (serve's terminal): median "
                  f"{statistics.median(build_times):.3f} s, max {max(build_times):.3f} s")
        if cpu_times:
            print(f"server CPU per round: median {statistics.median(cpu_times):.3f} s, "
                  f"max {max(cpu_times):.3f} s")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores")
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
