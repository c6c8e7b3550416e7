"""The message catalogue: every text a player reads, in every language, in one place.

Each language is one file, ``locales/<code>.json``: an object from message keys to
texts.  Texts use Python's ``str.format`` fields (``{target}``, ``{text!r}``); a text
that depends on a number is an object of CLDR plural categories (``one``, ``few``,
``many``, ``other``), chosen with the language's CLDR plural rule (Babel here, the
browser's ``Intl.PluralRules`` on the page).  The page receives the same catalogue
as JSON (``GET /api/i18n/<code>``), so Python and JavaScript never keep a text of
their own.  Adding a language is adding one file; ``_language`` in it is the
language's own name, shown in Settings.

Glossary: *key* — a message's name (``wrong_sum``); *text* — its wording in one
language; *params* — the values filled into the text; a *localised* param is any
object with ``text(lang)``, rendered in the same language (a nested error, a card).

>>> translate("en", "msg.wrong_sum", target=12)
'The sum must equal 12'
>>> translate("ru", "stockCards", n=3)
'Колода, карт: 3'
>>> translate("ru", "plural.cards", n=21)
'21 карта'
>>> sorted(languages())
['en', 'ru']
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales")
"""The catalogue files, one per language (package data, next to this module;
read with plain ``os`` calls: ``importlib.resources`` costs start-up time)."""

__all__ = [
    "DEFAULT_LANG", "Lazy", "Localised", "Phrase", "UnknownLanguageError", "catalogue",
    "fields", "is_language", "language_name", "languages", "translate",
]

DEFAULT_LANG = "en"
"""The language of the command line and of errors read as plain exceptions."""


class UnknownLanguageError(LookupError):
    """No catalogue file for the language asked for."""


class Localised(Protocol):
    """Anything that can say itself in a language (errors, phrases, cards)."""

    def text(self, lang: str) -> str: ...


@dataclass(frozen=True)
class Phrase:
    """A message key with its params, rendered when the language is known.

    >>> Phrase("msg.wrong_sum", {"target": 13}).text("ru")
    'Сумма должна быть равна 13'
    """

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return translate(lang, self.key, **self.params)


@dataclass(frozen=True)
class Lazy:
    """A text computed for a language by a function (a move label, a card list)."""

    render: Callable[[str], str]

    def text(self, lang: str) -> str:
        return self.render(lang)


@cache
def languages() -> tuple[str, ...]:
    """The codes of every catalogue file, sorted."""
    return tuple(sorted(name.removesuffix(".json") for name in os.listdir(LOCALES)
                        if name.endswith(".json")))


def is_language(code: object) -> bool:
    return isinstance(code, str) and code in languages()


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The whole catalogue of ``lang`` (what the page receives)."""
    if not is_language(lang):
        raise UnknownLanguageError(f"no catalogue for language {lang!r}: "
                                   f"expected one of {', '.join(languages())}")
    with open(os.path.join(LOCALES, f"{lang}.json"), encoding="utf-8") as file:
        loaded: dict[str, Any] = json.load(file)
    return loaded


def language_name(lang: str) -> str:
    """The language's own name: ``Русский``, ``English``."""
    return str(catalogue(lang)["_language"])


def _plural_category(lang: str, n: float) -> str:
    from babel import Locale  # only numbers need it; keeps start-up light

    return str(Locale.parse(lang).plural_form(abs(n)))


def _wording(lang: str, key: str, params: Mapping[str, object]) -> str:
    entry = catalogue(lang).get(key)
    if entry is None and lang != DEFAULT_LANG:
        entry = catalogue(DEFAULT_LANG).get(key)
    if entry is None:
        raise KeyError(f"no message {key!r} in the catalogue")
    if isinstance(entry, dict):
        count = params.get("n")
        if not isinstance(count, int | float):
            raise TypeError(f"message {key!r} needs a number n, got {count!r}")
        form = entry.get(_plural_category(lang, count), entry["other"])
        return str(form)
    return str(entry)


def translate(lang: str, key: str, /, **params: object) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in; localised params
    (anything with ``text(lang)``) are rendered in ``lang`` first."""
    shown = {name: _rendered(value, lang) for name, value in params.items()}
    return _wording(lang, key, params).format(**shown)


def _rendered(value: object, lang: str) -> object:
    render = getattr(value, "text", None)
    return render(lang) if callable(render) and not isinstance(value, str) else value


def fields(text: str) -> set[str]:
    """The names of the fields a text fills in (checks that languages agree).

    >>> sorted(fields("card {text!r}: no suit {suit!r}"))
    ['suit', 'text']
    """
    return {name.split(".")[0].split("[")[0]
            for _, name, _, _ in string.Formatter().parse(text) if name}
