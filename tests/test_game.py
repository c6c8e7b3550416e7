"""The game as a state machine: moves, stock cycling, variants, win, dead end, clock."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

import pytest

from pyramide import (
    DECK,
    DEFAULT_RULES,
    DRAW,
    PRESETS,
    RECYCLE,
    Card,
    Deal,
    Game,
    IllegalMoveError,
    Message,
    Move,
    PyramideError,
    Rules,
    Spot,
)
from pyramide.geometry import slot
from pyramide.rules import WastePairs
from tests.reference import reference_deal


class ManualClock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def c(text: str) -> Card:
    return Card.parse(text)


CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def russian(error: BaseException) -> str:
    """The error's Russian text, checked to be Russian and not its English text."""
    assert isinstance(error, PyramideError), error
    ru = error.text("ru")
    assert ru != str(error) and CYRILLIC.search(ru), ru
    assert error.text("en") == str(error)
    return ru



def layout_with(places: Mapping[tuple[int, int], str], stock: Sequence[str] = ()) -> Deal:
    """A deal with the given pyramid places and stock top; other cards in deck order."""
    chosen = {c(t) for t in [*places.values(), *stock]}
    filler = iter(card for card in DECK if card not in chosen)
    pyramid = [
        c(places[(row, col)]) if (row, col) in places else next(filler)
        for row in range(1, 8)
        for col in range(1, row + 1)
    ]
    rest = list(filler)
    return Deal((*pyramid, rest[0], *(c(t) for t in stock), *rest[1:]))


# A pyramid cleared by 16 removals, row by row from the bottom: the kings alone,
# the others in neighbouring pairs.  Waste and stock hold hearts and spades,
# each card followed by its partner (A♥ Q♥ 2♥ J♥ …).
WIN_ROWS = [
    "K♣",
    "A♣ Q♣",
    "K♦ 2♣ J♣",
    "3♣ 10♣ 4♣ 9♣",
    "K♥ 5♣ 8♣ 6♣ 7♣",
    "A♦ Q♦ 2♦ J♦ 3♦ 10♦",
    "K♠ 4♦ 9♦ 5♦ 8♦ 6♦ 7♦",
]
WIN_SEQUENCE = [
    "K♠", "4♦+9♦", "5♦+8♦", "6♦+7♦", "A♦+Q♦", "2♦+J♦", "3♦+10♦", "K♥",
    "5♣+8♣", "6♣+7♣", "3♣+10♣", "4♣+9♣", "K♦", "2♣+J♣", "A♣+Q♣", "K♣",
]
PARTNERS = ["A", "Q", "2", "J", "3", "10", "4", "9", "5", "8", "6", "7"]


def win_deal() -> Deal:
    rest = [rank + suit for suit in "♥♠" for rank in PARTNERS]
    return Deal.parse_layout(" ".join(WIN_ROWS).split() + rest)


# Dead end under N: rows 1-3 are J♣ / 10♣ 9♣ / 2♣ 3♣ 4♣ and the three free
# cards of row 3 never pair.  Rows 7, 6, 5, 4 (in that removal order) hold A♣ Q♣
# (a pair), then 20 low cards whose partners come off the waste one by one; the
# four kings are at the bottom of the stock.
LOW = ["5♣", "6♣", *(rank + suit for suit in "♦♥♠" for rank in "A23456")]
HIGH = ["8♣", "7♣", *(rank + suit for suit in "♦♥♠" for rank in ("Q", "J", "10", "9", "8", "7"))]
KINGS = ["K♣", "K♦", "K♥", "K♠"]


def dead_end_deal() -> Deal:
    removal = ["A♣", "Q♣", *LOW]  # row 7, row 6, row 5, row 4, each left to right
    rows = [removal[18:22], removal[13:18], removal[7:13], removal[0:7]]
    top = ["J♣", "10♣", "9♣", "2♣", "3♣", "4♣"]
    return Deal.parse_layout([*top, *(card for row in rows for card in row), *HIGH, *KINGS])


def dead_end_sequence() -> list[str]:
    moves = ["A♣+Q♣", f"{LOW[0]}+{HIGH[0]}"]
    for low, high in zip(LOW[1:], HIGH[1:], strict=True):
        moves += ["draw", f"{low}+{high}"]
    for king in KINGS:
        moves += ["draw", king]
    return moves


def stuck_deal() -> Deal:
    """No removal is ever possible (no waste pairs, no covering pairs): only draws.

    Bottom row: four queens and three jacks; no ace or 2 outside the pyramid;
    waste and stock 3 3 3 3 4 4 4 4 5 … 9, so neighbours never sum to 13 either.
    """
    bottom = ["Q♣", "Q♦", "Q♥", "Q♠", "J♣", "J♦", "J♥"]
    upper = [rank + suit for rank in ["A", "2", "7", "10", "K"] for suit in "♣♦♥♠"] + ["J♠"]
    outside = [rank + suit for rank in "345689" for suit in "♣♦♥♠"]
    return Deal.parse_layout([*upper, *bottom, *outside])


def play_all(game: Game, moves: Sequence[str]) -> None:
    for move in moves:
        game.play(move)


# ------------------------------------------------------------ moves and play


def test_legal_moves_play_and_is_legal() -> None:
    game = Game(reference_deal(), clock=ManualClock())
    moves = game.legal_moves()
    assert moves[-1] == DRAW
    assert all(m.kind == "remove" for m in moves[:-1])
    assert game.is_legal(Move.parse("k♦"))
    assert game.is_legal(Move.parse("3s+10c"))
    assert not game.is_legal(Move.parse("QC+AS"))  # both blocked
    assert not game.is_legal(RECYCLE)
    game.play("10C+3S")
    game.play(Move.king(c("K♦")))
    assert (game.score, game.moves) == (30, 2)
    assert [entry.action for entry in game.log] == ["10C+3S", "KD"]


@pytest.mark.parametrize("move", ["QC+AS", "KS", "recycle", "7C+6C", "AC+QD"])
def test_an_illegal_move_is_refused_and_changes_nothing(move: str) -> None:
    game = Game(reference_deal(), clock=ManualClock())
    start = game.position
    with pytest.raises(IllegalMoveError):
        game.play(move)
    assert game.position == start
    assert (game.moves, game.log) == (0, [])


def test_malformed_moves_are_refused() -> None:
    game = Game(reference_deal())
    for move in ["7C+7S", "QC", "fly", "AC+QC+KC", ""]:
        with pytest.raises(IllegalMoveError) as info:
            game.play(move)
        assert russian(info.value).startswith(f"ход {move!r}: ")
    assert game.moves == 0


@pytest.mark.parametrize(("move", "english", "ru"), [
    pytest.param("AC+QC+KC",
                 "move 'AC+QC+KC': a removal names one card or two, got 'A♣ + Q♣ + K♣'",
                 "ход 'AC+QC+KC': убрать можно одну карту или две, "
                 "а указано 'Т♣ + Д♣ + К♣'", id="three"),
    pytest.param("fly", "move 'fly': unreadable card 'FLY': unknown suit 'Y'",
                 "ход 'fly': непонятная карта 'FLY': нет масти 'Y'", id="unreadable"),
])
def test_a_malformed_move_is_explained_in_russian_too(move: str, english: str, ru: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        Move.parse(move)
    assert str(info.value) == english
    assert russian(info.value) == ru


@pytest.mark.parametrize(("move", "english", "ru"), [
    pytest.param("7C+7S", "move '7C+7S': 7♠ + 7♣ is 14, a pair must sum to 13",
                 "ход '7C+7S': 7♠ + 7♣ дают в сумме 14, а пара должна давать 13", id="sum"),
    pytest.param("QC", "move 'QC': only a card worth 13 goes alone",
                 "ход 'QC': в одиночку убирают только карту достоинством 13", id="alone"),
])
def test_a_move_the_rules_refuse_is_explained_in_russian_too(
        move: str, english: str, ru: str) -> None:
    game = Game(reference_deal(), clock=ManualClock())
    with pytest.raises(IllegalMoveError) as info:
        game.play(move)
    assert str(info.value) == english
    assert russian(info.value) == ru
    assert game.moves == 0


def test_an_illegal_move_or_tap_is_explained_in_russian_too() -> None:
    game = Game(reference_deal(), clock=ManualClock())
    with pytest.raises(IllegalMoveError) as info:
        game.play("QC+AS")
    assert str(info.value) == "move 'Q♣ + A♠' is not legal in this position"
    assert russian(info.value) == "ход 'Д♣ + Т♠' в этой позиции недопустим"
    game.play("KD")
    start = (game.position, game.moves, game.selection)
    with pytest.raises(IllegalMoveError) as info:
        game.tap("KD")
    assert str(info.value) == "tap K♦: the card is not on the table face up"
    assert russian(info.value) == "карты К♦ нет на столе открытой"
    with pytest.raises(IllegalMoveError) as info:
        game.select(c("Q♣"))
    assert russian(info.value) == "карту Д♣ нельзя выбрать: она не свободна"
    assert (game.position, game.moves, game.selection) == start


def test_spot_says_where_each_card_lies() -> None:
    game = Game(reference_deal(stock_top=["9D"]))
    assert game.spot(c("J♦")) == Spot("pyramid", 0)
    assert game.spot(c("7♠")).row_col == (7, 7)
    assert game.spot(c("Q♣")).row_col == (6, 1)
    assert game.spot(c("7♦")) == Spot("waste", 0)
    assert game.spot(c("9♦")) == Spot("stock", 0)
    game.play("draw")
    assert game.spot(c("9♦")) == Spot("waste", 0)
    assert game.spot(c("7♦")) == Spot("waste", 1)
    game.play("9D+4H")
    assert game.spot(c("4♥")) == Spot("removed", 1)
    assert game.spot(c("9♦")) == Spot("removed", 0)


def test_free_cards_follow_the_overlaps() -> None:
    game = Game(reference_deal())
    game.play("KD")
    assert c("10♠") not in game.free_cards()  # still under 3♠
    assert c("J♠") not in game.free_cards()  # still under 7♠
    game.play("10C+3S")
    assert c("10♠") in game.free_cards()
    assert c("2♣") not in game.free_cards()  # under 3♥
    game.play("10S+3H")
    assert c("2♣") in game.free_cards()
    assert c("8♦") not in game.free_cards()  # under 4♥
    assert game.score == 50


def test_game_from_code() -> None:
    game = Game.from_code("py1-p-aaaaaas")
    assert game.code == "PY1-P-AAAAAAS"
    assert game.rules is PRESETS["P"]
    assert game.deal == Deal.from_number(18)
    assert game.redeals_left == 2
    assert Game.from_code("PY1-N-AAAAAAS").redeals_left is None


# ----------------------------------------------------------- stock cycling


@pytest.mark.parametrize("passes", [1, 2, 5])
def test_recycling_restores_the_same_order(passes: int) -> None:
    game = Game(reference_deal(), clock=ManualClock())
    stock = game.position.stock
    for n in range(passes):
        drawn = []
        while game.position.stock:
            game.play(DRAW)
            drawn.append(game.position.waste[-1])
        # the first pass draws the stock; every later pass also turns the
        # first waste card (7♦, dealt face up) back in at the top
        assert tuple(drawn) == (stock if n == 0 else (c("7♦"), *stock))
        assert game.legal_moves()[-1] == RECYCLE
        assert DRAW not in game.legal_moves()
        game.play(RECYCLE)
        assert game.position.stock == (c("7♦"), *stock)
        assert game.position.waste == ()
    assert game.position.redeals_used == passes
    assert game.moves == 23 + (passes - 1) * 24 + passes
    assert game.score == 0


def test_draw_three_draws_three() -> None:
    game = Game(reference_deal(), PRESETS["T"], ManualClock())
    stock = game.position.stock
    game.tap_stock()
    assert game.position.waste == (c("7♦"), *stock[:3])
    assert game.position.stock == stock[3:]
    assert game.free_cards()[-1] == stock[2]
    assert stock[0] not in game.tappable_cards() and stock[1] not in game.tappable_cards()
    for _ in range(7):
        game.tap_stock()
    assert game.position.stock == ()  # 23 = 7 × 3 + 2: the eighth draw takes two
    assert game.position.waste == (c("7♦"), *stock)
    assert game.moves == 8
    game.tap_stock()  # recycle
    assert game.position.stock == (c("7♦"), *stock)
    for _ in range(8):
        game.tap_stock()
    assert game.position.waste == (c("7♦"), *stock)
    assert game.moves == 17


def test_open_stock_card_is_free_and_pairs() -> None:
    for letter in ["P", "R", "M"]:
        game = Game(reference_deal(stock_top=["9D", "QD"]), PRESETS[letter])
        # these games start with all 24 cards in the stock, its top card (7♦) open
        assert game.position.waste == () and c("7♦") in game.free_cards()
        game.play(DRAW)
        assert c("9♦") in game.free_cards()
        assert Move.pair(c("9♦"), c("4♥")) in game.legal_moves()
        game.play("9D+4H")
        assert game.score == 10
        assert game.position.stock[0] == c("Q♦")
        assert c("Q♦") in game.free_cards()
        plain = Game(reference_deal(stock_top=["9D"]))
        assert c("9♦") not in plain.free_cards()
        assert not plain.is_legal(Move.pair(c("9♦"), c("4♥")))


def test_covering_pairs_pair_a_card_with_its_single_cover() -> None:
    under_c = Game(reference_deal(), PRESETS["C"])
    under_n = Game(reference_deal())
    pair = Move.pair(c("10♠"), c("3♠"))
    # at the start 10♠ lies under 3♠ and K♦: two covers, no pair
    assert not under_c.is_legal(pair)
    for game in (under_c, under_n):
        game.play("KD")
    assert under_c.is_legal(pair)
    assert not under_n.is_legal(pair)
    under_c.play(pair)
    assert under_c.score == 30, "both are pyramid cards"
    assert under_c.position.pyramid[slot(6, 5)] is None


def test_covering_pairs_need_the_cover_to_be_free() -> None:
    # X = A♣ (5,1) ends up under Y = Q♣ (6,2) only, while Q♣ still lies under
    # W = A♦ (7,3): X + Y sums to 13 but is not allowed until W is gone.
    deal = layout_with({(7, 1): "K♠", (7, 2): "K♥", (6, 1): "K♦", (5, 1): "A♣",
                        (6, 2): "Q♣", (7, 3): "A♦"})
    game = Game(deal, PRESETS["C"])
    play_all(game, ["KS", "KH", "KD"])
    assert not game.is_legal(Move.pair(c("A♣"), c("Q♣")))
    assert c("A♣") not in game.tappable_cards()
    assert game.is_legal(Move.pair(c("Q♣"), c("A♦")))  # Q♣'s single cover is free
    game.play("QC+AD")
    assert c("A♣") in game.free_cards()


def test_waste_pairs_option() -> None:
    rules = dataclasses.replace(DEFAULT_RULES, letter="W", name="waste pairs", waste_pairs="drawn")
    deal = reference_deal(stock_top=["6S", "2H"])
    plain, waste = Game(deal), Game(deal, rules)
    for game in (plain, waste):
        game.play(DRAW)
    pair = Move.pair(c("6♠"), c("7♦"))
    assert not plain.is_legal(pair)
    assert waste.is_legal(pair)
    assert c("7♦") in waste.tappable_cards() and c("7♦") not in waste.free_cards()
    waste.play(pair)
    assert waste.position.waste == ()
    assert waste.score == 0
    plain.play(DRAW)  # 2♥ covers 6♠, which covers 7♦: nothing pairs
    assert not any(m.kind == "remove" and c("6♠") in m.cards for m in plain.legal_moves())


@pytest.mark.parametrize("when", ["none", "drawn", "hand", "always"])
def test_when_two_waste_cards_may_pair(when: WastePairs) -> None:
    rules = dataclasses.replace(DEFAULT_RULES, letter="W", name="waste pairs", waste_pairs=when)
    game = Game(reference_deal(stock_top=["6S", "10H"]), rules)
    game.play(DRAW)  # 6♠, just drawn, onto 7♦
    assert game.position.drawn
    assert game.is_legal(Move.pair(c("6♠"), c("7♦"))) == (when != "none")
    assert (c("7♦") in game.free_cards()) == (when == "hand")  # beside the drawn card
    game.play(DRAW)  # 10♥ onto 6♠
    assert game.is_legal(Move.pair(c("6♠"), c("7♣"))) == (when == "hand")
    game.play("10H+3H")  # the drawn card goes: 6♠ is the top again, not just drawn
    assert not game.position.drawn
    assert game.is_legal(Move.pair(c("6♠"), c("7♦"))) == (when == "always")
    assert game.is_legal(Move.pair(c("6♠"), c("7♣"))) and c("7♦") not in game.free_cards()
    game.undo()
    assert game.position.drawn and game.position.waste[-1] == c("10♥")
    if when == "hand":  # the waste top goes beside the drawn card, which stays drawn
        game.play("7C+6S")
        assert game.position.drawn and game.position.waste == (c("7♦"), c("10♥"))
        assert game.is_legal(Move.pair(c("10♥"), c("3♥")))
        assert c("7♦") in game.free_cards()


def test_waste_pairs_must_name_when() -> None:
    with pytest.raises(ValueError, match="waste pairs True must be one of none, drawn"):
        Rules("W", "waste pairs", waste_pairs=True)  # type: ignore[arg-type]


# ---------------------------------------------------------- win and dead end


def test_win_at_280_with_cards_left_in_the_stock() -> None:
    clock = ManualClock()
    game = Game(win_deal(), clock=clock)
    for n, move in enumerate(WIN_SEQUENCE):
        clock.now += 2
        cards = [c(t) for t in move.split("+")]
        messages = [game.tap(card) for card in cards]
        if n < len(WIN_SEQUENCE) - 1:
            assert game.status == "playing"
            assert messages[-1] is None
    assert messages[-1] is Message.WON
    assert game.message is Message.WON
    assert game.status == "won"
    assert game.is_over
    assert game.score == 280
    assert game.moves == 16
    assert len(game.position.stock) == 23
    assert game.position.waste == (c("A♥"),)
    assert game.legal_moves() == []
    assert not game.can_undo
    elapsed = game.elapsed
    assert elapsed == 30.0  # first action at +2 s, last at +32 s
    clock.now += 100
    assert game.elapsed == elapsed, "the clock stops at the end"
    with pytest.raises(IllegalMoveError, match="over") as info:
        game.play(DRAW)
    assert russian(info.value) == "ход 'взять карту': партия уже окончена (выиграна)"
    with pytest.raises(IllegalMoveError, match="over") as info:
        game.tap(c("A♥"))
    assert russian(info.value) == "карта Т♥: партия уже окончена (выиграна)"
    with pytest.raises(IllegalMoveError, match="over") as info:
        game.tap_stock()
    assert russian(info.value) == "колода: партия уже окончена (выиграна)"


def test_strict_win_needs_the_stock_and_waste_emptied_too() -> None:
    game = Game(win_deal(), PRESETS["P"])  # open stock: waste top pairs with stock top
    play_all(game, WIN_SEQUENCE)
    assert (game.status, game.score) == ("playing", 280)
    assert game.message is None
    game.play(DRAW)  # P starts with all 24 cards in the stock: A♥ onto the waste
    game.play("AH+QH")  # the open stock top pairs with the waste top
    for _ in range(11):
        assert game.status == "playing"
        game.play(DRAW)
        game.play(Move.pair(game.position.waste[-1], game.position.stock[0]))
    assert game.status == "won"
    assert game.position.stock == () and game.position.waste == ()
    assert game.score == 280
    assert game.message is Message.WON


def test_strict_one_pass_is_lost_at_280_when_the_stock_cannot_be_cleared() -> None:
    # preset O without its waste pairs, so that no stock card can ever go
    game = Game(win_deal(), dataclasses.replace(PRESETS["O"], letter="X", waste_pairs="none"))
    play_all(game, WIN_SEQUENCE)
    assert game.status == "playing"
    for _ in range(22):
        game.play(DRAW)
        assert game.status == "playing"
    game.play(DRAW)
    assert game.status == "lost"
    assert game.message is Message.NO_MOVES
    assert game.score == 280


def test_dead_end_only_when_stock_and_waste_are_empty() -> None:
    game = Game(dead_end_deal(), clock=ManualClock())
    sequence = dead_end_sequence()
    for move in sequence[:-1]:
        game.play(move)
        assert game.status == "playing"
        assert game.message is None
    assert game.position.stock == ()
    assert game.position.waste == (c("K♠"),)
    assert game.tap(c("K♠")) is Message.NO_MOVES
    assert game.status == "lost"
    assert game.message is Message.NO_MOVES
    assert game.position.stock == () and game.position.waste == ()
    assert game.position.pyramid_left == 6
    assert game.score == 220
    assert game.legal_moves() == []
    assert game.free_cards() == [c("2♣"), c("3♣"), c("4♣")]


@pytest.mark.parametrize("letter", ["N", "C", "T"])
def test_no_dead_end_while_the_stock_can_turn(letter: str) -> None:
    game = Game(stuck_deal(), PRESETS[letter])
    for _ in range(200):  # many passes, nothing ever removable
        assert game.status == "playing"
        assert all(m.kind != "remove" for m in game.legal_moves())
        assert game.tap_stock() is None
        assert game.message is None
    assert game.position.redeals_used >= 5
    assert game.score == 0


@pytest.mark.parametrize(("letter", "actions"), [("O", 23), ("P", 74), ("R", 74), ("M", 74)])
def test_limited_redeals_are_lost_when_nothing_is_left(letter: str, actions: int) -> None:
    game = Game(stuck_deal(), PRESETS[letter])
    redeals = PRESETS[letter].redeals
    assert redeals is not None
    for n in range(1, actions + 1):
        assert game.status == "playing"
        game.tap_stock()
        if n < actions:
            assert game.message is None
    assert game.moves == actions
    assert game.status == "lost"
    assert game.message is Message.NO_MOVES
    assert game.redeals_left == 0
    assert game.position.redeals_used == redeals
    assert len(game.position.waste) == 24 and game.position.stock == ()
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError) as info:
        game.tap_stock()
    assert str(info.value) == "tap stock: the game is over (lost)"
    assert russian(info.value) == "колода: партия уже окончена (проиграна)"


def test_redeals_left_counts_down() -> None:
    game = Game(stuck_deal(), PRESETS["P"])
    seen = []
    while not game.is_over:
        if game.legal_moves() == [RECYCLE]:
            seen.append(game.redeals_left)
        game.tap_stock()
    assert seen == [2, 1]


# -------------------------------------------------------------------- clock


def test_the_clock_starts_at_the_first_action_and_stops_at_the_end() -> None:
    clock = ManualClock()
    game = Game(win_deal(), clock=clock)
    clock.now += 60
    assert game.elapsed == 0.0
    game.tap(c("4♦"))  # a plain selection does not start the clock
    clock.now += 5
    assert game.elapsed == 0.0 and not game.clock_running
    game.tap(c("9♦"))  # the first move does
    assert game.log[0].action == "9D+4D" and game.log[0].t == 0.0
    clock.now += 5
    assert game.elapsed == 5.0 and game.clock_running
    play_all(game, [m for m in WIN_SEQUENCE if m != "4♦+9♦"])
    clock.now += 1000
    assert game.elapsed == 5.0 and not game.clock_running
    assert game.status == "won"


def test_a_paused_clock_waits_for_the_next_action() -> None:
    clock = ManualClock()
    game = Game(reference_deal(), clock=clock)
    game.pause()  # not started: nothing to pause
    game.tap_stock()
    clock.now += 4
    game.pause()
    clock.now += 100  # away
    assert game.elapsed == 4.0 and not game.clock_running
    game.tap_stock()  # back: the action starts the clock again
    assert game.log[-1].t == 4.0
    clock.now += 2
    assert game.elapsed == 6.0
    game.pause(at=clock.now - 1.5)  # last seen 1.5 s ago: that time does not count
    assert game.elapsed == 4.5
    game.undo()
    clock.now += 1
    assert game.elapsed == 5.5
    game.pause(at=0.0)  # before the clock last started: nothing of this run counts
    assert game.elapsed == 4.5


def test_a_draw_starts_the_clock() -> None:
    clock = ManualClock()
    game = Game(reference_deal(), clock=clock)
    clock.now += 7
    game.tap_stock()
    clock.now += 3
    assert game.elapsed == 3.0
    assert game.log[0].t == 0.0


def test_custom_rules_need_no_letter_of_their_own_for_an_explicit_layout() -> None:
    rules = Rules("W", "waste pairs", waste_pairs="drawn")
    game = Game(reference_deal(), rules)
    assert game.code is None
    assert game.rules.waste_pairs == "drawn"
