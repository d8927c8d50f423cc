"""Where ``check --output FILE`` writes its report, as a shell's redirection would
(docs/site.md, "check"): standard output for ``-`` and the names of this process's
standard output, the descriptor itself for the names of another of its open files
(``/dev/fd/3``, ``/proc/self/fd/N``, through links too), appended in place for another
process's descriptor, and any other file replaced whole (:func:`write_report`).
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from generator.layout import replace_file
from generator.layout import write_all
from generator.layout import write_in_place

DESCRIPTOR = re.compile(r"/dev/(?:fd/(?P<fd>[0-9]+)|std(?P<std>in|out|err))"
                         r"|/proc/(?:self|thread-self|(?P<pid>[0-9]+))(?:/task/[0-9]+)?"
                         r"/fd/(?P<proc>[0-9]+)")
"""A name of one of this process's open files: ``/dev/stdout``, ``/dev/fd/3``,
``/proc/self/fd/1`` (and ``/proc/<pid>/fd/N`` for this process's pid; a thread's
``/proc/thread-self/fd/N``, which a link resolves to ``/proc/<pid>/task/<tid>/fd/N``:
threads share their descriptors)."""


def open_descriptor(fd: int) -> None:
    """Raise where descriptor ``fd`` is not open. Standard output or error closed when the
    command started counts as not open even if a file opened since took its number
    (Python then has no ``sys.stdout``): the report must not go into that file.

    Raises:
        OSError: EBADF.
    """
    streams = {1: sys.stdout, 2: sys.stderr}
    if fd in streams and streams[fd] is None:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))
    os.fstat(fd)


def descriptor_named(path: str) -> int | None:
    """The file descriptor of this process ``path`` names, as a shell's redirection
    takes it: ``-``, ``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``, or a path that
    leads to one through links (of its folders too: ``dfd/1`` with ``dfd`` a link to
    ``/dev/fd``). Bash writes to the descriptor itself; renaming a new file over the
    name would leave a shell's ``exec >> log`` writing into a deleted file. ``None``
    for any other path; :data:`FOREIGN` for another process's
    descriptor (``/proc/<pid>/fd/N``), written to in place, appended.
    """
    if path == "-":
        return 1
    current = os.path.abspath(path)
    for _ in range(40):  # (the system's own limit of links followed)
        folder, name = os.path.split(current)
        current = os.path.join(os.path.realpath(folder), name)
        match = DESCRIPTOR.fullmatch(current)
        if match is not None:
            if match["std"] is not None:
                return ("in", "out", "err").index(match["std"])
            if match["pid"] not in (None, str(os.getpid())):
                return FOREIGN
            number = match["fd"] or match["proc"]
            return int(number) if len(number) < 10 else FOREIGN  # (no such descriptor)
        try:
            target = os.readlink(current)
        except OSError:  # not a link (or not there): a path like any other
            return None
        current = os.path.normpath(os.path.join(folder, target))
    return None


FOREIGN = -1
""":func:`descriptor_named` of another process's descriptor (or an impossible one)."""


def write_report(output: str | None, data: bytes, to_stdout: Callable[[bytes], None]) -> None:
    """Write the report ``data`` where ``output`` names (``None``: standard output).

    Args:
        output: ``--output``'s value, or ``None``.
        data: the report.
        to_stdout: writes to standard output (the command line's own writer).

    Raises:
        OSError: the report cannot be written there (a descriptor that is not open is
            one, as a shell's ``>&N`` is, even when there is nothing to write).
    """
    fd = 1 if output is None else descriptor_named(output)
    if fd is not None and fd != FOREIGN and output is not None:
        open_descriptor(fd)
    if fd == 1:  # standard output, also as --output - or /dev/stdout
        to_stdout(data)
    elif fd == FOREIGN and output is not None:
        write_in_place(Path(output), data, append=True)
    elif fd is not None:
        write_all(fd, data)
    elif output is not None:
        replace_file(Path(output), data)
