"""Every game of the family drawn by the same page from its data (issue 10 item 4).

For one game of each table shape the page opens PY1-<letter>-AAAAAAS and draws every
tableau card the server sends (face-down ones as backs), every pile, all of it
on the screen; a tap on a tappable card is taken by the server.  Wide games
(two pyramids side by side, Pharaohs' three, Giza's reserve) are checked on a
phone too.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Browser, Page, expect

from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.web.view import table_view
from tests.browser.conftest import Table, call, put_settings, screenshot_dir
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def one_per_shape() -> list[str]:
    """One game of each table shape (extent, zones, piles, face-down cards): the
    one-pass variants of the classic game look the same as it does."""
    seen: dict[str, str] = {}
    for letter in PRESETS:
        view = table_view(Game.from_code(f"PY1-{letter}-AAAAAAS"))
        shape = repr((view["table"], sorted({e["zone"] for e in view["tableau"]}),
                      [(p["id"], p.get("open_at")) for p in view["piles"]],
                      sum(not e["face_up"] for e in view["tableau"])))
        seen.setdefault(shape, letter)
    return list(seen.values())


def check_drawn(table: Table, width: int, height: int) -> None:
    page = table.page
    state = table.state()
    shown = [e for e in state["tableau"] if e["card"]]
    backs = [e for e in state["tableau"] if not e["face_up"] and not e["removed"]]
    expect(page.locator("#tableau [data-card]")).to_have_count(len(shown))
    expect(page.locator("#tableau .card.back")).to_have_count(len(backs))
    for entry in shown:
        card = table.card(entry["card"])
        expect(card).to_have_attribute("data-zone", entry["zone"])
        expect(card).to_have_attribute("data-slot", str(entry["slot"]))
    expect(page.locator(".pile[data-pile]")).to_have_count(len(state["piles"]))
    boxes = page.locator("#board .card, #board .pile").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })")
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0 and right <= width + 0.5 and bottom <= height + 0.5
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def first_tap(table: Table) -> None:
    """Tap the first tappable tableau card: the server takes it (a selection or a move)."""
    before = table.state()
    tappable = [e["card"] for e in before["tableau"] if e["tappable"]]
    if not tappable:
        return
    table.tap(tappable[0])
    after = table.state()
    assert after["version"] == before["version"] + 1
    assert after["selection"] == tappable[0] or after["moves"] == before["moves"] + 1


def test_every_game_on_a_desktop(page: Page, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    table = Table(page, server.url)
    for letter in one_per_shape():
        table.open(f"/?deal=PY1-{letter}-AAAAAAS")
        assert table.state()["rules"]["letter"] == letter
        check_drawn(table, 1280, 800)
        if os.environ.get("PYRAMIDE_SCREENSHOTS"):
            page.screenshot(path=str(screenshot_dir() / f"game-{letter}-en-desktop.png"))
        first_tap(table)
        stock = [p for p in table.state()["piles"] if p["kind"] == "stock" and p["tappable"]]
        if stock:
            moves = table.moves
            table.stock()
            assert table.moves == moves + 1, letter


@pytest.mark.parametrize("letter", ["X", "F", "G", "L", "Y"])
def test_wide_and_tall_games_on_a_phone(browser: Browser, server: LiveServer,
                                        letter: str) -> None:
    put_settings(server.url, lang="ru", animations=False)
    status, _ = call(server.url, "GET", "/api/rules")
    assert status == 200
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU",
                                  has_touch=True, is_mobile=True)
    try:
        table = Table(context.new_page(), server.url).open(f"/?deal=PY1-{letter}-AAAAAAS")
        check_drawn(table, 390, 844)
        width = table.page.locator("#tableau [data-card]").first.evaluate(
            "e => e.getBoundingClientRect().width")
        assert width >= 20  # even two pyramids side by side stay recognisable
    finally:
        context.close()


def test_par_pyramid_plays_the_waste_card_beside_the_drawn_card(page: Page,
                                                                 server: LiveServer) -> None:
    """Par Pyramid (§11 D): the drawn card is in hand and the waste top free beside
    it, so after two draws the card under the top one shows, tappable, and pairs
    with a pyramid card while the drawn card stays."""
    put_settings(server.url, lang="en", animations=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    table = Table(page, server.url)
    table.open("/?deal=PY1-D-AAAAAAA")
    table.stock()
    table.stock()  # Q♥ then 10♠: Q♥ lies under the drawn 10♠
    state = table.state()
    assert state["waste"] == ["QH", "10S"] and "QH" in state["tappable"]
    expect(table.card("QH")).to_be_visible()
    table.tap("QH")
    table.tap("AD")
    state = table.state()
    assert state["waste"] == ["10S"] and "QH" not in state["waste"]
    assert state["score"] == 10 and state["moves"] == 3
    expect(table.card("QH")).to_have_count(0)


# PY1-L-AAAAAAA after these 49 moves (found by random play): the hint puts a card in the cell
TO_A_CELL_HINT = (
    "8H+5D QH+AD draw 10D+3H draw draw JD+2C 9H+4S 8D+5H 7C+6C KH QC+AH draw 10C+3S draw draw "
    "JC+2H draw draw draw KD draw draw draw draw 7D+6S draw JS+2S draw draw draw draw draw draw "
    "draw draw KC draw recycle draw draw draw draw draw draw draw draw draw KS")


def test_a_hint_into_the_free_cell_says_so(page: Page, server: LiveServer) -> None:
    """Free cell (L): a hint to put a card in the cell names the cell, in both
    languages (the move is the server's: the page only words it)."""
    _, state = call(server.url, "POST", "/api/games", {"code": "PY1-L-AAAAAAA"})
    game = f"/api/games/{state['id']}"
    for move in TO_A_CELL_HINT.split():
        actions = [{"type": "stock"}] if move in ("draw", "recycle") else \
            [{"type": "tap", "card": card} for card in move.split("+")]
        for action in actions:
            status, state = call(server.url, "POST", game + "/actions",
                                 {"version": state["version"], **action})
            assert status == 200, state
    _, hint = call(server.url, "GET", game + "/hint")
    assert hint["kind"] == "cell" and hint["move"] == f"cell:{hint['cards'][0]}", hint
    for lang, words in (("en", "to the cell"), ("ru", "в ячейку")):
        put_settings(server.url, lang=lang, animations=False)
        table = Table(page, server.url).open("/")
        assert table.state()["id"] == state["id"]
        table.button("hint")
        expect(page.get_by_test_id("message")).to_contain_text(words)
        expect(table.card(hint["cards"][0])).to_have_attribute("data-hint", "true")
