"""Input errors: something wrong in the project's input, with its position.

Every stage that reads input (case files, pages, catalogs, templates) collects
:class:`InputError` values instead of stopping at the first problem; the command
line prints them all (docs/site.md, "Command line") as ``FILE:LINE:COL: message`` and
exits with status 2. An :class:`InputWarning` (``FILE:LINE: warning: message``) is
printed the same way and changes the exit status only under ``--strict``.
"""

from __future__ import annotations

import difflib
import os
import re
import signal
import sys
import threading
import time
import unicodedata
from collections.abc import Collection
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

MAX_MESSAGE = 1000
"""The most characters of one error message; a longer one (it quotes a huge input) keeps
its start and its end (what was expected) around an ellipsis."""

MAX_LISTED = 12
"""The most names an error lists as expected; with more, it suggests a few close ones."""


CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""What a name may not show raw on a line of a message: control characters (C0, DEL,
C1) and the lone surrogates that stand for bytes that are not UTF-8."""

LINE_BREAK = re.compile("\r\n?|\n")
"""A line break as Markdown counts lines: LF, CR LF or CR (not the form feed or U+2028
that ``str.splitlines`` also breaks at)."""

UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f\ufdd0-\ufdef]")
"""A character that text meant for the pages may not hold (a page, a YAML string, a
translation): a control character, C0 and DEL but tab, line feed, carriage return and
form feed (it would reach the HTML as it is, where a browser shows nothing or garbage
for it), or one of Unicode's noncharacters U+FDD0-U+FDEF, which are no text by
definition (the pages' rendering uses two of them as marks of its own:
:data:`generator.i18n.explain.ENGLISH_OPEN`)."""


BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters of a visible category that show nothing: the Hangul fillers (Unicode's
Default_Ignorable_Code_Point letters) and the blank Braille pattern."""


def visible(char: str) -> bool:
    """Whether ``char`` shows: a letter, digit, punctuation mark or symbol (not a space,
    control, format or combining character) that is not blank (:data:`BLANK_LETTERS`)."""
    return unicodedata.category(char)[0] in "LNPS" and char not in BLANK_LETTERS


def invisible_only(text: str) -> str | None:
    """For a ``text`` that holds characters but none that shows (:func:`visible`): what
    it holds, as ``only U+200B, U+2060`` (the first five kinds); ``None`` for a text
    that shows something, or one that is empty or only white space."""
    if any(visible(char) for char in text):
        return None
    chars = sorted({f"U+{ord(c):04X}" for c in text if not c.isspace()})
    return f"only {', '.join(chars[:5])}" if chars else None


def control_character(char: str, where: str = "") -> str:
    """The message for an :data:`UNPRINTABLE` character found ``where`` (``""``, or
    e.g. ``" in the translation"``): ``control character U+001B; expected printable
    text (remove it)``, ``noncharacter U+FDD0; …``."""
    what = "noncharacter" if char >= "\ufdd0" else "control character"
    return f"{what} U+{ord(char):04X}{where}; expected printable text (remove it)"


def unprintable(text: str, file: str) -> list[InputError]:
    """An input error (:func:`control_character`) for each :data:`UNPRINTABLE`
    character of the whole file ``text``, at its own line and column (lines as
    :data:`LINE_BREAK` counts them). One pass over the text: a page of a control
    character a line took 29 s at 200,000 lines when each one counted the lines before
    it again."""
    errors = []
    line, start = 1, 0
    breaks = LINE_BREAK.finditer(text)
    upcoming = next(breaks, None)
    for found in UNPRINTABLE.finditer(text):
        while upcoming is not None and upcoming.end() <= found.start():
            line, start = line + 1, upcoming.end()
            upcoming = next(breaks, None)
        errors.append(InputError(file, line, found.start() - start + 1,
                                 control_character(found.group())))
    return errors


def shown(name: str) -> str:
    """A file name as it may be printed on one line: control characters (and bytes that
    are not UTF-8) escaped, as ``\\n`` or ``\\xNN``."""
    def escape(m: re.Match[str]) -> str:
        char = m.group(0)
        if char == "\n":
            return "\\n"
        if char == "\t":
            return "\\t"
        if char == "\r":
            return "\\r"
        code = ord(char)
        return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\x{code:02x}"

    return CONTROL_CHARACTERS.sub(escape, name)


def quoted(text: str, width: int = 60) -> str:
    """``text`` quoted for a message as Python quotes it (``repr``: quotes and control
    characters escaped), cut to its first ``width - 1`` characters and ``…`` where it
    is longer than ``width``."""
    return repr(text if len(text) <= width else f"{text[:width - 1]}…")


EXIT_OK = 0
"""Exit status: every documented value agrees with the engine (docs/site.md)."""
EXIT_DISAGREE = 1
"""Exit status: a documented value disagrees (with ``--strict``, also a message shown
in English)."""
EXIT_INPUT = 2
"""Exit status: the input is wrong, or the output cannot be written."""

@dataclass(frozen=True)
class InputError:
    """One problem in the input, where it is.

    Attributes:
        file: the file, relative to the project, with POSIX separators
            (e.g. ``"content/examples/melds.yaml"``).
        line: 1-based line.
        column: 1-based column (characters, not bytes), or ``None`` where unknown.
        message: ``what is wrong; what was expected``, in English.
        code: the problem's code word where a reader may meet it in another language
            (an :class:`~generator.engine.codes.InputReason`, such as
            ``too_many_copies``); ``""`` for an author's problem said in English only.
        params: the values the code's words are filled in with, as ``(name, value)``
            pairs of strings (``("card", "QH")``, ``("count", "5")``).
    """

    file: str
    line: int
    column: int | None
    message: str
    code: str = ""
    params: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if len(self.message) > MAX_MESSAGE:
            keep = MAX_MESSAGE // 2 - 2
            object.__setattr__(self, "message",
                               f"{self.message[:keep]} … {self.message[-keep:]}")

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

    def sort_key(self) -> tuple[str, int, int]:
        """A key that orders errors by file, line, column (unknown first); errors at one
        place keep the order they were found in (a stable sort)."""
        return (self.file, self.line, self.column or 0)

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class InputWarning:
    """Something in the input that is probably not meant, where it is: reported with
    ``warning:`` and never an error, except under ``--strict`` (docs/site.md,
    "Warnings").

    Attributes:
        file: the file, relative to the project, with POSIX separators.
        line: 1-based line.
        message: what is probably not meant, in English (``case ID is shown on no
            page``).
    """

    file: str
    line: int
    message: str

    def format(self) -> str:
        """The warning as one line: ``FILE:LINE: warning: message``."""
        return f"{self.file}:{self.line}: warning: {self.message}"

    def as_dict(self) -> dict[str, str | int]:
        """The warning as the JSON object of ``check --format json``:
        ``{"file", "line", "message"}``."""
        return {"file": self.file, "line": self.line, "message": self.message}

    def sort_key(self) -> tuple[str, int]:
        """A key that orders warnings by file and line."""
        return (self.file, self.line)


def too_large(rel: str, size: int, limit: int, what: str, advice: str) -> InputError | None:
    """The error for an input file of ``size`` bytes when that is more than ``limit``
    (checked before the file is parsed, so that memory stays bounded), else ``None``.

    Args:
        rel: the file, relative to the project.
        what: what the file is (``"case file"``).
        advice: what to do, e.g. ``"split its cases over several files"``.
    """
    if size <= limit:
        return None
    shown = f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit // 1_000} KB"
    return InputError(rel, 1, None, f"the {what} has {size:,} bytes, more than the limit of "
                      f"{limit:,} bytes ({shown}); expected a smaller file: {advice}")


def joined(names: Iterable[str], word: str) -> str:
    """``names`` as a message lists them, the last two joined by ``word``: ``"a, b or
    c"``, ``"a and b"``, ``"a"``."""
    items = list(names)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def or_list(names: Iterable[str]) -> str:
    """The choices a message expects: ``"rami40, rami51 or cardverse"``."""
    return joined(names, "or")


def and_list(names: Iterable[str]) -> str:
    """Everything a message names: ``"id, kind and game"``."""
    return joined(names, "and")


def one_of(word: str, names: Collection[str], *, noun: str = "names",
           suggest: bool = True) -> str:
    """What an error expects instead of ``word``, bounded whatever the number of names:
    ``one of: a, b, c`` (sorted) for up to :data:`MAX_LISTED` names; else ``one of the
    N ids`` (``noun``) and, when ``suggest``, the closest few (:func:`did_you_mean`), or
    when none is close, the first :data:`MAX_LISTED` in sorted order; with no names at
    all, ``one of its ids, but it has none``."""
    if not names:
        return f"one of its {noun}, but it has none"
    if len(names) <= MAX_LISTED:
        return "one of: " + ", ".join(sorted(names))
    close = did_you_mean(word, names, n=3, cutoff=0.6) if suggest else ""
    if suggest and not close:
        close = ": " + ", ".join(sorted(names)[:MAX_LISTED]) + ", …"
    return f"one of the {len(names)} {noun}{close}"


def did_you_mean(word: object, choices: Iterable[str], n: int = 1,
                 cutoff: float = 0.75) -> str:
    """The hint an error message ends with when ``word`` is close to one of ``choices``
    (a misspelt field, kind, game or placeholder): ``" (did you mean 'cards'?)"``; with
    ``n`` above 1, up to ``n`` names (``" (did you mean 'a', 'b' or 'c'?)"``); ``""``
    when none is close (:func:`difflib.get_close_matches`, similarity at least
    ``cutoff``) or ``word`` is not a string."""
    if not isinstance(word, str):
        return ""
    close = [repr(name) for name in difflib.get_close_matches(word, list(choices), n=n,
                                                               cutoff=cutoff)]
    if not close:
        return ""
    return f" (did you mean {or_list(close)}?)"


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal: SIGINT (Ctrl-C) or SIGTERM (docs/site.md: the message
    ``interrupted``, exit 128 + the signal's number, and a true statement of which site
    is in place). A plain :class:`KeyboardInterrupt` (Python's own, for SIGINT) means
    the same with ``signum`` 2.

    Attributes:
        signum: the signal's number (2 SIGINT, 15 SIGTERM).
        new_site: the new site was already in place when the signal came (the build
            was removing the previous one: the next build removes the rest).
    """

    def __init__(self, signum: int = 2, *, new_site: bool = False) -> None:
        super().__init__(signum)
        self.signum = signum
        self.new_site = new_site

    @classmethod
    def after(cls, exc: KeyboardInterrupt, *, new_site: bool) -> Interrupted:
        """The same interruption (its signal), saying whether the new site is in place."""
        return cls(getattr(exc, "signum", 2), new_site=new_site)

    @staticmethod
    def raise_on_signal(signum: int, _frame: object) -> None:
        """A ``signal.signal`` handler (for SIGTERM, and SIGINT unless it is ignored):
        stop the run, so that what is being written is cleaned up on the way out. The
        first signal stops the run: the signals that come after it are dropped
        (:data:`STOPPING`), so the status is the first one's (a SIGTERM a few ms after
        a Ctrl-C, while the first interrupt unwinds, still ends with 130).

        Raises:
            Interrupted: always.
        """
        if STOPPING:
            return  # a later signal: the run is stopping for the first one
        STOPPING.append(signum)
        raise Interrupted(signum)

    @staticmethod
    def deliver_again(unraisable: sys.UnraisableHookArgs) -> None:
        """A ``sys.unraisablehook``: a signal that came while Python ran a finalizer or a
        weakref callback (the import system runs one at the end of every import) raised
        its exception where Python cannot raise one: it printed ``Exception ignored in``
        with a traceback and the run went on, to exit 0. Such a signal is sent again a
        moment later (``REDELIVERY_DELAY`` seconds, from a short-lived thread), once the
        callback has returned, so that the run stops as the signal asks. Any other
        unraisable exception goes to Python's own hook.

        Args:
            unraisable: what Python could not raise (``exc_value`` and where).
        """
        exc = unraisable.exc_value
        if not isinstance(exc, KeyboardInterrupt):
            sys.__unraisablehook__(unraisable)
            return
        signum = int(getattr(exc, "signum", signal.SIGINT))
        STOPPING.clear()  # it stopped nothing: the signal sent again is a first one
        threading.Thread(target=_send_later, args=(signum,), daemon=True,
                         name="deliver-again").start()


@contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM that come inside the ``with`` are acted on at its end: the
    block runs whole, then the first such signal raises :class:`Interrupted` with its
    number (also when the block raised: the signal is what the user asked for). For
    what must not be cut in two: the swap of the new site and ``swapped``, the removal
    of a half-written site (a second Ctrl-C there would leave ``.site.new-N``
    behind), the workers' and the search scratch folder's clean-up. When the
    block runs because an interrupt is already under way (inside its ``except`` or
    ``finally``), a signal that comes meanwhile is dropped: the first one stops the run
    and gives its status (SIGINT then SIGTERM ends with 130, not 143). Python's
    handlers are replaced for the time, not the signal mask: a signal the system gives
    to another thread (a Pagefind reader's) is held back too. Outside the main thread
    (where handlers cannot be set), or with a handler not set from Python, the block
    runs as it is.

    Raises:
        Interrupted: a signal came inside the block, and no interrupt was under way.
    """
    numbers = (signal.SIGINT, signal.SIGTERM)
    before = [signal.getsignal(n) for n in numbers]
    if threading.current_thread() is not threading.main_thread() or None in before:
        yield
        return
    under_way = isinstance(sys.exc_info()[1], KeyboardInterrupt)
    came: list[int] = []
    try:
        for number in numbers:
            signal.signal(number, lambda signum, _frame: came.append(signum))
        yield
    finally:
        for number, handler in zip(numbers, before, strict=True):
            signal.signal(number, handler)
        if came and not under_way and not STOPPING:
            STOPPING.append(came[0])
            raise Interrupted(came[0])


STOPPING: list[int] = []
"""The signal that is stopping the run, once one came (:meth:`Interrupted.raise_on_signal`):
the signals after it are dropped. Emptied when a signal's exception was swallowed
(:meth:`Interrupted.deliver_again`: it did not stop the run) and when the command line
starts (``generator.__main__``)."""


def interruption(exc: BaseException) -> KeyboardInterrupt | None:
    """The interruption behind ``exc``, an exception that reached a command's last
    handler: a :class:`KeyboardInterrupt` in its chain (``__cause__``,
    ``__context__``), or, when the run is stopping for a signal (:data:`STOPPING`), an
    :class:`Interrupted` for it; ``None`` for a fault of its own. Python 3.11 turns an
    exception raised while a class is made (a field's ``__set_name__``, as a module
    loads) into a ``RuntimeError``: without this, a SIGTERM there would be reported as
    "the generator failed" (exit 2) instead of ``interrupted``."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return link
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return Interrupted(STOPPING[0]) if STOPPING else None


REDELIVERY_DELAY = 0.02
"""Seconds before a signal that a finalizer swallowed is sent again
(:meth:`Interrupted.deliver_again`): long after the callback has returned, short
against a person's wait."""


def _send_later(signum: int) -> None:
    """Send ``signum`` to this process after ``REDELIVERY_DELAY`` seconds."""
    time.sleep(REDELIVERY_DELAY)
    os.kill(os.getpid(), signum)
