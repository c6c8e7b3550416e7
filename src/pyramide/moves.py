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
                raise IllegalMoveError(
                    f"a {self.kind} names no cards, got {self.cards!r}",
                    ru=f"у хода {self.kind!r} не бывает карт, а указаны {self.cards!r}",
                )
            return
        if self.kind not in ("remove", "cell"):
            raise IllegalMoveError(f"unknown move kind {self.kind!r}",
                                   ru=f"нет такого вида хода {self.kind!r}")
        if len(self.cards) == 2 and self.cards[0] != self.cards[1]:
            a, b = self.cards
            if (a.value, a.index) < (b.value, b.index):
                object.__setattr__(self, "cards", (b, a))
            if self.kind == "remove":
                return
        elif len(self.cards) == 1 and isinstance(self.cards[0], Card):
            return
        shown = " + ".join(map(str, self.cards))
        shown_ru = " + ".join(_label_ru(card) for card in self.cards)
        if self.kind == "cell":
            raise IllegalMoveError(
                f"a move into the cell names one card, got {shown!r}",
                ru=f"в ячейку кладут одну карту, а указано {shown_ru!r}",
            )
        if len(self.cards) == 2:
            raise IllegalMoveError(
                f"a pair names two different cards, got {shown}",
                ru=f"пара — это две разные карты, а указано {shown_ru}",
            )
        else:
            raise IllegalMoveError(
                f"a removal names one card or two, got {shown!r}",
                ru=f"убрать можно одну карту или две, а указано {shown_ru!r}",
            )

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
            raise IllegalMoveError(f"move {text!r} is not text", ru=f"ход {text!r} — не текст")
        cleaned = text.strip().lower()
        if cleaned in ("draw", "recycle"):
            return DRAW if cleaned == "draw" else RECYCLE
        try:
            if cleaned.startswith(CELL_PREFIX):
                return Move("cell", (Card.parse(cleaned[len(CELL_PREFIX):]),))
            cards = tuple(Card.parse(part) for part in cleaned.split("+"))
            return Move("remove", cards)
        except (InvalidCardError, IllegalMoveError) as exc:
            raise IllegalMoveError(f"move {text!r}: {exc}",
                                   ru=f"ход {text!r}: {exc.text('ru')}") from None

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


def _label_ru(card: object) -> str:
    """A card as the Russian table shows it (``Д♦``); anything else as it prints."""
    return card.label("ru") if isinstance(card, Card) else str(card)


DRAW = Move("draw")
RECYCLE = Move("recycle")
