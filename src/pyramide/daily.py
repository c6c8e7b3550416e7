"""The daily deal and the difficulty grades (docs/deal-codes.md, "The daily deal").

One deal per calendar day, the same for every player: the day's ordinal
(``date.toordinal()``) seeds SplitMix64, whose first output modulo the number
of deal codes is the starting number; the daily deal is the first number at or
after it whose deal the solver proves winnable under rule set N.

A winnable deal is graded easy, medium or hard from two solver measures (no
rule lives here: the engine lists the moves, the solver decides them):

- ``shortest``: the fewest moves of a winning line (draws and recycles count);
- ``safe_ratio``: the share of the first moves that keep the game winnable.

The grade's points are ``shortest + PENALTY * (1 - safe_ratio)``; the
thresholds :data:`EASY_BELOW` and :data:`HARD_FROM` were calibrated on deals
0-299 under rule set N (``benchmarks/daily_grades.py``) so that the grades
split the winnable deals roughly in thirds.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Literal

from pyramide.deals import MAX_DEAL_NUMBER, DealCode, SplitMix64
from pyramide.errors import PyramideError
from pyramide.game import Game
from pyramide.i18n import Phrase
from pyramide.moves import Move
from pyramide.rules import rules_for
from pyramide.solver import Budget, decide, solve

__all__ = [
    "DAILY_RULES", "DIFFICULTIES", "GRADED_RULES", "Daily", "Difficulty", "Grade", "daily",
    "daily_number", "daily_seed", "grade", "graded_random_code",
]

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")

DAILY_RULES = "N"
"""The rule set of the daily deal (its code carries it)."""
GRADED_RULES = ("N",)
"""Rule sets whose deals are graded: the thresholds were calibrated under N, and
the shortest-line search proves N's lines in a fraction of a second."""

PENALTY = 20
"""Points a deal gets when no first move keeps it winnable but one (scaled by the share)."""
EASY_BELOW = 56
HARD_FROM = 63
"""Grade thresholds on the points (calibrated, see the module docstring)."""

GRADE_BUDGET = Budget(nodes=2_000_000, seconds=None)
"""What the shortest-line search may spend on the daily deal: states, not seconds,
so that the grade does not depend on the machine (the winnable deals among 0-119
under N need at most 313,000 states, the median deal 8,900)."""
RANDOM_GRADE_BUDGET = Budget(nodes=100_000, seconds=1.0)
"""What it may spend on one random deal of a chosen grade (a deal not proven
within it is skipped)."""
DECIDE_BUDGET = Budget(nodes=50_000, seconds=0.5)
RANDOM_SECONDS = 15.0
"""How long a random deal of a chosen grade may be looked for."""


@dataclass(frozen=True, slots=True)
class Grade:
    """The solver's measures of one winnable deal and the grade they give."""

    shortest: int
    proven: bool
    first_moves: int
    safe_first_moves: int

    @property
    def safe_ratio(self) -> float:
        return self.safe_first_moves / self.first_moves if self.first_moves else 0.0

    @property
    def points(self) -> float:
        return self.shortest + PENALTY * (1 - self.safe_ratio)

    @property
    def difficulty(self) -> Difficulty:
        if self.points < EASY_BELOW:
            return "easy"
        return "medium" if self.points < HARD_FROM else "hard"


@dataclass(frozen=True, slots=True)
class Daily:
    """The deal of one day."""

    date: date
    code: str
    grade: Grade

    def as_dict(self) -> dict[str, object]:
        return {
            "date": self.date.isoformat(), "code": self.code, "rules": DAILY_RULES,
            "number": DealCode.parse(self.code).number, "difficulty": self.grade.difficulty,
            "shortest": self.grade.shortest, "first_moves": self.grade.first_moves,
            "safe_first_moves": self.grade.safe_first_moves,
        }


def daily_seed(day: date) -> int:
    """Where the search for ``day``'s deal starts: SplitMix64 of the ordinal date."""
    return int(SplitMix64(day.toordinal()).next() % (MAX_DEAL_NUMBER + 1))


def daily_number(day: date) -> int:
    """The first deal number at or after the day's seed that is winnable under N."""
    number = daily_seed(day)
    while not _winnable(DealCode(DAILY_RULES, number)):
        number = (number + 1) % (MAX_DEAL_NUMBER + 1)
    return number


@lru_cache(maxsize=32)
def daily(day: date) -> Daily:
    """The daily deal of ``day`` with its grade."""
    code = DealCode(DAILY_RULES, daily_number(day))
    return Daily(day, str(code), grade(Game.from_code(code)))


def grade(game: Game, budget: Budget = GRADE_BUDGET) -> Grade:
    """The measures of the deal of ``game`` (from its first position); raises
    :class:`PyramideError` when the solver does not find it winnable."""
    game = Game(game.deal, game.rules)
    line = solve(game, budget=budget, shortest=True)
    if line.winnable is not True:
        raise PyramideError("err.daily.unwinnable")
    moves = game.legal_moves()
    safe = sum(_winnable_after(game, move) for move in moves)
    return Grade(len(line.moves), line.shortest, len(moves), safe)


def graded_random_code(letter: str, difficulty: Difficulty | None) -> DealCode:
    """A random deal under rule set ``letter`` proven winnable and, given a
    ``difficulty``, of that grade (looked for during :data:`RANDOM_SECONDS`)."""
    rules = rules_for(letter)
    if difficulty is not None and rules.letter not in GRADED_RULES:
        graded = ", ".join(GRADED_RULES)
        raise PyramideError("err.daily.ungraded", graded=graded, letter=rules.letter)
    seconds = RANDOM_SECONDS
    deadline = time.monotonic() + seconds
    while True:
        code = DealCode(rules.letter, secrets.randbelow(MAX_DEAL_NUMBER + 1))
        game = Game.from_code(code)
        if solve(game, budget=DECIDE_BUDGET).winnable is True and (
                difficulty is None or _graded(game, difficulty)):
            return code
        if time.monotonic() > deadline:
            if difficulty:
                raise PyramideError("err.daily.none_graded", letter=rules.letter,
                                    seconds=f"{seconds:g}",
                                    grade=Phrase(f"diff_{difficulty}"))
            raise PyramideError("err.web.no_winnable", letter=rules.letter,
                                seconds=f"{seconds:g}")


def _graded(game: Game, difficulty: Difficulty) -> bool:
    measured = grade(game, RANDOM_GRADE_BUDGET)
    return measured.proven and measured.difficulty == difficulty


def _winnable(code: DealCode) -> bool:
    game = Game.from_code(code)
    return decide(game.position, game.rules, budget=DECIDE_BUDGET).winnable is True


def _winnable_after(game: Game, move: Move) -> bool:
    trial = Game(game.deal, game.rules)
    trial.play(move)
    return decide(trial.position, trial.rules, budget=DECIDE_BUDGET).winnable is True


def today() -> date:
    """The calendar day of the machine (the player's day)."""
    return date.today()
