"""SQLite storage: every game as deal + rules + action log, written as it is played.

One row per game in ``games`` (deal, rules, summary figures, the version the
browser acts against) and one row per action in ``actions``; a game is
rebuilt by replaying its actions through the engine, so a score is never
taken from anywhere but the engine.  Settings live in ``settings``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pyramide.game import Game, LogEntry

__all__ = ["GameRecord", "Store"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    rules TEXT NOT NULL,
    code TEXT,
    layout TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    score INTEGER NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    elapsed REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'playing',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT,
    assisted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    t REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game as it lies in the database, before replay."""

    id: int
    rules: str
    code: str | None
    layout: str
    version: int
    score: int
    moves: int
    elapsed: float
    status: str
    created_at: str
    finished_at: str | None
    log: list[list[Any]]
    assisted: bool = False

    def save_dict(self) -> dict[str, Any]:
        """The record in the save format of :mod:`pyramide.saves`."""
        return {
            "format": "pyramide-save", "version": 1, "rules": self.rules, "code": self.code,
            "layout": self.layout, "log": self.log, "elapsed": self.elapsed,
            "score": self.score, "moves": self.moves, "status": self.status,
        }


class Store:
    """The database file; safe to share between the server's threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = self._connect()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
            self._migrate()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def reopen(self) -> None:
        """A fresh connection (after a storage fault: a file that was read-only is
        opened for writing again once it can be)."""
        with self._lock:
            self._db.close()
            self._db = self._connect()

    def check(self) -> str:
        """SQLite's quick integrity check of the file: ``"ok"`` or what is wrong."""
        with self._lock:
            return str(self._db.execute("PRAGMA quick_check").fetchone()[0])

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file (on shutdown)."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _migrate(self) -> None:
        """Bring a database written by an older version up to date (adds columns)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "assisted" not in columns:
            self._db.execute(
                "ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ games

    def create_game(self, game: Game) -> int:
        now = _now()
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO games (rules, code, layout, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game.rules.letter, game.code, game.deal.layout_text(), now, now),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def record(
        self, game_id: int, game: Game, version: int, logged: int, *, assisted: bool = False,
    ) -> None:
        """Write the actions ``game.log[logged:]`` and the new summary, atomically;
        ``assisted`` marks the game as played on by the solver (for good)."""
        entries: list[LogEntry] = game.log[logged:]
        now = _now()
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO actions (game_id, seq, action, t) VALUES (?, ?, ?, ?)",
                    [(game_id, logged + i, e.action, e.t) for i, e in enumerate(entries)],
                )
                self._db.execute(
                    "UPDATE games SET version=?, score=?, moves=?, elapsed=?, status=?,"
                    " updated_at=?, finished_at=CASE WHEN ?='playing' THEN NULL"
                    " ELSE COALESCE(finished_at, ?) END, assisted=MAX(assisted, ?) WHERE id=?",
                    (version, game.score, game.moves, round(game.elapsed, 3), game.status,
                     now, game.status, now, int(assisted), game_id),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def touch_elapsed(self, game_id: int, elapsed: float) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET elapsed=MAX(elapsed, ?) WHERE id=?",
                             (round(elapsed, 3), game_id))

    def load(self, game_id: int) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, rules, code, layout, version, score, moves, elapsed, status,"
                " created_at, finished_at, assisted FROM games WHERE id=?", (game_id,),
            ).fetchone()
            if row is None:
                return None
            log = [[a, t] for a, t in self._db.execute(
                "SELECT action, t FROM actions WHERE game_id=? ORDER BY seq", (game_id,),
            )]
        (id_, rules, code, layout, version, score, moves, elapsed, status, created_at,
         finished_at, assisted) = row
        return GameRecord(id_, rules, code, layout, version, score, moves, elapsed, status,
                          created_at, finished_at, log, bool(assisted))

    def current_game_id(self) -> int | None:
        """The newest game, if it is still being played."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, status FROM games ORDER BY id DESC LIMIT 1"
            ).fetchone()
        return int(row[0]) if row is not None and row[1] == "playing" else None

    def played_games(self, rules: str) -> list[dict[str, Any]]:
        """Games of a rule set that count in statistics, oldest first.

        A game counts once it has a move; the newest game does not count while
        it is still being played (an older unfinished game counts as not won).
        """
        current = self.current_game_id()
        with self._lock:
            rows = self._db.execute(
                "SELECT id, code, score, moves, elapsed, status, finished_at, updated_at,"
                " assisted FROM games WHERE rules=? AND moves>0 AND id IS NOT ? ORDER BY id",
                (rules, current),
            ).fetchall()
        keys = ("id", "code", "score", "moves", "elapsed", "status", "finished_at", "updated_at",
                "assisted")
        return [{**dict(zip(keys, row, strict=True)), "assisted": bool(row[-1])} for row in rows]

    # --------------------------------------------------------------- settings

    def settings(self) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM settings").fetchall()
        values: dict[str, Any] = {}
        for key, value in rows:
            try:
                values[key] = json.loads(value)
            except (TypeError, ValueError, RecursionError):
                continue  # a malformed row: the default stands in for it
        return values

    def put_settings(self, values: dict[str, Any]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                [(k, json.dumps(v)) for k, v in values.items()],
            )
