"""How much :func:`pyramide.solver.lines.tighten` shortens decide lines (run by hand).

For each game, deals ``0 … n-1`` are decided from the start with the Hint's
budget (``pyramide.solver.DEFAULT_BUDGET``, the compiled decide search where
it serves); every line that wins (or reaches a lost deal's most cards) is
tightened and both lines are replayed through the rules kernel.  Prints, per
game, the lines' total and worst lengths before and after, how many lines got
shorter, and the CPU time tightening took (median and worst per line).  The
Solution shows a tightened line wherever the shortest-line search proves
nothing within its budget (docs/solver.md, "Tightened lines").

    .venv/bin/python benchmarks/bench_tighten.py [--deals 100] [--only L W]
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

from pyramide import kernel
from pyramide.deals import Deal
from pyramide.games import PRESETS
from pyramide.kernel import Position
from pyramide.moves import Move
from pyramide.rules import Rules
from pyramide.solver import DEFAULT_BUDGET, solve_position
from pyramide.solver.lines import tighten

GAMES = ["N1", "C1", "O", "T", "P", "M", "L", "W", "X", "U", "A", "G", "D"]


def end_of(rules: Rules, pos: Position, line: list[Move]) -> Position:
    """The end of ``line``, every move checked legal by the kernel."""
    for move in line:
        assert move in kernel.legal_moves(rules, pos), f"{move} is not legal"
        pos = kernel.judge(rules, kernel.apply(rules, pos, move))
    return pos


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--only", nargs="*", default=GAMES)
    args = parser.parse_args()
    table = Table(title=f"tighten on the decide lines of deals 0–{args.deals - 1}")
    for column in ("game", "lines", "shorter", "moves before → after", "worst before → after",
                   "tighten median", "worst"):
        table.add_column(column, justify="left" if column == "game" else "right")
    for letter in args.only:
        rules = PRESETS[letter]
        before: list[int] = []
        after: list[int] = []
        times: list[float] = []
        for number in range(args.deals):
            start = kernel.initial(rules, Deal.from_number(number, rules.deck).cards)
            found = solve_position(start, rules, budget=DEFAULT_BUDGET)
            if found.winnable is None or not found.moves:
                continue
            clock = time.process_time()
            tight = tighten(rules, start, found.moves)
            times.append(time.process_time() - clock)
            end, tight_end = end_of(rules, start, found.moves), end_of(rules, start, tight)
            assert tight_end.status == end.status and tight_end.score >= end.score
            before.append(len(found.moves))
            after.append(len(tight))
        if not before:
            continue
        shorter = sum(b > a for b, a in zip(before, after, strict=True))
        table.add_row(
            letter, str(len(before)), str(shorter), f"{sum(before):,} → {sum(after):,}",
            f"{max(before)} → {max(after)}",
            f"{statistics.median(times) * 1000:.1f} ms", f"{max(times) * 1000:.1f} ms")
    Console().print(table)


if __name__ == "__main__":
    main()
