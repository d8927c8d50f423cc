"""Cards, ranks, suits and card codes.

A card is an immutable value: a natural card has a rank and a suit, the joker
has neither. Card codes are the ones docs/site.md fixes for case files: rank
``A 2 3 4 5 6 7 8 9 10 J Q K`` (``T`` also means 10) followed by suit
``C D H S`` (``♣ ♦ ♥ ♠`` also accepted), case-insensitive; ``JK`` is the joker.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass


class CardCodeError(ValueError):
    """A card code that names no card (e.g. ``"1H"``, ``"QX"``, ``""``).

    Attributes:
        part: what is wrong: ``"rank"``, ``"suit"``, or ``"code"`` (too short to be
            a rank and a suit).
    """

    def __init__(self, message: str, part: str = "code") -> None:
        super().__init__(message)
        self.part = part


class Suit(enum.Enum):
    """The four French suits; the value is the one-letter code used in case files."""

    CLUBS = "C"
    """Clubs (♣), black."""
    DIAMONDS = "D"
    """Diamonds (♦), red."""
    HEARTS = "H"
    """Hearts (♥), red."""
    SPADES = "S"
    """Spades (♠), black."""

    @property
    def symbol(self) -> str:
        """The suit symbol: ``♣ ♦ ♥ ♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in _RED_SUITS


_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_RED_SUITS = frozenset((Suit.HEARTS, Suit.DIAMONDS))
"""The red suits (a set: each member named on the class is a lookup of its own, which a
page of card tables makes about a million times)."""


class Rank(enum.IntEnum):
    """The thirteen ranks; the value is the rank's place with the ace low (1) to king (13)."""

    ACE = 1
    """Ace: low before the two or high after the king (docs/rules.md, Melds)."""
    TWO = 2
    """Two."""
    THREE = 3
    """Three."""
    FOUR = 4
    """Four."""
    FIVE = 5
    """Five."""
    SIX = 6
    """Six."""
    SEVEN = 7
    """Seven."""
    EIGHT = 8
    """Eight."""
    NINE = 9
    """Nine."""
    TEN = 10
    """Ten."""
    JACK = 11
    """Jack."""
    QUEEN = 12
    """Queen."""
    KING = 13
    """King."""

    @property
    def code(self) -> str:
        """The rank's code in card codes: ``A 2 … 10 J Q K``."""
        return _RANK_CODES[self]


_RANK_CODES = {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    **{Rank(n): str(n) for n in range(2, 11)},
}
_RANK_BY_CODE = {code: rank for rank, code in _RANK_CODES.items()}
_RANK_BY_CODE["T"] = Rank.TEN
_SUIT_BY_CODE = {s.value: s for s in Suit}
_SUIT_BY_CODE.update({sym: s for s, sym in _SUIT_SYMBOLS.items()})


@dataclass(frozen=True, order=True)
class Card:
    """One card: a natural card (``rank`` and ``suit`` set) or the joker (both ``None``).

    Cards compare by value: two queens of hearts from different decks are equal.
    Use :func:`parse_card` to read a card code and :attr:`code` to write one.
    """

    rank: Rank | None
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("a card has both a rank and a suit, or neither (the joker)")

    @property
    def is_joker(self) -> bool:
        """True for the joker."""
        return self.rank is None

    @property
    def code(self) -> str:
        """The canonical card code, e.g. ``"QH"``, ``"10S"``, ``"JK"``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.code + self.suit.value

    @property
    def label(self) -> str:
        """Rank code and suit symbol, e.g. ``"Q♥"``, ``"10♠"``; ``"JK"`` for the joker."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.code + self.suit.symbol

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card({self.code})"


JOKER = Card(None, None)
"""The joker (Rami only)."""


def card(rank: Rank, suit: Suit) -> Card:
    """Return the natural card of ``rank`` and ``suit``."""
    return Card(rank, suit)


NATURAL_EXPECTED = "a rank (A 2-10 J Q K, T for 10) and a suit (C D H S or ♣ ♦ ♥ ♠)"
"""What a natural card's code is, as messages say after "expected"."""

CODE_EXPECTED = f"{NATURAL_EXPECTED}, or JK"
"""What a card code is, as messages say after "expected"."""


def parse_card(code: str) -> Card:
    """Read one card code.

    Args:
        code: e.g. ``"QH"``, ``"10s"``, ``"TS"``, ``"Q♥"``, ``"jk"``.

    Returns:
        The card.

    Raises:
        CardCodeError: the code names no card; the message says what was expected.
    """
    return _parsed_card(code)


@functools.lru_cache(maxsize=1024)
def _parsed_card(code: str) -> Card:
    """:func:`parse_card`, remembered: a project writes the same few dozen codes
    thousands of times (a code that names no card raises again each time)."""
    text = code.strip().replace("\ufe0f", "").replace("\ufe0e", "")  # ♥️ → ♥
    upper = "".join(ch.upper() if ch.isascii() else ch for ch in text)  # "ſ" is no "S"
    if upper == "JK":
        return JOKER
    if len(upper) < 2:
        raise CardCodeError(f"unknown card {code!r}; expected {CODE_EXPECTED}")
    rank = _RANK_BY_CODE.get(upper[:-1])
    suit = _SUIT_BY_CODE.get(upper[-1])
    if rank is None or suit is None:
        what = "rank" if rank is None else "suit"
        raise CardCodeError(f"unknown card {code!r} (bad {what}); expected {CODE_EXPECTED}",
                            what)
    return Card(rank, suit)


_PRESENTATION = "\ufe0e\ufe0f"
"""The variation selectors a code may hold anywhere (text and emoji presentation: an
author's ``♥️``); :func:`parse_card` drops them."""


def _escaped(char: str) -> str:
    """``char`` as a regular expression writes it in both Python and ECMA-262 syntax: a
    letter or digit as it is, anything else as ``\\uXXXX`` (the suit symbols too, so that
    the pattern is ASCII)."""
    return char if char.isascii() and char.isalnum() else f"\\u{ord(char):04X}"


def _code_expression(codes: list[str]) -> str:
    """A regular expression matching exactly the texts :func:`parse_card` takes for the
    canonical ``codes`` (each ASCII letter in either case, a variation selector before
    and after every character), as an alternation; one-character codes share a class."""
    selectors = "[" + "".join(map(_escaped, _PRESENTATION)) + "]*"
    single = sorted({variant for code in codes if len(code) == 1
                     for variant in ({code.upper(), code.lower()} if code.isascii() else {code})})
    alternatives = ["[" + "".join(map(_escaped, single)) + "]"] if single else []
    for code in sorted(c for c in codes if len(c) > 1):
        alternatives.append(selectors.join(
            f"[{ch.upper()}{ch.lower()}]" if ch.isascii() and ch.isalpha()
            else _escaped(ch) for ch in code))
    return "(?:" + "|".join(alternatives) + ")"


def code_pattern(*, joker: bool = True) -> str:
    """A regular expression of one card code, as :func:`parse_card` reads it: a rank code
    and a suit code (ASCII letters in either case, ``♣ ♦ ♥ ♠`` as suits), or ``JK`` when
    ``joker``; a variation selector (``♥️``) may stand before or after any character. It
    is not anchored and holds no surrounding spaces, and its syntax means the same in
    Python's :mod:`re` and in ECMA-262 (the JSON Schema ``pattern`` of editors).

    Args:
        joker: whether ``JK`` (the joker) is a code here.

    Returns:
        The expression's source, e.g. ``(?:[…]*(?:[23456789AJKQTajkqt]|1[…]*0)…)``.
    """
    selectors = "[" + "".join(map(_escaped, _PRESENTATION)) + "]*"
    natural = (_code_expression(list(_RANK_BY_CODE)) + selectors
               + _code_expression(list(_SUIT_BY_CODE)))
    body = f"(?:{natural}|{_code_expression([JOKER.code])})" if joker else natural
    return f"{selectors}{body}{selectors}"


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read a space-separated list of card codes, e.g. ``"QH KH AH"``.

    Raises:
        CardCodeError: for the first code that names no card.
    """
    return tuple(parse_card(part) for part in text.split())


def all_cards() -> tuple[Card, ...]:
    """The 52 natural cards, by suit (♣ ♦ ♥ ♠) then rank (A to K), then the joker: 53 cards."""
    return (*(Card(r, s) for s in Suit for r in Rank), JOKER)
