"""The state the browser renders: cards, what is tappable, figures and message.

Everything rule-related comes from the engine; the browser only draws it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pyramide import kernel
from pyramide.cards import DeckSize, Lang, deck_cards
from pyramide.daily import GRADED_RULES
from pyramide.game import Game
from pyramide.geometry import row_col
from pyramide.messages import move_label, rules_description, rules_name, text
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import CLASSIC_TABLEAU, Rules
from pyramide.solver import Solution
from pyramide.web.table import pile_ids, table_box
from pyramide.winrates import win_rate

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
        "group": "family" if rules.family else "pyramid",
        "deck": rules.deck,
        # the card list's parts in order (rule book §8): tableau, waste, stock
        "card_list": {"pyramid": rules.tableau == CLASSIC_TABLEAU,  # the 7-row pyramid alone
                      "tableau": len(rules.tableau),
                      "waste": rules.waste_piles * rules.start_waste,
                      "stock": rules.stock_size,
                      **_deck_marks(rules.deck)},
        "target": rules.target,
        "win_rate": win_rate(rules.letter),
        "graded": rules.letter in GRADED_RULES,  # random deals by difficulty (pyramide.daily)
        "published": [{"source": source, "percent": percent}
                      for source, percent in rules.published],
    }


@cache
def _deck_marks(size: DeckSize) -> dict[str, bool]:
    """What a card list of the deck of ``size`` may hold: tens (not the Spanish
    deck), a second deck's marked cards (two decks).  Once per deck: every game
    state carries its rules."""
    cards = deck_cards(size)
    return {"tens": any(card.value == 10 for card in cards),
            "second_deck": any(card.copy for card in cards)}


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
        row, col = row_col(index) if game.rules.classic else (0, 0)
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
        **table_view(game),
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
            {"key": game.message.value,
             "text": text(game.message, lang, target=game.rules.target)}
            if game.message is not None else None
        ),
        "can_undo": game.can_undo,
        "lost": lost,
        "assisted": assisted,
    }


def table_view(game: Game) -> dict[str, Any]:
    """The table as the page draws it, for any game (docs/api.md): its extent, every
    tableau slot (a face-down card is sent as ``null``) and every pile."""
    rules, pos = game.rules, game.position
    box = table_box(rules)
    free = set(game.free_cards())
    tappable = set(game.tappable_cards())
    tableau = []
    for index, (slot, card) in enumerate(zip(rules.tableau.slots, pos.tableau, strict=True)):
        face_up = card is None or kernel.visible(rules, pos, index)
        shown = card if face_up else None
        tableau.append({
            "slot": index, "zone": slot.zone,
            "x": round(box.tableau_x + slot.x, 3), "y": round(box.tableau_y + slot.y, 3),
            "card": shown.code if shown is not None else None,
            "face_up": face_up, "removed": card is None,
            "free": shown is not None and shown in free,
            "tappable": shown is not None and shown in tappable,
        })
    piles = []
    can_draw, can_recycle = game.is_legal(DRAW), game.is_legal(RECYCLE)
    open_top = kernel.stock_top_open(rules, pos)
    for pile in pile_ids(rules):
        x, y = box.piles[pile]
        entry: dict[str, Any] = {"id": pile, "x": x, "y": y}
        if pile == "stock":
            entry |= {
                "kind": "stock", "count": len(pos.stock),
                "cards": [pos.stock[0].code] if open_top else [], "top_open": open_top,
                "tappable": can_draw or can_recycle,
                "action": "draw" if can_draw else ("recycle" if can_recycle else None),
                "fan": 1, "redeals_left": game.redeals_left,
            }
            if box.open_at is not None:
                entry["open_at"] = {"x": box.open_at[0], "y": box.open_at[1]}
        elif pile.startswith("waste"):
            cards = pos.wastes[int(pile[5:] or 1) - 1]
            # one waste shows the card under the top too (the waste-pairs rule plays it)
            fan = len(cards) if rules.waste_bottom else (
                max(rules.draw_count, 2) if rules.waste_piles == 1 else 1)
            entry |= {
                "kind": "waste", "count": len(cards), "cards": [c.code for c in cards],
                "top_open": False, "tappable": False, "action": None, "fan": fan,
                "redeals_left": None,
            }
        else:
            at = int(pile[4:] or 1) - 1
            card = pos.cells[at]
            parkable = (card is None and game.selection is not None
                        and game.is_legal(Move.to_cell(game.selection)))
            entry |= {
                "kind": "cell", "count": int(card is not None),
                "cards": [card.code] if card is not None else [], "top_open": False,
                "tappable": parkable, "action": "cell" if parkable else None, "fan": 1,
                "redeals_left": None,
            }
        piles.append(entry)
    return {"table": {"width": box.width, "height": box.height}, "tableau": tableau,
            "piles": piles}


def solution_view(result: Solution, *, game_id: int, version: int, lang: Lang,
                  tableau_cards: int) -> dict[str, Any]:
    """The solver's line from the position of ``version`` (docs/api.md)."""
    return {
        "id": game_id,
        "version": version,
        "winnable": result.winnable,
        "max_removed": result.max_removed,
        "tableau_cards": tableau_cards,
        "shortest": result.shortest,
        "timed_out": result.timed_out,
        "moves": [
            {"move": m.code, "kind": m.kind, "cards": [c.code for c in m.cards],
             "card_labels": [c.label(lang) for c in m.cards], "label": move_label(m, lang)}
            for m in result.moves
        ],
    }
