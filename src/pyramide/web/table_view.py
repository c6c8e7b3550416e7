"""Where things lie on the table: the ``table``, ``tableau`` and ``piles`` keys.

The page draws any game from these (docs/api.md, "The table"): every tableau
slot with its place in card units (a card is 1 wide and 1.4 tall), and every
pile (stock, waste piles, cells) with its place, its visible cards and what a
tap on it does.  Nothing here decides a rule: free, tappable and the pile's
action come from the engine.

For the games of today's engine (a 7-row pyramid, one stock and one waste) the
places are those the page always used: the stock and the waste in a column
left of the pyramid.
"""

from __future__ import annotations

from typing import Any

from pyramide.game import Game
from pyramide.geometry import ROWS, row_col
from pyramide.moves import DRAW, RECYCLE

__all__ = ["CARD_HEIGHT", "table_keys"]

CARD_HEIGHT = 1.4
STEP_X = 1.1
"""Horizontal step between two cards of a pyramid row."""
STEP_Y = CARD_HEIGHT / 2
"""Vertical step between pyramid rows: each card lies half over the two below."""
FAN = 0.38
"""Horizontal step between fanned waste cards."""
COLUMN_GAP = 0.6
"""Between the column of piles and the pyramid."""
PILE_GAP = 0.3
"""Between two piles of the column."""


def pyramid_place(row: int, col: int, left: float = 0.0) -> tuple[float, float]:
    """The top-left corner of pyramid slot (row, col), in card units."""
    return (left + (ROWS - row) * STEP_X / 2 + (col - 1) * STEP_X, (row - 1) * STEP_Y)


def table_keys(game: Game) -> dict[str, Any]:
    """``table``, ``tableau`` and ``piles`` for ``game`` (docs/api.md)."""
    pos = game.position
    rules = game.rules
    free = set(game.free_cards())
    tappable = set(game.tappable_cards())
    fan = 3 if rules.draw_count == 3 else 2
    column_width = 1 + FAN * (fan - 1)
    left = column_width + COLUMN_GAP
    tableau: list[dict[str, Any]] = []
    for index, card in enumerate(pos.pyramid):
        row, col = row_col(index)
        x, y = pyramid_place(row, col, left)
        tableau.append({
            "slot": index, "zone": "pyramid", "x": round(x, 3), "y": round(y, 3),
            "row": row, "col": col,
            "card": card.code if card is not None else None,
            "face_up": card is not None,
            "removed": card is None,
            "free": card is not None and card in free,
            "tappable": card is not None and card in tappable,
        })
    can_draw, can_recycle = game.is_legal(DRAW), game.is_legal(RECYCLE)
    top_open = rules.open_stock and bool(pos.stock)
    place = CARD_HEIGHT + PILE_GAP
    stock: dict[str, Any] = {
        "id": "stock", "kind": "stock", "x": 0.0, "y": 0.0,
        "count": len(pos.stock),
        "cards": [pos.stock[0].code] if top_open else [],
        "top_open": top_open,
        "tappable": can_draw or can_recycle,
        "action": "draw" if can_draw else "recycle" if can_recycle else None,
        "fan": 0,
        "redeals_left": game.redeals_left,
    }
    slots = 2
    if rules.open_stock:  # the open top card lies below the face-down rest
        stock["open_at"] = {"x": 0.0, "y": place}
        slots = 3
    waste = {
        "id": "waste", "kind": "waste", "x": 0.0, "y": round((slots - 1) * place, 3),
        "count": len(pos.waste),
        "cards": [card.code for card in pos.waste],
        "top_open": False, "tappable": False, "action": None,
        "fan": fan, "redeals_left": None,
    }
    height = max((ROWS - 1) * STEP_Y + CARD_HEIGHT, slots * place - PILE_GAP)
    width = left + (ROWS - 1) * STEP_X + 1
    return {
        "table": {"width": round(width, 3), "height": round(height, 3)},
        "tableau": tableau,
        "piles": [stock, waste],
    }
