"""``pyramide solve``: is a deal winnable, how far can it go, and the line that does it."""

from __future__ import annotations

import argparse
import json
import math
from itertools import groupby
from typing import Any

from rich.console import Console

from pyramide.commands.deal import add_deal_arguments, resolve_deal
from pyramide.game import Game
from pyramide.moves import Move
from pyramide.solver import Budget, Solution, reduced_rules, solve


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve", help="solve a deal: winnable, most cards removable, the line",
        description="Decide a deal: whether it can be won, the most pyramid cards that can "
        "go (max_removed) and a line of moves that gets there.  Under rule sets N and C "
        "the line is searched for the fewest moves (removals, draws and recycles).",
    )
    add_deal_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help='print {"winnable", "max_removed", "moves", "shortest"} as JSON')
    add_budget_arguments(parser, nodes=500_000, seconds=10.0)
    parser.add_argument("--any-line", action="store_true",
                        help="skip the search for the shortest line")
    parser.set_defaults(func=run)


def add_budget_arguments(parser: argparse.ArgumentParser, *, nodes: int, seconds: float) -> None:
    parser.add_argument("--nodes", type=int, default=nodes,
                        help=f"search budget in states, 0 for no limit (default {nodes})")
    parser.add_argument("--seconds", type=float, default=seconds,
                        help=f"search budget in seconds, 0 for no limit (default {seconds})")


def budget_of(args: argparse.Namespace) -> Budget:
    """The budget of ``--nodes`` and ``--seconds`` (0 = no limit of that kind)."""
    if args.nodes < 0 or not math.isfinite(args.seconds) or args.seconds < 0:
        raise ValueError(f"budget --nodes {args.nodes} --seconds {args.seconds}: "
                         "limits must be finite positive numbers, or 0 for none")
    return Budget(nodes=args.nodes or None, seconds=args.seconds or None)


def run(args: argparse.Namespace) -> int:
    deal, rules, code = resolve_deal(args)
    game = Game(deal, rules)
    shortest = reduced_rules(rules) and not args.any_line
    result = solve(game, budget=budget_of(args), shortest=shortest)
    if args.json:
        print(json.dumps(solution_json(result), ensure_ascii=False))
    else:
        picture = render(result, code or "explicit layout", rules.name, len(rules.tableau))
        Console(highlight=False).print(picture, markup=False)
    return 0


def solution_json(result: Solution) -> dict[str, Any]:
    return {
        "winnable": result.winnable,
        "max_removed": result.max_removed,
        "moves": [str(m) for m in result.moves],
        "shortest": result.shortest,
    }


def render(result: Solution, name: str, rules_name: str, tableau: int = 28) -> str:
    verdict = {True: "yes", False: "no", None: "unknown (the search budget ran out)"}
    lines = [
        f"{name}  ({rules_name})",
        f"winnable: {verdict[result.winnable]}",
        f"max_removed: {result.max_removed} of {tableau}"
        + ("" if result.exact else " (at least; not proven)"),
        f"moves: {len(result.moves)}" + (" (proven shortest)" if result.shortest else ""),
    ]
    lines += [f"  {label:>9}  {text}" for label, text in numbered(result.moves)]
    return "\n".join(lines)


def numbered(moves: list[Move]) -> list[tuple[str, str]]:
    """Move numbers and moves, a run of draws on one line (``4-10  draw x7``)."""
    out: list[tuple[str, str]] = []
    number = 1
    for text, run in groupby(str(m) for m in moves):
        count = len(list(run))
        if count == 1:
            out.append((f"{number}.", text))
        else:
            out.append((f"{number}-{number + count - 1}.", f"{text} x{count}"))
        number += count
    return out
