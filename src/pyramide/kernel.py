"""The rules kernel: the one place that knows what is free, what is legal, what a
move does and when a game ends — for any game description (:class:`Rules`).

Everything else asks here: :class:`~pyramide.game.Game` (taps, undo, clock) is
a façade over these functions, the solver generates its moves through them
(its accelerated paths are checked against them by the tests), and the web
page is told what is tappable.

Glossary
--------
position   what an undo restores (:class:`Position`): the tableau slots, the
           stock (top first), the waste piles (bottom to top), the cells, the
           cards removed, the score, the redeals used, the status, and whether
           the waste's top card is the card just drawn.
drawn      the first waste pile's top card came there by the last draw and has
           not moved since (removals elsewhere keep it so; a recycle ends it):
           what the waste-pairs options ask of "the card just drawn".
worth      a card's value in the game: its rank's number, but for the 48-card
           Spanish deck, where J, Q, K are worth 10, 11, 12 (§11).
free       a card that may be removed alone or paired with any other free
           card: a tableau card with no card left on a slot covering it, the
           top of each waste pile, Yield's bottom waste card, the open stock's
           top card, the cards in cells, and under ``waste_pairs="hand"`` the
           card under a drawn top card (the drawn card is in hand, the waste
           top free beside it: §11 D).
special    pairs allowed although a card is not free: the top waste card with
           the one under it (``waste_pairs`` "drawn": while the top is drawn;
           "always": at any time), and a card with the single card still
           covering it (covering pairs, §10).
parked     a tableau card moved into a cell (game L): it has left the tableau
           but is not removed; it still scores when removed, and the pyramid
           is not cleared while it waits there.

>>> from pyramide.deals import Deal
>>> from pyramide.games import PRESETS
>>> rules = PRESETS["N"]
>>> pos = initial(rules, Deal.from_number(18).cards)
>>> [str(m) for m in legal_moves(rules, pos)]
['K♣', 'J♥+2♠', '10♥+3♦', '10♣+3♦', 'draw']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

from pyramide.cards import Card
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules

__all__ = [
    "POINTS_PER_TABLEAU_CARD",
    "Position",
    "Status",
    "apply",
    "free_cards",
    "initial",
    "is_single",
    "judge",
    "legal_moves",
    "literature_scores",
    "pairs",
    "special_pairs",
    "stock_top_open",
    "tableau_left",
    "values_pair",
    "visible",
    "worth",
]

POINTS_PER_TABLEAU_CARD = 10
PAR_BY_DEAL = (50, 35, 20)
"""Par Pyramid: the par score for clearing the pyramid on deal 1, 2 or 3."""

Status = Literal["playing", "won", "lost"]


class Dealt(Protocol):
    """A deal: its cards in deal order (:class:`pyramide.deals.Deal`)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...


@dataclass(frozen=True, slots=True)
class Position:
    """Everything an undo restores.

    ``tableau`` holds ``None`` for empty slots; ``stock`` is listed from the top
    (drawn first); ``waste`` is the first waste pile from the bottom to the
    top card, ``side_wastes`` the others (Apophis); ``cells`` holds ``None``
    for an empty cell, ``parked`` whether each cell card came from the tableau;
    ``drawn`` tells whether the waste's top card is the card just drawn
    (glossary).
    """

    tableau: tuple[Card | None, ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...]
    removed: tuple[Card, ...]
    score: int = 0
    redeals_used: int = 0
    status: Status = "playing"
    side_wastes: tuple[tuple[Card, ...], ...] = ()
    cells: tuple[Card | None, ...] = ()
    parked: tuple[bool, ...] = ()
    drawn: bool = False

    @staticmethod
    def initial(deal: Dealt, rules: Rules | None = None) -> Position:
        """The start of ``deal`` under ``rules`` (default: the default rules N)."""
        from pyramide.games import DEFAULT_RULES

        return initial(rules or DEFAULT_RULES, deal.cards)

    @property
    def pyramid(self) -> tuple[Card | None, ...]:
        """The tableau (the name the classic games' solver reads)."""
        return self.tableau

    @property
    def wastes(self) -> tuple[tuple[Card, ...], ...]:
        return (self.waste, *self.side_wastes)

    @property
    def pyramid_left(self) -> int:
        """Cards left in the tableau (every zone)."""
        return sum(card is not None for card in self.tableau)


# ------------------------------------------------------------------ card values


def worth(rules: Rules, card: Card) -> int:
    """The card's value in the game (the Spanish deck counts J = 10, Q = 11, K = 12)."""
    return card.value - 1 if rules.deck == 48 and card.value > 10 else card.value


def is_single(rules: Rules, card: Card) -> bool:
    """True when the card is removed alone (a king, by default)."""
    return worth(rules, card) in rules.single_values


def pairs(rules: Rules, a: Card, b: Card) -> bool:
    """True when the two cards remove together (wherever they lie)."""
    return a != b and values_pair(rules, worth(rules, a), worth(rules, b))


def values_pair(rules: Rules, va: int, vb: int) -> bool:
    """True when two cards worth ``va`` and ``vb`` remove together."""
    if rules.pairing == "rank":
        return abs(va - vb) <= 1
    return va + vb == rules.target or (va, vb) in rules.extra_pairs or (
        vb, va) in rules.extra_pairs


# ------------------------------------------------------------------ the deal


def initial(rules: Rules, cards: Sequence[Card]) -> Position:
    """The position at the start: the card list (§8) is the tableau slots in deal
    order, then each waste pile's starting cards, then the stock from the top."""
    n = len(rules.tableau)
    tableau = tuple(cards[:n])
    piles = []
    at = n
    for _ in range(rules.waste_piles):
        piles.append(tuple(cards[at:at + rules.start_waste]))
        at += rules.start_waste
    first = piles[0] if piles else ()
    return Position(tableau, tuple(cards[at:]), first, (), side_wastes=tuple(piles[1:]),
                    cells=(None,) * rules.cells, parked=(False,) * rules.cells)


# ------------------------------------------------------------------ observation


def _slot_free(rules: Rules, tableau: tuple[Card | None, ...], slot: int) -> bool:
    return all(tableau[c] is None for c in rules.tableau.slots[slot].covered_by)


def stock_top_open(rules: Rules, pos: Position) -> bool:
    """True when the stock's top card lies face up and plays (open stock)."""
    return rules.open_stock and bool(pos.stock)


def free_cards(rules: Rules, pos: Position) -> list[Card]:
    """The free cards (glossary), tableau first, then waste, stock and cells."""
    tableau = pos.tableau
    free = [c for i, c in enumerate(tableau) if c is not None and _slot_free(rules, tableau, i)]
    for pile in pos.wastes:
        if pile:
            free.append(pile[-1])
    if rules.waste_bottom and len(pos.waste) >= 2:
        free.append(pos.waste[0])
    if rules.waste_pairs == "hand" and pos.drawn and len(pos.waste) >= 2:
        free.append(pos.waste[-2])
    if stock_top_open(rules, pos):
        free.append(pos.stock[0])
    free += [c for c in pos.cells if c is not None]
    return free


def visible(rules: Rules, pos: Position, slot: int) -> bool:
    """True when the card in ``slot`` lies face up (hidden slots turn up once free)."""
    return not rules.tableau.slots[slot].hidden or _slot_free(rules, pos.tableau, slot)


def special_pairs(rules: Rules, pos: Position) -> list[Move]:
    """Pairs allowed only by the waste-pairs and covering-pairs options (glossary)."""
    moves: list[Move] = []
    waste = pos.waste
    if ((rules.waste_pairs == "always" or (rules.waste_pairs == "drawn" and pos.drawn))
            and len(waste) >= 2 and pairs(rules, waste[-1], waste[-2])):
        moves.append(Move.pair(waste[-1], waste[-2]))
    if rules.covering_pairs:
        tableau = pos.tableau
        for index, card in enumerate(tableau):
            if card is None:
                continue
            over = [c for c in rules.tableau.slots[index].covered_by if tableau[c] is not None]
            if len(over) == 1 and _slot_free(rules, tableau, over[0]):
                top = tableau[over[0]]
                assert top is not None
                if pairs(rules, card, top):
                    moves.append(Move.pair(card, top))
    return moves


def tableau_left(rules: Rules, pos: Position) -> int:
    """Cards a pyramid-only win still has to clear: the pyramid zones, and the
    tableau cards parked in cells."""
    left = sum(pos.tableau[s] is not None for s in rules.tableau.pyramid_slots)
    return left + sum(pos.parked)


def _can_recycle(rules: Rules, pos: Position) -> bool:
    return any(pos.wastes) and (rules.redeals is None or pos.redeals_used < rules.redeals)


def legal_moves(rules: Rules, pos: Position) -> list[Move]:
    """Every legal move: removals first (tableau cards first), then moves into a
    cell, then the draw or the recycle."""
    if pos.status != "playing":
        return []
    moves: list[Move] = []
    for move in _moves(rules, pos):
        if move not in moves:  # a special pair may also be a pair of free cards
            moves.append(move)
    return moves


def _moves(rules: Rules, pos: Position) -> Iterator[Move]:
    """The legal moves one by one (a special pair may come twice)."""
    free = free_cards(rules, pos)
    values = [worth(rules, c) for c in free]
    singles = rules.single_values
    for card, value in zip(free, values, strict=True):
        if value in singles:
            yield Move.king(card)
    for i, a in enumerate(free):
        va = values[i]
        for j in range(i + 1, len(free)):
            if values_pair(rules, va, values[j]) and a != free[j]:
                yield Move.pair(a, free[j])
    yield from special_pairs(rules, pos)
    if None in pos.cells:
        parkable = set(free) - set(c for c in pos.cells if c is not None)
        if stock_top_open(rules, pos):
            parkable.discard(pos.stock[0])
        for card in free:
            if card in parkable and not is_single(rules, card):
                yield Move.to_cell(card)
    if pos.stock:
        yield DRAW
    elif _can_recycle(rules, pos):
        yield RECYCLE


# ------------------------------------------------------------------ acting


def _deal_round(rules: Rules, stock: tuple[Card, ...],
                piles: list[tuple[Card, ...]]) -> tuple[Card, ...]:
    """One stock tap: ``draw_count`` cards onto the waste, or with several waste
    piles one card onto each; returns the stock left (``piles`` updated)."""
    if len(piles) == 1:
        n = min(rules.draw_count, len(stock))
        piles[0] = piles[0] + stock[:n]
        return stock[n:]
    for p in range(len(piles)):
        if not stock:
            break
        piles[p] = (*piles[p], stock[0])
        stock = stock[1:]
    return stock


def gather(piles: Sequence[tuple[Card, ...]]) -> tuple[Card, ...]:
    """The stock a recycle makes of the waste piles, unshuffled, from the top: the
    last pile's cards from its bottom (the card dealt first is dealt first
    again), then the pile before it, … the first pile last — the order PySolFC's
    Apophis gathers its three piles in (docs/rules.md)."""
    return tuple(card for pile in reversed(piles) for card in pile)


def apply(rules: Rules, pos: Position, move: Move) -> Position:
    """The position after a legal ``move`` (legality is the caller's business)."""
    if move.kind == "draw":
        piles = list(pos.wastes)
        stock = _deal_round(rules, pos.stock, piles)
        return replace(pos, stock=stock, waste=piles[0], side_wastes=tuple(piles[1:]),
                       drawn=True)
    if move.kind == "recycle":
        piles = [() for _ in pos.wastes]
        stock = gather(pos.wastes)
        if len(piles) > 1:  # Apophis deals the next round at once
            stock = _deal_round(rules, stock, piles)
        return replace(pos, stock=stock, waste=piles[0], side_wastes=tuple(piles[1:]),
                       redeals_used=pos.redeals_used + 1, drawn=False)
    tableau = list(pos.tableau)
    stock, piles = pos.stock, list(pos.wastes)
    cells, parked = list(pos.cells), list(pos.parked)
    points = 0
    from_tableau = False
    for card in move.cards:
        if card in tableau:
            tableau[tableau.index(card)] = None
            from_tableau = True
            points += POINTS_PER_TABLEAU_CARD
        elif card in cells:
            at = cells.index(card)
            cells[at] = None
            if parked[at]:
                points += POINTS_PER_TABLEAU_CARD
            parked[at] = False
        elif card in stock:
            stock = tuple(c for c in stock if c != card)
        else:
            piles = [tuple(c for c in pile if c != card) for pile in piles]
    removed = pos.removed
    if move.kind == "cell":
        at = cells.index(None)
        cells[at], parked[at] = move.cards[0], from_tableau
        points = 0
    else:
        removed += move.cards
    waste = piles[0] if piles else ()
    return Position(
        tuple(tableau), stock, waste, removed, pos.score + points,
        pos.redeals_used, pos.status, tuple(piles[1:]), tuple(cells), tuple(parked),
        drawn=pos.drawn and waste[-1:] == pos.waste[-1:],
    )


def judge(rules: Rules, pos: Position) -> Position:
    """Won, or lost when no move is left (the dead end of §5), else unchanged."""
    cleared = tableau_left(rules, pos) == 0
    if cleared and (rules.win == "pyramid" or not (
            pos.stock or any(pos.wastes) or any(c is not None for c in pos.cells)
            or any(c is not None for c in pos.tableau))):
        return replace(pos, status="won")
    if not _has_move(rules, pos):
        return replace(pos, status="lost")
    return pos


def _has_move(rules: Rules, pos: Position) -> bool:
    """True when some move is legal (what :func:`legal_moves` would list, sooner)."""
    return next(_moves(rules, pos), None) is not None


def literature_scores(rules: Rules, pos: Position) -> dict[str, int] | None:
    """Par Pyramid's scores of the literature (§11 D), shown beside the points:
    pyramid cards left (0 is perfect) and the par score — 50, 35 or 20 for a
    pyramid cleared on deal 1, 2 or 3, less the cards left in hand; not cleared:
    minus the cards left in pyramid and hand.  ``None`` for other games."""
    if rules.scoring != "par":
        return None
    left = tableau_left(rules, pos)
    hand = len(pos.stock) + sum(len(p) for p in pos.wastes)
    deal = min(pos.redeals_used, len(PAR_BY_DEAL) - 1)
    par = PAR_BY_DEAL[deal] - hand if left == 0 else -(left + hand)
    return {"pyramid_left": left, "par": par}
