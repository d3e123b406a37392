"""Positions kept between moves, so a move is not a replay of the whole game.

A game's position is its stored deal with its move log replayed (``Game.position``).
Replaying on every move costs a game of N moves N^2/2 applications; keeping the
position that the last write left costs one application per move.

The cache is in-process and bounded (least recently used out). Its entries carry
the (game id, version) they were made at: every write of a game bumps its version, under the game's
row lock, so one key names one position wherever it was made. So:

- a position goes in only once its write has committed (``transaction.on_commit``):
  a rolled-back write leaves nothing behind;
- a writer *takes* the position out (it is its own until it is put back), under the
  row lock and only for the version it read under that lock. Another process (a
  second server worker) that moved the game meanwhile bumped the version, so a
  position left here by this process is simply not found, and the writer replays;
- a writer that fails after taking one (an illegal move, a refused undo) leaves no
  entry: the next writer replays. Nothing shared is ever changed in place.

Beside the position an entry may hold the game's row as it was at that version (a
``Game``): the quick move (``game.actions.amove``) plays on it without reading the
row, and writes with ``UPDATE ... WHERE version = v``, so a row that moved elsewhere
meanwhile is never overwritten (the statement changes nothing and the move takes the
locked path). One entry per game: a newer version replaces an older one, never the
reverse.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

# Games played at once in one server process: a position with its history is a few
# to some tens of kilobytes, so at most some tens of megabytes.
DEFAULT_SIZE: Final = 1024



@dataclass(slots=True)
class Kept:
    """A game's position at ``version``, and its row then if known (None: a position only)."""

    version: int
    position: Any
    row: Any = None


class PositionCache:
    """A bounded map game id -> (version, position, row), safe across threads."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[uuid.UUID, Kept] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def take(self, game_id: uuid.UUID | str, version: int) -> Any | None:
        """The position of this game at this version, removed from the cache; None if
        this process has none (it was evicted, never made here, or another writer moved)."""
        kept = self.take_kept(game_id, version)
        return None if kept is None else kept.position

    def take_kept(self, game_id: uuid.UUID | str, version: int | None = None) -> Kept | None:
        """The game's entry, removed (at ``version`` only, if given; else at any)."""
        key = _key(game_id)
        with self._lock:
            kept = self._entries.get(key)
            if kept is None or (version is not None and kept.version != version):
                self.misses += 1
                return None
            del self._entries[key]
            self.hits += 1
            return kept

    def keep(self, game_id: uuid.UUID | str, version: int, position: Any,
             row: Any = None) -> None:
        """Keep a committed position (and the row at that version, if given), unless a
        newer version of the game is kept already; the oldest entries go past the size."""
        key = _key(game_id)
        with self._lock:
            found = self._entries.get(key)
            if found is not None and found.version > version:
                return
            self._entries[key] = Kept(version, position, row)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


def _key(game_id: uuid.UUID | str) -> uuid.UUID:
    return game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))


POSITIONS: Final = PositionCache()
