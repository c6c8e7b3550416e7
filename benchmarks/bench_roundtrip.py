"""Action round trip of the browser game over loopback (run by hand).

Starts the real server (`pyramide serve`) on a fresh database, then plays
1,000 actions over HTTP one after another — draws, recycles and taps on the
free cards — and prints the median and p99 round trip in milliseconds.

    .venv/bin/python benchmarks/bench_roundtrip.py [--actions 1000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import LiveServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "bench.sqlite3")
        server.start()
        try:
            times = run(server.url, args.actions)
        finally:
            server.stop()
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"actions: {len(times)}")
    print(f"round trip median: {statistics.median(times):.2f} ms")
    print(f"round trip p99:    {p99:.2f} ms")
    print(f"round trip max:    {times[-1]:.2f} ms")


def run(url: str, count: int) -> list[float]:
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port))
    conn.connect()
    assert conn.sock is not None
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as browsers do

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        payload = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, payload, {"content-type": "application/json"})
        response = conn.getresponse()
        data: dict[str, Any] = json.loads(response.read())
        if response.status >= 400 and response.status != 409:
            raise RuntimeError(f"{method} {path}: {response.status} {data}")
        return data

    times: list[float] = []
    number = 0
    state = call("POST", "/api/games", {"code": f"PY1-N-{'A' * 7}"})
    while len(times) < count:
        if state["status"] != "playing":
            number += 1
            letters = "".join(chr(65 + (number // 26**k) % 26) for k in reversed(range(7)))
            state = call("POST", "/api/games", {"code": f"PY1-N-{letters}"})
        tappable = [c for c in state["tappable"] if c != state["selection"]]
        step = len(times) % 3
        if step == 0 or not tappable:
            body = {"version": state["version"], "type": "stock"}
        else:
            card = tappable[step % len(tappable)]
            body = {"version": state["version"], "type": "tap", "card": card}
        start = time.perf_counter()
        state = call("POST", f"/api/games/{state['id']}/actions", body)
        times.append((time.perf_counter() - start) * 1000)
    return times


if __name__ == "__main__":
    main()
