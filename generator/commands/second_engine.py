"""A second engine as a second judge (``check --engine-cmd CMD``, docs/site.md): the
command run once, spoken to over the engine protocol (docs/engine-protocol.md), every
case sent to it, and each value the case documents compared between the two engines.

:class:`EngineProcess` runs the command (split as a shell splits words, no shell),
reads its handshake and asks one request at a time, each answered within the timeout;
whatever breaks the protocol (a command that cannot start, exits, hangs, writes what
is not a reply or the reply to another request) is an :class:`EngineFault` naming the
command and the request, and the process is killed. :func:`second_opinion` runs a
project's cases through it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from types import TracebackType
from typing import IO
from typing import Any

from generator.cases.model import Case
from generator.cases.model import Position
from generator.commands.check import shown_value
from generator.commands.project import Project
from generator.engine.cards import CardCodeError
from generator.engine.cards import parse_card
from generator.errors import InputError
from generator.i18n.catalog import source_translator
from generator.i18n.explain import Words
from generator.kinds import KINDS
from generator.kinds import AnyKind
from generator.layout import Layout
from generator.layout import NotAnInput
from generator.protocol import VERSION
from generator.protocol import canonical_inputs
from generator.protocol import problem
from generator.protocol import request
from generator.protocol import values_problem
from generator.verify import explain_case
from generator.yamlpos import parse_yaml

DEFAULT_TIMEOUT = 10.0
"""Seconds an engine has for its handshake and for each reply (``--engine-timeout``)."""

MAX_LINE = 1 << 20
"""The longest line an engine may write (bytes): more is not a reply."""

Record = Callable[[str, dict[str, Any]], None]
"""Told every message exchanged: ``("sent", request)``, ``("received", message)``."""


class EngineFault(Exception):
    """The engine command broke the protocol; the message names the command and the
    request (docs/site.md: an input error, exit 2)."""


def _snippet(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace").strip()
    return json.dumps(text if len(text) <= 80 else text[:77] + "...", ensure_ascii=False)


class EngineProcess:
    """One engine command, started by :meth:`start` and ended by :meth:`close` (its
    standard input closed; killed when it does not exit within a second).

    Args:
        command: the command line (``node engine.js --flag``), split as a shell splits
            words, run without a shell.
        timeout: seconds for the handshake and for each reply.
        record: told every message exchanged (the tests validate them).
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT,
                 record: Record | None = None) -> None:
        self.command = command
        self.timeout = timeout
        self.record = record
        self.shown = json.dumps(command, ensure_ascii=False)
        self.kinds: dict[str, list[str]] = {}
        self.games: list[str] = []
        self.name = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._next = 0

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close(kill=exc is not None)

    # -- the process -------------------------------------------------------------------

    def start(self) -> None:
        """Start the command and read its handshake (:attr:`kinds`, :attr:`games`).

        Raises:
            EngineFault: it cannot start, or its handshake is missing or wrong.
        """
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise EngineFault(f"the engine command {self.shown} cannot be split into "
                              f"words ({exc}); expected a command line") from None
        if not argv:
            raise EngineFault("the engine command is empty; expected a command that speaks "
                              "the engine protocol (docs/engine-protocol.md)")
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            # a session of its own: a wrapper's children (sh -c, npm run, a script)
            # end with it (close)
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self._stderr,
                                          start_new_session=True)
        except OSError as exc:
            raise EngineFault(f"cannot start the engine command {self.shown}: "
                              f"{exc.strerror or exc}; expected a command that speaks the "
                              "engine protocol (docs/engine-protocol.md)") from None
        line = self._line("its handshake")
        message = self._json(line, "its handshake")
        if isinstance(message, dict) and message.get("protocol") != VERSION \
                and "protocol" in message:
            raise self._fault(f"speaks protocol version {message['protocol']!r}; "
                              f"expected version {VERSION}")
        wrong = problem(message, "handshake")
        if wrong is not None:
            raise self._fault(f"wrote a handshake the protocol does not allow ({wrong}); "
                              "expected the protocol version, the kinds and the games")
        self.name = message["engine"]
        self.kinds = {k: list(v) for k, v in message["kinds"].items()}
        self.games = list(message["games"])

    def covers(self, kind: str, game: str) -> bool:
        """Whether the handshake named the kind and the game."""
        return kind in self.kinds and game in self.games

    def ask(self, message: dict[str, Any], about: str) -> dict[str, Any]:
        """Send one request (its ``id`` set here) and read its reply.

        Args:
            message: the request (:func:`generator.protocol.request`).
            about: how messages name it (``request 3 (case three-kings)``).

        Returns:
            The reply: ``values`` (checked against the kind's fields) or ``error``.

        Raises:
            EngineFault: no reply in time, the process gone, not a reply, another id.
        """
        assert self._proc is not None and self._proc.stdin is not None
        self._next += 1
        message = {**message, "id": self._next}
        if self.record is not None:
            self.record("sent", message)
        try:
            self._proc.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            self._proc.stdin.flush()
        except OSError:
            raise self._fault(f"stopped reading before {about}{self._exited()}; expected "
                              "it to read one request per line") from None
        reply: dict[str, Any] = self._json(self._line(about), about)
        wrong = problem(reply, "reply")
        if wrong is not None:
            raise self._fault(f"answered {about} with what is not a reply ({wrong}); "
                              "expected {\"id\": N, \"values\": {...}} or {\"id\": N, "
                              "\"error\": \"...\"}")
        if reply["id"] != self._next:
            raise self._fault(f"answered {about} with the reply to request {reply['id']}; "
                              f"expected id {self._next} (one request in flight at a time)")
        kind = KINDS.get(message["kind"])
        values = reply.get("values")
        if kind is not None and isinstance(values, dict):
            wrong = values_problem(kind, values)
            if wrong is not None:
                raise self._fault(f"answered {about} with {wrong}; expected the values of "
                                  f"kind {kind.name!r} as a case file writes them")
        return reply

    def close(self, *, kill: bool = False) -> None:
        """End the process: its standard input closed, then waited for a second (at once
        with ``kill``), then killed; whatever it started in its session (the children of
        a wrapper) is killed with it."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.stdin is not None:
                with contextlib.suppress(OSError):  # a pipe the process closed
                    proc.stdin.close()
            try:
                proc.wait(timeout=0 if kill else min(1.0, self.timeout))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            with contextlib.suppress(OSError):  # no process of its session is left
                os.killpg(proc.pid, signal.SIGKILL)
            if proc.stdout is not None:
                proc.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # -- reading -----------------------------------------------------------------------

    def _line(self, about: str) -> bytes:
        """The next line the process writes, within the timeout."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                raise self._fault(f"wrote a line longer than {MAX_LINE} bytes for {about}; "
                                  "expected one JSON message per line")
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                raise self._fault(f"wrote no line for {about} within {self.timeout:g} s "
                                  "(--engine-timeout); expected a handshake first, then one "
                                  "reply line per request")
            chunk = os.read(fd, 65536)
            if not chunk:
                rest = f" after writing {_snippet(self._buffer)}" if self._buffer.strip() \
                    else ""
                raise self._fault(f"ended with no line for {about}{rest}{self._exited()}; "
                                  "expected a handshake first, then one reply line per "
                                  "request")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _json(self, line: bytes, about: str) -> Any:
        try:
            message = json.loads(line)
        except ValueError:
            raise self._fault(f"wrote {_snippet(line)} for {about}, which is not JSON; "
                              "expected one JSON message per line") from None
        if self.record is not None and isinstance(message, dict):
            self.record("received", message)
        return message

    def _exited(self) -> str:
        """`` (exit status 3; it said: ...)`` once the process has ended, else ``""``."""
        proc = self._proc
        if proc is None:
            return ""
        try:
            status = proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return ""
        said = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            tail = self._stderr.read()[-2000:].decode("utf-8", errors="replace").strip()
            if tail:
                said = f"; its last words: {_snippet(tail.splitlines()[-1].encode())}"
        return f" (exit status {status}{said})"

    def _fault(self, what: str) -> EngineFault:
        fault = EngineFault(f"the engine command {self.shown} {what}")
        self.close(kill=True)
        return fault


# -- comparing the two engines -------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A value the two engines give differently for a field a case documents.

    Attributes:
        case: the case.
        field: the field (``points``, ``end.winner``).
        engine: this package's engine's value (``None``: it gives none).
        second: the second engine's value (``None``: it gives none).
        documented: the case's documented value.
        position: where the field is documented.
        column: the column of the documented value.
        reasoning: this engine's reasoning, in English.
    """

    case: Case
    field: str
    engine: Any
    second: Any
    documented: Any
    position: Position
    column: int | None
    reasoning: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """``case ID: FIELD engine X, second engine Y`` (docs/site.md)."""
        return (f"case {self.case.id}: {self.field} engine {shown_value(self.engine)}, "
                f"second engine {shown_value(self.second)}")


@dataclass
class SecondOpinion:
    """What the second engine said of a project's cases.

    Attributes:
        command: the engine command.
        cases: the cases this package's engine judged.
        judged: the cases the second engine judged too.
        not_covered: the cases of a kind or game its handshake does not name.
        refused: the cases it answered with an error (each a difference).
        differences: every difference, in case-file order.
        fault: the protocol broken (an input error), or ``None``.
    """

    command: str
    cases: int = 0
    judged: int = 0
    not_covered: int = 0
    refused: int = 0
    differences: list[Difference] = field(default_factory=list)
    fault: InputError | None = None

    def summary(self) -> str:
        """``second engine: 130 cases judged by this engine, 57 by the second engine, 73
        not covered, 0 differences``."""
        plural = "" if len(self.differences) == 1 else "s"
        return (f"second engine: {self.cases} case{'' if self.cases == 1 else 's'} judged "
                f"by this engine, {self.judged} by the second engine, {self.not_covered} not "
                f"covered, {len(self.differences)} difference{plural}")

    def lines(self) -> list[str]:
        """``FILE:LINE: case ID: FIELD engine X, second engine Y`` per difference, each
        followed by this engine's reasoning, indented."""
        out: list[str] = []
        for d in self.differences:
            out.append(f"{d.position.file}:{d.position.line}: {d.message}")
            out.extend(f"    {text}" for text in d.reasoning)
        return out

    def add_to_json(self, report: dict[str, Any]) -> None:
        """Each difference in ``report``'s ``disagreements`` (with ``second_engine``), and
        ``second_engine``: the command and the counts."""
        for d in self.differences:
            report["disagreements"].append({
                "file": d.position.file, "line": d.position.line, "column": d.column,
                "case": d.case.id, "field": d.field, "documented": d.documented,
                "engine": d.engine, "second_engine": d.second,
                "reasoning": list(d.reasoning), "message": d.message,
                "status": d.case.status, "failing": True})
        report["second_engine"] = {"command": self.command, "cases": self.cases,
                                   "judged": self.judged, "not_covered": self.not_covered,
                                   "differences": len(self.differences)}


def _raw_items(project: Project) -> dict[str, Mapping[str, Any]]:
    """Every case of the project's case files as written, by id."""
    items: dict[str, Mapping[str, Any]] = {}
    layout = Layout.of(project.root)
    for rel in project.cases.files:
        try:
            data = layout.read(rel)
        except (OSError, NotAnInput):  # pragma: no cover - read a moment ago
            continue
        doc = parse_yaml(data.decode("utf-8", errors="replace").removeprefix("\ufeff"), rel,
                         bool_words=True)[0]
        cases = doc.value.get("cases") if doc is not None and isinstance(doc.value, dict) \
            else None
        for item in cases if isinstance(cases, list) else ():
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                items.setdefault(item["id"], item)
    return items


def _same(ours: Any, theirs: Any, card: bool) -> bool:
    if card and isinstance(ours, str) and isinstance(theirs, str):
        try:
            return parse_card(ours).code == parse_card(theirs).code
        except CardCodeError:
            return False
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return type(ours) is type(theirs) and ours == theirs
    return bool(ours == theirs)


def compared_fields(case: Case, ours: Mapping[str, Any], theirs: Mapping[str, Any],
                    computed: list[str]) -> list[tuple[str, Any, Any]]:
    """The fields ``case`` documents that the second engine computes (``computed``, its
    handshake's fields of the kind) on which the two engines' values (``ours``,
    ``theirs``: case-file form) differ: ``(field, ours, theirs)``; a documented mapping
    (a scenario's ``end``) compared key by key (``end.winner``)."""
    out: list[tuple[str, Any, Any]] = []
    kind = case.spec
    for name, documented in case.expect.items():
        if name not in computed:
            continue
        card = kind.expect[name].shape == "card"
        mine, other = ours.get(name), theirs.get(name)
        if isinstance(documented, Mapping):
            mine = mine if isinstance(mine, Mapping) else {}
            other = other if isinstance(other, Mapping) else {}
            out.extend((f"{name}.{key}", mine.get(key), other.get(key))
                       for key in documented if not _same(mine.get(key), other.get(key), False))
        elif not _same(mine, other, card):
            out.append((name, mine, other))
    return out


def compared_values(kind: AnyKind, ours: Mapping[str, Any], theirs: Mapping[str, Any],
                    computed: list[str]) -> list[tuple[str, Any, Any]]:
    """Every field of ``kind`` the other engine computes (``computed``) on which the two
    engines' values differ: ``(field, ours, theirs)``; a mapping (a scenario's ``end``)
    compared key by key (``end.winner``)."""
    out: list[tuple[str, Any, Any]] = []
    for name in kind.expect:
        if name not in computed:
            continue
        card = kind.expect[name].shape == "card"
        mine, other = ours.get(name), theirs.get(name)
        if isinstance(mine, Mapping) or isinstance(other, Mapping):
            mine = mine if isinstance(mine, Mapping) else {}
            other = other if isinstance(other, Mapping) else {}
            out.extend((f"{name}.{key}", mine.get(key), other.get(key))
                       for key in dict.fromkeys([*mine, *other])
                       if not _same(mine.get(key), other.get(key), False))
        elif not _same(mine, other, card):
            out.append((name, mine, other))
    return out


def second_opinion(project: Project, command: str, timeout: float = DEFAULT_TIMEOUT,
                   record: Record | None = None) -> SecondOpinion:
    """Run every case the check verifies through the engine ``command`` and compare.

    Args:
        project: the loaded project (its cases already verified by this engine).
        command: the engine command (``--engine-cmd``).
        timeout: seconds for the handshake and each reply (``--engine-timeout``).
        record: told every message exchanged.

    Returns:
        The counts and differences; a broken protocol as :attr:`SecondOpinion.fault` (at
        the case whose request it was, or at ``--engine-cmd``).
    """
    opinion = SecondOpinion(command)
    w = Words(source_translator())
    raws = _raw_items(project)
    with EngineProcess(command, timeout, record) as engine:
        try:
            engine.start()
        except EngineFault as exc:
            opinion.fault = InputError("--engine-cmd", 1, None, str(exc))
            return opinion
        for case in project.results.cases():
            opinion.cases += 1
            if not engine.covers(case.kind, case.game):
                opinion.not_covered += 1
                continue
            kind = case.spec
            raw = raws.get(case.id, {})
            try:
                inputs = canonical_inputs(kind, {n: raw[n] for n in kind.inputs if n in raw})
            except (CardCodeError, ValueError):  # pragma: no cover - the loader read them
                opinion.not_covered += 1
                continue
            about = f"the request of case {case.id}"
            try:
                reply = engine.ask(request(1, case.kind, case.game, case.rules,
                                           dict(case.options), inputs), about)
            except EngineFault as exc:
                opinion.fault = InputError(case.position.file, case.position.line, None,
                                           str(exc))
                return opinion
            opinion.judged += 1
            _compare(opinion, project, case, reply, engine.kinds[case.kind], w)
    return opinion


def _compare(opinion: SecondOpinion, project: Project, case: Case, reply: Mapping[str, Any],
             fields: list[str], w: Words) -> None:
    """The second engine's ``reply`` on ``case`` (its values, or its error) compared with
    this engine's result over the ``fields`` it computes: each difference added to
    ``opinion``, with this engine's reasoning; a refusal counted."""
    kind = case.spec
    result = project.results[case.id]
    ours = kind.documented(case.inputs, result.engine_result, result.values)
    if "error" in reply:
        opinion.refused += 1
        found = [(name, ours.get(name), f"error: {reply['error']}")
                 for name in case.expect if name in fields][:1]
    else:
        found = compared_fields(case, ours, reply["values"], fields)
    for name, mine, other in found:
        where = f"expect.{name}"
        top = name.partition(".")[0]
        opinion.differences.append(Difference(
            case, name, mine, other, _documented(case.expect, name),
            case.position_of(where), case.value_column_of(where),
            tuple(kind.explain_mismatch(name, case.inputs, result.engine_result,
                                        result.values, case.rule_set(), w)
                  if top in kind.expect else explain_case(result, w))))


def _documented(expect: Mapping[str, Any], name: str) -> Any:
    """The documented value of ``name`` (``end.winner``: within ``end``), as JSON
    writes it."""
    top, _, rest = name.partition(".")
    value = expect.get(top)
    if rest and isinstance(value, Mapping):
        value = value.get(rest)
    if isinstance(value, tuple):
        return list(value)
    return value
