"""Sweeps: chunks, their verdicts, the results file, the progress bar, and resuming."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

import pytest
from rich.console import Console

from pyramide import PRESETS, Deal, Position, rules_for
from pyramide.cli import main
from pyramide.commands.winrate import solve_range
from pyramide.solver import Budget, decide, native
from pyramide.sweep import Chunk, ResultsFile, Tally, decide_chunk, local_engine, plan_chunks
from pyramide.sweep.chunks import DIGITS, check_verdicts

BUDGET = Budget(nodes=2_000, seconds=None)


def load_verdicts(path: Path) -> dict[int, str]:
    """Deal number -> verdict, from a results file."""
    out: dict[int, str] = {}
    for line in path.read_text().splitlines()[1:]:
        record = json.loads(line)
        out.update({record["first"] + i: v for i, v in enumerate(record["verdicts"])})
    return out


@pytest.mark.parametrize(("start", "deals", "size"),
                         [(0, 1, 7), (3, 50, 7), (14, 14, 7), (5, 9, 100)])
def test_chunks_cover_the_range_cut_at_multiples(start: int, deals: int, size: int) -> None:
    chunks = plan_chunks(start, deals, size)
    assert chunks[0].first == start and chunks[-1].last == start + deals - 1
    for a, b in pairwise(chunks):
        assert b.first == a.last + 1 and b.first % size == 0
    assert all(0 < c.count <= size for c in chunks)


def test_verdicts_are_the_solvers_answers() -> None:
    rules = rules_for("M")
    verdicts = decide_chunk("M", 500, 12, BUDGET)
    check_verdicts(Chunk(500, 12), verdicts)
    for number, verdict in zip(range(500, 512), verdicts, strict=True):
        deal = Deal.from_number(number, rules.deck)
        result = decide(Position.initial(deal, rules), rules, budget=BUDGET)
        if result.winnable is None:
            assert verdict == "?"
        elif result.winnable:
            assert verdict == "+"
        else:
            assert int(verdict, 36) == result.max_removed
    tally = Tally.of(Chunk(500, 12), verdicts)
    assert tally.deals == 12 and tally.won == verdicts.count("+")
    assert tally.won + tally.unknown + sum(tally.lost_max.values()) == 12


def test_every_game_has_a_verdict_for_every_max_removed() -> None:
    assert all(len(rules.tableau) < len(DIGITS) for rules in PRESETS.values())
    assert Tally.of(Chunk(0, 3), "sTZ").lost_max == {28: 1, 55: 1, 61: 1}


def test_tallies_add_up_in_any_order() -> None:
    parts = [(Chunk(0, 4), "+?3+"), (Chunk(4, 3), "??s"), (Chunk(7, 2), "++")]
    forward, backward = Tally(), Tally()
    for chunk, verdicts in parts:
        forward.add(Tally.of(chunk, verdicts))
    for chunk, verdicts in reversed(parts):
        backward.add(Tally.of(chunk, verdicts))
    assert forward == backward
    assert (forward.deals, forward.won, forward.unknown) == (9, 4, 3)
    assert forward.unknown_numbers == [1, 4, 5] and forward.lost_max == {3: 1, 28: 1}


def test_bad_verdicts_are_refused() -> None:
    with pytest.raises(ValueError, match="2 verdicts"):
        check_verdicts(Chunk(0, 3), "++")
    with pytest.raises(ValueError, match="unknown verdicts '~'"):
        check_verdicts(Chunk(0, 2), "+~")


def test_results_file_keeps_chunks_and_drops_a_cut_line(tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    with ResultsFile.open(path, "N", 100, None, 5, 250) as results:
        assert results.key.chunk == 5 and results.done == {}
        results.record(Chunk(0, 5), "+++3+")
        results.record(Chunk(5, 5), "+?+++")
    with path.open("a") as stream:
        stream.write('{"first": 10, "count": 5, "verd')  # the interruption cut this line
    with ResultsFile.open(path, "N", 100, None, None, 250) as results:
        assert results.key.chunk == 5  # taken from the file
        assert results.done == {Chunk(0, 5): "+++3+", Chunk(5, 5): "+?+++"}
        results.record(Chunk(10, 5), "+++++")
    assert load_verdicts(path) == {i: v for i, v in enumerate("+++3++?++++++++")}


def test_results_file_refuses_another_sweep_damage_and_a_second_user(tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    with ResultsFile.open(path, "N", 100, None, 5, 250) as results:
        results.record(Chunk(0, 5), "+++3+")
        with pytest.raises(ValueError, match="in use by another sweep"):
            ResultsFile.open(path, "N", 100, None, 5, 250)
    for rules, nodes, chunk in (("C", 100, 5), ("N", 200, 5), ("N", 100, 6)):
        with pytest.raises(ValueError, match="holds a sweep with rules N, --nodes 100"):
            ResultsFile.open(path, rules, nodes, None, chunk, 250)
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], '{"first": 0, "count": 5, "verdicts": "++"}', *lines[1:]])
                    + "\n")
    with pytest.raises(ValueError, match="damaged at line 2"):
        ResultsFile.open(path, "N", 100, None, 5, 250)
    (tmp_path / "other.txt").write_text("hello\n")
    with pytest.raises(ValueError, match="not a results file"):
        ResultsFile.open(tmp_path / "other.txt", "N", 100, None, 5, 250)


def test_progress_bar_is_fed_by_finished_chunks(tmp_path: Path) -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    chunks = plan_chunks(0, 120, 40)
    with local_engine(2) as engine:
        tally, resumed = solve_range(engine, rules_for("N"), chunks, BUDGET, None, console)
    assert (tally.deals, resumed) == (120, 0)
    drawn = screen.getvalue()
    assert "120/120" in drawn and "local processes, 2 workers" in drawn and "% won" in drawn


def test_winrate_results_file_and_its_errors(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    args = ["winrate", "--rules", "C", "--deals", "90", "--chunk", "40", "--jobs", "1",
            "--json", "--quiet", "--results", str(path)]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--start", "40"]) == 0  # deals 40..129: chunk 40..79 is in the file
    second = json.loads(capsys.readouterr().out)
    assert (first["resumed"], second["resumed"]) == (0, 40)
    verdicts = load_verdicts(path)
    assert sorted(verdicts) == list(range(130))
    assert first["won"] == sum(verdicts[i] == "+" for i in range(90))
    assert main([*args[:-4], "--results", str(path), "--chunk", "50"]) == 2
    assert "--chunk 40; this one asks for rules C" in capsys.readouterr().err
    assert main([*args[:-2], "--results", str(tmp_path / "no" / "such.jsonl")]) == 2
    assert "cannot open the results file" in capsys.readouterr().err
    assert main([*args, "--chunk", "0"]) == 2
    assert "--chunk 0" in capsys.readouterr().err


def test_the_files_of_a_sweeps_processes_join_into_one_that_reads_back_as_the_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Two processes' files (deals 0..59 and 60..99) joined: the joined file reads
    back with the counts of one sweep over deals 0..99, and nothing is solved
    again; parts of other sweeps, overlapping parts, a gap or an existing file are
    refused, and no file is written."""
    args = ["winrate", "--rules", "P", "--chunk", "20", "--jobs", "1", "--nodes", "3000",
            "--seconds", "0", "--win-only", "--json", "--quiet"]
    low, high, other = tmp_path / "low", tmp_path / "high", tmp_path / "other"
    assert main([*args, "--deals", "60", "--results", str(low)]) == 0
    assert main([*args, "--start", "60", "--deals", "40", "--results", str(high)]) == 0
    assert main([*args[:-3], "--json", "--quiet", "--deals", "20",
                 "--results", str(other)]) == 0  # (not win only)
    capsys.readouterr()
    joined = tmp_path / "joined"
    assert main(["winrate", "--join", str(high), str(low), "--results", str(joined)]) == 0
    assert "deals 0..99 (100) of 2 files" in capsys.readouterr().out
    assert load_verdicts(joined) == {**load_verdicts(low), **load_verdicts(high)}
    assert main([*args, "--deals", "100", "--results", str(joined)]) == 0
    back = json.loads(capsys.readouterr().out)
    assert main([*args, "--deals", "100"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert back["resumed"] == 100 and back["deals"] == 100
    assert (back["won"], back["lost"], back["unknown"]) == (
        whole["won"], whole["lost"], whole["unknown"])
    refused = [
        ([str(low), str(other)], "holds a sweep with rules P, --nodes 3000, --seconds 0, "
                                 "--chunk 20; "),
        ([str(low), str(low)], "deals 0..19 are in two of the files"),
        ([str(high)], None),  # one part alone is fine
        ([str(low), str(tmp_path / "missing")], "cannot read the results file"),
    ]
    for parts, message in refused:
        out = tmp_path / "out"
        code = main(["winrate", "--join", *parts, "--results", str(out)])
        if message is None:
            assert code == 0 and load_verdicts(out) == load_verdicts(high)
            out.unlink()
            continue
        assert code == 2 and message in capsys.readouterr().err and not out.exists()
    gap = tmp_path / "gap"
    assert main([*args, "--start", "80", "--deals", "20", "--results", str(gap)]) == 0
    assert main(["winrate", "--join", str(low), str(gap), "--results", str(tmp_path / "g")]) == 2
    assert "deals 60..79 are in none of the files" in capsys.readouterr().err
    assert main(["winrate", "--join", str(low), "--results", str(joined)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["winrate", "--join", str(low)]) == 2
    assert "--join needs --results FILE" in capsys.readouterr().err


def test_the_status_of_a_sweep_counts_what_its_files_hold_even_while_one_is_locked(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``--status`` reads the parts of a sweep (one of them held open and locked, as
    by its running sweep) and counts the deals they hold, ranges with gaps
    included, as a sweep over those deals does; a half-written last line is left
    out, and parts of two sweeps are refused."""
    args = ["winrate", "--rules", "P", "--chunk", "20", "--jobs", "1", "--nodes", "3000",
            "--seconds", "0", "--win-only", "--json", "--quiet"]
    low, high = tmp_path / "low", tmp_path / "high"
    assert main([*args, "--deals", "40", "--results", str(low)]) == 0
    assert main([*args, "--start", "80", "--deals", "20", "--results", str(high)]) == 0
    capsys.readouterr()
    verdicts = {**load_verdicts(low), **load_verdicts(high)}
    with ResultsFile.open(high, "P", 3000, None, 20, 20, win_only=True) as held:
        assert held.done  # (the file is locked now, as by a running sweep)
        with high.open("a", encoding="utf-8") as cut:  # a chunk being written
            cut.write('{"first": 100, "count": 20, "verdicts": "++')
        assert main(["winrate", "--join", str(low), "--results", str(tmp_path / "j")]) == 0
        assert main(["winrate", "--join", str(high), "--results", str(tmp_path / "k")]) == 2
        assert "in use by another sweep" in capsys.readouterr().err  # (--join waits for it)
        assert main(["winrate", "--status", str(low), str(high), "--json"]) == 0
        status = json.loads(capsys.readouterr().out)
        assert main(["winrate", "--status", str(high), str(low)]) == 0
        text = capsys.readouterr().out
    assert status["ranges"] == [[0, 39], [80, 99]] and status["deals"] == 60
    assert status["won"] == sum(v == "+" for v in verdicts.values())
    assert status["unknown"] == sum(v == "?" for v in verdicts.values())
    assert status["won"] + status["lost"] + status["unknown"] == 60
    assert main([*args, "--deals", "40"]) == 0
    assert json.loads(capsys.readouterr().out)["won"] == sum(
        verdicts[i] == "+" for i in range(40))
    assert "deals held: 0..39, 80..99 (60)" in text and f"won {status['won']}," in text
    assert main([*args[:-3], "--json", "--quiet", "--deals", "20",
                 "--results", str(tmp_path / "other")]) == 0  # (not win only)
    capsys.readouterr()
    assert main(["winrate", "--status", str(low), str(tmp_path / "other")]) == 2
    assert "holds a sweep with" in capsys.readouterr().err
    assert main(["winrate", "--status", str(tmp_path / "missing")]) == 2
    assert "cannot read the results file" in capsys.readouterr().err


def test_an_interrupted_sweep_goes_on_where_it_stopped(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    path = tmp_path / "n.jsonl"
    args = ["winrate", "--deals", "1000", "--chunk", "10", "--jobs", "2", "--json", "--quiet",
            "--results", str(path)]
    sweep = subprocess.Popen([sys.executable, "-m", "pyramide.cli", *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while (not path.exists() or path.read_text().count("\n") < 3) and time.monotonic() < deadline:
        time.sleep(0.005)
    sweep.send_signal(signal.SIGINT)
    out, err = sweep.communicate(timeout=60)
    assert sweep.returncode == 130 and out == ""
    assert "the same command goes on from there" in err
    kept = load_verdicts(path)
    assert 20 <= len(kept) < 1000
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["resumed"] == len(kept) and figures["deals"] == 1000
    assert main(["winrate", "--deals", "1000", "--jobs", "1", "--json", "--quiet"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert figures["won"] == whole["won"]
    assert figures["lost_max_removed"] == whole["lost_max_removed"]
    verdicts = load_verdicts(path)
    assert {n: verdicts[n] for n in kept} == kept and len(verdicts) == 1000
    assert sum(v == "+" for v in verdicts.values()) == whole["won"]


def test_a_win_only_sweep_has_the_same_verdicts_without_the_most_cards_of_lost_deals(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Par Pyramid (D): a lost deal's verdict is ``-`` and its max_removed is not
    sought, every other verdict is the full sweep's; the two sweeps cannot share a
    results file."""
    full_path, only_path = tmp_path / "full.jsonl", tmp_path / "only.jsonl"
    args = ["winrate", "--rules", "D", "--deals", "40", "--chunk", "20", "--jobs", "1",
            "--nodes", "100000", "--seconds", "0", "--json", "--quiet"]
    assert main([*args, "--results", str(full_path)]) == 0
    full = json.loads(capsys.readouterr().out)
    assert main([*args, "--results", str(only_path), "--win-only"]) == 0
    only = json.loads(capsys.readouterr().out)
    assert (only["won"], only["lost"], only["unknown"]) == (
        full["won"], full["lost"], full["unknown"])
    assert only["win_only"] and not full["win_only"] and only["lost_max_removed"] == {}
    assert full["lost"] > 0 and sum(full["lost_max_removed"].values()) == full["lost"]
    before, after = load_verdicts(full_path), load_verdicts(only_path)
    assert {n: "-" if v in DIGITS else v for n, v in before.items()} == after
    assert main([*args, "--results", str(full_path), "--win-only"]) == 2
    assert "holds a sweep with rules D, --nodes 100000, --seconds 0, --chunk 20; " \
           "this one asks for rules D, --nodes 100000, --seconds 0, --chunk 20, --win-only" \
           in capsys.readouterr().err
    assert main([*args, "--start", "20", "--results", str(only_path), "--win-only"]) == 0
    assert json.loads(capsys.readouterr().out)["resumed"] == 20
    assert main([*args[:-2], "--win-only"]) == 0  # the text report says so too
    assert "lost deals: the most cards removable not sought" in capsys.readouterr().out


@pytest.mark.parametrize("letter", ["N", "P", "O", "D", "G"])
@pytest.mark.parametrize("compiled", [True, False])
def test_decide_win_only_gives_the_same_verdict_on_every_search_path(
        letter: str, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reduced model (N), the compiled search, and without it the integer
    table's full search (P), the kernel search (O, D, G): win only, the same
    verdict, and a lost deal's most cards removable is not more than the full
    answer's."""
    if not compiled:
        monkeypatch.setattr(native, "_family", [None])
    rules = PRESETS[letter]
    budget = Budget(nodes=20_000 if compiled else 2_000, seconds=None)
    for number in range(6):
        pos = Position.initial(Deal.from_number(number, rules.deck), rules)
        full = decide(pos, rules, budget=budget)
        only = decide(pos, rules, budget=budget, win_only=True)
        assert only.winnable == full.winnable, number
        assert only.max_removed <= full.max_removed, number
