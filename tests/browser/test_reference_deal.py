"""Rule book §9 played by clicking in the browser (issue 4's first browser test)."""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Table, put_settings
from tests.conftest import LiveServer
from tests.reference import REFERENCE_CODES, reference_layout

pytestmark = pytest.mark.browser

SUM_NOT_13 = "Сумма должна быть равна 13"
BLOCKED = "Эта карта заблокирована другой картой"


def test_reference_deal_by_clicking(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", explain_errors=True, animations=True)
    layout = urllib.parse.quote(reference_layout())
    table.open(f"/?layout={layout}&rules=N")
    page = table.page
    message = page.get_by_test_id("message")

    # the printed deal, exactly: 28 cards, bottom row free, waste 7♦, URL cleaned
    rows = " ".join(REFERENCE_CODES).split()
    assert table.pyramid() == rows
    assert page.url.rstrip("/") == server.url
    free = page.locator('[data-zone="pyramid"][data-free="true"]').evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(free) == sorted(rows[-7:])
    expect(table.card("7D")).to_have_attribute("data-zone", "waste")
    expect(page.locator('[data-zone="stock"]')).to_contain_text("23")
    expect(page.get_by_test_id("undo")).to_be_disabled()
    table.expect_figures(0, 0)

    # K♦ alone: 10 points
    table.tap("KD")
    table.expect_figures(10, 1)
    expect(table.card("KD")).to_have_count(0)
    expect(page.get_by_test_id("undo")).to_be_enabled()

    # 10♣ + 3♠: 30 points
    table.tap("10C")
    expect(table.card("10C")).to_have_attribute("data-selected", "true")
    table.tap("3S")
    table.expect_figures(30, 2)
    expect(table.card("10C")).to_have_count(0)
    expect(table.card("3S")).to_have_count(0)
    assert len(table.pyramid()) == 25

    # 7♣ + 7♠ refused: the message, 7♠ stays selected, 7♣ does not, nothing removed
    table.tap("7C")
    table.tap("7S")
    expect(message).to_have_text(SUM_NOT_13)
    expect(table.card("7S")).to_have_attribute("data-selected", "true")
    expect(table.card("7C")).to_have_attribute("data-selected", "false")
    expect(page.locator('[data-selected="true"]')).to_have_count(1)
    table.expect_figures(30, 2)
    assert len(table.pyramid()) == 25

    # Q♣ is blocked: explained with "explain errors" on, the selection unchanged
    expect(table.card("QC")).to_have_attribute("data-free", "false")
    table.tap("QC")
    expect(message).to_have_text(BLOCKED)
    expect(table.card("7S")).to_have_attribute("data-selected", "true")

    # switch "explain errors" off in the Settings dialog: the same tap says nothing
    table.button("settings")
    dialog = page.get_by_test_id("settings-dialog")
    expect(dialog).to_be_visible()
    checkbox = page.get_by_test_id("set-explain-errors")
    expect(checkbox).to_be_checked()
    checkbox.uncheck()
    table.idle()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(message).to_have_text(BLOCKED)  # the earlier message is still up
    with page.expect_response(lambda r: "/actions" in r.url) as answer:
        table.tap("QC")
    assert answer.value.json()["message"] is None
    expect(message).to_have_text("")
    expect(message).not_to_have_class("show")
    expect(table.card("7S")).to_have_attribute("data-selected", "true")
    table.expect_figures(30, 2)

    # undo twice: 10 then 0 points, the cards come back, moves stay 2
    table.button("undo")
    table.expect_figures(10, 2)
    expect(table.card("10C")).to_have_attribute("data-zone", "pyramid")
    expect(table.card("3S")).to_have_attribute("data-zone", "pyramid")
    table.button("undo")
    table.expect_figures(0, 2)
    expect(table.card("KD")).to_have_attribute("data-slot", "26")  # row 7, column 6
    assert table.pyramid() == rows
    expect(page.get_by_test_id("undo")).to_be_disabled()
    put_settings(server.url, explain_errors=True)
