"""A small Redis client for the event loop: the quick move's one Redis call (its write
allowance, game.limits.awrite_wait) without redis-py's per-command cost.

redis-py's asyncio client spent about as much CPU on that one EVALSHA as the move's
whole PostgreSQL statement (issue 28's profile: its pool's lock, retry wrapper, command
packing and reply parsing in Python, per call). Here each event loop keeps one
connection, commands are written as they come (pipelined: replies come back in order,
each to the future that waits for it), the command's bytes are made by the caller once,
and the parser reads the few reply types a script answers (RESP2: simple strings,
errors, integers, bulk strings, flat arrays).

Only plain ``redis://`` URLs (host, port, password, database in the path); anything
else (``rediss://``, a socket path, a query) is the caller's to send through redis-py.
A connection that fails or times out is closed and every call waiting on it fails (the
caller lets the write through, as it does when the cache fails); the next call
connects again.
"""

from __future__ import annotations

import asyncio
import collections
import weakref
from typing import Any
from urllib.parse import unquote, urlsplit


class RedisError(Exception):
    """Redis answered an error, or the connection failed."""


def command(*parts: bytes | str | int | float) -> bytes:
    """The RESP encoding of a command: made once by a caller that sends it often."""
    encoded = [part if isinstance(part, bytes) else str(part).encode() for part in parts]
    return b"".join([b"*%d\r\n" % len(encoded),
                     *(b"$%d\r\n%s\r\n" % (len(part), part) for part in encoded)])


def supports(url: str) -> bool:
    # A query (``?db=3``, timeouts...) is read by redis-py and not here: redis-py's then,
    # or the cache and the quick move would count writes in two databases.
    parts = urlsplit(url)
    return parts.scheme == "redis" and not parts.query


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.buffer = bytearray()
        self.lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while self.waiting:
            try:
                reply, used = _parse(self.buffer, 0)
            except _Incomplete:
                return
            del self.buffer[:used]
            waiter = self.waiting.popleft()
            if not waiter.done():
                if isinstance(reply, RedisError):
                    waiter.set_exception(reply)
                else:
                    waiter.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_exception(RedisError(f"the connection to Redis closed: {exc}"))

    def call(self, packed: bytes) -> asyncio.Future[Any]:
        waiter = asyncio.get_running_loop().create_future()
        self.waiting.append(waiter)
        assert self.transport is not None
        self.transport.write(packed)
        return waiter

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        self.connection_lost(None)


class _Incomplete(Exception):
    pass


def _line(buffer: bytearray, start: int) -> tuple[bytes, int]:
    end = buffer.find(b"\r\n", start)
    if end < 0:
        raise _Incomplete
    return bytes(buffer[start:end]), end + 2


def _parse(buffer: bytearray, start: int) -> tuple[Any, int]:
    """One reply from ``start``: (its value, the index after it); _Incomplete if partial."""
    if start >= len(buffer):
        raise _Incomplete
    kind = buffer[start:start + 1]
    text, after = _line(buffer, start + 1)
    if kind == b"+":
        return text, after
    if kind == b"-":
        return RedisError(text.decode(errors="replace")), after
    if kind == b":":
        return int(text), after
    if kind == b"$":
        size = int(text)
        if size < 0:
            return None, after
        if len(buffer) < after + size + 2:
            raise _Incomplete
        return bytes(buffer[after:after + size]), after + size + 2
    if kind == b"*":
        count = int(text)
        items = []
        for _ in range(max(count, 0)):
            item, after = _parse(buffer, after)
            items.append(item)
        return (items if count >= 0 else None), after
    raise RedisError(f"an unknown Redis reply: {bytes(buffer[start:start + 20])!r}")


class Client:
    """One pipelined connection of one event loop to the Redis at ``url``."""

    def __init__(self, url: str, timeout: float) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 6379
        self.password = unquote(parts.password) if parts.password else None
        self.username = unquote(parts.username) if parts.username else None
        path = parts.path.strip("/")
        self.db = int(path) if path else 0
        self.timeout = timeout
        self.protocol: _Protocol | None = None
        self.connecting: asyncio.Future[_Protocol] | None = None

    async def call(self, packed: bytes) -> Any:
        """Send one command (``command()``'s bytes) and await its reply."""
        try:
            async with asyncio.timeout(self.timeout):
                protocol = await self._connected()
                return await protocol.call(packed)
        except TimeoutError as error:
            self._drop()  # a late reply would go to the next caller
            raise RedisError("Redis did not answer in time") from error

    async def _connected(self) -> _Protocol:
        if self.protocol is not None and not self.protocol.lost:
            return self.protocol
        # A finished connect is never awaited again: its connection is the one just found
        # lost or dropped (a connect that outlasted its callers' timeouts finishes unseen).
        if self.connecting is None or self.connecting.done():
            self.connecting = asyncio.ensure_future(self._connect())
        return await asyncio.shield(self.connecting)

    async def _connect(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        _, protocol = await loop.create_connection(_Protocol, self.host, self.port)
        try:
            if self.password is not None:
                auth = ((self.username, self.password) if self.username else (self.password,))
                await protocol.call(command("AUTH", *auth))
            if self.db:
                await protocol.call(command("SELECT", self.db))
        except BaseException:
            protocol.close()
            raise
        self.protocol = protocol
        return protocol

    def _drop(self) -> None:
        if self.protocol is not None:
            self.protocol.close()
            self.protocol = None


_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Client]] = (
    weakref.WeakKeyDictionary())


def client(url: str, timeout: float = 2.0) -> Client:
    """The running loop's client of ``url``."""
    found = _clients.setdefault(asyncio.get_running_loop(), {})
    if url not in found:
        found[url] = Client(url, timeout)
    return found[url]
