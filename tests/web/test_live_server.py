"""The real `pyramide serve` process: a crash mid-game loses nothing."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

from tests.conftest import LiveServer


def call(url: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        result: dict[str, Any] = json.loads(response.read())
        return result


def test_killed_server_continues_the_game(live_server: LiveServer) -> None:
    state = call(live_server.url, "/api/games", {"code": "PY1-N-AAAAAAS"})
    for _ in range(3):
        state = call(live_server.url, f"/api/games/{state['id']}/actions",
                     {"version": state["version"], "type": "stock"})
    free = [c for c in state["tappable"] if c not in state["waste"]]
    state = call(live_server.url, f"/api/games/{state['id']}/actions",
                 {"version": state["version"], "type": "tap", "card": free[0]})
    live_server.restart()  # SIGKILL, then a new process on the same database
    again = call(live_server.url, "/api/games/current")
    for key in ("id", "version", "pyramid", "waste", "stock", "score", "moves"):
        assert again[key] == state[key], key
    assert again["moves"] == 3 + (state["score"] > 0)


def test_server_binds_loopback_and_answers_bad_json(live_server: LiveServer) -> None:
    assert live_server.url.startswith("http://127.0.0.1:")
    request = urllib.request.Request(live_server.url + "/api/games", data=b"[1,",
                                     headers={"content-type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert "malformed request" in json.loads(exc.read())["error"]
    else:
        raise AssertionError("broken JSON was accepted")


def test_serve_refuses_a_bad_port() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pyramide.cli", "serve", "--port", "70000", "--no-browser",
         "--db", "/nonexistent-dir-is-never-created/x.sqlite3"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2
    assert "70000" in result.stderr and "Traceback" not in result.stderr


def test_plain_pyramide_takes_the_options_of_serve() -> None:
    """``pyramide --port N`` is ``pyramide serve --port N`` (scripts/play.sh passes
    its arguments on); the bad port shows the options reached serve."""
    result = subprocess.run(
        [sys.executable, "-m", "pyramide.cli", "--port", "70000", "--no-browser",
         "--db", "/nonexistent-dir-is-never-created/x.sqlite3"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2
    assert "70000" in result.stderr and "invalid choice" not in result.stderr
    helped = subprocess.run([sys.executable, "-m", "pyramide.cli", "--help"],
                            capture_output=True, text=True, timeout=30)
    assert helped.returncode == 0 and "COMMAND" in helped.stdout
