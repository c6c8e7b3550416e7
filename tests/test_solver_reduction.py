"""The games the reduced model decides beside N and C — a smaller pyramid (S), spare
cards (B) — against an exhaustive search over the kernel on small positions, and
against the compiled search on deals."""

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
from pyramide.solver.api import decide, is_lost, solve_position
from pyramide.solver.kernel_search import gone
from pyramide.solver.reduction import Reduction, reduction
from tests.test_family import exhaustive, small_position

B = PRESETS["B"]


def test_which_games_the_reduced_model_decides() -> None:
    found = {letter: reduction(rules) for letter, rules in PRESETS.items()}
    assert {letter: red for letter, red in found.items() if red is not None} == {
        "N": Reduction(28, ()), "C": Reduction(28, ()), "S": Reduction(21, ()),
        "B": Reduction(28, tuple(range(28, 35)))}


def test_any_rows_of_single_free_cards_are_spare() -> None:
    rules = replace(B, tableau=join(CLASSIC_TABLEAU, row(3, zone="reserve"),
                                    row(2, zone="row", y=7.0)))
    assert reduction(rules) == Reduction(28, (28, 29, 30, 31, 32))
    rules = replace(B, tableau=join(pyramid(6), row(7, zone="reserve")))
    assert reduction(rules) == Reduction(21, tuple(range(21, 28)))


@pytest.mark.parametrize("change", [
    {"redeals": 2}, {"draw_count": 3}, {"win": "all"}, {"open_stock": True},
    {"waste_pairs": "hand"}, {"cells": 1}, {"target": 12},
    {"tableau": join(pyramid(7), pyramid(1, zone="pyramid2", x=9.0))},  # must be cleared
    {"tableau": join(pyramid(7), piles(3, 2))},  # covered reserve cards
    {"tableau": join(pyramid(8), row(7, zone="reserve"))},  # more than the 7 rows
    {"tableau": join(row(7, zone="reserve"), pyramid(7))},  # the pyramid not dealt first
    {"tableau": join(pyramid(7, hidden_rows=2), row(7, zone="reserve"))},
])
def test_spare_cards_need_the_reduced_talon_and_single_free_cards(
        change: dict[str, object]) -> None:
    """Every option that makes the talon's order matter, or a card outside the pyramid
    that is ever covered or must be cleared, takes the game off the reduced model."""
    assert reduction(replace(B, **change)) is None  # type: ignore[arg-type]


def reserve_position(rules: Rules, seed: int, keep: int = 5, reserve: int = 3,
                     talon: int = 4) -> Position:
    """A late position of B: the first ``keep`` pyramid slots, ``reserve`` reserve cards,
    ``talon`` cards in the stock and waste (partners of kept cards where possible)."""
    rng = random.Random(seed)
    cards = list(deck_cards(rules.deck))
    rng.shuffle(cards)
    top, spare = cards[:keep + reserve], cards[keep + reserve:]
    chosen: list[Card] = []
    for card in top:
        partners = [x for x in spare if pairs(rules, card, x)]
        if partners and len(chosen) < talon and rng.random() < 0.6:
            pick = rng.choice(partners)
            spare.remove(pick)
            chosen.append(pick)
    while len(chosen) < talon:
        chosen.append(spare.pop())
    slots = rng.sample(range(28, len(rules.tableau)), reserve)
    tableau: list[Card | None] = [None] * len(rules.tableau)
    tableau[:keep] = top[:keep]
    for slot, card in zip(slots, top[keep:], strict=True):
        tableau[slot] = card
    cut = rng.randint(0, talon)
    return Position(tuple(tableau), tuple(chosen[cut:]), tuple(chosen[:cut]), tuple(spare),
                    score=10 * (len(rules.tableau) - keep - reserve))


@pytest.mark.parametrize("letter", ["B", "S"])
def test_verdicts_are_those_of_exhaustive_search(letter: str) -> None:
    rules = PRESETS[letter]
    outcomes = set()
    for seed in range(40):
        pos = judge(rules, reserve_position(rules, seed) if letter == "B"
                    else small_position(rules, seed, keep=7, talon=5))
        if pos.status != "playing":
            continue
        winnable, best, _ = exhaustive(rules, pos)
        found = decide(pos, rules, win_only=True)
        assert found.winnable is winnable and found.method == "reduced", seed
        if letter == "S":  # no spare cards: the most cards removable too
            assert decide(pos, rules).max_removed == best, seed
        g = Game(Deal(deck_cards(rules.deck)), rules, clock=lambda: 0.0)
        g.position = pos
        assert is_lost(g) is not winnable, seed
        outcomes.add(winnable)
    assert outcomes == {True, False}, "the small positions include wins and losses"


@pytest.mark.parametrize("letter", ["B", "S"])
def test_verdicts_are_those_of_the_compiled_search_on_deals(letter: str) -> None:
    """The compiled search plays these games through the kernel's moves (its own
    tests); where it decides a deal, the reduced model's verdict is the same, and
    its line plays in the game."""
    rules = PRESETS[letter]
    decided = 0
    for number in range(30):
        pos = Position.initial(Deal.from_number(number, rules.deck), rules)
        fast = decide(pos, rules, win_only=True)
        searched = solve_position(pos, rules, budget=Budget(nodes=100_000, seconds=None))
        assert fast.method == "reduced" and searched.method == "familyc"
        if searched.winnable is not None:
            decided += 1
            assert fast.winnable is searched.winnable, number
            if letter == "S":
                assert decide(pos, rules).max_removed == searched.max_removed, number
        g = Game(Deal.from_number(number, rules.deck), rules, clock=lambda: 0.0)
        for move in searched.moves:
            g.play(move)
        assert (g.status == "won") is (searched.winnable is True), number
        assert gone(g.position) == searched.max_removed, number
    assert decided >= 25


def test_the_reserve_row_wins_the_deals_of_the_default_rules() -> None:
    """A deal code puts the same 28 cards into B's pyramid as into N's and the same 24
    elsewhere; under N's talon the reserve row's cards are talon cards always at hand,
    so B is won on exactly the deals N is won on (docs/rules.md)."""
    n = PRESETS["N"]
    verdicts = set()
    for number in range(300):
        deal = Deal.from_number(number, 52)
        b = decide(Position.initial(deal, B), B, win_only=True).winnable
        assert b is decide(Position.initial(deal, n), n).winnable, number
        verdicts.add(b)
    assert verdicts == {True, False}
