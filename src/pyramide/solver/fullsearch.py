"""The full-state search: depth-first over real positions, for every rule set.

Limited redeals, an open stock, waste pairs, draw three and the whole-deck win
make the order of the talon and the redeals used part of the state, so the
reduced model cannot decide them.  This search walks the real states of
:class:`~pyramide.solver.table.Table` depth first, removals before draws,
never visiting a state twice, and stops at the first win.

Glossary
--------
best     the most pyramid cards gone in any state met so far, and the line to it.
bound    the reduced model's best from a state: no line from there removes more
         pyramid cards (the model is a relaxation of every rule set).
cut-off  a state is not entered when its bound cannot win and cannot beat the
         best: it has nothing to offer.
exact    the search ended without running out of budget, or the best met the
         bound of the start: its answers are then proven.
win only a first phase (:func:`decide_full`) that enters only states that can
         still win: the reduced model's bound is 28 and, under a whole-deck win,
         no talon card is buried for good.  It settles ``winnable`` quickly;
         the rest of the budget then goes to ``max_removed``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

from pyramide.geometry import SLOTS
from pyramide.solver.budget import Budget
from pyramide.solver.table import Action, NodeMove, State, Table

__all__ = ["Bound", "FullResult", "decide_full", "search_full"]


class Bound(Protocol):
    """An upper bound on the pyramid cards removable (e.g. the reduced model)."""

    def best(self, mask: int, talon: int) -> int: ...


@dataclass(slots=True)
class FullResult:
    """What the full-state search found."""

    winnable: bool | None
    max_removed: int
    exact: bool
    line: list[Action] = field(default_factory=list)
    nodes: int = 0
    timed_out: bool = False


def decide_full(table: Table, budget: Budget, cutoff: Bound | None) -> FullResult:
    """Winnable first (the win-only phase), then ``max_removed`` with what is left
    of ``budget``."""
    began = time.monotonic()
    first = search_full(table, budget, cutoff, win_only=True)
    if first.winnable is not False or first.exact:
        return first
    rest = budget.left(first.nodes, time.monotonic() - began)
    if rest is None:
        first.timed_out = first.timed_out or budget.nodes is None or first.nodes < budget.nodes
        return first
    second = search_full(table, rest, cutoff)
    better = second if second.max_removed >= first.max_removed else first
    return FullResult(False, better.max_removed, second.exact, better.line,
                      first.nodes + second.nodes, second.timed_out)


def search_full(
    table: Table, budget: Budget, cutoff: Bound | None, *, win_only: bool = False,
) -> FullResult:
    """Search the states of ``table``; ``cutoff`` (if given) prunes hopeless states;
    with ``win_only`` every state that cannot win is (see the glossary)."""
    meter = budget.meter()
    start = table.start
    best, best_line = table.removed(start), list[Action]()

    def bound(state: State) -> int:
        return SLOTS if cutoff is None else cutoff.best(state.mask, table.usable_talon(state))

    def hopeless(state: State) -> bool:
        limit = bound(state)
        if win_only:
            return limit < SLOTS or (
                not table.pyramid_win and table.reach(state) != state.tmask)
        if limit > best:
            return False
        return limit < SLOTS or table.pyramid_win or table.reach(state) != state.tmask

    root_bound = bound(start)
    if table.won(start):
        return FullResult(True, best, True)
    visited = {table.node_key(start): table.timeline(start)}
    frames = [iter(table.node_moves(start))] if not hopeless(start) else []
    line: list[tuple[State, NodeMove]] = []
    here = start
    won = False
    while frames:
        item = next(frames[-1], None)
        if item is None:
            frames.pop()
            if line:
                here = line.pop()[0]
            continue
        move, state = item
        key, when = table.node_key(state), table.timeline(state)
        if visited.get(key, when + 1) <= when:
            continue  # met before, as early in the talon's timeline or earlier
        visited[key] = when
        if not meter.spend():
            break
        removed = table.removed(state)
        if removed > best:
            best, best_line = removed, spell(table, [*line, (here, move)])
        if table.won(state):
            won, best_line = True, spell(table, [*line, (here, move)])
            break
        if hopeless(state):
            continue
        line.append((here, move))
        here = state
        frames.append(iter(table.node_moves(state)))
    complete = not meter.exhausted
    if won:
        winnable: bool | None = True
    elif complete or root_bound < SLOTS:
        winnable = False
    else:
        winnable = None
    exact = won or best == root_bound or (complete and not win_only)
    return FullResult(winnable, best, exact, best_line, meter.nodes, meter.timed_out)


def spell(table: Table, line: list[tuple[State, NodeMove]]) -> list[Action]:
    """The actions of a line of node moves (each with the state it starts from)."""
    return [action for state, move in line for action in table.spell(state, move)]
