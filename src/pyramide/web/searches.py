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
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from pyramide.deals import Deal
from pyramide.game import Position
from pyramide.rules import Rules
from pyramide.solver import DEFAULT_BUDGET, Budget, Solution, solve_position
from pyramide.solver.api import AnyBudget

__all__ = ["HINT_BUDGET", "SOLUTION_BUDGET", "InProcess", "SearchPool", "Searches", "search"]

SOLUTION_BUDGET = DEFAULT_BUDGET
"""What the search for the shortest line may spend when the player asks for the
solution: a count of states for each search path, about the 1.5 s of this
machine it had when budgets were wall time (docs/solver.md, "Budgets")."""
HINT_BUDGET = DEFAULT_BUDGET
"""What a hint's search may spend (N and C: none, the reduced model decides)."""


def search(position: Position, rules: Rules, deal: Deal, shortest: bool,
           states: int | None = None) -> Solution:
    """The solver's line from ``position``: the shortest within :data:`SOLUTION_BUDGET`
    (or ``states``, a state budget asked for), else a hint's line (a finished game
    gets its result and no move)."""
    game_budget = SOLUTION_BUDGET if shortest else HINT_BUDGET
    budget: AnyBudget = game_budget if states is None else Budget(
        nodes=states, seconds=game_budget.seconds)
    return solve_position(position, rules, budget=budget, shortest=shortest,
                          layout=tuple(card.value for card in deal.pyramid))


class InProcess:
    """Searches in the calling thread."""

    def run(self, position: Position, rules: Rules, deal: Deal, *, shortest: bool,
            states: int | None = None) -> Solution:
        return search(position, rules, deal, shortest, states)

    def warm(self) -> None:
        pass

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
                    initializer=_start_worker, initargs=(os.getpid(),))
            return self._pool

    def warm(self) -> None:
        """Start the worker processes now, in the background (each loads the compiled
        search as it starts), so that the first Solution does not wait for them."""
        pool = self._executor()
        for _ in range(self.processes):
            pool.submit(_warm_up)

    def run(self, position: Position, rules: Rules, deal: Deal, *, shortest: bool,
            states: int | None = None) -> Solution:
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return pool.submit(search, position, rules, deal, shortest, states).result()
            except BrokenProcessPool:
                with self._lock:  # a worker died (killed, out of memory): a new pool
                    if self._pool is pool:
                        self._pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        """Cancel what waits and wait for the workers to leave.  Not waiting gains
        nothing (the interpreter's exit joins the pool's thread anyway) and races
        with that exit: the pool's thread closes its wake-up pipe while the exit
        writes to it, an ``OSError`` traceback on an error exit that was clean."""
        with self._lock:  # not held while waiting: a search's thread may want it
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


Searches = InProcess | SearchPool


def _start_worker(server: int) -> None:
    """A worker process's start: it leaves with its ``server`` (the process id), even
    a server killed outright, before the worker came this far too (a worker blocked
    on its queue would not notice), then it loads the compiled search."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="server watch", daemon=True).start()
    _warm_up()


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether its server is still there."""


def _warm_up() -> None:
    from pyramide.solver.native import warm_up  # nothing to load when numba cannot cache

    warm_up()
