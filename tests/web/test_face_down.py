"""The page gets only what a player may see: no answer names a face-down card.

A game is walked through every endpoint (new game three ways, state, current,
taps, draws, undo, the solver's move, hint, replay, presence, a stale action,
settings, rules, statistics); after each answer the game is rebuilt from the
database and every card code anywhere in the answer is checked against the
stock's face-down cards.  The one deliberate exception is the Solution answer,
the line the player asked to see (it names the cards its draws will turn up).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from pyramide.cards import Card
from pyramide.deals import Deal
from pyramide.saves import game_from_dict
from pyramide.web.schema import LOCAL_PLAYER
from pyramide.web.store import Store

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])")


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def face_down(store: Store, game_id: int) -> set[str]:
    record = store.load(LOCAL_PLAYER, game_id)
    assert record is not None
    game = game_from_dict(record.save_dict())
    stock: list[Card] = list(game.position.stock)
    if game.rules.open_stock and stock:
        stock = stock[1:]
    return {card.code for card in stock}


VALUE = {"A": 1, "J": 11, "Q": 12, "K": 13}


def removable(tappable: list[str]) -> list[str]:
    """A king, or two cards making 13, among the tappable ones (the engine decides
    whether the pair is legal: a refused pair is an answer to check too)."""
    def value(code: str) -> int:
        return VALUE.get(code[:-1]) or int(code[:-1])
    for code in tappable:
        if value(code) == 13:
            return [code]
    for i, a in enumerate(tappable):
        for b in tappable[i + 1:]:
            if value(a) + value(b) == 13:
                return [a, b]
    return []


class Walker:
    def __init__(self, client: TestClient, store: Store) -> None:
        self.client = client
        self.store = store
        self.seen = 0

    def check(self, game_id: int, answer: Any) -> Any:
        body = answer.json()
        hidden = face_down(self.store, game_id)
        named = {code for s in strings(body) for code in CARD.findall(s)}
        assert not named & hidden, (answer.request.url, named & hidden)
        self.seen += 1
        return body

    def call(self, game_id: int, method: str, path: str, body: Any = None) -> Any:
        answer = self.client.request(method, path, json=body, headers={"accept-language": "en"})
        assert answer.status_code < 500, answer.text
        return self.check(game_id, answer)

    def act(self, state: dict[str, Any], kind: str, card: str | None = None) -> Any:
        body = {"version": state["version"], "type": kind, **({"card": card} if card else {})}
        return self.call(state["id"], "POST", f"/api/games/{state['id']}/actions", body)


@pytest.mark.parametrize("start", [
    {"code": "PY1-N-AAAAAAS"}, {"code": "PY1-P-AAAAAAS"}, {"code": "PY1-T-AAAAAAC"},
    {"layout": Deal.from_number(5).layout_text(), "rules": "R"}, {"random": True},
])
def test_no_answer_names_a_face_down_card(client: TestClient, db_path: Any,
                                          start: dict[str, Any]) -> None:
    store = Store(db_path)
    walk = Walker(client, store)
    client.put("/api/settings", json={"warn_lost": False})  # the lost warning: tested apart
    created = client.post("/api/games", json=start)
    assert created.status_code == 201
    state = walk.check(created.json()["id"], created)
    assert "layout" not in state
    gid = state["id"]
    walk.call(gid, "GET", f"/api/games/{gid}")
    walk.call(gid, "GET", "/api/games/current")
    walk.call(gid, "GET", f"/api/games/{gid}/hint")
    for step in range(30):
        if state["status"] != "playing":
            break
        pair = removable(state["tappable"])
        if step % 9 == 8 and state["can_undo"]:
            state = walk.act(state, "undo")
        elif step == 5:
            state = walk.act(state, "solution")
        elif pair:
            for card in pair:
                state = walk.act(state, "tap", card)
        else:
            state = walk.act(state, "stock")
        if step % 10 == 0:
            walk.check(gid, client.post(f"/api/games/{gid}/actions",
                                        json={"version": 0, "type": "stock"}))  # stale: 409
    walk.call(gid, "GET", f"/api/games/{gid}/hint")
    walk.call(gid, "POST", f"/api/games/{gid}/presence", {"visible": False})
    walk.call(gid, "POST", f"/api/games/{gid}/presence", {"visible": True})
    letter = state["rules"]["letter"]
    for path in ("/api/settings", "/api/rules", f"/api/stats?rules={letter}"):
        walk.call(gid, "GET", path)
    again = client.post(f"/api/games/{gid}/replay", json={})
    assert again.status_code == 201
    fresh = walk.check(again.json()["id"], again)
    assert fresh["pyramid"] == created.json()["pyramid"]  # the same cards, dealt again
    assert fresh["code"] == state["code"] and fresh["moves"] == 0
    assert walk.seen > 20
    store.close()


def test_replay_deals_the_same_cards_without_a_card_list(client: TestClient) -> None:
    layout = Deal.from_number(11).layout_text()
    first = client.post("/api/games", json={"layout": layout, "rules": "O"}).json()
    again = client.post(f"/api/games/{first['id']}/replay", json={}).json()
    assert again["id"] != first["id"] and again["code"] is None
    assert again["pyramid"] == first["pyramid"] and again["rules"]["letter"] == "O"
    assert client.post("/api/games/999/replay", json={}).status_code == 404
