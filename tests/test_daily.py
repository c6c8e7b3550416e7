"""The daily deal: one winnable deal per day, graded by the solver; ``pyramide deal --daily``."""

from __future__ import annotations

import json
from datetime import date

import pytest

from pyramide.cli import main
from pyramide.daily import (
    DAILY_RULES,
    EASY_BELOW,
    HARD_FROM,
    PENALTY,
    Grade,
    daily,
    daily_number,
    daily_seed,
    grade,
)
from pyramide.deals import DealCode
from pyramide.errors import PyramideError
from pyramide.game import Game
from pyramide.solver import decide

DAY = date(2026, 12, 1)


def test_the_date_maps_to_a_fixed_winnable_deal() -> None:
    # pinned: the mapping is a contract (docs/deal-codes.md), the same on every machine
    assert daily_seed(DAY) == DealCode.parse("PY1-N-MWSQUVH").number
    assert daily(DAY).code == "PY1-N-MWSQUVH"
    for day in (date(2026, 12, 2), date(2027, 1, 1)):
        number = daily_number(day)
        assert number >= daily_seed(day) and number != daily_number(DAY)
        game = Game.from_code(DealCode(DAILY_RULES, number))
        assert decide(game.position, game.rules).winnable is True


def test_an_unwinnable_seed_moves_on_to_the_next_winnable_number() -> None:
    for ordinal in range(DAY.toordinal(), DAY.toordinal() + 40):
        day = date.fromordinal(ordinal)
        if daily_number(day) != daily_seed(day):
            break
    else:
        pytest.fail("forty days in a row started on a winnable deal")
    for number in range(daily_seed(day), daily_number(day)):
        game = Game.from_code(DealCode(DAILY_RULES, number))
        assert decide(game.position, game.rules).winnable is False


def test_grade_measures_the_solvers_line() -> None:
    measured = daily(DAY).grade
    assert (measured.shortest, measured.proven) == (63, True)
    assert 0 < measured.safe_first_moves <= measured.first_moves
    assert measured.difficulty == "hard"
    game = Game.from_code("PY1-N-MWSQUVH")
    game.tap_stock()
    assert grade(game) == measured  # the deal's grade, whatever was played since
    lost = Game.from_code("PY1-N-AAAAAAA")
    assert decide(lost.position, lost.rules).winnable is False
    with pytest.raises(PyramideError, match="only a winnable deal"):
        grade(lost)


def test_grade_thresholds() -> None:
    assert Grade(EASY_BELOW - 1, True, 4, 4).difficulty == "easy"
    assert Grade(EASY_BELOW, True, 4, 4).difficulty == "medium"
    assert Grade(HARD_FROM - 1, True, 4, 4).difficulty == "medium"
    assert Grade(HARD_FROM, True, 4, 4).difficulty == "hard"
    # a deal where most first moves lose is harder than its line's length says
    trap = Grade(EASY_BELOW - 1, True, 4, 1)
    assert trap.points == EASY_BELOW - 1 + PENALTY * 0.75 and trap.difficulty == "hard"


def test_cli_prints_the_daily_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--daily", "--date", "2026-12-01", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["code"] == "PY1-N-MWSQUVH" and data["pyramid"][0] == ["7C"]
    assert data["daily"] == {
        "date": "2026-12-01", "code": "PY1-N-MWSQUVH", "rules": "N",
        "number": DealCode.parse("PY1-N-MWSQUVH").number, "difficulty": "hard",
        "shortest": 63, "first_moves": 5, "safe_first_moves": 5}
    assert main(["deal", "--daily", "--date", "2026-12-01"]) == 0
    out = capsys.readouterr().out
    assert "Daily deal of 2026-12-01: PY1-N-MWSQUVH, hard" in out and "7♣" in out


@pytest.mark.parametrize(("args", "needle"), [
    (["--date", "2026-12-01"], "--date goes with --daily"),
    (["--daily", "PY1-N-AAAAAAS"], "--daily names the deal"),
    (["--daily", "--rules", "O"], "--daily names the deal"),
])
def test_cli_daily_mistakes(capsys: pytest.CaptureFixture[str], args: list[str],
                            needle: str) -> None:
    assert main(["deal", *args]) == 2
    assert needle in capsys.readouterr().err


def test_cli_refuses_a_bad_date(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["deal", "--daily", "--date", "2026-13-01"])
    assert exit_.value.code == 2
    assert "'2026-13-01' is not a date: expected YYYY-MM-DD" in capsys.readouterr().err
