"""The project's optional settings file, ``site.yaml`` (as MkDocs has ``mkdocs.yml``).

    site_url: https://rules.example.org/   # where the site is published

``site_url`` makes the ``hreflang`` alternates absolute and turns on ``sitemap.xml``
(whose addresses must be absolute). Every other key is an input error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from generator.errors import InputError
from generator.layout import CONFIG
from generator.layout import Layout
from generator.layout import NotAnInput

KEYS = ("site_url",)


@dataclass(frozen=True)
class Config:
    """The settings.

    Attributes:
        site_url: the published site's address, ending in ``/``; ``None`` when not set.
    """

    site_url: str | None = None


def load_config(project: Path | Layout) -> tuple[Config, list[InputError]]:
    """Read ``site.yaml`` if there is one.

    Args:
        project: the project folder or its layout.

    Returns:
        (the settings, the input errors: not YAML, not a mapping, an unknown key, a
        ``site_url`` that is not an http(s) address).
    """
    layout = Layout.of(project)
    if not layout.exists(CONFIG):
        return Config(), []
    try:
        text = layout.read(CONFIG).decode("utf-8")
        data = yaml.safe_load(text) or {}
    except NotAnInput as exc:
        return Config(), [exc.error]
    except UnicodeDecodeError as exc:
        return Config(), [InputError(CONFIG, 1, None, f"cannot read the settings: {exc}; "
                                     "expected UTF-8 YAML")]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return Config(), [InputError(CONFIG, mark.line + 1 if mark else 1,
                                     mark.column + 1 if mark else None,
                                     f"YAML syntax error: {getattr(exc, 'problem', exc)}; "
                                     "expected 'site_url: https://…/'")]
    if not isinstance(data, dict):
        return Config(), [InputError(CONFIG, 1, None, "the settings are not a mapping; "
                                     "expected 'site_url: https://…/'")]
    lines = _key_lines(text)
    errors = [InputError(CONFIG, lines.get(str(key), 1), None, f"unknown setting {key!r}; "
                         "expected one of: " + ", ".join(KEYS)) for key in data if key not in KEYS]
    url = data.get("site_url")
    problem = None if url is None else site_url_problem(url)
    if problem is not None:
        errors.append(InputError(CONFIG, lines.get("site_url", 1), None,
                                 f"site_url {url!r} is not a web address ({problem}); "
                                 "expected the absolute http(s) address of the site's root "
                                 "folder, e.g. https://rules.example.org/"))
        url = None
    if isinstance(url, str) and not url.endswith("/"):
        url += "/"
    return Config(url), errors


def _key_lines(text: str) -> dict[str, int]:
    """The line (1-based) of each top-level key of a YAML mapping already loaded."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode):
        return {}
    return {str(key.value): key.start_mark.line + 1 for key, _value in root.value}


_UNSAFE = re.compile(r"[\s\x00-\x1f\x7f\"'<>\\`{}|^]")
"""Characters a URL must not hold as written: whitespace, controls, quotes, angle
brackets and the others RFC 3986 excludes (they would need percent-encoding)."""


def site_url_problem(url: object) -> str | None:
    """What is wrong with a ``site_url`` value, or ``None`` when it is an absolute
    ``http``/``https`` address of a folder: a host, no query or fragment (page paths
    are appended to it), no whitespace, control characters, quotes or angle brackets.

    Returns:
        a short reason (e.g. ``"no host"``), or ``None``.
    """
    if not isinstance(url, str):
        return "not text"
    bad = _UNSAFE.search(url)
    if bad:
        return f"it holds {bad.group()!r}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as exc:
        return str(exc)
    if parts.scheme not in ("http", "https"):
        return "not http or https"
    if not parts.hostname:
        return "no host"
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        return "a query or fragment, where page paths are appended"
    return None
