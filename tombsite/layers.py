"""The Redis channel layer, delivering to this process's own sockets without Redis.

channels_redis queues every message for one process's sockets in ONE Redis sorted
set, capped as a whole at the layer's capacity, and drains it with one receive loop
at four Redis round trips per message (a cleanup script, BZPOPMIN, a backup ZADD,
its ZPOPMIN). Under the race bench's load (600 sockets in one process) that loop fell
behind, the set sat at its cap for the whole race and group_send dropped the rest
silently: the rooms' sockets heard 4% of the progress (docs/figures.md, issue 15).

Here a message for a socket of this very process (its channel name carries this
layer's client prefix) goes straight into that socket's receive buffer, which is
where the receive loop would have put it: no Redis, no shared cap, no loop to wait
for. Other processes' sockets get it through Redis as before; the group's members
are still read from Redis (a group spans processes). Only on the event loop the
receivers run on: a send from another loop or thread takes the Redis path.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)


class LocalFirstRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    def _takes_locally(self, channel: str) -> bool:
        """A socket of this process that waits on its buffer right now. Not one that is
        busy (a closed socket's buffer is gone: nothing piles up for it here), nor the
        one receiver that holds the layer's receive lock: it waits on Redis, not on its
        buffer, and would not see a message put there until Redis gave it another."""
        buffer = self.receive_buffer.get(channel)
        if buffer is None or not channel.startswith(f"specific.{self.client_prefix}!"):
            return False
        if not any(not waiter.done() for waiter in getattr(buffer, "_getters", ())):
            return False
        try:
            return asyncio.get_running_loop() is self.receive_event_loop
        except RuntimeError:  # no loop running here
            return False

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        # As the receive loop does: the socket's bounded buffer (full: the oldest goes).
        self.receive_buffer[channel].put_nowait(dict(message))

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        if self._takes_locally(channel):
            assert "__asgi_channel__" not in message
            self._deliver(channel, message)
            return
        await super().send(channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        connection = self.connection(self.consistent_hash(group))
        await connection.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
        members = [member.decode() for member in await connection.zrange(key, 0, -1)]
        for channel in members:
            if self._takes_locally(channel):
                self._deliver(channel, message)
                continue
            try:
                await super().send(channel, dict(message))
            except ChannelFull:
                log.info("channel %s is full: a message to group %s dropped", channel, group)
