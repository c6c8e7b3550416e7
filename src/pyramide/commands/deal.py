"""``pyramide deal``: print a deal as a pyramid, or as JSON."""

from __future__ import annotations

import argparse
import json
import secrets
from datetime import date
from typing import Any

from rich.console import Console
from rich.text import Text

from pyramide.cards import Card
from pyramide.daily import daily, today
from pyramide.deals import MAX_DEAL_NUMBER, Deal, DealCode
from pyramide.rules import Rules, rules_for


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "deal", help="show the cards of a deal",
        description="Print a deal as a pyramid (or as JSON with --json).",
    )
    add_deal_arguments(parser)
    parser.add_argument("--daily", action="store_true",
                        help="the daily deal (the same for every player; docs/deal-codes.md)")
    parser.add_argument("--date", type=_day, default=None, metavar="YYYY-MM-DD",
                        help="with --daily: the day (default: today)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a picture")
    parser.set_defaults(func=run)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date: expected YYYY-MM-DD, e.g. 2026-12-01") from None


def add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    """The shared ways to name a deal: a code, a card list, or --random."""
    parser.add_argument("code", nargs="?", help="deal code, e.g. PY1-N-AAAAAAS")
    parser.add_argument("--layout", help="explicit card list: 52 cards, rule book §8")
    parser.add_argument("--random", action="store_true", help="pick a fresh deal code")
    parser.add_argument("--rules", default=None,
                        help="rule set letter (for --layout and --random; default N)")


def resolve_deal(args: argparse.Namespace) -> tuple[Deal, Rules, str | None]:
    """The deal, rules and code named by the arguments of :func:`add_deal_arguments`."""
    chosen = sum(x is not None and x is not False for x in (args.code, args.layout, args.random))
    if chosen != 1:
        raise ValueError("name exactly one deal: a CODE, --layout \"...\" or --random")
    if args.code is not None:
        code = DealCode.parse(args.code)
        if args.rules is not None and rules_for(args.rules).letter != code.rules_letter:
            raise ValueError(f"--rules {args.rules!r} contradicts the code {args.code!r}")
        return Deal.from_number(code.number), rules_for(code.rules_letter), str(code)
    rules = rules_for(args.rules or "N")
    if args.random:
        code = DealCode(rules.letter, secrets.randbelow(MAX_DEAL_NUMBER + 1))
        return Deal.from_number(code.number), rules, str(code)
    return Deal.parse_layout(args.layout), rules, None


def deal_json(deal: Deal, rules: Rules, code: str | None) -> dict[str, Any]:
    return {
        "code": code,
        "rules": rules.letter,
        "pyramid": [[c.code for c in row] for row in deal.rows],
        "waste": [deal.waste.code],
        "stock": [c.code for c in deal.stock],
    }


def _card_text(card: Card) -> Text:
    return Text(f"{card!s:>3}", style="red" if card.suit.is_red else "bold")


def render(deal: Deal, rules: Rules, code: str | None) -> Text:
    out = Text()
    out.append(f"{code or 'explicit layout'}  ({rules.name}: {rules.describe()})\n\n")
    for r, row in enumerate(deal.rows, start=1):
        out.append(" " * (2 * (7 - r)))
        for i, card in enumerate(row):
            if i:
                out.append(" ")
            out.append_text(_card_text(card))
        out.append("\n")
    out.append("\nwaste: ")
    out.append_text(_card_text(deal.waste))
    out.append(f"\nstock ({len(deal.stock)}, top first): ")
    out.append(" ".join(str(c) for c in deal.stock))
    return out


def run(args: argparse.Namespace) -> int:
    if args.date is not None and not args.daily:
        raise ValueError("--date goes with --daily")
    if args.daily:
        if args.code is not None or args.layout is not None or args.random or args.rules:
            raise ValueError("--daily names the deal: give no CODE, --layout, --random or --rules")
        return _run_daily(args.date or today(), as_json=args.json)
    deal, rules, code = resolve_deal(args)
    if args.json:
        print(json.dumps(deal_json(deal, rules, code), ensure_ascii=False))
    else:
        Console(highlight=False).print(render(deal, rules, code))
    return 0


def _run_daily(day: date, *, as_json: bool) -> int:
    chosen = daily(day)
    code = DealCode.parse(chosen.code)
    deal, rules = Deal.from_number(code.number), rules_for(code.rules_letter)
    if as_json:
        print(json.dumps({**deal_json(deal, rules, chosen.code), "daily": chosen.as_dict()},
                         ensure_ascii=False))
        return 0
    grade = chosen.grade
    console = Console(highlight=False)
    console.print(f"Daily deal of {day.isoformat()}: {chosen.code}, {grade.difficulty} "
                  f"(shortest win {grade.shortest} moves, {grade.safe_first_moves} of "
                  f"{grade.first_moves} first moves keep it winnable)\n")
    console.print(render(deal, rules, chosen.code))
    return 0
