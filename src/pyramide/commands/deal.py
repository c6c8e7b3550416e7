"""``pyramide deal``: print a deal as a pyramid, or as JSON."""

from __future__ import annotations

import argparse
import json
import secrets
from datetime import date
from typing import Any

from rich.console import Console
from rich.text import Text

from pyramide import kernel
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
    parser.add_argument("--layout", help="explicit card list: the game's whole deck in its "
                        "card-list order (rule book §8, docs/deal-codes.md)")
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
        rules = rules_for(code.rules_letter)
        return Deal.from_number(code.number, rules.deck), rules, str(code)
    rules = rules_for("N" if args.rules is None else args.rules)
    if args.random:
        code = DealCode(rules.letter, secrets.randbelow(MAX_DEAL_NUMBER + 1))
        return Deal.from_number(code.number, rules.deck), rules, str(code)
    return Deal.parse_layout(args.layout, rules.deck), rules, None


def deal_json(deal: Deal, rules: Rules, code: str | None) -> dict[str, Any]:
    """The deal as JSON (docs/deal-codes.md): every card once, where the game deals it."""
    start = kernel.initial(rules, deal.cards)
    tableau = [
        {"slot": index, "card": card.code, "zone": slot.zone, "covered_by": list(slot.covered_by)}
        for index, (slot, card) in enumerate(zip(rules.tableau.slots, deal.cards, strict=False))
    ]
    out: dict[str, Any] = {
        "code": code,
        "rules": rules.letter,
        "deck": rules.deck,
        "target": rules.target,
        "pyramid": [[tableau[i]["card"] for i in row] for row in _rows(rules, "pyramid")],
        "tableau": tableau,
        "stock": [c.code for c in start.stock],
    }
    if rules.waste_piles == 1:
        out["waste"] = [c.code for c in start.waste]
    elif rules.waste_piles > 1:
        out["wastes"] = [[c.code for c in pile] for pile in start.wastes]
    if rules.cells:
        out["cell"] = None
    return out


def _rows(rules: Rules, zone: str) -> list[list[int]]:
    """The slots of ``zone`` as rows, top to bottom (by where the page draws them)."""
    rows: dict[float, list[int]] = {}
    for index, slot in enumerate(rules.tableau.slots):
        if slot.zone == zone:
            rows.setdefault(slot.y, []).append(index)
    return [sorted(rows[y], key=lambda i: rules.tableau.slots[i].x) for y in sorted(rows)]


def _card_text(card: Card) -> Text:
    return Text(f"{card!s:>4}", style="red" if card.suit.is_red else "bold")


def render(deal: Deal, rules: Rules, code: str | None) -> Text:
    out = Text()
    out.append(f"{code or 'explicit layout'}  ({rules.name}: {rules.describe()})\n")
    slots = rules.tableau.slots
    for zone in rules.tableau.zones:
        out.append(f"\n{zone}:\n")
        for row in _rows(rules, zone):
            out.append(" " * round(2.3 * slots[row[0]].x))
            last = slots[row[0]].x
            for i in row:
                out.append(" " * round(4.5 * (slots[i].x - last) - 4 if i != row[0] else 0))
                last = slots[i].x
                face = _card_text(deal.cards[i])
                out.append_text(Text("  ##", style="dim") if slots[i].hidden else face)
            out.append("\n")
    start = kernel.initial(rules, deal.cards)
    for number, pile in enumerate(start.wastes[:rules.waste_piles], start=1):
        name = "waste" if rules.waste_piles == 1 else f"waste {number}"
        out.append(f"\n{name}: ")
        out.append(" ".join(str(c) for c in pile) or "(empty)")
    if rules.stock_size:
        out.append(f"\nstock ({len(start.stock)}, top first): ")
        out.append(" ".join(str(c) for c in start.stock))
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
