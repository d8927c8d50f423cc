"""Verify cases: each case through the engine, compared field by field with what it documents.

Generic over the kinds (:mod:`generator.kinds`): the case's kind runs the engine, gives
the values it compares and its reasoning. The result of a case holds the engine's own
values (what the pages show), the engine's result (the reasoning behind them, as codes
for :mod:`generator.i18n.explain`) and the disagreements with the documented values.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace

from generator.cases.model import Case
from generator.cases.model import Position
from generator.engine.codes import CaseStatus
from generator.engine.rules import games
from generator.i18n.explain import Words
from generator.kinds.base import Value

__all__ = ["STATUS_FIELD", "CaseResult", "Disagreement", "Results", "Value", "explain_case",
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
        column: the 1-based column where the documented value starts, when it starts on
            the line of :attr:`position`; else :attr:`position`'s column.
    """

    case: Case
    field: str
    documented: Value
    engine: Value
    position: Position
    column: int | None = None

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
                                 case.position_of(STATUS_FIELD),
                                 case.value_column_of(STATUS_FIELD)),)
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


MEMO_CASES = 4096
"""The most cases whose results :func:`verify_case` keeps in a process (the last
verified)."""

_RESULTS: OrderedDict[Case, CaseResult] = OrderedDict()
_RESULTS_LOCK = threading.Lock()
_RESULTS_GAMES: list[object] = [games()]
"""The registry of games :data:`_RESULTS` was verified under: a game registered or
unregistered since (:func:`generator.engine.rules.register_game`) forgets them all."""


def verify_case(case: Case) -> CaseResult:
    """Run one case through the engine and compare every documented field.

    A case equal to one verified before in this process (every field, its positions
    too: a build again with the case file unchanged, ``serve``'s next build, another
    copy of the same project) takes that one's result, made its own: the engine is
    pure, so the result is the same (the last :data:`MEMO_CASES` are kept, while the
    registry of games stays the same).

    Args:
        case: a loaded case (its inputs already checked by the loader).

    Returns:
        A :class:`CaseResult` with the engine's values and the disagreements.
    """
    with _RESULTS_LOCK:
        if _RESULTS_GAMES[0] is not games():
            _RESULTS.clear()
            _RESULTS_GAMES[0] = games()
        found = _RESULTS.get(case)
        if found is not None:
            _RESULTS.move_to_end(case)
    if found is not None:
        if found.case is case:
            return found
        return replace(found, case=case, disagreements=tuple(
            replace(d, case=case) for d in found.disagreements))
    result = _verified(case)
    with _RESULTS_LOCK:
        _RESULTS[case] = result
        while len(_RESULTS) > MEMO_CASES:
            _RESULTS.popitem(last=False)
    return result


def _verified(case: Case) -> CaseResult:
    """:func:`verify_case`'s result, the engine run."""
    kind = case.spec
    result = kind.run(case.inputs, case.rule_set())
    values = kind.values(case.inputs, result)
    disagreements = tuple(
        Disagreement(case, m.field, m.documented, m.engine, case.position_of(m.where),
                     case.value_column_of(m.where))
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

    @classmethod
    def of(cls, results: Iterable[CaseResult]) -> Results:
        """The results already verified (each case's own, in that order)."""
        done = list(results)
        made = cls(())
        made._cases = {r.case.id: r.case for r in done}
        made._done = {r.case.id: r for r in done}
        return made

    def __getitem__(self, case_id: str) -> CaseResult:
        found = self._done.get(case_id)
        if found is None:
            found = self._done[case_id] = verify_case(self._cases[case_id])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._cases)

    def __len__(self) -> int:
        return len(self._cases)

    def verified(self) -> Iterator[CaseResult]:
        """The results verified so far, in case-file order: every case but those known to
        agree (which have no disagreement to report)."""
        return (self._done[i] for i in self._cases if i in self._done)

    def cases(self) -> Iterator[Case]:
        """Every case, in case-file order (without verifying any)."""
        return iter(self._cases.values())

    def agreeing(self) -> frozenset[str]:
        """The digests of every case known to agree: verified with nothing to report
        (no disagreement, not a stale ``known_disagreement``), or deferred as known."""
        return frozenset(c.digest for i, c in self._cases.items()
                         if i not in self._done or not self._done[i].reported)


def explain_case(result: CaseResult, w: Words) -> list[str]:
    """The engine's reasoning for a case, as sentences in ``w``'s locale (each kind says
    what: a meld's joker and points, a round's seats and scores, ...)."""
    case = result.case
    return case.spec.explain(case.inputs, result.engine_result, case.rule_set(), w)


def explain_disagreement(result: CaseResult, d: Disagreement, w: Words) -> list[str]:
    """The reasoning ``check`` shows under one disagreement: for a scenario, the action
    it is about or the end; otherwise the case's reasoning and its reason; under a
    stale ``known_disagreement`` (on :data:`STATUS_FIELD`), the case's reasoning
    (:func:`explain_case`): what the engine now gives."""
    case = result.case
    if d.field == STATUS_FIELD:
        return explain_case(result, w)
    return case.spec.explain_mismatch(d.field, case.inputs, result.engine_result, result.values,
                                      case.rule_set(), w)
