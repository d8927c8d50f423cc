"""``python -m generator``: see :mod:`generator.cli`."""

import sys

try:
    from generator.cli import main
except KeyboardInterrupt:  # interrupted while starting: nothing was written
    sys.exit(130)

sys.exit(main())
