"""The page draws any game from the state's table data, with no JS change.

The server of these tests is the real one, except that the game the page
loads is a made-up state of a family game (routed by Playwright, in Python):
a small pyramid over a fanned reserve with a face-down card, a stock, two
waste piles and an empty free cell, with two kings of diamonds of two decks
(KD and KD').  The page must draw every part with its hooks, fit it to the
screen, and send the taps of the contract (a card, a pile) — dragging onto the
empty cell included.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.conftest import Table, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def slot(n: int, zone: str, x: float, y: float, card: str | None, *, free: bool = False,
         face_up: bool = True) -> dict[str, Any]:
    return {"slot": n, "zone": zone, "x": x, "y": y, "card": card, "face_up": face_up,
            "removed": card is None and face_up, "free": free, "tappable": free}


def family_state(version: int = 0, selection: str | None = None,
                 in_cell: str | None = None) -> dict[str, Any]:
    """A made-up game in the contract's shape (docs/api.md, "The table")."""
    reserve = [slot(3 + i, "reserve", 0.0, 2.6 + 0.35 * i, card, free=i == 2)
               for i, card in enumerate(["4C", "9H", "QS"])]
    reserve[0].update(card=None, face_up=False, removed=False)  # face down: no identity
    pyramid = [
        slot(0, "pyramid", 2.55, 0.0, "KD'", free=False),
        slot(1, "pyramid", 2.0, 0.7, "KD", free=True),
        slot(2, "pyramid", 3.1, 0.7, None),  # removed
    ]
    tappable = ["KD", "QS", "AH", "8S"]
    if in_cell:
        tappable.remove(in_cell)
    piles = [
        {"id": "stock", "kind": "stock", "x": 5.0, "y": 0.0, "count": 12, "cards": [],
         "top_open": False, "tappable": True, "action": "draw", "fan": 0, "redeals_left": 1},
        {"id": "waste", "kind": "waste", "x": 5.0, "y": 1.7, "count": 3,
         "cards": ["2D", "7C", "AH"], "top_open": False, "tappable": False, "action": None,
         "fan": 3, "redeals_left": None},
        {"id": "waste2", "kind": "waste", "x": 5.0, "y": 3.4, "count": 1, "cards": ["8S"],
         "top_open": False, "tappable": False, "action": None, "fan": 1,
         "redeals_left": None},
        {"id": "cell", "kind": "cell", "x": 7.2, "y": 0.0, "count": 1 if in_cell else 0,
         "cards": [in_cell] if in_cell else [], "top_open": False, "tappable": not in_cell,
         "action": None if in_cell else "cell", "fan": 1, "redeals_left": None},
    ]
    return {
        "id": 7001, "version": version, "code": None, "layout": "", "rules": {
            "letter": "G", "name": "Family test", "description": "", "open_stock": False,
            "waste_pairs": "none", "draw_count": 1},
        "pyramid": [], "waste": [], "stock": {"count": 12, "open_card": None, "can_draw": True,
                                              "can_recycle": False, "redeals_left": 1},
        "tappable": tappable, "selection": selection, "score": 0, "moves": version,
        "elapsed": 0, "status": "playing", "message": None, "can_undo": False,
        "lost": False, "assisted": False,
        "table": {"width": 8.2, "height": 4.8},
        "tableau": pyramid + reserve,
        "piles": piles,
    }


class FakeGame:
    """Answers the page's requests about game 7001 and records the actions it sends."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.state = family_state()
        page.route("**/api/games/current", self.current)
        page.route("**/api/games/7001/actions", self.action)

    def current(self, route: Route) -> None:
        route.fulfill(json=self.state)

    def action(self, route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        self.sent.append({k: v for k, v in body.items() if k != "version"})
        version = self.state["version"] + 1
        if body.get("type") == "tap":
            self.state = family_state(version, selection=body["card"])
        elif body.get("type") == "pile" and body.get("pile") == "cell":
            self.state = family_state(version, in_cell=self.state["selection"])
        else:
            self.state = family_state(version, selection=self.state["selection"])
        route.fulfill(json=self.state)


def open_family(page: Page, url: str) -> tuple[Table, FakeGame]:
    fake = FakeGame(page)
    return Table(page, url).open("/"), fake


def boxes(page: Page, selector: str) -> list[dict[str, float]]:
    return page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.left, y: r.top, w: r.width, h: r.height}; })")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844), (844, 390)])
def test_a_family_game_is_drawn_from_its_data(browser: Browser, server: LiveServer,
                                              size: tuple[int, int]) -> None:
    put_settings(server.url, lang="en", animations=False)
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        table, _ = open_family(context.new_page(), server.url)
        page = table.page
        # every face-up tableau card with its hook and zone; the two kings apart
        expect(page.locator('#tableau [data-card]')).to_have_count(4)
        expect(table.card("KD'")).to_have_attribute("data-zone", "pyramid")
        expect(table.card("KD")).to_have_attribute("data-slot", "1")
        assert table.card("KD'").get_attribute("aria-label") == "K, king of diamonds"
        expect(page.locator('[data-zone="reserve"][data-card]')).to_have_count(2)
        # the face-down card: a back, no identity anywhere in the page
        expect(page.locator("#tableau .card.back")).to_have_count(1)
        assert "4C" not in page.content()
        # piles: a stock with its count, fanned waste, a second waste, an empty cell
        expect(page.locator('[data-zone="stock"]')).to_contain_text("12")
        expect(page.locator('[data-zone="waste"][data-card]')).to_have_count(3)
        expect(page.locator('[data-zone="waste2"][data-card]')).to_have_attribute("data-card", "8S")
        cell = page.locator('.pile[data-pile="cell"]')
        expect(cell).to_have_attribute("data-free", "true")
        expect(cell).to_have_attribute("aria-label", "Free cell, empty")
        # blocked cards are announced as such
        expect(table.card("KD'")).to_have_attribute("aria-disabled", "true")
        expect(table.card("7C")).to_have_attribute("aria-disabled", "true")
        # the reserve fans down, each card a little lower, later ones on top
        reserve = boxes(page, '[data-zone="reserve"]')
        assert len(reserve) == 3 and reserve[0]["y"] < reserve[1]["y"] < reserve[2]["y"]
        waste = boxes(page, '[data-zone="waste"][data-card]')
        assert waste[0]["x"] < waste[1]["x"] < waste[2]["x"]
        # all of it on the screen, at a size a finger can hit
        for box in boxes(page, "#board .card, #board .pile"):
            assert box["x"] >= 0 and box["y"] >= 0, box
            assert box["x"] + box["w"] <= width and box["y"] + box["h"] <= height, box
            assert box["w"] >= 44, box
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_a_family_game_sends_the_contracts_taps(page: Page, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    table, fake = open_family(page, server.url)
    table.tap("KD")                        # a card of a two-deck game: its own code
    page.locator('[data-zone="stock"]').click()
    table.idle()
    page.keyboard.press("d")               # the D key taps the stock pile too
    table.idle()
    assert fake.sent == [{"type": "tap", "card": "KD"}, {"type": "pile", "pile": "stock"},
                         {"type": "pile", "pile": "stock"}]

    # QS dragged onto the empty cell: the card first, then the pile
    fake.sent.clear()
    start = page.locator('[data-card="QS"]').bounding_box()
    cell = page.locator('.pile[data-pile="cell"]').bounding_box()
    assert start is not None and cell is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] * 0.8)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(start["x"] + (cell["x"] - start["x"]) * i / 8 + cell["width"] / 2,
                        start["y"] + (cell["y"] - start["y"]) * i / 8 + cell["height"] / 2)
    expect(page.locator('[data-drop-target="true"]')).to_have_attribute("data-pile", "cell")
    page.mouse.up()
    table.idle()
    assert fake.sent == [{"type": "tap", "card": "KD"}, {"type": "tap", "card": "QS"},
                         {"type": "pile", "pile": "cell"}]
    expect(page.locator('[data-zone="cell"][data-card]')).to_have_attribute("data-card", "QS")
    expect(page.locator('.pile[data-pile="cell"]')).to_have_attribute("data-free", "false")
