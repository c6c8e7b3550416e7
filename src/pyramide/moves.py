"""Moves: the explicit actions of rule book §4 (and the cell move of §11 L).

A move names cards, not places: the cards of a deck are distinct (two-deck
games mark the second copy, ``KD'``), so ``K♦`` or ``10♣+3♠`` says exactly
what is removed wherever the cards lie.  The two cards of a pair are kept
higher value first, so equal moves print alike.  Whether a move is legal — a
pair summing to the game's target, a single card worth it — is the rules
kernel's business (:mod:`pyramide.kernel`), not the notation's.

>>> Move.parse("3S+10C")
Move('10♣+3♠')
>>> Move.parse("kd").code, str(Move.parse("draw")), Move.parse("cell:qs").code
('KD', 'draw', 'cell:QS')
>>> Move.parse("7C+7C")
Traceback (most recent call last):
...
pyramide.errors.IllegalMoveError: move '7C+7C': a pair names two different cards, got 7♣ + 7♣
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pyramide.cards import Card
from pyramide.errors import IllegalMoveError, InvalidCardError
from pyramide.i18n import Lazy

__all__ = ["DRAW", "RECYCLE", "Move", "MoveKind"]

MoveKind = Literal["remove", "draw", "recycle", "cell"]
CELL_PREFIX = "cell:"


@dataclass(frozen=True, slots=True)
class Move:
    """Remove one card or two, draw, recycle, or move one card into a cell."""

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if self.kind in ("draw", "recycle"):
            if self.cards:
                raise IllegalMoveError("err.move.no_cards", kind=self.kind,
                                       cards=self.cards)
            return
        if self.kind not in ("remove", "cell"):
            raise IllegalMoveError("err.move.kind", kind=self.kind)
        if len(self.cards) == 2 and self.cards[0] != self.cards[1]:
            a, b = self.cards
            if (a.value, a.index) < (b.value, b.index):
                object.__setattr__(self, "cards", (b, a))
            if self.kind == "remove":
                return
        elif len(self.cards) == 1 and isinstance(self.cards[0], Card):
            return
        cards = self.cards
        shown = Lazy(lambda lang: " + ".join(card.label(lang) if isinstance(card, Card)
                                             else str(card) for card in cards))
        if self.kind == "cell":
            raise IllegalMoveError("err.move.cell", shown=shown)
        if len(self.cards) == 2:
            raise IllegalMoveError("err.move.pair", shown=shown)
        else:
            raise IllegalMoveError("err.move.count", shown=shown)

    @staticmethod
    def king(card: Card) -> Move:
        return Move("remove", (card,))

    @staticmethod
    def pair(a: Card, b: Card) -> Move:
        return Move("remove", (a, b))

    @staticmethod
    def to_cell(card: Card) -> Move:
        return Move("cell", (card,))

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``KD``, ``K♦``, ``10C+3S``, ``cell:QS``, ``draw`` or ``recycle`` (any case)."""
        if not isinstance(text, str):
            raise IllegalMoveError("err.move.type", text=text)
        cleaned = text.strip().lower()
        if cleaned in ("draw", "recycle"):
            return DRAW if cleaned == "draw" else RECYCLE
        try:
            if cleaned.startswith(CELL_PREFIX):
                return Move("cell", (Card.parse(cleaned[len(CELL_PREFIX):]),))
            cards = tuple(Card.parse(part) for part in cleaned.split("+"))
            return Move("remove", cards)
        except (InvalidCardError, IllegalMoveError) as exc:
            raise IllegalMoveError("err.move.unreadable", text=text, reason=exc) from None

    @property
    def code(self) -> str:
        """ASCII notation: ``KD``, ``10C+3S``, ``cell:QS``, ``draw``, ``recycle``."""
        return self._notation([c.code for c in self.cards])

    def _notation(self, cards: list[str]) -> str:
        if not cards:
            return self.kind
        return CELL_PREFIX + cards[0] if self.kind == "cell" else "+".join(cards)

    def __str__(self) -> str:
        return self._notation([str(c) for c in self.cards])

    def __repr__(self) -> str:
        return f"Move('{self}')"


DRAW = Move("draw")
RECYCLE = Move("recycle")
