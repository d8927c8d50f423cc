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
