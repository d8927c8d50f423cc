"""The item stages wrapped around a store: memo.item_stage and memo.carried_stage."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from generator import memo
from generator.memo import carried_stage
from generator.memo import item_stage


@pytest.fixture(autouse=True)
def _nothing_made_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with an empty process memo: the tests give one slot and inputs
    different results, which a real stage (a pure function of its inputs) never does."""
    monkeypatch.setattr(memo, "_MADE", OrderedDict())


class DictStore:
    """A store of plain entries by (slot, inputs), recording its calls."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str | None], Any] = {}
        self.loads: list[tuple[str, str | None, bool]] = []
        self.stores: list[tuple[str, str, Any]] = []

    def load(self, slot: str, inputs: str | None, *, shared: bool = False) -> Any:
        self.loads.append((slot, inputs, shared))
        return self.entries.get((slot, inputs))

    def store(self, slot: str, inputs: str, data: Any) -> None:
        self.stores.append((slot, inputs, data))
        self.entries[(slot, inputs)] = data


def _stage(store: DictStore | None, made: list[str], inputs: str = "k1",
           result: str = "made") -> str:
    def make() -> str:
        made.append(result)
        return result
    return item_stage(store, "slot", inputs, make,
                      encode=lambda r: None if r == "error" else {"v": r},
                      decode=lambda d: None if d["v"] == "stale" else str(d["v"]),
                      shared=True)


def test_item_stage_makes_keeps_then_returns_the_kept_result() -> None:
    store, made = DictStore(), []
    assert _stage(store, made) == "made"
    assert store.stores == [("slot", "k1", {"v": "made"})]
    assert _stage(store, made, result="other") == "made"
    assert made == ["made"]
    assert store.loads == [("slot", "k1", True), ("slot", "k1", True)]
    assert _stage(store, made, inputs="k2", result="other") == "other"
    assert made == ["made", "other"]


def test_item_stage_keeps_nothing_when_encode_says_none() -> None:
    store, made = DictStore(), []
    assert _stage(store, made, result="error") == "error"
    assert _stage(store, made, result="error") == "error"
    assert store.stores == []
    assert made == ["error", "error"]


@pytest.mark.parametrize("entry", [{"v": "stale"}, {"other": 1}, [1, 2]])
def test_item_stage_makes_again_over_an_unusable_entry(entry: Any) -> None:
    store, made = DictStore(), []
    store.entries[("slot", "k1")] = entry
    assert _stage(store, made) == "made"
    assert made == ["made"]
    assert store.entries[("slot", "k1")] == {"v": "made"}


def test_item_stage_takes_what_the_process_made_for_equal_inputs_into_another_store(
        ) -> None:
    first, second, made = DictStore(), DictStore(), []
    assert _stage(first, made) == "made"
    assert _stage(second, made, result="other") == "made"  # another project, equal inputs
    assert made == ["made"]
    assert second.stores == [("slot", "k1", {"v": "made"})]
    assert _stage(DictStore(), made, inputs="k2", result="other") == "other"
    assert made == ["made", "other"]


def test_item_stage_remembers_neither_what_is_not_kept_nor_what_has_no_inputs() -> None:
    made: list[str] = []
    assert _stage(DictStore(), made, result="error") == "error"
    assert _stage(DictStore(), made, result="error") == "error"
    assert _stage(DictStore(), made, inputs="") == "made"
    assert _stage(DictStore(), made, inputs="", result="other") == "other"
    assert made == ["error", "error", "made", "other"]
    assert not memo._MADE


def test_item_stage_without_a_store_makes() -> None:
    made: list[str] = []
    assert _stage(None, made) == "made"
    assert _stage(None, made) == "made"
    assert made == ["made", "made"]


def test_carried_stage_gives_the_last_knowledge_and_keeps_a_change() -> None:
    store = DictStore()
    seen: list[Any] = []

    def run(result: list[str]) -> list[str]:
        def make(known: frozenset[str] | None) -> list[str]:
            seen.append(known)
            return result
        return carried_stage(store, "valid", "sha256", make, encode=sorted,
                             decode=lambda d: frozenset(d) if isinstance(d, list) else None)

    assert run(["b", "a"]) == ["b", "a"]
    assert run(["a", "b"]) == ["a", "b"]
    store.entries[("valid", "sha256")] = "not a list"
    run(["c"])
    assert seen == [None, frozenset({"a", "b"}), None]
    assert store.stores == [("valid", "sha256", ["a", "b"]), ("valid", "sha256", ["c"])]
