"""Named rule numbers for prose placeholders, computed from the engine's rule sets.

A page writes ``{rami51.threshold}`` where a number of the rules stands, so the
prose cannot disagree with the engine (docs/DESIGN.md, "Content Markdown").
"""

from __future__ import annotations

from functools import cache

from generator.engine.cards import Rank
from generator.engine.codes import Game
from generator.engine.codes import Preset
from generator.engine.melds import HIGH_ACE
from generator.engine.melds import MAX_RUN_CARDS
from generator.engine.melds import MAX_SET_CARDS
from generator.engine.melds import MIN_MELD_CARDS
from generator.engine.melds import rank_points
from generator.engine.rules import RuleSet
from generator.engine.rules import rule_set


def _deck_facts(prefix: str, rules: RuleSet) -> dict[str, int]:
    small, large = rules.deck[0], rules.deck[-1]
    return {
        f"{prefix}.small_decks": small.decks,
        f"{prefix}.small_jokers": small.jokers,
        f"{prefix}.small_cards": small.cards,
        f"{prefix}.large_decks": large.decks,
        f"{prefix}.large_jokers": large.jokers,
        f"{prefix}.large_cards": large.cards,
        f"{prefix}.joker_hand_points": rules.joker_hand_points,
    }


@cache
def facts() -> dict[str, int]:
    """Every named rule number, e.g. ``{"rami51.threshold": 51, "rami.hand_size": 13, …}``.

    Values are integers (points, cards, players, turns). Sources: docs/rules.md "Games and
    presets", "Cards and decks", "End of a round", "Scoring".
    """
    r40 = rule_set(Game.RAMI40)
    r51 = rule_set(Game.RAMI51)
    house = rule_set(Game.RAMI51, Preset.HOUSE)
    cv = rule_set(Game.CARDVERSE)
    cv_high = rule_set(Game.CARDVERSE, ace_high=True)
    assert r51.opening_threshold is not None and r40.opening_threshold is not None
    assert house.joker_meld_points is not None and cv.target_score is not None
    assert r51.turn_limit is not None
    values = {
        "rami.min_players": r51.min_players,
        "rami.max_players": r51.max_players,
        "rami.hand_size": r51.deck[0].hand_size,
        "rami.small_max_players": r51.deck[0].max_players,
        "rami.large_min_players": r51.deck[-1].min_players,
        "rami.reshuffles": r51.max_reshuffles,
        "rami.turn_limit": r51.turn_limit,
        "rami.ace_hand_points": r51.ace_hand_points,
        "rami.jokers_per_meld": r51.jokers_per_meld,
        "rami40.threshold": r40.opening_threshold,
        "rami51.threshold": r51.opening_threshold,
        "rami.house.joker_meld_points": house.joker_meld_points,
        **_deck_facts("rami.reference", r51),
        **_deck_facts("rami.house", house),
        "cardverse.min_players": cv.min_players,
        "cardverse.max_players": cv.max_players,
        "cardverse.cards": cv.deck[0].cards,
        "cardverse.hand_size_two": cv.deck[0].hand_size,
        "cardverse.hand_size_more": cv.deck[-1].hand_size,
        "cardverse.more_min_players": cv.deck[-1].min_players,
        "cardverse.target_score": cv.target_score,
        "cardverse.ace_points": cv.ace_hand_points,
        "cardverse.ace_high_points": cv_high.ace_hand_points,
        "rami.ace_high_points": rank_points(Rank.ACE, HIGH_ACE),
        "rami.ace_low_points": rank_points(Rank.ACE, 1),
        "card.face_points": rank_points(Rank.KING, int(Rank.KING)),
        "meld.min_cards": MIN_MELD_CARDS,
        "run.max_cards": MAX_RUN_CARDS,
        "set.max_cards": MAX_SET_CARDS,
    }
    return values
