"""The game flow over the API: remembered choices, help marked, the history,
the daily deal and graded random deals (docs/web.md, docs/api.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from pyramide.daily import daily, grade, today
from pyramide.game import Game
from pyramide.web.app import create_app
from pyramide.web.service import HISTORY_PAGE, GameService
from pyramide.web.store import Store
from tests.play import win_alone
from tests.web.conftest import FakeClock, local_client
from tests.web.test_api import act, new_game


def send(client: TestClient) -> Any:
    def one(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        return act(client, state, action["type"], action.get("card"))
    return one


def test_new_game_choices_are_settings(client: TestClient) -> None:
    settings = client.get("/api/settings").json()
    assert (settings["winnable_only"], settings["difficulty"]) == (False, "any")
    changed = client.put("/api/settings", json={"winnable_only": True, "difficulty": "hard",
                                                "rules": "C"}).json()
    assert (changed["winnable_only"], changed["difficulty"], changed["rules"]) == (
        True, "hard", "C")
    bad = client.put("/api/settings", json={"difficulty": "brutal"})
    assert bad.status_code == 400 and "difficulty" in bad.json()["error"]
    assert client.get("/api/settings").json()["difficulty"] == "hard"  # unchanged


def test_seeing_the_solution_marks_the_game_for_good(db_path: Path, clock: FakeClock) -> None:
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        state = new_game(client, code="PY1-N-AAAAAAM")
        assert state["assisted"] is False
        client.get(f"/api/games/{state['id']}/hint")
        client.get(f"/api/games/{state['id']}/hint")
        assert client.get(f"/api/games/{state['id']}").json()["assisted"] is False  # hints
        client.get(f"/api/games/{state['id']}/solution")
        assert client.get(f"/api/games/{state['id']}").json()["assisted"] is True
        act(client, state, "stock")
    store.close()
    store = Store(db_path)  # a new server on the same file
    with local_client(create_app(GameService(store, clock))) as client:
        again = client.get("/api/games/current").json()
        assert again["assisted"] is True
        row = client.get("/api/history?rules=N").json()["games"][0]
        assert (row["assisted"], row["hints"], row["result"]) == (True, 2, "playing")
    store.close()


def test_statistics_keep_help_apart_and_rank_wins_first(client: TestClient) -> None:
    own = win_alone(new_game(client, code="PY1-N-AAAAAAM"), send(client))
    helped = new_game(client, code="PY1-N-AAAAAAS")
    client.get(f"/api/games/{helped['id']}/hint")
    win_alone(helped, send(client))
    seen = new_game(client, code="PY1-N-AAAAAAM")
    client.get(f"/api/games/{seen['id']}/solution")
    act(client, seen, "stock")
    new_game(client, code="PY1-N-AAAAAAB")  # the seen game is abandoned
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["played"], stats["won"], stats["won_helped"], stats["abandoned"]) == (
        3, 1, 1, 1)
    assert (stats["hinted"], stats["hints"], stats["assisted"], stats["solved"]) == (1, 1, 1, 0)
    assert stats["current_streak"] == 0 and stats["best_streak"] == 1
    assert [g["id"] for g in stats["best_games"]] == [own["id"]]
    assert stats["wins"] == {"count": 1, "best_time": own["elapsed"], "avg_time": own["elapsed"],
                             "best_moves": own["moves"], "avg_moves": own["moves"]}
    assert sum(d["won"] + d["won_helped"] + d["abandoned"] for d in stats["by_day"]) == 3


def test_history_is_paged_newest_first(client: TestClient) -> None:
    ids = []
    for number in range(HISTORY_PAGE + 3):
        state = new_game(client, code=f"PY1-N-AAAAA{chr(65 + number // 26)}{chr(65 + number % 26)}")
        act(client, state, "stock")
        ids.append(state["id"])
    first = client.get("/api/history?rules=N&page=1").json()
    assert (first["total"], first["pages"], first["page"]) == (HISTORY_PAGE + 3, 2, 1)
    assert [g["id"] for g in first["games"]] == ids[::-1][:HISTORY_PAGE]
    assert first["games"][0]["result"] == "playing"  # the game in progress
    assert {g["result"] for g in first["games"][1:]} == {"abandoned"}
    second = client.get("/api/history?rules=N&page=2").json()
    assert [g["id"] for g in second["games"]] == ids[:3][::-1]
    assert client.get("/api/history?rules=N&page=0").status_code == 400
    assert client.get("/api/history?rules=Q").status_code == 400
    assert client.get("/api/history?rules=C").json()["games"] == []


def test_daily_deal_is_the_same_on_two_fresh_databases(tmp_path: Path, clock: FakeClock) -> None:
    seen = []
    for name in ("one", "two"):
        store = Store(tmp_path / f"{name}.sqlite3")
        with local_client(create_app(GameService(store, clock))) as client:
            offered = client.get("/api/daily").json()
            assert (offered["played"], offered["won"]) == (False, False)
            state = new_game(client, daily=True)
            assert state["code"] == offered["code"] == daily(today()).code
            act(client, state, "stock")
            assert client.get("/api/daily").json()["played"] is True
            row = client.get("/api/history?rules=N").json()["games"][0]
            assert row["daily"] == today().isoformat()
            seen.append(offered)
        store.close()
    assert seen[0] == seen[1]
    assert seen[0]["date"] == today().isoformat() and seen[0]["difficulty"] in (
        "easy", "medium", "hard")


def test_won_daily_deal_counts_in_the_daily_streak(client: TestClient) -> None:
    state = win_alone(new_game(client, daily=True), send(client))
    assert client.get("/api/daily").json()["won"] is True
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["daily_streak"], stats["best_daily_streak"]) == (1, 1)
    assert stats["best_games"][0]["daily"] == today().isoformat()
    assert state["score"] == 280


def test_random_deal_of_a_grade(client: TestClient) -> None:
    state = new_game(client, random=True, rules="N", difficulty="easy")
    assert grade(Game.from_code(state["code"])).difficulty == "easy"
    bad = client.post("/api/games", json={"random": True, "difficulty": "brutal"})
    assert bad.status_code == 400
    elsewhere = client.post("/api/games", json={"random": True, "rules": "T",
                                                "difficulty": "easy"})
    assert elsewhere.status_code == 400
    assert "difficulty grades exist for rule set N only" in elsewhere.json()["error"]
    assert client.get("/api/games/current").json()["id"] == state["id"]  # nothing changed
    both = client.post("/api/games", json={"daily": True, "code": "PY1-N-AAAAAAS"})
    assert both.status_code == 400 and "exactly one" in both.json()["error"]
