"""The game: state, legality, taps, score, undo and the action log.

One :class:`Game` holds a deal under a rule set.  Legality
(:meth:`Game.legal_moves`, :meth:`Game.is_legal`) is kept apart from applying
(:meth:`Game.play`); taps (:meth:`Game.tap`, :meth:`Game.tap_stock`) follow the
tap semantics of rule book §4 on top of the same moves.  Undo restores a
snapshot of the position; the move counter is never decreased.

>>> game = Game.from_code("PY1-N-AAAAAAS")
>>> game.score, game.moves, game.status
(0, 0, 'playing')
>>> game.play(game.legal_moves()[-1])
>>> game.moves
1
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from pyramide.cards import Card
from pyramide.deals import PYRAMID_SIZE, Deal, DealCode
from pyramide.errors import IllegalMoveError, InvalidCardError
from pyramide.geometry import COVERED_BY, row_col
from pyramide.messages import Message, move_label, status_word
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import DEFAULT_RULES, Rules, rules_for

__all__ = ["UNDO_LIMIT", "Game", "Position", "Spot", "Status", "Zone"]

UNDO_LIMIT = 100
POINTS_PER_PYRAMID_CARD = 10

Status = Literal["playing", "won", "lost"]
Zone = Literal["pyramid", "waste", "stock", "removed"]
Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a card lies.

    ``index`` is the slot 0..27 in the pyramid, the depth from the top in the
    waste and the stock (0 = top card), and the order of removal in ``removed``.
    """

    zone: Zone
    index: int

    @property
    def row_col(self) -> tuple[int, int]:
        """Row and column (1-based) of a pyramid spot."""
        return row_col(self.index)


@dataclass(frozen=True, slots=True)
class Position:
    """Everything an undo restores: the cards, the score and the game status.

    ``stock`` is listed from the top (drawn first); ``waste`` from the bottom
    to the top card; ``pyramid`` has ``None`` for removed cards.
    """

    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    removed: tuple[Card, ...]
    score: int = 0
    redeals_used: int = 0
    status: Status = "playing"

    @staticmethod
    def initial(deal: Deal) -> Position:
        return Position(deal.pyramid, deal.stock, (deal.waste,), ())

    @property
    def pyramid_left(self) -> int:
        return sum(card is not None for card in self.pyramid)


@dataclass(slots=True)
class LogEntry:
    """One action of the log: a move code or ``"undo"``, and the clock time (s)."""

    action: str
    t: float


@dataclass
class Game:
    """A game of Pyramide: a deal, a rule set and everything played so far."""

    deal: Deal
    rules: Rules = DEFAULT_RULES
    clock: Clock = time.monotonic
    explain_errors: bool = False
    position: Position = field(init=False)
    moves: int = field(init=False, default=0)
    selection: Card | None = field(init=False, default=None)
    message: Message | None = field(init=False, default=None)
    log: list[LogEntry] = field(init=False, default_factory=list)
    _undo: deque[Position] = field(init=False, repr=False)
    _time_base: float = field(init=False, default=0.0, repr=False)
    _anchor: float | None = field(init=False, default=None, repr=False)

    def __post_init__(self) -> None:
        self.position = Position.initial(self.deal)
        self._undo = deque(maxlen=UNDO_LIMIT)

    # ------------------------------------------------------------------ set-up

    @staticmethod
    def from_code(code: DealCode | str, *, clock: Clock = time.monotonic) -> Game:
        """A new game of the deal and rule set named by a deal code."""
        parsed = code if isinstance(code, DealCode) else DealCode.parse(code)
        return Game(Deal.from_number(parsed.number), rules_for(parsed.rules_letter), clock)

    @property
    def code(self) -> str | None:
        """The deal code, or ``None`` for a deal given as an explicit card list."""
        if self.deal.number is None:
            return None
        return str(DealCode(self.rules.letter, self.deal.number))

    # ------------------------------------------------------------- observation

    @property
    def score(self) -> int:
        return self.position.score

    @property
    def status(self) -> Status:
        return self.position.status

    @property
    def is_over(self) -> bool:
        return self.position.status != "playing"

    @property
    def can_undo(self) -> bool:
        return bool(self._undo) and self.position.status != "won"

    @property
    def undo_depth(self) -> int:
        return len(self._undo) if self.position.status != "won" else 0

    @property
    def redeals_left(self) -> int | None:
        if self.rules.redeals is None:
            return None
        return self.rules.redeals - self.position.redeals_used

    @property
    def elapsed(self) -> float:
        """Seconds on the game clock: it runs from the first action (a move, a draw,
        an undo; not a plain selection) to the end, except while paused
        (:meth:`pause`: the next action starts it again)."""
        if self._anchor is None:
            return self._time_base
        return self._time_base + max(0.0, self.clock() - self._anchor)

    @property
    def clock_running(self) -> bool:
        """Whether the game clock is running now (started, not paused, not over)."""
        return self._anchor is not None

    def spot(self, card: Card) -> Spot:
        """Where ``card`` lies now."""
        pos = self.position
        for index, other in enumerate(pos.pyramid):
            if other == card:
                return Spot("pyramid", index)
        for depth, other in enumerate(reversed(pos.waste)):
            if other == card:
                return Spot("waste", depth)
        for depth, other in enumerate(pos.stock):
            if other == card:
                return Spot("stock", depth)
        return Spot("removed", pos.removed.index(card))

    def free_cards(self) -> list[Card]:
        """Cards that may be removed alone (kings) or paired with any other free card."""
        return _free_cards(self.position, self.rules)

    def tappable_cards(self) -> list[Card]:
        """Free cards, plus cards that only pair with one neighbour (waste or covering pairs)."""
        cards = self.free_cards()
        for move in _special_pairs(self.position, self.rules):
            cards += [c for c in move.cards if c not in cards]
        return cards

    def legal_moves(self) -> list[Move]:
        """Every legal move: removals first (pyramid cards low to high), then draw/recycle."""
        return _legal_moves(self.position, self.rules)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    # ------------------------------------------------------------------ acting

    def play(self, move: Move | str) -> None:
        """Apply a legal move; raises :class:`IllegalMoveError` and changes nothing if not."""
        parsed = Move.parse(move) if isinstance(move, str) else move
        if self.is_over:
            raise IllegalMoveError(f"move {str(parsed)!r}: the game is over ({self.status})",
                                   ru=f"ход {move_label(parsed, 'ru')!r}: {self._over_ru}")
        if not self.is_legal(parsed):
            raise IllegalMoveError(f"move {str(parsed)!r} is not legal in this position",
                                   ru=f"ход {move_label(parsed, 'ru')!r} в этой позиции недопустим")
        self._act(parsed, self._now())

    def undo(self) -> None:
        """Revert the last action (up to the last 100); points go back, moves do not."""
        if not self.can_undo:
            if not self._undo:
                raise IllegalMoveError("nothing to undo", ru="нечего отменять")
            raise IllegalMoveError("a won game is final",
                                   ru="партия выиграна: ходы в ней больше не отменяются")
        self._do_undo(self._now())

    def tap(self, card: Card | str) -> Message | None:
        """Tap a face-up card, as a player does (rule book §4); returns the message shown.

        Raises :class:`IllegalMoveError` only for a card that cannot be tapped at
        all (face down in the stock, already removed, or the game is over).
        """
        target = _card(card)
        if self.is_over:
            raise IllegalMoveError(f"tap {target}: the game is over ({self.status})",
                                   ru=f"карта {target.label('ru')}: {self._over_ru}")
        spot = self.spot(target)
        if spot.zone == "removed" or (spot.zone == "stock" and not (
            self.rules.open_stock and spot.index == 0
        )):
            raise IllegalMoveError(f"tap {target}: the card is not on the table face up",
                                   ru=f"карты {target.label('ru')} нет на столе открытой")
        self.message = None
        selected = self.selection
        if selected == target:
            self.selection = None
            return None
        if selected is not None and target.pairs_with(selected):
            pair = Move.pair(selected, target)
            if self.is_legal(pair):
                self._act(pair, self._now())
                return self.message
        if target.is_king and self.is_legal(Move.king(target)):
            self._act(Move.king(target), self._now())
            return self.message
        if target not in self.tappable_cards():
            if self.explain_errors:
                self.message = Message.BLOCKED
            return self.message
        self.selection = target  # a plain selection does not start the clock
        if selected is not None:
            both_free = selected in self.free_cards() and target in self.free_cards()
            sums = selected.pairs_with(target)
            self.message = Message.SUM_NOT_13 if not sums else (
                None if both_free else Message.CANNOT_PAIR
            )
        return self.message

    def tap_stock(self) -> Message | None:
        """Tap the stock pile: draw, or recycle the waste when the stock is empty."""
        if self.is_over:
            raise IllegalMoveError(f"tap stock: the game is over ({self.status})",
                                   ru=f"колода: {self._over_ru}")
        self.message = None
        for move in (DRAW, RECYCLE):
            if self.is_legal(move):
                self._act(move, self._now())
                return self.message
        self.message = Message.STOCK_SPENT
        return self.message

    def resume(self, elapsed: float) -> None:
        """Continue a restored game: the clock shows at least ``elapsed`` seconds and
        stays paused until the next action."""
        self._time_base = max(self._time_base, elapsed)
        self._anchor = None

    def pause(self, at: float | None = None) -> None:
        """Stop the clock (the player is away); the next action starts it again.
        ``at``, a reading of :attr:`clock` in the past, stops it as of then (time
        after the player was last seen does not count)."""
        if self._anchor is None:
            return
        now = self.clock()
        end = now if at is None else min(max(at, self._anchor), now)
        self._time_base += end - self._anchor
        self._anchor = None

    def select(self, card: Card | None) -> None:
        """Set the selection directly (``None`` clears it); the card must be tappable."""
        if card is not None and card not in self.tappable_cards():
            raise IllegalMoveError(f"select {card}: the card is not free",
                                   ru=f"карту {card.label('ru')} нельзя выбрать: она не свободна")
        self.selection = card

    # ---------------------------------------------------------------- internals

    @property
    def _over_ru(self) -> str:
        """«The game is over (won)» in Russian, for the errors of a finished game."""
        return f"партия уже окончена ({status_word(self.status, 'ru')})"

    def _now(self) -> float:
        self._start_clock()
        return round(self.elapsed, 3)

    def _start_clock(self) -> None:
        if self._anchor is None and not self.is_over:
            self._anchor = self.clock()

    def _stop_clock(self) -> None:
        self._time_base = self.elapsed
        self._anchor = None

    def _act(self, move: Move, t: float) -> None:
        self._undo.append(self.position)
        self.position = _apply(self.position, self.rules, move)
        self.moves += 1
        self.log.append(LogEntry(move.code, t))
        self._after_action(removal=move.kind == "remove")

    def _do_undo(self, t: float) -> None:
        self.position = self._undo.pop()
        self.log.append(LogEntry("undo", t))
        if self._anchor is None and not self.is_over:
            self._anchor = self.clock()
        self.selection = None
        self.message = None

    def _after_action(self, *, removal: bool) -> None:
        if removal or (self.selection is not None
                       and self.selection not in self.tappable_cards()):
            self.selection = None
        self.message = None
        if self.position.status == "playing":
            self.position = _judge(self.position, self.rules)
        if self.position.status != "playing":
            self.selection = None
            self.message = Message.WON if self.position.status == "won" else Message.NO_MOVES
            self._stop_clock()

    def replay(self, entries: Iterable[LogEntry]) -> None:
        """Apply logged actions (a save's log) with their recorded times; raises
        :class:`IllegalMoveError` at the first one that is not legal there, with the
        actions before it applied (replay into a fresh game, as saves do)."""
        for entry in entries:
            if entry.action == "undo":
                if not self.can_undo:
                    raise IllegalMoveError(
                        f"logged undo at {entry.t}s: nothing to undo",
                        ru=f"записанная отмена на {entry.t} с: нечего отменять",
                    )
                self._do_undo(entry.t)
                self._anchor = None
            else:
                move = Move.parse(entry.action)
                if self.is_over or not self.is_legal(move):
                    raise IllegalMoveError(
                        f"logged move {entry.action!r} is not legal there",
                        ru=f"записанный ход {entry.action!r} в той позиции недопустим",
                    )
                self._act(move, entry.t)
            self._time_base = entry.t
            self._anchor = None


# ------------------------------------------------------------- pure functions


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise InvalidCardError(f"unreadable card {card!r}", ru=f"непонятная карта {card!r}")


def _pyramid_free(pyramid: tuple[Card | None, ...], index: int) -> bool:
    return all(pyramid[child] is None for child in COVERED_BY[index])


def _free_cards(pos: Position, rules: Rules) -> list[Card]:
    """Pyramid cards with nothing over them, the waste top, the open stock top."""
    free = [c for i, c in enumerate(pos.pyramid) if c is not None and _pyramid_free(pos.pyramid, i)]
    if pos.waste:
        free.append(pos.waste[-1])
    if rules.open_stock and pos.stock:
        free.append(pos.stock[0])
    return free


def _special_pairs(pos: Position, rules: Rules) -> list[Move]:
    """Pairs allowed only by the waste-pairs and covering-pairs options."""
    moves: list[Move] = []
    if rules.waste_pairs and len(pos.waste) >= 2 and pos.waste[-1].pairs_with(pos.waste[-2]):
        moves.append(Move.pair(pos.waste[-1], pos.waste[-2]))
    if rules.covering_pairs:
        pyramid = pos.pyramid
        for index, card in enumerate(pyramid):
            if card is None:
                continue
            over = [c for c in COVERED_BY[index] if pyramid[c] is not None]
            if len(over) == 1 and _pyramid_free(pyramid, over[0]):
                top = pyramid[over[0]]
                assert top is not None
                if card.pairs_with(top):
                    moves.append(Move.pair(card, top))
    return moves


def _legal_moves(pos: Position, rules: Rules) -> list[Move]:
    if pos.status != "playing":
        return []
    free = _free_cards(pos, rules)
    moves = [Move.king(c) for c in free if c.is_king]
    for i, a in enumerate(free):
        moves += [Move.pair(a, b) for b in free[i + 1 :] if a.pairs_with(b)]
    moves += [m for m in _special_pairs(pos, rules) if m not in moves]
    if pos.stock:
        moves.append(DRAW)
    elif pos.waste and (rules.redeals is None or pos.redeals_used < rules.redeals):
        moves.append(RECYCLE)
    return moves


def _apply(pos: Position, rules: Rules, move: Move) -> Position:
    """The position after a legal ``move`` (legality is the caller's business)."""
    if move.kind == "draw":
        n = min(rules.draw_count, len(pos.stock))
        drawn = pos.stock[:n]
        return replace(pos, stock=pos.stock[n:], waste=pos.waste + drawn)
    if move.kind == "recycle":
        return replace(pos, stock=pos.waste, waste=(), redeals_used=pos.redeals_used + 1)
    pyramid = list(pos.pyramid)
    stock, waste = pos.stock, pos.waste
    points = 0
    for card in move.cards:
        if card in pyramid:
            pyramid[pyramid.index(card)] = None
            points += POINTS_PER_PYRAMID_CARD
        elif card in waste:
            waste = tuple(c for c in waste if c != card)
        else:
            stock = tuple(c for c in stock if c != card)
    return Position(
        tuple(pyramid), stock, waste, pos.removed + move.cards,
        pos.score + points, pos.redeals_used,
    )


def _judge(pos: Position, rules: Rules) -> Position:
    """Win, or lost when no move is left (the dead end of §5), else unchanged."""
    pyramid_cleared = all(card is None for card in pos.pyramid[:PYRAMID_SIZE])
    if pyramid_cleared and (rules.win == "pyramid" or not (pos.stock or pos.waste)):
        return replace(pos, status="won")
    if not _legal_moves(pos, rules):
        return replace(pos, status="lost")
    return pos
