"""Cards: parsing every notation of rule book §8, values, names, the deck order."""

from __future__ import annotations

import pytest

from pyramide import DECK, Card, InvalidCardError, Suit
from pyramide.cards import RANKS
from pyramide.games import DEFAULT_RULES
from pyramide.kernel import is_single
from pyramide.kernel import pairs as kernel_pairs


@pytest.mark.parametrize("text", ["10h", "10H", "Th", "TH", "T♥", "t♥", "th", "10♥", " 10h ", "T♡"])
def test_every_notation_of_the_ten_of_hearts_is_the_same_card(text: str) -> None:
    card = Card.parse(text)
    assert card == Card(Suit.HEARTS, 10)
    assert card.code == "10H"
    assert str(card) == "10♥"


@pytest.mark.parametrize(
    ("text", "suit", "value"),
    [
        ("AC", Suit.CLUBS, 1),
        ("a♣", Suit.CLUBS, 1),
        ("1S", Suit.SPADES, 1),
        ("2D", Suit.DIAMONDS, 2),
        ("9♦", Suit.DIAMONDS, 9),
        ("JS", Suit.SPADES, 11),
        ("q♠", Suit.SPADES, 12),
        ("KD", Suit.DIAMONDS, 13),
        ("k♤", Suit.SPADES, 13),
    ],
)
def test_rank_and_suit_are_read(text: str, suit: Suit, value: int) -> None:
    card = Card.parse(text)
    assert (card.suit, card.value) == (suit, value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "unreadable card ''"),
        ("H", "unreadable card 'H'"),
        ("1X", "unknown suit 'X'"),
        ("11H", "unknown rank '11'"),
        ("ZH", "unknown rank 'Z'"),
        ("0S", "unknown rank '0'"),
        ("10", "unknown suit '0'"),
        ("ТH", "unknown rank 'Т'"),  # Cyrillic Т is a label, not an input notation
    ],
)
def test_unreadable_cards_are_refused_with_the_input_quoted(text: str, problem: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert problem in str(info.value)


def test_non_text_is_not_a_card() -> None:
    with pytest.raises(InvalidCardError, match="12"):
        Card.parse(12)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        Card.parse(None)  # type: ignore[arg-type]


def test_card_values_are_checked() -> None:
    with pytest.raises(InvalidCardError, match="14"):
        Card(Suit.CLUBS, 14)
    with pytest.raises(InvalidCardError):
        Card(Suit.CLUBS, 0)


def test_values_of_rule_book_section_1() -> None:
    values = {card.rank: card.value for card in DECK if card.suit is Suit.SPADES}
    assert values == {
        "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7,
        "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13,
    }
    assert [c for c in DECK if is_single(DEFAULT_RULES, c)] == [Card(s, 13) for s in Suit]


def test_pairs_sum_to_13_whatever_the_suit() -> None:
    pairs = {
        (a.value, b.value) for a in DECK for b in DECK
        if kernel_pairs(DEFAULT_RULES, a, b) and a.value < b.value
    }
    assert pairs == {(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)}
    assert kernel_pairs(DEFAULT_RULES, Card.parse("AC"), Card.parse("QH"))
    assert not kernel_pairs(DEFAULT_RULES, Card.parse("7C"), Card.parse("7S"))
    assert not any(kernel_pairs(DEFAULT_RULES, Card.parse("KD"), c) for c in DECK)


def test_deck_is_52_distinct_cards_in_deck_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert [c.code for c in DECK[:13]] == [r + "C" for r in RANKS]
    assert [c.suit for c in DECK[::13]] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]
    for index, card in enumerate(DECK):
        assert card.index == index
        assert Card.from_index(index) == card
        assert Card.parse(card.code) == card
        assert Card.parse(str(card)) == card


@pytest.mark.parametrize("index", [-1, 104, 1000])
def test_from_index_out_of_range(index: int) -> None:
    with pytest.raises(InvalidCardError, match=str(index)):
        Card.from_index(index)


def test_suits() -> None:
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.symbol for s in Suit] == ["♣", "♦", "♥", "♠"]
    assert [s.is_red for s in Suit] == [False, True, True, False]


def test_names_and_labels_in_both_languages() -> None:
    assert Card.parse("QC").name("ru") == "дама треф"
    assert Card.parse("QC").name("en") == "queen of clubs"
    assert Card.parse("AS").name("ru") == "туз пик"
    assert Card.parse("JD").name("ru") == "валет бубен"
    assert Card.parse("KH").name("ru") == "король червей"
    assert Card.parse("7H").name("ru") == "семёрка червей"
    assert Card.parse("10D").name("en") == "ten of diamonds"
    assert Card.parse("AS").label("ru") == "Т♠"
    assert Card.parse("JD").label("ru") == "В♦"
    assert Card.parse("QC").label("ru") == "Д♣"
    assert Card.parse("KH").label("ru") == "К♥"
    assert Card.parse("10H").label("ru") == "10♥"
    assert Card.parse("AS").label("en") == "A♠"
    assert len({c.name("ru") for c in DECK}) == 52
    assert len({c.name("en") for c in DECK}) == 52


def test_cards_are_values() -> None:
    assert hash(Card.parse("th")) == hash(Card(Suit.HEARTS, 10))
    assert repr(Card.parse("10h")) == "Card('10♥')"
    with pytest.raises(AttributeError):
        Card.parse("AS").value = 2  # type: ignore[misc]
