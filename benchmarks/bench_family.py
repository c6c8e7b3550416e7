"""Solve time of every game (run by hand; prints a table).

For each game, deals ``PY1-<name>-0 … n-1`` are solved from the start twice:
with the budget of the game's Hint (``pyramide.solver.DEFAULT_BUDGET``: the
verdict and a line) and with the Solution button's (the shortest line within
1.5 s).  Prints, per game, the median, 95th percentile and worst CPU time per
deal of both, the method, how many deals were proven won, proven lost or left
undecided within the Hint's budget, and how many shortest lines were not
proven shortest.  Every line is replayed through the engine.

    .venv/bin/python benchmarks/bench_family.py [--deals 10] [--only G A] [--no-shortest]
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
from pyramide.solver import DEFAULT_BUDGET, Solution, solve
from pyramide.web.searches import SOLUTION_BUDGET


def p95(times: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(times)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def ms(seconds: float) -> str:
    return f"{1000 * seconds:,.0f} ms" if seconds >= 0.1 else f"{1000 * seconds:.1f} ms"


def timed(letter: str, number: int, *, shortest: bool) -> tuple[float, Solution]:
    """Solve one deal from the start; CPU seconds and the answer (its line replayed)."""
    game = Game.from_code(DealCode(letter, number))
    began = time.process_time()
    result = solve(game, budget=SOLUTION_BUDGET if shortest else DEFAULT_BUDGET,
                   shortest=shortest)
    spent = time.process_time() - began
    for move in result.moves:  # every line replays through the engine
        game.play(move)
    if result.winnable:
        assert game.status == "won", f"{letter} {number}: the winning line does not win"
    return spent, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--family", action="store_true", help="only the family's games")
    parser.add_argument("--no-shortest", action="store_true")
    args = parser.parse_args()
    table = Table(title=f"solve from the start, {args.deals} deals per game, CPU time per deal")
    columns = ["game", "method", "decide median", "p95", "worst", "won", "lost", "undecided"]
    if not args.no_shortest:
        columns += ["shortest median", "p95 ", "worst ", "not proven"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("game", "method") else "right")
    letters = args.only or [r.letter for r in PRESETS.values() if r.family or not args.family]
    for letter in letters:
        decided = [timed(letter, n, shortest=False) for n in range(args.deals)]
        times = [t for t, _ in decided]
        verdicts = [r.winnable for _, r in decided]
        row = [f"{letter} {PRESETS[letter].name}", "/".join(sorted({r.method for _, r in decided})),
               ms(statistics.median(times)), ms(p95(times)), ms(max(times)),
               str(verdicts.count(True)), str(verdicts.count(False)), str(verdicts.count(None))]
        if not args.no_shortest:
            lines = [timed(letter, n, shortest=True) for n in range(args.deals)]
            spans = [t for t, _ in lines]
            row += [ms(statistics.median(spans)), ms(p95(spans)), ms(max(spans)),
                    str(sum(not r.shortest for _, r in lines))]
        table.add_row(*row)
        print("\t".join(row), flush=True)
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
