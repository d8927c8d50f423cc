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
from generator.engine.codes import MeldReason
from generator.engine.codes import MeldType
from generator.engine.codes import OpeningReason
from generator.engine.codes import PlayReason
from generator.engine.deck import DeckResult
from generator.engine.deck import deck
from generator.engine.game import Action
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameScore
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import Outcome
from generator.engine.game import RoundEnd
from generator.engine.game import SetupError
from generator.engine.game import TableMeld
from generator.engine.game import TakeJoker
from generator.engine.game import apply
from generator.engine.game import deal
from generator.engine.game import legal_actions
from generator.engine.game import start
from generator.engine.melds import MeldResult
from generator.engine.melds import check_meld
from generator.engine.opening import NoOpeningError
from generator.engine.opening import OpeningResult
from generator.engine.opening import check_opening
from generator.engine.rules import GameSpec
from generator.engine.rules import PlayerCountError
from generator.engine.rules import RuleSet
from generator.engine.rules import UnknownGameError
from generator.engine.rules import find_game
from generator.engine.rules import games
from generator.engine.rules import rule_set

__all__ = [
    "JOKER",
    "Action",
    "BestOpening",
    "Card",
    "CardCodeError",
    "DeckResult",
    "Discard",
    "Draw",
    "GameScore",
    "GameSpec",
    "GameState",
    "LayOff",
    "Meld",
    "MeldReason",
    "MeldResult",
    "MeldType",
    "NoOpeningError",
    "OpeningReason",
    "OpeningResult",
    "Outcome",
    "PlayReason",
    "PlayerCountError",
    "Rank",
    "RoundEnd",
    "RuleSet",
    "SetupError",
    "Suit",
    "TableMeld",
    "TakeJoker",
    "UnknownGameError",
    "apply",
    "best_opening",
    "check_meld",
    "check_opening",
    "deal",
    "deck",
    "find_game",
    "games",
    "legal_actions",
    "parse_card",
    "parse_cards",
    "rule_set",
    "start",
]
