"""The solver: answers replayed through the engine, hints, early loss, structure."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramide import DECK, PRESETS, Card, Deal, Game, Position
from pyramide.geometry import COVERED_BY
from pyramide.kernel import legal_moves
from pyramide.solver import (
    Budget,
    SolverError,
    decide,
    hint,
    is_lost,
    reduced_rules,
    solve,
    solve_position,
)
from pyramide.solver.api import slow_path
from pyramide.solver.downsets import COVERING, DOWNSETS, FREE, FULL, SHADOW
from pyramide.solver.table import Table, serves
from tests.test_solver_helpers import NaiveBound, game_at, shadow_free

CLASSIC = sorted(letter for letter, rules in PRESETS.items() if rules.classic)
"""The games of §1-§10: the ones the accelerated searches serve."""

SMALL = Budget(nodes=20_000, seconds=5.0)

# Queen of spades at the apex, the ace of spades under it in row 2, the other aces
# elsewhere in the pyramid and the other queens in the stock (found by a seeded search).
QUEEN_APEX = (
    "QS AS 7S 3S KH 8C 6C JH 2C JS 8H 3D AD 10H 8D 2D KS 4H 9H 6S KC 4D 4S 5D AC AH 9D "
    "2H 3H JD 4C QH 10C 9S 7C QD 6D 9C 8S 5C 5S 10D 5H 7D KD 6H 7H QC 3C JC 10S 2S"
)


def replay(game: Game, moves: list[object]) -> Game:
    for move in moves:
        game.play(move)  # type: ignore[arg-type]
    return game


def removed(game: Game) -> int:
    return 28 - game.position.pyramid_left


# ------------------------------------------------------------------ structure


def test_the_pyramid_has_1430_downsets() -> None:
    assert len(DOWNSETS) == 1430
    assert FREE[FULL] == tuple(range(21, 28))
    for mask in DOWNSETS:
        for s in range(28):
            if mask >> s & 1:
                assert all(mask >> t & 1 for t in range(28) if SHADOW[s] >> t & 1)
    assert COVERING[FULL] == ()


def test_shadows_match_the_geometry() -> None:
    for s in range(28):
        assert {t for t in range(28) if SHADOW[s] >> t & 1} == shadow_free(s)


def test_the_integer_table_refuses_the_games_with_waste_pairs() -> None:
    """Which waste pairs play depends on the card just drawn, which the table's
    states do not keep: those games go to the compiled or the kernel search."""
    assert sorted(k for k, r in PRESETS.items() if r.classic and not serves(r)) == [
        "C1", "C1W", "D", "N1", "N1W", "O"]
    with pytest.raises(ValueError, match="does not play rule set O"):
        Table(Position.initial(Deal.from_number(0), PRESETS["O"]), PRESETS["O"])
    assert slow_path(PRESETS["O"], shortest=True) == "kernel"


def test_reduced_rules_are_n_and_c() -> None:
    assert sorted(k for k, r in PRESETS.items() if reduced_rules(r)) == ["C", "N"]


@pytest.mark.parametrize("letter", [c for c in CLASSIC if serves(PRESETS[c])])
def test_table_moves_are_the_engines(letter: str) -> None:
    """Random play: the table's actions and states mirror the engine's exactly."""
    rules = PRESETS[letter]
    rng = random.Random(letter)
    for number in range(6):
        game = Game(Deal.from_number(number), rules)
        for _ in range(150):
            if game.is_over:
                break
            table = Table(game.position, rules)
            actions = table.actions(table.start)
            assert sorted(map(str, (table.move(a) for a in actions))) == sorted(
                map(str, game.legal_moves())
            )
            action = rng.choice(actions)
            after = table.apply(table.start, action)
            game.play(table.move(action))
            pos = game.position
            assert table.layout(after) == (pos.pyramid, pos.stock, pos.waste)
            assert after.redeals == (pos.redeals_used if rules.redeals is not None else 0)
            assert after.talon == Table(pos, rules).start.talon


# ------------------------------------------------------------ whole deals


@pytest.mark.parametrize("letter", ["N", "C"])
def test_lines_replay_to_the_promised_result(letter: str) -> None:
    for number in range(40):
        deal = Deal.from_number(number)
        result = solve(Game(deal, PRESETS[letter]))
        game = replay(Game(deal, PRESETS[letter]), result.moves)
        assert result.exact and result.winnable is not None
        assert (game.status == "won") == result.winnable
        assert removed(game) == result.max_removed
        assert result.winnable == (result.max_removed == 28)


@pytest.mark.parametrize("letter", ["P", "R", "M", "T", "O"])
def test_lines_replay_under_every_preset(letter: str) -> None:
    rules = PRESETS[letter]
    for number in range(8):
        deal = Deal.from_number(number)
        result = solve(Game(deal, rules), budget=SMALL)
        game = replay(Game(deal, rules), result.moves)
        assert removed(game) == result.max_removed
        if result.winnable:
            assert game.status == "won"
        else:
            assert game.status != "won"
        if result.winnable is False:
            assert not result.moves or removed(game) > 0


def test_decide_agrees_with_solve() -> None:
    for letter in ("N", "C", "R"):
        for number in range(10):
            deal = Deal.from_number(number)
            full = solve(Game(deal, PRESETS[letter]), budget=SMALL)
            fast = decide(Position.initial(deal, PRESETS[letter]), PRESETS[letter], budget=SMALL)
            assert (full.winnable, full.max_removed) == (fast.winnable, fast.max_removed)


def test_a_queen_over_all_four_aces_cannot_be_won() -> None:
    """The apex queen goes last, when no ace is left; and the ace that only the apex
    queen could take stays too, so 26 is the most (the issue's '27' overcounts)."""
    deal = Deal.parse_layout(QUEEN_APEX)
    result = solve(Game(deal, PRESETS["N"]))
    assert (result.winnable, result.max_removed) == (False, 26)
    assert removed(replay(Game(deal, PRESETS["N"]), result.moves)) == 26
    assert is_lost(Game(deal, PRESETS["N"]))


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.lists(st.integers(1, 27), min_size=4, max_size=4,
                                                   unique=True))
def test_any_queen_over_four_aces_is_lost(rng: random.Random, slots: list[int]) -> None:
    cards = list(DECK)
    rng.shuffle(cards)

    def put(card: Card, slot: int) -> None:
        i = cards.index(card)
        cards[i], cards[slot] = cards[slot], cards[i]

    put(Card.parse("QS"), 0)
    for ace, slot in zip(("AS", "AH", "AD", "AC"), slots, strict=True):
        put(Card.parse(ace), slot)
    result = decide(Position.initial(Deal(tuple(cards))), PRESETS["N"])
    assert result.winnable is False and result.max_removed <= 26


# ------------------------------------------------------------- hints, loss


def test_following_hints_wins() -> None:
    for number in (1, 2, 5):
        game = Game(Deal.from_number(number), PRESETS["N"])
        assert solve(game).winnable
        for _ in range(300):
            if game.is_over:
                break
            move = hint(game)
            assert move is not None and move in game.legal_moves()
            game.play(move)
        assert game.status == "won"


def test_hint_is_none_when_nothing_more_can_go() -> None:
    game = Game(Deal.parse_layout(QUEEN_APEX), PRESETS["N"])
    result = solve(game)
    replay(game, result.moves)
    assert hint(game) is None
    assert is_lost(game)


def test_hint_under_a_limited_preset() -> None:
    game = Game(Deal.from_number(1), PRESETS["R"])
    move = hint(game, budget=SMALL)
    assert move is None or move in game.legal_moves()


def test_is_lost_matches_the_solver_during_play() -> None:
    rng = random.Random(7)
    for number in range(12):
        game = Game(Deal.from_number(number), PRESETS["N"])
        for _ in range(60):
            if game.is_over:
                break
            assert is_lost(game) == (solve(game).winnable is False)
            moves = game.legal_moves()
            removals = [m for m in moves if m.kind == "remove"]
            game.play(rng.choice(removals or moves))


def test_is_lost_under_other_presets_never_lies() -> None:
    for letter in ("P", "T", "O"):
        for number in range(6):
            game = Game(Deal.from_number(number), PRESETS[letter])
            if is_lost(game):
                assert solve(game, budget=SMALL).winnable is not True


def test_finished_games() -> None:
    game = Game(Deal.from_number(1), PRESETS["N"])
    replay(game, solve(game).moves)
    result = solve(game)
    assert (result.winnable, result.max_removed, result.moves) == (True, 28, [])
    assert not is_lost(game) and hint(game) is None


def test_a_pyramid_no_game_reaches_is_refused() -> None:
    deal = Deal.from_number(3)
    pyramid = list(deal.pyramid)
    pyramid[0] = None  # the apex gone while everything lies over it
    pos = Position(tuple(pyramid), deal.stock, (deal.waste,), (deal.pyramid[0],))
    with pytest.raises(SolverError, match="no game can reach"):
        solve_position(pos, PRESETS["N"])
    assert issubclass(SolverError, ValueError)


def test_budgets_are_checked() -> None:
    with pytest.raises(ValueError):
        Budget(nodes=0)
    with pytest.raises(ValueError):
        Budget(seconds=-1.0)


def test_an_exhausted_budget_says_unknown() -> None:
    deal = Deal.from_number(25)
    result = solve(Game(deal, PRESETS["O"]), budget=Budget(nodes=50, seconds=None))
    if result.winnable is None:
        assert not result.exact
    game = replay(Game(deal, PRESETS["O"]), result.moves)
    assert removed(game) == result.max_removed


def test_naive_bound_helper_agrees_with_the_engine_geometry() -> None:
    deal = Deal.from_number(0)
    bound = NaiveBound([c.value for c in deal.pyramid], covering=False)
    assert bound.best(0, 0) == 28
    assert all(len(COVERED_BY[s]) in (0, 2) for s in range(28))


def test_legal_moves_of_a_hand_made_position() -> None:
    deal = Deal.from_number(4)
    game = game_at(Position.initial(deal), PRESETS["N"])
    assert game.legal_moves() == legal_moves(PRESETS["N"], game.position)


@pytest.mark.parametrize("letter", ["P", "M", "T"])
def test_win_first_then_max_removed_matches_one_whole_search(letter: str) -> None:
    """decide_full (a win-only search, then max_removed) answers as one search that
    looks for both at once, on small positions searched to the end."""
    from pyramide.solver.api import _model
    from pyramide.solver.budget import UNLIMITED
    from pyramide.solver.fullsearch import decide_full, search_full
    from tests.test_solver_helpers import small_position

    rules = PRESETS[letter]
    for seed in range(20):
        pos = small_position(seed, rows=3, talon=8)
        model = _model(tuple(0 if c is None else c.value for c in pos.pyramid),
                       rules.covering_pairs)
        both = search_full(Table(pos, rules), UNLIMITED, model)
        split = decide_full(Table(pos, rules), UNLIMITED, model)
        assert (split.winnable, split.max_removed, split.exact) == (
            both.winnable, both.max_removed, True), seed
        game = replay(game_at(pos, rules), [Table(pos, rules).move(a) for a in split.line])
        assert removed(game) == split.max_removed


def test_budget_left_after_spending() -> None:
    assert Budget(nodes=10, seconds=None).left(10, 0.0) is None
    assert Budget(nodes=None, seconds=1.0).left(5, 0.25) == Budget(nodes=None, seconds=0.75)
    assert Budget(nodes=None, seconds=1.0).left(5, 1.5) is None
