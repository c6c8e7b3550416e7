"""The Pyramide solver: is this position winnable, the best line, hints, shortest lines.

See ``docs/solver.md``.  Two methods, kept apart and cross-checked in the tests:
the reduced model (:mod:`pyramide.solver.reduced`: pyramid shape plus talon
values, exact for rule sets N and C) and the full-state search
(:mod:`pyramide.solver.fullsearch`: real positions, every rule set).

The compiled searches use numpy's arrays but never its linear algebra, so the
package asks numpy's OpenBLAS for one thread before anything here imports
numpy (unless the environment says otherwise): its pool of threads, started
at import, cost each process that loads the solver some 30 ms of another
core — the server's own start among them (docs/solver.md, "Start-up").
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

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
