"""CPU time of ``check --fix`` and ``i18n update`` as their input grows, in this process.

    python benchmarks/bench_fix.py [--cases 1000,2000,4000] [--messages 2000,4000,8000]

- fix: one case file of N meld cases, each documenting wrong points (every case
  disagrees), fixed by :func:`generator.commands.fix.fix`; the file is restored before
  each of the 3 runs and the fastest is printed.
- update: a project of one page of N paragraphs and a Czech catalog translating each,
  merged by ``i18n update`` (:func:`generator.commands.i18n.i18n`); fastest of 3.

A linear stage doubles its time when its input doubles. Figures only: nothing here
asserts a time (tests/test_growth.py holds both stages to linear growth).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.commands.fix import fix
from generator.commands.i18n import i18n
from generator.layout import Layout

CASE = """  - id: m-{i}
    kind: meld
    game: rami51
    cards: KH KS KD
    title: Three kings
    expect:
      verdict: valid
      type: set
      points: 31   # wrong: the engine says 30
"""


def fix_project(root: Path, cases: int) -> Callable[[], object]:
    """A project whose one case file holds ``cases`` disagreeing cases; returns a run
    that restores the file and fixes it."""
    examples = root / "content" / "examples"
    examples.mkdir(parents=True)
    (root / "content" / "page.md").write_text("# Page\n\nText.\n", encoding="utf-8")
    text = "cases:\n" + "".join(CASE.format(i=i) for i in range(cases))
    (root / "original.yaml").write_text(text, encoding="utf-8")

    def run() -> object:
        shutil.copyfile(root / "original.yaml", examples / "x.yaml")
        report = fix(root, lambda line: None)
        assert report.fixed == cases, report.lines[:3]
        return report

    return run


def update_project(root: Path, messages: int) -> Callable[[], object]:
    """A project of one page of ``messages`` paragraphs and a Czech catalog translating
    each; returns a run of ``i18n update``."""
    (root / "content").mkdir(parents=True)
    body = "".join(f"Paragraph {i}.\n\n" for i in range(messages))
    (root / "content" / "page.md").write_text(f"# Page\n\n{body}", encoding="utf-8")
    (root / "site.yaml").write_text("languages: [cs, en]\n", encoding="utf-8")
    folder = root / "locales" / "cs" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    entries = "".join(f'msgid "Paragraph {i}."\nmsgstr "Odstavec {i}."\n\n'
                      for i in range(messages))
    (folder / "messages.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n'
        '"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2);\\n"\n\n'
        f'msgid "Page"\nmsgstr "Stránka"\n\n{entries}', encoding="utf-8")
    layout = Layout.of(root)

    def run() -> object:
        code = i18n(layout, "update", lambda lines: None, lambda line: None)
        assert code == 0, code
        return code

    return run


def fastest(run: Callable[[], object]) -> float:
    """The least CPU time of 3 runs, in seconds."""
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        run()
        best = min(best, time.process_time() - began)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="1000,2000,4000")
    parser.add_argument("--messages", default="2000,4000,8000")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in map(int, args.cases.split(",")):
            spent = fastest(fix_project(Path(tmp) / f"fix-{n}", n))
            print(f"check --fix, {n:>6} disagreeing cases: {spent:7.2f} s CPU")
        for n in map(int, args.messages.split(",")):
            spent = fastest(update_project(Path(tmp) / f"update-{n}", n))
            print(f"i18n update, {n:>6} messages:          {spent:7.2f} s CPU")


if __name__ == "__main__":
    main()
