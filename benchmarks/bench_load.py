"""Many players at once on the real server (run by hand).

Starts ``pyramide serve --hosted`` with ``--workers N`` on a fresh SQLite file
or on a PostgreSQL server the script starts itself (Debian's binaries, as the
tests do), then lets P simulated players play for a while: each is a browser
with its own player cookie and keep-alive connection, starts a game and plays
random actions (draws, taps, undos) one after another, starting a new game
when one ends.  Prints actions per second and the p50/p99 latency.

    .venv/bin/python benchmarks/bench_load.py --db postgresql --workers 4 --players 200
    .venv/bin/python benchmarks/bench_load.py --db sqlite --workers 1 --players 200
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import LiveServer
from tests.postgres import PostgresServer
from tests.web.remote import random_action


class Player(threading.Thread):
    def __init__(self, host: str, port: int, seed: int, until: float) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=60)
        self.rng = random.Random(seed)
        self.until = until
        self.cookie = ""
        self.times: list[float] = []
        self.statuses: dict[int, int] = {}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        start = time.perf_counter()
        self.conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.conn.getresponse()
        raw = response.read()
        self.times.append(time.perf_counter() - start)
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1
        given = response.getheader("set-cookie")
        if given and not self.cookie:
            self.cookie = given.split(";")[0]
        return json.loads(raw)

    def run(self) -> None:
        state = self.call("POST", "/api/games", {"random": True})
        while time.monotonic() < self.until:
            if state["status"] != "playing":
                state = self.call("POST", "/api/games", {"random": True})
                continue
            kind, card = random_action(state, self.rng)
            body: dict[str, Any] = {"version": state["version"], "type": kind}
            if card is not None:
                body["card"] = card
            answer = self.call("POST", f"/api/games/{state['id']}/actions", body)
            if "state" in answer:  # 409: another tab of the same player would see this
                state = answer["state"]
            elif "error" not in answer:
                state = answer


def measure(url: str, players: int, seconds: float) -> dict[str, Any]:
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    start = time.monotonic()
    crowd = [Player(host, int(port), seed, start + seconds) for seed in range(players)]
    for player in crowd:
        player.start()
    for player in crowd:
        player.join()
    elapsed = time.monotonic() - start
    times = sorted(t for p in crowd for t in p.times)
    statuses: dict[int, int] = {}
    for player in crowd:
        for status, count in player.statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    return {
        "players": players, "requests": len(times), "seconds": round(elapsed, 1),
        "per_second": round(len(times) / elapsed, 1),
        "p50_ms": round(statistics.median(times) * 1000, 1),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 1),
        "statuses": statuses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    os.environ.setdefault("PYRAMIDE_SECRET", "the load benchmark's secret, 40 characters")
    postgres = PostgresServer() if args.db == "postgresql" else None
    with tempfile.TemporaryDirectory() as tmp:
        db = postgres.new_database() if postgres is not None else str(Path(tmp) / "load.sqlite3")
        server = LiveServer(db, "--hosted", "--share-db", "--workers", str(args.workers))
        server.start()
        try:
            time.sleep(3)  # the workers load the solver in the background
            result = measure(server.url, args.players, args.seconds)
        finally:
            server.stop()
            if postgres is not None:
                postgres.stop()
    print(json.dumps({"db": args.db, "workers": args.workers, **result}))


if __name__ == "__main__":
    main()
