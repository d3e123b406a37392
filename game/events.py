"""Live events: what actions and the hint task send to a game's channel group.

Every open board of a game listens on its group. Senders here are sync code
(actions run in a transaction, on_commit; the Celery task), so they cross
into the layer with async_to_sync, unless a consumer holds them back: a
socket that acts answers its own sender directly and then sends the held
events itself, to the group's other boards only (``group_send_except``).

An app's frequent event (a race's progress: one per move, to every socket of the
room) may be coalesced (``Coalesce``): held by an acting socket, it waits in its
process's ``Coalescer`` and goes out with the group's others as one batch event, the
latest of each key only, at most once an interval. Sent from sync code (a REST move)
it goes out at once, alone, as before; any other event of the group goes out after
the group's pending batch (``flush``).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer

from .models import group_name

T = TypeVar("T")


@dataclass(frozen=True)
class Coalesce:
    """How an event may be coalesced with the group's others: sent as
    {"type": ``batch``, "events": [...]} at most once an ``interval`` (seconds), where
    of the pending events with one ``key`` (a race's player) only the latest is kept."""

    batch: str
    key: Hashable
    interval: float


Event = tuple[str, dict[str, Any], Coalesce | None]  # (group, event, how to coalesce it)

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


def send_notice(game_id: str, notice: str) -> None:
    """A word about the game from an app built on it, by code (the board words it)."""
    _emit(game_id, {"type": "game.notice", "notice": notice})


def send_to_group(group: str, event: dict[str, Any], coalesce: Coalesce | None = None) -> None:
    """An event of an app built on games (a race's progress) to any group: held back like
    the game's own while a socket acts, so that socket sends it from its event loop
    instead of this thread crossing into the layer with async_to_sync; there it is
    coalesced if ``coalesce`` says how. Not held (sync code), it goes out at once, alone
    (after the group's pending batch, if this process's loop has one): this thread may
    be a Celery worker's, whose async_to_sync makes a loop for the one call, where a
    batch's timer would never fire."""
    held = _held.get()
    if held is not None:
        held.append((group, event, coalesce))
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
            for group, event, _ in held:
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


class Coalescer:
    """One event loop's pending coalesced events: per (group, batch type), the latest
    event of each key, sent as one batch event by a timer that the first pending event
    starts, at least an interval after the batch before (at once after a quiet spell).

    Order: ``flush`` sends a group's pending batch before any other event of that
    group this loop sends (a race's end after its last progress), waiting for a batch
    already on its way. Nothing runs between batches: no thread, no polling.
    """

    SEND_TIMEOUT = 3.0  # seconds, as the sockets' own layer calls (consumers.py)

    def __init__(self, layer: BaseChannelLayer) -> None:
        self.layer = layer
        self.pending: dict[str, dict[str, dict[Hashable, dict[str, Any]]]] = {}
        self.timers: dict[tuple[str, str], asyncio.TimerHandle] = {}
        self.sending: dict[tuple[str, str], asyncio.Task[None]] = {}
        self.sent_at: dict[tuple[str, str], float] = {}

    def add(self, group: str, event: dict[str, Any], coalesce: Coalesce) -> None:
        """``event`` joins its group's pending batch, replacing one of the same key."""
        batch = self.pending.setdefault(group, {}).setdefault(coalesce.batch, {})
        batch[coalesce.key] = event
        slot = (group, coalesce.batch)
        if slot in self.timers:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        if len(self.sent_at) > 1024:  # forget the groups quiet for an interval
            self.sent_at = {key: at for key, at in self.sent_at.items()
                            if now - at < coalesce.interval}
        wait = self.sent_at.get(slot, now - coalesce.interval) + coalesce.interval - now
        self.timers[slot] = loop.call_later(max(0.0, wait), self._due, slot)

    def _due(self, slot: tuple[str, str]) -> None:
        del self.timers[slot]
        self._queue_send(slot)

    def _queue_send(self, slot: tuple[str, str]) -> asyncio.Task[None]:
        """Send the slot's batch after the one on its way, if any: with a layer slower
        than the interval, one slot's batches still go out one at a time, in order."""
        before = self.sending.get(slot)
        task = asyncio.ensure_future(self._send_after(before, slot))
        self.sending[slot] = task
        task.add_done_callback(lambda done: self._sent(slot, done))
        return task

    async def _send_after(self, before: asyncio.Task[None] | None, slot: tuple[str, str]) -> None:
        if before is not None:
            await asyncio.wait([before])  # a failed send was logged by its own _send
        await self._send(slot)

    def _sent(self, slot: tuple[str, str], task: asyncio.Task[None]) -> None:
        if self.sending.get(slot) is task:
            del self.sending[slot]

    async def flush(self, group: str) -> None:
        """Send the group's pending batches now, after any already on their way."""
        slots = {(group, batch) for batch in self.pending.get(group, ())}
        slots.update(slot for slot in self.sending if slot[0] == group)
        for slot in slots:
            timer = self.timers.pop(slot, None)
            if timer is not None:
                timer.cancel()
            await asyncio.shield(self._queue_send(slot))

    async def _send(self, slot: tuple[str, str]) -> None:
        group, kind = slot
        batches = self.pending.get(group, {})
        events = batches.pop(kind, None)
        if not batches:
            self.pending.pop(group, None)
        if not events:
            return
        self.sent_at[slot] = asyncio.get_running_loop().time()
        try:
            # asyncio.timeout, not wait_for: the send starts now, in this task, not in a
            # task of its own that a busy loop may start later, so batches leave at least
            # an interval apart (wait_for's hop let a late one follow the next too closely).
            async with asyncio.timeout(self.SEND_TIMEOUT):
                await self.layer.group_send(
                    group, {"type": kind, "events": list(events.values())})
        except Exception as error:  # the layer's (Redis's) own error classes
            # As any live event: a best effort. What it told is in the group's next
            # whole payload (a race room's carries every player's figures).
            log.warning("a batch of group %s was not sent: %s: %s",
                        group, type(error).__name__, error)


# Per event loop (a server process has one; each test its own), per layer.
_coalescers: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[int, Coalescer]] = weakref.WeakKeyDictionary()


def coalescer(layer: BaseChannelLayer) -> Coalescer:
    """The running loop's coalescer for ``layer``."""
    found = _existing_coalescer(layer)
    if found is None:
        found = _coalescers.setdefault(asyncio.get_running_loop(), {})[id(layer)] = (
            Coalescer(layer))
    return found


def _existing_coalescer(layer: BaseChannelLayer) -> Coalescer | None:
    """The running loop's coalescer for ``layer`` if it has one (an id the layer's, not a
    former layer's whose id was reused)."""
    found = _coalescers.get(asyncio.get_running_loop(), {}).get(id(layer))
    return found if found is not None and found.layer is layer else None


def _emit(game_id: str, event: dict[str, Any]) -> None:
    held = _held.get()
    if held is not None:
        held.append((group_name(game_id), event, None))
    else:
        _group_send(game_id, event)


def _group_send(game_id: str, event: dict[str, Any]) -> None:
    _layer_send(group_name(game_id), event)


def _layer_send(group: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(_send_in_order)(layer, group, event)


async def _send_in_order(layer: BaseChannelLayer, group: str, event: dict[str, Any]) -> None:
    """``event``, after the group's batch pending on this loop if any: sync code of a
    server process (a view, a socket's database work) sends on the server's own loop, so
    a race's end ordered by REST follows the progress its sockets still held."""
    found = _existing_coalescer(layer)
    if found is not None:
        await found.flush(group)
    await layer.group_send(group, event)
