"""Screenshots of the browser game for the docs (run by hand).

Starts the real server on a fresh database, plays a few moves of deal
PY1-N-AAAAAAS (a king and a pair removed, a card drawn, one card selected) and
saves the table in Russian and English at desktop (1440×900) and phone
(390×844) sizes, plus the New game, Solution and Statistics dialogs, to
docs/screenshots/.

    .venv/bin/python benchmarks/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import Table  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402

SIZES = {"desktop": (1440, 900), "phone": (390, 844)}


def call(url: str, method: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def idle(page: Page) -> None:
    page.wait_for_selector('body[data-busy="false"]', state="attached")


def play_some(url: str) -> None:
    """Finished games for the statistics: a few deals played a little, then left."""
    for number in ("AAAAAAB", "AAAAAAC", "AAAAAAD", "AAAAAAE", "AAAAAAF"):
        state = call(url, "POST", "/api/games", {"code": f"PY1-N-{number}"})
        for _ in range(60):
            free = [c for c in state["tappable"] if c not in state["waste"]]
            kings = [c for c in free if c.startswith("K")]
            if kings:
                action = {"type": "tap", "card": kings[0]}
            elif state["stock"]["can_draw"]:
                action = {"type": "stock"}
            else:
                break
            state = call(url, "POST", f"/api/games/{state['id']}/actions",
                         {"version": state["version"], **action})


def run(shoot_all: Callable[[str, Path], None], doc: str | None,
        prepare: Callable[[str], None] | None = None) -> None:
    """Parse --out, start a server on a fresh database, ``prepare`` it, shoot."""
    parser = argparse.ArgumentParser(description=doc)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "shots.sqlite3")
        server.start()
        try:
            if prepare is not None:
                prepare(server.url)
            shoot_all(server.url, args.out)
        finally:
            server.stop()


def main() -> None:
    run(shoot, __doc__, play_some)


def open_page(browser: Browser, size: str, url: str, path: str) -> tuple[BrowserContext, Page]:
    """A new browser context at ``size`` (a phone has touch and twice the pixels) showing
    the page at ``path`` of the server at ``url``, once it has drawn the table (a deal
    link over a game in progress abandons it, as the browser tests' ``Table.open``)."""
    width, height = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=2 if phone else 1,
                                  has_touch=phone, is_mobile=phone)
    page = Table(context.new_page(), url).open(path).page
    return context, page


def shoot(url: str, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("ru", "en"):
            call(url, "PUT", "/api/settings", {"lang": lang, "animations": False})
            for size in SIZES:
                phone = size == "phone"
                context, page = open_page(browser, size, url, "/?deal=PY1-N-AAAAAAS")
                for code in ("KC", "3D", "10C", None, "2S"):
                    target = page.locator(f'[data-card="{code}"]') if code else \
                        page.locator('[data-zone="stock"]')
                    target.click()
                    idle(page)
                page.wait_for_timeout(300)
                path = out / f"table-{lang}-{size}.png"
                page.screenshot(path=str(path))
                print(path)
                if lang == "ru" and phone:
                    page.get_by_test_id("new-game").click()
                    page.get_by_role("tab", name="По коду").click()
                    page.get_by_test_id("deal-code-input").fill("PY1-N-AAAA")
                    page.get_by_test_id("new-game-submit").click()
                    page.get_by_test_id("confirm-ok").click()  # abandon the game in progress
                    idle(page)
                    page.screenshot(path=str(out / "new-game-ru-phone.png"))
                    print(out / "new-game-ru-phone.png")
                if (lang == "ru") != phone:
                    page.get_by_test_id("solution").click()
                    page.get_by_test_id("confirm-ok").click()
                    page.wait_for_selector('[data-testid="solution-dialog"][data-state="ready"]')
                    page.wait_for_timeout(200)
                    name = f"solution-{lang}-{size}.png"
                    page.screenshot(path=str(out / name))
                    print(out / name)
                    page.keyboard.press("Escape")
                if lang == "en" and not phone:
                    page.get_by_test_id("stats").click()
                    page.wait_for_selector('[data-testid="stat-played"]')
                    page.wait_for_timeout(200)
                    page.screenshot(path=str(out / "stats-en-desktop.png"))
                    print(out / "stats-en-desktop.png")
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
