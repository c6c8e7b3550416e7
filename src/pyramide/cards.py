"""Cards: suits, ranks and the 52 distinct cards of the deck.

>>> Card.parse("10H")
Card('10♥')
>>> Card.parse("th") == Card.parse("T♥") == Card.parse("10h")
True
>>> Card.parse("QS").value, Card.parse("KD").rank
(12, 'K')
>>> Card.parse("QC").name("ru"), Card.parse("QC").name("en")
('дама треф', 'queen of clubs')
>>> Card.parse("AS").label("ru"), Card.parse("AS").label("en")
('Т♠', 'A♠')

Games played with two decks (104 cards) tell the two copies of a card apart by
a prime after the second one: ``KD`` and ``KD'`` are two kings of diamonds.

>>> Card.parse("kd'")
Card("K♦'")
>>> Card.parse("KD'").code, Card.parse("KD'") == Card.parse("KD")
("KD'", False)
>>> len(deck_cards(48)), len(set(deck_cards(104)))
(48, 104)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, get_args

from pyramide.errors import InvalidCardError
from pyramide.i18n import catalogue, translate

__all__ = ["DECK", "DECK_SIZES", "RANKS", "Card", "DeckSize", "Lang", "Suit", "deck_cards"]

Lang = str
"""A language code with a catalogue file (:func:`pyramide.i18n.languages`)."""
DeckSize = Literal[52, 48, 104]
"""The decks of rule book §11: 52 cards, the 48 without the tens, two 52-card decks."""
DECK_SIZES: tuple[DeckSize, ...] = get_args(DeckSize)
COPY_MARK = "'"


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

    ``value`` is the rank's number; what a card is *worth* in a game is the
    rules kernel's business (the Spanish deck counts J as 10).  ``copy`` tells
    the two decks of a 104-card game apart (0 or 1).  Cards are compared and
    hashed by suit, value and copy; ``index`` numbers them 0..103 in deck order
    (clubs A..K, diamonds, hearts, spades, then the second deck).
    """

    suit: Suit
    value: int
    copy: int = 0
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 13:
            raise InvalidCardError("err.card.value", value=self.value)
        if self.copy not in (0, 1):
            raise InvalidCardError("err.card.copy", copy=self.copy)
        object.__setattr__(self, "_hash", self.copy * 52 + self.suit * 13 + self.value)

    def __hash__(self) -> int:
        # kept, not recomputed: the solver hashes whole tableaux of cards
        return self._hash

    @staticmethod
    def parse(text: str) -> Card:
        """Read a card written rank + suit: ``10H``, ``Th``, ``T♥``, ``qs``, ``A♣``."""
        return _parse(text.strip().upper()) if isinstance(text, str) else _not_a_card(text)

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with deck index 0..103 (clubs A..K, diamonds, hearts, spades;
        52 and up: the second deck)."""
        if not 0 <= index < 104:
            raise InvalidCardError("err.card.index", index=index)
        card = DECK[index % 52]
        return Card(card.suit, card.value, index // 52)

    @property
    def index(self) -> int:
        return self.copy * 52 + self.suit * 13 + self.value - 1

    @property
    def rank(self) -> str:
        """Rank notation: ``A 2 … 10 J Q K``."""
        return RANKS[self.value - 1]

    @property
    def code(self) -> str:
        """ASCII notation used in the JSON and the DOM: ``10H``, ``QS``."""
        return self.rank + self.suit.letter + self._mark

    @property
    def _mark(self) -> str:
        return COPY_MARK if self.copy else ""

    def label(self, lang: Lang = "en") -> str:
        """Short index with suit symbol, the index in the language's letters
        (the catalogue's ``index.<value>``: Т В Д К in Russian)."""
        rank = catalogue(lang).get(f"index.{self.value}", self.rank)
        return str(rank) + self.suit.symbol + self._mark

    def name(self, lang: Lang = "en") -> str:
        """Full name for messages and screen readers (the catalogue's ``card.name``):
        ``дама треф``, ``queen of clubs``."""
        return translate(lang, "card.name", rank=translate(lang, f"rank.{self.value}"),
                         suit=translate(lang, f"suit.{self.suit.letter}"))

    def __str__(self) -> str:
        return self.rank + self.suit.symbol + self._mark

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@cache
def _parse(text: str) -> Card:
    copy = 1 if text.endswith(COPY_MARK) else 0
    body = text[:-1] if copy else text
    if len(body) < 2:
        raise InvalidCardError("err.card.short", text=text)
    rank_text, suit_text = body[:-1], body[-1]
    suit = _SUIT_BY_TEXT.get(suit_text)
    value = _RANK_BY_TEXT.get(rank_text)
    if suit is None:
        raise InvalidCardError("err.card.suit", text=text, suit=suit_text)
    if value is None:
        raise InvalidCardError("err.card.rank", text=text, rank=rank_text)
    return Card(suit, value, copy)


def _not_a_card(text: object) -> Card:
    raise InvalidCardError("err.card.type", text=text)


DECK: tuple[Card, ...] = tuple(Card(suit, value) for suit in Suit for value in range(1, 14))
"""The 52 cards in deck order; ``DECK[card.index] is card`` up to equality."""


def deck_cards(size: DeckSize) -> tuple[Card, ...]:
    """The sorted deck of a game (rule book §11): 52 cards, the 48 without the tens,
    or 104 (the second deck's cards marked as copy 1)."""
    if size == 52:
        return DECK
    if size == 48:
        return tuple(card for card in DECK if card.value != 10)
    if size == 104:
        return DECK + tuple(Card(card.suit, card.value, 1) for card in DECK)
    raise InvalidCardError("err.card.deck", size=size, sizes=DECK_SIZES)
