"""Hosted mode's players: the signed cookie, in the in-process app over a SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.players import COOKIE, Players, load_secret
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.web.conftest import FakeClock

SECRET = b"the secret of these tests, 32 b."


@pytest.fixture
def hosted(db_path: Path) -> Iterator[GameService]:
    store = Store(db_path)
    yield GameService(store, FakeClock())
    store.close()


def browser(service: GameService, base_url: str = "http://127.0.0.1") -> TestClient:
    return TestClient(create_app(service, Players(SECRET)), base_url=base_url)


def test_each_browser_is_a_player_with_a_signed_cookie(hosted: GameService) -> None:
    alice, bob = browser(hosted), browser(hosted)
    first = alice.get("/")
    given = first.headers["set-cookie"]
    assert given.startswith(f"{COOKIE}=") and "HttpOnly" in given and "SameSite=Lax" in given
    assert "Secure" not in given
    game = alice.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).json()
    assert "set-cookie" not in alice.get(f"/api/games/{game['id']}").headers
    assert bob.get(f"/api/games/{game['id']}").status_code == 404
    assert bob.post(f"/api/games/{game['id']}/actions",
                    json={"version": 0, "type": "stock"}).status_code == 404
    assert alice.get(f"/api/games/{game['id']}").json()["version"] == 0
    assert bob.cookies[COOKIE] != alice.cookies[COOKIE]


def test_a_forged_or_foreign_cookie_is_a_new_player(hosted: GameService) -> None:
    alice = browser(hosted)
    game = alice.post("/api/games", json={"code": "PY1-N-AAAAAAS"}).json()
    player = alice.cookies[COOKIE].split(".")[0]
    other = Players(b"another deployment's secret, 32.").sign(player)
    for value in (player + ".forged", other, player, ""):
        mallory = browser(hosted)
        response = mallory.get(f"/api/games/{game['id']}",
                               headers={"cookie": f"{COOKIE}={value}"})
        assert response.status_code == 404 and "set-cookie" in response.headers
    kept = browser(hosted)
    again = kept.get(f"/api/games/{game['id']}", headers={
        "cookie": f"theme=dark; {COOKIE}={alice.cookies[COOKIE]}; x=\"a;b\""})
    assert again.status_code == 200 and "set-cookie" not in again.headers


def test_the_cookie_is_secure_over_https(hosted: GameService) -> None:
    assert "Secure" in browser(hosted, "https://127.0.0.1").get("/").headers["set-cookie"]


def test_the_secret_comes_from_the_environment_or_a_private_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYRAMIDE_SECRET", raising=False)
    made = load_secret(tmp_path / "data")
    assert len(made) == 64 and load_secret(tmp_path / "data") == made
    assert (tmp_path / "data" / "secret").stat().st_mode & 0o077 == 0
    monkeypatch.setenv("PYRAMIDE_SECRET", "from the environment, long enough")
    assert load_secret(tmp_path / "data") == b"from the environment, long enough"
    monkeypatch.setenv("PYRAMIDE_SECRET", "short")
    with pytest.raises(ValueError, match="too short"):
        load_secret(tmp_path / "data")
