"""Undo (rule book §7): the last 100 actions, points back, the move counter kept."""

from __future__ import annotations

import pytest

from pyramide import PRESETS, Card, Game, IllegalMoveError, Message, Position
from tests.reference import reference_deal
from tests.test_game import (
    WIN_SEQUENCE,
    ManualClock,
    russian,
    stuck_deal,
    win_deal,
)


def c(text: str) -> Card:
    return Card.parse(text)


def test_101_actions_then_100_undos_and_the_101st_is_refused() -> None:
    game = Game(reference_deal(), clock=ManualClock())
    before: list[Position] = []
    actions = ["KD", "10C+3S"]
    for action in actions:
        before.append(game.position)
        game.play(action)
    while len(before) < 101:
        before.append(game.position)
        game.tap_stock()  # draws and recycles
    after_all = game.position
    assert game.moves == 101
    assert game.score == 30
    assert game.position.redeals_used >= 3
    assert game.undo_depth == 100

    for n in range(100, 0, -1):
        assert game.can_undo
        game.undo()
        assert game.position == before[n], f"undo back to before action {n + 1}"
        assert game.moves == 101, "an undo is not a move and moves are not decreased"
        assert game.undo_depth == n - 1
    assert game.position == before[1]
    assert game.score == 10, "K♦ (the first action) is beyond the last 100"
    assert game.position != after_all

    assert not game.can_undo
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    assert game.position == before[1]
    assert game.moves == 101
    assert [e.action for e in game.log].count("undo") == 100


def test_undo_subtracts_the_points_of_the_undone_removal() -> None:
    game = Game(reference_deal())
    game.play("KD")
    game.play("10C+3S")
    assert game.score == 30
    game.undo()
    assert game.score == 10
    assert game.spot(c("10♣")).zone == "pyramid"
    assert game.spot(c("3♠")).zone == "pyramid"
    assert game.position.removed == (c("K♦"),)
    game.undo()
    assert game.score == 0
    assert game.position == Game(reference_deal()).position
    assert game.moves == 2


def test_undo_of_draw_and_recycle() -> None:
    game = Game(reference_deal(), PRESETS["P"])
    start = game.position
    game.play("draw")
    game.undo()
    assert game.position == start
    while game.position.stock:
        game.play("draw")
    full_waste = game.position
    game.play("recycle")
    assert game.redeals_left == 1
    game.undo()
    assert game.position == full_waste
    assert game.redeals_left == 2
    assert game.position.redeals_used == 0


def test_nothing_to_undo_at_the_start() -> None:
    game = Game(reference_deal())
    assert not game.can_undo
    assert game.undo_depth == 0
    with pytest.raises(IllegalMoveError, match="nothing to undo") as info:
        game.undo()
    assert russian(info.value) == "нечего отменять"
    assert game.log == []
    assert Message.NOTHING_TO_UNDO.value == "nothing_to_undo"  # the key the UI shows


def test_undo_clears_selection_and_message() -> None:
    game = Game(reference_deal())
    game.play("draw")
    game.tap(c("7♣"))
    assert game.tap(c("7♠")) is Message.WRONG_SUM
    game.undo()
    assert game.selection is None
    assert game.message is None


def test_undo_is_refused_after_a_win() -> None:
    game = Game(win_deal())
    for move in WIN_SEQUENCE:
        game.play(move)
    assert game.status == "won"
    assert not game.can_undo
    assert game.undo_depth == 0
    with pytest.raises(IllegalMoveError, match="won game is final") as info:
        game.undo()
    assert russian(info.value) == "партия выиграна: ходы в ней больше не отменяются"
    assert game.status == "won"
    assert game.score == 280


def test_undo_after_a_loss_resumes_play_and_the_clock() -> None:
    clock = ManualClock()
    game = Game(stuck_deal(), PRESETS["O"], clock)
    for _ in range(23):
        clock.now += 1
        game.tap_stock()
    assert game.status == "lost"
    assert game.elapsed == 22.0
    clock.now += 50
    assert game.elapsed == 22.0, "stopped at the end"
    game.undo()
    assert game.status == "playing"
    assert game.message is None
    assert len(game.position.stock) == 1
    clock.now += 4
    assert game.elapsed == 26.0, "runs again after the undo"
    game.tap_stock()
    assert game.status == "lost"
    assert game.moves == 24


def test_undo_keeps_at_most_100_and_the_oldest_goes_first() -> None:
    game = Game(reference_deal())
    game.play("KD")
    for _ in range(150):
        game.tap_stock()
    assert game.undo_depth == 100
    for _ in range(100):
        game.undo()
    assert game.score == 10
    assert len(game.position.removed) == 1
    assert game.moves == 151
