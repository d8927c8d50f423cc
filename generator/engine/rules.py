"""The games: one record per game in one registry (docs/rules.md, "Games and presets",
"Cards and decks").

As python-chess lists its variants (``chess.variant.VARIANTS``, ``find_variant``), this
module lists its games: a :class:`GameSpec` holds everything the generator knows of one
game (its id, its display name's msgid, its rule set, its presets and options, the rule
numbers its pages may cite), and :func:`games` / :func:`find_game` are the registry.
Everything else is derived from it: the rule sets (:func:`rule_set`), the game lists of
the case-file schemas and messages (:data:`GAMES` and the other live lists), the words
(``generator/i18n/words.py``), the placeholders (``generator/content/rule_numbers.py``)
and the command line's choices. Adding a game is one entry of :data:`_BUILT_IN`; a
project registers one of its own with :func:`register_game` or an entry point (group
``rules_site.games``, loaded by ``generator/kinds/registry.py`` through
:func:`load_before_use`).

Every difference between Rami 40, Rami 51 (presets ``reference`` and ``house``) and the
CardVerse variant is a field of :class:`RuleSet`; the rest of the engine reads these
fields and never asks which game it is playing.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from dataclasses import replace
from types import MappingProxyType
from typing import Any
from typing import Generic
from typing import ParamSpec
from typing import TypeVar
from typing import overload

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
        game: the game's id (:attr:`GameSpec.id`).
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

    game: str
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


Number = Callable[["GameSpec"], int]
"""A rule number of a game: its value read from the game's record."""

_P = ParamSpec("_P")
_T = TypeVar("_T")
_RULE_SET_FIELDS = frozenset(f.name for f in fields(RuleSet))


def _nothing() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One game, whole: everything the generator knows of it (python-chess keeps a variant
    in one class the same way). Records are compared and hashed by identity.

    Attributes:
        id: the game's id, ``game:`` of case files (``"rami51"``): lowercase letters and
            digits.
        name: its display name, the English msgid of the catalogs' context ``game``
            (``"Rami 51"``); ``generator/i18n/words.py`` hands it to the catalogs
            (``i18n extract`` extracts it from there) and the pages, the engine never
            shows it.
        rules: its rule set under its default preset (the first of :attr:`presets`),
            every option off; ``rules.game`` is :attr:`id`.
        presets: the presets it is played under, each with the :class:`RuleSet` fields
            it changes, in the order the site lists them (the first the default); empty
            for a game without presets. Copied when the record is made, read-only: a
            mapping changed afterwards changes no record (:func:`rule_set` keeps the
            rule sets it made).
        options: the options it takes, each with the :class:`RuleSet` fields it changes
            when on (every option is off by default); empty for a game without options;
            copied and read-only as :attr:`presets` are.
        numbers: the rule numbers its pages may cite as placeholders (``{rami51.threshold}``),
            each a function of this record; two games may give one name (``rami.*``, the
            Rami games' shared numbers) only with one value.
    """

    id: str
    name: str
    rules: RuleSet
    presets: Mapping[Preset, Mapping[str, Any]] = field(default_factory=_nothing)
    options: Mapping[Option, Mapping[str, Any]] = field(default_factory=_nothing)
    numbers: Mapping[str, Number] = field(default_factory=_nothing)

    def __post_init__(self) -> None:
        """Checks the record's parts fit together.

        Raises:
            ValueError: an id of other characters, a rule set of another game or preset,
                a preset or option changing no field of :class:`RuleSet`.
        """
        if not self.id or not all(c.isascii() and (c.islower() or c.isdigit())
                                   for c in self.id):
            raise ValueError(f"game id {self.id!r}; expected lowercase letters and digits")
        for name in ("presets", "options"):
            object.__setattr__(self, name, MappingProxyType(
                {key: MappingProxyType(dict(changes))
                 for key, changes in getattr(self, name).items()}))
        if self.rules.game != self.id or self.rules.preset != self.default_preset:
            raise ValueError(f"game {self.id!r}: its rule set is for game "
                             f"{self.rules.game!r}, preset {self.rules.preset!r}; expected "
                             f"game {self.id!r}, preset {self.default_preset!r}")
        for what, changes in (*self.presets.items(), *self.options.items()):
            unknown = sorted(set(changes) - _RULE_SET_FIELDS)
            if unknown:
                raise ValueError(f"game {self.id!r}: {what} changes {', '.join(unknown)}; "
                                 "expected fields of RuleSet")

    @property
    def default_preset(self) -> Preset | None:
        """The preset of a case that names none (the first); ``None`` without presets."""
        return next(iter(self.presets), None)

    def rule_set(self, preset: str | None = None, **options: bool) -> RuleSet:
        """The game's rule set under ``preset`` with ``options`` on.

        Args:
            preset: one of :attr:`presets` (the default preset when ``None``); must be
                ``None`` for a game without presets.
            options: option code → whether it is on; an option that is off changes
                nothing.

        Raises:
            UnknownGameError: an unknown preset or option, or a preset or option given to
                a game without them.
        """
        rules = self.rules
        if self.presets:
            chosen = preset or self.default_preset
            if chosen is None or chosen not in self.presets:
                raise UnknownGameError(f"unknown preset {preset!r}; expected "
                                       + " or ".join(self.presets))
            rules = replace(rules, preset=Preset(chosen), **self.presets[Preset(chosen)])
        elif preset is not None:
            raise UnknownGameError(f"presets apply to {' and '.join(GAMES_WITH_PRESETS)} "
                                   f"only, not {self.id}")
        for name, on in options.items():
            if on and name not in self.options:
                if not self.options:
                    raise UnknownGameError(f"options apply to "
                                           f"{' and '.join(GAMES_WITH_OPTIONS)} only, not "
                                           f"{self.id}")
                raise UnknownGameError(f"unknown option {name!r} of {self.id}; expected "
                                       + " or ".join(self.options))
        for option, changes in self.options.items():
            if options.get(option):
                rules = replace(rules, **changes)
        return rules

    def facts(self) -> dict[str, int]:
        """Its rule numbers' values, by placeholder name (``{"rami51.threshold": 51}``)."""
        return {name: number(self) for name, number in self.numbers.items()}


# -- the registry -------------------------------------------------------------------------


_registry: tuple[GameSpec, ...] = ()
"""The games, in the order the site lists them; replaced whole on every change, so that
the tuple itself says which state of the registry a value was derived from."""


_loaders: list[Callable[[], None]] = []
"""Functions that register more games, each run once, before the registry is next read
(:func:`load_before_use`)."""

_epoch = 0
"""How many times a registry outside this module that :func:`per_registry` values read
from has changed (:func:`registry_changed`)."""


def load_before_use(loader: Callable[[], None]) -> None:
    """Run ``loader`` once, the first time the registry is read after this call: a layer
    above the engine hands in the function that registers the games of installed
    distributions (entry points), so that the engine reads no file itself.

    Args:
        loader: registers games (:func:`register_game`); what it raises reaches the
            reader of the registry that ran it, and it is not run again.
    """
    _loaders.append(loader)


def _load() -> None:
    """Run the loaders handed in by :func:`load_before_use`, each once."""
    while _loaders:
        _loaders.pop(0)()


_outside: dict[str, str] = {}
"""What was registered by a call from outside the package, by ``"game:<id>"`` or
``"kind:<name>"``: a text that differs whenever the record does (:func:`outside_identity`)."""


def registry_changed(name: str | None = None, identity: str | None = None) -> None:
    """Make every value derived from the registry be derived again (:func:`per_registry`,
    :class:`Live`, what keeps the registry's tuple to compare): a registry the engine does
    not hold (the case kinds') that such values read from has changed.

    Args:
        name: the record that changed (``"kind:tally"``), when it was registered by a
            call from outside the package; ``None`` for the package's own records and
            those of installed distributions (which the build cache knows by their
            files).
        identity: what the record is now, a text that differs whenever it does
            (:func:`outside_identity`); ``None`` when it was unregistered.
    """
    global _epoch
    _epoch += 1
    _replace((*_registry,))  # an equal, new tuple: what keys on its identity derives again
    if name is not None and identity is None:
        _outside.pop(name, None)
    elif name is not None and identity is not None:
        _outside[name] = identity


def outside_identity() -> str:
    """What the registries hold that a call from outside the package registered (not the
    package's records, not an installed distribution's): ``""`` when nothing, else a
    text that differs whenever such a record does; the build cache keys its entries
    with it, as with the package's own files."""
    return "\n".join(f"{name}={identity}" for name, identity in sorted(_outside.items()))


def games() -> tuple[GameSpec, ...]:
    """The registered games, in the order the site lists them."""
    if _loaders:
        _load()
    return _registry


def find_game(game: str) -> GameSpec:
    """The record of the game with id ``game``.

    Raises:
        UnknownGameError: no game has that id.
    """
    for spec in games():
        if spec.id == game:
            return spec
    raise UnknownGameError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")


def register_game(spec: GameSpec, *, installed: bool = False) -> None:
    """Add ``spec`` to the registry, after the games there (the site lists it last).

    Args:
        spec: the game's record.
        installed: whether an installed distribution's entry point registers it (its
            files key the build cache); otherwise a record from outside the package is
            part of :func:`outside_identity`.

    Raises:
        ValueError: a game with its id is registered already, or it gives a rule number
            that another game gives with another value.
    """
    if any(other.id == spec.id for other in games()):
        raise ValueError(f"game {spec.id!r} is registered already; expected a new id")
    numbers = spec.facts()
    for other in _registry:
        for name, value in other.facts().items():
            if numbers.get(name, value) != value:
                raise ValueError(f"game {spec.id!r} gives {{{name}}} = {numbers[name]}, "
                                 f"game {other.id!r} gives {value}; expected one value")
    _replace((*_registry, spec))
    if not installed and spec not in _BUILT_IN:
        _outside[f"game:{spec.id}"] = repr((spec.id, spec.name, spec.rules, spec.presets,
                                           spec.options, numbers))


def unregister_game(game: str) -> GameSpec:
    """Remove the game with id ``game`` from the registry and return its record.

    Raises:
        UnknownGameError: no game has that id.
    """
    spec = find_game(game)
    _replace(tuple(other for other in _registry if other is not spec))
    _outside.pop(f"game:{game}", None)
    return spec


def _replace(registry: tuple[GameSpec, ...]) -> None:
    global _registry
    _registry = registry


KEPT_STATES = 8
"""How many values a :func:`per_registry` function keeps (states of the registry and
arguments together)."""


def per_registry(function: Callable[_P, _T]) -> Callable[_P, _T]:
    """``function`` (of hashable arguments) computed once for each state of the registry
    and each set of arguments: a value derived from the games (a schema, the rule
    numbers) that is made again once a game is registered or unregistered, or a kind
    (:func:`registry_changed`). The values of
    the last :data:`KEPT_STATES` states and arguments are kept (a test that registers a
    game makes one more state each time)."""
    @functools.lru_cache(maxsize=KEPT_STATES)
    def keyed(registry: tuple[GameSpec, ...], epoch: int, args: tuple[Any, ...],
              kwargs: tuple[tuple[str, Any], ...]) -> _T:
        return function(*args, **dict(kwargs))

    @functools.wraps(function)
    def current(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        return keyed(games(), _epoch, args, tuple(kwargs.items()))

    return current


class Live(Sequence[_T], Generic[_T]):
    """A tuple derived from the registry (``derive(games())``), derived again whenever
    the registry has changed: it stands where a module's constant would (a field's games,
    a message's list) and names a game registered after the module was imported.

    Args:
        derive: the tuple, from the registered games.
    """

    def __init__(self, derive: Callable[[tuple[GameSpec, ...]], tuple[_T, ...]]) -> None:
        self._derive = derive
        self._made: tuple[tuple[GameSpec, ...], tuple[_T, ...]] | None = None

    def _items(self) -> tuple[_T, ...]:
        registry = games()
        made = self._made
        if made is None or made[0] is not registry:
            made = self._made = (registry, self._derive(registry))
        return made[1]

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[_T, ...]: ...

    def __getitem__(self, index: int | slice) -> _T | tuple[_T, ...]:
        return self._items()[index]

    def __len__(self) -> int:
        return len(self._items())

    def __iter__(self) -> Iterator[_T]:
        return iter(self._items())

    def __contains__(self, value: object) -> bool:
        return value in self._items()

    def __repr__(self) -> str:
        return repr(self._items())


GAMES: Live[str] = Live(lambda specs: tuple(spec.id for spec in specs))
"""The game ids, in the order the site lists them."""

GAMES_WITH_PRESETS: Live[str] = Live(lambda specs: tuple(s.id for s in specs if s.presets))
"""The games played under a preset (Rami)."""

GAMES_WITH_OPTIONS: Live[str] = Live(lambda specs: tuple(s.id for s in specs if s.options))
"""The games that take options (CardVerse)."""

PRESETS: Live[Preset] = Live(lambda specs: tuple(dict.fromkeys(
    preset for spec in specs for preset in spec.presets)))
"""Every game's presets, in the order the site lists them."""

OPTIONS: Live[Option] = Live(lambda specs: tuple(dict.fromkeys(
    option for spec in specs for option in spec.options)))
"""Every game's options (flags, default off)."""


def presets_of(game: str) -> tuple[Preset, ...]:
    """The presets ``game`` is played under; ``()`` for a game without presets or an
    unknown id."""
    spec = next((s for s in games() if s.id == game), None)
    return tuple(spec.presets) if spec is not None else ()


def options_of(game: str) -> tuple[Option, ...]:
    """The options ``game`` takes; ``()`` for a game without options or an unknown id."""
    spec = next((s for s in games() if s.id == game), None)
    return tuple(spec.options) if spec is not None else ()


def default_preset(game: str) -> Preset | None:
    """The preset of a case of ``game`` that names none; ``None`` for a game without
    presets or an unknown id."""
    spec = next((s for s in games() if s.id == game), None)
    return spec.default_preset if spec is not None else None


def rule_set(game: str, preset: str | None = None, **options: bool) -> RuleSet:
    """The rule set of ``game`` under ``preset`` with ``options`` on
    (:meth:`GameSpec.rule_set`).

    Args:
        game: one of :data:`GAMES`.
        preset: one of the game's presets (its default when ``None``); must be ``None``
            for a game without presets.
        options: the game's options (``ace_high=True``); must be off for a game without
            options.

    Raises:
        UnknownGameError: unknown game, preset or option, or a preset or option that does
            not apply to the game.
    """
    if not all(type(on) is bool for on in options.values()):  # (not kept: unhashable)
        return find_game(game).rule_set(preset, **options)
    return _rule_set(games(), _epoch, game, preset, tuple(options.items()))


@functools.lru_cache(maxsize=64)
def _rule_set(registry: tuple[GameSpec, ...], epoch: int, game: str, preset: str | None,
              options: tuple[tuple[str, bool], ...]) -> RuleSet:
    """:func:`rule_set` for one state of the registry (``registry``, ``epoch``: as
    :func:`per_registry` keys it), remembered: a loader asks for the same few rule sets
    once a case, and a rule set is an immutable value that serves every case."""
    return find_game(game).rule_set(preset, **dict(options))


# -- the games ------------------------------------------------------------------------------


def _number(value: int | None) -> int:
    """A rule number the rule set has (``None``: a number the game does not have)."""
    if value is None:
        raise ValueError("a rule number of a rule set without it")
    return value


def _deck_numbers(prefix: str, preset: Preset) -> dict[str, Number]:
    """The deck of a game with two deck rows under ``preset``: ``<prefix>.small_decks``
    (the fewer players' row), ``<prefix>.large_cards`` (the more players') and the like."""
    def row(game: GameSpec, index: int) -> DeckRow:
        return game.rule_set(preset).deck[index]

    return {
        f"{prefix}.small_decks": lambda g: row(g, 0).decks,
        f"{prefix}.small_jokers": lambda g: row(g, 0).jokers,
        f"{prefix}.small_cards": lambda g: row(g, 0).cards,
        f"{prefix}.large_decks": lambda g: row(g, -1).decks,
        f"{prefix}.large_jokers": lambda g: row(g, -1).jokers,
        f"{prefix}.large_cards": lambda g: row(g, -1).cards,
        f"{prefix}.joker_hand_points": lambda g: g.rule_set(preset).joker_hand_points,
    }


_RAMI_REFERENCE_DECK = (DeckRow(2, 4, 2, 4, 13), DeckRow(5, 6, 3, 4, 13))
_RAMI_HOUSE_DECK = (DeckRow(2, 4, 2, 2, 13), DeckRow(5, 6, 3, 3, 13))

_RAMI = RuleSet(
    game="rami51",
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
"""Rami under the reference preset (the app's default rules), as Rami 51 plays it."""

RAMI_PRESETS: Mapping[Preset, Mapping[str, Any]] = MappingProxyType({
    Preset.REFERENCE: MappingProxyType({}),
    Preset.HOUSE: MappingProxyType(dict(deck=_RAMI_HOUSE_DECK, joker_meld_points=15,
                                        joker_hand_points=15)),
})
"""The Rami presets: the reference rules, and house rules (fewer jokers, a joker worth
15 points melded and in hand)."""

RAMI_NUMBERS: Mapping[str, Number] = MappingProxyType({
    "rami.min_players": lambda g: g.rules.min_players,
    "rami.max_players": lambda g: g.rules.max_players,
    "rami.hand_size": lambda g: g.rules.deck[0].hand_size,
    "rami.small_max_players": lambda g: g.rules.deck[0].max_players,
    "rami.large_min_players": lambda g: g.rules.deck[-1].min_players,
    "rami.reshuffles": lambda g: g.rules.max_reshuffles,
    "rami.turn_limit": lambda g: _number(g.rules.turn_limit),
    "rami.ace_hand_points": lambda g: g.rules.ace_hand_points,
    "rami.jokers_per_meld": lambda g: g.rules.jokers_per_meld,
    "rami.house.joker_meld_points": lambda g: _number(
        g.rule_set(Preset.HOUSE).joker_meld_points),
    **_deck_numbers("rami.reference", Preset.REFERENCE),
    **_deck_numbers("rami.house", Preset.HOUSE),
})
"""The rule numbers every Rami game shares (``{rami.hand_size}``)."""


def rami_variant(game: str, name: str, **changes: Any) -> GameSpec:
    """A Rami game: Rami's rule set with ``changes`` (its opening), played under the Rami
    presets, with Rami's shared rule numbers and its own threshold
    (``{<game>.threshold}``).

    Args:
        game: its id (``"rami40"``).
        name: its display name's msgid (``"Rami 40"``).
        changes: the :class:`RuleSet` fields in which it differs from Rami 51
            (``opening_threshold=40, opening_needs_pure_run=False``).
    """
    return GameSpec(
        id=game,
        name=name,
        rules=replace(_RAMI, game=game, **changes),
        presets=RAMI_PRESETS,
        numbers=MappingProxyType({
            **RAMI_NUMBERS,
            f"{game}.threshold": lambda g: _number(g.rules.opening_threshold),
        }),
    )


CARDVERSE = GameSpec(
    id="cardverse",
    name="CardVerse",
    rules=RuleSet(
        game="cardverse",
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
    ),
    options=MappingProxyType({
        Option.ACE_HIGH: MappingProxyType(dict(ace_high=True, ace_hand_points=11)),
        Option.DISCARD_TO_WIN: MappingProxyType(dict(discard_to_win=True)),
    }),
    numbers=MappingProxyType({
        "cardverse.min_players": lambda g: g.rules.min_players,
        "cardverse.max_players": lambda g: g.rules.max_players,
        "cardverse.cards": lambda g: g.rules.deck[0].cards,
        "cardverse.hand_size_two": lambda g: g.rules.deck[0].hand_size,
        "cardverse.hand_size_more": lambda g: g.rules.deck[-1].hand_size,
        "cardverse.more_min_players": lambda g: g.rules.deck[-1].min_players,
        "cardverse.target_score": lambda g: _number(g.rules.target_score),
        "cardverse.ace_points": lambda g: g.rules.ace_hand_points,
        "cardverse.ace_high_points": lambda g: g.rule_set(ace_high=True).ace_hand_points,
    }),
)
"""The CardVerse variant: no jokers, no opening, the winner collects; options
``ace_high`` (an ace left in a hand counts 11) and ``discard_to_win``."""

_BUILT_IN: tuple[GameSpec, ...] = (
    rami_variant("rami40", "Rami 40", opening_threshold=40, opening_needs_pure_run=False),
    rami_variant("rami51", "Rami 51", opening_threshold=51, opening_needs_pure_run=True),
    CARDVERSE,
)
"""The games, in the order the site lists them: a new game is one more entry."""

for _spec in _BUILT_IN:
    register_game(_spec)
