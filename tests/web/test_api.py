"""The JSON API over a real SQLite file: actions, persistence, bad input."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pyramide import daily as daily_module
from pyramide.deals import Deal
from pyramide.games import PRESETS
from pyramide.solver import Budget
from pyramide.web.app import create_app
from pyramide.web.service import GameService
from pyramide.web.store import Store
from tests.web.conftest import FakeClock, local_client, reference_layout

RU = {"accept-language": "ru-RU,ru;q=0.9,en;q=0.8"}


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def no_current_game(client: TestClient) -> bool:
    """``GET /api/games/current`` answers 200 with ``null`` (no game in progress)."""
    response = client.get("/api/games/current")
    return response.status_code == 200 and response.json() is None


def act(client: TestClient, state: dict[str, Any], kind: str, card: str | None = None,
        status: int = 200, headers: dict[str, str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"version": state["version"], "type": kind}
    if card is not None:
        body["card"] = card
    response = client.post(f"/api/games/{state['id']}/actions", json=body, headers=headers)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


def test_reference_deal_by_taps(client: TestClient) -> None:
    client.put("/api/settings", json={"lang": "ru", "explain_errors": True})
    state = new_game(client, layout=reference_layout(), rules="N")
    assert state["code"] is None and state["score"] == 0
    bottom = [slot["card"] for slot in state["pyramid"][21:]]
    assert bottom == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    assert set(state["tappable"]) == {*bottom, "7D"}
    state = act(client, state, "tap", "KD")
    assert (state["score"], state["moves"]) == (10, 1)
    state = act(client, state, "tap", "10C")
    assert state["selection"] == "10C"
    state = act(client, state, "tap", "3S")
    assert (state["score"], state["moves"], state["selection"]) == (30, 2, None)
    state = act(client, state, "tap", "7C")
    state = act(client, state, "tap", "7S")
    assert state["message"] == {"key": "wrong_sum", "text": "Сумма должна быть равна 13"}
    assert state["selection"] == "7S" and state["moves"] == 2
    before = state["selection"]
    state = act(client, state, "tap", "QC")
    assert state["message"]["text"] == "Эта карта заблокирована другой картой"
    assert state["selection"] == before
    client.put("/api/settings", json={"explain_errors": False, "lang": "en"})
    state = act(client, state, "tap", "QC")
    assert state["message"] is None
    state = act(client, state, "undo")
    assert (state["score"], state["moves"]) == (10, 2)
    state = act(client, state, "undo")
    assert (state["score"], state["moves"], state["can_undo"]) == (0, 2, False)
    response = client.post(f"/api/games/{state['id']}/actions",
                           json={"version": state["version"], "type": "undo"})
    assert response.status_code == 400 and "nothing to undo" in response.json()["error"]


def test_new_game_by_code_deals_the_same_cards(client: TestClient) -> None:
    state = new_game(client, code="py1-n-aaaaaas")
    assert state["code"] == "PY1-N-AAAAAAS"
    deal = Deal.from_code("PY1-N-AAAAAAS")
    assert [slot["card"] for slot in state["pyramid"]] == [c.code for c in deal.pyramid]
    assert state["waste"] == [deal.waste.code] and state["stock"]["count"] == 23


@pytest.mark.parametrize(("body", "needle"), [
    ({"code": "PY2-N-AAAAAAS"}, "PY2-N-AAAAAAS"),
    ({"code": "PY1-Q-AAAAAAS"}, "unknown rule set"),
    ({"code": "PY1-N-AAA"}, "3 deal letters"),
    ({"layout": "AS AS"}, "duplicate"),
    ({"layout": "XX " * 52}, "unreadable card"),
    ({"random": True, "rules": "Q"}, "unknown rule set"),
    ({}, "exactly one"),
    ({"code": 12}, "code"),
    ({"code": "PY1-N-AAAAAAS", "extra": 1}, "extra"),
])
def test_bad_new_game_is_refused_with_reason(client: TestClient, body: Any, needle: str) -> None:
    before = client.get("/api/games/current")
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert needle in response.json()["error"]
    after = client.get("/api/games/current")
    assert before.status_code == after.status_code and before.json() == after.json()


@pytest.mark.parametrize(("body", "needle"), [
    ({"code": "PY1-N-AAA"}, "3 deal letters"),
    ({"code": "PY1-Q-AAAAAAS"}, "unknown rule set"),
    ({"layout": "AS AS"}, "duplicate"),
    ({}, "exactly one"),
    ({"code": "PY1-N-AAAAAAS", "layout": "AS"}, "exactly one"),
    ({"random": True}, "random"),
])
def test_a_deal_is_checked_without_starting_a_game(client: TestClient, body: Any,
                                                   needle: str) -> None:
    """POST /api/deals/check: what a deal link is checked with before the page asks."""
    before = client.get("/api/games/current").json()
    response = client.post("/api/deals/check", json=body)
    assert response.status_code == 400 and needle in response.json()["error"]
    assert client.post("/api/deals/check", json={"code": "py1-c-aaaaaas"}).json() == \
        {"ok": True, "rules": "C"}
    layout = " ".join(c.code for c in Deal.from_code("PY1-N-AAAAAAS").cards)
    assert client.post("/api/deals/check", json={"layout": layout, "rules": "M"}).json() == \
        {"ok": True, "rules": "M"}
    response = client.post("/api/deals/check", json={"layout": layout, "rules": "Q"})
    assert response.status_code == 400 and "unknown rule set" in response.json()["error"]
    assert client.get("/api/games/current").json() == before  # no game started


def test_a_two_deck_games_card_list_starts_that_game(client: TestClient) -> None:
    """A card list is read as the chosen game's deck: Double Pyramid's 104 cards
    (the second deck marked) start a game of W; the 52 of one deck are refused with
    the count, and the rules list says how a card list of each game is laid out."""
    rules = {r["letter"]: r for r in client.get("/api/rules").json()}
    for r in rules.values():
        shape = r["card_list"]
        assert shape["tableau"] + shape["waste"] + shape["stock"] == r["deck"]
    assert rules["N"]["card_list"] == {"pyramid": True, "tableau": 28, "waste": 1, "stock": 23,
                                       "tens": True, "second_deck": False}
    assert rules["M"]["card_list"] == {"pyramid": True, "tableau": 28, "waste": 0, "stock": 24,
                                       "tens": True, "second_deck": False}
    assert rules["W"]["card_list"] == {"pyramid": False, "tableau": 45, "waste": 1,
                                       "stock": 58, "tens": True, "second_deck": True}
    assert not rules["E"]["card_list"]["tens"]  # the Spanish deck has none
    assert rules["G"]["card_list"]["stock"] == 0 and not rules["G"]["card_list"]["pyramid"]
    deal = Deal.from_number(5, 104)
    assert client.post("/api/deals/check", json={"layout": deal.layout_text(), "rules": "W"}
                       ).json() == {"ok": True, "rules": "W"}
    state = new_game(client, layout=deal.layout_text(), rules="W")
    assert state["rules"]["letter"] == "W" and state["code"] is None
    one_deck = Deal.from_number(5).layout_text()
    response = client.post("/api/games", json={"layout": one_deck, "rules": "W"})
    assert response.status_code == 400 and "104" in response.json()["error"]
    assert client.get("/api/games/current").json()["id"] == state["id"]


def test_broken_and_oversized_json(client: TestClient) -> None:
    response = client.post("/api/games", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert response.status_code == 400 and "malformed request" in response.json()["error"]
    response = client.post("/api/games", content=b"x" * 70_000,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert response.json() == {"error": "request body too large (limit 65536 bytes)",
                               "title": "Request too large"}
    response = client.post("/api/games", content=b"x" * 70_000,
                           headers={"content-type": "application/json", **RU})
    assert response.status_code == 413
    assert response.json() == {"error": "запрос слишком большой (можно не больше 65536 байт)",
                               "title": "Слишком большой запрос"}
    response = client.post("/api/games", content=b"{not json",
                           headers={"content-type": "application/json", **RU})
    assert response.json()["detail"].startswith("не удалось разобрать запрос: ")
    assert no_current_game(client)


def test_illegal_tampered_and_stale_actions_change_nothing(client: TestClient) -> None:
    state = new_game(client, code="PY1-N-AAAAAAS")
    game_url = f"/api/games/{state['id']}/actions"
    for body, status in [
        ({"version": 0, "type": "tap", "card": "ZZ"}, 400),          # unreadable card
        ({"version": 0, "type": "tap", "card": state["stock"] and "3S"}, 400),  # face down
        ({"version": 0, "type": "tap"}, 400),                          # no card
        ({"version": 0, "type": "fly"}, 400),                          # unknown type
        ({"version": -1, "type": "stock"}, 400),
        ({"version": 5, "type": "stock"}, 409),                        # stale
    ]:
        response = client.post(game_url, json=body)
        assert response.status_code == status, (body, response.text)
        assert "error" in response.json()
    stale = client.post(game_url, json={"version": 5, "type": "stock"}).json()
    assert stale["state"]["version"] == 0
    assert client.get(f"/api/games/{state['id']}").json() == state
    assert client.get("/api/games/999").status_code == 404
    assert client.post("/api/games/999/actions",
                       json={"version": 0, "type": "stock"}).status_code == 404


def test_two_tabs_stay_consistent(client: TestClient) -> None:
    tab_a = new_game(client, code="PY1-N-AAAAAAS")
    tab_b = client.get(f"/api/games/{tab_a['id']}").json()
    tab_a = act(client, tab_a, "stock")
    response = client.post(f"/api/games/{tab_b['id']}/actions",
                           json={"version": tab_b["version"], "type": "stock"})
    assert response.status_code == 409
    assert response.json()["state"] == client.get(f"/api/games/{tab_a['id']}").json()
    assert response.json()["state"]["stock"]["count"] == 22


def test_game_survives_a_new_server_on_the_same_file(db_path: Path, clock: FakeClock) -> None:
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        state = new_game(client, code="PY1-N-AAAAAAS")
        state = act(client, state, "stock")
        clock.now += 7.5
        state = act(client, state, "stock")
        state = act(client, state, "undo")
    store.close()
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        again = client.get("/api/games/current").json()
    store.close()
    for key in ("id", "version", "pyramid", "waste", "stock", "score", "moves", "can_undo"):
        assert again[key] == state[key], key
    assert again["elapsed"] == pytest.approx(7.5)


def test_statistics_come_from_stored_games(client: TestClient) -> None:
    first = new_game(client, code="PY1-N-AAAAAAB")
    act(client, first, "stock")
    new_game(client, code="PY1-N-AAAAAAC")   # the first is now abandoned: played, not won
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["played"], stats["won"], stats["win_rate"]) == (1, 0, 0.0)
    assert (stats["abandoned"], stats["lost"]) == (1, 0)
    assert stats["best_games"] == []  # an unfinished game is no best game
    history = client.get("/api/history?rules=N").json()
    assert [(g["code"], g["result"]) for g in history["games"]] == [("PY1-N-AAAAAAB", "abandoned")]
    assert client.get("/api/stats?rules=?").status_code == 400


def test_settings_and_rules(client: TestClient) -> None:
    settings = client.get("/api/settings", headers={"accept-language": "ru-RU,ru;q=0.9"}).json()
    assert settings["lang"] == "ru"
    assert client.get("/api/settings").json()["lang"] == "en"
    assert client.put("/api/settings", json={"lang": "de"}).status_code == 400
    assert client.put("/api/settings", json={"rules": "Q"}).status_code == 400
    assert client.put("/api/settings", json={"rules": "t"}).json()["rules"] == "T"
    letters = {r["letter"] for r in client.get("/api/rules").json()}
    assert {"N", "P", "R", "M", "T", "O", "C"} <= letters


def test_openapi_schema_lists_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    assert {"/api/games", "/api/games/{game_id}/actions", "/api/stats"} <= set(paths)
    assert "/" not in paths and set(paths["/api/settings"]) == {"get", "put"}
    act = paths["/api/games/{game_id}/actions"]["post"]
    assert act["parameters"][0]["name"] == "game_id"
    body = act["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    action = schema["components"]["schemas"][body.rsplit("/", 1)[1]]
    assert set(action["required"]) == {"version", "type"}
    assert action["properties"]["type"]["enum"] == ["tap", "pile", "stock", "undo", "solution"]
    new_game = paths["/api/games"]["post"]
    assert "201" in new_game["responses"] and new_game["summary"].startswith("A new game")
    assert [p["name"] for p in paths["/api/history"]["get"]["parameters"]] == ["rules", "page"]


def test_docs_page_shows_the_schema_under_its_own_policy(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and '"/openapi.json"' in page.text
    assert "https://cdn.jsdelivr.net" in page.headers["content-security-policy"]
    assert "cdn.jsdelivr.net" not in client.get("/").headers["content-security-policy"]


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5", "١", "", "1" * 10, "--1"])
def test_history_page_must_be_a_whole_number_from_one(client: TestClient, page: str) -> None:
    answer = client.get(f"/api/history?page={page}")
    assert answer.status_code == 400, answer.text
    assert "page" in answer.json()["error"]
    assert client.get("/api/history?page=1").status_code == 200
    assert client.get("/api/history?page=999999999").json()["games"] == []


def test_winnable_only_deals_are_won_by_following_the_hints(client: TestClient) -> None:
    state = new_game(client, random=True, rules="N", winnable_only=True)
    assert state["lost"] is False
    for _ in range(400):
        if state["status"] != "playing":
            break
        hint = client.get(f"/api/games/{state['id']}/hint").json()
        assert hint["winnable"] is True and hint["max_removed"] == 28
        if hint["stock"]:
            state = act(client, state, "stock")
        else:
            for card in hint["cards"]:
                state = act(client, state, "tap", card)
    assert (state["status"], state["score"]) == ("won", 280)
    assert state["message"]["key"] == "won" and state["can_undo"] is False
    stats = client.get("/api/stats?rules=N").json()
    # a win with hints is a win with help: apart from the player's own wins
    assert (stats["played"], stats["won"], stats["won_helped"]) == (1, 0, 1)
    assert stats["hinted"] == 1 and stats["hints"] >= 10 and stats["current_streak"] == 0
    assert stats["best_games"] == []
    row = client.get("/api/history?rules=N").json()["games"][0]
    assert (row["result"], row["hints"], row["moves"]) == ("won_helped", stats["hints"],
                                                          state["moves"])


def test_hints_follow_the_solution_the_player_has_seen(client: TestClient) -> None:
    state = new_game(client, code="PY1-N-AAAAAAC")
    game = f"/api/games/{state['id']}"
    before = client.get(f"{game}/hint").json()  # the decide line's next move
    solution = client.get(f"{game}/solution").json()["moves"]
    assert (before["kind"], before["cards"]) != (solution[0]["kind"], solution[0]["cards"])

    def hinted() -> tuple[str, list[str]]:
        hint = client.get(f"{game}/hint").json()
        assert hint["winnable"] is True
        return hint["kind"], hint["cards"]

    # followed by hand, move by move (a selection between keeps the line too)
    for move in solution[:6]:
        assert hinted() == (move["kind"], move["cards"])
        if move["kind"] == "draw":
            state = act(client, state, "stock")
        for card in move["cards"]:
            state = act(client, state, "tap", card)
            if card != move["cards"][-1]:
                assert hinted() == (move["kind"], move["cards"])
    assert state["moves"] == 6
    # off the line, the hint is the solver's again (and still wins)
    state = act(client, state, "undo")
    assert hinted()[0] in ("remove", "draw", "recycle")


def test_lost_position_is_flagged(client: TestClient) -> None:
    # a queen at the apex with all four aces lower in the pyramid: never winnable
    layout = reference_layout().split()
    for a, b in (("JD", "QS"), ("5H", "AH"), ("3D", "AC")):
        i, j = layout.index(a), layout.index(b)
        layout[i], layout[j] = b, a
    assert layout[0] == "QS" and {"AS", "AD", "AH", "AC"} <= set(layout[1:28])
    state = new_game(client, layout=" ".join(layout), rules="N")
    assert state["lost"] is True
    client.put("/api/settings", json={"warn_lost": False})
    assert client.get(f"/api/games/{state['id']}").json()["lost"] is False
    hint = client.get(f"/api/games/{state['id']}/hint").json()
    assert hint["winnable"] is False and hint["max_removed"] <= 27


def test_errors_and_rule_names_speak_the_players_language(client: TestClient) -> None:
    client.put("/api/settings", json={"lang": "ru"})
    response = client.post("/api/games", json={"code": "PY1-N-AAAA"})
    body = response.json()
    assert response.status_code == 400
    assert body["title"] == "Неверный код расклада"
    assert body["error"] == (
        "Неверный код расклада: в коде расклада 'PY1-N-AAAA' букв номера: 4, а нужно 7")
    body = client.post("/api/games", json={"layout": "AS " * 52}).json()
    assert body["detail"].startswith("список карт 'AS AS ")
    assert body["detail"].endswith("...': карты повторяются: Т♠")
    body = client.post("/api/games", json={"layout": "1X"}).json()
    assert body["detail"] == "список карт, карта 1: непонятная карта '1X': нет масти 'X'"
    body = client.post("/api/games", json={"random": True, "rules": "Q"}).json()
    assert body["detail"] == "нет набора правил 'Q': есть " + ", ".join(sorted(PRESETS))
    names = {r["letter"]: r["name"] for r in client.get("/api/rules").json()}
    assert names["T"] == "Гробница Тутанхамона"
    client.put("/api/settings", json={"lang": "en"})
    body = client.post("/api/games", json={"layout": "AS"}).json()
    assert body["error"].startswith("Invalid card list: ")
    assert {r["letter"]: r["name"] for r in client.get("/api/rules").json()}["T"] == "Tut's Tomb"


def test_solution_is_the_shortest_line_and_replays_to_a_win(client: TestClient) -> None:
    client.put("/api/settings", json={"lang": "ru"})
    state = new_game(client, code="PY1-N-AAAAAAB")
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["winnable"] is True and solution["shortest"] is True
    assert solution["version"] == state["version"] and len(solution["moves"]) == 64
    first = solution["moves"][0]
    assert first["kind"] == "remove" and first["label"] == "К♣" and first["cards"] == ["KC"]
    assert first["card_labels"] == ["К♣"]
    pair = next(m for m in solution["moves"] if len(m["cards"]) == 2)
    assert pair["label"] == " + ".join(pair["card_labels"])
    assert [label[-1] for label in pair["card_labels"]] == [
        {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[-1]] for code in pair["cards"]]
    assert {m["label"] for m in solution["moves"] if m["kind"] == "draw"} == {"взять карту"}
    played = []
    while state["status"] == "playing":
        state = act(client, state, "solution")
        played.append(state)
        assert state["assisted"] is True
    assert state["status"] == "won" and state["moves"] == 64 and len(played) == 64
    # the solution of each later version is the rest of the same line (found once)
    assert client.get(f"/api/games/{state['id']}/solution").json()["moves"] == []
    assert client.get(f"/api/games/{state['id']}/hint").json() == {
        "move": None, "kind": None, "cards": [], "stock": False,
        "winnable": True, "max_removed": 28,
    }
    over = act(client, state, "solution", status=400)
    assert over["error"] == "Недопустимый ход: партия уже окончена (выиграна)"
    client.post("/api/games", json={"random": True})  # the solved game is no longer current
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["played"], stats["won"], stats["solved"]) == (1, 0, 1)
    assert stats["best_games"] == [] and stats["scores"] == []


def test_solution_marks_the_game_for_good(tmp_path: Path) -> None:
    db = tmp_path / "assisted.sqlite3"
    client = local_client(create_app(GameService(Store(db), FakeClock())))
    state = new_game(client, code="PY1-N-AAAAAAS")
    state = act(client, state, "solution")
    assert state["assisted"] is True and state["moves"] == 1
    state = act(client, state, "undo")
    assert state["assisted"] is True  # undoing the move does not take the help back
    stale = act(client, {**state, "version": 0}, "solution", status=409)
    assert stale["state"]["moves"] == 1
    again = local_client(create_app(GameService(Store(db), FakeClock())))
    assert again.get(f"/api/games/{state['id']}").json()["assisted"] is True


def test_solution_of_a_lost_deal_reaches_max_removed(client: TestClient) -> None:
    state = new_game(client, code="PY1-N-AAAAAAJ")
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["winnable"] is False and 0 < solution["max_removed"] < 28
    for _ in solution["moves"]:
        state = act(client, state, "solution")
    assert 28 - sum(slot is not None for slot in state["pyramid"]) == solution["max_removed"]
    assert solution["tableau_cards"] == 28
    assert client.get("/api/games/999999/solution").status_code == 404
    giza = new_game(client, code="PY1-G-AAAAAAJ")  # 28 pyramid cards and a reserve of 24
    assert client.get(f"/api/games/{giza['id']}/solution").json()["tableau_cards"] == 52


def test_solution_with_a_state_budget_of_its_own(client: TestClient) -> None:
    state = new_game(client, code="PY1-N-AAAABLC")  # deal 964: 20,000 states prove nothing
    url = f"/api/games/{state['id']}/solution"
    small = client.get(url, params={"states": "20000"}).json()
    assert small["shortest"] is False and small["timed_out"] is False and small["moves"]
    assert client.get(url, params={"states": "20000"}).json() == small  # the same, again
    for bad in ("0", "-3", "nan", "1.5", "", "lots", "10000000000000"):
        answer = client.get(url, params={"states": bad}, headers=RU)
        assert answer.status_code == 400, bad
        assert "бюджет поиска" in answer.json()["error"], bad
    english = client.get(url, params={"states": "nan"}).json()
    assert "state budget 'nan' is not a whole number of states" in english["error"]
    assert client.get(f"/api/games/{state['id']}").json()["version"] == state["version"]
    quick = new_game(client, code="PY1-N-AAAAAAB")
    url = f"/api/games/{quick['id']}/solution"
    assert client.get(url, params={"states": "1"}).json()["shortest"] is False
    game_line = client.get(url).json()  # the game's own budget, not the line of 1 state
    assert game_line["shortest"] is True and len(game_line["moves"]) == 64


def test_a_database_of_the_first_version_is_brought_up_to_date(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, rules TEXT NOT NULL,
            code TEXT, layout TEXT NOT NULL, version INTEGER NOT NULL DEFAULT 0,
            score INTEGER NOT NULL DEFAULT 0, moves INTEGER NOT NULL DEFAULT 0,
            elapsed REAL NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'playing',
            created_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT);
        CREATE TABLE actions (game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL, action TEXT NOT NULL, t REAL NOT NULL,
            PRIMARY KEY (game_id, seq));
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO settings VALUES ('lang', '"ru"');
    """)
    layout = Deal.from_number(18).layout_text()
    for status in ("lost", "playing"):
        old.execute("INSERT INTO games (rules, code, layout, version, score, moves, status,"
                    " created_at, updated_at) VALUES ('N', 'PY1-N-AAAAAAS', ?, 1, 0, 1, ?,"
                    " 'x', 'x')", (layout, status))
    old.execute("INSERT INTO actions VALUES (1, 0, 'draw', 1.5), (2, 0, 'draw', 2.5)")
    old.commit()
    old.close()
    client = local_client(create_app(GameService(Store(db), FakeClock())))
    stats = client.get("/api/stats?rules=N").json()
    assert (stats["played"], stats["won"], stats["solved"]) == (1, 0, 0)
    assert client.get("/api/settings").json()["lang"] == "ru"
    current = client.get("/api/games/current").json()
    assert (current["id"], current["version"], current["moves"]) == (2, 1, 1)
    assert act(client, current, "stock")["moves"] == 2


@pytest.mark.parametrize("code", ["PY1-M-AAAAAAB", "PY1-T-AAAAAAB"])
def test_solution_under_other_rule_sets_plays_to_its_promise(client: TestClient,
                                                             code: str) -> None:
    state = new_game(client, code=code)
    solution = client.get(f"/api/games/{state['id']}/solution").json()
    assert solution["winnable"] in (True, False, None) and solution["moves"]
    for _ in solution["moves"]:
        state = act(client, state, "solution")
    removed = 28 - sum(slot is not None for slot in state["pyramid"])
    assert removed == solution["max_removed"]
    assert (state["status"] == "won") == (solution["winnable"] is True)


def stored(db_path: Path, game_id: int) -> tuple[Any, list[Any]]:
    """A game's row and actions as they lie in the database file."""
    with closing(sqlite3.connect(db_path)) as db:
        row = db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        actions = db.execute("SELECT * FROM actions WHERE game_id=? ORDER BY seq",
                             (game_id,)).fetchall()
    return row, actions


def test_refused_actions_answer_in_russian_and_change_nothing(client: TestClient,
                                                              db_path: Path) -> None:
    state = new_game(client, code="PY1-N-AAAAAAS")
    url = f"/api/games/{state['id']}/actions"
    cases = [
        ({"version": 0, "type": "undo"}, "Недопустимый ход: нечего отменять"),
        ({"version": 0, "type": "tap", "card": "3S"},  # face down in the stock
         "Недопустимый ход: карты 3♠ нет на столе открытой"),
        ({"version": 0, "type": "tap"},
         'Неверный запрос: в нажатии нужна карта, например {"card": "10H"}'),
    ]
    for body, error in cases:
        response = client.post(url, json=body, headers=RU)
        assert response.status_code == 400, response.text
        assert response.json()["error"] == error
    state = act(client, state, "tap", "KC")
    before = client.get(f"/api/games/{state['id']}", headers=RU).json()
    kept = stored(db_path, state["id"])
    response = client.post(url, json={"version": state["version"], "type": "tap", "card": "KC"},
                           headers=RU)
    assert response.status_code == 400
    assert response.json() == {
        "error": "Недопустимый ход: карты К♣ нет на столе открытой",
        "title": "Недопустимый ход", "detail": "карты К♣ нет на столе открытой"}
    english = client.post(url, json={"version": state["version"], "type": "tap", "card": "KC"})
    assert english.json()["error"] == (
        "Illegal move: tap K♣: the card is not on the table face up")
    assert client.get(f"/api/games/{state['id']}", headers=RU).json() == before
    assert stored(db_path, state["id"]) == kept
    assert (before["version"], before["moves"], before["score"]) == (1, 1, 10)


def test_unknown_game_is_a_404_in_the_players_language(client: TestClient) -> None:
    assert no_current_game(client)  # no game in progress is not an error: 200, null
    response = client.get("/api/games/999", headers=RU)
    assert response.status_code == 404
    assert response.json() == {"error": "нет партии с номером 999", "title": "Не найдено"}
    response = client.post("/api/games/999/actions", json={"version": 0, "type": "stock"},
                           headers=RU)
    assert response.status_code == 404
    assert response.json()["error"] == "нет партии с номером 999"
    english = client.get("/api/games/999")
    assert english.json() == {"error": "no game with id 999", "title": "Not found"}
    assert no_current_game(client)  # nothing was created


def test_stale_action_is_a_409_in_the_players_language(client: TestClient,
                                                       db_path: Path) -> None:
    state = act(client, new_game(client, code="PY1-N-AAAAAAS"), "stock")
    kept = stored(db_path, state["id"])
    response = client.post(f"/api/games/{state['id']}/actions",
                           json={"version": 0, "type": "stock"}, headers=RU)
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == (
        "партия изменилась (версия 1, а действие сделано в версии 0); "
        "показано текущее состояние")
    assert body["title"] == "Партия изменилась"
    assert body["state"] == client.get(f"/api/games/{state['id']}", headers=RU).json()
    assert body["state"]["rules"]["name"] == "Пирамида"
    assert (body["state"]["version"], body["state"]["stock"]["count"]) == (1, 22)
    assert stored(db_path, state["id"]) == kept
    english = client.post(f"/api/games/{state['id']}/actions",
                          json={"version": 0, "type": "stock"})
    assert english.json()["error"].startswith("the game has changed (version 1, ")


def test_corrupt_stored_game_is_refused_in_russian_and_left_alone(db_path: Path,
                                                                  clock: FakeClock) -> None:
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        state = act(client, new_game(client, code="PY1-N-AAAAAAS"), "stock")
    store.close()
    with closing(sqlite3.connect(db_path)) as db:  # K♠ cannot go first in this deal
        db.execute("UPDATE actions SET action='KS' WHERE game_id=? AND seq=0", (state["id"],))
        db.commit()
    kept = stored(db_path, state["id"])
    store = Store(db_path)
    with local_client(create_app(GameService(store, clock))) as client:
        response = client.get(f"/api/games/{state['id']}", headers=RU)
        assert response.status_code == 400
        body = response.json()
        assert body["title"] == "Сохранённая партия повреждена"
        assert body["error"] == (
            f"Сохранённая партия повреждена: сохранённую партию {state['id']} не удаётся "
            "загрузить: сохранённая партия не принята: записанный ход 'KS' в той позиции "
            "недопустим")
        response = client.post(f"/api/games/{state['id']}/actions",
                               json={"version": 1, "type": "stock"}, headers=RU)
        assert response.status_code == 400
        assert response.json()["error"] == body["error"]
        english = client.get(f"/api/games/{state['id']}")
        assert english.json()["detail"] == (
            f"stored game {state['id']} cannot be loaded: saved game rejected: "
            "logged move 'KS' is not legal there")
    store.close()
    assert stored(db_path, state["id"]) == kept


def test_server_failure_is_a_500_in_the_browsers_language(db_path: Path,
                                                         clock: FakeClock) -> None:
    store = Store(db_path)
    client = local_client(create_app(GameService(store, clock)), raise_server_exceptions=False)
    store.close()  # every request now fails, the reading of the settings too
    response = client.get("/api/games/current", headers=RU)
    assert response.status_code == 500
    assert response.json() == {
        "error": "внутренняя ошибка (StoreClosedError); ничего не изменилось",
        "title": "Ошибка сервера"}
    response = client.get("/api/games/current")
    assert response.status_code == 500
    assert response.json() == {"error": "internal error (StoreClosedError); nothing was changed",
                               "title": "Server error"}


def test_no_winnable_deal_in_time_is_explained_in_russian(
    client: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One state per search cannot prove a win under O (one pass, all 52 cards), and
    # no time is left for a second deal: the real solver gives up on the first one.
    monkeypatch.setattr(daily_module, "DECIDE_BUDGET", Budget(nodes=1, seconds=None))
    monkeypatch.setattr(daily_module, "RANDOM_SECONDS", 0.0)
    response = client.post("/api/games",
                           json={"random": True, "winnable_only": True, "rules": "O"},
                           headers=RU)
    assert response.status_code == 400
    assert response.json()["error"] == (
        "Неверный запрос: за 0 с не нашлось расклада по правилам O, у которого доказан "
        "выигрыш; попробуйте ещё раз или разрешите любой расклад")
    assert no_current_game(client)


def test_a_free_cell_solution_names_its_moves_into_the_cell(client: TestClient) -> None:
    """Free cell (L): the Solution's moves into the cell have labels of their own
    in both languages, and the line replays to a win."""
    state = new_game(client, code="PY1-L-WLUWMVF")
    labels = {}
    for lang in ("en", "ru"):
        client.put("/api/settings", json={"lang": lang})
        solution = client.get(f"/api/games/{state['id']}/solution").json()
        assert solution["winnable"] is True
        cells = [m for m in solution["moves"] if m["kind"] == "cell"]
        assert cells, solution["moves"]
        labels[lang] = cells[0]["label"]
    assert labels["en"].endswith(" to the cell") and labels["ru"].endswith(" в ячейку")
    while state["status"] == "playing":
        state = act(client, state, "solution")
    assert state["status"] == "won"
