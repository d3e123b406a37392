"""What a client may see of a game: its public fields and the game's visible view.

Built in one place so every HTTP and WebSocket payload carries the same
fields and none carries the stored deal (Game.cards) or the log's future.
A full payload names its game and variant ({"slug", "name"} each) and carries
the table as data (``patience.protocol.Table.as_data``), which the one board
script draws; ``state`` is the game's visible view (``piles``, ``paths``...).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from django.utils.translation import get_language

from patience import Rules, rules_of

from . import freeplay
from .models import FreePlayStats, Game, Status
from .names import named_game, named_variant, translated_table
from .undoing import can_undo


def game_payload(game: Game, position: Any) -> dict[str, Any]:
    rules = game.rules
    return {
        **game_summary(game),
        "table": table_of(game.variant),
        # The rest plays itself (the game's finishing line: it tells nothing of an unseen card).
        "can_finish": game.status == Status.PLAYING and rules.finishing_line(position) is not None,
        "state": {**rules.visible_view(position), "can_undo": can_undo(game, position)},
        "achievements": game.achievements.split(),
        "free_play": free_play_figures(game),
    }


def table_of(variant: str) -> dict[str, Any]:
    """The variant's table as data, its words in the active language."""
    return _table_in(variant, get_language())


@cache
def _table_in(variant: str, language: str | None) -> dict[str, Any]:
    """Fixed per variant and language, so made once (and never changed after)."""
    rules = rules_of(variant)
    return translated_table(rules, rules.variants[variant])


def named(rules: Rules, variant: str) -> tuple[dict[str, str], dict[str, str]]:
    """The game and the variant as a client sees them: {"slug", "name"} each (new dicts:
    a caller may change its payload)."""
    game_named, variant_named = _named_in(variant, get_language())
    return dict(game_named), dict(variant_named)


@cache
def _named_in(variant: str, language: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """Fixed per variant and language: the names are looked up in the catalogs once, not
    on every state a move sends (issue 28's profile: a fifth of the payload's time)."""
    rules = rules_of(variant)
    return named_game(rules), named_variant(rules.variants[variant])


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
    game_named, variant_named = named(game.rules, game.variant)
    return {
        "id": str(game.id),
        "game": game_named,
        "variant": variant_named,
        "deal": game.deal,
        "seeded": game.seeded,
        "deal_kind": game.deal_kind,
        "ranked": game.ranked,
        "version": game.version,
        "status": game.status,
        "home": game.home,
        "score": game.score,
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
