"""The two methods against each other, and both against plain exhaustive search."""

from __future__ import annotations

import pytest

from pyramide import PRESETS, Deal, Game, Position
from pyramide.solver import decide, solve_position
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.fullsearch import search_full
from pyramide.solver.reduced import ReducedModel
from pyramide.solver.table import Table
from tests.test_solver_helpers import NaiveBound, exhaustive, game_at, small_position

CLASSIC = sorted(letter for letter, rules in PRESETS.items() if rules.classic)
"""The games of §1-§10: the ones the accelerated searches serve."""

DEALS = range(200)


@pytest.mark.parametrize("letter", ["N", "C"])
def test_reduced_model_and_full_search_agree(letter: str) -> None:
    """The full-state search (pruned only by the naive reduced bound of the tests)
    and the reduced model give the same winnable and max_removed on 200 deals."""
    rules = PRESETS[letter]
    wins = 0
    for number in DEALS:
        deal = Deal.from_number(number)
        pos = Position.initial(deal)
        naive = NaiveBound([c.value for c in deal.pyramid], rules.covering_pairs)
        full = search_full(Table(pos, rules), UNLIMITED, naive)
        fast = decide(pos, rules)
        assert full.exact
        assert (full.winnable, full.max_removed) == (fast.winnable, fast.max_removed), number
        assert naive.best(Table(pos, rules).start.mask, Table(pos, rules).start.talon) == (
            fast.max_removed
        )
        wins += bool(fast.winnable)
    assert 0.5 < wins / len(DEALS) < (0.95 if letter == "C" else 0.8)


@pytest.mark.parametrize("letter", ["N", "C"])
def test_full_search_lines_reach_the_reduced_result(letter: str) -> None:
    rules = PRESETS[letter]
    for number in range(30):
        deal = Deal.from_number(number)
        pos = Position.initial(deal)
        model = ReducedModel([c.value for c in deal.pyramid], covering=rules.covering_pairs)
        table = Table(pos, rules)
        full = search_full(table, UNLIMITED, model)
        game = Game(deal, rules)
        for action in full.line:
            game.play(table.move(action))
        assert 28 - game.position.pyramid_left == full.max_removed == decide(pos, rules).max_removed


@pytest.mark.parametrize("letter", CLASSIC)
def test_small_positions_against_exhaustive_search(letter: str) -> None:
    """Late positions (three rows left, eight talon cards): the solver's answers are
    those of a search over every position the engine itself can reach."""
    rules = PRESETS[letter]
    outcomes = set()
    for seed in range(20):
        pos = small_position(seed, rows=3, talon=8)
        winnable, best = exhaustive(pos, rules)
        result = solve_position(pos, rules, budget=UNLIMITED)
        assert (result.winnable, result.max_removed) == (winnable, best), seed
        game = game_at(pos, rules)
        for move in result.moves:
            game.play(move)
        assert 28 - game.position.pyramid_left == best
        assert (game.status == "won") == winnable
        outcomes.add(winnable)
    assert outcomes == {True, False} or rules.win == "all"


@pytest.mark.parametrize("letter", ["N", "C"])
def test_the_compiled_reduced_model_is_the_interpreted_one(letter: str) -> None:
    """``decide`` runs the reduced model compiled (:func:`compiled.model_best`): the
    same best as :class:`ReducedModel` from the start of 150 deals and from a
    position part way through each (a random line of its moves), over the same
    states but where its memo (a cache) lost a result and evaluates a state again:
    never fewer, and no more than 1% more in all."""
    import random

    from pyramide.kernel import apply, judge, legal_moves
    from pyramide.solver import compiled
    from pyramide.solver.reduced import pack_talon

    rules = PRESETS[letter]
    rng = random.Random(7)
    states = [0, 0]
    for number in range(150):
        pos = Position.initial(Deal.from_number(number))
        for moment in range(2):
            if moment:
                for _ in range(rng.randint(5, 40)):
                    moves = legal_moves(rules, pos)
                    if pos.status != "playing" or not moves:
                        break
                    pos = judge(rules, apply(rules, pos, rng.choice(moves)))
                if pos.status != "playing":
                    break
            values = [0 if c is None else c.value for c in pos.pyramid]
            mask = sum(1 << s for s, c in enumerate(pos.pyramid) if c is not None)
            talon = pack_talon(c.value for c in pos.waste + pos.stock)
            model = ReducedModel(values, covering=rules.covering_pairs)
            ours = compiled.model_best(values, mask, talon, covering=rules.covering_pairs)
            assert ours[0] == model.best(mask, talon), (number, moment)
            assert ours[1] >= model.nodes, (number, moment)
            states[0], states[1] = states[0] + ours[1], states[1] + model.nodes
            assert decide(pos, rules).max_removed == ours[0]
    assert states[0] <= 1.01 * states[1], states
