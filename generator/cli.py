"""The command line (docs/site.md, "Command line"; fixed, scripts call it).

    python -m generator build [--project DIR] [--out DIR] [--strict] [--drafts] [--no-cache]
    python -m generator check [--project DIR] [--strict] [--format text|json|github|junit]
                              [--output FILE] [--fix [--diff]] [PATH... | --id ID...]
                              [--engine-cmd CMD [--engine-timeout S]]
    python -m generator explain [--kind KIND] --game GAME [--rules PRESET] [INPUTS...]
                                [--id ID] [--title TEXT] [--lang LANG] [--append FILE]
    python -m generator explain --case FILE|- [--id ID] [--new-id ID] [--title TEXT]
                                [--lang LANG] [--append FILE]
    python -m generator i18n extract|update|stats [--project DIR] [--builtin]
    python -m generator serve [--project DIR] [--port 8000] [--host 127.0.0.1]
                              [--allow-host NAME]...
    python -m generator schema [--settings]
    python -m generator init DIR [--lang LIST] [--title TEXT]
    python -m generator engine
    python -m generator conformance --engine-cmd CMD [--seed N] [--count N]
                                    [--kinds KIND...] [--exhaustive] [--format text|junit]
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
import json
import os
import sys
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.cli_arguments import CI_FORMATS
from generator.cli_arguments import argument_parser
from generator.cli_arguments import prog
from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.commands.report_output import write_report
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import STOPPING
from generator.errors import InputError
from generator.errors import Interrupted
from generator.errors import interruption
from generator.errors import shown
from generator.extensions import ExtensionError
from generator.layout import CONFIG
from generator.layout import CONTENT
from generator.layout import OUTPUT
from generator.layout import FoundProject
from generator.layout import Layout
from generator.layout import find_project
from generator.layout import output_path
from generator.output import MARKER

# Each command imports what it needs where it runs, not here: a build taken whole from
# the cache needs none of the loading, rendering or engine, and importing them is most
# of its time (measured: python -X importtime; docs/DESIGN.md, "The build cache").


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _explain(args: argparse.Namespace) -> int:
    """``explain``: the case on standard output, or its input errors."""
    from generator.commands.explain import ExplainRequest  # only here: see the note above
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
    if missing is None and args.engine_cmd is not None:
        missing = InputError("--engine-cmd", 1, None, "--fix writes this engine's values; "
                             "expected --fix without --engine-cmd")
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.check import disagreement_lines  # only here: see the note above
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
            from generator.commands.check import usage_error_report  # see the note above

            _emit([_json(usage_error_report([missing]))])
        else:
            _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.check import disagreement_lines  # only here: see the note above
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
    second = _second_opinion(project, args)
    strict = untranslated(project) if args.strict and not project.errors else None
    if args.format == "json":
        report = json_report(project, strict)
        if second is not None:
            second.add_to_json(report)
        _emit([_json(report)])
        return _with_second(exit_code(project, strict), second)
    _emit([*format_errors(project.errors), *disagreement_lines(project),
           *(second.lines() if second is not None else []),
           *warning_lines(project), *(strict.lines() if strict else [])])
    if not _Report.lost:  # (a lost report: its one line says it all, exit 2)
        _say(summary_line(project, strict, fixable=settles_all(project)))
        if second is not None and second.fault is None:
            _say(second.summary())
    return _with_second(exit_code(project, strict), second)


def _second_opinion(project: Any, args: argparse.Namespace) -> Any:
    """``check --engine-cmd``: the second engine's opinion of the project's cases (its
    fault added to the project's input errors), or ``None`` without the option or when
    the project has input errors (the cases it would judge are not all there)."""
    if args.engine_cmd is None or project.errors:
        return None
    from generator.commands.second_engine import second_opinion  # see the note above

    second = second_opinion(project, args.engine_cmd, args.engine_timeout)
    if second.fault is not None:
        project.errors.append(second.fault)
    return second


def _with_second(status: int, second: Any) -> int:
    """The check's exit status with the second engine's differences (exit 1)."""
    if status == EXIT_OK and second is not None and second.differences:
        return EXIT_DISAGREE
    return status


def _check_to(args: argparse.Namespace) -> int:
    """``check`` in any format (:data:`generator.commands.report_formats.FORMATS`),
    written to ``--output`` (:func:`generator.commands.report_output.write_report`;
    standard output when ``None``); the summary on standard error, and for the CI
    formats, which have no place for them, the warnings and ``--strict``'s findings
    too."""
    # only here: see the note above
    from generator.commands.check import exit_code
    from generator.commands.check import summary_line
    from generator.commands.fix import settles_all
    from generator.commands.project import Selection
    from generator.commands.project import load_project
    from generator.commands.report_formats import FORMATS
    from generator.commands.report_formats import Findings

    project_dir: Path = args.project
    missing = _project_error(project_dir) or _selection_error(args)
    project = None if missing is not None else load_project(
        project_dir, selection=Selection.of(args.paths, args.ids))
    second = _second_opinion(project, args) if project is not None else None
    prefix = os.path.relpath(project_dir) if project_dir.is_absolute() else str(project_dir)
    findings = Findings.of(project, missing, args.strict, prefix, second)
    if not _deliver(args.output, FORMATS[args.format](findings)):
        return EXIT_INPUT
    if project is not None and args.format != "json" and not _Report.lost:  # (a lost
        if args.format in CI_FORMATS:  # report: its one line says it all, exit 2)
            for line in findings.aside:
                _say(line)
        _say(summary_line(project, findings.strict, fixable=settles_all(project)))
        if second is not None and second.fault is None:
            _say(second.summary())
    return _with_second(exit_code(project, findings.strict), second) if project is not None \
        else EXIT_INPUT


def _deliver(output: str | None, data: bytes) -> bool:
    """Write the report ``data`` where ``--output`` names (``None``: standard output);
    whether it was written (else standard error says why: exit 2)."""
    def to_stdout(data: bytes) -> None:
        _emit([data.decode("utf-8").removesuffix("\n")] if data else [])

    try:
        write_report(output, data, to_stdout)
    except OSError as exc:
        _say(f"{shown(output or '-')}: cannot write the report: {exc.strerror or exc}; nothing "
             "was written")
        return False
    return True


def _schema(settings: bool) -> int:
    """``schema``: the case files' JSON Schema (``--settings``: ``site.yaml``'s) on
    standard output (for editors)."""
    from generator.cases.editor_schema import editor_schema  # only here: see the note above
    from generator.config import settings_schema

    _emit([_json(settings_schema() if settings else editor_schema())])
    return EXIT_OK


def _init(target: Path, languages: list[str] | None, title: str | None) -> int:
    """``init DIR``: a new project in ``DIR``; what to do next on standard error."""
    from generator.commands.init import Refused  # only here: see the note above
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
         + ("" if here else f"cd {shown(str(target))} && ") + f"{prog()} serve")
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


def _engine() -> int:
    """``engine``: the engine protocol on standard input and output, until its end."""
    from generator.commands.engine import serve_engine  # only here: see the note above

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        return serve_engine(sys.stdin, write)
    except BrokenPipeError:  # the client went away: nothing more to answer
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _conformance(args: argparse.Namespace) -> int:
    """``conformance``: the report on standard output, the totals on standard error."""
    from generator.commands.conformance import Settings  # only here: see the note above
    from generator.commands.conformance import conformance

    return conformance(Settings(args.engine_cmd, args.engine_timeout, args.seed, args.count,
                                tuple(args.kinds or ()), args.exhaustive, args.format),
                       _write, _say)


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
    from generator.commands.serve import serve  # only here: see the note above

    return serve(project_dir, host, port, _say, _emit, allow)


def _i18n(project_dir: Path, action: str, builtin: bool) -> int:
    missing = None if builtin else _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.i18n import i18n  # only here: see the note above

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
    command = next((a for a in given if not a.startswith("-")), None)
    try:  # explain's choices read the registries, which load the entry points
        args = argument_parser(command).parse_args(given)
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


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "check": lambda a: _check_fix(a) if a.fix or a.diff else _check(a),
    "explain": lambda a: _explain(a),
    "i18n": lambda a: _i18n(a.project, a.action, a.builtin),
    "serve": lambda a: _serve(a.project, a.host, a.port, a.allow_host),
    "schema": lambda a: _schema(a.settings),
    "init": lambda a: _init(a.dir, a.lang, a.title),
    "engine": lambda a: _engine(),
    "conformance": lambda a: _conformance(a),
    "build": lambda a: _build(a.project, a.out, a.strict, not a.no_cache, a.drafts),
}
"""Each command's runner, by the command's name (:func:`_run`)."""


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` name; returns its exit status (docs/site.md)."""
    try:
        return _COMMANDS.get(args.command, _COMMANDS["build"])(args)
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
        return _failed(exc, args)


def _failed(exc: Exception, args: argparse.Namespace) -> int:
    """What the command line says of an exception no command caught: a library missing
    from the installation, or the generator's own fault; exit 2 (nothing written)."""
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
