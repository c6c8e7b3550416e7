"""Every classic rule set with the game's state budgets: decide and the shortest line
(run by hand; prints one line per rule set and search as it goes).

    python benchmarks/bench_rulesets.py [--deals 200] [--rules N C P R M T O N1 C1 N1W C1W]

For each rule set, deals 0 .. deals-1 from the start: ``decide`` (winnable and
``max_removed``, the statistics' search) and ``shortest`` (the game's Solution),
both with the state counts of :data:`pyramide.solver.DEFAULT_BUDGET`, the game's,
and no wall-time guard unless ``--guard`` gives one (on a busy machine the game's
guard would stop some searches, and the figures would be those of the load).
Prints the CPU time per deal (median, p95, worst), the deals left undecided
(``winnable`` unknown), the lines not proven shortest (of the decided deals),
the states spent (median, worst) and the deals the guard stopped.  One process;
CPU time of this process.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solver_tally import Tally

from pyramide.deals import Deal
from pyramide.game import Game, Position
from pyramide.games import PRESETS
from pyramide.solver import DEFAULT_BUDGET, decide, solve
from pyramide.solver.budget import Budgets

CLASSIC = ["N", "C", "P", "R", "M", "T", "O", "N1", "C1", "N1W", "C1W"]


def measure(letter: str, deals: int, kind: str, budget: Budgets) -> str:
    rules = PRESETS[letter]
    tally = Tally()
    for number in range(deals):
        deal = Deal.from_number(number, rules.deck)
        began = time.process_time()
        if kind == "decide":
            result = decide(Position.initial(deal, rules), rules, budget=budget)
        else:
            result = solve(Game(deal, rules), budget=budget, shortest=True)
        tally.add(time.process_time() - began, result, shortest=kind == "shortest")
    return f"{letter:4} {kind:8} {tally.summary()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rules", nargs="+", default=CLASSIC)
    parser.add_argument("--kinds", nargs="+", default=["decide", "shortest"])
    parser.add_argument("--guard", type=float, default=None,
                        help="wall-time guard in seconds (default: none)")
    args = parser.parse_args()
    budget = replace(DEFAULT_BUDGET, seconds=args.guard)
    solve(Game(Deal.from_number(1)), shortest=True)  # loads the compiled search
    print(f"budget {budget}", flush=True)
    for letter in args.rules:
        for kind in args.kinds:
            print(measure(letter, args.deals, kind, budget), flush=True)


if __name__ == "__main__":
    main()
