"""Screenshots of the daily deal and the statistics (run by hand).

Starts the real server on a fresh database, plays a few games through the API
(own wins found by the solver in this script, a win with hints, games left
unfinished), and saves to docs/screenshots/, in Russian and English: the New
game dialog's Daily deal tab (desktop), the statistics on a phone (390×844)
and on a desktop.

    .venv/bin/python benchmarks/screenshots_flow.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import call  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402
from tests.play import win_alone  # noqa: E402

SIZES = {"desktop": (1440, 900), "phone": (390, 844)}


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


def idle(page: Page) -> None:
    page.wait_for_selector('body[data-busy="false"]', state="attached")


def shoot(url: str, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("ru", "en"):
            call(url, "PUT", "/api/settings", {"lang": lang, "animations": False})
            for size, (width, height) in SIZES.items():
                phone = size == "phone"
                context = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=2 if phone else 1,
                                              has_touch=phone, is_mobile=phone)
                page = context.new_page()
                page.goto(url + "/")
                page.wait_for_selector('body[data-ready="true"]')
                idle(page)
                if not phone:
                    page.get_by_test_id("new-game").click()
                    page.get_by_test_id("tab-daily").click()
                    page.wait_for_selector('[data-testid="daily-info"][data-code]', timeout=60_000)
                    save(page, out / f"daily-{lang}-desktop.png")
                    page.keyboard.press("Escape")
                page.get_by_test_id("stats").click()
                page.wait_for_selector('[data-testid="history-game"]')
                idle(page)
                save(page, out / f"stats-{lang}-{size}.png")
                context.close()
        browser.close()


def save(page: Page, path: Path) -> None:
    page.wait_for_timeout(200)
    page.screenshot(path=str(path))
    print(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "flow-shots.sqlite3")
        server.start()
        try:
            play(server.url)
            shoot(server.url, args.out)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
