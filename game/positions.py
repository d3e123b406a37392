"""Positions kept between moves, so a move is not a replay of the whole game.

A game's position is its stored deal with its move log replayed (``Game.position``).
Replaying on every move costs a game of N moves N^2/2 applications; keeping the
position that the last write left costs one application per move.

The cache is in-process and bounded (least recently used out). It is keyed by
(game id, version): every write of a game bumps its version, under the game's
row lock, so one key names one position wherever it was made. So:

- a position goes in only once its write has committed (``transaction.on_commit``):
  a rolled-back write leaves nothing behind;
- a writer *takes* the position out (it is its own until it is put back), under the
  row lock and only for the version it read under that lock. Another process (a
  second server worker) that moved the game meanwhile bumped the version, so a
  position left here by this process is simply not found, and the writer replays;
- a writer that fails after taking one (an illegal move, a refused undo) leaves no
  entry: the next writer replays. Nothing shared is ever changed in place.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import Any, Final

# Games played at once in one server process: a position with its history is a few
# to some tens of kilobytes, so at most some tens of megabytes.
DEFAULT_SIZE: Final = 1024

Key = tuple[uuid.UUID, int]


class PositionCache:
    """A bounded map (game id, version) -> position, safe across threads."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[Key, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def take(self, game_id: uuid.UUID | str, version: int) -> Any | None:
        """The position of this game at this version, removed from the cache; None if
        this process has none (it was evicted, never made here, or another writer moved)."""
        with self._lock:
            position = self._entries.pop(_key(game_id, version), None)
            if position is None:
                self.misses += 1
            else:
                self.hits += 1
            return position

    def keep(self, game_id: uuid.UUID | str, version: int, position: Any) -> None:
        """Keep a committed position; the oldest entries go past the size."""
        with self._lock:
            key = _key(game_id, version)
            self._entries[key] = position
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


def _key(game_id: uuid.UUID | str, version: int) -> Key:
    return uuid.UUID(str(game_id)), version


POSITIONS: Final = PositionCache()
