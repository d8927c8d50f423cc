"""``python -m generator conformance --engine-cmd CMD``: another engine compared with this
one over generated cases (docs/site.md, docs/engine-protocol.md).

Cases are generated per kind and rule set (every game, each preset, each combination of
options) from the kind's input fields (:attr:`generator.kinds.base.Kind.inputs`, read by
their shape) or by the kind itself (:meth:`generator.kinds.base.Kind.sample`):
``--count`` random cases each, seeded (``--seed``), card lists drawn from the game's
cards and shaped towards melds (runs, sets, a joker in place of a card, one
card changed) so that both valid and nearly valid melds come up; with ``--exhaustive``
also the small input spaces (:func:`exhaustive_cases`: every three-card meld and hand,
every one-card lay-off onto a three-card meld, every joker swap of one).
A kind whose inputs are a structure makes them itself (:meth:`Kind.sample`: a
scenario's turns); one that does not, and whose inputs the kit cannot draw, is listed as
having no generator.

Both engines judge each case (this one in process, :func:`generator.protocol.judge`);
every field of the kind that the other engine computes is compared. Differences are
grouped into classes (kind, field, this engine's value's code, the other's; numbers by
their difference) and each class is shrunk to a minimal case (cards and card lists
left out one at a time while the class still shows), printed in the case-file form.
"""

from __future__ import annotations

import itertools
import random
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from generator.commands.explain_case import dump_case
from generator.commands.second_engine import EngineFault
from generator.commands.second_engine import EngineProcess
from generator.commands.second_engine import Record
from generator.commands.second_engine import compared_values
from generator.engine.cards import JOKER
from generator.engine.cards import all_cards
from generator.engine.cards import parse_card
from generator.engine.melds import check_meld
from generator.engine.rules import GAMES
from generator.engine.rules import RuleSet
from generator.engine.rules import options_of
from generator.engine.rules import presets_of
from generator.engine.rules import rule_set
from generator.errors import EXIT_DISAGREE
from generator.errors import EXIT_INPUT
from generator.errors import EXIT_OK
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.kinds import Kind
from generator.kinds.fields import TABLE_MELD
from generator.protocol import judge
from generator.protocol import request

MAX_TRIES = 60
"""Attempts at a random case the kind accepts before a slot is given up."""

MAX_SHRINK_ASKS = 400
"""Requests the shrinking of one class may send."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")


@dataclass(frozen=True)
class Settings:
    """What ``conformance`` was asked.

    Attributes:
        command: the other engine's command (``--engine-cmd``).
        timeout: seconds for its handshake and each reply.
        seed: the random cases' seed.
        count: random cases per kind and rule set.
        kinds: only these kinds (empty: every kind).
        exhaustive: also the exhaustive sweeps.
        format: ``text`` or ``junit``.
    """

    command: str
    timeout: float = 10.0
    seed: int = 1
    count: int = 200
    kinds: tuple[str, ...] = ()
    exhaustive: bool = False
    format: str = "text"


RuleSetKey = tuple[str, str | None, tuple[tuple[str, bool], ...]]
"""A game, its preset (``None``: none) and its options."""


def rule_sets() -> list[RuleSetKey]:
    """Every game of the registry under each preset and each combination of options."""
    out: list[RuleSetKey] = []
    for game in GAMES:
        options = [str(o) for o in options_of(game)]
        presets: list[str | None] = [str(p) for p in presets_of(game)] or [None]
        for preset in presets:
            for flags in itertools.product((False, True), repeat=len(options)):
                out.append((game, preset, tuple(zip(options, flags, strict=True))))
    return out


def rule_set_name(key: RuleSetKey) -> str:
    """``rami51 reference``, ``cardverse ace_high``."""
    game, preset, options = key
    on = [name for name, flag in options if flag]
    return " ".join([game, *([preset] if preset else []), *on])


# -- generating ---------------------------------------------------------------------


class _Pile:
    """The cards a case may use: every card as often as the game's largest deck pile
    holds it, and its jokers."""

    def __init__(self, rules: RuleSet) -> None:
        decks = max(row.decks for row in rules.deck)
        jokers = max(row.jokers for row in rules.deck)
        self.left: Counter[str] = Counter({c.code: decks for c in all_cards()})
        if jokers:
            self.left[JOKER.code] = jokers

    def take(self, code: str) -> bool:
        if self.left[code] <= 0:
            return False
        self.left[code] -= 1
        return True

    def any(self, rng: random.Random) -> str | None:
        codes = sorted(c for c, n in self.left.items() if n > 0)
        if not codes:
            return None
        code = rng.choice(codes)
        self.left[code] -= 1
        return code


def _meldish(rng: random.Random, pile: _Pile, size: int) -> list[str]:
    """``size`` cards from ``pile``, most often shaped as a run or a set, a joker in
    place of a card now and then, one card changed now and then."""
    shape = rng.random()
    wanted: list[str] = []
    if shape < 0.45:
        suit, start = rng.choice(SUITS), rng.randrange(13)
        wanted = [RANKS[(start + i) % 13] + suit for i in range(size)]
    elif shape < 0.8:
        rank = rng.choice(RANKS)
        wanted = [rank + rng.choice(SUITS) for _ in range(size)]
    if wanted and rng.random() < 0.3:
        wanted[rng.randrange(size)] = JOKER.code
    if wanted and rng.random() < 0.2:
        wanted[rng.randrange(size)] = rng.choice(RANKS) + rng.choice(SUITS)
    out: list[str] = []
    for code in wanted or [""] * size:
        got = code if code and pile.take(code) else pile.any(rng)
        if got is not None:
            out.append(got)
    rng.shuffle(out)
    return out


def _size(rng: random.Random) -> int:
    return rng.choice((1, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6, 7, 9, 13, 13, 14, 14))


def _value(kind: AnyKind, name: str, rng: random.Random, rules: RuleSet,
           pile: _Pile) -> Any:
    """A random value of the input field ``name`` by its shape (``None``: no
    generator for it)."""
    spec = kind.inputs[name]
    if spec.shape == "cards":
        return _meldish(rng, pile, _size(rng))
    if spec.shape == "melds":
        return [_meldish(rng, pile, rng.choice((3, 3, 4))) for _ in range(rng.randint(1, 3))]
    if spec.shape == "hands":
        seats = rng.randint(rules.min_players, rules.max_players)
        out = [_meldish(rng, pile, rng.randint(1, 6)) for _ in range(seats)]
        if rng.random() < 0.5:
            out[rng.randrange(seats)] = []
        return out
    if spec.shape == "card":
        return next((c for c in (pile.any(rng) for _ in range(9)) if c and c != JOKER.code),
                    None)
    kinds = spec.schema.get("type")
    if kinds == "integer":
        return rng.randint(max(rules.min_players - 1, 1), rules.max_players + 1)
    if kinds == "boolean":
        return rng.random() < 0.7
    return None


def _samples(kind: AnyKind) -> bool:
    """Whether the kind makes its own random inputs (:meth:`Kind.sample`)."""
    return type(kind).sample is not Kind.sample


def generatable(kind: AnyKind) -> bool:
    """Whether the kit can make the kind's inputs: the kind makes them itself, or they
    all have a shape the kit draws (not a structure with cards within it)."""
    return _samples(kind) or all(spec.shape != "within" for spec in kind.inputs.values())


def random_cases(kind: AnyKind, key: RuleSetKey, rng: random.Random,
                 count: int) -> Iterator[dict[str, Any]]:
    """``count`` random requests of ``kind`` in the rule set ``key`` that this engine
    accepts (a slot given up after :data:`MAX_TRIES` attempts)."""
    game, preset, options = key
    rules = rule_set(game, preset, **dict(options))
    for _ in range(count):
        for _try in range(MAX_TRIES):
            pile = _Pile(rules)
            made = kind.sample(rules, rng) if _samples(kind) else None
            inputs = made if made is not None else {
                name: _value(kind, name, rng, rules, pile) for name in kind.inputs
                if kind.inputs[name].required or rng.random() < 0.5}
            if any(v is None for v in inputs.values()):
                continue
            message = request(1, kind.name, game, preset, dict(options), inputs)
            if judge(message).values is not None:
                yield message
                break


def exhaustive_cases(kind: AnyKind, key: RuleSetKey) -> Iterator[dict[str, Any]]:
    """The small input spaces, every case this engine accepts: for a kind that takes one
    card list and nothing else, every three-card list (as a multiset, within the game's
    cards: every three-card meld, every three-card hand); for a kind that takes a meld on
    the table (:data:`generator.kinds.fields.TABLE_MELD`) and one more card field, every
    valid three-card table meld with every single card (every one-card lay-off, every
    joker swap of a three-card meld)."""
    game, preset, options = key
    rules = rule_set(game, preset, **dict(options))
    limits = _Pile(rules).left
    codes = sorted(limits)
    triples = [list(combo) for combo in itertools.combinations_with_replacement(codes, 3)
               if all(n <= limits[c] for c, n in Counter(combo).items())]
    required = [name for name, spec in kind.inputs.items() if spec.required]
    for inputs in _spaces(kind, required, triples, codes, rules):
        if all(n <= limits[c] for c, n in Counter(_codes_in(inputs)).items()):
            message = request(1, kind.name, game, preset, dict(options), inputs)
            if judge(message).values is not None:
                yield message


def _spaces(kind: AnyKind, required: list[str], triples: list[list[str]], codes: list[str],
            rules: RuleSet) -> Iterator[dict[str, Any]]:
    """The inputs of :func:`exhaustive_cases` before they are judged."""
    specs = kind.inputs
    if len(required) == 1 and specs[required[0]].shape == "cards":
        for triple in triples:
            yield {required[0]: triple}
        return
    tables = [name for name in required if specs[name] is TABLE_MELD]
    others = [name for name in required if name not in tables]
    if len(tables) != 1 or len(others) != 1 or specs[others[0]].shape not in ("cards", "card"):
        return
    melds = [t for t in triples if check_meld(tuple(parse_card(c) for c in t), rules).valid]
    single = specs[others[0]].shape == "card"
    for meld in melds:
        for code in codes:
            yield {tables[0]: meld, others[0]: code if single else [code]}


def _codes_in(inputs: Mapping[str, Any]) -> Iterator[str]:
    for value in inputs.values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


# -- comparing ------------------------------------------------------------------------


def _code(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "number"
    if isinstance(value, str):
        return value
    return "list" if isinstance(value, list) else "mapping"


def class_key(kind: str, name: str, ours: Any, theirs: Any) -> tuple[str, str, str, str]:
    """A difference's class: the kind, the field, this engine's value's code and the
    other's; two numbers are ``number`` and ``number -10`` (their difference)."""
    if isinstance(ours, int) and isinstance(theirs, int) and not isinstance(ours, bool) \
            and not isinstance(theirs, bool):
        return kind, name, "number", f"number {theirs - ours:+d}"
    return kind, name, _code(ours), _code(theirs)


@dataclass
class Found:
    """One class of differences.

    Attributes:
        key: (kind, field, this engine's code, the other's).
        count: how many cases showed it.
        first: the first request that showed it.
        rule_sets: the rule sets it showed in (:func:`rule_set_name`), in order.
        minimal: that request shrunk.
        ours: this engine's values of the minimal request.
        theirs: the other engine's values (or its error) of the minimal request.
    """

    key: tuple[str, str, str, str]
    count: int
    first: dict[str, Any]
    rule_sets: list[str] = field(default_factory=list)
    minimal: dict[str, Any] = field(default_factory=dict)
    ours: dict[str, Any] = field(default_factory=dict)
    theirs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Tally:
    """One kind's counts (or a rule set's within it)."""

    compared: int = 0
    agreed: int = 0
    differed: int = 0


@dataclass
class Report:
    """What a conformance run found."""

    engine: str = ""
    kinds: dict[str, Tally] = field(default_factory=dict)
    rows: dict[tuple[str, str], Tally] = field(default_factory=dict)
    not_covered: list[str] = field(default_factory=list)
    no_generator: list[str] = field(default_factory=list)
    classes: dict[tuple[str, str, str, str], Found] = field(default_factory=dict)
    seconds: float = 0.0


def _differences(kind: AnyKind, ours: Mapping[str, Any], reply: Mapping[str, Any],
                 computed: list[str]) -> list[tuple[str, Any, Any]]:
    if "error" in reply:
        return [("error", "values", f"error: {reply['error']}")]
    return compared_values(kind, ours, reply.get("values", {}), computed)


def _shrunk(engine: EngineProcess, message: dict[str, Any],
            key: tuple[str, str, str, str]) -> tuple[dict[str, Any], dict[str, Any],
                                                     dict[str, Any]]:
    """``message`` with cards and card lists left out one at a time while this engine
    accepts it and the other still shows the class ``key``; with both engines' values."""
    kind = KINDS[message["kind"]]
    computed = engine.kinds.get(kind.name, [])
    asks = 0

    def shows(candidate: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
        nonlocal asks
        ours = judge(candidate).values
        if ours is None or asks >= MAX_SHRINK_ASKS:
            return None
        asks += 1
        reply = engine.ask(candidate, "a shrunk request")
        for name, mine, other in _differences(kind, ours, reply, computed):
            if class_key(kind.name, name, mine, other) == key:
                return ours, reply
        return None

    best = message
    found = shows(message)
    if found is None:  # pragma: no cover - it showed the class a moment ago
        return message, {}, {}
    progress = True
    while progress:
        progress = False
        for candidate in _smaller(best):
            got = shows(candidate)
            if got is not None:
                best, found, progress = candidate, got, True
                break
    return best, found[0], found[1]


def _smaller(message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each request with one card, or one card list of a list of them, left out."""
    inputs = message["inputs"]
    for name, value in inputs.items():
        if not isinstance(value, list):
            continue
        if value and all(isinstance(v, list) for v in value):
            for i in range(len(value)):
                if len(value) > 1:
                    yield {**message, "inputs": {**inputs, name: value[:i] + value[i + 1:]}}
            for i, inner in enumerate(value):
                for j in range(len(inner)):
                    smaller = [*value[:i], inner[:j] + inner[j + 1:], *value[i + 1:]]
                    yield {**message, "inputs": {**inputs, name: smaller}}
        elif len(value) > 1:
            for i in range(len(value)):
                yield {**message, "inputs": {**inputs, name: value[:i] + value[i + 1:]}}


def run(settings: Settings, record: Record | None = None,
        progress: Callable[[str], None] | None = None) -> Report:
    """Generate the cases, ask both engines, group and shrink the differences.

    Raises:
        EngineFault: the other engine broke the protocol.
        ValueError: ``settings.kinds`` names a kind the registry does not have.
    """
    unknown = [k for k in settings.kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"--kinds: unknown kind {unknown[0]!r}; expected "
                         f"{', '.join(KINDS)}")
    report = Report()
    started = time.perf_counter()
    with EngineProcess(settings.command, settings.timeout, record) as engine:
        engine.start()
        report.engine = engine.name
        for name, kind in KINDS.items():
            if settings.kinds and name not in settings.kinds:
                continue
            if name not in engine.kinds:
                report.not_covered.append(name)
                continue
            if not generatable(kind):
                report.no_generator.append(name)
                continue
            tally = report.kinds.setdefault(name, Tally())
            for index, key in enumerate(rule_sets()):
                if key[0] not in engine.games or key[0] not in kind.games:
                    continue
                where = rule_set_name(key)
                row = report.rows.setdefault((name, where), Tally())
                rng = random.Random(f"{settings.seed}:{name}:{index}")
                cases: Iterator[dict[str, Any]] = random_cases(kind, key, rng, settings.count)
                if settings.exhaustive:
                    cases = itertools.chain(exhaustive_cases(kind, key), cases)
                for message in cases:
                    _compare(engine, kind, message, (tally, row), where, report)
            if progress is not None:
                progress(f"conformance: {name}: {tally.compared} cases compared")
        for found in report.classes.values():
            found.minimal, found.ours, found.theirs = _shrunk(engine, found.first, found.key)
    report.seconds = time.perf_counter() - started
    return report


def _compare(engine: EngineProcess, kind: AnyKind, message: dict[str, Any],
             tallies: tuple[Tally, Tally], where: str, report: Report) -> None:
    ours = judge(message).values
    if ours is None:  # pragma: no cover - the generators keep accepted cases only
        return
    reply = engine.ask(message, f"a {kind.name} request")
    found = _differences(kind, ours, reply, engine.kinds[kind.name])
    for t in tallies:
        t.compared += 1
        t.differed += bool(found)
        t.agreed += not found
    for name, mine, other in found:
        key = class_key(kind.name, name, mine, other)
        known = report.classes.get(key)
        if known is None:
            known = report.classes[key] = Found(key, 0, message)
        known.count += 1
        if where not in known.rule_sets:
            known.rule_sets.append(where)


# -- reporting ------------------------------------------------------------------------


def case_text(found: Found, number: int) -> str:
    """The minimal case of a class in the case-file form (this engine's values as its
    ``expect``), with the other engine's values in a comment."""
    message = found.minimal or found.first
    kind, name = found.key[0], found.key[1]
    item: dict[str, Any] = {"id": f"conformance-{kind.replace('_', '-')}-{number}",
                            "kind": kind, "game": message["game"]}
    if "rules" in message:
        item["rules"] = message["rules"]
    on = {k: True for k, v in message.get("options", {}).items() if v}
    if on:
        item["options"] = on
    item.update(message["inputs"])
    item["title"] = f"The engines differ on {name}"
    item["expect"] = found.ours
    theirs = found.theirs.get("values", found.theirs)
    text = dump_case(item)
    other = ", ".join(f"{k}: {v}" for k, v in theirs.items()) if isinstance(theirs, dict) \
        else str(theirs)
    return text + f"    # second engine: {other or 'no values'}\n"


def _cases(n: int) -> str:
    return f"{n} case" if n == 1 else f"{n} cases"


def text_report(report: Report, settings: Settings) -> str:
    """The table per kind, the classes of differences and their minimal cases."""
    lines = [f"conformance: {settings.command} ({report.engine}), seed {settings.seed}, "
             f"{settings.count} random cases per kind and rule set"
             + (", exhaustive sweeps" if settings.exhaustive else ""), ""]
    header = f"{'kind':<14} {'rule set':<34} {'compared':>9} {'agreed':>9} {'differed':>9}"
    lines.append(header)
    for name, tally in report.kinds.items():
        for (kind, rules), row in report.rows.items():
            if kind == name:
                lines.append(f"{kind:<14} {rules:<34} {row.compared:>9} {row.agreed:>9} "
                             f"{row.differed:>9}")
        lines.append(f"{name:<14} {'(all)':<34} {tally.compared:>9} {tally.agreed:>9} "
                     f"{tally.differed:>9}")
    for name in report.not_covered:
        lines.append(f"{name:<14} {'not covered by the second engine':<28}")
    for name in report.no_generator:
        lines.append(f"{name:<14} {'no generator (not compared)':<28}")
    lines.append("")
    plural = "" if len(report.classes) == 1 else "es"
    lines.append(f"{len(report.classes)} class{plural} of differences")
    for number, found in enumerate(report.classes.values(), start=1):
        kind, name, mine, other = found.key
        lines.append(f"class {number}: {kind} {name}: engine {mine}, second engine {other} "
                     f"({_cases(found.count)}; {', '.join(found.rule_sets)}); minimal case:")
        lines.append("cases:")
        lines.extend(case_text(found, number).rstrip("\n").splitlines())
    return "\n".join(lines) + "\n"


def junit_report(report: Report, settings: Settings) -> bytes:
    """JUnit XML: a ``<testcase>`` per kind and rule set compared, a ``<failure>`` per
    class of differences in its kind's first test case, with its minimal case."""
    root = ET.Element("testsuites", {"name": "rules-site conformance"})
    suite = ET.SubElement(root, "testsuite", {"name": f"conformance {settings.command}"})
    tests = failures = 0
    for (kind, rules), row in report.rows.items():
        testcase = ET.SubElement(suite, "testcase", {"classname": kind, "name": rules})
        tests += 1
        if row.differed:
            failures += 1
            for number, found in enumerate(report.classes.values(), start=1):
                if found.key[0] == kind and rules in found.rule_sets:
                    failure = ET.SubElement(testcase, "failure", {
                        "type": "difference",
                        "message": f"{found.key[1]}: engine {found.key[2]}, second engine "
                                   f"{found.key[3]} ({_cases(found.count)})"})
                    failure.text = "cases:\n" + case_text(found, number)
            if not len(testcase):
                ET.SubElement(testcase, "failure", {
                    "type": "difference", "message": f"{row.differed} cases differ"})
    for element in (suite, root):
        element.set("tests", str(tests))
        element.set("failures", str(failures))
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def conformance(settings: Settings, write: Callable[[str], None],
                say: Callable[[str], None]) -> int:
    """Run :func:`run` and print its report (``write``) and totals (``say``); the exit
    status: 0 every case agreed, 1 a difference, 2 the other engine broke the protocol,
    ``--kinds`` names no kind, or no case was compared."""
    try:
        report = run(settings)
    except (EngineFault, ValueError) as exc:
        write(f"--engine-cmd:1: {exc}\n" if isinstance(exc, EngineFault) else f"{exc}\n")
        return EXIT_INPUT
    total = sum(t.compared for t in report.kinds.values())
    if total == 0:  # a green report of nothing would pass the other team's CI
        write("conformance: no case was compared (the second engine covers none of "
              f"{', '.join(sorted(report.kinds)) or 'these kinds'}, or --count is 0); "
              "expected an engine that answers at least one of the kinds asked for\n")
        return EXIT_INPUT
    if settings.format == "junit":
        write(junit_report(report, settings).decode("utf-8"))
    else:
        write(text_report(report, settings))
    per = report.seconds / total * 10_000 if total else 0.0
    plural = "" if len(report.classes) == 1 else "es"
    say(f"conformance: {_cases(total)} compared in {report.seconds:.2f} s "
        f"({per:.1f} s per 10,000 cases), {len(report.classes)} class{plural} of differences")
    return EXIT_DISAGREE if report.classes else EXIT_OK
