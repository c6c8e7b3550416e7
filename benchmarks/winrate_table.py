"""Write a measured win rate into ``src/pyramide/data/winrates.json`` (run by hand).

Reads the output of ``pyramide winrate --json`` (a file, or ``-`` for standard
input) and records, under the game's letter, the deals solved, the deals won,
lost and left undecided within the budget, and the command that measured them
(rebuilt from the figures and the budget given here).  The 95% intervals are
computed from these counts by :mod:`pyramide.winrates`.

    pyramide winrate --rules P --deals 2000 --jobs 1 --nodes 20000 --seconds 0 --json \\
        | .venv/bin/python benchmarks/winrate_table.py - --nodes 20000 --seconds 0

With ``--markdown G A V …`` it prints those games' rows of the family table of
``docs/solver.md`` from the file instead (the docs quote the file, not the reverse).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "src" / "pyramide" / "data" / "winrates.json"


def entry(figures: dict[str, Any], nodes: int, seconds: float) -> dict[str, Any]:
    """The table's entry for one ``winrate --json`` output."""
    deals, won, lost, unknown = (figures[k] for k in ("deals", "won", "lost", "unknown"))
    if won + lost + unknown != deals:
        raise ValueError(f"{figures['rules']}: won + lost + unknown != deals")
    budget = f"--nodes {nodes} --seconds {seconds:g}"
    start = f" --start {figures['first_deal']}" if figures.get("first_deal") else ""
    return {
        "deals": deals, "won": won, "lost": lost, "unknown": unknown,
        "command": f"pyramide winrate --rules {figures['rules']} --deals {deals}{start} "
                   f"--jobs 1 {budget}" + (" --win-only" if figures.get("win_only") else ""),
    }


def markdown(letters: list[str]) -> str:
    """The rows of ``docs/solver.md``'s family table for ``letters``, from the table."""
    sys.path.insert(0, str(DATA.parent.parent.parent))
    from pyramide.games import PRESETS
    from pyramide.winrates import all_win_rates, wilson

    rows = []
    for letter in letters:
        rate, rules = all_win_rates()[letter], PRESETS[letter]
        deals, won, unknown = rate["deals"], rate["won"], rate["unknown"]
        lost = rate.get("lost", deals - won - unknown)
        if rate["percent"] is None:
            decided = "–"
        else:
            low, high = wilson(won, deals - unknown)
            decided = f"{rate['percent']:.2f}% ({100 * low:.2f}–{100 * high:.2f}%)"
        published = "; ".join(f"{figure:.2f}%" for _, figure in rules.published)
        rows.append(f"| {letter} | {rules.name} | {deals:,} | {won:,} | {lost:,} | {unknown:,} "
                    f"| {decided} | {rate['low']:.2f}–{rate['high']:.2f}% | {published} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?",
                        help="a file holding `pyramide winrate --json` output, or -")
    parser.add_argument("--nodes", type=int, help="the run's --nodes")
    parser.add_argument("--seconds", type=float, help="the run's --seconds")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--markdown", nargs="+", metavar="LETTER",
                        help="print these games' rows of the table in docs/solver.md instead")
    args = parser.parse_args()
    if args.markdown:
        print(markdown(args.markdown))
        return
    if args.source is None or args.nodes is None or args.seconds is None:
        parser.error("a source, --nodes and --seconds are needed")
    text = sys.stdin.read() if args.source == "-" else Path(args.source).read_text("utf-8")
    figures = json.loads(text.strip().splitlines()[-1])
    table = json.loads(args.data.read_text("utf-8"))
    table[figures["rules"]] = entry(figures, args.nodes, args.seconds)
    args.data.write_text(json.dumps(table, indent=2, ensure_ascii=False) + "\n", "utf-8")
    line = table[figures["rules"]]
    print(f"{figures['rules']}: {line['won']} won, {line['lost']} lost, "
          f"{line['unknown']} undecided of {line['deals']}")


if __name__ == "__main__":
    main()
