"""API authentication (its own module: DRF imports it while it loads its views)."""

from __future__ import annotations

from typing import Any

from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request


class SessionCsrfAuthentication(SessionAuthentication):
    """Session auth that checks CSRF for visitors too.

    DRF's own checks CSRF only for logged-in users; a visitor's games are
    owned by their session cookie, so a forged cross-site POST could play
    them just as well.
    """

    def authenticate(self, request: Request) -> Any:
        self.enforce_csrf(request)
        return super().authenticate(request)
