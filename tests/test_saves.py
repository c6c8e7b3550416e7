"""Saves: a game is (deal, rules, action log); loading replays it or refuses it whole."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pyramide import PRESETS, Deal, Game, InvalidSaveError, dump_game, load_game
from pyramide.deals import shuffled_deck
from pyramide.saves import SAVE_FORMAT, SAVE_VERSION, game_from_dict, game_to_dict
from tests.reference import reference_deal
from tests.test_game import (
    WIN_SEQUENCE,
    ManualClock,
    russian,
    stuck_deal,
    win_deal,
)


def played_game() -> Game:
    """PY1-N-AAAAAAS with removals, draws, a recycle and undos, on a manual clock."""
    clock = ManualClock()
    game = Game.from_code("PY1-N-AAAAAAS", clock=clock)
    for _ in range(30):
        clock.now += 1.25
        game.tap_stock()
    clock.now += 1
    game.undo()
    clock.now += 1
    for move in game.legal_moves():
        if move.kind == "remove":
            game.play(move)
            break
    clock.now += 0.5
    game.undo()
    game.tap_stock()
    return game


def save_dict(game: Game) -> dict[str, Any]:
    return json.loads(dump_game(game))  # type: ignore[no-any-return]


def assert_same_game(copy: Game, game: Game) -> None:
    assert copy.position == game.position
    assert (copy.score, copy.moves, copy.status) == (game.score, game.moves, game.status)
    assert copy.code == game.code
    assert copy.rules is game.rules
    assert copy.deal.cards == game.deal.cards
    assert [(e.action, e.t) for e in copy.log] == [(e.action, e.t) for e in game.log]
    assert copy.undo_depth == game.undo_depth
    assert copy.can_undo == game.can_undo


def test_dump_shape() -> None:
    game = played_game()
    data = save_dict(game)
    assert data == game_to_dict(game)
    assert data["format"] == SAVE_FORMAT == "pyramide-save"
    assert data["version"] == SAVE_VERSION == 1
    assert data["rules"] == "N"
    assert data["code"] == "PY1-N-AAAAAAS"
    assert data["layout"] == Deal.from_number(18).layout_text()
    assert data["score"] == game.score
    assert data["moves"] == game.moves == 32  # 30 stock taps, a removal, a draw
    assert data["status"] == "playing"
    assert data["elapsed"] == game.elapsed
    assert [a for a, _ in data["log"]].count("undo") == 2
    assert all(isinstance(t, float) for _, t in data["log"])
    assert [t for _, t in data["log"]] == sorted(t for _, t in data["log"])


def test_round_trip_replays_position_score_and_moves() -> None:
    game = played_game()
    copy = load_game(dump_game(game), clock=ManualClock())
    assert_same_game(copy, game)
    assert copy.elapsed == game.elapsed
    # both go on identically, undo included
    for g in (game, copy):
        g.undo()
        g.tap_stock()
    assert_same_game(copy, game)
    assert dump_game(load_game(dump_game(copy))) == dump_game(copy)


def test_round_trip_bytes_and_dict() -> None:
    game = played_game()
    assert_same_game(load_game(dump_game(game).encode()), game)
    assert_same_game(game_from_dict(game_to_dict(game)), game)


@pytest.mark.parametrize("letter", sorted(k for k, r in PRESETS.items() if r.classic))
def test_explicit_layout_round_trip_under_every_preset(letter: str) -> None:
    game = Game(reference_deal(stock_top=["9D"]), PRESETS[letter], ManualClock())
    game.play("KD")
    game.tap_stock()
    game.play("10C+3S")
    data = save_dict(game)
    assert data["code"] is None
    assert data["rules"] == letter
    copy = load_game(json.dumps(data))
    assert_same_game(copy, game)
    assert copy.code is None
    assert copy.deal.layout_text() == reference_deal(stock_top=["9D"]).layout_text()


@pytest.mark.parametrize("letter", sorted(PRESETS))
def test_explicit_layout_round_trip_in_every_game(letter: str) -> None:
    rules = PRESETS[letter]
    deal = Deal(shuffled_deck(7, rules.deck))  # a card list, not a code
    game = Game(deal, rules, ManualClock())
    for _ in range(6):
        if game.is_over:
            break
        game.play(game.legal_moves()[0])
    copy = load_game(json.dumps(save_dict(game)))
    assert_same_game(copy, game)
    assert copy.code is None and copy.deal == deal


def test_a_won_game_stays_won_and_final() -> None:
    clock = ManualClock()
    game = Game(win_deal(), clock=clock)
    for move in WIN_SEQUENCE:
        clock.now += 3
        game.play(move)
    assert game.status == "won"
    copy = load_game(dump_game(game), clock=ManualClock())
    assert_same_game(copy, game)
    assert copy.elapsed == game.elapsed == 45.0
    assert not copy.can_undo


def test_a_lost_game_round_trips() -> None:
    game = Game(stuck_deal(), PRESETS["O"])
    for _ in range(23):
        game.tap_stock()
    assert game.status == "lost"
    copy = load_game(dump_game(game))
    assert_same_game(copy, game)
    assert copy.can_undo


def test_the_clock_continues_from_the_saved_time_at_the_next_action() -> None:
    game = played_game()
    clock = ManualClock()
    copy = load_game(dump_game(game), clock=clock)
    assert copy.elapsed == game.elapsed
    clock.now += 10  # nobody plays: the restored game's clock waits
    assert copy.elapsed == game.elapsed and not copy.clock_running
    copy.tap_stock()
    clock.now += 10
    assert copy.elapsed == pytest.approx(game.elapsed + 10)


# ----------------------------------------------------------- rejected saves


@pytest.mark.parametrize(
    "text",
    ["", "{", "not json", "[]", "null", "42", '"text"', b"\xff\xfe", "[" * 100_000, "{}"],
)
def test_corrupt_json_is_rejected(text: str | bytes) -> None:
    with pytest.raises(InvalidSaveError) as info:
        load_game(text)
    russian(info.value)


def test_non_text_is_rejected() -> None:
    with pytest.raises(InvalidSaveError, match="not valid JSON"):
        load_game(None)  # type: ignore[arg-type]


def tamper(change: Callable[[dict[str, Any]], object]) -> str:
    data = save_dict(played_game())
    change(data)
    return json.dumps(data)


def set_key(key: str, value: object) -> Callable[[dict[str, Any]], object]:
    return lambda data: data.__setitem__(key, value)


def won_then(action: str) -> str:
    game = Game(win_deal())
    for move in WIN_SEQUENCE:
        game.play(move)
    data = save_dict(game)
    data["log"].append([action, 99.0])
    return json.dumps(data)


TAMPERED = {
    "illegal move": tamper(lambda d: d["log"].insert(0, ["KS", 0.0])),
    "blocked pair": tamper(lambda d: d["log"].insert(0, ["QC+AD", 0.0])),
    "wrong sum": tamper(lambda d: d["log"].insert(0, ["7C+7S", 0.0])),
    "unknown action": tamper(lambda d: d["log"].append(["fly", 999.0])),
    "undo first": tamper(lambda d: d["log"].insert(0, ["undo", 0.0])),
    "recycle first": tamper(lambda d: d["log"].insert(0, ["recycle", 0.0])),
    "dropped action": tamper(lambda d: d["log"].pop(0)),
    "undo after win": won_then("undo"),
    "move after win": won_then("draw"),
    "time going back": tamper(lambda d: d["log"].append(["draw", 0.5])),
    "negative time": tamper(lambda d: d["log"][0].__setitem__(1, -1.0)),
    "time as text": tamper(lambda d: d["log"][0].__setitem__(1, "0")),
    "time as bool": tamper(lambda d: d["log"][0].__setitem__(1, False)),
    "entry of three": tamper(lambda d: d["log"][0].append("x")),
    "entry as text": tamper(lambda d: d["log"].__setitem__(0, "draw")),
    "action as number": tamper(lambda d: d["log"][0].__setitem__(0, 5)),
    "log as text": tamper(set_key("log", "draw")),
    "no log": tamper(lambda d: d.pop("log")),
    "score": tamper(lambda d: d.__setitem__("score", d["score"] + 10)),
    "score as text": tamper(lambda d: d.__setitem__("score", str(d["score"]))),
    "moves": tamper(lambda d: d.__setitem__("moves", d["moves"] - 1)),
    "moves as bool": tamper(set_key("moves", True)),
    "status": tamper(set_key("status", "won")),
    "rules unknown": tamper(set_key("rules", "X")),
    "rules as number": tamper(set_key("rules", 5)),
    "no rules": tamper(lambda d: d.pop("rules")),
    "layout as list": tamper(lambda d: d.__setitem__("layout", d["layout"].split())),
    "layout short": tamper(lambda d: d.__setitem__("layout", d["layout"][:-4])),
    "code as number": tamper(set_key("code", 18)),
    "code malformed": tamper(set_key("code", "PY1-N-AAA")),
    "code of another deal": tamper(set_key("code", "PY1-N-AAAAAAT")),
    "code of other rules": tamper(set_key("code", "PY1-P-AAAAAAS")),
    "layout of another deal": tamper(set_key("layout", Deal.from_number(19).layout_text())),
    "format": tamper(set_key("format", "other")),
    "version 2": tamper(set_key("version", 2)),
    "version as text": tamper(set_key("version", "1")),
    "version as bool": tamper(set_key("version", True)),
    "elapsed as text": tamper(set_key("elapsed", "12")),
    "elapsed negative": tamper(set_key("elapsed", -1)),
    "elapsed as bool": tamper(set_key("elapsed", True)),
    "elapsed infinite": tamper(set_key("elapsed", float("inf"))),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_tampered_saves_are_rejected_whole(name: str) -> None:
    with pytest.raises(InvalidSaveError) as info:
        load_game(TAMPERED[name])
    assert isinstance(info.value, ValueError)
    assert str(info.value)
    assert "Traceback" not in str(info.value)
    russian(info.value)


def test_rejection_messages_say_what_is_wrong() -> None:
    cases = {
        "illegal move": "not legal",
        "score": "saved score",
        "moves": "saved moves",
        "status": "saved status",
        "code of other rules": "does not match rules",
        "layout of another deal": "does not match deal code",
        "time going back": "log entry",
        "undo first": "nothing to undo",
        "format": "not a Pyramide save",
        "elapsed negative": "elapsed",
    }
    for name, words in cases.items():
        with pytest.raises(InvalidSaveError, match=words):
            load_game(TAMPERED[name])


def test_rejection_messages_say_what_is_wrong_in_russian_too() -> None:
    cases = {
        "illegal move": "сохранённая партия не принята: записанный ход 'KS' в той позиции "
                        "недопустим",
        "wrong sum": "сохранённая партия не принята: ход '7C+7S': 7♠ + 7♣ дают в сумме 14, "
                     "а пара должна давать 13",
        "undo first": "сохранённая партия не принята: записанная отмена на 0.0 с: "
                      "нечего отменять",
        "moves": "в сохранении число ходов 31, а у переигранной партии 32",
        "status": "в сохранении состояние партии 'won', а переигранная партия идёт",
        "code malformed": "сохранённая партия не принята: в коде расклада 'PY1-N-AAA' "
                          "букв номера: 3, а нужно 7",
        "format": "это не сохранение «Пирамиды» (формат 'other', версия 1)",
        "elapsed negative": "время партии в сохранении -1 — недопустимое число",
        "no rules": "в сохранённой партии нет поля 'rules' или это не строка",
        "entry of three": "в записи ходов сохранённой партии испорчен элемент 1: "
                          "['draw', 0.0, 'x']",
    }
    for name, ru in cases.items():
        with pytest.raises(InvalidSaveError) as info:
            load_game(TAMPERED[name])
        assert russian(info.value) == ru, name


def test_a_save_without_summary_fields_is_replayed() -> None:
    game = played_game()
    data = save_dict(game)
    for key in ("score", "moves", "status", "elapsed"):
        del data[key]
    copy = game_from_dict(data)
    assert copy.position == game.position
    assert copy.moves == game.moves


def test_true_is_not_the_number_one() -> None:
    game = Game.from_code("PY1-N-AAAAAAA")
    game.play("draw")
    data = save_dict(game)
    assert data["moves"] == 1
    load_game(json.dumps(data))
    data["moves"] = True
    with pytest.raises(InvalidSaveError, match="saved moves True"):
        load_game(json.dumps(data))
