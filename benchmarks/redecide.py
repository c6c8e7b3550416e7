"""Decide again, at a larger budget, the deals a sweep left undecided (run by hand).

A sweep's won and lost verdicts are proofs: a larger budget cannot change
them.  Only its undecided deals (``?``) can move.  This reads a results file
(`pyramide winrate --results`, benchmarks/sweeps/README.md), keeps every
decided verdict, decides each undecided deal again at ``--states``, and writes
the chunks into a new results file at that budget, which `pyramide winrate
--results OUT` then reads back like any sweep's.  The file then holds the
proofs of both budgets, which is not always what a sweep run afresh at the new
budget would give: the decide search shares its budget out among its probes
and its best-first search by fractions of the whole, so a larger budget
changes its schedule, and now and then a deal won at the smaller one is left
undecided at the larger (Cheops' deal 84: won at 200,000 states, undecided at
600,000).  Say so where the figures are quoted::

    .venv/bin/python benchmarks/redecide.py K-200000.results --states 600000 \\
        --out /tmp/K-600000-0.results --part 0/2
    .venv/bin/python benchmarks/redecide.py K-200000.results --states 600000 \\
        --out /tmp/K-600000-1.results --part 1/2      # beside it, on the other core
    pyramide winrate --join /tmp/K-600000-*.results --results /tmp/K.results
    pyramide winrate --rules K --deals 100000 --jobs 1 --states 600000 --seconds 0 \\
        --win-only --json --results /tmp/K.results

``--part K/N`` takes every N-th chunk from the K-th, so that N processes share
the work; each writes its own file and resumes from it when run again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.progress import Progress

from pyramide.solver import Budget
from pyramide.sweep.chunks import UNKNOWN, Chunk, decide_chunk
from pyramide.sweep.results import ResultsFile, read


def part_of(text: str) -> tuple[int, int]:
    """``"1/2"`` → ``(1, 2)``: this process's share of the chunks."""
    try:
        index, count = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--part wants K/N, not {text!r}") from None
    if not 0 <= index < count:
        raise argparse.ArgumentTypeError(f"--part {text!r}: K must lie in 0..N-1")
    return index, count


def redecided(letter: str, chunk: Chunk, verdicts: str, budget: Budget, win_only: bool,
              step: object) -> str:
    """``verdicts`` with each undecided deal decided again under ``budget``."""
    out = []
    for offset, verdict in enumerate(verdicts):
        if verdict == UNKNOWN:
            verdict = decide_chunk(letter, chunk.first + offset, 1, budget, win_only=win_only)
            step()  # type: ignore[operator]
        out.append(verdict)
    return "".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the sweep's results file")
    parser.add_argument("--states", type=int, required=True, help="the new, larger budget")
    parser.add_argument("--out", type=Path, required=True, help="the new results file")
    parser.add_argument("--part", type=part_of, default=(0, 1), help="K/N: this share")
    args = parser.parse_args()

    with args.source.open(encoding="utf-8") as stream:
        key, done, _ = read(args.source, stream)
    if key is None:
        parser.error(f"{args.source} holds no sweep")
    if key.nodes is not None and args.states <= key.nodes:
        parser.error(f"--states {args.states} is not larger than the sweep's {key.nodes}")
    index, count = args.part
    mine = [c for i, c in enumerate(sorted(done, key=lambda c: c.first)) if i % count == index]
    budget = Budget(nodes=args.states, seconds=None)
    with ResultsFile.open(args.out, key.rules, args.states, None, key.chunk, key.chunk,
                          key.win_only) as out:
        todo = [c for c in mine if c not in out.done]
        undecided = sum(done[c].count(UNKNOWN) for c in todo)
        with Progress(transient=True) as progress:
            task = progress.add_task(f"{key.rules} at {args.states:,} states", total=undecided)
            for chunk in todo:
                out.record(chunk, redecided(key.rules, chunk, done[chunk], budget, key.win_only,
                                            lambda: progress.advance(task)))
        before = sum(done[c].count(UNKNOWN) for c in mine)
        after = sum(out.done[c].count(UNKNOWN) for c in mine)
    print(json.dumps({"rules": key.rules, "from_states": key.nodes, "states": args.states,
                      "chunks": len(mine), "undecided_before": before,
                      "undecided_after": after}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
