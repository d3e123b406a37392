"""The one writer of ``Standing``: an admin takes a player off every board, or back."""

from __future__ import annotations

from django.db import transaction

from ..models import Standing


def do_set_unranked(user_ids: list[int], unranked: bool, reason: str = "") -> int:
    """Hide players from (or show them again on) every board and the live field.

    Their games, attempts and statistics stay as they are, so marking them
    ranked again restores their places. Returns how many players were set.
    """
    with transaction.atomic():
        for user_id in user_ids:
            Standing.objects.update_or_create(
                user_id=user_id, defaults={"unranked": unranked, "reason": reason}
            )
    return len(user_ids)
