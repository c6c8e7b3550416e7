"""Rule sets: the options of rule book §10 as data, and the named presets.

Every preset has a one-letter name that appears in deal codes
(``PY1-N-…``) and keeps its own statistics.

>>> rules_for("N").redeals is None
True
>>> rules_for("P").win, rules_for("P").redeals, rules_for("P").open_stock
('all', 2, True)
>>> rules_for("x")
Traceback (most recent call last):
...
pyramide.errors.InvalidDealCodeError: unknown rule set 'x': expected one of C, M, N, O, P, R, T
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pyramide.errors import InvalidDealCodeError

__all__ = ["DEFAULT_RULES", "PRESETS", "Rules", "WinCondition", "rules_for"]

WinCondition = Literal["pyramid", "all"]


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule set: an independent value for every option of §10.

    ``redeals`` is the number of times the waste may be turned back into the
    stock (``None`` = unlimited, ``0`` = one pass only, ``2`` = three passes).
    """

    letter: str
    name: str
    win: WinCondition = "pyramid"
    redeals: int | None = None
    waste_pairs: bool = False
    open_stock: bool = False
    covering_pairs: bool = False
    draw_count: int = 1
    source: str = ""

    def __post_init__(self) -> None:
        if len(self.letter) != 1 or not self.letter.isascii() or not self.letter.isupper():
            raise ValueError(f"rules letter {self.letter!r} must be one capital letter")
        if self.redeals is not None and self.redeals < 0:
            raise ValueError(f"redeal limit {self.redeals!r} must be >= 0 or None")
        if self.draw_count not in (1, 3):
            raise ValueError(f"draw count {self.draw_count!r} must be 1 or 3")

    @property
    def unlimited_redeals(self) -> bool:
        return self.redeals is None

    def describe(self) -> str:
        """One line naming every option, for help texts and docs."""
        redeals = "unlimited redeals" if self.redeals is None else f"{self.redeals} redeal(s)"
        parts = [
            "win: whole deck" if self.win == "all" else "win: pyramid only",
            redeals,
            f"draw {self.draw_count}",
        ]
        parts += [flag for flag, on in (
            ("open stock", self.open_stock),
            ("waste pairs", self.waste_pairs),
            ("covering pairs", self.covering_pairs),
        ) if on]
        return ", ".join(parts)


DEFAULT_RULES = Rules(
    "N", "Pyramide",
    source="The rule book (shared/spec/RULES.md), as the known app plays it",
)

PRESETS: dict[str, Rules] = {r.letter: r for r in (
    DEFAULT_RULES,
    Rules(
        "C", "Pyramide, covering pairs", covering_pairs=True,
        source="Rule book §10 'covering pairs' on the default rules; the published "
        "count of 83.15% wins is for this combination",
    ),
    Rules(
        "P", "PySolFC Pyramid", win="all", redeals=2, open_stock=True,
        source="PySolFC 'Pyramid': all 52 cards must go, three passes, the top of the "
        "talon is face up and playable",
    ),
    Rules(
        "R", "Relaxed Pyramid", win="pyramid", redeals=2, open_stock=True,
        source="PySolFC 'Relaxed Pyramid': as PySolFC Pyramid, but won once the pyramid "
        "is cleared",
    ),
    Rules(
        "M", "Microsoft Pyramid", win="pyramid", redeals=2, open_stock=True,
        source="Microsoft Solitaire Collection 'Pyramid': pyramid-only win, the deck may "
        "be recycled twice, the top deck card is playable",
    ),
    Rules(
        "T", "Tut's Tomb", draw_count=3, redeals=None,
        source="Tut's Tomb from the literature: cards are drawn three at a time, "
        "unlimited passes",
    ),
    Rules(
        "O", "One pass, strict", win="all", redeals=0, waste_pairs=True,
        source="The classic strict game of the literature (Hoyle; seeds 001 and 003): a "
        "single pass through the stock, the drawn card may pair with the waste top, and "
        "every card must be removed (about 1 win in 50)",
    ),
)}


def rules_for(letter: str) -> Rules:
    """The preset with this letter; raises :class:`InvalidDealCodeError` if unknown."""
    rules = PRESETS.get(letter.upper() if isinstance(letter, str) else letter)
    if rules is None:
        known = ", ".join(sorted(PRESETS))
        raise InvalidDealCodeError(
            f"unknown rule set {letter!r}: expected one of {known}",
            ru=f"нет набора правил {letter!r}: есть {known}")
    return rules
