"""The game flow's flags in safety's storage: schema step 3, per-player flags,
and statistics that see a flag set without a new version."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from starlette.testclient import TestClient

from pyramide.web.schema import _STEP_1, _STEP_2, SCHEMA_VERSION
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.web.test_api import act, new_game
from tests.web.test_players import browser

SQLITE_TYPES = {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "float": "REAL"}
GAME = ("INSERT INTO games (rules, code, layout, created_at, updated_at)"
        " VALUES ('N', 'PY1-N-AAAAAAS', 'x', 't', 't')")


def make_file(db_path: Path, *scripts: str) -> None:
    with closing(sqlite3.connect(db_path)) as db:
        for script in scripts:
            db.executescript(script)
        db.commit()


def columns_and_version(db_path: Path) -> tuple[list[tuple[object, ...]], int]:
    with closing(sqlite3.connect(db_path)) as db:
        rows = db.execute("SELECT id, player, hints, daily FROM games").fetchall()
        version = db.execute("SELECT version FROM schema_version").fetchone()[0]
    return rows, version


def test_step_3_adds_hints_and_daily_to_a_step_2_file(db_path: Path) -> None:
    make_file(db_path, _STEP_1.format(**SQLITE_TYPES), GAME + ";",
              _STEP_2.format(**SQLITE_TYPES) + ";",
              "CREATE TABLE schema_version (version INTEGER NOT NULL);"
              " INSERT INTO schema_version VALUES (2);")
    Store(db_path).close()
    assert columns_and_version(db_path) == ([(1, "local", 0, None)], SCHEMA_VERSION)
    assert SCHEMA_VERSION == 3


def test_a_file_of_the_early_flow_builds_keeps_its_flags(db_path: Path) -> None:
    make_file(db_path, _STEP_1.format(**SQLITE_TYPES),
              "ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"
              " ALTER TABLE games ADD COLUMN daily TEXT;",
              GAME.replace("updated_at)", "updated_at, hints, daily)")
              .replace("'t')", "'t', 2, '2026-11-30')") + ";")
    Store(db_path).close()
    assert columns_and_version(db_path) == ([(1, "local", 2, "2026-11-30")], SCHEMA_VERSION)


def test_flags_history_and_daily_belong_to_the_player(db_path: Path) -> None:
    store = Store(db_path)
    try:
        service = GameService(store)
        alice, bob = browser(service), browser(service)
        alice.get("/")
        bob.get("/")
        daily = act(alice, new_game(alice, daily=True), "stock")
        assert alice.get(f"/api/games/{daily['id']}/hint").status_code == 200
        assert alice.get("/api/daily").json()["played"] is True
        assert bob.get("/api/daily").json()["played"] is False
        rules = daily["rules"]["letter"]
        mine = alice.get(f"/api/history?rules={rules}").json()
        assert [(g["id"], g["hints"], g["daily"] is not None) for g in mine["games"]] == [
            (daily["id"], 1, True)]
        assert bob.get(f"/api/history?rules={rules}").json()["total"] == 0
        assert bob.get(f"/api/games/{daily['id']}/hint").status_code == 404
    finally:
        store.close()


def test_statistics_see_the_solution_opened_without_a_new_version(client: TestClient) -> None:
    first = act(client, new_game(client, code="PY1-N-AAAAAAS"), "stock")
    assert client.get("/api/stats?rules=N").json()["assisted"] == 0  # replayed and kept
    assert client.get(f"/api/games/{first['id']}/solution").status_code == 200
    assert client.get(f"/api/games/{first['id']}").json()["version"] == first["version"]
    new_game(client, code="PY1-N-AAAAAAB")  # the first game now counts
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["played"], stats["assisted"], stats["abandoned"]) == (1, 1, 1)
