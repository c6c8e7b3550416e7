"""The state the browser renders: cards, what is tappable, figures and message.

Everything rule-related comes from the engine; the browser only draws it.
"""

from __future__ import annotations

from typing import Any

from pyramide.cards import Lang
from pyramide.game import Game
from pyramide.geometry import row_col
from pyramide.messages import move_label, rules_description, rules_name, text
from pyramide.moves import DRAW, RECYCLE
from pyramide.rules import Rules
from pyramide.solver import Solution

__all__ = ["rules_view", "solution_view", "state_view"]


def rules_view(rules: Rules, lang: Lang) -> dict[str, Any]:
    return {
        "letter": rules.letter,
        "name": rules_name(rules, lang),
        "description": rules_description(rules, lang),
        "win": rules.win,
        "redeals": rules.redeals,
        "open_stock": rules.open_stock,
        "waste_pairs": rules.waste_pairs,
        "covering_pairs": rules.covering_pairs,
        "draw_count": rules.draw_count,
    }


def state_view(
    game: Game, *, game_id: int, version: int, lang: Lang, lost: bool = False,
    assisted: bool = False,
) -> dict[str, Any]:
    """The JSON state of docs/api.md."""
    pos = game.position
    free = set(game.free_cards())
    tappable = game.tappable_cards()
    tappable_set = set(tappable)
    pyramid: list[dict[str, Any] | None] = []
    for index, card in enumerate(pos.pyramid):
        if card is None:
            pyramid.append(None)
            continue
        row, col = row_col(index)
        pyramid.append({
            "card": card.code, "row": row, "col": col,
            "free": card in free, "tappable": card in tappable_set,
        })
    open_card = pos.stock[0].code if game.rules.open_stock and pos.stock else None
    return {
        "id": game_id,
        "version": version,
        "code": game.code,
        "rules": rules_view(game.rules, lang),
        "pyramid": pyramid,
        "waste": [card.code for card in pos.waste],
        "stock": {
            "count": len(pos.stock),
            "open_card": open_card,
            "can_draw": game.is_legal(DRAW),
            "can_recycle": game.is_legal(RECYCLE),
            "redeals_left": game.redeals_left,
        },
        "tappable": [card.code for card in tappable],
        "selection": game.selection.code if game.selection is not None else None,
        "score": game.score,
        "moves": game.moves,
        "elapsed": round(game.elapsed, 1),
        "clock_running": game.clock_running,
        "status": game.status,
        "message": (
            {"key": game.message.value, "text": text(game.message, lang)}
            if game.message is not None else None
        ),
        "can_undo": game.can_undo,
        "lost": lost,
        "assisted": assisted,
    }


def solution_view(result: Solution, *, game_id: int, version: int, lang: Lang) -> dict[str, Any]:
    """The solver's line from the position of ``version`` (docs/api.md)."""
    return {
        "id": game_id,
        "version": version,
        "winnable": result.winnable,
        "max_removed": result.max_removed,
        "shortest": result.shortest,
        "moves": [
            {"move": m.code, "kind": m.kind, "cards": [c.code for c in m.cards],
             "card_labels": [c.label(lang) for c in m.cards], "label": move_label(m, lang)}
            for m in result.moves
        ],
    }
