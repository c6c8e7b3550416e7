"""The request guard: Host allowlist, cross-site writes, security headers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.guard import PAGE_POLICY, host_names
from pyramide.web.service import GameService
from pyramide.web.store import Store

PORT = 8123
JSON = {"content-type": "application/json"}
NEW = '{"code": "PY1-N-AAAAAAS"}'


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[TestClient]:
    """An app bound to 127.0.0.1:8123 that also answers for pyramide.example."""
    store = Store(tmp_path / "games.sqlite3")
    app = create_app(GameService(store), hosts=host_names("127.0.0.1", ["Pyramide.example"]),
                     port=PORT)
    with TestClient(app, base_url=f"http://127.0.0.1:{PORT}") as client:
        yield client
    store.close()


def no_game(client: TestClient) -> bool:
    current = client.get("/api/games/current")  # 200 with null when there is none
    return current.status_code == 200 and current.json() is None


@pytest.mark.parametrize("host", [
    f"127.0.0.1:{PORT}", f"localhost:{PORT}", f"[::1]:{PORT}", "localhost",
    f"pyramide.example:{PORT}", "PYRAMIDE.EXAMPLE",
])
def test_allowed_host_names(guarded: TestClient, host: str) -> None:
    assert guarded.get("/api/settings", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", [
    "evil.example", f"evil.example:{PORT}", "localhost:9999", "127.0.0.1.evil.example",
    "[::2]", "",
])
def test_other_host_names_are_refused(guarded: TestClient, host: str) -> None:
    for method, path, body in (("GET", "/api/settings", None), ("GET", "/", None),
                               ("POST", "/api/games", NEW)):
        answer = guarded.request(method, path, content=body,
                                 headers={**JSON, "host": host, "accept-language": "ru"})
        assert answer.status_code == 403, (method, path)
        assert "сервер не отвечает на имя" in answer.json()["error"]
        assert answer.json()["title"] == "Запрос отклонён"
    assert no_game(guarded)


def test_bound_address_and_wildcards() -> None:
    assert host_names("0.0.0.0") == ["localhost", "127.0.0.1", "[::1]"]
    assert host_names("::") == ["localhost", "127.0.0.1", "[::1]"]
    assert host_names("192.168.1.5", ["a.example"])[-2:] == ["192.168.1.5", "a.example"]
    assert host_names("fe80::1")[-1] == "[fe80::1]"


@pytest.mark.parametrize("headers", [
    {"content-type": "text/plain"},
    {"content-type": "application/x-www-form-urlencoded"},
    {"content-type": "multipart/form-data; boundary=x"},
    {},
])
def test_writes_must_be_json(guarded: TestClient, headers: dict[str, str]) -> None:
    answer = guarded.post("/api/games", content=NEW, headers=headers)
    assert answer.status_code == 415
    assert "application/json" in answer.json()["error"]
    assert guarded.put("/api/settings", content='{"lang": "en"}',
                       headers=headers).status_code == 415
    assert no_game(guarded)
    assert guarded.get("/api/settings", headers={"accept-language": "ru"}).json()["lang"] == "ru"


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"},
    {"origin": f"http://localhost:{PORT + 1}"},
    {"origin": "null"},
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},
    {"origin": f"http://127.0.0.1:{PORT}", "sec-fetch-site": "same-site"},
])
def test_cross_site_writes_are_refused(guarded: TestClient, headers: dict[str, str]) -> None:
    answer = guarded.post("/api/games", content=NEW, headers={**JSON, **headers})
    assert answer.status_code == 403
    assert "another site" in answer.json()["error"]
    assert no_game(guarded)


@pytest.mark.parametrize("headers", [
    {"origin": f"http://127.0.0.1:{PORT}", "sec-fetch-site": "same-origin"},
    {"sec-fetch-site": "none"},
    {"content-type": "application/json; charset=utf-8"},
    {},
])
def test_same_origin_writes_pass(guarded: TestClient, headers: dict[str, str]) -> None:
    answer = guarded.post("/api/games", content=NEW, headers={**JSON, **headers})
    assert answer.status_code == 201, answer.text


def test_reads_from_anywhere_change_nothing_and_pass(guarded: TestClient) -> None:
    answer = guarded.get("/api/rules", headers={"sec-fetch-site": "cross-site"})
    assert answer.status_code == 200  # the browser keeps the answer from the other site


@pytest.mark.parametrize("path", ["/", "/api/settings", "/static/app.js", "/nope"])
def test_every_answer_forbids_framing(guarded: TestClient, path: str) -> None:
    answer = guarded.get(path)
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["content-security-policy"] == PAGE_POLICY
    assert "frame-ancestors 'none'" in PAGE_POLICY and "script-src 'self';" in PAGE_POLICY
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_refusals_carry_the_headers_too(guarded: TestClient) -> None:
    answer = guarded.get("/", headers={"host": "evil.example"})
    assert answer.status_code == 403
    assert answer.headers["x-frame-options"] == "DENY"
