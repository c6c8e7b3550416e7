"""Browser fixtures: one real server per test module, and a driver for the table.

Every test here drives the system Chromium (``browser_type_launch_args`` in the
top conftest) against ``pyramide serve`` in a subprocess.  The page marks
``body[data-busy="false"]`` once every request it made has been answered and
rendered, so a test waits for that after each tap instead of sleeping.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.conftest import LiveServer

# The first action of a new server loads the solver (its lost-game warning) and,
# on a busy machine, may answer after Playwright's default 5 s: wait up to 20 s.
expect.set_options(timeout=20_000)


def call(url: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One JSON request to the server; returns (status, decoded body)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def put_settings(url: str, **values: Any) -> dict[str, Any]:
    status, body = call(url, "PUT", "/api/settings", values)
    assert status == 200, body
    return body  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server (and database) shared by the tests of a module."""
    live = LiveServer(tmp_path_factory.mktemp("browser") / "pyramide.sqlite3")
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # bypass_csp: Playwright's wait_for_function evaluates strings, which the page's
    # Content-Security-Policy forbids; tests/browser/test_security.py runs the page
    # with the policy enforced
    return {**browser_context_args, "locale": "ru-RU", "bypass_csp": True,
            "viewport": {"width": 1280, "height": 800}}


class Table:
    """The page seen as a card table: open it, tap cards, read the figures."""

    def __init__(self, page: Page, url: str) -> None:
        self.page = page
        self.url = url

    def open(self, path: str = "/", *, abandon: bool = True) -> Table:
        """Open the page; a ``?deal=`` link over a game in progress asks first, and
        the test leaves the old game (``abandon``) or keeps it."""
        self.page.goto(self.url + path)
        self.page.wait_for_selector('body[data-ready="true"], #dlg-confirm[open]')
        if self.page.locator("#dlg-confirm[open]").count():
            self.page.get_by_test_id("confirm-ok" if abandon else "confirm-cancel").click()
            self.page.wait_for_selector('body[data-ready="true"]')
        self.idle()
        return self

    def idle(self) -> None:
        self.page.wait_for_selector('body[data-busy="false"]', state="attached")

    def card(self, code: str) -> Locator:
        return self.page.locator(f'[data-card="{code}"]')

    def tap(self, code: str) -> None:
        """Click a card where a player can see it: its top-left corner, the part a
        covered card still shows (a click the card above would catch fails)."""
        x, y = self.point(code)
        self.page.mouse.click(x, y)
        self.idle()

    def point(self, code: str) -> tuple[float, float]:
        """Where a player taps the card: its top-left corner, checked to be the card."""
        card = self.card(code)
        card.wait_for()
        # a card still flying in (the deal's animation, some 0.6 s after a new game is
        # drawn) is tapped where it lies once it has landed: a point checked on a moving
        # card is somewhere else by the time the click arrives (a warm browser taps
        # sooner than a cold one, a busy machine clicks later), and the tap is lost
        # (those that end: a hinted card's glow pulses for ever)
        card.evaluate("e => Promise.all(e.getAnimations()"
                      ".filter(a => Number.isFinite(a.effect.getComputedTiming().endTime))"
                      ".map(a => a.finished.catch(() => null)))")
        # a blocked card is aria-disabled, yet a player may click it (and learn why
        # nothing happens): click the point, after checking the card is what lies there;
        # a card still sliding into place (an animation) is asked again
        hit, x, y = None, 0.0, 0.0
        for _ in range(40):
            box = card.bounding_box()
            assert box is not None, f"{code} is not on the table"
            x, y = box["x"] + box["width"] * 0.25, box["y"] + box["height"] * 0.15
            hit = self.page.evaluate(
                "([x, y]) => { const e = document.elementFromPoint(x, y);"
                " const c = e && e.closest('[data-card]'); return c && c.dataset.card; }",
                [x, y])
            if hit == code:
                break
            self.page.wait_for_timeout(100)
        assert hit == code, f"{hit} lies over {code}"
        return x, y

    def stock(self) -> None:
        self.page.locator('[data-zone="stock"]').click()
        self.idle()

    def button(self, testid: str) -> None:
        self.page.get_by_test_id(testid).click()
        self.idle()

    def text(self, testid: str) -> str:
        return self.page.get_by_test_id(testid).inner_text().strip()

    @property
    def score(self) -> int:
        return int(self.text("score"))

    @property
    def moves(self) -> int:
        return int(self.text("moves"))

    def pyramid(self) -> list[str]:
        """The pyramid cards on the table in rule-book order (row by row, left to right)."""
        cells = self.page.locator('[data-zone="pyramid"][data-card]').evaluate_all(
            "els => els.map(e => [+e.dataset.slot, e.dataset.card])")
        return [card for _, card in sorted(cells)]

    def on_table(self) -> set[str]:
        return set(self.page.locator("[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"))

    def expect_figures(self, score: int, moves: int) -> None:
        expect(self.page.get_by_test_id("score")).to_have_text(str(score))
        expect(self.page.get_by_test_id("moves")).to_have_text(str(moves))

    def state(self) -> dict[str, Any]:
        status, body = call(self.url, "GET", "/api/games/current")
        assert status == 200, body
        return body  # type: ignore[no-any-return]

    def state_when(self, ready: Callable[[dict[str, Any]], bool],
                   seconds: float = 5.0) -> dict[str, Any]:
        """The server's current game once ``ready`` holds for it (the page makes a
        new game the current one with a request of its own, after the page has
        gone idle), or as it is after ``seconds``."""
        body = self.state()
        for _ in range(int(seconds * 10)):
            if ready(body):
                break
            self.page.wait_for_timeout(100)
            body = self.state()
        return body


@pytest.fixture
def table(page: Page, server: LiveServer) -> Table:
    return Table(page, server.url)


def screenshot_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "docs" / "screenshots"
