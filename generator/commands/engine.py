"""``python -m generator engine``: this package's engine speaking the engine protocol
(docs/engine-protocol.md) on standard input and output, the protocol's reference
implementation.

It writes its handshake (every kind and game of the registries), then answers each
request line with one reply line: the values of the kind's ``expect`` fields in the
case-file form (:func:`generator.protocol.judge`), or an error naming what is wrong
with the request. It ends when standard input ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any

from generator import __version__
from generator.kinds import KINDS
from generator.protocol import handshake
from generator.protocol import judge
from generator.protocol import problem
from generator.protocol import schema_problem

ENGINE_NAME = f"rules-site {__version__}"
"""How this engine names itself in its handshake."""


def answer(line: str) -> dict[str, Any]:
    """The reply to one request line: its values, or an error (a line that is no JSON,
    no request, or a request this engine cannot judge). A line without a usable id is
    answered with id 0, which no request has."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        return {"id": 0, "error": f"not JSON ({exc}); expected one request per line"}
    number = message.get("id") if isinstance(message, dict) else None
    reply_id = number if isinstance(number, int) and not isinstance(number, bool) \
        and number >= 1 else 0
    wrong = problem(message, "request")
    if wrong is not None:
        return {"id": reply_id, "error": f"not a request: {wrong}"}
    wrong = _inputs_problem(message)
    if wrong is not None:
        return {"id": reply_id, "error": wrong}
    judged = judge(message)
    if judged.values is None:
        return {"id": reply_id, "error": judged.error or "cannot judge the request"}
    return {"id": reply_id, "values": judged.values}


def _inputs_problem(message: dict[str, Any]) -> str | None:
    """What is wrong with a request's inputs as its kind declares them (an unknown or
    missing field, a value its field's schema refuses), or ``None``."""
    kind = KINDS.get(message["kind"])
    if kind is None:
        return f"unknown kind {message['kind']!r}; expected one of the handshake's kinds"
    inputs = message["inputs"]
    for name in inputs:
        if name not in kind.inputs:
            return (f"inputs.{name} is not an input of kind {kind.name!r}; expected "
                    f"{', '.join(kind.inputs)}")
    for name, spec in kind.inputs.items():
        if name not in inputs:
            if spec.required:
                return f"inputs.{name} is missing; kind {kind.name!r} needs it"
            continue
        wrong = schema_problem(spec.schema, inputs[name])
        if wrong is not None:
            return f"inputs.{name}: {wrong}"
    return None


def serve_engine(lines: Iterable[str], write: Callable[[str], None]) -> int:
    """Write the handshake, then one reply per request line of ``lines`` (blank lines
    skipped); returns the exit status (0)."""
    write(json.dumps(handshake(ENGINE_NAME), ensure_ascii=False))
    for line in lines:
        if line.strip():
            write(json.dumps(answer(line), ensure_ascii=False))
    return 0
