"""Starting on a bad or damaged database: one clear message and exit 2, or, with
--db-repair, the damaged file moved aside (never deleted) and a fresh start."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tests.conftest import LiveServer

ROOT = os.geteuid() == 0
GARBAGE = b"these bytes were never a database, " * 200


def serve(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pyramide.cli", "serve", "--port", "0", "--no-browser",
         "--db", str(db), *args],
        capture_output=True, text=True, timeout=60,
    )


def one_clear_message(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pyramide: error: --db "), lines
    for word in words:
        assert word in lines[0], lines[0]


def test_damaged_file_stops_the_start(tmp_path: Path) -> None:
    db = tmp_path / "pyramide.sqlite3"
    db.write_bytes(GARBAGE)
    one_clear_message(serve(db), "damaged", "--db-repair")
    assert db.read_bytes() == GARBAGE


def test_damaged_page_inside_a_real_database(tmp_path: Path) -> None:
    db = tmp_path / "pyramide.sqlite3"
    with closing(sqlite3.connect(db)) as made, made:
        made.execute("CREATE TABLE filler (x TEXT)")
        made.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
    data = bytearray(db.read_bytes())
    data[4096 * 3:4096 * 3 + 200] = b"\xff" * 200  # a page of the table, not the header
    db.write_bytes(bytes(data))
    one_clear_message(serve(db), "damaged")


def test_db_repair_moves_the_file_aside_and_starts_fresh(tmp_path: Path) -> None:
    db = tmp_path / "pyramide.sqlite3"
    db.write_bytes(GARBAGE)
    server = LiveServer(db, "--db-repair")
    server.start()
    try:
        assert any("moved to" in line for line in server.output)
        aside = [p for p in tmp_path.iterdir() if p.name.startswith("pyramide.sqlite3.damaged-")]
        assert len(aside) == 1 and aside[0].read_bytes() == GARBAGE
    finally:
        assert server.stop(signal.SIGTERM) == 0
    with closing(sqlite3.connect(db)) as fresh:
        assert fresh.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_db_repair_leaves_a_sound_database_alone(tmp_path: Path) -> None:
    db = tmp_path / "pyramide.sqlite3"
    server = LiveServer(db)
    server.start()
    server.stop()
    server = LiveServer(db, "--db-repair")
    server.start()
    server.stop()
    # nothing moved aside (the ``.server`` file is the instance lock)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyramide.sqlite3",
                                                          "pyramide.sqlite3.server"]


@pytest.mark.parametrize("where", ["directory", "under a file"])
def test_bad_db_path(tmp_path: Path, where: str) -> None:
    if where == "directory":
        one_clear_message(serve(tmp_path), "not a file")
    else:
        blocker = tmp_path / "plain-file"
        blocker.write_text("x")
        one_clear_message(serve(blocker / "pyramide.sqlite3"), "cannot create")


def test_read_only_folder_at_start(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "pyramide.sqlite3"
    if ROOT:
        try:
            subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True,
                           capture_output=True)
        except subprocess.CalledProcessError as exc:
            pytest.skip(f"no bind mount here: {exc.stderr!r}")
        try:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
            one_clear_message(serve(db), "read-only")
        finally:
            subprocess.run(["umount", "-l", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            one_clear_message(serve(db), "read-only")
        finally:
            folder.chmod(0o755)
