"""Start-up: how long a whole ``pyramide solve CODE --json`` takes, and how soon after
``pyramide serve`` starts its first Solution comes.

    python benchmarks/bench_startup.py [--runs 5] [--code PY1-N-AAAAAAB]

Prints, over ``--runs`` runs, the median and worst wall time and CPU time (user +
system, of the child process) of the command, then the same for the server: from
launching the process to the answer of ``GET /api/games/{id}/solution`` on a new
game (the server's own start-up included).  Says whether the search built ahead of
time is in use (``pyramide.solver.aot``; else numba's cache serves).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

URL_LINE = re.compile(r"running at (http://\S+?)/?$")


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def solve_once(code: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``pyramide solve CODE --json``."""
    cpu, wall = child_cpu(), time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "pyramide.cli", "solve", code, "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["moves"], out
    return time.perf_counter() - wall, child_cpu() - cpu


def request(url: str, body: dict[str, object] | None = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as response:
        result: dict[str, object] = json.loads(response.read())
        return result


def serve_once(code: str) -> tuple[float, float]:
    """(seconds from launch to the server's first Solution, of which the Solution
    request itself)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        began = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "pyramide.cli", "serve", "--port", "0", "--db",
             str(Path(tmp) / "bench.sqlite3"), "--no-browser"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        try:
            assert process.stdout is not None
            url = ""
            for line in process.stdout:
                match = URL_LINE.search(line.strip())
                if match:
                    url = match.group(1)
                    break
            game = request(f"{url}/api/games", {"code": code})
            asked = time.perf_counter()
            solution = request(f"{url}/api/games/{game['id']}/solution")
            done = time.perf_counter()
            assert solution["moves"], solution
            return done - began, done - asked
        finally:
            process.terminate()
            process.wait(timeout=30)


def show(name: str, values: list[float]) -> str:
    return f"{name} median {1000 * statistics.median(values):7.0f} ms, worst " \
           f"{1000 * max(values):7.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", default="PY1-N-AAAAAAB")
    args = parser.parse_args()
    from pyramide.solver import compiled

    print(f"search built ahead of time: {compiled.AOT is not None}; "
          f"load average {os.getloadavg()[0]:.1f}")
    solves = [solve_once(args.code) for _ in range(args.runs)]
    print(f"pyramide solve {args.code} --json: "
          f"{show('wall', [w for w, _ in solves])}; {show('CPU', [c for _, c in solves])}")
    serves = [serve_once(args.code) for _ in range(args.runs)]
    print(f"server, launch to first Solution: {show('', [a for a, _ in serves])}; "
          f"the Solution request alone: {show('', [b for _, b in serves])}")


if __name__ == "__main__":
    main()
