"""The ``serve`` command: the authors' preview (docs/site.md, "serve").

It builds the project, drafts included and marked (``build --drafts``), into a temporary
folder (never the project's ``site/``), serves that folder over HTTP on 127.0.0.1 (at
``site_url``'s path, where the site has one: :func:`base_path`),
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

Every request passes one filter first (:mod:`generator.commands.serve_hosts`): a
``Host`` that is not one the preview answers to is refused (DNS rebinding: a foreign page
whose name is made to lead to this machine would otherwise read the preview), and so is a
path with a control character or a dot segment. The HTTP server
(:mod:`generator.commands.serve_http`) serves a bounded number of connections at once
(more are refused) and gives a request's line and headers a deadline (a slower client is
closed); a client that goes away is no error. The pages it adds to the site's (the reload
script, the waiting page, the error page) are :mod:`generator.commands.serve_pages`'s;
what is watched is :mod:`generator.commands.serve_watch`'s.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import secrets
import shutil
import signal
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import watchfiles

from generator.cases.problems import remember_problems
from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.commands.serve_hosts import accepted_hosts
from generator.commands.serve_hosts import host_name
from generator.commands.serve_hosts import listen_address
from generator.commands.serve_http import PreviewHandler
from generator.commands.serve_http import PreviewServer
from generator.commands.serve_http import PreviewServer6
from generator.commands.serve_pages import Shown
from generator.commands.serve_pages import report_entries
from generator.commands.serve_watch import IDLE_MS
from generator.commands.serve_watch import WATCH_STEP_MS
from generator.commands.serve_watch import InputFilter
from generator.commands.serve_watch import ProjectFolder
from generator.commands.serve_watch import changed_names
from generator.config import load_config
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import Interrupted
from generator.errors import interruption
from generator.errors import shown as shown_name
from generator.layout import OUTPUT
from generator.layout import real_path
from generator.layout import search_output
from generator.render.preview import STATUS
from generator.render.preview import Entry
from generator.render.preview import english_summary
from generator.render.preview import with_excerpts

TEMP_PREFIX = "rules-site-serve-"
"""The start of the temporary site folder's name (in the system's temporary folder);
the process id of its serve follows, then a random part."""
_TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"([0-9]+)-[A-Za-z0-9_]+")


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


def _built(root: Path, site: Path | None, later: bool) -> _Built:
    """Build ``root`` into ``site`` with the drafts (``later``: the pages of the source
    locale first, the others' and the search index left to the next build where they
    need work: ``search_later`` and ``locales_later`` of
    :func:`generator.commands.build.build`). A fault of the generator is one line, never
    fatal; a signal Python wrapped in another exception is raised."""
    start = time.perf_counter()
    try:
        report = build(root, site, search_later=later, locales_later=later, drafts=True)
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


def base_path(root: Path) -> str:
    """The path the preview serves the site at: ``site.yaml``'s ``site_url``'s path
    (``/rules/`` for ``https://example.org/rules/``), where the pages' links from the
    site's root (the "page not found" pages') lead, or ``/`` without one (or while
    ``site.yaml`` has an error: the build says which)."""
    config, _errors = load_config(root)
    return (urlsplit(config.site_url).path or "/") if config.site_url else "/"


def _build_line(built: _Built, shown: Shown, entries: tuple[Entry, ...], *, changed: bool,
                index_only: bool) -> str:
    """serve's line about a build: what it made and what the pages do now, or why it
    failed."""
    if built.code != EXIT_OK:
        what = english_summary(entries) or "no lines"
        return (f"the build failed (exit {built.code}) in {built.seconds:.2f} s: {what}; the "
                f"pages show them until the files are fixed (build {shown.build})")
    state = ("search index updated" if index_only
             else "serving it" if shown.build == 1
             else "reloading the pages" if changed else "nothing changed")
    later = _following(built.report) if built.report is not None else ""
    return f"{built.summary} in {built.seconds:.2f} s; {state}{later} (build {shown.build})"


def _following(report: BuildReport) -> str:
    """What the build after ``report``'s brings (the pages of the locales left behind,
    the search indexes), as the end of its line; ``""`` for nothing."""
    pages, index = report.locales_behind, report.search_behind
    if pages and index:
        return (f"; the pages of {_plural(len(pages), 'more locale')} and the search index "
                f"of {_plural(len(index), 'locale')} follow")
    if pages:
        return f"; the pages of {_plural(len(pages), 'more locale')} follow"
    if index:
        return f"; the search index of {_plural(len(index), 'locale')} follows"
    return ""


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
        self.base = base_path(self.root)
        """The path the site is served at (:func:`base_path`), read again by each
        build: ``/`` redirects there."""
        self.session = secrets.token_hex(4)
        remember_problems()  # each save loads the case files again, most cases unchanged
        self.folder: Path | None = None
        self.site = Path()
        self._shown = Shown(0, None, EXIT_OK, False)
        self._state = threading.Condition()
        self._stopping = False
        self._last_site: tuple[int, int] | None = None
        self._files: dict[str, str] = {}
        """The files of the site shown (its last good build's), site path → SHA-256."""
        self._listed: frozenset[tuple[str, ...]] = frozenset()
        """The lines of the pending cases and known disagreements the last build
        reported (the terminal printed them once)."""
        self._server: PreviewServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The address of the site's root, ``http://HOST:PORT/`` and :attr:`base`'s
        path."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}{self.base}"

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
        server_class = PreviewServer6 if ":" in self.host else PreviewServer
        self._server = server_class((self.host, self.port), PreviewHandler, self)
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

        The source locale's pages come first: the pages of another locale that need
        rendering keep the last build's files, and a locale whose pages need a new
        search index keeps the last one, while the source locale's pages are swapped in
        and reloaded (``later`` of :func:`_built`); a second build then renders the
        others and makes the indexes. Each open page reloads when its own file changed
        (or a file every page uses: :meth:`_show`), so that a page the second build
        leaves as it was is not reloaded again; where that build changed nothing but the
        indexes, no page is.

        Returns:
            What is shown after this build (and the one that followed, if one did).
        """
        shown, report = self._build(later=True)
        if report is not None and report.behind:
            shown, _ = self._build(later=False, pages=report.files)
        return shown

    def _build(self, *, later: bool, pages: dict[str, str] | None = None
               ) -> tuple[Shown, BuildReport | None]:
        """One build and what it shows (see :meth:`rebuild`); ``pages``: the files of
        the build it follows, whose pages it only brings the index of (no reload when
        every other file is the same). Returns what is shown and the report of a good
        build (``None`` after a failed one)."""
        built = _built(self.root, self.site, later)
        report, code = built.report, built.code
        base = base_path(self.root)
        if base != self.base:
            self.base = base
            self.say(f"site_url's path is {base}: the site is served at {self.url}")
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
        waking whoever waits for it; returns what is shown and whether it changed. Each
        page's version (:attr:`Shown.pages`) is the build that last changed its file:
        every page's, where this build's lines replace the pages or theirs go, where
        the files are not known, or where a file that is neither a page nor a search
        index changed (a style sheet, a script: every page uses them)."""
        code = built.code
        site = self._site_identity()
        files = built.report.files if built.report is not None and code == EXIT_OK else {}
        with self._state:
            before = self._shown
            errors = None if code == EXIT_OK else tuple(built.lines)
            shown_entries = () if code == EXIT_OK else entries
            changed = (before.build == 0 or errors != before.errors
                       or shown_entries != before.entries
                       or (code == EXIT_OK and site != self._last_site and not index_only))
            if changed:
                build = before.build + 1
                self._shown = Shown(build, errors, code, before.site or code == EXIT_OK,
                                    shown_entries, _versions(before, self._files, files,
                                                             build))
            if code == EXIT_OK:
                self._last_site = site
                self._files = files
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
            folder = ProjectFolder(self.root)
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
                folder: ProjectFolder) -> bool:
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


def _without_index(files: dict[str, str]) -> dict[str, str]:
    """A site's files (site path → SHA-256) but its search indexes'."""
    return {rel: sha for rel, sha in files.items() if not _in_index(rel)}


def _in_index(rel: str) -> bool:
    """Whether the site path ``rel`` is a file of a locale's search index."""
    return rel.startswith(search_output(rel.partition("/")[0]) + "/")


def _versions(before: Shown, old: dict[str, str], new: dict[str, str], build: int
              ) -> dict[str, int]:
    """Each HTML file's version once build ``build`` shows the files ``new`` (site path
    → SHA-256) in place of ``old`` (:attr:`Shown.pages`): ``build`` for a file that
    changed, the version it had for the others; ``build`` for every file where the
    pages showed a failed build's lines (or none yet), where either build's files are
    not known (no cache), or where a file that is neither a page nor a search index
    changed. Empty for a failed build (``new`` empty): its lines replace every page."""
    pages = [rel for rel in new if rel.endswith(".html")]
    changed = {rel for rel in old.keys() | new.keys() if old.get(rel) != new.get(rel)}
    if (before.errors is not None or not before.site or not old
            or any(not rel.endswith(".html") and not _in_index(rel) for rel in changed)):
        return dict.fromkeys(pages, build)
    return {rel: build if rel in changed else before.pages.get(rel, build) for rel in pages}



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
    names = _allowed(host, allow)
    if isinstance(names, str):
        emit([names])
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


def _allowed(host: str, allow: Sequence[str]) -> list[str] | str:
    """The ``--allow-host`` names as :func:`~generator.commands.serve_hosts.host_name`
    gives them, ``--host`` being an address to listen on; else the input error's line
    (``--host``'s first)."""
    try:
        listen_address(host)
    except ValueError as exc:
        return f"--host {shown_name(host)!r}: {exc}"
    try:
        return [host_name(name) for name in allow]
    except ValueError as exc:
        return f"--allow-host: {exc}"


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
