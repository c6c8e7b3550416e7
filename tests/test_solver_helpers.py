"""Helpers of the solver tests (no tests here): plain reference searches, hand-made positions.

The references are written the obvious way, independent of the solver's code:
an exhaustive search over the engine's own positions (``pyramide.game``'s pure
functions), and the reduced model without any shortcut.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections import deque
from collections.abc import Iterator
from functools import cache

from pyramide.cards import DECK, Card
from pyramide.deals import Deal
from pyramide.game import Game, Position
from pyramide.geometry import COVERED_BY, COVERS
from pyramide.kernel import apply, judge, legal_moves
from pyramide.moves import Move
from pyramide.rules import Rules

SLOTS = 28


def removed_count(pos: Position) -> int:
    return SLOTS - pos.pyramid_left


def engine_key(pos: Position, rules: Rules) -> tuple[object, ...]:
    redeals = pos.redeals_used if rules.redeals is not None else 0
    drawn = pos.drawn and rules.drawn_matters  # (which waste cards play)
    return (pos.pyramid, pos.stock, pos.waste, redeals, pos.status, drawn)


def successors(pos: Position, rules: Rules) -> Iterator[tuple[Move, Position]]:
    for move in legal_moves(rules, pos):
        yield move, judge(rules, apply(rules, pos, move))


def exhaustive(pos: Position, rules: Rules) -> tuple[bool, int]:
    """(winnable, max_removed) by visiting every position the engine can reach."""
    seen = {engine_key(pos, rules)}
    todo = [pos]
    won, best = pos.status == "won", removed_count(pos)
    while todo:
        here = todo.pop()
        for _, nxt in successors(here, rules):
            key = engine_key(nxt, rules)
            if key in seen:
                continue
            seen.add(key)
            won = won or nxt.status == "won"
            best = max(best, removed_count(nxt))
            todo.append(nxt)
    return won, best


def fewest_moves(pos: Position, rules: Rules, target: int, win: bool) -> int | None:
    """Breadth-first: the fewest moves to a win (or to ``target`` pyramid cards gone)."""
    seen = {engine_key(pos, rules)}
    layer = deque([(pos, 0)])
    while layer:
        here, depth = layer.popleft()
        if (here.status == "won") if win else removed_count(here) >= target:
            return depth
        for _, nxt in successors(here, rules):
            key = engine_key(nxt, rules)
            if key not in seen:
                seen.add(key)
                layer.append((nxt, depth + 1))
    return None


class NaiveBound:
    """The reduced model the plain way: every removal, no shortcut, all talon reachable."""

    def __init__(self, values: list[int], covering: bool) -> None:
        self.values = values
        self.covering = covering
        self.best_of = cache(self._best)

    def best(self, mask: int, talon: int) -> int:
        counts = tuple(talon >> (3 * (v - 1)) & 7 for v in range(1, 13))
        return self.best_of(mask, counts)

    def _best(self, mask: int, counts: tuple[int, ...]) -> int:
        best = SLOTS - mask.bit_count()
        for child in self.children(mask, counts):
            best = max(best, self.best_of(*child))
            if best == SLOTS:
                break
        return best

    def children(self, mask: int, counts: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        values = self.values
        here = [s for s in range(SLOTS) if mask >> s & 1]
        free = [s for s in here if not any(mask >> c & 1 for c in COVERED_BY[s])]
        for i, a in enumerate(free):
            if values[a] == 13:
                yield mask & ~(1 << a), counts
            for b in free[i + 1 :]:
                if values[a] + values[b] == 13:
                    yield mask & ~(1 << a) & ~(1 << b), counts
            need = 13 - values[a]
            if need and counts[need - 1]:
                less = list(counts)
                less[need - 1] -= 1
                yield mask & ~(1 << a), tuple(less)
        if self.covering:
            for a in here:
                over = [c for c in COVERED_BY[a] if mask >> c & 1]
                if len(over) == 1 and over[0] in free and values[a] + values[over[0]] == 13:
                    yield mask & ~(1 << a) & ~(1 << over[0]), counts


def small_position(seed: int, rows: int, talon: int) -> Position:
    """A position late in a game: only the top ``rows`` rows of the pyramid are left,
    with ``talon`` cards in the stock and the waste.  The talon holds partners of
    most pyramid cards, so that wins and near-wins are common."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    keep = rows * (rows + 1) // 2
    top = cards[:keep]
    spare = cards[keep:]
    chosen: list[Card] = []
    for card in top:
        partners = [c for c in spare if c.value + card.value == 13 or c.value == 13]
        if partners and len(chosen) < talon and rng.random() < 0.85:
            pick = rng.choice(partners)
            spare.remove(pick)
            chosen.append(pick)
    while len(chosen) < talon:
        chosen.append(spare.pop())
    rng.shuffle(chosen)
    cut = rng.randint(0, talon)
    pyramid: list[Card | None] = [*top, *([None] * (SLOTS - keep))]
    return Position(
        tuple(pyramid), tuple(chosen[cut:]), tuple(chosen[:cut]), tuple(spare),
        score=10 * (SLOTS - keep), redeals_used=rng.choice((0, 0, 1, 2)),
    )


def game_at(pos: Position, rules: Rules) -> Game:
    """A game whose current position is ``pos`` (the deal is only a placeholder)."""
    game = Game(Deal(DECK), rules)
    game.position = pos
    return game


def shadow_free(slot: int) -> set[int]:
    """Slots the card in ``slot`` lies over, directly or not."""
    under: set[int] = set()
    todo = list(COVERS[slot])
    while todo:
        s = todo.pop()
        if s not in under:
            under.add(s)
            todo.extend(COVERS[s])
    return under


def lower_bound(pos: Position, rules: Rules, target: int, win: bool) -> int:
    """A plain admissible estimate of the moves left: a removal takes at most one card of
    each value of a class (``v`` and ``13 - v``), a king goes alone; to clear the cards
    of a class with ``a`` and ``b`` cards of its two values takes ``max(a, b)`` removals
    (the pyramid's cards for a pyramid win, every card left for a whole-deck win)."""
    if not win:
        return max(0, -(-(target - removed_count(pos)) // 2))
    cards = [c for c in pos.pyramid if c is not None]
    if rules.win == "all":
        cards += [*pos.stock, *pos.waste]
    count = [0] * 14
    for card in cards:
        count[card.value] += 1
    return count[13] + sum(max(count[v], count[13 - v]) for v in range(1, 7))


def engine_shortest(pos: Position, rules: Rules, target: int, win: bool,
                    limit: int = 2_000_000) -> int | None:
    """A* over the positions the engine reaches through its public face
    (``Game.legal_moves`` and ``Game.play``), with :func:`lower_bound`: the fewest moves
    to a win (or to ``target`` pyramid cards gone).  ``None`` when no line exists;
    raises ``RuntimeError`` past ``limit`` positions."""
    import heapq
    from itertools import count

    game = game_at(pos, rules)
    tie = count()
    best = {engine_key(pos, rules): 0}
    heap = [(lower_bound(pos, rules, target, win), 0, next(tie), pos)]
    while heap:
        _, g_neg, _, here = heapq.heappop(heap)
        g = -g_neg
        if best[engine_key(here, rules)] < g:
            continue
        if (here.status == "won") if win else removed_count(here) >= target:
            return g
        if len(best) > limit:
            raise RuntimeError(f"more than {limit} positions")
        game.position = here
        for move in game.legal_moves():
            game.position = here
            game.play(move)
            nxt = game.position
            key = engine_key(nxt, rules)
            if best.get(key, g + 2) > g + 1:
                best[key] = g + 1
                h = lower_bound(nxt, rules, target, win)
                heapq.heappush(heap, (g + 1 + h, -(g + 1), next(tie), nxt))
    return None


def both_builds(script: str, argument: str) -> tuple[list[object], list[object]]:
    """The JSON that ``python -c script argument`` prints with the searches built
    ahead of time, then with numba's (``PYRAMIDE_JIT=1``); skips the test where no C
    compiler can build them."""
    import pytest

    if shutil.which("cc") is None:
        pytest.skip("no C compiler: the searches are not built ahead of time here")

    def answers(jit_only: bool) -> list[object]:
        env = {**os.environ, "PYRAMIDE_JIT": "1" if jit_only else "0"}
        done = subprocess.run([sys.executable, "-c", script, argument], env=env,
                              capture_output=True, text=True, check=True)
        result: list[object] = json.loads(done.stdout)
        return result

    return answers(False), answers(True)
