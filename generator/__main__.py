"""``python -m generator`` and the ``rules-site`` script: the command line of
:mod:`generator.cli`, with interrupts handled from the first moment.

docs/site.md, interrupts: Ctrl-C or SIGTERM, the message ``interrupted``, exit 130 or
143, no traceback. The command line says which site is in place once it runs; a signal
that comes earlier (while the generator's modules load, while the arguments are read)
comes before anything is written. While the modules load, SIGINT and SIGTERM are held
(``pthread_sigmask``): a signal that comes then is delivered once the handlers are in
place, inside the ``try`` below, never in the middle of a library's import (where
Python 3.11 wraps it in a ``RuntimeError`` from ``__set_name__``, or an import lock's
callback swallows it). A signal that comes later, while Python runs a finalizer or a
weakref callback (every import runs one), is sent again once the callback has returned
(:meth:`generator.errors.Interrupted.deliver_again`). Once the exit status is decided
they are held again, so a late signal cannot turn it into a traceback. Python's own
start-up (``site`` and the ``.pth`` files, before this module runs) is out of the
generator's reach. The module's first statement holds the signals; a Ctrl-C that comes
before they are held (``_EARLY``) ends the command as one that comes later does, before
the command line runs.
"""

try:  # the first statement: the signals held before anything else runs
    _EARLY = 0
    import _signal  # type: ignore[import-not-found]  # (loaded at start-up: no Python runs)

    _signal.pthread_sigmask(_signal.SIG_BLOCK, (_signal.SIGINT, _signal.SIGTERM))
except KeyboardInterrupt:  # a Ctrl-C as this module started, before they were held
    _EARLY = 2  # SIGINT (the module may not be bound yet)
    import _signal

    _signal.pthread_sigmask(_signal.SIG_BLOCK, (_signal.SIGINT, _signal.SIGTERM))

import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Callable
from collections.abc import Iterable
from typing import NoReturn

_HELD = (signal.SIGINT, signal.SIGTERM)

_HOLD: Callable[[int, Iterable[int]], object] = \
    importlib.import_module("_signal").pthread_sigmask
"""``pthread_sigmask`` as written in C (``_signal``, which ``signal`` wraps in a function
written in Python): a signal's handler runs as a Python function starts, so through
the wrapper a signal could raise before the signals are held; with this, only after."""


def main() -> int:
    """Run the command line (arguments from ``sys.argv``); returns the exit status, the
    signals SIGINT and SIGTERM held (blocked) from then on.

    Once the command's status is decided, no signal can turn it into a traceback: a
    signal's handler runs (and raises) as a Python function starts or a C function
    returns, so every such point until the signals are held is inside a ``try``.
    Holding them (:data:`_HOLD`) runs a handler that is pending inside, which then
    raises, the signals held; the second ``try`` takes the other signal's, when both
    came (a second Ctrl-C as the first one's build ends would otherwise print a
    traceback from here). A signal before the command
    line ran is status 130 (143 for SIGTERM) and one line on standard error, written
    once the signals are held.
    """
    outcome: dict[str, int] = {}
    # Plain ``try`` (not ``contextlib.suppress``, whose methods are functions written in
    # Python: a signal could raise as one starts).
    try:
        if _EARLY:  # a Ctrl-C as this module started: the command line does not run
            outcome["interrupted"] = 128 + _EARLY
        else:
            _command_line(outcome)
    except KeyboardInterrupt:  # after the status was decided (it stands), or before
        pass
    try:
        _HOLD(signal.SIG_BLOCK, _HELD)
    except KeyboardInterrupt:  # a handler pending ran in there, the signals held
        try:  # noqa: SIM105
            _HOLD(signal.SIG_BLOCK, _HELD)
        except KeyboardInterrupt:  # the other signal's handler, both pending
            pass
    if "status" in outcome:
        return outcome["status"]
    # Before the command line runs nothing is written: whatever site was there stays.
    with contextlib.suppress(OSError, ValueError):  # standard error closed
        print("interrupted before anything was written", file=sys.stderr)
    return outcome.get("interrupted", 128 + signal.SIGINT)


def _command_line(outcome: dict[str, int]) -> None:
    """Run :func:`generator.cli.main`: ``outcome["status"]`` is its exit status, or
    ``outcome["interrupted"]`` 130 or 143 for a signal before it ran."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        # The only imports inside a function (tests/test_layers.py allows these alone): a
        # measured start-up cost. Importing generator.cli takes about 0.17 s
        # (``python -X importtime -c "import generator.cli"``, 2 cores); a Ctrl-C or
        # SIGTERM in that time must already say "interrupted", so the handler is
        # installed first and the imports run inside this ``try``, the signals held.
        from generator.errors import STOPPING
        from generator.errors import Interrupted

        STOPPING.clear()
        signal.signal(signal.SIGTERM, Interrupted.raise_on_signal)
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # (not ignored)
            signal.signal(signal.SIGINT, Interrupted.raise_on_signal)
        sys.unraisablehook = Interrupted.deliver_again  # a signal inside a callback
        from generator.cli import main as command_line

        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # a held signal arrives here
        outcome["status"] = command_line()  # one step: decided as the call returns
    except KeyboardInterrupt as exc:  # also Interrupted, for SIGTERM
        outcome["interrupted"] = 128 + int(getattr(exc, "signum", signal.SIGINT))


def run() -> NoReturn:
    """``python -m generator`` and the ``rules-site`` script: :func:`main`, then the
    process ends at once with its status (``os._exit``), its standard output and error
    flushed first.

    Python's own teardown is skipped: freeing every object a command made took about
    65 ms after a build of 700 pages (a fifth of a build with nothing changed, an
    eighth of ``check``), for nothing the command needs. mypy ends the same way (its
    ``util.hard_exit``). What the command must leave is done before :func:`main`
    returns: files written and closed, temporary folders removed, workers and Pagefind
    waited for; locks are released by the system.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:  # (None: the process was started with it closed)
            with contextlib.suppress(OSError, ValueError):  # a reader gone, closed
                stream.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
