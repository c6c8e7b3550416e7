"""Phones: sideways (844 × 390) and upright (390 × 844), in both languages.

Sideways the status and the tools stand in columns beside the board, so the
cards get the height; Settings scrolls inside the screen.  Upright the
statistics show every column with codes on one line.  Russian toolbar labels
never touch.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def phone(browser: Browser, width: int, height: int, lang: str) -> Any:
    return browser.new_context(viewport={"width": width, "height": height},
                               locale="ru-RU" if lang == "ru" else "en-US",
                               has_touch=True, is_mobile=True)


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def inside(b: dict[str, float], width: int, height: int) -> bool:
    return b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["width"] <= width + 0.5 \
        and b["y"] + b["height"] <= height + 0.5


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_phone_sideways(browser: Browser, server: LiveServer, lang: str) -> None:
    put_settings(server.url, lang=lang, animations=False)
    context = phone(browser, 844, 390, lang)
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-N-AAAAAAS")
        page = table.page
        assert page.evaluate("document.documentElement.scrollWidth") <= 844
        # the bars stand beside the board: it has the whole height
        board = box(page, "#board")
        assert board["height"] >= 380 and board["y"] <= 5, board
        card = box(page, '[data-card="AD"]')
        assert card["width"] >= 60, card  # was 36 with the bars on top
        # Settings fits the screen; what does not fit scrolls inside the dialog
        table.button("settings")
        dialog = page.get_by_test_id("settings-dialog")
        assert inside(dialog.bounding_box() or {}, 844, 390)
        close = dialog.locator("[data-close]")
        close.scroll_into_view_if_needed()
        assert inside(close.bounding_box() or {}, 844, 390)
        close.tap()
        expect(dialog).to_be_hidden()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_phone_statistics_show_every_column(browser: Browser, server: LiveServer,
                                            lang: str) -> None:
    put_settings(server.url, lang=lang, animations=False)
    for code in ("PY1-N-AAAAAAS", "PY1-N-AAAAAAT"):  # two games played, the first left
        status, state = call(server.url, "POST", "/api/games", {"code": code})
        assert status == 201
        status, _ = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                         {"version": 0, "type": "pile", "pile": "stock"})
        assert status == 200
    context = phone(browser, 390, 844, lang)
    try:
        table = Table(context.new_page(), server.url).open("/")
        page = table.page
        table.button("stats")
        # best games list only finished games; the history lists both (docs/web.md)
        history = page.get_by_test_id("history-game")
        expect(history.first.locator("a")).to_be_visible()
        assert history.count() >= 2
        # on a phone the history's date stands under the result
        expect(history.first.locator('[data-col="date"]')).to_be_hidden()
        expect(history.first.locator(".when")).to_be_visible()
        dialog = box(page, "#dlg-stats")
        for cell in page.locator(".best th:visible, .best td:visible").all():
            b = cell.bounding_box()
            assert b is not None and b["x"] + b["width"] <= dialog["x"] + dialog["width"] + 0.5
        for link in page.locator(".best a").all():  # one line each
            b = link.bounding_box()
            assert b is not None and b["height"] < 24, b
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (360, 740), (320, 568), (1280, 800), (844, 390)])
def test_russian_tool_labels_do_not_touch(browser: Browser, server: LiveServer,
                                          size: tuple[int, int]) -> None:
    put_settings(server.url, lang="ru", animations=False)
    context = phone(browser, *size, "ru")
    try:
        page = Table(context.new_page(), server.url).open("/").page
        spans = page.locator(".tool span").evaluate_all("""els => els.map(e => {
            const r = document.createRange(); r.selectNodeContents(e);
            const b = r.getBoundingClientRect();
            return {text: e.textContent, left: b.left, right: b.right,
                    top: b.top, bottom: b.bottom};
        })""")
        assert [s["text"] for s in spans][-2:] == ["Статистика", "Настройки"]
        for a, b in pairwise(spans):
            same_line = a["bottom"] > b["top"] and b["bottom"] > a["top"]
            if same_line:
                assert b["left"] - a["right"] >= 4, (a, b)  # a visible gap between words
        cut = page.locator(".tool span").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)")
        assert cut == []  # every label whole, none ending in an ellipsis
    finally:
        context.close()
