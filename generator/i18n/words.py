"""The English source text (msgids) for the engine's codes and for card names.

The engine answers with codes; this module names the catalog message of each code, and
hands on each game's display name from its record (:class:`generator.engine.rules.
GameSpec`, :data:`GAMES`). Every entry is extracted into ``locales/messages.pot`` by
``i18n extract``.
Messages with placeholders are newstyle gettext (``%(name)s``; a literal % is %%).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping

from generator.engine.cards import Card
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.cards import all_cards
from generator.engine.codes import CaseStatus
from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import LayoffReason
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.codes import OpeningReason
from generator.engine.codes import Option
from generator.engine.codes import PlayReason
from generator.engine.codes import Preset
from generator.engine.codes import SwapReason
from generator.engine.codes import Verdict
from generator.engine.rules import games
from generator.engine.rules import per_registry

CARD_CONTEXT = "card"
"""msgctxt of card names: a card's full name as it stands alone (a table cell)."""

CARD_OBJECT_CONTEXT = "card, object of a verb"
"""msgctxt of card names as the object of a verb in a sentence ("seat 1 discards …",
"draws …", "melds …"): Czech "srdcovou dámu", Polish "damę kier", German unchanged."""

RANK_NAMES = {
    Rank.ACE: "ace",
    Rank.TWO: "two",
    Rank.THREE: "three",
    Rank.FOUR: "four",
    Rank.FIVE: "five",
    Rank.SIX: "six",
    Rank.SEVEN: "seven",
    Rank.EIGHT: "eight",
    Rank.NINE: "nine",
    Rank.TEN: "ten",
    Rank.JACK: "jack",
    Rank.QUEEN: "queen",
    Rank.KING: "king",
}
SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts",
              Suit.SPADES: "spades"}


def card_msgid(card: Card) -> str:
    """The English name of ``card``, its msgid (context :data:`CARD_CONTEXT`):
    ``"queen of hearts"``, ``"joker"``."""
    if card.rank is None or card.suit is None:
        return "joker"
    return f"{RANK_NAMES[card.rank]} of {SUIT_NAMES[card.suit]}"


class FromGames(Mapping[str, str]):
    """A table of messages derived from the registered games
    (:func:`generator.engine.rules.games`), derived again once the registry changes: a
    game registered later has its messages too.

    Args:
        derive: the table, from the registry.
    """

    def __init__(self, derive: Callable[[], dict[str, str]]) -> None:
        self._table = per_registry(derive)

    def __getitem__(self, key: str) -> str:
        return self._table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())

    def __len__(self) -> int:
        return len(self._table())


RANK_CONTEXT = "rank"
"""msgctxt of rank names, for a joker whose suit stays open ("a nine")."""

VERDICTS: dict[str, str] = {
    Verdict.VALID: "Valid",
    Verdict.INVALID: "Invalid",
    Verdict.ACCEPTED: "Accepted",
    Verdict.REJECTED: "Rejected",
    Verdict.ALLOWED: "Allowed",
    Verdict.CAN_OPEN: "Can open",
    Verdict.CANNOT_OPEN: "Cannot open",
}
"""Verdict codes (docs/site.md, "Kinds and their fields") → message (context ``verdict``)."""


def meld_verdict(verdict: Verdict, meld_type: MeldType) -> str:
    """The key of a meld's verdict and type in :data:`MELD_VERDICTS`: ``"valid run"``."""
    return f"{verdict} {meld_type}"


MELD_VERDICTS: dict[str, str] = {
    meld_verdict(Verdict.VALID, MeldType.RUN): "Valid run",
    meld_verdict(Verdict.VALID, MeldType.SET): "Valid set",
    meld_verdict(Verdict.INVALID, MeldType.RUN): "Invalid run",
    meld_verdict(Verdict.INVALID, MeldType.SET): "Invalid set",
}
"""A meld's verdict and type, ``"<verdict> <type>"`` → one message (context ``meld
verdict``): a language whose adjective agrees with the type's gender writes the pair
whole ("Prawidłowy sekwens", "Prawidłowa grupa"). A set of three or four cards takes its
message from :data:`SET_VERDICTS_BY_COUNT` instead; the set messages here name a set of
any other count (an invalid one of two or five cards)."""

SET_VERDICTS_BY_COUNT: dict[int, tuple[str, dict[str, str]]] = {
    3: ("meld verdict, set of three cards", {
        meld_verdict(Verdict.VALID, MeldType.SET): "Valid set",
        meld_verdict(Verdict.INVALID, MeldType.SET): "Invalid set",
    }),
    4: ("meld verdict, set of four cards", {
        meld_verdict(Verdict.VALID, MeldType.SET): "Valid set",
        meld_verdict(Verdict.INVALID, MeldType.SET): "Invalid set",
    }),
}
"""A set's card count → (msgctxt, its verdict messages): a language that names a set by
its count writes each whole (Czech "Platná trojice", "Platná čtveřice"); the others
repeat their :data:`MELD_VERDICTS` words."""


def meld_verdict_context(meld_type: MeldType, count: int) -> str:
    """The msgctxt of the verdict of a meld of ``meld_type`` and ``count`` cards: a set of
    three or four cards has its own (:data:`SET_VERDICTS_BY_COUNT`), any other meld
    ``meld verdict``."""
    if meld_type is MeldType.SET and count in SET_VERDICTS_BY_COUNT:
        return SET_VERDICTS_BY_COUNT[count][0]
    return "meld verdict"

REASONS: dict[str, str] = {
    MeldReason.TOO_MANY_JOKERS: "Only one joker is allowed in a meld.",
    MeldReason.TOO_FEW_CARDS: "A meld needs at least three cards.",
    MeldReason.NOT_A_MELD: "The cards share neither a rank nor a suit.",
    MeldReason.TOO_MANY_CARDS: "Too many cards for this kind of meld.",
    MeldReason.DUPLICATE_SUIT: "A set may not hold two cards of the same suit.",
    MeldReason.WRAPS_AROUND: "The ace cannot be after the king and before the two at once.",
    MeldReason.ACE_LOW_NOT_ALLOWED: "The ace is only high here: it may not stand before the "
    "two.",
    MeldReason.NOT_CONSECUTIVE: "The ranks do not follow each other without a gap.",
    OpeningReason.INVALID_MELD: "One of the melds is not valid.",
    OpeningReason.NO_PURE_RUN: "No pure run: one meld must be a run without a joker.",
    OpeningReason.BELOW_THRESHOLD: "The melds do not reach the threshold.",
    LayoffReason.NOT_OPENED: "Only a player who has opened may do this.",
    LayoffReason.BREAKS_MELD: "The meld would not stay valid with these cards.",
    SwapReason.NO_JOKER: "The meld holds no joker.",
    SwapReason.SET_NEEDS_THREE_NATURALS: "A joker can be taken from a set only when it lies "
    "with three natural cards.",
    SwapReason.WRONG_CARD: "Only the card the joker stands for can take its place.",
    PlayReason.ROUND_ENDED: "The round is over already.",
    PlayReason.MUST_DRAW: "The player has to draw first.",
    PlayReason.ALREADY_DREW: "The player has drawn once this turn already.",
    PlayReason.EMPTY_DISCARD_PILE: "The discard pile is empty.",
    PlayReason.NO_SUCH_MELD: "There is no such meld on the table.",
    PlayReason.CARD_NOT_IN_HAND: "The player does not hold that card.",
    PlayReason.FINAL_DISCARD_REQUIRED: "Going out needs a final discard here.",
    PlayReason.NO_DISCARD_LEFT: "Only the card just taken from the discard pile would be "
    "left, and it cannot be discarded this turn.",
    PlayReason.DISCARD_TAKEN_CARD: "The card just taken from the discard pile cannot be "
    "discarded in the same turn.",
    PlayReason.JOKER_MUST_BE_LAID: "The joker taken back has to be laid again this turn.",
}
"""Reason codes of melds, openings, lay-offs, taking back a joker and actions of a
scenario → message (context ``reason``)."""

EVENTS: dict[str, str] = {
    Event.RESHUFFLED: "The discard pile, except its top card, was shuffled into a new stock.",
    Event.OPENED: "The player has opened.",
    Event.OPENING_RETURNED: "The opening fell short: the melds went back to the hand.",
    Event.ROUND_OVER: "The round is over.",
}
"""Events of a legal action in a scenario → message (context ``event``)."""

ACTIONS = {
    "draw_stock": "%(seat)s draws %(cards)s from the stock",
    "draw_discard": "%(seat)s draws %(cards)s from the discard pile",
    "draw_stock_none": "%(seat)s draws from the stock",
    "draw_discard_none": "%(seat)s draws from the discard pile",
    "meld": "%(seat)s melds %(cards)s",
    "layoff": "%(seat)s lays off %(cards)s onto meld %(num)s",
    "take_joker": "%(seat)s takes the joker of meld %(num)s, putting %(cards)s in its place",
    "discard": "%(seat)s discards %(cards)s",
}
"""A scenario's actions → message (context ``action``): one sentence, who does what:
the seat's name as ``%(seat)s`` (:data:`SEATS`), the cards as ``%(cards)s`` (on the
pages the cards are drawn there), a table meld's number as ``%(num)s``."""

SEAT_CONTEXT = "seat, starting a sentence"
"""msgctxt of a seat's name as the subject that opens a sentence ("Seat 1 draws …")."""

SEAT_WITHIN_CONTEXT = "seat, within a sentence"
"""msgctxt of a seat's name as a subject after the start of a sentence ("…: seat 2 holds
the lowest hand value")."""


def max_seats() -> int:
    """The most seats a game has (Rami: 6)."""
    return max(spec.rules.max_players for spec in games())


SEATS = FromGames(lambda: {str(n): f"Seat {n}" for n in range(1, max_seats() + 1)})
"""Seat numbers → the seat's name as it opens a sentence (context :data:`SEAT_CONTEXT`).
One message per seat, so that each language writes what the number needs (Hungarian:
"Az 1. játékos", "A 2. játékos"; docs/site.md, "Languages")."""

SEATS_WITHIN = FromGames(lambda: {str(n): f"seat {n}" for n in range(1, max_seats() + 1)})
"""Seat numbers → the seat's name within a sentence (context
:data:`SEAT_WITHIN_CONTEXT`): Czech "hráč 2", Hungarian "a 2. játékos"."""

SEAT_IN_LIST_CONTEXT = "seat number in a list of seats"
"""msgctxt of :data:`SEAT_IN_LIST`."""

SEAT_IN_LIST = "%(seat)s"
"""A seat's number as one item of a list of seats (``%(seats)s`` in
:data:`EXPLANATIONS`), before the items are joined as the locale joins a list: English
"2" ("seats 2 and 3"), Hungarian "a(z) %(seat)s." ("a 2. és a 3. játékos", the noun
once after the list; docs/site.md, "Languages")."""

END_REASONS: dict[str, str] = {
    EndReason.STOCK_EMPTY: "The stock ran out.",
    EndReason.TURN_LIMIT: "The turn limit was reached.",
}
"""Why a round ended without a seat going out → message (context ``end``): the event
``round_over`` has said that the round is over."""

PRESETS: dict[str, str] = {Preset.REFERENCE: "reference rules", Preset.HOUSE: "house rules"}
"""Rami presets → message (context ``preset``), as named within a sentence."""

PRESET_HEADINGS: dict[str, str] = {Preset.REFERENCE: "Reference rules",
                                   Preset.HOUSE: "House rules"}
"""Rami presets → message (context ``preset heading``): a column heading, capitalised as
the language capitalises a heading (a message of its own, not the sentence's words with
a capital letter)."""

GAMES = FromGames(lambda: {spec.id: spec.name for spec in games()})
"""Game ids → message (context ``game``): each game's display name, from its record
(:attr:`generator.engine.rules.GameSpec.name`)."""

OPTIONS: dict[str, str] = {Option.ACE_HIGH: "ace high", Option.DISCARD_TO_WIN: "discard to win"}
"""CardVerse options (when on) → message (context ``option``)."""

MELD_REASONS_NUMBERED: dict[str, str] = {
    MeldReason.TOO_MANY_JOKERS: "Meld %(num)s: only one joker is allowed in a meld.",
    MeldReason.TOO_FEW_CARDS: "Meld %(num)s: a meld needs at least three cards.",
    MeldReason.NOT_A_MELD: "Meld %(num)s: the cards share neither a rank nor a suit.",
    MeldReason.TOO_MANY_CARDS: "Meld %(num)s: too many cards for this kind of meld.",
    MeldReason.DUPLICATE_SUIT: "Meld %(num)s: a set may not hold two cards of the same suit.",
    MeldReason.WRAPS_AROUND: "Meld %(num)s: the ace cannot be after the king and before the two "
    "at once.",
    MeldReason.ACE_LOW_NOT_ALLOWED: "Meld %(num)s: the ace is only high here and may not stand "
    "before the two.",
    MeldReason.NOT_CONSECUTIVE: "Meld %(num)s: the ranks do not follow each other without a gap.",
}
"""Why the meld numbered ``%(num)s`` of a first meld is invalid → message (context
``numbered meld``): each reason of :class:`~generator.engine.codes.MeldReason` as one
sentence with the meld's number, so that each language writes what follows the number
(a lower-case letter after a colon in Czech, Estonian, Hungarian)."""

EXPLANATIONS = {
    "joker_only_place": "The joker stands for %(card)s.",
    "joker_fewer_points": "The joker stands for %(card)s, not %(other)s: fewer points.",
    "joker_lower_rank": "The joker stands for %(card)s, not %(other)s: equal points, "
    "lower rank.",
    "joker_same_place": "The joker stands for %(card)s, not %(other)s: the place it takes "
    "under reference rules.",
    "joker_open_suit": "The joker stands for a card of rank %(rank)s; its suit stays open.",
    "joker_kept_card": "The joker stands for %(card)s, not %(other)s: it keeps the card it "
    "took when the meld was laid.",
    "points_sum": "%(terms)s = %(total)s",
    "threshold_context": "threshold %(threshold)s, %(preset)s",
    "not_opened_yet": "The player has not opened yet.",
    "joker_keeps_place": "The joker keeps standing for %(card)s: a lay-off never moves it.",
    "meld_becomes": "The meld becomes %(meld)s.",
    "joker_taken": "%(card)s takes the joker's place: %(meld)s. The player takes the joker "
    "and must lay it again this turn if they can.",
    "seat_hand": "Seat %(seat)s: %(terms)s = %(total)s",
    "seat_out": "Seat %(seat)s: no cards left",
    "winner_went_out": "%(seat)s went out and wins the round.",
    "winner_lowest": "No seat went out: %(seat)s holds the lowest hand value and wins.",
    "winner_tied": "No seat went out: seats %(seats)s share the lowest hand value; the "
    "earliest, %(seat)s, wins.",
    "scores_own_value": "The winner scores 0; every other seat scores its own hand value.",
    "scores_collected": "The winner scores the others' hand values: %(sum)s; the others "
    "score 0.",
    "best_total": "The best melds total %(sum)s.",
    "no_opening_melds": "No melds in this hand can make an opening.",
    "cards_left": "Left in the hand: %(cards)s",
    "step_allowed": "Action %(num)s: %(action)s — allowed.",
    "step_not_allowed": "Action %(num)s: %(action)s — not allowed.",
    "round_goes_on": "The round goes on: %(seat)s is to play.",
    "rules_with_option": "%(rules)s, %(option)s",
    "status_differs": "%(field)s: the page documents %(documented)s, the engine gives "
    "%(engine)s.",
    "status_because": "Why: %(because)s",
}
"""The engine's reasoning → message (context ``explanation``). ``%(seat)s`` is a seat's
name (:data:`SEATS` where it opens the sentence, else :data:`SEATS_WITHIN`), ``%(seats)s``
several seat numbers joined as the language joins a list ("2, 3 a 4", each item
:data:`SEAT_IN_LIST`). ``%(card)s`` and ``%(other)s`` are card codes ("9♠"): a Hungarian
translation writes ``a(z)`` before them, and the article is chosen once the code is
known (:func:`generator.i18n.articles.choose_articles`)."""

STATUSES: dict[str, str] = {
    CaseStatus.PENDING: "Being written",
    CaseStatus.KNOWN_DISAGREEMENT: "Known disagreement",
}
"""A case's ``status`` → its badge on the page (context ``case status``)."""

EXPECT_FIELDS: dict[str, str] = {
    "verdict": "Verdict",
    "type": "Type",
    "points": "Points",
    "reason": "Reason",
    "decks": "Decks",
    "jokers": "Jokers",
    "cards": "Cards",
    "hand_size": "Hand size",
    "dealt": "Dealt",
    "stock": "Stock",
    "joker_stands_for": "The joker stands for",
    "winner": "Winner",
    "scores": "Scores",
    "results": "Result of action %(num)s",
    "end.round_over": "Round over",
    "end.reason": "Why the round ended",
    "end.winner": "Winner",
    "end.scores": "Scores",
}
"""The ``expect`` fields of every kind → their name where a page shows a documented value
beside the engine's (context ``expect field``; ``results``: one per action, numbered)."""

CONTEXTS: dict[str, Mapping[str, str]] = {
    "verdict": VERDICTS,
    "meld verdict": MELD_VERDICTS,
    **dict(SET_VERDICTS_BY_COUNT.values()),
    "reason": REASONS,
    "preset": PRESETS,
    "preset heading": PRESET_HEADINGS,
    "game": GAMES,
    "option": OPTIONS,
    "event": EVENTS,
    "action": ACTIONS,
    "end": END_REASONS,
    "explanation": EXPLANATIONS,
    "numbered meld": MELD_REASONS_NUMBERED,
    "case status": STATUSES,
    "expect field": EXPECT_FIELDS,
    SEAT_CONTEXT: SEATS,
    SEAT_WITHIN_CONTEXT: SEATS_WITHIN,
    SEAT_IN_LIST_CONTEXT: {"seat": SEAT_IN_LIST},
}
"""Every coded message, by msgctxt."""


def all_code_messages() -> list[tuple[str, str]]:
    """(msgctxt, msgid) of every coded message and card name, in a stable order."""
    out = [(ctx, msgid) for ctx, table in CONTEXTS.items() for msgid in table.values()]
    out += [(CARD_CONTEXT, card_msgid(c)) for c in all_cards()]
    out += [(CARD_OBJECT_CONTEXT, card_msgid(c)) for c in all_cards()]
    out += [(RANK_CONTEXT, name) for name in RANK_NAMES.values()]
    return out
