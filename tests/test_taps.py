"""Taps, as a player makes them: rule book §4 and the known facts of §9."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from pyramide import (
    DEFAULT_RULES,
    PRESETS,
    Card,
    Game,
    IllegalMoveError,
    InvalidCardError,
    Message,
    Move,
    Rules,
    Spot,
)
from pyramide.geometry import slot
from pyramide.messages import text
from tests.reference import REFERENCE_ROWS, reference_deal

WASTE_PAIRS = dataclasses.replace(DEFAULT_RULES, letter="W", name="waste pairs",
                                  waste_pairs="drawn")


class ManualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now



def reference_game(
    rules: Rules = DEFAULT_RULES, stock_top: Sequence[str] = (), *, explain: bool = False
) -> Game:
    return Game(reference_deal(stock_top), rules, ManualClock(), explain_errors=explain)


def c(text: str) -> Card:
    return Card.parse(text)


# --------------------------------------------------------- rule book §9 facts


def test_reference_start() -> None:
    game = reference_game()
    bottom = [c(t) for t in REFERENCE_ROWS[-1].split()]
    assert game.free_cards() == [*bottom, c("7♦")]
    assert game.tappable_cards() == game.free_cards()
    assert set(game.legal_moves()) == {
        Move.king(c("K♦")),
        Move.pair(c("10♣"), c("3♠")),
        Move.pair(c("10♣"), c("3♥")),
        Move("draw"),
    }
    assert (game.score, game.moves, game.selection, game.message) == (0, 0, None, None)
    assert game.code is None


def test_king_of_diamonds_first_scores_10() -> None:
    game = reference_game()
    assert game.tap(c("K♦")) is None
    assert game.score == 10
    assert game.moves == 1
    assert game.selection is None
    assert game.position.pyramid[slot(7, 6)] is None
    assert game.position.removed == (c("K♦"),)
    assert game.spot(c("K♦")).zone == "removed"


@pytest.mark.parametrize("order", [("10♣", "3♠"), ("3♠", "10♣")])
def test_then_ten_and_three_score_30(order: tuple[str, str]) -> None:
    game = reference_game()
    game.tap(c("K♦"))
    first, second = order
    assert game.tap(c(first)) is None
    assert game.selection == c(first)
    assert (game.score, game.moves) == (10, 1), "selecting is not a move"
    assert game.tap(c(second)) is None
    assert game.score == 30
    assert game.moves == 2
    assert game.selection is None
    assert game.position.pyramid[slot(7, 2)] is None
    assert game.position.pyramid[slot(7, 5)] is None
    assert set(game.position.removed) == {c("K♦"), c("10♣"), c("3♠")}


@pytest.mark.parametrize("explain", [False, True])
def test_seven_and_seven_is_refused_and_the_second_stays_selected(explain: bool) -> None:
    game = reference_game(explain=explain)
    start = game.position
    assert game.tap(c("7♣")) is None
    assert game.selection == c("7♣")
    assert game.tap(c("7♠")) is Message.WRONG_SUM
    assert game.message is Message.WRONG_SUM
    assert game.selection == c("7♠")
    assert game.position == start
    assert (game.score, game.moves, game.log) == (0, 0, [])
    # the refusal is shown whatever the "explain errors" setting
    assert text(game.message, "ru") == "Сумма должна быть равна 13"
    assert text(game.message, "en") == "The sum must equal 13"
    # and the 7♠ now selected is the first card of the next pair attempt
    assert game.tap(c("3♥")) is Message.WRONG_SUM
    assert game.selection == c("3♥")
    assert game.tap(c("10♣")) is None
    assert game.score == 20


@pytest.mark.parametrize("selected", [None, "7♣", "7♦"])
@pytest.mark.parametrize("explain", [False, True])
def test_blocked_queen_changes_nothing(explain: bool, selected: str | None) -> None:
    game = reference_game(explain=explain)
    clock = game.clock
    assert isinstance(clock, ManualClock)
    if selected is not None:
        game.tap(c(selected))
    start = game.position
    expected = Message.BLOCKED if explain else None
    assert game.tap(c("Q♣")) is expected
    assert game.message is expected
    assert game.position == start
    assert game.selection == (None if selected is None else c(selected))
    assert game.moves == 0
    assert game.log == []
    if expected is not None:
        assert text(expected, "ru") == "Эта карта заблокирована другой картой"
    if selected is None:
        clock.now += 30
        assert game.elapsed == 0.0, "a blocked tap does not start the clock"


def test_tapping_the_selected_card_again_deselects() -> None:
    game = reference_game(explain=True)
    game.tap(c("7♣"))
    assert game.tap(c("7♣")) is None
    assert game.selection is None
    assert game.message is None
    assert game.moves == 0
    game.tap(c("7♦"))
    assert game.selection == c("7♦")
    game.tap(c("7♦"))
    assert game.selection is None


# ----------------------------------------------------- decisions of the engine


def test_a_king_tap_removes_the_king_and_clears_the_selection() -> None:
    game = reference_game()
    game.tap(c("7♣"))
    assert game.tap(c("K♦")) is None
    assert game.position.pyramid[slot(7, 6)] is None
    assert game.selection is None
    assert game.score == 10


def test_a_draw_keeps_a_pyramid_selection_which_stays_tappable() -> None:
    game = reference_game()
    game.tap(c("7♣"))
    game.tap_stock()
    assert game.selection == c("7♣")
    assert game.position.waste[-1] == c("A♣")
    game.tap(c("7♣"))
    assert game.selection is None


def test_a_draw_drops_a_waste_selection_that_is_covered() -> None:
    game = reference_game()
    game.tap(c("7♦"))
    assert game.selection == c("7♦")
    game.tap_stock()
    assert game.selection is None
    assert c("7♦") not in game.tappable_cards()


@pytest.mark.parametrize("order", [("9♦", "4♥"), ("4♥", "9♦")])
def test_the_waste_top_pairs_with_a_pyramid_card_for_10_points(order: tuple[str, str]) -> None:
    game = reference_game(stock_top=["9D"])
    game.tap_stock()
    assert game.position.waste == (c("7♦"), c("9♦"))
    assert game.tap(c(order[0])) is None
    assert game.tap(c(order[1])) is None
    assert game.score == 10, "only the pyramid card earns points"
    assert game.moves == 2
    assert game.position.waste == (c("7♦"),)
    assert set(game.position.removed) == {c("9♦"), c("4♥")}


def test_a_covered_waste_card_is_blocked() -> None:
    game = reference_game(stock_top=["6S"], explain=True)
    game.tap_stock()
    start = game.position
    assert game.tap(c("7♦")) is Message.BLOCKED
    assert game.position == start
    assert game.selection is None


def test_cards_that_are_not_face_up_on_the_table_cannot_be_tapped() -> None:
    game = reference_game()
    with pytest.raises(IllegalMoveError, match="not on the table"):
        game.tap(c("A♣"))  # the face-down top of the stock
    game.tap(c("K♦"))
    with pytest.raises(IllegalMoveError, match="not on the table"):
        game.tap(c("K♦"))  # removed
    with pytest.raises(InvalidCardError):
        game.tap("XX")
    assert game.tap("10c") is None  # text is read as a card
    assert game.selection == c("10♣")


def test_tap_stock_draws_then_recycles() -> None:
    game = reference_game()
    stock = game.position.stock
    for n in range(1, 24):
        assert game.tap_stock() is None
        assert game.position.waste[-1] == stock[n - 1]
        assert game.moves == n
    assert game.position.stock == ()
    assert game.tap_stock() is None  # recycle
    assert game.position.waste == ()
    assert game.position.stock == (c("7♦"), *stock)
    assert game.moves == 24
    assert [entry.action for entry in game.log[-2:]] == ["draw", "recycle"]


def test_stock_spent_under_one_pass() -> None:
    game = reference_game(PRESETS["O"])
    for _ in range(23):
        game.tap_stock()
    start = game.position
    assert game.status == "playing"  # K♦ can still be removed
    assert game.tap_stock() is Message.STOCK_SPENT
    assert game.message is Message.STOCK_SPENT
    assert game.position == start
    assert game.moves == 23
    assert text(Message.STOCK_SPENT, "en") == "The stock cannot be turned over again"


def test_cannot_pair_a_covered_card_with_a_stranger() -> None:
    # Under covering pairs, 10♠ (row 6) is tappable once K♦ is gone: its only
    # remaining cover is 3♠.  10♠ + 3♥ sums to 13 but 10♠ is not free.
    game = reference_game(PRESETS["C"])
    game.tap(c("K♦"))
    assert c("10♠") in game.tappable_cards()
    assert c("10♠") not in game.free_cards()
    game.tap(c("10♠"))
    assert game.tap(c("3♥")) is Message.CANNOT_PAIR
    assert game.selection == c("3♥")
    assert game.score == 10
    assert text(Message.CANNOT_PAIR, "ru") == "Эти карты нельзя убрать вместе"
    game.tap(c("3♥"))
    game.tap(c("10♠"))
    assert game.tap(c("3♠")) is None
    assert game.score == 30


@pytest.mark.parametrize("order", [("7♦", "6♠"), ("6♠", "7♦")])
def test_a_drawn_card_pairs_with_the_card_it_covered_only_under_waste_pairs(
    order: tuple[str, str],
) -> None:
    plain = reference_game(stock_top=["6S"], explain=True)
    plain.tap_stock()
    assert not plain.is_legal(Move.pair(c("6♠"), c("7♦")))
    assert c("7♦") not in plain.tappable_cards()
    plain.tap(c(order[0]))
    plain.tap(c(order[1]))
    assert plain.position.waste == (c("7♦"), c("6♠"))
    assert plain.position.removed == ()

    game = reference_game(WASTE_PAIRS, stock_top=["6S"], explain=True)
    game.tap_stock()
    assert game.is_legal(Move.pair(c("6♠"), c("7♦")))
    assert game.tap(c(order[0])) is None
    assert game.tap(c(order[1])) is None
    assert game.position.waste == ()
    assert set(game.position.removed) == {c("6♠"), c("7♦")}
    assert game.score == 0, "stock and waste cards earn nothing"
    assert game.moves == 2


@pytest.mark.parametrize("letter", ["P", "R", "M"])
def test_open_stock_top_is_tappable(letter: str) -> None:
    game = reference_game(PRESETS[letter], stock_top=["9D", "6D"])
    # the game starts with all 24 cards in the stock: 7♦ on top, open
    assert game.spot(c("7♦")) == Spot("stock", 0) and game.position.waste == ()
    game.tap_stock()
    assert game.spot(c("9♦")).zone == "stock"
    assert c("9♦") in game.free_cards()
    assert c("6♦") not in game.tappable_cards()
    assert game.tap(c("9♦")) is None
    assert game.selection == c("9♦")
    assert game.tap(c("4♥")) is None
    assert game.score == 10
    assert game.position.stock[0] == c("6♦")
    # the open stock top pairs with the waste top too
    game.tap(c("6♦"))
    game.tap(c("7♦"))
    assert game.position.waste == ()
    assert c("6♦") in game.position.removed and c("7♦") in game.position.removed
    assert game.score == 10


def test_every_message_has_both_texts() -> None:
    for message in Message:
        assert text(message, "ru") and text(message, "en")
        assert text(message, "ru") != text(message, "en")
    assert text(Message.NO_MOVES, "ru") == "Больше нет доступных ходов"
    assert {m.value for m in Message} == {
        "wrong_sum", "blocked", "no_moves", "won", "cannot_pair", "nothing_to_undo",
        "stock_spent",
    }
