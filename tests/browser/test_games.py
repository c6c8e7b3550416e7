"""Every game plays in the browser: a move by click (or touch) and one by keyboard.

For every game of the presets the page opens ``PY1-<letter>-AAAAAAB`` by its
deal link (a deal link starts the game at once: it asks nothing), and plays
two removals: the first by clicking the cards, the second with the keyboard
alone (arrow keys and Tab to reach a card, Enter to tap it, D to draw).  The
moves are the engine's: the test keeps its own ``Game`` of the same deal as a
mirror, asks it for a legal removal (drawing first, by a stock click or D,
when none is legal yet), checks that the server too says those cards are
tappable, and after each move that the page shows the mirror's score and
move count and that the cards are gone from the table.

Sizes and languages: every game is played at desktop size (1280×800), in
English or Russian by turns (in the order of the presets): the keyboard in
every game, half of them in each language.  At phone size (390×844, touch) the
classic table and every table shape that is wider or taller than it — reserve
piles (G), the waste row (Y), the cell (L), three pyramids (F), nine rows (W),
two pyramids side by side (X), a pyramid and an inverted one (U) — are played
again, by touch and keyboard, in the other language.  The games left out at
phone size share one of these shapes with a rule of their own (an open stock,
face-down cards, a 6-row pyramid), which the desktop run plays; playing all 28
on a phone too would double the module's two minutes.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.moves import Move
from tests.browser.conftest import Table, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser

LETTERS = list(PRESETS)
PHONE = ["N", "G", "Y", "L", "F", "W", "X", "U"]
NEW_GAME = {"en": "New game", "ru": "Новая игра"}
FOCUSED = "() => document.activeElement && document.activeElement.dataset.card || null"
TAB_STOPS = """code => {
    const stops = [...document.querySelectorAll('#board *')].filter((e) => e.tabIndex >= 0);
    return [stops.indexOf(document.activeElement),
            stops.findIndex((e) => e.dataset.card === code)];
}"""


def desktop_lang(letter: str) -> str:
    return "en" if LETTERS.index(letter) % 2 == 0 else "ru"


def on_table(state: dict[str, Any]) -> int:
    """The cards still in play: the tableau's and every pile's."""
    return (sum(not e["removed"] for e in state["tableau"])
            + sum(p["count"] for p in state["piles"]))


class Player:
    """Plays one deal on the page, with the engine's own game of it as a mirror."""

    def __init__(self, table: Table, code: str, *, touch: bool = False) -> None:
        self.table = table
        self.page = table.page
        self.mirror = Game.from_code(code)
        self.touch = touch

    def check(self) -> dict[str, Any]:
        """The page and the server show the mirror's score and moves."""
        self.table.expect_figures(self.mirror.score, self.mirror.moves)
        state = self.table.state()
        assert (state["score"], state["moves"]) == (self.mirror.score, self.mirror.moves)
        return state

    def removal(self, keyboard: bool) -> Move:
        """Draw (stock click or D) until the mirror has a removal; return it."""
        for _ in range(60):
            removals = [m for m in self.mirror.legal_moves() if m.kind == "remove"]
            if removals:
                return removals[0]
            assert self.mirror.is_legal(Move("draw")), "no removal and no draw left"
            if keyboard:
                self.page.keyboard.press("d")
                self.table.idle()
            else:
                self.table.stock()
            self.mirror.play("draw")
            self.check()
        raise AssertionError("no removal within 60 draws")

    def click(self, code: str) -> None:
        if not self.touch:
            self.table.tap(code)
            return
        x, y = self.table.point(code)
        self.page.touchscreen.tap(x, y)
        self.table.idle()

    def key(self, code: str) -> None:
        """Reach the card with the keyboard alone (Tab or Shift+Tab over what the
        table lets a keyboard reach, in table order) and tap it with Enter."""
        page = self.page
        here, there = page.evaluate(TAB_STOPS, code)
        if here < 0:  # nothing the keyboard can tap is focused: arrows focus the first card
            page.keyboard.press("ArrowRight")
            here, there = page.evaluate(TAB_STOPS, code)
        assert here >= 0 and there >= 0, f"{code} cannot be reached with the keyboard"
        for _ in range(abs(there - here)):
            page.keyboard.press("Tab" if there > here else "Shift+Tab")
        assert page.evaluate(FOCUSED) == code
        page.keyboard.press("Enter")
        self.table.idle()

    def play_removal(self, *, keyboard: bool) -> None:
        move = self.removal(keyboard)
        before = self.table.state()
        codes = [card.code for card in move.cards]
        assert set(codes) <= set(before["tappable"]), f"{move.code}: not tappable on the server"
        for code in codes:
            (self.key if keyboard else self.click)(code)
        self.mirror.play(move)
        after = self.check()
        assert on_table(after) == on_table(before) - len(codes)
        for code in codes:
            expect(self.table.card(code)).to_have_count(0)


def play_two(table: Table, letter: str, lang: str, *, touch: bool = False) -> None:
    code = f"PY1-{letter}-AAAAAAB"
    table.open(f"/?deal={code}")
    state = table.state()
    assert (state["rules"]["letter"], state["code"]) == (letter, code)
    expect(table.page.get_by_test_id("new-game")).to_have_text(NEW_GAME[lang])
    expect(table.page.locator("html")).to_have_attribute("lang", lang)
    player = Player(table, code, touch=touch)
    player.check()
    player.play_removal(keyboard=False)
    player.play_removal(keyboard=True)


@pytest.mark.parametrize("letter", LETTERS)
def test_game_on_a_desktop(page: Page, server: LiveServer, letter: str) -> None:
    lang = desktop_lang(letter)
    put_settings(server.url, lang=lang, animations=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    play_two(Table(page, server.url), letter, lang)


@pytest.mark.parametrize("letter", PHONE)
def test_game_on_a_phone(browser: Browser, server: LiveServer, letter: str) -> None:
    lang = "ru" if desktop_lang(letter) == "en" else "en"
    put_settings(server.url, lang=lang, animations=False)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, locale=f"{lang}-{lang.upper()}")
    try:
        play_two(Table(context.new_page(), server.url), letter, lang, touch=True)
    finally:
        context.close()
