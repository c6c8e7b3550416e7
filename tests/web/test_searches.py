"""Where the server's searches run: the pool starts its processes at once, and a
search answers the same in a worker process as in the server's own."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from pyramide.game import Game
from pyramide.web.searches import InProcess, SearchPool


def test_warm_pool_starts_its_process_before_any_search() -> None:
    before = {p.pid for p in multiprocessing.active_children()}
    pool = SearchPool(1)
    try:
        pool.warm()
        deadline = time.monotonic() + 60
        started: set[int | None] = set()
        while not started and time.monotonic() < deadline:
            started = {p.pid for p in multiprocessing.active_children()} - before
            time.sleep(0.05)
        assert len(started) == 1  # started by warm(), before any search was asked
        game = Game.from_code("PY1-N-AAAABLC")  # deal 964: 2,000 states prove nothing
        there = pool.run(game.position, game.rules, game.deal, shortest=True, states=2_000)
        here = InProcess().run(game.position, game.rules, game.deal, shortest=True,
                               states=2_000)
        assert (there.moves, there.shortest, there.nodes) == (here.moves, here.shortest,
                                                              here.nodes)
        assert there.nodes == 2_000 and not there.shortest
    finally:
        pool.close()


SERVER = """
import multiprocessing, os, signal, sys, time
from pyramide.web.searches import SearchPool

if __name__ == "__main__":
    before = {p.pid for p in multiprocessing.active_children()}
    pool = SearchPool(1)
    pool.warm()
    while not {p.pid for p in multiprocessing.active_children()} - before:
        time.sleep(0.05)
    (worker,) = {p.pid for p in multiprocessing.active_children()} - before
    print(worker, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the server killed outright: no clean-up at all
"""


def test_workers_leave_with_a_server_killed_outright(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == -signal.SIGKILL
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 30
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(worker)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[1].startswith("Z"))
