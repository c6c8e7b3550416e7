"""Moves: the explicit actions of rule book §4.

A move names cards, not places: the 52 cards are distinct, so ``K♦`` or
``10♣+3♠`` says exactly what is removed wherever the cards lie.  The two
cards of a pair are kept higher value first, so equal moves print alike.

>>> Move.parse("3S+10C")
Move('10♣+3♠')
>>> Move.parse("kd").code, str(Move.parse("draw"))
('KD', 'draw')
>>> Move.parse("7C+7S")
Traceback (most recent call last):
...
pyramide.errors.IllegalMoveError: move '7C+7S': 7♣ + 7♠ is 14, a pair must sum to 13
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pyramide.cards import Card
from pyramide.errors import IllegalMoveError, InvalidCardError

__all__ = ["DRAW", "RECYCLE", "Move", "MoveKind"]

MoveKind = Literal["remove", "draw", "recycle"]


@dataclass(frozen=True, slots=True)
class Move:
    """Remove one king or two cards summing to 13, draw, or recycle."""

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
        if self.kind != "remove":
            raise IllegalMoveError(f"unknown move kind {self.kind!r}",
                                   ru=f"нет такого вида хода {self.kind!r}")
        shown = " + ".join(map(str, self.cards))
        shown_ru = " + ".join(_label_ru(card) for card in self.cards)
        if len(self.cards) == 1:
            if not self.cards[0].is_king:
                raise IllegalMoveError(
                    f"{shown} alone is not a king: only a king goes alone",
                    ru=f"{shown_ru} — не король: в одиночку убирают только короля",
                )
        elif len(self.cards) == 2:
            a, b = self.cards
            if not a.pairs_with(b):
                raise IllegalMoveError(
                    f"{shown} is {a.value + b.value}, a pair must sum to 13",
                    ru=f"{shown_ru} дают в сумме {a.value + b.value}, а пара должна давать 13",
                )
            if a.value < b.value:
                object.__setattr__(self, "cards", (b, a))
        else:
            raise IllegalMoveError(
                f"a removal names one king or two cards, got {shown!r}",
                ru=f"убрать можно одного короля или две карты, а указано {shown_ru!r}",
            )

    @staticmethod
    def king(card: Card) -> Move:
        return Move("remove", (card,))

    @staticmethod
    def pair(a: Card, b: Card) -> Move:
        return Move("remove", (a, b))

    @staticmethod
    def parse(text: str) -> Move:
        """Read ``KD``, ``K♦``, ``10C+3S``, ``draw`` or ``recycle`` (any case)."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"move {text!r} is not text", ru=f"ход {text!r} — не текст")
        cleaned = text.strip().lower()
        if cleaned in ("draw", "recycle"):
            return DRAW if cleaned == "draw" else RECYCLE
        try:
            cards = tuple(Card.parse(part) for part in cleaned.split("+"))
            return Move("remove", cards)
        except (InvalidCardError, IllegalMoveError) as exc:
            raise IllegalMoveError(f"move {text!r}: {exc}",
                                   ru=f"ход {text!r}: {exc.text('ru')}") from None

    @property
    def code(self) -> str:
        """ASCII notation: ``KD``, ``10C+3S``, ``draw``, ``recycle``."""
        return "+".join(c.code for c in self.cards) if self.cards else self.kind

    def __str__(self) -> str:
        return "+".join(map(str, self.cards)) if self.cards else self.kind

    def __repr__(self) -> str:
        return f"Move('{self}')"


def _label_ru(card: object) -> str:
    """A card as the Russian table shows it (``Д♦``); anything else as it prints."""
    return card.label("ru") if isinstance(card, Card) else str(card)


DRAW = Move("draw")
RECYCLE = Move("recycle")
