"""``pyramide serve`` (and plain ``pyramide``): start the browser game on 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sqlite3
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from pyramide.web.searches import SearchPool
    from pyramide.web.service import GameService

DEFAULT_HOST = "127.0.0.1"


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("pyramide", appauthor=False)) / "pyramide.sqlite3"


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="start the browser game (the default command)",
        description="Start the game server on this machine and open it in the browser.",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default 0: any free port)")
    parser.add_argument("--db", default=None,
                        help=f"SQLite database file (default {default_db_path()}), or a "
                        "postgresql://user@host/db URL (hosted mode)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes sharing the port and the database (default 1)")
    parser.add_argument("--hosted", action="store_true",
                        help="many players: each browser is a player with a signed cookie "
                        "(implied by a postgresql:// database)")
    parser.add_argument("--share-db", action="store_true",
                        help="start even if another server uses this SQLite file (safe: "
                        "the database arbitrates; by default its page is opened instead)")
    parser.add_argument("--db-repair", action="store_true",
                        help="if the SQLite database file is damaged, move it aside (it is "
                        "never deleted) and start a fresh one")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer requests for this host name (hosted mode behind "
                        "a proxy; repeatable); the bound address, localhost, 127.0.0.1 "
                        "and [::1] are always allowed")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.set_defaults(func=run)


class _Stop(Exception):
    """SIGTERM arrived: leave the server loop through the clean shutdown."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"port {args.port!r} is not between 0 and 65535")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers {args.workers!r} is not between 1 and 64")
    searches = None
    if args.workers == 1:  # the solver's process starts first: it loads while the server does
        from pyramide.web.searches import SearchPool

        searches = SearchPool()
        searches.warm()
    try:
        return _start(args, searches)
    finally:
        if searches is not None:
            searches.close()


def _start(args: argparse.Namespace, searches: SearchPool | None) -> int:
    import uvicorn  # here, not at the top: no other command pays for the server's imports
    from uvicorn.supervisors import Multiprocess

    from pyramide.web import worker
    from pyramide.web.faults import open_store
    from pyramide.web.guard import host_names
    from pyramide.web.instance import ServerLock
    from pyramide.web.store import database_url

    db = str(args.db or default_db_path())
    sqlite = database_url(db).startswith("sqlite")
    hosted = args.hosted or not sqlite
    lock = ServerLock(Path(db)) if sqlite and not args.share_db else None
    running = lock.running_url() if lock is not None else None
    if running is not None:
        print(f"Pyramide is already running at {running} on {db}; opening it", flush=True)
        if not args.no_browser:
            webbrowser.open(running)
        return 0
    # checked (and migrated) once, before any server process starts
    store = open_store(Path(db), repair=args.db_repair) if sqlite else None
    if store is not None and args.workers > 1:
        store.close()
        store = None
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP (not 0) so that asyncio turns Nagle off on every connection
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise ValueError(f"cannot listen on {args.host}:{args.port}: {exc.strerror}") from None
    sock.listen(128)  # accept connections as soon as the address is printed
    port = sock.getsockname()[1]
    shown_host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    url = f"http://{shown_host}:{port}/"
    if lock is not None:
        lock.publish(url)
    print(f"Pyramide {_shown(db)}", flush=True)
    print(f"Pyramide is running at {url}", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    hosts = host_names(args.host, args.allow_host)
    try:
        if args.workers == 1:
            app, service = worker.build(db, hosted=hosted, hosts=hosts, port=port,
                                        store=store, searches=searches)
            _serve(app, service, sock)
        else:
            os.environ.update({worker.DB_ENV: db, worker.HOSTED_ENV: "1" if hosted else "0",
                               worker.HOSTS_ENV: ",".join(hosts),
                               worker.PORT_ENV: str(port)})
            config = uvicorn.Config("pyramide.web.worker:from_environment", factory=True,
                                    workers=args.workers, log_level="warning",
                                    access_log=False)
            Multiprocess(config, sockets=[sock]).run()
    finally:
        if lock is not None:
            lock.release()
    return 0


def _serve(app: Starlette, service: GameService, sock: socket.socket) -> None:
    """Serve until SIGTERM or Ctrl+C, then save the clocks and fold the write-ahead
    log into the database file."""
    import uvicorn
    from sqlalchemy.exc import DBAPIError

    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again with
    # the handler it found: ours, which leaves through the `finally` below (as does
    # a SIGTERM before uvicorn has started)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        config = uvicorn.Config(app, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=3)
        uvicorn.Server(config).run(sockets=[sock])
    except _Stop:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        try:
            service.close()  # clocks written, log folded (once: the lifespan may have)
        except (sqlite3.Error, DBAPIError) as exc:  # every action is saved already
            print(f"Pyramide stopped; the clocks could not be saved: {exc}", flush=True)
        else:
            print("Pyramide stopped; the games are saved", flush=True)


def _shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    head, at, tail = db.rpartition("@")
    if not at or "://" not in head:
        return db
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':')[0]}@{tail}"
