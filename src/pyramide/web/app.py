"""The HTTP layer: parse the request, call the service, map errors to 4xx.

No rule of the game lives here.  ``ValueError`` (every engine error is one)
becomes HTTP 400 with the reason; an unknown game 404; a stale action 409 with
the current state; a body over 64 KiB 413; anything unexpected 500.  Every
error answer is in the player's language.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any, Literal

from fastapi import Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pyramide import __version__
from pyramide.cards import Lang
from pyramide.errors import LocalisedError, PyramideError
from pyramide.i18n import catalogue, is_language, languages
from pyramide.messages import error_detail, error_title
from pyramide.web.answers import answer as _answer
from pyramide.web.answers import error_response as _error
from pyramide.web.faults import Recovering, Recovery, storage_fault
from pyramide.web.guard import LOCAL_HOSTS, Guard
from pyramide.web.players import PlayerCookie, Players, current_player
from pyramide.web.service import GameService, NotFoundError, StaleVersionError, browser_lang

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024
MAX_GAME_ID = 2**63 - 1


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, max_length=64)
    layout: str | None = Field(default=None, max_length=2000)
    rules: str | None = Field(default=None, max_length=8)
    random: bool = False
    winnable_only: bool = False
    difficulty: Literal["any", "easy", "medium", "hard"] = "any"
    daily: bool = False


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0)
    type: Literal["tap", "pile", "stock", "undo", "solution"]
    card: str | None = Field(default=None, max_length=8)
    pile: str | None = Field(default=None, max_length=16)


class PresenceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    visible: bool


class SettingsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lang: str | None = None
    explain_errors: bool | None = None
    warn_lost: bool | None = None
    animations: bool | None = None
    sounds: bool | None = None
    card_back: Literal["red", "blue", "green", "black"] | None = None
    felt: Literal["green", "blue", "red", "grey"] | None = None
    rules: str | None = Field(default=None, max_length=8)
    winnable_only: bool | None = None
    difficulty: Literal["any", "easy", "medium", "hard"] | None = None

    @field_validator("lang")
    @classmethod
    def _a_language_with_a_catalogue(cls, lang: str | None) -> str | None:
        if lang is not None and not is_language(lang):
            raise ValueError(f"no language {lang!r}: expected one of {', '.join(languages())}")
        return lang


class BodyLimit:
    """Refuse request bodies over ``MAX_BODY`` bytes with 413, before reading them whole;
    ``lang`` gives the player's language from the ``Accept-Language`` header."""

    def __init__(self, app: ASGIApp,
                 lang: Callable[[str | None], Lang] = browser_lang) -> None:
        self.app = app
        self.lang = lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await self._refuse(scope, receive, send)
            return
        # read the whole body first (a chunked one has no length to check): at most
        # MAX_BODY bytes are ever held, and an oversized one is refused before the app
        # sees any of it
        messages: list[Message] = []
        seen = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 413 in the player's language."""
        accept = dict(scope.get("headers", [])).get(b"accept-language")
        lang = self.lang(accept.decode("latin-1") if accept is not None else None)
        reason = LocalisedError("err.web.too_large", limit=MAX_BODY)
        await _answer(413, reason, lang)(scope, receive, send)


def game_number(text: str) -> int:
    """A game id from the URL: plain digits within SQLite's integer range, else
    no such game (404)."""
    if text.isascii() and text.isdigit() and int(text) <= MAX_GAME_ID:
        return int(text)
    raise NotFoundError("err.web.no_game_text", id=text)


def create_app(service: GameService, players: Players | None = None, *,
               hosts: Iterable[str] = LOCAL_HOSTS, port: int | None = None) -> FastAPI:
    """The app; ``players`` signs the hosted mode's player cookies (default: the
    embedded game's one player); requests must name one of ``hosts`` (with
    ``port``, when given) as their ``Host`` (see :mod:`pyramide.web.guard`)."""
    app = FastAPI(title="Pyramide", version=__version__,
                  description="Pyramid solitaire: the browser game's JSON API.")
    static = resources.files("pyramide") / "static"
    recovery = Recovery(service.store.reopen)

    def player_lang(accept_language: str | None, player: str | None = None) -> Lang:
        """The player's language; the browser's when the settings cannot be read
        (the database may be what failed)."""
        try:
            return service.lang(player, accept_language) if player else browser_lang(
                accept_language)
        except Exception:
            return browser_lang(accept_language)

    def request_lang(request: Request) -> Lang:
        return player_lang(request.headers.get("accept-language"),
                           getattr(request.state, "player", None))

    def localised(request: Request, exc: ValueError, status: int) -> JSONResponse:
        """The reason with a title in the player's language; ``detail`` is the engine's
        text in that language."""
        lang = request_lang(request)
        title, detail = error_title(exc, lang), error_detail(exc, lang)
        return _error(status, f"{title}: {detail}", title=title, detail=detail)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: {e['msg']}"
            for e in exc.errors()
        )
        malformed = PyramideError("err.web.malformed", problems=problems)
        return localised(request, malformed, 400)

    @app.exception_handler(ValueError)
    async def value_error(request: Request, exc: ValueError) -> JSONResponse:
        return localised(request, exc, 400)

    @app.exception_handler(NotFoundError)
    async def not_found(request: Request, exc: NotFoundError) -> JSONResponse:
        return _answer(404, exc, request_lang(request))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        name = type(exc).__name__
        reason = LocalisedError("err.web.internal", name=name)
        return _answer(500, reason, request_lang(request))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        """FastAPI's own answers (no such path 404, wrong method 405, …) in our shape."""
        lang = request_lang(request)
        if exc.status_code == 404:
            reason = LocalisedError("err.web.no_address", path=request.url.path)
        elif exc.status_code == 405:
            reason = LocalisedError("err.web.method", method=request.method,
                                    path=request.url.path)
        elif exc.status_code == 400:  # a body FastAPI could not decode at all
            reason = LocalisedError("err.web.body")
        else:
            reason = LocalisedError("err.web.http", detail=str(exc.detail))
        return _answer(exc.status_code, reason, lang, headers=dict(exc.headers or {}))

    @app.exception_handler(sqlite3.Error)
    @app.exception_handler(DBAPIError)
    async def storage(request: Request, exc: Exception) -> JSONResponse:
        fault = storage_fault(exc, service.store.path)
        if fault is None:
            return await crash(request, exc)
        recovery.due = True  # a fresh connection: none of the failed work stays open
        return _answer(503, fault, request_lang(request), headers={"Retry-After": "5"})

    @app.exception_handler(StaleVersionError)
    async def stale(request: Request, exc: StaleVersionError) -> JSONResponse:
        return _answer(409, exc, request_lang(request), state=exc.state)

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGameRequest, player: str = Depends(current_player),
                 accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        game_id = service.new_game(player, **body.model_dump())
        return service.state(player, game_id, service.lang(player, accept_language))

    @app.get("/api/games/current")
    def current_game(
        player: str = Depends(current_player),
        accept_language: str | None = Header(default=None),
    ) -> dict[str, Any] | None:
        """The game in progress, or ``null`` when there is none (not an error: a
        first visit has none)."""
        game_id = service.current_game_id(player)
        if game_id is None:
            return None
        return service.state(player, game_id, service.lang(player, accept_language))

    @app.get("/api/daily")
    def daily_deal(player: str = Depends(current_player)) -> dict[str, Any]:
        return service.daily(player)

    @app.get("/api/history")
    def history(rules: str = "N", page: int = 1,
                player: str = Depends(current_player)) -> dict[str, Any]:
        return service.history(player, rules, page)

    @app.get("/api/games/{game_id}")
    def get_game(game_id: str, player: str = Depends(current_player),
                 accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        return service.state(player, game_number(game_id),
                             service.lang(player, accept_language))

    @app.post("/api/games/{game_id}/actions")
    def act(game_id: str, body: ActionRequest, player: str = Depends(current_player),
            accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        return service.act(player, game_number(game_id), body.version, body.type, body.card,
                           service.lang(player, accept_language), pile=body.pile)

    @app.post("/api/games/{game_id}/replay", status_code=201)
    def replay(game_id: str, player: str = Depends(current_player),
               accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        new_id = service.replay(player, game_number(game_id))
        return service.state(player, new_id, service.lang(player, accept_language))

    @app.post("/api/games/{game_id}/presence")
    def presence(game_id: str, body: PresenceRequest, player: str = Depends(current_player),
                 accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        return service.presence(player, game_number(game_id), body.visible,
                                service.lang(player, accept_language))

    @app.get("/api/games/{game_id}/hint")
    def hint(game_id: str, player: str = Depends(current_player)) -> dict[str, Any]:
        return service.hint(player, game_number(game_id))

    @app.get("/api/games/{game_id}/solution")
    def solution(game_id: str, states: str | None = None,
                 player: str = Depends(current_player),
                 accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        return service.solution(player, game_number(game_id),
                                service.lang(player, accept_language), states=states)

    @app.get("/api/settings")
    def get_settings(player: str = Depends(current_player),
                     accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        return service.settings(player, accept_language)

    @app.put("/api/settings")
    def put_settings(body: SettingsRequest, player: str = Depends(current_player),
                     accept_language: str | None = Header(default=None)) -> dict[str, Any]:
        service.update_settings(player, body.model_dump(exclude_none=True))
        return service.settings(player, accept_language)

    @app.get("/api/rules")
    def list_rules(player: str = Depends(current_player),
                   accept_language: str | None = Header(default=None)) -> list[dict[str, Any]]:
        return service.rules(service.lang(player, accept_language))

    @app.get("/api/i18n")
    def list_languages() -> list[dict[str, str]]:
        """Every language the catalogue has, with its own name (Settings lists them)."""
        return [{"code": code, "name": str(catalogue(code)["_language"])}
                for code in languages()]

    @app.get("/api/i18n/{lang}")
    def language(lang: str, response: Response) -> dict[str, Any]:
        """One language's whole message catalogue: the page's every text."""
        if not is_language(lang):
            raise NotFoundError("err.web.no_language", lang=lang)
        response.headers["Cache-Control"] = "no-cache"
        return catalogue(lang)

    @app.get("/api/stats")
    def stats(rules: str = "N", player: str = Depends(current_player)) -> dict[str, Any]:
        return service.stats(player, rules)

    @app.get("/", include_in_schema=False)
    def index(player: str = Depends(current_player),
              accept_language: str | None = Header(default=None)) -> Response:
        page = static / "index.html"
        if not page.is_file():
            return _answer(404, LocalisedError("err.web.no_page"),
                           player_lang(accept_language, player))
        return FileResponse(str(page), headers={"Cache-Control": "no-cache"})

    if static.is_dir():
        app.mount("/static", StaticFiles(directory=str(static)), name="static")

    app.add_middleware(Recovering, recovery=recovery)
    app.add_middleware(BodyLimit, lang=player_lang)
    app.add_middleware(PlayerCookie, players=players or Players())
    app.add_middleware(Guard, hosts=hosts, port=port, lang=player_lang)
    return app
