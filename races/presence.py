"""Who has the room open: a count of open sockets per entry and per race, in the cache.

The cache is Redis in production (every ASGI process shares it) and the process's
memory in the embedded default (one process). ``add`` then ``incr`` is atomic on
both. A room in the lobby whose players' sockets have all been gone for a while is
closed (races.actions.rooms.do_close_if_abandoned). Counts expire after KEEP_S, so a
process killed with sockets open cannot keep a room "present" for ever. If the cache
fails the race goes on: presence is a hint to the players, not a rule.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.core.cache import cache

log = logging.getLogger(__name__)
KEEP_S = 6 * 3600


def _entry_key(race_id: int, entry_id: int) -> str:
    return f"race-here:{race_id}:{entry_id}"


def _race_key(race_id: int) -> str:
    return f"race-sockets:{race_id}"


def _gone_key(race_id: int) -> str:
    return f"race-gone:{race_id}"


def _up(key: str) -> int:
    cache.add(key, 0, KEEP_S)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, KEEP_S)
        return 1


def _down(key: str) -> int:
    try:
        left = int(cache.decr(key))
    except ValueError:  # expired: nobody is counted there any more
        return 0
    if left <= 0:
        cache.delete(key)
    return max(left, 0)


def arrive(race_id: int, entry_id: int) -> None:
    """A participant's socket opened on the room."""
    try:
        _up(_entry_key(race_id, entry_id))
        _up(_race_key(race_id))
        cache.set(_gone_key(race_id), 0.0, KEEP_S)  # seen, and not gone
    except Exception as error:  # the cache's own errors (Redis down)
        log.warning("race presence not counted: %s: %s", type(error).__name__, error)


def depart(race_id: int, entry_id: int) -> None:
    """A participant's socket closed; the last one out starts the room's empty clock."""
    try:
        _down(_entry_key(race_id, entry_id))
        if _down(_race_key(race_id)) == 0:
            cache.set(_gone_key(race_id), time.time(), KEEP_S)
    except Exception as error:
        log.warning("race presence not counted: %s: %s", type(error).__name__, error)


def present(race_id: int, entry_ids: Iterable[int]) -> set[int]:
    """The entries with a socket open on the room now."""
    keys = {_entry_key(race_id, entry_id): entry_id for entry_id in entry_ids}
    try:
        found = cache.get_many(list(keys))
    except Exception as error:
        log.warning("race presence unknown: %s: %s", type(error).__name__, error)
        return set()
    return {keys[key] for key, count in found.items() if count and int(count) > 0}


def empty_for(race_id: int) -> float | None:
    """Seconds since the room's last participant socket closed; None while one is open
    or when none ever opened (the cache cannot tell those apart from a failure: None)."""
    try:
        if cache.get(_race_key(race_id)):
            return None
        gone = cache.get(_gone_key(race_id))
    except Exception:
        return None
    if not gone:
        return None
    return max(0.0, time.time() - float(gone))
