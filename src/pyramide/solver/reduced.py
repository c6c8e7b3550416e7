"""The reduced model: the pyramid shape and the values left in the talon.

With unlimited redeals, draw one, no pairs inside the talon and a pyramid-only
win (rules N and C), any talon card can be brought to the top of the waste at
any time by drawing and recycling.  The order of the talon then does not
matter: what can still be done depends only on the pyramid's downset and on the
multiset of talon values.  For every other rule set the model is a relaxation
(the talon there is harder to reach, and pairs inside it only spend cards), so
its answer is an upper bound on the pyramid cards removable.

Glossary
--------
values   ``values[slot]``: the value 1..13 of the card dealt to each pyramid slot.
talon    the counts of each value 1..12 left in the stock and the waste, packed
         3 bits per value (:func:`pack_talon`); kings never matter and are left out.
class    the two values of a pair, ``v`` and ``13 - v``.
step     one removal of the model: a king, two pyramid cards, or one pyramid card
         with a talon card of the partner value (:class:`Step`).
safe     a step that can never make the final result worse; safe steps are
         taken at once, without branching:
         - a free king;
         - a free card whose class is *loose*: the talon holds a partner for every
           pyramid card of the class, so nobody competes for partners;
         - a pair whose class is loose once the pair is gone.
best     the most pyramid cards removed, counting those already gone, that can be
         reached from a state; 28 means the state is winnable.

>>> from pyramide.deals import Deal
>>> deal = Deal.from_number(18)
>>> model = ReducedModel([c.value for c in deal.pyramid], covering=False)
>>> model.best(FULL, pack_talon(c.value for c in deal.cards[28:]))
28
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from pyramide.geometry import SLOTS
from pyramide.solver.downsets import COVERING, FREE, FULL, bit

__all__ = ["FULL", "ReducedModel", "Step", "pack_talon", "pyramid_pairs", "talon_count"]

KING = 13
NEVER = 1 << 30
BITS = 3  # a value occurs at most 4 times


class Step(NamedTuple):
    """One removal of the reduced model: pyramid slots, plus a talon value (0 = none)."""

    slots: tuple[int, ...]
    talon: int = 0


def shift(value: int) -> int:
    return BITS * (value - 1)


SHIFT = tuple(max(0, shift(v)) for v in range(KING + 1))
ONE = (0, *(1 << s for s in SHIFT[1:KING]), 0)  # no talon card (0), and kings: 0
NO_SLOT = SLOTS
BIT = (*(bit(s) for s in range(SLOTS)), 0)  # BIT[NO_SLOT] == 0


def pack_talon(values: Iterable[int]) -> int:
    """The packed counts of the talon values (kings are left out)."""
    return sum([ONE[value] for value in values])  # (ONE[KING] == 0)


def pyramid_pairs(values: Sequence[int], mask: int, *, covering: bool) -> list[tuple[int, int]]:
    """The pairs of two pyramid cards of ``mask`` that can go together: two free
    cards summing to 13, and (``covering``) a card with the one card covering it."""
    free = FREE[mask]
    out = [(a, b) for i, a in enumerate(free) for b in free[i + 1 :]
           if values[a] + values[b] == KING]
    if covering:
        out += [(a, b) for a, b in COVERING[mask] if values[a] + values[b] == KING]
    return out


def talon_count(talon: int, value: int) -> int:
    return talon >> shift(value) & 7


class ReducedModel:
    """Memoised best results of the reduced model for one pyramid layout."""

    def __init__(self, values: Sequence[int], *, covering: bool) -> None:
        if len(values) != SLOTS:
            raise ValueError(f"expected {SLOTS} pyramid values, got {len(values)}")
        self.values = tuple(values)
        self.covering = covering
        by_value = [0] * (KING + 1)
        for s, value in enumerate(values):
            by_value[value] |= BIT[s]
        self.by_value = tuple(by_value)
        self.memo: dict[int, int] = {}
        self.fewest_memo: dict[int, int] = {}

    @property
    def nodes(self) -> int:
        """States evaluated so far."""
        return len(self.memo)

    # ------------------------------------------------------------------ search

    def best(self, mask: int, talon: int) -> int:
        """Most pyramid cards removed in all (28 = winnable) reachable from the state."""
        key = mask | talon << SLOTS
        known = self.memo.get(key)
        if known is not None:
            return known
        safe = self.safe(mask, talon)
        if safe is not None:
            a, b, w = safe
            result = self.best(mask & ~BIT[a] & ~BIT[b], talon - ONE[w])
        else:
            result = SLOTS - mask.bit_count()
            for mask2, talon2 in self.children(mask, talon):
                found = self.best(mask2, talon2)
                if found > result:
                    result = found
                    if found == SLOTS:
                        break
        self.memo[key] = result
        return result

    def fewest_steps(self, mask: int, talon: int, target: int = SLOTS) -> int:
        """Fewest steps from the state to ``target`` pyramid cards gone (``NEVER`` if
        it cannot be reached); with the default target, the steps that clear the pyramid."""
        if SLOTS - mask.bit_count() >= target:
            return 0
        key = mask | talon << SLOTS | target << 64
        known = self.fewest_memo.get(key)
        if known is not None:
            return known
        if self.best(mask, talon) < target:
            result = NEVER
        else:
            king = next((s for s in FREE[mask] if self.values[s] == KING), None)
            if king is not None:
                result = 1 + self.fewest_steps(mask & ~bit(king), talon, target)
            else:
                result = 1 + min(
                    self.fewest_steps(m, t, target) for _, m, t in self.moves(mask, talon)
                )
        self.fewest_memo[key] = result
        return result

    def line(self, mask: int, talon: int) -> list[Step]:
        """The steps of a line reaching :meth:`best` from the state."""
        target = self.best(mask, talon)
        steps: list[Step] = []
        while SLOTS - mask.bit_count() < target:
            step = self.safe_step(mask, talon) or self.best_move(mask, talon, target)
            steps.append(step)
            mask, talon = self.after(mask, talon, step)
        return steps

    def best_move(self, mask: int, talon: int, target: int) -> Step:
        for step, mask2, talon2 in self.moves(mask, talon):
            if self.best(mask2, talon2) == target:
                return step
        raise AssertionError("no move reaches the best result")  # pragma: no cover

    # ------------------------------------------------------------------- moves

    def after(self, mask: int, talon: int, step: Step) -> tuple[int, int]:
        for s in step.slots:
            mask &= ~BIT[s]
        return mask, talon - ONE[step.talon] if step.talon else talon

    def moves(self, mask: int, talon: int) -> list[tuple[Step, int, int]]:
        """Every step but kings (always safe): pyramid pairs first, then talon pairs."""
        values = self.values
        out = [(Step((a, b)), mask & ~(BIT[a] | BIT[b]), talon) for a, b in self.pairs(mask)]
        for a in FREE[mask]:
            need = KING - values[a]
            if need and talon >> SHIFT[need] & 7:
                out.append((Step((a,), need), mask & ~BIT[a], talon - ONE[need]))
        return out

    def children(self, mask: int, talon: int) -> list[tuple[int, int]]:
        """The states after :meth:`moves`, the fast way."""
        values = self.values
        out = [(mask & ~(BIT[a] | BIT[b]), talon) for a, b in self.pairs(mask)]
        for a in FREE[mask]:
            need = KING - values[a]
            if need and talon >> SHIFT[need] & 7:
                out.append((mask & ~BIT[a], talon - ONE[need]))
        return out

    def pairs(self, mask: int) -> list[tuple[int, int]]:
        """The two-card steps inside the pyramid (covering pairs too, if allowed)."""
        return pyramid_pairs(self.values, mask, covering=self.covering)

    def safe_step(self, mask: int, talon: int) -> Step | None:
        """A step that cannot make the result worse (see the glossary), if any."""
        safe = self.safe(mask, talon)
        if safe is None:
            return None
        a, b, w = safe
        return Step((a,) if b == NO_SLOT else (a, b), w)

    def safe(self, mask: int, talon: int) -> tuple[int, int, int] | None:
        """:meth:`safe_step` as ``(slot, second slot or NO_SLOT, talon value or 0)``."""
        values = self.values
        by_value = self.by_value
        free = FREE[mask]
        for a in free:
            v = values[a]
            if v == KING:
                return a, NO_SLOT, 0
            w = KING - v
            if (talon >> SHIFT[w] & 7 >= (mask & by_value[v]).bit_count()
                    and talon >> SHIFT[v] & 7 >= (mask & by_value[w]).bit_count()):
                return a, NO_SLOT, w
        for a, b in self.pairs(mask):
            if self.loose(mask, talon, values[a], spare=1):
                return a, b, 0
        return None

    def loose(self, mask: int, talon: int, v: int, *, spare: int) -> bool:
        """True when the talon holds a partner for each pyramid card of the class of
        ``v``, ``spare`` cards of each value aside (the pair about to go)."""
        w = KING - v
        by_value = self.by_value
        return (
            talon >> SHIFT[w] & 7 >= (mask & by_value[v]).bit_count() - spare
            and talon >> SHIFT[v] & 7 >= (mask & by_value[w]).bit_count() - spare
        )

