"""Play a deal to its end through the API, as a player would: the solver's line
is found here in the test (not asked of the server), so the game is the player's
own, with no hint and no solution seen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyramide.game import Game
from pyramide.solver import solve

State = dict[str, Any]
Send = Callable[[State, dict[str, Any]], State]
"""Send one action made against a state; returns the new state."""


def win_alone(state: State, send: Send) -> State:
    """Win a fresh winnable game by tapping the solver's line; returns the last state."""
    line = solve(Game.from_code(state["code"])).moves
    assert line, state["code"]
    for move in line:
        if move.kind in ("draw", "recycle"):
            state = send(state, {"type": "stock"})
            continue
        for card in move.cards:
            state = send(state, {"type": "tap", "card": card.code})
    assert state["status"] == "won", state
    return state
