"""The one game clock: the server's time from a game's first move to its last.

Every figure shown or ranked (a daily attempt's time, the share line, free-play
records) comes from here. Hints do not move it: a game's ``updated_at`` changes on a
hint too, so it is never the end of the clock.
"""

from __future__ import annotations

from datetime import datetime

from .models import Game


def elapsed_ms(started: datetime | None, last_move: datetime | None) -> int:
    """Milliseconds from the first move to ``last_move``; 0 before the first move."""
    if started is None or last_move is None:
        return 0
    return max(0, round((last_move - started).total_seconds() * 1000))


def game_time_ms(game: Game) -> int:
    """A finished game's time: its first move to the move that ended it (``finished_at``
    is set by that move). An unfinished game has no fixed time yet: 0."""
    return elapsed_ms(game.started_at, game.finished_at)
