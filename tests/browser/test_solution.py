"""The Solution button: the solver's shortest line, shown and played by the server."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from pyramide.deals import Deal, DealCode
from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def test_the_shortest_solution_is_shown_then_played_to_a_win(
    table: Table, server: LiveServer,
) -> None:
    put_settings(server.url, lang="ru", animations=False)
    table.open("/?deal=PY1-N-AAAAAAB")
    page = table.page
    game_id = table.state()["id"]

    table.button("solution")
    table.page.get_by_test_id("confirm-ok").click()  # seeing it marks the game
    dialog = page.get_by_test_id("solution-dialog")
    expect(dialog).to_have_attribute("data-state", "ready")
    # (asked only now: asking first marks the game, and a page that reads its
    # state after that asks no confirmation)
    _, line = call(server.url, "GET", f"/api/games/{game_id}/solution")
    assert line["winnable"] is True and line["shortest"] is True
    n = len(line["moves"])
    expect(page.get_by_test_id("solution-verdict")).to_have_text(
        f"Выигрыш. Ходов: {n} — короче не бывает.")
    items = page.locator('[data-testid="solution-moves"] li')
    expect(items.first).to_have_text(line["moves"][0]["label"])
    pair = next(m for m in line["moves"] if len(m["cards"]) == 2)
    shown = page.locator(f'[data-testid="solution-moves"] li[data-move="{pair["move"]}"]').first
    expect(shown).to_have_text(pair["label"])
    expect(shown.locator("span")).to_have_text(pair["card_labels"])
    red = [code[-1] in "DH" for code in pair["cards"]]
    assert [("red" in (c or "")) for c in shown.locator("span").evaluate_all(
        "spans => spans.map(s => s.className)")] == red
    draws = [m for m in line["moves"] if m["kind"] == "draw"]
    assert 0 < items.count() < n  # runs of draws are one item ("взять карту ×7")
    expect(page.locator('[data-testid="solution-moves"] li[data-kind="draw"]').first
           ).to_contain_text("взять карту")
    assert draws

    page.get_by_test_id("solution-play").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("solution")).to_have_attribute("data-autoplay", "true")
    expect(page.get_by_test_id("solution")).to_have_text("Стоп")
    end = page.get_by_test_id("end-dialog")
    expect(end).to_be_visible(timeout=60_000)
    expect(end).to_have_attribute("data-status", "won")
    expect(page.get_by_test_id("end-note")).to_have_text(
        "С помощью решения компьютера — в статистике это не ваша победа.")
    table.expect_figures(280, n)
    expect(page.get_by_test_id("solution")).to_have_text("Решение")
    page.locator("#dlg-end [data-close]").click()
    # the game is over: like Hint, Solution has nothing left to show
    expect(page.get_by_test_id("solution")).to_be_disabled()
    expect(page.get_by_test_id("hint")).to_be_disabled()

    table.button("stats")
    expect(page.get_by_test_id("stat-won")).to_contain_text("0")
    expect(page.get_by_test_id("stat-solved")).to_have_text("Выиграно после показа решения: 1")
    expect(page.get_by_test_id("stats-body")).not_to_contain_text("Пока нет")
    expect(page.locator(f'[data-testid="best-game"][data-game-id="{game_id}"]')).to_have_count(0)


def play_the_solution(table: Table, server: LiveServer, *, until_moves: int) -> None:
    """Open deal 12 in English with animations on, play its solution, and wait
    until ``until_moves`` moves are on the counter."""
    put_settings(server.url, lang="en", animations=True)
    table.open("/?deal=PY1-N-AAAAAAM")
    page = table.page
    table.button("solution")
    table.page.get_by_test_id("confirm-ok").click()  # seeing it marks the game
    expect(page.get_by_test_id("solution-dialog")).to_have_attribute("data-state", "ready")
    expect(page.get_by_test_id("solution-verdict")).to_contain_text("A win. Moves: ")
    page.get_by_test_id("solution-play").click()
    page.wait_for_function(
        f"() => +document.querySelector('[data-testid=moves]').textContent >= {until_moves}",
        timeout=30_000)


def test_a_tap_stops_the_solution(table: Table, server: LiveServer) -> None:
    play_the_solution(table, server, until_moves=3)
    page = table.page
    page.locator("#board").click(position={"x": 5, "y": 5})
    expect(page.get_by_test_id("solution")).to_have_attribute("data-autoplay", "false")
    expect(page.get_by_test_id("solution")).to_have_text("Solution")
    table.idle()
    stopped = table.state()
    assert stopped["status"] == "playing" and 3 <= stopped["moves"] <= 5
    page.wait_for_timeout(1200)
    assert table.state()["moves"] == stopped["moves"]  # nothing more is played
    put_settings(server.url, animations=False)


def test_a_lost_deal_shows_the_best_it_can_do(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    table.open("/?deal=PY1-N-AAAAAAJ")
    table.page.keyboard.press("s")
    table.page.get_by_test_id("confirm-ok").click()
    game_id = table.state()["id"]
    _, line = call(server.url, "GET", f"/api/games/{game_id}/solution")
    assert line["winnable"] is False and line["shortest"] is True
    assert line["tableau_cards"] == 28
    expect(table.page.get_by_test_id("solution-verdict")).to_have_text(
        f"No win. At best {line['max_removed']} of the 28 tableau cards go, "
        f"in {len(line['moves'])} moves, the fewest there are.")
    expect(table.page.get_by_test_id("solution-play")).to_be_enabled()


def test_another_button_stops_the_solution_and_a_new_game_gets_none_of_it(
    table: Table, server: LiveServer,
) -> None:
    play_the_solution(table, server, until_moves=2)
    page = table.page
    table.button("new-game")  # opening the dialog stops the solution at once
    expect(page.get_by_test_id("solution")).to_have_attribute("data-autoplay", "false")
    page.get_by_role("tab", name="By code").click()
    page.get_by_test_id("deal-code-input").fill("PY1-N-AAAAAAB")
    page.get_by_test_id("new-game-submit").click()
    page.get_by_test_id("confirm-ok").click()  # the game in progress is abandoned
    table.idle()
    expect(page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAB")
    page.wait_for_timeout(1200)
    fresh = table.state()
    assert fresh["code"] == "PY1-N-AAAAAAB" and fresh["moves"] == 0 and not fresh["assisted"]
    put_settings(server.url, animations=False)


@pytest.mark.parametrize("by", ["code", "layout"])
def test_replay_deals_the_same_cards_again_as_a_fresh_game(
    table: Table, server: LiveServer, by: str,
) -> None:
    put_settings(server.url, lang="en", animations=False)
    layout = Deal.from_number(DealCode.parse("PY1-N-AAAAAAM").number).layout_text()
    query = ("deal=PY1-N-AAAAAAM" if by == "code"
             else "layout=" + quote(layout) + "&rules=N")
    table.open(f"/?{query}")
    page = table.page
    first = table.state()
    assert (first["code"] is None) == (by == "layout") and "layout" not in first
    table.button("solution")
    table.page.get_by_test_id("confirm-ok").click()  # seeing it marks the game
    expect(page.get_by_test_id("solution-dialog")).to_have_attribute("data-state", "ready")
    page.get_by_test_id("solution-play").click()
    end = page.get_by_test_id("end-dialog")
    expect(end).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("end-replay")).to_have_text("Replay this deal")

    page.get_by_test_id("end-replay").click()
    expect(end).to_be_hidden()
    expect(page.get_by_test_id("moves")).to_have_text("0")
    table.idle()
    again = table.state()
    assert again["id"] != first["id"] and again["status"] == "playing"
    assert (again["code"], again["pyramid"], again["rules"]["letter"]) == (
        first["code"], first["pyramid"], "N")
    assert again["moves"] == 0 and not again["assisted"]
    assert table.pyramid() == [c["card"] for c in first["pyramid"] if c]
    _, old = call(server.url, "GET", f"/api/games/{first['id']}")
    assert old["status"] == "won" and old["assisted"]  # the finished game is kept


def test_a_hint_after_the_solution_gives_the_solutions_next_move(
    table: Table, server: LiveServer,
) -> None:
    """On PY1-N-AAAAAAC the decide search's first move is a pair and the shortest
    line's a draw: once the player has seen the Solution, the hint is the line's."""
    put_settings(server.url, lang="en", animations=False)
    table.open("/?deal=PY1-N-AAAAAAC")
    page = table.page
    game_id = table.state()["id"]
    table.button("solution")
    page.get_by_test_id("confirm-ok").click()
    dialog = page.get_by_test_id("solution-dialog")
    expect(dialog).to_have_attribute("data-state", "ready")
    _, line = call(server.url, "GET", f"/api/games/{game_id}/solution")
    first, second = line["moves"][:2]
    assert first["kind"] == "draw" and len(second["cards"]) == 2, line["moves"][:2]
    dialog.locator("[data-close]").click()
    expect(dialog).to_be_hidden()

    table.button("hint")
    expect(page.get_by_test_id("message")).to_have_text("Hint: draw a card from the stock")
    expect(page.locator('[data-zone="stock"][data-hint="true"]')).to_have_count(1)
    table.stock()  # the line's draw, by hand
    table.button("hint")
    for card in second["cards"]:
        expect(table.card(card)).to_have_attribute("data-hint", "true")
    expect(page.locator('[data-hint="true"]')).to_have_count(2)
