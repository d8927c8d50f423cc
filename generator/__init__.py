"""The rules site generator: re-checks every example case of a rummy rules site with its
rules engine and renders the pages in every language (README.md; docs/site.md).

:data:`__version__` is the package's version, its one home: ``pyproject.toml`` reads it
(``[tool.setuptools.dynamic]``), ``rules-site --version`` prints it, and CHANGELOG.md's
newest section names it (tests/test_release.py).
"""

__version__ = "0.2.0"
