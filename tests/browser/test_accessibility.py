"""An accessibility audit in the real browser: axe-core (npm, installed by
scripts/setup.sh --test) on the table, each dialog (every New game tab, the
daily deal's included; the confirm dialog; the end of a game) and the statistics (with the wins'
figures, the results by day, the best games and the history), in both
languages, at desktop and phone sizes; no serious or critical violation.

Also what axe cannot judge alone: a hint and a message reach a live region,
the New game tabs work as a tablist, and the focus ring of a card is drawn
above the cards that lie over it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Table, call, put_settings
from tests.browser.test_flow import drawn_out_loss
from tests.browser.test_solver_line import winnable_code
from tests.conftest import LiveServer
from tests.play import win_alone

pytestmark = pytest.mark.browser

AXE = (Path(__file__).resolve().parents[2] / ".venv" / "npm" / "node_modules" / "axe-core"
       / "axe.min.js")


def audit(page: Page, where: str) -> list[str]:
    """Serious and critical violations on the page now, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())  # evaluated by the browser itself: no CSP applies
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{where}: {v['id']} ({v['impact']}): "
            + "; ".join(n["target"][0] for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module")
def played(server: LiveServer) -> str:
    """Games under rule set T for the statistics: two abandoned, one won alone
    (so the statistics show every part: figures, charts, best games, history)."""
    def send(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        status, body = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                            {"version": state["version"], **action})
        assert status == 200, body
        return body  # type: ignore[no-any-return]
    for code in ("PY1-T-AAAAAAC", "PY1-T-AAAAAAD"):
        send(call(server.url, "POST", "/api/games", {"code": code})[1], {"type": "stock"})
    win_alone(call(server.url, "POST", "/api/games", {"code": "PY1-T-AAAAAAB"})[1], send)
    return "T"


@pytest.mark.parametrize(("lang", "size"), [("ru", (1280, 800)), ("en", (1280, 800)),
                                            ("ru", (844, 390)), ("en", (390, 844))])
def test_no_serious_violations(browser: Browser, server: LiveServer, played: str, lang: str,
                               size: tuple[int, int]) -> None:
    assert AXE.is_file(), "run scripts/setup.sh --test (it installs axe-core)"
    put_settings(server.url, lang=lang, animations=False)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  locale="ru-RU" if lang == "ru" else "en-US")
    try:
        table = Table(context.new_page(), server.url).open("/?deal=PY1-P-AAAAAAS")
        page = table.page
        table.tap("3D")  # a selected card too
        found = audit(page, "table")
        for testid in ("new-game", "settings", "stats", "solution"):
            table.button(testid)
            dialog = page.locator("dialog[open]")
            expect(dialog).to_have_count(1)
            page.wait_for_selector('body[data-busy="false"]', state="attached")
            if testid == "solution":  # first the question: seeing it marks the game
                expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
                found += audit(page, "confirm")
                page.get_by_test_id("confirm-ok").click()
                expect(page.locator('#dlg-solution[data-state="ready"]')).to_have_count(1)
            found += audit(page, testid)
            if testid == "new-game":
                for tab in page.locator('#dlg-new [role="tab"]').all()[1:]:
                    tab.click()
                    if tab.get_attribute("data-tab") == "daily":  # once the day's deal is told
                        expect(page.locator("#daily-info[data-code]")).to_have_count(1)
                    found += audit(page, f"new-game {tab.inner_text()}")
            if testid == "stats":  # a rule set with every part of the statistics
                page.get_by_test_id("stats-rules").select_option(played)
                expect(page.get_by_test_id("history-game")).to_have_count(3)
                expect(page.get_by_test_id("day-chart")).to_be_visible()
                expect(page.get_by_test_id("stat-wins")).to_be_visible()
                page.wait_for_selector('body[data-busy="false"]', state="attached")
                found += audit(page, f"stats {played}")
            page.keyboard.press("Escape")
            expect(dialog).to_have_count(0)
        # the end of a game: its dialog over the finished table
        call(server.url, "POST", "/api/games", {"code": drawn_out_loss()})
        table.open("/")
        for _ in range(23):
            page.keyboard.press("d")
            table.idle()
        expect(page.get_by_test_id("end-dialog")).to_have_attribute("data-status", "lost")
        found += audit(page, "end")
        assert found == []
    finally:
        context.close()


def test_live_region_tablist_and_focus_ring(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=False, explain_errors=True)
    table.open(f"/?deal={winnable_code(server.url)}")
    page = table.page
    live = page.get_by_test_id("message")
    expect(live).to_have_attribute("aria-live", "polite")
    # a hint is said in words, not only shown by a glow
    hint = call(server.url, "GET", f"/api/games/{table.state()['id']}/hint")[1]
    table.button("hint")
    if hint["stock"]:
        expect(live).to_have_text("Hint: draw a card from the stock")
    elif len(hint["cards"]) == 2:
        expect(live).to_have_text(re.compile(r"^Hint: \w+ of \w+ and \w+ of \w+$"))
    else:
        expect(live).to_have_text("Hint: king of " + {"S": "spades", "H": "hearts", "C": "clubs",
                                                      "D": "diamonds"}[hint["cards"][0][-1]])
    # a message of the server too
    table.tap(hint["cards"][0] if hint["cards"] else table.state()["tappable"][0])
    page.locator('[data-card][data-free="true"][data-selected="false"]').first.focus()
    page.keyboard.press("Escape")

    # the New game tabs: a tablist that arrows move through, panels labelled by their tab
    page.keyboard.press("n")
    tabs = page.locator('#dlg-new [role="tab"]')
    expect(tabs).to_have_count(4)
    tabs.first.focus()
    page.keyboard.press("ArrowRight")
    expect(tabs.nth(1)).to_be_focused()
    expect(tabs.nth(1)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(0)).to_have_attribute("tabindex", "-1")
    panel = page.locator('#dlg-new [role="tabpanel"]:not([hidden])')
    expect(panel).to_have_attribute("aria-labelledby", tabs.nth(1).get_attribute("id") or "")
    page.keyboard.press("End")
    expect(tabs.nth(3)).to_be_focused()
    page.keyboard.press("ArrowRight")  # round to the first
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Escape")

    # the focus ring of a card: solid, wide, and above every other card
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused is not None
    ring = page.evaluate("""() => { const s = getComputedStyle(document.activeElement);
        return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), z: +s.zIndex}; }""")
    assert ring["style"] == "solid" and ring["width"] >= 3, ring
    others = page.locator("#board [data-card]").evaluate_all(
        "els => els.filter(e => e !== document.activeElement)"
        ".map(e => +getComputedStyle(e).zIndex)")
    assert ring["z"] > max(others)
