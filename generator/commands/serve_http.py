"""The HTTP server of the preview (docs/site.md, "serve"): a thread per connection, at most
:data:`MAX_CONNECTIONS` at once; every request through the filter
(:func:`generator.commands.serve_hosts.refusal`) first; a request's line and headers within
:data:`REQUEST_DEADLINE` seconds in all; HTML with the reload script, the error page while a
build fails, and the events stream of ``/__serve__/events``. A client that goes away is no
error.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import posixpath
import socket
import sys
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from typing import Protocol
from urllib.parse import parse_qs
from urllib.parse import quote
from urllib.parse import unquote
from urllib.parse import urlsplit

from generator.commands.serve_hosts import Hosts
from generator.commands.serve_hosts import refusal
from generator.commands.serve_pages import EVENTS
from generator.commands.serve_pages import RELOAD_JS
from generator.commands.serve_pages import SCRIPT
from generator.commands.serve_pages import Shown
from generator.commands.serve_pages import error_page
from generator.commands.serve_pages import inject
from generator.commands.serve_pages import waiting_page
from generator.errors import shown as shown_name
from generator.layout import NOT_FOUND
from generator.layout import not_found_output
from generator.render.preview import page_locale

KEEP_ALIVE = 15.0
"""Seconds between the events stream's comments that keep an idle connection open (and
find a closed one)."""
MAX_CONNECTIONS = 128
"""The connections served at once (each open page holds one, its events stream, and a
browser opens about six more while it loads one); a connection beyond them is answered
``503`` and closed at once, so that a flood of clients neither exhausts the threads nor
delays Ctrl-C."""
MAX_STREAMS = MAX_CONNECTIONS // 2
"""The events streams served at once (one per open page): one more is answered ``503``
(its page reloads no more by itself), so that streams, which stay open, never take every
connection and pages are still served."""
REQUEST_TIMEOUT = 10.0
"""Seconds a connection may keep serve waiting on one read or write (a client sending
its request slowly, a page that stopped reading its events stream); then it is closed."""
REQUEST_DEADLINE = 10.0
"""Seconds a connection has for its whole request line and headers, however it spaces
its reads (a client sending a header line every few seconds): then it is closed, so
that slow clients cannot keep every connection. What follows the headers (a page, the
events stream, which stays open) is bounded by :data:`REQUEST_TIMEOUT` a read or write."""
SAID_LIMIT = 20
"""How many different refused host names, or failures of a request, the terminal is
told of (each once): a flood of requests does not flood the terminal."""



_BUSY_TEXT = b"The preview serves as many connections as it can now; try again.\n"
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 2\r\nConnection: close\r\nContent-Length: "
        + str(len(_BUSY_TEXT)).encode() + b"\r\n\r\n" + _BUSY_TEXT)
"""The answer to a connection beyond :data:`MAX_CONNECTIONS`, sent without reading its
request."""
GONE_CLIENT = (ConnectionError, TimeoutError)
"""What a client that went away (closed, reset, too slow) raises: no error of serve's."""



class Served(Protocol):
    """What the server serves: the preview (:class:`generator.commands.serve.Preview`).

    Attributes:
        session: the preview's random id (a reload script of another session reloads).
        site: the temporary site folder.
        base: the path the site is served at (``/``, or ``site_url``'s: ``/rules/``).
        hosts: the hosts the preview answers to.
        say: prints a line to the terminal.
    """

    session: str
    site: Path
    base: str
    hosts: Hosts
    say: Callable[[str], None]

    def shown(self) -> Shown:
        """What the pages show now."""

    def wait_for(self, build: int, timeout: float | None) -> Shown:
        """Wait until the build counter passes ``build``; what is shown then."""

    @property
    def stopping(self) -> bool:
        """Whether the preview stops (the events streams end)."""


class PreviewServer(ThreadingHTTPServer):
    """The HTTP server: a thread per connection, at most :data:`MAX_CONNECTIONS` at once
    (threads do not keep the process alive); a client that goes away is no error, any
    other failure of a request is one line on the terminal, never a traceback."""

    daemon_threads = True
    request_queue_size = MAX_CONNECTIONS

    def __init__(self, address: tuple[str, int], handler: type[PreviewHandler],
                 preview: Served) -> None:
        self.preview = preview
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.streams = threading.BoundedSemaphore(MAX_STREAMS)
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._full = False
        self._told: set[str] = set()
        super().__init__(address, handler)

    def tell_once(self, key: str, line: str) -> None:
        """Say ``line`` on the terminal unless a line of ``key`` was said (at most
        :data:`SAID_LIMIT` keys)."""
        with self._lock:
            if key in self._told or len(self._told) >= SAID_LIMIT:
                return
            self._told.add(key)
        self.preview.say(line)

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve the connection in a thread of its own, or refuse it when
        :data:`MAX_CONNECTIONS` are open (or no thread can be started)."""
        if not self._slots.acquire(blocking=False):
            self._refuse(request)
            return
        with self._lock:
            self._open.add(request)
            self._full = False
        try:
            super().process_request(request, client_address)
        except RuntimeError:  # no thread can be started now
            self.shutdown_request(request)
            self._slots.release()
            self._refuse(request)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        """Serve the connection (in its thread), then free its place."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def _refuse(self, request: socket.socket) -> None:
        with self._lock:
            told, self._full = self._full, True
        if not told:  # once until a connection is served again
            self.preview.say(f"{MAX_CONNECTIONS} connections are open: serve refuses "
                             "more until some close")
        with contextlib.suppress(OSError):
            request.setblocking(False)
            request.send(BUSY)
        self.shutdown_request(request)

    def shutdown_request(self, request: Any) -> None:
        """Close the connection (no more :meth:`drop_connections`' to end)."""
        with self._lock:
            self._open.discard(request)
            super().shutdown_request(request)

    def drop_connections(self) -> None:
        """End every open connection (its thread sees it closed and ends): a stop
        waits for no idle client."""
        with self._lock:
            for request in self._open:
                with contextlib.suppress(OSError):
                    request.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request failed: a client that went away is nothing to say; anything else
        is one line (each kind once), no traceback."""
        exc = sys.exc_info()[1]
        if exc is None or isinstance(exc, GONE_CLIENT) or (
                isinstance(exc, OSError) and exc.errno == errno.ENOTCONN):
            return
        what = f"{type(exc).__name__}: {exc}"
        self.tell_once(what, f"a request failed ({shown_name(what)}); serve goes on")


class PreviewServer6(PreviewServer):
    """The server on an IPv6 address."""

    address_family = socket.AF_INET6


class PreviewHandler(SimpleHTTPRequestHandler):
    """Serves the temporary site; HTML gets the reload script; a failed build's lines
    replace every page; ``/__serve__/events`` and ``/__serve__/reload.js``."""

    timeout = REQUEST_TIMEOUT

    def __init__(self, request: Any, client_address: Any, server: PreviewServer) -> None:
        self.preview = server.preview
        self.serving = server
        super().__init__(request, client_address, server, directory=str(server.preview.site))

    def setup(self) -> None:
        """Read the connection through a :class:`_DeadlineReader`, so that the request's
        line and headers have :data:`REQUEST_DEADLINE` seconds in all."""
        super().setup()
        self.rfile.close()  # the socket's own reader, replaced (the socket stays open)
        self.reader = _DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        """Read one request within :data:`REQUEST_DEADLINE` (line and headers), then
        answer it (:meth:`parse_request` lifts the deadline). A client too slow is
        closed."""
        self.reader.deadline = time.monotonic() + REQUEST_DEADLINE
        super().handle_one_request()

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (the terminal shows the builds)."""

    def parse_request(self) -> bool:
        """Read the request's line and headers, then pass it through the request
        filter (:func:`refusal`): a refused request is answered here, in plain text, and
        goes no further. Returns whether the request is to be served."""
        if not super().parse_request():
            return False
        self.reader.deadline = None  # the headers are read: the answer may take long
        self.connection.settimeout(REQUEST_TIMEOUT)
        refused = refusal(self.path, self.headers.get_all("Host") or [], self.preview.hosts,
                          self.headers.get_all("Origin") or [])
        if refused is None:
            return True
        if refused.host is not None:
            self.serving.tell_once(
                f"host {refused.host}", f'refused a request for the host "{refused.host}": '
                "not one this preview answers to (serve --allow-host NAME adds one)")
        self._plain(refused.status, refused.text)
        return False

    def _plain(self, status: HTTPStatus, text: str) -> None:
        """Answer with ``text``, plain, and close the connection."""
        self.close_connection = True
        body = (text + "\n").encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self) -> None:
        """Every response is fresh: a reload shows the new build."""
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        """Answer a GET (see the class)."""
        self._answer(head=False)

    def do_HEAD(self) -> None:
        """Answer a HEAD as a GET, without the body."""
        self._answer(head=True)

    def _answer(self, head: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        if path == EVENTS and not head:
            self._events(self._events_page())
            return
        if path == SCRIPT:
            self._send(HTTPStatus.OK, "text/javascript; charset=utf-8", RELOAD_JS, head)
            return
        base = self.preview.base
        within = self._within_base(path, base, head)
        if within is None:
            return
        path = within
        if (not path.endswith("/") and _is_page_path(path)
                and Path(self.translate_path(path)).is_dir()):
            self._redirect(HTTPStatus.MOVED_PERMANENTLY, base + path[1:] + "/")  # a folder's
            return
        shown = self.preview.shown()
        if shown.build == 0 and _is_page_path(path):  # the first build still runs
            self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/html; charset=utf-8",
                       waiting_page(self.preview.session), head)
            return
        page = self._page(path)
        if shown.errors is not None and (page is not None or not shown.site
                                         or _is_page_path(path)):
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, "text/html; charset=utf-8",
                       error_page(shown, self.preview.session, page_locale(path)), head)
            return
        status = HTTPStatus.OK
        if page is None and _is_page_path(path) \
                and not Path(self.translate_path(path)).exists():
            page, status = self._not_found(path), HTTPStatus.NOT_FOUND
        if page is not None:
            self._send_page(page, status, shown, head)
        elif head:
            super().do_HEAD()
        else:
            super().do_GET()

    def _within_base(self, path: str, base: str, head: bool) -> str | None:
        """``path`` as the site's own (from its root) where the site is served at
        ``base`` (``site_url``'s path): ``/`` and ``base`` without its slash are sent
        there, a path outside it gets the root's "page not found" page (then ``None``:
        answered); the request's path is rewritten to the site's own."""
        if base == "/":
            return path
        if path in ("/", base[:-1]):
            self._redirect(HTTPStatus.FOUND, base)
            return None
        if not path.startswith(base):
            self._outside(head)
            return None
        path = "/" + path[len(base):]
        query = urlsplit(self.path).query
        self.path = quote(path) + (f"?{query}" if query else "")
        return path

    def _send_page(self, page: Path, status: HTTPStatus, shown: Shown, head: bool) -> None:
        """A page of the site with the reload script added, as of its version (a "page
        not found" page: of the build; :meth:`Shown.version`); 503 when it was swapped
        out as it was read: the browser asks again on reload."""
        try:
            data = page.read_bytes()
        except OSError:
            self.send_error(HTTPStatus.SERVICE_UNAVAILABLE)
            return
        rel = None
        if status == HTTPStatus.OK:
            with contextlib.suppress(ValueError):
                rel = page.relative_to(self.preview.site).as_posix()
        self._send(status, "text/html; charset=utf-8",
                   inject(data, shown, self.preview.session, rel), head)

    def _events_page(self) -> str | None:
        """The site path of the page whose events stream is asked for (``?page=PATH``,
        the page's path as the browser has it, under the site's :attr:`base`): the file
        it is served from where it is a page (a folder's ``index.html``), else
        ``None``."""
        values = parse_qs(urlsplit(self.path).query).get("page")
        base = self.preview.base
        path = unquote(values[0]) if values else ""
        if not path.startswith(base) or not _is_page_path(path):
            return None
        rel = path[len(base):]
        if rel == "" or rel.endswith("/"):
            rel += "index.html"
        parts = rel.split("/")
        return rel if all(part not in ("", ".", "..") for part in parts) else None

    def _redirect(self, status: HTTPStatus, location: str) -> None:
        """Send the browser to ``location`` (a path of this server)."""
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _outside(self, head: bool) -> None:
        """Answer a path outside the site's (a site served under ``site_url``'s path):
        the site's root "page not found" page, status 404."""
        page = self._not_found("/")
        try:
            data = page.read_bytes() if page is not None else None
        except OSError:  # swapped out just now
            data = None
        if data is None:
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8",
                   inject(data, self.preview.shown(), self.preview.session), head)

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """No folder listings: a folder without ``index.html`` is not found."""
        self.send_error(HTTPStatus.NOT_FOUND)

    def _page(self, path: str) -> Path | None:
        """The HTML file that ``path`` names (a folder's ``index.html``), if any."""
        local = Path(self.translate_path(path))
        if path.endswith("/"):
            local = local / "index.html"
        return local if local.suffix == ".html" and local.is_file() else None

    def _not_found(self, path: str) -> Path | None:
        """The site's "page not found" page for a missing ``path``: its locale's
        (``<lang>/404.html``, the first folder of ``path``), else the root one, as a web
        host told to show them would; ``None`` when the site has neither."""
        first = path.strip("/").split("/", 1)[0]
        for rel in ([not_found_output(first)] if first else []) + [NOT_FOUND]:
            local = self.preview.site / rel
            if local.is_file():
                return local
        return None

    def _send(self, status: HTTPStatus, kind: str, body: bytes, head: bool) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self, rel: str | None) -> None:
        """The events stream of the page of site path ``rel`` (``None``: of every
        build; at most :data:`MAX_STREAMS` at once)."""
        if not self.serving.streams.acquire(blocking=False):
            self._plain(HTTPStatus.SERVICE_UNAVAILABLE, f"{MAX_STREAMS} events streams are "
                        "open; this page reloads no more by itself.")
            return
        try:
            self._stream(rel)
        finally:
            self.serving.streams.release()

    def _stream(self, rel: str | None) -> None:
        """The events stream: the version of the page of site path ``rel`` now
        (:meth:`Shown.version`: the build, without a page), then one message each time
        it changes, until the client goes away or the preview stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        preview = self.preview
        shown = preview.wait_for(0, None)  # the first build's message, once it is done
        if preview.stopping:
            return
        try:
            self.wfile.write(_event(shown, preview.session, rel))
            self.wfile.flush()
            while not preview.stopping:
                now = preview.wait_for(shown.build, KEEP_ALIVE)
                if preview.stopping:
                    break
                told = now.version(rel) != shown.version(rel) \
                    or (now.errors is None) != (shown.errors is None)
                self.wfile.write(_event(now, preview.session, rel) if told
                                 else b": keep-alive\n\n")
                self.wfile.flush()
                shown = now
        except OSError:  # the page was closed or reloaded
            pass


class _DeadlineReader(socket.SocketIO):
    """A connection's reading end whose reads, while :attr:`deadline` is set, wait no
    longer than until then in all (each read's timeout is the time left); without a
    deadline, a read waits the socket's timeout.

    Attributes:
        deadline: the :func:`time.monotonic` time the reads must be done by, or
            ``None``.
    """

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(sock, "rb")
        self.sock = sock
        self.deadline: float | None = None

    def readinto(self, b: Any) -> int | None:
        """Read into ``b`` (see :meth:`socket.SocketIO.readinto`).

        Raises:
            TimeoutError: the deadline has passed, or passes while it waits.
        """
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the request's headers took too long")
            self.sock.settimeout(left)
        return super().readinto(b)


def _event(shown: Shown, session: str, rel: str | None = None) -> bytes:
    data = json.dumps({"build": shown.version(rel), "session": session,
                       "ok": shown.errors is None})
    return f"data: {data}\n\n".encode()


def _is_page_path(path: str) -> bool:
    """A path that names a page (a folder or ``.html``), not an asset."""
    return path.endswith("/") or posixpath.splitext(path)[1] in ("", ".html")


