"""Numbers written for a locale (Babel)."""

from __future__ import annotations

from functools import lru_cache

from babel.numbers import format_decimal as _format_decimal


@lru_cache(maxsize=4096)
def format_decimal(number: int, locale: str) -> str:
    """``number`` written for ``locale`` (Babel: ``1 000`` in Czech), cached: the same few
    numbers recur on every page."""
    return str(_format_decimal(number, locale=locale))
