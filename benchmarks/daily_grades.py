"""Calibrate the difficulty grades of pyramide.daily (run by hand).

Measures every winnable deal among the first DEALS numbers under rule set N
(shortest line, first moves, first moves that keep the game winnable), prints
the points' tertiles, how the current thresholds split the deals, the time a
grade takes, and the daily deals of a week.

    .venv/bin/python benchmarks/daily_grades.py [DEALS]
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date, timedelta

from pyramide.daily import EASY_BELOW, HARD_FROM, daily, grade
from pyramide.deals import DealCode
from pyramide.game import Game
from pyramide.solver import decide


def main(deals: int) -> None:
    grades = []
    seconds = []
    for number in range(deals):
        game = Game.from_code(DealCode("N", number))
        if decide(game.position, game.rules).winnable is not True:
            continue
        start = time.perf_counter()
        grades.append(grade(game))
        seconds.append(time.perf_counter() - start)
    points = sorted(g.points for g in grades)
    third = len(points) // 3
    print(f"winnable deals among 0-{deals - 1}: {len(grades)}")
    print(f"shortest line: median {statistics.median(g.shortest for g in grades)}, "
          f"min {min(g.shortest for g in grades)}, max {max(g.shortest for g in grades)}; "
          f"unproven {sum(not g.proven for g in grades)}")
    print(f"safe share of first moves: median "
          f"{statistics.median(g.safe_ratio for g in grades):.2f}, "
          f"first moves median {statistics.median(g.first_moves for g in grades)}")
    print(f"points tertiles: {points[third]:.1f} and {points[2 * third]:.1f}")
    split = {d: sum(g.difficulty == d for g in grades) for d in ("easy", "medium", "hard")}
    print(f"thresholds easy < {EASY_BELOW} <= medium < {HARD_FROM} <= hard: {split}")
    print(f"grade time: median {statistics.median(seconds) * 1000:.0f} ms, "
          f"max {max(seconds) * 1000:.0f} ms")
    for offset in range(7):
        start = time.perf_counter()
        day = daily(date(2026, 12, 1) + timedelta(days=offset))
        took = time.perf_counter() - start
        print(f"{day.date}: {day.code} {day.grade.difficulty} (shortest {day.grade.shortest}, "
              f"safe {day.grade.safe_first_moves}/{day.grade.first_moves}) {took * 1000:.0f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
