"""The Pyramid family (rule book §11): each game's facts, and its solver checked
against an exhaustive search over the rules kernel's own positions."""

from __future__ import annotations

import random
from collections import deque

import pytest

from pyramide import PRESETS, Card, DealCode, Game, IllegalMoveError
from pyramide.cards import deck_cards
from pyramide.deals import Deal
from pyramide.kernel import Position, apply, judge, legal_moves, pairs, visible
from pyramide.messages import Message
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules
from pyramide.solver import Budget, solve, solve_position
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.kernel_search import gone

FAMILY = [letter for letter, rules in PRESETS.items() if rules.family]


def c(text: str) -> Card:
    return Card.parse(text)


def game(code: str) -> Game:
    return Game.from_code(code, clock=lambda: 0.0)


# ------------------------------------------------------------ the rule book's facts


def test_triangle_starts_with_one_free_tableau_card() -> None:
    g = game("PY1-V-AAAAAAB")
    tableau = [card for card in g.free_cards() if card in g.position.tableau]
    assert tableau == [g.position.tableau[27]]
    assert g.position.waste == () and len(g.position.stock) == 24
    assert g.position.stock[0] in g.free_cards(), "open stock: its top card plays"


def test_an_apophis_stock_tap_deals_three_cards_and_a_recycle_gathers_them() -> None:
    g = game("PY1-A-AAAAAAB")
    pos = g.position
    assert [len(w) for w in pos.wastes] == [1, 1, 1] and len(pos.stock) == 21
    top3 = pos.stock[:3]
    g.tap_stock()
    assert [w[-1] for w in g.position.wastes] == list(top3)
    assert len(g.position.stock) == 18 and g.moves == 1
    while g.position.stock:
        g.play(DRAW)
    wastes = g.position.wastes
    g.play(RECYCLE)
    # PySolFC's order: the last pile's cards from the bottom first, then the others
    gathered = [*wastes[2], *wastes[1], *wastes[0]]
    assert [w[-1] for w in g.position.wastes] == gathered[:3], "the next round is dealt at once"
    assert g.position.stock == tuple(gathered[3:])
    assert g.position.redeals_used == 1


def test_giza_has_no_stock_and_the_tops_of_eight_reserve_piles_play() -> None:
    g = game("PY1-G-AAAAAAB")
    assert g.position.stock == () and g.position.wastes == ((),)
    assert DRAW not in g.legal_moves() and RECYCLE not in g.legal_moves()
    reserve = [s for s, slot in enumerate(g.rules.tableau.slots) if slot.zone == "reserve"]
    assert len(reserve) == 24
    free_reserve = [s for s in reserve if g.position.tableau[s] in g.free_cards()]
    assert len(free_reserve) == 8
    with pytest.raises(IllegalMoveError):
        g.tap_stock()


def test_the_spanish_deck_has_no_tens_and_pairs_to_12() -> None:
    g = game("PY1-E-AAAAAAB")
    cards = g.deal.cards
    assert len(cards) == 48 and all(card.value != 10 for card in cards)
    rules = g.rules
    assert pairs(rules, c("JC"), c("2D")), "J is worth 10"
    assert pairs(rules, c("QC"), c("AD")), "Q is worth 11"
    assert not pairs(rules, c("JC"), c("3D"))
    assert Move.king(c("KS")) in legal_moves(rules, Position(
        (None,) * 27 + (c("KS"),), (), (), ())), "K is worth 12: alone"


def test_six_rows_is_won_at_210() -> None:
    for number in range(20):
        g = game(str(DealCode("S", number)))
        line = solve(g, budget=Budget(nodes=50_000, seconds=10)).moves
        if solve(g).winnable:
            for move in line:
                g.play(move)
            assert (g.status, g.score) == ("won", 210)
            assert len(g.rules.tableau) == 21 and len(g.deal.cards) == 52
            return
    pytest.fail("no winnable six-row deal among 20")


def test_pyramid_thirteen_hides_rows_one_to_six_until_uncovered() -> None:
    g = game("PY1-H-AAAAAAB")
    hidden = [s for s in range(28) if not visible(g.rules, g.position, s)]
    assert hidden == list(range(21))
    with pytest.raises(IllegalMoveError):
        g.tap(g.position.tableau[0])  # face down: not on the table face up


def test_yield_frees_both_ends_of_the_waste() -> None:
    g = game("PY1-Y-AAAAAAB")
    for _ in range(3):
        g.play(DRAW)
    waste = g.position.waste
    assert waste[0] in g.free_cards() and waste[-1] in g.free_cards()
    assert waste[1] not in g.free_cards()
    assert not g.is_legal(RECYCLE)


def test_a_card_parked_in_the_cell_scores_only_when_removed() -> None:
    g = game("PY1-L-AAAAAAB")
    card = next(m.cards[0] for m in g.legal_moves() if m.kind == "cell"
                and m.cards[0] in g.position.tableau)
    g.tap(card)
    assert g.tap_pile("cell") is None
    assert g.position.cells == (card,) and g.score == 0 and g.moves == 1
    assert card in g.free_cards()
    assert not any(m.kind == "cell" for m in g.legal_moves()), "one cell only"
    g.undo()
    assert g.position.cells == (None,)


def test_cheops_pairs_equal_and_adjacent_ranks_and_nothing_goes_alone() -> None:
    rules = PRESETS["K"]
    assert pairs(rules, c("7C"), c("7S")) and pairs(rules, c("7C"), c("8S"))
    assert not pairs(rules, c("KC"), c("AS")), "no king-ace wrap"
    assert not any(m.kind == "remove" and len(m.cards) == 1
                   for n in range(10) for m in game(str(DealCode("K", n))).legal_moves())


def test_eleven_triangle_and_pyramid_dozen_pairs() -> None:
    eleven, dozen = PRESETS["I"], PRESETS["Z"]
    assert pairs(eleven, c("JC"), c("JS")) and pairs(eleven, c("AC"), c("10S"))
    assert not pairs(eleven, c("JC"), c("QS"))
    assert pairs(dozen, c("QC"), c("KS")) and pairs(dozen, c("6C"), c("6S"))
    assert not pairs(dozen, c("KC"), c("KS"))


def test_two_deck_games_tell_the_copies_apart() -> None:
    g = game("PY1-X-AAAAAAB")
    assert len(g.deal.cards) == len(set(g.deal.cards)) == 104
    assert set(g.deal.cards) == set(deck_cards(104))
    assert len(g.position.tableau) == 56


def test_par_pyramid_shows_the_literature_scores() -> None:
    from pyramide.kernel import literature_scores

    g = game("PY1-D-AAAAAAB")
    assert g.position.waste == () and len(g.position.stock) == 24
    scores = literature_scores(g.rules, g.position)
    assert scores == {"pyramid_left": 28, "par": -(28 + 24)}
    assert literature_scores(PRESETS["N"], g.position) is None


def test_a_wrong_sum_names_the_games_target() -> None:
    g = game("PY1-E-AAAAAAB")
    free = [card for card in g.free_cards() if card in g.position.tableau]
    free = [card for card in free if card.value != 13]  # a king would just go
    a, b = next((x, y) for x in free for y in free
                if x != y and not pairs(g.rules, x, y))
    g.explain_errors = True
    g.tap(a)
    assert g.tap(b) is Message.WRONG_SUM


# ------------------------------------------------ the solver against exhaustive search


def small_position(rules: Rules, seed: int, keep: int = 6, talon: int = 6) -> Position:
    """A late position: the first ``keep`` tableau slots (covered only by later,
    now empty slots), ``talon`` cards left in the stock and waste (partners of
    the kept cards where possible), the rest removed."""
    rng = random.Random(seed)
    cards = list(deck_cards(rules.deck))
    rng.shuffle(cards)
    top = cards[:keep]
    spare = cards[keep:]
    chosen: list[Card] = []
    for card in top:
        partners = [x for x in spare if pairs(rules, card, x)]
        if partners and len(chosen) < talon and rng.random() < 0.85:
            pick = rng.choice(partners)
            spare.remove(pick)
            chosen.append(pick)
    while len(chosen) < talon:  # the rest in pairs of their own, so that wins happen
        card = spare.pop()
        chosen.append(card)
        partner = next((x for x in spare if pairs(rules, card, x)), None)
        if partner is not None and len(chosen) < talon:
            spare.remove(partner)
            chosen.append(partner)
    tableau = (*top, *([None] * (len(rules.tableau) - keep)))
    if not rules.waste_piles:  # no talon at all: the others go to the last slots, which
        # cover none of the kept ones (the bottom of the last pyramid, the piles' tops)
        tableau = (*top, *([None] * (len(rules.tableau) - keep - talon)), *chosen)
        chosen = []
    cut = rng.randint(0, len(chosen))
    piles: list[tuple[Card, ...]] = [() for _ in range(rules.waste_piles)]
    for i, card in enumerate(chosen[:cut]):
        piles[i % max(1, rules.waste_piles)] += (card,)
    redeals = rng.randint(0, rules.redeals) if rules.redeals else 0
    return Position(tableau, tuple(chosen[cut:]), piles[0] if piles else (), tuple(spare),
                    score=10 * (len(rules.tableau) - keep - (0 if rules.waste_piles else talon)),
                    redeals_used=redeals, side_wastes=tuple(piles[1:]),
                    cells=(None,) * rules.cells, parked=(False,) * rules.cells)


def exhaustive(rules: Rules, start: Position) -> tuple[bool, int, int | None]:
    """(winnable, most tableau cards gone, fewest moves to a win) by breadth-first
    search over every position the kernel can reach."""
    def key(pos: Position) -> object:
        return (pos.tableau, pos.stock, pos.wastes, pos.cells,
                pos.redeals_used if rules.redeals is not None else 0)

    seen = {key(start)}
    queue = deque([(start, 0)])
    best, fewest = gone(start), None
    while queue:
        pos, depth = queue.popleft()
        best = max(best, gone(pos))
        if pos.status == "won":
            fewest = depth if fewest is None else fewest
            continue
        for move in legal_moves(rules, pos):
            child = judge(rules, apply(rules, pos, move))
            if key(child) not in seen:
                seen.add(key(child))
                queue.append((child, depth + 1))
    return fewest is not None, best, fewest


def game_at(rules: Rules, pos: Position) -> Game:
    g = Game(Deal(deck_cards(rules.deck)), rules, clock=lambda: 0.0)
    g.position = pos
    return g


@pytest.mark.parametrize("letter", FAMILY)
def test_solver_answers_are_those_of_exhaustive_search(letter: str) -> None:
    rules = PRESETS[letter]
    outcomes = set()
    for seed in range(12):
        size = 4 if rules.deck == 104 else 6  # two decks: fewer partners to go round
        pos = judge(rules, small_position(rules, seed, keep=size, talon=size))
        winnable, best, fewest = exhaustive(rules, pos)
        result = solve_position(pos, rules, budget=UNLIMITED)
        assert (result.winnable, result.max_removed) == (winnable, best), seed
        g = game_at(rules, pos)
        for move in result.moves:
            g.play(move)
        assert gone(g.position) == best and (g.status == "won") == winnable, seed
        short = solve_position(pos, rules, budget=UNLIMITED, shortest=True)
        if winnable:
            assert short.shortest and len(short.moves) == fewest, seed
            g = game_at(rules, pos)
            for move in short.moves:
                g.play(move)
            assert g.status == "won"
        else:
            assert short.winnable is False and short.max_removed == best, seed
        outcomes.add(winnable)
    assert True in outcomes, "the small positions include wins"
