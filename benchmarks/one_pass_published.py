"""The one-pass rule sets beside the published figures, under each rule of when two
waste cards pair (run by hand; prints a table).

The published one-pass figures (9.02% pyramid only, 6.80% all cards) come from a
standard game in which the drawn card and the waste top are both available, so
they may pair with each other (our ``waste_pairs="hand"``, docs/rules.md).  This
script shows how much the rule matters: it decides deals 0 … N − 1 of N1
(pyramid only) and N1W (all cards) with ``waste_pairs`` set to each of
``--rules`` (default: all four), with the family's compiled decide search
(``pyramide.solver.family_search``), and prints the win rate of each with its
95% Wilson interval and the published figure.

    .venv/bin/python benchmarks/one_pass_published.py [--deals 1000] [--states 2000000]
        [--rules none,drawn,hand,always] [--games N1,N1W]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from pyramide.deals import Deal
from pyramide.game import Game
from pyramide.games import PRESETS
from pyramide.rules import WASTE_PAIRS, Rules, WastePairs
from pyramide.solver.budget import Budget
from pyramide.solver.family_search import decide_family
from pyramide.winrates import wilson


def measure(rules: Rules, deals: int, states: int) -> tuple[int, int, int, float]:
    """Won, lost and undecided deals of ``rules``, and the CPU seconds per deal."""
    won = lost = unknown = 0
    began = time.process_time()
    for number in range(deals):
        game = Game(Deal.from_number(number), rules)
        verdict = decide_family(rules, game.position, Budget(nodes=states, seconds=None)).winnable
        won += verdict is True
        lost += verdict is False
        unknown += verdict is None
    return won, lost, unknown, (time.process_time() - began) / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--states", type=int, default=2_000_000)
    parser.add_argument("--rules", default=",".join(WASTE_PAIRS))
    parser.add_argument("--games", default="N1,N1W")
    args = parser.parse_args()
    print("| game | waste pairs | deals | won | lost | undecided | win rate (95% Wilson) "
          "| published | CPU per deal |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for letter in args.games.split(","):
        defined = PRESETS[letter]
        published = defined.published[0][1]
        for when in args.rules.split(","):
            rules = replace(defined, waste_pairs=cast(WastePairs, when))
            won, lost, unknown, cpu = measure(rules, args.deals, args.states)
            low, high = wilson(won, args.deals)
            print(f"| {letter}{'' if rules == defined else ' (changed)'} "
                  f"| {when} | {args.deals:,} | {won:,} "
                  f"| {lost:,} | {unknown:,} | {100 * won / args.deals:.2f}% "
                  f"({100 * low:.2f}–{100 * high:.2f}%) | {published:.2f}% "
                  f"| {1000 * cpu:.0f} ms |", flush=True)


if __name__ == "__main__":
    main()
