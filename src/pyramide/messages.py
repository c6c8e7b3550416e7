"""Messages the engine reports, and how engine things read in each language.

The engine never builds user-facing text in its logic: it reports a
:class:`Message` key, and the UI looks the text up in the message catalogue
(:mod:`pyramide.i18n`, one file per language).

>>> text(Message.WRONG_SUM, "ru")
'Сумма должна быть равна 13'
>>> text(Message.WRONG_SUM, "en", target=12)
'The sum must equal 12'
>>> text(Message.BLOCKED, "en")
'This card is blocked by another card'
"""

from __future__ import annotations

import enum

from pyramide.cards import Lang
from pyramide.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDealCodeError,
    InvalidLayoutError,
    InvalidSaveError,
    PyramideError,
)
from pyramide.i18n import catalogue, translate
from pyramide.moves import Move
from pyramide.rules import Rules

__all__ = [
    "Message", "error_detail", "error_title", "move_label", "rules_description",
    "rules_name", "status_word", "text",
]


class Message(enum.StrEnum):
    WRONG_SUM = "wrong_sum"
    BLOCKED = "blocked"
    NO_MOVES = "no_moves"
    WON = "won"
    CANNOT_PAIR = "cannot_pair"
    NOTHING_TO_UNDO = "nothing_to_undo"
    STOCK_SPENT = "stock_spent"


def text(message: Message, lang: Lang, *, target: int = 13) -> str:
    """The text of ``message`` in ``lang``; ``target`` is the game's pair sum."""
    return translate(lang, f"msg.{message.value}", target=target)


_ERROR_TITLES: tuple[tuple[type[ValueError], str], ...] = (
    (InvalidDealCodeError, "title.deal_code"),
    (InvalidLayoutError, "title.card_list"),
    (InvalidCardError, "title.card"),
    (IllegalMoveError, "title.move"),
    (InvalidSaveError, "title.save"),
)


def error_detail(error: ValueError, lang: Lang) -> str:
    """The error's own text in ``lang`` when it has one (else English).

    >>> from pyramide.deals import DealCode
    >>> try:
    ...     DealCode.parse("PY1-N-AAAA")
    ... except InvalidDealCodeError as exc:
    ...     print(error_detail(exc, "ru"))
    в коде расклада 'PY1-N-AAAA' букв номера: 4, а нужно 7
    """
    return error.text(lang) if isinstance(error, PyramideError) else str(error)


def error_title(error: ValueError, lang: Lang) -> str:
    """A short title for an engine error in ``lang``; the error's own text gives the detail.

    >>> error_title(InvalidDealCodeError("err.code.type", text=7), "ru")
    'Неверный код расклада'
    """
    for kind, key in _ERROR_TITLES:
        if isinstance(error, kind):
            return translate(lang, key)
    return translate(lang, "title.request")


def move_label(move: Move, lang: Lang) -> str:
    """A move as the player reads it: ``10♣ + 3♠``, ``Д♦ + Т♠``, ``взять карту``.

    >>> move_label(Move.parse("QD+AS"), "ru"), move_label(Move.parse("draw"), "en")
    ('Д♦ + Т♠', 'draw')
    >>> move_label(Move.parse("cell:8S"), "en"), move_label(Move.parse("cell:QS"), "ru")
    ('8♠ to the cell', 'Д♠ в ячейку')
    """
    if move.kind == "cell":
        return translate(lang, "move.cell", card=move.cards[0].label(lang))
    if move.kind != "remove":
        return translate(lang, f"move.{move.kind}")
    return " + ".join(card.label(lang) for card in move.cards)


def status_word(status: str, lang: Lang) -> str:
    """A game status (``playing``, ``won``, ``lost``) as a word of ``lang``; the
    Russian word agrees with «партия».

    >>> status_word("won", "ru"), status_word("won", "en")
    ('выиграна', 'won')
    """
    return translate(lang, f"status.{status}") if f"status.{status}" in catalogue(lang) \
        else status


def _preset(rules: Rules) -> bool:
    """Whether ``rules`` is one of the named games (the catalogue has its texts)."""
    from pyramide.games import PRESETS

    return PRESETS.get(rules.letter) == rules


def rules_name(rules: Rules, lang: Lang) -> str:
    """The rule set's name in ``lang`` (a game description not in the catalogue goes
    by its own name)."""
    return translate(lang, f"game.{rules.letter}.name") if _preset(rules) else rules.name


def rules_description(rules: Rules, lang: Lang) -> str:
    """Every option of the rule set in one line, in ``lang``.

    >>> from pyramide.rules import PRESETS
    >>> rules_description(PRESETS["P"], "ru")
    'победа: вся колода, 2 пересдачи, по 1 карте, открытая колода'
    """
    line = f"game.{rules.letter}.line"
    if _preset(rules) and line in catalogue(lang):
        return translate(lang, line)
    redeals = (translate(lang, "option.redeals_unlimited") if rules.redeals is None
               else translate(lang, "option.redeals", n=rules.redeals))
    parts = [
        translate(lang, "option.win_all" if rules.win == "all" else "option.win_pyramid"),
        redeals,
        translate(lang, "option.draw", n=rules.draw_count),
    ]
    parts += [translate(lang, key) for key, on in (
        ("option.open_stock", rules.open_stock),
        (f"option.waste_pairs.{rules.waste_pairs}", rules.waste_pairs != "none"),
        ("option.covering_pairs", rules.covering_pairs),
    ) if on]
    return ", ".join(parts)
