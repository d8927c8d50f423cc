"""Loading the case files: ``content/examples/**/*.yaml`` → :class:`CaseSet`.

For each file, in sorted path order: read and decode it, parse the YAML with
positions (:mod:`generator.cases.yamlpos`), check its frame against
:data:`~generator.cases.schema.FILE_SCHEMA`, fill each case in from the file's
``defaults`` (only the fields that apply to the case's kind and game), check the case
against :data:`~generator.cases.schema.CASE_SCHEMA`, then what a schema cannot say:
card codes, how often a card is used, jokers in CardVerse, the player count, ids
unique across all files. Every error of the run is collected. An error in one case
(a field, a card, its id) drops that case only; an error in the file itself (unreadable,
not YAML, a wrong top level or a wrong ``defaults``) drops every case of the file. A
case file named ``*.yml`` or ``*.YAML`` (any spelling but ``.yaml``) is an error, not
silently skipped.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import islice
from pathlib import Path
from pathlib import PurePosixPath
from typing import Any
from typing import TypeGuard

from generator.cases.model import Case
from generator.cases.model import CaseSet
from generator.cases.model import Position
from generator.cases.model import frozen_mapping
from generator.cases.schema import ACTION_KEYS
from generator.cases.schema import DEFAULTABLE
from generator.cases.schema import INPUT_FIELDS
from generator.cases.schema import KINDS
from generator.cases.schema import FieldSpec
from generator.cases.schema import case_problems
from generator.cases.schema import field_applies
from generator.cases.schema import file_problems
from generator.cases.yamlpos import Mark
from generator.cases.yamlpos import YamlDocument
from generator.cases.yamlpos import YamlPath
from generator.cases.yamlpos import parse_yaml
from generator.cases.yamlpos import walk
from generator.engine.cards import Card
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.engine.game import Action
from generator.engine.game import Discard
from generator.engine.game import Draw
from generator.engine.game import GameState
from generator.engine.game import LayOff
from generator.engine.game import Meld
from generator.engine.game import SetupError
from generator.engine.game import TableMeld
from generator.engine.game import TakeJoker
from generator.engine.game import start as start_round
from generator.engine.melds import check_meld
from generator.engine.rules import CARDVERSE_OPTIONS
from generator.engine.rules import GAMES
from generator.engine.rules import PRESETS
from generator.engine.rules import PlayerCountError
from generator.engine.rules import RuleSet
from generator.engine.rules import UnknownGameError
from generator.engine.rules import is_rami
from generator.engine.rules import rule_set
from generator.engine.table import TableError
from generator.engine.table import table_meld
from generator.errors import InputError
from generator.layout import EXAMPLES
from generator.layout import Layout
from generator.layout import NotAnInput

SUFFIX = ".yaml"
"""The case files' suffix, exactly."""

_MISNAMED = frozenset({".yaml", ".yml"})
"""Suffixes (lowercased) of files meant as case files: any spelling but :data:`SUFFIX`
is an error."""

_CODE = re.compile(r"\S+")

MAX_CASE_FILE_BYTES = 5_000_000
"""The largest case file read (5 MB, about 30,000 cases; reading one takes about 100
times its size in memory): a larger one is an input error, refused before it is read."""


def load_cases(project: Path | Layout) -> CaseSet:
    """Load and check every case file of ``project``.

    Args:
        project: the project folder; case files are ``content/examples/**/*.yaml``
            under it (none is not an error; ``*.yml``, ``*.YAML``, ... are errors).

    Returns:
        A :class:`CaseSet`: the cases without errors (file order), every input error
        (files in sorted order, then by line and column) and the files read. A case
        with an error is left out; so is every case of a file whose frame is wrong
        (not readable, not YAML, a wrong top level or ``defaults``). Never raises for
        bad input: unreadable files, non-UTF-8 text and bad YAML are errors in the set.
    """
    layout = Layout.of(project)
    errors: list[InputError] = []
    paths = sorted((rel for rel in layout.walk(EXAMPLES, errors)
                    if PurePosixPath(rel).suffix.lower() in _MISNAMED),
                   key=lambda rel: PurePosixPath(rel).parts)
    cases: list[Case] = []
    files: list[str] = []
    ids: dict[str, Position] = {}
    for rel in paths:
        suffix = PurePosixPath(rel).suffix
        if suffix != SUFFIX:
            stem = PurePosixPath(rel).stem
            errors.append(InputError(rel, 1, None, f"file name ends in {suffix!r}, so it "
                                     f"is not read as a case file; expected a name ending "
                                     f"in {SUFFIX} (rename it to {stem}{SUFFIX})"))
            continue
        try:
            data = layout.read(rel, limit=MAX_CASE_FILE_BYTES, what="case file",
                               advice="split its cases over several files in "
                               "content/examples/")
        except NotAnInput as exc:
            errors.append(exc.error)
            continue
        files.append(rel)
        file_cases, file_errors = _load_file(data, rel, ids)
        # by position; at one position, in the order found (the schema's field order)
        errors.extend(sorted(dict.fromkeys(file_errors), key=_by_position))
        cases.extend(file_cases)
    return CaseSet(cases=tuple(cases), errors=tuple(errors), files=tuple(files))


@cache
def most_cards() -> int:
    """The most cards in play in any game and preset: the most one card list may hold."""
    return max(row.cards for game in GAMES
               for preset in (PRESETS if is_rami(game) else (None,))
               for row in rule_set(game, preset).deck)


def _by_position(error: InputError) -> tuple[int, int]:
    return (error.line, error.column or 0)


def _decode(data: bytes, rel: str) -> tuple[str | None, InputError | None]:
    """The file's text, or the error that keeps it from being decoded."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        return None, InputError(rel, before.count(b"\n") + 1, column,
                                f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x}); "
                                "expected UTF-8 text")
    return text.removeprefix("\ufeff"), None


def _load_file(
    data: bytes, rel: str, ids: dict[str, Position]
) -> tuple[list[Case], list[InputError]]:
    """The cases of one file (its bytes) without errors (none when the file's frame is
    wrong) and the file's errors; registers the ids it defines in ``ids``."""
    text, read_error = _decode(data, rel)
    if text is None:
        return [], [read_error] if read_error else []
    doc, errors = parse_yaml(text, rel)
    if doc is None:
        return [], errors
    if doc.value is None:
        return [], [*errors, InputError(rel, 1, None, "the file is empty; expected a mapping "
                                        "with 'cases' (a list of cases)")]
    loader = _FileLoader(rel, doc, ids)
    loader.errors.extend(errors)
    for _, where in doc.error_paths:
        # a duplicate key, an unsupported tag, ...: in one case, or in the file's frame
        if len(where) >= 2 and where[0] == "cases" and isinstance(where[1], int):
            loader.bad_cases.add(where[1])
        else:
            loader.file_failed = True
    cases = loader.load()
    return ([] if loader.file_failed else cases), loader.errors


class _FileLoader:
    """Checks the cases of one parsed file.

    Attributes:
        errors: every error found in the file.
        file_failed: an error in the file's frame (top level, ``defaults``): none of
            its cases is kept.
        bad_cases: the indexes (in ``cases``) of the cases with an error found before
            :meth:`load` (by the YAML parser, or because the item is not a mapping).
    """

    def __init__(self, rel: str, doc: YamlDocument, ids: dict[str, Position]) -> None:
        self.rel = rel
        self.doc = doc
        self.ids = ids
        self.errors: list[InputError] = []
        self.file_failed = False
        self.bad_cases: set[int] = set()

    def error(self, mark: Mark, message: str) -> None:
        self.errors.append(InputError(self.rel, mark.line, mark.column, message))

    def position(self, mark: Mark) -> Position:
        return Position(self.rel, mark.line, mark.column)

    def load(self) -> list[Case]:
        """The file's cases without errors (the caller drops them all when
        :attr:`file_failed` is set)."""
        value = self.doc.value
        bad_defaults: set[str] = set()
        for problem in file_problems(value):
            full = problem.path
            if len(full) >= 2 and full[0] == "defaults":
                bad_defaults.add(str(full[1]))
            if len(full) == 2 and full[0] == "cases" and isinstance(full[1], int):
                self.bad_cases.add(full[1])  # an item that is not a mapping
            else:
                self.file_failed = True
            mark = self.doc.key_mark(full) if problem.at_key else self.doc.mark(full)
            self.error(mark, problem.message)
        if not isinstance(value, dict):
            return []
        defaults = value.get("defaults")
        if not isinstance(defaults, dict):
            defaults = {}
        defaults = {k: v for k, v in defaults.items() if k in DEFAULTABLE and k not in bad_defaults}
        raw_cases = value.get("cases")
        if not isinstance(raw_cases, list):
            return []
        cases: list[Case] = []
        for index, raw in enumerate(raw_cases):
            if isinstance(raw, dict):
                case = _CaseLoader(self, ("cases", index), raw, defaults, bad_defaults).load()
                if case is not None and index not in self.bad_cases:
                    cases.append(case)
        return cases


class _CaseLoader:
    """Checks one case and builds its :class:`Case`."""

    def __init__(self, file: _FileLoader, path: YamlPath, raw: dict[str, Any],
                 defaults: dict[str, Any], bad_defaults: set[str]) -> None:
        self.file = file
        self.bad_defaults = bad_defaults
        self.doc = file.doc
        self.path = path
        self.mark = self.doc.mark(path)
        self.value: dict[str, Any] = dict(raw)
        self.from_defaults: set[str] = set()
        for name in DEFAULTABLE:  # kind and game first: the others depend on them
            if name in raw or name not in defaults:
                continue
            if field_applies(name, self._text("kind"), self._text("game")):
                self.value[name] = defaults[name]
                self.from_defaults.add(name)
        self.positions: dict[str, Mark] = {}
        self.cards: list[tuple[Card, Mark]] = []
        self.parsed: dict[YamlPath, tuple[Card, ...]] = {}
        self.failed = False
        self.start_state: GameState | None = None
        self.actions: tuple[Action, ...] | None = None

    # -- positions ---------------------------------------------------------------

    def _full(self, rel: YamlPath) -> YamlPath:
        if rel and rel[0] in self.from_defaults:
            return ("defaults", *rel)
        return (*self.path, *rel)

    def locate(self, rel: YamlPath, at_key: bool = False) -> Mark:
        """Where ``rel`` (a path within the case) is: in the case, or in ``defaults``."""
        full = self._full(rel)
        return self.doc.key_mark(full) if at_key else self.doc.mark(full)

    def error(self, mark: Mark, message: str) -> None:
        self.failed = True
        self.file.error(mark, message)

    # -- values ------------------------------------------------------------------

    def _text(self, name: str) -> str | None:
        value = self.value.get(name)
        return value if isinstance(value, str) else None

    def _known(self, name: str, choices: tuple[str, ...] | dict[str, Any]) -> str | None:
        value = self._text(name)
        return value if value in choices else None

    # -- checks ------------------------------------------------------------------

    def load(self) -> Case | None:
        self.check_schema()
        kind = self._known("kind", KINDS)
        game = self._known("game", GAMES)
        rules = self._rule_set(game)
        self.check_cards(kind)
        self.read_scenario_cards(kind)
        if rules is not None:
            self.check_card_counts(rules)
            self.check_players(kind, rules)
            self.check_table_meld(kind, rules)
            self.check_hands(kind, rules)
            self.check_hand_size(kind, rules)
            self.check_scenario(kind, rules)
        self.check_swap(kind)
        self.check_expect(kind)
        self.check_id()
        if self.failed or kind is None or game is None:
            return None
        return self.build(kind, game)

    def check_schema(self) -> None:
        for problem in case_problems(self.value):
            if problem.missing in self.bad_defaults:
                # the default is wrong, and that was said at the default: fail quietly
                self.failed = True
                continue
            rel = problem.path
            message = problem.message
            if rel and rel[0] in self.from_defaults:
                # e.g. a first_meld case in a file whose default game is cardverse:
                # say so at the case, which is what needs a game of its own
                where = self.doc.mark(("defaults", rel[0]))
                what, sep, rest = message.partition("; ")
                message = f"{what} ({rel[0]} from defaults at line {where.line}){sep}{rest}"
                mark = self.mark
            else:
                mark = self.locate(rel, problem.at_key)
            self.error(mark, message)

    def _rule_set(self, game: str | None) -> RuleSet | None:
        if game is None:
            return None
        options = self.value.get("options")
        flags: dict[str, bool] = {}
        if game == "cardverse" and isinstance(options, dict):
            flags = {k: v for k, v in options.items()
                     if k in CARDVERSE_OPTIONS and isinstance(v, bool)}
        preset = self._known("rules", PRESETS) if is_rami(game) else None
        try:
            return rule_set(game, preset, **flags)
        except UnknownGameError:  # pragma: no cover - game and preset are checked above
            return None

    def _card_fields(self, kind: str | None) -> list[tuple[str, FieldSpec]]:
        """The input fields present that hold cards, with how to read them, in file order
        (so that a card used too often is reported where it is used once too often)."""
        found: list[tuple[str, FieldSpec]] = []
        for name in self.value:
            if name not in INPUT_FIELDS:
                continue
            if kind is not None:
                spec = KINDS[kind].inputs.get(name)
            else:  # unknown kind: still read the cards, to report every bad code
                spec = next((k.inputs[name] for k in KINDS.values() if name in k.inputs), None)
            if spec is not None and spec.shape != "value":
                found.append((name, spec))
        return found

    def check_cards(self, kind: str | None) -> None:
        for name, spec in self._card_fields(kind):
            value = self.value[name]
            if spec.shape == "cards":
                self.card_list(value, (name,), name)
            elif spec.shape == "card":
                if isinstance(value, str):  # else the schema has said so
                    card = self.card((name,), value, self.locate((name,)))
                    if card is not None:
                        self.parsed[(name,)] = (card,)
            elif isinstance(value, list):
                what = "hand" if spec.shape == "hands" else "meld"
                for index, item in enumerate(value):
                    self.card_list(item, (name, index), what,
                                   may_be_empty=spec.shape == "hands")

    def card_list(self, value: object, rel: YamlPath, what: str, *,
                  may_be_empty: bool = False, count: bool = True) -> None:
        """Read a card list (a list of codes or a string of codes) into ``self.parsed``;
        record each card and where it is, and an error for each code that names no card
        (and for no card at all, unless ``may_be_empty``: a hand of a seat that went out).
        ``count=False``: the cards name cards of the case counted elsewhere (a scenario's
        actions), not more cards in play."""
        most = most_cards()
        if isinstance(value, (list, str)) and (
                len(value) > most if isinstance(value, list)
                else next(islice(_CODE.finditer(value), most, None), None) is not None):
            # not read card by card: a list that long is wrong whatever its cards
            self.error(self.locate(rel), f"{what} has more than {most} cards; expected at "
                       f"most {most} (the most cards in play in any game)")
            return
        if isinstance(value, list):
            items = [((*rel, index), item, self.locate((*rel, index)))
                     for index, item in enumerate(value)]
        elif isinstance(value, str):
            start = self.locate(rel)
            if "," in value:
                codes = [code for code in re.split(r"[\s,]+", value) if code]
                self.error(start, f"{what} {value!r} is a list written with commas in one "
                           f"string; expected the codes separated by spaces "
                           f"({' '.join(codes)}) or a YAML list ([{', '.join(codes)}])")
                return
            items = []
            for index, match in enumerate(_CODE.finditer(value)):
                column = self.doc.column_in_scalar(self._full(rel), match.start())
                mark = Mark(start.line, column) if column is not None else start
                items.append(((*rel, index), match.group(), mark))
            if not items and not may_be_empty:
                self.error(start, f"{what} is empty; expected at least one card")
        else:
            return  # the schema has said so
        cards: list[Card] = []
        for item_path, code, mark in items:
            if not isinstance(code, str):
                continue  # the schema has said so
            card = self.card(item_path, code, mark, count=count)
            if card is not None:
                cards.append(card)
        if len(cards) == len(items):
            self.parsed[rel] = tuple(cards)

    def card(self, rel: YamlPath, code: str, mark: Mark, *, count: bool = True) -> Card | None:
        """The card of ``code`` (recorded with its position, and among the cards in play
        unless ``count`` is false), or ``None`` after an error."""
        try:
            card = parse_card(code)
        except CardCodeError as exc:
            self.error(mark, str(exc))
            return None
        if count:
            self.cards.append((card, mark))
        self.positions[".".join(map(str, rel))] = mark
        return card

    def check_card_counts(self, rules: RuleSet) -> None:
        game = rules.game
        jokers = [mark for card, mark in self.cards if card.is_joker]
        if not rules.has_jokers:
            for mark in jokers:
                self.error(mark, f"jokers are not used in {game}; expected natural cards only")
        else:
            most = max(rule_set(game, preset).max_jokers for preset in PRESETS)
            if len(jokers) > most:
                self.error(jokers[most], f"{len(jokers)} jokers in this case; expected at most "
                           f"{most} ({game} is played with at most {most} jokers)")
        limit = rules.max_copies
        total = Counter(card for card, _ in self.cards if not card.is_joker)
        seen: Counter[Card] = Counter()
        decks = "one deck" if limit == 1 else f"at most {limit} decks"
        for card, mark in self.cards:
            if card.is_joker:
                continue
            seen[card] += 1
            if seen[card] == limit + 1:
                self.error(mark, f"card {card.code} is used {total[card]} times in this case; "
                           f"expected at most {limit} ({game} is played with {decks})")

    def check_players(self, kind: str | None, rules: RuleSet) -> None:
        players = self.value.get("players")
        if kind is None or "players" not in KINDS[kind].inputs:
            return
        if not isinstance(players, int) or isinstance(players, bool):
            return  # the schema has said so
        try:
            rules.deck_for(players)
        except PlayerCountError:
            noun = "player" if players == 1 else "players"
            self.error(self.locate(("players",)), f"{rules.game} does not allow {players} "
                       f"{noun}; expected {rules.min_players} to {rules.max_players}")

    def check_table_meld(self, kind: str | None, rules: RuleSet) -> None:
        """A lay-off or a joker swap is made on a valid meld lying on the table."""
        if kind is None or "meld" not in KINDS[kind].inputs:
            return
        meld = self.parsed.get(("meld",))
        if meld is None or (not rules.has_jokers and any(c.is_joker for c in meld)):
            return  # said already: a bad code, or jokers where the game has none
        try:
            table_meld(meld, rules)
        except TableError as exc:
            codes = " ".join(card.code for card in meld)
            self.error(self.locate(("meld",)), f"meld {codes} is {exc}")

    def check_hands(self, kind: str | None, rules: RuleSet) -> None:
        """A round: one hand per seat, as many seats as the game allows players, and at
        most one seat that went out (an empty hand)."""
        hands = self.value.get("hands")
        if kind is None or "hands" not in KINDS[kind].inputs or not isinstance(hands, list):
            return
        seats = len(hands)
        if not rules.min_players <= seats <= rules.max_players:
            self.error(self.locate(("hands",)),
                       f"hands lists {_count(seats, 'seat')}; expected one hand per seat, "
                       f"{rules.min_players} to {rules.max_players} seats ({rules.game} is "
                       f"played by {rules.min_players} to {rules.max_players} players)")
        first_empty: int | None = None
        for index in range(seats):
            hand = self.parsed.get(("hands", index))
            if hand is None or hand:
                continue
            if first_empty is None:
                first_empty = index
                continue
            self.error(self.locate(("hands", index)),
                       f"hand {index + 1} is empty, and so is hand {first_empty + 1}; "
                       "expected at most one empty hand (the seat that went out)")

    def check_hand_size(self, kind: str | None, rules: RuleSet) -> None:
        """A best opening is sought in a hand as dealt, or after drawing: 13 or 14 cards
        in Rami."""
        hand = self.parsed.get(("cards",))
        if kind != "best_opening" or hand is None or rules.opening_threshold is None:
            return  # CardVerse has no opening: the schema has said so
        dealt = rules.deck_for(rules.min_players).hand_size
        if len(hand) not in (dealt, dealt + 1):
            self.error(self.locate(("cards",)),
                       f"cards holds {_count(len(hand), 'card')}; expected {dealt} or "
                       f"{dealt + 1} (a hand as dealt, or after drawing)")

    def check_swap(self, kind: str | None) -> None:
        """The card put in the joker's place is a natural card."""
        card = self.parsed.get(("card",))
        if kind == "joker_swap" and card is not None and card[0].is_joker:
            self.error(self.locate(("card",)), "card is a joker; expected the natural card "
                       "put in the joker's place (e.g. 6S)")

    def check_expect(self, kind: str | None) -> None:
        """What the schema cannot say about documented values: ``joker_stands_for`` names
        a natural card; ``winner`` is a seat and ``scores`` has one entry per seat."""
        expect = self.value.get("expect")
        if kind is None or not isinstance(expect, dict):
            return
        if kind == "joker_swap" and isinstance(expect.get("joker_stands_for"), str):
            where = self.locate(("expect", "joker_stands_for"))
            try:
                stands_for = parse_card(expect["joker_stands_for"])
            except CardCodeError as exc:
                self.error(where, f"joker_stands_for: {exc}")
            else:
                if stands_for.is_joker:
                    self.error(where, "joker_stands_for is a joker; expected the natural "
                               "card the joker stands for (e.g. 6S)")
        hands = self.value.get("hands")
        if kind == "round" and isinstance(hands, list):
            self.check_seat_values(expect, ("expect",), len(hands), "hands")

    # -- scenario ------------------------------------------------------------------

    def read_scenario_cards(self, kind: str | None) -> None:
        """The cards of a scenario: those of ``start`` are the cards in play (counted
        for copies); those of ``actions`` name cards of the position (not counted)."""
        if kind != "scenario":
            return
        start = self.value.get("start")
        if isinstance(start, dict):
            hands = start.get("hands")
            if isinstance(hands, list):
                for index, hand in enumerate(hands):
                    self.card_list(hand, ("start", "hands", index), "hand")
            for name in ("discard", "stock"):
                if name in start:
                    self.card_list(start[name], ("start", name), name, may_be_empty=True)
            table = start.get("table")
            if isinstance(table, list):
                for index, meld in enumerate(table):
                    if isinstance(meld, dict) and "cards" in meld:
                        self.card_list(meld["cards"], ("start", "table", index, "cards"),
                                       "cards")
        actions = self.value.get("actions")
        if not isinstance(actions, list):
            return
        for index, item in enumerate(actions):
            if not isinstance(item, dict):
                continue
            for key in ("meld", "layoff"):
                if key in item:
                    self.card_list(item[key], ("actions", index, key), key, count=False)
            for key in ("discard", "card"):
                code = item.get(key)
                if isinstance(code, str):
                    rel = ("actions", index, key)
                    card = self.card(rel, code, self.locate(rel), count=False)
                    if card is not None:
                        self.parsed[rel] = (card,)

    def check_scenario(self, kind: str | None, rules: RuleSet) -> None:
        """A scenario's start position (1-based seats and numbers, checked here with
        their positions; the rest by :func:`generator.engine.game.start`), its actions
        (one step each, with the fields that step needs) and that ``results`` has one
        entry per action."""
        if kind != "scenario":
            return
        start = self.value.get("start")
        actions = self.value.get("actions")
        seats = None
        if isinstance(start, dict) and isinstance(start.get("hands"), list):
            seats = len(start["hands"])
            self.start_state = self.scenario_start(start, seats, rules)
        if isinstance(actions, list):
            self.actions = self.scenario_actions(actions)
        expect = self.value.get("expect")
        if not isinstance(expect, dict):
            return
        results = expect.get("results")
        if isinstance(results, list) and isinstance(actions, list) and len(results) != len(
                actions):
            self.error(self.locate(("expect", "results")),
                       f"results lists {_count(len(results), 'result')}; expected one per "
                       f"action ({len(actions)}, as in actions)")
        end = expect.get("end")
        if isinstance(end, dict) and seats is not None:
            self.check_seat_values(end, ("expect", "end"), seats, "start hands")

    def check_seat_values(self, expect: dict[str, Any], rel: YamlPath, seats: int,
                          source: str) -> None:
        """A documented ``winner`` is a seat; documented ``scores`` have one per seat."""
        winner = expect.get("winner")
        if _is_int(winner) and winner > seats:
            self.error(self.locate((*rel, "winner")),
                       f"winner {winner} is not a seat of this round; expected a seat "
                       f"number from 1 to {seats}")
        scores = expect.get("scores")
        if isinstance(scores, list) and len(scores) != seats:
            self.error(self.locate((*rel, "scores")),
                       f"scores lists {_count(len(scores), 'score')}; expected one per seat "
                       f"({seats}, as in {source})")

    def scenario_start(self, start: dict[str, Any], seats: int,
                       rules: RuleSet) -> GameState | None:
        """The start position as the engine's state, or ``None`` after an error."""
        where = ("start",)
        if not rules.min_players <= seats <= rules.max_players:
            self.error(self.locate((*where, "hands")),
                       f"hands lists {_count(seats, 'seat')}; expected one hand per seat, "
                       f"{rules.min_players} to {rules.max_players} seats ({rules.game} is "
                       f"played by {rules.min_players} to {rules.max_players} players)")
        opened = start.get("opened")
        if "opened" in start and rules.opening_threshold is None:
            self.error(self.locate((*where, "opened"), at_key=True),
                       f"field 'opened' in start does not apply to game {rules.game!r} "
                       f"({rules.game} has no opening); expected it only with rami40 or "
                       "rami51")
        elif isinstance(opened, list) and len(opened) != seats:
            self.error(self.locate((*where, "opened")),
                       f"opened lists {_count(len(opened), 'flag')}; expected one per seat "
                       f"({seats}, as in hands)")
        turn = start.get("turn", 1)
        if _is_int(turn) and turn > seats:
            self.error(self.locate((*where, "turn")), f"turn {turn} is not a seat; expected "
                       f"a seat number from 1 to {seats}")
        table = self.scenario_table(start.get("table"), seats, rules)
        reshuffles = start.get("reshuffles", 0)
        if _is_int(reshuffles) and reshuffles > rules.max_reshuffles:
            most = rules.max_reshuffles
            expected = (f"0 ({rules.game} never reshuffles the stock)" if not most else
                        f"0 to {most} ({rules.game} reshuffles the stock at most {most} "
                        "times a round)")
            self.error(self.locate((*where, "reshuffles")),
                       f"reshuffles {reshuffles}; expected {expected}")
        turns_played = start.get("turns_played", 0)
        limit = rules.turn_limit
        if _is_int(turns_played) and limit is not None and turns_played >= limit:
            self.error(self.locate((*where, "turns_played")),
                       f"turns_played {turns_played}; expected 0 to {limit - 1} (the round "
                       f"ends after {limit} turns)")
        hands = [self.parsed.get((*where, "hands", i)) for i in range(seats)]
        discard = self.parsed.get((*where, "discard"))
        stock = self.parsed.get((*where, "stock"))
        if self.failed or table is None or discard is None or stock is None:
            return None  # the case is dropped: said already
        try:
            return start_round(
                rules, [h for h in hands if h is not None], discard, stock, table,
                opened=tuple(opened) if isinstance(opened, list) else None,
                turn=turn - 1, turns_played=turns_played, reshuffles=reshuffles,
                seed=start.get("seed", 0),
            )
        except SetupError as exc:
            self.error(self.locate(where), f"start: {exc}")
            return None

    def scenario_table(self, value: object, seats: int,
                       rules: RuleSet) -> list[TableMeld] | None:
        """The melds on the table at the start (owners 0-based), or ``None`` after an
        error."""
        if value is None:
            return []
        if not isinstance(value, list):
            return None
        table: list[TableMeld] = []
        ok = True
        for index, meld in enumerate(value):
            rel = ("start", "table", index)
            seat = meld.get("seat") if isinstance(meld, dict) else None
            cards = self.parsed.get((*rel, "cards"))
            if not _is_int(seat) or cards is None:
                ok = False
                continue
            if seat > seats:
                ok = False
                self.error(self.locate((*rel, "seat")), f"seat {seat} is not a seat of this "
                           f"round; expected a seat number from 1 to {seats}")
            if not rules.has_jokers and any(c.is_joker for c in cards):
                ok = False
                continue  # said already
            result = check_meld(cards, rules)
            if not result.valid:
                assert result.reason is not None
                ok = False
                codes = " ".join(c.code for c in cards)
                self.error(self.locate((*rel, "cards")),
                           f"meld {codes} is not a valid meld ({result.reason.value}); "
                           "expected a meld that could lie on the table")
            table.append(TableMeld(cards, seat - 1))
        return table if ok else None

    def scenario_actions(self, actions: list[Any]) -> tuple[Action, ...] | None:
        """The actions as the engine's, or ``None`` after an error (each reported)."""
        steps: list[Action] = []
        for index, item in enumerate(actions):
            if not isinstance(item, dict):
                continue  # the schema has said so
            rel = ("actions", index)
            keys = [key for key in item if key in ACTION_KEYS]
            expected = ", ".join(ACTION_KEYS)
            if not keys:
                self.error(self.locate(rel), f"action names no step; expected one of: "
                           f"{expected}")
                continue
            for extra in keys[1:]:
                self.error(self.locate((*rel, extra), at_key=True),
                           f"action has both {keys[0]!r} and {extra!r}; expected one step "
                           "per action (one list item each)")
            key = keys[0]
            for field, owner in (("onto", "layoff"), ("card", "take_joker")):
                if field in item and key != owner:
                    self.error(self.locate((*rel, field), at_key=True),
                               f"field {field!r} goes with {owner}, not {key}; expected it "
                               f"only in a {owner} action")
            if key == "layoff" and "onto" not in item:
                self.error(self.locate(rel), "missing field 'onto' in layoff action; "
                           "expected onto: <table meld number, 1-based>")
            if key == "take_joker" and "card" not in item:
                self.error(self.locate(rel), "missing field 'card' in take_joker action; "
                           "expected card: <the card put in the joker's place, e.g. 6S>")
            action = self.scenario_action(key, item, rel)
            if action is not None:
                steps.append(action)
        return tuple(steps) if len(steps) == len(actions) else None

    def scenario_action(self, key: str, item: dict[str, Any], rel: YamlPath) -> Action | None:
        """One action as the engine's (table meld numbers made 0-based), or ``None``
        where a value is wrong (reported by the schema or the card checks)."""
        value = item[key]
        onto = item.get("onto")
        if key == "draw":
            return Draw(value) if value in ("stock", "discard") else None
        if key == "discard":
            card = self.parsed.get((*rel, "discard"))
            return Discard(card[0]) if card else None
        if key == "meld":
            cards = self.parsed.get((*rel, "meld"))
            return Meld(cards) if cards else None
        if key == "layoff":
            cards = self.parsed.get((*rel, "layoff"))
            return LayOff(cards, onto - 1) if cards and _is_int(onto) and onto >= 1 else None
        card = self.parsed.get((*rel, "card"))
        if card and _is_int(value) and value >= 1:
            return TakeJoker(value - 1, card[0])
        return None

    def check_id(self) -> None:
        case_id = self._text("id")
        if not case_id:
            return  # the schema has said so
        # Duplicates are looked for whatever the id's characters (the schema reports
        # those): two cases "dup\n" are two errors, not one case replacing the other.
        here = self.file.position(self.locate(("id",)))
        first = self.file.ids.get(case_id)
        if first is not None:
            # the first definition stays; this case is dropped
            self.error(self.locate(("id",)), f"duplicate case id {case_id!r} (first defined "
                       f"at {first}); expected ids unique across all case files")
        else:
            self.file.ids[case_id] = here

    # -- the case ----------------------------------------------------------------

    def build(self, kind: str, game: str) -> Case:
        value = self.value
        field_positions: dict[str, Position] = {}
        for rel in walk(value):
            if rel:  # a field: where its key is; a list item: where it starts
                at_key = isinstance(rel[-1], str)
                field_positions[".".join(map(str, rel))] = self.file.position(
                    self.locate(rel, at_key))
        for dotted, mark in self.positions.items():
            field_positions[dotted] = self.file.position(mark)
        case_cards = melds = hands = None
        if kind in ("meld", "hand", "layoff", "best_opening"):
            case_cards = self.parsed[("cards",)]
        elif kind == "first_meld":
            melds = tuple(self.parsed[("melds", i)] for i in range(len(value["melds"])))
        elif kind == "round":
            hands = tuple(self.parsed[("hands", i)] for i in range(len(value["hands"])))
        meld = self.parsed.get(("meld",))
        card = self.parsed.get(("card",))
        opened = value.get("opened", True) if "opened" in KINDS[kind].inputs else None
        options = value.get("options", {})
        players = value.get("players")
        return Case(
            id=value["id"],
            kind=kind,
            game=game,
            rules=value.get("rules", "reference") if is_rami(game) else None,
            options=frozen_mapping(
                {name: bool(options.get(name, False)) for name in CARDVERSE_OPTIONS}
                if game == "cardverse" else {}
            ),
            title=value["title"],
            note=value.get("note"),
            cards=case_cards,
            melds=melds,
            players=players if isinstance(players, int) else None,
            expect=frozen_mapping({k: _frozen(v) for k, v in value["expect"].items()}),
            position=self.file.position(self.mark),
            field_positions=frozen_mapping(field_positions),
            meld=meld,
            card=card[0] if card else None,
            opened=opened if is_rami(game) else None,
            hands=hands,
            start=self.start_state,
            actions=self.actions,
        )


def _frozen(value: Any) -> Any:
    """A documented value made immutable: lists become tuples, mappings read-only."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return frozen_mapping({k: _frozen(v) for k, v in value.items()})
    return value


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(n: int, noun: str) -> str:
    """``"1 seat"``, ``"3 seats"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
