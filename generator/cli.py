"""The command line (docs/site.md, "Command line"; fixed, scripts call it).

    python -m generator build [--project DIR] [--out DIR] [--strict] [--no-cache]
    python -m generator check [--project DIR] [--format text|json]
    python -m generator i18n extract|update|stats [--project DIR]

Exit status: 0 all documented values agree; 1 a disagreement (with ``--strict``, also
an untranslated or fuzzy message); 2 the input is wrong; 130 / 143 interrupted by
SIGINT / SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterable
from collections.abc import Sequence
from pathlib import Path

from generator.commands.build import BuildReport
from generator.commands.build import build
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.errors import InputError
from generator.errors import Interrupted
from generator.layout import CONTENT
from generator.layout import OUTPUT
from generator.layout import Layout
from generator.layout import output_path
from generator.output import MARKER


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _prog() -> str:
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m generator" if name in ("", "__main__.py", "-c") else name


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_prog(),
        description="Rules-explainer site generator: re-checks every example case with "
        "the rules engine and renders the pages in every language.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="check every case, then render the site")
    b.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    b.add_argument("--out", type=Path, default=None, help="output folder (default PROJECT/site)")
    b.add_argument("--strict", action="store_true",
                   help="also fail on untranslated or fuzzy messages")
    b.add_argument("--no-cache", action="store_true",
                   help="build everything again, without reading or writing the build cache")
    c = sub.add_parser("check", help="check every case against the engine")
    c.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    c.add_argument("--format", choices=("text", "json"), default="text")
    i = sub.add_parser("i18n", help="translators' workflow: extract messages, update catalogs")
    i.add_argument("action", choices=("extract", "update", "stats"),
                   help="extract: write locales/messages.pot; update: also merge it into "
                   "every locales/<lang>/LC_MESSAGES/messages.po; stats: translated, fuzzy "
                   "and untranslated messages per locale and page")
    i.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    return parser


def _emit(lines: Iterable[str]) -> None:
    """Print to standard output; a reader that went away (``| head``) is not an error."""
    try:
        for line in lines:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError as exc:  # e.g. a full disk behind a redirection
        print(f"error: cannot write the report: {exc}", file=sys.stderr)


def _project_error(project_dir: Path) -> InputError | None:
    """The project folder must exist and hold ``content/``: a typo in a CI script must
    not pass as "0 cases checked"."""
    if not project_dir.is_dir():
        return InputError(str(project_dir), 1, None, "project folder not found; expected a "
                          "folder holding content/ (see --project)")
    if not (project_dir / CONTENT).is_dir():
        return InputError(str(project_dir), 1, None, "no content/ folder; expected a project "
                          "folder holding content/ and content/examples/ (see --project)")
    return None


def _check(project_dir: Path, fmt: str) -> int:
    missing = _project_error(project_dir)
    if missing is not None:
        if fmt == "json":
            _emit([_json({"cases": 0, "disagreements": [], "errors": [missing.as_dict()]})])
        else:
            _emit([missing.format()])
        return EXIT_INPUT
    # Imported by the command that needs them: a build taken from the cache needs none
    # of the loading (measured: python -X importtime; commands.build, _build).
    from generator.commands.check import disagreement_lines
    from generator.commands.check import json_report
    from generator.commands.project import format_errors
    from generator.commands.project import load_project

    project = load_project(project_dir)
    if fmt == "json":
        _emit([_json(json_report(project))])
        return project.exit_code
    _emit([*format_errors(project.errors), *disagreement_lines(project)])
    n = len(project.results)
    print(f"{_plural(n, 'case')} checked: {_plural(len(project.disagreements), 'disagreement')}"
          f", {_plural(len(project.errors), 'input error')}", file=sys.stderr)
    return project.exit_code


def _build(project_dir: Path, out: Path | None, strict: bool, cache: bool = True) -> int:
    missing = _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    start = time.perf_counter()
    report = build(project_dir, out, strict=strict, cache=cache)
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
            print(f"{loc}: {done} of the {cov.used} messages the site uses are translated "
                  f"({share}%), {state}", file=sys.stderr)
    if report.exit_code == 0:
        cached = f" ({report.cached} of them from the cache)" if report.cached else ""
        print(f"{_plural(report.cases, 'case')} checked; built {_plural(report.pages, 'file')}"
              f"{cached} in {time.perf_counter() - start:.2f} s", file=sys.stderr)
    return report.exit_code


def _i18n(project_dir: Path, action: str) -> int:
    missing = _project_error(project_dir)
    if missing is not None:
        _emit([missing.format()])
        return EXIT_INPUT
    from generator.commands.i18n import i18n  # only here: see _check

    return i18n(Layout.of(project_dir), action, _emit, _say)


def _say(line: str) -> None:
    """Print a progress or summary line to standard error."""
    print(line, file=sys.stderr)


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
    print(f"interrupted{state}", file=sys.stderr)
    return 128 + int(getattr(exc, "signum", 2))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (docs/site.md)."""
    _escape_what_cannot_be_shown()
    args = _parser().parse_args(argv)
    try:
        if args.command == "check":
            return _check(args.project, args.format)
        if args.command == "i18n":
            return _i18n(args.project, args.action)
        return _build(args.project, args.out, args.strict, not args.no_cache)
    except KeyboardInterrupt as exc:  # also Interrupted (SIGTERM; after the swap)
        return _interrupted(exc, args)
    except Exception as exc:  # never a traceback (docs/site.md); GENERATOR_DEBUG=1 shows it
        if os.environ.get("GENERATOR_DEBUG"):
            raise
        state = f", {_site_in_place(args)}" if args.command == "build" else ""
        _emit([f"error: the generator failed: {type(exc).__name__}: {exc}; nothing was "
               f"written{state} (set GENERATOR_DEBUG=1 for details)"])
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
