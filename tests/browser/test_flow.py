"""The game flow in the page: remembered choices, the question before abandoning,
help marked, the finished table, the daily deal and the statistics (docs/web.md)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from pyramide.daily import daily
from pyramide.deals import DealCode
from pyramide.game import Game
from pyramide.i18n import translate
from pyramide.moves import DRAW
from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer
from tests.play import win_alone

pytestmark = pytest.mark.browser


def drawn_out_loss() -> str:
    """A deal under rule set O lost by drawing the whole stock and nothing else."""
    for number in range(200):
        game = Game.from_code(DealCode("O", number))
        while game.status == "playing" and game.is_legal(DRAW):
            game.tap_stock()
        if game.status == "lost":
            return str(DealCode("O", number))
    raise AssertionError("no deal under O is lost by drawing alone among 0-199")


def new_game_posts(page: Page) -> list[Any]:
    """The bodies of every POST /api/games the page sends from now on."""
    sent: list[Any] = []

    def seen(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/api/games"):
            sent.append(request.post_data_json)
    page.on("request", seen)
    return sent


def start(server: LiveServer, **body: Any) -> dict[str, Any]:
    status, state = call(server.url, "POST", "/api/games", body)
    assert status == 201, state
    return state  # type: ignore[no-any-return]


def test_first_open_logs_no_error(page: Page, tmp_path: Path) -> None:
    fresh = LiveServer(tmp_path / "fresh.sqlite3")
    fresh.start()
    try:
        failed: list[str] = []
        page.on("response", lambda r: failed.append(f"{r.status} {r.url}")
                if r.status >= 400 else None)
        page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
        table = Table(page, fresh.url).open("/")
        expect(page.get_by_test_id("deal-code")).to_have_text(table.state()["code"])
        assert failed == []
    finally:
        fresh.stop()


def test_choices_survive_a_reload_and_the_end_dialog(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False, rules="T", winnable_only=False,
                 difficulty="any")
    table.open("/")
    page = table.page
    table.button("new-game")
    page.get_by_role("tab", name="Random").click()
    expect(page.get_by_test_id("difficulty")).to_be_disabled()  # no grades under T
    page.get_by_test_id("new-rules").select_option("N")
    page.get_by_test_id("difficulty").select_option("easy")
    expect(page.get_by_test_id("winnable-only")).to_be_checked()  # a grade is always winnable
    expect(page.get_by_test_id("winnable-only")).to_be_disabled()
    # (dealing a graded deal is tested over the API: its search takes seconds on a busy machine)
    page.get_by_test_id("difficulty").select_option("any")
    page.get_by_test_id("new-game-submit").click()  # no move yet: replaced without a question
    expect(page.get_by_test_id("new-game-dialog")).to_be_hidden(timeout=60_000)  # a graded deal
    table.idle()
    assert table.state_when(lambda state: state["rules"]["letter"] == "N")["rules"]["letter"] == "N"

    page.reload()
    table.idle()
    table.button("new-game")
    expect(page.get_by_test_id("new-rules")).to_have_value("N")
    expect(page.get_by_test_id("difficulty")).to_have_value("any")
    expect(page.get_by_test_id("winnable-only")).to_be_checked()
    page.keyboard.press("Escape")
    put_settings(server.url, difficulty="hard")  # a difficulty is remembered as well
    page.reload()
    table.idle()
    table.button("new-game")
    expect(page.get_by_test_id("difficulty")).to_have_value("hard")
    page.keyboard.press("Escape")
    put_settings(server.url, difficulty="any")

    # a game of another rule set ends: its New game deals with the last choices
    start(server, code=drawn_out_loss())
    table.open("/")
    sent = new_game_posts(page)
    for _ in range(23):
        page.keyboard.press("d")
        table.idle()
    expect(page.get_by_test_id("end-dialog")).to_have_attribute("data-status", "lost")
    page.get_by_test_id("end-new-game").click()
    expect(page.get_by_test_id("deal-code")).to_have_text(re.compile("^PY1-N-"), timeout=60_000)
    table.idle()
    assert sent == [{"random": True, "rules": "N", "winnable_only": True, "difficulty": "any"}]
    state = table.state()
    assert state["rules"]["letter"] == "N" and state["lost"] is False


def test_a_finished_table_takes_no_taps(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=False, explain_errors=True)
    start(server, code=drawn_out_loss())
    table.open("/")
    page = table.page
    for _ in range(23):
        page.keyboard.press("d")
        table.idle()
    expect(page.get_by_test_id("end-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("hint")).to_be_disabled()
    expect(page.get_by_test_id("solution")).to_be_disabled()
    actions: list[str] = []
    page.on("request", lambda r: actions.append(r.url) if "/actions" in r.url else None)
    table.tap(table.pyramid()[-1])
    page.locator('[data-zone="stock"]').click(force=True)
    page.keyboard.press("d")
    page.keyboard.press("h")
    page.keyboard.press("s")
    table.idle()
    assert actions == []
    expect(page.get_by_test_id("message")).to_have_text("")  # no "the game is over"
    expect(page.get_by_test_id("solution-dialog")).to_be_hidden()


def test_new_game_asks_before_abandoning_a_game_in_progress(
        table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False, difficulty="any", winnable_only=False)
    playing = start(server, code="PY1-N-AAAAAAS")
    table.open("/")
    page = table.page
    page.keyboard.press("d")
    table.idle()
    confirm = page.get_by_test_id("confirm-dialog")

    table.button("new-game")
    page.get_by_role("tab", name="Random").click()
    page.get_by_test_id("new-game-submit").click()
    expect(confirm).to_be_visible()
    expect(page.get_by_test_id("confirm-title")).to_have_text("Abandon this game?")
    expect(page.get_by_test_id("confirm-text")).to_contain_text("moves: 1")
    page.get_by_test_id("confirm-cancel").click()
    expect(confirm).to_be_hidden()
    expect(page.get_by_test_id("new-game-dialog")).to_be_visible()
    assert table.state()["id"] == playing["id"]  # kept

    page.get_by_test_id("new-game-submit").click()
    page.get_by_test_id("confirm-ok").click()
    table.idle()
    fresh = table.state_when(lambda state: state["id"] != playing["id"])
    assert fresh["id"] != playing["id"] and fresh["moves"] == 0
    history = call(server.url, "GET", "/api/history?rules=N")[1]["games"]
    assert {"id": playing["id"], "result": "abandoned"}.items() <= next(
        g for g in history if g["id"] == playing["id"]).items()

    # a game without a move is replaced without a question
    table.button("new-game")
    page.get_by_test_id("new-game-submit").click()
    table.idle()
    expect(confirm).to_be_hidden()
    assert table.state_when(lambda state: state["id"] != fresh["id"])["id"] != fresh["id"]


def test_seeing_the_solution_marks_the_game_after_a_restart(
        table: Table, server: LiveServer) -> None:
    """Some 25 s: the server is killed and started again (it loads the compiled solver)."""
    put_settings(server.url, lang="en", animations=False)
    game = start(server, code="PY1-N-AAAAAAM")
    table.open("/")
    page = table.page
    page.keyboard.press("d")
    table.idle()
    page.keyboard.press("h")
    table.idle()
    table.button("solution")  # asked first: Keep playing alone changes nothing
    expect(page.get_by_test_id("confirm-title")).to_have_text("Show the solution?")
    page.get_by_test_id("confirm-cancel").click()
    expect(page.get_by_test_id("solution-dialog")).to_be_hidden()
    assert call(server.url, "GET", f"/api/games/{game['id']}")[1]["assisted"] is False
    table.button("solution")
    page.get_by_test_id("confirm-ok").click()
    expect(page.get_by_test_id("solution-dialog")).to_have_attribute("data-state", "ready",
                                                                     timeout=30_000)
    expect(page.locator("#solution-note")).to_contain_text("assisted")
    server.restart()  # SIGKILL, then a new process (on a new port) on the same database
    table.url = server.url
    table.open("/")
    again = table.state()
    assert again["id"] == game["id"] and again["assisted"] is True
    start(server, code="PY1-N-AAAAAAB")  # the assisted game is left: it counts
    table.open("/")
    table.button("stats")
    expect(page.get_by_test_id("stat-assisted")).to_contain_text(": 1")
    expect(page.get_by_test_id("stat-hinted")).to_contain_text("Games with hints: 1")
    row = page.locator(f'[data-testid="history-game"][data-game-id="{game["id"]}"]')
    expect(row).to_have_attribute("data-result", "abandoned")


def test_daily_deal_is_the_same_for_two_players(page: Page, tmp_path: Path) -> None:
    codes = []
    for name in ("alice", "bob"):
        fresh = LiveServer(tmp_path / f"{name}.sqlite3")
        fresh.start()
        try:
            put_settings(fresh.url, lang="en", animations=False)
            table = Table(page, fresh.url).open("/")
            table.button("new-game")
            page.get_by_test_id("tab-daily").click()
            info = page.get_by_test_id("daily-info")
            expect(info).to_have_attribute("data-date", date.today().isoformat(), timeout=30_000)
            today = date.today()  # the day written out in the page's language
            expect(info).to_contain_text(f"{today:%B} {today.day}, {today.year}")
            expect(page.get_by_test_id("new-rules")).to_be_hidden()
            page.get_by_test_id("new-game-submit").click()
            table.idle()
            expect(page.get_by_test_id("new-game-dialog")).to_be_hidden()
            codes.append((info.get_attribute("data-code"), table.text("deal-code")))
            row = call(fresh.url, "GET", "/api/daily")[1]
            assert row["code"] == codes[-1][1]
        finally:
            fresh.stop()
    expected = daily(date.today()).code
    assert codes == [(expected, expected), (expected, expected)]


def test_statistics_show_wins_history_and_results_over_time(
        table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False)
    for number in range(21):
        state = start(server, code=str(DealCode("T", number)))
        call(server.url, "POST", f"/api/games/{state['id']}/actions",
             {"version": state["version"], "type": "stock"})

    def send(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        status, body = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                            {"version": state["version"], **action})
        assert status == 200, body
        return body  # type: ignore[no-any-return]
    won = win_alone(start(server, code="PY1-T-AAAAAAB"), send)
    table.open("/")
    page = table.page
    table.button("stats")
    page.get_by_test_id("stats-rules").select_option("T")
    table.idle()
    expect(page.get_by_test_id("stat-won")).to_contain_text("1")
    expect(page.get_by_test_id("stat-abandoned")).to_have_text("Abandoned: 21")
    expect(page.get_by_test_id("stat-best-moves")).to_contain_text(str(won["moves"]))
    expect(page.get_by_test_id("stat-avg-moves")).to_contain_text(str(won["moves"]))
    expect(page.locator('[data-testid="day-chart"] rect.day.abandoned').first).to_be_visible()
    expect(page.locator('[data-testid="day-chart"] rect.day.won').first).to_be_visible()
    best = page.locator('[data-testid="best-game"]')
    expect(best).to_have_count(1)
    expect(best.first).to_have_attribute("data-game-id", str(won["id"]))
    history = page.locator('[data-testid="history-game"]')
    expect(history).to_have_count(20)
    expect(history.first).to_have_attribute("data-result", "won")
    expect(history.nth(1).locator('[data-col="result"]')).to_have_text("abandoned",
                                                                     use_inner_text=True)
    expect(page.get_by_test_id("history-page")).to_have_text("Page 1 of 2")
    expect(page.get_by_test_id("history-prev")).to_be_disabled()
    page.get_by_test_id("history-next").click()
    expect(page.get_by_test_id("history-page")).to_have_text("Page 2 of 2")
    expect(history).to_have_count(2)
    expect(history.last.locator("a")).to_have_attribute("href", "/?deal=PY1-T-AAAAAAA")

    # the score distribution counts its games with the language's plural rule
    status, stats = call(server.url, "GET", "/api/stats?rules=T")
    assert status == 200 and len(stats["scores"]) == 1  # "1 игра", not "1 игр"
    for lang in ("en", "ru"):
        put_settings(server.url, lang=lang)
        table.open("/")
        table.button("stats")
        page.get_by_test_id("stats-rules").select_option("T")
        table.idle()
        heading = (f"{translate(lang, 'distribution')} "
                   f"({translate(lang, 'gamesCount', n=len(stats['scores']))})")
        expect(page.locator("h3.stats-sub", has_text=heading)).to_have_count(1)


def test_code_help_points_to_the_card_list(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru")
    table.open("/")
    page = table.page
    table.button("new-game")
    page.get_by_role("tab", name="По коду").click()
    code_input = page.get_by_test_id("deal-code-input")
    assert code_input.get_attribute("placeholder") != "PY1-N-AAAAAAS"
    expect(page.get_by_test_id("code-other-app")).to_contain_text(
        "Коды оригинального приложения здесь сдают другие карты")
    page.get_by_test_id("goto-layout").click()
    expect(page.get_by_test_id("layout-input")).to_be_visible()
    expect(page.get_by_role("tab", name="Список карт")).to_have_attribute("aria-selected", "true")
