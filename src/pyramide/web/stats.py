"""Statistics of one rule set, computed from the stored games (never from the browser).

>>> games = [{"id": 1, "code": "PY1-N-AAAAAAB", "score": 280, "moves": 60, "elapsed": 90.0,
...           "status": "won", "finished_at": "x", "updated_at": "x"},
...          {"id": 2, "code": None, "score": 120, "moves": 30, "elapsed": 50.0,
...           "status": "lost", "finished_at": "y", "updated_at": "y"}]
>>> s = statistics("N", games)
>>> s["played"], s["won"], s["current_streak"], s["best_streak"]
(2, 1, 0, 1)

Every game counted has a move (docs/web.md, "Statistics").  Its ``result``
(:func:`result`) is one of ``won`` (the player's own win: no hint, no look at
the solution), ``won_helped`` (won with hints or after the solution was seen
or played), ``lost`` and ``abandoned`` (left unfinished for a new game).  Only
the player's own wins count as won, in the streaks and among the best wins;
the help is shown apart.
"""

from __future__ import annotations

from datetime import date, timedelta
from statistics import fmean
from typing import Any, Literal

__all__ = ["BEST_GAMES", "DAYS", "Result", "result", "statistics"]

BEST_GAMES = 10
DAYS = 30
"""Days (that had games) in the results-over-time series."""

Result = Literal["won", "won_helped", "lost", "abandoned", "playing"]


def result(game: dict[str, Any]) -> Result:
    """What a stored game came to; ``playing`` is only the game in progress
    (``current``), an older unfinished game was abandoned."""
    status = game["status"]
    if status == "won":
        helped = game.get("assisted") or game.get("hints", 0) > 0
        return "won_helped" if helped else "won"
    if status == "lost":
        return "lost"
    return "playing" if game.get("current") else "abandoned"


def statistics(rules: str, games: list[dict[str, Any]],
               today: date | None = None) -> dict[str, Any]:
    """Played, won, win rate, streaks, best games (wins first, then score, time,
    moves), the wins' figures, the help given, the daily streak and results per
    day; ``games`` oldest first, the game in progress left out."""
    results = [result(g) for g in games]
    own_wins = [g for g, r in zip(games, results, strict=True) if r == "won"]
    best_streak = streak = 0
    for r in results:
        streak = streak + 1 if r == "won" else 0
        best_streak = max(best_streak, streak)
    own_finished = [g for g, r in zip(games, results, strict=True)
                    if r in ("won", "lost") and not g.get("assisted") and not g.get("hints")]
    best = sorted(own_finished, key=lambda g: (g["status"] != "won", -g["score"],
                                                g["elapsed"], g["moves"], g["id"]))
    daily_now, daily_best = _daily_streaks(games, results, today or date.today())
    return {
        "rules": rules,
        "played": len(games),
        "won": len(own_wins),
        "win_rate": len(own_wins) / len(games) if games else 0.0,
        "lost": results.count("lost"),
        "abandoned": results.count("abandoned"),
        "won_helped": results.count("won_helped"),
        "hinted": sum(g.get("hints", 0) > 0 for g in games),
        "hints": sum(g.get("hints", 0) for g in games),
        "assisted": sum(bool(g.get("assisted")) for g in games),
        "solved": sum(g["status"] == "won" and bool(g.get("assisted")) for g in games),
        "current_streak": streak,
        "best_streak": best_streak,
        "daily_streak": daily_now,
        "best_daily_streak": daily_best,
        "wins": _wins(own_wins),
        "best_games": [game_row(g, "won" if g["status"] == "won" else "lost")
                       for g in best[:BEST_GAMES]],
        "scores": [g["score"] for g in own_finished],
        "by_day": _by_day(games, results),
    }


def game_row(game: dict[str, Any], outcome: Result) -> dict[str, Any]:
    """One game as the statistics and the history list it."""
    return {
        "id": game["id"], "code": game["code"], "score": game["score"],
        "elapsed": round(game["elapsed"], 1), "moves": game["moves"], "status": game["status"],
        "result": outcome, "assisted": bool(game.get("assisted")),
        "hints": game.get("hints", 0), "daily": game.get("daily"),
        "finished_at": game.get("finished_at") or game["updated_at"],
    }


def _wins(wins: list[dict[str, Any]]) -> dict[str, Any]:
    """Best and average time and moves of the player's own wins (``None`` without wins)."""
    if not wins:
        return {"count": 0, "best_time": None, "avg_time": None,
                "best_moves": None, "avg_moves": None}
    times = [g["elapsed"] for g in wins]
    moves = [g["moves"] for g in wins]
    return {"count": len(wins), "best_time": round(min(times), 1),
            "avg_time": round(fmean(times), 1), "best_moves": min(moves),
            "avg_moves": round(fmean(moves), 1)}


def _daily_streaks(games: list[dict[str, Any]], results: list[Result],
                   today: date) -> tuple[int, int]:
    """Days in a row whose daily deal was won without the solution: the run
    ending today (or yesterday, while today's is still to win), and the longest."""
    days = sorted({date.fromisoformat(g["daily"]) for g, r in zip(games, results, strict=True)
                   if g.get("daily") and r in ("won", "won_helped") and not g.get("assisted")})
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(days=1)
    return (run if alive else 0), best


def _by_day(games: list[dict[str, Any]], results: list[Result]) -> list[dict[str, Any]]:
    """Results per calendar day (UTC) of the last :data:`DAYS` days that had games."""
    days: dict[str, dict[str, Any]] = {}
    for game, r in zip(games, results, strict=True):
        day = (game.get("finished_at") or game["updated_at"])[:10]
        row = days.setdefault(day, {"date": day, "won": 0, "won_helped": 0, "lost": 0,
                                    "abandoned": 0})
        row[r] += 1
    return [days[d] for d in sorted(days)[-DAYS:]]
