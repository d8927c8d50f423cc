"""The inputs of kind ``scenario``: ``start`` (the position) and ``actions`` (the steps
played from it), their schemas, and their reading into the engine's values (1-based
seats and table meld numbers in the file, 0-based in the engine). Their cards are read by
the loader before, where the schemas mark them (``x-cards``; the fields' shape
``within``): those of ``start`` are the cards in play, those of ``actions`` name cards of
the position.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from generator.engine.game import Action
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import SetupError
from generator.engine.game import TableMeld
from generator.engine.game import TakeJoker
from generator.engine.game import start as start_round
from generator.engine.melds import check_meld
from generator.engine.rules import RuleSet
from generator.errors import or_list
from generator.kinds import fields
from generator.kinds.base import Reader
from generator.kinds.base import check_seat_count
from generator.kinds.base import count
from generator.kinds.base import is_int

ACTION_KEYS = ("draw", "discard", "meld", "layoff", "take_joker")
"""The steps of an action, one per list item."""

COMPANIONS = (("onto", "layoff"), ("card", "take_joker"))
"""The fields that go with one step only, and that step (which needs them)."""

_NO_STEP = f"action names no step; expected one of: {', '.join(ACTION_KEYS)}"


def _both(first: str, second: str) -> str:
    """The message of an action with two steps, ``first`` and ``second``."""
    return (f"action has both {first!r} and {second!r}; expected one step per action (one "
            "list item each)")


def _missing(field: str, step: str) -> str:
    """The message of a ``step`` action without the ``field`` that goes with it."""
    example = ("<table meld number, 1-based>" if field == "onto"
               else "<the card put in the joker's place, e.g. 6S>")
    return f"missing field {field!r} in {step} action; expected {field}: {example}"


def no_opening(game: str) -> str:
    """The message of ``opened`` in ``start`` where ``game`` has no opening."""
    return (f"field 'opened' in start does not apply to game {game!r} ({game} has no "
            "opening); expected it only with " + or_list(fields.OPENING_GAMES))


ACTION_RULES: fields.Schema = {"allOf": [
    {"anyOf": [{"required": [key], "errorMessage": _NO_STEP} for key in ACTION_KEYS]},
    *({"if": {"required": [first]},
       "then": {"properties": {second: fields.not_here(_both(first, second))
                               for second in ACTION_KEYS[i + 1:]}}}
      for i, first in enumerate(ACTION_KEYS[:-1])),
    *({"if": {"required": [step]},
       "then": {"required": [field], "errorMessage": _missing(field, step)},
       "else": {"properties": {field: fields.not_here(
           f"field {field!r} goes with {step}; expected it only in a {step} action")}}}
      for field, step in COMPANIONS),
]}
"""What :func:`read_actions` checks of an action, as an editor schema says it (one step,
its companion fields with it only)."""

START_SCHEMA: fields.Schema = {
    "type": "object",
    "x-what": "start",
    "x-expected": "a mapping of the position: hands, discard, stock (optionally table, "
    "opened, turn, turns_played, reshuffles, seed)",
    "x-example": "<hands, discard and stock, e.g. {hands: [5C 6C 7C, 2D 3D 4D], discard: QH, "
    "stock: 3D 4D}>",
    "x-name": "start",
    "properties": {
        "hands": {
            "type": "array",
            "x-what": "hands",
            "x-expected": "a list of hands, one per seat in seat order, each a list of card "
            "codes or a string of codes",
            "x-example": "<one card list per seat, seat 1 first>",
            "items": fields.card_list("hand"),
        },
        "discard": fields.card_list("discard", may_be_empty=True),
        "stock": fields.card_list("stock", may_be_empty=True),
        "table": {
            "type": "array",
            "x-what": "table",
            "x-expected": "a list of melds on the table, each {seat: N, cards: ...}",
            "items": {
                "type": "object",
                "x-what": "table meld",
                "x-expected": "a mapping {seat: N, cards: ...}",
                "x-name": "table meld",
                "properties": {
                    "seat": fields.integer("seat", minimum=1,
                                           example="<the seat that laid it>"),
                    "cards": fields.card_list("cards"),
                },
                "required": ["seat", "cards"],
                "additionalProperties": False,
            },
        },
        "opened": {
            "type": "array",
            "x-what": "opened",
            "x-expected": "a list of true or false, one per seat",
            "items": fields.boolean("opened flag"),
        },
        "turn": fields.integer("turn", minimum=1),
        "turns_played": fields.integer("turns_played"),
        "reshuffles": fields.integer("reshuffles"),
        "seed": fields.integer("seed"),
    },
    "required": ["hands", "discard", "stock"],
    "additionalProperties": False,
}
"""``start``: the position the actions are played from."""

ACTION_SCHEMA: fields.Schema = {
    "type": "object",
    "x-what": "action",
    "x-expected": "a mapping with one step: draw, discard, meld, layoff (with onto) or "
    "take_joker (with card)",
    "x-name": "action",
    "properties": {
        "draw": fields.enum("draw source", ("stock", "discard")),
        "discard": fields.card("discard", "one card code such as QH"),
        "meld": fields.card_list("meld"),
        "layoff": fields.card_list("layoff"),
        "onto": fields.integer("onto", minimum=1, example="<table meld number, 1-based>"),
        "take_joker": fields.integer("take_joker", minimum=1,
                                     example="<table meld number, 1-based>"),
        "card": fields.card("card", "one card code such as 6S (the card put in the joker's "
                            "place)"),
    },
    "additionalProperties": False,
}
"""One item of ``actions`` (which keys go together :func:`read_actions` checks)."""


@dataclass(frozen=True)
class ScenarioInput:
    """Inputs of a scenario.

    Attributes:
        start: the position, built by :func:`generator.engine.game.start` (0-based seats
            and table melds).
        actions: the steps, as engine actions (``LayOff.onto``, ``TakeJoker.onto``
            0-based).
    """

    start: GameState
    actions: tuple[Action, ...]


# -- reading -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Start:
    """The ``start`` of a scenario as it is read.

    Attributes:
        reader: the case.
        value: ``start`` as written (a mapping).
        seats: the number of seats (its ``hands``).
        rules: the game's rule set.
    """

    reader: Reader
    value: Mapping[str, Any]
    seats: int
    rules: RuleSet

    def error(self, name: str, message: str, *, at_key: bool = False) -> None:
        """Report ``message`` at the field ``name`` of ``start``."""
        self.reader.error(("start", name), message, at_key=at_key)


def _hands_fit(start: _Start) -> None:
    """As many hands as the game seats."""
    check_seat_count(start.reader, ("start", "hands"), start.seats, start.rules)


def _opened_fits(start: _Start) -> None:
    """``opened``: only in a game with an opening, one flag per seat."""
    opened = start.value.get("opened")
    if "opened" in start.value and start.rules.opening_threshold is None:
        start.error("opened", no_opening(start.rules.game), at_key=True)
    elif isinstance(opened, list) and len(opened) != start.seats:
        start.error("opened", f"opened lists {count(len(opened), 'flag')}; "
                    f"expected one per seat ({start.seats}, as in hands)")


def _turn_fits(start: _Start) -> None:
    """``turn``: a seat of the round."""
    turn = start.value.get("turn", 1)
    if is_int(turn) and turn > start.seats:
        start.error("turn", f"turn {turn} is not a seat; expected a seat number "
                    f"from 1 to {start.seats}")


def _reshuffles_fit(start: _Start) -> None:
    """``reshuffles``: at most as many as the game allows a round."""
    reshuffles = start.value.get("reshuffles", 0)
    most, game = start.rules.max_reshuffles, start.rules.game
    if is_int(reshuffles) and reshuffles > most:
        expected = (f"0 ({game} never reshuffles the stock)" if not most else
                    f"0 to {most} ({game} reshuffles the stock at most {most} "
                    "times a round)")
        start.error("reshuffles", f"reshuffles {reshuffles}; expected {expected}")


def _turns_played_fit(start: _Start) -> None:
    """``turns_played``: fewer than the turns after which the game ends a round."""
    turns_played = start.value.get("turns_played", 0)
    limit = start.rules.turn_limit
    if is_int(turns_played) and limit is not None and turns_played >= limit:
        start.error("turns_played", f"turns_played {turns_played}; expected 0 to "
                    f"{limit - 1} (the round ends after {limit} turns)")


_START_CHECKS: tuple[Callable[[_Start], None], ...] = (
    _hands_fit, _opened_fits, _turn_fits, _reshuffles_fit, _turns_played_fit)
"""What is checked of ``start`` besides its table (:func:`_table`), in this order; the
engine checks the rest (:func:`generator.engine.game.start`)."""


def read_start(reader: Reader, value: dict[str, Any], seats: int,
               rules: RuleSet) -> GameState | None:
    """The start position as the engine's state.

    Args:
        reader: the case.
        value: its ``start`` (a mapping).
        seats: the number of seats (its ``hands``).
        rules: the game's rule set.

    Returns:
        The state, or ``None`` after an error (each reported at its field: the checks of
        :data:`_START_CHECKS`, the table's, the engine's at ``start``).
    """
    start = _Start(reader, value, seats, rules)
    for check in _START_CHECKS:
        check(start)
    table = _table(reader, value.get("table"), seats, rules)
    hands = [reader.parsed.get(("start", "hands", i)) for i in range(seats)]
    discard = reader.parsed.get(("start", "discard"))
    stock = reader.parsed.get(("start", "stock"))
    if reader.failed or table is None or discard is None or stock is None:
        return None  # the case is dropped: said already
    opened = value.get("opened")
    try:
        return start_round(
            rules, [h for h in hands if h is not None], discard, stock, table,
            opened=tuple(opened) if isinstance(opened, list) else None,
            turn=value.get("turn", 1) - 1, turns_played=value.get("turns_played", 0),
            reshuffles=value.get("reshuffles", 0), seed=value.get("seed", 0),
        )
    except SetupError as exc:
        reader.error(("start",), f"start: {exc}")
        return None


def _table(reader: Reader, value: object, seats: int,
           rules: RuleSet) -> list[TableMeld] | None:
    """The melds on the table at the start (owners 0-based), or ``None`` after an
    error."""
    if value is None:
        return []
    if not isinstance(value, list):
        return None
    table: list[TableMeld] = []
    ok = True
    for index, meld in enumerate(value):
        rel = ("start", "table", index)
        seat = meld.get("seat") if isinstance(meld, dict) else None
        cards = reader.parsed.get((*rel, "cards"))
        if not is_int(seat) or cards is None:
            ok = False
            continue
        if seat > seats:
            ok = False
            reader.error((*rel, "seat"), f"seat {seat} is not a seat of this round; expected "
                         f"a seat number from 1 to {seats}")
        if not rules.has_jokers and any(c.is_joker for c in cards):
            ok = False
            continue  # said already
        result = check_meld(cards, rules)
        if not result.valid:
            assert result.reason is not None
            ok = False
            codes = " ".join(c.code for c in cards)
            reader.error((*rel, "cards"), f"meld {codes} is not a valid meld "
                         f"({result.reason}); expected a meld that could lie on the "
                         "table")
        table.append(TableMeld(cards, seat - 1))
    return table if ok else None


def read_actions(reader: Reader, actions: list[Any]) -> tuple[Action, ...] | None:
    """The actions as the engine's, or ``None`` after an error (each reported)."""
    steps: list[Action] = []
    for index, item in enumerate(actions):
        if not isinstance(item, dict):
            continue  # the schema has said so
        rel = ("actions", index)
        keys = [key for key in item if key in ACTION_KEYS]
        if not keys:
            reader.error(rel, _NO_STEP)
            continue
        for extra in keys[1:]:
            reader.error((*rel, extra), _both(keys[0], extra), at_key=True)
        key = keys[0]
        for field, owner in COMPANIONS:
            if field in item and key != owner:
                reader.error((*rel, field), f"field {field!r} goes with {owner}, not {key}; "
                             f"expected it only in a {owner} action", at_key=True)
            if key == owner and field not in item:
                reader.error(rel, _missing(field, owner))
        action = _action(reader, key, item, rel)
        if action is not None:
            steps.append(action)
    return tuple(steps) if len(steps) == len(actions) else None


def _action(reader: Reader, key: str, item: dict[str, Any],
            rel: tuple[str | int, ...]) -> Action | None:
    """One action as the engine's (table meld numbers made 0-based), or ``None`` where a
    value is wrong (reported by the schema or the card checks)."""
    value = item[key]
    onto = item.get("onto")
    if key == "draw":
        return Draw(value) if value in ("stock", "discard") else None
    if key == "discard":
        card = reader.parsed.get((*rel, "discard"))
        return Discard(card[0]) if card else None
    if key == "meld":
        cards = reader.parsed.get((*rel, "meld"))
        return Meld(cards) if cards else None
    if key == "layoff":
        cards = reader.parsed.get((*rel, "layoff"))
        return LayOff(cards, onto - 1) if cards and is_int(onto) and onto >= 1 else None
    card = reader.parsed.get((*rel, "card"))
    if card and is_int(value) and value >= 1:
        return TakeJoker(value - 1, card[0])
    return None
