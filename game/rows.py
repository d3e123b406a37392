"""The game row's two statements on the live-play path, as SQL made once from the model.

Every move reads its game's row under a lock and writes it back. Through the
ORM those two statements cost about 0.6 ms of CPU per move, most of it
compiling the same query again each time (issue 15's profile: the SELECT ...
FOR UPDATE with its model about 0.43 ms, the 13-field save about 0.26 ms more
than the UPDATE it sends). Here the SQL text is built once per database vendor
from the model's own fields (so a new column is read and written with no
change here), values pass through each field's own conversions, and the row
comes back as a normal ``Game`` (``Model.from_db``). Only ``game.actions``
calls these: it stays the one writer of games.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from .models import Game


def lock(game_id: uuid.UUID) -> Game | None:
    """The game's row, locked until the transaction ends (where the database has row
    locks: SQLite serialises writers at BEGIN instead); None if there is no such game."""
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each lookup is a thread-local read
    sql, fields, converters = _made(_SELECTS, db.vendor, lambda: _select(db))
    with db.cursor() as cursor:
        cursor.execute(sql, [_pk_field().get_db_prep_save(game_id, db)])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, expression, converter in converters:
        values[index] = converter(values[index], expression, db)
    return Game.from_db(DEFAULT_DB_ALIAS, [field.attname for field in fields], values)


def save(game: Game, names: tuple[str, ...]) -> None:
    """UPDATE the game's row with these fields' values (as ``save(update_fields=...)``;
    an ``auto_now`` field named here takes the caller's value, not the clock's). Django's
    pre_save / post_save are not sent: nothing listens for a Game's, and apps built on
    games hear of each write through ``game.hooks.game_stored``."""
    db = connections[DEFAULT_DB_ALIAS]
    sql, fields = _made(_UPDATES, (db.vendor, names), lambda: _update(db, names))
    values = [field.get_db_prep_save(getattr(game, field.attname), db) for field in fields]
    with db.cursor() as cursor:
        cursor.execute(sql, [*values, _pk_field().get_db_prep_save(game.pk, db)])


def _pk_field() -> Any:
    return Game._meta.pk


Converter = tuple[int, Any, Any]  # (column index, its expression, the function)


# Made once per database vendor (and list of fields): the text depends on nothing else.
_SELECTS: dict[Any, Any] = {}
_UPDATES: dict[Any, Any] = {}


def _made(store: dict[Any, Any], key: Any, make: Any) -> Any:
    found = store.get(key)
    if found is None:
        found = store[key] = make()
    return found


def _select(db: BaseDatabaseWrapper) -> tuple[str, tuple[Any, ...], list[Converter]]:
    """The SELECT ... FOR UPDATE, its fields in column order, and the converters the ORM
    would run on each column (the backend's, then the field's own)."""
    quote = db.ops.quote_name
    fields = tuple(Game._meta.concrete_fields)
    columns = ", ".join(quote(field.column) for field in fields)
    locking = " FOR UPDATE" if db.features.has_select_for_update else ""
    sql = (f"SELECT {columns} FROM {quote(Game._meta.db_table)} "
           f"WHERE {quote(_pk_field().column)} = %s{locking}")
    converters = []
    for index, field in enumerate(fields):
        expression = field.get_col(Game._meta.db_table)
        for converter in db.ops.get_db_converters(expression) + \
                expression.get_db_converters(db):
            converters.append((index, expression, converter))
    return sql, fields, converters


def _update(db: BaseDatabaseWrapper, names: tuple[str, ...]) -> tuple[str, tuple[Any, ...]]:
    quote = db.ops.quote_name
    fields = tuple(Game._meta.get_field(name) for name in names)
    sets = ", ".join(f"{quote(field.column)} = %s" for field in fields)
    sql = (f"UPDATE {quote(Game._meta.db_table)} SET {sets} "
           f"WHERE {quote(_pk_field().column)} = %s")
    return sql, fields
