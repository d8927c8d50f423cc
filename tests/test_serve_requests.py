"""``serve``'s request filter and connections (docs/site.md, "serve"): only the hosts it
answers to (DNS rebinding), pages and the events stream alike; no page of another site;
a path with a control character or a dot segment refused, never a traceback; a client
that goes away is no error; at most ``MAX_CONNECTIONS`` at once, and a stop waits for no
idle client; ``--host ""`` and a wrong ``--allow-host`` are errors (exit 2)."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from generator.commands import serve as serve_module
from generator.commands import serve_http
from generator.commands.serve import Preview
from generator.commands.serve_hosts import Hosts
from generator.commands.serve_hosts import accepted_hosts
from generator.commands.serve_hosts import host_name
from generator.commands.serve_hosts import refusal
from generator.commands.serve_http import BUSY
from generator.commands.serve_pages import EVENTS
from generator.commands.serve_pages import SCRIPT
from tests.conftest import EXTENDED
from tests.conftest import REPO
from tests.conftest import run_cli


class Served:
    """A preview of a project of ``init``'s, built once, served from a thread (no
    watcher: these tests change no file); ``said`` holds its terminal lines."""

    def __init__(self, project: Path, allow: tuple[str, ...] = ()) -> None:
        self.said: list[str] = []
        self.preview = Preview(project, "127.0.0.1", 0, self.said.append, self.said.extend,
                               allow)
        self.preview.listen()
        self.preview.start()
        assert self.preview.rebuild().errors is None, self.said
        self.port = self.preview.port

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=20)

    def raw(self, request: bytes) -> bytes:
        """Send ``request`` as it is; the whole answer (the server closes)."""
        with self.connect() as sock:
            sock.sendall(request)
            return _read_all(sock)

    def get(self, path: str, host: str, *headers: str) -> tuple[int, bytes]:
        """GET ``path`` with ``Host: host`` (and ``headers``): the status and the body."""
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", *headers, "", ""]
        answer = self.raw("\r\n".join(lines).encode("utf-8"))
        head, _, body = answer.partition(b"\r\n\r\n")
        return int(head.split(b" ", 2)[1]), body


def _read_all(sock: socket.socket, within: float = 20.0) -> bytes:
    """What ``sock`` receives until the server closes it, within ``within`` seconds (an
    events stream that was opened would otherwise keep it reading)."""
    data = b""
    deadline = time.monotonic() + within
    while chunk := sock.recv(65536):
        data += chunk
        assert time.monotonic() < deadline, f"not closed within {within} s: {data[:300]!r}"
    return data


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One preview for the module's tests (a build is most of a test's time)."""
    home = tmp_path_factory.mktemp("served")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))  # (see conftest)
        assert run_cli("init", str(home / "project")).returncode == 0
        server = Served(home / "project")
    try:
        yield server
    finally:
        server.preview.close()


FOREIGN = ["evil.example:{port}", "attacker.com", "127.0.0.1.nip.io", "localhost.evil.example",
           "EVIL.example.", "evil.example:{port}:{port}", "a b", "evil@127.0.0.1", "",
           "127.1", "0x7f.0.0.1", "[::1", "::1"]
"""``Host`` values the preview refuses: names that are not its own (a DNS rebinding
page's), malformed values, IPv4 addresses spelt as no browser sends them."""
OWN = ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST.", "app.localhost", "[::1]:{port}",
       "192.0.2.7:{port}", "[2001:db8::7]", "localhost:"]
"""``Host`` values it answers to: localhost and the names under it, IP addresses."""


def test_a_foreign_host_is_refused_pages_and_events_alike(served: Served) -> None:
    """DNS rebinding: a page of another site whose name is made to lead to 127.0.0.1
    sends its own name as ``Host``; the preview refuses it (403, saying which hosts it
    answers to and how to add one) for pages, assets, the reload script and the events
    stream, and answers its own names and IP addresses."""
    port = served.port
    for host in FOREIGN:
        value = host.format(port=port)
        for path in ("/en/", "/", "/static/style.css", SCRIPT, EVENTS):
            status, body = served.get(path, value, "Origin: http://evil.example")
            assert status == 403, (value, path, body)
        status, body = served.get("/en/", value)
        assert status == 403, value
    status, body = served.get("/en/", f"evil.example:{port}")
    assert body.decode("utf-8") == (
        'This preview does not answer to the host "evil.example" (a page of another site '
        "could read it through such a name: DNS rebinding).\nIt answers to localhost (and "
        "the names under it), any IP address.\nTo make it answer to this name too: serve "
        "--allow-host evil.example\n")
    for host in OWN:
        status, body = served.get("/en/", host.format(port=port))
        assert status == 200 and b"</html>" in body, (host, body[:200])
    # the terminal is told once per host name, never a traceback
    refused = [line for line in served.said if line.startswith("refused a request")]
    assert refused.count('refused a request for the host "evil.example": not one this '
                         "preview answers to (serve --allow-host NAME adds one)") == 1
    assert len(refused) <= serve_http.SAID_LIMIT


def test_the_events_stream_opens_for_its_own_host_only(served: Served) -> None:
    with served.connect() as sock:
        sock.sendall(f"GET {EVENTS} HTTP/1.1\r\nHost: attacker.com\r\n"
                     f"Origin: http://attacker.com\r\n\r\n".encode())
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.0 403 Forbidden\r\n")
    assert b"text/event-stream" not in answer and b"data:" not in answer
    with served.connect() as sock:
        sock.sendall(f"GET {EVENTS} HTTP/1.1\r\nHost: localhost:{served.port}\r\n\r\n"
                     .encode())
        answer = b""
        while b"data: " not in answer:
            chunk = sock.recv(4096)
            assert chunk, answer
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 200 OK\r\n")
    assert b"Content-Type: text/event-stream\r\n" in answer


def test_a_page_of_another_site_is_refused(served: Served) -> None:
    """An ``Origin`` (a browser's, for the events stream a page of another site opens
    at 127.0.0.1) whose host is not the preview's: 403; the preview's own: served."""
    port = served.port
    for origin in ("http://evil.example", "null", f"http://evil.example:{port}", "garbage",
                   "http://a@127.0.0.1"):
        status, body = served.get(EVENTS, f"127.0.0.1:{port}", f"Origin: {origin}")
        assert status == 403, origin
        assert body.startswith(b"This preview answers no page of another site"), body
    status, _ = served.get("/en/", f"127.0.0.1:{port}", f"Origin: http://localhost:{port}")
    assert status == 200


def test_the_request_names_one_host(served: Served) -> None:
    """No ``Host`` (HTTP/1.1 asks for one), two of them, or an absolute target naming
    another host: refused."""
    assert served.raw(b"GET /en/ HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.0 400 ")
    assert served.raw(b"GET /en/ HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 400 ")
    answer = served.raw(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 400 ") and answer.endswith(
        b"\r\n\r\nMore than one Host header; expected one.\n")
    answer = served.raw(b"GET http://evil.example/en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 403 ")
    answer = served.raw(b"GET http://localhost/en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 200 ")


def test_a_path_with_a_control_character_or_a_dot_segment_is_refused(
        served: Served, capfd: pytest.CaptureFixture[str]) -> None:
    """``/static/style.css%00`` made the handler open a path with a NUL: a traceback
    on the terminal and no answer at all. Every control character (raw bytes cannot
    be sent: the request line is split at them or refused) is a 400, a dot segment
    after decoding a 404; the terminal stays quiet."""
    capfd.readouterr()
    before = list(served.said)
    for code in [*range(0x20), 0x7f, 0x80, 0x85, 0x9f]:
        char = "".join(f"%{byte:02X}" for byte in chr(code).encode("utf-8"))
        for path in (f"/static/style.css{char}", f"/en/{char}", f"/{char}.html",
                     f"/static/{char.lower()}style.css", f"/__serve__/events{char}"):
            answer = served.raw(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.0 400 Bad Request\r\n"), (path, answer[:80])
            assert answer.endswith(b"\r\n\r\nThe path holds a control character.\n")
    for path in ("/static/..%2fstyle.css", "/%2e%2e/%2e%2e/etc/passwd", "/en/%2E/",
                 "/..%2f..%2f..%2fetc/passwd", "/.rules-site/", "/%2erules-site",
                 "/static/../../SECRET.txt"):
        answer = served.raw(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.0 404 "), (path, answer[:80])
    assert served.raw(b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                      ).startswith(b"HTTP/1.0 200 OK\r\n")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert served.said == before


def _reset(sock: socket.socket) -> None:
    """Close ``sock`` with a reset (RST), as a client killed or a browser tab closed
    abruptly does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_clients_that_go_away_are_no_error(
        served: Served, capfd: pytest.CaptureFixture[str]) -> None:
    """A client that resets the connection before, while or after its answer is sent
    (ConnectionResetError, BrokenPipeError) wrote a traceback each; now nothing is said,
    and serve goes on serving."""
    capfd.readouterr()
    before = list(served.said)
    for round_ in range(10):
        for path in ("/en/", "/static/style.css", EVENTS, "/nothing-here/"):
            sock = served.connect()
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            if round_ % 2:
                sock.recv(10)  # the answer has begun
            _reset(sock)
        half = served.connect()
        half.sendall(b"GET /en/ HTTP/1.1\r\nHo")  # half a request, then gone
        _reset(half)
    time.sleep(0.5)  # the threads meet the resets
    status, body = served.get("/en/", "127.0.0.1")
    assert status == 200 and b"</html>" in body
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert served.said == before


def test_hosts_allowed_by_name() -> None:
    """``--allow-host`` adds a name (``.name``: it and the names under it); listening on
    every interface adds this machine's name; a name to listen on is answered."""
    hosts = accepted_hosts("127.0.0.1", False, ["preview.example.org", ".tunnel.example"])
    assert hosts == Hosts((".localhost", "preview.example.org", ".tunnel.example"))
    for host in ("preview.example.org", "Preview.Example.org.:8000", "tunnel.example",
                 "a.b.tunnel.example:1"):
        assert hosts.allows(host), host
    for host in ("example.org", "other.example.org", "evil-tunnel.example",
                 "preview.example.org.evil"):
        assert not hosts.allows(host), host
    machine = socket.gethostname().lower()
    every = accepted_hosts("0.0.0.0", True)
    assert every.allows(f"{machine}:8000")
    assert not accepted_hosts("0.0.0.0", False).allows(f"{machine}:8000") or (
        machine == "localhost" or machine.endswith(".localhost"))
    assert accepted_hosts("myhost.lan", False).allows("myhost.lan:8000")
    assert accepted_hosts("localhost", False, ["app.localhost", ".x.localhost", "10.0.0.1"]
                          ) == Hosts((".localhost",))  # taken in already
    assert accepted_hosts("::1", False, ["a.example", ".example"]).names == (
        ".localhost", "a.example", ".example")
    assert accepted_hosts("::", True).describe().startswith(
        "localhost (and the names under it), any IP address, ")
    assert host_name(" Preview.Example.ORG. ") == "preview.example.org"
    for wrong in ("", " ", "*", "*.example.org", "http://example.org", "example.org:80",
                  "example.org/path", "a b", "exa\x00mple", "..", "-a.example", "a..b"):
        with pytest.raises(ValueError, match="is no host name; expected a name such as"):
            host_name(wrong)


def test_the_filter_alone() -> None:
    """:func:`refusal`: ``None`` for a request to serve; the status otherwise."""
    hosts = accepted_hosts("127.0.0.1", False)
    assert refusal("/en/", ["localhost:8000"], hosts) is None
    assert refusal("/en/?q=../..%00", ["localhost"], hosts) is None  # the query is no path
    cases = {("/en/", ("evil.example",), ()): 403, ("/en/", (), ()): 400,
             ("/en/", ("a", "b"), ()): 400, ("/a%00", ("localhost",), ()): 400,
             ("/a/%2e%2e/b", ("localhost",), ()): 404,
             ("http://[bad/", ("localhost",), ()): 400,
             ("/en/", ("localhost",), ("http://evil.example",)): 403}
    for (target, host, origin), status in cases.items():
        refused = refusal(target, host, hosts, origin)
        assert refused is not None and refused.status == status, (target, host, origin)


def test_an_empty_host_is_an_error_at_the_command_line(tmp_path: Path) -> None:
    """``--host ""`` (an unset ``$HOST``) listened on every interface and printed
    ``http://:PORT/``; now it is refused before anything listens (exit 2), and so is an
    ``--allow-host`` that is no host name. (``--host ""`` in a process of its own, with
    a time limit: the old behaviour served until stopped.)"""
    project = tmp_path / "new"
    assert run_cli("init", str(project)).returncode == 0
    empty = ("--host '': an empty address; expected an address of this machine, such as "
             "127.0.0.1 (0.0.0.0 for every interface)")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "generator", "serve", "--project", str(project),
             "--port", "0", "--host", ""], cwd=REPO, capture_output=True, text=True,
            timeout=30, check=False)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"serve --host '' served: {exc.stderr!r}") from exc
    assert (result.returncode, result.stdout, result.stderr) == (2, empty + "\n", "")
    for args, message in [
            (["--host", "  "], "--host '  ': an empty address; expected an address of this "
                               "machine, such as 127.0.0.1 (0.0.0.0 for every interface)"),
            (["--allow-host", "preview.example", "--allow-host", "http://evil.example/"],
             "--allow-host: 'http://evil.example/' is no host name; expected a name such as "
             "preview.example.org, or .example.org for it and every name under it"),
            (["--allow-host", "*"], "--allow-host: '*' is no host name; expected a name such "
                                    "as preview.example.org, or .example.org for it and "
                                    "every name under it")]:
        result = run_cli("serve", "--project", str(project), "--port", "0", *args)
        assert (result.returncode, result.stdout, result.stderr) == (2, message + "\n", ""), args
    assert not (project / "site").exists()


@pytest.fixture
def small_bound(monkeypatch: pytest.MonkeyPatch) -> int:
    """``MAX_CONNECTIONS`` made small for a test (it is read when a server starts)."""
    monkeypatch.setattr(serve_http, "MAX_CONNECTIONS", 6)
    return 6


def test_connections_beyond_the_bound_are_refused_and_close_ends_idle_ones(
        tmp_path: Path, small_bound: int) -> None:
    """At most ``MAX_CONNECTIONS`` connections at once: the next is answered 503 at
    once (before its request is read); one freed, a request is served again; and
    :meth:`Preview.close` ends the idle connections (they see the end of the stream)
    instead of leaving their threads waiting on them."""
    said: list[str] = []
    preview = Preview(tmp_path, "127.0.0.1", 0, said.append, said.extend)
    preview.listen()
    preview.start()  # no build: the reload script is served all the same
    port = preview.port
    idle = [socket.create_connection(("127.0.0.1", port), timeout=20)
            for _ in range(small_bound)]
    try:
        for sock in idle:
            sock.sendall(b"GET / HTTP/1.1\r\n")  # half a request: the thread waits
        time.sleep(0.3)  # every one accepted
        with socket.create_connection(("127.0.0.1", port), timeout=20) as extra:
            assert _read_all(extra) == BUSY
        assert said == [f"{small_bound} connections are open: serve refuses more until "
                        "some close"]
        idle.pop().close()
        deadline = time.monotonic() + 20
        while True:  # the freed place is taken by the next connection
            with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
                sock.sendall(f"GET {SCRIPT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                answer = _read_all(sock)
            if answer != BUSY or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert answer.startswith(b"HTTP/1.0 200 OK\r\n")
        closing = threading.Thread(target=preview.close)
        closing.start()
        closing.join(timeout=20)
        assert not closing.is_alive()
        for sock in idle:
            assert sock.recv(100) == b""  # ended by serve, not left waiting
    finally:
        for sock in idle:
            sock.close()
        preview.close()


def test_clients_trickling_their_headers_are_closed_at_the_deadline(
        tmp_path: Path, small_bound: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that sends a header line now and then, each in less than a read's
    timeout, is closed once ``REQUEST_DEADLINE`` has passed since its request began:
    clients trickling on every connection do not keep the preview answering 503. An
    events stream opened in time stays open past the deadline."""
    monkeypatch.setattr(serve_http, "REQUEST_DEADLINE", 0.6)
    said: list[str] = []
    preview = Preview(tmp_path, "127.0.0.1", 0, said.append, said.extend)
    preview.listen()
    preview.start()  # no build: the reload script is served all the same
    port = preview.port
    stream = socket.create_connection(("127.0.0.1", port), timeout=20)
    stream.sendall(f"GET {EVENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        head += stream.recv(1)
    assert head.startswith(b"HTTP/1.0 200 OK\r\n")
    slow = [socket.create_connection(("127.0.0.1", port), timeout=20)
            for _ in range(small_bound - 1)]
    try:
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed: set[int] = set()
        for _ in range(40):  # a header line every 0.1 s, for up to 4 s
            time.sleep(0.1)
            for number, sock in enumerate(slow):
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    closed.add(number)
            if len(closed) == len(slow):
                break
        assert closed == set(range(len(slow)))
        for sock in slow:  # closed without an answer
            with contextlib.suppress(ConnectionResetError):  # (after the lines sent)
                assert _read_all(sock) == b""
        with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
            sock.sendall(f"GET {SCRIPT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert _read_all(sock).startswith(b"HTTP/1.0 200 OK\r\n")
        stream.setblocking(False)
        with pytest.raises(BlockingIOError):  # open still, nothing more to read yet
            stream.recv(100)
        assert said == []
    finally:
        for sock in [*slow, stream]:
            sock.close()
        preview.close()


def test_events_streams_take_at_most_half_the_connections(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Events streams stay open: past ``MAX_STREAMS`` one more is answered 503 (and its
    connection freed), so that pages are still served; a stop ends the open streams."""
    monkeypatch.setattr(serve_http, "MAX_CONNECTIONS", 6)
    monkeypatch.setattr(serve_http, "MAX_STREAMS", 3)
    said: list[str] = []
    preview = Preview(tmp_path, "127.0.0.1", 0, said.append, said.extend)
    preview.listen()
    preview.start()  # no build: a stream waits for the first one
    streams = [socket.create_connection(("127.0.0.1", preview.port), timeout=20)
               for _ in range(3)]
    try:
        for sock in streams:
            sock.sendall(f"GET {EVENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert sock.recv(17) == b"HTTP/1.0 200 OK\r\n"
        for _ in range(5):  # more than the connections left: each is freed at once
            with socket.create_connection(("127.0.0.1", preview.port), timeout=20) as sock:
                sock.sendall(f"GET {EVENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                answer = _read_all(sock)
            assert answer.startswith(b"HTTP/1.0 503 Service Unavailable\r\n")
            assert answer.endswith(b"\r\n\r\n3 events streams are open; this page reloads "
                                   b"no more by itself.\n")
        with socket.create_connection(("127.0.0.1", preview.port), timeout=20) as sock:
            sock.sendall(f"GET {SCRIPT} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert _read_all(sock).startswith(b"HTTP/1.0 200 OK\r\n")
        preview.close()
        for sock in streams:
            assert b"data:" not in _read_all(sock)  # ended, without a build's message
        assert said == []
    finally:
        for sock in streams:
            sock.close()
        preview.close()


@pytest.mark.extended
@pytest.mark.skipif(not EXTENDED, reason="in the extended round only (RULES_EXTENDED=1): "
                    "a serve process flooded with clients (1 s of CPU)")
def test_a_flood_of_idle_clients_and_event_streams_then_ctrl_c(tmp_path: Path) -> None:
    """Many idle clients (half a request each), event streams and resets against a
    serve process, then SIGINT: it answers a page while they are open or refuses it
    with 503 (the bound), says no traceback, and stops with ``stopped``, exit 0, at
    once (not minutes after the Ctrl-C). The extended round opens
    1,000 idle connections and 300 streams; the default a few. (The time to stop is
    measured by benchmarks/serve_flood.py, not asserted here.)"""
    idle_count, streams = (1000, 300) if EXTENDED else (20, 5)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < idle_count + streams + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    project = tmp_path / "new"
    assert run_cli("init", str(project)).returncode == 0
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "--project", str(project), "--port",
         "0"], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    socks: list[socket.socket] = []
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        port = int(first.rsplit(":", 1)[1].split("/")[0])
        assert "(build 1)" in process.stderr.readline()
        for number in range(idle_count + streams):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            request = (f"GET {EVENTS} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                       if number >= idle_count else "GET /en/ HTTP/1.1\r\nHost: 127.0.0.1"
                       "\r\n\r\n" if number % 10 == 0 else "GET /en/ HTTP/1.1\r\n")
            with contextlib.suppress(OSError):  # (one beyond the bound: closed already)
                sock.sendall(request.encode())
            if number < idle_count and number % 10 == 0:
                _reset(sock)  # one in ten asks for a page and goes away at once
            else:
                socks.append(sock)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = _read_all(sock)
        assert answer.startswith(b"HTTP/1.0 200 OK\r\n") or answer == BUSY
        for sock in socks[::2]:  # half of them go away abruptly
            _reset(sock)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        for sock in socks:
            sock.close()
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "Traceback" not in err and "Traceback" not in out
    assert err.endswith("stopped\n"), err
    assert [line for line in err.splitlines()[2:-1]
            if not line.startswith(f"{serve_http.MAX_CONNECTIONS} connections are open")
            ] == [], err
    assert list(tmp_path.glob(f"{serve_module.TEMP_PREFIX}*")) == []


def _answer(server: Served, path: str) -> tuple[int, dict[str, str], bytes]:
    """GET ``path`` from ``server``'s own host: the status, the headers (lower-case
    names) and the body."""
    answer = server.raw(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                        "Connection: close\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split(" ", 2)[1]), {k.lower(): v for k, v in headers.items()}, body


def test_a_site_with_a_sub_path_is_served_at_it(init_project: Path) -> None:
    """With ``site_url: https://example.org/rules/`` the pages link from ``/rules/`` (the
    "page not found" pages' stylesheet and links): serve serves the site there, as the
    web host will; ``/`` and ``/rules`` lead to ``/rules/``, a folder's address without
    its "/" to the folder, and a path outside ``/rules/`` is the site's "page not found"
    page, status 404."""
    with (init_project / "site.yaml").open("a", encoding="utf-8") as settings:
        settings.write("site_url: https://example.org/rules/\n")
    server = Served(init_project)
    try:
        assert server.preview.url == f"http://127.0.0.1:{server.port}/rules/"
        for path in ("/", "/rules"):
            status, headers, _ = _answer(server, path)
            assert (status, headers["location"]) == (302, "/rules/"), path
        status, headers, _ = _answer(server, "/rules/en")
        assert (status, headers["location"]) == (301, "/rules/en/")
        status, _, body = _answer(server, "/rules/en/index.html")
        assert status == 200 and b'<html lang="en"' in body
        status, _, body = _answer(server, "/rules/en/no/such/page")
        assert status == 404
        missing = BeautifulSoup(body, "html.parser")
        links = [str(a["href"]) for a in missing.select("main a[href], article a[href]")]
        sheet = missing.select_one('link[rel="stylesheet"]')
        assert links and sheet is not None
        for href in [str(sheet["href"]), *links]:
            assert href.startswith("/rules/"), href
            assert _answer(server, href.split("#")[0])[0] == 200, href
        for outside in ("/en/index.html", "/index.html", "/static/x.css"):
            status, _, body = _answer(server, outside)
            assert status == 404 and b"/rules/" in body, outside
    finally:
        server.preview.close()
