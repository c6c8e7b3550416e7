"""The shortest-line search of the reduced rules (N, C), compiled with numba.

The same search as :func:`pyramide.solver.shortest.search_shortest` on the macro
graph (draw one, unlimited redeals), with the same estimate and one pruning more
(glossary: drawn past), written over plain
integers and numpy arrays so that numba turns it into machine code: on deals
0–999 the median deal takes some 30 times less time than with the interpreted
search, which stays as the reference the tests compare this one with.  The
compiled code is cached on disk, so only the first use on a machine pays for
the compilation (some 20 s).  It is one module on purpose: numba checks a
cached function against its own file only, so a compiled helper in another
module could change without the functions that call it being compiled again.

Glossary
--------
index     a downset's place in :data:`pyramide.solver.downsets.DOWNSETS` (11 bits):
          the pyramid is carried as its index, and the tables of the geometry
          (:data:`MASKS`, :data:`FREE_SLOTS`, :data:`REMOVE`, :data:`COVER` …) give
          its mask, free slots, covering pairs and the index left after removing
          a free slot.
talon     the packed counts of the talon values, as in :mod:`pyramide.solver.reduced`.
key       a state as one int: index | tmask << 11 | cut << 35 (the model's memo:
          index | talon << 11, and above bit 47 which answer it keeps; a search
          has one target, so the memo's keys leave it out).
entry     one push onto the heap: a row of :data:`ENTRY` fields; the heap holds
          ints ordering the entries as the interpreted search orders its tuples
          (``f``, then the larger ``g``), the entry's number last.
macro     a talon index to draw to first (-1: none) and the one or two places of
          the removal, packed into one int (:func:`pack_macro`).
chunk     the search runs a bounded number of states per call and returns, so
          that the caller keeps the clock and collects each line found.
drawn past a state is *drawn past* when a state met before has the same pyramid
          and talon cards, another cut, and fewer moves by at least the draws
          and recycle that bring its cut to this one's: whatever this state can
          do, that one can do by drawing first, in no more moves (the draws'
          distance round the talon obeys the triangle inequality, and the
          cheaper state is searched or cut off by the bound, which then holds
          for this one too).  Such a state is not searched.  The table of
          states seen places a state by its pyramid and talon alone (its key
          without the cut), so the states of every cut of them lie side by side
          and one look finds them (:func:`find`, :func:`look`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from pyramide.geometry import SLOTS
from pyramide.solver import native
from pyramide.solver.downsets import COVERING, DOWNSETS, FREE, bit

__all__ = ["CHUNK", "EMPTY", "FOUND", "CompiledSearch", "model_best", "warm_up"]

Fn = TypeVar("Fn", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]

SOURCE_HASH = native.source_hash(__file__)
"""Names this file's text (:func:`native.source_hash`)."""
AOT_MODULE = "pyramide.solver._search_aot"
"""The search compiled ahead of time (:mod:`pyramide.solver.aot`, built by
``scripts/setup.sh``): loading it takes milliseconds and needs no numba."""


AOT = native.load_ahead_of_time(AOT_MODULE, SOURCE_HASH)


def jit(fn: Fn) -> Fn:
    """Compile ``fn`` with numba (:func:`native.njit`: cached on disk, without
    reference counts); with the ahead-of-time module loaded the functions stay
    plain Python (the driver calls the module's instead) and numba is not
    imported at all."""
    if AOT is not None:
        return fn
    return native.njit(fn)


KING = 13
NEVER = 1 << 30
TMASK_AT, CUT_AT, TALON_AT = 11, 35, 11
PYRAMID_TALON = (1 << CUT_AT) - 1  # a state's key without its cut
FEWEST_TAG, REACH_TAG, BEST_TAG = 1 << 47, 2 << 47, 3 << 47  # the model's memo keys of each kind
G_AT, F_AT, G_MAX = 34, 44, 1023
A_AT, B_AT, PLACE_BITS = 5, 11, 63  # a macro: draw_to + 1, then a + 1, b + 1 (6 bits each)
COST_AT, PARENT_AT = 17, 27  # a seen state: its macro, moves from the start, parent + 1
ENTRY_MASK = (1 << G_AT) - 1
WEIGHT = 2
ENTRY = 6  # index, tmask, cut, talon, key, h (h < 0: -1 - the cheap estimate, lazy)
ROOM = 256  # more than the children of one state
MEMO_BITS = 20  # the model's memo: a cache of 2 ** 20 results
MODEL_MEMO_BITS = 17  # decide's part of it: 1 MB, which stays in the processor's cache
MEMO_SIZE = 1 << MEMO_BITS
KEY_BITS, RESULT_AT, RESULT_BITS = (1 << 49) - 1, 49, 31  # a memo entry: key, result
GENERATION_AT, GENERATIONS = 54, 511  # and the search it belongs to
HASH = 0x5851F42D4C957F2D
BY_VALUE, TALON_BY_VALUE, COVERING_AT, TARGET, WIN = 52, 66, 80, 81, 82
COUNTS_AT, OVER_AT, TIMES_AT, PACKED_AT, CHILD_AT = 83, 97, 111, 136, 162
CHILD = 6  # a child: moves from the start, index, tmask, cut, talon, macro
MOVES_AT, MOVES = CHILD_AT + CHILD * ROOM, 40  # the model's steps from a state, per depth
MEMO_AT = MOVES_AT + 2 * MOVES * SLOTS
GENERATION = MEMO_AT + MEMO_SIZE
STATES = GENERATION + 1  # the states the model's best evaluated (:func:`best`)
MEMO_SPAN = STATES + 1  # the bits of the memo's part in use: MEMO_BITS or MODEL_MEMO_BITS
LAY = MEMO_SPAN + 1
"""The layout array: the values of the pyramid slots then of the talon cards, the
masks of the pyramid slots and of the talon cards of each value, the flags; then
room for the estimate's counts, for the children of a state and for the model's
steps (so that the search allocates nothing per state); then the model's memo and the search's
generation (one array for all: each array a compiled function takes costs it
two atomic reference counts per call)."""


EMPTY = 0
"""Status of a chunk: no state is left, the last line found is the shortest."""
CHUNK = 1
"""Status of a chunk: its states are spent."""
FOUND = 2
"""Status of a chunk: a line was found (its key and length are returned)."""
GROW = 3
"""Status of a chunk: the arrays need room (the driver grows them and runs on)."""


INDEX = {mask: i for i, mask in enumerate(DOWNSETS)}
"""The index of each downset."""


def _geometry() -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    n = len(DOWNSETS)
    masks = np.array(DOWNSETS, dtype=np.int64)
    free = np.full((n, 7), -1, dtype=np.int64)
    nfree = np.zeros(n, dtype=np.int64)
    remove = np.full((n, SLOTS), -1, dtype=np.int64)
    cover = np.full((n, 7, 2), -1, dtype=np.int64)
    ncover = np.zeros(n, dtype=np.int64)
    for i, mask in enumerate(DOWNSETS):
        nfree[i] = len(FREE[mask])
        for k, s in enumerate(FREE[mask]):
            free[i, k] = s
            remove[i, s] = INDEX[mask & ~bit(s)]
        ncover[i] = len(COVERING[mask])
        for k, pair in enumerate(COVERING[mask]):
            cover[i, k] = pair
    return masks, free, nfree, remove, cover, ncover


MASKS, FREE_SLOTS, NFREE, REMOVE, COVER, NCOVER = (
    _geometry() if AOT is None else (np.empty(0, dtype=np.int64),) * 6)
"""Per downset index: the mask, the free slots (and their count), the index after
removing a free slot, the covering pairs (and their count); numba compiles them
in as constants (the ahead-of-time module holds them already: not built then)."""


# --------------------------------------------------------------------- bits


@jit
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0x7F


@jit
def highbit(x: int) -> int:
    """Index of the highest set bit (-1 for 0), by halving the range."""
    if x == 0:
        return -1
    n = 0
    for step in (32, 16, 8, 4, 2, 1):
        if x >> step:
            x >>= step
            n += step
    return n


@jit
def below(tmask: int, cut: int) -> int:
    """Index of the top waste card under ``cut`` (-1 when none)."""
    return highbit(tmask & ((1 << cut) - 1))


@jit
def count(talon: int, value: int) -> int:
    return (talon >> (3 * (value - 1))) & 7


@jit
def one(value: int) -> int:
    """The packed talon of one card of ``value`` (0 for no card, and for a king)."""
    if value == 0 or value == KING:
        return 0
    return 1 << (3 * (value - 1))


@jit
def nth_lowest(bits: int, n: int) -> int:
    for _ in range(n - 1):
        bits &= bits - 1
    return highbit(bits & -bits)


@jit
def cycle_distance(tmask: int, start: int, end: int) -> int:
    """Draws and recycles that move the cut from ``start`` to ``end``."""
    if end == start:
        return 0
    if end > start:
        return popcount(tmask & ((1 << end) - 1) & ~((1 << start) - 1))
    return popcount(tmask >> start) + 1 + popcount(tmask & ((1 << end) - 1))


# ------------------------------------------------------------ reduced model


@jit
def drop(index: int, a: int, b: int) -> int:
    """The downset index after removing ``a`` and ``b`` (-1: none), in the order
    that keeps each one free (a covering pair loses its cover first)."""
    remove = REMOVE
    if b < 0:
        return int(remove[index, a])
    after = remove[index, a]
    if after >= 0:
        return int(remove[after, b])
    return int(remove[remove[index, b], a])


@jit
def loose(lay: Ints, mask: int, talon: int, v: int, spare: int) -> bool:
    w = KING - v
    return (count(talon, w) >= popcount(mask & lay[BY_VALUE + v]) - spare
            and count(talon, v) >= popcount(mask & lay[BY_VALUE + w]) - spare)


@jit
def safe(lay: Ints, index: int, talon: int) -> tuple[int, int, int]:
    """The reduced model's safe step (slot, second slot or -1, talon value or 0);
    slot -1 when there is none."""
    masks, free, nfree, cover, ncover = MASKS, FREE_SLOTS, NFREE, COVER, NCOVER
    covering = lay[COVERING_AT]
    mask = masks[index]
    n = nfree[index]
    for k in range(n):
        a = free[index, k]
        v = lay[a]
        if v == KING:
            return a, -1, 0
        w = KING - v
        if loose(lay, mask, talon, v, 0):
            return a, -1, w
    for i in range(n):
        a = free[index, i]
        for j in range(i + 1, n):
            b = free[index, j]
            if lay[a] + lay[b] == KING and loose(lay, mask, talon, lay[a], 1):
                return a, b, 0
    if covering:
        for k in range(ncover[index]):
            a, b = cover[index, k, 0], cover[index, k, 1]
            if lay[a] + lay[b] == KING and loose(lay, mask, talon, lay[a], 1):
                return a, b, 0
    return -1, -1, 0


@jit
def model_steps(lay: Ints, index: int, talon: int) -> tuple[int, int]:
    """The model's steps from a state, kings aside: pyramid pairs, covering pairs,
    then a pyramid card with a talon card; written as (index, talon) pairs after
    the step into the room of the state's depth (the cards gone: each step takes
    one more, so the nested searches of the model never share a room).  Where they
    start in the layout array, and their count."""
    free, nfree, cover, ncover = FREE_SLOTS, NFREE, COVER, NCOVER
    at = MOVES_AT + 2 * MOVES * (SLOTS - popcount(MASKS[index]))
    n = nfree[index]
    k = at
    for i in range(n):
        a = free[index, i]
        for j in range(i + 1, n):
            b = free[index, j]
            if lay[a] + lay[b] == KING:
                lay[k], lay[k + 1] = drop(index, a, b), talon
                k += 2
    if lay[COVERING_AT]:
        for c in range(ncover[index]):
            a, b = cover[index, c, 0], cover[index, c, 1]
            if lay[a] + lay[b] == KING:
                lay[k], lay[k + 1] = drop(index, a, b), talon
                k += 2
    for i in range(n):
        a = free[index, i]
        need = KING - lay[a]
        if need and count(talon, need):
            lay[k], lay[k + 1] = drop(index, a, -1), talon - one(need)
            k += 2
    return at, (k - at) // 2


@jit
def ceiling(lay: Ints, mask: int, talon: int) -> int:
    """At most this many pyramid cards can be gone in the end: a card goes alone (a
    king) or with a partner, of the pyramid or of the talon, so of each class no
    more cards of one value go than the other value has in all."""
    total = SLOTS - popcount(mask) + popcount(mask & lay[BY_VALUE + KING])
    for v in range(1, 7):
        a, b = popcount(mask & lay[BY_VALUE + v]), popcount(mask & lay[BY_VALUE + KING - v])
        total += min(a, b + count(talon, KING - v)) + min(b, a + count(talon, v))
    return total


@jit
def reaches(lay: Ints, index: int, talon: int) -> int:
    """1 when the reduced model reaches the search's target (that many pyramid
    cards gone) from the state, else 0: a search of the model that stops at the
    first line reaching it (safe steps taken at once, as in the model)."""
    mask = MASKS[index]
    if SLOTS - popcount(mask) >= lay[TARGET]:
        return 1
    if ceiling(lay, mask, talon) < lay[TARGET]:
        return 0
    key = index | talon << TALON_AT | REACH_TAG
    known = recall(lay, key)
    if known >= 0:
        return known
    a, b, w = safe(lay, index, talon)
    if a >= 0:
        result = reaches(lay, drop(index, a, b), talon - one(w))
    else:
        result = 0
        at, steps = model_steps(lay, index, talon)
        for k in range(at, at + 2 * steps, 2):
            if reaches(lay, lay[k], lay[k + 1]):
                result = 1
                break
    remember(lay, key, result)
    return result


@jit
def best(lay: Ints, index: int, talon: int) -> int:
    """The reduced model's best from the state: the most pyramid cards gone in all
    (28: winnable), as :meth:`ReducedModel.best <pyramide.solver.reduced.ReducedModel.best>`
    finds it, in the same order; ``lay[STATES]`` counts the states it evaluates."""
    key = index | talon << TALON_AT | BEST_TAG
    known = recall(lay, key)
    if known >= 0:
        return known
    lay[STATES] += 1
    a, b, w = safe(lay, index, talon)
    if a >= 0:
        result = best(lay, drop(index, a, b), talon - one(w))
    else:
        result = SLOTS - popcount(MASKS[index])
        at, steps = model_steps(lay, index, talon)
        for k in range(at, at + 2 * steps, 2):
            found = best(lay, lay[k], lay[k + 1])
            if found > result:
                result = found
                if found == SLOTS:
                    break
    remember(lay, key, result)
    return result


@jit
def model(lay: Ints, index: int, talon: int) -> int:
    """:func:`best` as an entry point (a recursive function cannot be one itself),
    from the 28 pyramid values in the layout: it fills in their masks by value."""
    for v in range(KING + 1):
        lay[BY_VALUE + v] = 0
    for s in range(SLOTS):
        lay[BY_VALUE + lay[s]] |= 1 << s
    lay[STATES] = 0
    lay[MEMO_SPAN] = MODEL_MEMO_BITS
    return best(lay, index, talon)


@jit
def floor_steps(lay: Ints, mask: int) -> int:
    """A floor under :func:`fewest`: a step takes two pyramid cards only as a pair
    of the pyramid (at most as many as the smaller value of each class has), and
    to clear the pyramid at most one card of each value of a class (a king alone)."""
    target = int(lay[TARGET])
    if target < SLOTS:
        pairs = 0
        for v in range(1, 7):
            pairs += min(popcount(mask & lay[BY_VALUE + v]),
                         popcount(mask & lay[BY_VALUE + KING - v]))
        need = target - (SLOTS - popcount(mask))
        return need - min(pairs, need // 2)
    steps = popcount(mask & lay[BY_VALUE + KING])
    for v in range(1, 7):
        steps += max(popcount(mask & lay[BY_VALUE + v]), popcount(mask & lay[BY_VALUE + KING - v]))
    return steps


@jit
def fewest(lay: Ints, index: int, talon: int) -> int:
    """Fewest steps of the model from the state to the search's target (``NEVER``)."""
    if SLOTS - popcount(MASKS[index]) >= lay[TARGET]:
        return 0
    key = index | talon << TALON_AT | FEWEST_TAG
    known = recall(lay, key)
    if known >= 0:
        return known
    result = NEVER
    if reaches(lay, index, talon):
        king = -1
        for i in range(NFREE[index]):
            if lay[FREE_SLOTS[index, i]] == KING:
                king = FREE_SLOTS[index, i]
                break
        if king >= 0:
            result = 1 + fewest(lay, drop(index, king, -1), talon)
        else:
            floor = floor_steps(lay, MASKS[index])  # no child can beat it: stop there
            at, steps = model_steps(lay, index, talon)
            for k in range(at, at + 2 * steps, 2):
                if result <= floor:
                    break
                result = min(result, 1 + fewest(lay, lay[k], lay[k + 1]))
    remember(lay, key, result)
    return result


# ----------------------------------------------------------------- estimate


@jit
def waste_reach(lay: Ints, tmask: int, cut: int) -> int:
    """The waste cards that removals alone might bring to the top (see
    :func:`pyramide.solver.table.waste_reach`)."""
    for v in range(KING + 1):
        lay[OVER_AT + v] = 0
    reach = 0
    index = below(tmask, cut)
    while index >= 0:
        reach |= 1 << index
        value = lay[SLOTS + index]
        if value != KING:
            lay[OVER_AT + value] += 1
            if lay[OVER_AT + value] > lay[COUNTS_AT + KING - value]:
                break
        index = below(tmask, index)
    return reach


@jit
def draws_for(lay: Ints, tmask: int, cut: int, reach: int, value: int, wanted: int) -> int:
    """Fewest draws and recycles that bring ``wanted`` talon cards of ``value`` into play."""
    waste = (1 << cut) - 1
    cards = tmask & lay[TALON_BY_VALUE + value]
    wanted -= popcount(cards & waste & reach)
    if wanted <= 0:
        return 0
    stock = cards & ~waste
    if wanted <= popcount(stock):
        index = nth_lowest(stock, wanted)
        return popcount(tmask & ~waste & ((1 << index) - 1)) + 1
    buried = cards & waste & ~reach
    wanted -= popcount(stock)
    if wanted > popcount(buried):
        return NEVER
    index = nth_lowest(buried, wanted)
    return popcount(tmask & ~waste) + 1 + popcount(tmask & ((2 << index) - 1))


@jit
def add_card(lay: Ints, n: int, i: int, time: int) -> int:
    """For :func:`draws_needed`: talon card ``i`` as the ``n``-th to show, at
    ``time``, and the packed talon of the first ``n + 1``; the count after it."""
    lay[TIMES_AT + n] = time
    lay[PACKED_AT + n + 1] = lay[PACKED_AT + n] + one(lay[SLOTS + i])
    return n + 1


@jit
def draws_needed(lay: Ints, index: int, tmask: int, cut: int, reach: int,
                 known: int, enough: int) -> int:
    """Draws and recycles before the last talon card a line needs can show (see
    :meth:`pyramide.solver.shortest.Estimator.draws_needed`), looked for only above
    ``known`` (the draws already known to be needed: returned when the answer is
    no more), and only up to ``enough`` (any answer that large will do)."""
    lay[PACKED_AT] = 0
    n = 0
    waste = (1 << cut) - 1
    rest = tmask & waste & reach  # the waste within reach: at once
    while rest:
        n = add_card(lay, n, highbit(rest & -rest), 0)
        rest &= rest - 1
    rest = tmask & ~waste  # the stock: when drawn
    depth = 0
    while rest:
        depth += 1
        n = add_card(lay, n, highbit(rest & -rest), depth)
        rest &= rest - 1
    rest = tmask & waste & ~reach  # the rest of the waste: after the recycle
    while rest:
        i = highbit(rest & -rest)
        n = add_card(lay, n, i, depth + 1 + popcount(tmask & ((2 << i) - 1)))
        rest &= rest - 1
    # prefixes of length ``low`` fall short, of length ``high`` reach the target
    low = 0
    while low < n and lay[TIMES_AT + low] <= known:
        low += 1
    if reaches(lay, index, lay[PACKED_AT + low]):
        return known if low else 0
    high = low
    while high < n and lay[TIMES_AT + high] < enough:
        high += 1
    if high < n and (high == low or not reaches(lay, index, lay[PACKED_AT + high])):
        return int(lay[TIMES_AT + high])
    while high - low > 1:
        middle = (low + high) // 2
        if reaches(lay, index, lay[PACKED_AT + middle]):
            high = middle
        else:
            low = middle
    return int(lay[TIMES_AT + high - 1])


@jit
def estimate(lay: Ints, index: int, tmask: int, cut: int, talon: int,
             limit: int) -> int:
    """The admissible estimate of the moves to the goal, or a weaker one that
    already reaches ``limit``."""
    win = lay[WIN]
    moves = fewest(lay, index, talon)
    if moves >= NEVER:
        return NEVER
    mask = MASKS[index]
    lay[COUNTS_AT] = 0
    for v in range(1, KING + 1):
        lay[COUNTS_AT + v] = popcount(mask & lay[BY_VALUE + v])
    reach = waste_reach(lay, tmask, cut)
    quick = moves
    if win:
        draws = 0
        for v in range(1, 7):
            w = KING - v
            a, b = lay[COUNTS_AT + v], lay[COUNTS_AT + w]
            short, value = (a - b, w) if a >= b else (b - a, v)
            if short:
                draws = max(draws, draws_for(lay, tmask, cut, reach, value, short))
        quick += draws
        if quick >= limit:
            return quick
    return max(quick, moves + draws_needed(lay, index, tmask, cut, reach,
                                           quick - moves, limit - moves))


# ------------------------------------------------------------------- search


@jit
def pack_macro(draw_to: int, a: int, b: int) -> int:
    return (draw_to + 1) | (a + 1) << A_AT | (b + 1) << B_AT


@jit
def spread(key: int, bits: int) -> int:
    """A hash of ``key`` in ``bits`` bits."""
    return ((key * HASH) >> (64 - bits)) & ((1 << bits) - 1)


@jit
def recall(lay: Ints, key: int) -> int:
    """The model's result kept for ``key`` in this search, or -1 (the memo is a
    cache: a newer key may have taken the place)."""
    kept = lay[MEMO_AT + spread(key, lay[MEMO_SPAN])]
    if kept & KEY_BITS != key or kept >> GENERATION_AT != lay[GENERATION]:
        return -1
    result = (kept >> RESULT_AT) & RESULT_BITS
    return NEVER if result == RESULT_BITS else result


@jit
def remember(lay: Ints, key: int, result: int) -> None:
    lay[MEMO_AT + spread(key, lay[MEMO_SPAN])] = (key | min(result, RESULT_BITS) << RESULT_AT
                                             | lay[GENERATION] << GENERATION_AT)


@jit
def find(seen: Ints, key: int) -> int:
    """The place of ``key`` in the table of states seen, or the empty place for it:
    looked for from the place of its pyramid and talon (the key without its cut),
    so that the states of every cut of them lie side by side."""
    size = seen.shape[1]
    place = spread(key & PYRAMID_TALON, highbit(size))
    while seen[0, place] != 0 and seen[0, place] != key + 1:
        place = (place + 1) & (size - 1)
    return place


@jit
def look(seen: Ints, key: int, tmask: int, cut: int, g: int, own: int) -> int:
    """The place of ``key`` in the table of states seen (or the empty place for
    it), or -1 when it need not be searched at ``g`` moves: it was seen with
    ``own`` moves or fewer, or it is drawn past (glossary).  One scan of the
    states of its pyramid and talon does both."""
    size = seen.shape[1]
    pyramid_talon = key & PYRAMID_TALON
    place = spread(pyramid_talon, highbit(size))
    found = -1
    while seen[0, place] != 0:
        other = seen[0, place] - 1
        if other == key:
            if (seen[1, place] >> COST_AT) & G_MAX <= own:
                return -1
            found = place
        elif other & PYRAMID_TALON == pyramid_talon:
            moves = (seen[1, place] >> COST_AT) & G_MAX
            if moves + cycle_distance(tmask, other >> CUT_AT, cut) <= g:
                return -1
        place = (place + 1) & (size - 1)
    return found if found >= 0 else place


@jit
def heap_push(heap: Ints, n: int, item: int) -> None:
    i = n
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] > item:
            heap[i] = heap[up]
            i = up
        else:
            break
    heap[i] = item


@jit
def heap_pop(heap: Ints, n: int) -> int:
    top = heap[0]
    n -= 1
    last = heap[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] < last:
            heap[i] = heap[child]
            i = child
        else:
            break
    heap[i] = last
    return int(top)


@jit
def add_child(lay: Ints, k: int, g: int, index: int, tmask: int, cut: int, talon: int,
              macro: int) -> int:
    """Write child ``k`` (its moves from the start, state and macro) into the
    children's room of the layout array; the count of children after it."""
    at = CHILD_AT + CHILD * k
    lay[at], lay[at + 1], lay[at + 2] = g, index, tmask
    lay[at + 3], lay[at + 4], lay[at + 5] = cut, talon, macro
    return k + 1


@jit
def rehash(seen: Ints, wider: Ints) -> int:
    """Move the states seen into the wider table ``wider``."""
    for place in range(seen.shape[1]):
        if seen[0, place]:
            there = find(wider, seen[0, place] - 1)
            wider[0, there], wider[1, there] = seen[0, place], seen[1, place]
    return 0


@jit
def children(lay: Ints, index: int, tmask: int, cut: int, talon: int, g: int) -> int:
    """The children of a state in the macro graph, written into the children's room
    (:func:`add_child`), and their count: a free king alone, else the pyramid pairs
    and every talon card brought on top with its partners."""
    free, nfree, cover, ncover = FREE_SLOTS, NFREE, COVER, NCOVER
    n = nfree[index]
    for i in range(n):
        s = free[index, i]
        if lay[s] == KING:
            return add_child(lay, 0, g + 1, drop(index, s, -1), tmask, cut, talon,
                             pack_macro(-1, s, -1))
    k = 0
    for i in range(n):
        a = free[index, i]
        for j in range(i + 1, n):
            b = free[index, j]
            if lay[a] + lay[b] == KING:
                k = add_child(lay, k, g + 1, drop(index, a, b), tmask, cut, talon,
                              pack_macro(-1, a, b))
    if lay[COVERING_AT]:
        for c in range(ncover[index]):
            a, b = cover[index, c, 0], cover[index, c, 1]
            if lay[a] + lay[b] == KING:
                k = add_child(lay, k, g + 1, drop(index, a, b), tmask, cut, talon,
                              pack_macro(-1, a, b))
    rest = tmask
    while rest:
        low = rest & -rest
        rest ^= low
        t = highbit(low)
        value = lay[SLOTS + t]
        steps = -1
        child_tmask = tmask ^ low
        child_cut = below(child_tmask, t) + 1
        if value == KING:
            steps = cycle_distance(tmask, cut, t + 1)
            k = add_child(lay, k, g + steps + 1, index, child_tmask, child_cut, talon,
                          pack_macro(t, SLOTS + t, -1))
            continue
        for i in range(n):
            s = free[index, i]
            if lay[s] + value == KING:
                if steps < 0:
                    steps = cycle_distance(tmask, cut, t + 1)
                k = add_child(lay, k, g + steps + 1, drop(index, s, -1), child_tmask,
                              child_cut, talon - one(value), pack_macro(t, s, SLOTS + t))
    return k


@jit
def run(lay: Ints, heap: Ints, entries: Ints, seen: Ints, sizes: Ints, bound: int,
        chunk: int) -> tuple[int, int, int, int]:
    """Search on until a line shorter than ``bound`` is found, no state is left,
    ``chunk`` states are spent, or the arrays need room for one more state's
    children (:data:`GROW`): ``(status, states spent, line key, line length)``."""
    target, win = lay[TARGET], lay[WIN]
    spent = 0
    while sizes[0] > 0:
        item = heap_pop(heap, sizes[0])
        sizes[0] -= 1
        e = item & ENTRY_MASK
        g = G_MAX - ((item >> G_AT) & G_MAX)
        f = item >> F_AT
        key, h = entries[e, 4], entries[e, 5]
        if g + (h if h >= 0 else -1 - h) >= bound:
            continue
        index, tmask, cut, talon = entries[e, 0], entries[e, 1], entries[e, 2], entries[e, 3]
        if look(seen, key, tmask, cut, g, g - 1) < 0:
            continue
        if h < 0:
            h = estimate(lay, index, tmask, cut, talon, bound - g)
            if g + h >= bound:
                continue
            if g + WEIGHT * h > f:
                entries[e, 5] = h
                heap_push(heap, sizes[0], (g + WEIGHT * h) << F_AT | (G_MAX - g) << G_AT | e)
                sizes[0] += 1
                continue
        mask = MASKS[index]
        if (mask == 0) if win else (SLOTS - popcount(mask) >= target):
            return FOUND, spent, key, g
        if spent >= chunk or (sizes[0] + ROOM > heap.shape[0]
                              or sizes[1] + ROOM > entries.shape[0]
                              or 2 * (sizes[2] + ROOM) > seen.shape[1]):
            heap_push(heap, sizes[0], item)
            sizes[0] += 1
            return (CHUNK if spent >= chunk else GROW), spent, -1, -1
        spent += 1
        for c in range(children(lay, index, tmask, cut, talon, g)):
            # offer each child: not when its floor or its estimate cannot beat the
            # bound, nor when a way to it as cheap is known
            at = CHILD_AT + CHILD * c
            g2, index2, tmask2 = lay[at], lay[at + 1], lay[at + 2]
            cut2, talon2, macro = lay[at + 3], lay[at + 4], lay[at + 5]
            if g2 + floor_steps(lay, MASKS[index2]) >= bound:
                continue
            key2 = index2 | tmask2 << TMASK_AT | cut2 << CUT_AT
            place = look(seen, key2, tmask2, cut2, g2, g2)
            if place < 0:
                continue
            cheap = fewest(lay, index2, talon2)
            if g2 + cheap >= bound:
                continue
            if not seen[0, place]:
                seen[0, place] = key2 + 1
                sizes[2] += 1
            seen[1, place] = (e + 1) << PARENT_AT | g2 << COST_AT | macro
            e2 = sizes[1]
            entries[e2, 0], entries[e2, 1], entries[e2, 2] = index2, tmask2, cut2
            entries[e2, 3], entries[e2, 4], entries[e2, 5] = talon2, key2, -1 - cheap
            heap_push(heap, sizes[0], (g2 + WEIGHT * cheap) << F_AT | (G_MAX - g2) << G_AT | e2)
            sizes[0] += 1
            sizes[1] += 1
    return EMPTY, spent, -1, -1


# --------------------------------------------------------------- the driver


class _Jitted:
    """The entry points of the search as numba compiles them (cached on disk)."""

    model = staticmethod(model)
    estimate = staticmethod(estimate)
    find = staticmethod(find)
    rehash = staticmethod(rehash)
    run = staticmethod(run)


KERNEL: Any = AOT if AOT is not None else _Jitted
"""The entry points the driver calls: the ahead-of-time module when it is built from
this file, else the functions above compiled by numba."""

_spare: list[Ints] = []
_spare_lock = threading.Lock()


def take_layout(*, clear: bool = True) -> Ints:
    """A layout array for one search: a spare one when a search has given one back
    (the memo's pages stay mapped), its memo entries tagged with the search's
    generation so that the last search's ones no longer count (cleared when the
    tags wrap round).  Without ``clear`` the part before the memo is left as the
    last search left it (the model's best sets what it reads)."""
    with _spare_lock:
        lay = _spare.pop() if _spare else None
    if lay is None:
        lay = np.zeros(LAY, dtype=np.int64)
    elif lay[GENERATION] >= GENERATIONS:
        lay[MEMO_AT:] = 0
    lay[GENERATION] += 1
    if clear:
        lay[:MEMO_AT] = 0
    return lay


@dataclass
class CompiledSearch:
    """One shortest-line search, run chunk by chunk from Python.

    ``values`` are the 28 pyramid values (0 where the slot is empty) then the
    talon's in its cyclic order; the state is the pyramid mask, the talon mask,
    the cut and the packed talon values (see :mod:`pyramide.solver.table`)."""

    values: Sequence[int]
    covering: bool
    target: int
    win: bool

    def __post_init__(self) -> None:
        lay = take_layout()
        lay[: len(self.values)] = self.values
        for s in range(SLOTS):
            lay[BY_VALUE + self.values[s]] |= 1 << s
        for i, value in enumerate(self.values[SLOTS:]):
            lay[TALON_BY_VALUE + value] |= 1 << i
        lay[COVERING_AT], lay[TARGET], lay[WIN] = self.covering, self.target, self.win
        lay[MEMO_SPAN] = MEMO_BITS
        self.lay = lay
        self.heap = np.empty(1024, dtype=np.int64)
        self.entries = np.empty((1024, ENTRY), dtype=np.int64)
        self.seen = np.zeros((2, 4096), dtype=np.int64)
        self.sizes = np.zeros(3, dtype=np.int64)
        self.nodes = 0

    def start(self, mask: int, tmask: int, cut: int, talon: int) -> None:
        """Put the start state on the heap (with its full estimate)."""
        index = INDEX[mask]
        h = int(KERNEL.estimate(self.lay, index, tmask, cut, talon, NEVER))
        if h >= NEVER:
            return
        key = index | tmask << TMASK_AT | cut << CUT_AT
        place = int(KERNEL.find(self.seen, key))
        self.seen[0, place], self.seen[1, place] = key + 1, 0
        self.entries[0] = (index, tmask, cut, talon, key, h)
        self.heap[0] = (WEIGHT * h) << F_AT | G_MAX << G_AT
        self.sizes[:] = 1

    def run(self, bound: int, chunk: int) -> tuple[int, int, int]:
        """One chunk: ``(status, line key, line length)`` (:data:`EMPTY`,
        :data:`CHUNK` or :data:`FOUND`).  Only lines of at most :data:`G_MAX`
        moves are looked for (a state packs its moves into 10 bits; real lines
        are far shorter)."""
        bound = min(bound, G_MAX + 1)
        while True:
            status, spent, key, g = KERNEL.run(self.lay, self.heap, self.entries, self.seen,
                                               self.sizes, bound, chunk)
            self.nodes += int(spent)
            chunk -= int(spent)
            if status != GROW:
                return int(status), int(key), int(g)
            self.grow()

    def grow(self) -> None:
        """Make room for one more state's children: each full array twice as large."""
        sizes = self.sizes
        if sizes[0] + ROOM > self.heap.shape[0]:
            heap = np.empty(2 * self.heap.shape[0] + ROOM, dtype=np.int64)
            heap[: sizes[0]] = self.heap[: sizes[0]]
            self.heap = heap
        if sizes[1] + ROOM > self.entries.shape[0]:
            entries = np.empty((2 * self.entries.shape[0] + ROOM, ENTRY), dtype=np.int64)
            entries[: sizes[1]] = self.entries[: sizes[1]]
            self.entries = entries
        if 2 * (sizes[2] + ROOM) > self.seen.shape[1]:
            wider = np.zeros((2, 2 * self.seen.shape[1]), dtype=np.int64)
            KERNEL.rehash(self.seen, wider)
            self.seen = wider

    def release(self) -> None:
        """Give the layout array (and its memo) back for the next search (this one
        is over)."""
        with _spare_lock:
            _spare.append(self.lay)

    def macros(self, key: int) -> list[tuple[int, tuple[int, ...]]]:
        """The macros from the start to the state ``key``, first first: (talon index
        to draw to, or -1; the places removed)."""
        seen, entries = self.seen, self.entries
        out: list[tuple[int, tuple[int, ...]]] = []
        while True:
            packed = int(seen[1, KERNEL.find(seen, key)])
            parent = (packed >> PARENT_AT) - 1
            if parent < 0:
                break
            draw_to = (packed & ((1 << A_AT) - 1)) - 1
            a, b = (packed >> A_AT & PLACE_BITS) - 1, (packed >> B_AT & PLACE_BITS) - 1
            out.append((draw_to, (a,) if b < 0 else (a, b)))
            key = int(entries[parent, 4])
        out.reverse()
        return out


def model_best(values: Sequence[int], mask: int, talon: int, *, covering: bool) -> tuple[int, int]:
    """The reduced model's best from (``mask``, packed ``talon``) over the 28 pyramid
    ``values``, compiled (:func:`best`), and the states it evaluated.

    >>> from pyramide.deals import Deal
    >>> from pyramide.solver.reduced import FULL, pack_talon
    >>> deal = Deal.from_number(18)
    >>> model_best([c.value for c in deal.pyramid], FULL,
    ...            pack_talon(c.value for c in deal.cards[28:]), covering=False)[0]
    28
    """
    lay = take_layout(clear=False)
    try:
        lay[:SLOTS] = values
        lay[COVERING_AT] = covering
        found = int(KERNEL.model(lay, INDEX[mask], talon))
        return found, int(lay[STATES])
    finally:
        with _spare_lock:
            _spare.append(lay)


def warm_up() -> None:
    """Compile (or load from the cache) the search, on a tiny position."""
    values = [KING] + [0] * (SLOTS - 1) + [1]
    search = CompiledSearch(values, covering=False, target=SLOTS, win=True)
    search.start(1, 1, 1, 1)
    search.run(NEVER, 10)
    search.release()
    model_best(values[:SLOTS], 1, 0, covering=False)
