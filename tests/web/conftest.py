"""An in-process app over a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.reference import reference_layout

__all__ = ["FakeClock", "local_client", "reference_layout"]

LOCAL = "http://127.0.0.1"
"""The in-process client's address: one the server's Host allowlist admits."""


def local_client(app: Any, **options: Any) -> TestClient:
    """A test client that reaches the app as a local browser would."""
    return TestClient(app, base_url=LOCAL, **options)


class FakeClock:
    """A clock the test moves by hand (the engine takes any clock)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(db_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as test_client:
        yield test_client
    store.close()
