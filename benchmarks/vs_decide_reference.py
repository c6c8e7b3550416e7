"""Our decide search side by side with a plain C program doing the same search.

    python benchmarks/vs_decide_reference.py [--rules N] [--deals 10000] [--start 0]

``decide_reference.c`` (next to this file) is the reduced model's search
(:meth:`pyramide.solver.reduced.ReducedModel.best`, what :func:`decide` runs under
rules N and C) written plainly in C; it is built here with ``cc -O2``.  Both take
the same deals; this prints whether they agree on every deal (``max_removed`` and
the count of states evaluated: the same search visits the same states) and the CPU
time per deal of each (mean and median, µs; deal generation and each program's
start excluded), and the ratio.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pyramide import PRESETS, Deal, Position
from pyramide.solver import decide
from pyramide.solver.reduced import pack_talon

SOURCE = Path(__file__).with_name("decide_reference.c")


def build(tmp: Path) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("no C compiler (apt-get install gcc)")
    binary = tmp / "decide_reference"
    subprocess.run([cc, "-O2", "-march=native", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="N", choices=["N", "C"])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    rules = PRESETS[args.rules]
    positions = [Position.initial(Deal.from_number(n))
                 for n in range(args.start, args.start + args.deals)]
    lines = []
    for pos in positions:
        values = " ".join(str(c.value) for c in pos.pyramid if c is not None)
        talon = pack_talon(c.value for c in pos.waste + pos.stock)
        lines.append(f"{int(rules.covering_pairs)} {values} {talon}")
    with tempfile.TemporaryDirectory() as tmp:
        binary = build(Path(tmp))
        out = subprocess.run([str(binary)], input="\n".join(lines) + "\n", text=True,
                             capture_output=True, check=True).stdout.split("\n")
    theirs = [tuple(map(int, line.split())) for line in out[: len(positions)]]
    c_total_us = float(out[len(positions)].split()[1])

    # one deal first, untimed: the C program's time leaves out its start too (loading
    # the compiled search, the first touch of its memo)
    decide(Position.initial(Deal.from_number(args.start + args.deals)), rules)
    ours: list[tuple[int, int]] = []
    times: list[float] = []
    for pos in positions:
        began = time.process_time()
        result = decide(pos, rules)
        times.append(1e6 * (time.process_time() - began))
        ours.append((result.max_removed, result.nodes))
    agree = sum(o == t for o, t in zip(ours, theirs, strict=True))
    same_best = sum(o[0] == t[0] for o, t in zip(ours, theirs, strict=True))
    our_states = sum(n for _, n in ours) / len(ours)
    c_states = sum(n for _, n in theirs) / len(theirs)
    print(f"{len(positions)} deals from {args.start}, rules {args.rules}: "
          f"same max_removed on {same_best}, and the same states on {agree} (our memo is a"
          f" cache: a state whose result was overwritten is evaluated again)")
    shown = 0
    for i, (o, t) in enumerate(zip(ours, theirs, strict=True)):
        if o[0] != t[0] and shown < 10:
            shown += 1
            print(f"  deal {args.start + i}: ours {o}, C {t}")
    mean_ours = statistics.mean(times)
    mean_c = c_total_us / len(positions)
    print(f"states per deal: ours {our_states:.1f}, C {c_states:.1f}")
    print(f"ours (decide): mean {mean_ours:.1f} µs, median {statistics.median(times):.1f} µs "
          f"per deal; {1e6 / mean_ours:,.0f} deals/s")
    print(f"C reference:   mean {mean_c:.2f} µs per deal; {1e6 / mean_c:,.0f} deals/s")
    print(f"ours / C (mean): {mean_ours / mean_c:.1f}x")


if __name__ == "__main__":
    main()
