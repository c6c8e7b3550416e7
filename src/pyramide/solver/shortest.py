"""Shortest lines: the fewest moves (removals, draws, recycles) that win.

Anytime weighted A* over the real states of :class:`~pyramide.solver.table.Table`,
every action costing one move, with an admissible estimate of the moves still
needed: states are taken in the order of ``g + 2 h``, so a good line comes early;
each line found becomes the bound, and when no state left could beat it the
line is proven shortest.  A spent budget leaves the best line found.

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
            draws (draw one), ``ceil((d + 1) / 3)`` (draw three); when the stock's
            top card is playable the ``d`` cards over it may also leave by removals
            off the top, so only those no pyramid card left could take count
            (:meth:`Estimator.open_passes`).
canonical only one order of moves that commute is searched:
          - a free pyramid king is removed at once (nothing is lost by it);
          - no move inside the pyramid right after a draw or a recycle: it could
            have been played before, with the same count.
hopeless  a state whose reduced-model best falls short of the goal.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable
from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING

from pyramide.game import Position
from pyramide.geometry import SLOTS
from pyramide.rules import Rules
from pyramide.solver import native
from pyramide.solver.api import Solution, reduced_rules
from pyramide.solver.budget import Budget
from pyramide.solver.downsets import FREE, slots
from pyramide.solver.fullsearch import decide_full
from pyramide.solver.lines import realize
from pyramide.solver.reduced import KING, ONE, ReducedModel, shift
from pyramide.solver.table import (
    CUT_SHIFT,
    DRAW,
    RECYCLE,
    REDEALS_SHIFT,
    TALON,
    TMASK_SHIFT,
    Action,
    State,
    Table,
    below,
    waste_reach,
)

if TYPE_CHECKING:
    from pyramide.solver.compiled import CompiledSearch

__all__ = ["ShortestResult", "search_shortest", "solve_shortest"]

INFINITE = 1 << 30
AFTER_DRAW = 1 << 62  # key bit: the state was reached by a draw or a recycle

Trail = list[tuple[float, int]]
"""The lines of a search as they come: (CPU seconds of the process since the
start, moves), each shorter than the one before."""


@dataclass(slots=True)
class ShortestResult:
    """A line found (or ``None``), whether it is proven shortest, and the states spent."""

    line: list[Action] | None
    proven: bool
    nodes: int = 0
    timed_out: bool = False


def solve_shortest(
    position: Position, rules: Rules, budget: Budget, model: ReducedModel,
    trail: Trail | None = None,
) -> Solution:
    """The :class:`Solution` with the shortest line found within ``budget``.  Under
    rules N and C the compiled search (:func:`search_compiled`) finds the lines and
    proves the best one shortest (the reduced model's line stands in if the budget
    ends before any is found); otherwise the full search's line comes first, and
    :func:`search_shortest` improves it and proves the best one shortest.
    ``trail``, when given, receives each line as it is found (see :data:`Trail`)."""
    clock = time.process_time()
    table = Table(position, rules)
    start = table.start
    began = time.monotonic()
    if reduced_rules(rules) and native.compiled() is not None:
        # the compiled search; the model's line only if it finds none
        target = model.best(start.mask, start.talon)
        search = search_compiled(table, target, target == SLOTS, budget, trail=trail, clock=clock)
        line = search.line if search.line is not None else [
            table.action(m) for m in realize(position, model.line(start.mask, start.talon))]
        return Solution(target == SLOTS, target, [table.move(a) for a in line],
                        shortest=search.proven and search.line is not None,
                        method="shortest", nodes=search.nodes, timed_out=search.timed_out)
    found = decide_full(table, budget, model)
    if found.winnable is None:
        return Solution(None, found.max_removed, [table.move(a) for a in found.line],
                        exact=found.exact, method="shortest", nodes=found.nodes,
                        timed_out=found.timed_out)
    target, winnable, best = found.max_removed, bool(found.winnable), found.line
    if trail is not None:
        trail.append((time.process_time() - clock, len(best)))
    left = budget.left(found.nodes, time.monotonic() - began)
    if left is None:  # spent by the decide search: by its states, or by the guard
        out_of_time = budget.nodes is None or found.nodes < budget.nodes
        search = ShortestResult(None, False, timed_out=out_of_time)
    else:
        search = search_shortest(table, target, winnable, left, model, weight=WEIGHT,
                                 bound=len(best), trail=trail, clock=clock)
    if search.line is not None:
        best = search.line
    return Solution(winnable, target, [table.move(a) for a in best], shortest=search.proven,
                    exact=found.exact, method="shortest", nodes=found.nodes + search.nodes,
                    timed_out=search.timed_out)


WEIGHT = 2.0
"""How many times over the estimate counts in the order of the anytime search: a
good line comes early, and the search then goes on to prove it or beat it."""


def search_shortest(
    table: Table, target: int, win: bool, budget: Budget, model: ReducedModel, *,
    weight: float = 1.0, bound: int = INFINITE, trail: Trail | None = None,
    clock: float | None = None,
) -> ShortestResult:
    """Anytime weighted A* from the start to the goal, for a line shorter than
    ``bound`` moves: states are taken in the order of ``g + weight * h``; each
    line found becomes the new bound and the search goes on, until no state
    left could beat it (then ``proven``: the line is the shortest, or, with no
    line, none is shorter than ``bound``).  With weight 1 the first line found
    is the shortest.  ``trail`` gets each line found, timed from ``clock`` (a
    :func:`time.process_time`)."""
    meter = budget.meter()
    clock = time.process_time() if clock is None else clock
    guess = Estimator(table, target, win, model if reduced_rules(table.rules) else None)
    relaxed = not reduced_rules(table.rules)  # the reduced model only bounds the result
    expand = single_expand if relaxed else macro_expand

    def done(state: State) -> bool:
        return table.won(state) if win else table.removed(state) >= target

    start = table.start
    start_key = table.key(start)
    cost = {start_key: 0}
    parent: dict[int, tuple[int, Macro]] = {}
    h0 = guess(start)
    heap: list[tuple[float, int, int, State, int]] = [(weight * h0, 0, start_key, start, h0)]
    best: list[Action] | None = None
    while heap:
        f, g_neg, key, state, h = heapq.heappop(heap)
        g = -g_neg
        if cost.get(key, INFINITE) < g or g + (h if h >= 0 else -1 - h) >= bound:
            continue
        if h < 0:  # lazy: the costly part of the estimate only for states popped
            h = guess.at_least(state, bound - g)
            if g + h >= bound:
                continue
            if g + weight * h > f:
                heapq.heappush(heap, (g + weight * h, g_neg, key, state, h))
                continue
        if done(state):
            best, bound = trace(table, parent, key), g
            if trail is not None:
                trail.append((time.process_time() - clock, g))
            if weight == 1.0:
                break
            continue
        if not meter.spend():
            return ShortestResult(best, False, meter.nodes, meter.timed_out)
        for macro, step_cost, child, child_key in expand(table, state, key):
            g2 = g + step_cost
            if cost.get(child_key, INFINITE) <= g2:
                continue
            cheap = guess.cheap(child)  # INFINITE when the reduced model says hopeless
            if g2 + cheap >= bound or (relaxed and model.best(child.mask, child.talon) < target):
                continue
            cost[child_key] = g2
            parent[child_key] = (key, macro)
            heapq.heappush(heap, (g2 + weight * cheap, -g2, child_key, child, -1 - cheap))
    return ShortestResult(best, True, meter.nodes)


CHUNK_STATES = 4000
"""States the compiled search spends between two looks at the budget."""


def search_compiled(
    table: Table, target: int, win: bool, budget: Budget, *, bound: int = INFINITE,
    trail: Trail | None = None, clock: float | None = None,
) -> ShortestResult:
    """:func:`search_shortest` on the macro graph (rules N and C, weight 2), run as
    compiled code (:mod:`pyramide.solver.compiled`): the same search (states of
    equal rank are taken in the order they came, not by key), many times faster,
    which also skips the states drawn past (see its glossary): fewer states, the
    same lengths proven."""
    clock = time.process_time() if clock is None else clock
    module = native.compiled()
    if module is None:
        raise RuntimeError("the compiled search is not available (no numba cache directory)")
    search = module.CompiledSearch(table.values, table.rules.covering_pairs, target, win)
    start = table.start
    try:
        search.start(start.mask, start.tmask, start.cut, start.talon)
        return run_compiled(table, search, budget, bound, trail, clock)
    finally:
        search.release()


def run_compiled(table: Table, search: CompiledSearch, budget: Budget, bound: int,
                 trail: Trail | None, clock: float) -> ShortestResult:
    """Run ``search`` chunk by chunk within ``budget``, spelling out each line found.
    The state count decides where the search stops; the clock is looked at between
    chunks only, as the guard."""
    from pyramide.solver.compiled import EMPTY, FOUND  # loaded: ``search`` is one of its

    deadline = None if budget.seconds is None else time.monotonic() + budget.seconds
    best: list[Action] | None = None
    while True:
        chunk = CHUNK_STATES if budget.nodes is None else min(
            CHUNK_STATES, budget.nodes - search.nodes)
        if chunk <= 0:
            return ShortestResult(best, False, search.nodes)
        status, key, length = search.run(bound, chunk)
        if status == FOUND:
            best, bound = spell(table, search.macros(key)), length
            if trail is not None:
                trail.append((time.process_time() - clock, length))
        elif status == EMPTY:
            return ShortestResult(best, True, search.nodes)
        elif deadline is not None and time.monotonic() > deadline:
            return ShortestResult(best, False, search.nodes, timed_out=True)

Macro = tuple[int, Action]
"""A talon index to draw to first (``NO_DRAW``: none), then an action."""
NO_DRAW = -1
Expansion = list[tuple[Macro, int, State, int]]


def macro_expand(table: Table, state: State, key: int) -> Expansion:
    """Moves of the macro graph (draw one, unlimited redeals): a removal inside the
    pyramid, or the draws (and recycle) that bring one talon card on top, then its
    removal.  Draws that end in no removal are never needed.  (The children are
    built here rather than by :meth:`Table.apply`: this is the search's inner loop.)"""
    mask, tmask, cut, redeals, talon = state
    values = table.values
    free = FREE[mask]
    for s in free:
        if values[s] == KING:
            child = table.apply(state, (s,))
            return [((NO_DRAW, (s,)), 1, child, table.key(child))]
    high = tmask << TMASK_SHIFT | redeals << REDEALS_SHIFT
    out: Expansion = []
    for a, b in table.pyramid_pairs(state):
        child_mask = mask & ~(1 << a) & ~(1 << b)
        out.append(((NO_DRAW, (a, b)), 1, State(child_mask, tmask, cut, redeals, talon),
                    child_mask | high | cut << CUT_SHIFT))
    partners: list[list[int]] = [[] for _ in range(KING + 1)]
    for s in free:
        partners[KING - values[s]].append(s)
    rest = tmask
    while rest:
        low = rest & -rest
        rest ^= low
        index = low.bit_length() - 1
        value = values[TALON + index]
        if value == KING:
            removals: list[int] = [-1]
        else:
            removals = partners[value]
            if not removals:
                continue
        steps = cycle_distance(tmask, cut, index + 1)
        child_tmask = tmask ^ low
        child_cut = below(child_tmask, index) + 1  # just above the new waste top
        child_talon = talon if value == KING else talon - ONE[value]
        high = child_tmask << TMASK_SHIFT | child_cut << CUT_SHIFT | redeals << REDEALS_SHIFT
        place = TALON + index
        for s in removals:
            if s < 0:
                out.append(((index, (place,)), steps + 1,
                            State(mask, child_tmask, child_cut, redeals, child_talon),
                            mask | high))
            else:
                child_mask = mask & ~(1 << s)
                out.append(((index, (s, place)), steps + 1,
                            State(child_mask, child_tmask, child_cut, redeals, child_talon),
                            child_mask | high))
    return out


def cycle_distance(tmask: int, start: int, end: int) -> int:
    """Draws and recycles that move the cut from ``start`` to ``end`` (draw one)."""
    if end == start:
        return 0
    if end > start:
        return (tmask & ((1 << end) - 1) & ~((1 << start) - 1)).bit_count()
    return (tmask >> start).bit_count() + 1 + (tmask & ((1 << end) - 1)).bit_count()


def single_expand(table: Table, state: State, key: int) -> Expansion:
    out: Expansion = []
    for action, child in canonical_successors(table, state, key & AFTER_DRAW != 0):
        child_key = table.key(child) | (AFTER_DRAW if action in (DRAW, RECYCLE) else 0)
        out.append(((NO_DRAW, action), 1, child, child_key))
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


def trace(table: Table, parent: dict[int, tuple[int, Macro]], key: int) -> list[Action]:
    """The actions from the start to the state ``key``."""
    macros: list[Macro] = []
    while key in parent:
        key, macro = parent[key]
        macros.append(macro)
    return spell(table, reversed(macros))


def spell(table: Table, macros: Iterable[Macro]) -> list[Action]:
    """The actions of macros played from the start, draws and recycles written out."""
    line: list[Action] = []
    state = table.start
    for index, action in macros:
        while index != NO_DRAW and below(state.tmask, state.cut) != index:
            step = DRAW if state.tmask >> state.cut else RECYCLE
            line.append(step)
            state = table.apply(state, step)
        line.append(action)
        state = table.apply(state, action)
    return line


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
        self.prefix_memo: dict[tuple[int, int, int], tuple[list[int], list[int]]] = {}
        self.open_stock = rules.open_stock

    def __call__(self, state: State) -> int:
        """The estimate (at least :meth:`cheap`)."""
        return self.estimate(state)

    def cheap(self, state: State) -> int:
        """A quicker, weaker estimate, for states that may never be looked at: with
        the reduced model its fewest removals alone (``INFINITE`` when hopeless)."""
        if self.model is not None:
            return self.model.fewest_steps(state.mask, state.talon, self.target)
        return self.estimate(state)

    def at_least(self, state: State, limit: int) -> int:
        """The estimate, or a weaker one when that already reaches ``limit``."""
        return self.estimate(state, limit=limit)

    def estimate(self, state: State, *, limit: int = INFINITE) -> int:
        mask, tmask, cut = state.mask, state.tmask, state.cut
        if self.model is not None:  # draw one, unlimited redeals: the reduced model helps
            moves = self.model.fewest_steps(mask, state.talon, self.target)
            if moves >= INFINITE:
                return INFINITE
            counts = [(mask & p).bit_count() for p in self.pyramid]
            reach = self.waste_reach(counts, tmask, cut)
            quick = moves
            if self.win:  # the draws each class needs: quick, and often enough
                quick += self.pyramid_bounds(state, counts, reach)[1]
                if quick >= limit:
                    return quick
            return max(quick, moves + self.draws_needed(state, reach))
        counts = [(mask & p).bit_count() for p in self.pyramid]
        if self.whole_deck:
            return self.whole_deck_removals(state)
        if not self.win:
            return ceil((self.target - SLOTS + mask.bit_count()) / 2)
        moves, draws = self.pyramid_bounds(state, counts, self.waste_reach(counts, tmask, cut))
        return moves + draws

    def draws_needed(self, state: State, reach: int) -> int:
        """Draws and recycles before the last talon card a line needs can show: the
        talon cards sorted by when they can first show (the waste within reach at
        once, then the stock, then after a recycle the rest of the waste), the
        shortest prefix with which the reduced model reaches the goal."""
        assert self.model is not None
        times, packed = self.prefixes(state.tmask, state.cut, reach)
        mask, target, best = state.mask, self.target, self.model.best
        low, high = 0, len(times)  # the answer is a prefix length in low..high
        if best(mask, packed[0]) >= target:
            return 0
        while high - low > 1:
            middle = (low + high) // 2
            if best(mask, packed[middle]) >= target:
                high = middle
            else:
                low = middle
        return times[high - 1]

    def prefixes(self, tmask: int, cut: int, reach: int) -> tuple[list[int], list[int]]:
        """For :meth:`draws_needed`: when each talon card can first show, in that
        order, and the packed talon values of each prefix (kept: many states share
        their talon)."""
        key = (tmask, cut, reach)
        known = self.prefix_memo.get(key)
        if known is not None:
            return known
        waste = (1 << cut) - 1
        order = [(0, i) for i in slots(tmask & waste & reach)]
        stock = list(slots(tmask & ~waste))
        order += [(depth + 1, i) for depth, i in enumerate(stock)]
        order += [(len(stock) + 1 + (tmask & ((2 << i) - 1)).bit_count(), i)
                  for i in slots(tmask & waste & ~reach)]
        values = self.values
        packed = [0]
        for _, i in order:
            value = values[TALON + i]
            packed.append(packed[-1] + (ONE[value] if value != KING else 0))
        result = [t for t, _ in order], packed
        self.prefix_memo[key] = result
        return result

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
                draws = max(draws, self.draws_for(state.tmask, state.cut, reach, value, short,
                                                  counts))
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
        if self.open_stock:
            return tmask  # the waste top may pair with the open stock's: anything may show
        partners = [counts[KING - v] for v in range(KING + 1)]
        return waste_reach(self.values, tmask, cut, partners)

    def draws_for(self, tmask: int, cut: int, reach: int, value: int, count: int,
                  counts: list[int]) -> int:
        """Fewest draws and recycles that can bring ``count`` talon cards of ``value``
        into play: cards within reach of the waste top first, then stock cards,
        then waste cards that only a recycle brings back (``counts``: the pyramid
        cards of each value, see :meth:`open_passes`)."""
        waste = (1 << cut) - 1
        cards = tmask & self.talon[value]
        count -= (cards & waste & reach).bit_count()
        if count <= 0:
            return 0
        stock = cards & ~waste
        if count <= stock.bit_count():
            index = nth_lowest(stock, count)
            over = tmask & ~waste & ((1 << index) - 1)
            if self.open_stock:
                return ceil(self.open_passes(over, counts) / self.draw_count)
            return ceil((over.bit_count() + 1) / self.draw_count)
        buried = cards & waste & ~reach
        count -= stock.bit_count()
        if count > buried.bit_count():
            return INFINITE
        index = nth_lowest(buried, count)
        stock_left = (tmask & ~waste).bit_count()
        return ceil(stock_left / self.draw_count) + 1 + ceil(
            (tmask & ((2 << index) - 1)).bit_count() / self.draw_count
        )

    def open_passes(self, over: int, counts: list[int]) -> int:
        """Under an open stock, how many of the cards ``over`` (a mask of stock indices)
        must leave the stock by a move the estimate's removals do not count, before
        the card under them is the stock's top.  Each of them leaves by a draw, or by
        a removal as the stock's top card (one card a removal).  A removal with a
        pyramid card is among the removals counted only as long as it takes a
        partner the class is short of: a class with ``a`` pyramid cards of value
        ``v`` and ``b <= a`` of value ``w`` is cleared in ``a`` removals when ``a - b``
        talon cards of value ``w`` (the partner of ``v``) go with pyramid cards, and
        each talon card of value ``v`` that goes with a pyramid card costs one removal
        more and makes room for one more ``w``.  So of the class's cards over the
        card, at most ``min(n_w, a - b + min(n_v, b))`` leave without a move of
        their own (``n_v``, ``n_w``: the cards of each value over it)."""
        passes = over.bit_count()
        talon = self.talon
        for v in range(1, 7):
            w = KING - v
            a, b = counts[v], counts[w]
            if a < b:
                a, b, v, w = b, a, w, v
            n_w = (over & talon[w]).bit_count()
            if n_w:
                passes -= min(n_w, a - b + min((over & talon[v]).bit_count(), b))
        return passes


def nth_lowest(bits: int, n: int) -> int:
    """Index of the ``n``-th lowest set bit (1-based) of ``bits``."""
    for _ in range(n - 1):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1
