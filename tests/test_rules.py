"""Rule sets: the options of rule book §10 and the named presets."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pyramide import DEFAULT_RULES, PRESETS, InvalidDealCodeError, Rules, rules_for

# letter: (win, redeals, waste_pairs, open_stock, covering_pairs, draw_count)
EXPECTED = {
    "N": ("pyramid", None, "none", False, False, 1),
    "C": ("pyramid", None, "none", False, True, 1),
    "P": ("all", 2, "none", True, False, 1),
    "R": ("pyramid", 2, "none", True, False, 1),
    "M": ("pyramid", 2, "none", True, False, 1),
    "T": ("pyramid", None, "none", False, False, 3),
    "O": ("all", 0, "drawn", False, False, 1),
    "N1": ("pyramid", 0, "hand", False, False, 1),
    "C1": ("pyramid", 0, "hand", False, True, 1),
    "N1W": ("all", 0, "hand", False, False, 1),
    "C1W": ("all", 0, "hand", False, True, 1),
}
FAMILY = ["G", "A", "V", "Y", "S", "E", "B", "L", "D", "H", "F", "K", "Z", "I", "W", "X", "U"]


def options(rules: Rules) -> tuple[object, ...]:
    return (
        rules.win, rules.redeals, rules.waste_pairs, rules.open_stock,
        rules.covering_pairs, rules.draw_count,
    )


def test_the_presets_are_exactly_these() -> None:
    assert sorted(PRESETS) == sorted([*EXPECTED, *FAMILY])
    assert [r.letter for r in PRESETS.values() if r.family] == FAMILY


@pytest.mark.parametrize("letter", sorted(EXPECTED))
def test_preset_options(letter: str) -> None:
    rules = PRESETS[letter]
    assert rules.letter == letter
    assert options(rules) == EXPECTED[letter]
    assert rules.name
    assert rules.source, "every preset documents where it comes from"
    assert rules_for(letter) is rules
    assert rules_for(letter.lower()) is rules
    assert rules.unlimited_redeals is (rules.redeals is None)


def test_default_rules_are_the_rule_book() -> None:
    assert DEFAULT_RULES is PRESETS["N"]
    assert options(DEFAULT_RULES) == ("pyramid", None, "none", False, False, 1)


def test_presets_differ_in_options_except_the_two_named_alike() -> None:
    by_options: dict[tuple[object, ...], list[str]] = {}
    for letter, rules in PRESETS.items():
        every = tuple(getattr(rules, f.name) for f in dataclasses.fields(rules)
                      if f.name not in ("letter", "name", "source", "published", "family"))
        by_options.setdefault(every, []).append(letter)
    # R (PySolFC Relaxed Pyramid) and M (Microsoft) share their options on purpose; N1W
    # (the published all-cards one-pass figure, the drawn card in hand) and O (the
    # strict game of §10's waste pairs) differ in when two waste cards pair
    assert sorted(sorted(v) for v in by_options.values() if len(v) > 1) == [["M", "R"]]


@pytest.mark.parametrize("letter", ["Q", "", "NN", "n ", "1", "N1X"])
def test_unknown_letters_are_refused(letter: str) -> None:
    with pytest.raises(InvalidDealCodeError) as info:
        rules_for(letter)
    assert repr(letter) in str(info.value)
    assert "A, B, C, C1, C1W, D, E" in str(info.value)


def test_non_text_letter_is_refused() -> None:
    with pytest.raises(InvalidDealCodeError):
        rules_for(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"letter": "n"}, "capital"),
        ({"letter": "NNNN"}, "capital"),
        ({"letter": "1N"}, "capital"),
        ({"letter": "Ж"}, "capital"),
        ({"redeals": -1}, "redeal"),
        ({"draw_count": 2}, "draw count"),
        ({"draw_count": 0}, "draw count"),
    ],
)
def test_rules_are_validated(kwargs: dict[str, Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        dataclasses.replace(DEFAULT_RULES, **kwargs)


def test_rules_are_frozen_and_a_custom_set_can_be_made() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_RULES.redeals = 3  # type: ignore[misc]
    waste = dataclasses.replace(DEFAULT_RULES, letter="Q", name="waste pairs", waste_pairs="drawn")
    assert waste.waste_pairs == "drawn" and DEFAULT_RULES.waste_pairs == "none"
    assert "Q" not in PRESETS


def test_describe_names_every_option() -> None:
    assert DEFAULT_RULES.describe() == "win: pyramid only, unlimited redeals, draw 1"
    assert PRESETS["P"].describe() == "win: whole deck, 2 redeals, draw 1, open stock"
    assert PRESETS["T"].describe() == "win: pyramid only, unlimited redeals, draw 3"
    assert PRESETS["O"].describe() == (
        "win: whole deck, 0 redeals, draw 1, the drawn card pairs with the card it covered")
    assert PRESETS["C"].describe().endswith("covering pairs")
    everything = Rules("Z", "all", win="all", redeals=1, waste_pairs="always", open_stock=True,
                       covering_pairs=True, draw_count=3)
    assert everything.describe() == (
        "win: whole deck, 1 redeal, draw 3, open stock, the two top waste cards pair, "
        "covering pairs"
    )
