"""The game clock as the server drives it (docs/web.md "Clock"): it starts at the
first real action, stops while no page is visible or the page has gone quiet,
and starts again at the next action; a restart keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from pyramide.web.app import create_app
from pyramide.web.service import AWAY_SECONDS, REPORT_SECONDS, GameService
from pyramide.web.store import LOCAL_PLAYER, Store
from tests.web.conftest import FakeClock, local_client


def start(client: TestClient) -> dict[str, Any]:
    answer = client.post("/api/games", json={"code": "PY1-N-AAAAAAS"})
    assert answer.status_code == 201
    return answer.json()  # type: ignore[no-any-return]


def act(client: TestClient, state: dict[str, Any], kind: str, card: str | None = None
        ) -> dict[str, Any]:
    body: dict[str, Any] = {"version": state["version"], "type": kind}
    if card is not None:
        body["card"] = card
    answer = client.post(f"/api/games/{state['id']}/actions", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def look(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/games/{state['id']}").json()  # type: ignore[no-any-return]


def report(client: TestClient, state: dict[str, Any], visible: bool) -> dict[str, Any]:
    answer = client.post(f"/api/games/{state['id']}/presence", json={"visible": visible})
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_a_selection_does_not_start_the_clock(client: TestClient, clock: FakeClock) -> None:
    state = start(client)
    assert state["elapsed"] == 0 and state["clock_running"] is False
    free = [c for c in state["tappable"] if c not in state["waste"]]
    clock.now += 5
    state = act(client, state, "tap", free[0])  # a plain selection
    assert state["selection"] == free[0]
    clock.now += 5
    state = look(client, state)
    assert state["elapsed"] == 0 and state["clock_running"] is False
    state = act(client, state, "stock")  # the first real action
    clock.now += 3
    assert look(client, state)["elapsed"] == 3.0 and look(client, state)["clock_running"]


def test_a_hidden_page_stops_the_clock_until_the_next_action(
        client: TestClient, clock: FakeClock) -> None:
    state = act(client, start(client), "stock")
    clock.now += 10
    hidden = report(client, state, visible=False)
    assert hidden["elapsed"] == 10.0 and hidden["clock_running"] is False
    clock.now += 500  # away
    back = report(client, state, visible=True)
    assert back["elapsed"] == 10.0 and back["clock_running"] is False
    clock.now += 7  # looking, not yet playing
    state = act(client, back, "stock")
    assert state["elapsed"] == 10.0 and state["clock_running"]
    clock.now += 2
    assert look(client, state)["elapsed"] == 12.0


def test_a_page_that_goes_quiet_counts_as_away(client: TestClient, clock: FakeClock) -> None:
    state = act(client, start(client), "stock")
    clock.now += 30
    assert look(client, state)["elapsed"] == 30.0  # the page's last sign of life
    clock.now += AWAY_SECONDS + 100  # closed without a word (a crash, a lost network)
    quiet = look(client, state)
    assert quiet["elapsed"] == 30.0 and quiet["clock_running"] is False
    state = act(client, quiet, "stock")
    clock.now += 1
    assert look(client, state)["elapsed"] == 31.0


def test_a_visible_page_keeps_the_clock_running(client: TestClient, clock: FakeClock) -> None:
    state = act(client, start(client), "stock")
    for _ in range(10):
        clock.now += REPORT_SECONDS
        state = report(client, state, visible=True)
    assert state["elapsed"] == 10 * REPORT_SECONDS and state["clock_running"]


def test_presence_of_an_unknown_game(client: TestClient) -> None:
    answer = client.post("/api/games/77/presence", json={"visible": False})
    assert answer.status_code == 404 and "77" in answer.json()["error"]
    bad = client.post("/api/games/77/presence", json={"visible": "maybe"})
    assert bad.status_code == 400


def test_shutdown_saves_the_clock_and_a_restart_waits_for_an_action(
        db_path: Path, clock: FakeClock) -> None:
    store = Store(db_path)
    service = GameService(store, clock)
    with local_client(create_app(service)) as client:
        act(client, start(client), "stock")
        clock.now += 12.5
    service.flush_clocks()  # what `pyramide serve` does on SIGTERM
    store.close()
    clock.now += 1000  # the server is down
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        again = client.get("/api/games/current").json()
        assert again["elapsed"] == 12.5 and again["clock_running"] is False
        clock.now += 20
        again = act(client, again, "stock")
        clock.now += 1
        assert look(client, again)["elapsed"] == 13.5
    store.close()


def test_flushing_leaves_out_the_time_after_the_page_went_quiet(
        db_path: Path, clock: FakeClock) -> None:
    store = Store(db_path)
    service = GameService(store, clock)
    with local_client(create_app(service)) as client:
        state = act(client, start(client), "stock")
        clock.now += 4
        look(client, state)
        clock.now += AWAY_SECONDS * 10
    service.flush_clocks()
    record = store.load(LOCAL_PLAYER, state["id"])
    assert record is not None
    assert record.elapsed == 4.0
    store.close()
