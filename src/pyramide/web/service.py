"""Games as the server keeps them: parse, call the engine, persist, describe.

The service holds the games being played in memory (rebuilt from the database
on demand) and writes every accepted action before answering.  All rule
decisions are the engine's; this module only routes.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Literal

from pyramide.cards import Lang
from pyramide.daily import DIFFICULTIES, Difficulty, daily, graded_random_code, today
from pyramide.deals import MAX_DEAL_NUMBER, Deal, DealCode
from pyramide.errors import IllegalMoveError, InvalidSaveError, LocalisedError, PyramideError
from pyramide.game import Clock, Game, Position
from pyramide.messages import status_word
from pyramide.moves import Move
from pyramide.rules import PRESETS, Rules, rules_for
from pyramide.saves import game_from_dict
from pyramide.solver import Budget, Solution, is_lost, solve, solve_position
from pyramide.web.stats import game_row, result, statistics
from pyramide.web.store import Store
from pyramide.web.view import rules_view, solution_view, state_view

__all__ = [
    "DEFAULT_SETTINGS", "GameService", "NotFoundError", "StaleVersionError", "browser_lang",
]

DEFAULT_SETTINGS: dict[str, Any] = {
    "lang": None,  # chosen from the browser's Accept-Language until the player sets it
    "explain_errors": True,
    "warn_lost": True,
    "animations": True,
    "rules": "N",
    "winnable_only": False,  # the New game dialog's last choices (docs/web.md, "Settings")
    "difficulty": "any",
}
DIFFICULTY_CHOICES = ("any", *DIFFICULTIES)
HISTORY_PAGE = 20
SOLUTION_BUDGET = Budget(nodes=None, seconds=1.5)
"""What the search for the shortest line may spend when the player asks for the solution."""


class NotFoundError(LocalisedError, LookupError):
    """No game with that id."""


class StaleVersionError(LocalisedError):
    """The action was made against an older version of the game."""

    def __init__(self, message: str, state: dict[str, Any], *, ru: str | None = None) -> None:
        super().__init__(message, ru=ru)
        self.state = state


@dataclass
class _Live:
    game: Game
    version: int
    logged: int
    assisted: bool = False
    line: tuple[int, Solution] | None = None  # the solution found for this version


class GameService:
    def __init__(self, store: Store, clock: Clock = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[int, _Live] = {}
        self._lock = threading.RLock()

    # ----------------------------------------------------------------- settings

    def settings(self, accept_language: str | None = None) -> dict[str, Any]:
        settings = {**DEFAULT_SETTINGS, **self.store.settings()}
        if settings["lang"] not in ("ru", "en"):
            settings["lang"] = browser_lang(accept_language)
        return settings

    def update_settings(self, values: dict[str, Any]) -> None:
        if "rules" in values:
            values["rules"] = rules_for(values["rules"]).letter
        _difficulty(values.get("difficulty", "any"))
        self.store.put_settings(values)

    def lang(self, accept_language: str | None) -> Lang:
        lang: Lang = self.settings(accept_language)["lang"]
        return lang

    # -------------------------------------------------------------------- games

    def new_game(
        self, *, code: str | None = None, layout: str | None = None, rules: str | None = None,
        random: bool = False, winnable_only: bool = False, difficulty: str = "any",
        daily: bool = False,
    ) -> int:
        """Start a game from a code, an explicit card list, a random deal (winnable
        only, of a grade) or the daily deal; returns its id."""
        if sum((code is not None, layout is not None, random, daily)) != 1:
            raise PyramideError(
                "give exactly one of: a deal code, a card list, random, or daily",
                ru="укажите что-то одно: код раздачи, список карт, случайную раздачу "
                "или расклад дня",
            )
        day = None
        if daily:
            deal = self.daily()
            day, code = str(deal["date"]), str(deal["code"])
        if code is not None:
            game = Game.from_code(code, clock=self.clock)
        elif layout is not None:
            game = Game(Deal.parse_layout(layout), rules_for(rules or "N"), self.clock)
        else:
            letter = rules_for(rules or "N").letter
            if difficulty != "any" or winnable_only:
                deal_code = graded_random_code(letter, _difficulty(difficulty))
            else:
                deal_code = DealCode(letter, secrets.randbelow(MAX_DEAL_NUMBER + 1))
            game = Game.from_code(deal_code, clock=self.clock)
        with self._lock:
            game_id = self.store.create_game(game)
            if day is not None:
                self.store.mark_daily(game_id, day)
            self._live[game_id] = _Live(game, 0, 0)
        return game_id

    def daily(self) -> dict[str, Any]:
        """Today's deal (:mod:`pyramide.daily`) and whether the player has won it."""
        deal = daily(today()).as_dict()
        return {**deal, **self.store.daily_results(str(deal["date"]))}

    def current_game_id(self) -> int | None:
        return self.store.current_game_id()

    def _get(self, game_id: int) -> _Live:
        live = self._live.get(game_id)
        if live is not None:
            return live
        record = self.store.load(game_id)
        if record is None:
            raise NotFoundError(f"no game with id {game_id}", ru=f"нет партии с номером {game_id}")
        try:
            game = game_from_dict(record.save_dict(), clock=self.clock)
        except InvalidSaveError as exc:
            raise InvalidSaveError(
                f"stored game {game_id} cannot be loaded: {exc}",
                ru=f"сохранённую партию {game_id} не удаётся загрузить: {exc.text('ru')}",
            ) from None
        live = _Live(game, record.version, len(record.log), record.assisted)
        self._live[game_id] = live
        return live

    def state(self, game_id: int, lang: Lang, explain: bool | None = None) -> dict[str, Any]:
        with self._lock:
            live = self._get(game_id)
            warn = bool(self.settings().get("warn_lost"))
            lost = warn and live.game.status == "playing" and _solver_says_lost(live.game)
            return state_view(live.game, game_id=game_id, version=live.version, lang=lang,
                              lost=lost, assisted=live.assisted)

    def act(
        self, game_id: int, version: int, kind: Literal["tap", "stock", "undo", "solution"],
        card: str | None, lang: Lang,
    ) -> dict[str, Any]:
        """Apply one browser action made against ``version``; returns the new state.

        ``solution`` plays the next move of the solver's line (:meth:`solution`)
        and marks the game as assisted for good."""
        with self._lock:
            live = self._get(game_id)
            if version != live.version:
                raise StaleVersionError(
                    f"the game has changed (version {live.version}, action made against "
                    f"{version}); showing the current state",
                    self.state(game_id, lang),
                    ru=f"партия изменилась (версия {live.version}, а действие сделано в версии "
                    f"{version}); показано текущее состояние",
                )
            game = live.game
            game.explain_errors = bool(self.settings().get("explain_errors"))
            before = (game.position, game.selection, game.message, len(game.log))
            if kind == "tap":
                if card is None:
                    raise PyramideError('a tap names a card, e.g. {"card": "10H"}',
                                        ru='в нажатии нужна карта, например {"card": "10H"}')
                game.tap(card)
            elif kind == "stock":
                game.tap_stock()
            elif kind == "undo":
                if not game.can_undo:
                    raise IllegalMoveError("nothing to undo", ru="нечего отменять")
                game.undo()
            elif kind == "solution":
                self._play_solution(live)
            else:
                raise PyramideError(f"unknown action type {kind!r}",
                                    ru=f"нет такого действия {kind!r}")
            if (game.position, game.selection, game.message, len(game.log)) != before:
                live.version += 1
            try:
                self.store.record(game_id, game, live.version, live.logged,
                                  assisted=live.assisted)
            except Exception:
                self._live.pop(game_id, None)  # the database is the truth: reload next time
                raise
            live.logged = len(game.log)
            return self.state(game_id, lang)

    def hint(self, game_id: int) -> dict[str, Any]:
        with self._lock:
            game = self._get(game_id).game
            result = solve(game)  # a finished game: its result, and no move
            move = result.moves[0] if result.moves else None
            if not game.is_over:
                self.store.count_hint(game_id)
            return {
                "move": move.code if move is not None else None,
                "cards": [c.code for c in move.cards] if move is not None else [],
                "stock": move is not None and move.kind in ("draw", "recycle"),
                "winnable": result.winnable,
                "max_removed": result.max_removed,
            }

    def solution(self, game_id: int, lang: Lang) -> dict[str, Any]:
        """The shortest line the solver finds from the current position (within
        :data:`SOLUTION_BUDGET`), or the line to ``max_removed`` when none wins.

        The search runs outside the lock, on a snapshot of the position, so the
        game's other requests do not wait for it; the line is kept for the
        version it was found for."""
        with self._lock:
            live = self._get(game_id)
            version, game = live.version, live.game
            result = _kept_line(live)
            snapshot = game.position, game.rules, game.deal
            if not game.is_over and not live.assisted:  # seen: the game is assisted for good
                live.assisted = True
                self.store.mark_assisted(game_id)
        if result is None:
            result = _search_line(*snapshot)
            with self._lock:
                still = self._live.get(game_id)
                if still is not None and still.version == version:
                    still.line = (version, result)
        return solution_view(result, game_id=game_id, version=version, lang=lang)

    def _play_solution(self, live: _Live) -> None:
        """Play the first move of the solution; the rest stays the solution of the
        next version."""
        game = live.game
        if game.is_over:
            raise IllegalMoveError(
                f"the game is over ({game.status})",
                ru=f"партия уже окончена ({status_word(game.status, 'ru')})",
            )
        result = _kept_line(live)
        if result is None:
            result = _search_line(game.position, game.rules, game.deal)
        if not result.moves:
            raise IllegalMoveError(
                "the solver has no move to play: no pyramid card can go",
                ru="у решателя нет хода: ни одну карту пирамиды уже не убрать",
            )
        move: Move = result.moves[0]
        game.select(None)
        game.play(move)
        live.assisted = True
        live.line = (live.version + 1, replace(result, moves=result.moves[1:]))

    def rules(self, lang: Lang) -> list[dict[str, Any]]:
        return [rules_view(r, lang) for r in PRESETS.values()]

    def stats(self, rules: str) -> dict[str, Any]:
        letter = rules_for(rules).letter
        return statistics(letter, self.store.played_games(letter), today())

    def history(self, rules: str, page: int) -> dict[str, Any]:
        """One page (from 1) of the games of a rule set, newest first
        (:data:`HISTORY_PAGE` a page), each with its result."""
        letter = rules_for(rules).letter
        if page < 1:
            raise PyramideError(f"page {page} does not exist: pages start at 1",
                                ru=f"страницы {page} нет: страницы считаются с 1")
        total, games = self.store.history(letter, (page - 1) * HISTORY_PAGE, HISTORY_PAGE)
        current = self.current_game_id()
        rows = [game_row(g, result({**g, "current": g["id"] == current})) for g in games]
        return {"rules": letter, "page": page, "pages": max(1, -(-total // HISTORY_PAGE)),
                "total": total, "games": rows}

    def flush_clocks(self) -> None:
        """Write the running clocks (called on shutdown)."""
        with self._lock:
            for game_id, live in self._live.items():
                self.store.touch_elapsed(game_id, live.game.elapsed)


def browser_lang(accept_language: str | None) -> Lang:
    """The language of the browser's ``Accept-Language`` header (Russian or English)."""
    first = (accept_language or "").split(",")[0].strip().lower()
    return "ru" if first.startswith("ru") else "en"


def _difficulty(name: str) -> Difficulty | None:
    """The grade a new random deal must have (``None`` for any); raises on an unknown one."""
    for grade in DIFFICULTIES:
        if name == grade:
            return grade
    if name != "any":
        raise PyramideError(
            f"unknown difficulty {name!r}: expected one of {', '.join(DIFFICULTY_CHOICES)}",
            ru=f"нет такой сложности {name!r}: есть {', '.join(DIFFICULTY_CHOICES)}")
    return None


def _kept_line(live: _Live) -> Solution | None:
    """The solution found for the live game's current version, if any."""
    return live.line[1] if live.line is not None and live.line[0] == live.version else None


def _search_line(position: Position, rules: Rules, deal: Deal) -> Solution:
    """The solver's shortest line from ``position`` within :data:`SOLUTION_BUDGET`
    (a finished game gets its result and no move)."""
    return solve_position(position, rules, budget=SOLUTION_BUDGET, shortest=True,
                          layout=tuple(card.value for card in deal.pyramid))


def _solver_says_lost(game: Game) -> bool:
    return is_lost(game)


