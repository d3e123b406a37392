"""The live field: each ranked attempt's progress, sent to its variant's Channels group.

Entries carry a player's name and figures (cards home, finished or not,
time, moves): never a card. Sent after the write commits (game's hook). A
result under fair-play review is not sent until an admin clears it.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from game import events as game_events

from .boards import field_entry
from .models import Attempt

HELD = "held"  # the notice's code: the board says "under review" in the player's words


def field_group(variant: str) -> str:
    return f"daily.{variant}"


def send_attempt(game_id: str) -> None:
    attempt = (
        Attempt.objects.select_related("daily", "user__standing").filter(game_id=game_id)
        .first()
    )
    layer = get_channel_layer()
    if attempt is None or layer is None or is_unranked(attempt) or attempt.under_review:
        return
    async_to_sync(layer.group_send)(field_group(attempt.daily.variant), {
        "type": "field.entry",
        "date": attempt.daily.date.isoformat(),
        "entry": field_entry(attempt),
    })


def is_unranked(attempt: Attempt) -> bool:
    """An admin hid the player from the boards: the live field leaves them out too."""
    standing = getattr(attempt.user, "standing", None) if attempt.user else None
    return standing is not None and standing.unranked


def send_held(game_id: str) -> None:
    """The player's open boards hear that their result is held for review, at once."""
    game_events.send_notice(game_id, HELD)


def send_field(variant: str) -> None:
    """A result left the field (flagged for review mid-game): each watcher reads the
    field afresh, as on connect. Rare, so a read per watcher is cheap."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(field_group(variant), {"type": "field.refresh"})
