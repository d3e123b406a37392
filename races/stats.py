"""A player's race history for My statistics: races, wins, podiums, the latest results."""

from __future__ import annotations

from typing import Any

from game.names import variant_name
from patience import variant_of

from .models import Entry

RECENT = 10


def record_of(user_id: int) -> dict[str, Any]:
    """Races the user finished in (a place given), their wins and podiums, newest first."""
    placed = Entry.objects.filter(user_id=user_id, place__isnull=False,
                                  race__finished_at__isnull=False)
    recent = placed.select_related("race").order_by("-race__finished_at")[:RECENT]
    return {
        "races": placed.count(),
        "wins": placed.filter(place=1).count(),
        "podiums": placed.filter(place__lte=3).count(),
        "recent": [_result(entry) for entry in recent],
    }


def _result(entry: Entry) -> dict[str, Any]:
    race = entry.race
    return {
        "code": race.code, "url": f"/race/{race.code}/",
        "variant": {"slug": race.variant, "name": variant_name(variant_of(race.variant))},
        "place": entry.place, "players": race.entries.exclude(place=None).count(),
        "time_ms": entry.time_ms, "finished_at": race.finished_at,
    }
