"""SIGTERM and SIGINT stop `pyramide serve` cleanly and promptly: the clocks are
saved, the write-ahead log folded into the database file."""

from __future__ import annotations

import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from tests.browser.conftest import call
from tests.conftest import LiveServer


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGTERM, 0), (signal.SIGINT, 130)])
def test_a_signal_saves_the_clock(tmp_path: Path, sig: int, status: int) -> None:
    db = tmp_path / "pyramide.sqlite3"
    server = LiveServer(db)
    server.start()
    _, state = call(server.url, "POST", "/api/games", {"code": "PY1-N-AAAAAAS"})
    _, state = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                    {"version": 0, "type": "stock"})
    time.sleep(1.5)  # the clock runs: no action is written meanwhile
    began = time.monotonic()
    assert server.stop(sig) == status
    assert time.monotonic() - began < 5, "the server takes its time to stop"
    assert any("games are saved" in line for line in server.output), server.output
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # folded into the file
    with closing(sqlite3.connect(db)) as check:
        saved = check.execute("SELECT elapsed FROM games").fetchone()[0]
    assert 1.4 <= saved < 10

    server.start()
    try:
        _, again = call(server.url, "GET", "/api/games/current")
        assert again["elapsed"] == pytest.approx(saved, abs=0.05)
        assert again["clock_running"] is False  # until the next action
    finally:
        server.stop()
