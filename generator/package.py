"""The released package as a site sees it: its distribution name on PyPI, its installed
version and its repository's address.

The address has one home, ``[project.urls]`` in ``pyproject.toml``; it reaches the
installed package as the distribution's ``Project-URL`` metadata (``Repository, https://…``),
which this module reads (:mod:`importlib.metadata`). ``init`` writes a new site's
workflow (``pip install rules-site-generator==VERSION``) and its pre-commit
configuration (``repo: ADDRESS``, ``rev: vVERSION``) from these.
"""

from __future__ import annotations

from importlib import metadata

from generator import __version__

DISTRIBUTION = "rules-site-generator"
"""The distribution's name on PyPI (``pip install rules-site-generator``)."""


def version() -> str:
    """The installed distribution's version, e.g. ``"0.2.0"``.

    Returns:
        The version in the installed metadata; :data:`generator.__version__` when the
        distribution is not installed (the package imported from a source tree), which
        is the value the metadata is built from.
    """
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return __version__


def project_urls() -> dict[str, str]:
    """The installed distribution's ``Project-URL`` entries, label to address.

    Returns:
        For example ``{"Homepage": "https://…", "Repository": "https://…", ...}``, the
        labels as ``[project.urls]`` in ``pyproject.toml`` spells them; empty when the
        distribution is not installed or names no address.
    """
    try:
        entries = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return {}
    urls: dict[str, str] = {}
    for entry in entries:
        label, _, address = str(entry).partition(",")
        if address.strip():
            urls[label.strip()] = address.strip()
    return urls


def repository_url() -> str | None:
    """The address of the generator's source repository (``Repository`` in
    ``[project.urls]``), e.g. ``"https://github.com/OWNER/rules-site-generator"``; a
    site's ``.pre-commit-config.yaml`` names it as ``repo:``.

    Returns:
        The address, without a trailing slash; ``None`` when the distribution is not
        installed or its metadata names no ``Repository``.
    """
    address = project_urls().get("Repository")
    return address.rstrip("/") if address else None
