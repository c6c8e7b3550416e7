"""The HTTP layer: parse the request, call the service, map errors to 4xx.

No rule of the game lives here.  ``ValueError`` (every engine error is one)
becomes HTTP 400 with the reason; an unknown game 404; a stale action 409 with
the current state; a body over 64 KiB 413; anything unexpected 500.  Every
error answer is in the player's language.

The app is plain Starlette: each endpoint is an :class:`Endpoint` row (method,
path, body model, status) over a small function of the request's
:class:`Call`, and the same rows give the OpenAPI schema (``/openapi.json``,
shown by ``/docs``).  FastAPI did this until the thirteenth session; importing
it took 170 ms of the server's start (docs/web.md).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from sqlalchemy.exc import DBAPIError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
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
from pyramide.web.players import PlayerCookie, Players
from pyramide.web.service import GameService, NotFoundError, StaleVersionError, browser_lang

__all__ = ["MAX_BODY", "Call", "Endpoint", "api_schema", "create_app"]

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


class DealCheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str | None = Field(default=None, max_length=64)
    layout: str | None = Field(default=None, max_length=2000)
    rules: str | None = Field(default=None, max_length=8)


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


def refusal(exc: ValidationError) -> PyramideError:
    """Why a body is refused: not JSON at all, or pydantic's complaints about its
    fields, one ``field: message`` each."""
    errors = exc.errors()
    if any(e["type"] == "json_invalid" for e in errors):
        return PyramideError("err.web.body")
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ())) or 'body'}: {e['msg']}" for e in errors)
    return PyramideError("err.web.malformed", problems=problems)


def whole_number(text: str, name: str) -> int:
    """A query parameter that must be a whole number (``?page=2``) of at most nine
    digits (a database offset made of it stays far inside 64 bits)."""
    if re.fullmatch(r"-?[0-9]{1,9}", text):
        return int(text)
    raise PyramideError("err.web.malformed",
                        problems=f"{name}: {text!r} is not a whole number of at most 9 digits")


@dataclass(frozen=True)
class Call:
    """What an endpoint gets of its request: the player (the middleware found
    them), their ``Accept-Language``, the path's and the query's parameters and
    the body, checked against the endpoint's model."""

    player: str
    accept_language: str | None
    path: Mapping[str, str]
    query: Mapping[str, str]
    body: Any = None

    @property
    def game(self) -> int:
        return game_number(self.path["game_id"])


@dataclass(frozen=True)
class Endpoint:
    """One row of the API: ``run`` answers a :class:`Call` with the JSON payload
    (or a whole response)."""

    method: str
    path: str
    run: Callable[[Call], Any]
    body: type[BaseModel] | None = None
    status: int = 200
    query: tuple[str, ...] = ()
    in_schema: bool = True

    @property
    def summary(self) -> str:
        doc = (self.run.__doc__ or "").strip()
        return doc.split("\n\n")[0].replace("\n", " ") if doc else \
            self.run.__name__.replace("_", " ").capitalize()

    def route(self) -> Route:
        async def endpoint(request: Request) -> Response:
            body = None
            if self.body is not None:
                try:
                    body = self.body.model_validate_json(await request.body())
                except ValidationError as exc:
                    raise refusal(exc) from None
            call = Call(player=request.state.player,
                        accept_language=request.headers.get("accept-language"),
                        path=request.path_params, query=request.query_params, body=body)
            result = await run_in_threadpool(self.run, call)
            if isinstance(result, Response):
                return result
            return JSONResponse(result, status_code=self.status)

        endpoint.__name__ = self.run.__name__
        return Route(self.path, endpoint, methods=[self.method])


def api_schema(endpoints: Iterable[Endpoint]) -> dict[str, Any]:
    """The OpenAPI document of ``endpoints``: paths, their parameters and the
    request bodies' JSON schemas."""
    paths: dict[str, dict[str, Any]] = {}
    schemas: dict[str, Any] = {}
    for e in endpoints:
        if not e.in_schema:
            continue
        operation: dict[str, Any] = {
            "operationId": e.run.__name__, "summary": e.summary,
            "responses": {str(e.status): {"description": "the answer, JSON"},
                          "400": {"description": "refused: the reason in the player's "
                                                 "language (`error`, `title`)"}},
        }
        parameters = [{"name": n, "in": "path", "required": True, "schema": {"type": "string"}}
                      for n in re.findall(r"{(\w+)}", e.path)]
        parameters += [{"name": n, "in": "query", "required": False,
                        "schema": {"type": "string"}} for n in e.query]
        if parameters:
            operation["parameters"] = parameters
        if e.body is not None:
            name = e.body.__name__
            schemas[name] = e.body.model_json_schema()
            operation["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}
        paths.setdefault(e.path, {})[e.method.lower()] = operation
    return {"openapi": "3.1.0",
            "info": {"title": "Pyramide", "version": __version__,
                     "description": "Pyramid solitaire: the browser game's JSON API."},
            "paths": paths, "components": {"schemas": schemas}}


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pyramide: the API</title>
<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui.css">
</head><body><div id="api"></div>
<script src="https://cdn.jsdelivr.net/npm/swagger-ui-dist@5/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({url: "/openapi.json", dom_id: "#api"});</script>
</body></html>
"""
"""``/docs``: Swagger UI (from its CDN) over ``/openapi.json``."""


def create_app(service: GameService, players: Players | None = None, *,
               hosts: Iterable[str] = LOCAL_HOSTS, port: int | None = None) -> Starlette:
    """The app; ``players`` signs the hosted mode's player cookies (default: the
    embedded game's one player); requests must name one of ``hosts`` (with
    ``port``, when given) as their ``Host`` (see :mod:`pyramide.web.guard`)."""
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

    def lang(call: Call) -> Lang:
        return service.lang(call.player, call.accept_language)

    async def value_error(request: Request, exc: Exception) -> Response:
        """The reason with a title in the player's language; ``detail`` is the engine's
        text in that language."""
        assert isinstance(exc, ValueError)
        language = request_lang(request)
        title, detail = error_title(exc, language), error_detail(exc, language)
        return _error(400, f"{title}: {detail}", title=title, detail=detail)

    async def not_found(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, NotFoundError)
        return _answer(404, exc, request_lang(request))

    async def crash(request: Request, exc: Exception) -> Response:
        reason = LocalisedError("err.web.internal", name=type(exc).__name__)
        return _answer(500, reason, request_lang(request))

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own answers (no such path 404, wrong method 405, …) in our shape."""
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            reason = LocalisedError("err.web.no_address", path=request.url.path)
        elif exc.status_code == 405:
            reason = LocalisedError("err.web.method", method=request.method,
                                    path=request.url.path)
        else:
            reason = LocalisedError("err.web.http", detail=str(exc.detail))
        return _answer(exc.status_code, reason, request_lang(request),
                       headers=dict(exc.headers or {}))

    async def storage(request: Request, exc: Exception) -> Response:
        fault = storage_fault(exc, service.store.path)
        if fault is None:
            return await crash(request, exc)
        recovery.due = True  # a fresh connection: none of the failed work stays open
        return _answer(503, fault, request_lang(request), headers={"Retry-After": "5"})

    async def stale(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StaleVersionError)
        return _answer(409, exc, request_lang(request), state=exc.state)

    def new_game(call: Call) -> dict[str, Any]:
        """A new game (by deal code, card list, at random or the daily deal)."""
        game_id = service.new_game(call.player, **call.body.model_dump())
        return service.state(call.player, game_id, lang(call))

    def check_deal(call: Call) -> dict[str, Any]:
        """Whether a deal code or card list names a deal (no game is started)."""
        return service.check_deal(**call.body.model_dump())

    def current_game(call: Call) -> dict[str, Any] | None:
        """The game in progress, or ``null`` when there is none (not an error: a
        first visit has none)."""
        game_id = service.current_game_id(call.player)
        return None if game_id is None else service.state(call.player, game_id, lang(call))

    def daily_deal(call: Call) -> dict[str, Any]:
        return service.daily(call.player)

    def history(call: Call) -> dict[str, Any]:
        return service.history(call.player, call.query.get("rules", "N"),
                               whole_number(call.query.get("page", "1"), "page"))

    def get_game(call: Call) -> dict[str, Any]:
        return service.state(call.player, call.game, lang(call))

    def act(call: Call) -> dict[str, Any]:
        body = call.body
        return service.act(call.player, call.game, body.version, body.type, body.card,
                           lang(call), pile=body.pile)

    def replay(call: Call) -> dict[str, Any]:
        """The same deal again, as a new game."""
        new_id = service.replay(call.player, call.game)
        return service.state(call.player, new_id, lang(call))

    def presence(call: Call) -> dict[str, Any]:
        """The page is shown or hidden: the clock runs only while it is shown."""
        return service.presence(call.player, call.game, call.body.visible, lang(call))

    def hint(call: Call) -> dict[str, Any]:
        return service.hint(call.player, call.game)

    def solution(call: Call) -> dict[str, Any]:
        """The solver's line from the game's position (``states``: a bigger budget)."""
        return service.solution(call.player, call.game, lang(call),
                                states=call.query.get("states"))

    def get_settings(call: Call) -> dict[str, Any]:
        return service.settings(call.player, call.accept_language)

    def put_settings(call: Call) -> dict[str, Any]:
        service.update_settings(call.player, call.body.model_dump(exclude_none=True))
        return service.settings(call.player, call.accept_language)

    def list_rules(call: Call) -> list[dict[str, Any]]:
        return service.rules(lang(call))

    def list_languages(call: Call) -> list[dict[str, str]]:
        """Every language the catalogue has, with its own name (Settings lists them)."""
        return [{"code": code, "name": str(catalogue(code)["_language"])}
                for code in languages()]

    def language(call: Call) -> Response:
        """One language's whole message catalogue: the page's every text."""
        code = call.path["lang"]
        if not is_language(code):
            raise NotFoundError("err.web.no_language", lang=code)
        return JSONResponse(catalogue(code), headers={"Cache-Control": "no-cache"})

    def stats(call: Call) -> dict[str, Any]:
        return service.stats(call.player, call.query.get("rules", "N"))

    def index(call: Call) -> Response:
        page = static / "index.html"
        if not page.is_file():
            return _answer(404, LocalisedError("err.web.no_page"),
                           player_lang(call.accept_language, call.player))
        return FileResponse(str(page), headers={"Cache-Control": "no-cache"})

    endpoints = [
        Endpoint("POST", "/api/games", new_game, NewGameRequest, status=201),
        Endpoint("POST", "/api/deals/check", check_deal, DealCheckRequest),
        Endpoint("GET", "/api/games/current", current_game),
        Endpoint("GET", "/api/daily", daily_deal),
        Endpoint("GET", "/api/history", history, query=("rules", "page")),
        Endpoint("GET", "/api/games/{game_id}", get_game),
        Endpoint("POST", "/api/games/{game_id}/actions", act, ActionRequest),
        Endpoint("POST", "/api/games/{game_id}/replay", replay, status=201),
        Endpoint("POST", "/api/games/{game_id}/presence", presence, PresenceRequest),
        Endpoint("GET", "/api/games/{game_id}/hint", hint),
        Endpoint("GET", "/api/games/{game_id}/solution", solution, query=("states",)),
        Endpoint("GET", "/api/settings", get_settings),
        Endpoint("PUT", "/api/settings", put_settings, SettingsRequest),
        Endpoint("GET", "/api/rules", list_rules),
        Endpoint("GET", "/api/i18n", list_languages),
        Endpoint("GET", "/api/i18n/{lang}", language),
        Endpoint("GET", "/api/stats", stats, query=("rules",)),
        Endpoint("GET", "/", index, in_schema=False),
    ]
    schema: list[dict[str, Any]] = []  # built on the first request for it

    async def openapi(request: Request) -> Response:
        if not schema:
            schema.append(api_schema(endpoints))
        return JSONResponse(schema[0])

    async def docs(request: Request) -> Response:
        return HTMLResponse(DOCS_PAGE)

    routes: list[BaseRoute] = [e.route() for e in endpoints]
    routes += [Route("/openapi.json", openapi, methods=["GET"]),
               Route("/docs", docs, methods=["GET"])]
    if static.is_dir():
        routes.append(Mount("/static", StaticFiles(directory=str(static)), name="static"))
    return Starlette(
        routes=routes,
        middleware=[Middleware(Guard, hosts=hosts, port=port, lang=player_lang),
                    Middleware(PlayerCookie, players=players or Players()),
                    Middleware(BodyLimit, lang=player_lang),
                    Middleware(Recovering, recovery=recovery)],
        exception_handlers={ValueError: value_error, NotFoundError: not_found,
                            Exception: crash, HTTPException: http_error,
                            sqlite3.Error: storage, DBAPIError: storage,
                            StaleVersionError: stale},
    )
