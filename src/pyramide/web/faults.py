"""Storage faults, told to the player as what they are.

A read-only database, a full disk, a database held by another program and a
damaged file are not bugs of the server: each answers 503 with its cause in
the player's language, nothing is changed (the action's transaction is rolled
back and the game is reloaded from the database on the next request), and
the server works again as soon as the cause goes: after a fault the database
is reopened before the next request (a file that was read-only is then opened
for writing again, and no failed transaction stays open).

At start, :func:`open_store` turns a bad ``--db`` path or a damaged file into
one clear message (exit status 2 on the command line); with ``repair`` a
damaged file is moved aside (never deleted) and a fresh database started.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy.exc import DBAPIError
from starlette.types import ASGIApp, Receive, Scope, Send

from pyramide.errors import LocalisedError
from pyramide.web.store import Store

__all__ = ["Recovering", "Recovery", "StartError", "StorageFault", "open_store", "storage_fault"]

# SQLite's primary result codes (the low byte of the extended code)
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR = 5, 6, 8, 10
SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 11, 13, 14, 26


class StorageFault(LocalisedError):
    """The database cannot do what was asked, for a cause outside the server."""

    def __init__(self, key: str) -> None:
        super().__init__(key)


class StartError(ValueError):
    """The database given at start cannot be used (the command line's exit 2)."""


_FAULTS: dict[int, str] = {
    SQLITE_READONLY: "fault.readonly",
    SQLITE_FULL: "fault.full",
    SQLITE_BUSY: "fault.busy",
    SQLITE_CORRUPT: "fault.corrupt",
    SQLITE_IOERR: "fault.ioerr",
    SQLITE_CANTOPEN: "fault.cantopen",
}
_FAULTS[DB_UNREACHABLE := 1000] = "fault.unreachable"
_SAME = {SQLITE_LOCKED: SQLITE_BUSY, SQLITE_NOTADB: SQLITE_CORRUPT}


def _primary(exc: sqlite3.Error) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # a message without a code: read the usual wording
        text = str(exc).lower()
        for words, guess in (("readonly", SQLITE_READONLY), ("disk is full", SQLITE_FULL),
                             ("locked", SQLITE_BUSY), ("malformed", SQLITE_CORRUPT),
                             ("not a database", SQLITE_CORRUPT)):
            if words in text:
                return guess
        return None
    primary = int(code) & 0xFF
    return _SAME.get(primary, primary)


def storage_fault(exc: BaseException, path: Path | None = None) -> StorageFault | None:
    """The fault ``exc`` stands for, or ``None`` for an error of another kind (a bug);
    ``path``, the database file, tells a read-only file behind an I/O error."""
    if isinstance(exc, DBAPIError):  # SQLAlchemy's wrapper of the driver's error
        if exc.orig is not None and isinstance(exc.orig, sqlite3.Error):
            exc = exc.orig
        elif exc.connection_invalidated or type(exc.orig).__name__ == "OperationalError":
            return StorageFault(_FAULTS[DB_UNREACHABLE])
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        code: int | None = SQLITE_FULL
    elif isinstance(exc, sqlite3.Error):
        code = _primary(exc)
    else:
        return None
    if code in (SQLITE_IOERR, SQLITE_CANTOPEN) and path is not None and _read_only(path):
        code = SQLITE_READONLY
    fault = _FAULTS.get(code or -1)
    if fault is None:
        return None
    return StorageFault(fault)


def _read_only(path: Path) -> bool:
    """The file (or, before it exists, its folder) cannot be written."""
    target = path if path.exists() else path.parent
    return target.exists() and not os.access(target, os.W_OK)


class Recovery:
    """After a fault the database is reopened before the next request
    (:class:`Recovering`), so that the server works again as soon as the cause
    goes; the app's fault handler sets ``due``."""

    def __init__(self, reopen: Callable[[], None]) -> None:
        self.reopen = reopen
        self.due = False

    def before_request(self) -> None:
        if self.due:
            self.due = False
            try:
                self.reopen()
            except (sqlite3.Error, DBAPIError):
                self.due = True  # still unusable: the request itself says why


class Recovering:
    """ASGI middleware running :meth:`Recovery.before_request`."""

    def __init__(self, app: ASGIApp, *, recovery: Recovery) -> None:
        self.app = app
        self.recovery = recovery

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.recovery.before_request()
        await self.app(scope, receive, send)


def open_store(path: Path, *, repair: bool = False) -> Store:
    """The store at ``path``, checked (``PRAGMA quick_check``) before the server starts.

    Raises :class:`StartError` with one clear message for a path that cannot be a
    database or a damaged file; with ``repair``, a damaged file (and its ``-wal``
    and ``-shm``) is renamed ``<name>.damaged-<UTC time>`` and a fresh one begun."""
    if path.exists() and not path.is_file():
        raise StartError(f"--db {path}: not a file (a database file is needed)")
    try:
        store = Store(path)
    except OSError as exc:
        raise StartError(f"--db {path}: cannot create the database: "
                         f"{exc.strerror or exc}") from None
    except (sqlite3.Error, DBAPIError) as exc:
        return _damaged(path, _driver(exc), repair)
    try:
        verdict = store.check()
    except (sqlite3.Error, DBAPIError) as exc:
        store.close()
        return _damaged(path, _driver(exc), repair)
    if verdict != "ok":
        store.close()
        return _damaged(path, sqlite3.DatabaseError(verdict), repair)
    return store


def _driver(exc: BaseException) -> sqlite3.Error:
    """The SQLite error behind ``exc`` (SQLAlchemy wraps the driver's)."""
    inner = exc.orig if isinstance(exc, DBAPIError) else exc
    return inner if isinstance(inner, sqlite3.Error) else sqlite3.DatabaseError(str(exc))


def _damaged(path: Path, exc: sqlite3.Error, repair: bool) -> Store:
    fault = _primary(exc)
    if fault not in (SQLITE_CORRUPT, None):
        cause = storage_fault(exc, path)
        raise StartError(f"--db {path}: {cause if cause is not None else exc}")
    if not repair:
        raise StartError(
            f"--db {path}: the file is not a Pyramide database or is damaged ({exc}); "
            "start with --db-repair to move it aside and begin a fresh database, "
            "or give another file with --db")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{aside}{suffix}"))
    print(f"Pyramide: the damaged database was moved to {aside}; starting a fresh one",
          flush=True)
    return Store(path)
