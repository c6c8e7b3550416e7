"""Solve time of every game (run by hand; prints a table).

For each game, deals ``PY1-<name>-0 … n-1`` are solved from the start with the
budget the game's Hint uses (``pyramide.solver.DEFAULT_BUDGET``) and, with
``--shortest``, with the Solution button's; prints the median and worst CPU
time per deal, the method, and how many deals were proven won, proven lost or
left undecided within the budget.

    .venv/bin/python benchmarks/bench_family.py [--deals 20] [--only G A] [--shortest]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from pyramide.deals import DealCode
from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.solver import DEFAULT_BUDGET, Budget, solve

SOLUTION_BUDGET = Budget(nodes=None, seconds=1.5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--shortest", action="store_true")
    args = parser.parse_args()
    table = Table(title=f"solve from the start, {args.deals} deals per game"
                  + (" (shortest line)" if args.shortest else ""))
    for column in ("game", "method", "median", "worst", "won", "lost", "undecided"):
        table.add_column(column, justify="left" if column in ("game", "method") else "right")
    budget = SOLUTION_BUDGET if args.shortest else DEFAULT_BUDGET
    for letter in args.only or list(PRESETS):
        times, verdicts, methods = [], [], set()
        for number in range(args.deals):
            game = Game.from_code(DealCode(letter, number))
            began = time.process_time()
            result = solve(game, budget=budget, shortest=args.shortest)
            times.append(time.process_time() - began)
            verdicts.append(result.winnable)
            methods.add(result.method)
            for move in result.moves:  # every line replays through the engine
                game.play(move)
        table.add_row(
            f"{letter} {PRESETS[letter].name}", "/".join(sorted(methods)),
            f"{1000 * statistics.median(times):.1f} ms", f"{1000 * max(times):.0f} ms",
            str(verdicts.count(True)), str(verdicts.count(False)), str(verdicts.count(None)))
    Console().print(table)


if __name__ == "__main__":
    main()
