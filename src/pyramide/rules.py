"""Game descriptions: every option of rule book §10 and §11 as data.

A :class:`Rules` value describes one game completely — the tableau (a covering
graph, :mod:`pyramide.layouts`), the deck, what removes, the talon and the win
— and the rules kernel (:mod:`pyramide.kernel`) plays any of them.  The named
presets live in :mod:`pyramide.games`; every one has a short name that
appears in deal codes (``PY1-N-…``) and keeps its own statistics.

>>> rules_for("N").redeals is None
True
>>> rules_for("P").win, rules_for("P").redeals, rules_for("P").open_stock
('all', 2, True)
>>> rules_for("G").deck, len(rules_for("G").tableau), rules_for("G").stock_size
(52, 52, 0)
>>> rules_for("Q9")
Traceback (most recent call last):
...
pyramide.errors.InvalidDealCodeError: unknown rule set 'Q9': expected one of A, B, C, ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pyramide.cards import DeckSize
from pyramide.errors import InvalidDealCodeError
from pyramide.layouts import Tableau, pyramid

__all__ = ["CLASSIC_TABLEAU", "WASTE_PAIRS", "Pairing", "Rules", "Scoring", "WastePairs",
           "WinCondition", "rules_for"]

WinCondition = Literal["pyramid", "all"]
"""``pyramid``: the pyramid zones cleared (§5); ``all``: every card of the deck gone."""
Pairing = Literal["sum", "rank"]
"""``sum``: two cards whose values sum to the target; ``rank``: two cards of equal or
adjacent rank (Cheops)."""
WastePairs = Literal["none", "drawn", "hand", "always"]
"""When a waste card plays beside the top one (docs/rules.md, "Waste pairs"):
``none``: never; ``drawn`` (§10): the card just drawn may pair with the card it
covered; ``hand`` (§11 D, the standard game of Keller's one-pass figures): while
the top card is the card just drawn, the card under it is free too; ``always``
(§11 Y): the top card may pair with the one under it at any time."""
WASTE_PAIRS: tuple[WastePairs, ...] = ("none", "drawn", "hand", "always")
Scoring = Literal["points", "par"]
"""``par``: Par Pyramid's literature scores are shown beside the points (§11 D)."""

CLASSIC_TABLEAU = pyramid(7)
"""The 7-row pyramid of rule book §2."""

_NAME = re.compile(r"^[A-Z][A-Z0-9]{0,2}$")


@dataclass(frozen=True, slots=True)
class Rules:
    """One game: an independent value for every option of §10 and §11.

    ``redeals`` is the number of times the waste may be turned back into the
    stock (``None`` = unlimited, ``0`` = one pass only, ``2`` = three passes).
    ``start_waste`` cards are dealt onto each waste pile at the start (the
    rest of the deck after the tableau is the stock).  ``singles`` are the
    values removed alone (default: the target), ``extra_pairs`` value pairs
    that remove besides the sums.
    """

    letter: str
    name: str
    win: WinCondition = "pyramid"
    redeals: int | None = None
    waste_pairs: WastePairs = "none"
    open_stock: bool = False
    covering_pairs: bool = False
    draw_count: int = 1
    source: str = ""
    tableau: Tableau = CLASSIC_TABLEAU
    deck: DeckSize = 52
    target: int = 13
    pairing: Pairing = "sum"
    singles: tuple[int, ...] | None = None
    extra_pairs: tuple[tuple[int, int], ...] = ()
    waste_piles: int = 1
    start_waste: int = 1
    waste_bottom: bool = False
    cells: int = 0
    scoring: Scoring = "points"
    family: bool = False
    published: tuple[tuple[str, float], ...] = field(default=())
    """Win rates published elsewhere: (source, percent)."""

    def __repr__(self) -> str:
        return f"Rules({self.letter!r}, {self.name!r})"

    def __post_init__(self) -> None:
        if not _NAME.match(self.letter):
            raise ValueError(f"rules name {self.letter!r} must be a capital letter, "
                             "then up to two capitals or digits")
        if self.redeals is not None and self.redeals < 0:
            raise ValueError(f"redeal limit {self.redeals!r} must be >= 0 or None")
        if self.waste_pairs not in WASTE_PAIRS:
            raise ValueError(f"waste pairs {self.waste_pairs!r} must be one of "
                             f"{', '.join(WASTE_PAIRS)}")
        if self.draw_count not in (1, 3):
            raise ValueError(f"draw count {self.draw_count!r} must be 1 or 3")
        if self.waste_piles < 0 or self.cells < 0 or self.start_waste < 0:
            raise ValueError("waste piles, cells and start cards cannot be negative")
        if len(self.tableau) + self.waste_piles * self.start_waste > self.deck:
            raise ValueError(f"rules {self.letter}: the deal needs more than {self.deck} cards")

    def __hash__(self) -> int:
        # the name tells presets apart; hashing the tableau's slots on every lookup
        # (the solver's tables are cached by rules) would cost more than a search step
        return hash((self.letter, self.name))

    # ----------------------------------------------------------- derived facts

    @property
    def drawn_matters(self) -> bool:
        """True when which waste cards play depends on whether the top one is the
        card just drawn (waste pairs ``drawn`` and ``hand``; the kernel's
        ``Position.drawn``)."""
        return self.waste_pairs in ("drawn", "hand")

    @property
    def unlimited_redeals(self) -> bool:
        return self.redeals is None

    @property
    def stock_size(self) -> int:
        """Cards in the stock at the start."""
        return self.deck - len(self.tableau) - self.waste_piles * self.start_waste

    @property
    def single_values(self) -> tuple[int, ...]:
        return (self.target,) if self.singles is None else self.singles

    @property
    def classic(self) -> bool:
        """True for the games of §1–§10 on the 7-row pyramid with one waste pile: the
        solver's accelerated paths serve exactly these."""
        return (self.tableau == CLASSIC_TABLEAU and self.deck == 52 and self.target == 13
                and self.pairing == "sum" and self.singles is None and not self.extra_pairs
                and self.waste_piles == 1 and not self.waste_bottom and self.cells == 0)

    def describe(self) -> str:
        """One line naming every option (or the game's own line), in English, for
        help texts and docs."""
        from pyramide.messages import rules_description

        return rules_description(self, "en")


def rules_for(letter: str) -> Rules:
    """The preset with this name; raises :class:`InvalidDealCodeError` if unknown."""
    from pyramide.games import PRESETS

    rules = PRESETS.get(letter.upper()) if isinstance(letter, str) else None
    if rules is None:
        known = ", ".join(sorted(PRESETS))
        raise InvalidDealCodeError("err.rules.unknown", letter=letter, known=known)
    return rules


def __getattr__(name: str) -> Any:
    """``PRESETS`` and ``DEFAULT_RULES`` are defined in :mod:`pyramide.games`."""
    if name in ("PRESETS", "DEFAULT_RULES"):
        from pyramide import games

        return getattr(games, name)
    raise AttributeError(name)
