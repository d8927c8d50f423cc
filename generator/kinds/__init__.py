"""The case kinds: one module each, and :data:`REGISTRY` in display order.

As markdown-it-py lists its rules, this package lists its kinds; everything above it
(the loader, the schema, ``verify``, the rows and the templates) loops over the registry
or asks :data:`KINDS` by name, and never asks which kind a case is. A new kind is a
module here (a :class:`~generator.kinds.base.Kind` subclass and its ``KIND``), one line
in :data:`BUILT_IN`, its template ``generator/theme/kinds/<kind>.html`` and its messages.
A project adds a kind of its own without editing the package: by a call,
:func:`register_kind`, or by an entry point of group ``rules_site.kinds``
(:mod:`generator.kinds.registry`).
"""

from __future__ import annotations

from generator.kinds import best_opening
from generator.kinds import deck
from generator.kinds import first_meld
from generator.kinds import hand
from generator.kinds import hand_size
from generator.kinds import joker_swap
from generator.kinds import layoff
from generator.kinds import meld
from generator.kinds import round
from generator.kinds import scenario
from generator.kinds.base import Kind
from generator.kinds.registry import KINDS
from generator.kinds.registry import REGISTRY
from generator.kinds.registry import AnyKind
from generator.kinds.registry import kinds
from generator.kinds.registry import load_entry_points
from generator.kinds.registry import register_kind
from generator.kinds.registry import unregister_kind

BUILT_IN: tuple[AnyKind, ...] = (
    meld.KIND,
    first_meld.KIND,
    deck.KIND,
    hand.KIND,
    layoff.KIND,
    joker_swap.KIND,
    round.KIND,
    best_opening.KIND,
    scenario.KIND,
    hand_size.KIND,
)
"""The package's kinds, in the order messages list them (before any a project adds)."""

for _kind in BUILT_IN:
    register_kind(_kind)

__all__ = ["BUILT_IN", "KINDS", "REGISTRY", "AnyKind", "Kind", "kinds", "load_entry_points",
           "register_kind", "unregister_kind"]
