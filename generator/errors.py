"""Input errors: something wrong in the project's input, with its position.

Every stage that reads input (case files, pages, catalogs, templates) collects
:class:`InputError` values instead of stopping at the first problem; the command
line prints them all (SITE.md, "Command line") as ``FILE:LINE:COL: message`` and
exits with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class InputError:
    """One problem in the input, where it is.

    Attributes:
        file: the file, relative to the project, with POSIX separators
            (e.g. ``"content/examples/melds.yaml"``).
        line: 1-based line.
        column: 1-based column (characters, not bytes), or ``None`` where unknown.
        message: ``what is wrong; what was expected``, in English.
    """

    file: str
    line: int
    column: int | None
    message: str

    def format(self) -> str:
        """The error as one line: ``FILE:LINE:COL: message`` (``FILE:LINE: message``
        when the column is unknown)."""
        where = f"{self.file}:{self.line}"
        if self.column is not None:
            where += f":{self.column}"
        return f"{where}: {self.message}"

    def as_dict(self) -> dict[str, str | int | None]:
        """The error as the JSON object of ``check --format json``:
        ``{"file", "line", "column", "message"}`` (``column`` may be ``None``)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }

    def sort_key(self) -> tuple[str, int, int, str]:
        """A key that orders errors by file, line, column (unknown first), message."""
        return (self.file, self.line, self.column or 0, self.message)

    def __str__(self) -> str:
        return self.format()


class InputErrors(Exception):
    """Raised by code that cannot go on because its input is wrong.

    Attributes:
        errors: every error found, in the order found (at least one).
    """

    def __init__(self, errors: Iterable[InputError]) -> None:
        self.errors: tuple[InputError, ...] = tuple(errors)
        super().__init__("\n".join(e.format() for e in self.errors))


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """The hint an error message ends with when ``word`` is close to one of ``choices``
    (a misspelt field, kind, game or placeholder): ``" (did you mean 'cards'?)"``, or
    ``""`` when none is close (or ``word`` is not a string)."""
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""
