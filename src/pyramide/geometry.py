"""Geometry of the 7-row pyramid.

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

__all__ = ["COVERED_BY", "COVERS", "ROWS", "SLOTS", "row_col", "slot"]

ROWS = 7
SLOTS = ROWS * (ROWS + 1) // 2


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


def _covered_by(index: int) -> tuple[int, ...]:
    row, col = row_col(index)
    return () if row == ROWS else (slot(row + 1, col), slot(row + 1, col + 1))


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(_covered_by(i) for i in range(SLOTS))
"""``COVERED_BY[i]``: the slots whose cards lie over slot ``i`` (empty for row 7)."""

COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(SLOTS) if i in COVERED_BY[j]) for i in range(SLOTS)
)
"""``COVERS[i]``: the slots that the card in slot ``i`` lies over."""
