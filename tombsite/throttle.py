"""Login throttling: after too many failed log-ins for one username, or from one address,
within a window, further attempts are refused before any password is checked.

Counters live in Django's cache (Redis in production, so every ASGI replica
shares them; in-process memory on the embedded default). Each counter is a
fixed window opened by its first failure: ``add`` then ``incr`` are atomic on
both backends, so concurrent guesses cannot slip past the limit.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache


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


def wait_seconds(username: str, address: str) -> int:
    """Seconds until the caller may try again; 0 when not throttled."""
    now = time.time()
    waits = [
        # At least a second: a counter over its limit throttles even if its
        # companion key was evicted first.
        max(1, math.ceil(cache.get(f"{counter.key}:until", now) - now))
        for counter in counters(username, address)
        if cache.get(counter.key, 0) >= counter.limit
    ]
    return max([0, *waits])


def record_failure(username: str, address: str) -> None:
    window = settings.LOGIN_THROTTLE_WINDOW_SECONDS
    for counter in counters(username, address):
        if cache.add(counter.key, 0, window):
            cache.set(f"{counter.key}:until", time.time() + window, window)
        try:
            cache.incr(counter.key)
        except ValueError:  # expired between add and incr: a new window
            cache.add(counter.key, 1, window)


def clear_user(username: str) -> None:
    """A successful log-in forgives the username's failures (not the address's)."""
    user_counter = counters(username, "")[0]
    cache.delete_many([user_counter.key, f"{user_counter.key}:until"])


def too_many_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"Too many failed log-in attempts: try again in {minutes} minute{'s' * (minutes > 1)}."
