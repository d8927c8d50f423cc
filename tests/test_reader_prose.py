"""What a reader sees of the built site's pages: words of the locale, not the codes that
case files and the engine use."""

from __future__ import annotations

import re
from pathlib import Path

from generator.engine.codes import Option

_TAG = re.compile(r"<[^>]*>")


def test_no_page_shows_an_option_code(built_site: Path) -> None:
    names = "|".join(re.escape(str(o)) for o in Option)
    codes = re.compile(rf"(?<![\w.])({names})(?!\w)")
    pages = sorted(built_site.glob("*/**/index.html"))
    assert len(pages) > 20
    shown = {}
    for page in pages:
        html = page.read_text(encoding="utf-8")
        body = html[html.index("<body"):]
        found = codes.findall(_TAG.sub(" ", body))  # the text: no tag, no attribute
        if found:
            shown[str(page.relative_to(built_site))] = sorted(set(found))
    assert shown == {}
    # the options are named in words instead
    cardverse = (built_site / "en" / "cardverse" / "index.html").read_text(encoding="utf-8")
    assert "With the option “discard to win” on" in cardverse
    assert "“Ace high”, off by default" in cardverse
    cs = (built_site / "cs" / "cardverse" / "index.html").read_text(encoding="utf-8")
    assert "volba „vysoké eso“" in cs or "volbou „vysoké eso“" in cs
