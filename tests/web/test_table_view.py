"""The table keys of the state (docs/api.md, "The table") and the pile action."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from pyramide.geometry import row_col
from tests.web.conftest import reference_layout
from tests.web.test_api import RU, new_game


def pile(state: dict[str, Any], pile_id: str) -> dict[str, Any]:
    found = [p for p in state["piles"] if p["id"] == pile_id]
    assert len(found) == 1, state["piles"]
    return found[0]


def tap_pile(client: TestClient, state: dict[str, Any], pile_id: str, status: int = 200,
             headers: dict[str, str] | None = None) -> dict[str, Any]:
    response = client.post(f"/api/games/{state['id']}/actions", headers=headers,
                           json={"version": state["version"], "type": "pile", "pile": pile_id})
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def inside(state: dict[str, Any], x: float, y: float) -> bool:
    table = state["table"]
    return x >= 0 and x + 1 <= table["width"] + 1e-9 and y >= 0 \
        and y + 1.4 <= table["height"] + 1e-9


def test_tableau_is_the_pyramid_in_card_units(client: TestClient) -> None:
    state = new_game(client, layout=reference_layout(), rules="N")
    tableau = state["tableau"]
    assert [s["slot"] for s in tableau] == list(range(28))
    assert {s["zone"] for s in tableau} == {"pyramid"}
    assert [s["card"] for s in tableau] == [s["card"] for s in state["pyramid"]]
    left = tableau[21]["x"]  # row 7, column 1
    for entry, old in zip(tableau, state["pyramid"], strict=True):
        row, col = row_col(entry["slot"])
        x, y = left + (7 - row) * 0.55 + (col - 1) * 1.1, (row - 1) * 0.7
        assert (entry["x"], entry["y"]) == pytest.approx((x, y), abs=1e-3)
        assert entry["face_up"] is True and entry["removed"] is False
        assert entry["free"] == old["free"] and entry["tappable"] == old["tappable"]
        assert inside(state, entry["x"], entry["y"])
    # the piles lie left of the pyramid, inside the table, never on it
    stock, waste = pile(state, "stock"), pile(state, "waste")
    for p in (stock, waste):
        assert inside(state, p["x"], p["y"]) and p["x"] + 1 < left
    assert stock == {**stock, "kind": "stock", "count": 23, "cards": [], "top_open": False,
                     "tappable": True, "action": "draw", "redeals_left": None}
    assert "open_at" not in stock
    assert waste["kind"] == "waste" and waste["cards"] == state["waste"] == ["7D"]
    assert waste["tappable"] is False and waste["action"] is None
    assert waste["y"] >= stock["y"] + 1.4


def test_removed_slots_and_the_spent_stock(client: TestClient) -> None:
    state = new_game(client, layout=reference_layout(), rules="N")
    state = tap_pile(client, state, "stock")   # the new action ...
    assert pile(state, "stock")["count"] == 22 and pile(state, "waste")["count"] == 2
    assert state["moves"] == 1
    response = client.post(f"/api/games/{state['id']}/actions",
                           json={"version": state["version"], "type": "tap", "card": "KD"})
    state = response.json()
    kd = next(s for s in state["tableau"] if s["slot"] == 26)
    assert kd == {**kd, "card": None, "removed": True, "free": False, "tappable": False}
    for _ in range(22):
        state = tap_pile(client, state, "stock")
    stock = pile(state, "stock")
    assert stock["count"] == 0 and stock["action"] == "recycle" and stock["tappable"] is True
    assert pile(state, "waste")["cards"] == state["waste"]
    state = tap_pile(client, state, "stock")
    assert pile(state, "stock")["count"] == 24 and pile(state, "waste")["count"] == 0
    # one pass (rules O): the spent stock does nothing
    state = new_game(client, layout=reference_layout(), rules="O")
    for _ in range(23):
        state = tap_pile(client, state, "stock")
    stock = pile(state, "stock")
    assert stock == {**stock, "count": 0, "action": None, "tappable": False, "redeals_left": 0}


@pytest.mark.parametrize("letter", ["P", "T"])
def test_open_stock_and_three_card_fan(client: TestClient, letter: str) -> None:
    state = new_game(client, code=f"PY1-{letter}-AAAAAAS")
    stock, waste = pile(state, "stock"), pile(state, "waste")
    if letter == "P":  # the open top card has its own place, between stock and waste
        assert stock["top_open"] is True and stock["cards"] == [state["stock"]["open_card"]]
        assert stock["cards"][0] in state["tappable"]
        assert stock["redeals_left"] == 2
        at = stock["open_at"]
        assert inside(state, at["x"], at["y"])
        assert stock["y"] + 1.4 <= at["y"] and at["y"] + 1.4 <= waste["y"]
    else:
        assert stock["top_open"] is False and "open_at" not in stock
        assert waste["fan"] == 3
    drawn = waste["count"] + (1 if letter == "P" else 3)
    state = tap_pile(client, state, "stock")
    assert pile(state, "waste")["count"] == drawn


def test_a_pile_that_is_not_there_is_refused_in_the_players_language(
        client: TestClient) -> None:
    state = new_game(client, code="PY1-N-AAAAAAS")
    error = tap_pile(client, state, "cell", status=400, headers=RU)
    assert "стопка 'cell'" in error["error"]
    assert tap_pile(client, state, "waste", status=400)["error"]
    response = client.post(f"/api/games/{state['id']}/actions",
                           json={"version": 0, "type": "pile", "pile": "x" * 40})
    assert response.status_code == 400
    assert client.get(f"/api/games/{state['id']}").json() == state
    # the old stock action stays an alias
    response = client.post(f"/api/games/{state['id']}/actions",
                           json={"version": 0, "type": "stock"})
    assert response.status_code == 200 and pile(response.json(), "stock")["count"] == 22


def test_look_settings_are_kept_and_checked(client: TestClient) -> None:
    settings = client.get("/api/settings").json()
    assert (settings["sounds"], settings["card_back"], settings["felt"]) == (False, "red", "green")
    answer = client.put("/api/settings", json={"sounds": True, "card_back": "blue", "felt": "grey"})
    assert answer.status_code == 200
    assert (answer.json()["sounds"], answer.json()["card_back"], answer.json()["felt"]) == \
        (True, "blue", "grey")
    for bad in ({"card_back": "pink"}, {"felt": 3}, {"sounds": "loud"}):
        response = client.put("/api/settings", json=bad, headers=RU)
        assert response.status_code == 400
        assert "не удалось разобрать запрос" in response.json()["error"]
    assert client.get("/api/settings").json()["card_back"] == "blue"
