"""Turning the reduced model's steps into the engine moves that play them.

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

from pyramide.cards import Card
from pyramide.game import Position
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.solver.downsets import OVER, bit
from pyramide.solver.reduced import Step

__all__ = ["realize"]


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
