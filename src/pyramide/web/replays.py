"""Statistics' figures from replaying each game's action log, never from the
summary columns a file edit could change.

A game counts once its replay has a move; the player's newest game does not
count while its replay is still being played (an older unfinished game counts
as not won).  Replays are kept per game id and stamp (its version and the
flags the server sets): a finished game is replayed once per process.  A log
that does not replay (tampered with) counts nowhere.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from typing import Any

from pyramide.errors import PyramideError
from pyramide.saves import game_from_dict
from pyramide.web.store import Stamp, Store, StoredLog

__all__ = ["Replays", "replayed_summary"]

CACHE_SIZE = 100_000
log = logging.getLogger(__name__)


def replayed_summary(stored: StoredLog) -> dict[str, Any] | None:
    """The figures statistics use, as the engine replays the log (``None``: the log
    does not replay)."""
    save = {"format": "pyramide-save", "version": 1, "rules": stored.rules,
            "code": stored.code, "layout": stored.layout, "log": stored.log}
    try:
        game = game_from_dict(save, clock=lambda: 0.0)
    except PyramideError as exc:
        log.warning("game %d is left out of the statistics: %s", stored.id, exc)
        return None
    return {
        "id": stored.id, "code": game.code, "score": game.score, "moves": game.moves,
        "elapsed": game.elapsed, "status": game.status, "finished_at": stored.finished_at,
        "updated_at": stored.updated_at, "assisted": stored.assisted,
        "hints": stored.hints, "daily": stored.daily,
    }


class Replays:
    """The replayed figures of a player's games, cached per version."""

    def __init__(self, store: Store, size: int = CACHE_SIZE) -> None:
        self.store = store
        self.size = size
        self._cache: OrderedDict[int, tuple[Stamp, dict[str, Any] | None]] = OrderedDict()
        self._lock = threading.Lock()

    def played(self, player: str, rules: str) -> list[dict[str, Any]]:
        """The player's games of ``rules`` that count in statistics, oldest first."""
        summaries = self.summaries(player, self.store.game_versions(player, rules))
        newest = self.store.newest_game_id(player)
        return [s for s in summaries if s is not None and s["moves"] > 0
                and not (s["id"] == newest and s["status"] == "playing")]

    def summaries(self, player: str,
                  versions: list[tuple[int, Stamp]]) -> list[dict[str, Any] | None]:
        """The replayed figures of the games ``(id, stamp)`` (``None``: no replay)."""
        with self._lock:
            missing = [game_id for game_id, version in versions
                       if self._cache.get(game_id, (None,))[0] != version]
        fresh = {g.id: (g.stamp, replayed_summary(g))
                 for g in self.store.logs(player, missing)}
        with self._lock:
            self._cache.update(fresh)
            summaries = []
            for game_id, _version in versions:
                entry = fresh.get(game_id) or self._cache.get(game_id)
                if entry is not None:
                    self._cache.move_to_end(game_id)
                    summaries.append(entry[1])
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return summaries
