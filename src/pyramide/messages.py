"""Messages the engine reports, as keys with Russian and English texts.

The engine never builds user-facing text in its logic: it reports a
:class:`Message` key, and the UI looks the text up here.

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
from pyramide.moves import Move
from pyramide.rules import Rules

__all__ = [
    "TEXTS", "Message", "error_detail", "error_title", "move_label", "rules_description",
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


TEXTS: dict[Message, dict[Lang, str]] = {
    Message.WRONG_SUM: {
        "ru": "Сумма должна быть равна {target}",
        "en": "The sum must equal {target}",
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


def text(message: Message, lang: Lang, *, target: int = 13) -> str:
    """The text of ``message`` in ``lang`` (``"ru"`` or ``"en"``); ``target`` is the
    game's pair sum."""
    return TEXTS[message][lang].format(target=target)


_ERROR_TITLES: tuple[tuple[type[ValueError], dict[Lang, str]], ...] = (
    (InvalidDealCodeError, {"ru": "Неверный код раздачи", "en": "Invalid deal code"}),
    (InvalidLayoutError, {"ru": "Неверный список карт", "en": "Invalid card list"}),
    (InvalidCardError, {"ru": "Неизвестная карта", "en": "Unreadable card"}),
    (IllegalMoveError, {"ru": "Недопустимый ход", "en": "Illegal move"}),
    (InvalidSaveError, {"ru": "Сохранённая партия повреждена", "en": "Corrupt saved game"}),
)
_BAD_REQUEST: dict[Lang, str] = {"ru": "Неверный запрос", "en": "Bad request"}


def error_detail(error: ValueError, lang: Lang) -> str:
    """The error's own text in ``lang`` when it has one (else English).

    >>> from pyramide.deals import DealCode
    >>> try:
    ...     DealCode.parse("PY1-N-AAAA")
    ... except InvalidDealCodeError as exc:
    ...     print(error_detail(exc, "ru"))
    в коде раздачи 'PY1-N-AAAA' букв номера: 4, а нужно 7
    """
    return error.text(lang) if isinstance(error, PyramideError) else str(error)


def error_title(error: ValueError, lang: Lang) -> str:
    """A short title for an engine error in ``lang``; the error's own text gives the detail.

    >>> error_title(InvalidDealCodeError("x"), "ru")
    'Неверный код раздачи'
    """
    for kind, titles in _ERROR_TITLES:
        if isinstance(error, kind):
            return titles[lang]
    return _BAD_REQUEST[lang]


_RULE_NAMES_RU = {
    "N": "Пирамида",
    "C": "Пирамида, пары с накрывающей картой",
    "P": "Пирамида PySolFC",
    "R": "Облегчённая пирамида (PySolFC)",
    "M": "Пирамида Microsoft",
    "T": "Гробница Тутанхамона",
    "O": "Один проход, строгая",
    "N1": "Один проход",
    "C1": "Один проход, пары с накрывающей картой",
    "N1W": "Один проход, вся колода",
    "C1W": "Один проход, вся колода, пары с накрывающей картой",
    "G": "Гиза",
    "A": "Апофис",
    "V": "Треугольник",
    "Y": "Уступка",
    "S": "Шесть рядов",
    "E": "Испанская колода",
    "B": "Резервный ряд",
    "L": "Свободная ячейка",
    "D": "Пирамида «пар»",
}


_MOVE_WORDS: dict[str, dict[Lang, str]] = {
    "draw": {"ru": "взять карту", "en": "draw"},
    "recycle": {"ru": "перевернуть отбой", "en": "recycle"},
}


def move_label(move: Move, lang: Lang) -> str:
    """A move as the player reads it: ``10♣ + 3♠``, ``Д♦ + Т♠``, ``взять карту``.

    >>> move_label(Move.parse("QD+AS"), "ru"), move_label(Move.parse("draw"), "en")
    ('Д♦ + Т♠', 'draw')
    """
    if move.kind != "remove":
        return _MOVE_WORDS[move.kind][lang]
    return " + ".join(card.label(lang) for card in move.cards)


_STATUS_WORDS_RU = {"playing": "идёт", "won": "выиграна", "lost": "проиграна"}


def status_word(status: str, lang: Lang) -> str:
    """A game status (``playing``, ``won``, ``lost``) as a word of ``lang``; the
    Russian word agrees with «партия».

    >>> status_word("won", "ru"), status_word("won", "en")
    ('выиграна', 'won')
    """
    return _STATUS_WORDS_RU.get(status, status) if lang == "ru" else status


def rules_name(rules: Rules, lang: Lang) -> str:
    """The rule set's name in ``lang`` (English names are the presets' own)."""
    return _RULE_NAMES_RU.get(rules.letter, rules.name) if lang == "ru" else rules.name


_GAME_LINES: dict[str, dict[Lang, str]] = {
    "G": {"en": "No stock: 8 fanned reserve piles of 3 under the pyramid; clear all 52 cards",
          "ru": "Без колоды: под пирамидой 8 открытых стопок по 3 карты; убрать все 52 карты"},
    "A": {"en": "Three waste piles, a tap deals one card onto each; three passes; clear all 52",
          "ru": "Три стопки сброса, каждый ход кладёт по карте на каждую; три прохода; "
                "убрать все 52"},
    "V": {"en": "An inverted pyramid, one card free at the start; open stock, three passes; "
                "clear all 52",
          "ru": "Перевёрнутая пирамида, вначале свободна одна карта; открытая колода, "
                "три прохода; убрать все 52"},
    "Y": {"en": "The inverted pyramid, one pass; both ends of the waste play; clear all 52",
          "ru": "Перевёрнутая пирамида, один проход; играют обе крайние карты сброса; "
                "убрать все 52"},
    "S": {"en": "A six-row pyramid of 21 cards, a 30-card stock; won at 210",
          "ru": "Пирамида из шести рядов, 21 карта, в колоде 30; победа при 210 очках"},
    "E": {"en": "The 48-card Spanish deck (no tens): pairs sum to 12, kings go alone",
          "ru": "Испанская колода из 48 карт (без десяток): пары дают 12, короли уходят одни"},
    "B": {"en": "A row of 7 reserve cards under the pyramid, free until played",
          "ru": "Под пирамидой ряд из 7 запасных карт, свободных до хода"},
    "L": {"en": "One free cell for a free pyramid card or the waste top",
          "ru": "Одна свободная ячейка для свободной карты пирамиды или верхней карты сброса"},
    "D": {"en": "Three deals, the drawn card pairs with the waste top; clear everything; "
                "par scores",
          "ru": "Три раздачи, взятая карта играет с верхней картой сброса; убрать всё; "
                "счёт «пар»"},
    "H": {"en": "Rows 1-6 dealt face down, turned up when uncovered; one pass; clear all 52",
          "ru": "Ряды 1-6 лежат рубашкой вверх и открываются, когда освободятся; один проход; "
                "убрать все 52"},
    "F": {"en": "Three pyramids of 2, 7 and 6 rows, no stock; clear all 52",
          "ru": "Три пирамиды из 2, 7 и 6 рядов, без колоды; убрать все 52"},
    "K": {"en": "Pairs of equal or neighbouring rank, nothing alone; one pass; clear all 52",
          "ru": "Пары одного или соседнего достоинства, по одной не убирают; один проход; "
                "убрать все 52"},
    "Z": {"en": "6 reserve piles of 4, pairs sum to 12, queen with king; no stock",
          "ru": "6 запасных стопок по 4, пары дают 12, дама с королём; без колоды"},
    "I": {"en": "Inverted pyramid, three waste piles, pairs sum to 11 or J+J, Q+Q, K+K; one pass",
          "ru": "Перевёрнутая пирамида, три стопки сброса, пары дают 11 или В+В, Д+Д, К+К; "
                "один проход"},
    "W": {"en": "Two decks, a 9-row pyramid of 45 cards; open stock, three passes",
          "ru": "Две колоды, пирамида из 9 рядов, 45 карт; открытая колода, три прохода"},
    "X": {"en": "Two decks, two pyramids side by side; open stock, three passes",
          "ru": "Две колоды, две пирамиды рядом; открытая колода, три прохода"},
    "U": {"en": "Two decks, a pyramid beside an inverted one; open stock, three passes",
          "ru": "Две колоды, пирамида и перевёрнутая пирамида рядом; открытая колода, "
                "три прохода"},
}
"""One line for each game of the family (the rule sets of §10 list their options)."""


def rules_description(rules: Rules, lang: Lang) -> str:
    """Every option of the rule set in one line, in ``lang``.

    >>> from pyramide.rules import PRESETS
    >>> rules_description(PRESETS["P"], "ru")
    'победа: вся колода, 2 пересдачи, по 1 карте, открытая колода'
    """
    if rules.letter in _GAME_LINES:
        return _GAME_LINES[rules.letter][lang]
    if lang == "en":
        return rules.describe()
    redeals = "без ограничения пересдач" if rules.redeals is None else (
        f"{rules.redeals} пересдач" + ("и" if 2 <= rules.redeals <= 4 else "")
    )
    parts = [
        "победа: вся колода" if rules.win == "all" else "победа: пирамида",
        redeals,
        f"по {rules.draw_count} карте" if rules.draw_count == 1 else f"по {rules.draw_count} карты",
    ]
    parts += [flag for flag, on in (
        ("открытая колода", rules.open_stock),
        ("пары в сбросе", rules.waste_pairs),
        ("пары с накрывающей картой", rules.covering_pairs),
    ) if on]
    return ", ".join(parts)
