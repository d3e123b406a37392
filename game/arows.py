"""The game row's one statement of a quick move, sent from the event loop.

A move over a socket on PostgreSQL (``actions.amove``) is written without a thread
and without a transaction block: one ``UPDATE ... WHERE id = %s AND version = %s``
over psycopg's async connection in autocommit, so the statement is its own
transaction, committed (and durable: synchronous_commit) once PostgreSQL answers. The
version in the WHERE is the version the move was played on, from the row this process
kept (game.positions): if another writer (a REST move, another server process) moved
the game meanwhile, or closed it, or its owner changed, the statement matches no row,
changes nothing, and the move takes the locked path instead. A row lock held by a
locked writer makes the UPDATE wait for its commit, then re-check the WHERE: one
writer per game holds either way.

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
# Guards in the WHERE beside the id and the version: what other actions change without
# a new version (do_close_games' closes_at, do_adopt_games' owner).
CONNECTIONS_PER_LOOP: Final = 4


def available() -> bool:
    """The default database is PostgreSQL (the embedded SQLite default: the locked path)."""
    return connections[DEFAULT_DB_ALIAS].vendor == "postgresql"


async def update(game: Game, version: int, now: Any) -> bool:
    """Write the quick move's fields of ``game`` where the row is still at ``version``
    (and open at ``now``, and owned as ``game`` says); True if it was (committed)."""
    sql = _statement(connections[DEFAULT_DB_ALIAS])
    # The columns' Python values as psycopg adapts them (text, integers, aware times, a
    # UUID): what each field's get_db_prep_save returns for them on PostgreSQL.
    params = [game.log, game.home, game.score, game.moves, game.version, game.started_at,
              game.updated_at, game.pk, version, now, game.owner_id, game.anon_token]
    pool = _pool()
    connection = await pool.get()
    try:
        cursor = connection.cursor()
        await cursor.execute(sql, params)
        return cursor.rowcount == 1
    except BaseException:
        await pool.discard(connection)
        raise
    finally:
        if not connection.closed:
            pool.put(connection)


_SQL: dict[str, str] = {}


def _statement(db: Any) -> str:
    found = _SQL.get(db.vendor)
    if found is None:
        quote = db.ops.quote_name
        meta = Game._meta
        fields = tuple(meta.get_field(name) for name in QUICK_FIELDS)
        sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
        closes, owner = quote(meta.get_field("closes_at").column), quote(
            meta.get_field("owner").column)
        found = _SQL[db.vendor] = (
            f"UPDATE {quote(meta.db_table)} SET {sets} "
            f"WHERE {quote(meta.pk.column)} = %s AND {quote('version')} = %s"
            f" AND ({closes} IS NULL OR {closes} > %s)"
            f" AND {owner} IS NOT DISTINCT FROM %s"
            f" AND {quote(meta.get_field('anon_token').column)} = %s")
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


_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Connections] = (
    weakref.WeakKeyDictionary())


def _pool() -> Connections:
    loop = asyncio.get_running_loop()
    found = _pools.get(loop)
    if found is None:
        found = _pools[loop] = Connections(_connection_params(), CONNECTIONS_PER_LOOP)
    return found
