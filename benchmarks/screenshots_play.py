"""Screenshots of the table's look and hands for the docs (run by hand).

Starts the real server on a fresh database and saves, in Russian and English,
to docs/screenshots/: the phone held sideways (844×390), court cards close
up, a drag in progress (3♦ carried onto the waste's 10♣ of PY1-N-AAAAAAS)
and the celebration of a win.

    .venv/bin/python benchmarks/screenshots_play.py [--out docs/screenshots]
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from screenshots import run  # noqa: E402
from tests.browser.conftest import call  # noqa: E402
from tests.browser.test_celebration import one_move_from_a_win  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def idle(page: Page) -> None:
    page.wait_for_selector('body[data-busy="false"]', state="attached")


def open_page(browser: Browser, url: str, size: tuple[int, int], path: str,
              *, phone: bool = False, scale: float = 1) -> Page:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  device_scale_factor=scale, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    page.goto(url + path)
    page.wait_for_selector('body[data-ready="true"]')
    idle(page)
    page.wait_for_timeout(300)
    return page


def centre(page: Page, code: str) -> tuple[float, float]:
    box = page.locator(f'[data-card="{code}"]').bounding_box()
    assert box is not None, code
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.3


def shoot(url: str, out: Path) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("ru", "en"):
            call(url, "PUT", "/api/settings", {"lang": lang, "animations": False})
            # the phone held sideways
            page = open_page(browser, url, (844, 390), "/?deal=PY1-N-AAAAAAS", phone=True, scale=2)
            page.screenshot(path=str(out / f"table-{lang}-landscape.png"))
            page.context.close()
            # court cards close up: row 5 of PY1-N-AAAAAAS holds K♦ Q♦, row 7 K♣ J♥
            page = open_page(browser, url, (1440, 900), "/?deal=PY1-N-AAAAAAS", scale=2)
            boxes = [page.locator(f'[data-card="{c}"]').bounding_box() for c in ("KC", "JH")]
            left = min(b["x"] for b in boxes if b) - 8
            top = min(b["y"] for b in boxes if b) - 8
            page.screenshot(path=str(out / f"courts-{lang}.png"),
                            clip={"x": left, "y": top - 200, "width": 480, "height": 420})
            # a drag in progress
            x, y = centre(page, "3D")
            tx, ty = centre(page, "10C")
            page.mouse.move(x, y)
            page.mouse.down()
            for i in range(1, 9):
                page.mouse.move(x + (tx - x) * i * 0.9 / 8, y + (ty - y) * i * 0.9 / 8)
            page.wait_for_timeout(100)
            page.screenshot(path=str(out / f"drag-{lang}-desktop.png"))
            page.mouse.up()
            page.context.close()
            # the celebration of a win
            call(url, "PUT", "/api/settings", {"animations": True})
            last = one_move_from_a_win(url)
            page = open_page(browser, url, (1280, 800), "/")
            for code in last:
                page.locator(f'[data-card="{code}"]').click()
                idle(page)
            page.wait_for_timeout(1600)
            page.screenshot(path=str(out / f"celebration-{lang}-desktop.png"))
            page.context.close()
            for name in ("table-{}-landscape", "courts-{}", "drag-{}-desktop",
                         "celebration-{}-desktop"):
                print(out / f"{name.format(lang)}.png")
        browser.close()


def main() -> None:
    run(shoot, __doc__)


if __name__ == "__main__":
    main()
