"""Loose cards (B's reserve row) decided by the reduced model: against an exhaustive
search over the kernel on small positions, and against the compiled search on deals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pyramide.cards import Card, deck_cards
from pyramide.deals import Deal
from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.kernel import Position, judge, pairs
from pyramide.layouts import join, piles, pyramid, row
from pyramide.rules import CLASSIC_TABLEAU, Rules
from pyramide.solver import Budget
from pyramide.solver.api import decide, is_lost, loose_slots
from tests.test_family import exhaustive

B = PRESETS["B"]


def test_only_the_reserve_row_has_loose_cards() -> None:
    assert [letter for letter, rules in PRESETS.items() if loose_slots(rules)] == ["B"]
    assert loose_slots(B) == tuple(range(28, 35))


def test_any_rows_of_single_free_cards_are_loose() -> None:
    rules = replace(B, tableau=join(CLASSIC_TABLEAU, row(3, zone="reserve"),
                                    row(2, zone="row", y=7.0)))
    assert loose_slots(rules) == (28, 29, 30, 31, 32)


@pytest.mark.parametrize("change", [
    {"redeals": 2}, {"draw_count": 3}, {"win": "all"}, {"open_stock": True},
    {"waste_pairs": "hand"}, {"cells": 1}, {"target": 12},
    {"tableau": join(pyramid(7), pyramid(1, zone="pyramid2", x=9.0))},  # must be cleared
    {"tableau": join(pyramid(7), piles(3, 2))},  # covered reserve cards
    {"tableau": join(pyramid(6), row(7, zone="reserve"))},  # not the 7-row pyramid
    {"tableau": join(pyramid(7, hidden_rows=2), row(7, zone="reserve"))},
])
def test_loose_cards_need_the_reduced_talon_and_single_free_cards(
        change: dict[str, object]) -> None:
    """Every option that makes the talon's order matter, or a card outside the pyramid
    that is ever covered or must be cleared, takes the game off the reduced model."""
    assert loose_slots(replace(B, **change)) is None  # type: ignore[arg-type]


def reserve_position(rules: Rules, seed: int, keep: int = 5, loose: int = 3,
                     talon: int = 4) -> Position:
    """A late position of B: the first ``keep`` pyramid slots, ``loose`` reserve cards,
    ``talon`` cards in the stock and waste (partners of kept cards where possible)."""
    rng = random.Random(seed)
    cards = list(deck_cards(rules.deck))
    rng.shuffle(cards)
    top, spare = cards[:keep + loose], cards[keep + loose:]
    chosen: list[Card] = []
    for card in top:
        partners = [x for x in spare if pairs(rules, card, x)]
        if partners and len(chosen) < talon and rng.random() < 0.6:
            pick = rng.choice(partners)
            spare.remove(pick)
            chosen.append(pick)
    while len(chosen) < talon:
        chosen.append(spare.pop())
    reserve = rng.sample(range(28, len(rules.tableau)), loose)
    tableau: list[Card | None] = [None] * len(rules.tableau)
    tableau[:keep] = top[:keep]
    for slot, card in zip(reserve, top[keep:], strict=True):
        tableau[slot] = card
    cut = rng.randint(0, talon)
    return Position(tuple(tableau), tuple(chosen[cut:]), tuple(chosen[:cut]), tuple(spare),
                    score=10 * (len(rules.tableau) - keep - loose))


def test_verdicts_are_those_of_exhaustive_search() -> None:
    outcomes = set()
    for seed in range(40):
        pos = judge(B, reserve_position(B, seed))
        if pos.status != "playing":
            continue
        winnable, _, _ = exhaustive(B, pos)
        assert decide(pos, B, win_only=True).winnable is winnable, seed
        g = Game(Deal(deck_cards(B.deck)), B, clock=lambda: 0.0)
        g.position = pos
        assert is_lost(g) is not winnable, seed
        outcomes.add(winnable)
    assert outcomes == {True, False}, "the small positions include wins and losses"


def test_verdicts_are_those_of_the_compiled_search_on_deals() -> None:
    """The compiled search plays B through the kernel's moves (its own tests); where
    it decides a deal, the reduced model's verdict is the same."""
    decided = 0
    for number in range(40):
        pos = Position.initial(Deal.from_number(number, B.deck), B)
        fast = decide(pos, B, win_only=True)
        searched = decide(pos, B, budget=Budget(nodes=100_000, seconds=None))
        assert fast.method == "reduced" and searched.method == "familyc"
        if searched.winnable is not None:
            decided += 1
            assert fast.winnable is searched.winnable, number
    assert decided >= 35
