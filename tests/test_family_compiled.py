"""The family's compiled decide search checked against the rules kernel: its
successors against :func:`kernel.legal_moves` and :func:`kernel.apply` in random
play, its verdicts against the kernel search's, its winning lines through the
game."""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest

from pyramide import PRESETS, DealCode, Game
from pyramide.deals import Deal
from pyramide.kernel import (
    Position,
    apply,
    initial,
    judge,
    legal_moves,
    values_pair,
    worth,
)
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import CLASSIC_TABLEAU, Rules
from pyramide.solver import DEFAULT_BUDGET, Budget, decide, family_search, is_lost, solve
from pyramide.solver.api import family_rules
from pyramide.solver.budget import UNLIMITED
from pyramide.solver.family_compiled import (
    CNT_ROWS,
    COMPLETE,
    CTL,
    CYCLE,
    DOMINATE,
    FEW_SIZE,
    GOAL_SIZE,
    GRID,
    PARTNER_AT,
    SCTL,
    SEARCHING,
    SHORT,
    STRING,
    TARGET,
    TC_SIZE,
    WIN_ONLY,
    WORTHS,
    Ints,
    _counts,
    _dig,
    _estimate,
    _few_serves,
    _fewest,
    _free,
    _goal_fewest,
    _gone,
    _levels,
    _matching,
    _on_grid,
    _partner,
    _reach,
    _relaxed_most,
    _tableau_pairs,
    _tc_clear,
    _toward,
    _unmatched,
    _won,
)
from pyramide.solver.family_search import Encoding, covers, decide_family, shortest_family
from pyramide.solver.fullsearch import decide_full
from pyramide.solver.kernel_search import decide_kernel, gone, key, shortest_kernel
from pyramide.solver.reduced import ReducedModel
from pyramide.solver.table import Table, serves
from tests.test_solver_helpers import both_builds

COVERED = [letter for letter, rules in PRESETS.items() if rules.family and covers(rules)]


def start(rules: Rules, number: int) -> Position:
    return initial(rules, Deal.from_number(number, rules.deck).cards)


def assert_wins(letter: str, number: int, line: list[Move]) -> None:
    """The line, played from deal ``number`` of game ``letter`` in the game, wins."""
    game = Game.from_code(DealCode(letter, number), clock=lambda: 0.0)
    for move in line:
        game.play(move)
    assert game.status == "won"


CLASSIC = [letter for letter, rules in PRESETS.items() if not rules.family]
"""The classic rule sets: all of them played by this search, all but N and C sent here."""


def test_every_game_is_covered_and_all_but_the_reduced_ones_are_sent_here() -> None:
    assert [letter for letter, rules in PRESETS.items() if rules.family] == COVERED
    assert all(covers(rules) for rules in PRESETS.values())
    assert [letter for letter, rules in PRESETS.items() if not family_rules(rules)] == ["N", "C"]


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_successors_are_the_kernels_in_random_play(letter: str) -> None:
    """Along random games (one encoding, the compiled states carried along, as the
    search carries them), each state's successors are exactly the positions the
    kernel's legal moves lead to."""
    rules = PRESETS[letter]
    rng = random.Random(letter)
    steps = 0
    for number in range(40):
        if steps >= 300:
            break
        pos = start(rules, number)
        enc = Encoding.of(rules, pos)
        st = enc.state.copy()
        while pos.status == "playing" and steps < 300:
            assert enc.key(st) == key(rules, pos)
            kids = enc.children(st)
            expected = {key(rules, apply(rules, pos, m)) for m in legal_moves(rules, pos)}
            assert {enc.key(child) for child, _ in kids} == expected
            assert {str(m) for _, m in kids} == {str(m) for m in legal_moves(rules, pos)}
            removals = [kid for kid in kids if kid[1].kind != "draw"]
            child, move = rng.choice(removals if removals and rng.random() < 0.6 else kids)
            pos, st = judge(rules, apply(rules, pos, move)), child
            steps += 1
    assert steps == 300


Key = tuple[object, ...]


def small_graphs(rules: Rules, seeds: int = 16) -> list[tuple[Encoding, dict[Key, Ints],
                                                              dict[Key, set[Key]], list[Key]]]:
    """The whole graph of states (every legal move, as the engine has them) of small
    late positions of ``rules``: the encoding, each state by its kernel key, each
    state's parents, and the winning states (not searched past).  Graphs of more
    than 20,000 states are left out."""
    from tests.test_family import small_position

    graphs = []
    for seed in range(seeds):
        size = 4 if rules.deck == 104 or seed % 2 else 6
        talon = size if rules.win == "all" else size + 1  # (an even deck to pair off)
        pos = judge(rules, small_position(rules, seed, keep=size, talon=talon))
        if pos.status != "playing":
            continue
        enc = Encoding.of(rules, pos)
        enc.lay[WIN_ONLY], enc.lay[CYCLE], enc.lay[SHORT] = 1, 0, 1
        states: dict[Key, Ints] = {}
        parents: dict[Key, set[Key]] = {}
        wins: list[Key] = []
        todo = [enc.state.copy()]
        states[enc.key(todo[0])] = todo[0]
        while todo and len(states) < 20_000:
            st = todo.pop()
            here = enc.key(st)
            if _won(enc.lay, enc.istab, st):
                wins.append(here)
                continue
            for child, _ in enc.children(st):
                there = enc.key(child)
                parents.setdefault(there, set()).add(here)
                if there not in states:
                    states[there] = child
                    todo.append(child)
        if not todo:
            graphs.append((enc, states, parents, wins))
    return graphs


def winning_states(wins: list[Key], parents: dict[Key, set[Key]]) -> set[Key]:
    """The states of a small graph from which a win can be reached."""
    can_win, frontier = set(wins), list(wins)
    while frontier:
        frontier = [here for there in frontier for here in parents.get(there, ())
                    if here not in can_win and not can_win.add(here)]
    return can_win


def fewest_moves(goals: list[Key], parents: dict[Key, set[Key]]) -> dict[Key, int]:
    """The fewest moves from each state of a small graph to one of ``goals``, found
    backwards from them (states that reach none are left out)."""
    fewest = dict.fromkeys(goals, 0)
    frontier = list(goals)
    while frontier:
        later = []
        for there in frontier:
            for here in parents.get(there, ()):
                if here not in fewest:
                    fewest[here] = fewest[there] + 1
                    later.append(here)
        frontier = later
    return fewest


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_the_shortest_line_estimate_never_counts_more_moves_than_a_win_needs(
        letter: str) -> None:
    """The best-first search's estimate (the removals of ``_toward``: ``_estimate``
    and the pyramid game's ``_fewest``; the digging of ``_dig``) is at most the
    fewest moves to a win, on every state of the whole graph of small late
    positions, the fewest moves found by a search backwards from the winning
    states."""
    rules = PRESETS[letter]
    checked = digging = 0
    ctl = np.zeros(SCTL, dtype=np.int64)
    few = np.zeros(FEW_SIZE, dtype=np.int64)
    for e, states, parents, wins in small_graphs(rules):
        fewest = fewest_moves(wins, parents)
        cnt = np.empty(CNT_ROWS * WORTHS, dtype=np.int64)
        cost = np.empty(max(1, int(e.lay[1])), dtype=np.int64)
        few[:] = 0  # (the pyramid game's answers are this deal's)
        tc = np.zeros(TC_SIZE, dtype=np.int64)
        _tc_clear(e.lay, e.worth, tc)  # (so is the tableau cache, met again state by state)
        for here, moves in fewest.items():
            st = states[here]
            if rules.waste_piles > 1:  # (this state's own sequences)
                _levels(e.lay, e.seqs, e.lens, st)
            removals = int(_toward(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, st,
                                   cnt, ctl, few, few))
            assert removals >= _estimate(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab,
                                         st, cnt)
            dig = int(_dig(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.seqs,
                           e.lens, st, cnt, cost, ctl, few, tc))
            assert removals + dig <= moves, (here, removals, dig, moves)
            checked += 1
            digging += dig > 0
    assert checked > 50
    if rules.waste_piles and not (rules.win == "all" and rules.open_stock):
        assert digging > 0, "the digging counts in some states"


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_the_estimate_toward_a_number_of_cards_gone_never_counts_too_many_moves(
        letter: str) -> None:
    """A lost position's shortest line goes to its most tableau cards gone: the
    estimate toward each number of cards gone (the removals of ``_toward`` and
    the digging of ``_dig`` toward it) is at most the fewest moves to it, found
    backwards over the whole graph of small late positions; and it says more
    than "two cards a move" somewhere (the pairs of tableau cards bound), and
    digs somewhere where a talon is left to dig."""
    rules = PRESETS[letter]
    checked = sharper = digging = 0
    cnt = np.empty(CNT_ROWS * WORTHS, dtype=np.int64)
    ctl = np.zeros(SCTL, dtype=np.int64)
    few = np.zeros(FEW_SIZE, dtype=np.int64)
    gt = np.zeros(GOAL_SIZE, dtype=np.int64)
    for e, states, parents, _ in small_graphs(rules, seeds=8):
        gone_of = {k: int(_gone(e.lay, e.istab, st)) for k, st in states.items()}
        cost = np.empty(max(1, int(e.lay[1])), dtype=np.int64)
        e.lay[SHORT] = 2  # (a search toward a number of cards: the pyramid game's room)
        gt[:] = 0
        for target in range(1, max(gone_of.values()) + 1):
            fewest = fewest_moves([k for k, g in gone_of.items() if g >= target], parents)
            ctl[TARGET] = target
            tc = np.zeros(TC_SIZE, dtype=np.int64)
            _tc_clear(e.lay, e.worth, tc)  # (its answers are toward this target)
            for here, moves in fewest.items():
                st = states[here]
                if rules.waste_piles > 1:  # (this state's own sequences)
                    _levels(e.lay, e.seqs, e.lens, st)
                h = int(_toward(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab,
                                st, cnt, ctl, few, gt))
                dig = int(_dig(e.lay, e.cover, e.worth, e.pairs, e.single, e.istab, e.seqs,
                               e.lens, st, cnt, cost, ctl, gt, tc))
                assert h + dig <= moves, (here, target, h, dig, moves)
                checked += 1
                sharper += h > (max(0, target - gone_of[here]) + 1) // 2
                digging += dig > 0
    assert checked > 50
    if rules.pairing == "sum" and not rules.extra_pairs and not rules.cells:
        assert sharper > 0
    if (rules.stock_size and not rules.open_stock and not rules.cells
            and rules.tableau == CLASSIC_TABLEAU):
        assert digging > 0, "the digging counts in some states"


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_a_talon_card_called_buried_for_good_never_shows(letter: str) -> None:
    """``_reach`` leaves out the waste cards that can never come to the top of the
    waste again: on every state of the whole graph of small late positions, each
    card on top of a waste pile in the state or in any state after it is one it
    keeps; under a whole-deck win, no state it calls lost (a card left out) can be
    won."""
    rules = PRESETS[letter]
    buried = 0
    work = np.zeros(3 * WORTHS, dtype=np.int64)
    for e, states, parents, wins in small_graphs(rules):
        n = int(e.lay[0])
        can_win = winning_states(wins, parents)
        tops = {here: {pile[-1] for pile in here[2] if pile} for here in states}
        changed = True
        while changed:  # what shows in a state or after it (the graph may cycle)
            changed = False
            for there, before in parents.items():
                for here in before:
                    if not tops[there] <= tops[here]:
                        tops[here] |= tops[there]
                        changed = True
        for here, st in states.items():
            reach = int(_reach(e.lay, e.worth, e.pairs, e.single, st, work))
            kept = {e.cards[n + t] for t in range(int(e.lay[1])) if reach >> t & 1}
            assert tops[here] <= kept, (here, tops[here] - kept)
            if rules.win == "all" and reach != int(st[1]):  # (a card can never go)
                assert here not in can_win, here
            buried += reach != int(st[1])
    if letter in ("N1", "C1", "O", "N1W"):
        assert buried > 0, "some cards are buried for good"


def relaxed_most_check(letters: list[str]) -> dict[str, list[object]]:
    """For each game, on every state of the whole graph of its small late positions:
    the states where ``_relaxed_most`` (over the talon cards ``_reach`` keeps) plus
    the cards gone is below the most a search over the graph finds after the state
    (at most three), and how many states its bound is below the cards present in."""
    found: dict[str, list[object]] = {}
    for letter in letters:
        bad: list[object] = []
        below = 0
        for e, states, parents, _ in small_graphs(PRESETS[letter]):
            children: dict[Key, set[Key]] = {}
            for there, before in parents.items():
                for here in before:
                    children.setdefault(here, set()).add(there)
            most = {here: int(_gone(e.lay, e.istab, st)) for here, st in states.items()}
            changed = True
            while changed:  # the most gone in a state or after it (the graph may cycle)
                changed = False
                for here, after in children.items():
                    best = max(most[there] for there in after)
                    if best > most[here]:
                        most[here] = best
                        changed = True
            memo = np.zeros((1 << 14, 5), dtype=np.int64)
            stack = np.zeros((len(e.cards) + 2, 4), dtype=np.int64)
            ctl = np.zeros(CTL, dtype=np.int64)
            work = np.zeros(3 * WORTHS, dtype=np.int64)
            for here, st in states.items():
                reach = _reach(e.lay, e.worth, e.pairs, e.single, st, work)
                bound = int(_relaxed_most(e.lay, e.cover, e.worth, e.pairs, e.single, st[0],
                                          _counts(e.lay, e.worth, reach), memo, stack, ctl))
                now = int(_gone(e.lay, e.istab, st))
                if most[here] > now + bound and len(bad) < 3:
                    bad.append([str(here), most[here], now, bound])
                below += bound < bin(int(st[0])).count("1")
        found[letter] = [bad, below]
    return found


RELAXED_MOST_SCRIPT = """
import json, sys
from tests.test_family_compiled import relaxed_most_check
print(json.dumps(relaxed_most_check(json.loads(sys.argv[1]))))
"""


def test_the_relaxed_games_most_is_never_below_what_the_game_removes() -> None:
    """``_relaxed_most`` bounds the most tableau cards the game itself removes from a
    state (the cut-off of a lost position's search for its most cards): checked on
    every state of the whole graph of small late positions of every game without a
    cell (the relaxed game leaves those out), where it cuts somewhere.  Run with
    numba's build (its hashing wraps at 64 bits as the built search's does)."""
    letters = [c for c in COVERED + CLASSIC if not PRESETS[c].cells]
    done = subprocess.run([sys.executable, "-c", RELAXED_MOST_SCRIPT, json.dumps(letters)],
                          env={**os.environ, "PYRAMIDE_JIT": "1"}, capture_output=True,
                          text=True, check=True)
    found = json.loads(done.stdout)
    assert sorted(found) == sorted(letters)
    assert {letter: bad for letter, (bad, _) in found.items() if bad} == {}
    cutting = [letter for letter, (_, below) in found.items() if below > 0]
    assert len(cutting) == len(letters), set(letters) - set(cutting)


def late_positions(rules: Rules, count: int, left: int) -> list[Position]:
    """Positions of random games with at most ``left`` cards in play."""
    rng = random.Random(f"late {rules.letter}")
    found: list[Position] = []
    number = 0
    while len(found) < count and number < 40 * count:
        pos = start(rules, number)
        number += 1
        for _ in range(400):  # (with unlimited redeals a game may draw for ever)
            if pos.status != "playing":
                break
            cards = sum(c is not None for c in pos.tableau) + len(pos.stock) + sum(
                map(len, pos.wastes)) + sum(c is not None for c in pos.cells)
            if cards <= left:
                found.append(pos)
                break
            moves = legal_moves(rules, pos)
            removals = [m for m in moves if m.kind == "remove"]
            pos = judge(rules, apply(rules, pos, rng.choice(removals or moves)))
    return found


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_verdicts_equal_the_unlimited_kernel_search_late_in_the_game(letter: str) -> None:
    rules = PRESETS[letter]
    positions = late_positions(rules, 5, 14 if rules.win == "all" else 18)
    assert positions
    for pos in positions:
        theirs = decide_kernel(rules, pos, UNLIMITED)
        ours = decide_family(rules, pos, UNLIMITED)
        assert ours.winnable == theirs.winnable is not None
        assert ours.max_removed == theirs.max_removed or ours.winnable
        assert ours.exact
        if ours.winnable:
            replay = pos
            for move in ours.line:
                assert move in legal_moves(rules, replay)
                replay = judge(rules, apply(rules, replay, move))
            assert replay.status == "won"


@pytest.mark.parametrize("letter", COVERED + CLASSIC)
def test_verdicts_equal_the_kernel_search_on_real_deals_and_lines_win(letter: str) -> None:
    """Wherever the kernel search decides a deal (within a small budget), the
    compiled search says the same; its winning lines play to a win in the game."""
    rules = PRESETS[letter]
    budget = Budget(nodes=1_000, seconds=None)
    compared = 0
    for number in range(5):
        pos = start(rules, number)
        theirs = decide_kernel(rules, pos, budget)
        ours = decide_family(rules, pos, Budget(nodes=100_000, seconds=None))
        if theirs.winnable is not None:
            compared += 1
            assert ours.winnable == theirs.winnable
            if ours.winnable is False:
                assert ours.max_removed == theirs.max_removed
        if ours.winnable:
            assert_wins(letter, number, ours.line)
    # the kernel search settles few deals of these games (the classic sets are
    # compared with their own full search below)
    if rules.family and letter not in ("W", "X", "U", "H", "K", "A", "Z"):
        assert compared


@pytest.mark.parametrize("letter", [c for c in CLASSIC
                                    if c not in ("N", "C") and serves(PRESETS[c])])
def test_classic_verdicts_equal_the_classic_full_search(letter: str) -> None:
    """The classic rule sets without waste pairs have a search of their own over
    integer tables (:mod:`pyramide.solver.fullsearch`), written apart from the
    kernel: wherever it decides a deal, the compiled search says the same, with the
    same most pyramid cards removed."""
    rules = PRESETS[letter]
    compared = 0
    for number in range(16):
        game = Game(Deal.from_number(number), rules)
        model = ReducedModel(tuple(c.value for c in game.deal.pyramid),
                             covering=rules.covering_pairs)
        theirs = decide_full(Table(game.position, rules), Budget(nodes=20_000, seconds=None),
                             model)
        ours = decide_family(rules, game.position, Budget(nodes=600_000, seconds=None))
        if theirs.winnable is not None and theirs.exact:
            compared += 1
            assert ours.winnable == theirs.winnable, number
            assert ours.max_removed == theirs.max_removed, number
    assert compared >= 2


@pytest.mark.parametrize("letter", ["N1", "N1W", "C1", "D"])
def test_a_drawn_card_in_hand_plays_as_an_open_stock_top(letter: str) -> None:
    """With the drawn card in hand (``waste_pairs="hand"``) a game is won, and as many
    pyramid cards go, as in the same game with an open stock: the card in hand is
    the open stock's top card, and drawing one when none is in hand buries nothing.
    The compiled search plays the two games by different moves."""
    rules = PRESETS[letter]
    opened = replace(rules, letter="Q", waste_pairs="none", open_stock=True)
    decided = 0
    for number in range(24):
        pos = Game(Deal.from_number(number), rules).position
        ours = decide_family(rules, pos, Budget(nodes=400_000, seconds=None))
        theirs = decide_family(opened, pos, Budget(nodes=400_000, seconds=None))
        if ours.exact and theirs.exact:
            decided += 1
            assert (ours.winnable, ours.max_removed) == (theirs.winnable, theirs.max_removed)
        if ours.winnable:
            assert_wins(letter, number, ours.line)
    assert decided >= 16


def test_the_same_budget_gives_the_same_answer_and_the_budget_counts_states() -> None:
    rules = PRESETS["W"]
    pos = start(rules, 0)
    first = decide_family(rules, pos, Budget(nodes=5_000, seconds=None))
    again = decide_family(rules, pos, Budget(nodes=5_000, seconds=None))
    assert (first.winnable, first.max_removed, first.nodes) == (None, again.max_removed, 5_000)
    assert [str(m) for m in first.line] == [str(m) for m in again.line]


@pytest.mark.parametrize("rows", [family_search.MEMO_ROWS, 1 << 9])
def test_a_reused_memo_answers_as_a_fresh_one(rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # the relaxed game's memo is handed from deal to deal under a new generation,
    # not cleared: the rows an earlier deal left must count as empty.  The small
    # memo fills up, and starts afresh (a new generation) within a deal too.
    monkeypatch.setattr(family_search, "MEMO_ROWS", rows)
    monkeypatch.setattr(family_search.Memo, "_pool", [])

    def answers(letter: str, number: int) -> tuple[object, ...]:
        rules = PRESETS[letter]
        found = decide_family(rules, start(rules, number), Budget(nodes=20_000, seconds=None))
        return found.winnable, found.max_removed, found.nodes, [str(m) for m in found.line]

    deals = [("O", 3), ("D", 1), ("O", 3), ("A", 2), ("D", 1), ("C1", 5)]
    fresh = {}
    for letter, number in deals:
        family_search.Memo._pool.clear()  # (a memo never used)
        fresh[letter, number] = answers(letter, number)
    for letter, number in deals:  # (each reusing the rows of the one before)
        assert answers(letter, number) == fresh[letter, number]
    assert family_search.Memo._pool and family_search.Memo._pool[0][0].shape == (rows, 5)
    assert family_search.Memo._pool[0][1] > len(deals)  # (a generation a search at least)

@pytest.mark.parametrize("letter", ["G", "Y", "L"])
def test_the_solver_api_uses_the_compiled_search(letter: str) -> None:
    game = Game.from_code(DealCode(letter, 1), clock=lambda: 0.0)
    found = decide(game.position, game.rules)
    assert found.method == "familyc" and found.winnable is not None
    solution = solve(game)
    assert solution.method == "familyc" and solution.winnable == found.winnable
    if solution.winnable:
        for move in solution.moves:
            game.play(move)
        assert game.status == "won"
    else:
        assert is_lost(game, budget=DEFAULT_BUDGET)


def test_the_shortest_line_of_three_waste_piles_plays_in_the_game() -> None:
    """Apophis deals onto three waste piles, so the talon's order after a recycle
    depends on the cards left then: the best-first search, which takes states of
    many lines in turn, must build each state's own order again.  It once took
    another line's, and its "proven" line of deal 14 held a pair the game refuses
    (10♦ + 3♥)."""
    game = Game.from_code(DealCode("A", 14), clock=lambda: 0.0)
    solution = solve(game, shortest=True, budget=Budget(nodes=600_000, seconds=None))
    assert solution.shortest and len(solution.moves) == 40
    for move in solution.moves:
        game.play(move)
    assert game.status == "won"


@pytest.mark.parametrize("letter", ["G", "Y", "E", "V", "M", "P"])
def test_shortest_lines_on_real_deals_win_and_beat_the_decide_line(letter: str) -> None:
    """On the first winnable deals the compiled shortest-line search proves its
    line within the game's budget; the line plays to a win in the game and is no
    longer than the decide search's (the bound it starts from)."""
    rules = PRESETS[letter]
    budget = Budget(nodes=600_000, seconds=None)
    proven = 0
    for number in range(8):
        pos = start(rules, number)
        found = shortest_family(rules, pos, budget)
        if not found.winnable:
            continue
        assert len(found.line) <= len(decide_family(rules, pos, budget).line)
        assert_wins(letter, number, found.line)
        proven += found.shortest
    assert proven >= 2


def test_the_issue_deal_under_microsofts_start() -> None:
    """``PY1-M-AAAAAAV``, the issue's example: with M's start (an empty waste) the
    compiled search proves the line the interpreted classic search proves."""
    game = Game.from_code("PY1-M-AAAAAAV", clock=lambda: 0.0)
    found = shortest_family(game.rules, game.position, Budget(nodes=600_000, seconds=None))
    assert found.shortest and len(found.line) == 31
    solution = solve(game, shortest=True)
    assert solution.method == "familyc" and len(solution.moves) == 31 and solution.shortest


MATCHED = [letter for letter, rules in PRESETS.items()
           if covers(rules) and _matching(Encoding.of(rules, start(rules, 0)).lay)]


def test_the_games_whose_classes_must_be_matched() -> None:
    assert MATCHED == ["G", "F", "Z"]


@pytest.mark.parametrize("letter", MATCHED)
def test_a_tableau_called_unmatched_is_never_won(letter: str) -> None:
    """``_unmatched``: on every state of the whole graph of small late positions, a
    tableau whose classes cannot be matched two by two apart is one from which no
    win can be reached; on real deals of Giza the cut is met at the start, by lost
    deals (the first one's verdict is the kernel search's, which does not know the cut)."""
    rules = PRESETS[letter]
    cut = 0
    for e, states, parents, wins in small_graphs(rules, seeds=32):
        can_win = winning_states(wins, parents)
        for here, st in states.items():
            if _unmatched(e.lay, e.cover, e.worth, e.pairs, e.single, int(st[0])):
                assert here not in can_win, here
                cut += 1
    assert cut > 0, "the cut is met in the small graphs"
    starts = [number for number in range(40) if _unmatched(
        *(lambda e: (e.lay, e.cover, e.worth, e.pairs, e.single, int(e.state[0])))(
            Encoding.of(rules, start(rules, number))))]
    if letter == "G":  # (the kernel search takes seconds for one such deal)
        assert len(starts) >= 4
        found = decide_kernel(rules, start(rules, starts[0]), UNLIMITED, win_only=True)
        assert found.winnable is False


STRING_GAMES = [letter for letter, rules in PRESETS.items()
                if covers(rules) and Encoding.of(rules, start(rules, 0)).lay[STRING]]


@pytest.mark.parametrize("letter", STRING_GAMES)
def test_the_talon_string_cut_keeps_every_win(letter: str) -> None:
    """Late positions with a long talon, most of them in the last pass, where the
    string's cut (docs/solver.md) bites hardest: verdicts and the most removed
    equal breadth-first search over the kernel's positions."""
    from tests.test_family import exhaustive, small_position

    rules = PRESETS[letter]
    outcomes = set()
    for seed in range(40):
        rng = random.Random(seed)
        pos = small_position(rules, seed, keep=rng.randint(1, 4), talon=rng.randint(6, 10))
        if rules.redeals and rng.random() < 0.7:
            pos = replace(pos, redeals_used=rules.redeals)
        pos = judge(rules, pos)
        if pos.status != "playing":
            continue
        winnable, best, _ = exhaustive(rules, pos)
        ours = decide_family(rules, pos, UNLIMITED)
        assert (ours.winnable, ours.max_removed if not winnable else best) == (winnable, best)
        outcomes.add(winnable)
    assert outcomes == {True, False}


def assert_won_only_with(monkeypatch: pytest.MonkeyPatch, letter: str, number: int,
                         states: int, share: str) -> None:
    """Deal ``number`` of game ``letter`` is won within ``states`` (win only): the same
    line again with the same budget, every state counted, and the line wins in the
    game; with no room for the search whose share of the first phase is ``share``
    (a constant of :mod:`~pyramide.solver.family_search`), the whole budget leaves
    it undecided."""
    rules = PRESETS[letter]
    pos = start(rules, number)
    budget = Budget(nodes=states, seconds=None)
    found = decide_family(rules, pos, budget, win_only=True)
    again = decide_family(rules, pos, budget, win_only=True)
    assert found.winnable and found.max_removed == len(rules.tableau)
    assert found.nodes <= states
    assert (found.nodes, [str(m) for m in found.line]) == (again.nodes,
                                                          [str(m) for m in again.line])
    assert_wins(letter, number, found.line)
    monkeypatch.setattr(family_search, share, 10**9)  # no room for it
    alone = decide_family(rules, pos, budget, win_only=True)
    assert alone.winnable is None and alone.nodes == states


def test_probes_in_a_random_order_settle_a_deal_the_games_order_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Up and Down, deal 3: the depth-first search in the game's order is still
    below its first choices after 200,000 states; a probe (docs/solver.md) wins
    soon after its first 50,000.  (The best-first search is left out: this is the
    probes' test.)"""
    monkeypatch.setattr(family_search, "BEST_FIRST_SHARE", 10**9)
    assert_won_only_with(monkeypatch, "U", 3, 200_000, "PROBE_SHARE")


def test_the_best_first_search_finds_a_deep_win_the_depth_first_searches_miss(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Double Pyramid, deal 8: within 100,000 states neither the depth-first search
    in the game's order nor its probes find a win (a three-pass game of 104 cards);
    the best-first search beside them (docs/solver.md, "The best-first search")
    does, in its share of the budget."""
    assert_won_only_with(monkeypatch, "W", 8, 100_000, "BEST_FIRST_SHARE")


AHEAD_GAMES = [letter for letter, rules in PRESETS.items()
               if covers(rules) and rules.redeals is not None and rules.redeals > 0]
"""The games where the first phase's best-first search takes turns."""


@pytest.mark.parametrize("letter", AHEAD_GAMES)
def test_the_best_first_search_wins_where_a_win_is_and_searches_out_only_losses(
        letter: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small late positions: the best-first search with no bound wins exactly where
    breadth-first search over the kernel's positions finds a win (its line wins in
    the kernel), and where it searches everything out without one the position is
    lost.  And the first phase, with the best-first search's turn at once and the
    whole budget its own, gives the same verdicts."""
    from tests.test_family import exhaustive, small_position

    rules = PRESETS[letter]
    monkeypatch.setattr(family_search, "FIRST_LOOK", 1)
    monkeypatch.setattr(family_search, "STUCK_DEPTH", 0)
    monkeypatch.setattr(family_search, "PROBE_SHARE", 10**9)
    monkeypatch.setattr(family_search, "BEST_FIRST_SHARE", 1)
    outcomes = set()
    for seed in range(25):
        rng = random.Random(seed)
        pos = judge(rules, small_position(rules, seed, keep=rng.randint(2, 5),
                                          talon=rng.randint(6, 10)))
        if pos.status != "playing":
            continue
        winnable, _, _ = exhaustive(rules, pos)
        ahead = family_search.ShortestSearch(Encoding.of(rules, pos), None,
                                             family_search.UNBOUNDED)
        while ahead.run(4096) != COMPLETE and not ahead.won:
            pass
        assert ahead.won == winnable
        if winnable:
            end = pos
            for move in ahead.line():
                end = judge(rules, apply(rules, end, move))
            assert end.status == "won"
        found = decide_family(rules, pos, Budget(nodes=10**6, seconds=None), win_only=True)
        assert found.winnable == winnable
        outcomes.add(winnable)
    assert outcomes == {True, False}


def test_a_win_of_the_best_first_search_counts_the_cards_its_line_leaves_gone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A reserve row with two redeals (B's pyramid-only win, where the best-first
    search takes turns): with its turn at once, the first phase's win is the
    best-first search's, and the cards gone it reports are those its line leaves
    gone — some reserve cards stay, so not the whole tableau — as where the
    depth-first search wins."""
    rules = replace(PRESETS["B"], redeals=2)
    monkeypatch.setattr(family_search, "FIRST_LOOK", 1)
    monkeypatch.setattr(family_search, "STUCK_DEPTH", 0)
    monkeypatch.setattr(family_search, "PROBE_SHARE", 10**9)
    monkeypatch.setattr(family_search, "BEST_FIRST_SHARE", 1)
    short = 0
    for number in range(6):
        pos = start(rules, number)
        found = decide_family(rules, pos, Budget(nodes=100_000, seconds=None), win_only=True)
        if not found.winnable:
            continue
        end = pos
        for move in found.line:
            end = judge(rules, apply(rules, end, move))
        assert end.status == "won"
        assert found.max_removed == gone(end)
        short += gone(end) < len(rules.tableau)
    assert short > 0


def test_a_search_that_tries_other_first_moves_keeps_the_budget_for_its_proof(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One pass, strict (O), deal 47: the depth-first search soon tries other moves
    near the start of its path, as a search does that searches everything out to
    prove a loss; the probes then take no turn (docs/solver.md, "Whose turn"), and
    the loss is proven within 600,000 states.  With their turns it is not."""
    rules = PRESETS["O"]
    pos = start(rules, 47)
    budget = Budget(nodes=600_000, seconds=None)
    assert decide_family(rules, pos, budget, win_only=True).winnable is False
    monkeypatch.setattr(family_search, "STUCK_DEPTH", 0)  # the probes' turns, always
    assert decide_family(rules, pos, budget, win_only=True).winnable is None


FAMILY_AGREE_SCRIPT = """
import json, sys
from pyramide import PRESETS
from pyramide.deals import Deal
from pyramide.kernel import initial
from pyramide.solver import family_compiled
from pyramide.solver.budget import Budget
from pyramide.solver.family_search import decide_family, shortest_family
out = [family_compiled.AOT is not None]
for letter, number in json.loads(sys.argv[1]):
    rules = PRESETS[letter]
    pos = initial(rules, Deal.from_number(number, rules.deck).cards)
    found = decide_family(rules, pos, Budget(nodes=200_000, seconds=None))
    short = shortest_family(rules, pos, Budget(nodes=100_000, seconds=None))
    out.append([found.winnable, found.max_removed, found.nodes, [str(m) for m in found.line],
                short.winnable, len(short.line), short.exact])
out.append("numba" in sys.modules)
print(json.dumps(out))
"""


def test_the_family_search_built_ahead_of_time_is_numbas_search() -> None:
    """``scripts/setup.sh`` builds the family's searches ahead of time: a process
    that plays them never imports numba, and numba's compiled search, the
    fallback, visits the same states and finds the same lines."""
    deals = json.dumps([["M", 1], ["U", 3], ["G", 2], ["T", 5], ["L", 4]])
    ahead, jitted = both_builds(FAMILY_AGREE_SCRIPT, deals)
    assert (ahead[0], ahead[-1]) == (True, False)  # built, and numba never loaded
    assert (jitted[0], jitted[-1]) == (False, True)
    assert ahead[1:-1] == jitted[1:-1]


@pytest.mark.parametrize(("letter", "search"), [
    *((c, "compiled") for c in COVERED + CLASSIC),
    *((c, "kernel") for c in ("O", "D", "G", "A", "L", "K"))])
def test_a_lost_positions_shortest_line_to_its_most_cards_is_the_fewest_moves(
        letter: str, search: str) -> None:
    """A position that cannot be won gets the fewest moves to its most tableau cards
    removable, proven, from the compiled search and from the kernel search (which
    serves without numba): on small late positions of every game, the line's
    length is the one a breadth-first search over the kernel's positions finds,
    and the line plays there."""
    from tests.test_family import small_position

    rules = PRESETS[letter]
    checked = 0
    for seed in range(24):
        size = 4 if rules.deck == 104 or seed % 2 else 6
        talon = size if rules.win == "all" else size + 1
        pos = judge(rules, small_position(rules, seed, keep=size, talon=talon))
        if pos.status != "playing":
            continue
        found = (shortest_family if search == "compiled" else shortest_kernel)(
            rules, pos, UNLIMITED)
        if found.winnable is not False:
            continue
        assert found.shortest, seed
        seen, layer, depth = {key(rules, pos)}, [pos], 0
        while not any(gone(p) >= found.max_removed for p in layer):
            assert layer, seed  # (the most cards removable is reached)
            layer = [child for here in layer if here.status == "playing"
                     for move in legal_moves(rules, here)
                     for child in [judge(rules, apply(rules, here, move))]
                     if key(rules, child) not in seen and not seen.add(key(rules, child))]
            depth += 1
        assert len(found.line) == depth, seed
        for move in found.line:
            assert move in legal_moves(rules, pos), seed
            pos = judge(rules, apply(rules, pos, move))
        assert gone(pos) == found.max_removed
        checked += 1
    assert checked >= 1


GRID_GAMES = [letter for letter in COVERED + CLASSIC
              if Encoding.of(PRESETS[letter], start(PRESETS[letter], 0)).lay[GRID]]


def test_the_grid_is_tuts_tombs() -> None:
    """Several cards a draw, unlimited redeals and nothing else from the talon."""
    assert GRID_GAMES == ["T"]


def pass_tops(rules: Rules, pos: Position) -> set[str] | None:
    """The waste tops a whole pass shows from ``pos``, played by the kernel (draws,
    and a recycle when the stock is empty) until the position comes back; ``None``
    when it never does."""
    seen, tops = key(rules, pos), {str(pos.waste[-1])} if pos.waste else set()
    for _ in range(2 * (len(pos.stock) + len(pos.waste)) + 2):
        pos = apply(rules, pos, DRAW if pos.stock else RECYCLE)
        if pos.waste:
            tops.add(str(pos.waste[-1]))
        if key(rules, pos) == seen:
            return tops
    return None


@pytest.mark.parametrize("letter", GRID_GAMES)
def test_a_grid_states_free_talon_cards_are_the_waste_tops_of_a_whole_pass(
        letter: str) -> None:
    """A state is on the grid exactly when draws and recycles bring it back; the
    one state the search keeps for the cuts of such a pass (glossary: grid) frees
    exactly the talon cards the kernel shows on the waste top in a whole pass."""
    rules = PRESETS[letter]
    rng = random.Random(letter)
    on = off = 0
    for number in range(30):
        pos = start(rules, number)
        for _ in range(rng.randint(0, 40)):
            moves = legal_moves(rules, pos)
            if pos.status != "playing" or not moves:
                break
            removals = [m for m in moves if m.kind == "remove"]
            pos = judge(rules, apply(rules, pos, rng.choice(
                removals if removals and rng.random() < 0.5 else moves)))
        if pos.status != "playing":
            continue
        enc = Encoding.of(rules, pos)
        st = enc.state.copy()
        tops = pass_tops(rules, pos)
        assert _on_grid(enc.lay, st) == (tops is not None)
        if tops is None:
            off += 1
            continue
        on += 1
        enc.lay[SEARCHING] = 1
        st[2] = 0
        out = np.zeros(len(enc.cards) + 2, dtype=np.int64)
        k, _ = _free(enc.lay, enc.cover, enc.worth, enc.seqs, enc.lens, st, out)
        assert {str(enc.cards[int(i)]) for i in out[:k] if i >= enc.lay[0]} == tops
    assert on >= 10 and off >= 3


@pytest.mark.parametrize(("letter", "flag"), [("T", GRID), ("P", DOMINATE), ("D", DOMINATE)])
def test_the_grid_and_dominance_keep_every_verdict_and_search_fewer_states(
        letter: str, flag: int) -> None:
    """Decided with the grid (or the redeals' dominance) and without it, deals
    give the same verdicts wherever both settle them, with fewer states in all."""
    rules = PRESETS[letter]
    states = {0: 0, 1: 0}
    for number in range(40):
        found = {}
        for on in (0, 1):
            enc = Encoding.of(rules, start(rules, number))
            assert enc.lay[flag]
            enc.lay[flag] = on
            search = family_search.FamilySearch(enc, 50_000, win_only=True)
            status = search.run(10**6)
            found[on] = {family_search.WON: True, COMPLETE: False}.get(status)
            states[on] += search.nodes
        if found[0] is not None and found[1] is not None:
            assert found[0] == found[1], number
    assert states[1] < states[0]


def test_each_worths_one_partner_is_the_one_the_kernel_pairs_it_with() -> None:
    """The partner kept past the pairs' table (``PARTNER_AT``) is, for every worth
    of every game, the one worth the kernel pairs it with; -1 where none, -2
    where several (Cheops: a worth pairs with itself and the worths next to it)."""
    several: set[str] = set()
    for letter, rules in PRESETS.items():
        pairs = Encoding.of(rules, start(rules, 0)).pairs
        for v in range(1, WORTHS):
            partners = [w for w in range(1, WORTHS) if values_pair(rules, v, w)]
            expected = partners[0] if len(partners) == 1 else -1 if not partners else -2
            assert pairs[PARTNER_AT + v] == expected, (letter, v)
            assert _partner(pairs, v) == expected
            if expected == -2:
                several.add(letter)
    assert several == {"K"}


def test_dominance_is_for_one_waste_pile_and_redeals_left() -> None:
    """A state met before with fewer redeals used stands for this one only where
    the talon keeps its order (one waste pile) and redeals are counted."""
    for letter, rules in PRESETS.items():
        enc = Encoding.of(rules, start(rules, 0))
        expected = rules.waste_piles == 1 and rules.redeals is not None and rules.redeals > 0
        assert bool(enc.lay[DOMINATE]) == expected, letter
    assert {k for k, rules in PRESETS.items()
            if Encoding.of(rules, start(rules, 0)).lay[DOMINATE]} == set("PRMVDWXU")



def pyramid_game(rules: Rules, pos: Position) -> Callable[[int, bool], int]:
    """The pyramid game of ``pos`` (a free card may go with a card from outside the
    pyramid at any time, a king alone, two free partners together), by plain
    recursion over the kernel's covering graph and pairs: toward ``need`` more
    pyramid cards gone, the fewest removals, or with ``alone`` the fewest cards
    that go with an outside card."""
    slots = rules.tableau.slots
    value = {s: worth(rules, card) for s, card in enumerate(pos.tableau) if card is not None}
    over = [set(slot.covered_by) for slot in slots]
    partnered = {v for v in range(1, 15) if any(values_pair(rules, v, w) for w in range(1, 15))}

    @functools.cache
    def fewest(left: frozenset[int], need: int, alone: bool) -> int:
        if need <= 0:
            return 0
        free = sorted(s for s in left if not over[s] & left)
        steps: list[tuple[frozenset[int], int]] = []  # (what is left, the step's cost)
        for i, s in enumerate(free):
            if value[s] in rules.single_values:
                steps.append((left - {s}, 0 if alone else 1))
                continue
            steps += [(left - {s, u}, 0 if alone else 1) for u in free[i + 1:]
                      if values_pair(rules, value[s], value[u])]
            if value[s] in partnered:
                steps.append((left - {s}, 1))
        if rules.covering_pairs:
            for s in left - set(free):
                on = over[s] & left
                (c,) = on if len(on) == 1 else (None,)
                if c is not None and c in free and values_pair(rules, value[s], value[c]):
                    steps.append((left - {s, c}, 0 if alone else 1))
        return min((cost + fewest(rest, need - len(left) + len(rest), alone)
                    for rest, cost in steps), default=64)

    return lambda need, alone: fewest(frozenset(value), need, alone)


@pytest.mark.parametrize("letter", ["R", "C1", "O"])
def test_the_pyramid_game_is_a_plain_recursions(letter: str) -> None:
    """``_fewest`` (the fewest removals that clear the pyramid, where it serves)
    and ``_goal_fewest`` (the fewest removals, and the fewest cards with a talon
    partner, toward a number of cards gone) equal a plain recursion over the
    kernel's rules, on whole pyramids and on pyramids part cleared in random
    play; and each says more than the class counts somewhere."""
    rules = PRESETS[letter]
    rng = random.Random(7)
    few = np.zeros(FEW_SIZE, dtype=np.int64)
    gt = np.zeros(GOAL_SIZE, dtype=np.int64)
    cnt = np.empty(CNT_ROWS * WORTHS, dtype=np.int64)
    sharper = sharper_toward = 0
    for number in range(3):
        pos = start(rules, number)
        few[:] = 0
        gt[:] = 0
        for _ in range(4):
            if pos.status != "playing":
                break
            e = Encoding.of(rules, pos)
            e.lay[SHORT] = 2
            game = pyramid_game(rules, pos)
            present = bin(int(e.state[0])).count("1")
            if _few_serves(e.lay):
                fewest = _fewest(e.lay, e.cover, e.worth, e.pairs, e.single, e.state[0], few)
                assert fewest == game(present, False)
                sharper += fewest > _estimate(e.lay, e.cover, e.worth, e.pairs, e.single,
                                              e.istab, e.state, cnt)
            pairs_bound = int(_tableau_pairs(e.lay, e.cover, e.worth, e.pairs, e.single,
                                             e.istab, e.state, cnt))
            for need in range(1, present + 1, 4):
                moves = _goal_fewest(e.lay, e.cover, e.worth, e.pairs, e.single, e.state[0],
                                     need, False, gt)
                alone = _goal_fewest(e.lay, e.cover, e.worth, e.pairs, e.single, e.state[0],
                                     need, True, gt)
                assert (moves, alone) == (game(need, False), game(need, True)), need
                sharper_toward += moves > max((need + 1) // 2, need - pairs_bound)
            for _ in range(6):
                pos = judge(rules, apply(rules, pos, rng.choice(legal_moves(rules, pos))))
                if pos.status != "playing":
                    break
    assert sharper_toward > 0
    assert sharper > 0 or rules.win == "all"


def test_the_pyramid_game_serves_a_pyramid_only_win_without_a_cell() -> None:
    """``_fewest`` bounds the removals where every tableau card is the pyramid's, the
    pyramid alone must go and no card can leave it but by a removal."""
    serves = {letter for letter, rules in PRESETS.items() if covers(rules)
              and _few_serves(Encoding.of(rules, start(rules, 0)).lay)}
    assert {"R", "M", "T", "N1", "C1"} <= serves
    assert not serves & {"P", "O", "N1W", "C1W", "L", "B"}
