"""New game dialog: a code deals the same cards; bad input is shown in the dialog."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from pyramide.deals import Deal
from tests.browser.conftest import Table, call, put_settings
from tests.conftest import LiveServer

pytestmark = pytest.mark.browser


def engine_pyramid(code: str) -> list[str]:
    return [card.code for card in Deal.from_code(code).cards[:28]]


def test_new_game_by_code_deals_the_same_cards(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en", animations=True, rules="N")
    table.open("/")
    page = table.page
    first_code = table.text("deal-code")
    assert first_code.startswith("PY1-N-")  # no game yet: a random one was dealt
    assert table.pyramid() == engine_pyramid(first_code)

    for code in ("PY1-N-AAAAAAS", "PY1-P-BCDEFGH"):
        table.button("new-game")
        dialog = page.get_by_test_id("new-game-dialog")
        expect(dialog).to_be_visible()
        page.get_by_role("tab", name="By code").click()
        page.get_by_test_id("deal-code-input").fill(code.lower())
        page.get_by_test_id("new-game-submit").click()
        table.idle()
        expect(dialog).to_be_hidden()
        expect(page.get_by_test_id("deal-code")).to_have_text(code)
        expect(page.locator('[data-zone="pyramid"][data-card]')).to_have_count(28)
        assert table.pyramid() == engine_pyramid(code)
        table.expect_figures(0, 0)
        deal = Deal.from_code(code)
        if code.startswith("PY1-P"):
            # open stock: 24 cards in the stock, the top one (the 29th of the card
            # list) face up, the waste empty (issue 10 item 8)
            expect(page.locator('[data-zone="stock-card"]')).to_have_attribute(
                "data-card", deal.cards[28].code)
            expect(page.locator('[data-zone="stock"] .redeals')).to_have_attribute(
                "data-text", "↻2")
            expect(page.locator('[data-zone="waste"][data-card]')).to_have_count(0)
        else:
            expect(page.locator('[data-zone="stock-card"]')).to_have_count(0)
            expect(page.locator('[data-zone="waste"][data-card]')).to_have_attribute(
                "data-card", deal.cards[28].code)


def test_bad_code_shows_the_error_in_the_dialog(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru")
    table.open("/?deal=PY1-N-AAAAAAJ")
    page = table.page
    table.tap(table.pyramid()[-1])  # a move, so that "unchanged" means something
    before = (table.pyramid(), table.text("deal-code"), table.score, table.moves,
              page.locator("body").get_attribute("data-version"))
    current = table.state()

    table.button("new-game")
    dialog = page.get_by_test_id("new-game-dialog")
    page.get_by_role("tab", name="По коду").click()
    bad = "PY1-N-AAAA"
    page.get_by_test_id("deal-code-input").fill(bad)
    page.get_by_test_id("new-game-submit").click()
    if current["moves"]:  # a game in progress: asked first
        page.get_by_test_id("confirm-ok").click()
    table.idle()
    status, answer = call(server.url, "POST", "/api/games", {"code": bad})
    assert status == 400
    error = page.get_by_test_id("new-game-error")
    expect(error).to_have_text(answer["error"])
    expect(error).to_contain_text("PY1-N-AAAA")
    expect(dialog).to_be_visible()

    # an explicit list with a duplicate card: the engine's reason, in the dialog
    page.get_by_role("tab", name="Список карт").click()
    expect(error).to_have_text("")
    page.get_by_test_id("layout-input").fill("AS " * 52)
    page.get_by_test_id("new-game-submit").click()
    if current["moves"]:
        page.get_by_test_id("confirm-ok").click()
    table.idle()
    expect(error).not_to_have_text("")
    expect(dialog).to_be_visible()

    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    after = (table.pyramid(), table.text("deal-code"), table.score, table.moves,
             page.locator("body").get_attribute("data-version"))
    assert after == before
    again = table.state()
    assert (again["id"], again["version"]) == (current["id"], current["version"])


def test_deal_link_opens_the_deal_and_bad_link_keeps_the_game(
        table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="ru")
    table.open("/?deal=PY1-N-AAAAAAB")
    expect(table.page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAB")
    assert table.pyramid() == engine_pyramid("PY1-N-AAAAAAB")
    table.open("/?deal=nonsense")
    expect(table.page.get_by_test_id("message")).to_contain_text("nonsense")
    expect(table.page.get_by_test_id("deal-code")).to_have_text("PY1-N-AAAAAAB")


def test_copy_button_copies_a_link_to_the_deal(table: Table, server: LiveServer) -> None:
    put_settings(server.url, lang="en")
    table.page.context.grant_permissions(["clipboard-read", "clipboard-write"],
                                         origin=server.url)
    table.open("/?deal=PY1-C-QWERTYU")
    table.button("copy-code")
    expect(table.page.get_by_test_id("message")).to_have_text("Link to the deal copied")
    link = table.page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url}/?deal=PY1-C-QWERTYU"
    table.open(link.removeprefix(server.url))  # the link deals the same cards
    expect(table.page.get_by_test_id("deal-code")).to_have_text("PY1-C-QWERTYU")


def test_card_list_deals_those_cards(table: Table, server: LiveServer) -> None:
    from tests.reference import REFERENCE_CODES, reference_layout

    put_settings(server.url, lang="en", animations=False)
    table.open("/")
    table.button("new-game")
    page = table.page
    page.get_by_role("tab", name="Card list").click()
    page.get_by_test_id("layout-input").fill(reference_layout().replace("10", "T"))
    page.get_by_test_id("new-rules").select_option("M")
    page.get_by_test_id("new-game-submit").click()
    table.idle()
    expect(page.get_by_test_id("new-game-dialog")).to_be_hidden()
    assert table.pyramid() == " ".join(REFERENCE_CODES).split()
    expect(page.get_by_test_id("deal-code")).to_have_text("layout")
    state = table.state()
    assert state["code"] is None and state["rules"]["letter"] == "M"
    # Microsoft rules: all 24 cards start in the stock (the 29th card of the list on
    # top), its top card face up, to the side of the stock
    expect(page.locator('[data-zone="stock-card"]')).to_have_attribute(
        "data-card", reference_layout().split()[28])  # all 24 in the stock (rules M)


def test_the_card_list_tab_says_how_many_cards_and_in_what_order(
        table: Table, server: LiveServer) -> None:
    """The Card list tab's label and help follow the chosen game: its deck, its
    tableau, waste and stock counts (the server's card_list), the second deck's mark."""
    put_settings(server.url, lang="ru", animations=False)
    table.open("/")
    table.button("new-game")
    page = table.page
    page.get_by_role("tab", name="Список карт").click()
    label, help_text = page.get_by_test_id("layout-label"), page.get_by_test_id("layout-help")
    page.get_by_test_id("new-rules").select_option("N")
    expect(label).to_have_text("52 карты")
    expect(help_text).to_contain_text("28 карт пирамиды")
    expect(help_text).to_contain_text("затем карта отбоя, затем 23 карты колоды")
    expect(help_text).to_contain_text("10 можно писать как T")
    page.get_by_test_id("new-rules").select_option("E")
    expect(label).to_have_text("48 карт")
    expect(help_text).to_contain_text("19 карт колоды")
    expect(help_text).not_to_contain_text("10 можно")  # the Spanish deck has no tens
    page.get_by_test_id("new-rules").select_option("W")
    expect(label).to_have_text("104 карты")
    expect(help_text).to_contain_text("45 карт стола")
    expect(help_text).to_contain_text("58 карт колоды")
    expect(help_text).to_contain_text("второй колоды")
    # and a 104-card list starts the game
    page.get_by_test_id("layout-input").fill(Deal.from_number(5, 104).layout_text())
    page.get_by_test_id("new-game-submit").click()
    if page.get_by_test_id("confirm-ok").is_visible():
        page.get_by_test_id("confirm-ok").click()
    table.idle()
    expect(page.get_by_test_id("new-game-dialog")).to_be_hidden()
    assert table.state()["rules"]["letter"] == "W"


def test_the_games_are_grouped_with_their_win_rates(table: Table, server: LiveServer) -> None:
    """Issue 10 item 7: the New game list groups the Pyramid's rule sets and the
    family, each game with its measured win rate beside its name; under the list,
    the chosen game's description, win rate with its interval and deals, and the
    published figures, in the page's language."""
    put_settings(server.url, lang="en", rules="N")
    rules = call(server.url, "GET", "/api/rules")[1]
    table.open("/?deal=PY1-N-AAAAAAS")
    page = table.page
    table.button("new-game")
    select = page.get_by_test_id("new-rules")
    groups = select.locator("optgroup")
    expect(groups).to_have_count(2)
    assert groups.evaluate_all("gs => gs.map(g => g.label)") == ["Pyramid", "The Pyramid family"]
    for group, members in (("pyramid", [r for r in rules if r["group"] == "pyramid"]),
                           ("family", [r for r in rules if r["group"] == "family"])):
        letters = select.locator(f'optgroup[data-group="{group}"] option').evaluate_all(
            "os => os.map(o => o.value)")
        assert letters == [r["letter"] for r in members]
    giza = next(r for r in rules if r["letter"] == "G")
    assert giza["win_rate"]["percent"] is not None and giza["win_rate"]["deals"] >= 100_000
    expect(select.locator("option[value=G]")).to_have_text(re.compile(r"^G — Giza · \d+\.\d%$"))
    select.select_option("G")
    info = page.get_by_test_id("new-rules-info")
    expect(info).to_contain_text(giza["description"])
    expect(info).to_contain_text(f"deals solved: {giza['win_rate']['deals']:,}")
    expect(info).to_contain_text("Published: 10%; 33.3%")
    double = next(r for r in rules if r["letter"] == "W")
    assert double["win_rate"]["percent"] is None  # most deals undecided: a range
    expect(select.locator("option[value=W]")).to_have_text(
        re.compile(r"^W — Double Pyramid · [\d.]+%–[\d.]+%$"))
    select.select_option("W")
    expect(info).to_contain_text("Win rate between")
    low, high = select.locator("option[value=W]").inner_text().split(" · ")[1].split("–")
    expect(info).to_contain_text(f"between {low} and {high} (95%)")  # the list's figures
    # no loss proven (Cheops): not "100% of decided", the range over all deals
    cheops = next(r for r in rules if r["letter"] == "K")["win_rate"]
    assert cheops["lost"] == 0 < cheops["unknown"] and cheops["percent"] is None
    expect(select.locator("option[value=K]")).to_have_text(
        f"K — Cheops · {cheops['low']:.1f}%–{cheops['high']:.1f}%")
    select.select_option("K")
    expect(info).to_contain_text(f"between {cheops['low']:.1f}% and {cheops['high']:.1f}% "
                                 "(95%): no deal of this game has been proven lost yet")
    # a rare win: as many decimals as its interval's ends need to differ
    pharaohs = next(r for r in rules if r["letter"] == "F")["win_rate"]
    assert f"{pharaohs['low']:.1f}" == f"{pharaohs['high']:.1f}" != f"{pharaohs['high']:.2f}"
    expect(select.locator("option[value=F]")).to_have_text(
        f"F — Pharaohs · {pharaohs['percent']:.2f}%")
    select.select_option("F")
    expect(info).to_contain_text(f"Win rate {pharaohs['percent']:.2f}% "
                                 f"({pharaohs['low']:.2f}%–{pharaohs['high']:.2f}%")
    page.keyboard.press("Escape")

    put_settings(server.url, lang="ru")
    table.open("/?deal=PY1-N-AAAAAAS")
    table.button("new-game")
    assert page.get_by_test_id("new-rules").locator("optgroup").evaluate_all(
        "gs => gs.map(g => g.label)") == ["Пирамида", "Семейство «Пирамиды»"]
    expect(page.get_by_test_id("new-rules-info")).to_contain_text("Доля побед")
