"""The game: the card-level façade over the rules kernel.

One :class:`Game` holds a deal under a rule set (any game of the family).
What is free, legal, what a move does and when the game ends is the rules
kernel's (:mod:`pyramide.kernel`); the game adds what a player meets around
it: taps and the selection (rule book §4), messages, undo (a snapshot of the
position; the move counter is never decreased), the clock and the action log.

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
from dataclasses import dataclass, field
from typing import Literal

from pyramide import kernel
from pyramide.cards import Card
from pyramide.deals import Deal, DealCode
from pyramide.errors import IllegalMoveError, InvalidCardError, InvalidLayoutError
from pyramide.games import DEFAULT_RULES
from pyramide.i18n import Lazy, Phrase
from pyramide.kernel import Position, Status
from pyramide.messages import Message, move_label, rules_name
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules, rules_for

__all__ = ["UNDO_LIMIT", "Game", "Position", "Spot", "Status", "Zone"]

UNDO_LIMIT = 100
POINTS_PER_PYRAMID_CARD = kernel.POINTS_PER_TABLEAU_CARD

Zone = Literal["pyramid", "waste", "stock", "cell", "removed"]
Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a card lies.

    ``index`` is the tableau slot (zone ``pyramid``: the tableau, every zone of
    it), the depth from the top in the waste and the stock (0 = top card), the
    cell, and the order of removal in ``removed``; ``pile`` is the waste pile.
    """

    zone: Zone
    index: int
    pile: int = 0

    @property
    def row_col(self) -> tuple[int, int]:
        """Row and column (1-based) of a slot of the classic 7-row pyramid."""
        from pyramide.geometry import row_col

        return row_col(self.index)


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
        if self.deal.deck != self.rules.deck:
            raise InvalidLayoutError("err.game.deck", letter=self.rules.letter,
                                     deck=self.rules.deck, cards=self.deal.deck)
        self.position = kernel.initial(self.rules, self.deal.cards)
        self._undo = deque(maxlen=UNDO_LIMIT)

    # ------------------------------------------------------------------ set-up

    @staticmethod
    def from_code(code: DealCode | str, *, clock: Clock = time.monotonic) -> Game:
        """A new game of the deal and rule set named by a deal code."""
        parsed = code if isinstance(code, DealCode) else DealCode.parse(code)
        rules = rules_for(parsed.rules_letter)
        return Game(Deal.from_number(parsed.number, rules.deck), rules, clock)

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
        if card in pos.tableau:
            return Spot("pyramid", pos.tableau.index(card))
        for pile, waste in enumerate(pos.wastes):
            if card in waste:
                return Spot("waste", len(waste) - 1 - waste.index(card), pile)
        if card in pos.stock:
            return Spot("stock", pos.stock.index(card))
        if card in pos.cells:
            return Spot("cell", pos.cells.index(card))
        if card in pos.removed:
            return Spot("removed", pos.removed.index(card))
        raise IllegalMoveError("err.game.not_in_deck", card=_label(card))

    def free_cards(self) -> list[Card]:
        """Cards that may be removed alone (kings) or paired with any other free card."""
        return kernel.free_cards(self.rules, self.position)

    def tappable_cards(self) -> list[Card]:
        """Free cards, plus cards that only pair with one neighbour (waste or covering pairs)."""
        cards = self.free_cards()
        for move in kernel.special_pairs(self.rules, self.position):
            cards += [c for c in move.cards if c not in cards]
        return cards

    def legal_moves(self) -> list[Move]:
        """Every legal move: removals first (tableau cards first), then moves into a
        cell, then draw/recycle."""
        return kernel.legal_moves(self.rules, self.position)

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    # ------------------------------------------------------------------ acting

    def play(self, move: Move | str) -> None:
        """Apply a legal move; raises :class:`IllegalMoveError` and changes nothing if not."""
        parsed = Move.parse(move) if isinstance(move, str) else move
        if self.is_over:
            raise IllegalMoveError("err.game.over_move", move=_shown(parsed), over=self._over)
        if not self.is_legal(parsed):
            raise self._rule_refusal(parsed, move if isinstance(move, str) else None) or (
                IllegalMoveError("err.game.illegal", move=_shown(parsed)))
        self._act(parsed, self._now())

    def undo(self) -> None:
        """Revert the last action (up to the last 100); points go back, moves do not."""
        if not self.can_undo:
            if not self._undo:
                raise IllegalMoveError("err.game.undo_none")
            raise IllegalMoveError("err.game.undo_won")
        self._do_undo(self._now())

    def tap(self, card: Card | str) -> Message | None:
        """Tap a face-up card, as a player does (rule book §4); returns the message shown.

        Raises :class:`IllegalMoveError` only for a card that cannot be tapped at
        all (face down in the stock, already removed, or the game is over).
        """
        target = _card(card)
        if self.is_over:
            raise IllegalMoveError("err.game.over_tap", card=_label(target), over=self._over)
        if not self._face_up(target):
            raise IllegalMoveError("err.game.face_down", card=_label(target))
        self.message = None
        selected = self.selection
        if selected == target:
            self.selection = None
            return None
        rules = self.rules
        if selected is not None and kernel.pairs(rules, selected, target):
            pair = Move.pair(selected, target)
            if self.is_legal(pair):
                self._act(pair, self._now())
                return self.message
        if kernel.is_single(rules, target) and self.is_legal(Move.king(target)):
            self._act(Move.king(target), self._now())
            return self.message
        if target not in self.tappable_cards():
            if self.explain_errors:
                self.message = Message.BLOCKED
            return self.message
        self.selection = target  # a plain selection does not start the clock
        if selected is not None:
            both_free = selected in self.free_cards() and target in self.free_cards()
            if not kernel.pairs(rules, selected, target):
                self.message = Message.WRONG_SUM if rules.pairing == "sum" else (
                    Message.CANNOT_PAIR)
            elif not both_free:
                self.message = Message.CANNOT_PAIR
        return self.message

    def tap_stock(self) -> Message | None:
        """Tap the stock pile: draw, or recycle the waste when the stock is empty."""
        if not self.rules.stock_size and not self.rules.waste_piles:
            raise IllegalMoveError("err.game.no_stock", game=Lazy(self._rules_name))
        if self.is_over:
            raise IllegalMoveError("err.game.over_stock", over=self._over)
        self.message = None
        for move in (DRAW, RECYCLE):
            if self.is_legal(move):
                self._act(move, self._now())
                return self.message
        self.message = Message.STOCK_SPENT
        return self.message

    def tap_pile(self, pile: str) -> Message | None:
        """Tap a pile: ``stock`` draws or recycles (:meth:`tap_stock`); an empty ``cell``
        takes the selected card (rule book §11 L).  Raises :class:`IllegalMoveError`
        for a pile the game does not have."""
        if pile == "stock":
            return self.tap_stock()
        if pile != "cell" or not self.rules.cells:
            raise IllegalMoveError("err.game.no_pile", pile=pile)
        if self.is_over:
            raise IllegalMoveError("err.game.over_cell", over=self._over)
        self.message = None
        if self.selection is not None and self.is_legal(Move.to_cell(self.selection)):
            self._act(Move.to_cell(self.selection), self._now())
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
            raise IllegalMoveError("err.game.not_free", card=_label(card))
        self.selection = card

    # ---------------------------------------------------------------- internals

    def _face_up(self, card: Card) -> bool:
        """True when ``card`` lies face up on the table (hidden slots turn up once free)."""
        spot = self.spot(card)
        if spot.zone == "pyramid":
            return kernel.visible(self.rules, self.position, spot.index)
        if spot.zone == "stock":
            return spot.index == 0 and kernel.stock_top_open(self.rules, self.position)
        return spot.zone != "removed"

    def _rule_refusal(self, move: Move, text: str | None) -> IllegalMoveError | None:
        """Why the game's rules never allow ``move``, quoting it (as the player wrote
        it, ``text``): a pair that does not remove, a card that does not go alone;
        ``None`` when the move could be legal in some position."""
        rules = self.rules
        shown: object = text if text is not None else _shown(move)
        if move.kind == "remove" and len(move.cards) == 2 and not kernel.pairs(rules, *move.cards):
            if rules.pairing == "sum":
                total = sum(kernel.worth(rules, c) for c in move.cards)
                a, b = move.cards
                return IllegalMoveError("err.game.sum", move=shown, a=_label(a), b=_label(b),
                                        total=total, target=rules.target)
            return IllegalMoveError("err.game.no_pair", move=shown)
        if move.kind == "remove" and len(move.cards) == 1 and not kernel.is_single(
                rules, move.cards[0]):
            return IllegalMoveError("err.game.alone", move=shown, target=rules.target)
        return None

    def _rules_name(self, lang: str) -> str:
        return rules_name(self.rules, lang)

    @property
    def _over(self) -> Phrase:
        """«The game is over (won)», for the errors of a finished game."""
        return Phrase("err.game.over", {"status": Phrase(f"status.{self.status}")})

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
        self.position = kernel.apply(self.rules, self.position, move)
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
            self.position = kernel.judge(self.rules, self.position)
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
                    raise IllegalMoveError("err.game.logged_undo", t=entry.t)
                self._do_undo(entry.t)
                self._anchor = None
            else:
                move = Move.parse(entry.action)
                if (refusal := self._rule_refusal(move, entry.action)) is not None:
                    raise refusal
                if self.is_over or not self.is_legal(move):
                    raise IllegalMoveError("err.game.logged_move", action=entry.action)
                self._act(move, entry.t)
            self._time_base = entry.t
            self._anchor = None


# ------------------------------------------------------------- pure functions


def _card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise InvalidCardError("err.card.type", text=card)


def _label(card: Card) -> Lazy:
    """A card as the table shows it in the reader's language (``Д♦``)."""
    return Lazy(card.label)


def _shown(move: Move) -> Lazy:
    """A move as the player reads it in the reader's language (``Д♦ + Т♠``)."""
    return Lazy(lambda lang: move_label(move, lang))
