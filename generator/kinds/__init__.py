"""The case kinds: one module each, and :data:`REGISTRY` in display order.

As markdown-it-py lists its rules, this package lists its kinds; everything above it
(the loader, the schema, ``verify``, the rows and the templates) loops over the registry
or asks :data:`KINDS` by name, and never asks which kind a case is. A new kind is a
module here (a :class:`~generator.kinds.base.Kind` subclass and its ``KIND``), one line
in :data:`REGISTRY`, its template ``generator/theme/kinds/<kind>.html`` and its messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

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

AnyKind = Kind[Any, Any]
"""A kind of any inputs and result."""

REGISTRY: tuple[AnyKind, ...] = (
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
"""Every kind, in the order messages list them."""

KINDS: Mapping[str, AnyKind] = MappingProxyType({kind.name: kind for kind in REGISTRY})
"""The kinds by name (``KINDS["meld"]``)."""

__all__ = ["KINDS", "REGISTRY", "AnyKind", "Kind"]
