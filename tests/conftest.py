"""Shared fixtures: the system Chromium for Playwright, and a real server process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.postgres import PostgresServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
URL_LINE = re.compile(r"running at (http://\S+?)/?$")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """No base address: every test opens its live server's full URL.  Defined here
    so that pytest-playwright's own stand-in (a fixture on a class instance, which
    pytest deprecates with a warning) is not used."""
    return None


class LiveServer:
    """``pyramide serve`` in a subprocess on a free loopback port, with its own database
    (a SQLite path or a PostgreSQL URL); ``args``: more options of ``serve``."""

    def __init__(self, db_path: Path | str, *args: str) -> None:
        self.db_path = db_path
        self.args = args
        self.output: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self.url = ""

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pyramide.cli", "serve", "--port", "0",
             "--db", str(self.db_path), "--no-browser", *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        )
        assert self.process.stdout is not None
        seen = self.output = []
        for line in self.process.stdout:
            seen.append(line)
            match = URL_LINE.search(line.strip())
            if match:
                self.url = match.group(1)
                # keep reading so that a full pipe never blocks the server
                threading.Thread(target=self._drain, daemon=True).start()
                self._wait_until_answering()
                return
        raise RuntimeError("server did not start:\n" + "".join(seen))

    def _wait_until_answering(self, seconds: float = 120) -> None:
        """The socket listens at once; ``--workers`` processes answer once started."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/rules", timeout=seconds):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _drain(self) -> None:
        process = self.process
        if process is not None and process.stdout is not None:
            try:
                for line in process.stdout:
                    self.output.append(line)
            except ValueError:
                pass

    def stop(self, sig: int = signal.SIGTERM) -> int | None:
        """Stop the server and return its exit status; SIGKILL simulates a crash
        (SIGTERM and SIGINT are a clean shutdown: status 0 and 130)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        status = self.process.returncode
        self.process = None
        return status

    def restart(self, sig: int = signal.SIGKILL) -> None:
        self.stop(sig)
        self.start()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session (``new_database()`` per test)."""
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "pyramide.sqlite3")
    server.start()
    try:
        yield server
    finally:
        server.stop()
