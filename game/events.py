"""Live events: what actions and the hint task send to a game's channel group.

Every open board of a game listens on its group. Senders here are sync code
(actions run in a transaction, on_commit; the Celery task), so they cross
into the layer with async_to_sync.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from .models import group_name


def send_state(payload: dict[str, Any], *, origin: str = "", seq: int | None = None) -> None:
    """The new visible state; ``origin`` (the acting socket) gets its ``seq`` back."""
    _group_send(payload["id"], {
        "type": "game.state",
        "version": payload["version"],
        "game": payload,
        "origin": origin,
        "seq": seq,
    })


def send_hint(game_id: str, version: int, hint: dict[str, Any]) -> None:
    """A solver's hint for the position at ``version``."""
    _group_send(game_id, {"type": "game.hint", "version": version, "hint": hint})


def close_layer() -> None:
    """Close the layer's connections: a Celery worker's async_to_sync makes a fresh
    event loop per call, and pools left bound to a dead loop break the next send."""
    layer = get_channel_layer()
    close_pools = getattr(layer, "close_pools", None)
    if close_pools is not None:
        async_to_sync(close_pools)()


def _group_send(game_id: str, event: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group_name(game_id), event)
