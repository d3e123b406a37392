"""The device cookie: a long-lived random id per browser, for the fair-play check.

It tells the daily whether two accounts played from one browser (a second
account is how the secret deal of the day gets learnt). 128 random bits, so it
needs no signature: a forged id is just another unknown device. Only its keyed
hash is stored (leaderboards.fairplay), with each ranked attempt.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "tomb_device"
MAX_AGE = 2 * 365 * 24 * 60 * 60  # two years
_WELL_FORMED = re.compile(r"[0-9a-f]{32}")


class DeviceCookieMiddleware:
    """Sets ``request.device_id``; a response to a request without a (well-formed)
    cookie carries a new one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.COOKIES.get(COOKIE, "")
        known = bool(_WELL_FORMED.fullmatch(sent))
        request.device_id = sent if known else secrets.token_hex(16)
        response = self.get_response(request)
        if not known:
            response.set_cookie(
                COOKIE, request.device_id, max_age=MAX_AGE,
                httponly=True, samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
