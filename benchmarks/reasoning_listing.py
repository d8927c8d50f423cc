"""Every kind's reasoning in words: a listing to read, kind by kind.

    python3 benchmarks/reasoning_listing.py [--lang cs] [--kind joker_swap] [--project DIR]

For each case of the project's case files (this repository's by default), of the kinds
fixture (``tests/fixtures/kinds``) and of :data:`EXTRA` (cases for the reason and
explanation codes those files do not reach), prints the engine's values and its
reasoning three ways, as the reader meets it:

- ``explain``: the comment ``explain`` prints above a case (the case's reasoning and its
  reason);
- ``page``: the reasoning under the verdict on a page (what the row shows otherwise left
  out), when it differs;
- ``check FIELD``: the lines ``check`` prints under a disagreement on the case's first
  ``expect`` field, when they differ.

Then the coverage: each message of the contexts ``reason``, ``explanation``, ``event``,
``end`` and ``numbered meld`` that no listed line says (by its English text, so only
without ``--lang``). Words come from the package's built-in catalogs (``--lang``),
English by default. Nothing is asserted: it is a tool for reading.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.cases import Case
from generator.cases import load_cases
from generator.i18n import words
from generator.i18n.catalog import builtin_bytes
from generator.i18n.catalog import builtin_label
from generator.i18n.catalog import load_translator
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds.base import with_reason
from generator.render.views import case_row
from generator.verify import CaseResult
from generator.verify import explain_case
from generator.verify import verify_case

REPO = Path(__file__).resolve().parent.parent

EXTRA = """\
defaults:
  game: rami51
cases:
  - {id: swap-no-joker, kind: joker_swap, meld: 7S 8S 9S, card: 6S, title: T,
     expect: {verdict: rejected}}
  - {id: swap-set-wrong-suit, kind: joker_swap, meld: 9C 9D 9H JK, card: 9D, title: T,
     expect: {verdict: rejected}}
  - {id: swap-lower-rank, kind: joker_swap, meld: JK JH QH, card: 10H, title: T,
     expect: {verdict: allowed}}
  - {id: swap-lower-rank-wrong, kind: joker_swap, meld: JK JH QH, card: KH, title: T,
     expect: {verdict: rejected}}
  - {id: swap-ace-end, kind: joker_swap, meld: QH KH JK, card: AH, title: T,
     expect: {verdict: rejected}}
  - {id: swap-house-middle, kind: joker_swap, rules: house, meld: 7S JK 9S, card: 8S,
     title: T, expect: {verdict: allowed}}
  - {id: meld-run-too-long, kind: meld, cards: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH,
     title: T, expect: {verdict: invalid}}
  - {id: meld-house-lower-rank, kind: meld, rules: house, cards: JK JH QH, title: T,
     expect: {verdict: valid}}
  - {id: layoff-joker-onto-set-of-two, kind: layoff, meld: 9C 9D JK, cards: 9H, title: T,
     expect: {verdict: valid}}
  - {id: layoff-too-many-jokers, kind: layoff, meld: JK 7S 8S, cards: JK, title: T,
     expect: {verdict: invalid}}
  - {id: first-meld-one-meld-short, kind: first_meld, melds: [QH KH AH], title: T,
     expect: {verdict: rejected}}
  - {id: best-opening-one-meld, kind: best_opening,
     cards: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH, title: T,
     expect: {verdict: can_open}}
  - id: scenario-refusals
    kind: scenario
    title: T
    start:
      hands:
        - 5C 6C 7C KH KS KD 2D 9S 3H 4S 8D JC QS
        - 2C 3C 4D 6H 7H 9D 10D JD QD KC AC 8S 5D
      discard: QH
      stock: 3D 4D 9C
      opened: [true, true]
      table:
        - {seat: 2, cards: JK 7S 8S}
        - {seat: 2, cards: 9C 9D JK}
        - {seat: 2, cards: 2H 3H 4H}
    actions:
      - discard: 5C
      - draw: stock
      - draw: stock
      - {layoff: 5H, onto: 9}
      - {layoff: 10C, onto: 3}
      - {layoff: KH, onto: 3}
      - {take_joker: 1, card: 9S}
      - {take_joker: 2, card: 9S}
      - {take_joker: 3, card: 2D}
      - meld: 5C 6C 8D
    expect:
      results: [legal, legal, legal, legal, legal, legal, legal, legal, legal, legal]
  - id: scenario-empty-discard-pile
    kind: scenario
    title: T
    start:
      hands: [5C 6C 7C, 2C 3C 4D]
      discard: []
      stock: 3D 4D 9C
    actions:
      - draw: discard
    expect:
      results: [legal]
"""
"""Cases for the codes the repository's case files leave out (each ``T``-titled)."""

CONTEXTS = ("reason", "explanation", "event", "end", "numbered meld")
"""The contexts whose every message the coverage looks for."""


def translator_words(lang: str | None) -> Words:
    """The words of the built-in catalog of ``lang`` (English for ``None``)."""
    if lang is None:
        return Words(source_translator())
    data = builtin_bytes(lang)
    if data is None:
        raise SystemExit(f"--lang {lang}: the package has no catalog for it")
    translator, errors = load_translator(REPO, builtin_label(lang), lang, data)
    if errors:
        raise SystemExit("\n".join(e.format() for e in errors))
    return Words(translator)


def cases(project: Path) -> Iterator[tuple[str, Case]]:
    """(source, case) of the project, the kinds fixture and :data:`EXTRA`."""
    with tempfile.TemporaryDirectory() as tmp:
        extra = Path(tmp)
        (extra / "content" / "examples").mkdir(parents=True)
        (extra / "content" / "examples" / "extra.yaml").write_text(EXTRA, encoding="utf-8")
        for name, root in (("project", project), ("fixture", REPO / "tests/fixtures/kinds"),
                           ("extra", extra)):
            loaded = load_cases(root)
            for error in loaded.errors:
                print(f"{name}: {error.format()}", file=sys.stderr)
            for case in loaded.cases:
                yield name, case


def _field(result: CaseResult) -> str | None:
    """The first ``expect`` field the engine gives a value for."""
    return next((f for f, v in result.values.items() if v is not None), None)


def listing(project: Path, lang: str | None, kind: str | None) -> list[str]:
    """The lines to print, every case's reasoning, then the coverage."""
    w = translator_words(lang)
    out: list[str] = []
    said: list[str] = []
    by_kind: dict[str, list[tuple[str, Case]]] = {}
    for source, case in cases(project):
        if kind is None or case.kind == kind:
            by_kind.setdefault(case.kind, []).append((source, case))
    for name in sorted(by_kind):
        out.append(f"== {name} ==")
        for source, case in by_kind[name]:
            result = verify_case(case)
            values = {k: v for k, v in result.values.items() if v is not None}
            out.append(f"[{source}] {case.id} ({case.game}"
                       f"{', ' + case.rules if case.rules else ''}): {values}")
            lines = with_reason(explain_case(result, w), result.values, w)
            out += [f"    explain  {line}" for line in lines]
            page = case_row(result, w)["reasoning"]
            if page != lines:
                out += [f"    page     {line}" for line in page] or ["    page     (none)"]
            field = _field(result)
            if field is not None:
                spec = case.spec
                check = spec.explain_mismatch(field, case.inputs, result.engine_result,
                                              result.values, case.rule_set(), w)
                if check != lines:
                    out += [f"    check {field}: {line}" for line in check]
                said += check
            said += lines + page
        out.append("")
    if lang is None and kind is None:
        out.append("== messages no listed line says ==")
        for context in CONTEXTS:
            for key, msgid in words.CONTEXTS[context].items():
                pattern = re.escape(msgid).replace("%%", "%")
                pattern = re.sub(r"%\\\((\w+)\\\)s", ".+", pattern)
                if not any(re.search(pattern, line) for line in said):
                    out.append(f"{context} {key}: {msgid}")
    return out


def main() -> None:
    """Print the listing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", help="a built-in catalog's language (default: English)")
    parser.add_argument("--kind", help="only the cases of this kind")
    parser.add_argument("--project", type=Path, default=REPO,
                        help="the project whose case files to list (default: this one)")
    args = parser.parse_args()
    print("\n".join(listing(args.project, args.lang, args.kind)))


if __name__ == "__main__":
    main()
