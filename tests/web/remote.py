"""Talking to real server processes over HTTP: a player (with its cookie), a random
action, and the kill -9 campaign (tests and ``benchmarks/`` share them)."""

from __future__ import annotations

import http.client
import json
import random
import signal
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.conftest import LiveServer

__all__ = ["Campaign", "Remote", "random_action", "run_campaign"]


class Remote:
    """One browser: it keeps the player cookie the server gives it."""

    def __init__(self, url: str, cookie: str | None = None) -> None:
        self.url = url.rstrip("/")
        self.cookie = cookie
        self.set_cookie: str | None = None

    def call(self, path: str, body: dict[str, Any] | None = None, *, method: str | None = None,
             timeout: float = 30) -> tuple[int, Any]:
        """``(status, JSON answer)``; connection errors are raised."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"content-type": "application/json"}
        if self.cookie:
            headers["cookie"] = self.cookie
        request = urllib.request.Request(self.url + path, data=data, headers=headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw, set_cookie = response.status, response.read(), response.headers
        except urllib.error.HTTPError as exc:
            status, raw, set_cookie = exc.code, exc.read(), exc.headers
        given = set_cookie.get("set-cookie")
        if given:
            self.set_cookie = given
            if self.cookie is None:
                self.cookie = given.split(";")[0]
        return status, json.loads(raw) if raw else None

    def act(self, state: dict[str, Any], kind: str, card: str | None = None) -> tuple[int, Any]:
        body: dict[str, Any] = {"version": state["version"], "type": kind}
        if card is not None:
            body["card"] = card
        return self.call(f"/api/games/{state['id']}/actions", body)


def random_action(state: dict[str, Any], rng: random.Random) -> tuple[str, str | None]:
    """A plausible action on ``state``: a draw or recycle, a tap on a tappable card,
    now and then an undo."""
    roll = rng.random()
    if roll < 0.1 and state["can_undo"]:
        return "undo", None
    if roll < 0.55 and state["tappable"]:
        return "tap", rng.choice(state["tappable"])
    return "stock", None


@dataclass
class Campaign:
    """What a kill -9 campaign saw: acknowledged actions, and the checks after restarts."""

    cycles: int = 0
    acknowledged: int = 0
    games: int = 0
    checked: int = 0
    lost: list[str] = field(default_factory=list)


def run_campaign(db: Path, cycles: int, seed: int = 0, *, pause: tuple[float, float] = (
        0.05, 0.4)) -> Campaign:
    """Play random actions on a real server and kill -9 it at a random moment,
    ``cycles`` times; after each restart every acknowledged action must be stored
    (the stored version and move count at least those of the last answer)."""
    rng = random.Random(seed)
    result = Campaign()
    server = LiveServer(db)
    server.start()
    try:
        for _ in range(cycles):
            remote = Remote(server.url)
            status, state = remote.call("/api/games/current")
            if state is None or state["status"] != "playing":
                status, state = remote.call("/api/games", {"random": True})
                result.games += 1
            last = dict(state)
            stop = threading.Event()

            def play(remote: Remote = remote, stop: threading.Event = stop) -> None:
                nonlocal last
                state = last
                while not stop.is_set():
                    kind, card = random_action(state, rng)
                    try:
                        status, answer = remote.act(state, kind, card)
                    except (OSError, http.client.HTTPException):
                        return  # the server died: this answer was never acknowledged
                    if status == 200:
                        state = last = answer
                        result.acknowledged += 1
                        if state["status"] != "playing":
                            return
                    elif status == 409:
                        state = answer["state"]
                    elif status != 400:
                        result.lost.append(f"answer {status}: {answer}")
                        return

            player = threading.Thread(target=play)
            player.start()
            time.sleep(rng.uniform(*pause))
            server.restart(signal.SIGKILL)
            stop.set()
            player.join()
            result.cycles += 1
            status, again = Remote(server.url).call(f"/api/games/{last['id']}")
            result.checked += 1
            if status != 200 or again["version"] < last["version"] or (
                    again["moves"] < last["moves"]):
                result.lost.append(f"after restart {result.cycles}: {status} {again}, "
                                   f"acknowledged {last['version']}/{last['moves']}")
    finally:
        server.stop()
    return result
