"""Verify cases: each case through the engine, compared field by field with what it documents.

Generic over the kinds (:mod:`generator.kinds`): the case's kind runs the engine, gives
the values it compares and its reasoning. The result of a case holds the engine's own
values (what the pages show), the engine's result (the reasoning behind them, as codes
for :mod:`generator.i18n.explain`) and the disagreements with the documented values.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from generator.cases.model import Case
from generator.cases.model import Position
from generator.i18n.explain import Words
from generator.kinds.base import Value

__all__ = ["CaseResult", "Disagreement", "Results", "Value", "explain_case",
           "explain_disagreement", "verify_all", "verify_case"]


@dataclass(frozen=True)
class Disagreement:
    """A documented value that the engine does not give.

    Attributes:
        case: the case.
        field: the ``expect`` field, e.g. ``"points"`` (``"results[2]"``, ``"end.winner"``
            for a scenario).
        documented: the value the case file states.
        engine: the engine's value; ``None`` when the engine gives none.
        position: where the field is documented (the case, when the field is missing).
    """

    case: Case
    field: str
    documented: Value
    engine: Value
    position: Position


@dataclass(frozen=True)
class CaseResult:
    """The engine's answer for one case.

    Attributes:
        case: the case.
        values: the engine's value of every ``expect`` field of the kind (``None`` where it
            gives none), e.g. ``{"verdict": "valid", "type": "run", "points": 31, "reason": None}``.
        engine_result: the engine's result, of the type the case's kind runs to
            (``MeldResult`` for a meld, ...).
        disagreements: the documented values the engine does not give, in field order.
    """

    case: Case
    values: Mapping[str, Value]
    engine_result: object = field(default=None, repr=False)
    disagreements: tuple[Disagreement, ...] = field(default=())

    @property
    def verdict(self) -> str | None:
        """The engine's verdict code, where the kind has one."""
        v = self.values.get("verdict")
        return v if isinstance(v, str) else None

    @property
    def points(self) -> int | None:
        """The engine's points, where there are any."""
        v = self.values.get("points")
        return v if isinstance(v, int) else None


def verify_case(case: Case) -> CaseResult:
    """Run one case through the engine and compare every documented field.

    Args:
        case: a loaded case (its inputs already checked by the loader).

    Returns:
        A :class:`CaseResult` with the engine's values and the disagreements.
    """
    kind = case.spec
    result = kind.run(case.inputs, case.rule_set())
    values = kind.values(case.inputs, result)
    disagreements = tuple(
        Disagreement(case, m.field, m.documented, m.engine, case.position_of(m.where))
        for m in kind.mismatches(case.expect, result, values)
    )
    return CaseResult(case, values, result, disagreements)


def verify_all(cases: Iterable[Case]) -> tuple[CaseResult, ...]:
    """Verify every case, in the given order."""
    return tuple(verify_case(c) for c in cases)


class Results(Mapping[str, CaseResult]):
    """The engine's result of every case, by id, each verified once, when first needed.

    The cases a build cache knows to agree with the engine (their
    :attr:`generator.cases.model.Case.digest` among ``agreeing``, under this generator's
    source hash) are verified only when a page that shows them is rendered; every other
    case is verified at once, so :attr:`disagreements` is whole from the start.

    Args:
        cases: every loaded case, in case-file order.
        agreeing: digests of cases known to agree (default: none; every case verified
            at once).
    """

    def __init__(self, cases: Iterable[Case], agreeing: frozenset[str] = frozenset()) -> None:
        self._cases = {c.id: c for c in cases}
        self._done: dict[str, CaseResult] = {}
        for case in self._cases.values():
            if not agreeing or case.digest not in agreeing:
                self._done[case.id] = verify_case(case)
        self.deferred = len(self._cases) - len(self._done)
        """How many cases were known to agree, and not verified up front."""

    def __getitem__(self, case_id: str) -> CaseResult:
        found = self._done.get(case_id)
        if found is None:
            found = self._done[case_id] = verify_case(self._cases[case_id])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)

    @property
    def disagreements(self) -> list[Disagreement]:
        """Every disagreement, in case-file order (a deferred case has none)."""
        return [d for i in self._cases if i in self._done for d in self._done[i].disagreements]

    def agreeing(self) -> frozenset[str]:
        """The digests of every case known to agree: verified without a disagreement,
        or deferred as known."""
        return frozenset(c.digest for i, c in self._cases.items()
                         if i not in self._done or not self._done[i].disagreements)


def explain_case(result: CaseResult, w: Words) -> list[str]:
    """The engine's reasoning for a case, as sentences in ``w``'s locale (each kind says
    what: a meld's joker and points, a round's seats and scores, ...)."""
    case = result.case
    return case.spec.explain(case.inputs, result.engine_result, case.rule_set(), w)


def explain_disagreement(result: CaseResult, d: Disagreement, w: Words) -> list[str]:
    """The reasoning ``check`` shows under one disagreement: for a scenario, the action
    it is about or the end; otherwise the case's reasoning and its reason."""
    case = result.case
    return case.spec.explain_mismatch(d.field, case.inputs, result.engine_result, result.values,
                                      case.rule_set(), w)
