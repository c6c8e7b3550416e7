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


_KEYS = ("id", "code", "score", "moves", "elapsed", "status", "finished_at", "updated_at",
         "assisted", "hints", "daily")
_SUMMARY = ", ".join(_KEYS)


def _summary(row: tuple[Any, ...]) -> dict[str, Any]:
    game = dict(zip(_KEYS, row, strict=True))
    game["assisted"] = bool(game["assisted"])
    return game


class Store:
    """The database file; safe to share between the server's threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            self._migrate()

    def _migrate(self) -> None:
        """Bring a database written by an older version up to date (adds columns)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for column, kind in (("assisted", "INTEGER NOT NULL DEFAULT 0"),
                             ("hints", "INTEGER NOT NULL DEFAULT 0"), ("daily", "TEXT")):
            if column not in columns:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")

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

    def mark_assisted(self, game_id: int) -> None:
        """The player saw the solver's solution of this game (for good)."""
        with self._lock:
            self._db.execute("UPDATE games SET assisted=1 WHERE id=?", (game_id,))

    def count_hint(self, game_id: int) -> None:
        """One more hint was given in this game."""
        with self._lock:
            self._db.execute("UPDATE games SET hints=hints+1 WHERE id=?", (game_id,))

    def mark_daily(self, game_id: int, day: str) -> None:
        """The game is the daily deal of ``day`` (ISO date)."""
        with self._lock:
            self._db.execute("UPDATE games SET daily=? WHERE id=?", (day, game_id))

    def daily_results(self, day: str) -> dict[str, bool]:
        """Whether the daily deal of ``day`` was started (a move made) and won."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), COALESCE(MAX(status='won'), 0) FROM games"
                " WHERE daily=? AND moves>0", (day,)).fetchone()
        return {"played": bool(row[0]), "won": bool(row[1])}

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
                f"SELECT {_SUMMARY} FROM games WHERE rules=? AND moves>0 AND id IS NOT ?"
                " ORDER BY id", (rules, current),
            ).fetchall()
        return [_summary(row) for row in rows]

    def history(self, rules: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """Games of a rule set with at least one move, newest first: the total and
        ``limit`` of them from ``offset`` (the game in progress included)."""
        with self._lock:
            total = self._db.execute(
                "SELECT COUNT(*) FROM games WHERE rules=? AND moves>0", (rules,)).fetchone()[0]
            rows = self._db.execute(
                f"SELECT {_SUMMARY} FROM games WHERE rules=? AND moves>0"
                " ORDER BY id DESC LIMIT ? OFFSET ?", (rules, limit, offset),
            ).fetchall()
        return int(total), [_summary(row) for row in rows]

    # --------------------------------------------------------------- settings

    def settings(self) -> dict[str, Any]:
        with self._lock:
            rows = self._db.execute("SELECT key, value FROM settings").fetchall()
        return {key: json.loads(value) for key, value in rows}

    def put_settings(self, values: dict[str, Any]) -> None:
        with self._lock:
            self._db.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?)"
                " ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                [(k, json.dumps(v)) for k, v in values.items()],
            )
