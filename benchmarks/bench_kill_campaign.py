"""The kill -9 campaign at length (run by hand; the tests run 20 cycles).

A real server on a fresh SQLite file is played by a random player and killed
with SIGKILL at a random moment, then restarted, CYCLES times; after each
restart every acknowledged action must still be stored.  Prints the counts.

    .venv/bin/python benchmarks/bench_kill_campaign.py [--cycles 200] [--seed 0] [--pause 0.05 0.4]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web.remote import run_campaign


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pause", type=float, nargs=2, default=(0.05, 0.4),
                        metavar=("MIN", "MAX"),
                        help="seconds of play before each kill, drawn between MIN and MAX")
    args = parser.parse_args()
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        result = run_campaign(Path(tmp) / "campaign.sqlite3", args.cycles, args.seed,
                              pause=tuple(args.pause))
    print(json.dumps({
        "cycles": result.cycles, "acknowledged_actions": result.acknowledged,
        "games": result.games, "checks_after_restart": result.checked,
        "lost": len(result.lost), "seconds": round(time.monotonic() - start),
    }))
    for problem in result.lost:
        print("LOST:", problem)
    sys.exit(1 if result.lost else 0)


if __name__ == "__main__":
    main()
