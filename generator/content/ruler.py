"""Rules kept by name in order, as markdown-it's ``Ruler`` keeps its parser's rules:
added at the end, before or after another, replaced, disabled and enabled again by
name, so that a project or a test changes the list without editing the module that
fills it (:data:`generator.content.page_checks.PAGE_CHECKS`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic
from typing import TypeVar

R = TypeVar("R")


class Ruler(Generic[R]):
    """An ordered list of rules, each under a unique name.

    Args:
        rules: the first rules, as ``(name, rule)`` pairs in order.

    Raises:
        ValueError: two rules have the same name.
    """

    def __init__(self, rules: Iterable[tuple[str, R]] = ()) -> None:
        self._rules: list[tuple[str, R]] = []
        self._disabled: set[str] = set()
        for name, rule in rules:
            self.push(name, rule)

    def names(self) -> list[str]:
        """Every rule's name in order, the disabled ones too."""
        return [name for name, _ in self._rules]

    def enabled(self) -> list[tuple[str, R]]:
        """The rules that run, as ``(name, rule)`` pairs in order."""
        return [(name, rule) for name, rule in self._rules if name not in self._disabled]

    def push(self, name: str, rule: R) -> None:
        """Add ``rule`` as ``name`` after every other.

        Raises:
            ValueError: a rule is already named ``name``.
        """
        self._insert(len(self._rules), name, rule)

    def before(self, anchor: str, name: str, rule: R) -> None:
        """Add ``rule`` as ``name`` just before the rule named ``anchor``.

        Raises:
            KeyError: no rule is named ``anchor``.
            ValueError: a rule is already named ``name``.
        """
        self._insert(self._index(anchor), name, rule)

    def after(self, anchor: str, name: str, rule: R) -> None:
        """Add ``rule`` as ``name`` just after the rule named ``anchor``.

        Raises:
            KeyError: no rule is named ``anchor``.
            ValueError: a rule is already named ``name``.
        """
        self._insert(self._index(anchor) + 1, name, rule)

    def at(self, name: str, rule: R) -> None:
        """Replace the rule named ``name`` by ``rule``, in its place.

        Raises:
            KeyError: no rule is named ``name``.
        """
        self._rules[self._index(name)] = (name, rule)

    def remove(self, name: str) -> None:
        """Take the rule named ``name`` out of the list.

        Raises:
            KeyError: no rule is named ``name``.
        """
        del self._rules[self._index(name)]
        self._disabled.discard(name)

    def disable(self, name: str) -> None:
        """Keep the rule named ``name`` in its place, but do not run it.

        Raises:
            KeyError: no rule is named ``name``.
        """
        self._index(name)
        self._disabled.add(name)

    def enable(self, name: str) -> None:
        """Run the rule named ``name`` again (:meth:`disable`).

        Raises:
            KeyError: no rule is named ``name``.
        """
        self._index(name)
        self._disabled.discard(name)

    def _index(self, name: str) -> int:
        for index, (found, _) in enumerate(self._rules):
            if found == name:
                return index
        raise KeyError(f"no rule named {name!r}; expected one of: {', '.join(self.names())}")

    def _insert(self, index: int, name: str, rule: R) -> None:
        if name in self.names():
            raise ValueError(f"a rule is already named {name!r}")
        self._rules.insert(index, (name, rule))
