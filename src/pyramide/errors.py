"""The family of errors the engine raises.

Every error is a :class:`ValueError`, so a caller (the command line, the web
server) can map all of them to one clear message.  Each message quotes the bad
input.  Every error a player can meet also carries the message in Russian.
:class:`LocalisedError` gives the same two texts to errors that are not
``ValueError`` (the web server's unknown game and stale action).

>>> error = InvalidDealCodeError("bad code 'X'", ru="неверный код 'X'")
>>> str(error), error.text("ru"), error.text("en")
("bad code 'X'", "неверный код 'X'", "bad code 'X'")
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealCodeError",
    "InvalidLayoutError",
    "InvalidSaveError",
    "LocalisedError",
    "PyramideError",
]


class LocalisedError(Exception):
    """An error with its message in English and, as ``ru``, in Russian."""

    def __init__(self, message: str, *, ru: str | None = None) -> None:
        super().__init__(message)
        self.ru = ru

    def text(self, lang: str) -> str:
        """The message in ``lang`` (English when there is no Russian text)."""
        return self.ru if lang == "ru" and self.ru else str(self)


class PyramideError(LocalisedError, ValueError):
    """Base class of every error raised by the engine; ``ru``: the message in Russian."""


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
