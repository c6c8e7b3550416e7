"""Who is playing: the embedded game's one player, or in hosted mode each browser.

In hosted mode a browser is an anonymous player identified by the cookie
``pyramide_player``: a random id and its HMAC-SHA256 signature under the
server's secret (``PYRAMIDE_SECRET``, else a file ``secret`` created in the
user data directory; every app host of one deployment needs the same secret).
The cookie is HttpOnly and SameSite=Lax (Secure when the request came over
HTTPS); a missing or forged one gets a new player.  The middleware puts the
player in ``scope["state"]["player"]`` for the endpoints.

>>> players = Players(b"k" * 32)
>>> players.verify(players.sign("abc"))
'abc'
>>> players.verify("abc.forged") is None
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pyramide.web.schema import LOCAL_PLAYER

__all__ = ["COOKIE", "SECRET_ENV", "PlayerCookie", "Players", "load_secret"]

COOKIE = "pyramide_player"
SECRET_ENV = "PYRAMIDE_SECRET"
MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie


def load_secret(data_dir: Path) -> bytes:
    """The signing secret: ``$PYRAMIDE_SECRET``, else ``data_dir/secret`` (created
    with 32 random bytes, readable by its owner only)."""
    from_env = os.environ.get(SECRET_ENV)
    if from_env:
        if len(from_env) < 16:
            raise ValueError(f"{SECRET_ENV} is too short (at least 16 characters)")
        return from_env.encode()
    path = data_dir / "secret"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as file:
            file.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


class Players:
    """Signs and checks player ids; ``secret=None`` is the embedded game: one player."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret

    @property
    def hosted(self) -> bool:
        return self.secret is not None

    def sign(self, player: str) -> str:
        assert self.secret is not None
        mac = hmac.new(self.secret, player.encode(), hashlib.sha256).digest()
        return f"{player}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"

    def verify(self, value: str) -> str | None:
        """The player of a cookie value, or ``None`` if the signature is wrong."""
        player, _, _mac = value.partition(".")
        if not player or not player.replace("-", "").replace("_", "").isalnum():
            return None
        return player if hmac.compare_digest(self.sign(player), value) else None


class PlayerCookie:
    """ASGI middleware: find the request's player; give a new browser its cookie."""

    def __init__(self, app: ASGIApp, players: Players) -> None:
        self.app = app
        self.players = players

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        if not self.players.hosted:
            state["player"] = LOCAL_PLAYER
            await self.app(scope, receive, send)
            return
        player = None
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                for pair in value.decode("latin-1").split(";"):
                    key, _, given = pair.strip().partition("=")
                    if key == COOKIE and player is None:
                        player = self.players.verify(given.strip().strip('"'))
        if player is not None:
            state["player"] = player
            await self.app(scope, receive, send)
            return
        player = state["player"] = secrets.token_urlsafe(16)
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        cookie = (f"{COOKIE}={self.players.sign(player)}; Path=/; Max-Age={MAX_AGE}; "
                  f"HttpOnly; SameSite=Lax{secure}")

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, with_cookie)


