"""The ``pyramide`` command line.

Errors (bad codes, card lists, moves) go to stderr with exit status 2 and no
traceback.  ``pyramide`` alone starts the browser game (``pyramide serve``), and
so does ``pyramide`` with serve's options (``pyramide --port 8000 --no-browser``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("deal", "serve", "solve", "winrate")
"""Modules of :mod:`pyramide.commands`, each adding one sub-command."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``only`` that one: each command's
    module (and what it imports: the web server, the sweep's engines, the
    solver) is loaded only when its command runs or the help lists them all."""
    parser = argparse.ArgumentParser(
        prog="pyramide", description="Pyramid solitaire: play, deal and solve.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"pyramide.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help")):
        args_list = ["serve", *args_list]  # `pyramide --port 8000` is `pyramide serve --port 8000`
    parser = build_parser(args_list[0] if args_list[0] in COMMANDS else None)
    args = parser.parse_args(args_list)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except ValueError as exc:
        print(f"pyramide: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
