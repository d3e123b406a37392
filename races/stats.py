"""A player's race history for My statistics: races, wins, podiums, the latest results."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q

from game.names import variant_name
from patience import variant_of

from .models import Entry

RECENT = 10


def record_of(user_id: int) -> dict[str, Any]:
    """Races the user was placed in (over), their wins and podiums, newest first: one
    query, and one more for the latest results when there are any."""
    placed = Entry.objects.filter(user_id=user_id, place__isnull=False,
                                  race__finished_at__isnull=False)
    figures = placed.aggregate(races=Count("id"), wins=Count("id", filter=Q(place=1)),
                               podiums=Count("id", filter=Q(place__lte=3)))
    recent = [] if not figures["races"] else list(
        placed.select_related("race").annotate(
            players=Count("race__entries", filter=Q(race__entries__place__isnull=False)))
        .order_by("-race__finished_at")[:RECENT])
    return {**figures, "recent": [_result(entry) for entry in recent]}


def _result(entry: Any) -> dict[str, Any]:
    race = entry.race
    return {
        "code": race.code, "url": f"/race/{race.code}/",
        "variant": {"slug": race.variant, "name": variant_name(variant_of(race.variant))},
        "place": entry.place, "players": entry.players, "time_ms": entry.time_ms,
        "finished_at": race.finished_at,
    }
