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

Writes (a move, an undo, a finish, a new game) are limited the same way, per game and
per player, over REST and the socket alike (``limited``): each socket's own token bucket
(game.consumers) only guards that socket, so a racer who looped a placement and its
undo over REST, or over several sockets, was heard by every socket of the race room on
each write (issue 25). The allowance has the socket's figures (WS_RATE_PER_SECOND,
WS_BURST): a board's key repeats pass, a script's loop does not.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import pickle
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.utils.translation import ngettext

from accounts.network import network_of
from accounts.rates import Rate, parse_rate

log = logging.getLogger(__name__)
T = TypeVar("T")


def hint_wait(who: str, address: str) -> int:
    """Take a hint from both allowances: 0 if allowed, else the seconds to wait."""
    limits = [
        (f"hint:player:{_short(who)}", parse_rate(settings.HINT_RATE)),
        (f"hint:address:{_short(network_of(address))}", parse_rate(settings.HINT_ADDRESS_RATE)),
    ]
    try:
        return max(take(key, rate) for key, rate in limits)
    except Exception as error:  # the cache's own errors (Redis down): the hint goes on
        log.warning("hint limits unavailable: %s: %s", type(error).__name__, error)
        return 0


def _short(value: str) -> str:
    # Cache keys must be short and plain; tokens and addresses are client input.
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def take(key: str, rate: Rate) -> int:
    """One from the fixed window at ``key``: 0 if it had room, else the seconds it has left."""
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


# -- writes -------------------------------------------------------------------

class Acting(Protocol):
    """Who writes: game.actions.Player (its user id, or a visitor's token)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def anon_token(self) -> str: ...


class TooManyWrites(Exception):
    """Past a write allowance: refused before the game is read, so nothing changed."""

    status = 429

    def __init__(self, wait: int) -> None:
        self.wait = wait
        self.message = ngettext("too many moves: try again in %(wait)s second",
                                "too many moves: try again in %(wait)s seconds",
                                wait) % {"wait": wait}
        super().__init__(self.message)


def limited(do: Callable[..., T]) -> Callable[..., T]:
    """``do``, a do_* action called as ``do(game_id, player, ...)``, that first takes one
    write from the game's and the player's allowances: TooManyWrites once either is spent.
    REST views and the socket wrap their writes in it, so both draw on one allowance."""
    def run(game_id: object, player: Acting, *args: object, **kwargs: object) -> T:
        check_write_allowance(player, game_id)
        return do(game_id, player, *args, **kwargs)
    return run


def check_write_allowance(player: Acting, game_id: object = None) -> None:
    """Take one write (``game_id`` None: a new game, the player's allowance only)."""
    wait = write_wait(player, game_id)
    if wait:
        raise TooManyWrites(wait)


def write_wait(player: Acting, game_id: object = None) -> int:
    """0 if the write is allowed, else the seconds to wait; a failed cache allows it."""
    keys = [f"write:player:{_short(who_is(player))}"]
    if game_id is not None:
        keys.append(f"write:game:{_short(str(game_id).lower())}")  # the URL's UUID, any case
    rate = write_rate()
    try:
        return max(take(key, rate) for key in keys)
    except Exception as error:  # the cache's own errors (Redis down): the write goes on
        log.warning("write limits unavailable: %s: %s", type(error).__name__, error)
        return 0


async def awrite_wait(player: Acting, game_id: object) -> int:
    """write_wait from the event loop (a quick move, game.actions.amove): on Redis in one
    round trip (a script doing take's add and incr on both keys, the same keys and values
    as the cache's, so REST and sockets still share one allowance); an in-process cache
    (the embedded default) is called as it is, it does no I/O."""
    from django.core.cache.backends.redis import RedisCache

    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return write_wait(player, game_id)
    rate = write_rate()
    keys = [f"write:player:{_short(who_is(player))}", f"write:game:{_short(str(game_id).lower())}"]
    try:
        return await _take_on_redis(backend, keys, rate)
    except Exception as error:  # Redis's own errors (down, restarting): the write goes on
        log.warning("write limits unavailable: %s: %s", type(error).__name__, error)
        return 0


# take() on every key at once: ``add`` (SET NX EX) of 0 and of the window's end under
# ":until", then INCR; each key past the limit answers its ":until" value.
_TAKE_SCRIPT = """
local waits = {}
for i = 1, #KEYS, 2 do
  if redis.call('SET', KEYS[i], 0, 'NX', 'EX', ARGV[1]) then
    redis.call('SET', KEYS[i + 1], ARGV[2], 'EX', ARGV[1])
  end
  if redis.call('INCR', KEYS[i]) > tonumber(ARGV[3]) then
    waits[#waits + 1] = redis.call('GET', KEYS[i + 1]) or ''
  end
end
return waits
"""
_TAKE_SHA = hashlib.sha1(_TAKE_SCRIPT.encode()).hexdigest()


async def _take_on_redis(backend: Any, keys: list[str], rate: Rate) -> int:
    """The script on the cache's Redis (its writes' server), by its hash, loaded on a
    NOSCRIPT answer; redis-py's client for a URL game.resp does not speak."""
    from . import resp

    server = backend._servers[0]
    made = [name for key in keys for name in (backend.make_key(key),  # plain hex: valid
                                              backend.make_key(f"{key}:until"))]
    now = time.time()
    until = pickle.dumps(now + rate.seconds, pickle.HIGHEST_PROTOCOL)  # as the cache stores it
    arguments = (len(made), *made, rate.seconds, until, rate.count)
    if not resp.supports(server):
        waits = await _redis_py(server).eval(_TAKE_SCRIPT, *arguments)
    else:
        redis = resp.client(server)
        try:
            waits = await redis.call(resp.command("EVALSHA", _TAKE_SHA, *arguments))
        except resp.RedisError as error:
            if not str(error).startswith("NOSCRIPT"):
                raise
            waits = await redis.call(resp.command("EVAL", _TAKE_SCRIPT, *arguments))
    if not waits:
        return 0
    ends = [pickle.loads(value) if value else now for value in waits]
    return max(1, math.ceil(max(ends) - now))


_redis_clients: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def _redis_py(url: str) -> Any:
    import redis.asyncio

    loop = asyncio.get_running_loop()
    client = _redis_clients.get(loop)
    if client is None:  # a client per event loop: its connections belong to that loop
        client = _redis_clients[loop] = redis.asyncio.Redis.from_url(
            url, socket_timeout=2, socket_connect_timeout=2)
    return client


def write_rate() -> Rate:
    """The socket bucket's figures as a fixed window (what the cache can count atomically):
    WS_BURST writes per WS_BURST / WS_RATE_PER_SECOND seconds, the same average pace."""
    burst = max(1, settings.WS_BURST)
    return Rate(burst, max(1, math.ceil(burst / settings.WS_RATE_PER_SECOND)))


def who_is(player: Acting) -> str:
    # A visitor with no token yet ("anon:") owns no game: such writes are refused anyway.
    return f"user:{player.user_id}" if player.user_id is not None else f"anon:{player.anon_token}"
