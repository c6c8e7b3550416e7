"""The family's compiled decide search checked against the rules kernel: its
successors against :func:`kernel.legal_moves` and :func:`kernel.apply` in random
play, its verdicts against the kernel search's, its winning lines through the
game."""

from __future__ import annotations

import random

import pytest

from pyramide import PRESETS, DealCode, Game
from pyramide.deals import Deal
from pyramide.kernel import Position, apply, initial, judge, legal_moves
from pyramide.rules import Rules
from pyramide.solver import DEFAULT_BUDGET, Budget, decide, is_lost, solve
from pyramide.solver.api import family_rules
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.family_search import Encoding, covers, decide_family
from pyramide.solver.kernel_search import decide_kernel, key

COVERED = [letter for letter, rules in PRESETS.items() if rules.family and covers(rules)]


def start(rules: Rules, number: int) -> Position:
    return initial(rules, Deal.from_number(number, rules.deck).cards)


ONE_PASS = ["N1", "N1W"]
"""Classic rule sets measured with this search by benchmarks/one_pass_published.py."""


def test_every_family_game_is_covered_and_no_classic_one_is_sent_here() -> None:
    assert [letter for letter, rules in PRESETS.items() if rules.family] == COVERED
    classic = [letter for letter, rules in PRESETS.items() if not rules.family]
    assert not any(family_rules(PRESETS[letter]) for letter in classic)
    # it could play the classic sets of draw one without covering pairs
    assert [letter for letter in classic if covers(PRESETS[letter])] == [
        "N", "P", "R", "M", "O", "N1", "N1W"]


@pytest.mark.parametrize("letter", COVERED + ONE_PASS)
def test_successors_are_the_kernels_in_random_play(letter: str) -> None:
    """Along random games (one encoding, the compiled states carried along, as the
    search carries them), each state's successors are exactly the positions the
    kernel's legal moves lead to."""
    rules = PRESETS[letter]
    rng = random.Random(letter)
    steps = 0
    for number in range(40):
        if steps >= 300:
            break
        pos = start(rules, number)
        enc = Encoding.of(rules, pos)
        st = enc.state.copy()
        while pos.status == "playing" and steps < 300:
            assert enc.key(st) == key(rules, pos)
            kids = enc.children(st)
            expected = {key(rules, apply(rules, pos, m)) for m in legal_moves(rules, pos)}
            assert {enc.key(child) for child, _ in kids} == expected
            assert {str(m) for _, m in kids} == {str(m) for m in legal_moves(rules, pos)}
            removals = [kid for kid in kids if kid[1].kind != "draw"]
            child, move = rng.choice(removals if removals and rng.random() < 0.6 else kids)
            pos, st = judge(rules, apply(rules, pos, move)), child
            steps += 1
    assert steps == 300


def late_positions(rules: Rules, count: int, left: int) -> list[Position]:
    """Positions of random games with at most ``left`` cards in play."""
    rng = random.Random(f"late {rules.letter}")
    found: list[Position] = []
    number = 0
    while len(found) < count and number < 40 * count:
        pos = start(rules, number)
        number += 1
        for _ in range(400):  # (with unlimited redeals a game may draw for ever)
            if pos.status != "playing":
                break
            cards = sum(c is not None for c in pos.tableau) + len(pos.stock) + sum(
                map(len, pos.wastes)) + sum(c is not None for c in pos.cells)
            if cards <= left:
                found.append(pos)
                break
            moves = legal_moves(rules, pos)
            removals = [m for m in moves if m.kind == "remove"]
            pos = judge(rules, apply(rules, pos, rng.choice(removals or moves)))
    return found


@pytest.mark.parametrize("letter", COVERED)
def test_verdicts_equal_the_unlimited_kernel_search_late_in_the_game(letter: str) -> None:
    rules = PRESETS[letter]
    positions = late_positions(rules, 5, 14 if rules.win == "all" else 18)
    assert positions
    for pos in positions:
        theirs = decide_kernel(rules, pos, UNLIMITED)
        ours = decide_family(rules, pos, UNLIMITED)
        assert ours.winnable == theirs.winnable is not None
        assert ours.max_removed == theirs.max_removed or ours.winnable
        assert ours.exact
        if ours.winnable:
            replay = pos
            for move in ours.line:
                assert move in legal_moves(rules, replay)
                replay = judge(rules, apply(rules, replay, move))
            assert replay.status == "won"


@pytest.mark.parametrize("letter", COVERED)
def test_verdicts_equal_the_kernel_search_on_real_deals_and_lines_win(letter: str) -> None:
    """Wherever the kernel search decides a deal (within a small budget), the
    compiled search says the same; its winning lines play to a win in the game."""
    rules = PRESETS[letter]
    budget = Budget(nodes=1_000, seconds=None)
    compared = 0
    for number in range(5):
        pos = start(rules, number)
        theirs = decide_kernel(rules, pos, budget)
        ours = decide_family(rules, pos, Budget(nodes=100_000, seconds=None))
        if theirs.winnable is not None:
            compared += 1
            assert ours.winnable == theirs.winnable
            if ours.winnable is False:
                assert ours.max_removed == theirs.max_removed
        if ours.winnable:
            game = Game.from_code(DealCode(letter, number), clock=lambda: 0.0)
            for move in ours.line:
                game.play(move)
            assert game.status == "won"
    if letter not in ("W", "X", "U", "H", "K", "A", "Z"):  # the kernel search settles few of these
        assert compared


def test_the_same_budget_gives_the_same_answer_and_the_budget_counts_states() -> None:
    rules = PRESETS["A"]
    pos = start(rules, 0)
    first = decide_family(rules, pos, Budget(nodes=5_000, seconds=None))
    again = decide_family(rules, pos, Budget(nodes=5_000, seconds=None))
    assert (first.winnable, first.max_removed, first.nodes) == (None, again.max_removed, 5_001)
    assert [str(m) for m in first.line] == [str(m) for m in again.line]


@pytest.mark.parametrize("letter", ["G", "Y", "L"])
def test_the_solver_api_uses_the_compiled_search(letter: str) -> None:
    game = Game.from_code(DealCode(letter, 1), clock=lambda: 0.0)
    found = decide(game.position, game.rules)
    assert found.method == "familyc" and found.winnable is not None
    solution = solve(game)
    assert solution.method == "familyc" and solution.winnable == found.winnable
    if solution.winnable:
        for move in solution.moves:
            game.play(move)
        assert game.status == "won"
    else:
        assert is_lost(game, budget=DEFAULT_BUDGET)
