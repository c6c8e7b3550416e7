"""The game's search budgets: how many states each search path spends in the wall
time the game used to allow, and what the state budgets cost now (run by hand).

    python benchmarks/bench_budgets.py rate [--deals 20]
    python benchmarks/bench_budgets.py cost [--deals 20]

``rate``: for each search the game runs (the Solution's shortest line, the hint,
the winnable deal, the lost warning) and each search path (compiled: rules N and
C; full: the other classic rule sets; kernel: the family), runs deals from the
start with the old wall-time budget and no state limit, and prints the states
visited per CPU second and the states that budget allowed (median and p90 over the
deals whose budget ran out).  ``cost``: the same searches with the game's state
budgets now, the CPU time per deal (median, p95, worst) and how many answers were
left unknown or unproven.  CPU time of this process; one process, no threads.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_tally import Tally

from pyramide.daily import DECIDE_BUDGET as WINNABLE_BUDGET
from pyramide.deals import DealCode
from pyramide.game import Game
from pyramide.solver import QUICK_BUDGET, Budget, Solution, is_lost, solve
from pyramide.solver.api import AnyBudget
from pyramide.web.searches import HINT_BUDGET, SOLUTION_BUDGET

PATHS = {"compiled": "NC", "full": "PRMTO", "kernel": "GAVY"}
"""A few rule sets of each search path."""
OLD = {  # the game's budgets before they counted states
    "solution": Budget(nodes=None, seconds=1.5),
    "hint": Budget(nodes=100_000, seconds=1.0),
    "winnable": Budget(nodes=50_000, seconds=0.5),
    "lost": Budget(nodes=500, seconds=0.005),
}
NOW: dict[str, AnyBudget] = {"solution": SOLUTION_BUDGET, "hint": HINT_BUDGET,
                             "winnable": WINNABLE_BUDGET, "lost": QUICK_BUDGET}


def run(kind: str, game: Game, budget: AnyBudget) -> Solution:
    if kind == "lost":  # is_lost answers a bool: the states are not reported, so decide
        from pyramide.solver import decide

        if isinstance(budget, Budget):
            return decide(game.position, game.rules, budget=budget)
        lost = is_lost(game, budget=budget)
        return Solution(False if lost else None, 0)
    return solve(game, budget=budget, shortest=kind == "solution")


def searches(kinds: list[str], paths: list[str]) -> list[tuple[str, str]]:
    return [(k, p) for k in kinds for p in paths
            if not (p == "compiled" and kind_has_no_budget(k))]


def kind_has_no_budget(kind: str) -> bool:
    """N and C decide with the reduced model: only their Solution spends states."""
    return kind != "solution"


def deals(path: str, count: int) -> list[Game]:
    letters = PATHS[path]
    return [Game.from_code(DealCode(letters[i % len(letters)], i // len(letters)))
            for i in range(count)]


def timed(fn: Callable[[], Solution]) -> tuple[float, Solution]:
    began = time.process_time()
    result = fn()
    return time.process_time() - began, result


PROBE = {"compiled": 400_000, "full": 20_000, "kernel": 5_000}
"""States of the probe searches (a tenth of it for the lost warning): enough to take
about a second, so that the start of a search weighs little in the rate."""


def rate(kinds: list[str], paths: list[str], count: int) -> None:
    for kind, path in searches(kinds, paths):
        probe = PROBE[path] // (10 if kind == "lost" else 1)
        budget = Budget(nodes=probe, seconds=None)
        states, cpu, spent = 0, 0.0, 0
        for game in deals(path, count):
            seconds, result = timed(lambda g=game, k=kind, b=budget: run(k, g, b))
            if result.nodes >= probe:  # the probe's states ran out: a full-length search
                states, cpu, spent = states + result.nodes, cpu + seconds, spent + 1
        per_second = states / cpu if cpu else 0.0
        old = OLD[kind].seconds or 0.0
        print(f"{kind:9} {path:9} {per_second:12,.0f} states per CPU second "
              f"({spent} of {count} deals spent {probe:,} states); the old "
              f"{old} s: {per_second * old:,.0f} states", flush=True)


def cost(kinds: list[str], paths: list[str], count: int) -> None:
    for kind, path in searches(kinds, paths):
        tally = Tally()
        for game in deals(path, count):
            seconds, result = timed(lambda g=game, k=kind: run(k, g, NOW[k]))
            tally.add(seconds, result, shortest=kind == "solution")
        print(f"{kind:9} {path:9} {tally.summary()}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["rate", "cost"])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--kinds", nargs="*", default=list(OLD))
    parser.add_argument("--paths", nargs="*", default=list(PATHS))
    args = parser.parse_args()
    (rate if args.mode == "rate" else cost)(args.kinds, args.paths, args.deals)


if __name__ == "__main__":
    main()
