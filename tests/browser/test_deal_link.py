"""A deal link never abandons a game in progress unasked; the page shows the
server's clock, which waits for the first real action and stops while the page
is hidden."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer


def fresh_game(server: LiveServer, code: str, draws: int) -> dict[str, object]:
    _, state = call(server.url, "POST", "/api/games", {"code": code})
    for _ in range(draws):
        _, state = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                        {"version": state["version"], "type": "stock"})
    return state


def test_a_link_asks_before_leaving_a_game_in_progress(page: Page, server: LiveServer) -> None:
    put_settings(server.url, lang="en")
    game = fresh_game(server, "PY1-N-AAAAAAS", draws=1)
    table = Table(page, server.url)
    page.goto(server.url + "/?deal=PY1-N-AAAAAAB")
    dialog = page.get_by_test_id("confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.get_by_test_id("confirm-text")).to_contain_text("PY1-N-AAAAAAS")
    expect(page.get_by_test_id("confirm-text")).to_contain_text("1 moves")
    page.get_by_test_id("confirm-cancel").click()
    page.wait_for_selector('body[data-ready="true"]')
    table.idle()
    assert table.state()["id"] == game["id"]
    expect(page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAS")
    assert "deal=" not in page.url  # a reload does not ask again

    page.goto(server.url + "/?deal=PY1-N-AAAAAAB")
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAB")
    table.idle()
    assert table.state()["id"] != game["id"]


def test_a_bad_link_is_reported_before_anything_is_asked(page: Page, server: LiveServer) -> None:
    put_settings(server.url, lang="ru")
    game = fresh_game(server, "PY1-N-AAAAAAS", draws=2)
    table = Table(page, server.url)
    page.goto(server.url + "/?deal=PY1-N-AAAAAA")  # a letter short
    page.wait_for_selector('body[data-ready="true"]')
    table.idle()
    expect(page.get_by_test_id("message")).to_contain_text("PY1-N-AAAAAA")
    expect(page.get_by_test_id("confirm-dialog")).to_be_hidden()
    assert table.state()["id"] == game["id"]
    assert table.state()["moves"] == 2
    expect(page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAS")
    assert "deal=" not in page.url

    page.goto(server.url + "/?layout=AS%202S&rules=N")  # a card list of two cards
    page.wait_for_selector('body[data-ready="true"]')
    table.idle()
    expect(page.get_by_test_id("message")).not_to_be_empty()
    expect(page.get_by_test_id("confirm-dialog")).to_be_hidden()
    assert table.state()["id"] == game["id"]


def test_a_game_without_a_move_is_replaced_silently(page: Page, server: LiveServer) -> None:
    fresh_game(server, "PY1-N-AAAAAAS", draws=0)
    Table(page, server.url).open("/?deal=PY1-N-AAAAAAC", abandon=False)
    expect(page.get_by_test_id("confirm-dialog")).to_be_hidden()
    expect(page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAC")


def test_the_page_shows_the_servers_clock(page: Page, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    table = Table(page, server.url).open("/?deal=PY1-N-AAAAAAS")
    clock = page.get_by_test_id("time")
    expect(clock).to_have_text("0:00")
    table.tap("JH")  # a plain selection: the clock waits
    page.wait_for_timeout(1500)
    expect(clock).to_have_text("0:00")
    assert table.state()["clock_running"] is False
    table.stock()  # the first real action
    expect(clock).not_to_have_text("0:00", timeout=3000)
    # the page is hidden (another tab, a minimised window): it tells the server
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {value: true, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_timeout(500)
    state = table.state()
    assert state["clock_running"] is False
    shown = clock.inner_text()
    page.wait_for_timeout(2000)
    expect(clock).to_have_text(shown)  # it stands still, as the server's does
    assert table.state()["elapsed"] == state["elapsed"]
    assert re.fullmatch(r"0:0[1-4]", shown), shown
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {value: false, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    table.idle()
    table.stock()  # back and playing: the clock runs on from where it stood
    assert table.state()["clock_running"] is True
    expect(clock).not_to_have_text(shown, timeout=3000)
