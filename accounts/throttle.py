"""The log-in throttle (django-axes) and the sign-up throttle, both counted in Django's cache.

Log-in: axes with its cache handler, counting failures per (username, client address) and
per address (AXES_LOCKOUT_PARAMETERS), so a stranger failing for a rival's name from an
address of their own locks only that address, never the rival.

Behind a shared address (a household's or an office's NAT) that alone would let a neighbour
lock a player out: five failures for her name from the address they share lock her out of
it too, again each time it ends. So a browser an account has logged in from is known to the
throttle by OWASP's device cookie (Authentication Cheat Sheet, "Slow Down Online Guessing
Attacks with Device Cookies"):
- every log-in (the log-in form, the admin's, sign-up's) sends the browser a new cookie,
  DEVICE_COOKIE (apart from the fair-play tomb_device, leaderboards.device): the account's
  name and a random nonce, signed with django.core.signing (so only the site can make one),
  HttpOnly, SameSite=Lax, Secure behind HTTPS, kept LOGIN_DEVICE_COOKIE_AGE. It outlives
  log-out: that is the point.
- an attempt for account U that carries a valid cookie naming U is checked and counted
  against that cookie's nonce alone (LOGIN_DEVICE_FAILURES within the window), against no
  address: the neighbour's failures never reach it, and a stolen cookie guesses no faster
  than an address does. Its own lock refuses only that cookie.
- an attempt without one (or with a forged, altered, expired or another account's cookie)
  is throttled per username and address and per address, as above. OWASP's scheme locks
  the account for every unknown client; keeping the per-address lock instead means a
  stranger from elsewhere still locks only their own address.
It is axes' own handler API: LoginThrottle below picks the counters an attempt is checked
and counted against. The nonce is no axes lockout parameter (those are username, address
and user agent), so the handler counts it itself, with axes' add/incr and window.

Compared with the hand-written throttle axes replaced:
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
import secrets
import time
from datetime import timedelta
from typing import Any

from asgiref.sync import iscoroutinefunction
from axes.handlers.cache import AxesCacheHandler
from axes.helpers import (
    get_cache,
    get_cache_timeout,
    get_client_cache_keys,
    get_client_username,
    get_lockout_parameters,
)
from axes.middleware import AxesMiddleware
from django.conf import settings
from django.core import signing
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


# -- the log-in device cookie ------------------------------------------------------

DEVICE_COOKIE = "tomb_login_device"
_DEVICE_SALT = "accounts.throttle.login-device"  # its signatures are good for nothing else


def new_device_cookie(username: str) -> str:
    """A signed cookie naming the account, with a nonce of its own: each log-in's cookie has
    its own failure counter, and a stolen one shares none with the owner's next."""
    return signing.dumps({"u": username, "n": secrets.token_hex(16)}, salt=_DEVICE_SALT)


def device_nonce(request: Any, username: str | None) -> str | None:
    """The nonce of the request's device cookie if it is valid and names this account."""
    sent = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not sent or not username:
        return None
    try:
        token = signing.loads(sent, salt=_DEVICE_SALT,
                              max_age=settings.LOGIN_DEVICE_COOKIE_AGE)
    except signing.BadSignature:  # forged, altered or expired (SignatureExpired)
        return None
    if not isinstance(token, dict) or token.get("u") != username:
        return None  # another account's cookie exempts nobody else
    nonce = token.get("n")
    return nonce if isinstance(nonce, str) else None


def _device_key(nonce: str) -> str:
    return f"login-device-{nonce}"


def _set_device_cookie(request: HttpRequest, response: HttpResponse) -> None:
    value = getattr(request, "login_device_cookie", None)
    if value:
        response.set_cookie(DEVICE_COOKIE, value, max_age=settings.LOGIN_DEVICE_COOKIE_AGE,
                            httponly=True, samesite="Lax",
                            secure=settings.SESSION_COOKIE_SECURE)


def _count(counters: BaseCache, key: str, timeout: int | None) -> int:
    """One more failure on this counter, atomic, its window restarted (as axes counts)."""
    if counters.add(key, 1, timeout):
        return 1
    try:
        count = counters.incr(key)
    except ValueError:  # the window ended between add and incr: a new one
        return _count(counters, key, timeout)
    counters.touch(key, timeout)
    return int(count)


class LoginThrottle(AxesCacheHandler):
    """Axes' cache handler with a limit per lockout parameter and the device cookie's own
    counter, failing open."""

    def __init__(self) -> None:
        pass  # the cache is looked up on use: tests (and settings changes) swap it

    @property
    def cache(self) -> BaseCache:  # type: ignore[override]
        return get_cache()

    def limits(self, request: Any, credentials: dict[str, Any] | None) -> list[tuple[str, int]]:
        """(cache key, limit) of each counter the attempt is checked against: its device
        cookie's alone when it has a valid one for the account, else the address's."""
        device = self.device_key(request, credentials)
        if device is not None:
            return [(device, settings.LOGIN_DEVICE_FAILURES)]
        return [(key, settings.LOGIN_THROTTLE_FAILURES if "username" in parameter
                 else settings.LOGIN_THROTTLE_IP_FAILURES)
                for key, parameter in self.address_keys(request, credentials)]

    @staticmethod
    def device_key(request: Any, credentials: dict[str, Any] | None) -> str | None:
        nonce = device_nonce(request, get_client_username(request, credentials))
        return None if nonce is None else _device_key(nonce)

    @staticmethod
    def address_keys(request: Any, credentials: dict[str, Any] | None) -> list[tuple[str, Any]]:
        """(cache key, lockout parameter) of axes' counters, one per parameter, in order."""
        keys = get_client_cache_keys(request, credentials)
        return list(zip(keys, get_lockout_parameters(request, credentials), strict=True))

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
        device = None if request is None else self.device_key(request, credentials)
        if device is not None:
            self.device_failed(request, credentials, device)
            return
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

    def device_failed(self, request: Any, credentials: dict[str, Any], key: str) -> None:
        """A failure with a valid device cookie: its own counter, no address's."""
        try:
            count = _count(self.cache, key, get_cache_timeout(request))
        except Exception as error:
            log.warning("log-in throttle unavailable, failure not counted: %s: %s",
                        type(error).__name__, error)
            return
        if count >= settings.LOGIN_DEVICE_FAILURES:
            request.axes_locked_out = True
            log.warning("log-in device cookie locked out after %d failures", count)
        request.axes_credentials = credentials

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        """A log-in makes this browser known to the account (a new device cookie, sent by
        LockoutMiddleware). The old cookie's counter stands: a thief's copy of it must not
        get a fresh allowance each time the owner logs in.

        A log-in from an unknown browser also forgives this username's failures from this
        address (the owner's own typos); one through the device cookie does not, or each of
        the owner's log-ins would give the neighbour sharing the address new guesses. The
        address's own count always stands (else logging in to one's own account would reset
        it between guesses)."""
        credentials = {settings.AXES_USERNAME_FORM_FIELD: user.get_username()}
        known = self.device_key(request, credentials) is not None
        request.login_device_cookie = new_device_cookie(user.get_username())
        if not known:
            self.forgive_username(request, credentials)

    def forgive_username(self, request: Any, credentials: dict[str, Any]) -> None:
        try:
            self.cache.delete_many([key for key, parameter
                                    in self.address_keys(request, credentials)
                                    if "username" in parameter])
        except Exception as error:
            log.warning("log-in throttle unavailable: %s: %s", type(error).__name__, error)


def _answered(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    if getattr(request, "axes_locked_out", False):
        response.status_code = 429  # Too Many Requests; the page's form says when
    _set_device_cookie(request, response)
    return response


class LockoutMiddleware(AxesMiddleware):
    """Axes' middleware, answering a locked-out attempt with the log-in page itself (the site's
    or the admin's, its form saying when to try again) and status 429; and sending a log-in's
    new device cookie."""

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return _answered(request, self.get_response(request))

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        return _answered(request, await self.get_response(request))


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
