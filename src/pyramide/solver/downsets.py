"""The shapes a pyramid can take, computed once at import as integer bitmasks.

Glossary
--------
slot     0..27, row by row from the apex, left to right (:mod:`pyramide.geometry`).
bit      ``1 << slot``.
mask     an int whose bit ``s`` is set while slot ``s`` still holds a card.
downset  a mask the game can reach: a card goes only after both cards over it, so
         what is left is closed downwards.  There are 1430 (Catalan number C(8)).
free     a slot of the mask with no card of the mask over it.
cover    the one card of the mask still over a slot (covering pairs, rule book §10).
shadow   the slots a card lies over, directly or not: none of them can be freed
         while the card is there.

>>> len(DOWNSETS), FREE[FULL][:3], FREE[0]
(1430, (21, 22, 23), ())
>>> COVERING[FULL & ~bit(27)]
((20, 26),)
>>> sorted(slots(SHADOW[3]))
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterator

from pyramide.geometry import COVERED_BY, SLOTS

__all__ = [
    "COVERING",
    "DOWNSETS",
    "FREE",
    "FULL",
    "OVER",
    "SHADOW",
    "UNDER",
    "bit",
    "is_downset",
    "slots",
]

FULL = (1 << SLOTS) - 1
"""The whole pyramid."""


def bit(slot: int) -> int:
    return 1 << slot


def slots(mask: int) -> Iterator[int]:
    """The slots of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


OVER: tuple[int, ...] = tuple(sum(bit(c) for c in COVERED_BY[s]) for s in range(SLOTS))
"""``OVER[s]``: the mask of the (at most two) slots lying directly over slot ``s``."""


def _shadow(slot: int) -> int:
    under = 0
    for other in range(SLOTS):
        if other != slot and OVER[other] and _lies_over(slot, other):
            under |= bit(other)
    return under


def _lies_over(top: int, low: int) -> bool:
    """True when the card in ``top`` lies over ``low``, directly or not."""
    return any(c == top or _lies_over(top, c) for c in COVERED_BY[low])


SHADOW: tuple[int, ...] = tuple(_shadow(s) for s in range(SLOTS))
"""``SHADOW[s]``: the slots that the card in ``s`` lies over, directly or not."""


UNDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(SLOTS) if OVER[t] & bit(s)) for s in range(SLOTS))
"""``UNDER[s]``: the (at most two) slots the card in ``s`` lies directly over."""


def _free(mask: int) -> tuple[int, ...]:
    return tuple(s for s in slots(mask) if not mask & OVER[s])


def _covering(mask: int, free: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(covered, cover) pairs: ``cover`` is free and is the only card left over ``covered``."""
    return tuple(sorted((t, top) for top in free for t in UNDER[top]
                        if mask & OVER[t] == bit(top) and mask & bit(t)))


def _enumerate() -> dict[int, tuple[int, ...]]:
    """Every downset with its free slots, fullest first.  A shape's free slots are
    its parent's, less the slot removed, plus the slots under it that it freed."""
    free = {FULL: _free(FULL)}
    todo = [FULL]
    while todo:
        mask = todo.pop()
        for s in free[mask]:
            smaller = mask & ~(1 << s)
            if smaller not in free:
                freed = [t for t in UNDER[s] if not smaller & OVER[t]]
                free[smaller] = tuple(sorted([f for f in free[mask] if f != s] + freed))
                todo.append(smaller)
    return {m: free[m] for m in sorted(free, key=lambda m: (-m.bit_count(), m))}


FREE: dict[int, tuple[int, ...]] = _enumerate()
"""``FREE[mask]``: the free slots of a downset, lowest first (bottom row last)."""

DOWNSETS: tuple[int, ...] = tuple(FREE)
"""Every reachable mask, fullest first."""

COVERING: dict[int, tuple[tuple[int, int], ...]] = {m: _covering(m, f) for m, f in FREE.items()}
"""``COVERING[mask]``: the (covered, cover) slot pairs that covering pairs may remove."""


def is_downset(mask: int) -> bool:
    return mask in FREE
