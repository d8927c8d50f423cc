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

from generator.errors import InputError
from generator.layout import CONFIG
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.yamlpos import describe
from generator.yamlpos import parse_yaml

KEYS = ("site_url",)

MAX_CONFIG_BYTES = 100_000
"""The largest ``site.yaml`` read, in bytes: one setting takes a line (a larger file is
an input error, never read whole)."""


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
        (the settings, the input errors: not YAML (read as case files are: a syntax
        error, a duplicate key, nesting or aliases beyond their limits, each at its
        position), not a mapping, an unknown key, a ``site_url`` that is not an
        http(s) address).
    """
    layout = Layout.of(project)
    if not layout.exists(CONFIG):
        return Config(), []
    try:
        text = layout.read(CONFIG, limit=MAX_CONFIG_BYTES, what="settings file",
                           advice="keep only the settings").decode("utf-8")
        text = text.removeprefix("\ufeff")
    except NotAnInput as exc:
        return Config(), [exc.error]
    except UnicodeDecodeError as exc:
        return Config(), [InputError(CONFIG, 1, None, f"cannot read the settings: {exc}; "
                                     "expected UTF-8 YAML")]
    doc, errors = parse_yaml(text, CONFIG)  # positions, and the guards case files have
    if doc is None:
        return Config(), errors
    data = {} if doc.value is None else doc.value
    if not isinstance(data, dict):
        return Config(), [InputError(CONFIG, 1, None, "the settings are not a mapping; "
                                     "expected 'site_url: https://…/'")]
    errors += [InputError(CONFIG, doc.key_mark((key,)).line, None, f"unknown setting "
                          f"{key!r}; expected one of: " + ", ".join(KEYS))
               for key in data if key not in KEYS]
    url = data.get("site_url")
    problem = None if url is None else site_url_problem(url)
    if problem is not None:
        shown = repr(url) if isinstance(url, (str, int, float)) else describe(url)
        errors.append(InputError(CONFIG, doc.key_mark(("site_url",)).line, None,
                                 f"site_url {shown} is not a web address ({problem}); "
                                 "expected the absolute http(s) address of the site's root "
                                 "folder, e.g. https://rules.example.org/"))
        url = None
    if isinstance(url, str) and not url.endswith("/"):
        url += "/"
    return Config(url), errors


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
