"""Refuse what is not ours: the request guard and the page's security headers.

One ASGI middleware, independent of the framework underneath:

- **Host allowlist** (against DNS rebinding): the ``Host`` header must name
  the bound address, ``localhost``, ``127.0.0.1`` or ``[::1]`` (or a name given
  with ``--allow-host``), bare or with the server's port.  Anything else: 403.
- **Cross-site writes** (CSRF): a request that may change something (any
  method but GET, HEAD and OPTIONS) must say ``Content-Type: application/json``
  (else 415), and is refused with 403 when ``Origin`` names another origin
  or ``Sec-Fetch-Site`` says ``same-site`` / ``cross-site`` (another port on
  ``localhost`` is "same-site" to a browser, and not ours).
- **Headers on every answer**: ``X-Frame-Options: DENY`` and a
  Content-Security-Policy allowing scripts, styles and requests from the
  server itself only, no framing; ``X-Content-Type-Options: nosniff``;
  ``Referrer-Policy: same-origin``.  The API's ``/docs`` page loads
  Swagger UI from its CDN with an inline script, so it alone gets a policy
  that allows those.

Every refusal is the documented error shape in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pyramide.cards import Lang
from pyramide.errors import LocalisedError
from pyramide.i18n import Phrase
from pyramide.web.answers import answer

__all__ = ["LOCAL_HOSTS", "PAGE_POLICY", "Guard", "host_names"]

LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
DOCS_PATHS = ("/docs",)
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def host_names(bound: str, extra: Iterable[str] = ()) -> list[str]:
    """The names a request's ``Host`` may use: the local ones, the bound address
    (an IPv6 one in brackets; a wildcard address adds nothing) and ``extra``."""
    names = list(LOCAL_HOSTS)
    bound = bound.strip().lower()
    if ":" in bound and not bound.startswith("["):
        bound = f"[{bound}]"
    if bound not in ("", "0.0.0.0", "[::]"):
        names.append(bound)
    names += [name.strip().lower() for name in extra if name.strip()]
    return list(dict.fromkeys(names))


class Guard:
    """The request guard (module docstring); ``port`` ``None`` accepts any port
    with an allowed name (an in-process test client has no port of its own)."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], port: int | None,
                 lang: Callable[[str | None], Lang]) -> None:
        self.app = app
        self.hosts = frozenset(name.lower() for name in hosts)
        self.port = port
        self.lang = lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope["method"], headers)
        policy = DOCS_POLICY if scope["path"] in DOCS_PATHS else PAGE_POLICY

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *(h for h in message.get("headers", [])
                      if h[0].lower() not in _OURS),
                    *SECURITY_HEADERS,
                    (b"content-security-policy", policy.encode()),
                ]
            await send(message)

        if refusal is not None:
            status, reason = refusal
            response = answer(status, reason, self.lang(headers.get("accept-language")))
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    def _refusal(self, method: str, headers: dict[str, str]) -> tuple[int, LocalisedError] | None:
        host = headers.get("host", "")
        if not self._host_allowed(host):
            return 403, LocalisedError("err.web.host", host=host)
        if method in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if (origin is not None and not self._same_origin(origin, host)) or (
                site is not None and site not in ("same-origin", "none")):
            return 403, LocalisedError("err.web.cross_site", origin=origin or site)
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "application/json":
            return 415, LocalisedError("err.web.json_only",
                                       media=media if media else Phrase("media.none"))
        return None

    def _host_allowed(self, host: str) -> bool:
        host = host.strip().lower()
        name, _, port = host.rpartition(":") if not host.endswith("]") else (host, "", "")
        if not name:  # no port given
            name, port = host, ""
        if name not in self.hosts:
            return False
        return port == "" or self.port is None or port == str(self.port)

    @staticmethod
    def _same_origin(origin: str, host: str) -> bool:
        """``origin`` is this server as the request reached it (scheme aside: the
        server may sit behind a TLS proxy)."""
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == host.strip().lower()


_OURS = frozenset(name for name, _ in SECURITY_HEADERS) | {b"content-security-policy"}
