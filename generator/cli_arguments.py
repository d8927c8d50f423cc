"""The command line's arguments (docs/site.md, "Command line"; fixed, scripts call it): the
parser of every command, each option's help, and the checks of the values argparse reads
(``check --output``, ``init --lang``). :mod:`generator.cli` runs what they name.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from generator import __version__
from generator.errors import or_list

CI_FORMATS = ("github", "junit")
"""The ``check --format`` values for CI systems (generator/commands/report_formats.py)."""

PROJECT_HELP = ("project folder (default: the nearest folder holding site.yaml, the current "
                "one or one above it; else the current folder)")


def prog() -> str:
    """The command's name in usage lines and advice: the script's (``rules-site``), or
    ``python -m generator``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    return "python -m generator" if name in ("", "__main__.py", "-c") else name


def argument_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``command`` is the command the arguments name (the first one
    that is no option): ``explain``'s inputs, drawn from the kinds registry, are added
    only for it."""
    parser = argparse.ArgumentParser(
        prog=prog(),
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
    _add_engine_arguments(c)
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
    _add_engine_commands(sub)
    return parser


ENGINE_CMD_HELP = ("a command that speaks the engine protocol (docs/engine-protocol.md), run "
                   "once, without a shell, as a second judge of every case")


def _add_engine_arguments(parser: argparse.ArgumentParser, *, required: bool = False) -> None:
    """``--engine-cmd CMD`` and ``--engine-timeout S`` (``check``, ``conformance``)."""
    parser.add_argument("--engine-cmd", default=None, metavar="CMD", required=required,
                        help=ENGINE_CMD_HELP)
    parser.add_argument("--engine-timeout", type=_seconds, default=10.0, metavar="S",
                        help="seconds the engine command has for its handshake and for "
                        "each reply (default 10)")


def _add_engine_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``engine`` (the protocol's reference implementation) and ``conformance``."""
    sub.add_parser("engine", help="answer the engine protocol (docs/engine-protocol.md) "
                   "on standard input and output with this package's engine")
    k = sub.add_parser("conformance", help="compare another engine with this one over "
                       "generated cases: a table per kind, each class of differences "
                       "shrunk to a minimal case")
    _add_engine_arguments(k, required=True)
    k.add_argument("--seed", type=int, default=1, metavar="N",
                   help="the seed of the random cases (default 1)")
    k.add_argument("--count", type=_count, default=200, metavar="N",
                   help="random cases per kind and rule set (game, preset, options; "
                   "default 200)")
    k.add_argument("--kinds", nargs="+", default=None, metavar="KIND",
                   help="only these kinds (default: every kind both engines judge)")
    k.add_argument("--exhaustive", action="store_true",
                   help="also every case of the small input spaces (every three-card meld "
                   "and hand, every one-card lay-off onto a three-card meld, every joker "
                   "swap of one)")
    k.add_argument("--format", choices=("text", "junit"), default="text",
                   help="text (default) or junit (JUnit XML, a testcase per kind and rule "
                   "set, a failure per class of differences)")


def _seconds(text: str) -> float:
    """``--engine-timeout``'s value: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"{text!r}; expected a number of seconds "
                                         "greater than 0, at most 3600")
    return value


def _count(text: str) -> int:
    """``conformance --count``: a number of cases, 0 to 10,000,000."""
    if not text.isdigit() or int(text) > 10_000_000:
        raise argparse.ArgumentTypeError(f"{text!r}; expected a whole number of cases "
                                         "from 0 to 10000000")
    return int(text)


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
    # Only for explain (see argument_parser): the registry imports the engine.
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
