"""Words for the engine's codes and reasoning, in one locale.

The engine gives codes and structured reasoning (:mod:`generator.engine.melds`);
this module turns them into sentences through a :class:`~generator.i18n.catalog.Translator`:
:class:`Words`, and the sentences several case kinds share (a meld's joker and points, a
hand's value, a round's scoring). Each kind's own reasoning is in its module
(:mod:`generator.kinds`).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.codes import JokerWhy
from generator.engine.codes import TableJokerWhy
from generator.engine.hand import RoundResult
from generator.engine.hand import card_hand_points
from generator.engine.hand import hand_value
from generator.engine.melds import MeldResult
from generator.engine.melds import Placed
from generator.engine.melds import rank_points
from generator.engine.rules import RuleSet
from generator.engine.table import SwapResult
from generator.i18n import words
from generator.i18n.articles import choose_articles
from generator.i18n.catalog import Translator
from generator.i18n.numbers import format_decimal
from generator.i18n.numbers import format_list

ENGLISH_OPEN = "\ufdd0"
ENGLISH_CLOSE = "\ufdd1"
"""The marks around a message shown in English where a translation is missing, in text
meant for a page (:attr:`Words.marked`): Unicode noncharacters, which no input may hold
(:data:`generator.errors.UNPRINTABLE`), replaced before a page is written
(:func:`generator.render.fallbacks.mark_english`)."""


@dataclass
class Words:
    """Localized words for one locale (what fell back to English is counted by its
    :class:`Translator`, ``fallbacks``).

    Attributes:
        translator: the locale's messages.
        marked: a message shown in English (its translation missing) comes between
            :data:`ENGLISH_OPEN` and :data:`ENGLISH_CLOSE`, for the page to mark it
            (``lang="en"``); for text meant for pages only, never for a terminal.
    """

    translator: Translator
    marked: bool = False

    def as_shown(self, text: str, translated: bool) -> str:
        """``text`` as a page shows it: between the marks of English where it is not
        ``translated`` and :attr:`marked` is set."""
        return f"{ENGLISH_OPEN}{text}{ENGLISH_CLOSE}" if self.marked and not translated \
            else text

    def text(self, msgid: str, context: str | None = None, **params: object) -> str:
        """The translation of ``msgid`` with ``%(name)s`` placeholders filled in and the
        articles that depend on them chosen (Hungarian ``a(z)``:
        :func:`~generator.i18n.articles.choose_articles`)."""
        text, ok = self.translator.gettext(msgid, context)
        filled = choose_articles(text % params, self.translator.locale) if params else text
        return self.as_shown(filled, ok)

    def plural(self, singular: str, plural: str, n: int, **params: object) -> str:
        """The plural form of ``singular``/``plural`` for the count ``n``, with
        ``%(num)s`` (``n`` as the locale writes numbers, or ``params``' ``num``) and the
        other placeholders filled in and the articles that depend on them chosen."""
        text, ok = self.translator.ngettext(singular, plural, n)
        values = {"num": format_decimal(n, self.translator.locale), **params}
        return self.as_shown(choose_articles(text % values, self.translator.locale), ok)

    def code(self, table: str, code: str, **params: object) -> str:
        """The words of a code from :data:`generator.i18n.words.CONTEXTS`, e.g.
        ``code("reason", "wraps_around")``."""
        return self.text(words.CONTEXTS[table][code], table, **params)

    def seat(self, seat: int, *, opens_sentence: bool = False) -> str:
        """The name of seat ``seat`` (from 1) as the subject of a sentence: "Seat 1"
        where it opens the sentence, "seat 1" within it; Hungarian "Az 1. játékos",
        "a 2. játékos" (one message per seat: :data:`words.SEATS`)."""
        table = words.SEAT_CONTEXT if opens_sentence else words.SEAT_WITHIN_CONTEXT
        return self.code(table, str(seat))

    def seat_list(self, seats: Iterable[int]) -> str:
        """Seat numbers, each as the language writes it in a list of seats
        (:data:`words.SEAT_IN_LIST_CONTEXT`), joined the way the locale joins a list
        (CLDR list patterns, via Babel): "2 and 3" in English, "2, 3 a 4" in Czech,
        "a 2. és a 3." in Hungarian, whose sentence then names the seats once ("a 2. és a
        3. játékos")."""
        locale = self.translator.locale
        return format_list(
            tuple(self.text(words.SEAT_IN_LIST, words.SEAT_IN_LIST_CONTEXT,
                            seat=format_decimal(s, locale)) for s in seats),
            locale)

    def card_name(self, card: Card) -> str:
        """The full name of ``card`` in this locale ("srdcová dáma")."""
        return self.text(words.card_msgid(card), words.CARD_CONTEXT)

    def card_label(self, card: Card) -> str:
        """A card as rank code and suit symbol, e.g. ``Q♥`` (language-neutral)."""
        return card.label


def _term(placed: Placed) -> str:
    """A placed card as a term of a points sum: its label, a joker as ``JK→`` and the card
    it stands for."""
    if placed.card.is_joker:
        stands = placed.stands_for
        return f"JK→{stands.label}" if stands else "JK"
    return placed.card.label


JOKER_SENTENCES = {
    JokerWhy.ONLY_PLACE: "joker_only_place",
    JokerWhy.FEWER_POINTS: "joker_fewer_points",
    JokerWhy.LOWER_RANK: "joker_lower_rank",
}
"""Why a joker stands for its card → the explanation's key in
:data:`generator.i18n.words.EXPLANATIONS`."""


def joker_sentence(result: MeldResult, w: Words) -> str | None:
    """Which card the meld's joker stands for, and why ("The joker stands for 6♠, not
    9♠: fewer points."); ``None`` without a joker."""
    joker = result.joker
    if joker is None:
        return None
    if joker.suit is None:
        return w.code("explanation", "joker_open_suit",
                      rank=w.text(words.RANK_NAMES[joker.rank], words.RANK_CONTEXT))
    card = Card(joker.rank, joker.suit).label
    key = JOKER_SENTENCES[joker.why]
    placed = next(p for p in result.placed if p.card.is_joker)
    if (joker.why is not JokerWhy.ONLY_PLACE
            and placed.points != rank_points(placed.rank, placed.place)):
        key = "joker_same_place"  # a flat joker value (house rules)
    other = joker.alternatives[0][0].label if joker.alternatives else ""
    return w.code("explanation", key, card=card, other=other)


TABLE_JOKER_SENTENCES = {
    TableJokerWhy.ONLY_CARD: "joker_only_place",
    TableJokerWhy.KEPT_CARD: "joker_kept_card",
    TableJokerWhy.OPEN_SUIT: "joker_open_suit",
}
"""Why the joker of a meld on the table stands for its card → the explanation's key in
:data:`generator.i18n.words.EXPLANATIONS`."""


def table_joker_sentence(meld: MeldResult, swap: SwapResult, w: Words) -> str | None:
    """Which card the joker of ``meld`` (on the table) stands for, as taking it back
    (``swap``) sees it: the card, never points ("The joker stands for 6♠, not 9♠: it
    keeps the card it took when the meld was laid."); ``None`` without a joker."""
    if swap.why is None or meld.joker is None:
        return None
    key = TABLE_JOKER_SENTENCES[swap.why]
    if swap.why is TableJokerWhy.OPEN_SUIT:
        return w.code("explanation", key,
                      rank=w.text(words.RANK_NAMES[meld.joker.rank], words.RANK_CONTEXT))
    assert swap.stands_for is not None
    other = swap.others[0].label if swap.others else ""
    return w.code("explanation", key, card=swap.stands_for.label, other=other)


def points_sum(placed: Iterable[Placed], total: int, w: Words) -> str:
    """The sentence adding up the points of ``placed`` to ``total`` (code ``points_sum``),
    in ``w``'s words."""
    terms = " + ".join(f"{_term(p)} {p.points}" for p in placed)
    return w.code("explanation", "points_sum", terms=terms, total=total)


def meld_text(placed: Iterable[Placed]) -> str:
    """A meld's cards in meld order, a joker with the card it stands for:
    ``"JK→6♠ 7♠ 8♠ 9♠"``."""
    return " ".join(_term(p) for p in placed)


def explain_meld(result: MeldResult, w: Words) -> list[str]:
    """The reasoning behind a meld's verdict and points, as sentences.

    Returns e.g. ``["The joker stands for 6♠, not 9♠: fewer points.",
    "6♠ 6 + 7♠ 7 + 8♠ 8 = 21"]``.
    """
    out: list[str] = []
    joker = joker_sentence(result, w)
    if joker is not None:
        out.append(joker)
    if not result.valid and result.reason is not None:
        out.append(w.code("reason", result.reason.value))
    if result.valid and result.points is not None:
        out.append(points_sum(result.placed, result.points, w))
    return out


def hand_sum(cards: Sequence[Card], rules: RuleSet, w: Words) -> str:
    """A hand's value as a sum: ``"A♥ 11 + JK 25 = 36"``."""
    terms = " + ".join(f"{c.label} {card_hand_points(c, rules)}" for c in cards)
    return w.code("explanation", "points_sum", terms=terms, total=hand_value(cards, rules))


def explain_seats(hands: Sequence[Sequence[Card]], rules: RuleSet, w: Words) -> list[str]:
    """Each seat's hand value as a sum (``"Seat 3: JK 25 + A♥ 11 = 36"``), or that the
    seat has no cards left."""
    out: list[str] = []
    for seat, hand in enumerate(hands, start=1):
        if hand:
            terms = " + ".join(f"{c.label} {card_hand_points(c, rules)}" for c in hand)
            out.append(w.code("explanation", "seat_hand", seat=seat, terms=terms,
                              total=hand_value(hand, rules)))
        else:
            out.append(w.code("explanation", "seat_out", seat=seat))
    return out


def explain_round(hands: Sequence[Sequence[Card]], result: RoundResult, rules: RuleSet,
                  w: Words) -> list[str]:
    """Each seat's hand value, why the winner won, and how the round is scored."""
    out = explain_seats(hands, rules, w)
    if result.went_out:
        out.append(w.code("explanation", "winner_went_out",
                          seat=w.seat(result.winner, opens_sentence=True)))
    elif result.tied:
        out.append(w.code("explanation", "winner_tied", seat=w.seat(result.winner),
                          seats=w.seat_list(result.tied)))
    else:
        out.append(w.code("explanation", "winner_lowest", seat=w.seat(result.winner)))
    if rules.winner_collects:
        others = [v for i, v in enumerate(result.hand_values, start=1) if i != result.winner]
        total = sum(others)
        text = " + ".join(map(str, others))
        if len(others) > 1:
            text = f"{text} = {total}"
        out.append(w.code("explanation", "scores_collected", sum=text))
    else:
        out.append(w.code("explanation", "scores_own_value"))
    return out
