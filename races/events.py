"""Live events of a room, sent to its Channels group after the write commits.

``race.room``: something in the room changed (lobby, start, end, rematch); each
socket reads the room afresh for its own player (the payload's "me" differs per
player), so the event itself carries nothing. ``race.progress``: a race game moved;
its figures, never a card. Every move of every player went to every socket of the
room, and under load that flood filled the channel layer's queue, which drops
silently past its capacity (docs/figures.md, issue 15): a move over a game socket
now joins its process's pending ``race.progress_batch`` of the room (game.events
Coalescer), where each player's latest figures replace their older ones, sent at most
once a ``RACE_PROGRESS_INTERVAL``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from game.events import Coalesce, send_to_group

PROGRESS_BATCH = "race.progress_batch"


def room_group(code: str) -> str:
    return f"race.{code}"


def send_room(code: str) -> None:
    _send(code, {"type": "race.room"})


def send_progress(code: str, progress: dict[str, Any]) -> None:
    _send(code, {"type": "race.progress", "progress": progress})


def _send(code: str, event: dict[str, Any]) -> None:
    # Sent by the acting game socket from its loop when a race move came over it.
    send_to_group(room_group(code), event, _coalescing(event))


def _coalescing(event: dict[str, Any]) -> Coalesce | None:
    if event["type"] != "race.progress":
        return None
    return Coalesce(batch=PROGRESS_BATCH, key=event["progress"]["player"],
                    interval=settings.RACE_PROGRESS_INTERVAL)
