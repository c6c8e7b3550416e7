"""Win-rate sweep throughput, run by hand (never a test): the figures of docs/scale.md.

    python benchmarks/bench_sweep.py per-core --deals 2000 --slow-deals 100
    python benchmarks/bench_sweep.py engines --deals 20000 --workers 2

``per-core`` decides deals in this one process, one rule set after the other
(every letter of ``PRESETS``), through the sweep's own chunk function, and
prints deals per CPU second (what one worker process delivers on a core of its
own) and deals per wall second, with the workers a 10^9-deal sweep needs to
finish in one hour.  N and C take ``--deals`` deals; the rule sets searched in
full take ``--slow-deals`` (they are 10-1000 times slower).  Of ``--repeat``
runs over the same deals the fastest counts: on a busy machine the other
processes slow a run down, never speed it up.

``engines`` sweeps the same range under one rule set twice, on local processes
and on a Dask ``LocalCluster`` of as many worker processes, and prints the
deals per second of both (the cluster's start excluded, printed apart) and
whether their per-deal verdicts agree.

The budget is in states only (``--nodes``, default the command's 20,000;
``--seconds 0``), so the verdicts do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager

from pyramide.rules import PRESETS
from pyramide.solver import Budget, reduced_rules
from pyramide.sweep import Chunk, Engine, cluster_engine, decide_chunk, local_engine, plan_chunks
from pyramide.sweep import sweep as run_sweep

TARGET_DEALS = 10**9
TARGET_SECONDS = 3600


def per_core(args: argparse.Namespace) -> None:
    budget = Budget(nodes=args.nodes, seconds=None)
    need = TARGET_DEALS / TARGET_SECONDS
    print(f"one process, budget {args.nodes:,} states; load {os.getloadavg()[0]:.1f}")
    print(f"{'rules':5} {'deals':>6} {'unknown':>8} {'deals/CPU s':>12} {'deals/wall s':>13} "
          f"{'workers for 1e9 in 1 h':>24}")
    decide_chunk("N", 0, 10, budget)  # imports and first calls out of the timing
    for letter, rules in PRESETS.items():
        deals = args.deals if reduced_rules(rules) else args.slow_deals
        runs = [timed_chunks(letter, plan_chunks(args.start, deals, 250), budget)
                for _ in range(args.repeat)]
        wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
        verdicts = runs[0][2]
        rate = deals / cpu
        print(f"{letter:5} {deals:>6,} {verdicts.count('?') / deals:>8.1%} {figure(rate):>12} "
              f"{figure(deals / wall):>13} {need / rate:>24,.0f}")


def timed_chunks(letter: str, chunks: list[Chunk], budget: Budget) -> tuple[float, float, str]:
    """Wall and CPU seconds of deciding ``chunks``, and their verdicts."""
    wall, cpu = time.perf_counter(), time.process_time()
    verdicts = "".join(decide_chunk(letter, c.first, c.count, budget) for c in chunks)
    return time.perf_counter() - wall, time.process_time() - cpu, verdicts


def figure(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.2f}"


@contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def timed_sweep(engine: Engine, letter: str, chunks: list[Chunk],
                budget: Budget) -> tuple[float, dict[int, str]]:
    began = time.perf_counter()
    verdicts = {chunk.first: v for chunk, v in run_sweep(engine, letter, chunks, budget)}
    return time.perf_counter() - began, verdicts


def engines(args: argparse.Namespace) -> None:
    budget = Budget(nodes=args.nodes, seconds=None)
    chunks = plan_chunks(args.start, args.deals, args.chunk)
    print(f"rules {args.rules}, {args.deals:,} deals in chunks of {args.chunk}, "
          f"{args.workers} workers; load {os.getloadavg()[0]:.1f}")
    with local_engine(args.workers) as engine:
        local_seconds, local = timed_sweep(engine, args.rules, chunks, budget)
    print(f"local processes: {args.deals / local_seconds:,.0f} deals/s "
          f"({local_seconds:.2f} s, the pool's start included)")
    began = time.perf_counter()
    with dask_cluster(args.workers) as address:
        started = time.perf_counter() - began
        with cluster_engine(address, 30) as engine:
            cluster_seconds, remote = timed_sweep(engine, args.rules, chunks, budget)
    print(f"Dask LocalCluster: {args.deals / cluster_seconds:,.0f} deals/s "
          f"({cluster_seconds:.2f} s; the cluster took {started:.1f} s to start)")
    print(f"per-deal verdicts agree: {local == remote}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    core = commands.add_parser("per-core", help="deals per CPU second, every rule set")
    core.add_argument("--deals", type=int, default=2000, help="deals under N and C")
    core.add_argument("--slow-deals", type=int, default=100, help="deals under the others")
    core.add_argument("--repeat", type=int, default=3,
                      help="runs over the same deals; the fastest counts (a busy machine)")
    core.set_defaults(func=per_core)
    both = commands.add_parser("engines", help="local processes against a Dask LocalCluster")
    both.add_argument("--rules", default="N")
    both.add_argument("--deals", type=int, default=20_000)
    both.add_argument("--chunk", type=int, default=250)
    both.add_argument("--workers", type=int, default=2)
    both.set_defaults(func=engines)
    for sub in (core, both):
        sub.add_argument("--start", type=int, default=0)
        sub.add_argument("--nodes", type=int, default=20_000)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
