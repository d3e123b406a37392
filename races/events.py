"""Live events of a room, sent to its Channels group after the write commits.

``race.room``: something in the room changed (lobby, start, end, rematch); each
socket reads the room afresh for its own player (the payload's "me" differs per
player), so the event itself carries nothing. ``race.progress``: a race game moved;
its figures, never a card.
"""

from __future__ import annotations

from typing import Any

from game.events import send_to_group


def room_group(code: str) -> str:
    return f"race.{code}"


def send_room(code: str) -> None:
    _send(code, {"type": "race.room"})


def send_progress(code: str, progress: dict[str, Any]) -> None:
    _send(code, {"type": "race.progress", "progress": progress})


def _send(code: str, event: dict[str, Any]) -> None:
    # Sent by the acting game socket from its loop when a race move came over it.
    send_to_group(room_group(code), event)
