"""Error answers in the documented shape: ``{"error": <reason>, "title": <kind>}``.

Every 4xx and 5xx the server sends is built here (the app's handlers, the
request guard, the body limit), in the player's language.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from pyramide.cards import Lang
from pyramide.errors import LocalisedError
from pyramide.i18n import translate

__all__ = ["TITLED", "answer", "error_response"]

TITLED = (400, 403, 404, 405, 409, 413, 415, 500, 503)
"""The statuses with a title of their own in the catalogue (``status.<code>``)."""


def error_response(status: int, reason: str, headers: dict[str, str] | None = None,
                   **extra: Any) -> JSONResponse:
    return JSONResponse({"error": reason, **extra}, status_code=status, headers=headers)


def answer(status: int, reason: LocalisedError, lang: Lang,
           headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    """An error answer in ``lang``: ``error`` is the reason, ``title`` the kind of error
    (the status's generic title when there is no more specific one)."""
    titled = status if status in TITLED else 500 if status >= 500 else 400
    return error_response(status, reason.text(lang), headers,
                          title=translate(lang, f"status.{titled}"), **extra)
