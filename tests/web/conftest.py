"""An in-process app over a real SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.service import GameService
from pyramide.web.store import Store

REFERENCE_ROWS = [
    "JD", "6C 7H", "AS 4D QS", "5H 3D 6H 8S", "KH KC AD KS 9C",
    "QC 2C 8D 10D 10S JS", "7C 10C 3H 4H 3S KD 7S",
]


def reference_layout() -> str:
    """Rule book §9: the printed pyramid, waste 7♦, the other 23 cards as the stock."""
    from pyramide.cards import DECK, Card

    pyramid = " ".join(REFERENCE_ROWS).split()
    used = {Card.parse(c) for c in [*pyramid, "7D"]}
    stock = [c.code for c in DECK if c not in used]
    return " ".join([*pyramid, "7D", *stock])


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
    with TestClient(create_app(GameService(store, clock))) as test_client:
        yield test_client
    store.close()
