"""``python -m generator`` and the ``rules-site`` script: the command line of
:mod:`generator.cli`, with interrupts handled from the first moment.

SITE.md: interrupted (Ctrl-C, SIGTERM), the message ``interrupted``, exit 130 or 143, no
traceback. The command line says which site is in place once it runs; a signal that
comes earlier (while the generator's modules load, while the arguments are read) comes
before anything is written, and is caught here.
"""

import sys


def main() -> int:
    """Run the command line (arguments from ``sys.argv``); returns the exit status."""
    # The only imports inside a function (tests/test_layers.py allows these alone): a
    # measured start-up cost. Importing generator.cli takes about 0.17 s
    # (``python -X importtime -c "import generator.cli"``, 2 cores); a Ctrl-C or SIGTERM
    # in that time must already say "interrupted", so the handler is installed first and
    # the imports run inside this ``try``.
    try:
        import signal

        from generator.errors import Interrupted

        signal.signal(signal.SIGTERM, Interrupted.raise_on_signal)
        from generator.cli import main as command_line

        return command_line()
    except KeyboardInterrupt as exc:  # also Interrupted, for SIGTERM
        print("interrupted", file=sys.stderr)
        return 128 + int(getattr(exc, "signum", 2))


if __name__ == "__main__":
    sys.exit(main())
