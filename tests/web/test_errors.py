"""Every error answer in the documented shape, and odd input refused cleanly."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pyramide.web.schema import LOCAL_PLAYER
from pyramide.web.service import DEFAULT_SETTINGS
from tests.web.conftest import reference_layout

JSON = {"content-type": "application/json"}


def shaped(answer: object, status: int) -> dict[str, str]:
    """The answer has ``status`` and the documented ``{"error", "title"}`` shape."""
    from httpx2 import Response
    assert isinstance(answer, Response)
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert isinstance(body["error"], str) and body["error"]
    assert isinstance(body["title"], str) and body["title"]
    return body  # type: ignore[no-any-return]


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/no/such/page", 404),
    ("GET", "/static/none.js", 404),
    ("DELETE", "/api/games", 405),
    ("PATCH", "/api/settings", 405),
    ("POST", "/api/rules", 405),
])
def test_frameworks_own_errors_have_our_shape(client: TestClient, method: str, path: str,
                                              status: int) -> None:
    body = shaped(client.request(method, path, content="{}", headers=JSON), status)
    assert path in body["error"] or status == 404


def test_frameworks_errors_speak_russian(client: TestClient) -> None:
    body = shaped(client.get("/nope", headers={"accept-language": "ru"}), 404)
    assert body == {"error": "нет такого адреса: /nope", "title": "Не найдено"}


@pytest.mark.parametrize("body", ["[" * 100_00 + "]" * 100_00, '{"a":' * 5000 + "1" + "}" * 5000])
def test_deeply_nested_json(client: TestClient, body: str) -> None:
    answer = shaped(client.post("/api/games", content=body, headers=JSON), 400)
    assert "malformed request" in answer["error"]


@pytest.mark.parametrize("game_id", [
    "1_0", "+1", "-1", " 1", "١", "9223372036854775808", "99999999999999999999999", "0x1",
])
def test_odd_game_ids_are_not_found(client: TestClient, game_id: str) -> None:
    client.post("/api/games", json={"code": "PY1-N-AAAAAAS"})
    for method, path in (("GET", ""), ("GET", "/hint"), ("GET", "/solution"),
                         ("POST", "/actions")):
        answer = client.request(method, f"/api/games/{game_id}{path}",
                                json={"version": 0, "type": "stock"})
        shaped(answer, 404)


def test_largest_game_id_is_simply_unknown(client: TestClient) -> None:
    shaped(client.get("/api/games/9223372036854775807"), 404)


def test_chunked_body_over_the_limit_is_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"code": "'
        for _ in range(70):
            yield b"A" * 1024
        yield b'"}'

    body = shaped(client.post("/api/games", content=chunks(), headers=JSON), 413)
    assert "65536" in body["error"]
    small = client.post("/api/games", content=iter([b'{"code": ', b'"PY1-N-AAAAAAS"}']),
                        headers=JSON)
    assert small.status_code == 201


@pytest.mark.parametrize("body", [
    {"random": True, "rules": ""}, {"layout": reference_layout(), "rules": ""},
])
def test_empty_rule_letters_are_refused(client: TestClient, body: dict[str, object]) -> None:
    answer = shaped(client.post("/api/games", json=body), 400)
    assert "''" in answer["error"]
    shaped(client.put("/api/settings", json={"rules": ""}), 400)
    shaped(client.get("/api/stats", params={"rules": ""}), 400)
    current = client.get("/api/games/current")  # no game was made: 200 with null
    assert current.status_code == 200 and current.json() is None


@pytest.mark.parametrize(("key", "raw"), [
    ("lang", "{broken"), ("lang", '"de"'), ("rules", '"NOPE"'), ("rules", "7"),
    ("animations", '"yes"'), ("warn_lost", "null"), ("explain_errors", "[[["),
])
def test_malformed_settings_rows_fall_back_to_defaults(client: TestClient, db_path: Path,
                                                      key: str, raw: str) -> None:
    with closing(sqlite3.connect(db_path)) as db, db:
        db.execute("INSERT OR REPLACE INTO player_settings (player, key, value) VALUES (?, ?, ?)",
                   (LOCAL_PLAYER, key, raw))
    settings = client.get("/api/settings", headers={"accept-language": "en"})
    assert settings.status_code == 200
    assert settings.json() == {**DEFAULT_SETTINGS, "lang": "en"}
    assert client.get("/").status_code == 200
    assert client.post("/api/games", json={"random": True}).status_code == 201
    fixed = client.put("/api/settings", json={"rules": "O", "lang": "ru", "animations": False})
    assert fixed.json()["rules"] == "O" and fixed.json()["animations"] is False
