"""The Pyramide solver: is this position winnable, the best line, hints, shortest lines.

See ``docs/solver.md``.  Two methods, kept apart and cross-checked in the tests:
the reduced model (:mod:`pyramide.solver.reduced`: pyramid shape plus talon
values, exact for rule sets N and C) and the full-state search
(:mod:`pyramide.solver.fullsearch`: real positions, every rule set).
"""

from pyramide.solver.api import (
    DEFAULT_BUDGET,
    QUICK_BUDGET,
    Solution,
    SolverError,
    decide,
    hint,
    is_lost,
    reduced_rules,
    solve,
    solve_position,
)
from pyramide.solver.budget import Budget

__all__ = [
    "DEFAULT_BUDGET",
    "QUICK_BUDGET",
    "Budget",
    "Solution",
    "SolverError",
    "decide",
    "hint",
    "is_lost",
    "reduced_rules",
    "solve",
    "solve_position",
]
