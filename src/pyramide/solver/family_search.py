"""The family's compiled decide search, driven from Python: a position encoded
as the arrays of :mod:`pyramide.solver.family_compiled` (read from the rules and
the kernel), the search run chunk by chunk, its moves turned back into the
kernel's.  The glossary is :mod:`~pyramide.solver.family_compiled`'s.
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import ClassVar

import numpy as np

from pyramide import kernel
from pyramide.cards import Card, deck_cards
from pyramide.kernel import Position
from pyramide.layouts import Tableau
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import WASTE_PAIRS, Rules
from pyramide.solver.budget import Budget, Meter
from pyramide.solver.family_compiled import (
    BEST,
    BEST_LEN,
    BOTTOM,
    BOUND,
    BUDGET,
    CELL,
    CELLS,
    COMPLETE,
    COVERING,
    CTL,
    CYCLE,
    DEPTH,
    DOMINATE,
    DRAW_MOVE,
    DRAWS,
    EXHAUSTED,
    FLAGS,
    FRAME,
    GOAL,
    GRID,
    GROW_FRAMES,
    GROW_MOVES,
    GROW_TABLE,
    MEMO_COUNT,
    MEMO_GEN,
    NODE,
    NODES,
    OPEN,
    ORDER,
    PILES,
    PYR,
    RECYCLE_MOVE,
    REDEALS,
    RELAXED,
    ROOM,
    SCTL,
    SHORT,
    SINGLE,
    SPENT,
    START_GONE,
    START_PRESENT,
    STRING,
    TARGET,
    TOP,
    TOPPED,
    UNLIMITED_KEY,
    VIA_AT,
    WIN_ALL,
    WIN_ONLY,
    WON,
    WORTHS,
    WPAIRS,
    Ints,
    N,
    T,
    buffer_size,
    children,
    rehash,
    run,
    shortest_run,
    shortest_start,
    start,
    words_shape,
)
from pyramide.solver.kernel_search import KernelResult, bound, gone, hopeless
from pyramide.solver.lines import tighten

__all__ = ["Encoding", "FamilySearch", "Memo", "ShortestSearch", "covers", "decide_family",
           "shortest_family", "warm_up"]

CHUNK = 1 << 16
"""States per call of :func:`run` between two looks at the clock."""
FIRST_LOOK = 50_000
"""States the first phase's depth-first search takes alone (:func:`_win_phase`)."""
PROBE_STATES = 10_000
"""The unit of the first phase's probes (:func:`_win_phase`)."""
PROBE_SHARE = 8
"""The probes take at most one state in this many of the first phase's budget."""
BEST_FIRST_SHARE = 4
"""The best-first search takes at most one state in this many of the first phase's
budget."""
STUCK_DEPTH = 4
"""The probes and the best-first search take their turns only while the game's search
has searched out no first move of the first this many states on its path
(:func:`_win_phase`)."""
AHEAD_TURN = 2
"""The best-first search's states at a turn, in probes' states (:func:`_win_phase`)."""
AHEAD_CHUNK = 4096
"""States per call of the first phase's best-first search: it stops at its first win,
looked for after each call."""
UNBOUNDED = 1 << 40
"""A bound on a line's moves that no line reaches."""
MEMO_ROWS = 1 << 18
"""Rows of the relaxed game's memo (glossary of :mod:`~pyramide.solver.family_compiled`):
it starts afresh when half full."""
MEMO_POOL = 4
"""Memos kept for reuse (:class:`Memo`), ten megabytes each."""


class Memo:
    """The relaxed game's memo (glossary of :mod:`~pyramide.solver.family_compiled`),
    shared by the searches of one position: its ``rows``, and ``state`` — the rows
    in use and the generation — which a search carries in its control array while
    it runs (:meth:`lend`, :meth:`take_back`).

    The rows outlive the memo: once it is gone they return to a pool of
    :data:`MEMO_POOL`, and the next memo takes them under a new generation, so
    that nothing is cleared (ten megabytes for each deal of a win-rate sweep).

    >>> first = Memo(); rows, generation = first.rows, int(first.state[1])
    >>> del first
    >>> again = Memo()
    >>> again.rows is rows, int(again.state[1]) > generation
    (True, True)
    """

    _pool: ClassVar[list[tuple[Ints, int]]] = []
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self) -> None:
        with Memo._lock:
            rows, generation = Memo._pool.pop() if Memo._pool else (
                np.zeros((MEMO_ROWS, 5), dtype=np.int64), 0)
        self.rows: Ints = rows
        self.state: Ints = np.array([0, generation + 1], dtype=np.int64)
        weakref.finalize(self, Memo._give_back, rows, self.state)

    @staticmethod
    def _give_back(rows: Ints, state: Ints) -> None:
        with Memo._lock:
            if len(Memo._pool) < MEMO_POOL:
                Memo._pool.append((rows, int(state[1])))

    def lend(self, ctl: Ints) -> None:
        """Into a search's control array, before it runs."""
        ctl[MEMO_COUNT:MEMO_GEN + 1] = self.state

    def take_back(self, ctl: Ints) -> None:
        """Out of a search's control array, after it ran."""
        self.state[:] = ctl[MEMO_COUNT:MEMO_GEN + 1]


def covers(rules: Rules) -> bool:
    """True when this search can play ``rules``: a game whose talon it encodes (one
    waste pile, or several dealt one card each), one cell at most, every pile of
    cards in one word, and at most 15 cards of a worth.  Which games the game's
    solver sends here is :func:`pyramide.solver.api.family_rules`' choice."""
    talon = rules.deck - len(rules.tableau)
    piles_fit = rules.waste_piles <= 1 or (
        rules.redeals is not None and talon * rules.redeals <= 62)
    return ((rules.draw_count == 1 or rules.waste_piles <= 1)
            and rules.cells <= 1 and len(rules.tableau) <= 62 and talon <= 62 and piles_fit
            and _most_of_a_worth(rules) <= 15)  # (counts of a worth in 4 bits)


@cache
def _most_of_a_worth(rules: Rules) -> int:
    """The most cards of one worth in ``rules``' deck."""
    return max(Counter(kernel.worth(rules, card) for card in deck_cards(rules.deck)).values())


@cache
def _covering(tableau: Tableau) -> Ints:
    """The covering graph as the search reads it (module glossary: cover): for each
    slot, one bit a slot, the slots covering it; then those covering it at any
    depth; then those it covers at any depth; then those it covers."""
    n = len(tableau.slots)
    direct = [sum(1 << c for c in slot.covered_by) for slot in tableau.slots]
    above = list(direct)
    while True:  # (to the closure: each pass adds the next layer)
        grown = [a | _union(above, a) for a in above]
        if grown == above:
            break
        above = grown
    below = [sum(1 << t for t in range(n) if above[t] >> s & 1) for s in range(n)]
    under = [sum(1 << t for t in range(n) if direct[t] >> s & 1) for s in range(n)]
    return np.array(direct + above + below + under, dtype=np.int64)


@cache
def _pairs_table(rules: Rules) -> Ints:
    """Which worths pair, as the search reads it (module glossary of
    :mod:`~pyramide.solver.family_compiled`: pairs): the table, then each worth's
    one partner (-1: none, -2: several)."""
    table = [kernel.values_pair(rules, v, w) and v > 0 and w > 0
             for v in range(WORTHS) for w in range(WORTHS)]
    partner = []
    for v in range(WORTHS):
        mine = [w for w in range(WORTHS) if table[v * WORTHS + w]]
        partner.append(mine[0] if len(mine) == 1 else -1 if not mine else -2)
    return np.array(table + partner, dtype=np.int64)


def _union(masks: list[int], of: int) -> int:
    """The union of ``masks[i]`` over the bits ``i`` of ``of``."""
    union = 0
    while of:
        low = of & -of
        union |= masks[low.bit_length() - 1]
        of ^= low
    return union


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
    position: Position
    """The position encoded (the shortest line's macros play their talon moves
    back from it: :meth:`ShortestSearch.line`)."""

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
        left = None if rules.redeals is None else max(0, rules.redeals - pos.redeals_used)
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
        lay[BOTTOM], lay[CELLS] = rules.waste_bottom, rules.cells
        lay[WPAIRS] = WASTE_PAIRS.index(rules.waste_pairs)
        lay[PYR] = sum(1 << s for s in rules.tableau.pyramid_slots)
        lay[START_GONE] = gone(pos)
        lay[START_PRESENT] = bin(tab).count("1") + int(istab[-1] and cell is not None)
        lay[UNLIMITED_KEY] = rules.redeals is None
        closed_cycle = (piles == 1 and rules.redeals is None and not rules.open_stock
                        and rules.waste_pairs == "none" and not rules.waste_bottom)
        lay[CYCLE] = closed_cycle and rules.draw_count == 1
        lay[GRID] = closed_cycle and rules.draw_count > 1 and rules.cells == 0
        lay[DOMINATE] = piles == 1 and left is not None and left > 0
        lay[COVERING], lay[DRAWS] = rules.covering_pairs, rules.draw_count
        lay[RELAXED] = rules.cells == 0
        pairs = _pairs_table(rules)
        single = np.array([v in rules.single_values for v in range(WORTHS)], dtype=np.int64)
        lay[STRING] = (rules.win == "all" and piles == 1 and rules.draw_count == 1
                       and not rules.waste_bottom and rules.cells == 0)
        drawn = piles == 1 and bool(pos.waste) and pos.drawn and rules.drawn_matters
        state = np.array([tab, (1 << len(talon)) - 1, cut, 0,
                          len(cards) if cell is not None else 0, int(drawn)], dtype=np.int64)
        return cls(
            rules, cards, lay,
            _covering(rules.tableau).copy(),
            worth,
            pairs.copy(), single, istab, seqs, lens, state, pos.redeals_used, pos,
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
        drawn = piles == 1 and bool(st[5]) and rules.drawn_matters
        return (tableau, stock, wastes, cells, redeals, drawn)

    def scratch(self) -> tuple[Ints, Ints]:
        """A search's scratch vector and matrix (module glossary of
        :mod:`~pyramide.solver.family_compiled`, "scratch")."""
        return (np.zeros(buffer_size(self.lay), dtype=np.int64),
                np.zeros(words_shape(self.lay), dtype=np.int64))

    def children(self, st: Ints) -> list[tuple[Ints, Move]]:
        """Each legal move of ``st`` and the state after it (for the tests)."""
        out = np.zeros((ROOM, 7), dtype=np.int64)
        k = children(self.lay, self.cover, self.worth, self.pairs, self.single,
                     self.seqs, self.lens, st, out, self.scratch()[0])
        return [(out[i, :6].copy(), self.move(int(out[i, 6]))) for i in range(k)]


def _wider(table: Ints) -> Ints:
    """A transposition table twice as large, holding the rows of ``table``."""
    wider = np.zeros((2 * len(table), table.shape[1]), dtype=np.int64)
    rehash(table, wider)
    return wider


class _Chunked:
    """What the two searches share: run chunk by chunk from Python, the relaxed
    game's memo lent to each call, the transposition table and the other arrays
    grown where a chunk asks for room."""

    enc: Encoding
    ctl: Ints
    memo: Memo
    table: Ints

    def _chunk(self, chunk: int) -> int:
        """One call of the compiled search: what stopped it."""
        raise NotImplementedError

    def _grow(self, status: int) -> bool:
        """Grow the array that ``status`` asks room in (not the table); whether it
        asked for any."""
        raise NotImplementedError

    def run(self, chunk: int) -> int:
        """Search on for ``chunk`` states at most, growing the arrays as needed."""
        while True:
            self.memo.lend(self.ctl)
            status = self._chunk(chunk)
            self.memo.take_back(self.ctl)
            if status == GROW_TABLE:
                self.table = _wider(self.table)
            elif not self._grow(status):
                return status

    @property
    def nodes(self) -> int:
        return int(self.ctl[NODES])


class FamilySearch(_Chunked):
    """One depth-first decide search, run chunk by chunk from Python."""

    def __init__(self, enc: Encoding, nodes: int | None, *, win_only: bool,
                 memo: Memo | None = None) -> None:
        self.enc = enc
        enc.lay[WIN_ONLY] = win_only
        self.frames = np.zeros((256, FRAME), dtype=np.int64)
        self.line = np.zeros(256, dtype=np.int64)
        self.moves = np.zeros(16 * ROOM, dtype=np.int64)
        self.table = np.zeros((1 << 12, 4), dtype=np.int64)
        self.memo = Memo() if memo is None else memo
        self.stack = np.zeros((len(enc.cards) + 2, 4), dtype=np.int64)
        self.ctl = np.zeros(CTL, dtype=np.int64)
        self.ctl[BEST] = enc.lay[START_GONE]
        self.ctl[BUDGET] = -1 if nodes is None else nodes
        self.ctl[TOP] = -1
        self.buf, self.words = enc.scratch()
        e = enc
        start(e.lay, e.cover, e.worth, e.pairs, e.single, e.seqs, e.lens, e.state,
              self.frames, self.moves, self.table, self.ctl, self.buf)

    def _chunk(self, chunk: int) -> int:
        e = self.enc
        return int(run(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.seqs, e.lens,
                       self.frames, self.moves, self.table, self.ctl, self.line,
                       self.memo.rows, self.stack, self.buf, self.words, chunk))

    def _grow(self, status: int) -> bool:
        if status == GROW_FRAMES:
            self.frames = np.concatenate([self.frames, np.zeros_like(self.frames)])
            self.line = np.concatenate([self.line, np.zeros_like(self.line)])
        elif status == GROW_MOVES:
            self.moves = np.concatenate([self.moves, np.zeros_like(self.moves)])
        else:
            return False
        return True

    @property
    def best(self) -> int:
        return int(self.ctl[BEST])

    @property
    def turned(self) -> int:
        """The depth of the first state on the search's path whose first move has
        been searched out (the path's length when there is none)."""
        depth = int(self.ctl[DEPTH])
        tried = self.frames[:depth, 8]
        later = np.flatnonzero(tried > 1)
        return int(later[0]) if len(later) else depth

    def best_line(self, start: Position) -> list[Move]:
        """The line to the best state found, from the position ``start`` it was
        encoded from.  Where every cut is one state (glossary: unlimited redeals,
        one closed waste pile), each talon card a move takes is first brought to
        the waste top by draws and recycles, played by the kernel."""
        rules, pos = self.enc.rules, start
        line: list[Move] = []
        for code in self.line[:self.ctl[BEST_LEN]]:
            move = self.enc.move(int(code))
            if self.enc.lay[CYCLE] or self.enc.lay[GRID]:
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
                  win_only: bool = False, ceiling: int | None = None) -> KernelResult:
    """The kernel search's decide (:func:`kernel_search.decide_kernel`), compiled:
    depth first, removals before draws, each position once.  First only the
    states that can still win are entered, up to the first win; where there is
    none, the rest of ``budget`` (a :class:`~budget.Budget`) looks for the most
    tableau cards gone, unless ``win_only``.  ``ceiling``, where given, is a bound
    on the tableau cards removable known from elsewhere (the classic sets'
    reduced model), below the whole tableau only when the start is lost."""
    removed = gone(position)
    if position.status == "won":
        return KernelResult(True, removed, True)
    top = min(len(rules.tableau), bound(rules, position))
    if ceiling is not None:
        top = min(top, ceiling)
    lost = hopeless(rules, position) or (ceiling is not None and ceiling < len(rules.tableau))
    if lost and (win_only or removed >= top):
        return KernelResult(False, removed, removed >= top, [], 0)
    began = time.monotonic()
    nodes = 0
    first: FamilySearch | None = None
    if not lost:
        win = _win_phase(rules, position, budget)
        first, nodes, timed_out = win.main, win.nodes, win.timed_out
        if win.status == WON:
            return KernelResult(True, win.best, True, win.line(), nodes, timed_out=timed_out)
        lost = win.status == COMPLETE
        rest = budget.left(nodes, time.monotonic() - began)
        if win_only or rest is None or win.best >= top:
            return KernelResult(False if lost else None, win.best,
                                win.best >= top or (lost and not win_only),
                                win.line(), nodes, timed_out=timed_out)
        budget = rest
    status, search, timed_out = _phase(rules, position, budget, win_only=False,
                                       top=top if lost else -1,
                                       memo=None if first is None else first.memo)
    won, complete = status == WON, status in (COMPLETE, TOPPED)
    winnable = True if won else (False if complete or lost else None)
    exact = won or search.best == top or complete
    return KernelResult(winnable, search.best, exact, search.best_line(position),
                        nodes + search.nodes, timed_out=timed_out)


@dataclass
class _WinPhase:
    status: int
    main: FamilySearch
    """The search in the game's order (its relaxed game's memo is everyone's)."""
    best: int
    """The most tableau cards gone (after a win, those its line leaves gone: where
    only the pyramid must go, cards of other zones may stay)."""
    line: Callable[[], list[Move]]
    """The line of the search that won, else of the one that got the most cards gone."""
    nodes: int
    timed_out: bool


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 …"""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return _luby(i - (1 << (k - 1)) + 1)


def _win_phase(rules: Rules, position: Position, budget: Budget) -> _WinPhase:
    """The first phase of :func:`decide_family` (only states that can still win).

    The depth-first search in the game's order settles most deals within its
    first :data:`FIRST_LOOK` states.  Where it does not, it is stuck below its
    first choices, so it goes on beside two other searches, turn about:

    - *probes*: searches of the same kind that take the removals of every state
      in a random order (a seeded generator, so the same budget gives the same
      answer), each in its own table, of :data:`PROBE_STATES` times Luby's
      sequence, one state in :data:`PROBE_SHARE` of the budget at most;
    - the *best-first* search (:class:`ShortestSearch` with no bound): the state
      nearest a win first, by the same estimate as the shortest line's, twice
      each probe's states at a turn, one state in :data:`BEST_FIRST_SHARE` of the
      budget at most.  Deep wins that the depth-first order misses (the two-deck
      games' wins, three passes of 47-59 cards) it mostly finds, and Cheops'
      (one pass).  It runs in games of a counted number of passes: with
      unlimited passes it found no win the others miss.  (In one-pass games it
      did not until the turn rule below: their losses, proven by searching
      everything out, need the whole budget, and it took part of it.)

    The game's search gets four times each probe's states between two turns, and
    the turn itself while it is no longer on the first move of one of its path's
    first :data:`STUCK_DEPTH` states: a search that leaves its first moves so soon
    is searching everything out, as a loss is proven, and needs the whole budget.
    A search that wins, or searches everything out, settles the deal.  Without a
    state count in ``budget`` only the game's search runs."""
    meter = budget.meter()
    enc = Encoding.of(rules, position)
    total = budget.nodes
    main = FamilySearch(enc, None, win_only=True)
    searches = [main]
    ahead: ShortestSearch | None = None
    probed, limit, probe = 0, FIRST_LOOK, 0
    passes = rules.redeals is not None  # (counted, one or more)
    ahead_share = total // BEST_FIRST_SHARE if total is not None and passes else 0

    def used() -> int:
        return main.nodes + probed + (ahead.nodes if ahead is not None else 0)

    def done(status: int, search: FamilySearch, timed_out: bool) -> _WinPhase:
        best = search if status == WON else max(searches, key=lambda s: s.best)
        return _WinPhase(status, main, best.best, lambda: best.best_line(position), used(),
                         timed_out)

    while True:
        main.ctl[BUDGET] = -1 if total is None else min(limit, total - used() + main.nodes)
        status, timed_out = _drive(main, meter)
        if status != EXHAUSTED or timed_out or total is None or used() >= total:
            return done(status, main, timed_out)
        probe += 1
        size = min(PROBE_STATES * _luby(probe), total - used())
        if main.turned < STUCK_DEPTH:  # searching out near its start: the turn is its
            limit = main.nodes + 4 * size
            continue
        room = min(AHEAD_TURN * size, ahead_share - (ahead.nodes if ahead else 0),
                   total - used())
        if room > 0:
            if ahead is None:
                ahead = ShortestSearch(Encoding.of(rules, position), None, UNBOUNDED,
                                       memo=main.memo)
            status, timed_out = _drive_ahead(ahead, room, meter)
            if status == WON:
                won_line = ahead.line()
                return _WinPhase(WON, main, gone(_played(rules, position, won_line)),
                                 functools.partial(list, won_line), used(), False)
            if status == COMPLETE or timed_out:
                return done(status, main, timed_out)
            size = min(size, total - used())
        if probed + size > total // PROBE_SHARE or size <= 0:  # the rest is the game's
            limit = total
            continue
        # (its own encoding: with several waste piles a search writes the talon's
        # order after each recycle into it, and the game's search, paused part way
        # down its path, reads its own there when it goes on)
        other = FamilySearch(Encoding.of(rules, position), size, win_only=True,
                             memo=main.memo)
        other.ctl[ORDER] = (probe * 0x9E3779B97F4A7C15) & ((1 << 62) - 1) | 1
        status, timed_out = _drive(other, meter)
        probed += other.nodes
        searches.append(other)
        if status in (WON, COMPLETE) or timed_out:
            return done(status, other, timed_out)
        limit = main.nodes + 4 * size


def _played(rules: Rules, position: Position, line: list[Move]) -> Position:
    """``position`` after the moves of ``line``, played by the kernel."""
    for move in line:
        position = kernel.apply(rules, position, move)
    return position


def _drive_ahead(search: ShortestSearch, states: int, meter: Meter) -> tuple[int, bool]:
    """Run the best-first search of :func:`_win_phase` for about ``states`` more
    states, until it wins or searches everything out or the wall-time guard of
    ``meter`` strikes: :data:`WON`, :data:`COMPLETE` or :data:`SPENT`, and
    whether the guard did."""
    end = search.nodes + states
    while search.nodes < end:
        status = search.run(min(AHEAD_CHUNK, end - search.nodes))
        if search.won:
            return WON, False
        if status == COMPLETE:
            return COMPLETE, False
        if meter.deadline is not None and time.monotonic() > meter.deadline:
            return SPENT, True
    return SPENT, False


def _drive(search: FamilySearch, meter: Meter) -> tuple[int, bool]:
    """Run ``search`` chunk by chunk until it stops or the wall-time guard of
    ``meter`` strikes: what stopped it, and whether the guard did."""
    while True:
        status = search.run(CHUNK)
        if status != SPENT:
            return status, False
        if meter.deadline is not None and time.monotonic() > meter.deadline:
            return status, True


def _phase(rules: Rules, position: Position, budget: Budget, *, win_only: bool,
           top: int, memo: Memo | None = None) -> tuple[int, FamilySearch, bool]:
    """One search within ``budget`` (with ``memo``, an earlier search's relaxed
    game's memo): what stopped it, the search, and whether the wall-time guard
    did."""
    meter = budget.meter()
    enc = Encoding.of(rules, position)
    if top >= 0:  # (given only where the start is lost)
        enc.lay[RELAXED] = 2
    search = FamilySearch(enc, budget.nodes, win_only=win_only, memo=memo)
    search.ctl[TOP] = top
    status, timed_out = _drive(search, meter)
    return status, search, timed_out


class ShortestSearch(_Chunked):
    """One best-first search for the fewest moves to a win (module glossary of
    :mod:`~pyramide.solver.family_compiled`, "the shortest line"), run chunk by
    chunk from Python, looking for a line shorter than ``bound`` moves; with a
    ``target``, to that many tableau cards gone instead (a lost position's most)."""

    def __init__(self, enc: Encoding, nodes: int | None, bound: int, target: int = 0, *,
                 memo: Memo | None = None) -> None:
        self.enc = enc
        enc.lay[WIN_ONLY], enc.lay[CYCLE], enc.lay[SHORT] = 1, 0, 1  # (every draw counts)
        enc.lay[GRID] = 0
        if target:  # the start is lost: so is every state, only the cards gone count
            enc.lay[WIN_ONLY], enc.lay[RELAXED], enc.lay[SHORT] = 0, 2, 2
        # rows for every state the budget allows, touched only as they are used (a
        # budget's worth of memory, kept untouched, costs nothing; growing by
        # copies would touch twice the rows and copy them); no budget: growing
        rows = 1 << 12 if nodes is None else nodes + 2 * ROOM
        self.nodes_ = np.empty((rows, NODE), dtype=np.int64)
        self.heap = np.empty(rows, dtype=np.int64)
        self.table = np.zeros((1 << 13, 4), dtype=np.int64)
        self.memo = Memo() if memo is None else memo
        self.stack = np.zeros((len(enc.cards) + 2, 4), dtype=np.int64)
        self.ctl = np.zeros(SCTL, dtype=np.int64)
        self.ctl[BUDGET] = -1 if nodes is None else nodes
        self.ctl[BOUND] = bound
        self.ctl[TARGET] = target
        self.buf, self.words = enc.scratch()
        e = enc
        shortest_start(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.state, self.nodes_,
                       self.heap, self.table, self.ctl, self.buf)

    def _chunk(self, chunk: int) -> int:
        e = self.enc
        return int(shortest_run(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.seqs,
                                e.lens, self.nodes_, self.heap, self.table, self.ctl,
                                self.memo.rows, self.stack, self.buf, self.words, chunk))

    def _grow(self, status: int) -> bool:
        if status != GROW_FRAMES:
            return False
        self.nodes_ = np.concatenate([self.nodes_, np.empty_like(self.nodes_)])
        self.heap = np.concatenate([self.heap, np.empty_like(self.heap)])
        return True

    @property
    def won(self) -> bool:
        """Whether a line was found (a win; with a ``target``, that many cards gone)."""
        return int(self.ctl[GOAL]) > 0

    def line(self) -> list[Move]:
        """The best line found (empty when none beat the bound): each stored move's
        talon moves first (module glossary of
        :mod:`~pyramide.solver.family_compiled`, "the shortest line": a draw while
        the stock holds cards, else the recycle), then the move."""
        codes: list[int] = []
        row = int(self.ctl[GOAL])
        while row > 0:
            codes.append(int(self.nodes_[row, 5]))
            row = int(self.nodes_[row, 4])
        rules, pos = self.enc.rules, self.enc.position
        line: list[Move] = []
        for code in reversed(codes):
            for _ in range(code >> VIA_AT):
                talon_move = DRAW if pos.stock else RECYCLE
                line.append(talon_move)
                pos = kernel.apply(rules, pos, talon_move)
            move = self.enc.move(code & ((1 << VIA_AT) - 1))
            line.append(move)
            pos = kernel.apply(rules, pos, move)
        return line


SHORTEST_CHUNK = 1 << 14
"""States per call of the shortest-line search between two looks at the clock."""


def shortest_family(rules: Rules, position: Position, budget: Budget, *,
                    ceiling: int | None = None) -> KernelResult:
    """The fewest moves to a win: the decide search's line first (tightened,
    :func:`~pyramide.solver.lines.tighten`), then the best-first search for a
    shorter one, each within ``budget``; ``shortest``
    when that search ran out of states to look at.  A position proven lost gets
    the fewest moves to its most tableau cards removable the same way; one not
    decided, the decide search's answer."""
    found = decide_family(rules, position, budget, ceiling=ceiling)
    if found.winnable is None or (found.winnable is False and not found.exact):
        return found
    target = 0 if found.winnable else found.max_removed
    if not found.line:  # (lost, nothing to remove: the empty line is the shortest)
        return replace(found, shortest=found.winnable is False)
    found = replace(found, line=tighten(rules, position, found.line))
    meter = budget.meter()
    search = ShortestSearch(Encoding.of(rules, position), budget.nodes, len(found.line),
                            target)
    while True:  # (the clock first: a search may end within one chunk)
        if meter.deadline is not None and time.monotonic() > meter.deadline:
            meter.timed_out, status = True, SPENT
            break
        status = search.run(SHORTEST_CHUNK)
        if status != SPENT:
            break
    line = search.line() or found.line
    return KernelResult(found.winnable, found.max_removed, True, line,
                        found.nodes + search.nodes, shortest=status == COMPLETE,
                        timed_out=found.timed_out or meter.timed_out)


def warm_up() -> None:
    """Compile (or load from numba's cache) the search, on a tiny position."""
    from pyramide.deals import Deal
    from pyramide.games import PRESETS

    rules = PRESETS["S"]
    decide_family(rules, kernel.initial(rules, Deal.from_number(0, rules.deck).cards),
                  Budget(nodes=50, seconds=None))
