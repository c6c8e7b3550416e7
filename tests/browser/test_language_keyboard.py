"""Language switch (names and indices) and playing with the keyboard alone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Table, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def index_of(table: Table, code: str) -> str:
    return table.card(code).locator(".corner .rank").first.inner_text()


def test_language_switch_changes_names_and_indices(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=True)
    table.open("/?deal=PY1-N-AAAAAAS")  # row 5 has K♦ Q♦; row 7 A♠ J♥; row 1 A♦
    page = table.page
    expect(table.card("QD")).to_have_attribute("aria-label", "Д, дама бубен")
    expect(table.card("AS")).to_have_attribute("aria-label", "Т, туз пик")
    expect(table.card("10H")).to_have_attribute("aria-label", "10, десятка червей")
    assert [index_of(table, c) for c in ("AS", "JH", "QD", "KD", "10H")] == \
        ["Т", "В", "Д", "К", "10"]
    expect(page.get_by_test_id("new-game")).to_have_text("Новая игра")
    assert page.locator("html").get_attribute("lang") == "ru"

    table.button("settings")
    page.get_by_test_id("set-lang").select_option("en")
    table.idle()
    page.keyboard.press("Escape")
    expect(table.card("QD")).to_have_attribute("aria-label", "Q, queen of diamonds")
    expect(table.card("AS")).to_have_attribute("aria-label", "A, ace of spades")
    assert [index_of(table, c) for c in ("AS", "JH", "QD", "KD", "10H")] == \
        ["A", "J", "Q", "K", "10"]
    expect(page.get_by_test_id("new-game")).to_have_text("New game")
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator('[data-zone="stock"]')).to_have_attribute("aria-label", "Stock, 23 cards")

    # the server speaks the new language too, and the choice persists over a reload
    table.tap("5D")
    table.tap("2S")
    expect(page.get_by_test_id("message")).to_have_text("The sum must equal 13")
    table.open("/")
    expect(table.card("QD")).to_have_attribute("aria-label", "Q, queen of diamonds")

    table.button("settings")
    page.get_by_test_id("set-lang").select_option("ru")
    table.idle()
    page.keyboard.press("Escape")
    expect(table.card("QD")).to_have_attribute("aria-label", "Д, дама бубен")
    assert index_of(table, "QD") == "Д"


def test_keyboard_play(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru", animations=True)
    table.open("/?deal=PY1-N-AAAAAAS")  # bottom row 5♦ K♣ 2♠ J♥ 3♦ 10♥ A♠, waste 10♣
    page = table.page
    focused = "() => document.activeElement && document.activeElement.dataset.card"

    page.keyboard.press("ArrowRight")  # nothing focused: the first tappable card
    assert page.evaluate(focused) == "5D"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == "KC"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == "5D"
    page.keyboard.press("Tab")  # Tab goes over the tappable cards only
    assert page.evaluate(focused) == "KC"
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "2S"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == "KC"

    page.keyboard.press("Enter")  # the king goes
    table.idle()
    table.expect_figures(10, 1)
    expect(table.card("KC")).to_have_count(0)
    assert page.evaluate(focused) in {"5D", "2S"}  # focus stays on the table

    # 3♦ with the waste 10♣ by Space
    for code in ("3D", "10C"):
        table.card(code).focus()
        page.keyboard.press(" ")
        table.idle()
    table.expect_figures(20, 2)

    stock = page.locator('[data-zone="stock"]')
    page.keyboard.press("d")
    table.idle()
    table.expect_figures(20, 3)
    expect(stock).to_contain_text("22")
    expect(page.locator('[data-zone="waste"][data-card]')).to_have_attribute("data-card", "3S")

    page.keyboard.press("u")
    table.idle()
    expect(stock).to_contain_text("23")
    expect(page.locator('[data-zone="waste"][data-card]')).to_have_count(0)
    page.keyboard.press("Control+z")
    table.idle()
    table.expect_figures(10, 3)
    expect(table.card("10C")).to_have_attribute("data-zone", "waste")

    page.keyboard.press("n")
    dialog = page.get_by_test_id("new-game-dialog")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    table.expect_figures(10, 3)  # Escape dealt nothing


def test_a_draw_moves_the_focus_off_the_covered_waste_card(table: Table,
                                                            server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=True)
    table.open("/?deal=PY1-N-AAAAAAS")  # waste 10♣, the stock's top 3♠
    page = table.page
    focused = "() => document.activeElement && document.activeElement.dataset.card"
    table.card("10C").focus()
    page.keyboard.press("d")
    table.idle()
    expect(table.card("10C")).to_have_attribute("data-free", "false")
    assert page.evaluate(focused) == "3S"  # the new waste top, not the card now under it
    page.keyboard.press("Enter")
    table.idle()
    expect(table.card("3S")).to_have_attribute("data-selected", "true")


DRAW_AND_COUNT_ANIMATIONS = """async () => {
    document.querySelector('[data-zone="stock"]').click();
    await new Promise(done => {
        const wait = setInterval(() => {
            if (document.body.dataset.busy === "false") { clearInterval(wait); done(); }
        }, 2);
    });
    return document.getAnimations().filter(a => a.constructor.name === "Animation").length;
}"""


def test_animations_setting(table: Table, server: LiveServer) -> None:
    """Cards move with animations on (a drawn card slides, removed ones fly), never with off."""
    put_settings(server.url, lang="en", animations=True)
    table.open("/?deal=PY1-N-AAAAAAS")
    page = table.page
    expect(page.locator('[data-zone="waste"][data-card]')).to_have_count(1)
    page.wait_for_function("document.getAnimations().length === 0")  # the deal is laid out
    assert page.evaluate(DRAW_AND_COUNT_ANIMATIONS) >= 1
    table.tap("KC")
    expect(page.locator('[data-zone="removed"]')).to_have_count(0)  # gone once it has flown

    table.button("settings")
    page.get_by_test_id("set-animations").uncheck()
    table.idle()
    page.keyboard.press("Escape")
    assert page.evaluate(DRAW_AND_COUNT_ANIMATIONS) == 0
    table.tap("2S")
    table.tap("JH")
    table.expect_figures(30, 4)  # K♣ 10, then 2♠ + J♥ 20; two draws
    assert page.locator('[data-zone="removed"]').count() == 0  # no card lingers
    put_settings(server.url, animations=True)


def test_lists_and_errors_follow_the_language_at_once(table: Table, server: LiveServer) -> None:
    """Rule names in the lists and the engine's error details change with the
    language, without a reload (one catalogue serves the server and the page)."""
    put_settings(server.url, lang="en", animations=False, explain_errors=True)
    table.open("/?deal=PY1-M-AAAAAAS")
    page = table.page
    table.button("settings")
    option = page.locator("#set-rules option[value=M]")
    expect(option).to_have_text("M — Microsoft Pyramid")
    expect(page.get_by_test_id("set-lang").locator("option")).to_have_text(
        ["English", "Русский"])
    page.get_by_test_id("set-lang").select_option("ru")
    table.idle()
    expect(option).to_have_text("M — Пирамида Microsoft")
    page.keyboard.press("Escape")
    table.button("new-game")
    expect(page.locator("#new-rules option[value=M]")).to_have_text(  # (and its win rate)
        re.compile(r"^M — Пирамида Microsoft · \d+(,\d)?%$"))
    page.keyboard.press("Escape")
    table.tap("5D")
    table.tap("2S")
    expect(page.get_by_test_id("message")).to_have_text("Сумма должна быть равна 13")
