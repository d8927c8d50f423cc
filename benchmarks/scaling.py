"""Equal content at any scale, for us and for Hugo (shared by the benchmarks).

- :func:`scale_project` copies the repository's project (content/, locales/ and, if
  present, templates/) and repeats every page of content/*.md as ``<stem>-<i>.md`` until
  the site has about ``pages`` pages, every locale counted.
- :func:`hugo_site` writes a multilingual Hugo site of the same shape: en plus one
  language per locales/*/LC_MESSAGES/messages.po (the same English text in each), one
  content folder per language, every case table as a Markdown table, minimal layouts.

Every copy (``i >= 1``) gets a paragraph of its own (:func:`distinct_paragraph`), the same
on both sides, so that no cache can share work between copies.

``benchmarks/hugo_baseline.sh`` runs ``python3 benchmarks/scaling.py hugo SITE PAGES RICH``.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from generator.engine.rules import options_of
from generator.engine.rules import presets_of

REPO = Path(__file__).resolve().parent.parent
PROJECT_FOLDERS = ("content", "locales", "templates")


def languages(repo: Path = REPO) -> list[str]:
    """en, then every locale with a catalog, sorted."""
    catalogs = (repo / "locales").glob("*/LC_MESSAGES/messages.po")
    return ["en", *sorted(p.parts[-3] for p in catalogs)]


def sources(repo: Path = REPO) -> list[Path]:
    return sorted((repo / "content").glob("*.md"))


def copies_for(pages: int, repo: Path = REPO) -> int:
    """How many times each source page is repeated so the site has about ``pages`` pages."""
    return max(1, pages // (len(languages(repo)) * len(sources(repo))))


def copy_name(stem: str, i: int) -> str:
    return stem if i == 0 else f"{stem}-{i}"


def distinct_paragraph(stem: str, i: int) -> str:
    """A paragraph found on copy ``i`` of page ``stem`` only (empty for the original)."""
    if i == 0:
        return ""
    return (f"This is copy {i} of the page {stem}, number {i * 7919 % 100003}: a paragraph "
            f"of its own, so that no cache can share the work of copy {i} with another.\n\n")


def _insert_after_h1(body: str, paragraph: str) -> str:
    """``body`` with ``paragraph`` after its first ``# `` heading (or at its start)."""
    if not paragraph:
        return body
    match = re.search(r"^# .+\n\n?", body, re.M)
    at = match.end() if match else 0
    return body[:at] + paragraph + body[at:]


SUIT_ORDERS = [order for order in itertools.permutations("SHDC") if order != tuple("SHDC")]
"""The 23 other orders of the suits: a copy's cases take one (:func:`own_cases`)."""

_CARD = re.compile(r"\b(10|[2-9JQKA])([SHDC])\b")
_FENCE = re.compile(r"^```cases\n(.*?)^```", re.M | re.S)
TEXT_FIELDS = frozenset({"id", "title", "note", "because", "status", "kind", "game",
                         "rules"})
"""Case fields whose words are not card codes (left as they are in a copy)."""


def _cases_by_id(repo: Path) -> dict[str, dict[str, Any]]:
    """Every case of ``repo``'s case files, its file's ``defaults`` filled in."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((repo / "content" / "examples").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        defaults = data.get("defaults") or {}
        for case in data.get("cases", []):
            merged = {**defaults, **case}
            # a file's defaults give a field only to the cases it applies to
            if "rules" not in case and not presets_of(merged.get("game", "")):
                merged.pop("rules", None)
            if "options" not in case and not options_of(merged.get("game", "")):
                merged.pop("options", None)
            found[case["id"]] = merged
    return found


def _suits_swapped(value: Any, swap: dict[str, str]) -> Any:
    """``value`` (a case's field) with every card code's suit swapped by ``swap``."""
    if isinstance(value, str):
        return _CARD.sub(lambda m: m.group(1) + swap[m.group(2)], value)
    if isinstance(value, list):
        return [_suits_swapped(v, swap) for v in value]
    if isinstance(value, dict):
        return {k: _suits_swapped(v, swap) for k, v in value.items()}
    return value


def own_cases(text: str, stem: str, i: int, cases: dict[str, dict[str, Any]]
              ) -> tuple[str, list[dict[str, Any]]]:
    """Copy ``i`` of page ``stem`` with cases of its own: ``text`` with each case id of
    its ``cases`` fences renamed ``<id>--<stem>-<i>``, and those cases, their cards' suits
    swapped in one of :data:`SUIT_ORDERS` chosen by a generator seeded with the copy's
    name (the same copy gets the same cards in every run). The engine is blind to suits
    but for the order it breaks ties in, so a documented value a swap changes is brought
    in line by ``check --fix`` afterwards (:func:`scale_project`)."""
    order = random.Random(f"{stem}-{i}").choice(SUIT_ORDERS)
    swap = dict(zip("SHDC", order, strict=True))
    suffix = f"--{stem}-{i}"
    made: list[dict[str, Any]] = []
    seen: set[str] = set()

    def fence(m: re.Match[str]) -> str:
        lines = []
        for line in m.group(1).splitlines():
            case_id = line.strip()
            if case_id in cases and not case_id.startswith("#"):
                if case_id not in seen:
                    seen.add(case_id)
                    case = {k: v if k in TEXT_FIELDS else _suits_swapped(v, swap)
                            for k, v in cases[case_id].items()}
                    made.append({**case, "id": case_id + suffix})
                line = line.replace(case_id, case_id + suffix)
            lines.append(line)
        return "```cases\n" + "\n".join(lines) + "\n```"

    return _FENCE.sub(fence, text), made


def scale_project(dest: Path, pages: int, repo: Path = REPO, *,
                  distinct_cases: bool = False) -> int:
    """Write the scaled copy of ``repo``'s project to ``dest``; return the copies per page.

    ``distinct_cases``: every copy of a page shows cases of its own (:func:`own_cases`,
    one case file per copy, ``content/examples/<stem>-<i>.yaml``), so that a case is shown
    on one page per locale, as on a real site; then ``check --fix`` runs once on ``dest``
    (untimed), and the figures of a build start from a project whose every documented
    value agrees. Without it every copy shows the original's cases: one case is on a third
    of the pages.
    """
    for name in PROJECT_FOLDERS:
        if (repo / name).is_dir():
            shutil.copytree(repo / name, dest / name)
    copies = copies_for(pages, repo)
    cases = _cases_by_id(repo) if distinct_cases else {}
    for src in sources(repo):
        text = src.read_text(encoding="utf-8")
        for i in range(1, copies):
            page = _insert_after_h1(text, distinct_paragraph(src.stem, i))
            if distinct_cases:
                page, made = own_cases(page, src.stem, i, cases)
                (dest / "content" / "examples" / f"{copy_name(src.stem, i)}.yaml").write_text(
                    yaml.safe_dump({"cases": made}, allow_unicode=True, sort_keys=False),
                    encoding="utf-8")
            out = dest / "content" / f"{copy_name(src.stem, i)}.md"
            out.write_text(page, encoding="utf-8")
    if distinct_cases:
        subprocess.run([sys.executable, "-m", "generator", "check", "--fix", "--project",
                        str(dest)], cwd=repo, capture_output=True, check=False)
    return copies


# --- Hugo ------------------------------------------------------------------------------


def find_hugo(without: str) -> str | None:
    """Hugo's program on PATH, its version printed; without one, a line that says so,
    how to install it, and ``without`` (what the benchmark does instead)."""
    program = shutil.which("hugo")
    if program:
        print(subprocess.run([program, "version"], capture_output=True, text=True,
                             check=False).stdout.strip())
    else:
        print(f"hugo is not on PATH (Debian: apt-get install hugo): {without}")
    return program


SUITS = {"H": ("♥", "hearts", "red"), "D": ("♦", "diamonds", "red"),
         "S": ("♠", "spades", "black"), "C": ("♣", "clubs", "black")}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


class _Tables:
    """Case tables as Markdown tables, cells filled from content/examples/*.yaml."""

    def __init__(self, repo: Path, rich: bool) -> None:
        self.rich = rich
        self.cases: dict[str, dict[str, Any]] = {}
        for f in sorted((repo / "content" / "examples").glob("*.yaml")):
            for case in yaml.safe_load(f.read_text(encoding="utf-8"))["cases"]:
                self.cases[case["id"]] = case
        self.all_ids = list(self.cases)

    def card(self, code: str) -> str:
        if code == "JK":
            return ('<span class="card card--joker" role="img" aria-label="joker">'
                    '<span aria-hidden="true">JK</span></span>') if self.rich else "JK"
        rank, (sym, suit, colour) = code[:-1], SUITS[code[-1]]
        if not self.rich:
            return rank + sym
        name = RANKS.get(rank, rank)
        return (f'<span class="card card--{colour}" role="img" aria-label="{name} of {suit}">'
                f'<span aria-hidden="true">{rank}<span class="suit">{sym}</span></span></span>')

    def cards_cell(self, case: dict[str, Any]) -> str:
        melds = case.get("melds") or [case.get("cards", "")]
        if not any(melds):
            return "–"
        if not self.rich:
            return " / ".join(" ".join(self.card(c) for c in m.split()) for m in melds)
        return '<span class="melds">' + "".join(
            '<span class="meld">' + "".join(self.card(c) for c in m.split()) + "</span>"
            for m in melds
        ) + "</span>"

    def row(self, case: dict[str, Any]) -> str:
        exp = case.get("expect", {})
        verdict = str(exp.get("verdict", "valid"))
        kind = str(exp.get("type", case.get("kind", "")))
        points = exp.get("points", exp.get("cards", 0))
        title, note = case.get("title", case["id"]), case.get("note", "")
        if self.rich:
            ok = verdict in ("valid", "accepted")
            title = (f'<span class="case__name">{title}</span> '
                     f'<span class="case__note"><span>{note}</span></span>')
            verdict = (f'<span class="verdict verdict--{"ok" if ok else "bad"}">'
                       f'<span class="verdict__icon" aria-hidden="true">'
                       f'{"✓" if ok else "✗"}</span>'
                       f'{verdict.capitalize()}</span> <span class="type">{kind}</span>'
                       f'<ul class="reasoning"><li>total = {points}</li></ul>')
            points = (f'<span class="points">{points}</span>'
                      f'<span class="context">reference rules</span>')
        else:
            title = f"**{title}** {note}"
            verdict = f"{verdict.capitalize()} {kind}"
        return f"| {title} | {self.cards_cell(case)} | {verdict} | {points} |"

    def table(self, ids: list[str]) -> str:
        ids = list(ids)
        extra = iter(i for i in self.all_ids if i not in ids)
        while len(ids) < 5:  # at least 5 rows, filled with other cases
            ids.append(next(extra))
        return "\n".join(["| Meld | Cards | Verdict | Points |", "|---|---|---|---|"]
                         + [self.row(self.cases[i]) for i in ids if i in self.cases]) + "\n"

    def convert(self, text: str) -> tuple[dict[str, Any], str, str]:
        """(front matter, title, body) of one of our pages as Hugo Markdown."""
        _, front, body = text.split("---\n", 2)
        meta: dict[str, Any] = yaml.safe_load(front)
        heading = re.search(r"^# (.+)$", body, re.M)
        title = heading.group(1) if heading else ""
        body = re.sub(r"^# .+\n", "", body, count=1, flags=re.M)

        def fence(m: re.Match[str]) -> str:
            kind, inner = m.group(1), m.group(2).split()
            if kind == "cases":
                return self.table(inner)
            # deck-table / presets-table
            return self.table([i for i in self.all_ids if i.startswith("deck-")][:5])

        body = re.sub(r"^```([\w-]+)\n(.*?)^```\n", fence, body, flags=re.M | re.S)
        body = re.sub(r"^:::.*\n", "", body, flags=re.M)
        body = re.sub(r"\{[\w.]+\}", lambda m: str(2 + sum(map(ord, m.group(0))) % 50), body)
        return meta, title, body


BASEOF = """<!doctype html>
<html lang="{{ .Site.Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if not .IsHome }}{{ .Title }} – {{ end }}{{ .Site.Title }}</title>
<link rel="stylesheet" href="/static/style.css">
{{- range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" \
href="{{ .RelPermalink }}">{{ end }}
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header">
  <div class="site-header__inner">
    <a class="site-name" href="{{ .Site.Home.RelPermalink }}"><span class="site-name__mark" \
aria-hidden="true">♠</span>{{ .Site.Title }}</a>
    <nav class="lang-switch" aria-label="Language">
      <ul>{{ $cur := . }}{{ range .AllTranslations }}<li><a href="{{ .RelPermalink }}" \
hreflang="{{ .Language.Lang }}" lang="{{ .Language.Lang }}"{{ if eq .Language.Lang \
$cur.Language.Lang }} aria-current="true" class="is-current"{{ end }}>\
{{ .Language.LanguageName }}</a></li>{{ end }}</ul>
    </nav>
  </div>
  <nav class="site-nav" aria-label="Rules">
    <ul>{{ range .Site.RegularPages.ByWeight }}<li><a href="{{ .RelPermalink }}"\
{{ if eq . $cur }} aria-current="page"{{ end }}>{{ .LinkTitle }}</a></li>{{ end }}</ul>
  </nav>
</header>
<main id="content" class="site-main">
{{ block "main" . }}{{ end }}
</main>
<footer class="site-footer">
  <p>Every example on this page is checked by the rules engine at build time.</p>
</footer>
</body>
</html>
"""

SINGLE = """{{ define "main" }}
<div class="page page--with-toc">
  <nav class="toc toc--mobile" aria-label="On this page"><details><summary>On this page\
</summary>{{ .TableOfContents }}</details></nav>
  <nav class="toc toc--sidebar" aria-label="On this page"><p class="toc__title">On this page\
</p>{{ .TableOfContents }}</nav>
  <article class="content">
    <h1>{{ .Title }}</h1>
    {{ .Content }}
  </article>
</div>
{{ end }}
"""

LIST = """{{ define "main" }}
<div class="page">
  <h1>{{ .Site.Title }}</h1>
  <ul class="page-list">{{ range .Site.RegularPages.ByWeight }}
    <li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a><p>{{ .Params.summary }}</p></li>\
{{ end }}
  </ul>
</div>
{{ end }}
"""


def hugo_site(site: Path, pages: int, rich: bool = False, repo: Path = REPO) -> str:
    """Write the Hugo site of about ``pages`` pages to ``site``; return a one-line summary.

    ``rich`` writes the table cells as HTML card markup like ours (goldmark unsafe on), so
    that the output size per page is close to ours; the default is plain text cells.
    """
    langs = languages(repo)
    srcs = sources(repo)
    copies = copies_for(pages, repo)
    tables = _Tables(repo, rich)
    converted = [(src.stem, *tables.convert(src.read_text(encoding="utf-8"))) for src in srcs]
    for lang in langs:
        d = site / "content" / lang
        d.mkdir(parents=True)
        for stem, meta, title, body in converted:
            for i in range(copies):
                t = title if i == 0 else f"{title} ({i})"
                fm = yaml.safe_dump({"title": t, "weight": meta["order"] * 1000 + i,
                                     "summary": meta["summary"]}, allow_unicode=True)
                text = f"---\n{fm}---\n{distinct_paragraph(stem, i)}{body}"
                (d / f"{copy_name(stem, i)}.md").write_text(text, encoding="utf-8")

    conf = ['baseURL = "https://example.org/"', 'title = "Rummy rules"',
            'defaultContentLanguage = "en"', "defaultContentLanguageInSubdir = true",
            'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]',
            "[markup.goldmark.renderer]", f"unsafe = {'true' if rich else 'false'}",
            "[markup.tableOfContents]", "startLevel = 2", "endLevel = 2"]
    for w, lang in enumerate(langs, 1):
        conf += [f"[languages.{lang}]", f'contentDir = "content/{lang}"', f"weight = {w}",
                 f'languageName = "{lang}"']
    (site / "hugo.toml").write_text("\n".join(conf) + "\n", encoding="utf-8")

    layouts = site / "layouts" / "_default"
    layouts.mkdir(parents=True)
    for name, text in (("baseof.html", BASEOF), ("single.html", SINGLE), ("list.html", LIST)):
        (layouts / name).write_text(text, encoding="utf-8")
    return (f"Hugo site: {len(langs)} languages ({', '.join(langs)}) x {len(srcs)} pages x "
            f"{copies} copies = {len(langs) * len(srcs) * copies} pages, "
            f"{'rich (HTML card markup)' if rich else 'plain'} table cells")


def _main(argv: list[str]) -> None:
    commands: dict[str, Callable[[list[str]], str]] = {
        "hugo": lambda a: hugo_site(Path(a[0]), int(a[1]), rich=a[2:] == ["1"]),
    }
    if not argv or argv[0] not in commands:
        sys.exit("usage: scaling.py hugo SITE PAGES [RICH(0|1)]")
    print(commands[argv[0]](argv[1:]))


if __name__ == "__main__":
    _main(sys.argv[1:])
