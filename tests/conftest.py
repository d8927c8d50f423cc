"""Shared fixtures: a copy of the repository's own project to break and build."""

from __future__ import annotations

import compileall
import contextlib
import fcntl
import functools
import gc
import hashlib
import importlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup

from generator.cli import main
from generator.engine.rules import GAMES
from generator.engine.rules import GameSpec
from generator.engine.rules import rami_variant
from generator.engine.rules import register_game
from generator.engine.rules import unregister_game
from generator.i18n.catalog import Translator
from generator.i18n.catalog import load_translators
from generator.layout import builtin_catalog

# Hypothesis's plugins (entry points of the "hypothesis" group) are not loaded: the only
# one installed is trio's (which selenium brings), and it imported trio into each test
# process as Hypothesis was first imported (0.1-0.2 s each); no test uses it.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

REPO = Path(__file__).resolve().parent.parent
THEME = REPO / "generator" / "theme"
"""The package's theme (the templates and assets a project's ``templates/`` overrides)."""
EXTENDED = os.environ.get("RULES_EXTENDED") == "1"
"""The extended round (``RULES_EXTENDED=1``): the tests marked ``extended`` run their big
numbers of examples, rounds and repetitions; by default they run a few, for the code path."""
EXTENDED_ONLY = (pytest.mark.extended,
                 pytest.mark.skipif(not EXTENDED, reason="in the extended round only "
                                    "(RULES_EXTENDED=1): a second example of a path the "
                                    "default run already takes"))
"""The marks of a parameter (``pytest.param(..., marks=EXTENDED_ONLY)``) or a test that the
default run leaves to the extended round, saying so when it skips: another preset, encoding
or spelling of what a default example already runs through, at a second or more a run."""
FULL_COLLECTION_AFTER = 100
"""Collections of the middle generation between two full garbage collections in a test
process (Python's default: 10). A full collection goes through every object of the
process: a test worker's session, its process memos and a build's pages and cases,
often a million objects, 0.15-0.2 s a collection; and every build's ``gc.unfreeze``
(``generator.commands.build``) puts all of them in the oldest generation. With the
default, the two workers of a default run spent 7.6 s of CPU in 53 full collections
(``gc.callbacks``); with this, 1 s in 6. The garbage waits longer (a worker ends with up
to 1.6 million objects instead of 0.5 million), nothing else changes."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: half as many workers again as the machine has processors. A third of
    a default run's test time is spent waiting (on a ``generator`` process, a socket, a
    signal, Pagefind), which a further worker fills (measured on 2 processors: 66 s with
    2 workers, 61 s with 3)."""
    processors = os.cpu_count() or 1
    return max(2, processors + processors // 2)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """The objects left at the end of a test process are frozen, after pytest's own
    collection of the unraisable exceptions (``_pytest.unraisableexception``, which then
    collects once more as it cleans up): that second pass looks only at what is made
    after this, not again at a worker's million objects (0.2-0.5 s a worker)."""
    gc.freeze()


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode is kept (in the ignored ``__pycache__`` folders) even where
    ``PYTHONDONTWRITEBYTECODE=1`` is set, as on the CI machines, where it cost a run
    about a fifth of its time:

    - pytest rewrote the asserts of every test module again in each xdist worker
      (7 s of a worker's 10 s collection, measured with cProfile); with the flag off
      here it keeps the rewritten modules, as it does everywhere else;
    - many tests run ``python -m generator`` in a new process, and each compiled the
      package's 80-odd modules again, about 0.3 s a process (an editable install leaves
      them uncompiled; pip compiles the libraries'): they are compiled once, in the
      controller, before the workers start.

    Python checks each file's time and size against its bytecode, so an edited module
    is compiled afresh.

    And SIGINT is given its default handler where the run started with it ignored.

    And a test process runs Python's full garbage collection a tenth as often as by
    default (:data:`FULL_COLLECTION_AFTER`), and the run's temporary folders are on the
    RAM disk where it can have them (:func:`_scratch_on_a_ram_disk`)."""
    sys.dont_write_bytecode = False
    young, middle, _full = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_AFTER)
    if not hasattr(config, "workerinput"):
        _scratch_on_a_ram_disk(config)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # Started in the background of a shell without job control (``.ci/run &``),
        # SIGINT is ignored, and every process a test starts inherits that: the tests
        # that send a process Ctrl-C then saw it ignored. Python's handler here, so
        # that they start with the default again, as from a terminal.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not hasattr(config, "workerinput"):
        compileall.compile_dir(REPO / "generator", quiet=1)
        _rewrite_test_modules_once(config)


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """In the controller of a parallel run, the test modules whose asserts pytest has
    not rewritten since they last changed are imported once (pytest rewrites and keeps
    them, ``__pycache__/*-pytest-*.pyc``) before the workers start: otherwise each worker
    of a fresh checkout rewrites every module again (about 7 s of CPU a worker: a
    newcomer's first run took 66 s instead of 55 s on 2 processors with 3 workers)."""
    if not getattr(config.option, "numprocesses", None):
        return
    tail = f".{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    folder = Path(__file__).parent
    stale = [path.stem for path in sorted(folder.glob("test_*.py"))
             if not (cached := folder / "__pycache__" / f"{path.stem}{tail}").exists()
             or cached.stat().st_mtime < path.stat().st_mtime]
    for name in stale:
        importlib.import_module(f"tests.{name}")


RAM_DISK = Path("/dev/shm")
"""Linux's RAM disk (tmpfs), where a run keeps its temporary folders when it can
(:func:`_scratch_on_a_ram_disk`)."""
RAM_DISK_FREE = 4 << 30
"""The free space the RAM disk must have for a run to use it: a run writes about 400 MB
there, and pytest keeps the folders of the last three runs."""


def _scratch_on_a_ram_disk(config: pytest.Config) -> None:
    """The run's temporary folders (``tmp_path``, and the ``TMPDIR`` of every process a
    test starts) on the RAM disk, where neither ``TMPDIR`` nor ``--basetemp`` chooses
    another place and the RAM disk has :data:`RAM_DISK_FREE`. A default run writes and
    removes about 400 MB of copied projects, built sites and caches, and then removes
    the folder of the run three before it: on this project's machines (ext4 mounted
    with ``discard``) that cost a run 6.5 s of system CPU and 10-15 s of its minute
    (measured A B: 20.1 s of system CPU on the disk, 13.6 s on the RAM disk). The
    folders stay where pytest keeps them (``pytest-of-USER/pytest-N`` under the RAM
    disk) until a later run removes them, or a reboot."""
    if "TMPDIR" in os.environ or config.option.basetemp or not sys.platform.startswith(
            "linux"):
        return
    factory = getattr(config, "_tmp_path_factory", None)
    if getattr(factory, "_basetemp", None) is not None:  # chosen already
        return
    try:
        disk = os.statvfs(RAM_DISK)
    except OSError:
        return
    if not os.access(RAM_DISK, os.W_OK) or disk.f_bavail * disk.f_frsize < RAM_DISK_FREE:
        return
    os.environ["TMPDIR"] = str(RAM_DISK)
    tempfile.tempdir = None  # (read again from TMPDIR)


@pytest.fixture(autouse=True)
def _own_build_cache(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test's builds keep their cache in a folder of the test's own (never the user's
    ``~/.cache``), so no test finds another's cache, and the build cache's key
    (generator.cache_key.cache_key) in a configuration folder of its own: no test reads or
    makes the user's real key. ``xdg-cache`` and ``xdg-config`` in its ``tmp_path`` where
    it has one; else folders named after the test in the run's temporary folder, made
    only when something is written there (a ``tmp_path`` made for each of the 700 tests
    that need none cost 1 ms of CPU each)."""
    if "tmp_path" in request.fixturenames:
        home = request.getfixturevalue("tmp_path")
        cache, config = home / "xdg-cache", home / "xdg-config"
    else:
        name = hashlib.sha256(request.node.nodeid.encode("utf-8")).hexdigest()[:16]
        base = tmp_path_factory.getbasetemp()
        cache, config = base / "xdg-caches" / name, base / "xdg-configs" / name
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))


@pytest.fixture(autouse=True)
def _own_signal_state() -> Iterator[None]:
    """Each test leaves the process's signal mask, its SIGINT and SIGTERM handlers and
    ``sys.unraisablehook`` as it found them: ``generator.__main__.main`` run in-process
    ends with the signals held, and every process a later test started inherited that
    mask (a child's ``SigBlk`` showed them held before its generator code ran)."""
    import generator.errors

    generator.errors.STOPPING.clear()  # (a test's first signal: not the next test's)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    handlers = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    hook = sys.unraisablehook
    yield
    sys.unraisablehook = hook
    for number, handler in handlers.items():
        signal.signal(number, handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def catalog_locales(folder: Path) -> tuple[str, ...]:
    """The locales with a catalog in ``folder`` (``<lang>/LC_MESSAGES/messages.po``),
    sorted.

    Raises:
        AssertionError: ``folder`` holds no catalog.
    """
    found = tuple(sorted(p.parent.parent.name
                         for p in folder.glob("*/LC_MESSAGES/messages.po")))
    assert found, f"no catalog in {folder}"
    return found


SHIPPED_LOCALES = catalog_locales(REPO / "generator" / "locales")
"""The locales the package's built-in catalogs translate (and English, the source),
sorted: a language added by docs/DESIGN.md's recipe is one of them without a test's
edit."""
SITE_LOCALES = ("en", *catalog_locales(REPO / "locales"))
"""The locales this repository's site is built in, as it lists them: English (the
source) first, then every locale with a catalog in ``locales/``, sorted (it has no
``site.yaml`` setting ``languages``)."""
UNSHIPPED_LOCALE = next(
    x for x in ("fr", "nl", "it", "es")
    if x not in {*SHIPPED_LOCALES, *SITE_LOCALES,
                 *catalog_locales(REPO / "generator" / "scaffold" / "locales")})
"""A locale Babel knows that no catalog of the repository translates (not the built-in
ones, the site's, the scaffold's): the tests' language without catalogs."""


@functools.cache
def repo_translator(locale: str) -> Translator:
    """What this repository's site shows in ``locale``: its own catalog
    (``locales/<locale>``) over the package's built-in one (``generator/locales``), as
    the build layers them; English is the source. The catalogs have no error."""
    translators, errors = load_translators(REPO, [locale])
    assert errors == []
    return translators[locale]


def repo_catalogs(locale: str) -> list[Catalog]:
    """The two catalogs of ``locale`` the repository's site is built from, as Babel
    reads them: the site's own (``locales/``) and the package's built-in one."""
    found = []
    for path in (REPO / "locales" / locale / "LC_MESSAGES" / "messages.po",
                 builtin_catalog(locale)):
        with path.open("rb") as fh:
            found.append(read_po(fh, locale=locale))
    return found


def translate_in(po: Path, msgid: str, msgstr: str, context: str | None = None) -> None:
    """Give ``msgid`` the translation ``msgstr`` in the site's catalog ``po``: its entry
    changed, or one added where the site's catalog does not hold the message (a message
    of the built-in catalogs, which the site's entry overrides)."""
    def quoted(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    head = (f"msgctxt {quoted(context)}\n" if context is not None else "") + \
        f"msgid {quoted(msgid)}\nmsgstr "
    text = po.read_text(encoding="utf-8")
    if head not in text:
        text += f'\n{head}""\n'
    at = text.index(head) + len(head)
    end = text.index("\n", at)
    po.write_text(text[:at] + quoted(msgstr) + text[end:], encoding="utf-8")


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def game_lists() -> dict[str, str]:
    """The lists of games that expected messages spell, by the name an expected message
    writes in their place (``expected one of: {GAMES}``), from the game registry as it is
    now: a test never types the games again, and a new game changes none.

    ``{GAMES}``: every game, as an enum's choices are listed (``rami40, rami51,
    cardverse``); ``{GAMES or}``: the same as a choice (``rami40, rami51 or cardverse``);
    ``{RAMI_GAMES or}``, ``{OPENING_GAMES or}``, ``{OPTION_GAMES or}``: the games with
    presets, with an opening, with options (``generator/kinds/fields.py``)."""
    from generator.kinds import fields

    return {
        "{GAMES}": ", ".join(GAMES),
        "{GAMES or}": _or(list(GAMES)),
        "{RAMI_GAMES or}": _or(list(fields.RAMI_GAMES)),
        "{OPENING_GAMES or}": _or(list(fields.OPENING_GAMES)),
        "{OPTION_GAMES or}": _or(list(fields.OPTION_GAMES)),
    }


def with_game_lists(text: str) -> str:
    """``text`` with each list name of :func:`game_lists` replaced by its list."""
    for name, listed in game_lists().items():
        text = text.replace(name, listed)
    return text


RAMI60_THRESHOLD = 60
"""The first meld of :func:`rami60`, the game a test registers (points)."""


@pytest.fixture
def rami60() -> Iterator[GameSpec]:
    """A game registered for one test and unregistered after it: ``rami60``, Rami with a
    first meld of 60 points that holds a pure run, made as the registry's Rami games are
    (``generator.engine.rules.rami_variant``)."""
    spec = rami_variant("rami60", "Rami 60", opening_threshold=RAMI60_THRESHOLD,
                        opening_needs_pure_run=True)
    register_game(spec)
    try:
        yield spec
    finally:
        unregister_game(spec.id)


LEAN_LOCALES = ("en", "cs")
"""The locales of the lean project (:func:`lean_project`): the source language and one
translation."""


@pytest.fixture
def project(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    """A fresh copy of the project's content and catalogs (its look is the package's
    theme: :func:`override` copies a theme file into its ``templates/`` to break); in a
    module that sets ``LEAN_PROJECT = True``, the lean copy (:func:`lean_project`)."""
    if getattr(request.module, "LEAN_PROJECT", False):
        return _copy_project(tmp_path, LEAN_LOCALES)
    return _copy_project(tmp_path, None)


@pytest.fixture
def lean_project(tmp_path: Path) -> Path:
    """A fresh copy of the project's content (every page and case) with one of its
    catalogs, Czech: the site in English and Czech (:data:`LEAN_LOCALES`). For the tests
    of a mechanism (the swap, the cache, kills, escaping, error reports) that needs the
    real pages but not every language: it builds in about a third of the whole
    project's time (measured: 0.4 s against 1.2-1.5 s)."""
    return _copy_project(tmp_path, LEAN_LOCALES)


@pytest.fixture
def init_project(tmp_path: Path, initialised: Path) -> Path:
    """A new project as ``init`` makes it (``generator/scaffold/``): one page and its case
    file, ``content/examples/melds.yaml`` (three cases, the first a meld of ``points:
    31``), in English and Czech. For the tests of a process (its exit status, its
    outputs, its signals) that need a project to check or build but not the real pages:
    ``python -m generator check`` takes 0.35 s of CPU on it, 0.5 s on the lean project.
    A copy of :func:`initialised` (what ``init`` writes does not depend on where)."""
    target = tmp_path / "small"
    shutil.copytree(initialised, target, symlinks=True)
    return target


@pytest.fixture(scope="session")
def initialised(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project made by ``init`` once per test process (its defaults: English and
    Czech), for :func:`init_project` and the tests' own projects to copy (do not change
    it): ``init`` takes 40 ms of CPU, a copy 1 ms."""
    target = tmp_path_factory.mktemp("init") / "small"
    result = run_cli("init", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    return target


def _copy_project(tmp_path: Path, locales: tuple[str, ...] | None) -> Path:
    """``content/`` and ``locales/`` copied into ``tmp_path/project``: every catalog, or
    the template and the catalogs of ``locales`` (the source locale has none)."""
    dest = tmp_path / "project"
    shutil.copytree(REPO / "content", dest / "content")
    if locales is None:
        shutil.copytree(REPO / "locales", dest / "locales")
        return dest
    (dest / "locales").mkdir()
    shutil.copyfile(REPO / "locales" / "messages.pot", dest / "locales" / "messages.pot")
    for lang in locales:
        if (REPO / "locales" / lang).is_dir():
            shutil.copytree(REPO / "locales" / lang, dest / "locales" / lang)
    return dest


def override(project: Path, name: str) -> Path:
    """Copy the theme's file ``name`` (``base.html``, ``static/style.css``) into the
    project's ``templates/``, where it overrides the theme's; return the copy's path."""
    path = project / "templates" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(THEME / name, path)
    return path


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's own project built once per run, for the tests that only read the
    site (do not change it: use ``project`` and build that). The test processes of a
    parallel run (pytest-xdist) share it: the first that needs it builds it in the
    run's temporary folder, which every worker's is inside, under a lock the others
    wait on (a build of seven locales and their indexes is 1.3 s of CPU)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return _build_repository_site(tmp_path_factory.mktemp("built") / "site")
    shared = tmp_path_factory.getbasetemp().parent / "built-site"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        out = shared / "site"
        if not (shared / "done").exists():
            shutil.rmtree(out, ignore_errors=True)  # (a builder that died midway)
            _build_repository_site(out)
            (shared / "done").touch()
    return out


def _build_repository_site(out: Path) -> Path:
    """This repository's project built into ``out`` without the build cache."""
    result = run_cli("build", "--project", str(REPO), "--out", str(out), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return out


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not;
    Linux's ``/proc``)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def run_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m generator ARGS`` in a subprocess, as scripts do: for tests of the
    process itself (exit status on a signal, the terminal's encoding, start-up)."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd or REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the command line ``ARGS`` in this process (:func:`generator.cli.main`), its
    standard output and error captured; the same result as :func:`run_process` without
    a new interpreter's start-up (about 0.4 s a call)."""
    out = io.StringIO()
    err = io.StringIO()
    previous = Path.cwd()
    os.chdir(cwd or REPO)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(["generator", *args], code, out.getvalue(),
                                       err.getvalue())


class _StartTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))


def start_tags(html: str) -> list[tuple[str, dict[str, str]]]:
    """Every start tag of ``html`` with its attributes (the last of a repeated one), as
    BeautifulSoup's ``html.parser`` reads them (the same tokenizer) without building a
    tree: for the tests that scan every page of a site (several times faster)."""
    parser = _StartTags()
    parser.feed(html)
    parser.close()
    return parser.tags


def parsed_page(path: Path) -> BeautifulSoup:
    """The built page at ``path`` parsed by BeautifulSoup (``html.parser``), once per
    test module: for the tests that only read a page, several tests each (do not change
    the page after)."""
    soup = _PARSED.get(path)
    if soup is None:
        soup = _PARSED[path] = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    return soup


_PARSED: dict[Path, BeautifulSoup] = {}
""":func:`parsed_page`'s pages of the module whose tests run."""


@pytest.fixture(autouse=True, scope="module")
def _pages_parsed_for_one_module() -> Iterator[None]:
    """Forgets :func:`parsed_page`'s pages when a module's tests end, each taken apart
    (``decompose``). A page's tree is about 1,000 elements; kept for the whole run, a
    test worker held 100 of them (a million objects), and its garbage collections at the
    end took seconds. Its elements point at one another (parent, siblings): forgotten
    whole, a tree waits for Python's full garbage collection, which then goes through
    all of them (1.5 s of a worker's last collection); taken apart, each element is
    freed as soon as it is forgotten."""
    yield
    for soup in _PARSED.values():
        for element in list(soup.contents):  # (the soup's own decompose leaves them)
            element.decompose()
    _PARSED.clear()


def replace_in(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace the first ``count`` occurrences of ``old`` in ``path``; return the 1-based
    line of the first replacement."""
    text = path.read_text(encoding="utf-8")
    index = text.index(old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return text.count("\n", 0, index) + 1


class Hang(BaseException):
    """Raised by :func:`no_hang`'s alarm (not an ``OSError``: code under test that
    catches those must not swallow it)."""


def in_child(body: Callable[[], object]) -> None:
    """Run ``body`` in a process forked from this one, its garbage collector off, and
    fail with its traceback where it fails: for a test that signals its own process
    (``os.kill(os.getpid(), SIGINT)``, an alarm). A handler runs wherever Python next
    checks for signals, inside another library's callback too (a garbage collector
    callback, where its exception cannot propagate and is printed as "Exception ignored
    in"); a signal sent to the test worker itself could reach the callbacks and tests
    that share the worker. In the child, the signal reaches ``body``'s code alone, and
    the child ends with ``os._exit`` (none of the worker's clean-up runs there).

    Raises:
        pytest.fail.Exception: ``body`` raised (its traceback), or the child ended
            otherwise than returning from it (its exit status).
    """
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: body, its outcome, and nothing else
        status = 1
        try:
            os.close(read)
            gc.disable()
            body()
            status = 0
        except BaseException:
            report = traceback.format_exc().encode("utf-8", "replace")
            with contextlib.suppress(BaseException):
                while report:
                    report = report[os.write(write, report):]
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        report = fh.read().decode("utf-8", "replace")
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if status != 0:
        pytest.fail(f"the test's child process ended with {status}:\n{report}", pytrace=False)


@contextmanager
def no_hang(seconds: float = 20) -> Iterator[None]:
    """Fail (:class:`Hang`) instead of blocking forever, e.g. on opening a FIFO; the
    alarm repeats every second, should the code under test catch it."""
    def expire(signum: int, frame: object) -> None:
        raise Hang(f"blocked for more than {seconds} s (reading a FIFO?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
