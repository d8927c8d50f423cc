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
generator's reach.
"""

import contextlib
import os
import signal
import sys
from typing import NoReturn

_HELD = (signal.SIGINT, signal.SIGTERM)


def main() -> int:
    """Run the command line (arguments from ``sys.argv``); returns the exit status."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        # The only imports inside a function (tests/test_layers.py allows these alone): a
        # measured start-up cost. Importing generator.cli takes about 0.17 s
        # (``python -X importtime -c "import generator.cli"``, 2 cores); a Ctrl-C or
        # SIGTERM in that time must already say "interrupted", so the handler is
        # installed first and the imports run inside this ``try``, the signals held.
        from generator.errors import Interrupted

        signal.signal(signal.SIGTERM, Interrupted.raise_on_signal)
        sys.unraisablehook = Interrupted.deliver_again  # a signal inside a callback
        from generator.cli import main as command_line

        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # a held signal arrives here
        status = command_line()
    except KeyboardInterrupt as exc:  # also Interrupted, for SIGTERM
        # Before the command line runs nothing is written: whatever site was there stays.
        print("interrupted before anything was written", file=sys.stderr)
        status = 128 + int(getattr(exc, "signum", 2))
    # The status is decided. A signal that came just before has its handler run inside
    # this call, the signals held already: the command's status stands, no traceback.
    with contextlib.suppress(KeyboardInterrupt):
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    return status


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
