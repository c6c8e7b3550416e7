"""Search budgets: how many states a search may spend, and a wall-time guard.

The rule (docs/solver.md, "Budgets"): a budget is a count of states, so that the
same position and the same budget give the same answer on any machine and under
any load.  The seconds are only a guard against a search running away on a
machine far slower (or far busier) than expected; when the guard stops a search,
its result says so (``timed_out``), and only then may it differ from run to run.

The searches differ a hundredfold in the cost of a state (the compiled
shortest-line search of N and C, the full-state search of the other classic
rule sets, the kernel search of the family), so the game's budgets
(:class:`Budgets`) give each search path its own count.

>>> meter = Budget(nodes=2).meter()
>>> meter.spend(), meter.spend(), meter.spend()
(True, True, False)
>>> meter.exhausted, meter.timed_out
(True, False)
>>> Budgets(compiled=1000, full=50, kernel=20, seconds=3.0).of("full")
Budget(nodes=50, seconds=3.0)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

from pyramide.errors import PyramideError

__all__ = ["MAX_STATES", "UNLIMITED", "Budget", "BudgetError", "Budgets", "Meter", "Path",
           "states_of"]

CLOCK_EVERY = 256
"""States between two looks at the clock."""
MAX_STATES = 10**12
"""More states than any search could spend: a larger budget is a typing mistake."""

Path = Literal["compiled", "full", "kernel", "family"]
"""The search paths with budgets of their own: ``compiled``, the shortest-line search
of rule sets N and C; ``full``, the full-state searches of the other classic rule
sets (decide, and their interpreted shortest-line search); ``kernel``, the family's
interpreted search (its shortest lines); ``family``, the family's compiled decide
search.  (N and C decide with the reduced model, which needs no budget.)"""


class BudgetError(PyramideError):
    """A budget that is not a positive count of states, or not a positive time."""


def states_of(value: object) -> int:
    """``value`` as a state count: a whole number from 1 to :data:`MAX_STATES`
    (text too, as typed on a command line or in a URL), else :class:`BudgetError`.

    >>> states_of("20000"), states_of(5)
    (20000, 5)
    >>> states_of("nan")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pyramide.solver.budget.BudgetError: state budget 'nan' is not a whole number ...
    """
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None or not 1 <= number <= MAX_STATES:
        raise BudgetError("err.budget.states", value=value, most=MAX_STATES)
    return number


def _seconds_of(value: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and value > 0):
        raise BudgetError("err.budget.seconds", value=value)
    return float(value)


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one search: ``nodes``, the states it may spend (the budget), and
    ``seconds``, the wall-time guard; ``None`` means no limit of that kind."""

    nodes: int | None = 100_000
    seconds: float | None = 10.0

    def __post_init__(self) -> None:
        if self.nodes is not None:
            states_of(self.nodes)
        if self.seconds is not None:
            _seconds_of(self.seconds)

    def meter(self) -> Meter:
        return Meter(self)

    def left(self, nodes: int, seconds: float) -> Budget | None:
        """What is left after spending ``nodes`` states and ``seconds`` (``None``: nothing).

        >>> Budget(nodes=10, seconds=None).left(4, 99.0)
        Budget(nodes=6, seconds=None)
        """
        left_nodes = None if self.nodes is None else self.nodes - nodes
        left_seconds = None if self.seconds is None else self.seconds - seconds
        if (left_nodes is not None and left_nodes < 1) or (
                left_seconds is not None and left_seconds <= 0):
            return None
        return Budget(nodes=left_nodes, seconds=left_seconds)


UNLIMITED = Budget(nodes=None, seconds=None)


@dataclass(frozen=True, slots=True)
class Budgets:
    """A state budget for each search path (:data:`Path`) and one wall-time guard."""

    compiled: int | None
    full: int | None
    kernel: int | None
    seconds: float | None
    family: int | None = 1_000_000

    def __post_init__(self) -> None:
        for path in ("compiled", "full", "kernel", "family"):
            self.of(path)  # checks each count

    def of(self, path: Path) -> Budget:
        """The budget of one search path."""
        nodes: int | None = getattr(self, path)
        return Budget(nodes=nodes, seconds=self.seconds)


class Meter:
    """Counts the states of one search against its budget."""

    __slots__ = ("budget", "deadline", "exhausted", "nodes", "timed_out")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self.timed_out = False
        """The guard, not the state count, stopped the search."""
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds

    def spend(self) -> bool:
        """Count one state; False (and :attr:`exhausted`) once the budget is spent."""
        self.nodes += 1
        if not self.exhausted:
            if self.budget.nodes is not None and self.nodes > self.budget.nodes:
                self.exhausted = True
            elif self.over_time():
                self.exhausted = self.timed_out = True
        return not self.exhausted

    def over_time(self) -> bool:
        return (self.deadline is not None and self.nodes % CLOCK_EVERY == 0
                and time.monotonic() > self.deadline)
