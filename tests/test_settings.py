"""``site.yaml``: each setting read with positioned errors and did-you-means, its JSON
Schema agreeing with ``check``, and what the pages show of it.

Each input case is a fixture under ``tests/fixtures/settings/``: ``NAME.yaml`` is the
project's ``site.yaml`` and ``NAME.expected`` every error ``check`` reports for it, one
``FILE:LINE:COL: message`` a line (empty: the settings are valid). The project has two
pages (``a-page``, ``b-page``) and two images in ``templates/static/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from jsonschema import Draft202012Validator

from generator.config import DEFAULT_DESCRIPTION
from generator.config import DEFAULT_TITLE
from generator.config import KEYS
from generator.config import SETTINGS
from generator.config import settings_schema
from tests.conftest import THEME
from tests.conftest import run_cli

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "settings"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.yaml"))

ONLY_CHECK = {
    "logo-misspelt": "whether the file exists (a schema sees the text alone)",
    "nav-unknown-page": "which pages the project has",
}
"""The fixtures ``check`` refuses for a reason a JSON Schema cannot express; every other
fixture is refused by both or by neither."""

PAGE = """---
order: {order}
summary: Page {name}.
---

# Page {name}

Text of page {name}.
"""


def _project(tmp_path: Path, settings: str) -> Path:
    project = tmp_path / "project"
    (project / "content").mkdir(parents=True)
    for order, name in ((1, "a"), (2, "b")):
        (project / "content" / f"{name}-page.md").write_text(
            PAGE.format(order=order, name=name), encoding="utf-8")
    static = project / "templates" / "static"
    static.mkdir(parents=True)
    (static / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n',
                                     encoding="utf-8")
    (static / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (project / "site.yaml").write_text(settings, encoding="utf-8")
    return project


@pytest.mark.parametrize("name", NAMES)
def test_check_reads_each_setting(tmp_path: Path, name: str) -> None:
    project = _project(tmp_path, (FIXTURES / f"{name}.yaml").read_text("utf-8"))
    expected = (FIXTURES / f"{name}.expected").read_text("utf-8").splitlines()
    result = run_cli("check", "--project", str(project))
    assert result.stdout.splitlines() == expected
    assert result.returncode == (2 if expected else 0)


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_agrees_with_check(name: str) -> None:
    value = yaml.safe_load((FIXTURES / f"{name}.yaml").read_text("utf-8"))
    schema_errors = list(Draft202012Validator(settings_schema()).iter_errors(value))
    check_refuses = bool((FIXTURES / f"{name}.expected").read_text("utf-8").strip())
    if name in ONLY_CHECK:
        assert check_refuses and not schema_errors, ONLY_CHECK[name]
    else:
        assert bool(schema_errors) == check_refuses, [e.message for e in schema_errors]


def test_the_schema_lists_every_setting_with_a_description() -> None:
    schema = settings_schema()
    Draft202012Validator.check_schema(schema)
    assert list(schema["properties"]) == list(KEYS) == [s.name for s in SETTINGS]
    assert all(p.get("description") for p in schema["properties"].values())
    assert schema["additionalProperties"] is False
    printed = run_cli("schema", "--settings")
    assert printed.returncode == 0 and yaml.safe_load(printed.stdout) == schema


def _soup(site: Path, rel: str) -> BeautifulSoup:
    return BeautifulSoup((site / rel).read_text("utf-8"), "html.parser")


def test_the_pages_show_every_setting(tmp_path: Path) -> None:
    project = _project(tmp_path, (FIXTURES / "every-setting.yaml").read_text("utf-8"))
    result = run_cli("build", "--project", str(project))
    assert result.returncode == 0, result.stdout + result.stderr
    site = project / "site"
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == ["checker", "cs", "en",
                                                                    "sk", "static"]
    root = _soup(site, "index.html")
    assert root.html is not None and root.html["lang"] == "cs"  # the default language
    assert [a["hreflang"] for a in root.select(".root__languages a")] == ["cs", "sk", "en"]
    assert root.title is not None and root.title.get_text() == "Pravidla rami"
    page = _soup(site, "cs/b-page/index.html")
    assert page.title is not None and page.title.get_text() == "Page b – Pravidla rami"
    name = page.select_one(".site-name")
    assert name is not None and name.get_text(strip=True) == "Pravidla rami"
    logo = name.select_one("img.site-name__logo")
    assert logo is not None and logo["src"] == "../../static/logo.svg" and logo["alt"] == ""
    icon = page.select_one("link[rel=icon]")
    assert icon is not None and (icon["href"], icon["type"]) == ("../../static/icon.png",
                                                                 "image/png")
    assert (site / "static" / "icon.png").read_bytes() == b"\x89PNG\r\n\x1a\n"
    footer = page.select_one("footer")
    assert footer is not None
    assert footer.select_one(".site-footer__text").get_text() == "Made by the CardVerse team."
    assert [(a.get_text(), a["href"]) for a in footer.select(".site-footer__links a")] == [
        ("Privacy", "https://example.org/privacy"), ("Write to us", "mailto:rules@example.org")]
    # nav: b-page first, as site.yaml orders them (their front matter says a, b)
    assert [a["href"] for a in page.select(".site-nav a")] == ["../b-page/index.html",
                                                              "../a-page/index.html"]
    home = _soup(site, "sk/index.html")
    assert home.h1 is not None and home.h1.get_text() == "Pravidla rami"
    assert home.select_one(".home__intro").get_text() == "The rules of our app."
    description = home.select_one('meta[name="description"]')
    assert description is not None and description["content"] == "The rules of our app."
    canonical = page.select_one("link[rel=canonical]")
    assert canonical is not None and \
        canonical["href"] == "https://rules.example.org/rami/cs/b-page/"
    # the settings' texts are the site's messages, for its catalog
    assert run_cli("i18n", "extract", "--project", str(project)).returncode == 0
    pot = (project / "locales" / "messages.pot").read_text("utf-8")
    for line, text in ((1, "Pravidla rami"), (2, "The rules of our app."),
                       (8, "Made by the CardVerse team."), (10, "Privacy"),
                       (11, "Write to us")):
        assert f'#: site.yaml:{line}\nmsgid "{text}"' in pot


def test_a_site_may_leave_english_out(tmp_path: Path) -> None:
    project = _project(tmp_path, "languages: [cs]\n")
    assert run_cli("build", "--project", str(project)).returncode == 0
    site = project / "site"
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == ["checker", "cs",
                                                                    "static"]
    root = _soup(site, "index.html")
    assert root.html is not None and root.html["lang"] == "cs"
    assert root.title is not None and root.title.get_text() == "Pravidla rummy"  # built in
    page = _soup(site, "cs/a-page/index.html")
    assert [link["hreflang"] for link in page.select("link[rel=alternate]")] == \
        ["cs", "x-default"]


def test_without_settings_the_theme_s_words_stand(tmp_path: Path) -> None:
    project = _project(tmp_path, "")
    assert run_cli("build", "--project", str(project)).returncode == 0
    home = _soup(project / "site", "en/index.html")
    assert home.h1 is not None and home.h1.get_text() == DEFAULT_TITLE
    assert home.select_one(".home__intro").get_text() == DEFAULT_DESCRIPTION
    icon = home.select_one("link[rel=icon]")
    assert icon is not None and (icon["href"], icon["type"]) == ("../static/favicon.svg",
                                                                 "image/svg+xml")
    assert home.select_one(".site-name__mark") is not None
    assert not home.select(".site-footer__links, .site-footer__text")


def test_no_template_names_the_site() -> None:
    """The site's name and introduction reach the templates only through ``site`` (the
    settings, or the theme's defaults in generator/config.py)."""
    for path in sorted(THEME.rglob("*.html")):
        text = path.read_text("utf-8")
        assert DEFAULT_TITLE not in text and DEFAULT_DESCRIPTION not in text, path
