"""Statistics of one rule set, computed from the stored games (never from the browser).

>>> games = [{"id": 1, "code": "PY1-N-AAAAAAB", "score": 280, "moves": 60, "elapsed": 90.0,
...           "status": "won", "finished_at": "x", "updated_at": "x"},
...          {"id": 2, "code": None, "score": 120, "moves": 30, "elapsed": 50.0,
...           "status": "lost", "finished_at": "y", "updated_at": "y"}]
>>> s = statistics("N", games)
>>> s["played"], s["won"], s["current_streak"], s["best_streak"]
(2, 1, 0, 1)

A game the solver played on (``assisted``: the player replayed its solution)
counts as played and never as won, nor among the best games and scores; the
figure ``solved`` counts those it finished.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BEST_GAMES", "statistics"]

BEST_GAMES = 10


def statistics(rules: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    """Played, won, win rate, streaks, best games (score, then time, then moves), scores."""
    def won_alone(game: dict[str, Any]) -> bool:
        return game["status"] == "won" and not game.get("assisted")

    own = [g for g in games if not g.get("assisted")]
    won = sum(map(won_alone, games))
    best_streak = streak = 0
    for game in games:
        streak = streak + 1 if won_alone(game) else 0
        best_streak = max(best_streak, streak)
    best = sorted(own, key=lambda g: (-g["score"], g["elapsed"], g["moves"], g["id"]))
    return {
        "rules": rules,
        "played": len(games),
        "won": won,
        "win_rate": won / len(games) if games else 0.0,
        "solved": sum(g["status"] == "won" and bool(g.get("assisted")) for g in games),
        "current_streak": streak,
        "best_streak": best_streak,
        "best_games": [
            {
                "id": g["id"], "code": g["code"], "score": g["score"],
                "elapsed": round(g["elapsed"], 1), "moves": g["moves"], "status": g["status"],
                "finished_at": g["finished_at"] or g["updated_at"],
            }
            for g in best[:BEST_GAMES]
        ],
        "scores": [g["score"] for g in own],
    }
