"""The engine protocol (docs/engine-protocol.md): ``python -m generator engine``, ``check
--engine-cmd`` and ``conformance``, against this package's engine, fake engines (small
Python scripts that break the protocol one way each) and the JavaScript example engine
(examples/engine-js/, skipped where ``node`` is missing). Every message exchanged is
validated against the protocol's JSON Schema."""

from __future__ import annotations

import itertools
import json
import os
import random
import shutil
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from generator.commands.conformance import Settings
from generator.commands.conformance import conformance
from generator.commands.conformance import exhaustive_cases
from generator.commands.conformance import junit_report as conformance_junit
from generator.commands.conformance import random_cases
from generator.commands.conformance import run
from generator.commands.conformance import text_report as conformance_text
from generator.commands.engine import answer
from generator.commands.engine import serve_engine
from generator.commands.project import Project
from generator.commands.project import load_project
from generator.commands.report_formats import Findings
from generator.commands.report_formats import json_bytes
from generator.commands.report_formats import junit_report
from generator.commands.second_engine import EngineFault
from generator.commands.second_engine import EngineProcess
from generator.commands.second_engine import second_opinion
from generator.engine.rules import games
from generator.kinds import KINDS
from generator.protocol import judge
from generator.protocol import protocol_schema
from tests.conftest import REPO
from tests.conftest import run_cli

NODE = shutil.which("node")
JS_ENGINE = REPO / "examples" / "engine-js" / "engine.js"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (the JavaScript "
                                "example engine needs it: apt-get install nodejs)")

SCHEMA = Draft202012Validator(protocol_schema())

FAKE = '''
import json, sys, time
mode = sys.argv[1]
hello = {"protocol": 2 if mode == "version" else 1, "engine": "fake " + mode,
         "kinds": {"meld": ["verdict", "type", "points", "reason"]},
         "games": ["rami40", "rami51", "cardverse"]}
if mode == "silent":
    time.sleep(60)
print(json.dumps(hello), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if mode == "crash":
        sys.stderr.write("boom: the fake engine gives up\\n")
        sys.exit(3)
    if mode == "hang":
        time.sleep(60)
    if mode == "garbage":
        print("<html>not a reply</html>", flush=True)
        continue
    if mode == "wrong-id":
        print(json.dumps({"id": request["id"] + 7, "values": {}}), flush=True)
        continue
    if mode == "bad-values":
        print(json.dumps({"id": request["id"], "values": {"verdict": "maybe"}}), flush=True)
        continue
    print(json.dumps({"id": request["id"], "values": {"verdict": "valid", "type": "run",
                                                      "points": 21}}), flush=True)
'''


@pytest.fixture(scope="module")
def fake(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The fake engine's command line, its mode to be appended."""
    script = tmp_path_factory.mktemp("fake") / "fake_engine.py"
    script.write_text(FAKE, encoding="utf-8")
    yield f"{sys.executable} -S {script}"


@pytest.fixture(scope="module")
def repo_project() -> Project:
    """This repository's site, loaded and verified once for the module."""
    return load_project(REPO)


class Recorder:
    """Every message exchanged, each validated against the protocol's schema."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, direction: str, message: dict[str, Any]) -> None:
        problems = [e.message for e in SCHEMA.iter_errors(message)]
        assert not problems, (direction, message, problems)
        self.messages.append((direction, message))


def test_reference_engine_answers_in_process() -> None:
    """The handshake names every kind (with its expect fields) and game of the
    registries; each request gets its values in the case-file form, or an error that
    says what is wrong; every line validates against the schema."""
    requests = [
        {"id": 1, "kind": "meld", "game": "rami51", "rules": "reference",
         "inputs": {"cards": ["QH", "KH", "AH"]}},
        {"id": 2, "kind": "meld", "game": "rami51", "rules": "reference",
         "inputs": {"cards": ["KH", "AH", "2H"]}},
        {"id": 3, "kind": "hand", "game": "cardverse",
         "options": {"ace_high": True, "discard_to_win": False},
         "inputs": {"cards": ["AH", "KC"]}},
        {"id": 4, "kind": "joker_swap", "game": "rami51", "rules": "reference",
         "inputs": {"meld": ["JK", "7S", "8S"], "card": "6S"}},
        {"id": 5, "kind": "meld", "game": "rami51", "rules": "reference",
         "inputs": {"cards": ["QX"]}},
        {"id": 6, "kind": "meld", "game": "rami51", "inputs": {"melds": []}},
    ]
    out: list[str] = []
    serve_engine([*(json.dumps(r) for r in requests), "", "{not json"], out.append)
    messages = [json.loads(line) for line in out]
    for message in messages:
        assert not list(SCHEMA.iter_errors(message)), message
    hello, *replies = messages
    assert hello["protocol"] == 1
    assert hello["kinds"] == {name: list(kind.expect) for name, kind in KINDS.items()}
    assert hello["games"] == [spec.id for spec in games()]
    assert replies[0] == {"id": 1, "values": {"verdict": "valid", "type": "run", "points": 31}}
    assert replies[1] == {"id": 2, "values": {"verdict": "invalid", "type": "run",
                                              "reason": "wraps_around"}}
    assert replies[2] == {"id": 3, "values": {"points": 21}}
    assert replies[3]["values"] == {"verdict": "allowed", "joker_stands_for": "6S"}
    assert replies[4]["id"] == 5 and "unknown card 'QX'" in replies[4]["error"]
    assert replies[5] == {"id": 6, "error": "inputs.melds is not an input of kind 'meld'; "
                                            "expected cards"}
    assert replies[6]["id"] == 0 and replies[6]["error"].startswith("not JSON")
    assert answer('{"id": 3, "kind": "meld"}')["error"].startswith("not a request: ")


def test_check_with_the_reference_engine(repo_project: Project) -> None:
    """``check --engine-cmd "python -m generator engine"`` over this repository's site:
    every case judged by both engines, no difference, every message schema-valid."""
    record = Recorder()
    opinion = second_opinion(repo_project, f"{sys.executable} -m generator engine", 60,
                             record)
    assert opinion.fault is None
    assert opinion.cases == len(repo_project.results) == opinion.judged
    assert (opinion.not_covered, opinion.differences) == (0, [])
    sent = [m for d, m in record.messages if d == "sent"]
    assert len(sent) == opinion.cases
    assert {m["kind"] for m in sent} == set(KINDS)


@needs_node
def test_check_with_the_js_engine(repo_project: Project) -> None:
    """The JavaScript engine judges the site's meld and hand cases the same; the other
    kinds are not covered."""
    record = Recorder()
    opinion = second_opinion(repo_project, f"node {JS_ENGINE}", 60, record)
    covered = sum(c.kind in ("meld", "hand") for c in repo_project.results.cases())
    assert opinion.fault is None
    assert (opinion.judged, opinion.differences) == (covered, [])
    assert opinion.not_covered == len(repo_project.results) - covered > 0
    assert record.messages[0][1]["kinds"] == {"meld": ["verdict", "type", "points", "reason"],
                                              "hand": ["points"]}


@needs_node
def test_conformance_finds_the_ace_after_the_king(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the switch off the JavaScript engine agrees on every generated meld and hand;
    with it on, the ace after the king is a class of differences in the meld points,
    shrunk to a three-card run."""
    record = Recorder()
    command = f"node {JS_ENGINE}"
    agreed = run(Settings(command, 60, seed=3, count=25, kinds=("meld", "hand")), record)
    assert agreed.classes == {}
    assert agreed.kinds["meld"].compared == agreed.kinds["meld"].agreed == 8 * 25
    monkeypatch.setenv("ENGINE_ACE_AFTER_KING_ONE", "1")
    settings = Settings(command, 60, seed=3, count=50, kinds=("meld",))
    found = run(settings, record)
    ace = found.classes[("meld", "points", "number", "number -10")]
    cards = ace.minimal["inputs"]["cards"]
    assert sorted(c[:-1] for c in cards) == ["A", "K", "Q"]
    assert len({c[-1] for c in cards}) == 1
    assert (ace.ours["points"], ace.theirs["values"]["points"]) == (31, 21)
    text = conformance_text(found, settings)
    assert "meld           (all)                                    400       " in text
    number = list(found.classes).index(ace.key) + 1
    assert (f"class {number}: meld points: engine number, second engine number -10 "
            f"({ace.count} case") in text
    assert f"    cards: [{', '.join(cards)}]\n" in text
    assert "    # second engine: verdict: valid, type: run, points: 21\n" in text
    root = ET.fromstring(conformance_junit(found, settings))
    failed = {t.get("name") for t in root.iter("testcase") if t.find("failure") is not None}
    assert failed >= set(ace.rule_sets)
    assert root.get("tests") == "8"


def test_check_reports_differences_in_every_format(init_project: Path, fake: str) -> None:
    """A difference is reported at the documented field as ``FILE:LINE: case ID: FIELD
    engine X, second engine Y`` (exit 1); JSON gives it a ``second_engine`` field and
    JUnit a failure; the kinds the engine does not name are not covered."""
    done = run_cli("check", "--engine-cmd", f"{fake} differs", cwd=init_project)
    assert done.returncode == 1, done
    lines = done.stdout.splitlines()
    assert "content/examples/melds.yaml:16: case queen-king-ace-hearts: points engine 31, " \
        "second engine 21" in lines
    assert "content/examples/melds.yaml:23: case three-sevens: type engine set, second " \
        "engine run" in lines
    assert done.stderr.splitlines()[-1] == ("second engine: 3 cases judged by this engine, "
                                            "2 by the second engine, 1 not covered, 2 "
                                            "differences")
    project = load_project(init_project)
    opinion = second_opinion(project, f"{fake} differs")
    findings = Findings.of(project, None, False, "", opinion)
    report = json.loads(json_bytes(findings))
    points = next(d for d in report["disagreements"] if d["field"] == "points")
    assert (points["engine"], points["second_engine"], points["documented"]) == (31, 21, 31)
    assert report["second_engine"]["not_covered"] == 1
    root = ET.fromstring(junit_report(findings))
    failures = root.findall(".//testcase[@name='queen-king-ace-hearts']/failure")
    assert [f.get("type") for f in failures] == ["second engine"]
    assert root.get("failures") == "2"


@pytest.mark.parametrize(("mode", "said"), [
    ("missing", "cannot start the engine command"),
    ("crash", "ended with no line for the request of case queen-king-ace-hearts (exit "
     "status 3; its last words: \"boom: the fake engine gives up\")"),
    ("hang", "wrote no line for the request of case queen-king-ace-hearts within 1.5 s"),
    ("silent", "wrote no line for its handshake within 0.3 s"),
    ("garbage", "wrote \"<html>not a reply</html>\" for the request of case "
     "queen-king-ace-hearts, which is not JSON"),
    ("wrong-id", "answered the request of case queen-king-ace-hearts with the reply to "
     "request 8; expected id 1"),
    ("version", "speaks protocol version 2; expected version 1"),
    ("bad-values", "values.verdict: 'maybe' is not one of ['valid', 'invalid']"),
])
def test_engine_faults(init_project: Path, fake: str, mode: str, said: str) -> None:
    """Each way an engine command breaks the protocol is an input error that names the
    command and the request, never a traceback or a hang; the process is ended."""
    command = "no-such-engine-command --x" if mode == "missing" else f"{fake} {mode}"
    project = load_project(init_project)
    # the timeout the fault is found by; the faults that do not wait get a long one, so
    # that a slow start on a busy machine is not taken for a silent engine
    timeout = {"silent": 0.3, "hang": 1.5}.get(mode, 30.0)
    opinion = second_opinion(project, command, timeout)
    assert opinion.fault is not None
    message = opinion.fault.format()
    assert said in message
    assert json.dumps(command) in message
    if mode in ("crash", "hang", "garbage", "wrong-id", "bad-values"):
        assert message.startswith("content/examples/melds.yaml:8: ")


def test_a_fault_through_the_command_line(init_project: Path, fake: str) -> None:
    """``check`` with a broken engine exits 2 with the one error line, no traceback."""
    done = run_cli("check", "--engine-cmd", f"{fake} garbage", "--engine-timeout", "5",
                   cwd=init_project)
    assert done.returncode == 2
    assert done.stdout.startswith("content/examples/melds.yaml:8: the engine command ")
    assert "Traceback" not in done.stdout + done.stderr


def test_engine_process_kills_a_hanging_engine(fake: str) -> None:
    """The process of an engine that does not answer is killed, not waited for."""
    engine = EngineProcess(f"{fake} hang", 1.5)
    engine.start()
    proc = engine._proc
    assert proc is not None
    with pytest.raises(EngineFault):
        engine.ask({"kind": "meld", "game": "rami51", "inputs": {"cards": ["QH"]}}, "x")
    assert proc.poll() is not None
    assert not os.path.exists(f"/proc/{proc.pid}/stat") or proc.returncode is not None


def test_a_wrappers_children_end_with_the_engine(fake: str) -> None:
    """An engine started through a wrapper (``sh -c``, a script, ``npm run``) that does
    not answer: the wrapper's own children are killed with it, none is left running."""
    marker = f"engine-child-{os.getpid()}"
    engine = EngineProcess(f"sh -c '{fake} silent {marker}; true'", 0.5)
    with pytest.raises(EngineFault):
        engine.start()  # no handshake within the timeout
    engine.close(kill=True)
    deadline = time.monotonic() + 10  # (SIGKILL is delivered, and the dead reaped, apart)
    while (left := [pid for pid in os.listdir("/proc") if pid.isdigit()
                    and marker.encode() in _cmdline(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left == []


def _cmdline(pid: str) -> bytes:
    """The command line of process ``pid`` (``b""`` when it has ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def test_conformance_that_compares_nothing_is_an_input_error(
        fake: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--count 0`` compares no case: exit 2 with what was expected, never a green
    report of nothing."""
    status = conformance(Settings(f"node {JS_ENGINE}" if shutil.which("node")
                                  else f"{sys.executable} -m generator engine", 10, seed=1,
                                  count=0, kinds=("meld",), exhaustive=False),
                         print, print)
    out = capsys.readouterr().out
    assert status == 2, out
    assert out.startswith("conformance: no case was compared"), out


@needs_node
@pytest.mark.extended
def test_exhaustive_sweep_with_the_js_engine() -> None:
    """Every three-card meld in every rule set, and random melds and hands beside them:
    the JavaScript engine agrees with this one on each (193,340 three-card melds)."""
    extended = bool(os.environ.get("RULES_EXTENDED"))
    found = run(Settings(f"node {JS_ENGINE}", 60, seed=1, count=200 if extended else 5,
                         kinds=("meld",) if extended else ("meld", "hand"),
                         exhaustive=extended))
    assert found.classes == {}
    assert found.kinds["meld"].compared == found.kinds["meld"].agreed


def test_exhaustive_spaces_start_where_expected() -> None:
    """The exhaustive sweeps: three-card lists for a kind of one card list, a valid
    three-card table meld with one card for a lay-off (the first few of each)."""
    rami51 = ("rami51", "reference", ())
    melds = list(itertools.islice(exhaustive_cases(KINDS["meld"], rami51), 3))
    assert [m["inputs"]["cards"] for m in melds] == [["10C", "10C", "10C"],
                                                     ["10C", "10C", "10D"],
                                                     ["10C", "10C", "10H"]]
    layoffs = list(itertools.islice(exhaustive_cases(KINDS["layoff"], rami51), 2))
    assert [m["inputs"] for m in layoffs] == [
        {"meld": ["10C", "10D", "10H"], "cards": ["10C"]},
        {"meld": ["10C", "10D", "10H"], "cards": ["10D"]}]
    assert list(exhaustive_cases(KINDS["round"], rami51)) == []


def test_random_scenarios_are_turns_the_engine_judges() -> None:
    """A scenario's random inputs (its kind's ``sample``): a start position and a turn or
    two, one result per action, seeded (the same seed, the same cases)."""
    rami51 = ("rami51", "reference", ())
    made = list(random_cases(KINDS["scenario"], rami51, random.Random(7), 4))
    again = list(random_cases(KINDS["scenario"], rami51, random.Random(7), 4))
    assert made == again and len(made) == 4
    for message in made:
        values = judge(message).values
        assert values is not None
        assert len(values["results"]) == len(message["inputs"]["actions"])
        assert message["inputs"]["actions"][0].keys() == {"draw"}
