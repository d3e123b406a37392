"""The log-in throttle (django-axes) and the sign-up throttle, both counted in Django's cache.

Log-in: axes with its cache handler, counting failures per (username, client address) and
per address (AXES_LOCKOUT_PARAMETERS), so a stranger failing for a rival's name locks only
their own address, never the rival. Compared with the hand-written throttle it replaces:
- limits: axes compares one AXES_FAILURE_LIMIT with the largest counter; LoginThrottle below
  gives each counter its own (LOGIN_THROTTLE_FAILURES per username and address,
  LOGIN_THROTTLE_IP_FAILURES per address).
- races: the old throttle took a slot before checking the password; axes checks the lock,
  then the password, and counts the failure after (cache add/incr, atomic on Redis and
  locmem). Guesses already in flight when the limit-th failure lands are still checked: the
  overshoot is at most the guesses in flight at once, less one (Django under ASGI runs each
  request's sync view in a thread of its own, so one process races too). Measured in
  tests/service/test_login.py: 24 guesses, 8 at once, PBKDF2: 12 checked against a limit
  of 5. A guesser still gets no more than its concurrency extra per window and address.
- cache down: axes' handler raises (a 500 on every log-in); LoginThrottle fails open and
  logs, as the old throttle did.
- admin log-in: axes hooks authenticate() (its backend and the auth signals), so every
  log-in form is throttled, the admin's included, without a form of ours.
- 429: axes' own middleware answers with a bare page of its own (and under ASGI, 8.3 loses
  the original response); LockoutMiddleware keeps the log-in page, whose form says when.
Cache handler, not the database handler: the counters are on Redis in production, shared by
every replica, and an attacker's flood of failures writes nothing to PostgreSQL (the DB
handler writes a row per failure and needs axes' tables; its migrations still run, unused).
The embedded default's locmem cache serves its single process.

Sign-up: at most SIGNUP_RATE ("5/hour") new accounts per client address, in a fixed window
opened by the first. Counted are accounts made, not attempts: a mistyped password
confirmation costs no slot, and what the limit is for is accounts. The slot is taken
(add/incr, atomic) before the account is made and given back if the name was taken
meanwhile, so concurrent sign-ups cannot pass the limit.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import timedelta
from typing import Any

from asgiref.sync import iscoroutinefunction
from axes.handlers.cache import AxesCacheHandler
from axes.helpers import get_cache, get_client_cache_keys, get_lockout_parameters
from axes.middleware import AxesMiddleware
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from .network import network_of
from .rates import parse_rate

log = logging.getLogger(__name__)


def client_address(request: HttpRequest) -> str:
    """REMOTE_ADDR only, an IPv6 address counted by its /64 (accounts.network). Behind a
    trusted proxy uvicorn's --proxy-headers (FORWARDED_ALLOW_IPS) has already put the real
    client there; X-Forwarded-For itself is anyone's to forge."""
    return network_of(str(request.META.get("REMOTE_ADDR", "")))


def cool_off(request: HttpRequest | None = None) -> timedelta:
    return timedelta(seconds=settings.LOGIN_THROTTLE_WINDOW_SECONDS)


def address_limit(request: HttpRequest | None = None, credentials: Any = None) -> int:
    # Axes' single limit, used by its own lock decision and logs: the largest, the address's.
    return max(settings.LOGIN_THROTTLE_FAILURES, settings.LOGIN_THROTTLE_IP_FAILURES)


def too_many_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed log-in attempts: try again in %(minutes)d minute.",
        "Too many failed log-in attempts: try again in %(minutes)d minutes.",
        minutes) % {"minutes": minutes}


class LoginThrottle(AxesCacheHandler):
    """Axes' cache handler with a limit per lockout parameter, failing open."""

    def __init__(self) -> None:
        pass  # the cache is looked up on use: tests (and settings changes) swap it

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return get_cache()

    def limits(self, request: Any, credentials: dict[str, Any] | None) -> list[tuple[str, int]]:
        """(cache key, limit) per lockout parameter: a key counting a username gets the
        per-username limit, the address-only key the per-address one."""
        keys = get_client_cache_keys(request, credentials)  # one per parameter, in order
        return [(key, settings.LOGIN_THROTTLE_FAILURES if "username" in parameter
                 else settings.LOGIN_THROTTLE_IP_FAILURES)
                for key, parameter in zip(
                    keys, get_lockout_parameters(request, credentials), strict=True)]

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        try:
            limits = self.limits(request, credentials)
            counts = self.cache.get_many([key for key, _ in limits])
            return any(counts.get(key, 0) >= limit for key, limit in limits)
        except Exception as error:  # the cache's own errors (Redis down): fail open, say so
            log.warning("log-in throttle unavailable, not throttling: %s: %s",
                        type(error).__name__, error)
            return False

    def user_login_failed(self, sender: Any, credentials: dict[str, Any],
                          request: Any = None, **kwargs: Any) -> None:
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        except Exception as error:
            log.warning("log-in throttle unavailable, failure not counted: %s: %s",
                        type(error).__name__, error)
            return
        if request is not None and not request.axes_locked_out:
            # Axes locked only at the address's limit; this failure may have reached the
            # username's, and then this very response already says so.
            request.axes_locked_out = self.is_locked(request, credentials)
            request.axes_credentials = credentials

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        """A log-in forgives this username's failures from this address; the address's own
        count stands (else logging in to one's own account would reset it between guesses)."""
        credentials = {settings.AXES_USERNAME_FORM_FIELD: user.get_username()}
        try:
            self.cache.delete_many([key for key, limit in self.limits(request, credentials)
                                    if limit == settings.LOGIN_THROTTLE_FAILURES])
        except Exception as error:
            log.warning("log-in throttle unavailable: %s: %s", type(error).__name__, error)


def _locked_out(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if getattr(request, "axes_locked_out", False):
        response.status_code = 429  # Too Many Requests; the page's form says when
    return response


class LockoutMiddleware(AxesMiddleware):
    """Axes' middleware, answering a locked-out attempt with the log-in page itself (the site's
    or the admin's, its form saying when to try again) and status 429."""

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return _locked_out(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        return _locked_out(request, await self.get_response(request))


# -- sign-up ---------------------------------------------------------------------

def signup_rate() -> tuple[int, int]:
    """SIGNUP_RATE "5/hour" -> (5, 3600)."""
    rate = parse_rate(str(settings.SIGNUP_RATE))
    return rate.count, rate.seconds


def _signup_key(address: str) -> str:
    return f"signup:{address}"


def signup_wait(address: str) -> int:
    """Seconds until this address may make another account; 0 when it may now."""
    limit, _ = signup_rate()
    key = _signup_key(address)
    try:
        found = cache.get_many([key, f"{key}:until"])
    except Exception as error:
        log.warning("sign-up throttle unavailable: %s: %s", type(error).__name__, error)
        return 0
    if found.get(key, 0) < limit:
        return 0
    return max(1, math.ceil(found.get(f"{key}:until", time.time()) - time.time()))


def take_signup_slot(address: str) -> int:
    """Counts a sign-up about to be made: 0 if it may go on, else the seconds to wait (and the
    slot is not taken). Atomic, so concurrent sign-ups from one address cannot pass the limit."""
    limit, window = signup_rate()
    key = _signup_key(address)
    try:
        if cache.add(key, 0, window):
            cache.set(f"{key}:until", time.time() + window, window)
        try:
            count = cache.incr(key)
        except ValueError:  # the window ended between add and incr: a new one
            return take_signup_slot(address)
        if count <= limit:
            return 0
        cache.decr(key)
    except Exception as error:
        log.warning("sign-up throttle unavailable, not throttling: %s: %s",
                    type(error).__name__, error)
        return 0
    return signup_wait(address) or 1


def give_back_signup_slot(address: str) -> None:
    """A sign-up that made no account (its name was taken meanwhile)."""
    try:
        cache.decr(_signup_key(address))
    except ValueError:  # the window ended meanwhile
        pass
    except Exception as error:
        log.warning("sign-up throttle unavailable: %s: %s", type(error).__name__, error)


def too_many_signups_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many new accounts from your network: try again in %(minutes)d minute.",
        "Too many new accounts from your network: try again in %(minutes)d minutes.",
        minutes) % {"minutes": minutes}
