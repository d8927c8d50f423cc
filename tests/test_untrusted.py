"""Untrusted text (translations, case titles and notes, Markdown) renders inert: the
output HTML is parsed to prove it."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.conftest import start_tags
from tests.test_i18n import _tiny

LEAN_PROJECT = True
"""The ``project`` fixture is the lean copy (conftest): every page and case, in English
and Czech, which is all these tests of escaping need."""


ATTACKS = ('<script>alert(1)</script>', '<img src=x onerror="alert(1)">',
           '<a href="javascript:alert(1)">x</a>')


def _dangerous(html: str) -> list[str]:
    found = []
    for tag, attrs in start_tags(html):
        if tag == "script" and not attrs.get("src", "").endswith("static/site.js"):
            found.append(f"script {attrs}")
        for name, value in attrs.items():
            if name.lower().startswith("on"):
                found.append(f"{tag} {name}")
            if name in ("href", "src") and "javascript:" in value.lower():
                found.append(f"{tag} {name}={value}")
    return found


def _site_html(project: Path) -> list[str]:
    return [p.read_text("utf-8") for p in (project / "site").rglob("*.html")]


def test_translations_render_inert(tmp_path: Path) -> None:
    entries = [
        ("Plain paragraph.", ATTACKS[0]),
        ("Tiny", ATTACKS[1]),
        ("Queen, king and ace", ATTACKS[2]),
        ("Rummy rules", ATTACKS[0]),  # a template string
    ]
    body = "".join('msgid "{}"\nmsgstr "{}"\n\n'.format(m, a.replace('"', '\\"'))
                   for m, a in entries)
    project = _tiny(tmp_path, body)
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    pages = _site_html(project)
    assert pages
    for html in pages:
        assert _dangerous(html) == [], html
    sk = (project / "site/sk/tiny/index.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in sk  # shown as text, escaped


def test_case_titles_and_notes_render_inert(project: Path) -> None:
    path = project / "content/examples/melds-rami.yaml"
    text = path.read_text("utf-8")
    text = text.replace("title: Queen, king and ace of hearts",
                        "title: '<script>alert(1)</script>'", 1)
    text = text.replace("note: An ace after the king is high",
                        "note: <img src=x onerror=alert(1)> An ace after the king is high", 1)
    path.write_text(text, encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    for html in _site_html(project):
        assert _dangerous(html) == []


def test_markdown_renders_inert(project: Path) -> None:
    page = project / "content" / "rules.md"
    page.write_text(page.read_text("utf-8") + "\n" + "\n\n".join(ATTACKS) + "\n\n"
                    "<details open ontoggle=alert(1)>x</details>\n", encoding="utf-8")
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    html = (project / "site/en/rules/index.html").read_text("utf-8")
    assert _dangerous(html) == []
    assert "&lt;script&gt;" in html
