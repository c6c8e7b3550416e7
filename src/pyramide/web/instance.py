"""One local server per database file: a second ``pyramide`` opens the first one's page.

The running server holds an exclusive ``flock`` on ``<db>.server`` (next to
the SQLite file) and writes its URL there; the kernel releases the lock when
the process ends, however it ends.  Correctness never depends on this lock
(the database arbitrates between servers, see :mod:`pyramide.web.store`); it
only spares the player a second server and a second browser tab.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

__all__ = ["ServerLock"]

WAIT_FOR_URL = 5.0


class ServerLock:
    """The lock file of a database file."""

    def __init__(self, db_path: Path) -> None:
        self.path = db_path.with_name(db_path.name + ".server")
        self._fd: int | None = None

    def running_url(self) -> str | None:
        """The URL of the server already running on this database, or ``None`` after
        taking the lock for this process.  Where no lock file can be made (a read-only
        folder, a path under a file) there is no lock: the database check that
        follows says what is wrong."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            deadline = time.monotonic() + WAIT_FOR_URL  # it may be starting right now
            while True:
                url = self.path.read_text().strip()
                if url or time.monotonic() > deadline:
                    os.close(fd)
                    return url or None
                time.sleep(0.1)
        self._fd = fd
        return None

    def publish(self, url: str) -> None:
        """Write this server's URL (the lock is held)."""
        assert self._fd is not None
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, (url + "\n").encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)
            self._fd = None
