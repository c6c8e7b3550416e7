"""``pyramide serve`` (and plain ``pyramide``): start the browser game on 127.0.0.1."""

from __future__ import annotations

import argparse
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Any

import platformdirs
import uvicorn

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
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pyramide.solver.compiled import warm_up
    from pyramide.web.app import create_app
    from pyramide.web.service import GameService
    from pyramide.web.store import Store

    if not 0 <= args.port <= 65535:
        raise ValueError(f"port {args.port!r} is not between 0 and 65535")
    db_path = args.db or default_db_path()
    store = Store(db_path)
    service = GameService(store)
    app = create_app(service)
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
    print(f"Pyramide {db_path}", flush=True)
    print(f"Pyramide is running at {url}", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    threading.Thread(target=warm_up, name="solver warm-up", daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        service.flush_clocks()
        store.close()
    return 0
