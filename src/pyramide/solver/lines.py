"""Turning a line's steps into the engine moves that play them, greedily.

Two uses of one idea.  :func:`realize` plays the reduced model's steps;
:func:`tighten` plays again the steps of a line some search found (its
removals and cell moves), which is how a long line shrinks when no shorter
one is proven (below).

The reduced model says which removals to make, not when: the talon's order is
not part of it.  Any order in which every step's cards are free when it is
played removes the same cards, so the steps are played greedily: among the
steps ready now, the one needing the fewest draws and recycles first (pyramid
pairs and kings need none).  A step taking a talon card of value ``w`` becomes
draws (and a recycle when the stock runs out) until the first card of value
``w`` tops the waste, then the pair.

>>> from pyramide.game import Game
>>> from pyramide.solver.reduced import Step
>>> game = Game.from_code("PY1-N-AAAAAAS")
>>> steps = [Step((26,), 3), Step((22,)), Step((25,), 10)]
>>> [str(m) for m in realize(game.position, steps)]
['K♣', '10♣+3♦', 'draw', '10♥+3♠']

"""

from __future__ import annotations

from collections.abc import Iterable

from pyramide import kernel
from pyramide.cards import Card
from pyramide.game import Position
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules
from pyramide.solver.downsets import OVER, bit
from pyramide.solver.reduced import Step

__all__ = ["realize", "tighten"]


def realize(position: Position, steps: Iterable[Step]) -> list[Move]:
    """Engine moves playing ``steps`` from ``position`` (draw one, unlimited redeals)."""
    pyramid = position.pyramid
    mask = sum(bit(s) for s, card in enumerate(pyramid) if card is not None)
    waste, stock = list(position.waste), list(position.stock)
    todo = list(steps)
    moves: list[Move] = []
    while todo:
        step = cheapest(todo, mask, waste, stock)
        todo.remove(step)
        cards = [card for card in (pyramid[s] for s in step.slots) if card is not None]
        assert len(cards) == len(step.slots), f"step {step} names an empty slot"
        if step.talon:
            moves += bring_to_top(waste, stock, step.talon)
            cards.append(waste.pop())
        moves.append(Move.king(cards[0]) if len(cards) == 1 else Move.pair(*cards))
        for s in step.slots:
            mask &= ~bit(s)
    return moves


def ready(step: Step, mask: int) -> bool:
    """True when every card of the step is free, but for the cards of the step itself."""
    own = sum(bit(s) for s in step.slots)
    return all(not mask & OVER[s] & ~own for s in step.slots)


def cheapest(steps: list[Step], mask: int, waste: list[Card], stock: list[Card]) -> Step:
    """The ready step needing the fewest draws and recycles."""
    cost = talon_costs(waste, stock)
    candidates = [s for s in steps if ready(s, mask)]
    assert candidates, "no step of the line is ready"
    return min(candidates, key=lambda s: cost.get(s.talon, 1 << 20) if s.talon else -1)


def talon_costs(waste: list[Card], stock: list[Card]) -> dict[int, int]:
    """For each value in the talon, the draws and recycles that bring one to the top."""
    costs = [(0, card) for card in waste[-1:]]
    costs += [(depth + 1, card) for depth, card in enumerate(stock)]
    costs += [(len(stock) + 2 + depth, card) for depth, card in enumerate(waste)]
    cost: dict[int, int] = {}
    for n, card in costs:
        cost.setdefault(card.value, n)
    return cost


def bring_to_top(waste: list[Card], stock: list[Card], value: int) -> list[Move]:
    """Draw and recycle (updating ``waste`` and ``stock``) until ``value`` tops the waste."""
    moves: list[Move] = []
    for _ in range(2 * (len(waste) + len(stock)) + 2):
        if waste and waste[-1].value == value:
            return moves
        if stock:
            waste.append(stock.pop(0))
            moves.append(DRAW)
        else:
            stock[:], waste[:] = waste, []
            moves.append(RECYCLE)
    raise AssertionError(f"no card of value {value} in the talon")


# ------------------------------------------------------------------ tighten


def tighten(rules: Rules, start: Position, line: list[Move]) -> list[Move]:
    """``line`` from ``start``, or a shorter line with the same end, played by the
    rules kernel: the line's removals and cell moves (its steps), each played as
    soon as it is legal, and a draw (or a recycle) only when none is.

    A decide search's line (depth first) draws and recycles far more than it
    needs: on Free cell (L) deals 0–29 the lines no search proved shortest
    fell from 2,121 moves to 1,509 (181 to 71 on deal 0).  Playing a removal
    early never spoils a later step (removals only free cards), and a step may
    even find its card still free where the line had parked it in a cell: that
    cell move is then left out.  Cell moves keep their order among themselves
    (a cell taken early must not hold up the card the line parks there next).
    The result is kept only when it ends as the line does (won, or with as many
    tableau cards gone) in fewer moves; a greedy order that gets stuck (no step
    legal and no talon move left, or a whole turn of the talon drawn for
    nothing) gives the line back unchanged.
    """
    tight = _greedy(rules, start, [m for m in line if m.kind in ("remove", "cell")],
                    len(line))
    if tight is None:
        return line
    played = _replay(rules, start, line)  # (only for a shorter greedy line: its end)
    if played is None:
        return line
    moves, end = tight
    same = end.status == played.status and end.score >= played.score
    return moves if same else line


def _replay(rules: Rules, pos: Position, line: list[Move]) -> Position | None:
    """The end of ``line`` (``None`` when a move is not legal where it is played)."""
    for move in line:
        if move not in kernel.legal_moves(rules, pos):
            return None
        pos = kernel.judge(rules, kernel.apply(rules, pos, move))
    return pos


def _greedy(rules: Rules, pos: Position, steps: list[Move],
            longest: int) -> tuple[list[Move], Position] | None:
    """The steps played as early as each is legal (see :func:`tighten`), and the
    end; ``None`` when the order gets stuck or needs ``longest`` moves or more
    (then it is no shorter than the line)."""
    moves: list[Move] = []
    idle = 0
    while pos.status == "playing":
        if len(moves) >= longest:
            return None
        steps = [s for s in steps if not (s.kind == "cell" and s.cards[0] in pos.removed)]
        if not steps:
            break
        legal = kernel.legal_moves(rules, pos)
        at = _first_ready(steps, legal)
        if at is not None:
            move, idle = steps.pop(at), 0
        else:
            talon = [m for m in legal if m in (DRAW, RECYCLE)]
            idle += 1
            if not talon or idle > 2 * (len(pos.stock) + sum(map(len, pos.wastes))) + 2:
                return None
            move = talon[0]
        moves.append(move)
        pos = kernel.judge(rules, kernel.apply(rules, pos, move))
    return (moves, pos) if len(moves) < longest else None


def _first_ready(steps: list[Move], legal: list[Move]) -> int | None:
    """The first step legal now; a cell move only when no earlier one waits."""
    cell_waits = False
    for at, step in enumerate(steps):
        if step.kind == "cell":
            if not cell_waits and step in legal:
                return at
            cell_waits = True
        elif step in legal:
            return at
    return None
