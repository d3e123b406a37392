"""Login throttling: after too many failed log-ins for one username, or from one address,
within a window, further attempts are refused before any password is checked.

Counters live in Django's cache (Redis in production, so every ASGI replica
shares them; in-process memory on the embedded default). Each counter is a
fixed window opened by its first attempt. Each attempt takes a slot (``add`` then
``incr``, atomic on both backends) before its password is checked, so concurrent
guesses cannot slip past the limit; a successful log-in gives its slot back. If the
cache fails (Redis down), log-ins go on unthrottled rather than failing.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Counter:
    key: str
    limit: int


def counters(username: str, address: str) -> list[Counter]:
    # Hashed: usernames are user input, and a cache key must be short and plain.
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    return [
        Counter(f"login-fail:user:{name}", settings.LOGIN_THROTTLE_FAILURES),
        Counter(f"login-fail:ip:{address}", settings.LOGIN_THROTTLE_IP_FAILURES),
    ]


def reserve_attempt(username: str, address: str) -> int:
    """Count this log-in attempt before its password is checked: the seconds to wait when a
    counter is past its limit, else 0. Counting first means concurrent guesses each take a
    slot, so no more than the limit ever reach the password check."""
    try:
        return max(_take(counter) for counter in counters(username, address))
    except Exception as error:  # the cache's own errors (Redis down): fail open, say so
        log.warning("log-in throttle unavailable, not throttling: %s: %s",
                    type(error).__name__, error)
        return 0


def _take(counter: Counter) -> int:
    window = settings.LOGIN_THROTTLE_WINDOW_SECONDS
    now = time.time()
    if cache.add(counter.key, 0, window):
        cache.set(f"{counter.key}:until", now + window, window)
    try:
        count = cache.incr(counter.key)
    except ValueError:  # expired between add and incr: a new window
        cache.add(counter.key, 1, window)
        count = 1
    if count <= counter.limit:
        return 0
    # At least a second: a counter over its limit throttles even if its companion
    # key was evicted first.
    return max(1, math.ceil(cache.get(f"{counter.key}:until", now) - now))


def forgive(username: str, address: str) -> None:
    """A successful log-in: the username's failures are forgiven, and the attempt itself
    does not count against the address (its failures still do)."""
    user_counter, address_counter = counters(username, address)
    try:
        cache.delete_many([user_counter.key, f"{user_counter.key}:until"])
        cache.decr(address_counter.key)
    except ValueError:  # the address's window ended meanwhile: nothing to give back
        pass
    except Exception as error:  # the cache's own errors: the log-in stands
        log.warning("log-in throttle unavailable: %s: %s", type(error).__name__, error)


def too_many_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"Too many failed log-in attempts: try again in {minutes} minute{'s' * (minutes > 1)}."
