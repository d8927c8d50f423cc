"""Words for the engine's codes and reasoning, in one locale.

The engine gives codes and structured reasoning (:mod:`generator.engine.melds`);
this module turns them into sentences through a :class:`~generator.i18n.catalog.Translator`.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.cards import Card
from generator.engine.melds import MeldResult
from generator.engine.melds import Placed
from generator.engine.melds import rank_points
from generator.i18n import words
from generator.i18n.catalog import Translator
from generator.verify import CaseResult


@dataclass
class Words:
    """Localized words for one locale, counting every message that fell back to English.

    Attributes:
        translator: the locale's messages.
        fallbacks: how many lookups fell back to English since the last :meth:`reset`.
    """

    translator: Translator
    fallbacks: int = 0

    def reset(self) -> int:
        """Return the fallback count and start again from zero."""
        n, self.fallbacks = self.fallbacks, 0
        return n

    def text(self, msgid: str, context: str | None = None, **params: object) -> str:
        """The translation of ``msgid`` with ``%(name)s`` placeholders filled in."""
        text, ok = self.translator.gettext(msgid, context)
        if not ok:
            self.fallbacks += 1
        return text % params if params else text

    def code(self, table: str, code: str, **params: object) -> str:
        """The words of a code from :data:`generator.i18n.words.CONTEXTS`, e.g.
        ``code("reason", "wraps_around")``."""
        return self.text(words.CONTEXTS[table][code], table, **params)

    def card_name(self, card: Card) -> str:
        """The full name of ``card`` in this locale ("srdcová dáma")."""
        return self.text(words.card_msgid(card), words.CARD_CONTEXT)

    def card_label(self, card: Card) -> str:
        """A card as rank code and suit symbol, e.g. ``Q♥`` (language-neutral)."""
        return card.label


def _term(placed: Placed) -> str:
    if placed.card.is_joker:
        stands = placed.stands_for
        return f"JK→{stands.label}" if stands else "JK"
    return placed.card.label


def explain_meld(result: MeldResult, w: Words) -> list[str]:
    """The reasoning behind a meld's verdict and points, as sentences.

    Returns e.g. ``["The joker stands for 6♠, not 9♠: fewer points.",
    "6♠ 6 + 7♠ 7 + 8♠ 8 = 21"]``.
    """
    out: list[str] = []
    joker = result.joker
    if joker is not None:
        if joker.suit is None:
            out.append(w.code("explanation", "joker_open_suit",
                              rank=w.text(words.RANK_NAMES[joker.rank], words.RANK_CONTEXT)))
        else:
            card = Card(joker.rank, joker.suit).label
            key = {"only_place": "joker_only_place", "fewer_points": "joker_fewer_points",
                   "lower_rank": "joker_lower_rank"}[joker.why]
            placed = next(p for p in result.placed if p.card.is_joker)
            if key != "joker_only_place" and placed.points != rank_points(placed.rank,
                                                                           placed.place):
                key = "joker_same_place"  # a flat joker value (house rules)
            other = joker.alternatives[0][0].label if joker.alternatives else ""
            out.append(w.code("explanation", key, card=card, other=other))
    if not result.valid and result.reason is not None:
        out.append(w.code("reason", result.reason.value))
    if result.valid and result.points is not None:
        terms = " + ".join(f"{_term(p)} {p.points}" for p in result.placed)
        out.append(w.code("explanation", "points_sum", terms=terms, total=result.points))
    return out


def explain_case(result: CaseResult, w: Words) -> list[str]:
    """The engine's reasoning for a case: for a meld, its joker and points; for a first
    meld, each meld's reasoning and, when one is invalid, which and why."""
    if result.meld is not None:
        return explain_meld(result.meld, w)
    if result.opening is not None:
        out: list[str] = []
        for i, meld in enumerate(result.opening.melds, start=1):
            if not meld.valid and meld.reason is not None:
                out.append(w.code("explanation", "meld_invalid_at", num=i,
                                  reason=w.code("reason", meld.reason.value)))
            else:
                out.extend(explain_meld(meld, w))
        return out
    return []


def context_text(result: CaseResult, w: Words) -> str:
    """The small print under points: the preset, and for a first meld the threshold."""
    case = result.case
    preset = w.code("preset", case.rules) if case.rules else w.code("game", case.game)
    if result.opening is not None:
        return w.code("explanation", "threshold_context",
                      threshold=result.opening.threshold, preset=preset)
    return preset
