"""The installed package's smoke test, shared by the release workflow
(``.github/workflows/release.yml``, job ``test``) and ``tests/test_release.py``, so the two
cannot drift apart.

Run it with the interpreter of the environment the wheel was installed in, from any
folder::

    VENV/bin/python tests/release_smoke.py --wheel dist/NAME.whl --repo . \\
        --workdir /tmp/smoke [--version 0.2.0]

It checks, and exits 1 at the first thing that is wrong (saying what), else 0:

- the wheel holds every file ``git ls-files generator`` lists in ``--repo`` (every module
  and every file of package data), and nothing outside ``generator/`` but its metadata;
- ``generator`` is imported from this environment's site-packages, not from a checkout;
- the installed version is ``--version`` where given (the release tag without its ``v``)
  and the one ``rules-site --version`` prints;
- in ``--workdir`` (outside the repository): ``rules-site init site``, ``build``, ``check``
  and ``explain`` exit 0 and print what they should; the built site has its pages in
  English and Czech with the engine's values.

Standard library only: it runs before anything but the wheel (and its dependencies) is
installed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

DISTRIBUTION = "rules-site-generator"


class SmokeFailure(Exception):
    """A check failed; the message says which and what was seen."""


def _env() -> dict[str, str]:
    """This process's environment without what would point Python at other code."""
    return {name: value for name, value in os.environ.items()
            if name not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH")}


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in ``cwd``; the result, its output captured (never raises on exit)."""
    return subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True,
                          timeout=300, check=False)


def _ok(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``args`` in ``cwd``; the result when it exits 0.

    Raises:
        SmokeFailure: it exited otherwise (its output in the message).
    """
    result = _run(args, cwd)
    if result.returncode != 0:
        raise SmokeFailure(f"{' '.join(args)} exited {result.returncode}\n"
                           f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


def _expect(condition: bool, message: str) -> None:
    """Raise :class:`SmokeFailure` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise SmokeFailure(message)


def check_wheel_files(wheel: Path, repo: Path) -> int:
    """Every file git tracks under ``generator/`` is in ``wheel``; returns the wheel's
    file count.

    Raises:
        SmokeFailure: a tracked file is missing, or the wheel holds a file outside
            ``generator/`` and its ``.dist-info`` folder.
    """
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    tracked = _ok(["git", "-C", str(repo), "ls-files", "-z", "generator"], repo).stdout
    missing = sorted(set(filter(None, tracked.split("\0"))) - names)
    _expect(not missing, f"{wheel.name} lacks {len(missing)} file(s) git tracks: "
            + ", ".join(missing[:20]))
    stray = sorted(n for n in names if not n.startswith("generator/")
                   and not re.match(r"rules_site_generator-[^/]+\.dist-info/", n))
    _expect(not stray, f"{wheel.name} holds files outside the package: {stray[:20]}")
    return len(names)


def check_installed(repo: Path | None, workdir: Path, version: str | None) -> str:
    """``generator`` comes from this environment and has the expected version; returns
    the installed version.

    Raises:
        SmokeFailure: it is imported from elsewhere (a checkout), or the versions differ.
    """
    python = sys.executable
    probe = _ok([python, "-I", "-c", "import generator, importlib.metadata as m; "
                 f"print(generator.__file__); print(m.version({DISTRIBUTION!r})); "
                 "print(generator.__version__)"], workdir).stdout.split("\n")
    module, installed, in_code = Path(probe[0]).resolve(), probe[1], probe[2]
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    _expect(module.is_relative_to(site),
            f"generator is imported from {module}, not from this environment's {site}")
    _expect(repo is None or not module.is_relative_to(repo.resolve()),
            f"generator is imported from the repository: {module}")
    _expect(installed == in_code, f"the metadata says {installed}, generator.__version__ "
            f"{in_code}")
    _expect(version is None or installed == version,
            f"the installed version is {installed}, the release's (the tag's) {version}")
    printed = _ok([_script(), "--version"], workdir).stdout.strip()
    _expect(printed == f"rules-site {installed}",
            f"rules-site --version printed {printed!r}, expected 'rules-site {installed}'")
    return installed


def _script() -> str:
    """The ``rules-site`` console script of this environment."""
    return str(Path(sysconfig.get_paths()["scripts"]) / "rules-site")


def check_commands(workdir: Path) -> None:
    """``init``, ``build``, ``check`` and ``explain`` work from the installed package.

    Raises:
        SmokeFailure: a command failed or printed something else than expected, or the
            site lacks a page.
    """
    script = _script()
    _ok([script, "init", "site"], workdir)
    project = workdir / "site"
    for name in (".gitignore", "README.md", "case-file.schema.json", "content/melds.md",
                 "content/examples/melds.yaml", "locales/cs/LC_MESSAGES/messages.po"):
        _expect((project / name).is_file(), f"init wrote no {name} (from the scaffold, "
                "the package's data)")
    built = _ok([script, "build", "--project", "site"], workdir)
    _expect(re.search(r"^\d+ cases? checked; built \d+ files", built.stderr, re.M) is not None,
            f"build printed no summary:\n{built.stderr}")
    for lang, heading in (("en", "<h1>Melds"), ("cs", "<h1>Kombinace")):
        page = project / "site" / lang / "melds" / "index.html"
        _expect(page.is_file(), f"build wrote no {page}")
        html = page.read_text(encoding="utf-8")
        _expect(f'<html lang="{lang}"' in html and heading in html,
                f"{page} is not the {lang} page ({heading!r} missing)")
        _expect('id="queen-king-ace-hearts" data-verdict="valid" data-points="31"' in html,
                f"{page} lacks the case row with the engine's values")
        _expect((project / "site" / lang / "pagefind" / "pagefind.js").is_file(),
                f"build wrote no search index for {lang}")
    checked = _ok([script, "check", "--project", "site"], workdir)
    _expect(re.search(r"^\d+ cases? checked: 0 disagreements, 0 input errors$",
                      checked.stderr, re.M) is not None,
            f"check printed no clean summary:\n{checked.stdout}{checked.stderr}")
    explained = _ok([script, "explain", "--game", "rami51", "QH", "KH", "AH"], workdir).stdout
    for line in ("kind: meld", "verdict: valid", "type: run", "points: 31",
                 "# Q♥ 10 + K♥ 10 + A♥ 11 = 31"):
        _expect(line in explained, f"explain printed no {line!r}:\n{explained}")


def main(argv: list[str] | None = None) -> int:
    """Run every check; returns the exit status (0 all passed, 1 one failed)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="the wheel that was installed")
    parser.add_argument("--repo", type=Path, help="the checkout it was built from")
    parser.add_argument("--workdir", type=Path, required=True,
                        help="an empty or new folder outside the repository")
    parser.add_argument("--version", help="the version the release must have (the tag "
                        "without its v)")
    args = parser.parse_args(argv)
    workdir: Path = args.workdir.absolute()
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        if args.wheel is not None and args.repo is not None:
            count = check_wheel_files(args.wheel, args.repo)
            print(f"wheel: {count} files, every file git tracks under generator/ among them")
        installed = check_installed(args.repo, workdir, args.version)
        print(f"installed: {DISTRIBUTION} {installed} from this environment")
        check_commands(workdir)
        print("init, build, check and explain: ok")
    except SmokeFailure as failure:
        print(f"release smoke test failed: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
