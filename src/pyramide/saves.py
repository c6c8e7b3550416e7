"""Saved games: a game is fully described by its deal, rule set and action log.

A save is JSON.  Loading replays the log through the engine, so a tampered
log (an illegal move, a made-up score) is rejected whole with
:class:`InvalidSaveError`; nothing is ever half-loaded.

>>> from pyramide.game import Game
>>> game = Game.from_code("PY1-N-AAAAAAS", clock=lambda: 0.0)
>>> game.play("draw")
>>> copy = load_game(dump_game(game), clock=lambda: 0.0)
>>> copy.position == game.position, copy.moves
(True, 1)
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from pyramide.deals import Deal, DealCode
from pyramide.errors import InvalidSaveError, PyramideError
from pyramide.game import Clock, Game, LogEntry
from pyramide.i18n import Phrase
from pyramide.rules import rules_for

__all__ = [
    "SAVE_FORMAT", "SAVE_VERSION", "dump_game", "game_from_dict", "game_to_dict", "load_game",
]

SAVE_FORMAT = "pyramide-save"
SAVE_VERSION = 1
MAX_LOG = 100_000


def game_to_dict(game: Game) -> dict[str, Any]:
    """The save as a JSON-ready dict."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rules": game.rules.letter,
        "code": game.code,
        "layout": game.deal.layout_text(),
        "log": [[entry.action, entry.t] for entry in game.log],
        "elapsed": round(game.elapsed, 3),
        "score": game.score,
        "moves": game.moves,
        "status": game.status,
    }


def dump_game(game: Game) -> str:
    return json.dumps(game_to_dict(game), ensure_ascii=False, separators=(",", ":"))


def load_game(text: str | bytes, *, clock: Clock = time.monotonic) -> Game:
    """Rebuild a game from :func:`dump_game` output; raises :class:`InvalidSaveError`."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError, RecursionError) as exc:
        # RecursionError: absurdly deep nesting ("[[[[..."), corrupt all the same
        raise InvalidSaveError("err.save.json", reason=str(exc)) from None
    return game_from_dict(data, clock=clock)


def game_from_dict(data: object, *, clock: Clock = time.monotonic) -> Game:
    if not isinstance(data, dict):
        raise InvalidSaveError("err.save.object", shown=_short(data))
    version = data.get("version")
    if data.get("format") != SAVE_FORMAT or isinstance(version, bool) or version != SAVE_VERSION:
        raise InvalidSaveError("err.save.format", format=data.get("format"),
                               version=data.get("version"))
    try:
        rules = rules_for(_field(data, "rules", str))
        deal = Deal.parse_layout(_field(data, "layout", str), rules.deck)
        code = data.get("code")
        if code is not None:
            parsed = DealCode.parse(_field(data, "code", str))
            if parsed.rules_letter != rules.letter:
                raise InvalidSaveError("err.save.code_rules", code=code, letter=rules.letter)
            deal = Deal.from_number(parsed.number, rules.deck)
            if deal.layout_text() != data["layout"]:
                raise InvalidSaveError("err.save.code_layout", code=code)
        entries = _log(data.get("log"))
        game = Game(deal, rules, clock)
        game.replay(entries)
        for key, actual in (("score", game.score), ("moves", game.moves),
                            ("status", game.status)):
            # a JSON true/false is not a number, although Python finds True == 1
            if key in data and (isinstance(data[key], bool) or data[key] != actual):
                raise InvalidSaveError(f"err.save.{key}", saved=data[key],
                                       actual=Phrase(f"status.{actual}") if key == "status"
                                       else actual)
        elapsed = data.get("elapsed", 0.0)
        if (isinstance(elapsed, bool) or not isinstance(elapsed, int | float)
                or not math.isfinite(elapsed) or elapsed < 0):
            raise InvalidSaveError("err.save.elapsed", elapsed=elapsed)
        game.resume(float(elapsed))
    except InvalidSaveError:
        raise
    except PyramideError as exc:
        raise InvalidSaveError("err.save.rejected", reason=exc) from None
    return game


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise InvalidSaveError("err.save.field", key=key, kind=Phrase(f"kind.{kind.__name__}"))
    return value


def _log(raw: object) -> list[LogEntry]:
    if not isinstance(raw, list) or len(raw) > MAX_LOG:
        raise InvalidSaveError("err.save.log")
    entries = []
    last = 0.0
    for n, item in enumerate(raw, start=1):
        if (
            not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str)
            or isinstance(item[1], bool) or not isinstance(item[1], int | float)
            or not math.isfinite(item[1]) or item[1] < last
        ):
            raise InvalidSaveError("err.save.entry", n=n, shown=_short(item))
        last = float(item[1])
        entries.append(LogEntry(item[0], last))
    return entries




def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
