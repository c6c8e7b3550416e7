"""Storage faults: each answers 503 with its cause, changes nothing, and the
server works again once the cause goes (real files, a real small disk)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.web.conftest import local_client

ROOT = os.geteuid() == 0


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@contextmanager
def app_on(path: Path) -> Iterator[TestClient]:
    store = Store(path)
    try:
        with local_client(create_app(GameService(store)), raise_server_exceptions=False) as c:
            yield c
    finally:
        store.close()


def play(client: TestClient, state: dict[str, Any], lang: str = "en") -> Any:
    return client.post(f"/api/games/{state['id']}/actions",
                       json={"version": state["version"], "type": "stock"},
                       headers={"accept-language": lang})


def refused(answer: Any, words: str) -> None:
    assert answer.status_code == 503, answer.text
    assert words in answer.json()["error"], answer.json()
    assert answer.headers["retry-after"]


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` cannot be written while inside (for root, whom file modes do not
    stop: a read-only bind mount of the file over itself)."""
    if ROOT:
        mount("--bind", str(path), str(path))
        try:
            mount("-o", "remount,bind,ro", str(path))
            yield
        finally:
            subprocess.run(["umount", "-l", str(path)], check=True)
    else:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)


def test_read_only_database(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with app_on(db) as client:
        state = client.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).json()
    try:
        cm = read_only(db)
        cm.__enter__()
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"no bind mount here: {exc.stderr!r}")
    try:
        with app_on(db) as client:  # opened while read-only: reads work, writes cannot
            assert client.get(f"/api/games/{state['id']}").json()["version"] == 0
            refused(play(client, state), "the database is read-only")
            refused(play(client, state, "ru"), "база данных доступна только для чтения")
            refused(client.post("/api/games", json={"random": True}), "read-only")
            cm.__exit__(None, None, None)
            cm = None
            after = play(client, state)  # writable again: no restart needed
            assert after.status_code == 200, after.text
            assert after.json()["moves"] == 1 and after.json()["version"] == 1
    finally:
        if cm is not None:
            cm.__exit__(None, None, None)
    with app_on(db) as client:
        assert client.get(f"/api/games/{state['id']}").json()["moves"] == 1


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    try:
        mount("-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk))
    except (subprocess.CalledProcessError, FileNotFoundError) as exc:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {exc}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def test_full_disk(small_disk: Path) -> None:
    with app_on(small_disk / "games.sqlite3") as client:
        state = client.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).json()
        state = play(client, state).json()
        filler = small_disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass  # the disk is full
        finally:
            os.close(fd)
        answers = [play(client, state) for _ in range(3)]  # the log grows until it cannot
        assert any(a.status_code == 503 for a in answers)
        for answer in answers:
            if answer.status_code == 200:
                state = answer.json()
            else:
                refused(answer, "the disk is full")
        assert play(client, state, "ru").json()["error"].startswith("диск заполнен")
        kept = client.get(f"/api/games/{state['id']}").json()
        assert kept["version"] == state["version"] and kept["moves"] == state["moves"]
        filler.unlink()
        again = play(client, state)
        assert again.status_code == 200, again.text
        assert again.json()["moves"] == state["moves"] + 1


def test_database_held_by_another_program(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with app_on(db) as client:
        state = client.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).json()
        with closing(sqlite3.connect(db, isolation_level=None)) as other:
            other.execute("BEGIN EXCLUSIVE")
            refused(play(client, state), "another program is holding the database")
            other.execute("ROLLBACK")
        with closing(sqlite3.connect(db)) as check:  # the refused action is not in the file
            assert check.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 0
        after = play(client, state)
        assert after.status_code == 200 and after.json()["version"] == 1


def test_file_damaged_while_running(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with app_on(db) as client:
        assert client.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).status_code == 201
        with closing(sqlite3.connect(db)) as other:
            other.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with db.open("r+b") as raw:
            raw.write(b"this is not a database at all!" * 4)
        answer = client.post("/api/games", json={"random": True})
        refused(answer, "damaged")
        assert "--db-repair" in answer.json()["error"]
