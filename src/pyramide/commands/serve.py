"""``pyramide serve`` (and plain ``pyramide``): start the browser game on 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Any

import platformdirs
import uvicorn
from uvicorn.supervisors import Multiprocess

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
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pyramide.web import worker
    from pyramide.web.instance import ServerLock
    from pyramide.web.store import database_url

    if not 0 <= args.port <= 65535:
        raise ValueError(f"port {args.port!r} is not between 0 and 65535")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers {args.workers!r} is not between 1 and 64")
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
    if args.workers == 1:
        app, service = worker.build(db, hosted=hosted)
    else:
        from pyramide.web.store import Store

        Store(db).close()  # migrate once, before the workers start
        os.environ.update({worker.DB_ENV: db, worker.HOSTED_ENV: "1" if hosted else "0"})
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP (not 0) so that asyncio turns Nagle off on every connection
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
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
    try:
        if args.workers == 1:
            config = uvicorn.Config(app, log_level="warning", access_log=False)
            server = uvicorn.Server(config)
            try:
                server.run(sockets=[sock])
            finally:
                service.close()
        else:
            config = uvicorn.Config("pyramide.web.worker:from_environment", factory=True,
                                    workers=args.workers, log_level="warning",
                                    access_log=False)
            Multiprocess(config, sockets=[sock]).run()
    finally:
        if lock is not None:
            lock.release()
    return 0


def _shown(db: str) -> str:
    """The database as printed: a URL without its password."""
    head, at, tail = db.rpartition("@")
    if not at or "://" not in head:
        return db
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':')[0]}@{tail}"
