"""Other games' actions while a slow solution search runs (run by hand).

Starts the real server (one process) on a fresh SQLite file.  A few players
act on their own games one action after another; first alone (baseline), then
while another game asks for its solution again and again (a draw between two
asks, so every ask searches anew: some 1.5 s each on PY1-M-AAAAAAD, the
search's budget).  Prints p50/p99 of the other games' actions in both phases:
with the solver outside any lock they stay close, where a global lock made
them wait for the whole search.

    .venv/bin/python benchmarks/bench_solver_lock.py [--seconds 20] [--players 4]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import LiveServer
from tests.web.remote import Remote, random_action

SLOW_DEAL = "PY1-M-AAAAAAD"


def play(url: str, seed: int, until: float, times: list[float]) -> None:
    remote, rng = Remote(url), random.Random(seed)
    state = remote.call("/api/games", {"random": True})[1]
    while time.monotonic() < until:
        if state["status"] != "playing":
            state = remote.call("/api/games", {"random": True})[1]
        kind, card = random_action(state, rng)
        start = time.perf_counter()
        status, answer = remote.act(state, kind, card)
        times.append(time.perf_counter() - start)
        state = answer if status == 200 else remote.call(f"/api/games/{state['id']}")[1]


def ask_solutions(url: str, until: float, searches: list[float]) -> None:
    remote = Remote(url)
    state = remote.call("/api/games", {"code": SLOW_DEAL})[1]
    while time.monotonic() < until:
        start = time.perf_counter()
        remote.call(f"/api/games/{state['id']}/solution", timeout=60)
        searches.append(time.perf_counter() - start)
        status, state = remote.act(state, "stock")
        if status != 200 or state["status"] != "playing":
            state = remote.call("/api/games", {"code": SLOW_DEAL})[1]


def phase(url: str, players: int, seconds: float, slow: bool) -> dict[str, float]:
    until = time.monotonic() + seconds
    times: list[float] = []
    searches: list[float] = []
    threads = [threading.Thread(target=play, args=(url, seed, until, times))
               for seed in range(players)]
    if slow:
        threads.append(threading.Thread(target=ask_solutions, args=(url, until, searches)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    times.sort()
    result = {"actions": len(times), "p50_ms": round(statistics.median(times) * 1000, 1),
              "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 1),
              "max_ms": round(times[-1] * 1000, 1)}
    if slow:
        result |= {"searches": len(searches),
                   "search_mean_s": round(statistics.mean(searches), 2) if searches else 0.0}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "bench.sqlite3", "--share-db")
        server.start()
        try:
            warm = Remote(server.url)  # start the solver processes before measuring
            state = warm.call("/api/games", {"code": SLOW_DEAL})[1]
            warm.call(f"/api/games/{state['id']}/solution", timeout=300)
            baseline = phase(server.url, args.players, args.seconds, slow=False)
            during = phase(server.url, args.players, args.seconds, slow=True)
        finally:
            server.stop()
    print(json.dumps({"baseline": baseline, "during_solution_searches": during}))


if __name__ == "__main__":
    main()
