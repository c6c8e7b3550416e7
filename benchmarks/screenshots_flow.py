"""Screenshots of the daily deal and the statistics (run by hand).

Starts the real server on a fresh database, plays a few games through the API
(own wins found by the solver in this script, a win with hints, games left
unfinished), and saves to docs/screenshots/, in Russian and English: the New
game dialog's Daily deal tab (desktop), the statistics on a phone (390×844:
its top, and scrolled to the history) and on a desktop.

    .venv/bin/python benchmarks/screenshots_flow.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.screenshots import SIZES, idle, open_page, run  # noqa: E402
from tests.browser.conftest import call  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.play import win_alone  # noqa: E402


def play(url: str) -> None:
    def send(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = call(url, "POST", f"/api/games/{state['id']}/actions",
                                    {"version": state["version"], **action})[1]
        return body

    for code in ("PY1-N-AAAAAAM", "PY1-N-AAAAAAS", "PY1-N-AAAAAAB"):
        win_alone(call(url, "POST", "/api/games", {"code": code})[1], send)
    helped = call(url, "POST", "/api/games", {"code": "PY1-N-AAAAAAC"})[1]
    call(url, "GET", f"/api/games/{helped['id']}/hint")
    win_alone(helped, send)
    for code in ("PY1-N-AAAAAAD", "PY1-N-AAAAAAE"):
        state = call(url, "POST", "/api/games", {"code": code})[1]
        send(state, {"type": "stock"})
    call(url, "POST", "/api/games", {"code": "PY1-N-AAAAAAF"})


def shoot(url: str, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("ru", "en"):
            call(url, "PUT", "/api/settings", {"lang": lang, "animations": False})
            for size in SIZES:
                context, page = open_page(browser, size, url, "/")
                if size == "desktop":
                    page.get_by_test_id("new-game").click()
                    page.get_by_test_id("tab-daily").click()
                    page.wait_for_selector('[data-testid="daily-info"][data-code]', timeout=60_000)
                    save(page, out / f"daily-{lang}-desktop.png")
                    page.keyboard.press("Escape")
                page.get_by_test_id("stats").click()
                page.wait_for_selector('[data-testid="history-game"]')
                idle(page)
                save(page, out / f"statistics-{lang}-{size}.png")
                if size == "phone":  # the history, scrolled into view
                    page.get_by_test_id("history").scroll_into_view_if_needed()
                    save(page, out / f"statistics-{lang}-phone-history.png")
                context.close()
        browser.close()


def save(page: Page, path: Path) -> None:
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))
    print(path)


def main() -> None:
    run(shoot, __doc__, play)


if __name__ == "__main__":
    main()
