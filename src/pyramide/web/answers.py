"""Error answers in the documented shape: ``{"error": <reason>, "title": <kind>}``.

Every 4xx and 5xx the server sends is built here (the app's handlers, the
request guard, the body limit), in the player's language.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from pyramide.cards import Lang
from pyramide.errors import LocalisedError

__all__ = ["TITLES", "answer", "error_response"]

TITLES: dict[int, dict[Lang, str]] = {
    400: {"ru": "Неверный запрос", "en": "Bad request"},
    403: {"ru": "Запрос отклонён", "en": "Request refused"},
    404: {"ru": "Не найдено", "en": "Not found"},
    405: {"ru": "Метод не поддерживается", "en": "Method not allowed"},
    409: {"ru": "Партия изменилась", "en": "Game changed"},
    413: {"ru": "Слишком большой запрос", "en": "Request too large"},
    415: {"ru": "Неверный тип запроса", "en": "Unsupported media type"},
    500: {"ru": "Ошибка сервера", "en": "Server error"},
    503: {"ru": "Хранилище недоступно", "en": "Storage unavailable"},
}


def error_response(status: int, reason: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    return JSONResponse({"error": reason, **extra}, status_code=status, headers=headers)


def answer(status: int, reason: LocalisedError, lang: Lang,
           headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    """An error answer in ``lang``: ``error`` is the reason, ``title`` the kind of error
    (the status's generic title when there is no more specific one)."""
    titles = TITLES.get(status) or TITLES[500 if status >= 500 else 400]
    return error_response(status, reason.text(lang), headers, title=titles[lang], **extra)
