"""Hint allowances: per player and per client address, over REST and WebSocket alike.

Each hint runs the solver (in the web process over REST, on a worker over the socket),
so hints are limited twice: per player (a user id, or a visitor's token), and per
client address, because a visitor who drops their cookie is a new player with a fresh
allowance while their address stays the same. The address limit is higher, since a
school or an office shares one address.

Counters are fixed windows in Django's cache (Redis in production, shared by every
replica): ``add`` then ``incr``, atomic on both backends, so concurrent hints cannot
slip past a limit. If the cache fails the hint goes on (say so in the log): a hint is
worth less than an outage.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import cache

from accounts.network import network_of
from accounts.rates import Rate, parse_rate

log = logging.getLogger(__name__)



def hint_wait(who: str, address: str) -> int:
    """Take a hint from both allowances: 0 if allowed, else the seconds to wait."""
    limits = [
        (f"hint:player:{_short(who)}", parse_rate(settings.HINT_RATE)),
        (f"hint:address:{_short(network_of(address))}", parse_rate(settings.HINT_ADDRESS_RATE)),
    ]
    try:
        return max(_take(key, rate) for key, rate in limits)
    except Exception as error:  # the cache's own errors (Redis down): the hint goes on
        log.warning("hint limits unavailable: %s: %s", type(error).__name__, error)
        return 0


def _short(value: str) -> str:
    # Cache keys must be short and plain; tokens and addresses are client input.
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def _take(key: str, rate: Rate) -> int:
    now = time.time()
    if cache.add(key, 0, rate.seconds):
        cache.set(f"{key}:until", now + rate.seconds, rate.seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.add(key, 1, rate.seconds)
        count = 1
    if count <= rate.count:
        return 0
    return max(1, math.ceil(cache.get(f"{key}:until", now) - now))
