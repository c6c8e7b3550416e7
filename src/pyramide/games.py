"""The games Pyramide plays: the rule sets of §10 and the family of §11, as data.

Each preset is a :class:`~pyramide.rules.Rules` value; its name (one capital
letter, or a letter and up to two capitals or digits for the research variants)
appears in deal codes and keeps its own statistics.  Where sources disagree,
the choice is written in ``docs/rules.md``.

>>> [r.letter for r in PRESETS.values() if not r.family]
['N', 'C', 'P', 'R', 'M', 'T', 'O', 'N1', 'C1', 'N1W', 'C1W']
>>> PRESETS["E"].target, PRESETS["E"].stock_size, PRESETS["S"].stock_size
(12, 19, 30)
"""

from __future__ import annotations

from pyramide.layouts import inverted, join, piles, pyramid, row
from pyramide.rules import CLASSIC_TABLEAU, Rules

__all__ = ["DEFAULT_RULES", "FAMILY", "PRESETS"]

_BELOW_PYRAMID = 6 * 0.7 + 1.4 + 0.3
"""Where a reserve dealt under the 7-row pyramid begins (card widths)."""

DEFAULT_RULES = Rules(
    "N", "Pyramide",
    source="The rule book (shared/spec/RULES.md), as the known app plays it",
    published=(("100,000,000 deals, unlimited passes", 66.87),),
)

_RULE_SETS = (
    DEFAULT_RULES,
    Rules(
        "C", "Pyramide, covering pairs", covering_pairs=True,
        source="Rule book §10 'covering pairs' on the default rules; the published "
        "count of 83.15% wins is for this combination",
        published=(("100,000,000 deals, unlimited passes, covering pairs", 83.15),),
    ),
    Rules(
        "P", "PySolFC Pyramid", win="all", redeals=2, open_stock=True, start_waste=0,
        source="PySolFC 'Pyramid': all 52 cards must go, three passes, the top of the "
        "talon is face up and playable; 24 cards in the stock, none on the waste",
    ),
    Rules(
        "R", "Relaxed Pyramid", win="pyramid", redeals=2, open_stock=True, start_waste=0,
        source="PySolFC 'Relaxed Pyramid': as PySolFC Pyramid, but won once the pyramid "
        "is cleared",
    ),
    Rules(
        "M", "Microsoft Pyramid", win="pyramid", redeals=2, open_stock=True, start_waste=0,
        source="Microsoft Solitaire Collection 'Pyramid': pyramid-only win, the deck may "
        "be recycled twice, the top deck card is playable, the waste starts empty",
    ),
    Rules(
        "T", "Tut's Tomb", draw_count=3, redeals=None,
        source="PySolFC 'King Tut' / Tut's Tomb of the literature: cards are drawn three "
        "at a time, unlimited passes, pyramid-only win, pairs only",
    ),
    Rules(
        "O", "One pass, strict", win="all", redeals=0, waste_pairs="drawn",
        source="The classic strict game of the literature (Hoyle; seeds 001 and 003): a "
        "single pass through the stock, the drawn card may pair with the waste top, and "
        "every card must be removed (about 1 win in 50)",
    ),
    Rules(
        "N1", "One pass", redeals=0, waste_pairs="hand",
        source="The default rules with a single pass through the stock, the drawn card "
        "pairing with the waste top as in the published figures' standard game: the "
        "setting of the published one-pass figure (pyramid-only win)",
        published=(("100,000,000 deals, pyramid-only win, one pass", 9.02),),
    ),
    Rules(
        "C1", "One pass, covering pairs", redeals=0, waste_pairs="hand", covering_pairs=True,
        source="As N1, with covering pairs: the published one-pass figure with covering pairs",
        published=(("100,000,000 deals, pyramid-only win, one pass, covering pairs", 22.77),),
    ),
    Rules(
        "N1W", "One pass, whole deck", redeals=0, win="all", waste_pairs="hand",
        source="As N1, but every card of the deck must go: the published all-cards "
        "one-pass figure (the same options as O, kept under its own letter for that figure)",
        published=(("100,000,000 deals, all cards, one pass", 6.80),),
    ),
    Rules(
        "C1W", "One pass, whole deck, covering pairs", redeals=0, win="all",
        waste_pairs="hand", covering_pairs=True,
        source="As N1W, with covering pairs",
        published=(("100,000,000 deals, all cards, one pass, covering pairs", 15.92),),
    ),
)

FAMILY: tuple[Rules, ...] = (
    Rules(
        "G", "Giza", win="all", tableau=join(pyramid(7, x=0.55), piles(8, 3, y=_BELOW_PYRAMID)),
        waste_piles=0, start_waste=0, redeals=0, family=True,
        source="Rule book §11.1 (Michael Keller; PySolFC 'Giza'): the other 24 cards face "
        "up in 8 fanned reserve piles of 3; no stock, no waste",
        published=(("one source", 10.0), ("another source ('1 in 3')", 33.3)),
    ),
    Rules(
        "A", "Apophis", win="all", waste_piles=3, start_waste=1, redeals=2, family=True,
        source="Rule book §11.2 (PySolFC 'Apophis'): a stock tap deals one card onto each "
        "of three waste piles; three passes",
    ),
    Rules(
        "V", "Triangle", win="all", tableau=inverted(7), open_stock=True, start_waste=0,
        redeals=2, family=True,
        source="Rule book §11.3 (PySolFC 'Triangle'): an inverted pyramid, the stock and "
        "waste of PySolFC Pyramid",
    ),
    Rules(
        "Y", "Yield", win="all", tableau=inverted(7), start_waste=0, redeals=0,
        waste_bottom=True, waste_pairs="always", family=True,
        source="Rule book §11.4 (GNOME AisleRiot 'Yield'): the inverted pyramid, one pass; "
        "the top and the bottom waste cards are free, the top may pair with the one under it",
    ),
    Rules(
        "S", "Six rows", tableau=pyramid(6), family=True,
        source="Rule book §11.5: a 21-card pyramid, one waste card, a 30-card stock; "
        "otherwise the default rules",
    ),
    Rules(
        "E", "Spanish deck", deck=48, target=12, family=True,
        source="Rule book §11.6: the 48-card Spanish deck (no tens; J = 10, Q = 11, K = 12) "
        "pairing to 12, kings alone; otherwise the default rules",
    ),
    Rules(
        "B", "Reserve row", family=True,
        tableau=join(CLASSIC_TABLEAU, row(7, zone="reserve", x=0.0, y=_BELOW_PYRAMID)),
        source="Rule book §11.7: a row of 7 single reserve cards under the pyramid, free "
        "until removed, never refilled; one waste card, a 16-card stock; otherwise N",
    ),
    Rules(
        "L", "Free cell", cells=1, family=True,
        source="Rule book §11.8: the default rules with one cell for a free pyramid card "
        "or the waste top",
    ),
    Rules(
        "D", "Par Pyramid", win="all", redeals=2, waste_pairs="hand", start_waste=0,
        scoring="par", family=True,
        source="Rule book §11.9 (Keller & Masten; Morehead & Mott-Smith): 24-card stock, "
        "the drawn card and the waste top both free and may pair, three deals",
    ),
)

_PYSOLFC = "PySolFC pysollib/games/pyramid.py and its rules page"

FAMILY += (
    Rules(
        "H", "Pyramid Thirteen", win="all", tableau=pyramid(7, hidden_rows=6), redeals=0,
        open_stock=True, family=True,
        source=f"PySolFC 'Pyramid Thirteen' ({_PYSOLFC}): rows 1-6 dealt face down, each "
        "turned up once uncovered; one pass; one card on the waste, the stock's top open",
    ),
    Rules(
        "F", "Pharaohs", win="all", waste_piles=0, start_waste=0, redeals=0, family=True,
        tableau=join(pyramid(2, x=0.0), pyramid(7, zone="pyramid2", x=2.6),
                     pyramid(6, zone="pyramid3", x=3.15, y=_BELOW_PYRAMID)),
        source=f"PySolFC 'Pharaohs' ({_PYSOLFC}): pyramids of 2, 7 and 6 rows (3 + 28 + 21 "
        "cards), no stock; pairs to 13 and kings alone (the pairs its code accepts)",
    ),
    Rules(
        "K", "Cheops", win="all", pairing="rank", singles=(), redeals=0, open_stock=True,
        family=True,
        source=f"PySolFC 'Cheops' ({_PYSOLFC}): pairs of equal rank or ranks one apart "
        "(no king-ace wrap), no card alone; one pass; the stock's top open",
    ),
    Rules(
        "Z", "Pyramid Dozen", win="all", target=12, singles=(), extra_pairs=((12, 13),),
        tableau=join(pyramid(7, x=0.55), piles(6, 4, x=1.1, y=_BELOW_PYRAMID)),
        waste_piles=0, start_waste=0, redeals=0, family=True,
        source=f"PySolFC 'Pyramid Dozen' ({_PYSOLFC}): the Giza layout with 6 reserve piles "
        "of 4; pairs to 12 and queen + king, no card alone",
    ),
    Rules(
        "I", "Eleven Triangle", win="all", tableau=inverted(7), target=11, singles=(),
        extra_pairs=((11, 11), (12, 12), (13, 13)), waste_piles=3, start_waste=1, redeals=0,
        family=True,
        source=f"PySolFC 'Eleven Triangle' ({_PYSOLFC}): the inverted pyramid, Apophis's three "
        "waste piles, one pass; pairs to 11 and J + J, Q + Q, K + K, no card alone",
    ),
    Rules(
        "W", "Double Pyramid", win="all", deck=104, tableau=pyramid(9), redeals=2,
        open_stock=True, family=True,
        source=f"PySolFC 'Double Pyramid' ({_PYSOLFC}): two decks, a 9-row pyramid of 45; "
        "three passes; one card on the waste, the stock's top open",
    ),
    Rules(
        "X", "Two Pyramids", win="all", deck=104, redeals=2, open_stock=True, family=True,
        tableau=join(pyramid(7), pyramid(7, zone="pyramid2", x=8.0)),
        source=f"PySolFC 'Two Pyramids' ({_PYSOLFC}): two decks, two 7-row pyramids side by "
        "side; three passes; one card on the waste, the stock's top open",
    ),
    Rules(
        "U", "Up and Down", win="all", deck=104, redeals=2, open_stock=True, family=True,
        tableau=join(pyramid(7), inverted(7, zone="pyramid2", x=8.15)),
        source=f"PySolFC 'Up and Down' ({_PYSOLFC}): two decks, a pyramid and an inverted "
        "pyramid beside it; three passes; one card on the waste, the stock's top open",
    ),
)

PRESETS: dict[str, Rules] = {r.letter: r for r in (*_RULE_SETS, *FAMILY)}
