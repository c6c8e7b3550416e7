"""``pyramide solve`` and ``pyramide winrate``."""

from __future__ import annotations

import json
import re

import pytest

from pyramide import Deal, Game
from pyramide.cli import main
from pyramide.winrates import wilson


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json_replays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "PY1-N-AAAAAAB", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"winnable", "max_removed", "moves", "shortest", "states", "timed_out"}
    assert data["timed_out"] is False and data["states"] > 0
    assert data["winnable"] is True and data["max_removed"] == 28 and data["shortest"] is True
    game = Game(Deal.from_number(1))
    for move in data["moves"]:
        game.play(move)
    assert game.status == "won"
    assert "draw" in data["moves"] and "recycle" in data["moves"]


def test_solve_prints_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "PY1-N-AAAAAAB")
    assert code == 0
    assert "winnable: yes" in out and "max_removed: 28 of 28" in out
    assert "moves: 64 (proven shortest)" in out
    assert "1.  K♣" in out
    assert re.search(r"\d+-\d+\.  draw x\d+", out)  # runs of draws are folded


def test_solve_a_layout_under_other_rules(capsys: pytest.CaptureFixture[str]) -> None:
    layout = Deal.from_number(9).layout_text()
    code, out, _ = run(capsys, "solve", "--layout", layout, "--rules", "R", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["shortest"] is False and isinstance(data["max_removed"], int)
    code, out, _ = run(capsys, "solve", "--layout", layout, "--any-line")
    assert "explicit layout" in out and "winnable: no" in out


def test_solve_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", "PY1-N-AAA")
    assert code == 2 and "deal code" in err
    code, _, err = run(capsys, "solve", "--layout", "AS KD")
    assert code == 2 and "52" in err
    code, _, err = run(capsys, "solve", "PY1-N-AAAAAAB", "--nodes", "-1")
    assert code == 2 and "budget" in err
    for bad in ("0", "-4", "nan", "2.5", "many"):
        code, out, err = run(capsys, "solve", "PY1-N-AAAAAAB", "--states", bad)
        assert code == 2 and out == "" and f"state budget {bad!r} is not a whole number" in err
    for bad in ("nan", "-1", "inf"):
        code, _, err = run(capsys, "solve", "PY1-N-AAAAAAB", "--seconds", bad)
        assert code == 2 and "time guard" in err
    code, _, err = run(capsys, "solve", "PY1-N-AAAAAAB", "--states", "9", "--nodes", "9")
    assert code == 2 and "once" in err


def test_solve_states_budget_gives_the_same_answer(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("solve", "PY1-N-AAAABLC", "--states", "20000", "--json")  # deal 964: not proven
    first = run(capsys, *argv)
    assert first == run(capsys, *argv)
    data = json.loads(first[1])
    assert data["states"] == 20000 and data["shortest"] is False and data["timed_out"] is False
    code, out, _ = run(capsys, "solve", "PY1-N-AAAABLC", "--states", "20000")
    assert code == 0 and "states searched: 20,000\n" in out


def test_winrate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "winrate", "--rules", "N", "--deals", "60", "--jobs", "1",
                       "--json", "--quiet")
    assert code == 0
    data = json.loads(out)
    assert data["deals"] == 60 and data["unknown"] == 0
    assert data["won"] + data["lost"] == 60
    assert sum(data["lost_max_removed"].values()) == data["lost"]
    low, high = data["ci95"]
    assert low < data["win_rate"] < high


def test_winrate_in_parallel_counts_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = run(capsys, "winrate", "--deals", "300", "--start", "1000", "--jobs", "1",
                    "--json", "--quiet")
    _, two, _ = run(capsys, "winrate", "--deals", "300", "--start", "1000", "--jobs", "2",
                    "--json", "--quiet")
    a, b = json.loads(one), json.loads(two)
    assert (a["won"], a["lost_max_removed"]) == (b["won"], b["lost_max_removed"])


def test_winrate_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "winrate", "--rules", "C", "--deals", "20", "--jobs", "1",
                       "--quiet")
    assert code == 0 and "95% CI" in out and "deals/s" in out
    code, _, err = run(capsys, "winrate", "--deals", "0")
    assert code == 2 and "--deals" in err
    code, _, err = run(capsys, "winrate", "--rules", "Q", "--deals", "5")
    assert code == 2 and "unknown rule set" in err


def test_wilson_interval() -> None:
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35
    low, high = wilson(6687, 10_000)
    assert low < 0.6687 < high and high - low < 0.02
