"""What the YAML language server says of mutated case files, as an editor shows it.

    npm install --prefix /tmp/yls yaml-language-server
    python benchmarks/editor_diagnostics.py \\
        --server /tmp/yls/node_modules/.bin/yaml-language-server [--all] [--schema FILE]

Starts the server on standard input and output (LSP), points it at the editor schema
(``python -m generator schema``, or ``--schema``) for every ``*.yaml``, opens each
mutated case file of tests/schema_mutations.py (a choice of them, or ``--all``) and
prints the diagnostics the server publishes, then the completion labels at the start
of a new line in a few cases. Nothing here asserts anything: tests/test_editor_schema.py
holds ``check`` and the schema to agreeing (with check-jsonschema); this shows the
messages an author reads. Needs Node.js and the server; the test run does not.
"""

from __future__ import annotations

import argparse
import json
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.schema_mutations import MUTATIONS  # noqa: E402

CHOSEN = (
    "typo-in-a-field-name", "missing-title", "missing-expect", "field-dedented-out-of-expect",
    "typo-in-an-expect-field", "bad-suit", "list-written-with-commas", "seven-seats",
    "a-hand-of-twelve-for-the-best-opening", "reason-with-verdict-valid", "opened-no",
    "joker-in-cardverse", "rules-in-cardverse", "joker-to-swap", "two-empty-hands",
    "action-with-two-steps", "kind-for-another-game-from-defaults", "first-meld-in-cardverse",
    "known-disagreement-without-because", "control-character", "lowercase-codes",
)
"""The mutations shown without ``--all``: an author's common slips and a few kinds' own
rules."""

COMPLETIONS = (
    ("a new case", "cases:\n  - \n", 1, 4),
    ("a joker_swap case (default game rami51)",
     "defaults:\n  game: rami51\ncases:\n  - id: x\n    kind: joker_swap\n    \n", 5, 4),
    ("a meld case (default game cardverse)",
     "defaults:\n  game: cardverse\ncases:\n  - id: x\n    kind: meld\n    \n", 5, 4),
    ("the value of kind", "cases:\n  - id: x\n    kind: \n", 2, 10),
)
"""(what, text, line, column) of the completions asked for (0-based positions)."""


class Server:
    """A language server over standard input and output: requests, notifications,
    and the diagnostics it publishes."""

    def __init__(self, command: list[str], root: Path, schema: Path) -> None:
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.settings = {"validate": True, "completion": True, "hover": True,
                         "schemas": {schema.as_uri(): "*.yaml"}}
        self.request("initialize", {"processId": None, "rootUri": root.as_uri(),
                                    "capabilities": {}})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": self.settings}})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        length = 0
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise EOFError("the language server stopped")
            if not line.strip():
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        message: dict[str, Any] = json.loads(self.process.stdout.read(length))
        if message.get("method") == "textDocument/publishDiagnostics":
            params = message["params"]
            self.diagnostics[params["uri"]] = params["diagnostics"]
        elif "method" in message and "id" in message:  # the server asks: its settings
            items = message.get("params", {}).get("items", [])
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": [
                self.settings if item.get("section") == "yaml" else {} for item in items]})
        return message

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        asked = self.next_id
        self._send({"jsonrpc": "2.0", "id": asked, "method": method, "params": params})
        while True:
            message = self._read()
            if message.get("id") == asked and "method" not in message:
                return message.get("result")

    def open(self, path: Path, text: str) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        return uri

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def diagnose(self, path: Path, text: str, timeout: float = 20) -> list[dict[str, Any]]:
        uri = self.open(path, text)
        self.diagnostics.pop(uri, None)
        end = time.monotonic() + timeout
        assert self.process.stdout is not None
        while uri not in self.diagnostics and time.monotonic() < end:
            if select.select([self.process.stdout], [], [], 0.5)[0]:
                self._read()
        self.close_document(uri)
        return self.diagnostics.get(uri, [])

    def complete(self, path: Path, text: str, line: int, column: int) -> list[str]:
        uri = self.open(path, text)
        result = self.request("textDocument/completion", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": column}})
        self.close_document(uri)
        items = result.get("items", []) if isinstance(result, dict) else result or []
        return sorted({item["label"] for item in items})

    def stop(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="the yaml-language-server program")
    parser.add_argument("--schema", type=Path, help="the schema (default: python -m "
                        "generator schema)")
    parser.add_argument("--all", action="store_true", help="every mutation")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        schema = args.schema.resolve() if args.schema else root / "case-file.schema.json"
        if not args.schema:
            schema.write_text(subprocess.run(
                [sys.executable, "-m", "generator", "schema"], capture_output=True,
                text=True, check=True, cwd=REPO).stdout, encoding="utf-8")
        server = Server(["node", args.server, "--stdio"], root, schema)
        chosen = [m for m in MUTATIONS if args.all or m.id in CHOSEN]
        for mutation in chosen:
            path = root / f"{mutation.id}.yaml"
            text = mutation.data().decode("utf-8", errors="replace")
            said = [d for d in server.diagnose(path, text) if d.get("severity", 1) <= 2]
            print(f"{mutation.id} ({mutation.expected}): {len(said)}")
            for d in said:
                start = d["range"]["start"]
                print(f"    {start['line'] + 1}:{start['character'] + 1} {d['message']}")
        for n, (what, text, line, column) in enumerate(COMPLETIONS):
            labels = server.complete(root / f"completion-{n}.yaml", text, line, column)
            print(f"completion at {what}: {', '.join(labels)}")
        server.stop()


if __name__ == "__main__":
    main()
