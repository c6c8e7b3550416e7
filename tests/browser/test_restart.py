"""Kill the server mid-game: the page at the new address shows the same game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Table, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_game_survives_a_killed_server(page: Page, live_server: LiveServer) -> None:
    put_settings(live_server.url, lang="ru", animations=False)
    table = Table(page, live_server.url).open("/?deal=PY1-N-AAAAAAS")
    # bottom row 5♦ K♣ 2♠ J♥ 3♦ 10♥ A♠, waste 10♣, stock from 3♠
    table.tap("KC")
    table.tap("3D")
    table.tap("10C")
    table.stock()
    table.expect_figures(20, 3)
    expect(table.page.locator('[data-zone="waste"][data-card]').last).to_have_attribute(
        "data-card", "3S")
    before = (table.on_table(), table.pyramid())
    assert "KC" not in before[0] and "3D" not in before[0] and "10C" not in before[0]

    old_url = live_server.url
    live_server.restart()  # SIGKILL, then a new process on the same database
    table.url = live_server.url
    assert table.url != old_url or live_server.process is not None
    table.open("/")
    table.expect_figures(20, 3)
    assert (table.on_table(), table.pyramid()) == before
    expect(table.page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAS")
    expect(table.page.locator('[data-zone="stock"]')).to_contain_text("22")
    # and play goes on from there: undo the draw
    table.button("undo")
    table.expect_figures(20, 3)
    expect(table.page.locator('[data-zone="waste"][data-card]')).to_have_count(0)
    expect(table.page.locator('[data-zone="stock"]')).to_contain_text("23")


def test_two_tabs_stay_consistent(page: Page, server: LiveServer) -> None:
    """A tab acting on an old version is refused (409) and shows the current game."""
    put_settings(server.url, lang="ru", animations=True)
    first = Table(page, server.url).open("/?deal=PY1-N-AAAAAAS")
    second = Table(page.context.new_page(), server.url).open("/")
    assert second.pyramid() == first.pyramid()

    first.tap("KC")
    first.expect_figures(10, 1)
    expect(second.card("KC")).to_have_count(1)  # the second tab has not heard yet
    with second.page.expect_response(lambda r: "/actions" in r.url) as answer:
        second.stock()
    assert answer.value.status == 409
    # the refused draw did nothing; the second tab now shows the first tab's move
    expect(second.card("KC")).to_have_count(0)
    second.expect_figures(10, 1)
    expect(second.page.get_by_test_id("message")).not_to_have_text("")
    expect(second.page.locator('[data-zone="stock"]')).to_contain_text("23")
    second.stock()  # and it plays on from there
    second.expect_figures(10, 2)
    expect(second.page.locator('[data-zone="stock"]')).to_contain_text("22")
