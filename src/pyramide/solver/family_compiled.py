"""The compiled decide search of the family's games (rule book §11), with numba:
the search itself (its driver, and the encoding of a position, are
:mod:`pyramide.solver.family_search`).

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
cover     the covering graph, four masks a slot: ``cover[s]``, the slots covering
          slot ``s``; ``cover[n + s]``, those covering it at any depth;
          ``cover[2n + s]``, those it covers at any depth; ``cover[3n + s]``,
          those it covers.  Two slots neither
          of which covers the other at any depth are *apart*: only cards in
          slots apart can be free at once, and so pair (:func:`_apart`).
tal       the talon cards still in play, one bit per talon card.
pairs     which worths pair: ``pairs[v * WORTHS + w]``; past that table, at
          :data:`PARTNER_AT`, each worth's one partner (-1: none, -2: several).
sequence  the talon in dealing order for the current pass: ``seqs[level, i]``
          is the talon card at place ``i`` (-1: none).  The places before
          ``cut`` are dealt (place ``i`` lies on waste pile ``i mod piles``,
          the later places above the earlier), the places from ``cut`` on are
          the stock, the first one on top.  With one waste pile the sequence
          never changes (a recycle turns the pile over as it was dealt); with
          several, a recycle gathers the piles into a new sequence (level + 1).
state     tab, tal, cut, the redeals used, the cell (its card's id + 1, 0 when
          empty) and ``hist``: with several piles, the tal of each earlier
          recycle, which names the sequence of the current level; with one, 1
          while the top waste card is the card just drawn (the kernel's
          ``drawn``) where the waste pairs ask it (:data:`WP_DRAWN`,
          :data:`WP_HAND`), else 0.
hand      under :data:`WP_HAND` the drawn card is in hand and the waste top
          free beside it: as far as winning goes, the game of an open stock
          whose top card is the drawn card (or, none drawn, the stock's top
          card: drawing it buries nothing).  The prunings look at a state so
          (:func:`_as_open`).
grid      with unlimited redeals, one closed waste pile, several cards a draw
          and nothing else that plays from the talon (``lay[GRID]``, Tut's
          Tomb): the cuts a fresh pass stops at — after each draw from the
          turned-over stock, the last one dealing what is left — are a draw or a
          recycle from one another, so while searching they are one state, cut
          0, whose free talon cards are the waste tops of them all (the
          ``k``-th, ``2k``-th, … card of the talon and its last).  A state off
          the grid (a card was taken between two draws) is searched as it is;
          a draw from it may bring it onto the grid (:func:`_on_grid`).
drawn past in the shortest line's search, a state that a stored state of the
          same tableau, talon and cell reaches by talon moves (draws on, or the
          rest of the stock, the recycle and draws on; one waste pile, one card
          a draw, the talon's order kept) in no more moves, with no more redeals
          used and the same ``hist`` after them: that state can do all this one
          can, so this one is not searched (:func:`_drawn_past`).  Its table
          places a key by the tableau, talon and cell alone
          (:data:`SIDE_BY_SIDE`), so one scan finds every cut of them.
dominated a state met before with fewer redeals used (``lay[DOMINATE]``: a
          limited number of redeals and one waste pile, so that the talon's
          order is the same) can do all this one can, and more: this one is
          not entered (:func:`_dominated`).
key       the state as four words for the transposition table: with one pile
          the cut is brought down to just above the top waste card (the
          positions are the same), and unlimited redeals are not counted.  The
          shortest line's table keeps a row's g in the third word's bits
          :data:`G_BITS` (a row of four words: two to a cache line).
gone      tableau cards gone for good (the kernel's score over 10).
move      ``kind | (a + 1) << 4 | (b + 1) << 12``: a card alone, a pair, a card
          into the cell, a draw or a recycle (:data:`SINGLE` … :data:`RECYCLE`).
          A draw deals ``lay[DRAWS]`` cards onto one waste pile, or one card onto
          each of several; a covering pair (``lay[COVERING]``) is a tableau card
          and the one free card still covering it.
frame     one state on the depth-first path: the state, its moves (a range of
          the move stack), the next one to try, and the move that led to it.
chunk     the search runs a bounded number of states per call and returns, so
          that the caller keeps the budget's clock and grows the arrays.
relaxed   the relaxed game (``lay[RELAXED]`` 1; not with cells; 2 when the start is
          known lost, so that every state is and nothing needs a look): every talon card is
          always at hand, so that only their worths count.  A state whose
          relaxed game cannot clear the pyramid (under a whole-deck win: the
          tableau, leaving talon cards that could pair off) cannot win (the real talon is
          harder to reach, and pairs inside it only spend cards); the answers
          are kept in ``memo`` under (tab, the talon's worth counts).
fewest    the pyramid game (:func:`_fewest`, where the pyramid is the whole
          tableau, the pyramid alone must go and there is no cell): the pyramid's
          cards only, each free card free to go with a card from outside it at
          any time.  Its fewest removals to clear the pyramid bound the real
          game's (where two pyramid cards can go together only while both are
          free), beside the partner counts of :func:`_estimate`; the answers
          depend on the pyramid alone and are kept for each deal.  Toward a
          number of cards gone (a lost position's line, :func:`_goal_fewest`):
          the fewest removals to that many, and the fewest of those cards that
          must go with a talon card (the digging toward them, :func:`_dig`).
tableau cache  in the shortest line's search, what the tableau and the cell alone
          decide, kept for the last tableau and cell met at each of its rows
          (``tc``, :data:`TC_SIZE`): the removals still needed
          (:func:`_toward`, not under a whole-deck win, whose estimate counts the
          talon), the dig's room and needed partners (:func:`_dig_needs`) and,
          toward a number of cards gone, its partners.  A search meets each
          tableau at many cuts and redeals; the cache answers all but the first
          (started afresh by each search: the answers are its own).
matched   under a whole-deck win with no talon and no cell, every card goes alone
          or with a card apart from it, so the cards of each class (a worth and
          its one partner worth) must match two by two, each pair apart: where
          Hall's condition fails for some of a worth's cards (fewer partner
          cards apart from them than they are), the tableau cannot be cleared
          (:func:`_unmatched`).
memo      the relaxed game's answers, kept by a deal's searches together (rows of
          k0, k1, a tag naming the answer, the generation, the answer).  A row
          counts only in the memo's current generation (``ctl[MEMO_GEN]``): the
          memo is reused from deal to deal, and once half full it starts afresh,
          by a new generation each time, not by clearing it (ten megabytes).
counts    the talon's worth counts, 4 bits per worth.
string    the talon as one string of cards: the waste from the bottom up, then the
          stock from the top down (with one waste pile, the places in order, and
          a recycle keeps it).  Two talon cards pair only as neighbours in it
          (the waste top and the open stock top, or the two top waste cards), so
          the pairs they make in a game nest like brackets; in the last pass
          never two cards of the waste.  Under a whole-deck win
          (``lay[STRING]``) each card left out of those pairs needs a tableau
          card of a partner worth (:func:`_string_clears`).
top       ``ctl[TOP]``: where the start is known to be lost, the most tableau
          cards any line can remove (-1: not given); the search stops when its
          best meets it (:data:`TOPPED`): nothing better is left to find.
scratch   the room a search works in, made once by its driver and handed to
          each chunk: a vector (``buf``, parts at :data:`BUF_ST` …, of
          :func:`buffer_size`) and a matrix for the string's pairs (``words``,
          :func:`words_shape`).  No compiled function makes an array, so none
          needs numba's reference counts, and they are compiled without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from pyramide.solver import native

__all__ = ["children", "rehash", "run", "shortest_run", "shortest_start", "start"]

Fn = TypeVar("Fn", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]

SOURCE_HASH = native.source_hash(__file__)
"""Names this file's text (:func:`native.source_hash`)."""
AOT_MODULE = "pyramide.solver._family_aot"
"""This module's entry points compiled ahead of time (:mod:`pyramide.solver.aot`,
built by ``scripts/setup.sh``): loading them takes milliseconds and needs no numba."""
ENTRY_POINTS = ("start", "run", "children", "rehash", "shortest_start", "shortest_run")


AOT = native.load_ahead_of_time(AOT_MODULE, SOURCE_HASH)


def jit(fn: Fn, inline: str = "never") -> Fn:
    """Compile ``fn`` with numba (:func:`native.njit`: cached on disk, without
    reference counts — glossary: scratch); with the ahead-of-time module loaded
    the functions stay plain Python (the entry points are the module's, see the
    end of this file) and numba is not imported."""
    if AOT is not None:
        return fn
    return native.njit(fn, inline=inline)


def small(fn: Fn) -> Fn:
    """:func:`jit`, inlined where it is called (a helper of a few lines)."""
    return jit(fn, inline="always")


SINGLE, PAIR, CELL, DRAW_MOVE, RECYCLE_MOVE = 1, 2, 3, 4, 5
WP_NONE, WP_DRAWN, WP_HAND, WP_ALWAYS = range(4)
"""``lay[WPAIRS]``: the rules' ``waste_pairs``, by its place in
:data:`pyramide.rules.WASTE_PAIRS`."""
FRAME = 10  # tab, tal, cut, red, cell, hist, first move, end of moves, next move, via
ROOM = 2048  # more than the moves of one state
WORTHS = 14
PARTNER_AT = WORTHS * WORTHS  # where the pairs' table keeps each worth's one partner
CNT_ROWS = 6  # the rows of WORTHS that :func:`_dig` counts in
# where each part of the scratch vector begins (:func:`buffer_size`): a state, a
# child state, a state on the way to a macro's move (the shortest line's), _prune's
# counts (3 rows of WORTHS), _dig's (CNT_ROWS rows), then
# the free cards (n + t + 2), the talon's costs (t, at least 1), _fewest's room
# (FEW_SIZE) and a state's moves
BUF_ST, BUF_CHILD, BUF_VIA, BUF_WORK, BUF_CNT = 0, 8, 16, 24, 72
BUF_FREE = BUF_CNT + CNT_ROWS * WORTHS
# the flags of the layout array
N, T, PILES, REDEALS, WIN_ALL, OPEN, BOTTOM, WPAIRS, PYR, CELLS = range(10)
START_GONE, START_PRESENT, WIN_ONLY, UNLIMITED_KEY, CYCLE, SEARCHING = range(10, 16)
COVERING, DRAWS, RELAXED, SHORT, STRING, GRID, DOMINATE, FLAGS = range(16, 24)
# the scalars of the control array
DEPTH, NODES, BEST, COUNT, BEST_LEN, BUDGET, TOP, MEMO_COUNT, MEMO_GEN, ORDER, CTL = range(11)
# what a chunk returns
COMPLETE, WON, SPENT, EXHAUSTED, GROW_TABLE, GROW_FRAMES, GROW_MOVES, TOPPED = range(8)
HASH = 0x5851F42D4C957F2D
RED_SHIFT = 8  # where a key's third word holds the redeals used (:func:`_key`)
PLACE_BITS = 0xFFFF  # a key's third word: the cut and the redeals used
SIDE_BY_SIDE = 1 << 41  # in a key's third word: a key of the shortest line's table
G_AT = 24  # the shortest line's table keeps a row's g in its third word, at these bits:
G_BITS = 0xFFFF << G_AT  # (no key has any: cut, redeals and cell take bits 0-23)
RELAXED_EFFORT = 1024  # steps of the relaxed game per state of the search, at most
# _fewest's room in the scratch vector: its path (FEW_DEPTH rows of 3), the count of
# pyramids it knows, then their answers (FEW_ROWS rows of 2: the pyramid, its answer)
FEW_DEPTH, FEW_ROWS = 64, 4096
FEW_COUNT = 3 * FEW_DEPTH
FEW_TABLE = FEW_COUNT + 1
FEW_SIZE = FEW_TABLE + 2 * FEW_ROWS
WILD = (1 << (4 * WORTHS)) - 1  # talon worth counts that never run out (every worth: 15)
# _goal_fewest's room, past a state's moves in the scratch vector of a search toward a
# number of cards gone (lay[SHORT] 2): the count of pyramids it knows, its path
# (GOAL_DEPTH rows of 4), its pyramids (GOAL_KEYS rows of 2: the pyramid, its row +
# 1), then for each row the fewest moves and the fewest talon partners toward each
# number of cards still to go (GOAL_WIDE each)
GOAL_DEPTH, GOAL_KEYS, GOAL_ROWS, GOAL_WIDE = 64, 4096, 2048, 32
GOAL_STACK = 1
GOAL_TABLE = GOAL_STACK + 4 * GOAL_DEPTH
GOAL_VALUES = GOAL_TABLE + 2 * GOAL_KEYS
GOAL_SIZE = GOAL_VALUES + 2 * GOAL_ROWS * GOAL_WIDE
# the tableau cache's room, last in the scratch vector of a shortest-line search
# (glossary: tableau cache): TC_ROWS rows of the tableau, the cell, what the row
# holds (TC_* bits), the removals still needed, the talon partners still needed
# toward a number of cards gone, then _dig_needs's room and need (WORTHS each);
# after the rows, the deal's talon cards of each worth
TC_ROWS, TC_WIDE = 4096, 5 + 2 * WORTHS
TC_MASKS = TC_ROWS * TC_WIDE  # then the talon cards of each worth (WORTHS bit masks)
TC_SIZE = TC_MASKS + WORTHS
TC_HELD, TC_TOWARD, TC_NEEDS, TC_PARTNERS = 1, 2, 4, 8


@small
def _cost_at(lay: Ints) -> int:
    """Where the talon's costs (:func:`_dig`) begin in the scratch vector: after
    the free cards."""
    return int(BUF_FREE + lay[N] + lay[T] + 2)


@small
def _few_at(lay: Ints) -> int:
    """Where :func:`_fewest`'s room begins in the scratch vector: after the talon's
    costs."""
    return _cost_at(lay) + max(1, int(lay[T]))


@small
def _moves_at(lay: Ints) -> int:
    """Where a state's moves begin in the scratch vector: after :func:`_fewest`'s
    room."""
    return _few_at(lay) + FEW_SIZE


@small
def _tc_at(lay: Ints) -> int:
    """Where the tableau cache begins in a shortest-line search's scratch vector:
    after a state's moves and :func:`_goal_fewest`'s room."""
    return _moves_at(lay) + ROOM + (GOAL_SIZE if lay[SHORT] == 2 else 0)


def buffer_size(lay: Ints) -> int:
    """The length of a search's scratch vector (glossary: scratch)."""
    return int(_tc_at(lay)) + (TC_SIZE if lay[SHORT] else 0)


def words_shape(lay: Ints) -> tuple[int, int]:
    """The shape of a search's scratch matrix: :func:`_meetings`'s memo of the
    talon's ``t`` cards (``2 t + 2`` rows of ``t + 2``), and a row for the word."""
    t = int(lay[T])
    return 2 * t + 3, t + 2


# ------------------------------------------------------------------- bits


@small
def _put(dst: Ints, src: Ints) -> None:
    """Copy a state (its six words) from ``src`` to ``dst``: a slice assignment
    would want numba's reference counts (glossary: scratch)."""
    for i in range(6):
        dst[i] = src[i]


@small
def _bits(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@small
def _top_bit(x: int) -> int:
    n = -1
    while x:
        x >>= 1
        n += 1
    return n


# ------------------------------------------------------------- the talon


@small
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


@small
def _stock_top(seq: Ints, length: int, tal: int, cut: int) -> int:
    """The place of the stock's top card (-1: the stock is empty)."""
    for i in range(cut, length):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            return i
    return -1


@small
def _waste_count(seq: Ints, tal: int, cut: int, pile: int, piles: int) -> int:
    n = 0
    for i in range(pile, cut, piles):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            n += 1
    return n


@small
def _pile_bottom(seq: Ints, tal: int, cut: int) -> int:
    for i in range(0, cut, 1):
        t = seq[i]
        if t >= 0 and (tal >> t) & 1:
            return i
    return -1


@small
def _grid_mode(lay: Ints) -> bool:
    return bool(lay[GRID] and lay[SEARCHING])


@small
def _grid_state(lay: Ints, st: Ints) -> bool:
    """True for the one state the search keeps for a grid's cuts (glossary: grid)."""
    return _grid_mode(lay) and st[2] == 0


@small
def _stops_at(lay: Ints, dealt: int, total: int) -> bool:
    """True when a fresh pass stops with ``dealt`` of the ``total`` talon cards
    dealt: a whole number of draws, or all of them."""
    return dealt % lay[DRAWS] == 0 or dealt == total


@small
def _on_grid(lay: Ints, st: Ints) -> bool:
    """True when ``st``'s cut is one a fresh pass stops at (glossary: grid)."""
    tal = st[1]
    return _stops_at(lay, _bits(tal & ((1 << st[2]) - 1)), _bits(tal))


# ----------------------------------------------------------- observation


@small
def _coverer(cover: Ints, tab: int, s: int) -> int:
    """The slot of the one card still covering slot ``s``, where it is free (the
    other half of a covering pair); -1 otherwise."""
    over = tab & cover[s]
    if over == 0 or (over & (over - 1)) != 0:
        return -1
    c = _top_bit(over)
    return c if (tab & cover[c]) == 0 else -1


@small
def _partner(pairs: Ints, v: int) -> int:
    """The one worth that pairs with worth ``v``; -1 when none does, -2 when several
    (kept past the table, at :data:`PARTNER_AT`)."""
    return int(pairs[PARTNER_AT + v])


@small
def _pairs_any(pairs: Ints, v: int) -> bool:
    """Whether a card of worth ``v`` pairs with any worth."""
    return bool(pairs[v * WORTHS:(v + 1) * WORTHS].any())


@small
def _partners(pairs: Ints, counts: Ints, v: int) -> int:
    """The cards among ``counts`` (a count per worth) that could pair with a card of
    worth ``v``."""
    partner = pairs[PARTNER_AT + v]
    if partner != -2:
        return int(counts[partner]) if partner >= 0 else 0
    total = 0
    for w in range(WORTHS):
        if pairs[v * WORTHS + w]:
            total += counts[w]
    return int(total)


@jit
def _free(lay: Ints, cover: Ints, worth: Ints, seqs: Ints, lens: Ints, st: Ints,
          out: Ints) -> tuple[int, int]:
    """The free cards' ids into ``out`` (tableau, waste tops, waste bottom, open
    stock top, cell); returns their number and the open stock top's id (-1)."""
    return _free_talon(lay, worth, seqs, lens, st, out, _free_tableau(lay, cover, st, out))


@small
def _free_tableau(lay: Ints, cover: Ints, st: Ints, out: Ints) -> int:
    """The free tableau cards' slots into ``out``; returns their number."""
    tab, k = st[0], 0
    for s in range(lay[N]):
        if (tab >> s) & 1 and (tab & cover[s]) == 0:
            out[k] = s
            k += 1
    return k


@jit
def _free_talon(lay: Ints, worth: Ints, seqs: Ints, lens: Ints, st: Ints, out: Ints,
                k: int) -> tuple[int, int]:
    """:func:`_free` past its ``k`` free tableau cards (in ``out`` already): the
    free talon cards, then the cell's card."""
    n, piles = lay[N], lay[PILES]
    tal, cut, red, cell = st[1], st[2], st[3], st[4]
    open_top = -1
    if _grid_state(lay, st):  # the waste tops of every cut a pass stops at
        m, i = _bits(tal), 0
        for t in range(lay[T]):
            if (tal >> t) & 1:
                i += 1
                if _stops_at(lay, i, m):
                    out[k] = n + t
                    k += 1
    elif lay[CYCLE] and lay[SEARCHING]:
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
        if lay[WPAIRS] == WP_HAND and st[5]:  # the waste top beside the drawn card
            i = _pile_top(seq, tal, cut, 0, piles, 1)
            if i >= 0:
                out[k] = n + seq[i]
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
    at once loses nothing) — but for a talon card only under draw one: with
    several cards a draw, the card left in the waste shifts the later draws; and
    in the shortest-line search (``lay[SHORT]`` 1) only for a card the win must
    remove: a pyramid card, or any under a whole-deck win; in the search for
    the most tableau cards gone (``lay[SHORT]`` 2), only for a tableau card."""
    nfree, open_top = _free(lay, cover, worth, seqs, lens, st, free)
    return _moves_of(lay, cover, worth, pairs, single, seqs, lens, st, free, nfree, open_top,
                     out, at, safe, False)


@jit
def _moves_of(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
              lens: Ints, st: Ints, free: Ints, nfree: int, open_top: int, out: Ints, at: int,
              safe: bool, talon_only: bool) -> int:
    """:func:`_moves` of the free cards ``free[:nfree]`` (:func:`_free`); with
    ``talon_only``, only the moves that take a talon card or put one into the cell,
    and the talon move, in the same order — and none at all where a safe move
    takes a tableau card alone (the shortest line's macros after a talon move)."""
    cycle = (lay[CYCLE] and lay[SEARCHING]) or _grid_state(lay, st)
    n, talon_end = lay[N], lay[N] + lay[T]
    k = at
    for i in range(nfree):
        v = worth[free[i]]
        if single[v]:
            kept = not talon_only or n <= free[i] < talon_end
            if (safe and not _pairs_any(pairs, v)
                    and (free[i] < n or lay[DRAWS] == 1)
                    and (not lay[SHORT] or (lay[SHORT] == 1 and lay[WIN_ALL])
                         or (free[i] < n and (lay[SHORT] == 2 or (lay[PYR] >> free[i]) & 1)))):
                if not kept:
                    return at
                out[at] = SINGLE | (free[i] + 1) << 4
                return at + 1
            if kept:
                out[k] = SINGLE | (free[i] + 1) << 4
                k += 1
    for i in range(nfree):
        wa = worth[free[i]]
        talon_i = n <= free[i] < talon_end
        for j in range(i + 1, nfree):
            if cycle and talon_i and n <= free[j] < talon_end:
                continue  # one talon card at a time on the waste
            if talon_only and not talon_i and not n <= free[j] < talon_end:
                continue
            if pairs[wa * WORTHS + worth[free[j]]] and free[i] != free[j]:
                out[k] = PAIR | (free[i] + 1) << 4 | (free[j] + 1) << 12
                k += 1
    if lay[COVERING] and not talon_only:  # a card and the one free card that still covers it
        tab = st[0]
        for s in range(n):
            c = _coverer(cover, tab, s) if (tab >> s) & 1 else -1
            if c >= 0 and pairs[worth[s] * WORTHS + worth[c]]:
                out[k] = PAIR | (s + 1) << 4 | (c + 1) << 12
                k += 1
    tal, cut, red, cell = st[1], st[2], st[3], st[4]
    piles = lay[PILES]
    level = red if piles > 1 else 0
    if (lay[WPAIRS] == WP_ALWAYS or (lay[WPAIRS] == WP_DRAWN and st[5])) and lay[T] > 0:
        seq = seqs[level]
        i = _pile_top(seq, tal, cut, 0, piles, 0)
        j = _pile_top(seq, tal, cut, 0, piles, 1)
        if j >= 0 and pairs[worth[n + seq[i]] * WORTHS + worth[n + seq[j]]]:
            out[k] = PAIR | (n + seq[i] + 1) << 4 | (n + seq[j] + 1) << 12
            k += 1
    if lay[CELLS] > 0 and cell == 0:
        for i in range(nfree):
            if talon_only and not n <= free[i] < talon_end:
                continue
            if free[i] != open_top and not single[worth[free[i]]]:
                out[k] = CELL | (free[i] + 1) << 4
                k += 1
    step = _talon_move(lay, seqs, lens, st)
    if step:
        out[k] = step
        k += 1
    return k


@small
def _talon_move(lay: Ints, seqs: Ints, lens: Ints, st: Ints) -> int:
    """The talon move of ``st``: the draw, the recycle (the stock is empty: every
    talon card left is waste), or 0 (neither)."""
    if lay[T] == 0 or (lay[CYCLE] and lay[SEARCHING]) or _grid_state(lay, st):
        return 0
    level = st[3] if lay[PILES] > 1 else 0
    if _stock_top(seqs[level], lens[level], st[1], st[2]) >= 0:
        return DRAW_MOVE
    if (lay[REDEALS] < 0 or st[3] < lay[REDEALS]) and st[1] != 0:
        return RECYCLE_MOVE
    return 0


@small
def _talon_idle(lay: Ints, worth: Ints, pairs: Ints, single: Ints, free: Ints,
                nfree: int) -> bool:
    """True when, by a quick look, no move but the talon move of the state whose
    free cards are ``free[:nfree]`` (:func:`_free`) touches a talon card: no free
    talon card goes alone or has a partner worth among the free cards (False:
    there may be one; always so with waste pairs or cells)."""
    if lay[WPAIRS] != WP_NONE or lay[CELLS] > 0:
        return False
    n, end, mask = lay[N], lay[N] + lay[T], 0
    for i in range(nfree):
        mask |= 1 << worth[free[i]]
    for i in range(nfree):
        c = free[i]
        if n <= c < end:
            v = worth[c]
            p = _partner(pairs, v)
            if single[v] or p == -2 or (p >= 0 and (mask >> p) & 1):
                return False
    return True


# ---------------------------------------------------------------- acting


@small
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
    if kind <= CELL:  # a card alone, a pair, or a card into the cell
        if _grid_state(lay, st):  # a talon card is taken from the waste top
            for c in (a, b):
                if lay[N] <= c < lay[N] + tcount:
                    st[2] = c - lay[N] + 1
        _take(lay, st, a)
        if kind == CELL:
            st[4] = a + 1
        elif b >= 0:
            _take(lay, st, b)
        if st[5] and piles == 1 and not (st[1] >> seqs[0, st[2] - 1]) & 1:
            st[5] = 0  # the drawn card is gone
    elif kind == DRAW_MOVE:
        level = st[3] if piles > 1 else 0
        seq, tal, cut = seqs[level], st[1], st[2]
        if piles == 1:  # (the stock is never empty here)
            for _ in range(lay[DRAWS]):
                i = _stock_top(seq, lens[level], tal, cut)
                if i < 0:
                    break
                cut = i + 1
            st[2] = cut
            if lay[WPAIRS] == WP_DRAWN or lay[WPAIRS] == WP_HAND:
                st[5] = 1
        else:
            st[2] = min(cut + piles, lens[level])
    else:  # the recycle
        red = st[3]
        if piles == 1:
            st[2] = 0
            st[5] = 0
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
        if _grid_mode(lay) and _on_grid(lay, st):
            st[2] = 0


@jit
def _levels(lay: Ints, seqs: Ints, lens: Ints, st: Ints) -> None:
    """With several waste piles, make the sequences of levels 1 … ``red`` those of
    ``st``'s own past again, from ``hist``: a recycle gathers the cards left then,
    so each level depends on the line that led to it.  A depth-first search keeps
    them right along its path; a search that takes states of many lines in turn
    (the shortest line's, the tests') calls this first."""
    piles, tcount = lay[PILES], lay[T]
    mask = (1 << tcount) - 1
    for r in range(st[3]):
        tal = (st[5] >> (tcount * r)) & mask
        seq, new = seqs[r], seqs[r + 1]
        m = 0
        for p in range(piles - 1, -1, -1):
            for i in range(p, lens[r], piles):
                t = seq[i]
                if t >= 0 and (tal >> t) & 1:
                    new[m] = t
                    m += 1
        lens[r + 1] = m


# ------------------------------------------------------------ judging


@small
def _present(lay: Ints, istab: Ints, st: Ints) -> int:
    """Tableau cards still in play (in the tableau or parked in the cell)."""
    cell = st[4]
    return _bits(st[0]) + (1 if cell > 0 and istab[cell - 1] else 0)


@small
def _gone(lay: Ints, istab: Ints, st: Ints) -> int:
    return int(lay[START_GONE] + lay[START_PRESENT] - _present(lay, istab, st))


@small
def _won(lay: Ints, istab: Ints, st: Ints) -> bool:
    cell = st[4]
    if (st[0] & lay[PYR]) != 0 or (cell > 0 and istab[cell - 1]):
        return False
    return not lay[WIN_ALL] or (st[0] == 0 and st[1] == 0 and cell == 0)


@jit
def _stuck(lay: Ints, worth: Ints, pairs: Ints, single: Ints, st: Ints) -> int:
    """The worths ``v`` (bit ``v``) of which a card is in play and can never go
    (not alone, no partner left)."""
    counts = 0  # 4 bits a worth (at most eight cards of a worth, two decks)
    n = lay[N]
    for s in range(n):
        if (st[0] >> s) & 1:
            counts += 1 << (4 * worth[s])
    for t in range(lay[T]):
        if (st[1] >> t) & 1:
            counts += 1 << (4 * worth[n + t])
    if st[4] > 0:
        counts += 1 << (4 * worth[st[4] - 1])
    stuck = 0
    for v in range(WORTHS):
        if (counts >> (4 * v)) & 15 and not single[v]:
            stuck |= 1 << v
            for w in range(WORTHS):
                if pairs[v * WORTHS + w] and (counts >> (4 * w)) & 15 > (1 if w == v else 0):
                    stuck &= ~(1 << v)
                    break
    return stuck


@small
def _matching(lay: Ints) -> bool:
    """Whether the classes must be matched (glossary: matched): a whole-deck win, no
    talon, no cell, no covering pairs."""
    return bool(lay[WIN_ALL] and lay[T] == 0 and lay[CELLS] == 0 and not lay[COVERING])


@jit
def _unmatched(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints,
               tab: int) -> bool:
    """True when the tableau ``tab`` cannot be cleared because some class cannot be
    matched (glossary: matched): a game with no talon, no cell and no covering
    pairs, where every card goes alone or with a card apart from it.  Each worth
    ``v`` with one partner ``w`` (not ``v``) needs its cards matched with ``w``'s,
    two by two apart; Hall's condition from ``v``'s side is checked for every
    set of its cards (at most eight)."""
    n = lay[N]
    for v in range(WORTHS):
        w = _partner(pairs, v)
        if single[v] or w <= v or single[w] or _partner(pairs, w) != v:
            continue  # (each class once, from its smaller worth)
        mine, theirs = 0, 0
        for s in range(n):
            if (tab >> s) & 1:
                if worth[s] == v:
                    mine |= 1 << s
                elif worth[s] == w:
                    theirs |= 1 << s
        if _bits(mine) != _bits(theirs):
            return True  # (a card of the larger side is left over)
        sub = mine
        while sub:
            near = 0
            rest = sub
            while rest:
                a = _top_bit(rest)
                rest &= ~(1 << a)
                near |= theirs & ~(cover[n + a] | cover[2 * n + a])
            if _bits(near) < _bits(sub):
                return True
            sub = (sub - 1) & mine
    return False


@small
def _as_open(lay: Ints, st: Ints) -> int:
    """The cut of ``st`` seen as a game of an open stock (glossary: hand): under
    :data:`WP_HAND`, a drawn card is the stock's top card, the waste lies under it."""
    cut = int(st[2])
    if lay[WPAIRS] == WP_HAND and st[5]:
        return _top_bit(st[1] & ((1 << (cut - 1)) - 1)) + 1
    return cut


@jit
def _reach(lay: Ints, worth: Ints, pairs: Ints, single: Ints, st: Ints, work: Ints) -> int:
    """The talon cards (a tal mask) that may still show: all of them but in the last
    pass of one waste pile (no recycle left, no playable waste bottom), where the
    waste cards under the first one buried for good never will — one with more
    cards of some worth at or over it than cards left that could take them
    (tableau cards and the cell's card; the stock under an open stock; when two
    waste cards may pair, the stock and the waste cards at or over it — under a
    pyramid-only win, where a waste card counts as shown only on top — or any
    talon card under a whole-deck win, where one taken as the second waste card
    is gone too)."""
    tal, cut, red = int(st[1]), _as_open(lay, st), int(st[3])
    if lay[PILES] != 1 or lay[REDEALS] < 0 or red < lay[REDEALS] or lay[BOTTOM]:
        return tal
    n = lay[N]
    paired = lay[WPAIRS] == WP_DRAWN or lay[WPAIRS] == WP_ALWAYS
    grow = paired and lay[CELLS] == 0
    if grow:  # (the waste cards over one, and the stock: those below it cannot help)
        others = tal & ~((1 << cut) - 1)
    elif paired:
        others = tal
    elif lay[OPEN] or lay[WPAIRS] == WP_HAND:  # (the drawn card: seen as the open stock's)
        others = tal & ~((1 << cut) - 1)
    else:
        others = 0
    work[:2 * WORTHS] = 0  # have: work[v], over: work[WORTHS + v]
    for s in range(n):
        if (st[0] >> s) & 1:
            work[worth[s]] += 1
    for t in range(lay[T]):
        if (others >> t) & 1:
            work[worth[n + t]] += 1
    if st[4] > 0:
        work[worth[st[4] - 1]] += 1
    reach = tal & ~((1 << cut) - 1)
    if grow:
        return _reach_paired(lay, worth, pairs, single, tal, cut, reach, work,
                             bool(lay[WIN_ALL]))
    for i in range(cut - 1, -1, -1):
        if not (tal >> i) & 1:
            continue
        reach |= 1 << i
        v = worth[n + i]
        if single[v]:
            continue
        work[WORTHS + v] += 1
        if work[WORTHS + v] > _partners(pairs, work, v):
            break
    return reach


@jit
def _reach_paired(lay: Ints, worth: Ints, pairs: Ints, single: Ints, tal: int, cut: int,
                  reach: int, work: Ints, whole: bool) -> int:
    """:func:`_reach` where two waste cards may pair (no cell): a waste card shows
    on top only once every card over it is gone, each alone or with a tableau
    card, the cell's, a stock card or another card over it (the last of them may
    also go with the card just under it, so one card buried does not bury the
    ones under it).  Under a whole-deck win (``whole``) every card must go, and
    the cards over a waste card can go only before it, or the last of them with
    it: where they cannot, even with it, the game is lost, and the waste card
    and those under it are left out (so that the result is not ``tal``).
    ``work[v]`` holds the tableau's, the cell's and the stock's cards of worth
    ``v``; ``work[WORTHS + v]`` (the cards over, of worth ``v``) is zero."""
    n = lay[N]
    over, part = WORTHS, 2 * WORTHS  # (where they are in work)
    for v in range(WORTHS):  # the cards that could take a card of worth v
        work[part + v] = _partners(pairs, work, v)
    short = 0  # the worths with more cards over than could take them
    for i in range(cut - 1, -1, -1):
        if not (tal >> i) & 1:
            continue
        if short == 0 and not whole:
            reach |= 1 << i
        v = worth[n + i]  # (now one of the cards over the next)
        for u in range(WORTHS):
            if pairs[u * WORTHS + v]:
                was = work[over + u] > work[part + u]
                work[part + u] += 1
                if was and work[over + u] <= work[part + u]:
                    short -= 1
        if whole:
            if short > 0:  # the cards over it cannot all go, even with it
                return reach
            reach |= 1 << i
        if not single[v]:
            was = work[over + v] > work[part + v]
            work[over + v] += 1
            if not was and work[over + v] > work[part + v]:
                short += 1
    return reach


@jit
def _prune(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
           st: Ints, best: int, memo: Ints, stack: Ints, ctl: Ints, work: Ints,
           words: Ints) -> bool:
    """True when no line from ``st`` can win and none can beat ``best`` gone (the
    kernel search's ``hopeless`` and ``bound``, and the relaxed game)."""
    stuck = _stuck(lay, worth, pairs, single, st)
    n, cell = lay[N], st[4]
    hopeless = False
    can = 0
    for s in range(n):
        if (st[0] >> s) & 1:
            if (stuck >> worth[s]) & 1:
                if (lay[PYR] >> s) & 1:
                    hopeless = True
            else:
                can += 1
    if cell > 0 and istab[cell - 1]:
        if (stuck >> worth[cell - 1]) & 1:
            hopeless = True
        else:
            can += 1
    if lay[WIN_ALL]:
        hopeless = False
        for v in range(WORTHS):
            if (stuck >> v) & 1:
                hopeless = True
    reach = -1
    if lay[RELAXED] == 2:  # the start is lost: so is every state
        hopeless = True
    elif not hopeless and _matching(lay) and _unmatched(lay, cover, worth, pairs, single,
                                                        st[0]):
        hopeless = True  # before the relaxed game: in these games it is the game itself
    elif not hopeless:
        reach = _reach(lay, worth, pairs, single, st, work)
        if lay[WIN_ALL] and reach != st[1]:
            hopeless = True  # a talon card buried for good
        elif lay[STRING] and not _string_clears(lay, worth, pairs, single, st, memo, ctl,
                                                work, words):
            hopeless = True
        elif lay[RELAXED]:
            hopeless = not _clears(lay, cover, worth, pairs, single, st[0],
                                   _counts(lay, worth, reach), memo, stack, ctl)
    if not hopeless:
        return False
    if lay[WIN_ONLY] == 1:
        return True
    gone = _gone(lay, istab, st)
    if gone + can > best and lay[CELLS] == 0:  # the relaxed game's most may rule it out
        if reach < 0:
            reach = _reach(lay, worth, pairs, single, st, work)
        most = _relaxed_most(lay, cover, worth, pairs, single, st[0],
                             _counts(lay, worth, reach), memo, stack, ctl)
        return gone + min(can, most) <= best
    return gone + can <= best


@small
def _last_pass(lay: Ints, st: Ints) -> bool:
    """No recycle is left and two waste cards never pair (the drawn card in hand,
    :data:`WP_HAND`, is the open stock's top card here): the waste only shrinks
    from its top and grows by draws."""
    return bool((lay[WPAIRS] == WP_NONE or lay[WPAIRS] == WP_HAND)
                and 0 <= lay[REDEALS] <= st[3])


@jit
def _meetings(pairs: Ints, word: Ints, length: int, frozen: int, memo: Ints) -> int:
    """The most pairs of talon cards that can still meet (glossary: string) among
    the worths ``word[:length]``: nested, the second of each past the first
    ``frozen`` (in the last pass, two waste cards never meet), any card left out.
    ``memo[i, j]``: the most within ``word[i:j]``; ``memo[length + 1 + i]``
    lists the places past ``i`` (and ``frozen``) of the partners of card ``i``."""
    for i in range(length):
        k = 0
        for m in range(max(i + 1, frozen), length):
            if pairs[word[i] * WORTHS + word[m]]:
                memo[length + 1 + i, k] = m
                k += 1
        memo[length + 1 + i, k] = length
    for span in range(length + 1):
        for i in range(length - span + 1):
            j = i + span
            best = 0
            if span >= 2:
                best = memo[i + 1, j]
                k = 0
                while memo[length + 1 + i, k] < j:
                    m = memo[length + 1 + i, k]
                    got = 1 + memo[i + 1, m] + memo[m + 1, j]
                    if got > best:
                        best = got
                    k += 1
            memo[i, j] = best
    return int(memo[0, length])


@jit
def _string_meetings(lay: Ints, worth: Ints, pairs: Ints, single: Ints, st: Ints,
                     words: Ints) -> int:
    """The most pairs the talon cards left can make among themselves (glossary:
    string): in bits 0–7 for the whole string, in the 4 bits at ``8 + 4 v`` for
    the class of worth ``v`` and its one partner worth ``p ≥ v``, looked at as if
    the other cards were gone.  ``words``: room for :func:`_meetings`'s memo (see
    :func:`words_shape`)."""
    n, tal, cut = lay[N], st[1], _as_open(lay, st)
    word, memo = words[2 * lay[T] + 2], words  # (the word in its last row)
    last = _last_pass(lay, st)
    packed = 0
    for v in range(-1, WORTHS):  # -1: the whole string
        p = -1
        if v >= 0:
            if single[v]:
                continue
            p = _partner(pairs, v)
            if p < v:  # (no partner, several, or the class is looked at already)
                continue
        length, frozen = 0, 0
        for t in range(lay[T]):
            w = worth[n + t]
            if (tal >> t) & 1 and not single[w] and (v < 0 or w in (v, p)):
                word[length] = w
                length += 1
                if last and t < cut:
                    frozen += 1
        most = _meetings(pairs, word, length, frozen, memo) if length else 0
        packed |= most if v < 0 else most << (8 + 4 * v)
    return packed


@jit
def _string_clears(lay: Ints, worth: Ints, pairs: Ints, single: Ints, st: Ints, memo: Ints,
                   ctl: Ints, work: Ints, words: Ints) -> bool:
    """Whether the talon cards left could all go as far as the string (glossary)
    tells: the pairs they make among themselves nest, and each card left out
    takes a tableau card (or the cell's) of a partner worth — for the whole
    string, and for each class of worths that pair only with one another.  The
    pairs they can make are kept in ``memo`` under (tal, the waste's length in
    the last pass).  ``work`` holds the tableau's cards of each worth, then the
    talon's."""
    n, tal, cut = lay[N], st[1], _as_open(lay, st)
    work[:2 * WORTHS] = 0
    count = WORTHS  # (where the talon's counts are in work)
    for s in range(n):
        if (st[0] >> s) & 1:
            work[worth[s]] += 1
    if st[4] > 0:
        work[worth[st[4] - 1]] += 1
    length = 0
    for t in range(lay[T]):
        if (tal >> t) & 1 and not single[worth[n + t]]:
            work[count + worth[n + t]] += 1
            length += 1
    packed = 0
    if lay[OPEN] or lay[WPAIRS]:  # else talon cards never pair with one another
        frozen = cut if _last_pass(lay, st) else -1
        i = _memo_slot(memo, ctl, tal, frozen, 3)
        if _memo_has(memo, ctl, i):
            packed = memo[i, 4]
        else:
            _memo_room(memo, ctl)
            packed = _string_meetings(lay, worth, pairs, single, st, words)
            _memo_put(memo, ctl, tal, frozen, 3, packed)
    takers = 0
    for w in range(WORTHS):
        if _pairs_any(pairs, w):
            takers += work[w]
    if length - 2 * (packed & 255) > takers:
        return False
    for v in range(WORTHS):
        if single[v] or work[count + v] == 0:
            continue
        p = _partner(pairs, v)
        if p < 0:
            continue
        low = min(v, p)
        most = (packed >> (8 + 4 * low)) & 15
        if p == v:
            if work[count + v] - 2 * most > work[v]:
                return False
        elif work[count + v] - most > work[p]:
            return False
    return True


# ---------------------------------------------------------- the relaxation


@small
def _memo_room(memo: Ints, ctl: Ints) -> None:
    """Room in the relaxed game's memo: once it is half full it starts afresh
    (its answers are a cache; a look needs a place for each state it holds) —
    a new generation, so that nothing is cleared (glossary: memo)."""
    if 2 * ctl[MEMO_COUNT] + 2 > memo.shape[0]:
        ctl[MEMO_GEN] += 1  # (the rows kept so far are of an older generation now)
        ctl[MEMO_COUNT] = 0


@small
def _memo_put(memo: Ints, ctl: Ints, k0: int, k1: int, tag: int, value: int) -> None:
    """Keep ``value`` in the memo under (k0, k1, tag), a new row if need be."""
    i = _memo_slot(memo, ctl, k0, k1, tag)
    if not _memo_has(memo, ctl, i):
        memo[i, 0], memo[i, 1], memo[i, 2], memo[i, 3] = k0, k1, tag, ctl[MEMO_GEN]
        ctl[MEMO_COUNT] += 1
    memo[i, 4] = value


@small
def _memo_slot(memo: Ints, ctl: Ints, k0: int, k1: int, tag: int) -> int:
    """The memo's row holding (k0, k1, tag) in the current generation, or the row
    where it would go: a row of an older generation is as good as empty."""
    mask = memo.shape[0] - 1
    gen = ctl[MEMO_GEN]
    h = (k0 * HASH) ^ (k1 * 0x9E3779B97F4A7C15) ^ (tag * 0xBF58476D1CE4E5B9)
    h ^= h >> 29
    i = (h * HASH >> 20) & mask
    while memo[i, 2] != 0 and memo[i, 3] == gen:
        if memo[i, 0] == k0 and memo[i, 1] == k1 and memo[i, 2] == tag:
            return int(i)
        i = (i + 1) & mask
    return int(i)


@small
def _memo_has(memo: Ints, ctl: Ints, i: int) -> bool:
    """Whether row ``i`` of :func:`_memo_slot` holds its key (else it is free)."""
    return bool(memo[i, 2] != 0 and memo[i, 3] == ctl[MEMO_GEN])


@small
def _counts(lay: Ints, worth: Ints, tal: int) -> int:
    """The talon's worth counts (glossary) of the talon cards in ``tal``."""
    n, c = lay[N], 0
    for t in range(lay[T]):
        if (tal >> t) & 1:
            c += 1 << (4 * worth[n + t])
    return c


@jit
def _relaxed_step(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints,
                  tab: int, counts: int, cur: int) -> tuple[int, int, int]:
    """The next step of the relaxed game from (tab, counts) at or after the cursor
    ``cur`` (0 at first), as the (tab, counts) after it and the cursor after it;
    tab -1 when there is none.  A free card that goes alone is the only step
    (removing it loses nothing).  The cursor is ``1 + slot * 128 + j``: j < 64 a
    partner slot, 64 + w a talon worth (after a covering pair, the next slot)."""
    n = lay[N]
    if cur == 0:
        for s in range(n):
            if (tab >> s) & 1 and (tab & cover[s]) == 0 and single[worth[s]]:
                return tab & ~(1 << s), counts, 1 + n * 128
        cur = 1
    s0, j0 = (cur - 1) // 128, (cur - 1) % 128
    for s in range(s0, n):
        j = j0 if s == s0 else 0
        if not (tab >> s) & 1:
            continue
        over = tab & cover[s]
        ws = worth[s]
        if over == 0:
            for u in range(max(j, s + 1), n):
                if (tab >> u) & 1 and (tab & cover[u]) == 0 and pairs[ws * WORTHS + worth[u]]:
                    return tab & ~(1 << s) & ~(1 << u), counts, 2 + s * 128 + u
            for w in range(max(j - 64, 0), WORTHS):
                if pairs[ws * WORTHS + w] and (counts >> (4 * w)) & 15:
                    return tab & ~(1 << s), counts - (1 << (4 * w)), 2 + s * 128 + 64 + w
        elif lay[COVERING]:
            c = _coverer(cover, tab, s)
            if c >= 0 and pairs[ws * WORTHS + worth[c]]:
                return tab & ~(1 << s) & ~(1 << c), counts, 1 + (s + 1) * 128
    return -1, 0, 0


@jit
def _pairs_off(pairs: Ints, single: Ints, counts: int) -> bool:
    """True when talon cards of these worth counts could all go with one another:
    each worth has at most one partner worth, as many of each (an even number of a
    worth that pairs with itself).  A worth with several partners is not judged."""
    for v in range(WORTHS):
        cv = (counts >> (4 * v)) & 15
        if cv == 0 or single[v]:
            continue
        partner = _partner(pairs, v)
        if partner == -2:
            continue
        if partner == -1:
            return False
        if partner == v:
            if cv % 2:
                return False
        elif (counts >> (4 * partner)) & 15 != cv:
            return False
    return True


@jit
def _cleared(lay: Ints, pairs: Ints, single: Ints, tab: int, counts: int) -> bool:
    """The relaxed game's goal: the pyramid gone; under a whole-deck win, the
    whole tableau, and talon cards left that could pair off."""
    if lay[WIN_ALL]:
        return tab == 0 and _pairs_off(pairs, single, counts)
    return bool((tab & lay[PYR]) == 0)


@jit
def _clears(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, tab: int,
            counts: int, memo: Ints, stack: Ints, ctl: Ints) -> bool:
    """True when the relaxed game (glossary) from (tab, counts) reaches its goal
    (:func:`_cleared`)."""
    if _cleared(lay, pairs, single, tab, counts):
        return True
    i = _memo_slot(memo, ctl, tab, counts, 1)
    if _memo_has(memo, ctl, i):
        return bool(memo[i, 4] == 1)
    _memo_room(memo, ctl)
    stack[0, 0], stack[0, 1], stack[0, 2] = tab, counts, 0
    depth = 1
    found = False
    effort = 0
    while depth > 0:
        effort += 1
        if effort > RELAXED_EFFORT:  # too long a look: assume it may (the bound stays safe)
            _memo_put(memo, ctl, tab, counts, 1, 1)
            return True
        top = depth - 1
        t, c, k = stack[top, 0], stack[top, 1], stack[top, 2]
        nt, nc, after = (-1, 0, 0) if found else _relaxed_step(lay, cover, worth, pairs, single,
                                                                t, c, k)
        if nt < 0:  # every step tried (or the pyramid cleared below): settle it
            _memo_put(memo, ctl, t, c, 1, 1 if found else 2)
            depth -= 1
            continue
        stack[top, 2] = after
        if _cleared(lay, pairs, single, nt, nc):
            found = True
            continue
        j = _memo_slot(memo, ctl, nt, nc, 1)
        if _memo_has(memo, ctl, j):
            if memo[j, 4] == 1:
                found = True
            continue
        if depth >= stack.shape[0] or 2 * (ctl[MEMO_COUNT] + depth) + 2 > memo.shape[0]:
            return True  # no room to look further: assume it may (the bound stays safe)
        stack[depth, 0], stack[depth, 1], stack[depth, 2] = nt, nc, 0
        depth += 1
    return found


@jit
def _relaxed_most(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, tab: int,
                  counts: int, memo: Ints, stack: Ints, ctl: Ints) -> int:
    """The most tableau cards the relaxed game (glossary) removes from (tab, counts):
    a bound on what the real game can remove from there (a state that cannot
    win is not entered when this cannot beat the best found).  Kept in
    ``memo`` under (tab, counts, 5); a look cut short after ``RELAXED_EFFORT``
    steps answers every card present, which is safe."""
    i = _memo_slot(memo, ctl, tab, counts, 5)
    if _memo_has(memo, ctl, i):
        return int(memo[i, 4])
    present = _bits(tab)
    _memo_room(memo, ctl)
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = tab, counts, 0, 0
    depth = 1
    effort = 0
    result = present
    while depth > 0:
        effort += 1
        if (effort > RELAXED_EFFORT or depth >= stack.shape[0]
                or 2 * (ctl[MEMO_COUNT] + depth) + 2 > memo.shape[0]):
            return present  # too long a look: every card (the bound stays safe)
        top = depth - 1
        t, c, k, most = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        nt, nc, after = -1, 0, 0
        if most < _bits(t):  # (else nothing better is left to find below it)
            nt, nc, after = _relaxed_step(lay, cover, worth, pairs, single, t, c, k)
        if nt < 0:  # every step tried: settle it, and tell the state above
            _memo_put(memo, ctl, t, c, 5, most)
            depth -= 1
            if depth > 0:
                gain = _bits(stack[depth - 1, 0]) - _bits(t) + most
                if gain > stack[depth - 1, 3]:
                    stack[depth - 1, 3] = gain
            else:
                result = int(most)
            continue
        stack[top, 2] = after
        j = _memo_slot(memo, ctl, nt, nc, 5)
        if _memo_has(memo, ctl, j):
            gain = _bits(t) - _bits(nt) + memo[j, 4]
            if gain > most:
                stack[top, 3] = gain
            continue
        stack[depth, 0], stack[depth, 1], stack[depth, 2], stack[depth, 3] = nt, nc, 0, 0
        depth += 1
    return result


# -------------------------------------------------------- the table


@small
def _key(lay: Ints, worth: Ints, st: Ints) -> tuple[int, int, int, int]:
    red = 0 if lay[UNLIMITED_KEY] else st[3]
    tal = st[1]
    if lay[CYCLE] and lay[SEARCHING]:  # the talon's order plays no part: its worths
        n, tal = lay[N], 0
        for t in range(lay[T]):
            if (st[1] >> t) & 1:
                tal += 1 << (4 * worth[n + t])
    return st[0], tal, st[2] | red << RED_SHIFT | st[4] << 16 | 1 << 40, st[5]


@small
def _home(table: Ints, k0: int, k1: int, k2: int, k3: int) -> int:
    """The row a key is looked for from: a key of the shortest line's table
    (:data:`SIDE_BY_SIDE`) by its tableau, talon and cell alone, so that the
    states of every cut, redeal and ``hist`` of them lie side by side (glossary:
    drawn past)."""
    if k2 & SIDE_BY_SIDE:
        k2, k3 = k2 & ~PLACE_BITS, 0
    h = (k0 * HASH) ^ (k1 * 0x9E3779B97F4A7C15) ^ (k2 * 0xBF58476D1CE4E5B9) ^ k3
    h ^= h >> 29
    return int((h * HASH >> 20) & (table.shape[0] - 1))


@small
def _slot(table: Ints, k0: int, k1: int, k2: int, k3: int) -> int:
    """The table row holding the key, or the empty row where it would go."""
    mask = table.shape[0] - 1
    i = _home(table, k0, k1, k2, k3)
    while table[i, 2] != 0:
        if (table[i, 0] == k0 and table[i, 1] == k1 and (table[i, 2] & ~G_BITS) == k2
                and table[i, 3] == k3):
            return int(i)
        i = (i + 1) & mask
    return int(i)


@small
def _g_at(table: Ints, i: int) -> int:
    """The g a row of the shortest line's table holds."""
    return int((table[i, 2] & G_BITS) >> G_AT)


@jit
def rehash(old: Ints, new: Ints) -> None:
    for i in range(old.shape[0]):
        if old[i, 2] != 0:
            j = _slot(new, old[i, 0], old[i, 1], old[i, 2] & ~G_BITS, old[i, 3])
            for c in range(old.shape[1]):
                new[j, c] = old[i, c]


# -------------------------------------------------------- the search


@jit
def start(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
          lens: Ints, st: Ints, frames: Ints, moves: Ints, table: Ints, ctl: Ints,
          buf: Ints) -> None:
    """Put the start state ``st`` on the path (``buf``: the scratch vector)."""
    free = buf[BUF_FREE:]
    lay[SEARCHING] = 1
    _put(frames[0, :6], st)
    if lay[CYCLE] or (lay[GRID] and _on_grid(lay, frames[0, :6])):
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


@small
def _dominated(lay: Ints, table: Ints, k0: int, k1: int, k2: int, k3: int, red: int) -> bool:
    """True when the state of key (k0 … k3), ``red`` redeals used, was met before
    with fewer used (glossary: dominated): one waste pile, so the talon's order
    is the same, and every line from here is a line from there."""
    if not lay[DOMINATE] or not lay[SEARCHING]:
        return False
    for r in range(red):
        j = _slot(table, k0, k1, (k2 & ~(255 << RED_SHIFT)) | r << RED_SHIFT, k3)
        if table[j, 2] != 0:
            return True
    return False


@jit
def _shuffle(moves: Ints, at: int, end: int, ctl: Ints) -> None:
    """Put the removals among ``moves[at:end]`` in a random order (the draw or the
    recycle stays last), drawn from ``ctl[ORDER]``, an xorshift generator's state
    (glossary: order)."""
    if end > at and (moves[end - 1] & 15) >= DRAW_MOVE:
        end -= 1
    x = ctl[ORDER]
    for i in range(end - 1, at, -1):
        x ^= x << 13
        x ^= (x >> 7) & 0x01FFFFFFFFFFFFFF
        x ^= x << 17
        j = at + (x & 0x7FFFFFFFFFFFFFFF) % (i - at + 1)
        moves[i], moves[j] = moves[j], moves[i]
    ctl[ORDER] = x


@jit
def run(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
        seqs: Ints, lens: Ints, frames: Ints, moves: Ints, table: Ints, ctl: Ints,
        line: Ints, memo: Ints, stack: Ints, buf: Ints, words: Ints, chunk: int) -> int:
    """Search on for at most ``chunk`` new states; returns what stopped it
    (``buf``, ``words``: the scratch vector and matrix)."""
    st, work, free = buf[BUF_ST:BUF_ST + 6], buf[BUF_WORK:BUF_CNT], buf[BUF_FREE:]
    steps = 0
    while ctl[DEPTH] > 0:
        d = ctl[DEPTH] - 1
        if frames[d, 8] == frames[d, 7] - frames[d, 6]:
            ctl[DEPTH] = d
            continue
        if steps >= chunk:
            return SPENT
        if ctl[BUDGET] >= 0 and ctl[NODES] >= ctl[BUDGET]:
            return EXHAUSTED  # (before a state is taken: the search may go on later)
        if 2 * ctl[COUNT] + 2 > table.shape[0]:
            return GROW_TABLE
        if d + 2 > frames.shape[0]:
            return GROW_FRAMES
        if frames[d, 7] + ROOM > moves.shape[0]:
            return GROW_MOVES
        move = moves[frames[d, 6] + frames[d, 8]]
        frames[d, 8] += 1
        _put(st, frames[d, :6])
        _apply(lay, seqs, lens, st, move)
        k0, k1, k2, k3 = _key(lay, worth, st)
        i = _slot(table, k0, k1, k2, k3)
        if table[i, 2] != 0 or _dominated(lay, table, k0, k1, k2, k3, st[3]):
            continue
        table[i, 0], table[i, 1], table[i, 2], table[i, 3] = k0, k1, k2, k3
        ctl[COUNT] += 1
        ctl[NODES] += 1
        steps += 1
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
        if 0 <= ctl[TOP] <= ctl[BEST]:
            return TOPPED
        if _prune(lay, cover, worth, pairs, single, istab, st, ctl[BEST], memo, stack, ctl,
                  work, words):
            continue
        _put(frames[d + 1, :6], st)
        frames[d + 1, 6] = frames[d, 7]
        frames[d + 1, 7] = _moves(lay, cover, worth, pairs, single, seqs, lens, st, free,
                                  moves, frames[d, 7], True)
        if ctl[ORDER]:
            _shuffle(moves, frames[d, 7], frames[d + 1, 7], ctl)
        frames[d + 1, 8] = 0
        frames[d + 1, 9] = move
        ctl[DEPTH] = d + 2
    return COMPLETE


@jit
def children(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, seqs: Ints,
             lens: Ints, st: Ints, out: Ints, buf: Ints) -> int:
    """The states after each legal move of ``st`` (rows of ``out``: the state,
    then the move); returns their number.  For the tests."""
    child, free = buf[BUF_CHILD:BUF_CHILD + 6], buf[BUF_FREE:]
    moves = buf[_moves_at(lay):]
    lay[SEARCHING] = 0
    if lay[PILES] > 1:
        _levels(lay, seqs, lens, st)
    k = _moves(lay, cover, worth, pairs, single, seqs, lens, st, free, moves, 0, False)
    for i in range(k):
        _put(child, st)
        _apply(lay, seqs, lens, child, moves[i])
        _put(out[i, :6], child)
        out[i, 6] = moves[i]
    return k


# ------------------------------------------------------- the shortest line
#
# Best-first search over the same states for the fewest moves to a win (every
# move counts: removals, moves into the cell, draws, recycles).  The states are
# taken in the order of g + 2h (a good line comes early), every win found
# becomes the bound, and a state that cannot beat the bound (g + h >= bound) is
# dropped; when no state is left, the best line is proven shortest.  h is
# admissible: the removals a win still needs, class by class (:func:`_estimate`),
# and the moves that take none of the cards it needs but dig the talon down to
# the partners it must have (:func:`_dig`).  It is not consistent (a removal may
# lower the digging by more than one), so a state met again with fewer moves is
# searched again.  ``nodes`` rows hold each stored state (:data:`NODE`), the row it came
# from and the move; the heap holds ``f << 42 | (1023 - g) << 32 | row`` (f = g +
# 2h, so h is read back from it).  With several waste piles each state's talon
# order is built again from its ``hist`` before it is searched (:func:`_levels`).
#
# The moves are *macros* (as in the shortest line of N and C): ``d`` talon moves
# (draws and recycles: from any state there is at most one), then one move that
# takes a card or fills the cell, which costs d + 1.  A line never needs to end on
# a talon move, and a move that touches no talon card (two tableau cards, a king
# of the tableau, a tableau card into the cell) does the same before the draws as
# after them, and it is not changed by them, so only at d = 0 does it come; at d >
# 0 only the moves that touch a talon card (:func:`_moves_of`, ``talon_only``).  The states
# on the way (glossary "via") are not stored; the way stops where the bound or
# the prunings rule out what follows, where a state on it was stored with no more
# moves (its own macros follow from it), where a move is forced (the safe moves
# of :func:`_moves`: the single-move search would take it there, and nothing
# else), and, with unlimited redeals, once the talon is back where it began.  A
# stored move carries its d at :data:`VIA_AT`; the driver plays the talon moves
# back (a draw while the stock holds cards, else the recycle).
# With ``ctl[TARGET]`` > 0 the goal is that many tableau cards gone instead of a
# win (a lost position's most cards removable): h is half the cards still to go
# (a move takes two at most; consistent), and a state that cannot win is dropped
# only where it cannot reach the target either.

GOAL, HEAP_N, STORED, BOUND, TARGET, SCTL = range(CTL, CTL + 6)
NODE = 6  # tab, tal, hist, cut | redeals << 8 | cell << 16, the row it came from, the move
VIA_AT = 20  # a stored move: the move | its talon moves before it (d) << VIA_AT


@small
def _apart(lay: Ints, cover: Ints, mine: int, theirs: int) -> int:
    """How many of the tableau slots ``mine`` are *apart* from one of ``theirs``:
    neither covers the other at any depth, so that both can be free at once and
    their cards pair.  (A card and one it covers never are free at once; with
    covering pairs a card and one covering it directly pair all the same; with a
    cell the card covering goes there first, and every slot counts.)"""
    if lay[CELLS]:
        return _bits(mine) if theirs else 0
    n, found, x = lay[N], 0, mine
    while x:
        low = x & -x
        x ^= low
        s = _bits(low - 1)
        far = cover[n + s] | cover[2 * n + s]
        if lay[COVERING]:
            far &= ~(cover[s] | cover[3 * n + s])
        if theirs & ~far:
            found += 1
    return found


@small
def _class_pairs(lay: Ints, cover: Ints, cv: int, cp: int, sv: int, sp: int) -> int:
    """At most the pairs ``cv`` cards of a worth and ``cp`` of its partner can make
    among themselves, of which the tableau slots ``sv`` and ``sp`` (the others —
    talon cards, the cell's — can meet any card): no more than the cards of
    either side that have a partner they are apart from."""
    if cv == 0 or cp == 0:
        return 0
    loose_v, loose_p = cv - _bits(sv), cp - _bits(sp)
    linked_v = loose_v + (_bits(sv) if loose_p else _apart(lay, cover, sv, sp))
    linked_p = loose_p + (_bits(sp) if loose_v else _apart(lay, cover, sp, sv))
    return min(linked_v, linked_p)


@small
def _few_serves(lay: Ints) -> bool:
    """Whether :func:`_fewest` bounds the removals here: a pyramid-only win, the
    whole tableau the pyramid (28 slots at most, so that its shapes fit the
    room), no cell (a card put there leaves the pyramid without a removal)."""
    return bool(lay[WIN_ALL] == 0 and lay[CELLS] == 0 and lay[N] <= 28
                and lay[PYR] == (1 << lay[N]) - 1)


@small
def _few_slot(few: Ints, tab: int) -> int:
    """The row of :func:`_fewest`'s answers holding ``tab``, or the empty row where
    it would go."""
    i = ((tab * 0x9E3779B1) >> 16) & (FEW_ROWS - 1)  # (tab < 2**28: no overflow)
    while few[FEW_TABLE + 2 * i] != 0 and few[FEW_TABLE + 2 * i] != tab:
        i = (i + 1) & (FEW_ROWS - 1)
    return int(i)


@jit
def _fewest(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, tab: int,
            few: Ints) -> int:
    """The fewest removals that clear the pyramid ``tab`` in the pyramid game
    (glossary: fewest), where any free card may also go with a card from outside
    the pyramid at any time (the relaxed game's steps with a talon that never
    runs out, :data:`WILD`): the real game's removals of pyramid cards are
    moves of this game, so this bounds them (beside :func:`_estimate`'s count
    of the cards' partners).  Two cards go in one removal only where they are
    free together.  The answers are kept in ``few`` (:data:`FEW_SIZE`, cleared
    for each deal); 0 (no bound) when it has no room."""
    if tab == 0:
        return 0
    i = _few_slot(few, tab)
    if few[FEW_TABLE + 2 * i] == tab:
        return int(few[FEW_TABLE + 2 * i + 1])
    big = 64  # (more than any pyramid's cards: none can be cleared)
    few[0], few[1], few[2] = tab, 0, big
    depth, result = 1, 0
    while depth > 0:
        top = 3 * (depth - 1)
        t, k, best = few[top], few[top + 1], few[top + 2]
        nt, after = -1, 0
        if best > (_bits(t) + 1) // 2:  # (else no removal order does better)
            nt, _, after = _relaxed_step(lay, cover, worth, pairs, single, t, WILD, k)
        if nt < 0:  # every step tried: keep the answer, and tell the pyramid above
            best = min(best, _bits(t))  # (a pyramid that cannot be cleared: any bound)
            if few[FEW_COUNT] >= FEW_ROWS // 2:
                return 0  # no room (the bound stays safe)
            j = _few_slot(few, t)
            few[FEW_TABLE + 2 * j], few[FEW_TABLE + 2 * j + 1] = t, best
            few[FEW_COUNT] += 1
            depth -= 1
            if depth > 0 and best + 1 < few[top - 1]:
                few[top - 1] = best + 1
            result = int(best)
            continue
        few[top + 1] = after
        if nt == 0:
            few[top + 2] = min(best, 1)
            continue
        j = _few_slot(few, nt)
        if few[FEW_TABLE + 2 * j] == nt:
            if few[FEW_TABLE + 2 * j + 1] + 1 < best:
                few[top + 2] = few[FEW_TABLE + 2 * j + 1] + 1
            continue
        if depth >= FEW_DEPTH:
            return 0
        few[top + 3], few[top + 4], few[top + 5] = nt, 0, big
        depth += 1
    return result


@small
def _goal_serves(lay: Ints) -> bool:
    """Whether :func:`_goal_fewest` bounds a search toward a number of cards gone:
    its room is in the scratch vector (``lay[SHORT]`` 2), the pyramid is the
    whole tableau (28 slots at most) and there is no cell."""
    return bool(lay[SHORT] == 2 and lay[CELLS] == 0 and lay[N] <= 28
                and lay[PYR] == (1 << lay[N]) - 1)


@small
def _goal_row(gt: Ints, tab: int) -> int:
    """The row of :func:`_goal_fewest`'s answers for the pyramid ``tab`` (a new one,
    every answer unknown, if need be); -1 when there is no room for it."""
    i = ((tab * 0x9E3779B1) >> 16) & (GOAL_KEYS - 1)  # (tab < 2**28: no overflow)
    while gt[GOAL_TABLE + 2 * i] != 0:
        if gt[GOAL_TABLE + 2 * i] == tab:
            return int(gt[GOAL_TABLE + 2 * i + 1] - 1)
        i = (i + 1) & (GOAL_KEYS - 1)
    row = gt[0]
    if row >= GOAL_ROWS or 2 * row >= GOAL_KEYS:
        return -1
    gt[0] = row + 1
    gt[GOAL_TABLE + 2 * i], gt[GOAL_TABLE + 2 * i + 1] = tab, row + 1
    at = GOAL_VALUES + 2 * row * GOAL_WIDE
    gt[at:at + 2 * GOAL_WIDE] = -1
    return int(row)


@jit
def _goal_step(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, tab: int,
               cur: int) -> tuple[int, int]:
    """The next step of the pyramid game toward a number of cards gone, from ``tab``
    at or after the cursor ``cur`` (0 at first): the pyramid after it and the
    cursor after it; -1 when there is none.  Unlike the relaxed game's steps
    (:func:`_relaxed_step`, whose other steps these are, cursor ``cur - n + 1``),
    a free king is one step among the others: toward a number of cards, taking
    a king first may cost a move that a pair would not."""
    n = lay[N]
    for s in range(cur, n):
        if (tab >> s) & 1 and (tab & cover[s]) == 0 and single[worth[s]]:
            return tab & ~(1 << s), s + 1
    nt, _, after = _relaxed_step(lay, cover, worth, pairs, single, tab, WILD,
                                 max(cur, n) - n + 1)
    return nt, after + n - 1


@jit
def _goal_fewest(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, tab: int,
                 need: int, alone: bool, gt: Ints) -> int:
    """Toward ``need`` more pyramid cards gone in the pyramid game (glossary:
    fewest): the fewest removals, or with ``alone`` the fewest cards that go with
    a card from outside the pyramid (a talon card: :func:`_dig`'s partners).  A
    real line toward that many cards takes them by moves of this game, so each
    bounds the real line's.  Kept in ``gt`` (:data:`GOAL_SIZE`, cleared for each
    search); 0 (no bound) when it has no room."""
    if need <= 0:
        return 0
    need = min(need, GOAL_WIDE - 1)
    col = GOAL_WIDE if alone else 0
    row = _goal_row(gt, tab)
    if row < 0:
        return 0
    if gt[GOAL_VALUES + 2 * row * GOAL_WIDE + col + need] >= 0:
        return int(gt[GOAL_VALUES + 2 * row * GOAL_WIDE + col + need])
    big = 64  # (more than any pyramid's cards: the number cannot be reached)
    gt[GOAL_STACK], gt[GOAL_STACK + 1], gt[GOAL_STACK + 2] = tab, need, 0
    gt[GOAL_STACK + 3] = big
    depth, result = 1, 0
    while depth > 0:
        top = GOAL_STACK + 4 * (depth - 1)
        t, r, k, best = gt[top], gt[top + 1], gt[top + 2], gt[top + 3]
        nt, after = -1, 0
        if best > (0 if alone else (r + 1) // 2):  # (else no line does better)
            nt, after = _goal_step(lay, cover, worth, pairs, single, t, k)
        if nt < 0:  # every step tried: keep the answer, and tell the state above
            gt[GOAL_VALUES + 2 * _goal_row(gt, t) * GOAL_WIDE + col + r] = best
            depth -= 1
            if depth > 0:
                up = GOAL_STACK + 4 * (depth - 1)
                gone = _bits(gt[up]) - _bits(t)
                cost = (1 if gone == 1 and not single[worth[_bits((gt[up] ^ t) - 1)]]
                        else 0) if alone else 1
                if best + cost < gt[up + 3]:
                    gt[up + 3] = best + cost
            result = int(best)
            continue
        gt[top + 2] = after
        gone = _bits(t) - _bits(nt)
        cost = (1 if gone == 1 and not single[worth[_bits((t ^ nt) - 1)]] else 0) if alone else 1
        if gone >= r:
            if cost < best:
                gt[top + 3] = cost
            continue
        j = _goal_row(gt, nt)
        if j < 0 or depth >= GOAL_DEPTH:
            return 0  # no room (the bound stays safe)
        v = gt[GOAL_VALUES + 2 * j * GOAL_WIDE + col + r - gone]
        if v >= 0:
            if v + cost < best:
                gt[top + 3] = v + cost
            continue
        nxt = top + 4
        gt[nxt], gt[nxt + 1], gt[nxt + 2], gt[nxt + 3] = nt, r - gone, 0, big
        depth += 1
    return result


@jit
def _estimate(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
              st: Ints, cnt: Ints) -> int:
    """The fewest removals a win from ``st`` still needs: for each class of
    worths that pair (``v`` and its one partner) their counts less the most
    pairs they can make among themselves — at most as many as the cards of
    either worth that have a partner they are apart from (:func:`_apart`) — half
    a worth that pairs with itself, one per card that goes alone; counting the
    pyramid's cards (and a tableau card in the cell), or under a whole-deck win
    every card in play.  Where a worth pairs with several, half the cards.
    ``cnt``: two rows of :data:`WORTHS` at least."""
    n = lay[N]
    cnt[:2 * WORTHS] = 0
    slots = cnt[WORTHS:2 * WORTHS]  # (the counted tableau slots of each worth)
    x = st[0] if lay[WIN_ALL] else st[0] & lay[PYR]
    while x:  # (the counted slots, one bit at a time)
        low = x & -x
        x ^= low
        v = worth[_bits(low - 1)]
        cnt[v] += 1
        slots[v] |= low
    if lay[WIN_ALL]:
        for t in range(lay[T]):
            if (st[1] >> t) & 1:
                cnt[worth[n + t]] += 1
    cell = st[4]
    if cell > 0 and (lay[WIN_ALL] or istab[cell - 1]):
        cnt[worth[cell - 1]] += 1
    h, paired, several = 0, 0, False
    for v in range(WORTHS):
        c = cnt[v]
        if c == 0:
            continue
        if single[v]:
            h += c
            continue
        paired += c
        partner = _partner(pairs, v)
        if partner == -2:
            several = True
        elif partner == -1:
            h += c  # (it can never go: the state is lost anyway)
        elif partner == v:
            h += (c + 1) // 2
        elif partner > v:
            h += c + cnt[partner] - _class_pairs(lay, cover, c, cnt[partner], slots[v],
                                                 slots[partner])
        elif cnt[partner] == 0:
            h += c
    if several:  # (no class bound holds: a removal takes two cards at most)
        h = 0
        for v in range(WORTHS):
            if single[v]:
                h += cnt[v]
        h += (paired + 1) // 2
    return h


@small
def _keep_small(low: Ints, kept: int, k: int, c: int) -> int:
    """Keep ``c`` among the ``k`` smallest values so far (``low[:kept]``, in order);
    returns how many are kept now."""
    if kept == k and c >= low[k - 1]:
        return kept
    at = kept if kept < k else k - 1  # (the largest kept is dropped)
    while at > 0 and low[at - 1] > c:
        low[at] = low[at - 1]
        at -= 1
    low[at] = c
    return kept + 1 if kept < k else kept


@jit
def _kth_cost(lay: Ints, worth: Ints, room: Ints, tal: int, cost: Ints, k: int,
              low: Ints) -> int:
    """The ``k``-th smallest of ``cost`` among the talon cards ``tal`` of a worth
    with ``room`` (a needed card to go with); 0 where there are fewer (no bound).
    ``low``: room for the ``k`` smallest (:data:`WORTHS` at least)."""
    tw, kept = worth[lay[N]:], 0  # (a worth as ``tw[t] & 15``: :func:`_dig_talon`)
    k = min(k, WORTHS)
    x = tal
    while x:
        bit = x & -x
        x ^= bit
        t = _bits(bit - 1)
        if room[tw[t] & 15] > 0:
            kept = _keep_small(low, kept, k, cost[t])
    return int(low[k - 1]) if kept == k else 0


@small
def _per_draw(lay: Ints) -> int:
    """The talon cards one talon move takes out of the way: one onto each of several
    waste piles, else the cards of a draw."""
    return int(lay[PILES] if lay[PILES] > 1 else lay[DRAWS])


@jit
def _drawn_out(lay: Ints, seqs: Ints, lens: Ints, st: Ints) -> int:
    """:func:`_dig` under a whole-deck win: every talon card is needed, so a closed
    stock is drawn out (an open one: nothing is said)."""
    if lay[OPEN]:
        return 0
    tal, cut, level = st[1], st[2], st[3] if lay[PILES] > 1 else 0
    seq, length, per_draw = seqs[level], lens[level], _per_draw(lay)
    stock = 0
    for i in range(cut, length):
        if seq[i] >= 0 and (tal >> seq[i]) & 1:
            stock += 1
    return int((stock + per_draw - 1) // per_draw)


@jit
def _dig_needs(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
               tab: int, cell: int, cnt: Ints, room: Ints, need: Ints) -> None:
    """:func:`_dig`'s part that the tableau and the cell alone decide: ``room[w]``,
    the needed cards a talon card of worth ``w`` could go with (each takes one), and
    ``need[v]``, the talon partners the needed cards of worth ``v`` must have at
    the least (0: none; at most :data:`WORTHS`).  ``cnt``: six rows of
    :data:`WORTHS` at least (rows 0, 2 and 5 are used)."""
    cnt[:6 * WORTHS] = 0  # the pyramid's cards of each worth, then the rest's: 16 + 16 bits
    slots = cnt[5 * WORTHS:6 * WORTHS]  # (the tableau slots of each worth)
    x = tab
    while x:
        low = x & -x
        x ^= low
        v = worth[_bits(low - 1)]
        cnt[v] += (1 << 16) if lay[PYR] & low else 1
        slots[v] |= low
    if cell > 0:
        cnt[worth[cell - 1]] += (1 << 16) if istab[cell - 1] else 1
    seen = cnt[2 * WORTHS:3 * WORTHS]
    for v in range(WORTHS):
        seen[v] = cnt[v] >> 16  # (the needed cards of each worth, for a moment)
    for w in range(WORTHS):
        room[w] = _partners(pairs, seen, w)
    cell_w = worth[cell - 1] if cell > 0 else -1
    for v in range(WORTHS):
        need[v] = 0
        mine = cnt[v] >> 16
        if mine == 0 or single[v]:
            continue
        # k: the talon partners the worth's needed cards must have at the least —
        # all but those a partner at hand can take, one each, and only a partner
        # it is apart from (the cell's card is apart from every card)
        partner = _partner(pairs, v)
        if partner >= 0 and partner != v:
            at_hand = (cnt[partner] >> 16) + (cnt[partner] & 0xFFFF)
            needed = slots[v] & lay[PYR]
            linked = 1 if cell_w == v and istab[cell - 1] else 0
            linked += (_bits(needed) if cell_w == partner
                       else _apart(lay, cover, needed, slots[partner]))
            k = mine - min(at_hand, linked)
        else:
            k = 1
            for w in range(WORTHS):
                if pairs[v * WORTHS + w]:
                    others = (cnt[w] >> 16) + (cnt[w] & 0xFFFF) - (1 if w == v else 0)
                    if others > 0:
                        k = 0
                        break
        if k > 0:
            need[v] = min(k, WORTHS)


@jit
def _dig_talon(lay: Ints, worth: Ints, pairs: Ints, seqs: Ints, lens: Ints, st: Ints,
               cnt: Ints, cost: Ints, room: Ints, need: Ints, masks: Ints,
               partners: int) -> int:
    """:func:`_dig`'s part that the talon decides, from :func:`_dig_needs`'s ``room``
    and ``need``; ``masks``: the deal's talon cards of each worth; ``partners``:
    toward a number of cards gone, how many of them go with talon cards at the
    least, else -1.  ``cnt``: three rows of :data:`WORTHS` at least."""
    n, piles = lay[N], lay[PILES]
    tal, cut, red = st[1], st[2], st[3]
    level = red if piles > 1 else 0
    seq, length = seqs[level], lens[level]
    per_draw, is_open, bottom = _per_draw(lay), lay[OPEN], lay[BOTTOM]
    # (a worth is read as ``tw[t] & 15``, the talon card's worth: below 16, it
    # spares every index it makes the compiler's check for a negative one)
    tw = worth[n:]
    seen, stock_w, waste_w = (cnt[:WORTHS], cnt[WORTHS:2 * WORTHS],
                              cnt[2 * WORTHS:3 * WORTHS])
    # the stock, from the top: the loose cards above each (those beyond the room)
    stock_w[:] = 0
    loose, above = 0, 0
    for t in seq[cut:length]:
        if t >= 0 and (tal >> t) & 1:
            drawn = loose if is_open else above + 1
            cost[t] = drawn if per_draw == 1 else (drawn + per_draw - 1) // per_draw
            w = tw[t] & 15
            if stock_w[w] >= room[w]:
                loose += 1
            stock_w[w] += 1
            above += 1
    # the waste, from the top (one pile); a drawn card in hand (WP_HAND) is in no
    # card's way
    if piles == 1:
        if lay[WPAIRS] == WP_HAND and st[5]:
            cost[seq[cut - 1]] = 0
            cut -= 1
        waste = seq[:min(cut, length)]
        waste_w[:] = 0
        for t in waste:
            if t >= 0 and (tal >> t) & 1:
                waste_w[tw[t] & 15] += 1
        redeal = lay[REDEALS] < 0 or red < lay[REDEALS]
        # the loose cards at and under the place reached; and with the stock's
        under, route = 0, 0
        for w in range(WORTHS):
            under += max(0, waste_w[w] - room[w])
            route += max(0, waste_w[w] + stock_w[w] - room[w])
        seen[:] = 0  # the waste cards above
        over = 0  # the loose ones among them
        for t in waste[::-1]:
            if t < 0 or not (tal >> t) & 1:
                continue
            v = tw[t] & 15
            # this card is not under itself: its worth has one card fewer below
            loose = waste_w[v] - seen[v] - room[v]
            if loose > 0:
                under -= 1
            if loose + stock_w[v] > 0:
                route -= 1
            best = (over + 1) >> 1  # (a removal takes two talon cards at most)
            if bottom:
                best = min(best, (under + 1) >> 1)
            if redeal:
                best = min(best, 1 + (route if per_draw == 1
                                      else (route + per_draw - 1) // per_draw))
            cost[t] = best
            if seen[v] >= room[v]:
                over += 1
            seen[v] += 1
    else:
        for t in seq[:min(cut, length)]:
            if t >= 0:
                cost[t] = 0
    if partners > 0:  # toward a number of cards gone: the partners-th smallest cost
        return _kth_cost(lay, worth, room, tal, cost, partners, seen)
    low = seen  # (free now: the smallest costs of a worth's partners, below)
    dig = 0
    for v in range(WORTHS):
        k = need[v]
        if k <= 0:
            continue
        # the k-th smallest cost of a talon partner, in one pass: the k smallest
        # so far, in order, in ``low`` (a smaller k would bound it from below too)
        partner = _partner(pairs, v)
        if partner >= 0:
            x = masks[partner] & tal
        else:
            x = 0
            for w in range(WORTHS):
                if pairs[v * WORTHS + w]:
                    x |= masks[w] & tal
        kept = 0
        while x:
            bit = x & -x
            x ^= bit
            kept = _keep_small(low, kept, k, cost[_bits(bit - 1)])
        if kept == k and low[k - 1] > dig:
            dig = low[k - 1]
    return int(dig)


@jit
def _tc_clear(lay: Ints, worth: Ints, tc: Ints) -> None:
    """Start the tableau cache ``tc`` (:data:`TC_SIZE`) afresh for a search of the
    layout ``lay``: no row holds anything, and the deal's talon cards of each
    worth."""
    for r in range(TC_ROWS):
        tc[r * TC_WIDE + 2] = 0
    tc[TC_MASKS:TC_MASKS + WORTHS] = 0
    for t in range(lay[T]):
        tc[TC_MASKS + worth[lay[N] + t]] |= 1 << t


@small
def _tc_row(tc: Ints, st: Ints) -> int:
    """Where the tableau cache keeps what it knows of the tableau and cell of
    ``st`` (a row taken afresh, knowing nothing, if it held another)."""
    tab, cell = st[0], st[4]
    h = ((tab & 0x1FFFFFFF) * 0x9E3779B1 ^ ((tab >> 29) & 0x1FFFFFFF) * 0x85EBCA6B
         ^ cell * 0xC2B2AE35)  # (29 bits by 32: no product overflows)
    at = int((h >> 20) & (TC_ROWS - 1)) * TC_WIDE
    if tc[at + 2] == 0 or tc[at] != tab or tc[at + 1] != cell:
        tc[at], tc[at + 1], tc[at + 2] = tab, cell, TC_HELD
    return at


@jit
def _toward_held(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints,
                 istab: Ints, st: Ints, cnt: Ints, ctl: Ints, few: Ints, gt: Ints,
                 tc: Ints) -> int:
    """:func:`_toward`, through the tableau cache (not under a whole-deck win,
    whose estimate counts the talon's cards)."""
    if lay[WIN_ALL] and ctl[TARGET] == 0:
        return _toward(lay, cover, worth, pairs, single, istab, st, cnt, ctl, few, gt)
    at = _tc_row(tc, st)
    if not tc[at + 2] & TC_TOWARD:
        tc[at + 3] = _toward(lay, cover, worth, pairs, single, istab, st, cnt, ctl, few, gt)
        tc[at + 2] |= TC_TOWARD
    return int(tc[at + 3])


@jit
def _dig(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
         seqs: Ints, lens: Ints, st: Ints, cnt: Ints, cost: Ints, ctl: Ints, gt: Ints,
         tc: Ints) -> int:
    """The fewest moves still to come that take no card the win needs, beside
    :func:`_estimate`'s removals (which bound the moves that take one, so the two
    add up): the talon dug through to the partners that the pyramid's cards
    cannot find in the tableau or the cell.

    A move that takes a talon card out of the way takes a needed card only by
    pairing it with one, and each needed card goes once: of the talon cards of
    worth ``w`` in a stretch, at most ``room[w]`` (the needed cards that pair
    with ``w``) go so; the others are *loose*, and each loose card costs a move
    of this kind (a draw takes ``lay[DRAWS]`` of them, or one onto each of
    several piles; a removal two at most).  ``cost[t]``, for talon card ``t``, is
    how many such moves come before ``t`` can be played at the least: for a stock
    card, the loose cards above it (a closed stock deals every card above, and
    ``t`` itself); for a waste card, the loose cards above it, or under it where
    the waste's bottom card plays, or else, redeals left, the recycle and the
    loose cards of the stock and under it.  Where a worth ``v`` of the pyramid has
    ``k`` more cards than the tableau and the cell hold partners for, ``k`` talon
    partners must come, so the moves are at least the ``k``-th smallest cost
    among them.  Under a whole-deck win every talon card is needed: a closed
    stock is drawn out, nothing more is said.  ``cnt`` has :data:`CNT_ROWS` rows
    of :data:`WORTHS`.

    Toward ``ctl[TARGET]`` tableau cards gone instead of a win (where
    :func:`_goal_serves`: the pyramid the whole tableau, no cell), at least as
    many of the cards still to go as the pyramid game says (:func:`_goal_fewest`,
    ``alone``) must go with talon cards: the moves are then at least that many-th
    smallest cost among the talon cards that pair with a tableau card (the
    tableau's cards are the needed ones, whatever the win).

    The part that the tableau and the cell alone decide (:func:`_dig_needs`, and
    that number of partners) comes through the tableau cache (``tc``, glossary),
    the rest from :func:`_dig_talon`."""
    if lay[T] == 0 or (lay[CYCLE] and lay[SEARCHING]):
        return 0
    target = ctl[TARGET] > 0
    if target and not _goal_serves(lay):
        return 0
    if not target and lay[WIN_ALL]:
        return _drawn_out(lay, seqs, lens, st)
    at = _tc_row(tc, st)
    room, need = tc[at + 5:at + 5 + WORTHS], tc[at + 5 + WORTHS:at + 5 + 2 * WORTHS]
    if not tc[at + 2] & TC_NEEDS:
        _dig_needs(lay, cover, worth, pairs, single, istab, st[0], st[4], cnt, room, need)
        tc[at + 2] |= TC_NEEDS
    partners = -1
    if target:
        if not tc[at + 2] & TC_PARTNERS:
            k = _goal_fewest(lay, cover, worth, pairs, single, st[0],
                             int(ctl[TARGET]) - _gone(lay, istab, st), True, gt)
            tc[at + 4] = k if 0 < k < 64 else 0
            tc[at + 2] |= TC_PARTNERS
        partners = int(tc[at + 4])
        if partners == 0:
            return 0
    return _dig_talon(lay, worth, pairs, seqs, lens, st, cnt, cost, room, need,
                      tc[TC_MASKS:TC_MASKS + WORTHS], partners)


@small
def _heap_push(heap: Ints, size: int, item: int) -> None:
    i = size
    heap[i] = item
    while i > 0:
        parent = (i - 1) >> 1
        if heap[parent] <= heap[i]:
            break
        heap[parent], heap[i] = heap[i], heap[parent]
        i = parent


@small
def _heap_pop(heap: Ints, size: int) -> int:
    top = heap[0]
    size -= 1
    heap[0] = heap[size]
    i = 0
    while True:
        left, small = 2 * i + 1, i
        if left < size and heap[left] < heap[small]:
            small = left
        if left + 1 < size and heap[left + 1] < heap[small]:
            small = left + 1
        if small == i:
            return int(top)
        heap[small], heap[i] = heap[i], heap[small]
        i = small


@small
def _keep(nodes: Ints, ctl: Ints, st: Ints, came: int, move: int) -> int:
    """Store a state in the next row of ``nodes`` (:data:`NODE`); returns the row."""
    row = ctl[STORED]
    nodes[row, 0], nodes[row, 1], nodes[row, 2] = st[0], st[1], st[5]
    nodes[row, 3] = st[2] | st[3] << 8 | st[4] << 16
    nodes[row, 4], nodes[row, 5] = came, move
    ctl[STORED] = row + 1
    return int(row)


@small
def _kept(nodes: Ints, row: int, st: Ints) -> None:
    """The state stored in row ``row`` of ``nodes``, into ``st``."""
    place = nodes[row, 3]
    st[0], st[1], st[5] = nodes[row, 0], nodes[row, 1], nodes[row, 2]
    st[2], st[3], st[4] = place & 255, (place >> 8) & 255, place >> 16


@small
def _store(nodes: Ints, heap: Ints, ctl: Ints, st: Ints, g: int, h: int, came: int,
           move: int) -> int:
    """Store a state of ``g`` moves and estimate ``h`` and put it on the heap;
    returns its row."""
    row = _keep(nodes, ctl, st, came, move)
    f = g + 2 * h
    _heap_push(heap, ctl[HEAP_N], f << 42 | (1023 - g) << 32 | row)
    ctl[HEAP_N] += 1
    return int(row)


@small
def _goal(lay: Ints, istab: Ints, st: Ints, ctl: Ints) -> bool:
    """The shortest-line search's goal: a win, or ``ctl[TARGET]`` tableau cards gone."""
    if ctl[TARGET] > 0:
        return bool(_gone(lay, istab, st) >= ctl[TARGET])
    return _won(lay, istab, st)


@small
def _toward(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
            st: Ints, cnt: Ints, ctl: Ints, few: Ints, gt: Ints) -> int:
    """The removals the goal still needs at the least (for a win, :func:`_estimate`,
    or :func:`_fewest` where it serves and says more; toward ``ctl[TARGET]``
    tableau cards gone, a move takes two of them only as a pair of tableau cards:
    :func:`_tableau_pairs`)."""
    if ctl[TARGET] > 0:
        need = int(ctl[TARGET]) - _gone(lay, istab, st)
        if need <= 0:
            return 0
        h = max((need + 1) // 2,
                need - _tableau_pairs(lay, cover, worth, pairs, single, istab, st, cnt))
        if _goal_serves(lay):
            h = max(h, _goal_fewest(lay, cover, worth, pairs, single, st[0], need, False, gt))
        return h
    h = _estimate(lay, cover, worth, pairs, single, istab, st, cnt)
    if _few_serves(lay):
        h = max(h, _fewest(lay, cover, worth, pairs, single, st[0], few))
    return h


@jit
def _tableau_pairs(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints,
                   istab: Ints, st: Ints, cnt: Ints) -> int:
    """At most how many moves from ``st`` on take two tableau cards at once (each
    card goes once, so such moves pair off cards of a class that are apart:
    :func:`_class_pairs`; half a worth that pairs with itself; where a worth
    pairs with several, no bound: a large number).  ``cnt``: two rows of
    :data:`WORTHS` at least."""
    n = lay[N]
    cnt[:2 * WORTHS] = 0
    slots = cnt[WORTHS:2 * WORTHS]  # (the tableau slots of each worth)
    for s in range(n):
        if (st[0] >> s) & 1:
            cnt[worth[s]] += 1
            slots[worth[s]] |= 1 << s
    cell = st[4]
    if cell > 0 and istab[cell - 1]:
        cnt[worth[cell - 1]] += 1
    most = 0
    for v in range(WORTHS):
        c = cnt[v]
        if c == 0 or single[v]:
            continue
        partner = _partner(pairs, v)
        if partner == -2:
            return 1 << 20
        if partner == v:
            most += c // 2
        elif partner > v:
            most += _class_pairs(lay, cover, c, cnt[partner], slots[v], slots[partner])
    return most


@small
def _skey(lay: Ints, worth: Ints, st: Ints) -> tuple[int, int, int, int]:
    """:func:`_key` for the shortest line's table (:data:`SIDE_BY_SIDE`)."""
    k0, k1, k2, k3 = _key(lay, worth, st)
    return k0, k1, k2 | SIDE_BY_SIDE, k3


@small
def _draws_serve(lay: Ints) -> bool:
    """Whether states drawn past are looked for: one waste pile, one card a draw,
    the talon's order kept (glossary: drawn past)."""
    return bool(lay[PILES] == 1 and lay[DRAWS] == 1 and not lay[CYCLE]
                and not _grid_mode(lay))


@jit
def _drawn_past(lay: Ints, table: Ints, k0: int, k1: int, k2: int, k3: int, g: int) -> bool:
    """Whether a state stored with the tableau, talon and cell of the key (k0 …
    k3) at another cut (or fewer redeals used) reaches this one by talon moves in
    ``g`` moves at most (glossary: drawn past).  A draw leaves the drawn card on
    top (``hist`` 1 where the waste pairs ask it), a recycle uses a redeal."""
    tal, cut, red = k1, k2 & 255, (k2 >> RED_SHIFT) & 255
    marked = lay[WPAIRS] == WP_DRAWN or lay[WPAIRS] == WP_HAND
    unlimited = lay[REDEALS] < 0
    below = tal & ((1 << cut) - 1)
    mask = table.shape[0] - 1
    i = _home(table, k0, k1, k2, k3)
    while table[i, 2] != 0:
        o2 = table[i, 2] & ~G_BITS
        if (table[i, 0] == k0 and table[i, 1] == k1 and (o2 & ~PLACE_BITS) == (k2 & ~PLACE_BITS)
                and (o2 != k2 or table[i, 3] != k3)):
            c, r = o2 & 255, (o2 >> RED_SHIFT) & 255
            if c == cut:  # no talon move: fewer redeals used, the rest the same
                d, ok = 0, r < red and table[i, 3] == k3
            elif c < cut:  # draws on
                d = _bits(below & ~((1 << c) - 1))
                ok = (unlimited or r <= red) and (k3 == 1 or not marked)
            else:  # the rest of the stock, the recycle, and draws on
                d = _bits(tal >> c) + 1 + _bits(below)
                ok = ((unlimited or r < red)
                      and (k3 == (1 if cut > 0 else 0) or not marked))
            if ok and _g_at(table, i) + d <= g:
                return True
        i = (i + 1) & mask
    return False


@jit
def shortest_start(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints,
                   istab: Ints, st: Ints, nodes: Ints, heap: Ints, table: Ints, ctl: Ints,
                   buf: Ints) -> None:
    """Put the start state ``st`` in the search (``ctl[BOUND]``: the moves of the
    line to beat, set by the caller; ``buf``: the scratch vector)."""
    cnt = buf[BUF_CNT:BUF_FREE]
    few = buf[_few_at(lay):_moves_at(lay)]
    few[FEW_COUNT:] = 0  # (the pyramid game's answers are this deal's)
    gt = buf[_moves_at(lay) + ROOM:]
    if lay[SHORT] == 2:
        gt[:GOAL_VALUES] = 0
    _tc_clear(lay, worth, buf[_tc_at(lay):])  # (its answers are this search's)
    lay[SEARCHING] = 1
    k0, k1, k2, k3 = _skey(lay, worth, st)
    i = _slot(table, k0, k1, k2, k3)
    table[i, 0], table[i, 1], table[i, 2], table[i, 3] = k0, k1, k2, k3  # (g 0)
    ctl[COUNT] = 1
    ctl[GOAL] = -1
    _store(nodes, heap, ctl, st, 0,
           _toward(lay, cover, worth, pairs, single, istab, st, cnt, ctl, few, gt), -1, 0)


@jit
def shortest_run(lay: Ints, cover: Ints, worth: Ints, pairs: Ints, single: Ints, istab: Ints,
                 seqs: Ints, lens: Ints, nodes: Ints, heap: Ints, table: Ints, ctl: Ints,
                 memo: Ints, stack: Ints, buf: Ints, words: Ints, chunk: int) -> int:
    """Search on for at most ``chunk`` new states; returns what stopped it
    (:data:`COMPLETE`: no state left, the best line is the shortest; ``buf``,
    ``words``: the scratch vector and matrix)."""
    st, child = buf[BUF_ST:BUF_ST + 6], buf[BUF_CHILD:BUF_CHILD + 6]
    via = buf[BUF_VIA:BUF_VIA + 6]
    work, cnt = buf[BUF_WORK:BUF_CNT], buf[BUF_CNT:BUF_FREE]  # (:func:`_dig`'s rows)
    free = buf[BUF_FREE:]
    cost, moves = buf[_cost_at(lay):], buf[_moves_at(lay):_moves_at(lay) + ROOM]
    few, gt = buf[_few_at(lay):_moves_at(lay)], buf[_moves_at(lay) + ROOM:]
    tc = buf[_tc_at(lay):]
    past = _draws_serve(lay)
    steps = 0
    while ctl[HEAP_N] > 0:
        if steps >= chunk:
            return SPENT
        if 2 * (ctl[COUNT] + ROOM) + 2 > table.shape[0]:
            return GROW_TABLE
        if ctl[STORED] + ROOM > nodes.shape[0]:
            return GROW_FRAMES
        item = _heap_pop(heap, ctl[HEAP_N])
        ctl[HEAP_N] -= 1
        row = item & 0xFFFFFFFF
        _kept(nodes, row, st)
        g = 1023 - ((item >> 32) & 1023)
        k0, k1, k2, k3 = _skey(lay, worth, st)
        if _g_at(table, _slot(table, k0, k1, k2, k3)) < g:
            continue  # met again since with fewer moves
        if g + ((item >> 42) - g) // 2 >= ctl[BOUND]:  # (its estimate, kept in the heap)
            continue
        if past and _drawn_past(lay, table, k0, k1, k2, k3, g):
            continue
        if lay[PILES] > 1:
            _levels(lay, seqs, lens, st)
        if _prune(lay, cover, worth, pairs, single, istab, st, max(0, ctl[TARGET] - 1), memo,
                  stack, ctl, work, words):
            continue
        _put(via, st)
        # the removals the goal needs: the same all the way (the talon's order plays
        # no part in them), and one move takes one of them at most
        tw = _toward_held(lay, cover, worth, pairs, single, istab, st, cnt, ctl, few, gt, tc)
        d = 0
        cap = 2 * (lay[T] + 2) if lay[REDEALS] < 0 else 1 << 30  # (a full round and more)
        ntab = _free_tableau(lay, cover, st, free)  # (talon moves leave the tableau be)
        nfree, open_top = 0, -1
        while True:
            if d > 0:
                nfree, open_top = _free_talon(lay, worth, seqs, lens, via, free, ntab)
            if d > 0 and _talon_idle(lay, worth, pairs, single, free, nfree):
                k, step = 0, _talon_move(lay, seqs, lens, via)
            else:
                if d > 0:  # (the way on is no shorter than its estimate says)
                    hv = tw + _dig(lay, cover, worth, pairs, single, istab, seqs, lens, via, cnt,
                                   cost, ctl, gt, tc)
                    if g + d + hv >= ctl[BOUND]:
                        break
                    # (only the moves that take a talon card: the others were played
                    # before the draws, the same states for fewer moves)
                    k = _moves_of(lay, cover, worth, pairs, single, seqs, lens, via, free,
                                  nfree, open_top, moves, 0, True, True)
                else:
                    k = _moves(lay, cover, worth, pairs, single, seqs, lens, via, free, moves,
                               0, True)
                step = 0
            for m in range(k):
                move = moves[m]
                if (move & 15) >= DRAW_MOVE:
                    step = move
                    continue
                gc = g + d + 1
                _put(child, via)
                _apply(lay, seqs, lens, child, move)
                if _goal(lay, istab, child, ctl):
                    if gc < ctl[BOUND]:
                        ctl[BOUND] = gc
                        ctl[GOAL] = _keep(nodes, ctl, child, row, move | d << VIA_AT)
                    continue
                c0, c1, c2, c3 = _skey(lay, worth, child)
                i = _home(table, c0, c1, c2, c3)
                first = table[i, 2]  # (read early: the table's row comes while h is found)
                h = _toward_held(lay, cover, worth, pairs, single, istab, child, cnt, ctl, few,
                                 gt, tc)
                if gc + h >= ctl[BOUND]:
                    continue
                if first != 0:
                    i = _slot(table, c0, c1, c2, c3)
                if table[i, 2] != 0 and _g_at(table, i) <= gc:
                    continue
                if past and _drawn_past(lay, table, c0, c1, c2, c3, gc):
                    continue
                h += _dig(lay, cover, worth, pairs, single, istab, seqs, lens, child, cnt,
                          cost, ctl, gt, tc)
                if gc + h >= ctl[BOUND]:
                    continue
                if table[i, 2] == 0:
                    table[i, 0], table[i, 1], table[i, 3] = c0, c1, c3
                    ctl[COUNT] += 1
                table[i, 2] = c2 | gc << G_AT
                ctl[NODES] += 1
                steps += 1
                if ctl[BUDGET] >= 0 and ctl[NODES] > ctl[BUDGET]:
                    return EXHAUSTED
                _store(nodes, heap, ctl, child, gc, h, row, move | d << VIA_AT)
            if step == 0:
                break  # (no talon move, or a forced move)
            if g + d + 1 + max(1, tw) >= ctl[BOUND] or d + 1 > cap:
                break  # (nothing after one more talon move can beat the bound)
            _apply(lay, seqs, lens, via, step)
            d += 1
            v0, v1, v2, v3 = _skey(lay, worth, via)
            if lay[REDEALS] < 0 and v0 == k0 and v1 == k1 and v2 == k2 and v3 == k3:
                break  # (round again)
            i = _slot(table, v0, v1, v2, v3)
            if table[i, 2] != 0 and _g_at(table, i) <= g + d:
                break  # (stored with no more moves: its macros come from it)
            if (ctl[STORED] + ROOM > nodes.shape[0]
                    or 2 * (ctl[COUNT] + ROOM) + 2 > table.shape[0]):
                _heap_push(heap, ctl[HEAP_N], item)  # (searched again once there is room:
                ctl[HEAP_N] += 1  # what it stored so far is met with no fewer moves)
                if ctl[STORED] + ROOM > nodes.shape[0]:
                    return GROW_FRAMES
                return GROW_TABLE
    return COMPLETE


if AOT is not None:  # the entry points compiled ahead of time take their names
    globals().update({name: getattr(AOT, name) for name in ENTRY_POINTS})
