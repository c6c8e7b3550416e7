"""``pyramide winrate``: the share of deals that can be won, solved in parallel.

Deals ``start .. start + deals - 1`` are solved in chunks by a pool of worker
processes.  The win rate comes with its 95% Wilson interval; deals the search
could not decide within its budget ("unknown") are reported apart, and the
interval is then taken over the decided deals.

>>> low, high = wilson(6687, 10000)
>>> round(low, 4), round(high, 4)
(0.6594, 0.6779)
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from math import sqrt
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pyramide.commands.solve import add_budget_arguments, budget_of
from pyramide.deals import MAX_DEAL_NUMBER, Deal
from pyramide.game import Position
from pyramide.rules import Rules, rules_for
from pyramide.solver import Budget, decide

CHUNK = 250
Z95 = 1.959963984540054


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "winrate", help="solve a range of deals and print the win rate",
        description="Solve deals start .. start+deals-1 under a rule set, in parallel, and "
        "print the win rate with its 95%% confidence interval (Wilson), the spread of "
        "max_removed over lost deals, and the deals solved per second.",
    )
    parser.add_argument("--rules", default="N", help="rule set letter (default N)")
    parser.add_argument("--deals", type=int, default=10_000, help="how many deals (default 10000)")
    parser.add_argument("--start", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: one per CPU)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_budget_arguments(parser, nodes=20_000, seconds=1.0)
    parser.set_defaults(func=run)


@dataclass
class Tally:
    """Counts over solved deals."""

    deals: int = 0
    won: int = 0
    unknown: int = 0
    lost_max: Counter[int] = field(default_factory=Counter)
    unknown_numbers: list[int] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.won += other.won
        self.unknown += other.unknown
        self.lost_max.update(other.lost_max)
        self.unknown_numbers += other.unknown_numbers[: max(0, 20 - len(self.unknown_numbers))]

    @property
    def decided(self) -> int:
        return self.deals - self.unknown


def solve_chunk(letter: str, first: int, count: int, budget: Budget) -> Tally:
    """Solve deals ``first .. first + count - 1`` (runs in a worker process)."""
    rules = rules_for(letter)
    tally = Tally()
    for number in range(first, first + count):
        deal = Deal.from_number(number, rules.deck)
        result = decide(Position.initial(deal, rules), rules, budget=budget)
        tally.deals += 1
        if result.winnable is None:
            tally.unknown += 1
            tally.unknown_numbers.append(number)
        elif result.winnable:
            tally.won += 1
        else:
            tally.lost_max[result.max_removed] += 1
    return tally


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def run(args: argparse.Namespace) -> int:
    rules = rules_for(args.rules)
    check_range(args.start, args.deals, args.jobs)
    budget = budget_of(args)
    began = time.perf_counter()
    tally = solve_range(rules, args.start, args.deals, args.jobs, budget, quiet=args.quiet)
    elapsed = time.perf_counter() - began
    figures = summary(rules, args.start, tally, elapsed, args.jobs)
    if args.json:
        print(json.dumps(figures))
    else:
        head, table = report(figures)
        console = Console(highlight=False)
        console.print(head, markup=False)
        console.print(table)
    return 0


def check_range(start: int, deals: int, jobs: int) -> None:
    if deals < 1:
        raise ValueError(f"--deals {deals} must be at least 1")
    if jobs < 1:
        raise ValueError(f"--jobs {jobs} must be at least 1")
    if start < 0 or start + deals - 1 > MAX_DEAL_NUMBER:
        raise ValueError(f"deals {start}..{start + deals - 1} leave the range 0..{MAX_DEAL_NUMBER}")


def solve_range(rules: Rules, start: int, deals: int, jobs: int, budget: Budget, *,
                quiet: bool) -> Tally:
    chunks = [(first, min(CHUNK, start + deals - first))
              for first in range(start, start + deals, CHUNK)]
    total = Tally()
    columns = (TextColumn(f"rules {rules.letter}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
    with Progress(*columns, disable=quiet, transient=True) as progress:
        task = progress.add_task("solving", total=deals, rate="")
        if jobs == 1:
            for first, count in chunks:
                total.add(solve_chunk(rules.letter, first, count, budget))
                progress.update(task, advance=count, rate=rate_text(total))
            return total
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(solve_chunk, rules.letter, first, count, budget)
                       for first, count in chunks]
            for future in as_completed(futures):
                part = future.result()
                total.add(part)
                progress.update(task, advance=part.deals, rate=rate_text(total))
    return total


def rate_text(tally: Tally) -> str:
    return f"{100 * tally.won / max(1, tally.decided):.2f}% won"


def summary(rules: Rules, start: int, tally: Tally, elapsed: float, jobs: int) -> dict[str, Any]:
    low, high = wilson(tally.won, tally.decided)
    return {
        "rules": rules.letter,
        "rules_name": rules.name,
        "first_deal": start,
        "deals": tally.deals,
        "won": tally.won,
        "lost": tally.decided - tally.won,
        "unknown": tally.unknown,
        "unknown_examples": sorted(tally.unknown_numbers)[:20],
        "win_rate": tally.won / tally.decided if tally.decided else None,
        "ci95": [low, high],
        "lost_max_removed": {str(k): v for k, v in sorted(tally.lost_max.items())},
        "seconds": round(elapsed, 3),
        "deals_per_second": round(tally.deals / elapsed, 1) if elapsed > 0 else None,
        "jobs": jobs,
    }


def report(figures: dict[str, Any]) -> tuple[str, Table]:
    low, high = figures["ci95"]
    rate = figures["win_rate"]
    head = (
        f"rules {figures['rules']} ({figures['rules_name']}), deals {figures['first_deal']}.."
        f"{figures['first_deal'] + figures['deals'] - 1}\n"
        f"won {figures['won']:,} of {figures['deals'] - figures['unknown']:,} decided: "
        + ("-" if rate is None else f"{100 * rate:.3f}%")
        + f"  (95% CI {100 * low:.3f}% - {100 * high:.3f}%, Wilson)\n"
        f"unknown within the budget: {figures['unknown']:,} "
        f"({100 * figures['unknown'] / figures['deals']:.2f}%)\n"
        f"{figures['deals_per_second']} deals/s over {figures['seconds']} s, "
        f"{figures['jobs']} job(s)"
    )
    table = Table()
    table.add_column("max_removed (lost deals)", justify="right")
    table.add_column("deals", justify="right")
    table.add_column("share of lost", justify="right")
    lost = max(1, figures["lost"])
    for removed, count in figures["lost_max_removed"].items():
        table.add_row(removed, f"{count:,}", f"{100 * count / lost:.2f}%")
    return head, table
