"""The family of errors the engine raises.

Every error is a :class:`ValueError`, so a caller (the command line, the web
server) can map all of them to one clear message.  Each message quotes the bad
input.  An error names its message by a catalogue key (:mod:`pyramide.i18n`) with
the values to fill in, so it can be told in any language; ``str(error)`` is the
English text.  :class:`LocalisedError` gives the same to errors that are not
``ValueError`` (the web server's unknown game and stale action).

>>> error = InvalidDealCodeError("err.code.type", text=7)
>>> str(error)
'deal code 7 is not text'
>>> error.text("ru")
'код расклада 7 — не текст'
"""

from __future__ import annotations

from typing import Any

from pyramide.i18n import DEFAULT_LANG, languages, translate

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
    """An error whose message is a catalogue key and its params."""

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params
        self._texts: dict[str, str] | None = None
        super().__init__(self.text(DEFAULT_LANG))

    def text(self, lang: str) -> str:
        """The message in ``lang``."""
        if self._texts is not None:
            return self._texts.get(lang, self._texts[DEFAULT_LANG])
        return translate(lang, self.key, **self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        # params may hold functions (a move label): travel between processes as texts
        texts = {lang: self.text(lang) for lang in languages()}
        return (_rebuilt, (type(self), self.key, texts))


def _rebuilt(kind: type[LocalisedError], key: str, texts: dict[str, str]) -> LocalisedError:
    error = kind.__new__(kind)
    Exception.__init__(error, texts[DEFAULT_LANG])
    error.key, error.params, error._texts = key, {}, texts
    return error


class PyramideError(LocalisedError, ValueError):
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
