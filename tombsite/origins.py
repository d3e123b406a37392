"""WebSocket Origin check: the page's own origin exactly (scheme, host and port), or one
listed in CSRF_TRUSTED_ORIGINS.

Channels' AllowedHostsOriginValidator compares the Origin's host with ALLOWED_HOSTS and
ignores scheme and port, so a page on any port of an allowed host (or plain http next to
an https site) could open a player's socket with their cookies. This is the rule Django's
CSRF check applies to an HTTPS request's Origin: equal to "<scheme>://<Host>", the Host
itself being an allowed one.
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

HTTP_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return ""


def allowed_origin(scope: dict[str, Any]) -> bool:
    origin, host = header(scope, b"origin"), header(scope, b"host")
    if not origin:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    domain, _ = split_domain_port(host)
    scheme = HTTP_SCHEMES.get(str(scope.get("scheme", "ws")), "")
    own = f"{scheme}://{host}"
    return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS) and origin == own


class SameOriginValidator:
    """ASGI middleware for the websocket router: a foreign Origin gets HTTP 403."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
