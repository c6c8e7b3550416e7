"""The solver's public face: decide a position, hint, warn early, shortest line.

Glossary
--------
reduced rules  rule sets the reduced model decides exactly: unlimited redeals,
               draw one, no waste pairs, no open stock, pyramid-only win (N, C).
reduction      a game the reduced model decides exactly all the same: N and C,
               and games with a smaller pyramid or spare cards (S, B;
               :mod:`~pyramide.solver.reduction`).
solution       a :class:`Solution`: ``winnable`` (``None`` = unknown within the
               budget), ``max_removed`` (most pyramid cards that can ever be gone,
               counting those already gone; 28 when winnable), ``moves`` (engine
               moves from the position that win, or reach ``max_removed``),
               ``shortest`` (the moves are proven to be the fewest), ``exact``
               (``max_removed`` is proven, not just the best line found), ``method``
               and ``nodes`` (the states the search spent); ``timed_out``: the
               wall-time guard, not the state budget, stopped the search (only
               then may the answer differ from run to run).
budget         a count of states (:class:`Budget`), or one per search path
               (:class:`Budgets`), with a wall-time guard (docs/solver.md).

>>> from pyramide.game import Game
>>> game = Game.from_code("PY1-N-AAAAAAS")
>>> result = solve(game)
>>> result.winnable, result.max_removed, [str(m) for m in result.moves[:2]]
(True, 28, ['K♣', '10♣+3♦'])
>>> str(hint(game)), is_lost(game)
('K♣', False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pyramide.errors import PyramideError
from pyramide.game import Game, Position
from pyramide.geometry import SLOTS
from pyramide.moves import Move
from pyramide.rules import Rules
from pyramide.solver import native
from pyramide.solver.budget import Budget, Budgets, Path
from pyramide.solver.downsets import is_downset
from pyramide.solver.fullsearch import decide_full, search_full
from pyramide.solver.kernel_search import decide_kernel, gone, shortest_kernel
from pyramide.solver.lines import realize
from pyramide.solver.reduced import BIT, FULL, ReducedModel
from pyramide.solver.reduction import CLASSIC, Reduction, reduced_rules, reduction
from pyramide.solver.table import Table, serves

__all__ = [
    "DEFAULT_BUDGET",
    "QUICK_BUDGET",
    "AnyBudget",
    "Method",
    "Solution",
    "SolverError",
    "decide",
    "hint",
    "is_lost",
    "reduced_rules",
    "search_path",
    "solve",
    "solve_position",
]

Method = Literal["reduced", "full", "shortest", "kernel", "familyc", "over"]

FAMILY_STATES = 1_000_000
"""The family's compiled searches (decide, then the shortest line): states in the
game's budget, about the Solution's old 1.5 s at their speed now (docs/solver.md,
"Budgets")."""

AnyBudget = Budget | Budgets
"""One state budget for whatever search runs, or one per search path."""

DEFAULT_BUDGET = Budgets(compiled=750_000, full=20_000, kernel=2_000, seconds=6.0,
                         family=FAMILY_STATES)
"""What :func:`solve` spends by default, and the game's hints and Solution: on each
search path about the 1.5 s of this machine that the Solution had when budgets were
wall time (docs/solver.md, "Budgets"); the guard is four times that."""

QUICK_BUDGET = Budgets(compiled=None, full=100, kernel=25, seconds=0.05, family=10_000)
"""What :func:`is_lost` spends beyond the reduced model (a few ms)."""


class SolverError(PyramideError):
    """The solver cannot work on this input (e.g. a pyramid no game can reach)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The solver's answer for one position."""

    winnable: bool | None
    max_removed: int
    moves: list[Move] = field(default_factory=list)
    shortest: bool = False
    exact: bool = True
    method: Method = "reduced"
    nodes: int = 0
    timed_out: bool = False


def family_rules(rules: Rules) -> bool:
    """True when the compiled decide search decides ``rules``: every game it plays
    (:func:`~pyramide.solver.family_search.covers`) but N and C, which the reduced
    model decides at once; and only where numba can have it (else the kernel
    search, or the classic full search, serves)."""
    if reduced_rules(rules):
        return False
    module = native.family()
    return module is not None and bool(module.covers(rules))


def search_path(rules: Rules, *, shortest: bool) -> Path:
    """The search that spends a budget under ``rules`` (see :data:`~budget.Path`):
    the compiled searches of every game but N and C (decide, and the shortest
    line of a position that can be won), else :func:`slow_path`'s."""
    if family_rules(rules):
        return "family"
    return slow_path(rules, shortest=shortest)


def slow_path(rules: Rules, *, shortest: bool) -> Path:
    """The search without the compiled decide search: N and C, the shortest line
    of a position that cannot be won, or where numba is missing."""
    if not serves(rules):
        return "kernel"
    if shortest and reduced_rules(rules):  # (loads the compiled search: it is about to run)
        return "compiled" if native.compiled() is not None else "full"
    return "full"


def path_budget(budget: AnyBudget, rules: Rules, *, shortest: bool) -> Budget:
    """The :class:`Budget` of the search that runs under ``rules``."""
    if isinstance(budget, Budget):
        return budget
    return budget.of(search_path(rules, shortest=shortest))


def solve(game: Game, *, budget: AnyBudget = DEFAULT_BUDGET, shortest: bool = False) -> Solution:
    """Decide the current position of ``game`` (see :func:`solve_position`)."""
    return solve_position(game.position, game.rules, budget=budget, shortest=shortest,
                          layout=_layout(game))


def solve_position(
    position: Position, rules: Rules, *, budget: AnyBudget = DEFAULT_BUDGET,
    shortest: bool = False, layout: tuple[int, ...] | None = None,
) -> Solution:
    """Winnable or not, the most pyramid cards removable, and a line that gets there.

    With ``shortest`` the line is searched for the fewest moves (removals, draws
    and recycles), within ``budget``; ``layout`` (the dealt pyramid's values)
    only lets repeated calls on one game share their memo.
    """
    if position.status != "playing":
        return _over(position, rules)
    if family_rules(rules):
        fast = path_budget(budget, rules, shortest=shortest)
        if not shortest:
            return _solve_family(position, rules, fast, layout=layout)
        solution = _solve_family_shortest(position, rules, fast, layout)
        if solution.shortest or solution.winnable is True or not serves(rules):
            return solution
        # a lost deal of a classic set: its full search proves the shortest line
        # to the most cards removable, where its budget allows
        slow = _solve_slow(position, rules, budget, shortest=True, layout=layout)
        return slow if slow.shortest or solution.winnable is None else solution
    return _solve_slow(position, rules, budget, shortest=shortest, layout=layout)


def _solve_slow(position: Position, rules: Rules, budget: AnyBudget, *, shortest: bool,
                layout: tuple[int, ...] | None) -> Solution:
    """:func:`solve_position` without the compiled searches (:func:`slow_path`)."""
    budget = budget if isinstance(budget, Budget) else budget.of(
        slow_path(rules, shortest=shortest))
    if not serves(rules):
        return _solve_kernel(position, rules, budget, shortest=shortest)
    mask = _mask(position)
    model = _model(layout or _values(position), rules.covering_pairs)
    if shortest:
        from pyramide.solver.shortest import solve_shortest

        return solve_shortest(position, rules, budget, model)
    if reduced_rules(rules):
        return _solve_reduced(position, model, mask)
    table = Table(position, rules)
    found = decide_full(table, budget, model)
    return Solution(
        found.winnable, found.max_removed, [table.move(a) for a in found.line],
        exact=found.exact, method="full", nodes=found.nodes, timed_out=found.timed_out,
    )


def decide(position: Position, rules: Rules, *, budget: AnyBudget = DEFAULT_BUDGET,
           win_only: bool = False) -> Solution:
    """Winnable and ``max_removed`` only, without the line: the fast path for statistics.

    With ``win_only`` a lost position's ``max_removed`` is not sought (it is the
    most found on the way, not ``exact``): win rates need only the verdict."""
    if position.status != "playing":
        return _over(position, rules)
    red = reduction(rules)
    if red is not None and (win_only or not red.spare):  # at once, whatever the budget
        return _decide_reduced(position, rules, red)
    budget = path_budget(budget, rules, shortest=False)
    if family_rules(rules):
        return _solve_family(position, rules, budget, line=False, win_only=win_only)
    if not serves(rules):
        kernel_found = decide_kernel(rules, position, budget, win_only=win_only)
        return Solution(kernel_found.winnable, kernel_found.max_removed,
                        exact=kernel_found.exact, method="kernel", nodes=kernel_found.nodes,
                        timed_out=kernel_found.timed_out)
    _mask(position)  # (a pyramid no game can reach is refused)
    model = ReducedModel(_values(position), covering=rules.covering_pairs)
    found = (search_full(Table(position, rules), budget, model, win_only=True) if win_only
             else decide_full(Table(position, rules), budget, model))
    return Solution(found.winnable, found.max_removed, exact=found.exact, method="full",
                    nodes=found.nodes, timed_out=found.timed_out)


def hint(game: Game, *, budget: AnyBudget = DEFAULT_BUDGET) -> Move | None:
    """The next move of a winning line, else of a line reaching ``max_removed``.

    ``None`` when the game is over or no further pyramid card can ever go.
    """
    moves = solve(game, budget=budget).moves
    return moves[0] if moves else None


def is_lost(game: Game, *, budget: AnyBudget = QUICK_BUDGET) -> bool:
    """True as soon as the position is proven unwinnable (a few ms).

    The reduced model answers at once for every rule set (it is exact for N and
    C, and an upper bound for the others); beyond it a small full-state search
    runs, and an undecided position is not called lost.
    """
    position, rules = game.position, game.rules
    if position.status != "playing":
        return position.status == "lost"
    red = reduction(rules)
    if red is not None:  # exact at once
        return _decide_reduced(position, rules, red).winnable is False
    budget = path_budget(budget, rules, shortest=False)
    if family_rules(rules):
        from pyramide.solver.family_search import decide_family

        return decide_family(rules, position, budget, win_only=True,
                             ceiling=_ceiling(position, rules, _layout(game))).winnable is False
    if not serves(rules):
        return decide_kernel(rules, position, budget, win_only=True).winnable is False
    model = _model(_layout(game), rules.covering_pairs)
    talon = _talon(position)
    if model.best(_mask(position), talon) < SLOTS:
        return True
    if reduced_rules(rules):
        return False
    return search_full(Table(position, rules), budget, model, win_only=True).winnable is False


def _over(position: Position, rules: Rules) -> Solution:
    removed = gone(position) if not rules.classic else SLOTS - position.pyramid_left
    return Solution(position.status == "won", removed, method="over")


def _solve_family(position: Position, rules: Rules, budget: Budget, *,
                  line: bool = True, layout: tuple[int, ...] | None = None,
                  win_only: bool = False) -> Solution:
    """Every game but N and C: the compiled decide search."""
    from pyramide.solver.family_search import decide_family

    found = decide_family(rules, position, budget, win_only=win_only,
                          ceiling=_ceiling(position, rules, layout))
    return Solution(found.winnable, found.max_removed, found.line if line else [],
                    exact=found.exact, method="familyc", nodes=found.nodes,
                    timed_out=found.timed_out)


def _solve_family_shortest(position: Position, rules: Rules, budget: Budget,
                           layout: tuple[int, ...] | None) -> Solution:
    """The fewest moves to a win, compiled.  A position that cannot be won (or is
    not decided) gets the decide search's line to the most cards removable, not
    called shortest."""
    from pyramide.solver.family_search import shortest_family

    found = shortest_family(rules, position, budget,
                            ceiling=_ceiling(position, rules, layout))
    return Solution(found.winnable, found.max_removed, found.line, shortest=found.shortest,
                    exact=found.exact, method="familyc", nodes=found.nodes,
                    timed_out=found.timed_out)


def _ceiling(position: Position, rules: Rules,
             layout: tuple[int, ...] | None = None) -> int | None:
    """A bound on the tableau cards removable, for the compiled search: the reduced
    model's best — exact where it decides the game (N, C, S), a relaxation for every
    other classic set; ``layout`` as in :func:`solve_position`.  ``None`` elsewhere
    (spare cards are tableau cards the model does not follow)."""
    if rules.classic:
        model = _model(layout or _values(position), rules.covering_pairs)
        return model.best(_mask(position), _talon(position))
    red = reduction(rules)
    if red is None or red.spare:
        return None
    return _decide_reduced(position, rules, red).max_removed


def _talon(position: Position) -> int:
    """The talon's values, packed for the reduced model."""
    return CLASSIC.talon(position)


def _solve_kernel(position: Position, rules: Rules, budget: Budget, *,
                  shortest: bool) -> Solution:
    """Every game but the classic ones: the kernel search."""
    found = (shortest_kernel if shortest else decide_kernel)(rules, position, budget)
    return Solution(found.winnable, found.max_removed, found.line, shortest=found.shortest,
                    exact=found.exact, method="kernel", nodes=found.nodes,
                    timed_out=found.timed_out)


def _decide_reduced(position: Position, rules: Rules, red: Reduction) -> Solution:
    """The reduced model's verdict (exact under ``red``, :func:`reduction`), compiled
    where the compiled search can be had (:func:`compiled.model_best`), else
    interpreted.  ``max_removed`` is exact too, but where spare cards count (they
    are tableau cards the model does not follow): there a lost position's is not
    sought (the tableau cards gone so far, not ``exact``)."""
    values = red.values(position)
    mask, talon = _mask(position, values), red.talon(position)
    module = native.compiled()
    if module is not None:
        best, nodes = module.model_best(values, mask, talon, covering=rules.covering_pairs)
    else:
        model = ReducedModel(values, covering=rules.covering_pairs)
        best, nodes = model.best(mask, talon), model.nodes
    if not red.spare:
        return Solution(best == SLOTS, red.removed(best), nodes=nodes)
    if best == SLOTS:
        return Solution(True, len(rules.tableau), nodes=nodes)
    return Solution(False, gone(position), exact=False, nodes=nodes)


def _solve_reduced(position: Position, model: ReducedModel, mask: int) -> Solution:
    talon = _talon(position)
    nodes = model.nodes
    best = model.best(mask, talon)
    moves = realize(position, model.line(mask, talon))
    return Solution(best == SLOTS, best, moves, nodes=model.nodes - nodes)


def _mask(position: Position, values: tuple[int, ...] | None = None) -> int:
    """The pyramid's cards as a mask (``values``: the position's :func:`_values`,
    where the caller has them)."""
    if values is None:
        values = _values(position)
    if 0 not in values:  # (the whole pyramid: the quick way)
        return FULL
    mask = sum(BIT[s] for s, value in enumerate(values) if value)
    if not is_downset(mask):
        raise SolverError("err.solver.unreachable")
    return mask


def _values(position: Position) -> tuple[int, ...]:
    """The pyramid's values, 0 for an empty slot."""
    return CLASSIC.values(position)


def _layout(game: Game) -> tuple[int, ...]:
    return tuple(card.value for card in game.deal.pyramid)


@lru_cache(maxsize=16)
def _model(values: tuple[int, ...], covering: bool) -> ReducedModel:
    return ReducedModel(values, covering=covering)
