"""Mutated case files for tests/test_editor_schema.py: each mutation makes one change to
a good file of tests/fixtures/mutations/ and says who should catch it: ``check`` and the
editor schema both, neither (a change that leaves the file valid), or ``check`` only,
for one of the reasons in :data:`EXCEPTIONS` (what a JSON Schema cannot express).

The first group holds the slips an author makes while writing cases (a misspelt or
missing field, a dedent, a wrong code, a comma string, a wrong count, ``opened: no``, a
field that does not apply, ...) and changes that keep a file valid; the second
provokes each error message of the loader (generator/cases/loader.py,
generator/cases/schema.py, generator/kinds/, generator/yamlpos.py) once. A case file's
name (``*.yml``) and size are the loader's too, and no content.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

BASES = Path(__file__).resolve().parent / "fixtures" / "mutations"
"""The good files: ``rami.yaml``, ``cardverse.yaml``, ``scenario.yaml``."""

BOTH = "both"
NEITHER = "neither"

EXCEPTIONS: dict[str, str] = {
    "duplicate id": "ids unique across the cases and files of a project",
    "engine": "what the engine says: a documented value it disagrees with, a meld on the "
    "table that is not valid",
    "copies": "how often a card is used across the card lists of a case (or a start "
    "position's deal)",
    "jokers": "how many jokers a case uses across its card lists, against its preset",
    "yaml 1.1": "what YAML 1.1 reads otherwise than YAML 1.2, the editors' YAML: numbers "
    "(051, 31.0, 0x1F, 1e3, +31) and a bare yes, no, on or off where text belongs",
    "yaml structure": "what YAML resolves before a schema sees the value: a merge key (<<), "
    "a recursive alias",
    "lengths": "the length of one list against another's: results against actions",
}
"""Why ``check`` catches a mutation that the editor schema cannot: what a JSON Schema
cannot express. The keys are the values of :attr:`Mutation.expected` for such a
mutation."""


@dataclass(frozen=True)
class Mutation:
    """One change to a good file.

    Attributes:
        id: a short name, unique.
        base: the good file's name in :data:`BASES` (without ``.yaml``).
        old: the text replaced, found exactly once in the file; ``""`` for the whole file.
        new: what replaces it (a lone surrogate ``\\udcXX`` stands for the byte ``0xXX``).
        expected: :data:`BOTH`, :data:`NEITHER`, or a key of :data:`EXCEPTIONS` (``check``
            only).
        schema: whether check-jsonschema reads it (its YAML loading recurses without end
            on a recursive alias, and the whole run with it).
    """

    id: str
    base: str
    old: str
    new: str
    expected: str = BOTH
    schema: bool = True

    def data(self) -> bytes:
        """The mutated file's bytes."""
        text = (BASES / f"{self.base}.yaml").read_text(encoding="utf-8")
        if self.old:
            assert text.count(self.old) == 1, (self.id, self.old)
            text = text.replace(self.old, self.new)
        else:
            text = self.new
        return text.encode("utf-8", errors="surrogateescape")


def _m(id: str, base: str, old: str, new: str, expected: str = BOTH,
       schema: bool = True) -> Mutation:
    return Mutation(id, base, old, new, expected, schema)


_QKA = "    cards: QH KH AH\n    title: Queen, king and ace of hearts\n    expect:\n"
_HAND = "    cards: JK 5C\n    title: A joker left in the hand\n"
_DECK = "    expect: {decks: 2, jokers: 4, cards: 108, hand_size: 13}\n"
_ROUND = "      - []\n      - 5C 6C\n      - JK\n"
_CV_MELD = "    cards: QH KH AH\n    title: Queen, king and ace of hearts\n" \
    "    expect: {verdict: valid, type: run}\n"
_CV_LAYOFF = "    cards: 9S\n    title: The nine of spades laid off\n"
_ACTIONS = "      - draw: discard\n      - meld: 5C 6C 7C\n      - layoff: 9S\n        onto: 1\n"
_CV_ACTIONS = "      - draw: stock\n      - discard: 9D\n"

AUTHORING: tuple[Mutation, ...] = (
    _m("typo-in-a-field-name", "rami", "    title: Queen, king", "    titel: Queen, king"),
    _m("missing-title", "rami", "    title: A joker left in the hand\n", ""),
    _m("missing-expect", "rami", _DECK, ""),
    _m("field-dedented-out-of-expect", "rami", "    expect:\n      points: 30\n\n  - id: swap",
       "    expect:\n    points: 30\n\n  - id: swap"),
    _m("field-dedented-beside-expect", "rami", "      points: 31\n", "    points: 31\n"),
    _m("field-indented-too-far", "rami", "    kind: hand\n    cards: JK 5C",
       "    kind: hand\n      cards: JK 5C"),
    _m("tab-indentation", "rami", "    title: A joker left", "\ttitle: A joker left"),
    _m("no-space-after-colon-in-a-flow-mapping", "rami",
       "{verdict: valid, type: run, points: 21}", "{verdict:valid, type:run, points:21}"),
    _m("missing-dash-merges-two-cases", "rami", "  - id: joker-run-of-spades",
       "    id: joker-run-of-spades"),
    _m("typo-defaults", "rami", "defaults:\n", "defualts:\n"),
    _m("typo-in-an-expect-field", "rami", "      points: 31\n", "      point: 31\n"),
    _m("wrong-kind", "rami", "    kind: meld\n" + _QKA, "    kind: melds\n" + _QKA),
    _m("bad-suit", "rami", _QKA, _QKA.replace("AH", "AX")),
    _m("bad-rank-in-a-list", "rami", "[JK, 7S, 8S]", "[JK, 7S, 1S]"),
    _m("bad-card-to-swap", "rami", "    card: 6S\n", "    card: 6Z\n"),
    _m("bad-rank-eleven", "rami", "KH KH KS", "KH KH 11S"),
    _m("list-written-with-commas", "rami", "cards: 10D JD QD", "cards: 10D, JD, QD"),
    _m("duplicate-id", "rami", "id: joker-run-of-spades", "id: queen-king-ace-hearts",
       "duplicate id"),
    _m("points-with-a-point", "rami", "      points: 31\n", "      points: 31.0\n", "yaml 1.1"),
    _m("points-with-a-leading-zero", "rami", "points: 52", "points: 052", "yaml 1.1"),
    _m("seven-seats", "rami", _ROUND, _ROUND + "      - 2C\n      - 3C\n      - 4C\n      - 5D\n"),
    _m("a-hand-of-twelve-for-the-best-opening", "rami", " 10D JC 3S\n", " 10D JC\n"),
    _m("reason-with-verdict-valid", "rami", "      points: 31\n",
       "      points: 31\n      reason: not_a_meld\n"),
    _m("points-with-verdict-invalid", "rami", "      reason: duplicate_suit\n",
       "      reason: duplicate_suit\n      points: 30\n"),
    _m("opened-no", "rami", "    opened: true\n", "    opened: no\n"),
    _m("lowercase-codes", "rami", "[JK, 7S, 8S]", "[jk, 7s, 8s]", NEITHER),
    _m("lowercase-card-the-joker-stands-for", "rami", "joker_stands_for: 6S",
       "joker_stands_for: 6s", NEITHER),
    _m("three-copies-of-a-card-with-three-decks", "rami", "KH KH KS", "KH KH KH", NEITHER),
    _m("verdict-yes", "rami", "verdict: allowed", "verdict: yes"),
    _m("typo-in-a-status", "rami", "status: pending", "status: pendng"),
    _m("because-without-a-status", "rami", "    status: known_disagreement\n", ""),
    _m("known-disagreement-without-because", "rami",
       "    because: The app counts the joker as 24 (bug 123).\n", ""),
    _m("meld-on-the-table-that-is-not-valid", "rami", "    meld: 6S 7S 8S\n",
       "    meld: JK 7S 2H\n", "engine"),
    _m("a-wrong-value", "rami", "      points: 31\n", "      points: 30\n", "engine"),
    _m("four-copies-of-a-card", "rami", _HAND, _HAND.replace("JK 5C", "5C 5C 5C 5C"),
       "copies"),
    _m("five-jokers", "rami", _HAND, _HAND.replace("JK 5C", "JK JK JK JK JK"), "jokers"),
    _m("unknown-game", "rami", "    game: rami40\n", "    game: rami52\n"),
    _m("rules-in-cardverse", "cardverse", _CV_MELD, "    rules: house\n" + _CV_MELD),
    _m("options-in-rami", "rami", _HAND, _HAND + "    options: {ace_high: true}\n"),
    _m("first-meld-in-cardverse", "rami", "    kind: first_meld\n",
       "    kind: first_meld\n    game: cardverse\n"),
    _m("id-with-capitals", "rami", "id: joker-left-in-hand", "id: Joker_Left"),
    _m("empty-expect", "rami", _DECK, "    expect: {}\n"),
    _m("typo-in-a-verdict", "rami", "verdict: accepted", "verdict: acepted"),
    _m("negative-points", "rami", "points: 52", "points: -52"),
    _m("winner-who-is-no-seat", "rami", "      winner: 1\n      scores: [0, 11, 25]",
       "      winner: 4\n      scores: [0, 11, 25]"),
    _m("a-score-short", "rami", "scores: [0, 11, 25]", "scores: [0, 11]"),
    _m("five-players-in-cardverse", "cardverse", "players: 3", "players: 5"),
    _m("expect-field-of-another-kind", "rami", "      points: 31\n",
       "      points: 31\n      winner: 1\n"),
    _m("input-field-of-another-kind", "rami", _HAND, _HAND + "    players: 2\n"),
    _m("meld-points-in-cardverse", "cardverse", "{verdict: valid, type: run}",
       "{verdict: valid, type: run, points: 31}"),
    _m("joker-in-cardverse", "cardverse", _CV_MELD, _CV_MELD.replace("AH", "JK")),
    _m("opened-in-cardverse", "cardverse", _CV_LAYOFF, "    opened: true\n" + _CV_LAYOFF),
)
"""An author's slips in a case file, and changes that keep it valid."""

_DEEP = "[" * 101 + "]" * 101
_MANY = " ".join(["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC",
                  "AC"] * 12) + " 2D 3D 4D 5D 6D"  # 161 cards, no card more than 3 times
_ALIASES = "defaults: &d {game: rami51}\n" + "".join(
    f"x{i}: &x{i} [{', '.join([f'*x{i - 1}' if i else '*d'] * 10)}]\n" for i in range(5)) \
    + "cases: []\n"

LOADER: tuple[Mutation, ...] = (
    # the file
    _m("not-utf-8", "rami", "Queen, king and ace", "Queen, king \udcff and ace"),
    _m("empty-file", "rami", "", ""),
    _m("file-not-a-mapping", "rami", "", "- a\n- b\n"),
    _m("cases-not-a-list", "rami", "", "cases: {id: a}\n"),
    _m("case-not-a-mapping", "cardverse", "  - id: cardverse-deck-for-three\n",
       "  - just text\n  - id: cardverse-deck-for-three\n"),
    _m("unknown-field-in-defaults", "rami", "  rules: reference\n",
       "  rules: reference\n  players: 2\n"),
    _m("unknown-default-game", "rami", "  game: rami51\n", "  game: rami52\n"),
    _m("yaml-syntax-error", "rami", "[JK, 7S, 8S]", "[JK, 7S, 8S"),
    _m("duplicate-key", "rami", _HAND, _HAND + "    title: Again\n"),
    _m("key-that-yaml-1-1-reads-as-a-boolean", "rami", _HAND, _HAND + "    on: x\n"),
    _m("key-that-is-a-number", "rami", _HAND, _HAND + "    1: x\n"),
    _m("merge-key", "rami", _HAND, _HAND + "    <<: {note: merged}\n", "yaml structure"),
    _m("recursive-alias", "rami", _HAND, _HAND + "    note: &a [*a]\n", "yaml structure",
       schema=False),
    _m("unsupported-tag", "rami", "    title: A joker left", "    title: !custom A joker left"),
    _m("control-character", "rami", "    title: A joker left in the hand\n",
       '    title: "A joker left \\e in the hand"\n'),
    _m("noncharacter", "rami", "    title: A joker left in the hand\n",
       "    title: A joker left \ufdd0 in the hand\n"),
    _m("nested-too-deep", "rami", "    title: A joker left in the hand\n",
       f"    title: A joker left in the hand\n    note: {_DEEP}\n"),
    _m("aliases-expanding-too-far", "rami", "", _ALIASES),
    # numbers and booleans as written
    _m("hexadecimal-points", "rami", "points: 52", "points: 0x34", "yaml 1.1"),
    _m("sexagesimal-points", "rami", "points: 52", "points: 0:52"),
    _m("points-with-an-underscore", "rami", "points: 52", "points: 5_2", "yaml 1.1"),
    _m("points-with-a-plus", "rami", "points: 52", "points: +52", "yaml 1.1"),
    _m("points-in-exponent-form", "rami", "points: 52", "points: 5.2e1", "yaml 1.1"),
    _m("points-infinite", "rami", "points: 52", "points: .inf"),
    _m("points-quoted", "rami", "points: 52", "points: '52'"),
    _m("points-no", "rami", "points: 52", "points: no"),
    _m("id-no", "rami", "id: joker-left-in-hand", "id: no", "yaml 1.1"),
    _m("title-yes", "rami", "    title: A joker left in the hand\n", "    title: yes\n",
       "yaml 1.1"),
    _m("option-on", "cardverse", "ace_high: true", "ace_high: on"),
    _m("round-over-off", "scenario", "end: {round_over: false}", "end: {round_over: off}"),
    # types, values, fields (generator/cases/schema.py)
    _m("title-a-list", "rami", "    title: A joker left in the hand\n", "    title: [A joker]\n"),
    _m("expect-a-number", "rami", _DECK, "    expect: 3\n"),
    _m("melds-a-number", "rami", "    melds:\n      - [QH, KH, AH]\n      - JK 7S 8S\n",
       "    melds: 5\n"),
    _m("unknown-rules-preset", "rami", "  rules: reference\n", "  rules: referee\n"),
    _m("unknown-reason", "rami", "reason: duplicate_suit", "reason: duplicated_suit"),
    _m("unknown-meld-type", "rami", "type: run, points: 21", "type: runs, points: 21"),
    _m("missing-id", "rami", "  - id: joker-left-in-hand\n    kind: hand\n", "  - kind: hand\n"),
    _m("missing-kind", "rami", "    kind: hand\n    cards: JK 5C", "    cards: JK 5C"),
    _m("missing-game", "scenario", "    game: cardverse\n", ""),
    _m("missing-input", "rami", _HAND, "    title: A joker left in the hand\n"),
    _m("missing-verdict", "rami", "      verdict: allowed\n", ""),
    _m("unknown-field-in-options", "cardverse", "discard_to_win: false", "discard_to_wn: false"),
    _m("unknown-field-in-start", "scenario", "      reshuffles: 0\n",
       "      reshuffles: 0\n      dealer: 1\n"),
    _m("unknown-field-in-an-action", "scenario", "      - draw: stock\n",
       "      - draw: stock\n        from: top\n"),
    _m("unknown-field-in-end", "scenario", "        reason: went_out\n",
       "        reason: went_out\n        rounds: 1\n"),
    _m("players-for-another-game", "rami", "    game: rami40\n    players: 5\n",
       "    game: cardverse\n    players: 5\n"),
    _m("kind-for-another-game-from-defaults", "cardverse", "  - id: cardverse-lay-off\n",
       "  - id: cardverse-first-meld\n    kind: first_meld\n    melds: [QH KH AH]\n"
       "    title: T\n    expect: {verdict: accepted}\n\n  - id: cardverse-lay-off\n"),
    _m("empty-title", "rami", "    title: A joker left in the hand\n", "    title: ''\n"),
    _m("empty-id", "rami", "id: joker-left-in-hand", "id: ''"),
    _m("no-melds", "rami", "    melds:\n      - [QH, KH, AH]\n      - JK 7S 8S\n",
       "    melds: []\n"),
    _m("no-actions", "scenario", _CV_ACTIONS, "      []\n"),
    _m("winner-zero", "rami", "      winner: 1\n      scores: [0, 11, 25]",
       "      winner: 0\n      scores: [0, 11, 25]"),
    _m("empty-end", "scenario", "end: {round_over: false}", "end: {}"),
    # cards (generator/cases/loader.py, generator/engine/cards.py)
    _m("too-many-cards", "rami", _HAND, _HAND.replace("JK 5C", _MANY)),
    _m("empty-card-string", "rami", _HAND, _HAND.replace("JK 5C", "''")),
    _m("empty-card-list", "rami", _HAND, _HAND.replace("JK 5C", "[]")),
    _m("one-character-code", "rami", _HAND, _HAND.replace("JK 5C", "JK 5")),
    _m("code-with-a-space-in-a-list", "rami", "[JK, 7S, 8S]", "[JK, 7 S, 8S]"),
    _m("joker-to-swap", "rami", "    card: 6S\n", "    card: JK\n"),
    _m("bad-card-the-joker-stands-for", "rami", "joker_stands_for: 6S", "joker_stands_for: 6X"),
    _m("joker-stands-for-a-joker", "rami", "joker_stands_for: 6S", "joker_stands_for: JK"),
    # kinds (generator/kinds/)
    _m("best-opening-of-fifteen", "rami", " 10D JC 3S\n", " 10D JC 3S 4S 5S\n"),
    _m("seven-players", "rami", "players: 4", "players: 7"),
    _m("one-player", "rami", "players: 4", "players: 1"),
    _m("two-empty-hands", "rami", _ROUND, "      - []\n      - ''\n      - JK\n"),
    _m("one-seat-at-the-start", "scenario",
       "        - 5C 6C 7C 9D\n        - 4D 6H 7H JD\n", "        - 5C 6C 7C 9D\n"),
    _m("empty-hand-at-the-start", "scenario", "        - 5C 6C 7C\n", "        - []\n"),
    _m("opened-flags-in-cardverse", "scenario", "      stock: 10D 4S\n    actions:\n"
       + _CV_ACTIONS, "      stock: 10D 4S\n      opened: [false, false]\n    actions:\n"
       + _CV_ACTIONS),
    _m("three-opened-flags-for-two-seats", "scenario", "opened: [true, true]",
       "opened: [true, true, true]"),
    _m("turn-of-no-seat", "scenario", "      turn: 1\n", "      turn: 3\n"),
    _m("table-meld-of-no-seat", "scenario", "        - seat: 2\n", "        - seat: 3\n"),
    _m("table-meld-that-is-not-valid", "scenario", "cards: 10S JS QS", "cards: 10S JS KS",
       "engine"),
    _m("too-many-reshuffles", "scenario", "      reshuffles: 0\n", "      reshuffles: 3\n"),
    _m("turns-played-at-the-limit", "scenario", "      turns_played: 10\n",
       "      turns_played: 300\n"),
    _m("action-with-no-step", "scenario", "      - draw: discard\n", "      - onto: 1\n"),
    _m("action-with-two-steps", "scenario", "      - draw: stock\n",
       "      - draw: stock\n        discard: 9D\n"),
    _m("onto-without-a-layoff", "scenario", "      - draw: stock\n",
       "      - draw: stock\n        onto: 1\n"),
    _m("layoff-without-onto", "scenario", _ACTIONS, _ACTIONS.replace("        onto: 1\n", "")),
    _m("take-joker-without-card", "scenario", "      - draw: stock\n",
       "      - draw: stock\n      - take_joker: 1\n"),
    _m("a-result-short", "scenario", "results: [legal, legal]", "results: [legal]", "lengths"),
    _m("end-winner-of-no-seat", "scenario", "        winner: 1\n", "        winner: 3\n"),
    _m("end-score-short", "scenario", "scores: [0, 27]", "scores: [0]"),
    _m("more-copies-than-two-decks-deal", "scenario", "        - 5C 6C 7C\n",
       "        - 5C 5C 5C\n", "copies"),
)
"""One mutation per error message of the loader."""

MUTATIONS: tuple[Mutation, ...] = AUTHORING + LOADER
