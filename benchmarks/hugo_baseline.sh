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
#   - every page is copied as <stem>-<i>.md, with the same count as bench_build.py
#     (--pages 700: 3 x 33 pages per language, 693 pages plus the home pages), each
#     copy with a paragraph of its own (benchmarks/scaling.py).
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
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
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

# The site is written by benchmarks/scaling.py (shared with bench_build.py and
# compare_hugo.py).
python3 "$REPO/benchmarks/scaling.py" hugo "$SITE" "$PAGES" "$RICH"

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
