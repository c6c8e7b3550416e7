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
from pyramide.messages import status_word
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
        raise InvalidSaveError(f"saved game is not valid JSON: {exc}",
                               ru=f"сохранённая партия не читается как JSON: {exc}") from None
    return game_from_dict(data, clock=clock)


def game_from_dict(data: object, *, clock: Clock = time.monotonic) -> Game:
    if not isinstance(data, dict):
        raise InvalidSaveError(
            f"saved game must be a JSON object, got {_short(data)}",
            ru=f"сохранённая партия должна быть объектом JSON, а это {_short(data)}",
        )
    version = data.get("version")
    if data.get("format") != SAVE_FORMAT or isinstance(version, bool) or version != SAVE_VERSION:
        raise InvalidSaveError(
            f"not a Pyramide save (format {data.get('format')!r}, version {data.get('version')!r})",
            ru=f"это не сохранение «Пирамиды» (формат {data.get('format')!r}, "
            f"версия {data.get('version')!r})",
        )
    try:
        rules = rules_for(_field(data, "rules", str))
        deal = Deal.parse_layout(_field(data, "layout", str), rules.deck)
        code = data.get("code")
        if code is not None:
            parsed = DealCode.parse(_field(data, "code", str))
            if parsed.rules_letter != rules.letter:
                raise InvalidSaveError(
                    f"save code {code!r} does not match rules {rules.letter!r}",
                    ru=f"код {code!r} в сохранении не подходит к правилам {rules.letter!r}",
                )
            deal = Deal.from_number(parsed.number, rules.deck)
            if deal.layout_text() != data["layout"]:
                raise InvalidSaveError(
                    f"save layout does not match deal code {code!r}",
                    ru=f"раскладка в сохранении не совпадает с кодом раздачи {code!r}",
                )
        entries = _log(data.get("log"))
        game = Game(deal, rules, clock)
        game.replay(entries)
        for key, actual in (("score", game.score), ("moves", game.moves),
                            ("status", game.status)):
            # a JSON true/false is not a number, although Python finds True == 1
            if key in data and (isinstance(data[key], bool) or data[key] != actual):
                raise InvalidSaveError(
                    f"saved {key} {data[key]!r} does not match the replayed game ({actual!r})",
                    ru=_mismatch_ru(key, data[key], actual),
                )
        elapsed = data.get("elapsed", 0.0)
        if (isinstance(elapsed, bool) or not isinstance(elapsed, int | float)
                or not math.isfinite(elapsed) or elapsed < 0):
            raise InvalidSaveError(
                f"saved elapsed time {elapsed!r} is not a valid number",
                ru=f"время партии в сохранении {elapsed!r} — недопустимое число",
            )
        game.resume(float(elapsed))
    except InvalidSaveError:
        raise
    except PyramideError as exc:
        raise InvalidSaveError(f"saved game rejected: {exc}",
                               ru=f"сохранённая партия не принята: {exc.text('ru')}") from None
    return game


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise InvalidSaveError(
            f"saved game field {key!r} is missing or not {kind.__name__}",
            ru=f"в сохранённой партии нет поля {key!r} или это не "
            f"{_KIND_NAMES_RU.get(kind, kind.__name__)}",
        )
    return value


def _log(raw: object) -> list[LogEntry]:
    if not isinstance(raw, list) or len(raw) > MAX_LOG:
        raise InvalidSaveError(
            "saved game log must be a list of [action, time] pairs",
            ru="запись ходов сохранённой партии должна быть списком пар [ход, время]",
        )
    entries = []
    last = 0.0
    for n, item in enumerate(raw, start=1):
        if (
            not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str)
            or isinstance(item[1], bool) or not isinstance(item[1], int | float)
            or not math.isfinite(item[1]) or item[1] < last
        ):
            raise InvalidSaveError(
                f"saved game log entry {n} is malformed: {_short(item)}",
                ru=f"в записи ходов сохранённой партии испорчен элемент {n}: {_short(item)}",
            )
        last = float(item[1])
        entries.append(LogEntry(item[0], last))
    return entries


_KIND_NAMES_RU: dict[type, str] = {str: "строка"}


def _mismatch_ru(key: str, saved: object, actual: object) -> str:
    """In Russian: the saved score, moves or status is not what the replay gives."""
    if key == "status":
        return (f"в сохранении состояние партии {saved!r}, а переигранная партия "
                f"{status_word(str(actual), 'ru')}")
    name = "счёт" if key == "score" else "число ходов"
    return f"в сохранении {name} {saved!r}, а у переигранной партии {actual!r}"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
