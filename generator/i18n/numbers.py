"""Numbers written for a locale (Babel)."""

from __future__ import annotations

from functools import lru_cache

from babel.lists import format_list as _format_list
from babel.numbers import format_decimal as _format_decimal


@lru_cache(maxsize=4096)
def format_decimal(number: int, locale: str) -> str:
    """``number`` written for ``locale`` (Babel: ``1 000`` in Czech), cached: the same few
    numbers recur on every page."""
    return str(_format_decimal(number, locale=locale))


@lru_cache(maxsize=4096)
def format_list(items: tuple[str, ...], locale: str) -> str:
    """``items`` joined as ``locale`` joins a list (Babel's CLDR list patterns: "2 and 3",
    "2, 3 a 4"), cached: Babel reads the locale's data again on every call."""
    return str(_format_list(list(items), locale=locale))
