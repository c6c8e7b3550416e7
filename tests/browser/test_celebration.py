"""A win worth winning: the cascade (or none, with reduced motion or animations
off), sounds when the player wants them, and the look of the table remembered."""

from __future__ import annotations

import os
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Table, call, put_settings, screenshot_dir
from tests.browser.test_accessibility import audit
from tests.browser.test_solver_line import winnable_code
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def one_move_from_a_win(url: str) -> list[str]:
    """Start a winnable deal and play the solver's hints through taps (so the game
    stays the player's own) until one pair or king is left; returns its cards."""
    code = winnable_code(url)
    status, state = call(url, "POST", "/api/games", {"code": code})
    assert status == 201
    for _ in range(400):
        _, hint = call(url, "GET", f"/api/games/{state['id']}/hint")
        assert hint["winnable"] is True, hint
        left = [slot["card"] for slot in state["pyramid"] if slot]
        if not hint["stock"] and set(left) <= set(hint["cards"]):
            return list(hint["cards"])
        actions: list[dict[str, Any]] = [{"type": "pile", "pile": "stock"}] if hint["stock"] \
            else [{"type": "tap", "card": card} for card in hint["cards"]]
        for action in actions:
            status, state = call(url, "POST", f"/api/games/{state['id']}/actions",
                                 {"version": state["version"], **action})
            assert status == 200, state
    raise AssertionError("the hints did not lead to a win")


@pytest.mark.parametrize("motion", ["full", "reduce", "off"])
def test_a_win_is_celebrated_unless_motion_is_unwanted(browser: Browser, server: LiveServer,
                                                       motion: str) -> None:
    put_settings(server.url, lang="en", animations=motion != "off", sounds=True)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce" if motion == "reduce" else "no-preference")
    try:
        last = one_move_from_a_win(server.url)
        table = Table(context.new_page(), server.url).open("/")
        page = table.page
        for card in last:
            table.tap(card)
        party = page.get_by_test_id("celebration")
        end = page.get_by_test_id("end-dialog")
        if motion == "full":
            expect(party).to_be_attached()
            expect(party.locator(".card[data-cascade]:not(.ghost)")).to_have_count(24)
            expect(end).to_be_hidden()  # the cascade first, then the dialog
            page.wait_for_timeout(900)
            moving = page.evaluate(
                "document.getAnimations().filter(a => a.playState === 'running').length")
            assert moving > 0
            if os.environ.get("PYRAMIDE_SCREENSHOTS"):
                page.screenshot(path=str(screenshot_dir() / "celebration-en-desktop.png"))
            page.mouse.click(10, 400)  # a click ends it at once
            expect(party).to_have_count(0)
        else:
            expect(end).to_be_visible()
            expect(party).to_have_count(0)
        expect(end).to_be_visible()
        expect(page.get_by_test_id("end-title")).to_have_text("You won!")
        expect(page.get_by_test_id("end-text")).to_have_text("The pyramid is cleared.")
        # the sounds were asked for: the win sounded
        assert page.evaluate("document.body.dataset.sound") == "win"
        if motion == "off":  # the end dialog passes the accessibility audit
            assert audit(page, "end dialog") == []
    finally:
        context.close()


def test_sounds_are_off_unless_chosen(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False, sounds=False)
    table.open("/?deal=PY1-N-AAAAAAS")
    page = table.page
    table.tap("3D")
    table.tap("10C")
    assert page.evaluate("document.body.dataset.sound") is None
    table.button("settings")
    expect(page.get_by_test_id("set-sounds")).not_to_be_checked()
    page.get_by_test_id("set-sounds").check()
    table.idle()
    page.keyboard.press("Escape")
    table.tap("5D")
    assert page.evaluate("document.body.dataset.sound") == "select"
    table.tap("2S")  # 5 + 2: refused, with a message
    assert page.evaluate("document.body.dataset.sound") == "error"
    table.tap("KC")
    assert page.evaluate("document.body.dataset.sound") == "pair"
    table.stock()
    assert page.evaluate("document.body.dataset.sound") == "draw"
    put_settings(server.url, sounds=False)


def test_card_back_and_table_colour_are_chosen_and_kept(table: Table,
                                                        server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=False, card_back="red", felt="green")
    table.open("/?deal=PY1-N-AAAAAAS")
    page = table.page
    stock = page.locator('[data-zone="stock"]')
    red = stock.evaluate("e => getComputedStyle(e).backgroundColor")
    felt = page.evaluate("getComputedStyle(document.body).backgroundImage")
    table.button("settings")
    expect(page.get_by_test_id("set-back").locator("option")).to_have_text(
        ["Красная", "Синяя", "Зелёная", "Чёрная"])
    page.get_by_test_id("set-back").select_option("blue")
    table.idle()
    page.get_by_test_id("set-felt").select_option("grey")
    table.idle()
    page.keyboard.press("Escape")
    assert stock.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(29, 63, 134)" != red
    assert page.evaluate("getComputedStyle(document.body).backgroundImage") != felt
    table.open("/")  # remembered with the other settings
    expect(page.locator("body")).to_have_attribute("data-back", "blue")
    expect(page.locator("body")).to_have_attribute("data-felt", "grey")
    assert "rgb(93, 102, 112)" in page.evaluate("getComputedStyle(document.body).backgroundImage")
    put_settings(server.url, card_back="red", felt="green")
