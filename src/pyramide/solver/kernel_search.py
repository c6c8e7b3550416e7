"""The kernel search: decide, the best line and the shortest line for every game,
over the rules kernel's own positions.

The classic games (§1–§10 on the 7-row pyramid) have accelerated searches of
their own (:mod:`pyramide.solver.reduced`, :mod:`pyramide.solver.table`,
:mod:`pyramide.solver.compiled`), checked against the kernel by the tests.
Every other game of the family is searched here, through nothing but
:func:`pyramide.kernel.legal_moves`, :func:`~pyramide.kernel.apply` and
:func:`~pyramide.kernel.judge`: no rule is written twice.

Glossary
--------
key       a position as a hashable value: the cards of every pile, the
          redeals used (when they are limited) and whether the waste top is
          the card just drawn (when a waste-pairs option asks); two positions with one key
          play alike.
gone      tableau cards gone for good (the score over 10): what
          ``max_removed`` counts.
need      the cards a win still has to remove: the pyramid zones (and the
          tableau cards parked in cells) for a pyramid-only win, every card
          left for a whole-deck win.
bound     an upper bound on the tableau cards that can still go: a card
          with no possible partner left anywhere stays for good.
estimate  a lower bound on the moves to a win: a move removes at most two
          cards, so at least ``ceil(need / 2)`` moves remain (never more than
          the truth: the search's shortest lines are proven).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

from pyramide import kernel
from pyramide.cards import Card
from pyramide.kernel import Position
from pyramide.moves import Move
from pyramide.rules import Rules
from pyramide.solver.budget import Budget, Meter
from pyramide.solver.lines import tighten

__all__ = ["KernelResult", "decide_kernel", "gone", "shortest_kernel", "shortest_to"]

Key = tuple[object, ...]


@dataclass(slots=True)
class KernelResult:
    """What the kernel search found (``winnable`` is ``None`` when not decided)."""

    winnable: bool | None
    max_removed: int
    exact: bool
    line: list[Move] = field(default_factory=list)
    nodes: int = 0
    shortest: bool = False
    timed_out: bool = False


def key(rules: Rules, pos: Position) -> Key:
    redeals = pos.redeals_used if rules.redeals is not None else 0
    drawn = pos.drawn and rules.drawn_matters  # (else it changes nothing)
    return (pos.tableau, pos.stock, pos.wastes, pos.cells, redeals, drawn)


def gone(pos: Position) -> int:
    """Tableau cards gone for good."""
    return pos.score // kernel.POINTS_PER_TABLEAU_CARD


def successors(rules: Rules, pos: Position) -> Iterator[tuple[Move, Position]]:
    for move in kernel.legal_moves(rules, pos):
        yield move, kernel.judge(rules, kernel.apply(rules, pos, move))


def _left(pos: Position) -> list[Card]:
    """Every card still in play."""
    cards = [c for c in pos.tableau if c is not None]
    cards += pos.stock
    cards += [c for pile in pos.wastes for c in pile]
    cards += [c for c in pos.cells if c is not None]
    return cards


@cache
def _partners(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """``_partners(rules)[v]``: the values a card worth ``v`` pairs with (the kernel's
    :func:`~pyramide.kernel.values_pair`, tabled)."""
    return tuple(tuple(w for w in range(14) if kernel.values_pair(rules, v, w))
                 for v in range(14))


@cache
def _single(rules: Rules) -> tuple[bool, ...]:
    return tuple(v in rules.single_values for v in range(14))


class _Supply:
    """The cards still in play, counted by worth, to ask which card can never go."""

    __slots__ = ("rules", "stuck")

    def __init__(self, rules: Rules, left: list[Card]) -> None:
        self.rules = rules
        counts = [0] * 14
        for card in left:
            counts[kernel.worth(rules, card)] += 1
        single = _single(rules)
        self.stuck = [
            bool(counts[v]) and not single[v]
            and not any(counts[w] > (w == v) for w in partners)
            for v, partners in enumerate(_partners(rules))
        ]
        """``stuck[v]``: a card worth ``v`` can never go (not single, no partner left)."""

    def can_go(self, card: Card) -> bool:
        """False when ``card`` can never be removed: not single, and no partner left."""
        return not self.stuck[kernel.worth(self.rules, card)]


def _tableau_cards(rules: Rules, pos: Position, *, pyramid_only: bool) -> list[Card]:
    """The tableau cards still in play (those a pyramid-only win needs, if asked),
    the ones parked in cells included."""
    slots = rules.tableau.pyramid_slots if pyramid_only else range(len(pos.tableau))
    cards = [c for c in (pos.tableau[s] for s in slots) if c is not None]
    return cards + [c for c, p in zip(pos.cells, pos.parked, strict=True) if p and c is not None]


def bound(rules: Rules, pos: Position) -> int:
    """Upper bound on :func:`gone` from ``pos`` (see the glossary)."""
    supply = _Supply(rules, _left(pos))
    return gone(pos) + sum(supply.can_go(c) for c in _tableau_cards(rules, pos, pyramid_only=False))


def need(rules: Rules, pos: Position) -> int:
    """Cards a win still has to remove."""
    if rules.win == "pyramid":
        return kernel.tableau_left(rules, pos)
    return len(_left(pos))


def estimate(rules: Rules, pos: Position) -> int:
    return (need(rules, pos) + 1) // 2


def hopeless(rules: Rules, pos: Position) -> bool:
    """True when no line from ``pos`` can win (a card a win needs can never go)."""
    if pos.status == "lost":
        return True
    left = _left(pos)
    supply = _Supply(rules, left)
    if rules.win == "all":
        return any(supply.stuck)
    return not all(supply.can_go(c) for c in _tableau_cards(rules, pos, pyramid_only=True))


def decide_kernel(rules: Rules, start: Position, budget: Budget, *,
                  win_only: bool = False) -> KernelResult:
    """Depth first over the kernel's positions, removals before draws, each position
    once: the first win, else the most tableau cards gone (``max_removed``)."""
    meter = budget.meter()
    best, best_line = gone(start), list[Move]()
    top = min(len(rules.tableau), bound(rules, start))
    if start.status == "won":
        return KernelResult(True, best, True)
    seen = {key(rules, start)}
    frames = [successors(rules, start)]
    line: list[Move] = []
    won = False
    while frames and not won:
        item = next(frames[-1], None)
        if item is None:
            frames.pop()
            if line:
                line.pop()
            continue
        move, pos = item
        k = key(rules, pos)
        if k in seen:
            continue
        seen.add(k)
        if not meter.spend():
            break
        if gone(pos) > best:
            best, best_line = gone(pos), [*line, move]
        if pos.status == "won":
            won, best_line = True, [*line, move]
            break
        if pos.status != "playing" or (hopeless(rules, pos) and (
                win_only or bound(rules, pos) <= best)):
            continue
        line.append(move)
        frames.append(successors(rules, pos))
    complete = not meter.exhausted
    winnable = True if won else (False if complete or hopeless(rules, start) else None)
    exact = won or best == top or (complete and not win_only)
    return KernelResult(winnable, best, exact, best_line, meter.nodes,
                        timed_out=meter.timed_out)


def _astar(rules: Rules, start: Position, meter: Meter, done: Callable[[Position], bool],
           h: Callable[[Position], int],
           cut: Callable[[Position], bool]) -> tuple[list[Move], Position] | None:
    """A* over the kernel's positions: the first line to a position ``done`` takes
    from the queue, and that position; ``None`` when the budget or the positions
    run out first.  ``h`` is admissible and consistent; a position ``cut`` says
    cannot lead anywhere is not searched further."""
    order = itertools.count()
    queue: list[tuple[int, int, int, Position, tuple[Move, ...]]] = [
        (h(start), 0, next(order), start, ())]
    best_g: dict[Key, int] = {key(rules, start): 0}
    while queue:
        _, g, _, pos, line = heapq.heappop(queue)
        if done(pos):
            return list(line), pos
        if best_g.get(key(rules, pos), g) < g:
            continue
        if not meter.spend():
            return None
        if pos.status != "playing" or cut(pos):
            continue
        for move, child in successors(rules, pos):
            k = key(rules, child)
            if best_g.get(k, g + 2) <= g + 1:
                continue
            best_g[k] = g + 1
            heapq.heappush(queue, (g + 1 + h(child), g + 1, next(order), child, (*line, move)))
    return None


def shortest_kernel(rules: Rules, start: Position, budget: Budget) -> KernelResult:
    """A* over the kernel's positions with :func:`estimate` (admissible and
    consistent: a move lowers it by one at most), so the first win taken from the
    queue is a shortest line; without a win in the budget, the decide search's
    answer (its line tightened, :func:`~pyramide.solver.lines.tighten`), from a
    search with a budget of its own (the same: a shortest-line
    search may spend its budget thrice) — for a position proven lost, with the
    fewest moves to its most cards removable where :func:`shortest_to` finds them
    in a third budget (else not called shortest)."""
    meter = budget.meter()
    won = _astar(rules, start, meter, lambda pos: pos.status == "won",
                 lambda pos: estimate(rules, pos), lambda pos: hopeless(rules, pos))
    if won is not None:
        return KernelResult(True, gone(won[1]), True, won[0], meter.nodes, shortest=True)
    found = decide_kernel(rules, start, budget)
    winnable = False if not meter.exhausted else found.winnable
    line = None
    if winnable is False and found.exact:
        line = shortest_to(rules, start, found.max_removed, budget)
    return KernelResult(winnable, found.max_removed, found.exact,
                        tighten(rules, start, found.line) if line is None else line,
                        meter.nodes + found.nodes,
                        shortest=line is not None,
                        timed_out=meter.timed_out or found.timed_out)


def shortest_to(rules: Rules, start: Position, target: int,
                budget: Budget) -> list[Move] | None:
    """The fewest moves from ``start`` to ``target`` tableau cards gone (the most a
    lost position allows: its ``max_removed``); ``None`` when the budget runs out
    first (or no line gets there).  A move takes two tableau cards at most, so
    half the cards still to go is an estimate that is admissible and consistent;
    a position whose :func:`bound` falls short of the target is not searched
    further."""
    found = _astar(rules, start, budget.meter(), lambda pos: gone(pos) >= target,
                   lambda pos: max(0, target - gone(pos) + 1) // 2,
                   lambda pos: bound(rules, pos) < target)
    return None if found is None else found[0]
