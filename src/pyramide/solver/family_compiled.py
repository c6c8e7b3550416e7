"""The compiled decide search of the family's games (rule book §11), with numba.

The kernel search (:mod:`pyramide.solver.kernel_search`) plays the family through
the kernel's own positions, a few thousand states per second.  This module
turns one position of a game into flat integer arrays — read from the
:class:`~pyramide.rules.Rules` value and the kernel (the covering graph, each
card's worth, which worths pair and which go alone, the talon's piles) — and
runs the same depth-first search over packed integer states, compiled by
numba: no rule is typed here, every table is filled by asking the kernel or the
rules, and the tests check each successor against :func:`kernel.legal_moves` and
:func:`kernel.apply`.  It is one module on purpose (numba checks a cached
function against its own file only), so it has its own bit helpers.

Glossary
--------
id        a card's number in one search: the tableau slots 0 … n − 1, then the
          talon cards n … n + T − 1 (the talon is the waste piles and the stock
          of the position searched from), then the card in the cell, if any.
tab       the tableau slots still holding their card, one bit per slot.
tal       the talon cards still in play, one bit per talon card.
sequence  the talon in dealing order for the current pass: ``seqs[level, i]``
          is the talon card at place ``i`` (-1: none).  The places before
          ``cut`` are dealt (place ``i`` lies on waste pile ``i mod piles``,
          the later places above the earlier), the places from ``cut`` on are
          the stock, the first one on top.  With one waste pile the sequence
          never changes (a recycle turns the pile over as it was dealt); with
          several, a recycle gathers the piles into a new sequence (level + 1).
state     tab, tal, cut, the redeals used, the cell (its card's id + 1, 0 when
          empty) and ``hist``: the tal of each earlier recycle, which names the
          sequence of the current level (several piles only).
key       the state as four words for the transposition table: with one pile
          the cut is brought down to just above the top waste card (the
          positions are the same), and unlimited redeals are not counted.
gone      tableau cards gone for good (the kernel's score over 10).
move      ``kind | (a + 1) << 4 | (b + 1) << 12``: a card alone, a pair, a card
          into the cell, a draw or a recycle (:data:`SINGLE` … :data:`RECYCLE`).
frame     one state on the depth-first path: the state, its moves (a range of
          the move stack), the next one to try, and the move that led to it.
chunk     the search runs a bounded number of states per call and returns, so
          that the caller keeps the budget's clock and grows the arrays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from pyramide import kernel
from pyramide.cards import Card
from pyramide.kernel import Position
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules
from pyramide.solver import native
from pyramide.solver.budget import Budget
from pyramide.solver.kernel_search import KernelResult, bound, hopeless

__all__ = ["Encoding", "FamilySearch", "covers", "decide_family"]

Fn = TypeVar("Fn", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]


def jit(fn: Fn) -> Fn:
    """Compile ``fn`` with numba, cached on disk (see :mod:`pyramide.solver.native`)."""
    native.prepare_cache()
    import numba

    return cast(Fn, numba.njit(cache=True, nogil=True)(fn))


SINGLE, PAIR, CELL, DRAW_MOVE, RECYCLE_MOVE = 1, 2, 3, 4, 5
FRAME = 10  # tab, tal, cut, red, cell, hist, first move, end of moves, next move, via
ROOM = 2048  # more than the moves of one state
WORTHS = 14
# the flags of the layout array
N, T, PILES, REDEALS, WIN_ALL, OPEN, BOTTOM, WPAIRS, PYR, CELLS = range(10)
START_GONE, START_PRESENT, WIN_ONLY, UNLIMITED_KEY, CYCLE, SEARCHING, FLAGS = range(10, 17)
# the scalars of the control array
DEPTH, NODES, BEST, COUNT, BEST_LEN, BUDGET, CTL = 0, 1, 2, 3, 4, 5, 6
# what a chunk returns
COMPLETE, WON, SPENT, EXHAUSTED, GROW_TABLE, GROW_FRAMES, GROW_MOVES = range(7)
HASH = 0x5851F42D4C957F2D


# ------------------------------------------------------------------- bits


@jit
def _bits(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@jit
def _top_bit(x: int) -> int:
    n = -1
    while x:
        x >>= 1
        n += 1
    return n


# ------------------------------------------------------------- the talon


@jit
def _pile_top(seq: Ints, tal: int, cut: int, pile: int, piles: int, skip: int) -> int:
    """The place of the top card of ``pile`` below ``cut`` (-1: empty), after
    passing over ``skip`` cards (1: the card under the top)."""
    i = cut - 1
    i -= (i - pile) % piles
    while i >= 0:
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            if skip == 0:
                return i
            skip -= 1
        i -= piles
    return -1


@jit
def _stock_top(seq: Ints, length: int, tal: int, cut: int) -> int:
    """The place of the stock's top card (-1: the stock is empty)."""
    for i in range(cut, length):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            return i
    return -1


@jit
def _waste_count(seq: Ints, tal: int, cut: int, pile: int, piles: int) -> int:
    n = 0
    for i in range(pile, cut, piles):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            n += 1
    return n


@jit
def _pile_bottom(seq: Ints, tal: int, cut: int) -> int:
    for i in range(0, cut, 1):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            return i
    return -1


# ----------------------------------------------------------- observation


@jit
def _free(lay: Ints, cover: Ints, worth: Ints, seqs: Ints, lens: Ints, st: Ints,
          out: Ints) -> tuple[int, int]:
    """The free cards' ids into ``out`` (tableau, waste tops, waste bottom, open
    stock top, cell); returns their number and the open stock top's id (-1)."""
    n, piles = lay[N], lay[PILES]
    tab, tal, cut, red, cell = st[0], st[1], st[2], st[3], st[4]
    k = 0
    for s in range(n):
        if (tab >> s) & 1 and (tab & cover[s]) == 0:
            out[k] = s
            k += 1
    open_top = -1
    if lay[CYCLE] and lay[SEARCHING]:
        seen = 0
        for t in range(lay[T]):
            v = worth[n + t]
            if (tal >> t) & 1 and not (seen >> v) & 1:
                seen |= 1 << v  # (one card of each worth: the others play alike)
                out[k] = n + t
                k += 1
    elif lay[T] > 0:
        level = red if piles > 1 else 0
        seq = seqs[level]
        for p in range(piles):
            i = _pile_top(seq, tal, cut, p, piles, 0)
            if i >= 0:
                out[k] = n + seq[i]
                k += 1
        if lay[BOTTOM] and _waste_count(seq, tal, cut, 0, piles) >= 2:
            out[k] = n + seq[_pile_bottom(seq, tal, cut)]
            k += 1
        if lay[OPEN]:
            i = _stock_top(seq, lens[level], tal, cut)
            if i >= 0:
                open_top = n + seq[i]
                out[k] = open_top
                k += 1
    if cell > 0:
        out[k] = cell - 1
        k += 1
    return k, open_top


@jit
def _moves(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
           lens: Ints, st: Ints, free: Ints, out: Ints, at: int, safe: bool) -> int:
    """The legal moves of state ``st`` into ``out[at:]`` (removals first, tableau
    cards first; then into the cell; then the draw or the recycle); returns the
    end.  A move may come twice (a waste pair of two free cards): the
    transposition table drops the second.  With ``safe``, a free card that goes
    alone and pairs with nothing is the only move (docs/solver.md: removing it
    at once loses nothing)."""
    nfree, open_top = _free(lay, cover, worth, seqs, lens, st, free)
    cycle = lay[CYCLE] and lay[SEARCHING]
    n, talon_end = lay[N], lay[N] + lay[T]
    k = at
    for i in range(nfree):
        v = worth[free[i]]
        if single[v]:
            out[k] = SINGLE | (free[i] + 1) << 4
            k += 1
            if safe and pairs[v * WORTHS:(v + 1) * WORTHS].sum() == 0:
                out[at] = out[k - 1]
                return at + 1
    for i in range(nfree):
        wa = worth[free[i]]
        talon_i = n <= free[i] < talon_end
        for j in range(i + 1, nfree):
            if cycle and talon_i and n <= free[j] < talon_end:
                continue  # one talon card at a time on the waste
            if pairs[wa * WORTHS + worth[free[j]]] and free[i] != free[j]:
                out[k] = PAIR | (free[i] + 1) << 4 | (free[j] + 1) << 12
                k += 1
    tal, cut, red, cell = st[1], st[2], st[3], st[4]
    piles = lay[PILES]
    level = red if piles > 1 else 0
    if lay[WPAIRS] and lay[T] > 0:
        seq = seqs[level]
        i = _pile_top(seq, tal, cut, 0, piles, 0)
        j = _pile_top(seq, tal, cut, 0, piles, 1)
        if j >= 0 and pairs[worth[n + seq[i]] * WORTHS + worth[n + seq[j]]]:
            out[k] = PAIR | (n + seq[i] + 1) << 4 | (n + seq[j] + 1) << 12
            k += 1
    if lay[CELLS] > 0 and cell == 0:
        for i in range(nfree):
            if free[i] != open_top and not single[worth[free[i]]]:
                out[k] = CELL | (free[i] + 1) << 4
                k += 1
    if lay[T] > 0 and not cycle:
        if _stock_top(seqs[level], lens[level], tal, cut) >= 0:
            out[k] = DRAW_MOVE
            k += 1
        elif (lay[REDEALS] < 0 or red < lay[REDEALS]) and tal != 0:
            out[k] = RECYCLE_MOVE  # (the stock is empty: every talon card left is waste)
            k += 1
    return k


# ---------------------------------------------------------------- acting


@jit
def _take(lay: Ints, st: Ints, card: int) -> None:
    n = lay[N]
    if st[4] == card + 1:
        st[4] = 0
    elif card < n:
        st[0] &= ~(1 << card)
    else:
        st[1] &= ~(1 << (card - n))


@jit
def _apply(lay: Ints, seqs: Ints, lens: Ints, st: Ints, move: int) -> None:
    """Play ``move`` on the state ``st`` (in place)."""
    kind = move & 15
    a, b = ((move >> 4) & 255) - 1, ((move >> 12) & 255) - 1
    piles, tcount = lay[PILES], lay[T]
    if kind <= PAIR:  # a card alone or a pair
        _take(lay, st, a)
        if b >= 0:
            _take(lay, st, b)
    elif kind == CELL:
        _take(lay, st, a)
        st[4] = a + 1
    elif kind == DRAW_MOVE:
        level = st[3] if piles > 1 else 0
        seq, tal, cut = seqs[level], st[1], st[2]
        if piles == 1:
            st[2] = _stock_top(seq, lens[level], tal, cut) + 1
        else:
            st[2] = min(cut + piles, lens[level])
    else:  # the recycle
        red = st[3]
        if piles == 1:
            st[2] = 0
        else:
            seq, tal, cut = seqs[red], st[1], st[2]
            new = seqs[red + 1]
            m = 0
            for p in range(piles - 1, -1, -1):
                for i in range(p, cut, piles):
                    t = seq[i]
                    if t >= 0 and (tal >> t) & 1:
                        new[m] = t
                        m += 1
            lens[red + 1] = m
            st[5] |= tal << (tcount * red)
            st[2] = min(piles, m)
        st[3] = red + 1
    if lay[CYCLE] and lay[SEARCHING]:
        st[2] = 0  # every cut is a draw or a recycle away: one state for all
    elif piles == 1:  # the cut just above the top waste card
        st[2] = _top_bit(st[1] & ((1 << st[2]) - 1)) + 1


# ------------------------------------------------------------ judging


@jit
def _present(lay: Ints, istab: Ints, st: Ints) -> int:
    """Tableau cards still in play (in the tableau or parked in the cell)."""
    cell = st[4]
    return _bits(st[0]) + (1 if cell > 0 and istab[cell - 1] else 0)


@jit
def _gone(lay: Ints, istab: Ints, st: Ints) -> int:
    return int(lay[START_GONE] + lay[START_PRESENT] - _present(lay, istab, st))


@jit
def _won(lay: Ints, istab: Ints, st: Ints) -> bool:
    cell = st[4]
    if (st[0] & lay[PYR]) != 0 or (cell > 0 and istab[cell - 1]):
        return False
    return not lay[WIN_ALL] or (st[0] == 0 and st[1] == 0 and cell == 0)


@jit
def _stuck(lay: Ints, worth: Ints, pairs: Ints, single: Ints, st: Ints, stuck: Ints) -> None:
    """``stuck[v]``: a card worth ``v`` is in play and can never go (not alone,
    no partner left)."""
    counts = np.zeros(WORTHS, dtype=np.int64)
    n = lay[N]
    for s in range(n):
        if (st[0] >> s) & 1:
            counts[worth[s]] += 1
    for t in range(lay[T]):
        if (st[1] >> t) & 1:
            counts[worth[n + t]] += 1
    if st[4] > 0:
        counts[worth[st[4] - 1]] += 1
    for v in range(WORTHS):
        stuck[v] = 0
        if counts[v] and not single[v]:
            stuck[v] = 1
            for w in range(WORTHS):
                if pairs[v * WORTHS + w] and counts[w] > (1 if w == v else 0):
                    stuck[v] = 0
                    break


@jit
def _prune(lay: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints, st: Ints,
           best: int, stuck: Ints) -> bool:
    """True when no line from ``st`` can win and none can beat ``best`` gone (the
    kernel search's ``hopeless`` and ``bound``)."""
    _stuck(lay, worth, pairs, single, st, stuck)
    n, cell = lay[N], st[4]
    hopeless = False
    can = 0
    for s in range(n):
        if (st[0] >> s) & 1:
            if stuck[worth[s]]:
                if (lay[PYR] >> s) & 1:
                    hopeless = True
            else:
                can += 1
    if cell > 0 and istab[cell - 1]:
        if stuck[worth[cell - 1]]:
            hopeless = True
        else:
            can += 1
    if lay[WIN_ALL]:
        hopeless = False
        for v in range(WORTHS):
            if stuck[v]:
                hopeless = True
    if not hopeless:
        return False
    return lay[WIN_ONLY] == 1 or _gone(lay, istab, st) + can <= best


# -------------------------------------------------------- the table


@jit
def _key(lay: Ints, worth: Ints, st: Ints) -> tuple[int, int, int, int]:
    red = 0 if lay[UNLIMITED_KEY] else st[3]
    tal = st[1]
    if lay[CYCLE] and lay[SEARCHING]:  # the talon's order plays no part: its worths
        n, tal = lay[N], 0
        for t in range(lay[T]):
            if (st[1] >> t) & 1:
                tal += 1 << (4 * worth[n + t])
    return st[0], tal, st[2] | red << 8 | st[4] << 16 | 1 << 40, st[5]


@jit
def _slot(table: Ints, k0: int, k1: int, k2: int, k3: int) -> int:
    """The table row holding the key, or the empty row where it would go."""
    mask = table.shape[0] - 1
    h = (k0 * HASH) ^ (k1 * 0x9E3779B97F4A7C15) ^ (k2 * 0xBF58476D1CE4E5B9) ^ k3
    h ^= h >> 29
    i = (h * HASH >> 20) & mask
    while table[i, 2] != 0:
        if table[i, 0] == k0 and table[i, 1] == k1 and table[i, 2] == k2 and table[i, 3] == k3:
            return int(i)
        i = (i + 1) & mask
    return int(i)


@jit
def rehash(old: Ints, new: Ints) -> None:
    for i in range(old.shape[0]):
        if old[i, 2] != 0:
            j = _slot(new, old[i, 0], old[i, 1], old[i, 2], old[i, 3])
            new[j] = old[i]


# -------------------------------------------------------- the search


@jit
def start(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
          lens: Ints, st: Ints, frames: Ints, moves: Ints, table: Ints, ctl: Ints) -> None:
    """Put the start state ``st`` on the path."""
    free = np.empty(lay[N] + lay[T] + 2, dtype=np.int64)
    lay[SEARCHING] = 1
    frames[0, :6] = st[:6]
    if lay[CYCLE]:
        frames[0, 2] = 0
    st = frames[0, :6]
    frames[0, 6] = 0
    frames[0, 7] = _moves(lay, cover, worth, pairs, single, seqs, lens, st, free, moves, 0,
                          True)
    frames[0, 8] = 0
    frames[0, 9] = -1
    k0, k1, k2, k3 = _key(lay, worth, st)
    i = _slot(table, k0, k1, k2, k3)
    table[i, 0], table[i, 1], table[i, 2], table[i, 3] = k0, k1, k2, k3
    ctl[DEPTH], ctl[COUNT] = 1, 1


@jit
def run(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
        seqs: Ints, lens: Ints, frames: Ints, moves: Ints, table: Ints, ctl: Ints,
        line: Ints, chunk: int) -> int:
    """Search on for at most ``chunk`` new states; returns what stopped it."""
    st = np.empty(6, dtype=np.int64)
    free = np.empty(lay[N] + lay[T] + 2, dtype=np.int64)
    stuck = np.empty(WORTHS, dtype=np.int64)
    steps = 0
    while ctl[DEPTH] > 0:
        d = ctl[DEPTH] - 1
        if frames[d, 8] == frames[d, 7] - frames[d, 6]:
            ctl[DEPTH] = d
            continue
        if steps >= chunk:
            return SPENT
        if 2 * ctl[COUNT] + 2 > table.shape[0]:
            return GROW_TABLE
        if d + 2 > frames.shape[0]:
            return GROW_FRAMES
        if frames[d, 7] + ROOM > moves.shape[0]:
            return GROW_MOVES
        move = moves[frames[d, 6] + frames[d, 8]]
        frames[d, 8] += 1
        st[:] = frames[d, :6]
        _apply(lay, seqs, lens, st, move)
        k0, k1, k2, k3 = _key(lay, worth, st)
        i = _slot(table, k0, k1, k2, k3)
        if table[i, 2] != 0:
            continue
        table[i, 0], table[i, 1], table[i, 2], table[i, 3] = k0, k1, k2, k3
        ctl[COUNT] += 1
        ctl[NODES] += 1
        steps += 1
        if ctl[BUDGET] >= 0 and ctl[NODES] > ctl[BUDGET]:
            return EXHAUSTED
        gone = _gone(lay, istab, st)
        won = _won(lay, istab, st)
        if gone > ctl[BEST] or won:
            if gone > ctl[BEST]:
                ctl[BEST] = gone
            for j in range(1, d + 1):
                line[j - 1] = frames[j, 9]
            line[d] = move
            ctl[BEST_LEN] = d + 1
        if won:
            return WON
        if _prune(lay, worth, pairs, single, istab, st, ctl[BEST], stuck):
            continue
        frames[d + 1, :6] = st
        frames[d + 1, 6] = frames[d, 7]
        frames[d + 1, 7] = _moves(lay, cover, worth, pairs, single, seqs, lens, st, free,
                                  moves, frames[d, 7], True)
        frames[d + 1, 8] = 0
        frames[d + 1, 9] = move
        ctl[DEPTH] = d + 2
    return COMPLETE


@jit
def children(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
             lens: Ints, st: Ints, out: Ints) -> int:
    """The states after each legal move of ``st`` (rows of ``out``: the state,
    then the move); returns their number.  For the tests."""
    moves = np.empty(ROOM, dtype=np.int64)
    free = np.empty(lay[N] + lay[T] + 2, dtype=np.int64)
    lay[SEARCHING] = 0
    k = _moves(lay, cover, worth, pairs, single, seqs, lens, st, free, moves, 0, False)
    child = np.empty(6, dtype=np.int64)
    for i in range(k):
        child[:] = st[:6]
        _apply(lay, seqs, lens, child, moves[i])
        out[i, :6] = child
        out[i, 6] = moves[i]
    return k


# --------------------------------------------------------------- the driver

CHUNK = 1 << 16
"""States per call of :func:`run` between two looks at the clock."""


def covers(rules: Rules) -> bool:
    """True when this search plays ``rules``: a game of the family (not the classic
    ones, which have searches of their own) whose talon it encodes — draw one,
    no covering pairs, one cell at most, and every pile of cards in one word."""
    talon = rules.deck - len(rules.tableau)
    piles_fit = rules.waste_piles <= 1 or (
        rules.redeals is not None and talon * rules.redeals <= 62)
    return (rules.family and rules.draw_count == 1 and not rules.covering_pairs
            and rules.cells <= 1 and len(rules.tableau) <= 62 and talon <= 62 and piles_fit)


@dataclass
class Encoding:
    """One position of one game as the compiled search's arrays (module glossary)."""

    rules: Rules
    cards: list[Card | None]
    """The card of each id."""
    lay: Ints
    cover: Ints
    worth: Ints
    pairs: Ints
    single: Ints
    istab: Ints
    seqs: Ints
    lens: Ints
    state: Ints
    redeals_used: int

    @classmethod
    def of(cls, rules: Rules, pos: Position) -> Encoding:
        if not covers(rules):
            raise ValueError(f"the family's compiled search does not play rules {rules.letter}")
        slots = rules.tableau.slots
        n, piles = len(slots), rules.waste_piles
        cards: list[Card | None] = list(pos.tableau)
        if piles <= 1:
            talon = [*pos.waste, *pos.stock]
            seq, cut = list(range(len(talon))), len(pos.waste)
        else:
            talon, height = [], max(len(p) for p in pos.wastes)
            seq, cut = [-1] * (piles * height), piles * height
            for j in range(height):
                for p, pile in enumerate(pos.wastes):
                    if j < len(pile):
                        seq[j * piles + p] = len(talon)
                        talon.append(pile[j])
            seq += range(len(talon), len(talon) + len(pos.stock))
            talon += pos.stock
        cards += talon
        cell = pos.cells[0] if pos.cells else None
        cards.append(cell)
        left = None if rules.redeals is None else rules.redeals - pos.redeals_used
        levels = 1 + (left or 0) if piles > 1 else 1
        seqs = np.full((levels, max(1, len(seq))), -1, dtype=np.int64)
        seqs[0, :len(seq)] = seq
        lens = np.zeros(levels, dtype=np.int64)
        lens[0] = len(seq)
        worth = np.array([0 if c is None else kernel.worth(rules, c) for c in cards],
                         dtype=np.int64)
        istab = np.array([i < n for i in range(len(cards))], dtype=np.int64)
        istab[-1] = bool(pos.parked and pos.parked[0])
        tab = sum(1 << s for s, c in enumerate(pos.tableau) if c is not None)
        lay = np.zeros(FLAGS, dtype=np.int64)
        lay[N], lay[T], lay[PILES] = n, len(talon), piles
        lay[REDEALS] = -1 if left is None else left
        lay[WIN_ALL], lay[OPEN] = rules.win == "all", rules.open_stock
        lay[BOTTOM], lay[WPAIRS], lay[CELLS] = rules.waste_bottom, rules.waste_pairs, rules.cells
        lay[PYR] = sum(1 << s for s in rules.tableau.pyramid_slots)
        lay[START_GONE] = pos.score // kernel.POINTS_PER_TABLEAU_CARD
        lay[START_PRESENT] = bin(tab).count("1") + int(istab[-1] and cell is not None)
        lay[UNLIMITED_KEY] = rules.redeals is None
        lay[CYCLE] = (piles == 1 and rules.redeals is None and not rules.open_stock
                      and not rules.waste_pairs and not rules.waste_bottom)
        state = np.array([tab, (1 << len(talon)) - 1, cut, 0,
                          len(cards) if cell is not None else 0, 0], dtype=np.int64)
        return cls(
            rules, cards, lay,
            np.array([sum(1 << c for c in slot.covered_by) for slot in slots], dtype=np.int64),
            worth,
            np.array([kernel.values_pair(rules, v, w) and v > 0 and w > 0
                      for v in range(WORTHS) for w in range(WORTHS)], dtype=np.int64),
            np.array([v in rules.single_values for v in range(WORTHS)], dtype=np.int64),
            istab, seqs, lens, state, pos.redeals_used,
        )

    def move(self, code: int) -> Move:
        """The kernel's move of a move code (module glossary)."""
        kind, a, b = code & 15, ((code >> 4) & 255) - 1, ((code >> 12) & 255) - 1
        if kind == DRAW_MOVE:
            return DRAW
        if kind == RECYCLE_MOVE:
            return RECYCLE
        card = self.cards[a]
        assert card is not None
        if kind == CELL:
            return Move.to_cell(card)
        if kind == SINGLE:
            return Move.king(card)
        other = self.cards[b]
        assert other is not None
        return Move.pair(card, other)

    def key(self, st: Ints) -> tuple[object, ...]:
        """The kernel search's key (:func:`kernel_search.key`) of the position ``st``
        stands for: what the tests compare with the kernel."""
        rules, n, piles = self.rules, int(self.lay[N]), int(self.lay[PILES])
        tab, tal, cut, red, cell = (int(x) for x in st[:5])
        tableau = tuple(self.cards[s] if tab >> s & 1 else None for s in range(n))
        level = red if piles > 1 else 0
        seq = [int(t) for t in self.seqs[level, :self.lens[level]]]

        def card(t: int) -> Card | None:
            return self.cards[n + t] if t >= 0 and tal >> t & 1 else None

        stock = tuple(c for c in map(card, seq[cut:]) if c is not None)
        wastes = tuple(tuple(c for c in (card(seq[i]) for i in range(p, cut, piles))
                             if c is not None) for p in range(piles)) or ((),)
        cells = (self.cards[cell - 1] if cell else None,) if rules.cells else ()
        redeals = self.redeals_used + red if rules.redeals is not None else 0
        return (tableau, stock, wastes, cells, redeals)

    def children(self, st: Ints) -> list[tuple[Ints, Move]]:
        """Each legal move of ``st`` and the state after it (for the tests)."""
        out = np.zeros((ROOM, 7), dtype=np.int64)
        k = children(self.lay, self.cover, self.worth, self.pairs, self.single,
                                 self.seqs, self.lens, st, out)
        return [(out[i, :6].copy(), self.move(int(out[i, 6]))) for i in range(k)]


class FamilySearch:
    """One depth-first decide search, run chunk by chunk from Python."""

    def __init__(self, enc: Encoding, nodes: int | None, *, win_only: bool) -> None:
        self.enc = enc
        enc.lay[WIN_ONLY] = win_only
        self.frames = np.zeros((256, FRAME), dtype=np.int64)
        self.line = np.zeros(256, dtype=np.int64)
        self.moves = np.zeros(16 * ROOM, dtype=np.int64)
        self.table = np.zeros((1 << 12, 4), dtype=np.int64)
        self.ctl = np.zeros(CTL, dtype=np.int64)
        self.ctl[BEST] = enc.lay[START_GONE]
        self.ctl[BUDGET] = -1 if nodes is None else nodes
        e = enc
        start(e.lay, e.cover, e.worth, e.pairs, e.single, e.seqs, e.lens, e.state,
                          self.frames, self.moves, self.table, self.ctl)

    def run(self, chunk: int) -> int:
        """Search on for ``chunk`` states at most, growing the arrays as needed."""
        e = self.enc
        while True:
            status = int(run(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.seqs,
                                 e.lens, self.frames, self.moves, self.table, self.ctl,
                                 self.line, chunk))
            if status == GROW_TABLE:
                wider = np.zeros((2 * len(self.table), 4), dtype=np.int64)
                rehash(self.table, wider)
                self.table = wider
            elif status == GROW_FRAMES:
                self.frames = np.concatenate([self.frames, np.zeros_like(self.frames)])
                self.line = np.concatenate([self.line, np.zeros_like(self.line)])
            elif status == GROW_MOVES:
                self.moves = np.concatenate([self.moves, np.zeros_like(self.moves)])
            else:
                return status

    @property
    def nodes(self) -> int:
        return int(self.ctl[NODES])

    @property
    def best(self) -> int:
        return int(self.ctl[BEST])

    def best_line(self, start: Position) -> list[Move]:
        """The line to the best state found, from the position ``start`` it was
        encoded from.  Where every cut is one state (glossary: unlimited redeals,
        one closed waste pile), each talon card a move takes is first brought to
        the waste top by draws and recycles, played by the kernel."""
        rules, pos = self.enc.rules, start
        line: list[Move] = []
        for code in self.line[:self.ctl[BEST_LEN]]:
            move = self.enc.move(int(code))
            if self.enc.lay[CYCLE]:
                for card in move.cards:
                    for _ in range(2 * len(self.enc.cards) + 2):
                        if card not in pos.stock and card not in pos.waste[:-1]:
                            break
                        turn = DRAW if pos.stock else RECYCLE
                        pos = kernel.apply(rules, pos, turn)
                        line.append(turn)
            pos = kernel.apply(rules, pos, move)
            line.append(move)
        return line


def decide_family(rules: Rules, position: Position, budget: Budget, *,
                  win_only: bool = False) -> KernelResult:
    """The kernel search's decide (:func:`kernel_search.decide_kernel`), compiled:
    depth first, removals before draws, each position once; the first win, else
    the most tableau cards gone.  ``budget`` is a :class:`~budget.Budget`."""
    gone = position.score // kernel.POINTS_PER_TABLEAU_CARD
    if position.status == "won":
        return KernelResult(True, gone, True)
    meter = budget.meter()
    search = FamilySearch(Encoding.of(rules, position), budget.nodes, win_only=win_only)
    while True:
        status = search.run(CHUNK)
        meter.nodes = search.nodes
        if status != SPENT:
            break
        if meter.deadline is not None and time.monotonic() > meter.deadline:
            meter.timed_out = True
            break
    won, complete = status == WON, status == COMPLETE
    top = min(len(rules.tableau), bound(rules, position))
    winnable = True if won else (False if complete or hopeless(rules, position) else None)
    exact = won or search.best == top or (complete and not win_only)
    return KernelResult(winnable, search.best, exact, search.best_line(position), search.nodes,
                        timed_out=meter.timed_out)




def warm_up() -> None:
    """Compile (or load from numba's cache) the search, on a tiny position."""
    from pyramide.deals import Deal
    from pyramide.games import PRESETS

    rules = PRESETS["S"]
    decide_family(rules, kernel.initial(rules, Deal.from_number(0, rules.deck).cards),
                  Budget(nodes=50, seconds=None))
