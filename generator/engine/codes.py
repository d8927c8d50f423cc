"""The engine's codes, in one home: every code a result carries, as :class:`enum.StrEnum`.

Each code is a member of one enum with a docstring saying when the engine gives it (the
way python-chess documents its ``Termination`` and ``Status`` members). A member is a
``str`` equal to its value, so case files, catalogs (msgids are keyed by the values) and
pages see exactly the code words (``wraps_around``, ``can_open``); everything above the
engine compares, stores and looks up the members, never the words typed again.

Sources: docs/rules.md "Melds", "The opening (first meld), Rami", "A turn", "Taking back a
joker", "End of a round" and "Order of reasons"; docs/site.md for the case kinds' verdicts.
"""

from __future__ import annotations

import enum


class Code(enum.StrEnum):
    """A code word of the engine: a ``str`` equal to its value.

    ``repr`` is the value's (``'wraps_around'``), so a message that quotes a code with
    ``!r`` reads the same whether it was handed a member or the word from a case file.
    """

    def __repr__(self) -> str:
        return repr(self.value)


# --- presets and options (the games themselves: generator.engine.rules) -------------------


class Preset(Code):
    """A preset (``rules:`` of case files); the games played under each:
    :class:`generator.engine.rules.GameSpec`'s ``presets``."""

    REFERENCE = "reference"
    """The app's default rules."""
    HOUSE = "house"
    """House rules: fewer jokers, a joker worth 15 points melded and in hand."""


class Option(Code):
    """An option (``options:`` of case files), a flag that is off by default; the games
    that take each: :class:`generator.engine.rules.GameSpec`'s ``options``."""

    ACE_HIGH = "ace_high"
    """An ace left in a hand counts 11 points instead of 1."""
    DISCARD_TO_WIN = "discard_to_win"
    """Going out needs a final discard."""


# --- melds, openings, the table --------------------------------------------------------


class MeldType(Code):
    """What a group of cards is, or tries to be."""

    RUN = "run"
    """Cards of one suit in consecutive ranks."""
    SET = "set"
    """Cards of one rank, all suits different."""


class MeldReason(Code):
    """Why a meld is invalid; listed in the order in which they are checked (docs/site.md)."""

    TOO_MANY_JOKERS = "too_many_jokers"
    """More jokers than the rule set allows in one meld (Rami: 1; CardVerse: 0)."""
    TOO_FEW_CARDS = "too_few_cards"
    """Fewer than three cards."""
    NOT_A_MELD = "not_a_meld"
    """The natural cards share neither one rank nor one suit."""
    TOO_MANY_CARDS = "too_many_cards"
    """A set of more than four cards, or a run of more than thirteen."""
    DUPLICATE_SUIT = "duplicate_suit"
    """A set holding two cards of one suit (e.g. 7♠ 7♠ 7♥)."""
    WRAPS_AROUND = "wraps_around"
    """A run that needs the ace both after the king and before the two (K-A-2): given
    only when the cards would form a gap-free run of distinct ranks passing K-A-2, the
    ace natural or a joker (K♥ A♥ 2♥, K♥ JK 2♥). A gap, a repeated rank, or no ace
    between the king and the two (Q♥ K♥ 2♥ 3♥, K♥ A♥ 3♥) is ``not_consecutive``
    (docs/site.md, "Meld reasons", decided)."""
    ACE_LOW_NOT_ALLOWED = "ace_low_not_allowed"
    """A run that needs the ace before the two where the ace is only high (CardVerse)."""
    NOT_CONSECUTIVE = "not_consecutive"
    """A run whose ranks leave a gap the jokers cannot fill, or repeat a rank."""


class OpeningReason(Code):
    """Why a first meld is rejected; the first that applies wins (docs/rules.md, Order of
    reasons)."""

    INVALID_MELD = "invalid_meld"
    """One of the melds laid is not a valid meld."""
    NO_PURE_RUN = "no_pure_run"
    """Rami 51: none of the melds is a run without a joker."""
    BELOW_THRESHOLD = "below_threshold"
    """The melds together total fewer points than the threshold."""


class LayoffReason(Code):
    """Why a lay-off is refused; the first that applies wins (docs/rules.md, Order of reasons)."""

    NOT_OPENED = "not_opened"
    """Rami: the player has not opened yet (lay-offs come from the turn after the opening)."""
    BREAKS_MELD = "breaks_meld"
    """The meld would no longer be valid with the cards added."""


class SwapReason(Code):
    """Why taking back a joker is refused; the first that applies wins."""

    NO_JOKER = "no_joker"
    """The meld holds no joker."""
    NOT_OPENED = "not_opened"
    """The player has not opened yet."""
    SET_NEEDS_THREE_NATURALS = "set_needs_three_naturals"
    """A joker can be taken from a set only when it lies with three natural cards."""
    WRONG_CARD = "wrong_card"
    """The card offered is not the card the joker stands for."""


class InputReason(Code):
    """Why the inputs of a case are not a question the game can be asked: what the cards
    or the meld on the table break before any rule is applied (docs/site.md, "Case
    files"). The loader says each in English for authors; the card checker says it in the
    reader's language."""

    TOO_MANY_COPIES = "too_many_copies"
    """A natural card is used more often than the game's decks hold it."""
    NO_JOKERS = "no_jokers"
    """A joker in a game played without jokers."""
    TOO_MANY_JOKERS = "too_many_jokers_in_play"
    """More jokers than any preset of the game deals."""
    NOT_A_HAND_SIZE = "not_a_hand_size"
    """A best opening is sought in a hand of another size than as dealt, or after drawing."""
    TABLE_MELD_INVALID = "table_meld_invalid"
    """The meld given as lying on the table is not a valid meld."""
    JOKER_FOR_JOKER = "joker_for_joker"
    """The card put in a joker's place is a joker itself."""


# --- a round of play ------------------------------------------------------------------


class PlayReason(Code):
    """Why an action is illegal (``Outcome.reason`` holds the value).

    For one action the checks run in this order and the first that applies wins:
    structural checks first (``round_ended``; ``must_draw`` / ``already_drew``;
    ``empty_discard_pile``; ``no_such_meld``; ``card_not_in_hand``), then the rules in
    docs/rules.md's "Order of reasons" (lay-off: ``not_opened``, ``breaks_meld``; taking back
    a joker: ``no_joker``, ``not_opened``, ``set_needs_three_naturals``, ``wrong_card``),
    then the end-of-turn rules (``final_discard_required``, ``no_discard_left``;
    discard: ``discard_taken_card``, ``joker_must_be_laid``).
    """

    ROUND_ENDED = "round_ended"
    """The round is over (``GameState.end`` is set): no action is possible any more."""
    MUST_DRAW = "must_draw"
    """A meld, lay-off, joker take-back or discard before the turn's draw (docs/rules.md, A
    turn: 1. draw)."""
    ALREADY_DREW = "already_drew"
    """A second draw in one turn: a turn has exactly one draw."""
    EMPTY_DISCARD_PILE = "empty_discard_pile"
    """Drawing from the discard pile when it holds no card."""
    NO_SUCH_MELD = "no_such_meld"
    """A lay-off or joker take-back naming a table meld index that does not exist."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """A card melded, laid off, given for a joker or discarded that the player does not
    hold (as a multiset: two 7♠ need two 7♠ in hand)."""
    INVALID_MELD = "invalid_meld"
    """A new meld that is not a valid meld (``Outcome.detail``: the meld's own reason
    code, e.g. ``wraps_around``)."""
    NOT_OPENED = "not_opened"
    """Rami: a lay-off or joker take-back by a player whose opening is not confirmed;
    the opening is confirmed only at the end of its turn, so this holds in the opening
    turn too (docs/rules.md, The opening)."""
    BREAKS_MELD = "breaks_meld"
    """A lay-off after which the table meld would not be valid (a run's joker keeps the
    card it stands for: ``table.check_layoff``)."""
    NO_JOKER = "no_joker"
    """Taking back a joker from a table meld that holds none."""
    SET_NEEDS_THREE_NATURALS = "set_needs_three_naturals"
    """Taking back a joker from a set where it lies with only two natural cards."""
    WRONG_CARD = "wrong_card"
    """Taking back a joker with a card other than the one it stands for."""
    FINAL_DISCARD_REQUIRED = "final_discard_required"
    """CardVerse with ``discard_to_win``: a meld or lay-off of the last cards in hand
    (going out needs a final discard, docs/rules.md, End of a round)."""
    NO_DISCARD_LEFT = "no_discard_left"
    """Rami (``rules.keep_taken_discard``): a meld or lay-off that would leave the hand
    holding only the card just taken from the discard pile, which may not be discarded,
    when that card could not then leave the hand either (laid off to go out, or given
    for a table joker): the turn could not end (docs/rules.md, A turn, decided). A rule set
    without the taken-card rule (CardVerse) never gives it."""
    DISCARD_TAKEN_CARD = "discard_taken_card"
    """Discarding the card taken from the discard pile in the same turn (docs/rules.md, A
    turn: 3). Cards are values, so while the hand holds another equal card (held before
    the draw, or a joker taken back since) one of the two may go (decided)."""
    JOKER_MUST_BE_LAID = "joker_must_be_laid"
    """Discarding while holding a joker taken back this turn that can be laid again
    (docs/rules.md, Taking back a joker). It *can* be laid when a lay-off of that joker alone
    onto some table meld, or a new meld of the joker and two natural cards from the
    hand, would be a legal action now."""


class Event(Code):
    """What a legal action caused besides itself (``Outcome.events`` holds the values,
    in the order they happened)."""

    RESHUFFLED = "reshuffled"
    """Rami: a draw from the empty stock turned the discard pile but its top card into a
    new stock, shuffled deterministically from the state's seed (docs/rules.md, End of a
    round: at most ``rules.max_reshuffles`` times a round)."""
    OPENED = "opened"
    """Rami: the melds laid this turn met the opening and are confirmed (at the discard,
    or when the player went out without one)."""
    OPENING_RETURNED = "opening_returned"
    """Rami: the melds laid this turn fell short of the opening (``Outcome.detail``:
    ``no_pure_run`` or ``below_threshold``) and went back to the hand; a discard still
    happens (docs/rules.md, The opening)."""
    ROUND_OVER = "round_over"
    """The round ended: see ``GameState.end`` for why, the winner and the scores."""


class EndReason(Code):
    """Why a round ended (``RoundEnd.reason`` holds the value)."""

    WENT_OUT = "went_out"
    """A player has no cards left after a legal action."""
    STOCK_EMPTY = "stock_empty"
    """A player drew from the empty stock and it could not be (or may no longer be)
    refilled from the discard pile; the lowest hand value wins."""
    TURN_LIMIT = "turn_limit"
    """``rules.turn_limit`` turns were played; the lowest hand value wins."""


class JokerWhy(Code):
    """Why a joker stands for the card it does (``JokerChoice.why``; docs/rules.md "Points of
    melded cards")."""

    ONLY_PLACE = "only_place"
    """One place fits (a set's joker, or a run with one way to lay it)."""
    FEWER_POINTS = "fewer_points"
    """Of the places that fit, the one where the meld has fewer points."""
    LOWER_RANK = "lower_rank"
    """Places with equal points: the lower rank."""


class TableJokerWhy(Code):
    """Why the joker of a meld on the table stands for the card it does, as taking it back
    sees it (``SwapResult.why``; docs/rules.md "Points of melded cards", "Taking back a
    joker"). Unlike :class:`JokerWhy`, which says how a joker being laid chooses its place
    (by points), this says what the card is now: points play no part in taking a joker
    back, only the card it stands for."""

    ONLY_CARD = "only_card"
    """The meld leaves the joker one card to be: a run with one place for it (7♠ JK 9♠:
    the 8♠), a set beside three natural cards (the suit they lack)."""
    KEPT_CARD = "kept_card"
    """The cards alone would let the joker be more than one card (JK 7♠ 8♠: the 6♠ or the
    9♠); it is the card it took when the meld was laid (the 6♠), and it keeps it."""
    OPEN_SUIT = "open_suit"
    """A set of two natural cards and the joker: the joker stands for the rank, its suit
    open, so no card can take its place (``set_needs_three_naturals``)."""


# --- verdicts of the case kinds --------------------------------------------------------


class Tone(Code):
    """How a verdict looks on a page (the ``verdict--<tone>`` class)."""

    OK = "ok"
    """A meld, opening or action that stands (a check mark)."""
    BAD = "bad"
    """One that does not (a cross)."""
    NONE = "none"
    """No verdict shown as either."""


class Verdict(Code):
    """A case kind's verdict (``expect.verdict``; docs/site.md, the kinds)."""

    VALID = "valid"
    """``meld``, ``layoff``: the cards form a meld, the lay-off is allowed."""
    INVALID = "invalid"
    """``meld``, ``layoff``: they do not, it is refused."""
    ACCEPTED = "accepted"
    """``first_meld``: the first meld stands."""
    REJECTED = "rejected"
    """``first_meld``, ``joker_swap``: it does not, taking back the joker is refused."""
    ALLOWED = "allowed"
    """``joker_swap``: the joker may be taken back; a scenario's legal action."""
    CAN_OPEN = "can_open"
    """``best_opening``: the hand can lay an opening."""
    CANNOT_OPEN = "cannot_open"
    """``best_opening``: it cannot."""

    @property
    def tone(self) -> Tone:
        """:attr:`Tone.OK` for a verdict that lets the cards stand, else
        :attr:`Tone.BAD`."""
        return Tone.OK if self in _STANDS else Tone.BAD


_STANDS = frozenset({Verdict.VALID, Verdict.ACCEPTED, Verdict.ALLOWED, Verdict.CAN_OPEN})
_VERDICTS: frozenset[str] = frozenset(Verdict)


def tone(verdict: str | None) -> Tone:
    """The tone of a verdict code; :attr:`Tone.NONE` for ``None`` or a code that is not a
    :class:`Verdict` (a kind without one)."""
    if verdict is None or verdict not in _VERDICTS:
        return Tone.NONE
    return Verdict(verdict).tone


class StepResult(Code):
    """What a scenario documents for a legal action that caused no event, and what the
    engine gives for an illegal one without a reason (``results`` of a scenario)."""

    LEGAL = "legal"
    """The action is allowed."""
    ILLEGAL = "illegal"
    """The action is refused (only when no reason is known)."""


# --- the case files' status ------------------------------------------------------------


class CaseStatus(Code):
    """A case's optional ``status`` (docs/site.md, "Case status"): how a disagreement of
    the case counts. Not an engine result: the engine never sees it; its home is here
    with every other code word."""

    PENDING = "pending"
    """Being written: verified and shown with the engine's values, its disagreements
    listed but not failing."""
    KNOWN_DISAGREEMENT = "known_disagreement"
    """The documented value is known to differ from the engine's (``because`` says why):
    shown side by side; the case fails the check as soon as it agrees."""
