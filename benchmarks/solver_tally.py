"""What the solver benchmarks count over a run of searches (imported by
``bench_budgets.py`` and ``bench_rulesets.py``; run those, not this)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from pyramide.solver import Solution


def pct(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (the nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Tally:
    """CPU seconds, states, and the answers left unknown, unproven or guarded."""

    times: list[float] = field(default_factory=list)
    states: list[int] = field(default_factory=list)
    undecided: int = 0
    unproven: int = 0
    guarded: int = 0

    def add(self, seconds: float, result: Solution, *, shortest: bool) -> None:
        self.times.append(seconds)
        self.states.append(result.nodes)
        self.undecided += result.winnable is None
        self.unproven += shortest and result.winnable is not None and not result.shortest
        self.guarded += result.timed_out

    def summary(self) -> str:
        ms = [1000 * t for t in self.times]
        return (f"median {statistics.median(ms):8.1f} ms  p95 {pct(ms, 0.95):8.1f} ms  "
                f"worst {max(ms):8.1f} ms  undecided {self.undecided:3}  unproven "
                f"{self.unproven:3}  states median {statistics.median(self.states):9,.0f} "
                f"worst {max(self.states):9,}  guard {self.guarded} (of {len(ms)})")
