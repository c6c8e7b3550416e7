"""Statistics from stored game summaries (pyramide.web.stats)."""

from __future__ import annotations

from datetime import date
from typing import Any

from pyramide.web.stats import result, statistics


def game(id_: int, status: str, score: int, elapsed: float = 60.0, moves: int = 40,
         **extra: Any) -> dict[str, Any]:
    day = extra.pop("day", "2026-11-30")
    return {"id": id_, "code": f"PY1-O-AAAAAA{chr(65 + id_)}", "score": score, "moves": moves,
            "elapsed": elapsed, "status": status, "finished_at": f"{day}T10:00:00Z",
            "updated_at": f"{day}T10:00:00Z", "assisted": False, "hints": 0, "daily": None,
            **extra}


def test_wins_rank_before_any_loss_then_score_time_moves() -> None:
    # under the strict rules a lost game can end at 280 (the pyramid gone, cards left)
    games = [game(1, "lost", 280), game(2, "won", 250, elapsed=90),
             game(3, "won", 250, elapsed=80, moves=50), game(4, "won", 250, elapsed=80, moves=45),
             game(5, "playing", 270)]
    stats = statistics("O", games)
    assert [g["id"] for g in stats["best_games"]] == [4, 3, 2, 1]
    assert [g["result"] for g in stats["best_games"]] == ["won", "won", "won", "lost"]
    assert stats["abandoned"] == 1 and 5 not in {g["id"] for g in stats["best_games"]}
    assert stats["wins"] == {"count": 3, "best_time": 80.0, "avg_time": 83.3,
                             "best_moves": 40, "avg_moves": 45.0}


def test_results() -> None:
    assert result(game(1, "won", 280)) == "won"
    assert result(game(1, "won", 280, hints=1)) == "won_helped"
    assert result(game(1, "won", 280, assisted=True)) == "won_helped"
    assert result(game(1, "lost", 100, assisted=True)) == "lost"
    assert result(game(1, "playing", 10)) == "abandoned"
    assert result({**game(1, "playing", 10), "current": True}) == "playing"


def test_daily_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    def won_daily(id_: int, day: str, **extra: Any) -> dict[str, Any]:
        return game(id_, "won", 280, daily=day, day=day, **extra)
    games = [won_daily(1, "2026-11-20"), won_daily(2, "2026-11-21"), won_daily(3, "2026-11-22"),
             won_daily(4, "2026-11-28"), won_daily(5, "2026-11-29", hints=2),
             won_daily(6, "2026-11-30", assisted=True),  # the solution seen: no streak day
             game(7, "lost", 100, daily="2026-11-30")]
    assert statistics("N", games, date(2026, 11, 30))["daily_streak"] == 2  # 28, 29
    assert statistics("N", games, date(2026, 11, 30))["best_daily_streak"] == 3
    assert statistics("N", games, date(2026, 12, 1))["daily_streak"] == 0  # 30 not won


def test_results_by_day() -> None:
    games = [game(1, "won", 280, day="2026-11-29"), game(2, "lost", 90, day="2026-11-29"),
             game(3, "playing", 20, day="2026-11-30")]
    assert statistics("N", games)["by_day"] == [
        {"date": "2026-11-29", "won": 1, "won_helped": 0, "lost": 1, "abandoned": 0},
        {"date": "2026-11-30", "won": 0, "won_helped": 0, "lost": 0, "abandoned": 1}]
