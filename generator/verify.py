"""Verify cases: each case through the engine, compared field by field with what it documents.

Generic over the kinds (:mod:`generator.kinds`): the case's kind runs the engine, gives
the values it compares and its reasoning. The result of a case holds the engine's own
values (what the pages show), the engine's result (the reasoning behind them, as codes
for :mod:`generator.i18n.explain`) and the disagreements with the documented values.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field

from generator.cases.model import Case
from generator.cases.model import Position
from generator.engine.codes import CaseStatus
from generator.i18n.explain import Words
from generator.kinds.base import Value

__all__ = ["STATUS_FIELD", "CaseResult", "Disagreement", "Value", "explain_case",
           "explain_disagreement", "verify_all", "verify_case"]

STATUS_FIELD = "status"
"""The field a stale ``known_disagreement`` is reported on (every value now agrees)."""


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

    @property
    def failing(self) -> bool:
        """Whether it fails the check: its case has no ``status``, or it is a stale
        ``known_disagreement``'s (on :data:`STATUS_FIELD`)."""
        return self.case.status is None or self.field == STATUS_FIELD


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
    def status(self) -> str | None:
        """The case's ``status`` (:class:`generator.engine.codes.CaseStatus`), or ``None``."""
        return self.case.status

    @property
    def stale(self) -> bool:
        """A ``known_disagreement`` whose documented values all agree now: it fails the
        check (docs/site.md, "Case status"), so the status cannot go stale."""
        return self.status == CaseStatus.KNOWN_DISAGREEMENT and not self.disagreements

    @property
    def failing(self) -> tuple[Disagreement, ...]:
        """What fails the check: the disagreements of a case without a status; none of a
        ``pending`` case or of a ``known_disagreement`` still disagreeing; for a stale
        ``known_disagreement``, one on :data:`STATUS_FIELD` (documented
        ``known_disagreement``, engine ``None``) at its ``status`` field."""
        if self.stale:
            case = self.case
            return (Disagreement(case, STATUS_FIELD, case.status, None,
                                 case.position_of(STATUS_FIELD)),)
        return () if self.status is not None else self.disagreements

    @property
    def reported(self) -> tuple[Disagreement, ...]:
        """Every disagreement a report lists: :attr:`failing`, and those its status keeps
        from failing."""
        return self.failing if self.stale else self.disagreements

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


def explain_case(result: CaseResult, w: Words) -> list[str]:
    """The engine's reasoning for a case, as sentences in ``w``'s locale (each kind says
    what: a meld's joker and points, a round's seats and scores, ...)."""
    case = result.case
    return case.spec.explain(case.inputs, result.engine_result, case.rule_set(), w)


def explain_disagreement(result: CaseResult, d: Disagreement, w: Words) -> list[str]:
    """The reasoning ``check`` shows under one disagreement: for a scenario, the action
    it is about or the end; otherwise the case's reasoning and its reason."""
    case = result.case
    if d.field == STATUS_FIELD:
        return [w.code("explanation", "status_stale")]
    return case.spec.explain_mismatch(d.field, case.inputs, result.engine_result, result.values,
                                      case.rule_set(), w)
