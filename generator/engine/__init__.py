"""The rules engine: pure functions over immutable values, no I/O, no words of any language.

Results carry codes (``wraps_around``, ``below_threshold``) and the reasoning behind
a number (which card a joker stands for); the site turns codes into words.
"""

from generator.engine.best import BestOpening
from generator.engine.best import best_opening
from generator.engine.cards import JOKER
from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import Rank
from generator.engine.cards import Suit
from generator.engine.cards import parse_card
from generator.engine.cards import parse_cards
from generator.engine.deck import DeckResult
from generator.engine.deck import deck
from generator.engine.melds import MeldReason
from generator.engine.melds import MeldResult
from generator.engine.melds import MeldType
from generator.engine.melds import check_meld
from generator.engine.opening import NoOpeningError
from generator.engine.opening import OpeningReason
from generator.engine.opening import OpeningResult
from generator.engine.opening import check_opening
from generator.engine.rules import PlayerCountError
from generator.engine.rules import RuleSet
from generator.engine.rules import UnknownGameError
from generator.engine.rules import rule_set

__all__ = [
    "JOKER",
    "BestOpening",
    "Card",
    "CardCodeError",
    "DeckResult",
    "MeldReason",
    "MeldResult",
    "MeldType",
    "NoOpeningError",
    "OpeningReason",
    "OpeningResult",
    "PlayerCountError",
    "Rank",
    "RuleSet",
    "Suit",
    "UnknownGameError",
    "best_opening",
    "check_meld",
    "check_opening",
    "deck",
    "parse_card",
    "parse_cards",
    "rule_set",
]
