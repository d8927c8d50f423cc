"""The ``serve`` command: the authors' preview (docs/site.md, "serve").

It builds the project into a temporary folder (never the project's ``site/``), serves
that folder over HTTP on 127.0.0.1, watches the inputs (``content/``, ``locales/``,
``templates/``, ``site.yaml``) with :mod:`watchfiles`, builds again in this process on
every change (the build cache, :mod:`generator.cache`, redoes only what changed; the
imports stay loaded) and tells the open pages to reload: every HTML response gets one
``<script>`` (served by the preview itself, never written into a build) that listens to
the Server-Sent Events of ``/__serve__/events``, one message per build.

A build that fails (input errors, exit 2; a disagreement, exit 1; a fault of the
generator) keeps the last good site aside and shows, in place of every page, a page
listing its lines (``FILE:LINE:COL: ...``, the documented and engine values with the
reasoning); the terminal prints them too. The next good build brings the pages back.
"""

from __future__ import annotations

import errno
import html
import json
import os
import posixpath
import secrets
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from urllib.parse import urlsplit

import watchfiles

from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.errors import interruption
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import NOT_FOUND
from generator.layout import OUTPUT
from generator.layout import TEMPLATES
from generator.layout import not_found_output
from generator.layout import real_path
from generator.layout import search_output

EVENTS = "/__serve__/events"
"""The Server-Sent Events stream: one ``data:`` message (JSON ``{"build", "session",
"ok"}``) on connecting and after every build that changed what is shown."""
SCRIPT = "/__serve__/reload.js"
"""The reload script that every HTML response of the preview links (nothing else does)."""
KEEP_ALIVE = 15.0
"""Seconds between the events stream's comments that keep an idle connection open (and
find a closed one)."""
WATCH_STEP_MS = 50
"""The quiet time (milliseconds) watchfiles waits for after a change before it reports
the changes together (an editor's save is several events)."""
IDLE_MS = 250
"""How long (milliseconds) one wait of the watcher lasts when nothing changes: the
first wait tells that the watcher is in place (then the first build starts)."""
WATCHED = (CONTENT, LOCALES, TEMPLATES, CONFIG)
"""The inputs whose changes start a build (paths relative to the project)."""

RELOAD_JS = b"""\
// python -m generator serve: reload this page when the preview has built again.
(function () {
  "use strict";
  var me = document.currentScript;
  var shown = [me.getAttribute("data-session"), me.getAttribute("data-build")];
  var events = new EventSource("/__serve__/events");
  events.onmessage = function (message) {
    var now = JSON.parse(message.data);
    if (now.session !== shown[0] || String(now.build) !== shown[1]) {
      events.close();
      window.location.reload();
    }
  };
})();
"""


@dataclass(frozen=True)
class Shown:
    """What the preview shows, as of one build.

    Attributes:
        build: the build counter (1 for the first build), raised by each build that
            changed what is shown.
        errors: the failed build's lines (input errors, disagreements with their
            reasoning), shown in place of every page; ``None`` after a good build.
        exit_code: the build's exit status (0, 1 disagreement, 2 input error).
        site: whether a good site is kept (``False`` until the first good build).
    """

    build: int
    errors: tuple[str, ...] | None
    exit_code: int
    site: bool


class Preview:
    """The preview server of one project: a temporary site folder, an HTTP server on
    it, the build and watch loop. Use :meth:`listen` (binds the port), :meth:`start`
    (serves), :meth:`run` (builds once, then on every change), then :meth:`close`.

    Args:
        root: the project folder.
        host: the address to listen on (``127.0.0.1``; all interfaces only if given).
        port: the TCP port (0: a free one, read back from :attr:`port`).
        say: prints a line to the terminal (standard error).
        emit: prints a build's report lines (standard output).
    """

    def __init__(self, root: Path, host: str, port: int, say: Callable[[str], None],
                 emit: Callable[[list[str]], None]) -> None:
        self.root = real_path(root)
        self.host = host
        self.port = port
        self.say = say
        self.emit = emit
        self.session = secrets.token_hex(4)
        self.folder: Path | None = None
        self.site = Path()
        self._shown = Shown(0, None, EXIT_OK, False)
        self._state = threading.Condition()
        self._stopping = False
        self._last_site: tuple[int, int] | None = None
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The address of the site's root, ``http://HOST:PORT/``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def shown(self) -> Shown:
        """What the pages show now."""
        with self._state:
            return self._shown

    def listen(self) -> None:
        """Listen on the address (nothing is served yet).

        Raises:
            OSError: the address cannot be listened on (``errno.EADDRINUSE``: the port is
                taken).
            OverflowError: the port is not from 0 to 65535.
        """
        server_class = _Server6 if ":" in self.host else _Server
        self._server = server_class((self.host, self.port), _Handler)
        self._server.preview = self
        self.port = int(self._server.server_address[1])

    def start(self) -> None:
        """Make the temporary folder and serve it in a thread (after :meth:`listen`);
        the pages show errors until :meth:`run` has built once."""
        assert self._server is not None, "listen() first"
        self.folder = Path(tempfile.mkdtemp(prefix="rules-site-serve-"))
        self.site = self.folder / OUTPUT
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.2},
                                        name="serve-http", daemon=True)
        self._thread.start()

    def rebuild(self) -> Shown:
        """Build the project into the temporary folder (the build cache reused); show
        the new site, or the failed build's lines in place of every page; print them.
        A fault of the generator is shown the same way: it never stops the preview.

        The pages come first: a locale whose pages need a new search index keeps the
        last one while the pages are swapped in and reloaded (``search_later``); a
        second build then makes the index. Where that build changed nothing but the
        index, the pages are not reloaded again (they are the same); where it changed
        more (a file saved in between), they are.

        Returns:
            What is shown after this build (and the index's, if one followed).
        """
        shown, report = self._build(search_later=True)
        if report is not None and report.search_behind:
            shown, _ = self._build(search_later=False, pages=report.files)
        return shown

    def _build(self, *, search_later: bool, pages: dict[str, str] | None = None
               ) -> tuple[Shown, BuildReport | None]:
        """One build and what it shows (see :meth:`rebuild`); ``pages``: the files of
        the build it follows, whose pages it only brings the index of (no reload when
        every other file is the same). Returns what is shown and the report of a good
        build (``None`` after a failed one)."""
        start = time.perf_counter()
        report: BuildReport | None = None
        try:
            report = build(self.root, self.site, search_later=search_later)
            code, lines = report.exit_code, list(report.lines)
            summary = (f"built {report.pages} files ({report.cached} from the cache)"
                       if code == EXIT_OK else "")
        except Exception as exc:  # a fault of the generator is shown, never fatal
            stopped = interruption(exc)
            if stopped is not None:  # a signal Python wrapped in another exception
                raise stopped from exc
            code, summary = EXIT_INPUT, ""
            lines = [f"error: the generator failed: {type(exc).__name__}: {exc} "
                     "(set GENERATOR_DEBUG=1 and run build for details)"]
        seconds = time.perf_counter() - start
        site = self._site_identity()
        index_only = (pages is not None and report is not None and code == EXIT_OK
                      and _without_index(report.files) == _without_index(pages))
        with self._state:
            before = self._shown
            errors = None if code == EXIT_OK else tuple(lines)
            changed = (before.build == 0 or errors != before.errors
                       or (code == EXIT_OK and site != self._last_site and not index_only))
            if changed:
                self._shown = Shown(before.build + 1, errors, code,
                                    before.site or code == EXIT_OK)
            if code == EXIT_OK:
                self._last_site = site
            self._state.notify_all()
            shown = self._shown
        self.emit(lines)
        if code == EXIT_OK:
            behind = (report.search_behind if report is not None else [])
            state = ("search index updated" if index_only
                     else "serving it" if shown.build == 1
                     else "reloading the pages" if changed else "nothing changed")
            later = (f"; the search index of {_plural(len(behind), 'locale')} follows"
                     if behind else "")
            self.say(f"{summary} in {seconds:.2f} s; {state}{later} (build {shown.build})")
        else:
            self.say(f"the build failed (exit {code}) in {seconds:.2f} s: the pages show "
                     f"{_plural(len(lines), 'line')} above until the files are fixed "
                     f"(build {shown.build})")
        return shown, report if code == EXIT_OK else None

    def run(self, stop: threading.Event | None = None) -> None:
        """Watch the inputs, build once, then build again on every change, until
        ``stop`` is set (or a ``KeyboardInterrupt``, which is raised). The watch starts
        before the first build, so that a file saved while it runs is built next."""
        changes: Iterator[set[tuple[watchfiles.Change, str]]] = watchfiles.watch(
            self.root, watch_filter=InputFilter(self.root), step=WATCH_STEP_MS,
            rust_timeout=IDLE_MS, yield_on_timeout=True, stop_event=stop,
            raise_interrupt=True)
        first = next(changes, None)  # the watcher is in place (its first wait is over)
        self.rebuild()
        if first is None:  # stopped at once
            return
        for found in changes:
            if not found:  # an idle wait ended
                continue
            names = changed_names(found, self.root)
            more = f" and {len(names) - 3} more" if len(names) > 3 else ""
            self.say(f"changed: {', '.join(names[:3])}{more}")
            self.rebuild()

    def wait_for(self, build: int, timeout: float | None) -> Shown:
        """Wait until the build counter passes ``build`` (or ``timeout`` seconds, or
        the preview stops); for the events stream. Returns what is shown then."""
        with self._state:
            self._state.wait_for(lambda: self._shown.build > build or self._stopping,
                                 timeout)
            return self._shown

    @property
    def stopping(self) -> bool:
        """Whether :meth:`close` was called (the events streams end)."""
        return self._stopping

    def close(self) -> None:
        """Stop serving, end the events streams, remove the temporary folder (again: no
        effect)."""
        with self._state:
            self._stopping = True
            self._state.notify_all()
        server, thread, folder = self._server, self._thread, self.folder
        self._server = self._thread = self.folder = None
        if server is not None:
            if thread is not None:
                server.shutdown()
                thread.join()
            server.server_close()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def _site_identity(self) -> tuple[int, int] | None:
        """The site folder's device and inode: a build that wrote anything swapped a new
        folder in; one that found nothing changed left it (and the pages stay)."""
        try:
            info = self.site.stat()
        except OSError:
            return None
        return info.st_dev, info.st_ino


def _without_index(files: dict[str, str]) -> dict[str, str]:
    """A site's files (site path → SHA-256) but its search indexes'."""
    return {rel: sha for rel, sha in files.items()
            if not rel.startswith(search_output(rel.partition("/")[0]) + "/")}


def changed_names(found: set[tuple[watchfiles.Change, str]], root: Path) -> list[str]:
    """The files of one batch of changes, relative to ``root``, sorted, for the line
    ``changed: ...``: a file both made and removed within the batch counts only if it
    is there now (``git checkout`` removes a file and writes it again; an editor's
    temporary file is gone). ``["(a file made and removed)"]`` when nothing else is left."""
    added = {path for change, path in found if change == watchfiles.Change.added}
    gone = {path for change, path in found if change == watchfiles.Change.deleted}
    passing = {path for path in added & gone if not os.path.lexists(path)}
    return sorted({os.path.relpath(path, root) for _, path in found
                   if path not in passing} or {"(a file made and removed)"})


class InputFilter(watchfiles.DefaultFilter):
    """The changes that start a build: a file under ``content/``, ``locales/`` or
    ``templates/``, or ``site.yaml`` (:data:`WATCHED`), except what watchfiles' default
    filter leaves out (editors' swap and backup files, ``.git/``). The project folder is
    watched whole so that a ``templates/`` or ``site.yaml`` made later is seen.

    Args:
        root: the project folder (resolved, as the watched path).
    """

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = str(root)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        """Whether the change of ``path`` (absolute) starts a build."""
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        first = rel.split("/", 1)[0]
        if not (first in WATCHED and (first != CONFIG or rel == CONFIG)):
            return False
        return bool(super().__call__(change, path))


class _Server(ThreadingHTTPServer):
    """The HTTP server (a thread per request; threads do not keep the process alive)."""

    daemon_threads = True
    preview: Preview


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(SimpleHTTPRequestHandler):
    """Serves the temporary site; HTML gets the reload script; a failed build's lines
    replace every page; ``/__serve__/events`` and ``/__serve__/reload.js``."""

    def __init__(self, request: Any, client_address: Any, server: _Server) -> None:
        self.preview = server.preview
        super().__init__(request, client_address, server, directory=str(server.preview.site))

    def log_message(self, format: str, *args: Any) -> None:
        """Requests are not logged (the terminal shows the builds)."""

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
            self._events()
            return
        if path == SCRIPT:
            self._send(HTTPStatus.OK, "text/javascript; charset=utf-8", RELOAD_JS, head)
            return
        if any(part.startswith(".") for part in path.split("/")):
            self.send_error(HTTPStatus.NOT_FOUND)  # the site's marker folder, dot files
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
                       error_page(shown, self.preview.session), head)
            return
        status = HTTPStatus.OK
        if page is None and _is_page_path(path) \
                and not Path(self.translate_path(path)).exists():
            page, status = self._not_found(path), HTTPStatus.NOT_FOUND
        if page is not None:
            try:
                data = page.read_bytes()
            except OSError:  # swapped out just now: the browser asks again on reload
                self.send_error(HTTPStatus.SERVICE_UNAVAILABLE)
                return
            self._send(status, "text/html; charset=utf-8",
                       inject(data, shown, self.preview.session), head)
            return
        if head:
            super().do_HEAD()
        else:
            super().do_GET()

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

    def _events(self) -> None:
        """The events stream: the build now, then one message per build, until the
        client goes away or the preview stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        preview = self.preview
        shown = preview.wait_for(0, None)  # the first build's message, once it is done
        if preview.stopping:
            return
        try:
            self.wfile.write(_event(shown, preview.session))
            self.wfile.flush()
            while not preview.stopping:
                now = preview.wait_for(shown.build, KEEP_ALIVE)
                if preview.stopping:
                    break
                self.wfile.write(_event(now, preview.session) if now.build != shown.build
                                 else b": keep-alive\n\n")
                self.wfile.flush()
                shown = now
        except OSError:  # the page was closed or reloaded
            pass


def _event(shown: Shown, session: str) -> bytes:
    data = json.dumps({"build": shown.build, "session": session,
                       "ok": shown.errors is None})
    return f"data: {data}\n\n".encode()


def _is_page_path(path: str) -> bool:
    """A path that names a page (a folder or ``.html``), not an asset."""
    return path.endswith("/") or posixpath.splitext(path)[1] in ("", ".html")


def script_tag(shown: Shown, session: str) -> bytes:
    """The reload script's tag for a response of build ``shown.build``."""
    return (f'<script src="{SCRIPT}" data-session="{session}" '
            f'data-build="{shown.build}"></script>').encode()


def inject(page: bytes, shown: Shown, session: str) -> bytes:
    """``page`` with the reload script's tag before its last ``</body>`` (at the end
    when it has none). Only the preview's responses get it; files are never changed."""
    tag = script_tag(shown, session)
    at = page.lower().rfind(b"</body>")
    return page + tag if at < 0 else page[:at] + tag + page[at:]


def waiting_page(session: str) -> bytes:
    """The page shown while the first build runs; it reloads when that is done."""
    text = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Building the site</title></head>
<body><p>The site is being built; this page reloads when it is ready.</p></body>
</html>
"""
    return inject(text.encode("utf-8"), Shown(0, None, EXIT_OK, False), session)


def error_page(shown: Shown, session: str) -> bytes:
    """The page shown in place of every page while the build fails: its lines (input
    errors, disagreements with the documented and engine values and the reasoning),
    HTML-escaped, and the reload script."""
    lines = shown.errors or ()
    what = {1: "a documented value disagrees with the engine (exit 1)",
            2: "the input is wrong, or the site cannot be made (exit 2)"  # Pagefind failing
            }.get(shown.exit_code, f"exit {shown.exit_code}")
    kept = ("The last good site is kept aside" if shown.site
            else "No build has succeeded yet")
    body = "\n".join(html.escape(line, quote=False) for line in lines)
    text = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The build failed: {_plural(len(lines), "line")}</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; margin: 2rem; color: #222; }}
h1 {{ color: #a00; font-size: 1.4rem; }}
pre {{ background: #fff4f4; border: 1px solid #e0b4b4; padding: 1rem; overflow-x: auto;
       white-space: pre-wrap; }}
</style>
</head>
<body>
<h1>The build failed: {html.escape(what)}</h1>
<p>{kept}; this page shows the build's report instead, and reloads when the files are
saved again.</p>
<pre>{body}</pre>
</body>
</html>
"""
    return inject(text.encode("utf-8"), shown, session)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def serve(root: Path, host: str, port: int, say: Callable[[str], None],
          emit: Callable[[list[str]], None]) -> int:
    """``python -m generator serve``: build, serve, watch and rebuild until Ctrl-C.

    Args:
        root: the project folder.
        host: the address to listen on.
        port: the TCP port (0: any free one).
        say: prints a line to standard error.
        emit: prints report lines to standard output.

    Returns:
        0 when stopped with Ctrl-C (docs/site.md, exit status); 2 when the address
        cannot be listened on (a port in use); 143 on SIGTERM. Never raises
        ``KeyboardInterrupt``: the temporary folder is removed on every way out.
    """
    preview = Preview(root, host, port, say, emit)
    received: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        received.append(signum)  # watchfiles turns what the handler raises into a plain
        raise Interrupted(signum)  # KeyboardInterrupt: the number is kept here

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_signal) if main else None
    try:
        try:
            preview.listen()
        except OverflowError:
            emit([f"--port {port}: not a port number; expected 0 to 65535"])
            return EXIT_INPUT
        except OSError as exc:
            emit([_listen_error(host, port, exc)])
            return EXIT_INPUT
        say(f"serving {root} at {preview.url} (Ctrl-C to stop)")
        preview.start()
        preview.run()
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (generator.errors.Interrupted)
        signum = received[-1] if received else int(getattr(exc, "signum", signal.SIGINT))
        preview.close()
        say("stopped" if signum == signal.SIGINT else "interrupted")
        return EXIT_OK if signum == signal.SIGINT else 128 + signum
    finally:
        preview.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return EXIT_OK


def _listen_error(host: str, port: int, exc: OSError) -> str:
    """The input error for an address that cannot be listened on."""
    if exc.errno == errno.EADDRINUSE:
        return (f"--port {port}: address already in use; expected a free port "
                f"(try --port {port + 1})")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"--port {port}: permission denied; expected a port from 1024 up "
                "(or 0 for any free one)")
    return (f"--host {host}: cannot listen there ({exc.strerror or exc}); expected an "
            "address of this machine, such as 127.0.0.1")
