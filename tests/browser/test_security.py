"""Hostile pages in real Chromium: a page served from a second origin tries to
play and to frame the game; a rebound host name reaches the server; and the
game itself runs under its own Content-Security-Policy without a violation."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Page, expect

from tests.browser.conftest import Table, call, put_settings
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer

ATTACKS = """async (target) => {
  const body = JSON.stringify({code: "PY1-N-AAAAAAB"});
  const tries = {
    "no-cors blob": () => fetch(target + "/api/games", {method: "POST", mode: "no-cors",
      body: new Blob([body])}),
    "no-cors text/plain": () => fetch(target + "/api/games", {method: "POST",
      mode: "no-cors", headers: {"Content-Type": "text/plain"}, body}),
    "no-cors json blob": () => fetch(target + "/api/games", {method: "POST",
      mode: "no-cors", body: new Blob([body], {type: "application/json"})}),
    "cors json": () => fetch(target + "/api/games", {method: "POST",
      headers: {"Content-Type": "application/json"}, body}),
    "no-cors settings": () => fetch(target + "/api/settings", {method: "POST",
      mode: "no-cors", headers: {"Content-Type": "text/plain"},
      body: JSON.stringify({lang: "en"})}),
    "beacon": async () => navigator.sendBeacon(target + "/api/games",
      new Blob([body], {type: "text/plain"})),
    "read current": () => fetch(target + "/api/games/current").then((r) => r.json()),
  };
  const out = {};
  for (const [name, attempt] of Object.entries(tries)) {
    try { const r = await attempt(); out[name] = r && r.type ? r.type : String(r); }
    catch (e) { out[name] = "blocked: " + e.name; }
  }
  return out;
}"""


class _Other(BaseHTTPRequestHandler):
    """The second origin: an attacker's page (``/``) and a page framing the game."""

    target = ""

    def do_GET(self) -> None:
        if self.path.startswith("/frame"):
            html = (f'<iframe id="game" src="{self.target}/?deal=PY1-N-AAAAAAB" '
                    'width="800" height="600"></iframe>')
        else:
            html = "<p>an ordinary page on another site</p>"
        data = html.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def other_origin(server: LiveServer) -> Iterator[str]:
    handler = type("Other", (_Other,), {"target": server.url})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def current(server: LiveServer) -> Any:
    return call(server.url, "GET", "/api/games/current")[1]


@pytest.mark.parametrize("target_host", ["127.0.0.1", "localhost"])
def test_another_origin_cannot_play_or_change_settings(
        page: Page, server: LiveServer, other_origin: str, target_host: str) -> None:
    put_settings(server.url, lang="ru")
    _, game = call(server.url, "POST", "/api/games", {"code": "PY1-N-AAAAAAS"})
    page.goto(other_origin + "/")
    target = server.url.replace("127.0.0.1", target_host)
    results = page.evaluate(ATTACKS, target)
    assert results["cors json"].startswith("blocked") and results["read current"].startswith(
        "blocked"), results  # the browser itself: no CORS from us
    page.wait_for_timeout(300)  # let a beacon land, if it were to
    after = current(server)
    assert after["id"] == game["id"] and after["version"] == 0, results
    assert call(server.url, "GET", "/api/settings")[1]["lang"] == "ru"


def test_the_game_cannot_be_framed(page: Page, server: LiveServer, other_origin: str) -> None:
    _, game = call(server.url, "POST", "/api/games", {"code": "PY1-N-AAAAAAS"})
    _, game = call(server.url, "POST", f"/api/games/{game['id']}/actions",
                   {"version": 0, "type": "stock"})
    page.goto(other_origin + "/frame")
    page.wait_for_timeout(1000)
    frame = page.frame_locator("#game")
    expect(frame.locator("[data-card]")).to_have_count(0)
    after = current(server)
    assert after["id"] == game["id"] and after["moves"] == 1  # nothing started or abandoned


def test_a_rebound_host_name_is_refused(browser_type: BrowserType, server: LiveServer) -> None:
    """DNS rebinding: evil.example resolves to 127.0.0.1 (Chromium's resolver rule);
    the server answers nothing but a refusal to that name."""
    port = server.url.rsplit(":", 1)[1]
    browser: Browser = browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP evil.example 127.0.0.1"])
    try:
        page = browser.new_page()
        response = page.goto(f"http://evil.example:{port}/")
        assert response is not None and response.status == 403
        assert "evil.example" in json.loads(response.text())["error"]
        answer = page.evaluate(
            "u => fetch(u, {method: 'POST', headers: {'Content-Type': 'application/json'},"
            " body: '{\"random\": true}'}).then(r => r.status)",
            f"http://evil.example:{port}/api/games")
        assert answer == 403
    finally:
        browser.close()


def test_the_page_runs_under_its_policy(browser: Browser, server: LiveServer) -> None:
    """No inline script or style the policy would block: a game is played, every
    dialog opened, and the browser reports no violation."""
    put_settings(server.url, lang="en", animations=True)
    _, lost = call(server.url, "POST", "/api/games", {"code": "PY1-O-AAAAAAB"})
    while lost["stock"]["can_draw"]:  # one pass through the stock, then given up: a
        _, lost = call(server.url, "POST", f"/api/games/{lost['id']}/actions",  # finished
                       {"version": lost["version"], "type": "stock"})  # game for the chart
    call(server.url, "POST", "/api/games", {"code": "PY1-O-AAAAAAS"})
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(
            "window.__violations = [];"
            "document.addEventListener('securitypolicyviolation',"
            " (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));")
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text)
                if "Content Security Policy" in m.text else None)
        table = Table(page, server.url)
        with page.expect_response(lambda r: r.url.endswith("/?deal=PY1-O-AAAAAAS")) as info:
            table.open("/?deal=PY1-O-AAAAAAS")
        headers = info.value.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        table.stock()
        table.tap("KC")
        table.expect_figures(10, 2)
        table.button("stats")
        expect(page.locator("#stats-body svg text").first).to_be_visible()  # the chart
        page.keyboard.press("Escape")
        table.button("settings")
        page.keyboard.press("Escape")
        table.button("solution")
        page.get_by_test_id("confirm-ok").click()  # seeing it marks the game: asked first
        expect(page.get_by_test_id("solution-dialog")).to_have_attribute("data-state", "ready")
        page.keyboard.press("Escape")
        card = table.card("JH")
        assert card.evaluate("e => getComputedStyle(e).position") == "absolute"  # styled
        assert page.evaluate("window.__violations") == [] and problems == []
    finally:
        context.close()
