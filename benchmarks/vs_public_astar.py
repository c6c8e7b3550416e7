"""Side by side with the public optimal solver for Microsoft's Pyramid (a Common Lisp A*).

    python benchmarks/vs_public_astar.py /path/to/pyramid-solver [--decks 200] [--skip 0]

The path is a local checkout of the public solver (mchung94/pyramid-solver; never
vendored here).  It is built from source with SBCL (``apt-get install sbcl``; it
needs only ASDF/UIOP, which SBCL ships), then both solvers take the same decks under
Microsoft's rules (rule set M: pyramid-only win, two recycles, the stock's top card
open, the 24 talon cards in the stock and no waste at the start) and this prints
whether they agree (winnable, and the length of the shortest line), and the CPU time
of each per deck: total, median, p95, worst, and the ratio ours / theirs.

Decks: the public solver's own file of random decks (``resources/random-decks.txt``:
52 cards, the 28 of the pyramid row by row, then the stock from the top), the first
``--decks`` after ``--skip``.  Their times are measured inside one SBCL process (CPU
time of each ``solve`` call, after a warm-up deck); ours inside this process (CPU
time of each ``solve_position``, the compiled code loaded before).  Our budget is
``--nodes`` states for the compiled decide and shortest-line searches
(deterministic; 0 for none), wall time ``--seconds`` only as a guard; a deck we
do not prove counts as a disagreement.
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

from pyramide import PRESETS
from pyramide.cards import Card
from pyramide.game import Position
from pyramide.solver import solve_position
from pyramide.solver.budget import Budgets

SLOTS = 28

DRIVER = """
(require "asdf")
(push #p"{root}/" asdf:*central-registry*)
(let ((*standard-output* (make-broadcast-stream)) (*error-output* (make-broadcast-stream)))
  (asdf:load-system "pyramid-solver"))
(defun timed (line)
  (let* ((deck (ps:string->card-list line))
         (start (get-internal-run-time))
         (solution (ps:solve deck))
         (spent (- (get-internal-run-time) start)))
    (format t "~D ~,3F~%" (if solution (length solution) -1)
            (/ (* 1000.0d0 spent) internal-time-units-per-second))
    (finish-output)))
(with-open-file (in "{decks}")
  (let ((first t))
    (loop for line = (read-line in nil) while line
          do (when first (ps:solve (ps:string->card-list line)) (setf first nil))
             (timed line))))
(uiop:quit 0)
"""


def their_times(root: Path, decks: list[str]) -> list[tuple[int, float]]:
    """(moves or -1 for no solution, CPU ms) of each deck, from one SBCL process."""
    sbcl = shutil.which("sbcl")
    if sbcl is None:
        sys.exit("sbcl not found: apt-get install -y sbcl")
    with tempfile.TemporaryDirectory() as tmp:
        deck_file = Path(tmp) / "decks.txt"
        deck_file.write_text("\n".join(decks) + "\n")
        driver = Path(tmp) / "driver.lisp"
        driver.write_text(DRIVER.replace("{root}", str(root.resolve()))
                          .replace("{decks}", str(deck_file)))
        out = subprocess.run([sbcl, "--dynamic-space-size", "8192", "--non-interactive",
                              "--no-userinit", "--load", str(driver)],
                             capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines() if line.strip()]
    return [(int(moves), float(ms)) for moves, ms in rows[-len(decks):]]


def position_of(deck: str) -> Position:
    cards = [Card.parse(token) for token in deck.split()]
    if len(cards) != 52 or len(set(cards)) != 52:
        raise ValueError(f"not a 52-card deck: {deck!r}")
    return Position(tuple(cards[:SLOTS]), tuple(cards[SLOTS:]), (), ())


def our_times(decks: list[str], budget: Budgets) -> list[tuple[int, float, bool]]:
    """(moves or -1 when lost, CPU ms, proven) of each deck."""
    rules = PRESETS["M"]
    solve_position(position_of(decks[0]), rules, budget=budget, shortest=True)  # warm-up
    out = []
    for deck in decks:
        start = time.process_time()
        result = solve_position(position_of(deck), rules, budget=budget, shortest=True)
        spent = 1000 * (time.process_time() - start)
        moves = len(result.moves) if result.winnable else -1
        out.append((moves, spent, result.shortest or result.winnable is False))
    return out


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"total {sum(times) / 1000:8.2f} s  median {statistics.median(times):8.1f} ms  "
            f"p95 {p95:8.1f} ms  worst {ordered[-1]:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path, help="a checkout of mchung94/pyramid-solver")
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--skip", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=0, help="our state budget (0: none)")
    parser.add_argument("--seconds", type=float, default=120.0, help="our wall-time guard")
    args = parser.parse_args()
    lines = (args.root / "resources" / "random-decks.txt").read_text().splitlines()
    decks = [line.strip() for line in lines if line.strip()][args.skip:args.skip + args.decks]
    # the compiled searches (every deck the game can win) get --nodes states; a lost
    # deck's shortest line to the most cards removable (the game's classic full
    # search, not asked of the public solver) only a token 2,000
    budget = Budgets(compiled=750_000, full=2_000, kernel=2_000,
                     seconds=args.seconds or None, family=args.nodes or None)
    ours = our_times(decks, budget)
    theirs = their_times(args.root, decks)
    agree = sum(o[0] == t[0] and o[2] for o, t in zip(ours, theirs, strict=True))
    print(f"{len(decks)} decks (random-decks.txt from {args.skip}), Microsoft's rules")
    print(f"agreement (winnable and shortest length): {agree}/{len(decks)}")
    for i, (o, t) in enumerate(zip(ours, theirs, strict=True)):
        if o[0] != t[0] or not o[2]:
            print(f"  deck {args.skip + i}: ours {o[0]} (proven {o[2]}), theirs {t[0]}")
    our_ms = [o[1] for o in ours]
    their_ms = [t[1] for t in theirs]
    print(f"ours   {figures(our_ms)}")
    print(f"theirs {figures(their_ms)}")
    ratio = [o / max(t, 1e-3) for o, t in zip(our_ms, their_ms, strict=True)]
    print(f"ours/theirs: total {sum(our_ms) / sum(their_ms):.2f}  "
          f"median of times {statistics.median(our_ms) / statistics.median(their_ms):.2f}  "
          f"median of per-deck ratios {statistics.median(ratio):.2f}")


if __name__ == "__main__":
    main()
