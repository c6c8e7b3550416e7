"""Lines played greedily: :func:`pyramide.solver.lines.tighten` over the rules kernel."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pyramide import kernel
from pyramide.deals import Deal
from pyramide.games import PRESETS
from pyramide.kernel import Position
from pyramide.moves import DRAW, Move
from pyramide.rules import Rules
from pyramide.solver import DEFAULT_BUDGET, solve_position
from pyramide.solver.budget import Budget
from pyramide.solver.lines import tighten


def start(letter: str, number: int) -> tuple[Rules, Position]:
    rules = PRESETS[letter]
    return rules, kernel.initial(rules, Deal.from_number(number, rules.deck).cards)


def end_of(rules: Rules, pos: Position, line: list[Move]) -> Position:
    """The end of ``line``, every move checked legal where it is played."""
    for move in line:
        assert move in kernel.legal_moves(rules, pos), f"{move} is not legal"
        pos = kernel.judge(rules, kernel.apply(rules, pos, move))
    return pos


def test_a_free_cell_decide_line_loses_most_of_its_talon_moves() -> None:
    rules, pos = start("L", 0)
    line = solve_position(pos, rules, budget=DEFAULT_BUDGET).moves
    tight = tighten(rules, pos, line)
    assert len(line) > 150  # the decide search's line, depth first
    assert len(tight) < 100
    assert end_of(rules, pos, tight).status == "won"
    # its removals are the line's, less the cell moves it no longer needs
    removals = [m for m in line if m.kind == "remove"]
    assert sorted(map(str, (m for m in tight if m.kind == "remove"))) == sorted(map(str, removals))


def test_a_line_that_is_not_legal_comes_back_unchanged() -> None:
    rules, pos = start("L", 0)
    bogus = [Move.parse("QS+AS"), DRAW]
    assert tighten(rules, pos, bogus) is bogus


def test_a_shortest_line_stays_as_it_is() -> None:
    rules, pos = start("T", 3)
    found = solve_position(pos, rules, budget=DEFAULT_BUDGET, shortest=True)
    assert found.shortest
    assert tighten(rules, pos, found.moves) == found.moves


def test_the_solution_of_free_cell_shows_the_tightened_line() -> None:
    rules, pos = start("L", 0)
    found = solve_position(pos, rules, budget=Budget(nodes=20_000, seconds=None),
                           shortest=True)
    assert not found.shortest and found.winnable
    assert len(found.moves) < 100
    assert end_of(rules, pos, found.moves).status == "won"


@settings(max_examples=30, deadline=None)
@given(letter=st.sampled_from(["L", "T", "D", "N1", "O", "G", "A"]),
       number=st.integers(0, 10**6))
def test_tightened_lines_end_as_their_lines_do_and_are_no_longer(letter: str,
                                                                 number: int) -> None:
    rules, pos = start(letter, number)
    found = solve_position(pos, rules, budget=Budget(nodes=20_000, seconds=None))
    tight = tighten(rules, pos, found.moves)
    end, tight_end = end_of(rules, pos, found.moves), end_of(rules, pos, tight)
    assert len(tight) <= len(found.moves)
    assert tight_end.status == end.status
    assert tight_end.score >= end.score
