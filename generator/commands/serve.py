"""The ``serve`` command: the authors' preview (docs/site.md, "serve").

It builds the project, drafts included and marked (``build --drafts``), into a temporary
folder (never the project's ``site/``), serves that folder over HTTP on 127.0.0.1,
watches the inputs (``content/``, ``locales/``, ``templates/``, ``site.yaml``) with
:mod:`watchfiles`, builds again in this process on
every change (the build cache, :mod:`generator.cache`, redoes only what changed; the
imports stay loaded) and tells the open pages to reload: every HTML response gets one
``<script>`` (served by the preview itself, never written into a build) that listens to
the Server-Sent Events of ``/__serve__/events``, one message per build.

A build that fails (input errors, exit 2; a disagreement, exit 1; a fault of the
generator) keeps the last good site aside and shows, in place of every page, a page
listing its errors (``FILE:LINE:COL: ...``, the documented and engine values with the
reasoning), each with the lines of its file around it, and apart from them the pending
cases, known disagreements and warnings (:mod:`generator.render.preview`); the terminal
prints the lines too. The next good build brings the pages back. The lines of a pending
case or a known disagreement are printed once, when they first appear or change, not
again by every build.

Every request passes one filter first (:func:`refusal`): a ``Host`` that is not one the
preview answers to is refused (DNS rebinding: a foreign page whose name is made to lead
to this machine would otherwise read the preview), and so is a path with a control
character or a dot segment. At most :data:`MAX_CONNECTIONS` connections are served at
once (more are refused); a request's line and headers have :data:`REQUEST_DEADLINE`
seconds in all (a slower client is closed); a client that goes away is no error.
"""

from __future__ import annotations

import contextlib
import errno
import io
import ipaddress
import json
import os
import posixpath
import re
import secrets
import shutil
import signal
import socket
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Sequence
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
from generator.commands.check import is_disagreement_line
from generator.commands.check import is_status_line
from generator.errors import CONTROL_CHARACTERS
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.errors import interruption
from generator.errors import shown as shown_name
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import LOCALES
from generator.layout import NOT_FOUND
from generator.layout import OUTPUT
from generator.layout import TEMPLATES
from generator.layout import not_found_output
from generator.layout import real_path
from generator.layout import search_output
from generator.render import preview as preview_page
from generator.render.preview import DISAGREEMENT
from generator.render.preview import ERROR
from generator.render.preview import INPUT
from generator.render.preview import STATUS
from generator.render.preview import WARNING
from generator.render.preview import Entry
from generator.render.preview import english_summary
from generator.render.preview import page_locale
from generator.render.preview import position_of
from generator.render.preview import with_excerpts

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
TEMP_PREFIX = "rules-site-serve-"
"""The start of the temporary site folder's name (in the system's temporary folder);
the process id of its serve follows, then a random part."""
_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"([0-9]+)-[A-Za-z0-9_]+")
LOOPBACK_NAMES = (".localhost",)
"""The names every preview answers to: ``localhost`` and its subdomains, which always
lead to this machine (RFC 6761, 6.3; browsers resolve them so without asking DNS)."""
SAID_LIMIT = 20
"""How many different refused host names, or failures of a request, the terminal is
told of (each once): a flood of requests does not flood the terminal."""

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
        entries: the failed build's lines as the error page lists them
            (:func:`report_entries`), with the excerpts of the files; empty after a
            good build.
    """

    build: int
    errors: tuple[str, ...] | None
    exit_code: int
    site: bool
    entries: tuple[Entry, ...] = ()


@dataclass(frozen=True)
class _Built:
    """What one of serve's builds gave (:func:`_built`).

    Attributes:
        report: the build's report; ``None`` when the generator failed.
        code: its exit status.
        lines: its lines (the generator's failure as one line).
        summary: what a good build made (``""`` for a failed one).
        seconds: how long it took.
    """

    report: BuildReport | None
    code: int
    lines: list[str]
    summary: str
    seconds: float


def _built(root: Path, site: Path | None, search_later: bool) -> _Built:
    """Build ``root`` into ``site`` with the drafts (``search_later``: see
    :func:`generator.commands.build.build`). A fault of the generator is one line,
    never fatal; a signal Python wrapped in another exception is raised."""
    start = time.perf_counter()
    try:
        report = build(root, site, search_later=search_later, drafts=True)
    except Exception as exc:  # a fault of the generator is shown, never fatal
        stopped = interruption(exc)
        if stopped is not None:  # a signal Python wrapped in another exception
            raise stopped from exc
        return _Built(None, EXIT_INPUT, [
            f"error: the generator failed: {type(exc).__name__}: {exc} "
            "(set GENERATOR_DEBUG=1 and run build for details)"], "",
            time.perf_counter() - start)
    code = report.exit_code
    summary = (f"built {report.pages} files ({report.cached} from the cache)"
               if code == EXIT_OK else "")
    return _Built(report, code, list(report.lines), summary, time.perf_counter() - start)


def _build_line(built: _Built, shown: Shown, entries: tuple[Entry, ...], *, changed: bool,
                index_only: bool) -> str:
    """serve's line about a build: what it made and what the pages do now, or why it
    failed."""
    if built.code != EXIT_OK:
        what = english_summary(entries) or "no lines"
        return (f"the build failed (exit {built.code}) in {built.seconds:.2f} s: {what}; the "
                f"pages show them until the files are fixed (build {shown.build})")
    behind = built.report.search_behind if built.report is not None else []
    state = ("search index updated" if index_only
             else "serving it" if shown.build == 1
             else "reloading the pages" if changed else "nothing changed")
    later = (f"; the search index of {_plural(len(behind), 'locale')} follows"
             if behind else "")
    return f"{built.summary} in {built.seconds:.2f} s; {state}{later} (build {shown.build})"


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
        allow: more host names the preview answers to (``--allow-host``; see
            :func:`accepted_hosts`), each as :func:`host_name` gives it.
    """

    def __init__(self, root: Path, host: str, port: int, say: Callable[[str], None],
                 emit: Callable[[list[str]], None], allow: Sequence[str] = ()) -> None:
        self.root = real_path(root)
        self.host = host
        self.port = port
        self.say = say
        self.emit = emit
        self.allow = tuple(allow)
        self.hosts = accepted_hosts(host, False, self.allow)
        self.session = secrets.token_hex(4)
        self.folder: Path | None = None
        self.site = Path()
        self._shown = Shown(0, None, EXIT_OK, False)
        self._state = threading.Condition()
        self._stopping = False
        self._last_site: tuple[int, int] | None = None
        self._listed: frozenset[tuple[str, ...]] = frozenset()
        """The lines of the pending cases and known disagreements the last build
        reported (the terminal printed them once)."""
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
            ValueError: the address is empty (which would mean every interface).
        """
        listen_address(self.host)
        server_class = _Server6 if ":" in self.host else _Server
        self._server = server_class((self.host, self.port), _Handler, self)
        self.port = int(self._server.server_address[1])
        every = ipaddress.ip_address(str(self._server.server_address[0])).is_unspecified
        self.hosts = accepted_hosts(self.host, every, self.allow)

    def start(self) -> None:
        """Make the temporary folder and serve it in a thread (after :meth:`listen`);
        the pages show errors until :meth:`run` has built once. The temporary folders
        that killed serve processes left are removed first (:func:`sweep_leftovers`)."""
        assert self._server is not None, "listen() first"
        sweep_leftovers()
        self.folder = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-"))
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
        built = _built(self.root, self.site, search_later)
        report, code = built.report, built.code
        index_only = (pages is not None and report is not None and code == EXIT_OK
                      and _without_index(report.files) == _without_index(pages))
        entries = report_entries(built.lines)
        if code != EXIT_OK:
            entries = with_excerpts(self.root, entries)
        shown, changed = self._show(built, entries, index_only)
        listed = self._listed
        self._listed = frozenset(e.lines for e in entries if e.kind == STATUS)
        self.emit([line for e in entries if e.kind != STATUS or e.lines not in listed
                   for line in e.lines])
        self.say(_build_line(built, shown, entries, changed=changed, index_only=index_only))
        return shown, report if code == EXIT_OK else None

    def _show(self, built: _Built, entries: tuple[Entry, ...], index_only: bool
              ) -> tuple[Shown, bool]:
        """Show what a build gave (the new site, or its lines in place of every page),
        waking whoever waits for it; returns what is shown and whether it changed."""
        code = built.code
        site = self._site_identity()
        with self._state:
            before = self._shown
            errors = None if code == EXIT_OK else tuple(built.lines)
            shown_entries = () if code == EXIT_OK else entries
            changed = (before.build == 0 or errors != before.errors
                       or shown_entries != before.entries
                       or (code == EXIT_OK and site != self._last_site and not index_only))
            if changed:
                self._shown = Shown(before.build + 1, errors, code,
                                    before.site or code == EXIT_OK, shown_entries)
            if code == EXIT_OK:
                self._last_site = site
            self._state.notify_all()
            return self._shown, changed

    def run(self, stop: threading.Event | None = None) -> None:
        """Watch the inputs, build once, then build again on every change, until
        ``stop`` is set (or a ``KeyboardInterrupt``, which is raised). The watch starts
        before the first build, so that a file saved while it runs is built next.

        The project folder itself is watched too: removed, serve says so once and waits
        (the pages stay as they are); a folder put in its place (a restore, a fresh
        clone) is watched from then on, and built."""
        again = False
        while True:
            if again:
                if not self._wait_for_folder(stop):
                    return
                self.say(f"the project folder {self.root} is a new folder now: watching it "
                         "and building it")
            folder = _ProjectFolder(self.root)
            changes = watchfiles.watch(
                self.root, watch_filter=InputFilter(self.root), step=WATCH_STEP_MS,
                rust_timeout=IDLE_MS, yield_on_timeout=True, stop_event=stop,
                raise_interrupt=True)
            try:
                again = self._follow(changes, folder)
            except FileNotFoundError:  # gone again before its watcher was in place
                again = True
            finally:
                changes.close()
                folder.close()
            if not again:
                return

    def _gone(self) -> None:
        self.say(f"the project folder {self.root} is gone: serve waits for it to come back "
                 "(the pages stay as they are; Ctrl-C to stop)")

    def _wait_for_folder(self, stop: threading.Event | None) -> bool:
        """Wait until the project folder is there (at once when it is; saying once that
        it is gone when it is not). Returns ``False`` when ``stop`` was set first."""
        said = False
        while not os.path.exists(self.root):
            if not said:
                self._gone()
                said = True
            if stop is not None and stop.wait(IDLE_MS / 1000):
                return False
            if stop is None:
                time.sleep(IDLE_MS / 1000)
        return True

    def _follow(self, changes: Generator[set[tuple[watchfiles.Change, str]], None, None],
                folder: _ProjectFolder) -> bool:
        """Build once the watcher is in place, then on every change of ``changes``, while
        ``folder`` is the project's. Returns ``True`` when another folder took its place
        (to be watched instead), ``False`` when ``stop`` was set.

        Raises:
            FileNotFoundError: the folder was gone when the watcher was to be put in
                place.
        """
        first = next(changes, None)  # the watcher is in place (its first wait is over)
        self.rebuild()
        if first is None:  # stopped at once
            return False
        gone = False
        for found in changes:
            state = folder.state()
            if state == "new":
                return True
            if state == "gone":
                if not gone:
                    self._gone()
                gone = True
                continue
            if gone:  # the same folder, moved away and back
                gone = False
                self.say(f"the project folder {self.root} is back")
                self.rebuild()
                continue
            if not found:  # an idle wait ended
                continue
            names = changed_names(found, self.root)
            more = f" and {len(names) - 3} more" if len(names) > 3 else ""
            self.say(f"changed: {', '.join(names[:3])}{more}")
            self.rebuild()
        return False

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
        """Stop serving, end the events streams and every open connection (an idle
        client's too), remove the temporary folder (again: no effect)."""
        with self._state:
            self._stopping = True
            self._state.notify_all()
        server, thread, folder = self._server, self._thread, self.folder
        self._server = self._thread = self.folder = None
        if server is not None:
            if thread is not None:
                server.shutdown()
                thread.join()
            server.drop_connections()
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


class _ProjectFolder:
    """The project folder as one watcher watches it: :meth:`state` tells whether the
    path still leads to it. An open descriptor keeps the folder's identity (device,
    inode) its own while it is watched: a folder made in its place after ``rm -rf``
    cannot be given the same inode number."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._fd: int | None = None
        with contextlib.suppress(OSError):
            self._fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        self._identity = self._now() if self._fd is None else _identity(os.fstat(self._fd))

    def _now(self) -> tuple[int, int] | None:
        try:
            return _identity(os.stat(self.root))
        except OSError:
            return None

    def state(self) -> str:
        """``"here"`` (the path leads to the watched folder), ``"gone"`` (to nothing) or
        ``"new"`` (to another folder, or a file)."""
        now = self._now()
        return "gone" if now is None else "here" if now == self._identity else "new"

    def close(self) -> None:
        """Let the folder go (again: no effect)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def sweep_leftovers(base: Path | None = None) -> list[Path]:
    """Remove the temporary site folders that serve processes killed outright (SIGKILL,
    a power cut) left in the temporary folder ``base`` (default: the system's): only
    folders named as serve names them (:data:`TEMP_PREFIX`, a process id, a random
    part), that are folders and not links, of this user, whose process is gone. A
    folder of a live process, another user's, a link or a file stays; nothing is
    followed through a link (:func:`shutil.rmtree` removes the folder's own entries).

    Returns:
        The folders removed.
    """
    base = Path(base or tempfile.gettempdir())
    try:
        names = os.listdir(base)
    except OSError:
        return []
    removed = []
    for name in names:
        match = _TEMP_NAME.fullmatch(name)
        if match is None or int(match[1]) == os.getpid():
            continue
        path = base / name
        try:
            info = os.lstat(path)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            os.kill(int(match[1]), 0)
        except ProcessLookupError:  # its process is gone
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
        except (OSError, OverflowError):  # gone already; a process of another user
            continue
    return removed


def listen_address(text: str) -> str:
    """``text`` as an address to listen on (``--host``).

    Raises:
        ValueError: it is empty or blank, which the system takes for every interface.
    """
    if not text.strip():
        raise ValueError("an empty address; expected an address of this machine, such as "
                         "127.0.0.1 (0.0.0.0 for every interface)")
    return text


_LABEL = r"[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?"
_NAME = re.compile(rf"\.?{_LABEL}(?:\.{_LABEL})*")
"""A host name (``--allow-host``): labels of letters, digits, ``-`` and ``_`` (as
systems name hosts; an internationalised name in its ``xn--`` form), a leading ``.``
for the name and every name under it."""


def host_name(text: str) -> str:
    """``text`` as a host name for the preview to answer to (``--allow-host``): lower
    case, without a final dot. ``.example.org`` stands for ``example.org`` and every
    name under it.

    Raises:
        ValueError: it is no host name (empty; a scheme, a port, a path, a ``*``, a
            character a host name has not).
    """
    name = text.strip().lower()
    name = name[:-1] if name.endswith(".") and len(name) > 1 else name
    if _NAME.fullmatch(name) is None or len(name) > 253:
        raise ValueError(f"{shown_name(text)!r} is no host name; expected a name such as "
                         "preview.example.org, or .example.org for it and every name "
                         "under it")
    return name


@dataclass(frozen=True)
class Hosts:
    """The host names the preview answers to (the ``Host`` header's, its port aside).

    Every IP address is accepted: a page's address that is an IP address leads to the
    same place for the page as for the preview, so no foreign page can be made to share
    the preview's origin by it (DNS rebinding needs a name). Names are accepted as
    :attr:`names` lists them.

    Attributes:
        names: lower-case names without a final dot; one that starts with ``.`` stands
            for the name without it and every name under it.
    """

    names: tuple[str, ...]

    def allows(self, authority: str) -> bool:
        """Whether ``authority`` (a ``Host`` header: ``NAME``, ``NAME:PORT``,
        ``[IPv6]:PORT``) names a host the preview answers to."""
        name = _host_of(authority)
        if name is None:
            return False
        if name.startswith("["):
            return _is_ip(name[1:-1], 6)
        if _is_ip(name, 4):
            return True
        name = name[:-1] if name.endswith(".") else name
        return any(name == entry or (entry.startswith(".") and
                                     (name == entry[1:] or name.endswith(entry)))
                   for entry in self.names)

    def adding(self, name: str) -> Hosts:
        """These hosts and ``name`` (as :func:`host_name` gives it), unless they take it
        in already."""
        if name.startswith("."):
            taken = any(entry.startswith(".") and (name == entry or name.endswith(entry))
                        for entry in self.names)
        else:
            taken = self.allows(name)
        return self if taken else Hosts((*self.names, name))

    def describe(self) -> str:
        """The accepted hosts, for a refusal: ``localhost (and the names under it), any
        IP address, ...``."""
        listed = [f"{entry[1:]} (and the names under it)" if entry.startswith(".")
                  else entry for entry in self.names]
        return ", ".join([listed[0], "any IP address", *listed[1:]])


def accepted_hosts(host: str, every: bool, allow: Sequence[str] = ()) -> Hosts:
    """The hosts a preview listening on ``host`` answers to: ``localhost`` and the names
    under it, every IP address, ``host`` when it is a name, and the ``allow`` names; with
    ``every`` (listening on every interface: ``0.0.0.0``, ``::``) also this machine's
    name (``socket.gethostname()``, and its ``.local`` form, which other machines of
    the network know it by).

    Raises:
        ValueError: an ``allow`` entry is no host name (see :func:`host_name`).
    """
    hosts = Hosts(LOOPBACK_NAMES)
    more = [host] if not (_is_ip(host, 4) or _is_ip(host, 6)) else []
    if every:
        machine = socket.gethostname()
        more += [machine, f"{machine}.local"] if "." not in machine else [machine]
    for name in more:
        with contextlib.suppress(ValueError):  # (a machine's name that is none)
            hosts = hosts.adding(host_name(name))
    for name in allow:
        hosts = hosts.adding(host_name(name))
    return hosts


_AUTHORITY = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::[0-9]*)?")


def _host_of(authority: str) -> str | None:
    """The host of a ``Host`` header's value, lower case (``[...]`` kept around an IPv6
    address); ``None`` when it is not of the form ``host[:port]``."""
    match = _AUTHORITY.fullmatch(authority.strip())
    return None if match is None else match[1].lower()


def _is_ip(text: str, version: int) -> bool:
    try:
        return ipaddress.ip_address(text).version == version
    except ValueError:
        return False


@dataclass(frozen=True)
class Refusal:
    """A request the filter refuses: the status, the plain text that says why, and the
    host refused (for a 403; shown as :func:`generator.errors.shown` shows a name)."""

    status: HTTPStatus
    text: str
    host: str | None = None


def refusal(target: str, hosts: Sequence[str], accepted: Hosts,
            origins: Sequence[str] = ()) -> Refusal | None:
    """The request filter: what is wrong with a request for ``target`` (the request
    line's target) with the ``Host`` headers ``hosts`` and the ``Origin`` headers
    ``origins``, or ``None`` when it is served.

    - not exactly one ``Host``: 400 (HTTP/1.1 asks for one; a browser always sends it);
    - a ``Host`` (or the host of an absolute ``target``) that is not ``accepted``: 403,
      saying which hosts are accepted and how to add one;
    - an ``Origin`` (the page that asks, where a browser says it) whose host is not
      ``accepted``: 403 (no page of another site opens the events stream);
    - a path (percent-decoded) holding a control character: 400;
    - a path with a part that starts with a dot (``..``, ``.``, the site's marker
      folder, dot files): 404.
    """
    if len(hosts) != 1:
        return Refusal(HTTPStatus.BAD_REQUEST,
                       f"{'More than one' if hosts else 'No'} Host header; expected one.")
    try:
        parts = urlsplit(target)
    except ValueError:
        return Refusal(HTTPStatus.BAD_REQUEST, "The request's target is no URL.")
    for host in [hosts[0], *([parts.netloc] if parts.netloc else [])]:
        if not accepted.allows(host):
            name = shown_name(_host_of(host) or host.strip())
            return Refusal(HTTPStatus.FORBIDDEN,
                           f'This preview does not answer to the host "{name}" (a page '
                           "of another site could read it through such a name: DNS "
                           f"rebinding).\nIt answers to {accepted.describe()}.\nTo make "
                           f"it answer to this name too: serve --allow-host {name}", name)
    for origin in origins:
        try:
            page = urlsplit(origin.strip()).netloc
        except ValueError:
            page = ""
        if not (page and accepted.allows(page)):
            return Refusal(HTTPStatus.FORBIDDEN, "This preview answers no page of another "
                           f'site (the request\'s Origin is "{shown_name(origin.strip())}").')
    path = unquote(parts.path)
    if CONTROL_CHARACTERS.search(path):
        return Refusal(HTTPStatus.BAD_REQUEST, "The path holds a control character.")
    if any(part.startswith(".") for part in path.split("/")):
        return Refusal(HTTPStatus.NOT_FOUND, "Not found.")
    return None


def _without_index(files: dict[str, str]) -> dict[str, str]:
    """A site's files (site path → SHA-256) but its search indexes'."""
    return {rel: sha for rel, sha in files.items()
            if not rel.startswith(search_output(rel.partition("/")[0]) + "/")}


def changed_names(found: set[tuple[watchfiles.Change, str]], root: Path) -> list[str]:
    """The files of one batch of changes, relative to ``root``, sorted, for the line
    ``changed: ...``: a file both made and removed within the batch counts only if it
    is there now (``git checkout`` removes a file and writes it again; an editor's
    temporary file is gone). ``["(a file made and removed)"]`` when nothing else is left.
    Each name is shown as :func:`generator.errors.shown` shows it (control characters
    escaped): a file's name never sends a terminal control sequence."""
    added = {path for change, path in found if change == watchfiles.Change.added}
    gone = {path for change, path in found if change == watchfiles.Change.deleted}
    passing = {path for path in added & gone if not os.path.lexists(path)}
    return sorted({shown_name(os.path.relpath(path, root)) for _, path in found
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


_BUSY_TEXT = b"The preview serves as many connections as it can now; try again.\n"
BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 2\r\nConnection: close\r\nContent-Length: "
        + str(len(_BUSY_TEXT)).encode() + b"\r\n\r\n" + _BUSY_TEXT)
"""The answer to a connection beyond :data:`MAX_CONNECTIONS`, sent without reading its
request."""
GONE_CLIENT = (ConnectionError, TimeoutError)
"""What a client that went away (closed, reset, too slow) raises: no error of serve's."""


class _Server(ThreadingHTTPServer):
    """The HTTP server: a thread per connection, at most :data:`MAX_CONNECTIONS` at once
    (threads do not keep the process alive); a client that goes away is no error, any
    other failure of a request is one line on the terminal, never a traceback."""

    daemon_threads = True
    request_queue_size = MAX_CONNECTIONS

    def __init__(self, address: tuple[str, int], handler: type[_Handler],
                 preview: Preview) -> None:
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


class _Server6(_Server):
    address_family = socket.AF_INET6


class _Handler(SimpleHTTPRequestHandler):
    """Serves the temporary site; HTML gets the reload script; a failed build's lines
    replace every page; ``/__serve__/events`` and ``/__serve__/reload.js``."""

    timeout = REQUEST_TIMEOUT

    def __init__(self, request: Any, client_address: Any, server: _Server) -> None:
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
            self._events()
            return
        if path == SCRIPT:
            self._send(HTTPStatus.OK, "text/javascript; charset=utf-8", RELOAD_JS, head)
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
        """The events stream (at most :data:`MAX_STREAMS` at once)."""
        if not self.serving.streams.acquire(blocking=False):
            self._plain(HTTPStatus.SERVICE_UNAVAILABLE, f"{MAX_STREAMS} events streams are "
                        "open; this page reloads no more by itself.")
            return
        try:
            self._stream()
        finally:
            self.serving.streams.release()

    def _stream(self) -> None:
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


def error_page(shown: Shown, session: str, locale: str = "en") -> bytes:
    """The page shown in place of every page while the build fails
    (:func:`generator.render.preview.error_page`: its errors with their files' lines,
    the pending cases, known disagreements and warnings apart, in ``locale``'s words),
    and the reload script."""
    entries = shown.entries or report_entries(list(shown.errors or ()))
    text = preview_page.error_page(entries, locale=locale, kept=shown.site,
                                   exit_code=shown.exit_code)
    return inject(text.encode("utf-8"), shown, session)


def report_entries(lines: Sequence[str]) -> tuple[Entry, ...]:
    """A build's report lines as entries: each line that is not indented starts one,
    with the indented lines (the reasoning) after it; each of a kind
    (:mod:`generator.render.preview`): a pending case's or known disagreement's
    (``STATUS``), a warning or note (``WARNING``), a disagreement, an input error (a
    line with a position), any other line an error of the generator (``ERROR``).

    Args:
        lines: the report's lines, as the terminal prints them.

    Returns:
        The entries, in the lines' order (their lines, joined, are ``lines``).
    """
    groups: list[list[str]] = []
    for line in lines:
        if groups and line.startswith(" "):
            groups[-1].append(line)
        else:
            groups.append([line])
    entries = []
    for group in groups:
        head = group[0]
        position, message = position_of(head)
        if is_status_line(head):
            kind = STATUS
        elif head.startswith("note: ") or (position is not None
                                           and message.startswith("warning: ")):
            kind = WARNING
        elif is_disagreement_line(head):
            kind = DISAGREEMENT
        elif position is not None:
            kind = INPUT
        else:
            kind = ERROR
        entries.append(Entry(kind, tuple(group), position))
    return tuple(entries)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def serve(root: Path, host: str, port: int, say: Callable[[str], None],
          emit: Callable[[list[str]], None], allow: Sequence[str] = ()) -> int:
    """``python -m generator serve``: build, serve, watch and rebuild until Ctrl-C.

    Args:
        root: the project folder.
        host: the address to listen on.
        port: the TCP port (0: any free one).
        say: prints a line to standard error.
        emit: prints report lines to standard output.
        allow: more host names to answer to (``--allow-host``; :func:`host_name`).

    Returns:
        0 when stopped with Ctrl-C (docs/site.md, exit status); 2 when the address
        cannot be listened on (a port in use, an empty address) or an ``allow`` entry is
        no host name; 143 on SIGTERM. Never raises ``KeyboardInterrupt``: the temporary
        folder is removed on every way out.
    """
    try:
        listen_address(host)
    except ValueError as exc:
        emit([f"--host {shown_name(host)!r}: {exc}"])
        return EXIT_INPUT
    try:
        names = [host_name(name) for name in allow]
    except ValueError as exc:
        emit([f"--allow-host: {exc}"])
        return EXIT_INPUT
    preview = Preview(root, host, port, say, emit, names)
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
        if preview.hosts != accepted_hosts(host, False):  # more than the default
            say(f"it answers to the hosts {preview.hosts.describe()}")
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
