"""The family of errors the engine raises.

Every error is a :class:`ValueError`, so a caller (the command line, the web
server) can map all of them to one clear message.  Each message quotes the bad
input.
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealCodeError",
    "InvalidLayoutError",
    "InvalidSaveError",
    "PyramideError",
]


class PyramideError(ValueError):
    """Base class of every error raised by the engine."""


class InvalidCardError(PyramideError):
    """A card could not be read, e.g. ``"1X"``."""


class InvalidLayoutError(PyramideError):
    """A card list is not exactly the 52 distinct cards (rule book §8)."""


class InvalidDealCodeError(PyramideError):
    """A deal code is malformed, e.g. ``"PY1-N-AAA"``."""


class IllegalMoveError(PyramideError):
    """A move or tap that the rules do not allow in this position."""


class InvalidSaveError(PyramideError):
    """A saved game is corrupt or has been tampered with."""
