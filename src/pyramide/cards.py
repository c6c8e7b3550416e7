"""Cards: suits, ranks and the 52 distinct cards of the deck.

>>> Card.parse("10H")
Card('10♥')
>>> Card.parse("th") == Card.parse("T♥") == Card.parse("10h")
True
>>> Card.parse("QS").value, Card.parse("KD").is_king
(12, True)
>>> Card.parse("QC").name("ru"), Card.parse("QC").name("en")
('дама треф', 'queen of clubs')
>>> Card.parse("AS").label("ru"), Card.parse("AS").label("en")
('Т♠', 'A♠')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache
from typing import Literal

from pyramide.errors import InvalidCardError

__all__ = ["DECK", "RANKS", "Card", "Lang", "Suit"]

Lang = Literal["ru", "en"]


class Suit(enum.IntEnum):
    """The four suits, in the deck order C D H S."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank notation by value - 1."""

_RU_INDEX = {1: "Т", 11: "В", 12: "Д", 13: "К"}
_EN_RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
_RU_RANK_NAMES = {1: "туз", 11: "валет", 12: "дама", 13: "король"}
_EN_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_RU_SUIT_NAMES = ("треф", "бубен", "червей", "пик")
_SUIT_BY_TEXT = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_RANK_BY_TEXT = {text: value for value, text in enumerate(RANKS, start=1)}
_RANK_BY_TEXT["T"] = 10
_RANK_BY_TEXT["1"] = 1  # "1S" is read as the ace, as some card lists write it


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: a rank value 1..13 (A = 1, J = 11, Q = 12, K = 13) and a suit.

    Cards are compared and hashed by value; ``index`` numbers them 0..51 in
    deck order (clubs A..K, diamonds, hearts, spades).
    """

    suit: Suit
    value: int

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 13:
            raise InvalidCardError(f"card value {self.value!r} is not between 1 and 13")

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card written rank + suit: ``10H``, ``Th``, ``T♥``, ``qs``, ``A♣``."""
        return _parse(text.strip().upper()) if isinstance(text, str) else _not_a_card(text)

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with deck index 0..51 (clubs A..K, diamonds, hearts, spades)."""
        if not 0 <= index < 52:
            raise InvalidCardError(f"card index {index!r} is not between 0 and 51")
        return DECK[index]

    @property
    def index(self) -> int:
        return self.suit * 13 + self.value - 1

    @property
    def rank(self) -> str:
        """Rank notation: ``A 2 … 10 J Q K``."""
        return RANKS[self.value - 1]

    @property
    def code(self) -> str:
        """ASCII notation used in the JSON and the DOM: ``10H``, ``QS``."""
        return self.rank + self.suit.letter

    @property
    def is_king(self) -> bool:
        return self.value == 13

    def pairs_with(self, other: Card) -> bool:
        """True when the two values sum to 13 (suit never matters)."""
        return self.value + other.value == 13

    def label(self, lang: Lang = "en") -> str:
        """Short index with suit symbol; Russian indices Т В Д К in Russian."""
        rank = _RU_INDEX.get(self.value, self.rank) if lang == "ru" else self.rank
        return rank + self.suit.symbol

    def name(self, lang: Lang = "en") -> str:
        """Full name for messages and screen readers: ``дама треф``, ``queen of clubs``."""
        if lang == "ru":
            rank = _RU_RANK_NAMES.get(self.value, str(self.value))
            return f"{rank} {_RU_SUIT_NAMES[self.suit]}"
        return f"{_EN_RANK_NAMES[self.value - 1]} of {_EN_SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.rank + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card('{self}')"


@cache
def _parse(text: str) -> Card:
    if len(text) < 2:
        raise InvalidCardError(
            f"unreadable card {text!r}: write rank then suit, e.g. '10H'",
            ru=f"непонятная карта {text!r}: сначала ранг, потом масть, например '10H'")
    rank_text, suit_text = text[:-1], text[-1]
    suit = _SUIT_BY_TEXT.get(suit_text)
    value = _RANK_BY_TEXT.get(rank_text)
    if suit is None:
        raise InvalidCardError(f"unreadable card {text!r}: unknown suit {suit_text!r}",
                               ru=f"непонятная карта {text!r}: нет масти {suit_text!r}")
    if value is None:
        raise InvalidCardError(f"unreadable card {text!r}: unknown rank {rank_text!r}",
                               ru=f"непонятная карта {text!r}: нет ранга {rank_text!r}")
    return Card(suit, value)


def _not_a_card(text: object) -> Card:
    raise InvalidCardError(f"unreadable card {text!r}: expected text such as '10H'",
                           ru=f"непонятная карта {text!r}: нужна запись вида '10H'")


DECK: tuple[Card, ...] = tuple(Card(suit, value) for suit in Suit for value in range(1, 14))
"""The 52 cards in deck order; ``DECK[card.index] is card`` up to equality."""
