"""Deals: deal codes, the portable shuffle, and explicit card lists.

A deal is the order of a game's deck (52, 48 or 104 cards): for the default
game the 28 pyramid cards row by row (top row first, left to right), then the
waste card, then the 23 stock cards from the top of the stock (drawn first) to
the bottom (rule book §8).  Every game reads its deal the same way: its
tableau slots in deal order, then each waste pile's starting cards, then the
stock from the top (:func:`pyramide.kernel.initial`; docs/deal-codes.md).

Deal codes
----------
``PY1-<rules letter>-<7 letters>``: the 7 letters are the deal number in base
26 (A = 0 … Z = 25, most significant first), so ``AAAAAAS`` is deal 18.  The
rules letter chooses the rule set; the deal number alone chooses the cards, so
``PY1-N-AAAAAAS`` and ``PY1-P-AAAAAAS`` deal the same cards.

The shuffle (a contract: see docs/deal-codes.md)
------------------------------------------------
1. Start from the game's sorted deck (:func:`pyramide.cards.deck_cards`): for 52
   cards index ``i`` is suit ``i // 13`` in the order C D H S, value
   ``i % 13 + 1`` (A = 1 … K = 13); the 48-card deck leaves the tens out; the
   104-card deck is the 52 followed by their second copies.
2. Seed a SplitMix64 generator with the deal number (all arithmetic mod 2**64).
3. Fisher–Yates: for ``i`` from ``n - 1`` down to 1, draw ``j`` uniformly in
   ``0..i`` by rejection sampling and swap positions ``i`` and ``j``.
4. The shuffled list is the deal in the order above.

>>> DealCode.parse("PY1-N-AAAAAAS").number
18
>>> str(DealCode("N", 9))
'PY1-N-AAAAAAJ'
>>> deal = Deal.from_number(18)
>>> len(deal.cards), len(set(deal.cards))
(52, 52)
>>> Deal.parse_layout(deal.layout_text()) == Deal(deal.cards)
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from pyramide.cards import Card, DeckSize, deck_cards
from pyramide.errors import InvalidCardError, InvalidDealCodeError, InvalidLayoutError
from pyramide.games import PRESETS
from pyramide.i18n import Lazy

__all__ = [
    "CODE_LETTERS",
    "MAX_DEAL_NUMBER",
    "PYRAMID_SIZE",
    "STOCK_SIZE",
    "Deal",
    "DealCode",
    "SplitMix64",
    "shuffled_deck",
]

CODE_PREFIX = "PY1"
CODE_LETTERS = 7
MAX_DEAL_NUMBER = 26**CODE_LETTERS - 1
PYRAMID_SIZE = 28
STOCK_SIZE = 23
_MASK64 = (1 << 64) - 1
_CODE_RE = re.compile(r"^([A-Z0-9]+)-([A-Z0-9]*)-([A-Z0-9]*)$")


@dataclass(frozen=True, slots=True)
class DealCode:
    """A deal code: the rules letter and the deal number 0 … 26**7 - 1."""

    rules_letter: str
    number: int

    def __post_init__(self) -> None:
        if self.rules_letter not in PRESETS:
            known = ", ".join(sorted(PRESETS))
            raise InvalidDealCodeError("err.rules.unknown", letter=self.rules_letter,
                                       known=known)
        _check_number(self.number)

    @staticmethod
    def parse(text: str) -> DealCode:
        """Read ``PY1-N-AAAAAAS``; surrounding blanks and lower case are accepted."""
        if not isinstance(text, str):
            raise InvalidDealCodeError("err.code.type", text=text)
        cleaned = text.strip().upper()
        match = _CODE_RE.match(cleaned)
        if match is None:
            raise InvalidDealCodeError("err.code.shape", text=text)
        prefix, letter, digits = match.groups()
        if prefix != CODE_PREFIX:
            raise InvalidDealCodeError("err.code.prefix", text=text, prefix=prefix,
                                       known=CODE_PREFIX)
        if letter not in PRESETS:
            known = ", ".join(sorted(PRESETS))
            raise InvalidDealCodeError("err.code.rules", text=text, letter=letter, known=known)
        if len(digits) != CODE_LETTERS:
            raise InvalidDealCodeError("err.code.length", text=text, n=len(digits),
                                       expected=CODE_LETTERS)
        if not digits.isalpha():
            raise InvalidDealCodeError("err.code.letters", text=text, digits=digits)
        number = 0
        for ch in digits:
            number = number * 26 + (ord(ch) - ord("A"))
        return DealCode(letter, number)

    @property
    def letters(self) -> str:
        out = []
        n = self.number
        for _ in range(CODE_LETTERS):
            n, digit = divmod(n, 26)
            out.append(chr(ord("A") + digit))
        return "".join(reversed(out))

    def __str__(self) -> str:
        return f"{CODE_PREFIX}-{self.rules_letter}-{self.letters}"

    def __repr__(self) -> str:
        return f"DealCode('{self}')"


class SplitMix64:
    """The deal generator: SplitMix64, written out so that it is a stable contract.

    >>> g = SplitMix64(0)
    >>> hex(g.next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` by rejection sampling (no modulo bias)."""
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n


def shuffled_deck(number: int, deck_size: DeckSize = 52) -> tuple[Card, ...]:
    """The cards of deal ``number`` (see the module docstring for the algorithm)."""
    deck = list(deck_cards(deck_size))
    rng = SplitMix64(number)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


@dataclass(frozen=True, slots=True)
class Deal:
    """A game's deck in deal order, and the deal number when it came from a code."""

    cards: tuple[Card, ...]
    number: int | None = None

    def __post_init__(self) -> None:
        _check_deck(self.cards, source=None)

    @property
    def deck(self) -> DeckSize:
        size = len(self.cards)
        assert size in (52, 48, 104)
        return size  # type: ignore[return-value]

    @staticmethod
    def from_number(number: int, deck: DeckSize = 52) -> Deal:
        _check_number(number)
        return Deal(shuffled_deck(number, deck), number)

    @staticmethod
    def from_code(code: DealCode | str) -> Deal:
        from pyramide.rules import rules_for

        parsed = code if isinstance(code, DealCode) else DealCode.parse(code)
        return Deal.from_number(parsed.number, rules_for(parsed.rules_letter).deck)

    @staticmethod
    def parse_layout(text: str | Sequence[str], deck: DeckSize = 52) -> Deal:
        """Read an explicit card list (§8): the game's whole deck, separated by blanks
        or commas."""
        if isinstance(text, str):
            tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
        elif isinstance(text, Sequence) and all(isinstance(t, str) for t in text):
            tokens = [t.strip() for t in text]
        else:
            raise InvalidLayoutError("err.list.type", text=text)
        cards: list[Card] = []
        for position, token in enumerate(tokens, start=1):
            try:
                cards.append(Card.parse(token))
            except InvalidCardError as exc:
                raise InvalidLayoutError("err.list.card", position=position,
                                         reason=exc) from None
        _check_deck(cards, source=text, size=deck)
        return Deal(tuple(cards))

    # The classic layout (28 pyramid cards, one waste card, the stock) of §8:

    @property
    def pyramid(self) -> tuple[Card, ...]:
        return self.cards[:PYRAMID_SIZE]

    @property
    def rows(self) -> list[tuple[Card, ...]]:
        return [self.cards[r * (r - 1) // 2 : r * (r + 1) // 2] for r in range(1, 8)]

    @property
    def waste(self) -> Card:
        return self.cards[PYRAMID_SIZE]

    @property
    def stock(self) -> tuple[Card, ...]:
        """Stock cards from the top (drawn first) to the bottom."""
        return self.cards[PYRAMID_SIZE + 1 :]

    def layout_text(self) -> str:
        """The card list of §8 in ASCII notation, readable by :meth:`parse_layout`."""
        return " ".join(card.code for card in self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)


def _check_number(number: object) -> None:
    if not isinstance(number, int) or not 0 <= number <= MAX_DEAL_NUMBER:
        raise InvalidDealCodeError("err.code.number", number=number, limit=MAX_DEAL_NUMBER)


def _check_deck(cards: Sequence[Card], source: object, size: int | None = None) -> None:
    """The cards must be exactly one of the decks (``size``: that one)."""
    where = "" if source is None else f" {_shorten(source)!s}"
    counts = Counter(cards)
    duplicates = sorted(card for card, n in counts.items() if n > 1)
    if duplicates:
        names = _labels(duplicates)
        raise InvalidLayoutError("err.list.duplicates", where=where, names=names)
    expected = size if size is not None else _likely_deck(cards)
    deck = set(deck_cards(expected))  # type: ignore[arg-type]
    missing = sorted(deck - set(counts))
    foreign = sorted(set(counts) - deck)
    if foreign:
        names = _labels(foreign)
        raise InvalidLayoutError("err.list.foreign", where=where, names=names,
                                 expected=expected)
    if missing or len(cards) != expected:
        names = _labels(missing)
        raise InvalidLayoutError("err.list.count", where=where, n=len(cards), expected=expected,
                                 names=names)


def _labels(cards: Sequence[Card]) -> Lazy:
    """The cards as the player's language writes them (Т♠ in Russian, A♠ in English)."""
    return Lazy(lambda lang: " ".join(card.label(lang) for card in cards))


def _likely_deck(cards: Sequence[Card]) -> int:
    if any(card.copy for card in cards) or len(cards) > 52:
        return 104
    if len(cards) == 48 and all(card.value != 10 for card in cards):
        return 48
    return 52


def _shorten(source: object) -> str:
    text = source if isinstance(source, str) else " ".join(map(str, source))  # type: ignore[call-overload]
    return repr(text if len(text) <= 60 else text[:57] + "...")
