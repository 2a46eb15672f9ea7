"""What every HTTP response and request goes through: security headers, ``HEAD``, and the cross-site check.

:class:`Guard` is a plain ASGI middleware around the whole application:

* every HTTP response carries a Content-Security-Policy (scripts, styles and connections from this
  origin only; no framing by any page), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy``
  and the cross-origin isolation headers;
* ``HEAD`` is answered as ``GET`` without the body (a page, the API or a static file), never 405;
* a request whose ``Host`` is not in ``allowed_hosts`` (when that list is given) is refused with 400
  ``bad-host`` (DNS rebinding: a page of another name that resolves to this server);
* a state-changing request (``POST`` …) that a browser sends from a page of another origin is
  refused with 403 ``cross-site`` (login CSRF, a table made in a victim's name from another port):
  ``Sec-Fetch-Site`` must say ``same-origin`` where the browser sends it, and ``Origin`` must name
  this server's ``Host`` (and be ``https`` when the request came over TLS).  A request without
  either header is no browser's cross-site request (curl, scripts) and passes; the JSON endpoints
  also demand ``Content-Type: application/json``, which no HTML form can send.

:func:`cross_site` and :func:`foreign_host` are the same checks for WebSocket handshakes;
:func:`address_key` is how the per-address limits name a client.

>>> cross_site({"host": "games.example:8000", "origin": "http://games.example:8000"}, ())
>>> cross_site({"host": "games.example:8000", "origin": "http://games.example:8001"}, ())
'Origin http://games.example:8001 is not this server (games.example:8000)'
>>> address_key("2001:db8::1") == address_key("2001:db8::ffff"), address_key("192.0.2.7")
(True, '192.0.2.7')
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",  # the favicon is a data: URL
    "connect-src 'self'",  # fetch and the table WebSocket (same host, ws: or wss:)
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def cross_site(headers: Mapping[str, str], allowed_origins: tuple[str, ...], *, secure: bool = False) -> str | None:
    """Why a browser request comes from a page of another origin (a sentence), or None when it does not.
    ``secure``: the request came over TLS, so a page served over plain HTTP is another origin too."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        return f"Sec-Fetch-Site is {fetch_site}"
    origin = headers.get("origin")
    if origin is None:
        return None
    host = headers.get("host", "").lower()
    if origin.rstrip("/").lower() in allowed_origins:
        return None
    parts = urlsplit(origin)
    if origin == "null" or parts.netloc.lower() != host or parts.scheme.lower() not in ("http", "https"):
        return f"Origin {origin} is not this server ({host})"
    if secure and parts.scheme.lower() != "https":
        return f"Origin {origin} is not served over HTTPS, as this request was"
    return None


def foreign_host(headers: Mapping[str, str], allowed_hosts: tuple[str, ...]) -> str | None:
    """Why the request's ``Host`` is not one this server answers to (a sentence), or None when it is or
    when no list was given.  A page of another name that resolves to this server (DNS rebinding) sends
    its own name as ``Host``."""
    if not allowed_hosts:
        return None
    host = headers.get("host", "").lower()
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    if name.strip("[]") in allowed_hosts:
        return None
    return f"this server does not answer to the name {host!r} (its operator may add it with --allow-host)"


def address_key(host: str | None) -> str:
    """The name per-address limits count a client under: its IP address, or the /64 network of an
    IPv6 address (one subscriber usually holds a whole /64)."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The error body of every HTTP error: ``{"error": {"code", "message"}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


class Guard:
    """The ASGI middleware of the module docstring."""

    def __init__(self, app: ASGIApp, *, check_origin: bool = True, allowed_origins: tuple[str, ...] = (),
                 allowed_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.check_origin = check_origin
        self.allowed_origins = allowed_origins
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            elif message["type"] == "http.response.body" and head:
                message = {**message, "body": b""}
            await send(message)

        headers = Headers(scope=scope)
        wrong_host = foreign_host(headers, self.allowed_hosts)
        if wrong_host is not None:
            await error_response(400, "bad-host", f"refused: {wrong_host}")(scope, receive, send_guarded)
            return
        if self.check_origin and scope["method"] not in SAFE_METHODS:
            reason = cross_site(headers, self.allowed_origins, secure=scope.get("scheme") == "https")
            if reason is not None:
                response = error_response(403, "cross-site", f"refused: the request comes from another site ({reason})")
                await response(scope, receive, send_guarded)
                return
        forwarded: dict[str, Any] = {**scope, "method": "GET"} if head else dict(scope)
        await self.app(forwarded, receive, send_guarded)
