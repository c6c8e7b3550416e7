"""Proven shortest lines are the shortest there are, under every rule set and both starts.

The solver's estimate must never count more moves than a line needs, or a line it
calls "proven shortest" may be beaten.  These tests compare the proven lengths with
searches written independently, over the engine's own positions: breadth-first
search on small positions, and A* with a plain estimate
(:func:`tests.test_solver_helpers.engine_shortest`) on positions of real deals.
Every rule set is also played with an open stock, and from the start of PySolFC's and
Microsoft's games: the whole talon in the stock, its top card open, no waste.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pyramide import PRESETS, Card, Deal, Game
from pyramide.cards import DECK
from pyramide.game import Position
from pyramide.rules import Rules
from pyramide.solver import solve_position
from pyramide.solver.budget import UNLIMITED
from tests.test_solver_helpers import (
    SLOTS,
    engine_shortest,
    fewest_moves,
    game_at,
    small_position,
)

RULE_SETS = {letter: PRESETS[letter] for letter in "NCPRMTO"}
"""The rule sets of rule book §10 (the family games of §11 have their own search)."""
OPEN_VARIANTS = {
    letter: rules if rules.open_stock else replace(rules, open_stock=True)
    for letter, rules in RULE_SETS.items()
}
"""Every rule set with an open stock (those that have one as they are)."""

ALL_RULES = {**{f"{k}": r for k, r in RULE_SETS.items()},
             **{f"{k}+open": r for k, r in OPEN_VARIANTS.items() if not PRESETS[k].open_stock}}


def microsoft_start(pos: Position) -> Position:
    """The same cards with the whole talon in the stock (waste first) and no waste."""
    return replace(pos, stock=pos.waste + pos.stock, waste=())


def stock_position(seed: int, rows: int, talon: int) -> Position:
    """A late position whose talon is all in the stock (none on the waste): the top
    ``rows`` rows of a pyramid, and a stock where partners of pyramid cards lie over
    the cards the pyramid needs most, so that an open stock's top cards can go by
    removals instead of draws."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    keep = rows * (rows + 1) // 2
    top, spare = cards[:keep], cards[keep:]
    partners = [c for c in spare if any(c.value + p.value == 13 for p in top)]
    rng.shuffle(partners)
    stock = partners[:talon]
    stock += [c for c in spare if c not in stock][: talon - len(stock)]
    rng.shuffle(stock)
    pyramid: list[Card | None] = [*top, *([None] * (SLOTS - keep))]
    return Position(tuple(pyramid), tuple(stock), (), tuple(c for c in spare if c not in stock),
                    score=10 * (SLOTS - keep), redeals_used=rng.choice((0, 0, 1, 2)))


def check_proven(pos: Position, rules: Rules, reference: str) -> None:
    """The solver's proven line has the reference's length, and plays as it says."""
    result = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
    assert result.winnable is not None
    assert result.shortest
    win = bool(result.winnable)
    if reference == "bfs":
        best = fewest_moves(pos, rules, result.max_removed, win=win)
    else:
        best = engine_shortest(pos, rules, result.max_removed, win)
    assert len(result.moves) == best
    game = game_at(pos, rules)
    for move in result.moves:
        game.play(move)
    assert SLOTS - game.position.pyramid_left == result.max_removed
    assert (game.status == "won") == win


@pytest.mark.parametrize("name", sorted(ALL_RULES))
def test_shortest_lines_from_a_full_stock_equal_breadth_first_search(name: str) -> None:
    rules = ALL_RULES[name]
    for seed in range(12):
        check_proven(stock_position(seed, rows=3, talon=9), rules, "bfs")


@pytest.mark.parametrize("name", sorted(OPEN_VARIANTS))
def test_open_stock_shortest_lines_equal_breadth_first_search(name: str) -> None:
    rules = OPEN_VARIANTS[name]
    for seed in range(12):
        check_proven(small_position(100 + seed, rows=3, talon=9), rules, "bfs")


def played_position(number: int, rules: Rules, left: int, *, open_start: bool) -> Position:
    """A position of a real deal: its start (or the same cards with no waste), then
    removals picked at random (draws when there is none) until at most ``left``
    pyramid cards are left, or the next move would end the game."""
    pos = Game(Deal.from_number(number), rules).position
    if open_start:
        pos = microsoft_start(pos)
    game = game_at(pos, rules)
    rng = random.Random(number)
    while game.position.pyramid_left > left:
        moves = game.legal_moves()
        removals = [m for m in moves if m.kind == "remove"]
        if not moves or game.moves > 200:
            break
        game.play(rng.choice(removals or moves))
        if game.status != "playing":
            game.undo()
            break
    return game.position


LEFT = {"M": 13, "P": 14, "R": 13, "T": 12, "O": 12}
"""Pyramid cards left in the real-deal positions (fewer where the engine search is slow)."""


@pytest.mark.parametrize("letter", sorted(LEFT))
@pytest.mark.parametrize("open_start", [False, True])
def test_proven_lengths_on_real_deals_equal_an_engine_search(letter: str,
                                                             open_start: bool) -> None:
    rules = PRESETS[letter]
    for number in range(6):
        position = played_position(number, rules, LEFT[letter], open_start=open_start)
        check_proven(position, rules, "astar")


MICROSOFT_V = (
    "4C AC 9D 6S 5S QD AH KC 4D JS 3C QH JH 8D JD JC 5D 3H 10C KS AS 7D 7S QS 5C 2H 2C 8H "
    "9S 9H 5H 7C 6D 4S KD 8S KH 8C 6H 6C QC AD 10S 2D 7H 2S 9C 3S 10D 3D 4H 10H"
)
"""Deal 21 (``PY1-M-AAAAAAV``) as the rule sets with one waste card dealt it: the
pyramid, the waste card, the stock from the top."""
THIRTY = ("draw 8H+5H draw 7C+6D draw KD 5C+8S KH draw 7D+6H 7S+6C JC+2H draw QS+AD "
          "3H+10C JH+2C KS 8D+5D QH+AS KC 3C+10S JD+2D AH+QC 6S+7H JS+2S 4D+9C 5S+8C AC+QD "
          "9D+4S 4C+9H")


def test_the_issue_deal_is_proven_at_thirty_moves_not_thirty_four() -> None:
    """Counting draws to a stock card as if every card over it had to be drawn once
    proved 34 moves here, under Microsoft's rules; 30 win."""
    cards = [Card.parse(t) for t in MICROSOFT_V.split()]
    pos = Position(tuple(cards[:SLOTS]), tuple(cards[SLOTS + 1:]), (cards[SLOTS],), ())
    rules = PRESETS["M"]
    game = game_at(pos, rules)
    for move in THIRTY.split():
        game.play(move)
    assert game.status == "won"
    result = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
    assert result.winnable and result.shortest and len(result.moves) == 30
    replay = game_at(pos, rules)
    for move in result.moves:
        replay.play(move)
    assert replay.status == "won"
