"""Games as the server keeps them: parse, call the engine, persist, describe.

The database is the only authority.  The service keeps the games being played
in memory only as a cache: before every use it checks the stored version and
rebuilds a game whose version moved on (another server process acted), and
every action is written with :meth:`Store.append`, which refuses it if the
stored game is no longer at the version it was computed from (a 409 with the
current state).  Each game has its own lock; the solver runs outside any lock,
on a snapshot, and its result is applied only to the version it was computed
for.  Games, settings and statistics belong to a player (``player``: the
embedded game's one player, or a browser's signed cookie in hosted mode).
All rule decisions are the engine's; this module only routes.
"""

from __future__ import annotations

import copy
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pyramide.cards import Card, Lang
from pyramide.daily import DIFFICULTIES, Difficulty, daily, graded_random_code, today
from pyramide.deals import MAX_DEAL_NUMBER, Deal, DealCode
from pyramide.errors import IllegalMoveError, InvalidSaveError, LocalisedError, PyramideError
from pyramide.game import Clock, Game
from pyramide.i18n import DEFAULT_LANG, Phrase, is_language
from pyramide.kernel import Position
from pyramide.moves import Move
from pyramide.rules import PRESETS, rules_for
from pyramide.saves import game_from_dict
from pyramide.solver import Solution, is_lost
from pyramide.solver.budget import states_of
from pyramide.web.replays import Replays
from pyramide.web.searches import InProcess, Searches
from pyramide.web.stats import game_row, result, statistics
from pyramide.web.store import ConflictError, GameRecord, Store
from pyramide.web.view import rules_view, solution_view, state_view

__all__ = [
    "DEFAULT_SETTINGS", "GameService", "NotFoundError", "StaleVersionError", "browser_lang",
]

DEFAULT_SETTINGS: dict[str, Any] = {
    "lang": None,  # chosen from the browser's Accept-Language until the player sets it
    "explain_errors": True,
    "warn_lost": True,
    "animations": True,
    "sounds": False,
    "card_back": "red",
    "felt": "green",
    "rules": "N",
    "winnable_only": False,  # the New game dialog's last choices (docs/web.md, "Settings")
    "difficulty": "any",
}
DIFFICULTY_CHOICES = ("any", *DIFFICULTIES)
HISTORY_PAGE = 20
AWAY_SECONDS = 60.0
"""A game whose page has said nothing for this long counts as left: its clock
stops as of the last sign of the player (a visible page reports every
``REPORT_SECONDS``, see docs/web.md "Clock")."""
REPORT_SECONDS = 20.0
CACHE_SIZE = 1024
"""Games kept in memory per process (the least recently used are dropped)."""


class NotFoundError(LocalisedError, LookupError):
    """No game with that id."""


class StaleVersionError(LocalisedError):
    """The action was made against an older version of the game."""

    def __init__(self, key: str, state: dict[str, Any], /, **params: object) -> None:
        super().__init__(key, **params)
        self.state = state


@dataclass
class _Live:
    """A game as this process last saw it at ``version`` (``logged`` actions stored)."""

    game: Game
    version: int
    logged: int
    assisted: bool = False
    seen: float = 0.0  # the service clock's reading at the page's last request


@dataclass
class _Slot:
    """One game's lock and cached state; ``line`` and ``lost`` are the solver's
    answers for the version they name."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    live: _Live | None = None
    line: tuple[int, Solution] | None = None
    lost: tuple[int, bool] | None = None


@dataclass(frozen=True)
class _Snapshot:
    """A game at one version, for the solver to work on outside the lock."""

    game: Game
    version: int
    assisted: bool


class GameService:
    def __init__(self, store: Store, clock: Clock = time.monotonic,
                 cache_size: int = CACHE_SIZE, searches: Searches | None = None) -> None:
        """``searches``: where hints and solution lines are searched (default: in
        the calling thread; the server gives a pool of processes)."""
        self.store = store
        self.searches = searches or InProcess()
        self.clock = clock
        self.cache_size = cache_size
        self.replays = Replays(store)
        self._slots: OrderedDict[tuple[str, int], _Slot] = OrderedDict()
        self._guard = threading.Lock()
        self._closed = False

    # ----------------------------------------------------------------- settings

    def settings(self, player: str, accept_language: str | None = None) -> dict[str, Any]:
        stored = self.store.settings(player)
        settings = {**DEFAULT_SETTINGS,
                    **{k: v for k, v in stored.items() if _valid_setting(k, v)}}
        if not is_language(settings["lang"]):
            settings["lang"] = browser_lang(accept_language)
        return settings

    def update_settings(self, player: str, values: dict[str, Any]) -> None:
        if "rules" in values:
            values["rules"] = rules_for(values["rules"]).letter
        _difficulty(values.get("difficulty", "any"))
        self.store.put_settings(player, values)

    def lang(self, player: str, accept_language: str | None) -> Lang:
        lang: Lang = self.settings(player, accept_language)["lang"]
        return lang

    # -------------------------------------------------------------------- games

    def new_game(
        self, player: str, *, code: str | None = None, layout: str | None = None,
        rules: str | None = None, random: bool = False, winnable_only: bool = False,
        difficulty: str = "any", daily: bool = False,
    ) -> int:
        """Start a game from a code, an explicit card list, a random deal (winnable
        only, of a grade) or the daily deal; returns its id."""
        if sum((code is not None, layout is not None, random, daily)) != 1:
            raise PyramideError("err.web.one_source")
        day = None
        if daily:
            deal = self.daily(player)
            day, code = str(deal["date"]), str(deal["code"])
        if code is not None or layout is not None:
            game = self._given_game(code, layout, rules)
        else:
            game = self._random_game(rules_for(_letter(rules)).letter, winnable_only,
                                     difficulty)
        game_id = self._create(player, game)
        if day is not None:
            self.store.mark_daily(player, game_id, day)
        return game_id

    def _given_game(self, code: str | None, layout: str | None, rules: str | None) -> Game:
        """The game a deal code or a card list names (raises on a bad one)."""
        if code is not None:
            return Game.from_code(code, clock=self.clock)
        chosen = rules_for(_letter(rules))
        return Game(Deal.parse_layout(layout or "", chosen.deck), chosen, self.clock)

    def check_deal(self, *, code: str | None = None, layout: str | None = None,
                   rules: str | None = None) -> dict[str, Any]:
        """Whether a deal code or a card list names a deal, without starting a game
        (a deal link is checked before the player is asked to leave a game)."""
        if (code is None) == (layout is None):
            raise PyramideError("err.web.one_source")
        game = self._given_game(code, layout, rules)
        return {"ok": True, "rules": game.rules.letter}

    def _create(self, player: str, game: Game) -> int:
        game_id = self.store.create_game(player, game)
        with self._locked(player, game_id) as slot:
            slot.live = _Live(game, 0, 0, seen=self.clock())
        return game_id

    def replay(self, player: str, game_id: int) -> int:
        """A new game of the same cards and rules as game ``game_id``; returns its id
        (the page needs no card list for it: the face-down cards stay on the server)."""
        old = self._snapshot(player, game_id).game
        return self._create(player, Game(old.deal, old.rules, self.clock))

    def daily(self, player: str) -> dict[str, Any]:
        """Today's deal (:mod:`pyramide.daily`) and whether the player has won it."""
        deal = daily(today()).as_dict()
        return {**deal, **self.store.daily_results(player, str(deal["date"]))}

    def _random_game(self, letter: str, winnable_only: bool, difficulty: str) -> Game:
        """A random deal; winnable only or of a grade: one the solver proves so
        (:func:`pyramide.daily.graded_random_code`)."""
        if difficulty != "any" or winnable_only:
            return Game.from_code(graded_random_code(letter, _difficulty(difficulty)),
                                  clock=self.clock)
        return Game.from_code(DealCode(letter, secrets.randbelow(MAX_DEAL_NUMBER + 1)),
                              clock=self.clock)


    def current_game_id(self, player: str) -> int | None:
        return self.store.current_game_id(player)

    # ------------------------------------------------------- cache and locking

    @contextmanager
    def _locked(self, player: str, game_id: int) -> Iterator[_Slot]:
        """The game's slot, its lock held (a dropped slot only costs a reload: the
        database decides, not the lock)."""
        key = (player, game_id)
        with self._guard:
            slot = self._slots.get(key)
            if slot is None:
                slot = self._slots[key] = _Slot()
                self._evict()
            self._slots.move_to_end(key)
        with slot.lock:
            yield slot

    def _evict(self) -> None:
        """Drop the least recently used slots beyond :attr:`cache_size` (guard held)."""
        for key in list(self._slots)[:max(0, len(self._slots) - self.cache_size)]:
            if not self._slots[key].lock.locked():
                del self._slots[key]

    def _fresh(self, player: str, game_id: int, slot: _Slot) -> _Live:
        """The game at its stored version: the cached one if the database still has
        that version, else rebuilt from the database (slot lock held)."""
        stored = self.store.version(player, game_id)
        if stored is None:
            slot.live = None
            raise NotFoundError("err.web.no_game", id=game_id)
        if slot.live is None or slot.live.version != stored:
            record = self.store.load(player, game_id)
            if record is None:
                raise NotFoundError("err.web.no_game", id=game_id)
            slot.live = _rebuild(record, self.clock)
        live = slot.live
        self._away_rule(live)
        live.seen = self.clock()
        return live

    def _away_rule(self, live: _Live) -> None:
        """The clock stops as of the last sign of the player if the page had gone
        quiet (:data:`AWAY_SECONDS`)."""
        if live.game.clock_running and self.clock() - live.seen > AWAY_SECONDS:
            live.game.pause(at=live.seen)

    def presence(self, player: str, game_id: int, visible: bool, lang: Lang) -> dict[str, Any]:
        """The page reports whether it is visible: a hidden page stops the clock
        (and saves it); the next action starts it again."""
        with self._locked(player, game_id) as slot:
            live = self._fresh(player, game_id, slot)
            if not visible and live.game.clock_running:
                live.game.pause()
                self.store.touch_elapsed(player, game_id, live.game.elapsed)
        return self.state(player, game_id, lang)

    def _snapshot(self, player: str, game_id: int) -> _Snapshot:
        with self._locked(player, game_id) as slot:
            live = self._fresh(player, game_id, slot)
            return _Snapshot(copy.copy(live.game), live.version, live.assisted)

    # -------------------------------------------------------------------- state

    def state(self, player: str, game_id: int, lang: Lang) -> dict[str, Any]:
        """The game's state at its stored version; the solver's verdict "lost" is
        found outside the lock, for the version it names."""
        warn = bool(self.settings(player).get("warn_lost"))
        with self._locked(player, game_id) as slot:
            self._fresh(player, game_id, slot)
            view, snapshot = self._after(game_id, lang, warn, slot)
        return self._judge(player, game_id, view, snapshot)

    def act(
        self, player: str, game_id: int, version: int,
        kind: Literal["tap", "pile", "stock", "undo", "solution"], card: str | None, lang: Lang,
        *, pile: str | None = None,
    ) -> dict[str, Any]:
        """Apply one browser action made against ``version``; returns the new state.

        ``pile`` taps the pile named by ``pile`` (``stock`` is the alias of a tap
        on the pile ``"stock"``).

        ``solution`` plays the next move of the solver's line (:meth:`solution`,
        found before the game is locked) and marks the game as assisted for good."""
        settings = self.settings(player)
        line = self._line(player, game_id, version) if kind == "solution" else None
        with self._locked(player, game_id) as slot:
            live = self._fresh(player, game_id, slot)
            done = False
            if version == live.version:
                try:
                    self._apply(player, game_id, slot, live, kind, card, line,
                                bool(settings.get("explain_errors")), pile)
                    done = True
                except ConflictError:
                    slot.live = None  # another process wrote first: the database decides
            if done:
                view, snapshot = self._after(game_id, lang,
                                             bool(settings.get("warn_lost")), slot)
            current = slot.live.version if slot.live is not None else None
        if done:
            return self._judge(player, game_id, view, snapshot)
        state = self.state(player, game_id, lang)
        current = state["version"] if current is None else current
        raise StaleVersionError("err.web.stale", state, current=current, version=version)

    def _apply(
        self, player: str, game_id: int, slot: _Slot, live: _Live,
        kind: str, card: str | None, line: Solution | None, explain: bool,
        pile: str | None = None,
    ) -> None:
        """Play the action on the cached game and store it (slot lock held); on any
        failure the cache is dropped, the database keeps what it had."""
        game = live.game
        game.explain_errors = explain
        before = (game.position, game.selection, game.message, len(game.log))
        try:
            if kind == "tap":
                if card is None:
                    raise PyramideError("err.web.tap_card")
                game.tap(card)
            elif kind == "stock":
                game.tap_stock()
            elif kind == "pile":
                if pile is None:
                    raise PyramideError("err.web.tap_pile")
                game.tap_pile(pile)
            elif kind == "undo":
                if not game.can_undo:
                    raise IllegalMoveError("err.game.undo_none")
                game.undo()
            elif kind == "solution":
                assert line is not None
                self._play_solution(slot, live, line)
            else:
                raise PyramideError("err.web.action", kind=kind)
            if (game.position, game.selection, game.message, len(game.log)) == before:
                return
            self.store.append(player, game_id, live.version, game, live.version + 1,
                              live.logged, assisted=live.assisted, solver=kind == "solution")
        except BaseException as exc:
            refused = isinstance(exc, PyramideError) and (
                game.position, game.selection, game.message, len(game.log)) == before
            if not refused:  # the cached game may hold an action that was not stored
                slot.live = None
            raise
        self._follow_line(slot, live, before[0], before[3])
        live.version += 1
        live.logged = len(game.log)

    @staticmethod
    def _follow_line(slot: _Slot, live: _Live, position: Position, logged: int) -> None:
        """Keep the Solution line for the next version when the player follows it by
        hand: a selection keeps it whole, its next move played keeps the rest (the
        solver's own move, :meth:`_play_solution`, has already moved it on)."""
        if slot.line is None or slot.line[0] != live.version:
            return
        kept = slot.line[1]
        game = live.game
        if game.position == position and len(game.log) == logged:
            slot.line = (live.version + 1, kept)
        elif (kept.moves and len(game.log) == logged + 1
              and game.log[-1].action == kept.moves[0].code):
            slot.line = (live.version + 1, replace(kept, moves=kept.moves[1:]))

    def _after(self, game_id: int, lang: Lang, warn: bool,
               slot: _Slot) -> tuple[dict[str, Any], _Snapshot | None]:
        """The state of the cached game (slot lock held), and the snapshot the
        solver still has to judge when its verdict for this version is not known."""
        live = slot.live
        assert live is not None
        known = slot.lost[1] if slot.lost is not None and slot.lost[0] == live.version else None
        view = state_view(live.game, game_id=game_id, version=live.version, lang=lang,
                          lost=bool(warn and known), assisted=live.assisted)
        if not warn or known is not None or live.game.status != "playing":
            return view, None
        return view, _Snapshot(copy.copy(live.game), live.version, live.assisted)

    def _judge(self, player: str, game_id: int, view: dict[str, Any],
               snapshot: _Snapshot | None) -> dict[str, Any]:
        """``view`` with the solver's verdict on ``snapshot`` (searched outside the lock)."""
        if snapshot is not None:
            view["lost"] = _solver_says_lost(snapshot.game)
            with self._locked(player, game_id) as slot:
                if slot.live is not None and slot.live.version == snapshot.version:
                    slot.lost = (snapshot.version, view["lost"])
        return view

    # ------------------------------------------------------------------- solver

    def hint(self, player: str, game_id: int) -> dict[str, Any]:
        snapshot = self._snapshot(player, game_id)
        game = snapshot.game  # searched outside any lock; a finished game: no move
        result = self._kept_line(player, game_id, snapshot.version)
        if result is None:
            result = self.searches.run(game.position, game.rules, game.deal, shortest=False)
        move = result.moves[0] if result.moves else None
        if not game.is_over:
            self.store.count_hint(player, game_id)
        return {
            "move": move.code if move is not None else None,
            "kind": move.kind if move is not None else None,
            "cards": [c.code for c in move.cards] if move is not None else [],
            "stock": move is not None and move.kind in ("draw", "recycle"),
            "winnable": result.winnable,
            "max_removed": result.max_removed,
        }

    def solution(self, player: str, game_id: int, lang: Lang,
                 states: str | None = None) -> dict[str, Any]:
        """The shortest line the solver finds from the current position (within
        :data:`SOLUTION_BUDGET`, or ``states``: a state budget asked for, checked
        before anything else), or the line to ``max_removed`` when none wins.

        The search runs outside any lock, on a snapshot of the position; the line
        is kept for the version it was found for (a line searched with a budget of
        its own is neither taken from there nor kept).  Seen, the solution marks the
        game in progress as assisted for good (in the database: no new version)."""
        count = None if states is None else states_of(states)
        snapshot = self._snapshot(player, game_id)
        if not snapshot.game.is_over and not snapshot.assisted:
            self.store.mark_assisted(player, game_id)
            with self._locked(player, game_id) as slot:
                if slot.live is not None:
                    slot.live.assisted = True
        result = self._line(player, game_id, snapshot.version, snapshot, count)
        assert result is not None
        return solution_view(result, game_id=game_id, version=snapshot.version, lang=lang,
                             tableau_cards=len(snapshot.game.rules.tableau))

    def _kept_line(self, player: str, game_id: int, version: int) -> Solution | None:
        """The Solution line kept for ``version``, when it wins or is the proven best:
        a hint then gives its next move, so hints and the Solution the player has seen
        (or is playing) never point two ways."""
        with self._locked(player, game_id) as slot:
            if slot.line is not None and slot.line[0] == version:
                kept = slot.line[1]
                if kept.winnable or kept.exact:
                    return kept
        return None

    def _line(self, player: str, game_id: int, version: int,
              snapshot: _Snapshot | None = None, states: int | None = None) -> Solution | None:
        """The solver's line from the game at ``version`` (kept, or searched outside
        the lock); ``None`` when the game is no longer at that version."""
        with self._locked(player, game_id) as slot:
            if slot.line is not None and slot.line[0] == version and states is None:
                return slot.line[1]
            if snapshot is None:
                live = self._fresh(player, game_id, slot)
                if live.version != version:
                    return None
                snapshot = _Snapshot(copy.copy(live.game), version, live.assisted)
        game = snapshot.game
        result = self.searches.run(game.position, game.rules, game.deal, shortest=True,
                                   states=states)
        if states is not None:  # a budget of its own: not the game's line for this version
            return result
        with self._locked(player, game_id) as slot:
            if slot.line is None or slot.line[0] < version:
                slot.line = (version, result)
        return result

    def _play_solution(self, slot: _Slot, live: _Live, result: Solution) -> None:
        """Play the first move of the solution found for the live version; the rest
        stays the solution of the next version."""
        game = live.game
        if game.is_over:
            raise IllegalMoveError("err.game.over", status=Phrase(f"status.{game.status}"))
        if not result.moves:
            raise IllegalMoveError("err.web.no_solver_move")
        move: Move = result.moves[0]
        game.select(None)
        game.play(move)
        live.assisted = True
        slot.line = (live.version + 1, replace(result, moves=result.moves[1:]))

    # --------------------------------------------------------------- the rest

    def rules(self, lang: Lang) -> list[dict[str, Any]]:
        return [rules_view(r, lang) for r in PRESETS.values()]

    def stats(self, player: str, rules: str) -> dict[str, Any]:
        """Statistics from the replayed action logs (:mod:`pyramide.web.replays`)."""
        letter = rules_for(rules).letter
        return statistics(letter, self.replays.played(player, letter), today())

    def history(self, player: str, rules: str, page: int) -> dict[str, Any]:
        """One page (from 1) of the player's games of a rule set, newest first
        (:data:`HISTORY_PAGE` a page), each with its result as the replay has it."""
        letter = rules_for(rules).letter
        if page < 1:
            raise PyramideError("err.web.page", page=page)
        total, stamps = self.store.history(player, letter, (page - 1) * HISTORY_PAGE,
                                           HISTORY_PAGE)
        current = self.current_game_id(player)
        rows = [game_row(g, result({**g, "current": g["id"] == current}))
                for g in self.replays.summaries(player, stamps) if g is not None]
        return {"rules": letter, "page": page, "pages": max(1, -(-total // HISTORY_PAGE)),
                "total": total, "games": rows}

    def close(self) -> None:
        """Write the running clocks and close the database (once; at shutdown)."""
        with self._guard:
            if self._closed:
                return
            self._closed = True
        try:
            self.flush_clocks()
            self.store.checkpoint()
        finally:
            self.searches.close()
            self.store.close()

    def flush_clocks(self) -> None:
        """Write the running clocks of the cached games (called on shutdown)."""
        with self._guard:
            slots = list(self._slots.items())
        for (player, game_id), slot in slots:
            with slot.lock:
                if slot.live is not None and slot.live.game.log:
                    self._away_rule(slot.live)
                    slot.live.game.pause()
                    self.store.touch_elapsed(player, game_id, slot.live.game.elapsed)


def _rebuild(record: GameRecord, clock: Clock) -> _Live:
    """The stored game replayed through the engine, with its stored selection."""
    try:
        if record.logged is not None and record.logged != len(record.log):
            raise InvalidSaveError("err.web.logged", n=len(record.log), logged=record.logged)
        game = game_from_dict(record.save_dict(), clock=clock)
    except InvalidSaveError as exc:
        raise InvalidSaveError("err.web.stored", id=record.id, reason=exc) from None
    if record.selection is not None and not game.is_over:
        with suppress(PyramideError):  # a selection that no longer fits is not shown
            game.select(Card.parse(record.selection))
    return _Live(game, record.version, len(record.log), record.assisted, seen=clock())


def browser_lang(accept_language: str | None) -> Lang:
    """The language of the browser's ``Accept-Language`` header (Russian or English)."""
    first = (accept_language or "").split(",")[0].strip().lower()
    code = first.split("-")[0].split(";")[0]
    return code if is_language(code) else DEFAULT_LANG


def _valid_setting(key: str, value: Any) -> bool:
    """Whether a stored setting can be used (a row edited by hand or by an older
    version may not be; the default then stands in for it)."""
    if key == "lang":
        return value is None or is_language(value)
    if key == "rules":
        return isinstance(value, str) and value in PRESETS
    if key == "difficulty":
        return value in DIFFICULTY_CHOICES
    default = DEFAULT_SETTINGS.get(key)
    return default is not None and type(value) is type(default)


def _letter(rules: str | None) -> str:
    """The rule set asked for; N when none is named (an empty name is refused)."""
    return "N" if rules is None else rules


def _difficulty(name: str) -> Difficulty | None:
    """The grade a new random deal must have (``None`` for any); raises on an unknown one."""
    for grade in DIFFICULTIES:
        if name == grade:
            return grade
    if name != "any":
        raise PyramideError("err.web.difficulty", name=name,
                            known=", ".join(DIFFICULTY_CHOICES))
    return None


def _solver_says_lost(game: Game) -> bool:
    return is_lost(game)


