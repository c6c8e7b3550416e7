"""``pyramide serve`` (and plain ``pyramide``): start the browser game on 127.0.0.1."""

from __future__ import annotations

import argparse
import signal
import socket
import sqlite3
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
import uvicorn

if TYPE_CHECKING:
    from pyramide.web.service import GameService
    from pyramide.web.store import Store

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
    parser.add_argument("--db", type=Path, default=None,
                        help=f"SQLite database file (default {default_db_path()})")
    parser.add_argument("--db-repair", action="store_true",
                        help="if the database file is damaged, move it aside (it is never "
                        "deleted) and start a fresh one")
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
    from pyramide.web.faults import open_store

    if not 0 <= args.port <= 65535:
        raise ValueError(f"port {args.port!r} is not between 0 and 65535")
    db_path = args.db or default_db_path()
    store = open_store(db_path, repair=args.db_repair)
    try:
        return _serve(args, store)
    finally:
        store.close()


def _serve(args: argparse.Namespace, store: Store) -> int:
    """Listen, serve until SIGTERM or Ctrl+C, then save the clocks and fold the
    write-ahead log into the database file."""
    from pyramide.web.service import GameService

    service = GameService(store)
    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again with
    # the handler it found: ours, which leaves through the `finally` below (as does
    # a SIGTERM before uvicorn has started)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        return _listen(args, store, service)
    except _Stop:
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
        try:
            service.flush_clocks()
            store.checkpoint()
        except sqlite3.Error as exc:  # every action is saved already; only the clocks
            print(f"Pyramide stopped; the clocks could not be saved: {exc}", flush=True)
        else:
            print("Pyramide stopped; the games are saved", flush=True)


def _listen(args: argparse.Namespace, store: Store, service: GameService) -> int:
    from pyramide.solver.native import warm_up
    from pyramide.web.app import create_app
    from pyramide.web.guard import host_names

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
    app = create_app(service, hosts=host_names(args.host, args.allow_host), port=port)
    shown_host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    url = f"http://{shown_host}:{port}/"
    print(f"Pyramide {store.path}", flush=True)
    print(f"Pyramide is running at {url}", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    threading.Thread(target=warm_up, name="solver warm-up", daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0
