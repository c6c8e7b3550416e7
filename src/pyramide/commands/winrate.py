"""``pyramide winrate``: the share of deals that can be won, solved in parallel.

Deals ``start .. start + deals - 1`` are solved in chunks (:mod:`pyramide.sweep`)
by local worker processes or the workers of a Dask cluster (``--cluster``), and
with ``--results FILE`` every finished chunk is kept so that a rerun goes on
where an interrupted sweep stopped (``docs/scale.md``).  The win rate comes with
its 95% Wilson interval; deals the search could not decide within its budget
("unknown") are reported apart, and the interval is then taken over the
decided deals (the interval is :func:`pyramide.winrates.wilson`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from pyramide.commands.solve import add_budget_arguments, budget_of
from pyramide.deals import MAX_DEAL_NUMBER
from pyramide.rules import PRESETS, Rules, rules_for
from pyramide.solver import Budget
from pyramide.sweep import (
    Chunk,
    Engine,
    ResultsFile,
    Tally,
    cluster_engine,
    local_engine,
    plan_chunks,
    sweep,
)
from pyramide.sweep.results import gather, join, spans
from pyramide.winrates import wilson

CHUNK = 250


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "winrate", help="solve a range of deals and print the win rate",
        description="Solve deals start .. start+deals-1 under a rule set, in parallel (local "
        "processes, or the workers of a Dask cluster), and print the win rate with its 95%% "
        "confidence interval (Wilson), the spread of max_removed over lost deals, and the "
        "deals solved per second.",
    )
    parser.add_argument("--rules", default="N",
                        help=f"rule set letter, one of {', '.join(PRESETS)} (default N)")
    parser.add_argument("--deals", type=int, default=10_000, help="how many deals (default 10000)")
    parser.add_argument("--start", type=int, default=0, help="first deal number (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="local worker processes (default: one per CPU; not used with "
                        "--cluster)")
    parser.add_argument("--cluster", metavar="tcp://HOST:PORT",
                        help="decide the deals on the workers of this Dask scheduler instead of "
                        "local processes (needs pyramide[cluster])")
    parser.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="how long to try reaching the scheduler (default 10)")
    parser.add_argument("--chunk", type=int, default=None,
                        help=f"deals per chunk of work (default {CHUNK}, or the results "
                        "file's)")
    parser.add_argument("--results", type=Path, metavar="FILE",
                        help="record every finished chunk in FILE; run again with the same "
                        "FILE to skip the chunks it holds")
    parser.add_argument("--join", type=Path, nargs="+", metavar="PART",
                        help="solve nothing: join these results files (the processes of one "
                        "sweep, each range once) into the new --results FILE, to read back "
                        "with --results FILE --deals N")
    parser.add_argument("--status", type=Path, nargs="+", metavar="PART",
                        help="solve nothing: the deals these results files (the processes of "
                        "one sweep, running or not) hold so far, and their win rate")
    parser.add_argument("--win-only", action="store_true",
                        help="do not seek the most cards of a lost deal: the win rate only, "
                             "sooner (its lost deals get no max_removed)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_budget_arguments(parser, states=20_000, seconds=10.0)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.join:
        return join_parts(args.join, args.results)
    if args.status:
        return status(args.status, as_json=args.json)
    rules = rules_for(args.rules)
    check_range(args.start, args.deals, args.jobs, args.chunk)
    budget = budget_of(args)
    assert isinstance(budget, Budget)  # winrate has a default count of states
    results: ResultsFile | None = None
    try:
        with ExitStack() as stack:
            if args.results is not None:
                results = stack.enter_context(ResultsFile.open(
                    args.results, rules.letter, budget.nodes, budget.seconds, args.chunk, CHUNK,
                    args.win_only))
            chunks = plan_chunks(args.start, args.deals,
                                 results.key.chunk if results else args.chunk or CHUNK)
            engine = stack.enter_context(cluster_engine(args.cluster, args.connect_timeout)
                                         if args.cluster else local_engine(args.jobs))
            began = time.perf_counter()
            progress = Console(stderr=True, quiet=args.quiet)
            tally, resumed = solve_range(engine, rules, chunks, budget, results, progress,
                                         args.win_only)
            elapsed = time.perf_counter() - began
            figures = summary(rules, args.start, tally, elapsed, engine, resumed)
            figures["win_only"] = args.win_only
    except KeyboardInterrupt:
        print(interrupted(results), file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(figures))
    else:
        head, table = report(figures)
        console = Console(highlight=False)
        console.print(head, markup=False)
        console.print(table)
    return 0


def join_parts(parts: list[Path], out: Path | None) -> int:
    """``--join``: the parts' chunks into the new file ``out``."""
    if out is None:
        raise ValueError("--join needs --results FILE, the new file to write")
    key, span = join(parts, out)
    print(f"{out}: deals {span.first}..{span.last} ({span.count:,}) of {len(parts)} files, "
          f"{key.describe()}; read them back with --start {span.first} --deals {span.count} "
          f"--results {out}")
    return 0


def status(parts: list[Path], *, as_json: bool) -> int:
    """``--status``: what the parts of a sweep hold so far, read while it runs."""
    key, chunks = gather(parts, locked=False)
    tally = Tally()
    for chunk, verdicts in chunks.items():
        tally.add(Tally.of(chunk, verdicts))
    low, high = wilson(tally.won, tally.decided)
    rate = tally.won / tally.decided if tally.decided else None
    runs = spans(chunks)
    figures: dict[str, Any] = {
        "sweep": key.describe(), "files": len(parts),
        "ranges": [[run.first, run.last] for run in runs],
        "deals": tally.deals, "won": tally.won, "lost": tally.decided - tally.won,
        "unknown": tally.unknown, "unknown_examples": tally.unknown_numbers,
        "win_rate": rate, "ci95": [low, high],
    }
    if as_json:
        print(json.dumps(figures))
        return 0
    held = ", ".join(f"{run.first:,}..{run.last:,}" for run in runs) or "none"
    print(f"{key.describe()}, {len(parts)} file(s)\n"
          f"deals held: {held} ({tally.deals:,})\n"
          f"won {tally.won:,}, lost {figures['lost']:,}, unknown {tally.unknown:,}: "
          + ("-" if rate is None else f"{100 * rate:.3f}% of decided")
          + f" (95% CI {100 * low:.3f}% - {100 * high:.3f}%, Wilson)")
    return 0


def check_range(start: int, deals: int, jobs: int, chunk: int | None) -> None:
    if deals < 1:
        raise ValueError(f"--deals {deals} must be at least 1")
    if jobs < 1:
        raise ValueError(f"--jobs {jobs} must be at least 1")
    if chunk is not None and chunk < 1:
        raise ValueError(f"--chunk {chunk} must be at least 1")
    if start < 0 or start + deals - 1 > MAX_DEAL_NUMBER:
        raise ValueError(f"deals {start}..{start + deals - 1} leave the range 0..{MAX_DEAL_NUMBER}")


def solve_range(engine: Engine, rules: Rules, chunks: list[Chunk], budget: Budget,
                results: ResultsFile | None, console: Console,
                win_only: bool = False) -> tuple[Tally, int]:
    """The tally over ``chunks`` and how many of their deals came from ``results``.

    Chunks found in the results file are counted from it; the others are
    decided on ``engine`` and recorded there as they finish, each one moving
    the progress bar (drawn on ``console``).
    """
    total = Tally()
    todo = []
    for chunk in chunks:
        verdicts = results.done.get(chunk) if results else None
        if verdicts is None:
            todo.append(chunk)
        else:
            total.add(Tally.of(chunk, verdicts))
    resumed = total.deals
    columns = (TextColumn(f"rules {rules.letter}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
               TextColumn("{task.fields[engine]}"))
    with Progress(*columns, console=console, transient=True, disable=console.quiet) as progress:
        task = progress.add_task("solving", total=sum(c.count for c in chunks), completed=resumed,
                                 rate=total.rate_text(), engine=engine.describe())
        for chunk, verdicts in sweep(engine, rules.letter, todo, budget, win_only):
            if results:
                results.record(chunk, verdicts)
            total.add(Tally.of(chunk, verdicts))
            progress.update(task, advance=chunk.count, rate=total.rate_text(),
                            engine=engine.describe())
    return total, resumed


def interrupted(results: ResultsFile | None) -> str:
    if results is None:
        return "pyramide: interrupted (with --results FILE a rerun goes on where it stopped)"
    deals = sum(chunk.count for chunk in results.done)
    return (f"pyramide: interrupted; {deals:,} decided deals are kept in {results.path}: "
            "the same command goes on from there")


def summary(rules: Rules, start: int, tally: Tally, elapsed: float, engine: Engine,
            resumed: int) -> dict[str, Any]:
    """The figures of a sweep; the speed counts only the deals decided by this run."""
    solved = tally.deals - resumed
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
        "resumed": resumed,
        "deals_per_second": round(solved / elapsed, 1) if elapsed > 0 and solved else None,
        "engine": engine.where,
        "workers": engine.workers(),
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
        f"{figures['engine']}, {figures['workers']} worker(s)"
        + (f"\n{figures['resumed']:,} deals taken from the results file"
           if figures["resumed"] else "")
        + ("\nlost deals: the most cards removable not sought (--win-only)"
           if figures.get("win_only") else "")
    )
    table = Table()
    table.add_column("max_removed (lost deals)", justify="right")
    table.add_column("deals", justify="right")
    table.add_column("share of lost", justify="right")
    lost = max(1, figures["lost"])
    for removed, count in figures["lost_max_removed"].items():
        table.add_row(removed, f"{count:,}", f"{100 * count / lost:.2f}%")
    return head, table
