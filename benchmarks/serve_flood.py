"""``python -m generator serve`` under a flood of connections, then Ctrl-C.

Makes a project with ``init`` in a temporary folder, starts ``serve`` on it (a free port
of 127.0.0.1, its own build cache and temporary folder), then opens STREAMS connections
to the events stream and IDLE connections that send half a request each, and times

- *open*: opening them all (serve refuses those beyond its bounds, ``MAX_STREAMS`` and
  ``MAX_CONNECTIONS``, with a 503 at once);
- *page*: one page asked for while they are open (its status: 200, or 503 at the bound);
- *page after resets*: the idle clients reset their connections (as killed clients do),
  then one page again;
- *stop*: from SIGINT to the process's end, the streams still open;

and counts the lines serve wrote to standard error and the tracebacks among them
(none expected). Prints the CPU time of serve (``/proc/PID/stat``, Linux) and the load
average beside the wall-clock figures. Figures only, nothing is asserted.

    python3 benchmarks/serve_flood.py [--idle 1000] [--streams 1000]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _cpu_seconds(pid: int) -> float | None:
    """The process's user and system CPU time so far, or ``None`` off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _page(port: int) -> tuple[float, str]:
    """Seconds to the status line of ``/en/``, and the status line."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = sock.recv(64).split(b"\r\n", 1)[0].decode("ascii", "replace")
    return time.perf_counter() - start, status


def main() -> None:
    """Run the flood once and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=int, default=1000, help="idle connections (1000)")
    parser.add_argument("--streams", type=int, default=1000,
                        help="events stream connections (1000)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.idle + args.streams + 200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    with tempfile.TemporaryDirectory(prefix="serve-flood-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "TMPDIR": str(work), "XDG_CACHE_HOME": str(work / "cache"),
               "PYTHONPATH": str(REPO)}
        subprocess.run([sys.executable, "-m", "generator", "init", str(work / "project")],
                       env=env, check=True, capture_output=True)
        process = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "--project", str(work / "project"),
             "--port", "0"], cwd=REPO, env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert process.stderr is not None
        port = int(process.stderr.readline().rsplit(":", 1)[1].split("/")[0])
        process.stderr.readline()  # the first build
        cpu_before = _cpu_seconds(process.pid)
        socks: list[socket.socket] = []
        start = time.perf_counter()
        for number in range(args.streams + args.idle):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
            request = ("GET /__serve__/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                       if number < args.streams else "GET /en/ HTTP/1.1\r\n")
            with contextlib.suppress(OSError):  # refused at the bound: closed already
                sock.sendall(request.encode())
            socks.append(sock)
        opened = time.perf_counter() - start
        page, status = _page(port)
        for sock in socks[args.streams:]:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()  # a reset
        time.sleep(0.5)
        page_after, status_after = _page(port)
        cpu_after = _cpu_seconds(process.pid)
        start = time.perf_counter()
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=600)
        stop = time.perf_counter() - start
        for sock in socks:
            sock.close()
    cpu = (f"{cpu_after - cpu_before:.2f} s" if cpu_before is not None
           and cpu_after is not None else "unknown")
    print(f"connections: {args.idle} idle + {args.streams} event streams")
    print(f"open:  {opened:.2f} s (serve's CPU meanwhile: {cpu})")
    print(f"page:  {page:.3f} s, {status}")
    print(f"page after resets: {page_after:.3f} s, {status_after}")
    print(f"stop:  {stop:.2f} s from SIGINT to exit {process.returncode}")
    print(f"stderr: {len(err.splitlines())} lines, {err.count('Traceback')} tracebacks; "
          f"last: {err.splitlines()[-1] if err else ''!r}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
