"""The YAML loader :mod:`generator.yamlpos` composes with (:data:`FAST_LOADER`): libyaml's
safe loader with the tag of each short scalar remembered, or the pure-Python safe loader
where PyYAML was built without libyaml; the tag a plain scalar has without a tag
(:func:`implicit_tag`)."""

from __future__ import annotations

from typing import Any

import yaml

_RESOLVED: dict[tuple[str, tuple[bool, ...]], str] = {}
"""The tag YAML 1.1 resolves a short plain or quoted scalar to, by its text and
implicitness (:class:`Resolving`)."""
RESOLVED_LIMIT = 4096
"""The most tags :class:`Resolving` remembers (a process's; most projects use a few
hundred short values)."""
RESOLVED_LONGEST = 32
"""The longest scalar (characters) whose tag is remembered: keys, card codes, numbers
and words, not titles and notes."""


class Resolving(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's safe loader, the tag of each short scalar remembered: its composer
    asks the resolver (Python, a regular expression per candidate tag) for every
    scalar, and a case file repeats the same keys and card codes thousands of times.
    The safe loader resolves no path (no ``add_path_resolver``), so a scalar's tag
    depends on its text and implicitness alone."""

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: Any) -> str:
        """The tag of a node of ``kind`` and ``value`` (PyYAML's ``resolve``)."""
        if kind is not yaml.ScalarNode or len(value) > RESOLVED_LONGEST:
            return str(super().resolve(kind, value, implicit))
        key = (value, tuple(implicit))
        tag = _RESOLVED.get(key)
        if tag is None:
            tag = str(super().resolve(kind, value, implicit))
            if len(_RESOLVED) < RESOLVED_LIMIT:
                _RESOLVED[key] = tag
        return tag


FAST_LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = (
    Resolving if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader)
"""The loader :mod:`generator.yamlpos` composes a YAML file with."""

_PLAIN = yaml.resolver.Resolver()


def implicit_tag(value: str) -> str:
    """The tag YAML 1.1 gives ``value`` written plain, without a tag (``"31"``: int;
    ``"2024-13-45"``: timestamp, though it is no date)."""
    return str(_PLAIN.resolve(yaml.ScalarNode, value, (True, False)))  # type: ignore[no-untyped-call]
