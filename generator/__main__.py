"""``python -m generator``: see :mod:`generator.cli`."""

import sys

from generator.cli import main

sys.exit(main())
