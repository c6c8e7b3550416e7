"""Tableaux: the cards a game deals onto the table, as a covering graph.

Every game of the family (rule book §11) deals its tableau as *slots*; a slot
is covered by the slots whose cards lie over it, and its card is free once no
card is left on any of them.  The 7-row pyramid of §2, an inverted pyramid, a
second pyramid, reserve piles (each card covered by the one dealt on it) and a
row of single reserve cards are all such graphs, built here and joined.

Glossary
--------
slot        one place for one card; slots are numbered in deal order, which
            is also the order of the game's card list (§8).
covered_by  the slots whose cards lie over a slot.
zone        what a slot belongs to: ``pyramid`` (and ``pyramid2`` …), the
            cards a pyramid-only win must clear; ``reserve`` and ``row`` are
            the other zones.
x, y        where the page draws the slot, in card widths (a card is 1 wide
            and 1.4 tall); later slots are drawn over earlier ones.
hidden      dealt face down, turned face up once the slot is free (Thirteen).

>>> seven = pyramid(7)
>>> len(seven), seven.slots[5].covered_by, seven.free_at_start()
(28, (8, 9), (21, 22, 23, 24, 25, 26, 27))
>>> inverted(3).slots[0].covered_by, inverted(3).free_at_start()
((3,), (5,))
>>> giza = join(pyramid(7), piles(8, 3, y=5.0))
>>> len(giza), giza.slots[28].covered_by, giza.slots[44].covered_by
(52, (36,), ())
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

__all__ = ["CARD_HEIGHT", "Slot", "Tableau", "inverted", "join", "piles", "pyramid", "row"]

CARD_HEIGHT = 1.4
STEP_X = 1.1
"""From one card of a row to the next, in card widths (a small gap)."""
STEP_Y = CARD_HEIGHT / 2
"""From one pyramid row to the next: each card lies half over the two below it."""
FAN_Y = 0.32
"""From one card of a fanned pile to the one dealt on it."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One place of the tableau (see the module glossary)."""

    zone: str
    covered_by: tuple[int, ...]
    x: float
    y: float
    hidden: bool = False


@dataclass(frozen=True)
class Tableau:
    """The slots of a game's tableau, in deal order."""

    slots: tuple[Slot, ...]

    def __len__(self) -> int:
        return len(self.slots)

    def __repr__(self) -> str:
        zones = ", ".join(f"{z}: {sum(s.zone == z for s in self.slots)}" for z in self.zones)
        return f"Tableau({zones})"

    @cached_property
    def covers(self) -> tuple[tuple[int, ...], ...]:
        """``covers[i]``: the slots that the card in slot ``i`` lies over."""
        out: list[list[int]] = [[] for _ in self.slots]
        for index, slot in enumerate(self.slots):
            for over in slot.covered_by:
                out[over].append(index)
        return tuple(tuple(x) for x in out)

    @cached_property
    def zones(self) -> tuple[str, ...]:
        """The zones, in the order their first slot is dealt."""
        return tuple(dict.fromkeys(slot.zone for slot in self.slots))

    @cached_property
    def pyramid_slots(self) -> tuple[int, ...]:
        """The slots a pyramid-only win must clear (zones named ``pyramid…``)."""
        return tuple(i for i, slot in enumerate(self.slots) if slot.zone.startswith("pyramid"))

    @property
    def width(self) -> float:
        return max(slot.x for slot in self.slots) + 1.0

    @property
    def height(self) -> float:
        return max(slot.y for slot in self.slots) + CARD_HEIGHT

    def free_at_start(self) -> tuple[int, ...]:
        return tuple(i for i, slot in enumerate(self.slots) if not slot.covered_by)

    def moved(self, dx: float = 0.0, dy: float = 0.0) -> Tableau:
        """The same tableau drawn ``dx``, ``dy`` card widths further."""
        return Tableau(tuple(replace(s, x=round(s.x + dx, 3), y=round(s.y + dy, 3))
                             for s in self.slots))


def pyramid(rows: int, *, zone: str = "pyramid", x: float = 0.0, y: float = 0.0,
            hidden_rows: int = 0) -> Tableau:
    """A pyramid of ``rows`` rows (1, 2, … cards), dealt row by row from the apex:
    card (r, i) lies under (r + 1, i) and (r + 1, i + 1) (rule book §2); the
    first ``hidden_rows`` rows are dealt face down."""
    def index(r: int, i: int) -> int:
        return r * (r - 1) // 2 + i - 1

    slots = [
        Slot(zone,
             () if r == rows else (index(r + 1, i), index(r + 1, i + 1)),
             round(x + (rows - r) * STEP_X / 2 + (i - 1) * STEP_X, 3),
             round(y + (r - 1) * STEP_Y, 3),
             r <= hidden_rows)
        for r in range(1, rows + 1) for i in range(1, r + 1)
    ]
    return Tableau(tuple(slots))


def inverted(rows: int, *, zone: str = "pyramid", x: float = 0.0, y: float = 0.0) -> Tableau:
    """An inverted pyramid: rows of ``rows``, ``rows - 1``, … 1 cards from the top;
    card (r, i) lies under whichever of (r + 1, i - 1) and (r + 1, i) exist, so
    only the single bottom card is free at the start."""
    starts = [0]
    for r in range(1, rows):
        starts.append(starts[-1] + rows - r + 1)

    def width(r: int) -> int:
        return rows - r + 1

    slots = []
    for r in range(1, rows + 1):
        for i in range(1, width(r) + 1):
            over = () if r == rows else tuple(
                starts[r] + j - 1 for j in (i - 1, i) if 1 <= j <= width(r + 1))
            slots.append(Slot(zone, over,
                              round(x + (r - 1) * STEP_X / 2 + (i - 1) * STEP_X, 3),
                              round(y + (r - 1) * STEP_Y, 3)))
    return Tableau(tuple(slots))


def piles(count: int, depth: int, *, zone: str = "reserve", x: float = 0.0,
          y: float = 0.0) -> Tableau:
    """``count`` fanned piles of ``depth`` face-up cards, dealt round by round (the
    bottom card of every pile first); each card lies under the one dealt on it."""
    slots = [
        Slot(zone, () if level == depth - 1 else ((level + 1) * count + p,),
             round(x + p * STEP_X, 3), round(y + level * FAN_Y, 3))
        for level in range(depth) for p in range(count)
    ]
    return Tableau(tuple(slots))


def row(count: int, *, zone: str = "row", x: float = 0.0, y: float = 0.0) -> Tableau:
    """A row of ``count`` single face-up cards, each free until removed."""
    return piles(count, 1, zone=zone, x=x, y=y)


def join(*parts: Tableau) -> Tableau:
    """One tableau of several, dealt one after the other (slot numbers shifted)."""
    slots: list[Slot] = []
    for part in parts:
        base = len(slots)
        slots += [replace(s, covered_by=tuple(base + c for c in s.covered_by))
                  for s in part.slots]
    return Tableau(tuple(slots))
