"""UTC days and the secret seeds of their dailies."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone

SEED_BITS = 63  # fits a signed BigIntegerField; deal_from_seed takes up to 64


def today() -> date:
    """The current UTC date: every player shares one daily, whatever their zone."""
    return timezone.now().astimezone(UTC).date()


def day_start(day: date) -> datetime:
    """When a day's daily opens: its UTC midnight."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_end(day: date) -> datetime:
    """When a day's daily closes and becomes an archive deal: the next UTC midnight."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def is_over(day: date) -> bool:
    return day < today()


def candidate_seed(day: date, variant: str, index: int) -> int:
    """The ``index``-th candidate seed of a day and variant.

    HMAC of the secret: without it nobody can compute a daily, and knowing
    past dailies (shown in the archive) tells nothing about future ones.
    """
    # The prefix is a fixed label of this site's seeds, whatever the variant's game
    # (variant slugs are unique across games): changing it would change every daily
    # not made yet.
    message = f"napoleons-tomb daily {day.isoformat()} {variant} {index}".encode()
    digest = hmac.new(settings.DAILY_SECRET.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def candidate_seeds(day: date, variant: str) -> Iterator[tuple[int, int]]:
    """(index, seed) pairs in a fixed order: every maker tries the same ones."""
    for index in range(settings.DAILY_MAX_CANDIDATES):
        yield index, candidate_seed(day, variant, index)


def parse_day(value: str) -> date:
    """A day in ISO form (2026-11-29); ValueError otherwise."""
    if len(value) != 10:
        raise ValueError("a day is written YYYY-MM-DD")
    return date.fromisoformat(value)
