"""The games as rule-set data (docs/rules.md, "Games and presets", "Cards and decks").

Every difference between Rami 40, Rami 51 (presets ``reference`` and ``house``)
and the CardVerse variant is a field of :class:`RuleSet`; the rest of the engine
reads these fields and never asks which game it is playing.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from dataclasses import replace

from generator.engine.codes import Game
from generator.engine.codes import Option
from generator.engine.codes import Preset


class UnknownGameError(ValueError):
    """A game id, preset or option that does not exist, or does not apply to the game."""


class PlayerCountError(ValueError):
    """A player count the game does not allow (Rami: 2-6, CardVerse: 2-4)."""


class AcePlace(enum.Enum):
    """Where an ace may stand in a run (docs/rules.md, Melds)."""

    LOW = "low"
    """Before the two (A-2-3); worth 1 point when melded."""
    HIGH = "high"
    """After the king (Q-K-A); worth 11 points when melded."""


@dataclass(frozen=True)
class DeckRow:
    """Deck composition for a range of player counts (docs/rules.md, Cards and decks).

    Attributes:
        min_players, max_players: the inclusive range of player counts (players).
        decks: 52-card decks shuffled together.
        jokers: jokers added (cards).
        hand_size: cards dealt to each player.
    """

    min_players: int
    max_players: int
    decks: int
    jokers: int
    hand_size: int

    @property
    def cards(self) -> int:
        """Cards in play: ``52 * decks + jokers``."""
        return 52 * self.decks + self.jokers


@dataclass(frozen=True)
class RuleSet:
    """One game under one preset and options: everything the engine needs to know.

    Attributes:
        game: the game's id (:class:`~generator.engine.codes.Game`).
        preset: the Rami preset (:class:`~generator.engine.codes.Preset`); ``None`` for
            a game without presets (CardVerse).
        deck: deck rows covering every allowed player count, in order.
        ace_places: where an ace may stand in a run.
        jokers_per_meld: the most jokers one meld may hold (0 = no jokers in the game).
        joker_meld_points: points of a melded joker; ``None`` = the value of the card
            it stands for (reference preset).
        meld_points: whether melds are worth points (Rami: yes, for the opening).
        opening_threshold: points the first meld must total; ``None`` = no opening.
        opening_needs_pure_run: whether the first meld must hold a run without a joker.
        max_reshuffles: times per round the discard pile may become the new stock.
        turn_limit: turns (all players' together) after which the round ends; ``None``.
        target_score: points that end a game (CardVerse); ``None`` for Rami.
        ace_hand_points: an ace left in a hand (points).
        joker_hand_points: a joker left in a hand (points); 0 where there are none.
        ace_high: the CardVerse option ``ace_high`` (affects hand values only).
        discard_to_win: the CardVerse option ``discard_to_win``.
        winner_collects: the round's winner scores the others' hand values (CardVerse);
            otherwise every loser adds their own hand value (Rami).
        keep_taken_discard: the card just taken from the discard pile may not be discarded
            in the same turn (Rami, docs/rules.md "A turn"; the CardVerse source is silent).
    """

    game: Game
    preset: Preset | None
    deck: tuple[DeckRow, ...]
    ace_places: frozenset[AcePlace]
    jokers_per_meld: int
    joker_meld_points: int | None
    meld_points: bool
    opening_threshold: int | None
    opening_needs_pure_run: bool
    max_reshuffles: int
    turn_limit: int | None
    target_score: int | None
    ace_hand_points: int
    joker_hand_points: int
    ace_high: bool = False
    discard_to_win: bool = False
    winner_collects: bool = False
    keep_taken_discard: bool = False

    @property
    def has_jokers(self) -> bool:
        """True when the game is played with jokers."""
        return self.jokers_per_meld > 0

    @property
    def min_players(self) -> int:
        """The fewest players the game allows."""
        return self.deck[0].min_players

    @property
    def max_players(self) -> int:
        """The most players the game allows."""
        return self.deck[-1].max_players

    @property
    def max_copies(self) -> int:
        """The most copies of one natural card in play (one per deck, largest deck pile)."""
        return max(row.decks for row in self.deck)

    @property
    def max_jokers(self) -> int:
        """The most jokers in play for any player count."""
        return max(row.jokers for row in self.deck)

    def deck_for(self, players: int) -> DeckRow:
        """The deck row for ``players`` players.

        Raises:
            PlayerCountError: the game does not allow that many players.
        """
        for row in self.deck:
            if row.min_players <= players <= row.max_players:
                return row
        raise PlayerCountError(
            f"{players} players; expected {self.min_players} to {self.max_players}"
        )


_RAMI_REFERENCE_DECK = (DeckRow(2, 4, 2, 4, 13), DeckRow(5, 6, 3, 4, 13))
_RAMI_HOUSE_DECK = (DeckRow(2, 4, 2, 2, 13), DeckRow(5, 6, 3, 3, 13))

_RAMI_REFERENCE = RuleSet(
    game=Game.RAMI51,
    preset=Preset.REFERENCE,
    deck=_RAMI_REFERENCE_DECK,
    ace_places=frozenset({AcePlace.LOW, AcePlace.HIGH}),
    jokers_per_meld=1,
    joker_meld_points=None,
    meld_points=True,
    opening_threshold=51,
    opening_needs_pure_run=True,
    max_reshuffles=2,
    turn_limit=300,
    target_score=None,
    ace_hand_points=11,
    joker_hand_points=25,
    keep_taken_discard=True,
)

_PRESETS: dict[Preset, dict[str, object]] = {
    Preset.REFERENCE: {},
    Preset.HOUSE: {"deck": _RAMI_HOUSE_DECK, "joker_meld_points": 15, "joker_hand_points": 15},
}

_GAMES: dict[Game, dict[str, object]] = {
    Game.RAMI40: {"opening_threshold": 40, "opening_needs_pure_run": False},
    Game.RAMI51: {"opening_threshold": 51, "opening_needs_pure_run": True},
}

_CARDVERSE = RuleSet(
    game=Game.CARDVERSE,
    preset=None,
    deck=(DeckRow(2, 2, 1, 0, 7), DeckRow(3, 4, 1, 0, 10)),
    ace_places=frozenset({AcePlace.HIGH}),
    jokers_per_meld=0,
    joker_meld_points=None,
    meld_points=False,
    opening_threshold=None,
    opening_needs_pure_run=False,
    max_reshuffles=0,
    turn_limit=None,
    target_score=100,
    ace_hand_points=1,
    joker_hand_points=0,
    winner_collects=True,
)

GAMES: tuple[Game, ...] = tuple(Game)
"""The game ids, in the order the site lists them."""

PRESETS: tuple[Preset, ...] = tuple(Preset)
"""The Rami presets, in the order the site lists them."""

DEFAULT_PRESET = Preset.REFERENCE
"""The preset of a Rami game that names none (the app's default)."""

CARDVERSE_OPTIONS: tuple[Option, ...] = tuple(Option)
"""The CardVerse options (booleans, default off)."""

_GAME_OPTIONS: dict[Game, tuple[Option, ...]] = {Game.CARDVERSE: CARDVERSE_OPTIONS}


def is_rami(game: str) -> bool:
    """True for the games that have presets (``rami40``, ``rami51``)."""
    return game in _GAMES


def presets_of(game: str) -> tuple[Preset, ...]:
    """The presets ``game`` is played under (:data:`PRESETS` for Rami); ``()`` for a game
    without presets or an unknown id."""
    return PRESETS if is_rami(game) else ()


def options_of(game: str) -> tuple[Option, ...]:
    """The options ``game`` takes (:data:`CARDVERSE_OPTIONS` for CardVerse); ``()`` for a
    game without options or an unknown id."""
    return next((options for g, options in _GAME_OPTIONS.items() if g == game), ())


GAMES_WITH_PRESETS: tuple[Game, ...] = tuple(g for g in GAMES if presets_of(g))
"""The games played under a preset (Rami)."""

GAMES_WITH_OPTIONS: tuple[Game, ...] = tuple(g for g in GAMES if options_of(g))
"""The games that take options (CardVerse)."""


def rule_set(
    game: str,
    preset: str | None = None,
    *,
    ace_high: bool = False,
    discard_to_win: bool = False,
) -> RuleSet:
    """The rule set of ``game`` under ``preset`` (Rami) or the options (CardVerse).

    Args:
        game: one of :data:`GAMES`.
        preset: one of :data:`PRESETS` for Rami (:data:`DEFAULT_PRESET` when ``None``);
            must be ``None`` for CardVerse.
        ace_high, discard_to_win: CardVerse options; must be false for Rami.

    Raises:
        UnknownGameError: unknown game or preset, or a preset/option that does not
            apply to the game.
    """
    if game in _GAMES:
        if ace_high or discard_to_win:
            raise UnknownGameError(f"options apply to {' and '.join(GAMES_WITH_OPTIONS)} only, "
                                   f"not {game}")
        preset = preset or DEFAULT_PRESET
        if preset not in PRESETS:
            raise UnknownGameError(f"unknown preset {preset!r}; expected "
                                   + " or ".join(PRESETS))
        changes: dict[str, object] = {"game": Game(game), "preset": Preset(preset)}
        changes.update(_GAMES[Game(game)])
        changes.update(_PRESETS[Preset(preset)])
        return replace(_RAMI_REFERENCE, **changes)  # type: ignore[arg-type]
    if game == Game.CARDVERSE:
        if preset is not None:
            raise UnknownGameError(f"presets apply to {' and '.join(GAMES_WITH_PRESETS)} only, "
                                   f"not {game}")
        return replace(
            _CARDVERSE,
            ace_high=ace_high,
            discard_to_win=discard_to_win,
            ace_hand_points=11 if ace_high else 1,
        )
    raise UnknownGameError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
