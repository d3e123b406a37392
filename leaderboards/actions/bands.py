"""The one writer of ``BandCheck``: the difficulty bands against the real players."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Avg, Count, Q

from game.models import Status
from solver_worker.rating import BANDS

from ..models import Attempt, BandCheck, Daily


def do_compare_bands() -> list[BandCheck]:
    """Rewrite the band checks: per variant and band, the dailies' mean rating beside
    the real players' win rate on them (finished ranked attempts, won / played; a
    result held for review counts too: it is a real player's game). Two grouped
    queries and one write, whatever the number of dailies. A variant without bands
    (not rated) has no row."""
    rated = (Daily.objects.exclude(band="").values("variant", "band")
             .annotate(dailies=Count("id"), mean=Avg("rating")))
    results = {
        (row["daily__variant"], row["daily__band"]): row
        for row in Attempt.objects.filter(ranked=True).exclude(status=Status.PLAYING)
        .values("daily__variant", "daily__band")
        .annotate(played=Count("id"), won=Count("id", filter=Q(status=Status.WON)))
    }
    checks = []
    for row in sorted(rated, key=lambda row: (row["variant"], BANDS.index(row["band"]))):
        played = results.get((row["variant"], row["band"]), {})
        checks.append(BandCheck(
            variant=row["variant"], band=row["band"], dailies=row["dailies"],
            rating=None if row["mean"] is None else round(row["mean"], 4),
            played=played.get("played", 0), won=played.get("won", 0),
        ))
    with transaction.atomic():
        BandCheck.objects.all().delete()
        BandCheck.objects.bulk_create(checks)
    return checks
