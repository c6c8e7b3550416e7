"""The games the reduced model decides exactly, and their positions as it sees them.

The reduced model (:mod:`pyramide.solver.reduced`) plays the 7-row pyramid
against a multiset of talon worths.  Under the *reduced rules* (N and C) that
is the game itself: with unlimited redeals, draw one and a pyramid-only win,
any talon card can be brought onto the waste top at any time (draws and
recycles take nothing away), and two talon cards never need to go together.
Two more kinds of game are the same game in disguise, under the same talon:

- a pyramid of fewer rows (S, six rows) is the 7-row pyramid's top rows, the
  rows below them gone from the start: *phantoms* to the model;
- *spare cards* (B's reserve row): tableau cards outside every pyramid zone
  that nothing covers and that cover nothing.  Free until they go, and never
  needed by a pyramid-only win, they are talon cards that are always at hand,
  so the model counts their worths in the talon.

Glossary
--------
reduction  how one game's positions map onto the model (:class:`Reduction`):
           its pyramid's slots (the first ``size`` of the 7-row pyramid, dealt
           in the same order) and its spare slots.
phantoms   the 7-row pyramid's slots past ``size``: empty in every position, so
           the model's best counts them as gone.

>>> from pyramide.rules import rules_for
>>> [(letter, reduction(rules_for(letter))) for letter in "NBSGE"]  # doctest: +NORMALIZE_WHITESPACE
[('N', Reduction(size=28, spare=())), ('B', Reduction(size=28, spare=(28, 29, 30, 31, 32, 33, 34))),
 ('S', Reduction(size=21, spare=())), ('G', None), ('E', None)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from pyramide.geometry import SLOTS
from pyramide.kernel import Position
from pyramide.layouts import pyramid
from pyramide.rules import CLASSIC_TABLEAU, Rules
from pyramide.solver.reduced import pack_talon

__all__ = ["CLASSIC", "Reduction", "reduced_rules", "reduction"]

ROWS = 7


def reduced_rules(rules: Rules) -> bool:
    """True when the reduced model decides ``rules`` as they are (rule sets N and C)."""
    return (rules.classic and rules.redeals is None and rules.draw_count == 1
            and rules.waste_pairs == "none" and not rules.open_stock
            and rules.win == "pyramid")


@dataclass(frozen=True, slots=True)
class Reduction:
    """A game's positions as the reduced model sees them (module glossary)."""

    size: int
    spare: tuple[int, ...]

    def values(self, position: Position) -> tuple[int, ...]:
        """The 28 values the model reads: the pyramid's (0 for an empty slot), then
        the phantoms' 0."""
        tableau = position.tableau
        values = tuple([0 if card is None else card.value
                        for card in (tableau if len(tableau) == self.size
                                     else tableau[:self.size])])
        return values if self.size == SLOTS else values + (0,) * (SLOTS - self.size)

    def talon(self, position: Position) -> int:
        """The packed worths of the talon and of the spare cards still in play."""
        talon = (pack_talon([c.value for c in position.waste])
                 + pack_talon([c.value for c in position.stock]))
        if self.spare:
            talon += pack_talon([card.value for s in self.spare
                                 if (card := position.tableau[s]) is not None])
        return talon

    def removed(self, best: int) -> int:
        """The game's pyramid cards gone at most, from the model's ``best``."""
        return best - (SLOTS - self.size)


CLASSIC = Reduction(SLOTS, ())
"""The 7-row pyramid alone (rule book §2): how the classic sets' positions are read."""


@lru_cache(maxsize=64)
def reduction(rules: Rules) -> Reduction | None:
    """How the reduced model decides ``rules`` exactly, or ``None`` where it does not:
    the tableau is a pyramid of at most 7 rows dealt as rule book §2 deals it (no
    card face down), then spare cards only, and with the 7-row pyramid alone the
    rules would be reduced rules."""
    tableau = rules.tableau
    if not reduced_rules(replace(rules, tableau=CLASSIC_TABLEAU)):
        return None
    for rows in range(ROWS, 0, -1):
        size = rows * (rows + 1) // 2
        if len(tableau) >= size and all(
                mine.covered_by == model.covered_by and mine.zone == model.zone
                and not mine.hidden
                for mine, model in zip(tableau.slots[:size], pyramid(rows).slots, strict=True)):
            break
    else:
        return None
    spare = tuple(range(size, len(tableau)))
    if any(tableau.slots[s].covered_by or tableau.covers[s] or tableau.slots[s].hidden
           or tableau.slots[s].zone.startswith("pyramid") for s in spare):
        return None
    return Reduction(size, spare)
