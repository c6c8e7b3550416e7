"""Drag and drop with the mouse and with touch: the same taps, the server's rules.

Deal PY1-N-AAAAAAS: the bottom row is 5♦ K♣ 2♠ J♥ 3♦ 10♥ A♠ and 10♣ lies on
the waste, so 3♦ + 10♣ and 2♠ + J♥ are pairs, 5♦ + 2♠ is not.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Table, put_settings, screenshot_dir
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def middle(page: Page, code: str) -> tuple[float, float]:
    box = page.locator(f'[data-card="{code}"]').bounding_box()
    assert box is not None, code
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.3


def mouse_drag(table: Table, code: str, to: tuple[float, float],
               during: Any = None) -> None:
    page = table.page
    x, y = middle(page, code)
    page.mouse.move(x, y)
    page.mouse.down()
    steps = 8
    for i in range(1, steps + 1):
        page.mouse.move(x + (to[0] - x) * i / steps, y + (to[1] - y) * i / steps)
    if during is not None:
        during()
    page.mouse.up()
    table.idle()


def test_drag_with_the_mouse(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False, explain_errors=True)
    table.open("/?deal=PY1-N-AAAAAAS")
    page = table.page

    # a drop on the felt puts the card back: nothing sent, nothing selected
    home = page.locator('[data-card="5D"]').bounding_box()
    mouse_drag(table, "5D", (20, 20))
    table.expect_figures(0, 0)
    page.wait_for_function("document.getAnimations().length === 0")
    expect(table.card("5D")).to_have_attribute("data-selected", "false")
    assert page.locator('[data-card="5D"]').bounding_box() == home
    expect(page.locator(".dragging")).to_have_count(0)

    # a drop on a card that does not pair: the server's message, as for two taps
    mouse_drag(table, "5D", middle(page, "2S"))
    expect(page.get_by_test_id("message")).to_have_text("The sum must equal 13")
    table.expect_figures(0, 0)

    # with 2♠ selected by that, 3♦ dragged onto the waste's 10♣ still makes its pair
    def in_flight() -> None:
        expect(page.locator('[data-card="3D"]')).to_have_class(re.compile(r"\bdragging\b"))
        expect(page.locator('[data-drop-target="true"]')).to_have_attribute("data-card", "10C")
        assert page.evaluate("document.body.querySelector('#board').dataset.dragging") == "true"
        if os.environ.get("PYRAMIDE_SCREENSHOTS"):
            page.screenshot(path=str(screenshot_dir() / "drag-en-desktop.png"))

    mouse_drag(table, "3D", middle(page, "10C"), during=in_flight)
    table.expect_figures(10, 1)
    expect(table.card("3D")).to_have_count(0)
    expect(table.card("10C")).to_have_count(0)
    expect(page.locator('[data-selected="true"]')).to_have_count(0)

    # a plain click is still a tap
    table.tap("KC")
    table.expect_figures(20, 2)


def touch(page: Page, kind: str, x: float, y: float, cdp: Any) -> None:
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_drag_with_touch(browser: Browser, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=False)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="ru-RU",
                                  has_touch=True, is_mobile=True)
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-N-AAAAAAS")
        page = table.page
        cdp = context.new_cdp_session(page)
        x, y = middle(page, "JH")
        tx, ty = middle(page, "2S")
        touch(page, "touchStart", x, y, cdp)
        for i in range(1, 7):
            touch(page, "touchMove", x + (tx - x) * i / 6, y + (ty - y) * i / 6, cdp)
        expect(page.locator('[data-drop-target="true"]')).to_have_attribute("data-card", "2S")
        touch(page, "touchEnd", tx, ty, cdp)
        table.idle()
        table.expect_figures(20, 1)
        expect(table.card("JH")).to_have_count(0)
        expect(table.card("2S")).to_have_count(0)
        # a touch that does not move is a tap; the stock pile takes its tap too
        page.locator('[data-card="KC"]').tap()
        table.idle()
        table.expect_figures(30, 2)
        page.locator('[data-zone="stock"]').tap()
        table.idle()
        table.expect_figures(30, 3)
    finally:
        context.close()
