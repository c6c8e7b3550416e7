"""A whole deal won in the browser by following the Hint button (the solver's line)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"


def winnable_code(url: str) -> str:
    """The first deal PY1-N-AAAAAA? whose hint says it can be won."""
    for letter in LETTERS:
        code = f"PY1-N-AAAAAA{letter}"
        status, state = call(url, "POST", "/api/games", {"code": code})
        assert status == 201, state
        status, hint = call(url, "GET", f"/api/games/{state['id']}/hint")
        assert status == 200, hint
        if hint["winnable"]:
            return code
    raise AssertionError("no winnable deal among the first 26")


def test_win_by_following_hints(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=False, explain_errors=True)
    code = winnable_code(server.url)
    table.open(f"/?deal={code}")
    page = table.page
    stock = page.locator('[data-zone="stock"]')
    end = page.get_by_test_id("end-dialog")
    game_id = table.state()["id"]

    hinted = page.locator('[data-hint="true"]')
    steps = 0
    while not end.is_visible():
        assert steps < 400, "the hint line did not end the game"
        _, hint = call(server.url, "GET", f"/api/games/{game_id}/hint")
        assert hint["winnable"] is True and hint["move"], hint
        if steps % 10 == 0:  # the Hint button highlights exactly the server's hint
            table.button("hint")
            shown = hinted.evaluate_all("els => els.map(e => e.dataset.card || 'stock')")
            assert sorted(shown) == sorted(hint["cards"] or ["stock"]), (shown, hint)
        steps += 1
        if hint["stock"]:
            stock.click()
            table.idle()
            continue
        assert 1 <= len(hint["cards"]) <= 2, hint
        for card in hint["cards"]:
            table.card(card).click()  # a hinted card is free: nothing lies on it
            table.idle()

    final = call(server.url, "GET", f"/api/games/{game_id}")[1]
    assert final["status"] == "won"
    table.expect_figures(280, final["moves"])
    expect(page.locator('[data-zone="pyramid"][data-card]')).to_have_count(0)
    expect(end).to_have_attribute("data-status", "won")
    expect(page.get_by_test_id("end-title")).to_have_text("Победа!")
    # "won" is said once, by the title; the text says what was won
    expect(page.get_by_test_id("end-text")).to_have_text("Пирамида разобрана.")
    assert "Победа" not in page.get_by_test_id("end-dialog").inner_text().replace("Победа!", "", 1)
    expect(page.get_by_test_id("end-summary")).to_contain_text("280")
    expect(page.get_by_test_id("end-summary")).to_contain_text(clock(final["elapsed"]))
    expect(page.get_by_test_id("time")).to_have_text(clock(final["elapsed"]))  # stopped
    page.get_by_role("button", name="Закрыть").and_(page.locator("#dlg-end [data-close]")).click()
    expect(end).to_be_hidden()

    # the statistics show the game won with hints apart from the player's own wins,
    # in the history with its time, moves and a replay link
    table.button("stats")
    expect(page.get_by_test_id("stat-won")).to_contain_text("0")
    expect(page.get_by_test_id("stat-won-helped")).to_have_text("Выиграно с помощью: 1")
    expect(page.get_by_test_id("stat-hinted")).to_contain_text("Игр с подсказками: 1")
    expect(page.locator('[data-testid="best-game"]')).to_have_count(0)
    row = page.locator(f'[data-testid="history-game"][data-game-id="{game_id}"]')
    expect(row).to_have_attribute("data-result", "won_helped")
    expect(row.locator('[data-col="result"]')).to_have_text("победа с помощью", use_inner_text=True)
    expect(row.locator('[data-col="score"]')).to_have_text("280")
    expect(row.locator('[data-col="moves"]')).to_have_text(str(final["moves"]))
    expect(row.locator('[data-col="time"]')).to_have_text(clock(final["elapsed"]))
    expect(row.locator("a")).to_have_attribute("href", f"/?deal={code}")

    # "New game" from the statistics link replays the deal
    row.locator("a").click()
    table.page.wait_for_selector('body[data-ready="true"]')
    table.idle()
    expect(page.get_by_test_id("deal-code")).to_have_text(code)
    table.expect_figures(0, 0)


def test_lost_position_warning_follows_the_setting(table: Table, server: LiveServer) -> None:
    """PY1-N-AAAAAAJ can never be won (rule book §5): warned only with warn_lost on."""
    put_settings(server.url, lang="ru", animations=False, warn_lost=True)
    table.open("/?deal=PY1-N-AAAAAAJ")
    warning = table.page.get_by_test_id("lost-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("не выиграть")
    table.button("hint")  # the hint still answers: the best line, not a win
    expect(table.page.get_by_test_id("message")).to_contain_text("Выигрыша уже нет")

    put_settings(server.url, warn_lost=False)
    table.open("/")
    expect(table.page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAJ")
    expect(warning).to_be_hidden()
    put_settings(server.url, warn_lost=True)


def test_winnable_only_deals_a_winnable_game(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    table.open("/")
    before = table.state()["id"]
    table.button("new-game")
    page = table.page
    page.get_by_role("tab", name="Random").click()
    page.get_by_test_id("new-rules").select_option("C")
    page.get_by_test_id("winnable-only").check()
    with page.expect_request(lambda r: r.url.endswith("/api/games") and r.method == "POST") as sent:
        page.get_by_test_id("new-game-submit").click()
    table.idle()
    assert sent.value.post_data_json == {"random": True, "rules": "C", "winnable_only": True,
                                         "difficulty": "any"}
    expect(page.get_by_test_id("new-game-dialog")).to_be_hidden()
    state = table.state()
    assert state["id"] != before and state["rules"]["letter"] == "C"
    expect(page.get_by_test_id("deal-code")).to_have_text(state["code"])
    assert state["code"].startswith("PY1-C-")
    _, hint = call(server.url, "GET", f"/api/games/{state['id']}/hint")
    assert hint["winnable"] is True
