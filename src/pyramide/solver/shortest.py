"""Shortest lines: the fewest moves (removals, draws, recycles) that win.

A* over the real states of :class:`~pyramide.solver.table.Table`, every action
costing one move, with an admissible estimate of the moves still needed.

Glossary
--------
goal      a won state when the position is winnable, else one with as many
          pyramid cards gone as the best line can reach (``max_removed``).
estimate  a lower bound on the moves from a state to the goal (:func:`estimate`):
          - removals: every removal takes at most one card of each value of a
            class, so a class with ``a`` and ``b`` pyramid cards of its two values
            needs ``max(a, b)`` removals, a king one (to clear the whole deck:
            exactly the cards of one value of the class, wherever they lie);
          - draws: a class short of pyramid partners needs talon cards; those not
            in the waste must be drawn, and a stock card ``d`` deep needs ``d + 1``
            draws (draw one), ``ceil((d + 1) / 3)`` (draw three), ``d`` when the
            stock's top card is playable.
canonical only one order of moves that commute is searched:
          - a free pyramid king is removed at once (nothing is lost by it);
          - no move inside the pyramid right after a draw or a recycle: it could
            have been played before, with the same count.
hopeless  a state whose reduced-model best falls short of the goal.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from math import ceil

from pyramide.game import Position
from pyramide.geometry import SLOTS
from pyramide.moves import Move
from pyramide.rules import Rules
from pyramide.solver.api import Solution, reduced_rules
from pyramide.solver.budget import Budget
from pyramide.solver.downsets import FREE, slots
from pyramide.solver.fullsearch import search_full
from pyramide.solver.lines import realize
from pyramide.solver.reduced import KING, ReducedModel, shift
from pyramide.solver.table import DRAW, RECYCLE, TALON, Action, State, Table, below

__all__ = ["ShortestResult", "search_shortest", "solve_shortest"]

INFINITE = 1 << 30
AFTER_DRAW = 1 << 62  # key bit: the state was reached by a draw or a recycle


@dataclass(slots=True)
class ShortestResult:
    line: list[Action] | None
    proven: bool
    nodes: int = 0


def solve_shortest(
    position: Position, rules: Rules, budget: Budget, model: ReducedModel,
) -> Solution:
    """The :class:`Solution` with the shortest line found within ``budget``."""
    table = Table(position, rules)
    start = table.start
    if reduced_rules(rules):
        target = model.best(start.mask, start.talon)
        winnable: bool | None = target == SLOTS
        fallback = realize(position, model.line(start.mask, start.talon))
        exact = True
    else:
        found = search_full(table, budget, model)
        if found.winnable is None:
            return Solution(None, found.max_removed, [table.move(a) for a in found.line],
                            exact=found.exact, method="shortest", nodes=found.nodes)
        target, winnable, exact = found.max_removed, found.winnable, found.exact
        fallback = [table.move(a) for a in found.line]
    result = search_shortest(table, target, bool(winnable), budget, model)
    moves: list[Move] = fallback
    if result.line is not None and len(result.line) <= len(fallback):
        moves = [table.move(a) for a in result.line]
    return Solution(winnable, target, moves, shortest=result.proven, exact=exact,
                    method="shortest", nodes=result.nodes)


def search_shortest(
    table: Table, target: int, win: bool, budget: Budget, model: ReducedModel,
) -> ShortestResult:
    """A* from the table's start to the goal; ``proven`` when the line is the shortest."""
    meter = budget.meter()
    guess = Estimator(table, target, win, model if reduced_rules(table.rules) else None)
    expand = macro_expand if reduced_rules(table.rules) else single_expand

    def done(state: State) -> bool:
        return table.won(state) if win else table.removed(state) >= target

    start = table.start
    start_key = table.key(start)
    cost = {start_key: 0}
    parent: dict[int, tuple[int, list[Action]]] = {}
    heap = [(guess(start), 0, start_key, start)]
    while heap:
        _, g_neg, key, state = heapq.heappop(heap)
        g = -g_neg
        if cost.get(key, INFINITE) < g:
            continue
        if done(state):
            return ShortestResult(trace(parent, key), True, meter.nodes)
        if not meter.spend():
            return ShortestResult(None, False, meter.nodes)
        for actions, step_cost, child, child_key in expand(table, state, key):
            g2 = g + step_cost
            if cost.get(child_key, INFINITE) <= g2:
                continue
            if model.best(child.mask, child.talon) < target:
                continue
            h = guess(child)
            if h >= INFINITE:
                continue
            cost[child_key] = g2
            parent[child_key] = (key, actions)
            heapq.heappush(heap, (g2 + h, -g2, child_key, child))
    return ShortestResult(None, True, meter.nodes)


Expansion = list[tuple[list[Action], int, State, int]]


def macro_expand(table: Table, state: State, key: int) -> Expansion:
    return [(actions, c, child, table.key(child))
            for actions, c, child in macro_successors(table, state)]


def single_expand(table: Table, state: State, key: int) -> Expansion:
    out: Expansion = []
    for action, child in canonical_successors(table, state, key & AFTER_DRAW != 0):
        child_key = table.key(child) | (AFTER_DRAW if action in (DRAW, RECYCLE) else 0)
        out.append(([action], 1, child, child_key))
    return out


def macro_successors(table: Table, state: State) -> list[tuple[list[Action], int, State]]:
    """Moves of the macro graph (draw one, unlimited redeals): a removal inside the
    pyramid, or the draws and recycle that bring one talon card on top, then its removal."""
    free_kings = [s for s in FREE[state.mask] if table.values[s] == KING]
    if free_kings:
        king = (free_kings[0],)
        return [([king], 1, table.apply(state, king))]
    out: list[tuple[list[Action], int, State]] = []
    for action in table.removals(state):
        if max(action) < TALON:
            out.append(([action], 1, table.apply(state, action)))
    mask, tmask, cut = state.mask, state.tmask, state.cut
    values = table.values
    free = FREE[mask]
    stock_left = (tmask >> cut).bit_count()
    top = below(tmask, cut)
    for index in slots(tmask):
        value = values[TALON + index]
        if index < cut and index != top:
            steps = [DRAW] * stock_left + [RECYCLE]
            steps += [DRAW] * (tmask & ((2 << index) - 1)).bit_count()
        else:
            steps = [DRAW] * (tmask & ~((1 << cut) - 1) & ((2 << index) - 1)).bit_count()
        drawn = State(mask, tmask, index + 1, state.redeals, state.talon)
        place = TALON + index
        removals: list[Action] = [(place,)] if value == KING else [
            (s, place) for s in free if values[s] + value == KING
        ]
        for removal in removals:
            out.append(([*steps, removal], len(steps) + 1, table.apply(drawn, removal)))
    return out


def canonical_successors(
    table: Table, state: State, after_draw: bool,
) -> list[tuple[Action, State]]:
    """The successors in canonical order only (see the glossary)."""
    actions = table.actions(state)
    kings = [a for a in actions if len(a) == 1 and 0 <= a[0] < TALON]
    if kings:
        return [(kings[0], table.apply(state, kings[0]))]
    if after_draw:
        actions = [a for a in actions if a in (DRAW, RECYCLE) or max(a) >= TALON]
    return [(a, table.apply(state, a)) for a in actions]


def trace(parent: dict[int, tuple[int, list[Action]]], key: int) -> list[Action]:
    pieces: list[list[Action]] = []
    while key in parent:
        key, actions = parent[key]
        pieces.append(actions)
    return [action for piece in reversed(pieces) for action in piece]


class Estimator:
    """The admissible estimate of the moves from a state to the goal."""

    def __init__(
        self, table: Table, target: int, win: bool, model: ReducedModel | None = None,
    ) -> None:
        self.model = model
        values = table.values
        self.values = values
        self.pyramid = [sum(1 << s for s in range(SLOTS) if values[s] == v) for v in range(14)]
        self.talon = [
            sum(1 << i for i in range(len(table.cards)) if values[TALON + i] == v)
            for v in range(14)
        ]
        self.target = target
        self.win = win
        self.whole_deck = win and not table.pyramid_win
        rules = table.rules
        self.draw_count = rules.draw_count
        self.open_stock = rules.open_stock
        self.talon_pairs = rules.open_stock or rules.waste_pairs

    def __call__(self, state: State) -> int:
        mask, tmask, cut = state.mask, state.tmask, state.cut
        counts = [(mask & self.pyramid[v]).bit_count() for v in range(KING + 1)]
        reach = self.waste_reach(counts, tmask, cut)
        if self.whole_deck:
            moves, draws = self.whole_deck_removals(state), 0
        elif self.win:
            moves, draws = self.pyramid_bounds(state, counts, reach)
        else:
            moves, draws = ceil((self.target - SLOTS + mask.bit_count()) / 2), 0
        if draws >= INFINITE:
            return INFINITE
        if self.model is not None:
            moves = max(moves, self.model.fewest_steps(mask, state.talon, self.target))
            stock_left = (tmask >> cut).bit_count()
            if draws <= stock_left and self.needs_recycle(state, reach):
                draws = stock_left + 2
        return moves + draws

    def whole_deck_removals(self, state: State) -> int:
        """Removals that clear the whole deck: exactly one per card of a value of each class."""
        mask, tmask = state.mask, state.tmask
        moves = (mask & self.pyramid[KING]).bit_count() + (tmask & self.talon[KING]).bit_count()
        for v in range(1, 7):
            moves += (mask & self.pyramid[v]).bit_count() + (tmask & self.talon[v]).bit_count()
        return moves

    def pyramid_bounds(self, state: State, counts: list[int], reach: int) -> tuple[int, int]:
        """Removals and draws that clear the pyramid (see the glossary)."""
        moves, draws = counts[KING], 0
        for v in range(1, 7):
            w = KING - v
            a, b = counts[v], counts[w]
            moves += max(a, b)
            short, value = (a - b, w) if a >= b else (b - a, v)
            if short:
                draws = max(draws, self.draws_for(state.tmask, state.cut, reach, value, short))
        return moves, draws

    def needs_recycle(self, state: State, reach: int) -> bool:
        """True when the cards of this pass (the stock, and the waste within reach)
        cannot reach the goal even in any order."""
        assert self.model is not None
        usable = state.tmask & (reach | ~((1 << state.cut) - 1))
        talon = sum(
            (usable & self.talon[v]).bit_count() << shift(v) for v in range(1, KING)
        )
        return self.model.best(state.mask, talon) < self.target

    def waste_reach(self, counts: list[int], tmask: int, cut: int) -> int:
        """The waste cards that removals alone might bring to the top: every card
        over them needs a pyramid partner (or is a king)."""
        if self.talon_pairs:
            return tmask  # cards of the talon may pair with each other: anything may show
        values = self.values
        reach = 0
        over = [0] * (KING + 1)
        index = below(tmask, cut)
        while index >= 0:
            reach |= 1 << index
            value = values[TALON + index]
            if value != KING:
                over[value] += 1
                if over[value] > counts[KING - value]:
                    break
            index = below(tmask, index)
        return reach

    def draws_for(self, tmask: int, cut: int, reach: int, value: int, count: int) -> int:
        """Fewest draws and recycles that can bring ``count`` talon cards of ``value``
        into play: cards within reach of the waste top first, then stock cards,
        then waste cards that only a recycle brings back."""
        waste = (1 << cut) - 1
        cards = tmask & self.talon[value]
        count -= (cards & waste & reach).bit_count()
        if count <= 0:
            return 0
        stock = cards & ~waste
        if count <= stock.bit_count():
            index = nth_lowest(stock, count)
            depth = (tmask & ~waste & ((1 << index) - 1)).bit_count()
            if self.open_stock:
                return ceil(depth / self.draw_count)
            return ceil((depth + 1) / self.draw_count)
        buried = cards & waste & ~reach
        count -= stock.bit_count()
        if count > buried.bit_count():
            return INFINITE
        index = nth_lowest(buried, count)
        stock_left = (tmask & ~waste).bit_count()
        return ceil(stock_left / self.draw_count) + 1 + ceil(
            (tmask & ((2 << index) - 1)).bit_count() / self.draw_count
        )


def nth_lowest(bits: int, n: int) -> int:
    """Index of the ``n``-th lowest set bit (1-based) of ``bits``."""
    for _ in range(n - 1):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1
