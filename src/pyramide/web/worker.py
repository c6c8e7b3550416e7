"""The app of one server process, built from the environment (``pyramide serve
--workers N`` starts N such processes; one process builds it directly).

``PYRAMIDE_DB``: the database (a SQLite path or a ``postgresql://`` URL);
``PYRAMIDE_HOSTED=1``: players by signed cookie (the secret from
:func:`pyramide.web.players.load_secret`).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import platformdirs
from starlette.applications import Starlette

from pyramide.web.app import create_app
from pyramide.web.guard import LOCAL_HOSTS
from pyramide.web.players import Players, load_secret
from pyramide.web.searches import SearchPool
from pyramide.web.service import GameService
from pyramide.web.store import Store

__all__ = ["DB_ENV", "HOSTED_ENV", "HOSTS_ENV", "PORT_ENV", "build", "data_dir", "from_environment"]

DB_ENV = "PYRAMIDE_DB"
HOSTED_ENV = "PYRAMIDE_HOSTED"
HOSTS_ENV = "PYRAMIDE_HOSTS"
PORT_ENV = "PYRAMIDE_PORT"


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir("pyramide", appauthor=False))


def build(db: str, *, hosted: bool, warm_up: bool = True,
          hosts: Iterable[str] = LOCAL_HOSTS, port: int | None = None,
          store: Store | None = None,
          searches: SearchPool | None = None) -> tuple[Starlette, GameService]:
    """The app over ``db`` (or the ``store`` already opened on it), answering
    requests for ``hosts`` (see :mod:`pyramide.web.guard`); at shutdown it writes
    the running clocks and closes the database.  ``searches``: the solver's pool,
    if the caller started it already."""
    service = GameService(store or Store(db), searches=searches or SearchPool())
    players = Players(load_secret(data_dir())) if hosted else None
    app = create_app(service, players, hosts=hosts, port=port)

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[Any]:
        async with inner(app) as state:
            try:
                yield state
            finally:
                service.close()

    app.router.lifespan_context = lifespan
    if warm_up:
        service.searches.warm()  # the solver's processes start while the server does
    return app, service


def from_environment() -> Starlette:
    """The app factory of ``--workers`` processes."""
    hosts = os.environ.get(HOSTS_ENV)
    port = os.environ.get(PORT_ENV)
    app, _service = build(os.environ[DB_ENV], hosted=os.environ.get(HOSTED_ENV) == "1",
                          hosts=hosts.split(",") if hosts else LOCAL_HOSTS,
                          port=int(port) if port else None)
    return app
