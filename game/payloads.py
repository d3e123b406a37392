"""What a client may see of a game: its public fields and the engine's visible view.

Built in one place so every HTTP and WebSocket payload carries the same
fields and none carries the stored deal (Game.cards) or the log's future.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .engine import Position, can_finish, visible_view
from .models import Game


def game_payload(game: Game, position: Position) -> dict[str, Any]:
    return {
        **game_summary(game),
        # The rest plays itself (an empty stock: it tells nothing of an unseen card).
        "can_finish": game.status == "playing" and can_finish(position),
        "state": visible_view(position),
    }


def game_summary(game: Game) -> dict[str, Any]:
    """The game without its table: for lists of games."""
    return {
        "id": str(game.id),
        "variant": game.variant,
        "deal": game.deal,
        "seeded": game.seeded,
        "ranked": game.ranked,
        "version": game.version,
        "status": game.status,
        "home": game.home,
        "moves": game.moves,
        "undos": game.undos,
        "hints": game.hints,
        "created": _time(game.created_at),
        "updated": _time(game.updated_at),
        "finished": _time(game.finished_at),
        "started": _time(game.started_at),
        "closes": _time(game.closes_at),
    }


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
