"""What installed distributions add to the generator's registries through entry points
(docs/site.md, "Extensions").

A distribution names its case kinds in the entry-point group ``rules_site.kinds`` and its
games in ``rules_site.games``, as pytest finds its plugins (``pytest11``) and Babel its
extractors::

    [project.entry-points."rules_site.kinds"]
    tally = "tally_kind:KIND"        # a generator.kinds.base.Kind instance

    [project.entry-points."rules_site.games"]
    rami60 = "rami60_game:GAME"      # a generator.engine.rules.GameSpec

The entry point's name is the kind's name (the game's id). The registries load each group
once, the first time they are read (:mod:`generator.kinds.registry`); this module only
finds and imports the entry points, and names the one at fault when one cannot be taken
(:class:`ExtensionError`). It imports nothing of the generator, so that the command line
can catch that error without importing the registries.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from typing import TypeVar

KIND_GROUP = "rules_site.kinds"
"""The entry-point group of case kinds: each a ``Kind`` instance, named by its name."""

GAME_GROUP = "rules_site.games"
"""The entry-point group of games: each a ``GameSpec``, named by its id."""

_T = TypeVar("_T")


class ExtensionError(Exception):
    """An entry point that cannot be taken: it does not import, it is not of the type its
    group holds, or its registration is refused (a name taken). The message names the
    distribution, the group and the entry point, what is wrong and what was expected."""


def origin(entry: metadata.EntryPoint) -> str:
    """Where ``entry`` comes from, for a message: ``entry point tally = tally_kind:KIND
    (group rules_site.kinds) of distribution tally-kind 1.0``."""
    dist = entry.dist
    named = f"{dist.name} {dist.version}" if dist is not None else "(unknown)"
    return (f"entry point {entry.name} = {entry.value} (group {entry.group}) of "
            f"distribution {named}")


def installed() -> tuple[metadata.EntryPoint, ...]:
    """The entry points of both groups that the installed distributions give now, games
    first."""
    found = metadata.entry_points()  # one scan of the installed distributions
    return (*found.select(group=GAME_GROUP), *found.select(group=KIND_GROUP))


def load(group: str, kind: type[_T], what: str, register: Callable[[_T], None],
         name_of: Callable[[_T], str]) -> None:
    """Import every entry point of ``group`` and register what it names, in the order
    the installed distributions list them.

    Args:
        group: :data:`KIND_GROUP` or :data:`GAME_GROUP`.
        kind: the type each entry point's object must have.
        what: that type as a message names it (``"a generator.kinds.base.Kind
            instance"``).
        register: registers one object; a ``ValueError`` it raises is the entry point's
            fault.
        name_of: the name the object is registered under, which the entry point's name
            must be.

    Raises:
        ExtensionError: an entry point does not import, names an object of another type
            or another name, or ``register`` refuses it.
    """
    for entry in metadata.entry_points(group=group):
        try:
            value = entry.load()
        except (Exception, SystemExit) as exc:  # whatever the import raises, an exit too
            expected = ("a module installed with the distribution"
                        if isinstance(exc, ImportError)
                        else "a module that imports without an error")
            raise ExtensionError(
                f"{origin(entry)}: cannot be imported: {type(exc).__name__}: {exc}; "
                f"expected {expected}") from None
        if not isinstance(value, kind):
            raise ExtensionError(f"{origin(entry)}: is {type(value).__name__}; expected {what}")
        if name_of(value) != entry.name:
            raise ExtensionError(f"{origin(entry)}: names {name_of(value)!r}; expected the "
                                 f"entry point's name, {entry.name!r}")
        try:
            register(value)
        except ValueError as exc:
            raise ExtensionError(f"{origin(entry)}: {exc}") from None
