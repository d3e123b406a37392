"""The one writer of ``PooledDeal``: a few screened seeds per variant, kept ahead.

Start takes one (a short write) so it never waits for the solver; when the pool is
empty (a burst of races, a new site, the embedded default with no worker) Start screens
one itself. The pool is filled by a task on the slow queue after each start and by
the beat sweep (races.tasks).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

import patience

from .. import screening
from ..models import PooledDeal
from .common import NoDealReady


def pool_variants() -> list[str]:
    """settings.RACE_POOL_VARIANTS when set, else every registered variant."""
    return list(settings.RACE_POOL_VARIANTS) or [
        variant.slug for _, variant in patience.all_variants()]


def take_seed(variant: str) -> int | None:
    """A pooled seed of the variant, taken (deleted) so no other race gets it."""
    with transaction.atomic():
        row = (PooledDeal.objects.select_for_update(skip_locked=True)
               .filter(variant=variant).order_by("id").first())
        if row is None:
            return None
        row.delete()
        return row.seed


def deal_seed(variant: str) -> int:
    """A seed proved winnable for a new race: from the pool, else screened now."""
    seed = take_seed(variant)
    if seed is None:
        seed = screening.find_winnable(variant, settings.RACE_SCREEN_BUDGET_SECONDS,
                                       settings.RACE_SCREEN_TRIES)
    if seed is None:
        raise NoDealReady(gettext("no deal could be proved winnable just now: "
                                  "try again in a moment"))
    return seed


def do_return_seed(variant: str, seed: int) -> None:
    """A seed taken for a start that was then refused: back in the pool, still unseen."""
    PooledDeal.objects.create(variant=variant, seed=seed)


def do_fill_pool(variant: str) -> int:
    """Screen seeds until the variant's pool holds RACE_POOL_SIZE; returns how many were
    added. Safe twice at once: two fillers may overfill by a few, never underfill."""
    added = 0
    while PooledDeal.objects.filter(variant=variant).count() < settings.RACE_POOL_SIZE:
        seed = screening.find_winnable(variant, settings.RACE_SCREEN_BUDGET_SECONDS,
                                       settings.RACE_SCREEN_TRIES)
        if seed is None:
            break
        PooledDeal.objects.create(variant=variant, seed=seed)
        added += 1
    return added
