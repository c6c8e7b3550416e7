"""``pyramide solve``: is a deal winnable, how far can it go, and the line that does it."""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import replace
from itertools import groupby
from typing import Any

from pyramide.commands.deal import add_deal_arguments, resolve_deal
from pyramide.game import Game
from pyramide.moves import Move
from pyramide.solver import DEFAULT_BUDGET, Budget, Solution, reduced_rules, solve
from pyramide.solver.api import AnyBudget
from pyramide.solver.budget import BudgetError, states_of


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "solve", help="solve a deal: winnable, most cards removable, the line",
        description="Decide a deal: whether it can be won, the most pyramid cards that can "
        "go (max_removed) and a line of moves that gets there.  Under rule sets N and C "
        "the line is searched for the fewest moves (removals, draws and recycles).",
    )
    add_deal_arguments(parser)
    parser.add_argument("--json", action="store_true",
                        help='print {"winnable", "max_removed", "moves", "shortest", "states", '
                        '"timed_out"} as JSON')
    add_budget_arguments(parser, states=None, seconds=10.0)
    parser.add_argument("--any-line", action="store_true",
                        help="skip the search for the shortest line")
    parser.set_defaults(func=run)


def add_budget_arguments(parser: argparse.ArgumentParser, *, states: int | None,
                         seconds: float) -> None:
    """``--states`` (the budget: a count of states, so that the answer is the same on
    every run), ``--seconds`` (the wall-time guard) and ``--nodes`` (the old spelling
    of ``--states``, 0 for no limit)."""
    default = f"default {states:,}" if states else "default: the game's budget of each search"
    parser.add_argument("--states", default=None,
                        help=f"search budget: states the search may visit, at least 1 ({default})")
    parser.add_argument("--nodes", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=seconds,
                        help="wall-time guard in seconds, 0 for none: it stops a search only on a "
                        f"machine far slower than expected, and the answer then says so "
                        f"(default {seconds})")
    parser.set_defaults(default_states=states)


def budget_of(args: argparse.Namespace) -> AnyBudget:
    """The budget of ``--states`` (or ``--nodes``) and ``--seconds``: without either
    count, the command's default count, or the game's budget of each search path."""
    if not math.isfinite(args.seconds) or args.seconds < 0:
        raise BudgetError("err.budget.guard", value=args.seconds)
    guard = args.seconds or None
    if args.states is not None and args.nodes is not None:
        raise BudgetError("err.budget.twice")
    if args.states is not None:
        return Budget(nodes=states_of(args.states), seconds=guard)
    if args.nodes is not None:
        if args.nodes < 0:
            raise BudgetError("err.budget.nodes", value=args.nodes)
        return Budget(nodes=args.nodes or None, seconds=guard)
    if args.default_states is not None:
        return Budget(nodes=args.default_states, seconds=guard)
    return replace(DEFAULT_BUDGET, seconds=guard)


def run(args: argparse.Namespace) -> int:
    deal, rules, code = resolve_deal(args)
    game = Game(deal, rules)
    shortest = reduced_rules(rules) and not args.any_line
    result = solve(game, budget=budget_of(args), shortest=shortest)
    if args.json:
        print(json.dumps(solution_json(result), ensure_ascii=False))
    else:
        from rich.console import Console  # not needed for --json

        picture = render(result, code or "explicit layout", rules.name, len(rules.tableau))
        Console(highlight=False).print(picture, markup=False)
    return 0


def solution_json(result: Solution) -> dict[str, Any]:
    return {
        "winnable": result.winnable,
        "max_removed": result.max_removed,
        "moves": [str(m) for m in result.moves],
        "shortest": result.shortest,
        "states": result.nodes,
        "timed_out": result.timed_out,
    }


def render(result: Solution, name: str, rules_name: str, tableau: int = 28) -> str:
    verdict = {True: "yes", False: "no", None: "unknown (the search budget ran out)"}
    lines = [
        f"{name}  ({rules_name})",
        f"winnable: {verdict[result.winnable]}",
        f"max_removed: {result.max_removed} of {tableau}"
        + ("" if result.exact else " (at least; not proven)"),
        f"moves: {len(result.moves)}" + (" (proven shortest)" if result.shortest else ""),
        f"states searched: {result.nodes:,}" + (
            " (stopped by the wall-time guard: a run on a quieter machine may go further)"
            if result.timed_out else ""),
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
