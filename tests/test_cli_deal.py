"""``pyramide deal``: the deal as a pyramid or as JSON; errors on stderr with status 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pyramide import PRESETS, Deal, DealCode
from pyramide.cli import main
from tests.reference import REFERENCE_ROWS, reference_layout

CARD_CODE = re.compile(r"(A|[2-9]|10|J|Q|K)[CDHS]")



def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["deal", *args])
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    status, out, err = run(capsys, *args, "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def check_shape(data: dict[str, Any]) -> Deal:
    assert list(data) == ["code", "rules", "deck", "target", "pyramid", "tableau", "stock",
                          "waste"]
    assert [t["card"] for t in data["tableau"]] == [c for row in data["pyramid"] for c in row]
    assert [len(row) for row in data["pyramid"]] == [1, 2, 3, 4, 5, 6, 7]
    assert len(data["waste"]) == 1
    assert len(data["stock"]) == 23
    cards = [*(c for row in data["pyramid"] for c in row), *data["waste"], *data["stock"]]
    assert all(isinstance(c, str) and CARD_CODE.fullmatch(c) for c in cards), cards
    assert len(set(cards)) == 52
    return Deal.parse_layout(cards)


# ------------------------------------------------------------------ output


@pytest.mark.parametrize("letter", sorted(PRESETS))
def test_every_game_deals_its_whole_deck_once(
        capsys: pytest.CaptureFixture[str], letter: str) -> None:
    rules = PRESETS[letter]
    data = run_json(capsys, f"PY1-{letter}-AAAAAAB")
    assert (data["deck"], data["target"]) == (rules.deck, rules.target)
    assert [t["slot"] for t in data["tableau"]] == list(range(len(rules.tableau)))
    assert {t["zone"] for t in data["tableau"]} == set(rules.tableau.zones)
    wastes = data.get("wastes", [data.get("waste", [])])
    cards = [t["card"] for t in data["tableau"]] + [c for w in wastes for c in w] + data["stock"]
    assert len(cards) == len(set(cards)) == rules.deck
    # the card-list order of docs/deal-codes.md: tableau, waste piles, stock
    assert Deal.parse_layout(cards, rules.deck) == Deal.from_number(1, rules.deck).__class__(
        Deal.from_number(1, rules.deck).cards)
    for t in data["tableau"]:
        assert all(c > t["slot"] for c in t["covered_by"]), "a card is covered by later cards"
    status, out, _ = run(capsys, f"PY1-{letter}-AAAAAAB")
    assert status == 0 and rules.name in out


def test_deal_code_as_a_pyramid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "PY1-N-AAAAAAS")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("PY1-N-AAAAAAS")
    assert "Pyramide" in lines[0]
    deal = Deal.from_number(18)
    rows = [" ".join(map(str, row)) for row in deal.rows]
    body = [" ".join(line.split()) for line in lines[1:] if line.strip()]
    assert body[0] == "pyramid:"
    assert body[1:8] == rows
    assert f"waste: {deal.waste}" in out
    assert "stock (23, top first):" in out
    assert out.split("top first):")[1].split()[0] == str(deal.stock[0])


def test_deal_code_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "PY1-N-AAAAAAS")
    assert data["code"] == "PY1-N-AAAAAAS"
    assert data["rules"] == "N"
    deal = check_shape(data)
    assert deal.cards == Deal.from_number(18).cards
    assert data["pyramid"][0] == ["AD"]
    assert data["waste"] == ["10C"]


def test_code_is_normalised_and_names_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "  py1-t-aaaaaaj ")
    assert data["code"] == "PY1-T-AAAAAAJ"
    assert data["rules"] == "T"
    assert check_shape(data).cards == Deal.from_number(9).cards
    # P starts with all 24 cards in the stock: the same cards, none on the waste
    data = run_json(capsys, "PY1-P-AAAAAAJ")
    assert data["waste"] == [] and len(data["stock"]) == 24


def test_explicit_layout(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--layout", reference_layout())
    assert data["code"] is None
    assert data["rules"] == "N"
    deal = check_shape(data)
    assert [" ".join(map(str, row)) for row in deal.rows] == REFERENCE_ROWS
    assert data["waste"] == ["7D"]
    assert "10C" in data["pyramid"][6] and "10D" in data["pyramid"][5]

    data = run_json(capsys, "--layout", reference_layout().lower(), "--rules", "c")
    assert data["rules"] == "C"
    status, out, _ = run(capsys, "--layout", reference_layout())
    assert status == 0
    assert out.startswith("explicit layout")
    assert [" ".join(line.split()) for line in out.splitlines()[3:10]] == REFERENCE_ROWS


def test_random_deal(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--random")
    code = DealCode.parse(data["code"])
    assert code.rules_letter == data["rules"] == "N"
    assert check_shape(data).cards == Deal.from_number(code.number).cards
    other = run_json(capsys, "--random", "--rules", "t")
    assert other["code"].startswith("PY1-T-")
    assert other["rules"] == "T"
    assert other["code"][6:] != data["code"][6:]  # two draws in 26**7


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["PY1-Q-AAAAAAS"], "'PY1-Q-AAAAAAS'"),
        (["PY9-N-AAAAAAS"], "'PY9-N-AAAAAAS'"),
        (["PY1-N-AAA"], "'PY1-N-AAA'"),
        (["hello"], "'hello'"),
        (["--layout", "AS KS"], "has 2 cards, expected 52"),
        (["--layout", "AS AS"], "duplicate card(s) A♠"),
        (["--layout", "AS XX"], "'XX'"),
        ([], "name exactly one deal"),
        (["PY1-N-AAAAAAS", "--random"], "name exactly one deal"),
        (["PY1-N-AAAAAAS", "--layout", "AS"], "name exactly one deal"),
        (["PY1-N-AAAAAAS", "--rules", "P"], "contradicts the code"),
        (["--random", "--rules", "Q"], "unknown rule set 'Q'"),
    ],
)
def test_errors_go_to_stderr_with_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    for extra in ([], ["--json"]):
        status, out, err = run(capsys, *args, *extra)
        assert status == 2
        assert out == ""
        assert err.startswith("pyramide: error: ")
        assert words in err
        assert "Traceback" not in err
        assert err.count("\n") == 1


# ------------------------------------------------------- the real executable


def pyramide_command() -> list[str]:
    script = Path(sys.executable).with_name("pyramide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pyramide.cli"]


def test_installed_command(tmp_path: Path) -> None:
    ok = subprocess.run(
        [*pyramide_command(), "deal", "PY1-N-AAAAAAS", "--json"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["code"] == "PY1-N-AAAAAAS"

    bad = subprocess.run(
        [*pyramide_command(), "deal", "PY1-N-AAAAAA!"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "pyramide: error:" in bad.stderr
    assert "'PY1-N-AAAAAA!'" in bad.stderr
    assert "Traceback" not in bad.stderr

    usage = subprocess.run(
        [*pyramide_command(), "deal", "--no-such-option"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False,
    )
    assert usage.returncode == 2
    assert "Traceback" not in usage.stderr
    assert "unrecognized arguments" in usage.stderr
