"""Case files: YAML with positions, the schema, loading into :class:`Case` values.

Use :func:`load_cases` (``load_cases(project) -> CaseSet``); docs/DESIGN.md, "Case model".
"""

from generator.cases.loader import load_cases
from generator.cases.model import Case
from generator.cases.model import CaseSet
from generator.cases.model import Position

__all__ = ["Case", "CaseSet", "Position", "load_cases"]
