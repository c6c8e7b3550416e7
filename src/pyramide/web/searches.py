"""Where the server's long solver searches run (hints and solution lines).

Outside any lock is not enough in one process: a search in pure Python holds
the interpreter (the GIL) for its whole budget, and every other request of
the process waits for its turns.  :class:`SearchPool` runs them in separate
processes (started with ``spawn``, never forked from a threaded server), so
the server's own threads only wait for an answer; :class:`InProcess` runs
them in the calling thread (the tests' in-process app, and the fallback).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from pyramide.deals import Deal
from pyramide.game import Position
from pyramide.rules import Rules
from pyramide.solver import Budget, Solution, solve_position

__all__ = ["SOLUTION_BUDGET", "InProcess", "SearchPool", "Searches", "search"]

SOLUTION_BUDGET = Budget(nodes=None, seconds=1.5)
"""What the search for the shortest line may spend when the player asks for the solution."""
HINT_BUDGET = Budget()


def search(position: Position, rules: Rules, deal: Deal, shortest: bool) -> Solution:
    """The solver's line from ``position``: the shortest within :data:`SOLUTION_BUDGET`,
    else a hint's line (a finished game gets its result and no move)."""
    return solve_position(position, rules, budget=SOLUTION_BUDGET if shortest else HINT_BUDGET,
                          shortest=shortest, layout=tuple(card.value for card in deal.pyramid))


class InProcess:
    """Searches in the calling thread."""

    def run(self, position: Position, rules: Rules, deal: Deal, *, shortest: bool) -> Solution:
        return search(position, rules, deal, shortest)

    def close(self) -> None:
        pass


class SearchPool:
    """Searches in worker processes (started on first use, restarted if one dies)."""

    def __init__(self, processes: int | None = None) -> None:
        self.processes = processes or max(1, (os.cpu_count() or 2) // 2)
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm_up)
            return self._pool

    def run(self, position: Position, rules: Rules, deal: Deal, *, shortest: bool) -> Solution:
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return pool.submit(search, position, rules, deal, shortest).result()
            except BrokenProcessPool:
                with self._lock:  # a worker died (killed, out of memory): a new pool
                    if self._pool is pool:
                        self._pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None


Searches = InProcess | SearchPool


def _warm_up() -> None:
    from pyramide.solver.compiled import warm_up

    warm_up()
