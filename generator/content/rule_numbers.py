"""Named rule numbers for prose placeholders, computed from the engine's rule sets.

A page writes ``{rami51.threshold}`` where a number of the rules stands, so the
prose cannot disagree with the engine (docs/DESIGN.md, "Content Markdown"). Each game's
numbers are part of its record (:attr:`generator.engine.rules.GameSpec.numbers`); the
numbers of melds and cards every game shares are here.
"""

from __future__ import annotations

from generator.engine.cards import Rank
from generator.engine.melds import HIGH_ACE
from generator.engine.melds import MAX_RUN_CARDS
from generator.engine.melds import MAX_SET_CARDS
from generator.engine.melds import MIN_MELD_CARDS
from generator.engine.melds import rank_points
from generator.engine.rules import games
from generator.engine.rules import per_registry


@per_registry
def facts() -> dict[str, int]:
    """Every named rule number, e.g. ``{"rami51.threshold": 51, "rami.hand_size": 13, …}``:
    each registered game's (:meth:`generator.engine.rules.GameSpec.facts`), in registry
    order, then those of melds and cards.

    Values are integers (points, cards, players, turns). Sources: docs/rules.md "Games and
    presets", "Cards and decks", "End of a round", "Scoring".
    """
    values: dict[str, int] = {}
    for spec in games():
        values.update(spec.facts())
    values.update({
        "rami.ace_high_points": rank_points(Rank.ACE, HIGH_ACE),
        "rami.ace_low_points": rank_points(Rank.ACE, 1),
        "card.face_points": rank_points(Rank.KING, int(Rank.KING)),
        "meld.min_cards": MIN_MELD_CARDS,
        "run.max_cards": MAX_RUN_CARDS,
        "set.max_cards": MAX_SET_CARDS,
    })
    return values
