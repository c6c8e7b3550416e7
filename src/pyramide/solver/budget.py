"""Search budgets: how many states, and how many seconds, a search may spend.

>>> meter = Budget(nodes=2).meter()
>>> meter.spend(), meter.spend(), meter.spend()
(True, True, False)
>>> meter.exhausted
True
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

__all__ = ["UNLIMITED", "Budget", "Meter"]

CLOCK_EVERY = 256
"""States between two looks at the clock."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits of one search; ``None`` means no limit of that kind."""

    nodes: int | None = 100_000
    seconds: float | None = 1.0

    def __post_init__(self) -> None:
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"node budget {self.nodes!r} must be at least 1")
        if self.seconds is not None and not (0 < self.seconds < math.inf):
            # not (x <= 0) would let nan through: nan compares false with everything
            raise ValueError(f"time budget {self.seconds!r} must be a positive number")

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


class Meter:
    """Counts the states of one search against its budget."""

    __slots__ = ("budget", "deadline", "exhausted", "nodes")

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.exhausted = False
        self.deadline = None if budget.seconds is None else time.monotonic() + budget.seconds

    def spend(self) -> bool:
        """Count one state; False (and :attr:`exhausted`) once the budget is spent."""
        self.nodes += 1
        self.exhausted = self.exhausted or self.over_nodes() or self.over_time()
        return not self.exhausted

    def over_nodes(self) -> bool:
        return self.budget.nodes is not None and self.nodes > self.budget.nodes

    def over_time(self) -> bool:
        return (self.deadline is not None and self.nodes % CLOCK_EVERY == 0
                and time.monotonic() > self.deadline)
