"""Solver timings, run by hand (never a test): prints the figures of docs/solver.md.

    python benchmarks/bench_solver.py decide --deals 10000 --cpu
    python benchmarks/bench_solver.py shortest --deals 1000 --nodes 10000 --seconds 0 --cpu
    python benchmarks/bench_solver.py presets --deals 1000 --nodes 20000 --seconds 0 --cpu
    python benchmarks/bench_solver.py lost --deals 200 --cpu
    python benchmarks/bench_solver.py anytime --deals 200 --nodes 0 --seconds 10

``anytime`` follows the shortest-line search deal by deal: when its first line
came, when the line it ends with came, and when the proof came (CPU time).

--nodes and --seconds bound each search (0 = no limit of that kind).

Times are per deal, in one CPython process, deal generation excluded; wall-clock
time, or CPU time of the process with --cpu (fairer on a busy machine).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable, Iterable

from pyramide import PRESETS, Deal, Game, Position
from pyramide.solver import Budget, Solution, decide, is_lost, solve
from pyramide.solver.compiled import warm_up
from pyramide.solver.reduced import ReducedModel
from pyramide.solver.shortest import Trail, solve_shortest

CLOCK: Callable[[], float] = time.perf_counter


def timed(fn: Callable[..., Solution], *args: object, **kwargs: object) -> tuple[float, Solution]:
    began = CLOCK()
    result = fn(*args, **kwargs)
    return CLOCK() - began, result


def describe(label: str, seconds: Iterable[float]) -> str:
    times = sorted(seconds)
    ms = [1000 * t for t in times]
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return (f"{label}: n={len(ms)}  mean {statistics.mean(ms):.3f} ms  median "
            f"{statistics.median(ms):.3f} ms  p99 {p99:.3f} ms  worst {ms[-1]:.3f} ms")


def bench_decide(args: argparse.Namespace) -> None:
    """Winnable + max_removed under N (and C), then the full solve with its line."""
    for letter in args.rules:
        rules = PRESETS[letter]
        deals = [Deal.from_number(n) for n in range(args.start, args.start + args.deals)]
        times, worst = [], (0.0, -1)
        gc.collect()
        for deal in deals:
            t, _ = timed(decide, Position.initial(deal), rules)
            times.append(t)
            worst = max(worst, (t, deal.number or 0))
        print(describe(f"decide {letter}", times), f"(worst deal {worst[1]})")
        times = [timed(solve, Game(deal, rules))[0] for deal in deals[: args.lines]]
        print(describe(f"solve {letter} with its line", times))


def budget_of(args: argparse.Namespace) -> Budget:
    return Budget(nodes=args.nodes or None, seconds=args.seconds or None)


def bench_shortest(args: argparse.Namespace) -> None:
    budget = budget_of(args)
    warm_up()  # compiles the search once per machine, then loads it (not timed)
    for letter in args.rules:
        rules = PRESETS[letter]
        rows = []
        for number in range(args.start, args.start + args.deals):
            game = Game(Deal.from_number(number), rules)
            t, result = timed(solve, game, shortest=True, budget=budget)
            rows.append((t, number, result))
            if args.verbose:
                print(number, f"{t:.3f}s", result.winnable, len(result.moves), result.shortest,
                      flush=True)
        print(describe(f"shortest {letter} all deals", (r[0] for r in rows)),
              f"(worst deal {max(rows, key=lambda r: r[0])[1]})")
        won = [r for r in rows if r[2].winnable]
        print(describe(f"shortest {letter} winnable deals", (r[0] for r in won)))
        unproven = [r[1] for r in rows if not r[2].shortest]
        print(f"not proven shortest within {budget}: {len(unproven)} of {len(rows)}"
              f" ({100 * len(unproven) / len(rows):.1f}%), e.g. {unproven[:10]}")
        lengths = [len(r[2].moves) for r in won if r[2].shortest]
        if lengths:
            print(f"proven shortest wins: mean {statistics.mean(lengths):.1f} moves, "
                  f"min {min(lengths)}, max {max(lengths)}")


def bench_presets(args: argparse.Namespace) -> None:
    budget = budget_of(args)
    for letter in args.rules:
        rules = PRESETS[letter]
        rows = []
        for number in range(args.start, args.start + args.deals):
            pos = Position.initial(Deal.from_number(number))
            t, result = timed(decide, pos, rules, budget=budget)
            rows.append((t, result))
        unknown = sum(r.winnable is None for _, r in rows)
        won = sum(r.winnable is True for _, r in rows)
        print(describe(f"preset {letter}", (t for t, _ in rows)),
              f"won {won}, unknown {unknown} ({100 * unknown / len(rows):.1f}%)")


def bench_anytime(args: argparse.Namespace) -> None:
    """How soon the shortest-line search holds the line it ends with, and how soon
    it proves it, over the deals it proves within the budget."""
    budget = budget_of(args)
    warm_up()
    for letter in args.rules:
        rules = PRESETS[letter]
        first, final, proof, gaps = [], [], [], []
        unproven: list[float] = []
        for number in range(args.start, args.start + args.deals):
            position = Position.initial(Deal.from_number(number))
            model = ReducedModel([c.value for c in position.pyramid if c is not None],
                                 covering=rules.covering_pairs)
            trail: Trail = []
            began = time.process_time()
            result = solve_shortest(position, rules, budget, model, trail)
            spent = time.process_time() - began
            length = len(result.moves)
            if not result.shortest:
                unproven.append(next(t for t, moves in trail if moves == length))
                continue
            first.append(trail[0][0])
            final.append(next(t for t, moves in trail if moves == length))
            proof.append(spent)
            gaps.append(trail[0][1] - length)
            if args.verbose:
                print(number, length, [(round(t, 3), m) for t, m in trail], f"{spent:.3f}s",
                      flush=True)
        print(f"{letter}: {len(proof)} of {args.deals} deals proven within {budget}; "
              f"not proven: {len(unproven)}")
        if unproven:
            print(describe("  unproven deals, their last line", unproven))
        if proof:
            print(describe("  first line", first))
            print(describe("  the shortest line found", final))
            print(describe("  proof", proof))
            print(f"  first line longer than the shortest by: mean {statistics.mean(gaps):.1f}"
                  f" moves, median {statistics.median(gaps)}, worst {max(gaps)}; "
                  f"already shortest in {sum(g == 0 for g in gaps)} deals")


def bench_lost(args: argparse.Namespace) -> None:
    """is_lost after every action of random play (what the web server does)."""
    for letter in args.rules:
        rules = PRESETS[letter]
        rng = random.Random(letter)
        times = []
        for number in range(args.start, args.start + args.deals):
            game = Game(Deal.from_number(number), rules)
            for _ in range(40):
                if game.is_over:
                    break
                began = CLOCK()
                is_lost(game)
                times.append(CLOCK() - began)
                moves = game.legal_moves()
                removals = [m for m in moves if m.kind == "remove"]
                game.play(rng.choice(removals or moves))
        print(describe(f"is_lost {letter}", times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    for name, fn, deals, rules in (
        ("decide", bench_decide, 10_000, "NC"),
        ("shortest", bench_shortest, 1_000, "N"),
        ("presets", bench_presets, 1_000, "PRMTO"),
        ("lost", bench_lost, 200, "NCPRMTO"),
        ("anytime", bench_anytime, 200, "N"),
    ):
        p = sub.add_parser(name)
        p.set_defaults(fn=fn)
        p.add_argument("--deals", type=int, default=deals)
        p.add_argument("--start", type=int, default=0)
        p.add_argument("--rules", default=rules)
        p.add_argument("--seconds", type=float, default=2.0)
        p.add_argument("--nodes", type=int, default=20_000)
        p.add_argument("--lines", type=int, default=1_000, help="deals solved with their line")
        p.add_argument("--verbose", action="store_true")
        p.add_argument("--cpu", action="store_true", help="time in CPU seconds of the process")
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    args.fn(args)


if __name__ == "__main__":
    main()
