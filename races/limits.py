"""How many rooms a player may open: a fixed window in Django's cache, like game.limits.

``add`` then ``incr``, atomic on Redis and in memory, so concurrent creations cannot
slip past the limit. If the cache fails the room is made: a lost limit is worth less
than refusing every player.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

from accounts.rates import parse_rate

log = logging.getLogger(__name__)


def create_wait(user_id: int) -> int:
    """Take one room creation from the user's allowance: 0 if allowed, else seconds to wait."""
    rate = parse_rate(settings.RACE_CREATE_RATE)
    key = f"race-create:{user_id}"
    try:
        now = time.time()
        if cache.add(key, 0, rate.seconds):
            cache.set(f"{key}:until", now + rate.seconds, rate.seconds)
        try:
            count = int(cache.incr(key))
        except ValueError:  # expired between add and incr: a new window
            cache.add(key, 1, rate.seconds)
            count = 1
        if count <= rate.count:
            return 0
        return max(1, math.ceil(float(cache.get(f"{key}:until", now)) - now))
    except Exception as error:  # the cache's own errors (Redis down)
        log.warning("race limits unavailable: %s: %s", type(error).__name__, error)
        return 0
