#!/usr/bin/env bash
# Hugo baseline for benchmarks/bench_build.py: how long Hugo takes to build a site of
# about the same shape as our scaled copy.
#
#   benchmarks/hugo_baseline.sh [--runs 7] [--pages 700] [--rich] [--keep DIR]
#
# Builds, in a temporary folder, a multilingual Hugo site (en, plus one language per
# locales/*/LC_MESSAGES/messages.po, same English text in each) from content/*.md:
#   - each ```cases / ```deck-table / ```presets-table fence becomes a 4-column
#     Markdown table (one row per case, at least 5 rows), cells filled from
#     content/examples/*.yaml;
#   - {placeholders} become numbers, `::: app-choice` / `:::` lines are dropped,
#     the H1 becomes the title;
#   - every page is copied as <stem>-<i>.md, with the same count as bench_build.py,
#     so the site has 3 x 58 pages per language (696 pages, plus 4 home pages).
# Minimal layouts (no theme): baseof with a language switch, a nav listing every
# page of the language, the table of contents twice (as ours); single; list (home).
# Taxonomies, RSS, sitemap, robots.txt and 404 are turned off.
# --rich writes the table cells as HTML card markup like ours (goldmark unsafe on),
# so that the output size per page is close to ours; the default is plain text cells.
#
# Times `hugo --quiet` (with public/ removed before each run, then over the existing
# public/) and `hugo --quiet --renderToMemory`, with hyperfine if installed, else a
# Python loop.
# Figures only. Skips (exit 0) if hugo is not installed.
set -euo pipefail

RUNS=7
PAGES=700
RICH=0
KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --pages) PAGES="$2"; shift 2 ;;
        --rich) RICH=1; shift ;;
        --keep) KEEP="$2"; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v hugo >/dev/null 2>&1; then
    echo "hugo is not installed (e.g. apt-get install -y hugo): skipping the Hugo baseline"
    exit 0
fi

REPO="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "$KEEP" ]; then
    SITE="$KEEP"
    rm -rf "$SITE"
    mkdir -p "$SITE"
else
    SITE="$(mktemp -d)"
    trap 'rm -rf "$SITE"' EXIT
fi

python3 - "$REPO" "$SITE" "$PAGES" "$RICH" <<'PY'
import re
import sys
from pathlib import Path

import yaml

repo, site, pages, rich = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
langs = ["en"] + sorted(p.parts[-3] for p in (repo / "locales").glob("*/LC_MESSAGES/messages.po"))
sources = sorted((repo / "content").glob("*.md"))
copies = max(1, pages // (len(langs) * len(sources)))  # as benchmarks/bench_build.py

cases = {}
for f in sorted((repo / "content" / "examples").glob("*.yaml")):
    for case in yaml.safe_load(f.read_text(encoding="utf-8"))["cases"]:
        cases[case["id"]] = case
all_ids = list(cases)

SUITS = {"H": ("♥", "hearts", "red"), "D": ("♦", "diamonds", "red"),
         "S": ("♠", "spades", "black"), "C": ("♣", "clubs", "black")}
RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def card(code):
    if code == "JK":
        return ('<span class="card card--joker" role="img" aria-label="joker">'
                '<span aria-hidden="true">JK</span></span>') if rich else "JK"
    rank, (sym, suit, colour) = code[:-1], SUITS[code[-1]]
    if not rich:
        return rank + sym
    name = RANKS.get(rank, rank)
    return (f'<span class="card card--{colour}" role="img" aria-label="{name} of {suit}">'
            f'<span aria-hidden="true">{rank}<span class="suit">{sym}</span></span></span>')


def cards_cell(case):
    melds = case.get("melds") or [case.get("cards", "")]
    if not any(melds):
        return "–"
    if not rich:
        return " / ".join(" ".join(card(c) for c in m.split()) for m in melds)
    return '<span class="melds">' + "".join(
        '<span class="meld">' + "".join(card(c) for c in m.split()) + "</span>" for m in melds
    ) + "</span>"


def row(case):
    exp = case.get("expect", {})
    verdict = str(exp.get("verdict", "valid"))
    kind = str(exp.get("type", case.get("kind", "")))
    points = exp.get("points", exp.get("cards", 0))
    title, note = case.get("title", case["id"]), case.get("note", "")
    if rich:
        ok = verdict in ("valid", "accepted")
        title = (f'<span class="case__name">{title}</span> '
                 f'<span class="case__note"><span>{note}</span></span>')
        verdict = (f'<span class="verdict verdict--{"ok" if ok else "bad"}">'
                   f'<span class="verdict__icon" aria-hidden="true">{"✓" if ok else "✗"}</span>'
                   f'{verdict.capitalize()}</span> <span class="type">{kind}</span>'
                   f'<ul class="reasoning"><li>total = {points}</li></ul>')
        points = f'<span class="points">{points}</span><span class="context">reference rules</span>'
    else:
        title = f"**{title}** {note}"
        verdict = f"{verdict.capitalize()} {kind}"
    return f"| {title} | {cards_cell(case)} | {verdict} | {points} |"


def table(ids):
    ids = list(ids)
    extra = iter(i for i in all_ids if i not in ids)
    while len(ids) < 5:  # at least 5 rows, filled with other cases
        ids.append(next(extra))
    return "\n".join(["| Meld | Cards | Verdict | Points |", "|---|---|---|---|"]
                     + [row(cases[i]) for i in ids if i in cases]) + "\n"


def convert(text):
    _, front, body = text.split("---\n", 2)
    meta = yaml.safe_load(front)
    title = re.search(r"^# (.+)$", body, re.M).group(1)
    body = re.sub(r"^# .+\n", "", body, count=1, flags=re.M)

    def fence(m):
        kind, inner = m.group(1), m.group(2).split()
        if kind == "cases":
            return table(inner)
        return table([i for i in all_ids if i.startswith("deck-")][:5])  # deck-/presets-table

    body = re.sub(r"^```([\w-]+)\n(.*?)^```\n", fence, body, flags=re.M | re.S)
    body = re.sub(r"^:::.*\n", "", body, flags=re.M)
    body = re.sub(r"\{[\w.]+\}", lambda m: str(2 + sum(map(ord, m.group(0))) % 50), body)
    return meta, title, body


for lang in langs:
    d = site / "content" / lang
    d.mkdir(parents=True)
    for src in sources:
        meta, title, body = convert(src.read_text(encoding="utf-8"))
        for i in range(copies):
            name = src.stem if i == 0 else f"{src.stem}-{i}"
            t = title if i == 0 else f"{title} ({i})"
            fm = yaml.safe_dump({"title": t, "weight": meta["order"] * 1000 + i,
                                 "summary": meta["summary"]}, allow_unicode=True)
            (d / f"{name}.md").write_text(f"---\n{fm}---\n{body}", encoding="utf-8")

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
(layouts / "baseof.html").write_text("""<!doctype html>
<html lang="{{ .Site.Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if not .IsHome }}{{ .Title }} – {{ end }}{{ .Site.Title }}</title>
<link rel="stylesheet" href="/static/style.css">
{{- range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .RelPermalink }}">{{ end }}
</head>
<body>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header">
  <div class="site-header__inner">
    <a class="site-name" href="{{ .Site.Home.RelPermalink }}"><span class="site-name__mark" aria-hidden="true">♠</span>{{ .Site.Title }}</a>
    <nav class="lang-switch" aria-label="Language">
      <ul>{{ $cur := . }}{{ range .AllTranslations }}<li><a href="{{ .RelPermalink }}" hreflang="{{ .Language.Lang }}" lang="{{ .Language.Lang }}"{{ if eq .Language.Lang $cur.Language.Lang }} aria-current="true" class="is-current"{{ end }}>{{ .Language.LanguageName }}</a></li>{{ end }}</ul>
    </nav>
  </div>
  <nav class="site-nav" aria-label="Rules">
    <ul>{{ range .Site.RegularPages.ByWeight }}<li><a href="{{ .RelPermalink }}"{{ if eq . $cur }} aria-current="page"{{ end }}>{{ .LinkTitle }}</a></li>{{ end }}</ul>
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
""", encoding="utf-8")
(layouts / "single.html").write_text("""{{ define "main" }}
<div class="page page--with-toc">
  <nav class="toc toc--mobile" aria-label="On this page"><details><summary>On this page</summary>{{ .TableOfContents }}</details></nav>
  <nav class="toc toc--sidebar" aria-label="On this page"><p class="toc__title">On this page</p>{{ .TableOfContents }}</nav>
  <article class="content">
    <h1>{{ .Title }}</h1>
    {{ .Content }}
  </article>
</div>
{{ end }}
""", encoding="utf-8")
(layouts / "list.html").write_text("""{{ define "main" }}
<div class="page">
  <h1>{{ .Site.Title }}</h1>
  <ul class="page-list">{{ range .Site.RegularPages.ByWeight }}
    <li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a><p>{{ .Params.summary }}</p></li>{{ end }}
  </ul>
</div>
{{ end }}
""", encoding="utf-8")
print(f"Hugo site: {len(langs)} languages ({', '.join(langs)}) x {len(sources)} pages x "
      f"{copies} copies = {len(langs) * len(sources) * copies} pages, "
      f"{'rich (HTML card markup)' if rich else 'plain'} table cells")
PY

cd "$SITE"
hugo version
hugo --quiet
echo "output: $(find public -name index.html | wc -l) index.html files, $(find public -type f | wc -l) files," \
     "$(du -sb public | cut -f1) bytes; en/rules/index.html: $(wc -c < public/en/rules/index.html) bytes," \
     "$(grep -o '<table' public/en/rules/index.html | wc -l) tables, $(grep -o '<tr' public/en/rules/index.html | wc -l) rows"

# Three ways: public/ removed before each run; public/ left in place (Hugo overwrites
# it, as in everyday use); nothing written. On ext4, creating files just after deleting
# as many costs more (the inode allocator skips recently deleted inodes), so the first
# figure can be well above the second. Run on a quiet machine: other builds or test
# runs on the same cores show up directly in the figures.
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --runs "$RUNS" --warmup 1 --export-json "$SITE/t1.json" \
        --command-name 'hugo --quiet (public/ removed first)' --prepare 'rm -rf public' 'hugo --quiet'
    hyperfine --runs "$RUNS" --warmup 1 --export-json "$SITE/t2.json" \
        --command-name 'hugo --quiet (over existing public/)' 'hugo --quiet'
    hyperfine --runs "$RUNS" --warmup 1 --export-json "$SITE/t3.json" \
        'hugo --quiet --renderToMemory'
    python3 - "$SITE"/t1.json "$SITE"/t2.json "$SITE"/t3.json <<'PY'
import json, sys
for f in sys.argv[1:]:
    r = json.load(open(f))["results"][0]
    print(f"{r['command']}: {len(r['times'])} runs: median {r['median']:.3f} s, "
          f"fastest {r['min']:.3f} s, slowest {r['max']:.3f} s")
PY
else
    python3 - "$RUNS" <<'PY'
import shutil, statistics, subprocess, sys, time
runs = int(sys.argv[1])
for label, cmd, clean in (
    ("hugo --quiet (public/ removed first)", ["hugo", "--quiet"], True),
    ("hugo --quiet (over existing public/)", ["hugo", "--quiet"], False),
    ("hugo --quiet --renderToMemory", ["hugo", "--quiet", "--renderToMemory"], False),
):
    times = []
    for _ in range(runs + 1):  # the first run is a warm-up
        if clean:
            shutil.rmtree("public", ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(cmd, check=True)
        times.append(time.perf_counter() - start)
    times = times[1:]
    print(f"{label}: {runs} runs: median {statistics.median(times):.3f} s, "
          f"fastest {min(times):.3f} s, slowest {max(times):.3f} s")
PY
fi
