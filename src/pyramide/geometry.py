"""Geometry of the 7-row pyramid: row and column names for its slots.

The covering graph itself is the classic tableau's (:data:`pyramide.rules.CLASSIC_TABLEAU`,
built by :func:`pyramide.layouts.pyramid`); this module only reads it.

Slots are numbered 0..27 row by row, top row first, left to right.  Rows and
columns are 1-based as in the rule book: slot ``(r, i)`` is overlapped by the
two slots ``(r + 1, i)`` and ``(r + 1, i + 1)`` of the row below.

>>> slot(1, 1), slot(7, 7)
(0, 27)
>>> row_col(4)
(3, 2)
>>> COVERED_BY[slot(6, 1)] == (slot(7, 1), slot(7, 2))
True
>>> COVERS[slot(7, 2)] == (slot(6, 1), slot(6, 2))
True
"""

from __future__ import annotations

from pyramide.rules import CLASSIC_TABLEAU

__all__ = ["COVERED_BY", "COVERS", "ROWS", "SLOTS", "row_col", "slot"]

ROWS = 7
SLOTS = len(CLASSIC_TABLEAU)


def slot(row: int, col: int) -> int:
    """Slot number of row ``row`` (1..7), column ``col`` (1..row)."""
    if not (1 <= row <= ROWS and 1 <= col <= row):
        raise ValueError(f"no pyramid position row {row!r}, column {col!r}")
    return row * (row - 1) // 2 + col - 1


def row_col(index: int) -> tuple[int, int]:
    """Row and column (both 1-based) of slot ``index``."""
    if not 0 <= index < SLOTS:
        raise ValueError(f"no pyramid slot {index!r}")
    row = 1
    while row * (row + 1) // 2 <= index:
        row += 1
    return row, index - row * (row - 1) // 2 + 1


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(s.covered_by for s in CLASSIC_TABLEAU.slots)
"""``COVERED_BY[i]``: the slots whose cards lie over slot ``i`` (empty for row 7)."""

COVERS: tuple[tuple[int, ...], ...] = CLASSIC_TABLEAU.covers
"""``COVERS[i]``: the slots that the card in slot ``i`` lies over."""
