"""Budgets count states: the same deal and budget give the same answer, under load too;
the wall-time guard is reported; bad budgets are refused."""

from __future__ import annotations

import math
import subprocess
import sys
from collections.abc import Iterator

import pytest

from pyramide.deals import DealCode
from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.solver import DEFAULT_BUDGET, QUICK_BUDGET, Budget, Solution, solve
from pyramide.solver.api import path_budget, search_path, slow_path
from pyramide.solver.budget import MAX_STATES, BudgetError, Budgets, states_of

GUARD = 120.0
"""A guard no test search comes near: the state counts decide every answer here."""

SEARCHES = [  # (deal, states, shortest): each one stopped by its state budget
    ("PY1-N-AAAABLC", 20_000, True),  # deal 964: the compiled search
    ("PY1-M-AAAAAAB", 2_000, True),  # the full-state search, then the interpreted A*
    ("PY1-O-AAAAAAB", 500, False),  # decide over real states
    ("PY1-G-AAAAAAA", 200, True),  # the kernel's A*, then its decide
    ("PY1-A-AAAAAAA", 200, False),
]


def answer(code: str, states: int, shortest: bool) -> Solution:
    return solve(Game.from_code(code), budget=Budget(nodes=states, seconds=GUARD),
                 shortest=shortest)


def essentials(result: Solution) -> tuple[object, ...]:
    return (result.winnable, result.max_removed, [str(m) for m in result.moves],
            result.shortest, result.exact, result.nodes, result.timed_out)


@pytest.fixture
def busy_core() -> Iterator[None]:
    """Another process spinning on a core while the test runs (artificial load)."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def test_deal_codes_of_the_searches() -> None:
    assert DealCode.parse("PY1-N-AAAABLC").number == 964


@pytest.mark.parametrize(("code", "states", "shortest"), SEARCHES)
def test_same_deal_same_budget_same_answer_under_load(
        code: str, states: int, shortest: bool, busy_core: None) -> None:
    first = answer(code, states, shortest)
    assert first.nodes >= states and not first.timed_out  # the state count stopped it
    assert not first.shortest
    assert essentials(answer(code, states, shortest)) == essentials(first)


@pytest.mark.parametrize(("code", "states", "shortest"), SEARCHES[:1] + SEARCHES[3:4])
def test_same_answer_without_load(code: str, states: int, shortest: bool) -> None:
    assert essentials(answer(code, states, shortest)) == essentials(
        answer(code, states, shortest))


def test_more_states_go_further() -> None:
    small, large = answer("PY1-N-AAAABLC", 2_000, True), answer("PY1-N-AAAABLC", 20_000, True)
    assert small.nodes < large.nodes and len(large.moves) <= len(small.moves)


@pytest.mark.parametrize(("code", "shortest"), [("PY1-N-AAAABLC", True), ("PY1-M-AAAAAAB", True),
                                                ("PY1-W-AAAAAAB", False), ("PY1-G-AAAAAAB", True)])
def test_the_guard_is_reported(code: str, shortest: bool) -> None:
    """A guard that has passed before the search starts stops it at its first look
    at the clock, and the answer says so; a line is still given where one is known."""
    result = solve(Game.from_code(code), budget=Budget(nodes=None, seconds=1e-9),
                   shortest=shortest)
    assert result.timed_out and not result.shortest


def test_game_budgets_per_search_path() -> None:
    assert search_path(PRESETS["N"], shortest=True) == "compiled"
    assert search_path(PRESETS["N"], shortest=False) == "full"  # (the reduced model decides)
    assert search_path(PRESETS["M"], shortest=True) == "family"  # the compiled searches
    assert search_path(PRESETS["M"], shortest=False) == "family"
    assert search_path(PRESETS["T"], shortest=False) == "family"
    assert search_path(PRESETS["G"], shortest=True) == "family"
    assert search_path(PRESETS["G"], shortest=False) == "family"
    assert search_path(PRESETS["D"], shortest=True) == "family"
    # without them: a lost position's shortest line under a classic set, and N and C
    assert slow_path(PRESETS["M"], shortest=True) == "full"
    assert slow_path(PRESETS["G"], shortest=True) == "kernel"
    assert path_budget(DEFAULT_BUDGET, PRESETS["C"], shortest=True) == Budget(
        nodes=DEFAULT_BUDGET.compiled, seconds=DEFAULT_BUDGET.seconds)
    assert path_budget(QUICK_BUDGET, PRESETS["A"], shortest=False).nodes == QUICK_BUDGET.family
    one = Budget(nodes=77, seconds=None)
    assert path_budget(one, PRESETS["G"], shortest=True) is one
    for budgets in (DEFAULT_BUDGET, QUICK_BUDGET):
        assert budgets.seconds is not None and budgets.seconds > 0


@pytest.mark.parametrize("bad", ["nan", "0", "-5", "1.5", "", "1e6", " ", "inf", True, 0, -1,
                                 MAX_STATES + 1, 2.0, None])
def test_bad_state_budgets_are_refused(bad: object) -> None:
    with pytest.raises(BudgetError, match="state budget") as caught:
        states_of(bad)
    assert "состояний" in caught.value.text("ru")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, -math.inf])
def test_bad_guards_are_refused(bad: float) -> None:
    with pytest.raises(BudgetError, match="time guard"):
        Budget(nodes=10, seconds=bad)


def test_budgets_check_every_path() -> None:
    with pytest.raises(BudgetError):
        Budgets(compiled=10, full=0, kernel=10, seconds=1.0)
    with pytest.raises(BudgetError):
        Budget(nodes=True)  # a bool is no count
    assert states_of(" 12 ") == 12 and Budget(nodes=MAX_STATES).nodes == MAX_STATES
