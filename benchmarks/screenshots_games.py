"""One screenshot of every game of the family, for the docs (run by hand).

Starts the real server on a fresh database; for each game deals
``PY1-<name>-AAAAAAB``, plays its first few solver moves through the API (so
that the table shows removed cards and a used talon), opens the page and saves
``docs/screenshots/game-<name>.png`` — the rule book's family (§11) in
Russian, the other games in English, at desktop size (1280×800).

    .venv/bin/python benchmarks/screenshots_games.py [--out docs/screenshots] [--only G A]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.screenshots import call, idle  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer  # noqa: E402

from pyramide.game import Game  # noqa: E402
from pyramide.games import PRESETS  # noqa: E402
from pyramide.solver import Budget, solve  # noqa: E402

SECTION_11 = set("GAVYSEBLD")


def first_moves(code: str, count: int) -> list[str]:
    """The first ``count`` moves of the solver's line (as move codes)."""
    game = Game.from_code(code)
    line = solve(game, budget=Budget(nodes=5_000, seconds=5)).moves
    return [move.code for move in line[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--only", nargs="*", help="game names (default: every game)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    letters = args.only or list(PRESETS)
    with tempfile.TemporaryDirectory() as tmp, LiveServer(Path(tmp) / "shots.sqlite3") as server, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for letter in letters:
            lang = "ru" if letter in SECTION_11 else "en"
            call(server.url, "PUT", "/api/settings", {"lang": lang, "animations": False})
            code = f"PY1-{letter}-AAAAAAB"
            state = call(server.url, "POST", "/api/games", {"code": code})
            for move in first_moves(code, 6):
                if move in ("draw", "recycle"):
                    action = {"type": "stock"}
                    state = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                                 {"version": state["version"], **action})
                    continue
                for card in move.removeprefix("cell:").split("+"):
                    state = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                                 {"version": state["version"], "type": "tap", "card": card})
                if move.startswith("cell:"):
                    state = call(server.url, "POST", f"/api/games/{state['id']}/actions",
                                 {"version": state["version"], "type": "pile", "pile": "cell"})
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(server.url + "/")
            idle(page)
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / f"game-{letter}.png"))
            page.close()
            print(f"game-{letter}.png  {PRESETS[letter].name} ({lang})")
        browser.close()


if __name__ == "__main__":
    main()
