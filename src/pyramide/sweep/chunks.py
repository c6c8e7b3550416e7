"""Chunks of deals, the one function that decides them, and the counts over them.

A chunk's result is its *verdicts*: one character per deal, in deal order.

- ``+``: won (the deal can be won);
- ``?``: unknown (the search budget ran out first);
- ``-``: lost, the most tableau cards that can go not sought (a win-only sweep:
  the verdict is all a win rate needs, and the search stops at the proof);
- ``0`` .. ``9``, ``a`` .. ``z``, ``A`` .. ``Z``: lost, and the most tableau cards
  that can go (``max_removed`` 0..61, one digit of base 62: ``s`` is 28, ``T``
  is 55; a whole tableau can be cleared and the deal lost where the whole deck
  must go).  Every game's tableau fits (the largest has 56 cards).

The verdicts are what a worker sends back and what the results file keeps: a
few bytes per deal, and enough to compare two sweeps deal by deal.

>>> plan_chunks(1010, 600, 250)
[Chunk(first=1010, count=240), Chunk(first=1250, count=250), Chunk(first=1500, count=110)]
>>> tally = Tally.of(Chunk(40, 5), "+?3+-")
>>> tally.won, tally.unknown, tally.lost_max, tally.unknown_numbers
(2, 1, Counter({3: 1}), [41])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pyramide.deals import Deal
from pyramide.game import Position
from pyramide.rules import rules_for
from pyramide.solver import Budget, Solution, decide

WON = "+"
UNKNOWN = "?"
LOST = "-"
"""A lost deal of a win-only sweep (its ``max_removed`` not sought)."""
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The lost deals' ``max_removed``, one character each."""
VALUE = {digit: value for value, digit in enumerate(DIGITS)}
EXAMPLES = 20
"""How many unknown deal numbers a tally keeps (the smallest ones)."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Deals ``first .. first + count - 1``."""

    first: int
    count: int

    @property
    def last(self) -> int:
        return self.first + self.count - 1


def plan_chunks(start: int, deals: int, size: int) -> list[Chunk]:
    """Deals ``start .. start + deals - 1`` cut at the multiples of ``size``.

    The cuts do not depend on ``start``, so sweeps over overlapping ranges share
    their inner chunks (and a results file serves both).
    """
    chunks = []
    first, end = start, start + deals
    while first < end:
        cut = min(end, (first // size + 1) * size)
        chunks.append(Chunk(first, cut - first))
        first = cut
    return chunks


def verdict_of(result: Solution, *, win_only: bool = False) -> str:
    """The one-character verdict of one decided deal."""
    if result.winnable is None:
        return UNKNOWN
    if result.winnable:
        return WON
    if win_only:
        return LOST
    if not 0 <= result.max_removed < len(DIGITS):
        raise ValueError(f"max_removed {result.max_removed} has no verdict digit "
                         f"(0..{len(DIGITS) - 1})")
    return DIGITS[result.max_removed]


def decide_chunk(letter: str, first: int, count: int, budget: Budget,
                 win_only: bool = False) -> str:
    """The verdicts of deals ``first .. first + count - 1`` under rule set ``letter``
    (with ``win_only``, a lost deal's most cards removable is not sought).

    The core of every sweep: it runs in this process, in a local worker process
    or on a Dask worker, always the same code.
    """
    rules = rules_for(letter)
    return "".join(
        verdict_of(decide(Position.initial(Deal.from_number(number, rules.deck), rules), rules,
                          budget=budget, win_only=win_only), win_only=win_only)
        for number in range(first, first + count)
    )


def check_verdicts(chunk: Chunk, verdicts: str) -> None:
    """Raise ``ValueError`` unless ``verdicts`` are well-formed verdicts of ``chunk``."""
    if len(verdicts) != chunk.count:
        raise ValueError(f"{len(verdicts)} verdicts for the {chunk.count} deals "
                         f"{chunk.first}..{chunk.last}")
    wrong = set(verdicts) - set(WON + UNKNOWN + LOST + DIGITS)
    if wrong:
        raise ValueError(f"unknown verdicts {''.join(sorted(wrong))!r} for deals "
                         f"{chunk.first}..{chunk.last}")


@dataclass
class Tally:
    """Counts over decided deals."""

    deals: int = 0
    won: int = 0
    unknown: int = 0
    lost_max: Counter[int] = field(default_factory=Counter)
    unknown_numbers: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, chunk: Chunk, verdicts: str) -> Tally:
        counts = Counter(verdicts)
        won, unknown = counts.pop(WON, 0), counts.pop(UNKNOWN, 0)
        counts.pop(LOST, 0)  # (lost: counted as decided and not won)
        return cls(
            deals=len(verdicts), won=won, unknown=unknown,
            lost_max=Counter({VALUE[digit]: n for digit, n in counts.items()}),
            unknown_numbers=[chunk.first + i for i, v in enumerate(verdicts)
                             if v == UNKNOWN][:EXAMPLES],
        )

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.won += other.won
        self.unknown += other.unknown
        self.lost_max.update(other.lost_max)
        self.unknown_numbers = sorted(self.unknown_numbers + other.unknown_numbers)[:EXAMPLES]

    @property
    def decided(self) -> int:
        return self.deals - self.unknown

    def rate_text(self) -> str:
        return f"{100 * self.won / max(1, self.decided):.2f}% won"
