"""How many rooms a player may open: a fixed window in Django's cache, counted by
game.limits' ``take`` (``add`` then ``incr``, atomic on Redis and in memory, so
concurrent creations cannot slip past the limit). If the cache fails the room is made:
a lost limit is worth less than refusing every player.
"""

from __future__ import annotations

import logging

from django.conf import settings

from accounts.rates import parse_rate
from game.limits import take

log = logging.getLogger(__name__)


def create_wait(user_id: int) -> int:
    """Take one room creation from the user's allowance: 0 if allowed, else seconds to wait."""
    try:
        return take(f"race-create:{user_id}", parse_rate(settings.RACE_CREATE_RATE))
    except Exception as error:  # the cache's own errors (Redis down)
        log.warning("race limits unavailable: %s: %s", type(error).__name__, error)
        return 0
