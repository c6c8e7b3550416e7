"""Where everything of a game lies on the page, from its description alone.

The page draws any game from this: the tableau's slots (positions from the
game's covering graph, :mod:`pyramide.layouts`) and its piles — the stock,
the waste piles and the cells — in one coordinate system, in card widths (a
card is 1 wide and 1.4 tall).  A new game needs no change in the page.

Glossary
--------
talon column  the stock with the waste piles under it, left of the tableau
              (PySolFC's layout); a game whose waste is fanned end to end
              (Yield: both ends play) gets a waste row under the tableau.
fan           how many top cards of a pile the page shows side by side.
open place    where a stock whose top card lies face up (open stock) shows that
              card: the next place of the talon column, so the face-down rest
              stays in reach of a tap.

>>> from pyramide.games import PRESETS
>>> box = table_box(PRESETS["N"])
>>> box.tableau_x, box.piles["stock"], box.piles["waste"]
(1.6, (0.0, 0.0), (0.0, 1.6))
>>> table_box(PRESETS["G"]).piles
{}
>>> open_box = table_box(PRESETS["P"])
>>> open_box.open_at, open_box.piles["waste"]
((0.0, 1.6), (0.0, 3.2))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pyramide.layouts import CARD_HEIGHT
from pyramide.rules import Rules

__all__ = ["TableBox", "pile_ids", "table_box"]

COLUMN = 1.6
"""Width of the talon column, and the step between its piles (card widths)."""
GAP = 0.4


@dataclass(frozen=True, slots=True)
class TableBox:
    """The extent of a game's table and where its tableau and piles go."""

    width: float
    height: float
    tableau_x: float
    tableau_y: float
    piles: dict[str, tuple[float, float]]
    open_at: tuple[float, float] | None = None


def pile_ids(rules: Rules) -> list[str]:
    """The piles of a game: ``stock``, ``waste``, ``waste2`` …, ``cell`` …"""
    ids = ["stock"] if rules.stock_size or rules.waste_piles else []
    ids += ["waste" if p == 0 else f"waste{p + 1}" for p in range(rules.waste_piles)]
    ids += ["cell" if c == 0 else f"cell{c + 1}" for c in range(rules.cells)]
    return ids


@cache
def table_box(rules: Rules) -> TableBox:
    tableau = rules.tableau
    talon = [p for p in pile_ids(rules) if not p.startswith("cell")]
    piles: dict[str, tuple[float, float]] = {}
    open_at: tuple[float, float] | None = None
    x0 = COLUMN if talon else 0.0
    width = x0 + tableau.width
    height = tableau.height
    if rules.waste_bottom:  # Yield: the stock left, the waste fanned in a row below
        piles["stock"] = (0.0, 0.0)
        piles["waste"] = (x0, round(tableau.height + GAP, 3))
        height = tableau.height + GAP + CARD_HEIGHT
    else:
        places = [(0.0, round(row * COLUMN, 3)) for row in range(len(talon) + 1)]
        if rules.open_stock and talon:  # the open top card has the place under the stock
            open_at = places.pop(1)
        for pile, place in zip(talon, places, strict=False):
            piles[pile] = place
        rows = len(talon) + (open_at is not None)
        height = max(height, rows * COLUMN - (COLUMN - CARD_HEIGHT))
    cells = [p for p in pile_ids(rules) if p.startswith("cell")]
    if cells:
        cell_x = width + GAP
        for c, pile in enumerate(cells):
            piles[pile] = (round(cell_x, 3), round(c * COLUMN, 3))
        width = cell_x + 1.0
    return TableBox(round(width, 3), round(height, 3), x0, 0.0, piles, open_at)
