"""Real positions as small integers, with the engine's moves, for fast search.

The talon (waste then stock) keeps one cyclic order for the whole game: a draw
moves the top stock card onto the waste, a recycle turns the waste back into
the stock in the same order.  So the talon is the cards of one fixed sequence
still left, and a cut: the cards before it are the waste, the others the stock.

Glossary
--------
table    the fixed data of one search (:class:`Table`): the pyramid cards, the
         talon sequence and the rules.
index    the place of a card in the talon sequence, 0 = bottom of the waste.
place    a card of the table: a pyramid slot 0..27, or ``TALON + index``.
state    ``(mask, tmask, cut, redeals, talon)`` (:class:`State`): pyramid mask,
         talon mask (bit ``index`` set while that card is left), the cut (the
         waste is the talon cards with index < cut; the cut always sits just
         above the waste top), the redeals used (0 when unlimited), and the
         packed talon values (:func:`pyramide.solver.reduced.pack_talon`).
key      the state as one int, for visited sets (the packed talon values follow
         from the talon mask and are left out).
action   a removal (the tuple of its places), :data:`DRAW` or :data:`RECYCLE`.
node     what the searches visit: a state after a removal (or the start).  Draws
         that end in no removal change nothing that matters, so a node move is a
         removal after the draws and recycles that lead to it (:data:`NodeMove`).
orbit    with unlimited redeals, the cuts that draws and recycles alone go through;
         they end in a circle, whose states reach each other and are one node.
timeline with draw one and limited redeals, passes then cards drawn: a state
         reaches every later state of the timeline holding the same cards, so the
         earliest one met stands for them all.

The moves are exactly those of the rules kernel (:func:`pyramide.kernel.legal_moves`)
for the classic games without waste pairs (:func:`serves`); the tests check it
against the kernel on random play.  Other games are searched over the kernel's
own positions (:mod:`pyramide.solver.kernel_search`), or by the compiled search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pyramide.cards import Card
from pyramide.game import Position
from pyramide.geometry import SLOTS
from pyramide.moves import DRAW as ENGINE_DRAW
from pyramide.moves import RECYCLE as ENGINE_RECYCLE
from pyramide.moves import Move
from pyramide.rules import Rules
from pyramide.solver.downsets import COVERING, FREE, bit, slots
from pyramide.solver.reduced import KING, pack_talon, pyramid_pairs, shift

__all__ = ["DRAW", "RECYCLE", "TALON", "Action", "State", "Table", "serves"]

TALON = SLOTS
"""Places from here on are talon cards."""

TMASK_SHIFT, CUT_SHIFT, REDEALS_SHIFT = 28, 52, 57
"""Where the talon mask, the cut and the redeals sit in a state's key (:meth:`Table.key`)."""

Action = tuple[int, ...]
DRAW: Action = (-1,)
RECYCLE: Action = (-2,)


NodeMove = tuple[int, Action]
"""A move of the search's node: draws and recycles to make first, then an action."""


def serves(rules: Rules) -> bool:
    """True when the table plays ``rules``: the classic games without waste pairs
    (whose pairs depend on the card just drawn, which a state here does not keep;
    the compiled search and the kernel search play them)."""
    return rules.classic and rules.waste_pairs == "none"


class State(NamedTuple):
    mask: int
    tmask: int
    cut: int
    redeals: int
    talon: int


def below(tmask: int, cut: int) -> int:
    """Index of the top waste card under ``cut`` (-1 when none)."""
    return (tmask & ((1 << cut) - 1)).bit_length() - 1


def waste_reach(values: Sequence[int], tmask: int, cut: int, partners: Sequence[int]) -> int:
    """The waste cards (a mask of indices) from the top down to the first one buried
    for good: more cards of some value lie over it than ``partners[value]``, the
    cards left that could ever take them (kings go alone)."""
    reach = 0
    over = [0] * (KING + 1)
    index = below(tmask, cut)
    while index >= 0:
        reach |= 1 << index
        value = values[TALON + index]
        if value != KING:
            over[value] += 1
            if over[value] > partners[value]:
                break
        index = below(tmask, index)
    return reach


def above(tmask: int, cut: int) -> int:
    """Index of the top stock card (-1 when the stock is empty)."""
    rest = tmask >> cut
    return (rest & -rest).bit_length() - 1 + cut if rest else -1


class Table:
    """One position's cards and rules, and the moves between its states."""

    def __init__(self, position: Position, rules: Rules) -> None:
        if not serves(rules):
            raise ValueError(f"the integer table does not play rule set {rules.letter}")
        self.rules = rules
        self.pyramid: tuple[Card | None, ...] = position.pyramid
        self.cards: tuple[Card, ...] = position.waste + position.stock
        values = [0 if c is None else c.value for c in position.pyramid]
        values += [c.value for c in self.cards]
        self.values = tuple(values)
        mask = sum(bit(s) for s, c in enumerate(position.pyramid) if c is not None)
        redeals = 0 if rules.redeals is None else position.redeals_used
        self.start = State(
            mask, (1 << len(self.cards)) - 1, len(position.waste), redeals,
            pack_talon(c.value for c in self.cards),
        )
        self.orbits: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
        self.pyramid_win = rules.win == "pyramid"
        self.max_redeals = rules.redeals
        self.pyramid_values = [
            sum(bit(s) for s in range(SLOTS) if values[s] == v and mask >> s & 1)
            for v in range(KING + 1)
        ]
        self.talon_values = [
            sum(1 << i for i in range(len(self.cards)) if values[TALON + i] == v)
            for v in range(KING + 1)
        ]

    # ------------------------------------------------------------ observation

    @staticmethod
    def key(state: State) -> int:
        return (state.mask | state.tmask << TMASK_SHIFT | state.cut << CUT_SHIFT
                | state.redeals << REDEALS_SHIFT)

    @staticmethod
    def removed(state: State) -> int:
        """Pyramid cards gone."""
        return SLOTS - state.mask.bit_count()

    def won(self, state: State) -> bool:
        return state.mask == 0 and (self.pyramid_win or state.tmask == 0)

    def layout(self, state: State) -> tuple[tuple[Card | None, ...], tuple[Card, ...],
                                             tuple[Card, ...]]:
        """The pyramid, stock (top first) and waste (bottom first) of a state."""
        pyramid = tuple(c if state.mask >> s & 1 else None for s, c in enumerate(self.pyramid))
        left = [i for i in range(len(self.cards)) if state.tmask >> i & 1]
        waste = tuple(self.cards[i] for i in left if i < state.cut)
        stock = tuple(self.cards[i] for i in left if i >= state.cut)
        return pyramid, stock, waste

    def card(self, place: int) -> Card:
        card = self.pyramid[place] if place < TALON else self.cards[place - TALON]
        assert card is not None
        return card

    def move(self, action: Action) -> Move:
        """The engine move of an action."""
        if action == DRAW:
            return ENGINE_DRAW
        if action == RECYCLE:
            return ENGINE_RECYCLE
        cards = [self.card(p) for p in action]
        return Move.king(cards[0]) if len(cards) == 1 else Move.pair(cards[0], cards[1])

    def action(self, move: Move) -> Action:
        """The action of an engine move (the inverse of :meth:`move`)."""
        if move.kind != "remove":
            return DRAW if move.kind == "draw" else RECYCLE
        return tuple(self.place(card) for card in move.cards)

    def place(self, card: Card) -> int:
        if card in self.pyramid:
            return self.pyramid.index(card)
        return TALON + self.cards.index(card)

    # -------------------------------------------------------------- last pass

    def last_pass(self, state: State) -> bool:
        """True when no recycle is left: a card buried in the waste may stay there."""
        return self.max_redeals is not None and state.redeals >= self.max_redeals

    def reach(self, state: State) -> int:
        """The talon cards that may still show (a mask of indices): all of them while a
        recycle is left; in the last pass the stock, and the waste cards above the
        first one buried for good: some value over it has more cards than partners
        left to take them (pyramid cards; stock cards under an open stock)."""
        tmask, cut = state.tmask, state.cut
        if not self.last_pass(state):
            return tmask
        pyramid, talon = self.pyramid_values, self.talon_values
        # a waste card pairs with the open stock's top card
        others = tmask & ~((1 << cut) - 1) if self.rules.open_stock else 0
        partners = [
            (state.mask & pyramid[KING - v]).bit_count() + (others & talon[KING - v]).bit_count()
            for v in range(KING + 1)
        ]
        return tmask & ~((1 << cut) - 1) | waste_reach(self.values, tmask, cut, partners)

    def usable_talon(self, state: State) -> int:
        """The packed values of the talon cards that may still show."""
        reach = self.reach(state)
        if reach == state.tmask:
            return state.talon
        return pack_talon(self.values[TALON + i] for i in slots(reach))

    # ------------------------------------------------------------------ moves

    def free_places(self, state: State) -> list[int]:
        """Free pyramid slots, the waste top, and the open stock's top card."""
        mask, tmask, cut = state.mask, state.tmask, state.cut
        free = list(FREE[mask])
        top = below(tmask, cut)
        if top >= 0:
            free.append(TALON + top)
        if self.rules.open_stock:
            stock_top = above(tmask, cut)
            if stock_top >= 0:
                free.append(TALON + stock_top)
        return free

    def removals(self, state: State) -> list[Action]:
        """Every legal removal: pyramid pairs, pyramid with talon, then talon only."""
        values = self.values
        free = self.free_places(state)
        out: list[Action] = []
        for i, a in enumerate(free):
            va = values[a]
            if va == KING:
                out.append((a,))
                continue
            out.extend((a, b) for b in free[i + 1 :] if va + values[b] == KING)
        if self.rules.covering_pairs:
            out.extend(
                pair for pair in COVERING[state.mask] if values[pair[0]] + values[pair[1]] == KING
            )
        out.sort(key=lambda action: action[0] >= TALON)
        return out

    def pyramid_pairs(self, state: State) -> list[Action]:
        """Pairs of two pyramid cards (covering pairs too, when the rules allow them)."""
        return list(pyramid_pairs(self.values, state.mask, covering=self.rules.covering_pairs))

    def actions(self, state: State) -> list[Action]:
        """Every legal action, removals first, then the draw or the recycle."""
        out = self.removals(state)
        tmask, cut = state.tmask, state.cut
        if tmask >> cut:
            out.append(DRAW)
        elif tmask and (self.max_redeals is None or state.redeals < self.max_redeals):
            out.append(RECYCLE)
        return out

    def apply(self, state: State, action: Action) -> State:
        """The state after a legal action."""
        mask, tmask, cut, redeals, talon = state
        if action == DRAW:
            for _ in range(self.rules.draw_count):
                top = above(tmask, cut)
                if top < 0:
                    break
                cut = top + 1
            return State(mask, tmask, cut, redeals, talon)
        if action == RECYCLE:
            return State(mask, tmask, 0, redeals + (self.max_redeals is not None), talon)
        for place in action:
            if place < TALON:
                mask &= ~bit(place)
            else:
                tmask &= ~bit(place - TALON)
                value = self.values[place]
                if value != KING:
                    talon -= 1 << shift(value)
        return State(mask, tmask, below(tmask, cut) + 1, redeals, talon)

    def successors(self, state: State) -> list[tuple[Action, State]]:
        return [(action, self.apply(state, action)) for action in self.actions(state)]

    # ------------------------------------------------------- the search's nodes

    def next_cut(self, tmask: int, cut: int) -> int:
        """The cut after one draw, or after the recycle when the stock is empty."""
        rest = tmask >> cut
        if not rest:
            return 0
        for _ in range(self.rules.draw_count):
            low = rest & -rest
            cut += low.bit_length()
            rest = tmask >> cut
            if not rest:
                break
        return cut

    def orbit(self, tmask: int, cut: int) -> tuple[tuple[int, ...], int]:
        """With unlimited redeals: the cuts that draws and recycles alone reach from
        ``cut`` (in order, ``cut`` first), and the smallest cut of the circle they end in."""
        known = self.orbits.get((tmask, cut))
        if known is not None:
            return known
        cuts = [cut]
        if tmask:
            while (after := self.next_cut(tmask, cuts[-1])) not in cuts:
                cuts.append(after)
            circle = min(cuts[cuts.index(after):])
        else:
            circle = cut
        result = tuple(cuts), circle
        self.orbits[(tmask, cut)] = result
        return result

    def ahead(self, state: State) -> list[tuple[int, int]]:
        """The (cut, redeals) that draws and recycles alone reach from the state, in
        order, the state's own first: round the circle with unlimited redeals, else
        until the last pass ends."""
        if self.max_redeals is None:
            return [(cut, 0) for cut in self.orbit(state.tmask, state.cut)[0]]
        tmask, cut, redeals = state.tmask, state.cut, state.redeals
        out = [(cut, redeals)]
        while True:
            if tmask >> cut:
                cut = self.next_cut(tmask, cut)
            elif tmask and redeals < self.max_redeals:
                cut, redeals = 0, redeals + 1
            else:
                return out
            out.append((cut, redeals))

    def timeline(self, state: State) -> int:
        """How far the talon has been played: passes, then cards drawn in this pass.
        With draw one and limited redeals a state reaches, by draws and recycles
        alone, every later state holding the same cards (0 for other rules)."""
        if self.max_redeals is None or self.rules.draw_count != 1:
            return 0
        drawn = (state.tmask & ((1 << state.cut) - 1)).bit_count()
        return state.redeals * (len(self.cards) + 2) + drawn

    def node_key(self, state: State) -> int:
        """The key of the search's node.  With unlimited redeals the states that draws
        and recycles lead round in a circle are one node (named by its smallest cut);
        with draw one and limited redeals the cards alone name it (the earliest such
        state on the :meth:`timeline` can do all the others can)."""
        if self.max_redeals is not None:
            if self.rules.draw_count == 1:
                return state.mask | state.tmask << SLOTS
            return self.key(state)
        _, circle = self.orbit(state.tmask, state.cut)
        if state.cut in self.orbit(state.tmask, circle)[0]:
            return self.key(state._replace(cut=circle))
        return self.key(state)

    def node_moves(self, state: State) -> list[tuple[NodeMove, State]]:
        """The moves of the search's node: a removal, after the draws and recycles
        that lead to it (``(steps, removal)``).  Draws that end in no removal change
        nothing that matters, so nodes are only the states after removals.  With
        draw one a removal is offered at its first chance only (a later one leads
        to the same node, or to one the :meth:`timeline` puts later)."""
        out = [((0, action), self.apply(state, action)) for action in self.removals(state)]
        seen = {action for (_, action), _ in out}
        first_only = self.rules.draw_count == 1
        partners: list[list[int]] = [[] for _ in range(KING + 1)]
        for s in FREE[state.mask]:
            partners[KING - self.values[s]].append(s)
        for steps, (cut, redeals) in enumerate(self.ahead(state)[1:], start=1):
            there = state._replace(cut=cut, redeals=redeals)
            for action in self.talon_removals(there, partners):
                if first_only:
                    if action in seen:
                        continue
                    seen.add(action)
                out.append(((steps, action), self.apply(there, action)))
        return out

    def talon_removals(self, state: State, partners: list[list[int]]) -> list[Action]:
        """The removals of :meth:`removals` that take a talon card (``partners[v]``:
        the free pyramid slots that pair with value ``v``)."""
        values, rules = self.values, self.rules
        tmask, cut = state.tmask, state.cut
        top = below(tmask, cut)
        free = [] if top < 0 else [TALON + top]
        if rules.open_stock and (stock_top := above(tmask, cut)) >= 0:
            free.append(TALON + stock_top)
        out: list[Action] = []
        for place in free:
            value = values[place]
            if value == KING:
                out.append((place,))
            else:
                out.extend((s, place) for s in partners[value])
        if len(free) == 2 and values[free[0]] + values[free[1]] == KING:
            out.append((free[0], free[1]))
        return out

    def spell(self, state: State, move: NodeMove) -> list[Action]:
        """The actions of a node move from ``state``."""
        steps, action = move
        actions: list[Action] = []
        for _ in range(steps):
            step = DRAW if state.tmask >> state.cut else RECYCLE
            actions.append(step)
            state = self.apply(state, step)
        return [*actions, action]
