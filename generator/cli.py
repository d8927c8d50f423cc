"""The command line (docs/site.md, "Command line"; fixed, scripts call it).

    python -m generator build [--project DIR] [--out DIR] [--strict] [--drafts] [--no-cache]
    python -m generator check [--project DIR] [--strict] [--format text|json|github|junit]
                              [--output FILE] [--fix [--diff]] [PATH... | --id ID...]
    python -m generator explain [--kind KIND] --game GAME [--rules PRESET] [INPUTS...]
                                [--id ID] [--title TEXT] [--lang LANG] [--append FILE]
    python -m generator explain --case FILE|- [--id ID] [--new-id ID] [--title TEXT]
                                [--lang LANG] [--append FILE]
    python -m generator i18n extract|update|stats [--project DIR] [--builtin]
    python -m generator serve [--project DIR] [--port 8000] [--host 127.0.0.1]
                              [--allow-host NAME]...
    python -m generator schema [--settings]
    python -m generator init DIR [--lang LIST] [--title TEXT]
    python -m generator --version

Without ``--project``, the project is the nearest folder holding ``site.yaml``, the
current one or one above it (the search goes no higher than the home folder, a
file-system boundary or a folder of another user), else the current folder
(:func:`generator.layout.find_project`).

Exit status: 0 all documented values agree; 1 a disagreement (with ``--strict``, also
an untranslated or fuzzy message, and for ``check`` a warning); 2 the input is wrong;
130 / 143 interrupted by SIGINT / SIGTERM; ``serve`` stopped with Ctrl-C exits 0.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import sys
import time
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from generator import __version__
from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import STOPPING
from generator.errors import InputError
from generator.errors import Interrupted
from generator.errors import interruption
from generator.errors import or_list
from generator.errors import shown
from generator.extensions import ExtensionError
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import OUTPUT
from generator.layout import FoundProject
from generator.layout import Layout
from generator.layout import find_project
from generator.layout import output_path
from generator.layout import replace_file
from generator.layout import write_all
from generator.layout import write_in_place
from generator.output import MARKER

if TYPE_CHECKING:  # for the annotations only; imported where used (see _check)
    pass

CI_FORMATS = ("github", "junit")
"""The ``check --format`` values for CI systems (generator/commands/report_formats.py)."""


PROJECT_HELP = ("project folder (default: the nearest folder holding site.yaml, the current "
                "one or one above it; else the current folder)")


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _prog() -> str:
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m generator" if name in ("", "__main__.py", "-c") else name


# Each command imports what it needs where it runs, not here: a build taken whole from
# the cache needs none of the loading, rendering or engine, and importing them is most
# of its time (measured: python -X importtime; docs/DESIGN.md, "The build cache").


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``command`` is the command the arguments name (the first one
    that is no option): ``explain``'s inputs, drawn from the kinds registry, are added
    only for it."""
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="Rules-explainer site generator: re-checks every example case with "
        "the rules engine and renders the pages in every language.",
    )
    parser.add_argument("--version", action="version", version=f"rules-site {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="check every case, then render the site")
    b.add_argument("--project", type=Path, default=None, help=PROJECT_HELP)
    b.add_argument("--out", type=Path, default=None, help="output folder (default PROJECT/site)")
    b.add_argument("--strict", action="store_true",
                   help="also fail on untranslated or fuzzy messages and on warnings")
    b.add_argument("--drafts", action="store_true",
                   help="include the pages and cases marked draft: true, each marked Draft")
    b.add_argument("--no-cache", action="store_true",
                   help="build everything again, without reading or writing the build cache")
    c = sub.add_parser("check", help="check every case against the engine (or those of "
                       "PATH..., or --id ID...)")
    c.add_argument("--project", type=Path, default=None, help=PROJECT_HELP)
    c.add_argument("--strict", action="store_true",
                   help="also fail on warnings and on the site's own messages (pages, "
                   "cases, site.yaml) untranslated or fuzzy in a catalog")
    c.add_argument("--format", choices=("text", "json", *CI_FORMATS), default="text",
                   help="text (default), json, github (GitHub Actions annotations) or "
                   "junit (JUnit XML)")
    c.add_argument("--output", type=_output_path, default=None, metavar="FILE",
                   help="write the report to FILE instead of standard output")
    _add_fix_argument(c)
    c.add_argument("--id", dest="ids", action="extend", nargs="+", default=[], metavar="ID",
                   help="verify only the cases of these ids (pages and catalogs are still "
                   "validated)")
    c.add_argument("paths", nargs="*", metavar="PATH",
                   help="verify only the cases of these case files (a folder: every case "
                   "file below it), relative to the current folder; pages and catalogs are "
                   "still validated")
    if command == "explain":
        _add_explain_parser(sub)
    else:
        sub.add_parser("explain", help=EXPLAIN_HELP)
    i = sub.add_parser("i18n", help="translators' workflow: extract messages, update catalogs")
    i.add_argument("action", choices=("extract", "update", "stats"),
                   help="extract: write locales/messages.pot; update: also merge it into "
                   "every locales/<lang>/LC_MESSAGES/messages.po; stats: translated, fuzzy "
                   "and untranslated messages per locale and page")
    i.add_argument("--project", type=Path, default=None, help=PROJECT_HELP)
    i.add_argument("--builtin", action="store_true",
                   help="the generator's own built-in catalogs (generator/locales/: the "
                   "theme's and the engine's messages) instead of the site's; for the "
                   "generator's developers")
    _add_serve_parser(sub)
    _add_start_commands(sub)
    return parser


def _add_serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``serve`` (docs/site.md, "serve"): the authors' preview."""
    s = sub.add_parser("serve", help="build, serve the site on 127.0.0.1 and rebuild and "
                       "reload the page on every change (never writes site/)")
    s.add_argument("--project", type=Path, default=None, help=PROJECT_HELP)
    s.add_argument("--port", type=int, default=8000,
                   help="TCP port (default 8000; 0 for any free port)")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; "
                   "0.0.0.0 for every interface)")
    s.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another host name for the preview to answer to (a tunnel's, a "
                   "name in /etc/hosts; .example.org: it and every name under it); "
                   "repeatable. It always answers to localhost and IP addresses, and "
                   "with --host 0.0.0.0 to this machine's name")


EXPLAIN_HELP = ("print a case with the engine's values and reasoning, ready to paste into "
                "a case file")


def _add_explain_parser(sub: Any) -> None:
    """``explain`` (docs/site.md, "explain"): the common fields, each kind's command-line
    inputs (:func:`generator.commands.explain.command_line_arguments`), ``--case``."""
    # Only for explain (see _parser): the registry imports the engine.
    from generator.commands.explain import command_line_arguments
    from generator.engine.rules import GAMES
    from generator.engine.rules import GAMES_WITH_OPTIONS
    from generator.engine.rules import GAMES_WITH_PRESETS
    from generator.engine.rules import OPTIONS
    from generator.engine.rules import PRESETS
    from generator.engine.rules import default_preset
    from generator.kinds import KINDS

    e = sub.add_parser("explain", help=EXPLAIN_HELP)
    e.add_argument("--kind", choices=list(KINDS), default=None,
                   help=f"the kind of case (default {next(iter(KINDS))})")
    e.add_argument("--game", choices=list(GAMES), default=None,
                   help=f"the game: {or_list(GAMES)}")
    defaults = sorted({str(default_preset(game)) for game in GAMES_WITH_PRESETS})
    e.add_argument("--rules", choices=list(PRESETS), default=None,
                   help=f"the preset of {or_list(GAMES_WITH_PRESETS)} (default "
                   f"{or_list(defaults)})")
    e.add_argument("--option", action="append", default=[], choices=list(OPTIONS),
                   help=f"an option of {or_list(GAMES_WITH_OPTIONS)} to turn on (repeatable)")
    for argument in command_line_arguments():
        nargs = "+" if argument.shape == "card lists" else None
        if argument.flag:
            e.add_argument(argument.flag, dest=f"input_{argument.field}", nargs=nargs,
                           metavar=argument.metavar, help=argument.help, default=None)
        else:
            e.add_argument(f"input_{argument.field}", nargs="*", metavar=argument.metavar,
                           help=argument.help)
    e.add_argument("--case", default=None, metavar="FILE",
                   help="read the case (expect left out) from FILE, or - for standard "
                   "input; a case file is printed whole, each case completed, its "
                   "comments, defaults and status kept")
    e.add_argument("--id", dest="case_id", default=None,
                   help="the case's id; with --case, the case of that id in the file "
                   "(a file of one case without it: the id it gets)")
    e.add_argument("--new-id", default=None, metavar="ID",
                   help="with --case: the new id of the case read (or chosen with --id)")
    e.add_argument("--title", default=None, help="the case's title (English)")
    e.add_argument("--append", default=None, metavar="FILE",
                   help="also add the case to the case file FILE (made when missing), "
                   "every other byte of it kept; an id the file or the project has is "
                   "refused")
    e.add_argument("--lang", default="en", help="the language of the reasoning (default en)")
    e.add_argument("--project", type=Path, default=None,
                   help="project folder whose catalogs give the words and whose case ids "
                   "--append keeps unique (default: as for check)")


def _explain(args: argparse.Namespace) -> int:
    """``explain``: the case on standard output, or its input errors."""
    from generator.commands.explain import ExplainRequest  # only here: see _parser
    from generator.commands.explain import command_line_arguments
    from generator.commands.explain import explain

    given: dict[str, list[str]] = {}
    for argument in command_line_arguments():
        words = getattr(args, f"input_{argument.field}", None)
        if words:
            given[argument.field] = [words] if isinstance(words, str) else list(words)
    request = ExplainRequest(
        kind=args.kind, game=args.game, rules=args.rules, options=args.option, given=given,
        case=args.case, case_id=args.case_id, new_id=args.new_id, title=args.title,
        lang=args.lang, project=args.project, append=args.append,
        stdin=sys.stdin.buffer if args.case == "-" else b"")  # read there, bounded
    report = explain(request)
    if report.exit_code != EXIT_OK:
        _emit(report.errors)
        return report.exit_code
    _write(report.text)
    for note in report.notes:
        _say(note)
    return EXIT_OK


def _output_path(text: str) -> str:
    """``--output``'s value as written, refused (a usage error, exit 2) where it names no
    file: an empty path (a ``Path`` would read it as ``.``) or a folder's (one ending with
    ``/``, ``.`` or ``..``; a ``Path`` would drop the slash and write a file of that
    name), as a shell's ``>`` refuses them. Kept as text: ``./-`` names a file called
    ``-`` (a ``Path`` would make it ``-``, standard output).

    Raises:
        argparse.ArgumentTypeError: the value names no file.
    """
    if not text:
        raise argparse.ArgumentTypeError("an empty path; expected a file name, or - for "
                                         "standard output")
    if text.endswith(("/", os.sep)) or os.path.basename(text) in (".", ".."):
        raise argparse.ArgumentTypeError(f"{text!r} names a folder; expected a file name, "
                                         "or - for standard output")
    return text


def _add_fix_argument(check: argparse.ArgumentParser) -> None:
    """``check --fix [--diff]`` (docs/site.md, "check --fix")."""
    check.add_argument("--fix", action="store_true",
                       help="rewrite each disagreeing case's documented values to the "
                       "engine's (exact edits, every other byte kept) and print the diff")
    check.add_argument("--diff", action="store_true",
                       help="with --fix: print the diff --fix would apply and write "
                       "nothing (exit as check)")


def _check_fix(args: argparse.Namespace) -> int:
    """``check --fix``: the diff of what it rewrote, the report of the check run again on
    the fixed files, what it could not fix; ``--diff``: the diff it would apply and the
    report of the check of the files as they are, nothing written."""
    project_dir: Path = args.project
    missing = _project_error(project_dir) or _selection_error(args)
    if missing is None and args.format != "text":
        missing = InputError("--format", 1, None, f"--fix prints a diff, not {args.format}; "
                             "expected --fix without --format")
    if missing is None and args.output is not None:
        missing = InputError("--output", 1, None, "--fix prints its diff on standard "
                             "output; expected --fix without --output")
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.check import disagreement_lines  # only here: see _parser
    from generator.commands.check import exit_code
    from generator.commands.check import summary_line
    from generator.commands.check import untranslated
    from generator.commands.check import warning_lines
    from generator.commands.fix import fix
    from generator.commands.project import Selection
    from generator.commands.project import format_errors

    told: list[str] = []  # (said after the diff and the report, before the summary)
    report = fix(project_dir, told.append, selection=Selection.of(args.paths, args.ids),
                 write=not args.diff)
    _emit(["".join(report.diff).rstrip("\n")] if report.diff else [])
    project = report.project
    strict = None
    if project is not None:
        strict = untranslated(project) if args.strict and not project.errors else None
        _emit([*format_errors(project.errors), *disagreement_lines(project),
               *warning_lines(project), *(strict.lines() if strict else [])])
    _emit(report.lines)
    for line in told:
        _say(line)
    if project is not None:
        _say(summary_line(project, strict))
        if report.exit_code == project.exit_code:  # (no file failed to be written)
            return exit_code(project, strict)
    return report.exit_code


def _selection_error(args: argparse.Namespace) -> InputError | None:
    """``check PATH... --id ID...``: a usage error (one or the other)."""
    if args.paths and args.ids:
        return InputError("--id", 1, None, "case ids with paths; expected case files or "
                          "folders (PATH...) or case ids (--id ID...), not both")
    return None


def _add_start_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``schema`` and ``init``: what an author or a team starts with."""
    schema = sub.add_parser("schema", help="print the JSON Schema of case files (or of "
                            "site.yaml), for editors")
    schema.add_argument("--settings", action="store_true",
                        help="the schema of site.yaml instead of the case files'")
    n = sub.add_parser("init", help="start a new rules site repository in DIR: a page with "
                       "cases, site.yaml, catalogs, a GitHub workflow and pre-commit hooks")
    n.add_argument("dir", type=Path, metavar="DIR",
                   help="the new project's folder (created, or filled where it holds none "
                   "of the files init writes, e.g. a cloned repository; '.' for the current "
                   "folder)")
    n.add_argument("--lang", type=_language_list, default=None, metavar="LIST",
                   help="the site's languages, comma-separated, the first the default "
                   "(e.g. cs,sk,et; English, the pages' language, is added last if "
                   "missing; default: en,cs)")
    n.add_argument("--title", default=None,
                   help="the site's name, in English (default: Rummy rules)")


def _language_list(text: str) -> list[str]:
    """``init --lang``'s value as locale codes: ``"cs, sk,et"`` → ``["cs", "sk", "et"]``."""
    codes = [code.strip() for code in text.split(",") if code.strip()]
    if not codes:
        raise argparse.ArgumentTypeError("expected locale codes separated by commas, "
                                         "e.g. cs,sk,et")
    return codes


def _emit(lines: Iterable[str]) -> None:
    """Print lines to standard output (see :func:`_write`)."""
    _write("".join(f"{line}\n" for line in lines))


class _Report:
    """Whether this command's report to standard output was lost (:func:`_write`)."""

    lost = False


def _write(text: str) -> None:
    """Write ``text`` to standard output. A reader that went away (``| head``) is not an
    error; a report that cannot be written (a full disk behind a redirection, standard
    output closed) is said once on standard error, and the command's exit status is
    then 2 (:func:`main`; it was 0, or a traceback for a closed standard output)."""
    if not text:
        return
    try:
        if sys.stdout is None:
            raise OSError("standard output is closed")
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError as exc:
        if not _Report.lost:
            _say(f"error: cannot write the report: {exc.strerror or exc}")
        _Report.lost = True


class _Found:
    """How this run's project was found: :func:`generator.layout.find_project`'s answer
    when no ``--project`` was given, else ``None`` (set by :func:`main`)."""

    search: FoundProject | None = None


def _project_error(project_dir: Path) -> InputError | None:
    """The project folder must exist and hold ``content/``: a typo in a CI script must
    not pass as "0 cases checked". A folder named with ``--project`` is named as given;
    a project found (or not) by its ``site.yaml`` is named by its ``content`` folder,
    the message saying where the search looked."""
    if not project_dir.is_dir():
        return InputError(str(project_dir), 1, None, "project folder not found; expected a "
                          "folder holding content/ (see --project)")
    if (project_dir / CONTENT).is_dir():
        return None
    search = _Found.search
    if search is None:
        return InputError(str(project_dir), 1, None, "no content/ folder; expected a project "
                          "folder holding content/ and content/examples/ (see --project)")
    if search.found:
        return InputError(CONTENT, 1, None, f"no content/ folder in the project "
                          f"{shown(os.path.abspath(project_dir))} (the folder of its "
                          f"{CONFIG}); expected content/ and content/examples/ there")
    article = "the" if search.stopped == "home folder" else "a"
    stop = f" (the search goes no higher than {article} {search.stopped})" \
        if search.stopped else ""
    return InputError(CONTENT, 1, None, f"no content/ folder in {shown(os.getcwd())}, "
                      f"and no {CONFIG} there or in a folder above it{stop}; expected to "
                      f"run in a project (a folder holding {CONFIG} or content/, or one "
                      "below it), or --project DIR")


def _check(args: argparse.Namespace) -> int:
    """``check`` (text or JSON on standard output; CI formats and ``--output``:
    :func:`_check_to`)."""
    if args.format in CI_FORMATS or args.output is not None:
        return _check_to(args)
    project_dir: Path = args.project
    missing = _project_error(project_dir) or _selection_error(args)
    if missing is not None:
        if args.format == "json":
            from generator.engine.codes import CaseStatus  # only here: see _parser

            _emit([_json({"cases": 0, "disagreements": [], "errors": [missing.as_dict()],
                          "status": dict.fromkeys(map(str, CaseStatus), 0),
                          "warnings": []})])
        else:
            _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.check import disagreement_lines  # only here: see _parser
    from generator.commands.check import exit_code
    from generator.commands.check import json_report
    from generator.commands.check import summary_line
    from generator.commands.check import untranslated
    from generator.commands.check import warning_lines
    from generator.commands.fix import settles_all
    from generator.commands.project import Selection
    from generator.commands.project import format_errors
    from generator.commands.project import load_project

    project = load_project(project_dir, selection=Selection.of(args.paths, args.ids))
    strict = untranslated(project) if args.strict and not project.errors else None
    if args.format == "json":
        _emit([_json(json_report(project, strict))])
        return exit_code(project, strict)
    _emit([*format_errors(project.errors), *disagreement_lines(project),
           *warning_lines(project), *(strict.lines() if strict else [])])
    if not _Report.lost:  # (a lost report: its one line says it all, exit 2)
        _say(summary_line(project, strict, fixable=settles_all(project)))
    return exit_code(project, strict)


_DESCRIPTOR = re.compile(r"/dev/(?:fd/(?P<fd>[0-9]+)|std(?P<std>in|out|err))"
                         r"|/proc/(?:self|thread-self|(?P<pid>[0-9]+))(?:/task/[0-9]+)?"
                         r"/fd/(?P<proc>[0-9]+)")
"""A name of one of this process's open files: ``/dev/stdout``, ``/dev/fd/3``,
``/proc/self/fd/1`` (and ``/proc/<pid>/fd/N`` for this process's pid; a thread's
``/proc/thread-self/fd/N``, which a link resolves to ``/proc/<pid>/task/<tid>/fd/N``:
threads share their descriptors)."""


def _open_descriptor(fd: int) -> None:
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


def _descriptor_named(path: str) -> int | None:
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
        match = _DESCRIPTOR.fullmatch(current)
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
""":func:`_descriptor_named` of another process's descriptor (or an impossible one)."""


def _check_to(args: argparse.Namespace) -> int:
    """``check`` in any format, written to ``--output`` (standard output when ``None``;
    a file is replaced whole); the summary on standard error, and for the CI formats,
    which have no place for them, the warnings and ``--strict``'s findings too."""
    # only here: see _check
    from generator.commands.check import disagreement_lines
    from generator.commands.check import exit_code
    from generator.commands.check import json_report
    from generator.commands.check import summary_line
    from generator.commands.check import untranslated
    from generator.commands.check import warning_lines
    from generator.commands.fix import settles_all
    from generator.commands.project import Selection
    from generator.commands.project import format_errors
    from generator.commands.project import load_project
    from generator.commands.report_formats import error_command
    from generator.commands.report_formats import github_lines
    from generator.commands.report_formats import junit_xml
    from generator.engine.codes import CaseStatus

    project_dir: Path = args.project
    fmt: str = args.format
    output: str | None = args.output
    missing = _project_error(project_dir) or _selection_error(args)
    project = None if missing is not None else load_project(
        project_dir, selection=Selection.of(args.paths, args.ids))
    errors = [missing] if missing is not None else project.errors if project else []
    strict = untranslated(project) if project and args.strict and not project.errors \
        else None
    aside = [*warning_lines(project), *(strict.lines() if strict else [])] if project else []
    prefix = os.path.relpath(project_dir) if project_dir.is_absolute() else str(project_dir)
    if fmt == "junit":
        data = junit_xml(project.results.values() if project else (), errors)
    elif fmt == "github":
        lines = (github_lines(project, prefix) if project
                 else [error_command(e) for e in errors])  # already the folder's path
        data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    elif fmt == "json":
        report = json_report(project, strict) if project else {
            "cases": 0, "disagreements": [], "errors": [e.as_dict() for e in errors],
            "status": dict.fromkeys(map(str, CaseStatus), 0), "warnings": []}
        data = (json.dumps(report, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    else:
        lines = [*format_errors(errors), *(disagreement_lines(project) if project else []),
                 *aside]
        data = "".join(f"{line}\n" for line in lines).encode("utf-8")
    fd = 1 if output is None else _descriptor_named(output)
    try:
        if fd is not None and fd != FOREIGN and output is not None:
            _open_descriptor(fd)  # not open: an error, as a shell's >&N, if nothing is written
        if fd == 1:  # standard output, also as --output - or /dev/stdout
            _emit([data.decode("utf-8").removesuffix("\n")] if data else [])
        elif fd == FOREIGN and output is not None:
            write_in_place(Path(output), data, append=True)
        elif fd is not None:
            write_all(fd, data)
        elif output is not None:
            replace_file(Path(output), data)
    except OSError as exc:
        _say(f"{shown(output or '-')}: cannot write the report: {exc.strerror or exc}; nothing "
             "was written")
        return EXIT_INPUT
    if project is not None and fmt != "json" and not _Report.lost:  # (a lost report:
        if fmt in CI_FORMATS:  # its one line says it all, exit 2)
            for line in aside:
                _say(line)
        _say(summary_line(project, strict, fixable=settles_all(project)))
    return exit_code(project, strict) if project is not None else EXIT_INPUT


def _schema(settings: bool) -> int:
    """``schema``: the case files' JSON Schema (``--settings``: ``site.yaml``'s) on
    standard output (for editors)."""
    from generator.cases.editor_schema import editor_schema  # only here: see _check
    from generator.config import settings_schema

    _emit([_json(settings_schema() if settings else editor_schema())])
    return EXIT_OK


def _init(target: Path, languages: list[str] | None, title: str | None) -> int:
    """``init DIR``: a new project in ``DIR``; what to do next on standard error."""
    from generator.commands.init import Refused  # only here: see _check
    from generator.commands.init import init_project
    from generator.commands.init import language_errors

    problems = language_errors(languages or [])
    if title is not None and (not title.strip() or len(title) > 500 or "\n" in title):
        problems.append("--title: expected the site's name on one line of at most 500 "
                        "characters")
    elif title is not None and (unfit := _unfit_title_character(title)) is not None:
        problems.append(f"--title: {unfit}; expected the site's name in printable text on "
                        "one line (remove it)")
    if problems:
        _emit([f"--lang: {p}" if not p.startswith("--") else p for p in problems])
        return EXIT_INPUT
    try:
        made = init_project(target, languages=languages, title=title)
    except Refused as exc:  # a file init would write, or a file where the folder goes
        _emit([exc.error.format()])
        return EXIT_INPUT
    except OSError as exc:
        _emit([f"{target}:1: cannot create the project: {exc.strerror or exc}; nothing was "
               "written"])
        return EXIT_INPUT
    here = os.path.abspath(target) == os.getcwd()
    added = f"; {_plural(len(made.ignored), 'line')} added to .gitignore" \
        if made.ignored else ""
    _say(f"created {target} ({_plural(len(made.files), 'file')}{added}); next: "
         + ("" if here else f"cd {shown(str(target))} && ") + f"{_prog()} serve")
    return EXIT_OK


def _unfit_title_character(title: str) -> str | None:
    """What the first character of ``title`` that a site's name may not hold is (and
    ``site.yaml`` could not hold, or would read as another character): ``control
    character U+001B`` (C0, DEL, C1, U+0085 with them), ``line separator U+2028``,
    ``noncharacter U+FFFE``, ``byte 0xED that is not UTF-8`` (an argument's byte that
    did not decode); ``None`` when it has none."""
    for char in title:
        code = ord(char)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
            return f"byte 0x{code - 0xDC00:02X} that is not UTF-8"
        if 0xD800 <= code <= 0xDFFF:
            return f"lone surrogate U+{code:04X}"
        if code < 0x20 or 0x7F <= code <= 0x9F:
            return f"control character U+{code:04X}"
        if code in (0x2028, 0x2029):
            return f"line separator U+{code:04X}"
        if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
            return f"noncharacter U+{code:04X}"
    return None


def _build(project_dir: Path, out: Path | None, strict: bool, cache: bool = True,
           drafts: bool = False) -> int:
    missing = _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    start = time.perf_counter()
    report = build(project_dir, out, strict=strict, cache=cache, drafts=drafts)
    try:
        return _build_summary(report, start)
    except KeyboardInterrupt as exc:  # the build is done: its site is in place
        raise Interrupted.after(exc, new_site=report.exit_code == EXIT_OK) from None


def _build_summary(report: BuildReport, start: float) -> int:
    """Print what a build reported and its summary; returns its exit status."""
    _emit(report.lines)
    for loc, cov in report.coverage.items():
        if loc != "en":
            done = cov.used - cov.untranslated
            share = 100 * done // cov.used if cov.used else 100
            state = "complete" if not cov.untranslated else (
                f"{cov.untranslated} untranslated or fuzzy, shown in English")
            _say(f"{loc}: {done} of the {cov.used} messages the site uses are translated "
                 f"({share}%), {state}")
    if report.exit_code == 0:
        cached = f" ({report.cached} of them from the cache)" if report.cached else ""
        _say(f"{_plural(report.cases, 'case')} checked; built {_plural(report.pages, 'file')}"
             f"{cached} in {time.perf_counter() - start:.2f} s")
    return report.exit_code


def _serve(project_dir: Path, host: str, port: int, allow: Sequence[str]) -> int:
    """``serve``: the preview until Ctrl-C (exit 0); exit 2 when the address cannot be
    listened on (a port taken, an empty ``--host``) or an ``--allow-host`` is no name."""
    missing = _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.serve import serve  # only here: see _parser

    return serve(project_dir, host, port, _say, _emit, allow)


def _i18n(project_dir: Path, action: str, builtin: bool) -> int:
    missing = None if builtin else _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.i18n import i18n  # only here: see _parser

    return i18n(Layout.of(project_dir), action, _emit, _say, builtin=builtin)


def _say(line: str) -> None:
    """Print a progress or summary line to standard error; a reader that went away
    (``2>&1 | head``) or a closed standard error is not an error of the command (it was
    reported as "the generator failed: BrokenPipeError", exit 2)."""
    if sys.stderr is None:  # started with it closed (print would write to stdout)
        return
    try:
        print(line, file=sys.stderr, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stderr.fileno())
    except OSError:  # nowhere to say it
        pass


def _escape_what_cannot_be_shown() -> None:
    """Standard output and error that cannot encode a character of the report (♥ or —
    with ``PYTHONIOENCODING=ascii`` or a Latin-1 terminal) write it as an escape
    (``\\u2665``) instead of failing halfway: the whole report reaches the user."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change
                reconfigure(errors="backslashreplace")


def _json(report: object) -> str:
    """``report`` as indented JSON: UTF-8 text where standard output can show it, else
    ASCII with ``\\uXXXX`` escapes (the same JSON to any reader)."""
    text = json.dumps(report, ensure_ascii=False, indent=2)
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(report, ensure_ascii=True, indent=2)
    return text


def _site_in_place(args: argparse.Namespace) -> str:
    """What an unfinished build left in its output folder, said truthfully (docs/site.md,
    interrupts): the previous site, no site at all, or the folder as it was."""
    out = output_path(args.out if args.out is not None else args.project / OUTPUT)
    if (out / MARKER).is_file():
        return "the previous site is untouched"
    if not out.exists() and not out.is_symlink():
        return "no site is in place (there was none before this build)"
    return f"{out} is as it was"


def _interrupted(exc: KeyboardInterrupt, args: argparse.Namespace) -> int:
    """Say ``interrupted`` and, for ``build``, which site is in place (docs/site.md); the exit
    status, 128 + the signal's number (130 Ctrl-C, 143 SIGTERM)."""
    state = ""
    if args.command == "build":
        state = ("; the new site is in place (what is left of the previous one is removed "
                 "by the next build)" if getattr(exc, "new_site", False)
                 else f"; {_site_in_place(args)}")
    _say(f"interrupted{state}")
    return 128 + int(getattr(exc, "signum", 2))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (docs/site.md)."""
    _escape_what_cannot_be_shown()
    given = list(sys.argv[1:] if argv is None else argv)
    try:  # explain's choices read the registries, which load the entry points
        args = _parser(next((a for a in given if not a.startswith("-")), None)).parse_args(
            given)
    except ExtensionError as exc:
        _emit([f"error: {exc}"])
        return EXIT_INPUT
    _Found.search = None
    if getattr(args, "project", False) is None:  # not given: found as git finds a repository
        _Found.search = find_project()
        args.project = _Found.search.root
    _Report.lost = False
    STOPPING.clear()  # a signal of an earlier run in this process says nothing of this one
    status = _run(args)
    if _Report.lost and status < EXIT_INPUT:
        return EXIT_INPUT
    return status


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` name; returns its exit status (docs/site.md)."""
    try:
        if args.command == "check" and (args.fix or args.diff):
            return _check_fix(args)
        if args.command == "check":
            return _check(args)
        if args.command == "explain":
            return _explain(args)
        if args.command == "i18n":
            return _i18n(args.project, args.action, args.builtin)
        if args.command == "serve":
            return _serve(args.project, args.host, args.port, args.allow_host)
        if args.command == "schema":
            return _schema(args.settings)
        if args.command == "init":
            return _init(args.dir, args.lang, args.title)
        return _build(args.project, args.out, args.strict, not args.no_cache, args.drafts)
    except KeyboardInterrupt as exc:  # also Interrupted (SIGTERM; after the swap)
        return _interrupted(exc, args)
    except ExtensionError as exc:  # an installed distribution's kind or game
        _emit([f"error: {exc}"])
        return EXIT_INPUT
    except Exception as exc:  # never a traceback (docs/site.md); GENERATOR_DEBUG=1 shows it
        stopped = interruption(exc)
        if stopped is not None:  # a signal Python wrapped in another exception
            return _interrupted(stopped, args)
        if os.environ.get("GENERATOR_DEBUG"):
            raise
        state = f", {_site_in_place(args)}" if args.command == "build" else ""
        if isinstance(exc, ModuleNotFoundError) and exc.name \
                and exc.name.partition(".")[0] != "generator":
            # an installation without its dependencies (a checkout run by another
            # Python than the one it was installed into): no fault of the generator's
            _emit([f"error: the library {exc.name.partition('.')[0]!r} the generator needs "
                   f"is not installed for {sys.executable}; nothing was written{state}; "
                   "expected the generator installed with its dependencies into this "
                   "Python: python3 -m pip install rules-site-generator (in a checkout: "
                   "python3 -m pip install -e .)"])
            return EXIT_INPUT
        _emit([f"error: the generator failed: {type(exc).__name__}: {exc}; nothing was "
               f"written{state} (set GENERATOR_DEBUG=1 for details)"])
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
