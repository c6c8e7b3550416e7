"""Property tests: random legal play under every preset keeps the invariants."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pyramide import (
    PRESETS,
    Card,
    Deal,
    DealCode,
    Game,
    Message,
    Position,
    dump_game,
    load_game,
)
from pyramide.cards import deck_cards
from pyramide.deals import MAX_DEAL_NUMBER
from pyramide.kernel import is_single, pairs, tableau_left

LETTERS = sorted(PRESETS)
deal_numbers = st.integers(min_value=0, max_value=MAX_DEAL_NUMBER)


class StepClock:
    """A clock that moves on by one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def cards_of(pos: Position) -> list[Card]:
    return ([c for c in pos.tableau if c is not None] + list(pos.stock)
            + [c for pile in pos.wastes for c in pile] + [c for c in pos.cells if c is not None]
            + list(pos.removed))


def check_invariants(game: Game) -> None:
    rules, pos = game.rules, game.position
    cards = cards_of(pos)
    assert len(cards) == rules.deck
    assert set(cards) == set(deck_cards(rules.deck))
    assert len(pos.tableau) == len(rules.tableau)
    # 10 points for every card dealt to the tableau that is gone for good
    gone = sum(card not in pos.tableau and card not in pos.cells for card in game.deal.cards[
        :len(rules.tableau)])
    assert pos.score == 10 * gone
    assert game.score == pos.score
    if pos.status == "won":
        assert tableau_left(rules, pos) == 0
        if rules.win == "all":
            assert not cards_of(pos)[: rules.deck - len(pos.removed)]
            assert pos.score == 10 * len(rules.tableau)
        assert game.message is Message.WON
        assert game.legal_moves() == []
    elif pos.status == "lost":
        assert game.legal_moves() == []
        assert game.message is Message.NO_MOVES
        if game.rules.redeals is None:
            # §5: the dead end only comes with the stock and the waste both empty
            assert not pos.stock and not any(pos.wastes)
    else:
        assert game.legal_moves(), "a game in play always has a move"
        assert game.message is not Message.NO_MOVES
    if game.selection is not None:
        assert game.selection in game.tappable_cards()


@pytest.mark.parametrize("letter", LETTERS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=deal_numbers, data=st.data())
def test_random_play_keeps_invariants(letter: str, number: int, data: st.DataObject) -> None:
    game = Game.from_code(DealCode(letter, number), clock=StepClock())
    history: list[Position] = []  # positions before each undoable action
    actions = 0
    for _ in range(data.draw(st.integers(min_value=0, max_value=150), label="steps")):
        if game.is_over:
            if game.can_undo and data.draw(st.booleans(), label="undo after loss"):
                before = game.position
                game.undo()
                assert game.position == history.pop()
                assert game.position != before
                check_invariants(game)
                continue
            break
        kind = data.draw(
            st.sampled_from(["tap", "tap", "remove", "remove", "move", "stock", "undo", "tap_any"]),
            label="kind",
        )
        before = game.position
        moves_before = game.moves
        if kind == "undo":
            if not game.can_undo:
                continue
            game.undo()
            assert game.position == history.pop()
            assert game.moves == moves_before
        elif kind in ("move", "remove"):
            legal = game.legal_moves()
            removals = [m for m in legal if m.kind == "remove"]
            choices = removals if kind == "remove" and removals else legal
            move = data.draw(st.sampled_from(choices), label="move")
            assert game.is_legal(move)
            game.play(move)
            history.append(before)
            actions += 1
        elif kind == "stock":
            if not game.rules.stock_size and not game.rules.waste_piles:
                continue  # no stock in this game (a tap is refused, tested apart)
            game.tap_stock()
            if game.position != before:
                history.append(before)
                actions += 1
        else:
            if kind == "tap":
                pool = game.tappable_cards()
            else:
                pool = [c for c in game.position.tableau if c is not None]
                pool += [c for pile in game.position.wastes for c in pile]
            if not pool:
                continue
            card = data.draw(st.sampled_from(pool), label="card")
            selected = game.selection
            if card in game.position.tableau and not game._face_up(card):
                continue  # a face-down card cannot be tapped at all (Pyramid Thirteen)
            if card not in game.tappable_cards():
                game.explain_errors = data.draw(st.booleans(), label="explain")
                message = game.tap(card)
                assert message == (Message.BLOCKED if game.explain_errors else None)
                assert game.position == before and game.selection == selected
                continue
            message = game.tap(card)
            if game.position != before:  # a king, or a pair with the selection
                assert is_single(game.rules, card) or (
                    selected is not None and pairs(game.rules, selected, card))
                assert game.selection is None
                history.append(before)
                actions += 1
            elif selected == card:
                assert (game.selection, message) == (None, None)
            else:
                assert game.selection == card
                if selected is None:
                    assert message is None
                elif not pairs(game.rules, selected, card):
                    assert message in (Message.WRONG_SUM, Message.CANNOT_PAIR)
                else:
                    assert message is Message.CANNOT_PAIR
        del history[:-100]
        assert game.moves == actions
        check_invariants(game)

    event(f"{letter}: {game.status}")
    saved = dump_game(game)
    copy = load_game(saved, clock=lambda: 0.0)
    assert copy.position == game.position
    assert (copy.score, copy.moves, copy.status) == (game.score, game.moves, game.status)
    assert copy.code == game.code
    assert copy.undo_depth == game.undo_depth
    assert [(e.action, e.t) for e in copy.log] == [(e.action, e.t) for e in game.log]
    assert copy.elapsed == json.loads(saved)["elapsed"]


@settings(max_examples=200, deadline=None)
@given(letter=st.sampled_from(LETTERS), number=deal_numbers)
def test_deal_codes_round_trip(letter: str, number: int) -> None:
    code = DealCode(letter, number)
    text = str(code)
    assert DealCode.parse(text) == code
    assert DealCode.parse(f"  {text.lower()} ") == code
    assert Game.from_code(text).code == text
    deal = Deal.from_code(text)
    assert deal.number == number
    again = Deal.parse_layout(deal.layout_text(), PRESETS[letter].deck)
    assert again.cards == deal.cards
    assert again.layout_text() == deal.layout_text()


@settings(max_examples=100, deadline=None)
@given(number=deal_numbers)
def test_every_deal_is_the_52_cards(number: int) -> None:
    deal = Deal.from_number(number)
    assert sorted(deal.cards) == sorted(deck_cards(52))
    assert deal == Deal.from_number(number)
