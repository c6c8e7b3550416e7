"""One screenshot of every game, for the docs (run by hand).

Starts the real server on a fresh database; for each game opens the page,
deals ``PY1-<name>-AAAAAAB``, plays the first few moves of the solver's line
(so that the table shows removed cards and a used talon) and saves
``docs/screenshots/game-<name>-<lang>-desktop.png`` — the rule book's family
(§11) in Russian, the other games in English, at desktop size (1280×800).
Every request goes through the browser's own context, so a hosted server's
player cookie (set by the page's first answer) is sent with it.

    .venv/bin/python benchmarks/screenshots_games.py [--out docs/screenshots] [--only G A]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import APIRequestContext, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.screenshots import idle  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402

from pyramide.game import Game  # noqa: E402
from pyramide.games import PRESETS  # noqa: E402
from pyramide.solver import Budget, solve  # noqa: E402

SECTION_11 = {"G", "A", "V", "Y", "S", "E", "B", "L", "D"}
SIZE = {"width": 1280, "height": 800}


def first_moves(code: str, count: int) -> list[str]:
    """The first ``count`` moves of the solver's line (as move codes)."""
    game = Game.from_code(code)
    line = solve(game, budget=Budget(nodes=5_000, seconds=5)).moves
    return [move.code for move in line[:count]]


def send(api: APIRequestContext, method: str, path: str, body: Any) -> Any:
    """One JSON request in the page's context (its cookie included)."""
    answer = api.fetch(path, method=method, data=body)
    if not answer.ok:
        raise RuntimeError(f"{method} {path}: {answer.status} {answer.text()}")
    return answer.json()


def act(api: APIRequestContext, state: dict[str, Any], action: dict[str, Any]) -> Any:
    return send(api, "POST", f"/api/games/{state['id']}/actions",
                {"version": state["version"], **action})


def play(api: APIRequestContext, code: str, moves: list[str]) -> None:
    """Deal ``code`` and play ``moves`` by taps, as the page would send them."""
    state = send(api, "POST", "/api/games", {"code": code})
    for move in moves:
        if move in ("draw", "recycle"):
            state = act(api, state, {"type": "pile", "pile": "stock"})
            continue
        for card in move.removeprefix("cell:").split("+"):
            state = act(api, state, {"type": "tap", "card": card})
        if move.startswith("cell:"):
            state = act(api, state, {"type": "pile", "pile": "cell"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--only", nargs="*", help="game names (default: every game)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server = LiveServer(Path(tmp) / "shots.sqlite3")
        server.start()
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for letter in args.only or list(PRESETS):
                lang = "ru" if letter in SECTION_11 else "en"
                context = browser.new_context(viewport=SIZE, base_url=server.url)
                page = context.new_page()
                page.goto("/")  # the first answer gives a hosted server's player its cookie
                idle(page)
                send(context.request, "PUT", "/api/settings", {"lang": lang, "animations": False})
                code = f"PY1-{letter}-AAAAAAB"
                play(context.request, code, first_moves(code, 6))
                page.goto("/")
                idle(page)
                page.wait_for_timeout(300)
                name = f"game-{letter}-{lang}-desktop.png"
                page.screenshot(path=str(out / name))
                context.close()
                print(f"{name}  {PRESETS[letter].name}", flush=True)
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
