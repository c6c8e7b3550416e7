"""Statistics come from the replayed action logs: editing the database's summary
columns changes no figure."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.web.conftest import FakeClock
from tests.web.test_api import act, new_game


def edit(db_path: Path, sql: str) -> None:
    with closing(sqlite3.connect(db_path)) as db:
        db.execute(sql)
        db.commit()


def fresh_stats(db_path: Path) -> dict[str, object]:
    """The statistics as a new server process computes them (no replay kept)."""
    store = Store(db_path)
    try:
        stats: dict[str, object] = TestClient(
            create_app(GameService(store, FakeClock())), base_url="http://127.0.0.1").get("/api/stats?rules=N").json()
    finally:
        store.close()
    return stats


def test_a_hand_made_win_adds_nothing(client: TestClient, db_path: Path) -> None:
    state = act(client, new_game(client, code="PY1-N-AAAAAAS"), "stock")
    new_game(client, code="PY1-N-AAAAAAB")  # the first game is no longer current
    before = client.get("/api/stats?rules=N").json()
    assert (before["played"], before["won"], before["abandoned"]) == (1, 0, 1)
    edit(db_path, f"UPDATE games SET status='won', score=280, moves=1, elapsed=1"
                  f" WHERE id={state['id']}")
    after = fresh_stats(db_path)
    assert after == before
    edit(db_path, "UPDATE games SET status='lost'")  # the current game: still playing
    assert fresh_stats(db_path)["played"] == 1


def test_a_log_that_does_not_replay_counts_nowhere(client: TestClient, db_path: Path) -> None:
    first = act(client, new_game(client, code="PY1-N-AAAAAAS"), "stock")
    second = act(client, new_game(client, code="PY1-N-AAAAAAB"), "stock")
    new_game(client, code="PY1-N-AAAAAAC")
    assert client.get("/api/stats?rules=N").json()["played"] == 2
    edit(db_path, f"UPDATE actions SET action='KS' WHERE game_id={first['id']}")
    stats = fresh_stats(db_path)
    assert (stats["played"], stats["abandoned"]) == (1, 1)
    assert second["moves"] == 1


def test_the_solvers_moves_mark_the_game_even_if_the_flag_is_edited(
        client: TestClient, db_path: Path) -> None:
    state = act(client, new_game(client, code="PY1-N-AAAAAAS"), "solution")
    new_game(client, code="PY1-N-AAAAAAB")
    edit(db_path, f"UPDATE games SET assisted=0 WHERE id={state['id']}")
    stats = fresh_stats(db_path)
    assert (stats["played"], stats["best_games"], stats["scores"]) == (1, [], [])
