"""The whole game as a state machine: deal, actions, legality, round end and scoring.

Sources: docs/rules.md "A turn", "Taking back a joker", "The opening (first meld), Rami",
"End of a round", "Scoring" and "Order of reasons". Every difference between the games
comes from the :class:`~generator.engine.rules.RuleSet` (``opening_threshold``,
``max_reshuffles``, ``turn_limit``, ``discard_to_win``, ``winner_collects``,
``target_score``...), never from the game's id.

Shapes and numbering (the Python API is 0-based; the ``scenario`` case form is 1-based
and the case loader converts):

- a seat is an index ``0 .. players-1``; seat 0 sits left of the dealer when the dealer
  is the last seat (the default), and play goes on in seat order;
- ``GameState.hands[seat]`` is a tuple of cards (order: as dealt, drawn cards appended);
- ``GameState.stock`` is top first; ``GameState.discard`` is bottom first, top last;
- ``GameState.table`` holds the melds in the order laid; an action names a table meld
  by its index in that tuple (``LayOff.onto``, ``TakeJoker.onto``);
- a round's :class:`~generator.engine.hand.RoundResult` keeps ``hand.py``'s 1-based
  seats (``winner`` = seat index + 1).

Cards are values: two queens of hearts from different decks are equal and
interchangeable. :func:`apply` never changes a state; it returns an :class:`Outcome`
with the new state (the old one when the action is illegal), the reason code of an
illegal action and the events of a legal one. Reason codes: :class:`PlayReason`;
events: :class:`Event`.

The package's modules, each with one job: :mod:`~generator.engine.game.actions` (the
actions), :mod:`~generator.engine.game.state` (the state and an action's outcome),
:mod:`~generator.engine.game.setup` (dealing, a given start position),
:mod:`~generator.engine.game.legality` (why an action is illegal),
:mod:`~generator.engine.game.play` (:func:`apply`),
:mod:`~generator.engine.game.moves` (:func:`legal_actions`),
:mod:`~generator.engine.game.score` (a whole game) and
:mod:`~generator.engine.game.cache` (card instances and cached meld verdicts). Everything
public is imported here: ``from generator.engine.game import apply``.
"""

from __future__ import annotations

from generator.engine.codes import EndReason
from generator.engine.codes import Event
from generator.engine.codes import PlayReason
from generator.engine.game.actions import Action
from generator.engine.game.actions import Discard
from generator.engine.game.actions import Draw
from generator.engine.game.actions import LayOff
from generator.engine.game.actions import Meld
from generator.engine.game.actions import TakeJoker
from generator.engine.game.cache import meld_result
from generator.engine.game.cache import run_joker_card
from generator.engine.game.moves import hand_melds
from generator.engine.game.moves import legal_actions
from generator.engine.game.play import apply
from generator.engine.game.score import GameScore
from generator.engine.game.score import new_game
from generator.engine.game.score import record_round
from generator.engine.game.setup import SetupError
from generator.engine.game.setup import deal
from generator.engine.game.setup import full_deck
from generator.engine.game.setup import start
from generator.engine.game.state import EVENTS
from generator.engine.game.state import REASONS
from generator.engine.game.state import GameState
from generator.engine.game.state import Outcome
from generator.engine.game.state import RoundEnd
from generator.engine.game.state import TableMeld

__all__ = [
    "EVENTS",
    "REASONS",
    "Action",
    "Discard",
    "Draw",
    "EndReason",
    "Event",
    "GameScore",
    "GameState",
    "LayOff",
    "Meld",
    "Outcome",
    "PlayReason",
    "RoundEnd",
    "SetupError",
    "TableMeld",
    "TakeJoker",
    "apply",
    "deal",
    "full_deck",
    "hand_melds",
    "legal_actions",
    "meld_result",
    "new_game",
    "record_round",
    "run_joker_card",
    "start",
]
