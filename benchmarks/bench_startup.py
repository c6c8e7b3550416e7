"""Start-up: how long a whole ``pyramide solve CODE --json`` takes, and how soon after
``pyramide serve`` starts its first Solution comes.

    python benchmarks/bench_startup.py [--runs 10] [--codes PY1-N-AAAAAAB PY1-G-AAAAAAB]
                                       [--serve-runs 5]

Prints, over ``--runs`` runs of each deal code, the median and worst wall time and
CPU time (user + system, of the child process) of the whole command (the installed
``pyramide`` script, with Python's bytecode cache as an installed package has it,
after one run to fill it), then for the server: from launching ``pyramide serve``
to its first line (it listens), to the answer of ``POST /api/games``, and to the
answer of ``GET /api/games/{id}/solution`` on that game, and the Solution request
alone.  Says whether the search built ahead of time is in use
(``pyramide.solver.aot``; else numba's cache serves) and the load average.
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


PYRAMIDE = [str(Path(sys.executable).with_name("pyramide"))]
"""The installed command (as a player runs it)."""
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""As installed: Python keeps the compiled bytecode of the modules."""


def solve_once(code: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``pyramide solve CODE --json``."""
    cpu, wall = child_cpu(), time.perf_counter()
    out = subprocess.run([*PYRAMIDE, "solve", code, "--json"], env=ENV,
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["moves"], out
    return time.perf_counter() - wall, child_cpu() - cpu


def request(url: str, body: dict[str, object] | None = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as response:
        result: dict[str, object] = json.loads(response.read())
        return result


def serve_once(code: str) -> tuple[float, float, float, float]:
    """Seconds from launch to the server's first line, to its first game, to its first
    Solution, and of the Solution request alone."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**ENV, "PYTHONUNBUFFERED": "1"}
        began = time.perf_counter()
        process = subprocess.Popen(
            [*PYRAMIDE, "serve", "--port", "0", "--db",
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
            listening = time.perf_counter()
            game = request(f"{url}/api/games", {"code": code})
            asked = time.perf_counter()
            solution = request(f"{url}/api/games/{game['id']}/solution")
            done = time.perf_counter()
            assert solution["moves"], solution
            return listening - began, asked - began, done - began, done - asked
        finally:
            process.terminate()
            process.wait(timeout=30)


def show(name: str, values: list[float]) -> str:
    return f"{name} median {1000 * statistics.median(values):7.0f} ms, worst " \
           f"{1000 * max(values):7.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--serve-runs", type=int, default=5)
    parser.add_argument("--codes", nargs="+", default=["PY1-N-AAAAAAB", "PY1-G-AAAAAAB"])
    args = parser.parse_args()
    from pyramide.solver import compiled

    print(f"search built ahead of time: {compiled.AOT is not None}; "
          f"load average {os.getloadavg()[0]:.1f}")
    for code in args.codes:
        solve_once(code)  # fills the bytecode cache
        solves = [solve_once(code) for _ in range(args.runs)]
        print(f"pyramide solve {code} --json: "
              f"{show('wall', [w for w, _ in solves])}; {show('CPU', [c for _, c in solves])}",
              flush=True)
    code = args.codes[0]
    serves = [serve_once(code) for _ in range(args.serve_runs)]
    for i, what in enumerate(("listening", "first game", "first Solution answered",
                              "the Solution request alone")):
        print(f"server {code}, {what}: {show('', [run[i] for run in serves])}", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
