"""The game row's one statement of a quick move, sent from the event loop.

A move over a socket on PostgreSQL (``actions.amove``) is written without a thread
and without a transaction block: one ``UPDATE ... WHERE id = v.id AND version =
v.old_version`` over psycopg's async connection in autocommit, so the statement is its
own transaction, committed (and durable: synchronous_commit) once PostgreSQL answers.
The version in the WHERE is the version the move was played on, from the row this
process kept (game.positions): if another writer (a REST move, another server process)
moved the game meanwhile, or closed it, or its owner changed, the statement matches
no row for it, changes nothing, and the move takes the locked path instead. A row lock
held by a locked writer makes the UPDATE wait for its commit, then re-check the WHERE:
one writer per game holds either way. Moves that come while every connection is busy
go out together in one such statement (``Batcher``).

The SQL is made once from the model's fields (as game.rows does). Connections are per
event loop (psycopg's async connections belong to one), a few per process: each
statement holds one for a round trip only. Only ``game.actions`` calls ``update``.
"""

from __future__ import annotations

import asyncio
import collections
import weakref
from typing import Any, Final

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections

from .models import Game

# The quick move's columns: what a move that leaves the game playing changes (update()
# passes their values in this order).
QUICK_FIELDS: Final = ("log", "home", "score", "moves", "version", "started_at", "updated_at")
CONNECTIONS_PER_LOOP: Final = 8


def available() -> bool:
    """The default database is PostgreSQL (the embedded SQLite default: the locked path)."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def update(game: Game, version: int, now: Any) -> bool:
    """Write the quick move's fields of ``game`` where the row is still at ``version``
    (and open at ``now``, and owned as ``game`` says); True if it was (committed)."""
    # The columns' Python values as psycopg adapts them (a UUID, integers, text, aware
    # times): what each field's get_db_prep_save returns for them on PostgreSQL.
    row = (game.pk, version, now, game.owner_id, game.anon_token, game.log, game.home,
           game.score, game.moves, game.version, game.started_at, game.updated_at)
    return await _batcher().update(row)


class Batcher:
    """The quick moves of one event loop, written together when they come together.

    A move that finds a connection free is sent alone at once. Moves that come while
    every connection waits on PostgreSQL queue, and the next connection free sends them
    all as ONE statement (an UPDATE from a VALUES list, RETURNING the ids it changed):
    one round trip and one commit for many games. A PostgreSQL commit waits for its WAL
    to reach the disk, which took 10 to 30 ms on this shared machine: one statement per
    move per connection bounded a process at a few hundred moves a second, whatever its
    CPU. Each move is still acknowledged only once its statement has committed, and a
    batch is one transaction: all its moves are stored, or none (each one's caller then
    fails, as a failed statement would, and plays its move on the locked path at the
    version it was played on: game.actions.QuickWriteFailed). A game is at most once in
    a batch."""

    MAX_BATCH = 64

    def __init__(self, pool: Connections) -> None:
        self.pool = pool
        self.pending: list[tuple[tuple[Any, ...], asyncio.Future[bool]]] = []
        self.senders = 0
        self.sending: set[asyncio.Task[None]] = set()

    async def update(self, row: tuple[Any, ...]) -> bool:
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.pending.append((row, done))
        if self.senders < self.pool.size:
            self.senders += 1
            sender = asyncio.ensure_future(self._send_while_pending())
            self.sending.add(sender)
            sender.add_done_callback(self.sending.discard)
        return await done

    async def _send_while_pending(self) -> None:
        try:
            while self.pending:
                await self._send(self._take_batch())
        finally:
            self.senders -= 1

    def _take_batch(self) -> list[tuple[tuple[Any, ...], asyncio.Future[bool]]]:
        batch, later, games = [], [], set()
        for item in self.pending:
            game_id = item[0][0]
            if len(batch) < self.MAX_BATCH and game_id not in games:
                games.add(game_id)
                batch.append(item)
            else:
                later.append(item)
        self.pending = later
        return batch

    async def _send(self, batch: list[tuple[tuple[Any, ...], asyncio.Future[bool]]]) -> None:
        try:
            connection = await self.pool.get()
        except BaseException as error:
            _fail(batch, error)
            return
        try:
            cursor = connection.cursor()
            await cursor.execute(_statement(connections[DEFAULT_DB_ALIAS], len(batch)),
                                 [value for row, _ in batch for value in row])
            written = {found for (found,) in await cursor.fetchall()}
        except BaseException as error:
            await self.pool.discard(connection)
            _fail(batch, error)
            return
        self.pool.put(connection)
        for row, done in batch:
            if not done.done():
                done.set_result(row[0] in written)


def _fail(batch: list[tuple[tuple[Any, ...], asyncio.Future[bool]]], error: BaseException) -> None:
    for _, done in batch:
        if not done.done():
            done.set_exception(error if isinstance(error, Exception)
                               else RuntimeError(f"the quick write stopped: {error!r}"))


_SQL: dict[tuple[str, int], str] = {}
# The VALUES list's columns, in update()'s order: the row's guards, then the new values.
# Beside the id and the version, the guards are what other actions change without a new
# version (do_close_games' closes_at, checked against now; do_adopt_games' owner).
_GUARDS = ("id", "old_version", "now", "owner_id", "anon_token")


def _statement(db: Any, rows: int) -> str:
    """UPDATE ... FROM (VALUES ...) for ``rows`` games, made once per database and size."""
    found = _SQL.get((db.vendor, rows))
    if found is not None:
        return found
    quote, meta = db.ops.quote_name, Game._meta
    fields = [meta.get_field(name) for name in QUICK_FIELDS]
    column = {name: quote(meta.get_field(name).column)
              for name in ("id", "version", "closes_at", "owner", "anon_token")}
    types = [meta.pk.db_type(db), meta.get_field("version").db_type(db),
             meta.get_field("closes_at").db_type(db),
             meta.get_field("owner").target_field.rel_db_type(db),
             meta.get_field("anon_token").db_type(db), *(field.db_type(db) for field in fields)]
    # Each value cast to its column's type (a VALUES list has no column types of its own).
    one = "(" + ", ".join(f"%s::{kind.split('(')[0]}" for kind in types) + ")"
    names = [*_GUARDS, *(f"new_{field.column}" for field in fields)]
    sets = ", ".join(f"{quote(field.column)} = v.{quote('new_' + field.column)}"
                     for field in fields)
    found = _SQL[(db.vendor, rows)] = (
        f"UPDATE {quote(meta.db_table)} AS g SET {sets} "
        f"FROM (VALUES {', '.join([one] * rows)}) AS v({', '.join(map(quote, names))}) "
        f"WHERE g.{column['id']} = v.{quote('id')}"
        f" AND g.{column['version']} = v.{quote('old_version')}"
        f" AND (g.{column['closes_at']} IS NULL OR g.{column['closes_at']} > v.{quote('now')})"
        f" AND g.{column['owner']} IS NOT DISTINCT FROM v.{quote('owner_id')}"
        f" AND g.{column['anon_token']} = v.{quote('anon_token')}"
        f" RETURNING g.{column['id']}")
    return found


def _connection_params() -> dict[str, Any]:
    """Django's own connection parameters, without its sync-only cursor and adapters."""
    params = dict(connections[DEFAULT_DB_ALIAS].get_connection_params())
    for sync_only in ("cursor_factory", "context"):
        params.pop(sync_only, None)
    return params


class Connections:
    """A few autocommit async connections of one event loop, last used first."""

    def __init__(self, params: dict[str, Any], size: int) -> None:
        self.params, self.size = params, size
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.opened = 0
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()

    async def get(self) -> psycopg.AsyncConnection[Any]:
        while True:
            if self.idle:
                return self.idle.pop()
            if self.opened < self.size:
                self.opened += 1
                try:
                    return await psycopg.AsyncConnection.connect(**self.params, autocommit=True)
                except BaseException:
                    self.opened -= 1
                    self._wake(None)
                    raise
            waiter = asyncio.get_running_loop().create_future()
            self.waiting.append(waiter)
            try:
                handed = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled() and waiter.result() is not None:
                    self.put(waiter.result())  # handed over as we were cancelled
                raise
            if handed is not None:
                return handed  # type: ignore[no-any-return]

    def put(self, connection: psycopg.AsyncConnection[Any]) -> None:
        if not self._wake(connection):
            self.idle.append(connection)

    async def discard(self, connection: psycopg.AsyncConnection[Any]) -> None:
        """A connection whose statement failed: closed, and a waiter may open another."""
        self.opened -= 1
        try:
            await connection.close()
        finally:
            self._wake(None)

    def _wake(self, connection: Any) -> bool:
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(connection)
                return True
        return False


_batchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Batcher] = (
    weakref.WeakKeyDictionary())


def _batcher() -> Batcher:
    loop = asyncio.get_running_loop()
    found = _batchers.get(loop)
    if found is None:
        found = _batchers[loop] = Batcher(
            Connections(_connection_params(), CONNECTIONS_PER_LOOP))
    return found
