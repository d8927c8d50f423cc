"""The registry of case kinds, open to a project's own: a kind is registered by a call
(:func:`register_kind`) or by an installed distribution's entry point (group
``rules_site.kinds``, :mod:`generator.extensions`), as markdown-it-py's ``use(plugin)``
adds rules from outside the package.

The entry points of both registries, the kinds' and the games'
(:func:`generator.engine.rules.games`), are loaded once, the first time either is read
(:func:`load_entry_points`): a command that reads neither (a build with nothing changed)
does not look for them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any
from typing import overload

from generator import extensions
from generator.engine import rules
from generator.engine.rules import GameSpec
from generator.kinds.base import Kind

AnyKind = Kind[Any, Any]
"""A kind of any inputs and result."""

_NAME = re.compile(r"[a-z][a-z0-9_]*")

_kinds: tuple[AnyKind, ...] = ()
"""The kinds, in the order messages list them; replaced whole on every change."""

_loaded = False
"""Whether the entry points have been loaded (:func:`load_entry_points`)."""


def register_kind(kind: AnyKind, *, installed: bool = False) -> None:
    """Add ``kind`` to the registry, after the kinds there (messages list it last).

    Its template is ``kinds/<name>.html``, in the theme or in a project's ``templates/``
    (:meth:`Kind.template`); its fields name the games it applies to.

    Args:
        kind: an instance of a :class:`~generator.kinds.base.Kind` subclass.
        installed: whether an installed distribution's entry point registers it (its
            files key the build cache); otherwise a kind from outside the package is
            keyed by its class and its module's file
            (:func:`generator.engine.rules.outside_identity`).

    Raises:
        ValueError: not a kind, a name that is not lowercase letters, digits and ``_``,
            or a name registered already.
    """
    if not isinstance(kind, Kind):
        raise ValueError(f"{type(kind).__name__} is not a kind; expected an instance of a "
                         "generator.kinds.base.Kind subclass")
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"kind name {name!r}; expected lowercase letters, digits and _")
    if any(other.name == name for other in _kinds):
        raise ValueError(f"kind {name!r} is registered already; expected a new name")
    outside = not installed and not type(kind).__module__.startswith("generator.")
    if outside:
        _replace((*_kinds, kind), f"kind:{name}", _identity(kind))
    else:
        _replace((*_kinds, kind))


def _identity(kind: AnyKind) -> str:
    """The kind's class and its module's file (path, size and time of change); the
    object's id where the module has no file (a new process never shares it)."""
    cls = type(kind)
    file = getattr(sys.modules.get(cls.__module__), "__file__", None)
    try:
        info = os.stat(file) if file else None
    except OSError:
        info = None
    where = f"{file}:{info.st_size}:{info.st_mtime_ns}" if info else f"object {id(kind)}"
    return f"{cls.__module__}.{cls.__qualname__} {where}"


def unregister_kind(name: str) -> AnyKind:
    """Remove the kind ``name`` from the registry and return it.

    Raises:
        KeyError: no kind has that name.
    """
    kind = KINDS[name]
    _replace(tuple(other for other in _kinds if other is not kind), f"kind:{name}", None)
    return kind


def kinds() -> tuple[AnyKind, ...]:
    """The registered kinds, in the order messages list them, the entry points' included."""
    if not _loaded:
        load_entry_points()
    return _kinds


def load_entry_points() -> None:
    """Register the games and the kinds of every installed distribution's entry points
    (:data:`generator.extensions.GAME_GROUP`, then :data:`~generator.extensions.KIND_GROUP`),
    once; a later call does nothing.

    Raises:
        generator.extensions.ExtensionError: an entry point cannot be taken (it is not
            loaded again).
    """
    global _loaded
    if _loaded:
        return
    _loaded = True
    extensions.load(extensions.GAME_GROUP, GameSpec, "a generator.engine.rules.GameSpec",
                    lambda spec: rules.register_game(spec, installed=True),
                    lambda spec: spec.id)
    extensions.load(extensions.KIND_GROUP, Kind, "a generator.kinds.base.Kind instance",
                    lambda kind: register_kind(kind, installed=True),
                    lambda kind: str(kind.name))


def _replace(registry: tuple[AnyKind, ...], name: str | None = None,
             identity: str | None = None) -> None:
    """Make ``registry`` the kinds (``name``, ``identity``: as
    :func:`generator.engine.rules.registry_changed` takes them)."""
    global _kinds
    _kinds = registry
    rules.registry_changed(name, identity)


class _Registry(Sequence[AnyKind]):
    """The registered kinds as a sequence that follows the registry (:data:`REGISTRY`)."""

    @overload
    def __getitem__(self, index: int) -> AnyKind: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[AnyKind, ...]: ...

    def __getitem__(self, index: int | slice) -> AnyKind | tuple[AnyKind, ...]:
        return kinds()[index]

    def __len__(self) -> int:
        return len(kinds())

    def __iter__(self) -> Iterator[AnyKind]:
        return iter(kinds())

    def __repr__(self) -> str:
        return repr(kinds())


class _ByName(Mapping[str, AnyKind]):
    """The registered kinds by name, following the registry (:data:`KINDS`)."""

    def __init__(self) -> None:
        self._made: tuple[tuple[AnyKind, ...], dict[str, AnyKind]] = ((), {})

    def _names(self) -> dict[str, AnyKind]:
        registry = kinds()
        if self._made[0] is not registry:
            self._made = (registry, {kind.name: kind for kind in registry})
        return self._made[1]

    def __getitem__(self, name: str) -> AnyKind:
        return self._names()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return repr(self._names())


REGISTRY: Sequence[AnyKind] = _Registry()
"""Every kind, in the order messages list them: the built-in ones, then those registered
by a call or an entry point."""

KINDS: Mapping[str, AnyKind] = _ByName()
"""The kinds by name (``KINDS["meld"]``), following :data:`REGISTRY`."""

rules.load_before_use(load_entry_points)
