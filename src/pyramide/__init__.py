"""Pyramide: Pyramid solitaire exact to the rule book, with a solver and a browser game.

The engine is pure (no I/O): cards, deals and deal codes, rule sets, the game
state machine with taps, moves, score and undo, and JSON saves.
"""

from pyramide.cards import DECK, Card, Suit
from pyramide.deals import Deal, DealCode
from pyramide.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDealCodeError,
    InvalidLayoutError,
    InvalidSaveError,
    PyramideError,
)
from pyramide.game import Game, Position, Spot
from pyramide.games import DEFAULT_RULES, PRESETS
from pyramide.messages import Message
from pyramide.moves import DRAW, RECYCLE, Move
from pyramide.rules import Rules, rules_for
from pyramide.saves import dump_game, load_game

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "DEFAULT_RULES",
    "DRAW",
    "PRESETS",
    "RECYCLE",
    "Card",
    "Deal",
    "DealCode",
    "Game",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealCodeError",
    "InvalidLayoutError",
    "InvalidSaveError",
    "Message",
    "Move",
    "Position",
    "PyramideError",
    "Rules",
    "Spot",
    "Suit",
    "__version__",
    "dump_game",
    "load_game",
    "rules_for",
]
