"""Measured win rates of every game: one table (``data/winrates.json``), read by
the New game dialog (through ``/api/rules``) and quoted in ``docs/solver.md``.

Each entry: the deals solved (numbers 0 … deals − 1), those proven won, those
the search could not decide within its budget, the command that measured it;
the 95% Wilson interval is computed here.  ``benchmarks/winrate_table.py``
writes the file from ``pyramide winrate --json`` runs.

>>> rate = win_rate("N")
>>> rate is not None and rate["deals"] >= 1_000_000 and 66 < rate["percent"] < 68
True
>>> double = win_rate("W")  # most deals undecided: the interval only
>>> double is not None and double["percent"] is None and double["low"] < double["high"]
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from math import sqrt
from typing import Any

__all__ = ["MAX_UNDECIDED", "Z95", "all_win_rates", "wilson", "win_rate"]

Z95 = 1.959963984540054
MAX_UNDECIDED = 0.1
"""The largest share of undecided deals for which a percentage is quoted."""


def wilson(won: int, total: int) -> tuple[float, float]:
    """The 95% Wilson score interval of ``won`` out of ``total`` (as fractions).

    >>> low, high = wilson(6687, 10000)
    >>> round(low, 4), round(high, 4)
    (0.6594, 0.6779)
    >>> wilson(0, 10)[0]
    0.0
    """
    if total <= 0:
        return 0.0, 1.0
    p = won / total
    centre = p + Z95 * Z95 / (2 * total)
    spread = Z95 * sqrt(p * (1 - p) / total + Z95 * Z95 / (4 * total * total))
    scale = 1 + Z95 * Z95 / total
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@cache
def all_win_rates() -> dict[str, dict[str, Any]]:
    """Every measured game: its figures, with the interval over all deals (an
    undecided deal counted as lost for the low end, as won for the high end) and
    the percentage of decided deals won — given only when at most
    :data:`MAX_UNDECIDED` of the deals stayed undecided, and not where none of the
    decided deals is a loss while some are undecided (Cheops, whose losses the
    search never proves: its "100% of decided" would claim the undecided deals
    as wins).  Where the search left more open, the decided ones are mostly the
    easy wins, and only the interval says what is known."""
    text = resources.files("pyramide").joinpath("data/winrates.json").read_text("utf-8")
    out: dict[str, dict[str, Any]] = {}
    for letter, entry in json.loads(text).items():
        deals, won, unknown = entry["deals"], entry["won"], entry.get("unknown", 0)
        decided = deals - unknown
        quoted = (decided > 0 and unknown <= MAX_UNDECIDED * deals
                  and (entry["lost"] > 0 or unknown == 0))
        low, _ = wilson(won, deals)
        _, high = wilson(won + unknown, deals)
        out[letter] = {
            **entry,
            "percent": round(100 * won / decided, 2) if quoted else None,
            "low": round(100 * low, 2),
            "high": round(100 * high, 2),
        }
    return out


def win_rate(letter: str) -> dict[str, Any] | None:
    """The measured win rate of the game ``letter`` (``None`` if not measured)."""
    return all_win_rates().get(letter)
