"""Rule book §9: the reference deal as printed, shared by the tests.

The printed pyramid and waste 7♦; the stock order is not printed, so the 23
other cards follow in deck order (``stock_top`` first when a test needs them).
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramide.cards import DECK, Card
from pyramide.deals import Deal

# written with the suit symbols exactly as printed in the rule book
REFERENCE_ROWS = [
    "J♦",
    "6♣ 7♥",
    "A♠ 4♦ Q♠",
    "5♥ 3♦ 6♥ 8♠",
    "K♥ K♣ A♦ K♠ 9♣",
    "Q♣ 2♣ 8♦ 10♦ 10♠ J♠",
    "7♣ 10♣ 3♥ 4♥ 3♠ K♦ 7♠",
]
REFERENCE_WASTE = "7♦"
REFERENCE_CODES = [" ".join(Card.parse(t).code for t in row.split()) for row in REFERENCE_ROWS]
"""The same rows in the ASCII notation of the JSON and the DOM (``JD``, ``10C``)."""


def reference_cards(stock_top: Sequence[str] = ()) -> list[str]:
    """The 52 cards as text: the pyramid as printed, 7♦, then the stock as codes."""
    pyramid = " ".join(REFERENCE_ROWS).split()
    first = [Card.parse(t) for t in stock_top]
    used = {Card.parse(t) for t in [*pyramid, REFERENCE_WASTE]}
    rest = [card for card in DECK if card not in used and card not in first]
    return [*pyramid, REFERENCE_WASTE, *(card.code for card in [*first, *rest])]


def reference_deal(stock_top: Sequence[str] = ()) -> Deal:
    return Deal.parse_layout(reference_cards(stock_top))


def reference_layout(stock_top: Sequence[str] = ()) -> str:
    """The card list of §8 in ASCII notation (``JD 6C 7H …``)."""
    return reference_deal(stock_top).layout_text()
