"""Shortest lines: as short as a breadth-first search over the engine's positions."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramide import PRESETS, Deal, Game
from pyramide.solver import Budget, solve, solve_position
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.reduced import ReducedModel
from pyramide.solver.shortest import (
    WEIGHT,
    Trail,
    search_compiled,
    search_shortest,
    solve_shortest,
)
from pyramide.solver.table import Table
from tests.test_solver_helpers import both_builds, fewest_moves, game_at, small_position

CLASSIC = sorted(letter for letter, rules in PRESETS.items() if rules.classic)
"""The games of §1-§10: the ones the accelerated searches serve."""


@pytest.mark.parametrize("letter", CLASSIC)
def test_shortest_lines_of_small_positions(letter: str) -> None:
    rules = PRESETS[letter]
    for seed in range(25):
        pos = small_position(seed, rows=3, talon=8)
        result = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
        assert result.shortest and result.winnable is not None
        best = fewest_moves(pos, rules, result.max_removed, win=result.winnable)
        assert len(result.moves) == best, seed
        game = game_at(pos, rules)
        for move in result.moves:
            game.play(move)
        assert 28 - game.position.pyramid_left == result.max_removed
        assert (game.status == "won") == result.winnable


def test_a_whole_deal_shortest_line() -> None:
    deal = Deal.from_number(1)
    result = solve(Game(deal), shortest=True, budget=Budget(nodes=50_000, seconds=30))
    assert result.winnable and result.shortest
    assert len(result.moves) == 64
    game = Game(deal)
    for move in result.moves:
        game.play(move)
    assert game.status == "won"
    assert len(result.moves) <= len(solve(Game(deal)).moves)


def test_a_spent_budget_still_gives_a_winning_line() -> None:
    deal = Deal.from_number(2)
    result = solve(Game(deal), shortest=True, budget=Budget(nodes=5, seconds=None))
    assert result.winnable and not result.shortest
    game = Game(deal)
    for move in result.moves:
        game.play(move)
    assert game.status == "won"


def test_shortest_line_of_a_lost_deal_reaches_max_removed() -> None:
    deal = Deal.from_number(9)
    result = solve(Game(deal), shortest=True, budget=Budget(nodes=50_000, seconds=30))
    assert result.winnable is False and result.shortest
    game = Game(deal)
    for move in result.moves:
        game.play(move)
    assert 28 - game.position.pyramid_left == result.max_removed
    assert len(result.moves) <= len(solve(Game(deal)).moves)


def test_the_trail_holds_each_better_line_as_it_came() -> None:
    position = Game(Deal.from_number(1)).position
    model = ReducedModel([c.value for c in position.pyramid if c is not None], covering=False)
    trail: Trail = []
    result = solve_shortest(position, PRESETS["N"], Budget(nodes=50_000, seconds=30), model,
                            trail)
    assert result.shortest and trail[-1][1] == len(result.moves) == 64
    assert len(trail) >= 2 and trail[0][1] > 64  # the reduced model's line, then better ones
    moves = [m for _, m in trail]
    times = [t for t, _ in trail]
    assert moves == sorted(moves, reverse=True) and len(set(moves)) == len(moves)
    assert times == sorted(times)


@pytest.mark.parametrize(("letter", "numbers"), [("N", (1, 3, 4, 7, 8, 16, 26, 43, 87)),
                                                 ("C", (1, 3, 7, 16, 26, 43))])
def test_the_compiled_search_proves_what_the_interpreted_one_proves(
        letter: str, numbers: tuple[int, ...]) -> None:
    rules = PRESETS[letter]
    for number in numbers:
        position = Game(Deal.from_number(number), rules).position
        table = Table(position, rules)
        model = ReducedModel([c.value for c in position.pyramid if c is not None],
                             covering=rules.covering_pairs)
        start = table.start
        target = model.best(start.mask, start.talon)
        win = target == 28
        interpreted = search_shortest(table, target, win, UNLIMITED, model, weight=WEIGHT)
        compiled = search_compiled(table, target, win, UNLIMITED)
        assert interpreted.proven and compiled.proven
        assert interpreted.line is not None and compiled.line is not None
        assert len(compiled.line) == len(interpreted.line), number
        game = Game(Deal.from_number(number), rules)
        for action in compiled.line:
            game.play(table.move(action))
        assert 28 - game.position.pyramid_left == target


def test_compiled_searches_in_a_row_and_at_once_give_the_same_answers() -> None:
    """The model's memo is lent from search to search (its entries tagged with the
    search they belong to, cleared when the tags wrap round after 63 searches),
    and two searches running at once each get their own."""
    rules = PRESETS["N"]
    positions = [small_position(seed, rows=4, talon=10) for seed in range(6)]

    def lengths() -> list[tuple[bool | None, int, bool]]:
        out = []
        for pos in positions:
            r = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
            out.append((r.winnable, len(r.moves), r.shortest))
        return out

    first = lengths()
    assert all(proven for _, _, proven in first)
    for _ in range(12):  # 72 more searches: the tags wrap round
        assert lengths() == first
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert list(pool.map(lambda _: lengths(), range(4))) == [first] * 4


AGREE_SCRIPT = """
import json, sys
from pyramide import PRESETS, Deal, Game
from pyramide.solver import compiled
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.reduced import ReducedModel
from pyramide.solver.shortest import search_compiled
from pyramide.solver.table import Table
out = [compiled.AOT is not None]
for letter, number in json.loads(sys.argv[1]):
    rules = PRESETS[letter]
    position = Game(Deal.from_number(number), rules).position
    table = Table(position, rules)
    model = ReducedModel([c.value for c in position.pyramid if c is not None],
                         covering=rules.covering_pairs)
    target = model.best(table.start.mask, table.start.talon)
    found = search_compiled(table, target, target == 28, UNLIMITED)
    out.append([found.proven, len(found.line or []), found.nodes])
print(json.dumps(out))
"""


def test_the_search_built_ahead_of_time_is_numbas_search() -> None:
    """``scripts/setup.sh`` builds the search ahead of time (it loads in milliseconds);
    numba's compiled search, the fallback, visits the same states."""
    ahead, jitted = both_builds(AGREE_SCRIPT, json.dumps([["N", 1], ["N", 9], ["C", 3]]))
    assert ahead[0] is True and jitted[0] is False
    assert ahead[1:] == jitted[1:]
    assert all(proven for proven, _, _ in ahead[1:])  # type: ignore[misc]


@pytest.mark.parametrize("letter", ["N", "C"])
def test_states_drawn_past_are_pruned_without_losing_the_shortest_line(letter: str) -> None:
    """The compiled search skips a state that a cheaper state of another cut
    reaches by draws (:func:`compiled.look`); on positions with a longer talon,
    where such states abound, its lines are still as short as breadth-first
    search says."""
    rules = PRESETS[letter]
    for seed in range(12):
        pos = small_position(100 + seed, rows=4, talon=12)
        result = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
        assert result.shortest and result.winnable is not None
        best = fewest_moves(pos, rules, result.max_removed, win=result.winnable)
        assert len(result.moves) == best, seed


def test_look_skips_a_state_drawn_past_and_keeps_one_that_is_not() -> None:
    import numpy as np

    from pyramide.solver import compiled

    tmask = 0b1111_1111  # eight talon cards
    at = compiled.CUT_AT
    base = 5 | tmask << compiled.TMASK_AT  # one pyramid and talon
    seen = np.zeros((2, 64), dtype=np.int64)
    place = int(compiled.look(seen, base | 2 << at, tmask, 2, 10, 10))
    seen[0, place], seen[1, place] = (base | 2 << at) + 1, 10 << compiled.COST_AT
    # from cut 2 to cut 5 is three draws: 13 moves or more are drawn past
    assert compiled.look(seen, base | 5 << at, tmask, 5, 13, 13) == -1
    assert compiled.look(seen, base | 5 << at, tmask, 5, 12, 12) >= 0
    # back from cut 5 to cut 2: the rest of the stock (3), the recycle, two draws
    assert compiled.cycle_distance(tmask, 5, 2) == 6
    # the same state with as many moves again is skipped; one fewer is kept
    assert compiled.look(seen, base | 2 << at, tmask, 2, 10, 10) == -1
    assert compiled.look(seen, base | 2 << at, tmask, 2, 9, 9) == place
    # another pyramid with the same talon is not compared
    other = 6 | tmask << compiled.TMASK_AT | 5 << at
    assert compiled.look(seen, other, tmask, 5, 40, 40) >= 0


@given(st.integers(0, (1 << 24) - 1), st.integers(0, 24), st.integers(0, 24),
       st.integers(0, 24))
def test_the_draws_round_the_talon_obey_the_triangle_inequality(
        tmask: int, a: int, b: int, c: int) -> None:
    """What makes pruning a state drawn past safe: drawing from one cut to another
    by way of a third never takes fewer moves than drawing there straight."""
    from pyramide.solver import compiled

    d = compiled.cycle_distance
    assert d(tmask, a, c) <= d(tmask, a, b) + d(tmask, b, c)
