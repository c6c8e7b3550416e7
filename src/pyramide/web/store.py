"""Storage: every game as deal + rules + action log, written as it is played.

One row per game in ``games`` (its player, deal, rules, summary figures, the
selection and the version the browser acts against) and one row per action in
``actions``; a game is rebuilt by replaying its actions through the engine,
so a score is never taken from anywhere but the engine.  Settings are kept per
player.  The same code serves an embedded SQLite file and a PostgreSQL server
(SQLAlchemy Core; the schema and its migration in :mod:`pyramide.web.schema`).

The database is the only authority: :meth:`Store.append` writes an action
only if the game is still at the version it was computed from (a conditional
update of ``games.version`` and the key ``(game_id, seq)`` in one
transaction), so any number of server processes stay consistent.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    String,
    Update,
    bindparam,
    case,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from pyramide.game import Game, LogEntry
from pyramide.web.schema import LOCAL_PLAYER, actions, games, migrate, settings

__all__ = [
    "LOCAL_PLAYER", "ConflictError", "GameRecord", "Stamp", "Store", "StoreClosedError",
    "StoredLog", "database_url",
]

BUSY_TIMEOUT = 15.0
"""Seconds a SQLite writer waits for another process's transaction."""


class ConflictError(Exception):
    """The game is no longer at the version the action was computed from."""


class StoreClosedError(RuntimeError):
    """The store was closed."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def database_url(db: Path | str) -> str:
    """The SQLAlchemy URL of ``db``: a ``postgresql://`` URL (driven by psycopg 3) or
    the path of a SQLite file."""
    text = str(db)
    for prefix in ("postgresql://", "postgres://", "postgresql+psycopg://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix):]
    return f"sqlite+pysqlite:///{text}"


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
    selection: str | None = None
    logged: int | None = None

    def save_dict(self) -> dict[str, Any]:
        """The record in the save format of :mod:`pyramide.saves`."""
        return {
            "format": "pyramide-save", "version": 1, "rules": self.rules, "code": self.code,
            "layout": self.layout, "log": self.log, "elapsed": self.elapsed,
            "score": self.score, "moves": self.moves, "status": self.status,
        }


Stamp = tuple[int, int, int, str | None]
"""A game's version and the flags the server sets without a new version
(assisted, hints, daily): what a replay kept in memory is valid for."""


@dataclass(frozen=True, slots=True)
class StoredLog:
    """What statistics need of a game: its deal, rules and actions (no summary)."""

    id: int
    version: int
    rules: str
    code: str | None
    layout: str
    finished_at: str | None
    updated_at: str
    assisted: bool
    log: list[list[Any]]
    hints: int = 0
    daily: str | None = None
    stamp: Stamp = (0, 0, 0, None)


class Store:
    """The database; safe to share between threads, processes and hosts."""

    def __init__(self, db: Path | str) -> None:
        self.url = database_url(db)
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            path = Path(str(db))
            if str(db) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
            self.path: Path | None = path
            # autocommit at the driver: the transactions below say BEGIN themselves
            self.engine: Engine = create_engine(
                self.url, isolation_level="AUTOCOMMIT",
                connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            self.path = None
            self.engine = create_engine(self.url, pool_size=8, max_overflow=8,
                                        pool_pre_ping=True)
        self._closed = False
        self._advance = _advance(func.max if self.sqlite else func.greatest)
        with self._writing() as conn:
            migrate(conn)

    def close(self) -> None:
        self._closed = True
        self.engine.dispose()

    def reopen(self) -> None:
        """Fresh connections (after a storage fault: a file that was read-only is
        opened for writing again once it can be)."""
        self.engine.dispose()

    def check(self) -> str:
        """The database's quick integrity check: ``"ok"`` or what is wrong."""
        if not self.sqlite:
            return "ok"
        with self._connection() as conn:
            return str(conn.exec_driver_sql("PRAGMA quick_check").scalar())

    def checkpoint(self) -> None:
        """Fold SQLite's write-ahead log into the database file (on shutdown)."""
        if self.sqlite:
            with self._connection() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    # ------------------------------------------------------------ transactions

    def _connection(self) -> Connection:
        if self._closed:
            raise StoreClosedError("the database is closed")
        return self.engine.connect()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction: SQLite takes its write lock at once (``BEGIN
        IMMEDIATE``, waiting up to :data:`BUSY_TIMEOUT` for other processes)."""
        with self._connection() as conn:
            if self.sqlite:
                conn.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield conn
                except BaseException:
                    conn.exec_driver_sql("ROLLBACK")
                    raise
                conn.exec_driver_sql("COMMIT")
            else:
                with conn.begin():
                    yield conn

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A read transaction that sees one committed state throughout."""
        with self._connection() as conn:
            if self.sqlite:
                conn.exec_driver_sql("BEGIN")
                try:
                    yield conn
                finally:
                    conn.exec_driver_sql("ROLLBACK")
            else:
                snapshot = conn.execution_options(isolation_level="REPEATABLE READ")
                with snapshot.begin():
                    yield snapshot

    # ------------------------------------------------------------------ games

    def create_game(self, player: str, game: Game) -> int:
        now = _now()
        with self._writing() as conn:
            game_id = conn.execute(insert(games).values(
                player=player, rules=game.rules.letter, code=game.code,
                layout=game.deal.layout_text(), version=0, logged=0, score=0, moves=0,
                elapsed=0.0, status="playing", created_at=now, updated_at=now, assisted=0,
                hints=0,
            ).returning(games.c.id)).scalar_one()
        return int(game_id)

    def version(self, player: str, game_id: int) -> int | None:
        """The stored version of the player's game (``None``: no such game)."""
        with self._connection() as conn:
            found = conn.execute(_VERSION, {"b_id": game_id, "b_player": player}
                                 ).scalar_one_or_none()
        return None if found is None else int(found)

    def append(
        self, player: str, game_id: int, expected: int, game: Game, version: int, logged: int,
        *, assisted: bool = False, solver: bool = False,
    ) -> None:
        """Write the actions ``game.log[logged:]``, the selection and the new summary
        as ``version``, if the stored game is still at ``expected``; else
        :class:`ConflictError` and nothing is written.  ``assisted`` marks the game
        as played on by the solver (for good); ``solver`` marks these actions so."""
        entries: list[LogEntry] = game.log[logged:]
        now = _now()
        finished = None if game.status == "playing" else now
        with self._writing() as conn:
            changed = conn.execute(self._advance, {
                "b_id": game_id, "b_player": player, "b_expected": expected,
                "b_version": version, "b_logged": len(game.log),
                "b_selection": game.selection.code if game.selection is not None else None,
                "b_score": game.score, "b_moves": game.moves,
                "b_elapsed": round(game.elapsed, 3), "b_status": game.status, "b_now": now,
                "b_finished": finished, "b_assisted": int(assisted),
            }).rowcount
            if changed != 1:
                raise ConflictError(f"game {game_id} is no longer at version {expected}")
            if entries:
                try:
                    conn.execute(_INSERT_ACTIONS, [
                        {"game_id": game_id, "seq": logged + i, "action": e.action, "t": e.t,
                         "version": version, "solver": int(solver)}
                        for i, e in enumerate(entries)
                    ])
                except IntegrityError:
                    raise ConflictError(f"game {game_id}: actions from {logged} exist") from None

    def touch_elapsed(self, player: str, game_id: int, elapsed: float) -> None:
        with self._writing() as conn:
            conn.execute(update(games).where(
                games.c.id == game_id, games.c.player == player,
                games.c.elapsed < round(elapsed, 3),
            ).values(elapsed=round(elapsed, 3)))

    # ------------------------------------------------ flags the server sets

    def mark_assisted(self, player: str, game_id: int) -> None:
        """The player saw the solver's solution of this game (for good)."""
        self._flag(player, game_id, assisted=1)

    def count_hint(self, player: str, game_id: int) -> None:
        """One more hint was given in this game."""
        self._flag(player, game_id, hints=games.c.hints + 1)

    def mark_daily(self, player: str, game_id: int, day: str) -> None:
        """The game is the daily deal of ``day`` (ISO date)."""
        self._flag(player, game_id, daily=day)

    def _flag(self, player: str, game_id: int, **values: Any) -> None:
        """Set flags of the player's game; they are no action: the version stays."""
        with self._writing() as conn:
            conn.execute(update(games).where(games.c.id == game_id, games.c.player == player)
                         .values(**values))

    def daily_results(self, player: str, day: str) -> dict[str, bool]:
        """Whether the player started (a move made) and won the daily deal of ``day``."""
        with self._connection() as conn:
            rows = conn.execute(select(games.c.status).where(
                games.c.player == player, games.c.daily == day, games.c.moves > 0)).all()
        return {"played": bool(rows), "won": any(r.status == "won" for r in rows)}

    def load(self, player: str, game_id: int) -> GameRecord | None:
        with self._reading() as conn:
            row = conn.execute(select(
                games.c.id, games.c.rules, games.c.code, games.c.layout, games.c.version,
                games.c.score, games.c.moves, games.c.elapsed, games.c.status,
                games.c.created_at, games.c.finished_at, games.c.assisted,
                games.c.selection, games.c.logged,
            ).where(games.c.id == game_id, games.c.player == player)).one_or_none()
            if row is None:
                return None
            log = [[a, t] for a, t in conn.execute(
                select(actions.c.action, actions.c.t)
                .where(actions.c.game_id == game_id).order_by(actions.c.seq))]
        return GameRecord(row.id, row.rules, row.code, row.layout, row.version, row.score,
                          row.moves, row.elapsed, row.status, row.created_at, row.finished_at,
                          log, bool(row.assisted), row.selection, row.logged)

    def current_game_id(self, player: str) -> int | None:
        """The player's newest game, if it is still being played."""
        newest = self._newest(player)
        return newest[0] if newest is not None and newest[1] == "playing" else None

    def newest_game_id(self, player: str) -> int | None:
        newest = self._newest(player)
        return newest[0] if newest is not None else None


    def _newest(self, player: str) -> tuple[int, str] | None:
        with self._connection() as conn:
            row = conn.execute(
                select(games.c.id, games.c.status).where(games.c.player == player)
                .order_by(games.c.id.desc()).limit(1)
            ).one_or_none()
        return (int(row.id), str(row.status)) if row is not None else None

    def game_versions(self, player: str, rules: str) -> list[tuple[int, Stamp]]:
        """``(id, stamp)`` of every game of the player under ``rules``, oldest first."""
        with self._connection() as conn:
            rows = conn.execute(
                select(games.c.id, *_STAMP)
                .where(games.c.player == player, games.c.rules == rules).order_by(games.c.id)
            ).all()
        return [(int(r.id), _stamp(r)) for r in rows]

    def logs(self, player: str, ids: Sequence[int]) -> list[StoredLog]:
        """Deal, rules and actions of the player's games ``ids`` (statistics replay them)."""
        found: list[StoredLog] = []
        for start in range(0, len(ids), 500):
            chunk = list(ids[start:start + 500])
            with self._reading() as conn:
                rows = conn.execute(select(
                    games.c.id, games.c.version, games.c.rules, games.c.code, games.c.layout,
                    games.c.finished_at, games.c.updated_at, games.c.assisted,
                    games.c.hints, games.c.daily,
                ).where(games.c.player == player, games.c.id.in_(chunk))).all()
                logs: dict[int, list[list[Any]]] = {r.id: [] for r in rows}
                solver: set[int] = set()
                for game_id, action, t, by_solver in conn.execute(
                    select(actions.c.game_id, actions.c.action, actions.c.t, actions.c.solver)
                    .where(actions.c.game_id.in_(list(logs)))
                    .order_by(actions.c.game_id, actions.c.seq)
                ):
                    logs[game_id].append([action, t])
                    if by_solver:
                        solver.add(game_id)
            found += [StoredLog(r.id, r.version, r.rules, r.code, r.layout, r.finished_at,
                                r.updated_at, bool(r.assisted) or r.id in solver, logs[r.id],
                                int(r.hints), r.daily, _stamp(r))
                      for r in rows]
        return sorted(found, key=lambda g: g.id)

    def history(self, player: str, rules: str, offset: int,
                limit: int) -> tuple[int, list[tuple[int, Stamp]]]:
        """The player's games of a rule set with at least one move, newest first:
        their total and ``(id, stamp)`` of ``limit`` of them from ``offset``
        (the game in progress included; their figures come from replays)."""
        where = (games.c.player == player, games.c.rules == rules, games.c.moves > 0)
        with self._reading() as conn:
            total = conn.execute(select(func.count()).select_from(games).where(*where)
                                 ).scalar_one()
            rows = conn.execute(select(games.c.id, *_STAMP).where(*where)
                                .order_by(games.c.id.desc()).limit(limit).offset(offset)).all()
        return int(total), [(int(r.id), _stamp(r)) for r in rows]

    # --------------------------------------------------------------- settings

    def settings(self, player: str) -> dict[str, Any]:
        with self._connection() as conn:
            rows = conn.execute(_SETTINGS, {"b_player": player}).all()
        values: dict[str, Any] = {}
        for key, value in rows:
            try:
                values[key] = json.loads(value)
            except (TypeError, ValueError, RecursionError):
                continue  # a malformed row: the default stands in for it
        return values

    def put_settings(self, player: str, values: dict[str, Any]) -> None:
        upsert: Any = sqlite_insert
        if not self.sqlite:  # loaded only here: the PostgreSQL dialect costs start-up time
            from sqlalchemy.dialects.postgresql import insert as postgresql_insert

            upsert = postgresql_insert
        with self._writing() as conn:
            for key, value in values.items():
                statement = upsert(settings).values(player=player, key=key,
                                                    value=json.dumps(value))
                conn.execute(statement.on_conflict_do_update(
                    index_elements=[settings.c.player, settings.c.key],
                    set_={"value": statement.excluded.value}))


_STAMP = (games.c.version, games.c.assisted, games.c.hints, games.c.daily)


def _stamp(row: Any) -> Stamp:
    return (int(row.version), int(row.assisted), int(row.hints), row.daily)


# The statements of every action, built once (SQLAlchemy then only binds them).
_VERSION = select(games.c.version).where(games.c.id == bindparam("b_id"),
                                         games.c.player == bindparam("b_player"))
_SETTINGS = select(settings.c.key, settings.c.value).where(
    settings.c.player == bindparam("b_player"))
_INSERT_ACTIONS = insert(actions)


def _advance(greatest: Any) -> Update:
    """The conditional update of a game to a new version (``greatest``: the SQL
    function of the larger of two values, ``max`` in SQLite)."""
    finished = bindparam("b_finished", type_=String)
    return update(games).where(
        games.c.id == bindparam("b_id"), games.c.player == bindparam("b_player"),
        games.c.version == bindparam("b_expected"),
    ).values(
        version=bindparam("b_version"), logged=bindparam("b_logged"),
        selection=bindparam("b_selection", type_=String), score=bindparam("b_score"),
        moves=bindparam("b_moves"), elapsed=bindparam("b_elapsed"),
        status=bindparam("b_status"), updated_at=bindparam("b_now"),
        finished_at=case((finished.is_(None), None),
                         else_=func.coalesce(games.c.finished_at, finished)),
        assisted=greatest(games.c.assisted, bindparam("b_assisted")),
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")
    cursor.close()
