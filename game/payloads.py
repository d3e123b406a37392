"""What a client may see of a game: its public fields and the engine's visible view.

Built in one place so every HTTP and WebSocket payload carries the same
fields and none carries the stored deal (Game.cards) or the log's future.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from patience.tomb import Position, can_finish, visible_view

from . import freeplay
from .models import FreePlayStats, Game, Status


def game_payload(game: Game, position: Position) -> dict[str, Any]:
    return {
        **game_summary(game),
        # The rest plays itself (an empty stock: it tells nothing of an unseen card).
        "can_finish": game.status == "playing" and can_finish(position),
        "state": visible_view(position),
        "free_play": free_play_figures(game),
    }


def free_play_figures(game: Game) -> dict[str, Any] | None:
    """The player's free-play figures on a free-play game that ended and was counted
    (one query, only then); None on any other game."""
    if not game.free_play or game.status == Status.PLAYING or game.tally not in ("won", "lost"):
        return None
    rows = FreePlayStats.objects.filter(variant=game.variant)
    if game.owner_id is not None:
        rows = rows.filter(owner_id=game.owner_id)
    else:
        rows = rows.filter(owner=None, anon_token=game.anon_token)
    return freeplay.figures(rows.first(), game)


def game_summary(game: Game) -> dict[str, Any]:
    """The game without its table: for lists of games."""
    return {
        "id": str(game.id),
        "variant": game.variant,
        "deal": game.deal,
        "seeded": game.seeded,
        "deal_kind": game.deal_kind,
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
        "daily_date": game.daily_date.isoformat() if game.daily_date else None,
    }


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value else None
