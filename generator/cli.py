"""The command line (SITE.md, "Command line"; fixed, scripts call it).

    python -m generator build [--project DIR] [--out DIR] [--strict]
    python -m generator check [--project DIR] [--format text|json]

Exit status: 0 all documented values agree; 1 a disagreement (with ``--strict``, also
an untranslated or fuzzy message); 2 the input is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from generator.build import EXIT_INPUT
from generator.build import build
from generator.build import load_project
from generator.report import disagreement_lines
from generator.report import json_report


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m generator",
        description="Rules-explainer site generator: re-checks every example case with "
        "the rules engine and renders the pages in every language.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="check every case, then render the site")
    b.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    b.add_argument("--out", type=Path, default=None, help="output folder (default PROJECT/site)")
    b.add_argument("--strict", action="store_true",
                   help="also fail on untranslated or fuzzy messages")
    c = sub.add_parser("check", help="check every case against the engine")
    c.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    c.add_argument("--format", choices=("text", "json"), default="text")
    i = sub.add_parser("i18n", help="translators' workflow: extract messages, update catalogs")
    i.add_argument("action", choices=("extract", "update"),
                   help="extract: write locales/messages.pot; update: also merge it into "
                   "every locales/<lang>/LC_MESSAGES/messages.po")
    i.add_argument("--project", type=Path, default=Path("."), help="project folder (default .)")
    return parser


def _check(project_dir: Path, fmt: str) -> int:
    project = load_project(project_dir, with_pages=False)
    if fmt == "json":
        print(json.dumps(json_report(project), ensure_ascii=False, indent=2))
        return project.exit_code
    for error in sorted(project.errors, key=lambda e: (e.file, e.line, e.column or 0)):
        print(error.format())
    for line in disagreement_lines(project):
        print(line)
    n = len(project.results)
    print(f"{n} cases checked: {len(project.disagreements)} disagreements, "
          f"{len(project.errors)} input errors", file=sys.stderr)
    return project.exit_code


def _build(project_dir: Path, out: Path | None, strict: bool) -> int:
    start = time.perf_counter()
    report = build(project_dir, out, strict=strict)
    for line in report.lines:
        print(line)
    for loc, cov in report.coverage.items():
        if loc != "en":
            done = cov.used - cov.untranslated
            share = 100 * done // cov.used if cov.used else 100
            state = "complete" if not cov.untranslated else (
                f"{cov.untranslated} shown in English")
            print(f"{loc}: {done}/{cov.used} messages translated ({share}%), {state}",
                  file=sys.stderr)
    if report.exit_code == 0:
        print(f"built {report.pages} files in {time.perf_counter() - start:.2f} s",
              file=sys.stderr)
    return report.exit_code


def _i18n(project_dir: Path, action: str) -> int:
    from generator.i18n.catalog import discover_locales
    from generator.i18n.extract import POT
    from generator.i18n.extract import extract
    from generator.i18n.extract import update
    from generator.i18n.extract import write_catalog

    catalog, errors = extract(project_dir)
    for error in sorted(errors, key=lambda e: (e.file, e.line, e.column or 0)):
        print(error.format())
    if errors:
        return EXIT_INPUT
    write_catalog(catalog, project_dir / POT)
    print(f"{POT}: {len(catalog)} messages", file=sys.stderr)
    if action == "update":
        base = project_dir / "locales"
        locales = sorted({*discover_locales(project_dir),
                          *(p.parent.name for p in base.glob("*/LC_MESSAGES"))} - {"en"})
        for locale, fuzzy in update(project_dir, catalog, locales).items():
            print(f"locales/{locale}/LC_MESSAGES/messages.po: updated, {fuzzy} fuzzy",
                  file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (SITE.md)."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "check":
            return _check(args.project, args.format)
        if args.command == "i18n":
            return _i18n(args.project, args.action)
        return _build(args.project, args.out, args.strict)
    except KeyboardInterrupt:
        print("interrupted; the previous site is untouched", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # never a traceback (SITE.md); GENERATOR_DEBUG=1 shows it
        import os

        if os.environ.get("GENERATOR_DEBUG"):
            raise
        print(f"error: the generator failed: {type(exc).__name__}: {exc}; nothing was "
              "written, the previous site is untouched (set GENERATOR_DEBUG=1 for details)")
        return EXIT_INPUT
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): no traceback, as for any other output.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
