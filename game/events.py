"""Live events: what actions and the hint task send to a game's channel group.

Every open board of a game listens on its group. Senders here are sync code
(actions run in a transaction, on_commit; the Celery task), so they cross
into the layer with async_to_sync, unless a consumer holds them back: a
socket that acts answers its own sender directly and then sends the held
events itself, to the group's other boards only (``group_send_except``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer

from .models import group_name

Event = tuple[str, dict[str, Any]]  # (group, event)
T = TypeVar("T")

log = logging.getLogger(__name__)
_held: ContextVar[list[Event] | None] = ContextVar("held_events", default=None)


def send_state(payload: dict[str, Any], *, origin: str = "", seq: int | None = None) -> None:
    """The new visible state; ``origin`` (the acting socket) gets its ``seq`` back."""
    _emit(payload["id"], {
        "type": "game.state",
        "version": payload["version"],
        "game": payload,
        "origin": origin,
        "seq": seq,
    })


def send_hint(game_id: str, version: int, hint: dict[str, Any]) -> None:
    """A solver's hint for the position at ``version``."""
    _emit(game_id, {"type": "game.hint", "version": version, "hint": hint})


def send_hint_error(game_id: str, version: int, error: str) -> None:
    """No hint for the position at ``version`` (the search ran out of time): say so."""
    _emit(game_id, {"type": "game.hint", "version": version, "error": error})


def send_to_group(group: str, event: dict[str, Any]) -> None:
    """An event of an app built on games (a race's progress) to any group: held back like
    the game's own while a socket acts, so that socket sends it from its event loop
    instead of this thread crossing into the layer with async_to_sync."""
    held = _held.get()
    if held is not None:
        held.append((group, event))
    else:
        _layer_send(group, event)


def best_effort(send: Callable[[], None]) -> Callable[[], None]:
    """``send`` for transaction.on_commit: the write is stored whatever the layer does, so
    a layer failure (Redis restarting) is a warning, not the request's 500; the boards
    see the version gap and resync, or reconnect (found by the Redis restart test)."""
    def run() -> None:
        try:
            send()
        except Exception as error:  # the layer's (Redis's) own error classes
            log.warning("a live event was not sent: %s: %s", type(error).__name__, error)
    return run


def holding(function: Callable[..., T]) -> Callable[..., tuple[T, list[Event]]]:
    """``function`` (sync), with the events it sends held back and returned beside its result.

    The caller sends them with ``group_send_except``. If ``function`` fails
    after something committed, what it sent still goes out, as it would have.
    """
    def run(*args: Any, **kwargs: Any) -> tuple[T, list[Event]]:
        held: list[Event] = []
        token = _held.set(held)
        try:
            result = function(*args, **kwargs)
        except BaseException:
            _held.reset(token)
            for group, event in held:
                _layer_send(group, event)
            raise
        _held.reset(token)
        return result, held
    return run


async def group_send_except(layer: BaseChannelLayer, group: str, event: dict[str, Any],
                            exclude: str, members: list[str] | None = None) -> list[str] | None:
    """Send ``event`` to the group's channels other than ``exclude``; returns the group's
    members as read (None where the layer cannot say), for the caller to pass back as
    ``members`` on its next send while it knows the group has not changed.

    On Redis the usual case, a game open on one board only, costs one read
    (the group's members) instead of the group send's three round trips and
    the receiving process's four, and nothing at all when ``members`` is given;
    other boards of the game get the event through the layer's plain ``send``.
    A group ``exclude`` is not in gets the usual group send. Elsewhere (the
    in-memory layer) the whole group gets it and the excluded consumer drops
    its copy by the event's ``origin``.
    """
    from channels_redis.core import RedisChannelLayer

    if not isinstance(layer, RedisChannelLayer):
        await layer.group_send(group, event)
        return None
    if members is None:
        connection = layer.connection(layer.consistent_hash(group))
        found = await connection.zrange(layer._group_key(group), 0, -1)
        members = [member.decode() for member in found]
    if exclude not in members:
        await layer.group_send(group, event)  # one batched send to them all
        return None
    for channel in members:
        if channel == exclude:
            continue
        try:
            await layer.send(channel, event)
        except ChannelFull:
            # As group_send does: a board that lags that far behind resyncs on the gap.
            log.warning("channel %s is full: a state of group %s dropped", channel, group)
    return members


def boards_changed() -> dict[str, Any]:
    """The event a board sends its game's group when it joins or leaves it: the group's
    other boards read its members again before their next send (consumers.py)."""
    return {"type": "game.boards"}


def close_layer() -> None:
    """Close the layer's connections: a Celery worker's async_to_sync makes a fresh
    event loop per call, and pools left bound to a dead loop break the next send."""
    layer = get_channel_layer()
    close_pools = getattr(layer, "close_pools", None)
    if close_pools is not None:
        async_to_sync(close_pools)()


def _emit(game_id: str, event: dict[str, Any]) -> None:
    held = _held.get()
    if held is not None:
        held.append((group_name(game_id), event))
    else:
        _group_send(game_id, event)


def _group_send(game_id: str, event: dict[str, Any]) -> None:
    _layer_send(group_name(game_id), event)


def _layer_send(group: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)
