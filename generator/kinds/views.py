"""View pieces the kinds' rows share: cards and seats, in one locale.

Every value shown comes from the engine, never from the case file's ``expect``.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Sequence

from generator.engine.cards import Card
from generator.engine.hand import RoundResult
from generator.i18n import words
from generator.i18n.explain import Words
from generator.i18n.numbers import format_decimal
from generator.kinds.base import View


def card_view(card: Card, w: Words, context: str = words.CARD_CONTEXT) -> View:
    """A card for the ``card`` macro: ``label`` (rank code), ``symbol``, ``red``,
    ``joker``, ``name`` (the full localized name, for screen readers) and ``name_en``
    (true when the name is not translated yet and is given in English).

    ``context`` picks the grammatical form of the name: :data:`words.CARD_CONTEXT` as it
    stands alone (a table cell), :data:`words.CARD_OBJECT_CONTEXT` as the object of a
    verb in a sentence ("seat 1 discards …": Czech "srdcovou dámu")."""
    name, ok = w.translator.gettext(words.card_msgid(card), context)
    view: View = {"name": name, "name_en": not ok}
    if card.rank is None or card.suit is None:
        view.update(label="JK", symbol="★", red=False, joker=True)
    else:
        view.update(label=card.rank.code, symbol=card.suit.symbol, red=card.suit.is_red,
                    joker=False)
    return view


def cards_view(cards: Iterable[Card], w: Words, context: str = words.CARD_CONTEXT) -> list[View]:
    """Each card's :func:`card_view`."""
    return [card_view(c, w, context) for c in cards]


def seats_view(hands: Sequence[Sequence[Card]], result: RoundResult, w: Words) -> list[View]:
    """A scored round's seats: ``seat``, ``label``, ``cards`` (the hand left),
    ``out_text`` (for the seat that went out), ``value_text``, ``score_text``, ``winner``."""
    locale = w.translator.locale
    return [
        {
            "seat": seat,
            "label": w.text("Seat %(seat)s", seat=seat),
            "cards": cards_view(hand, w),
            "out_text": "" if hand else w.text("went out"),
            "value_text": format_decimal(value, locale=locale),
            "score_text": format_decimal(score, locale=locale),
            "winner": seat == result.winner,
        }
        for seat, (hand, value, score) in enumerate(
            zip(hands, result.hand_values, result.scores, strict=True), start=1)
    ]


def round_view(hands: Sequence[Sequence[Card]], result: RoundResult, w: Words) -> View:
    """A scored round's row parts: ``seats``, ``winner_text`` and its ``data-*``
    (``winner``, ``scores``)."""
    return {
        "seats": seats_view(hands, result, w),
        "winner_text": w.text("Seat %(seat)s", seat=result.winner),
        "data": {"winner": str(result.winner), "scores": " ".join(map(str, result.scores))},
    }
