"""The table fits a phone held upright and a wide desktop, in both languages.

Geometry is checked on the real page (boxes as Chromium lays them out), and a
screenshot of each size is saved (to the test's tmp dir; to docs/screenshots
with PYRAMIDE_SCREENSHOTS=1 — benchmarks/screenshots.py makes the docs ones).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from pyramide.geometry import row_col
from tests.browser.conftest import Table, put_settings, screenshot_dir
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1440, 900), "phone": (390, 844), "landscape": (844, 390),
         "small-laptop": (900, 700)}
MIN_CARD = {"desktop": 90, "phone": 44, "landscape": 60, "small-laptop": 70}
TOOLS = ("new-game", "undo", "hint", "solution", "stats", "settings")


def boxes(table: Table, selector: str) -> list[dict[str, Any]]:
    return table.page.locator(selector).evaluate_all("""els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {card: e.dataset.card, slot: +e.dataset.slot,
                x: r.left, y: r.top, w: r.width, h: r.height};
    })""")


def touch(size: str) -> bool:
    return size in ("phone", "landscape")


def box_of(table: Table, testid: str) -> dict[str, Any]:
    found = table.page.get_by_test_id(testid).bounding_box()
    assert found is not None, testid
    return {"x": found["x"], "y": found["y"], "w": found["width"], "h": found["height"]}


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1
            and a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_table_fits_the_screen(browser: Browser, server: LiveServer, tmp_path: Path,
                               size: str, lang: str) -> None:
    width, height = SIZES[size]
    put_settings(server.url, lang=lang, animations=False)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="ru-RU" if lang == "ru" else "en-US",
                                  has_touch=touch(size), is_mobile=touch(size))
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-N-AAAAAAS")
        page = table.page
        # a little play: a king and a pair gone, a card drawn, one selected
        for code in ("KC", "3D", "10C"):
            table.page.locator(f'[data-card="{code}"]').tap() if touch(size) \
                else table.tap(code)
            table.idle()
        table.stock()
        table.tap("2S")
        table.expect_figures(20, 3)
        expect(table.card("2S")).to_have_attribute("data-selected", "true")

        pyramid = boxes(table, '[data-zone="pyramid"][data-card]')
        others = boxes(table, '[data-zone="waste"][data-card], [data-zone="stock"]')
        assert len(pyramid) == 26 and len(others) == 2
        for box in pyramid + others:  # nothing cut off
            assert box["x"] >= 0 and box["y"] >= 0, box
            assert box["x"] + box["w"] <= width and box["y"] + box["h"] <= height, box
        # stock and waste lie beside the pyramid, never on it
        for a in others:
            assert not any(overlaps(a, b) for b in pyramid), a
        # the pyramid is drawn with real overlap: each card half over the two below
        at = {row_col(b["slot"]): b for b in pyramid}
        for (row, col), b in at.items():
            for below in ((row + 1, col), (row + 1, col + 1)):
                if below in at:
                    c = at[below]
                    assert overlaps(b, c), (b, c)
                    assert abs(c["y"] - (b["y"] + b["h"] / 2)) <= 2, (b, c)
        # cards big enough to read and to touch; the index legible
        card_w = pyramid[0]["w"]
        assert card_w >= MIN_CARD[size], card_w
        font = page.locator('[data-card="AS"] .rank').first.evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)")
        assert font >= 14, font
        # toolbar and status inside the screen and clear of the cards
        for testid in (*TOOLS, "score", "moves", "time", "deal-code"):
            box = box_of(table, testid)
            assert box["x"] >= 0 and box["x"] + box["w"] <= width, testid
            assert box["y"] >= 0 and box["y"] + box["h"] <= height, testid
            assert not any(overlaps(box, b) for b in pyramid + others), testid
        # labels are not cut: every tool's text fits its button
        clipped = page.locator(".tool span").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)")
        assert clipped == []
        # no horizontal scrolling
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        target = tmp_path
        if os.environ.get("PYRAMIDE_SCREENSHOTS"):
            target = screenshot_dir()
            target.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(target / f"table-{lang}-{size}.png"))
    finally:
        context.close()


@pytest.mark.parametrize("size", [*sorted(SIZES), "small-landscape"])
def test_lost_warning_covers_no_card_and_no_button(browser: Browser, server: LiveServer,
                                                   size: str) -> None:
    """The "can no longer be won" warning (Russian, the longer text) stays clear of the table."""
    width, height = SIZES.get(size, (667, 375))
    put_settings(server.url, lang="ru", animations=False, warn_lost=True)
    context = browser.new_context(viewport={"width": width, "height": height}, locale="ru-RU")
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-N-AAAAAAJ")
        expect(table.page.get_by_test_id("lost-warning")).to_be_visible()
        warning = box_of(table, "lost-warning")
        assert warning["x"] >= 0 and warning["x"] + warning["w"] <= width, warning
        assert warning["y"] >= 0 and warning["y"] + warning["h"] <= height, warning
        cards = boxes(table, "[data-card], [data-zone='stock']")
        assert len(cards) >= 28
        assert not any(overlaps(warning, b) for b in cards), warning
        for testid in (*TOOLS, "score", "moves", "time", "deal-code"):
            assert not overlaps(warning, box_of(table, testid)), testid
        assert table.page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


# Between a phone and a wide desktop the header keeps to one row: the tools turn
# into icon-over-label buttons and the figures stack their names over their values.
# Russian labels are longer, so its narrowest one-row width is larger, and the wide
# row of bordered buttons fits them only from 1,340 px (at 1,170-1,330 px it took
# two rows of figures, 82 px).
ONE_ROW_FROM = {"ru": 900, "en": 810}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_header_keeps_to_one_row_between_phone_and_desktop(browser: Browser, server: LiveServer,
                                                           lang: str) -> None:
    put_settings(server.url, lang=lang, animations=False)
    context = browser.new_context(viewport={"width": 1000, "height": 760},
                                  locale="ru-RU" if lang == "ru" else "en-US")
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-N-AAAAAAS")
        page = table.page
        heights = {}
        for width in range(770, 1340, 20):
            page.set_viewport_size({"width": width, "height": 760})
            geometry = page.evaluate("""() => {
                const box = (e) => e.getBoundingClientRect();
                const tools = [...document.querySelectorAll('.tool')].map(box);
                const bar = ['.status', '.tools'].map(s => box(document.querySelector(s)));
                const clipped = [...document.querySelectorAll('.tool span, .stat')]
                    .filter(e => e.scrollWidth > e.clientWidth + 1).length;
                return {height: Math.max(...bar.map(r => r.bottom)), clipped,
                        rows: new Set(tools.map(r => Math.round(r.top))).size,
                        right: Math.max(...tools.map(r => r.right))};
            }""")
            assert geometry["rows"] == 1, (width, geometry)  # the six tools side by side
            assert geometry["clipped"] == 0, (width, geometry)
            assert geometry["right"] <= width, (width, geometry)
            heights[width] = geometry["height"]
        # one row of about 60 px where it fits, never more than two rows of figures
        assert all(h <= 64 for w, h in heights.items() if w >= ONE_ROW_FROM[lang]), heights
        assert max(heights.values()) <= 110, heights
    finally:
        context.close()
