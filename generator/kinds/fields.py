"""Field shapes of case files: :class:`FieldSpec` and the JSON Schema pieces kinds use.

A kind module (:mod:`generator.kinds`) states its input and ``expect`` fields with these,
each with the games it applies to; :mod:`generator.cases.schema` builds the case-file
schema from them, and the loader reads card fields by their :data:`Shape`. Schema nodes
carry ``x-`` annotations (``x-what``, ``x-expected``, ``x-example``, ``x-messages``) that
the schema module turns into messages ``what is wrong; what was expected``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from typing import Literal
from typing import TypeAlias

from generator.engine.codes import Game
from generator.engine.rules import GAMES
from generator.engine.rules import GAMES_WITH_OPTIONS
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import rule_set

Schema: TypeAlias = dict[str, Any]
"""A JSON Schema (or a part of one) as a dict."""

RAMI_GAMES: tuple[Game, ...] = GAMES_WITH_PRESETS
"""The games played under a preset (``rami40``, ``rami51``)."""

OPENING_GAMES: tuple[Game, ...] = tuple(
    game for game in GAMES if rule_set(game).opening_threshold is not None)
"""The games with an opening (``rami40``, ``rami51``)."""

OPTION_GAMES: tuple[Game, ...] = GAMES_WITH_OPTIONS
"""The games that take options (``cardverse``)."""

Shape = Literal["value", "card", "cards", "melds", "hands"]
"""How the loader reads a field: as is, as one card code, as a card list, as a list of
card lists (``melds``: none empty; ``hands``: an empty one is a seat that went out)."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a case.

    Attributes:
        schema: the JSON Schema of its value (with ``x-`` annotations for messages).
        games: the games the field applies to; elsewhere it is an input error.
        shape: ``"card"`` for one card code, ``"cards"`` for a card list, ``"melds"``
            and ``"hands"`` for a list of card lists (the loader parses the codes),
            ``"value"`` otherwise.
        note: added to the "does not apply to game" message, e.g.
            ``" (cardverse has options: ace_high, discard_to_win)"``.
        required: an input field the kind needs (``False``: optional, e.g. ``opened``).
    """

    schema: Schema
    games: tuple[str, ...] = GAMES
    shape: Shape = "value"
    note: str = ""
    required: bool = True


INTEGER = "a plain decimal integer"
"""What a number field expects (docs: "numbers in case files")."""


def string(what: str, *, empty: str | None = None, example: str | None = None) -> Schema:
    """A string; ``empty``: what to write instead of an empty one (then it must not be)."""
    schema: Schema = {"type": "string", "x-what": what, "x-expected": "a string"}
    if example is not None:
        schema["x-example"] = example
    if empty is not None:
        schema["minLength"] = 1
        schema["x-messages"] = {"minLength": f"{what} is empty; expected {empty}"}
    return schema


def enum(what: str, values: tuple[str, ...], *, context: str = "") -> Schema:
    """One of ``values``; ``context``: the kind named in its message (``for kind 'meld'``)."""
    schema: Schema = {"enum": list(values), "x-what": what}
    if context:
        schema["x-for"] = context
    return schema


def integer(what: str, *, minimum: int | None = 0, example: str | None = None) -> Schema:
    """A plain integer, at least ``minimum`` (none: any)."""
    schema: Schema = {"type": "integer", "x-what": what, "x-expected": INTEGER}
    if example is not None:
        schema["x-example"] = example
    if minimum is not None:
        schema["minimum"] = minimum
    return schema


def card_list(what: str, *, may_be_empty: bool = False) -> Schema:
    """A list of card codes, or one string of codes separated by spaces."""
    schema: Schema = {
        "type": ["array", "string"],
        "x-what": what,
        "x-expected": "a list of card codes or one string of codes separated by spaces "
        "(e.g. \"QH KH AH\")",
        "x-example": "<card codes, e.g. QH KH AH>",
        "items": {"type": "string", "x-what": "card", "x-expected": "a card code such as QH"},
    }
    if not may_be_empty:
        schema["minItems"] = 1
        schema["x-messages"] = {"minItems": f"{what} is empty; expected at least one card"}
    return schema


def card(what: str, expected: str) -> Schema:
    """One card code."""
    return {"type": "string", "x-what": what, "x-expected": expected,
            "x-example": "<a card code, e.g. 6S>"}


def hand_list(what: str) -> Schema:
    """One card list per seat (an empty one: the seat went out)."""
    return {
        "type": "array",
        "x-what": what,
        "x-expected": "a list of hands, one per seat in seat order, each a list of card "
        "codes or a string of codes ([] for a seat that went out)",
        "x-example": "<one card list per seat, seat 1 first, e.g. [5C 6C, [], JK AH]>",
        "items": card_list("hand", may_be_empty=True),
    }


def boolean(what: str) -> Schema:
    """``true`` or ``false``."""
    return {"type": "boolean", "x-what": what, "x-expected": "true or false"}


def integer_list(what: str, item: str) -> Schema:
    """A list of integers, one per seat."""
    return {
        "type": "array",
        "x-what": what,
        "x-expected": "a list of integers, one per seat (e.g. [0, 35])",
        "items": integer(item),
    }


def meld_list(what: str) -> Schema:
    """A non-empty list of melds, each a card list."""
    return {
        "type": "array",
        "x-what": what,
        "x-expected": "a list of melds, each a list of card codes or a string of codes",
        "x-example": "<a list of card lists, e.g. [QH KH AH, JK 7S 8S]>",
        "items": card_list("meld"),
        "minItems": 1,
        "x-messages": {"minItems": f"{what} is empty; expected at least one meld"},
    }


CARDS = FieldSpec(card_list("cards"), shape="cards")
"""``cards``: a card list (a meld, a hand, the cards laid off)."""

TABLE_MELD = FieldSpec(card_list("meld"), shape="cards")
"""``meld``: the meld on the table (a lay-off, a joker swap)."""

OPENED = FieldSpec(boolean("opened"), games=RAMI_GAMES, note=" (cardverse has no opening)",
                   required=False)
"""``opened`` (Rami: whether the player has opened; true when not given)."""

RAMI_POINTS = FieldSpec(integer("points"), games=RAMI_GAMES,
                        note=" (cardverse melds have no points)")
"""``expect.points`` of a meld or a lay-off: Rami only."""

POINTS = FieldSpec(integer("points"))
"""``expect.points`` in every game the kind applies to."""


def verdict(kind: str, *codes: str) -> FieldSpec:
    """``expect.verdict`` of ``kind``: one of ``codes``."""
    return FieldSpec(enum("verdict", codes, context=kind))


def reason(kind: str, codes: tuple[str, ...]) -> FieldSpec:
    """``expect.reason`` of ``kind``: one of ``codes``."""
    return FieldSpec(enum("reason", codes, context=kind))


ArgumentShape = Literal["cards", "card lists", "card", "integer", "boolean"]
"""How ``explain`` reads a command-line input: ``cards`` one card list (the words given,
joined by spaces), ``card lists`` one card list per word (``-`` or ``""`` an empty one),
``card`` one card code, ``integer`` a plain decimal integer, ``boolean`` ``true`` or
``false``."""


@dataclass(frozen=True)
class Argument:
    """A kind's input as ``python -m generator explain`` takes it on the command line
    (docs/site.md, "explain"); the same flag means the same in every kind.

    Attributes:
        field: the input field it fills (``"cards"``).
        flag: ``--players``; ``""`` for the positional ``CARDS...``.
        shape: how the words given are read (:data:`ArgumentShape`).
        help: what it is, for ``--help``.
        metavar: its value's name in ``--help``.
    """

    field: str
    flag: str
    shape: ArgumentShape
    help: str
    metavar: str = "CARDS"

    @property
    def name(self) -> str:
        """How messages name it: ``--players``, ``CARDS``."""
        return self.flag or f"{self.metavar}..."


CARDS_ARGUMENT = Argument("cards", "", "cards", "the cards, as codes (QH KH AH)")
"""``cards`` as the positional ``CARDS...``."""

MELDS_ARGUMENT = Argument("melds", "--melds", "card lists",
                          "the melds laid together, one quoted card list each "
                          "(\"QH KH AH\" \"JK 7S 8S\")")
"""``melds``: one word per meld."""

TABLE_MELD_ARGUMENT = Argument("meld", "--meld", "cards",
                               "the meld on the table, one quoted card list (\"JK 7S 8S\")")
"""``meld``: the meld on the table (a lay-off, a joker swap)."""

CARD_ARGUMENT = Argument("card", "--card", "card",
                         "the card put in the joker's place (6S)", metavar="CARD")
"""``card``: one card code."""

OPENED_ARGUMENT = Argument("opened", "--opened", "boolean",
                           "whether the player has opened (Rami; default true)",
                           metavar="true|false")
"""``opened``: a flag."""

PLAYERS_ARGUMENT = Argument("players", "--players", "integer", "the number of players",
                            metavar="N")
"""``players``: a player count."""

HANDS_ARGUMENT = Argument("hands", "--hands", "card lists",
                          "the cards left per seat, seat 1 first, one quoted card list "
                          "each (- for the seat that went out)")
"""``hands``: one word per seat."""


def frozen(specs: dict[str, FieldSpec]) -> Mapping[str, FieldSpec]:
    """A kind's fields, read-only, in the order given (the order messages list them)."""
    return MappingProxyType(specs)
