"""Field shapes of case files: :class:`FieldSpec` and the JSON Schema pieces kinds use.

A kind module (:mod:`generator.kinds`) states its input and ``expect`` fields with these,
each with the games it applies to; :mod:`generator.cases.schema` builds the case-file
schema from them, and the loader reads card fields by their :data:`Shape`. Schema nodes
carry ``x-`` annotations (``x-what``, ``x-expected``, ``x-example``, ``x-messages``) that
the schema module turns into messages ``what is wrong; what was expected``.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any
from typing import Literal
from typing import TypeAlias

from generator.engine.cards import code_pattern
from generator.engine.codes import Verdict
from generator.engine.rules import GAMES
from generator.engine.rules import GAMES_WITH_OPTIONS
from generator.engine.rules import GAMES_WITH_PRESETS
from generator.engine.rules import Live
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.errors import UNPRINTABLE
from generator.errors import or_list

Schema: TypeAlias = dict[str, Any]
"""A JSON Schema (or a part of one) as a dict."""

RAMI_GAMES: Sequence[str] = GAMES_WITH_PRESETS
"""The games played under a preset (``rami40``, ``rami51``), as the registry has them
now (:class:`generator.engine.rules.Live`)."""

OPENING_GAMES: Sequence[str] = Live(lambda specs: tuple(
    spec.id for spec in specs if spec.rules.opening_threshold is not None))
"""The games with an opening (``rami40``, ``rami51``)."""

OPTION_GAMES: Sequence[str] = GAMES_WITH_OPTIONS
"""The games that take options (``cardverse``)."""

Shape = Literal["value", "card", "cards", "melds", "hands", "within"]
"""How the loader reads a field: as is, as one card code, as a card list, as a list of
card lists (``melds``: none empty; ``hands``: an empty one is a seat that went out), or
as a structure with cards ``within`` it, where its schema marks them (``x-cards``:
:func:`card`, :func:`card_list`)."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a case.

    Attributes:
        schema: the JSON Schema of its value (with ``x-`` annotations for messages).
        games: the games the field applies to (a list the registry keeps current:
            :data:`RAMI_GAMES`, :data:`generator.engine.rules.GAMES`); elsewhere it is
            an input error.
        shape: ``"card"`` for one card code, ``"cards"`` for a card list, ``"melds"``
            and ``"hands"`` for a list of card lists, ``"within"`` for cards inside a
            structure (the loader parses the codes), ``"value"`` otherwise.
        in_play: an input field's cards are cards in play (counted against the decks
            and jokers of the game); ``False``: they name cards of the case that are
            counted elsewhere (a scenario's actions).
        note: added to the "does not apply to game" message, with ``{game}`` the game
            it is about, ``{options}`` its options and ``{presets}`` its presets
            (:meth:`note_for`): ``" ({game} has no opening)"``.
        required: an input field the kind needs (``False``: optional, e.g. ``opened``).
        verdicts: for an ``expect`` field, the verdicts with which the engine gives it
            (a meld's ``reason`` only with ``invalid``); empty: any verdict. Documented
            with another verdict it is a disagreement, which the editor schema
            (generator/cases/editor_schema.py) marks as the author types.
    """

    schema: Schema
    games: Sequence[str] = GAMES
    shape: Shape = "value"
    note: str = ""
    required: bool = True
    verdicts: tuple[str, ...] = ()
    in_play: bool = True

    def note_for(self, game: str) -> str:
        """:attr:`note` about ``game``: ``" (cardverse has no opening)"``."""
        return self.note.format(game=game, options=", ".join(options_of(game)),
                                presets=or_list(presets_of(game)))


INTEGER = "a plain decimal integer"
"""What a number field expects (docs: "numbers in case files")."""


def string(what: str, *, empty: str | None = None, example: str | None = None) -> Schema:
    """A string of text (``x-text``: printable, as every YAML scalar is checked to be);
    ``empty``: what to write instead of an empty one (then it must not be)."""
    schema: Schema = {"type": "string", "x-text": True, "x-what": what,
                      "x-expected": "a string"}
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


def not_here(message: str) -> Schema:
    """A field that must not be there, with the message saying why (``x-message``)."""
    return {"not": {}, "x-message": message}


def card_list(what: str, *, may_be_empty: bool = False) -> Schema:
    """A list of card codes, or one string of codes separated by spaces (``x-cards``:
    the loader reads the codes; the editor schema matches them with patterns)."""
    schema: Schema = {
        "type": ["array", "string"],
        "x-cards": "list",
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


def card(what: str, expected: str, *, natural: bool = False) -> Schema:
    """One card code; ``natural``: not the joker (``x-cards``, as :func:`card_list`)."""
    return {"type": "string", "x-cards": "natural card" if natural else "card",
            "x-what": what, "x-expected": expected, "x-example": "<a card code, e.g. 6S>"}


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

OPENED = FieldSpec(boolean("opened"), games=RAMI_GAMES, note=" ({game} has no opening)",
                   required=False)
"""``opened`` (Rami: whether the player has opened; true when not given)."""

RAMI_POINTS = FieldSpec(integer("points"), games=RAMI_GAMES,
                        note=" ({game} melds have no points)", verdicts=(Verdict.VALID,))
"""``expect.points`` of a meld or a lay-off: Rami only."""

POINTS = FieldSpec(integer("points"))
"""``expect.points`` in every game the kind applies to."""


def verdict(kind: str, *codes: str) -> FieldSpec:
    """``expect.verdict`` of ``kind``: one of ``codes``."""
    return FieldSpec(enum("verdict", codes, context=kind))


def reason(kind: str, codes: tuple[str, ...], *, verdict: str) -> FieldSpec:
    """``expect.reason`` of ``kind``: one of ``codes``, given with ``verdict`` only (the
    verdict that says no)."""
    return FieldSpec(enum("reason", codes, context=kind), verdicts=(verdict,))


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


# -- card lists as text, for patterns ---------------------------------------------------


def _class(test: Callable[[str], object]) -> str:
    """A regular expression's character class of the characters of the Basic
    Multilingual Plane that pass ``test``, as ``\\uXXXX`` escapes and ranges (the same
    in Python and ECMA-262 syntax)."""
    ranges: list[list[int]] = []
    for code in range(0x10000):
        if not test(chr(code)):
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "[" + "".join(f"\\u{low:04X}" + (f"-\\u{high:04X}" if high > low else "")
                         for low, high in ranges) + "]"


@cache
def _space() -> str:
    """The characters the loader takes as space between the codes of a card list
    (Python's ``\\s``, which splits it) and strips around one code: a character class
    (:func:`_class`; Unicode puts every such character in the Basic Multilingual Plane,
    U+3000 the last)."""
    return _class(str.isspace)


@cache
def text_pattern() -> str:
    """The pattern of printable text: no character of
    :data:`generator.errors.UNPRINTABLE`, which the loader refuses in every YAML scalar
    (all of them lie in the Basic Multilingual Plane)."""
    return f"^[^{_class(UNPRINTABLE.match)[1:-1]}]*$"


def card_pattern(*, joker: bool = True) -> str:
    """The pattern of a text that is one card code (spaces around it allowed), as the
    loader reads a card field or an item of a card list; ``joker``: ``JK`` is one."""
    space = _space()
    return f"^{space}*{code_pattern(joker=joker)}{space}*$"


def card_codes_pattern(least: int, most: int, *, joker: bool = True) -> str:
    """The pattern of a text of ``least`` to ``most`` card codes separated by spaces, as
    the loader reads a card list written as one string; ``joker``: ``JK`` is one."""
    space, code = _space(), code_pattern(joker=joker)
    if least == 0:
        body = f"(?:{code}(?:{space}+{code}){{0,{most - 1}}})?" if most else ""
    else:
        body = f"{code}(?:{space}+{code}){{{least - 1},{most - 1}}}"
    return f"^{space}*{body}{space}*$"


def empty_card_list() -> Schema:
    """An empty card list: ``[]`` or a string of spaces only (a seat that went out)."""
    return {"anyOf": [{"type": "array", "maxItems": 0},
                      {"type": "string", "pattern": f"^{_space()}*$"}]}
