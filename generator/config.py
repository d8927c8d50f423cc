"""The project's optional settings file, ``site.yaml`` (as MkDocs has ``mkdocs.yml``).

    site_url: https://rules.example.org/   # where the site is published

``site_url`` makes the ``hreflang`` alternates absolute and turns on ``sitemap.xml``
(whose addresses must be absolute). Every other key is an input error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.errors import InputError

CONFIG = "site.yaml"
KEYS = ("site_url",)


@dataclass(frozen=True)
class Config:
    """The settings.

    Attributes:
        site_url: the published site's address, ending in ``/``; ``None`` when not set.
    """

    site_url: str | None = None


def load_config(project: Path) -> tuple[Config, list[InputError]]:
    """Read ``site.yaml`` if there is one.

    Returns:
        (the settings, the input errors: not YAML, not a mapping, an unknown key, a
        ``site_url`` that is not an http(s) address).
    """
    path = project / CONFIG
    if not path.exists():
        return Config(), []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError) as exc:
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
    errors = [InputError(CONFIG, 1, None, f"unknown setting {key!r}; expected one of: "
                         + ", ".join(KEYS)) for key in data if key not in KEYS]
    url = data.get("site_url")
    if url is not None and (not isinstance(url, str)
                            or not url.startswith(("http://", "https://"))):
        errors.append(InputError(CONFIG, 1, None, f"site_url {url!r} is not a web address; "
                                 "expected e.g. https://rules.example.org/"))
        url = None
    if isinstance(url, str) and not url.endswith("/"):
        url += "/"
    return Config(url), errors
