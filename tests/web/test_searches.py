"""Where the server's searches run: the pool starts its processes at once, and a
search answers the same in a worker process as in the server's own."""

from __future__ import annotations

import multiprocessing
import time

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
