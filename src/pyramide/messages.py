"""Messages the engine reports, as keys with Russian and English texts.

The engine never builds user-facing text in its logic: it reports a
:class:`Message` key, and the UI looks the text up here.

>>> text(Message.SUM_NOT_13, "ru")
'Сумма должна быть равна 13'
>>> text(Message.BLOCKED, "en")
'This card is blocked by another card'
"""

from __future__ import annotations

import enum

from pyramide.cards import Lang

__all__ = ["TEXTS", "Message", "text"]


class Message(enum.StrEnum):
    SUM_NOT_13 = "sum_not_13"
    BLOCKED = "blocked"
    NO_MOVES = "no_moves"
    WON = "won"
    CANNOT_PAIR = "cannot_pair"
    NOTHING_TO_UNDO = "nothing_to_undo"
    STOCK_SPENT = "stock_spent"


TEXTS: dict[Message, dict[Lang, str]] = {
    Message.SUM_NOT_13: {
        "ru": "Сумма должна быть равна 13",
        "en": "The sum must equal 13",
    },
    Message.BLOCKED: {
        "ru": "Эта карта заблокирована другой картой",
        "en": "This card is blocked by another card",
    },
    Message.NO_MOVES: {
        "ru": "Больше нет доступных ходов",
        "en": "No more moves available",
    },
    Message.WON: {
        "ru": "Победа! Пирамида разобрана",
        "en": "You won! The pyramid is cleared",
    },
    Message.CANNOT_PAIR: {
        "ru": "Эти карты нельзя убрать вместе",
        "en": "These two cards cannot be removed together",
    },
    Message.NOTHING_TO_UNDO: {
        "ru": "Нечего отменять",
        "en": "Nothing to undo",
    },
    Message.STOCK_SPENT: {
        "ru": "Колоду больше нельзя пройти",
        "en": "The stock cannot be turned over again",
    },
}


def text(message: Message, lang: Lang) -> str:
    """The text of ``message`` in ``lang`` (``"ru"`` or ``"en"``)."""
    return TEXTS[message][lang]
