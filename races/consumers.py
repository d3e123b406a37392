"""A race room over /ws/races/<code>/: read-only, like the daily's live field.

On connect the socket gets {"type": "room", ...room}; then the room again on every
change (lobby, start, end, rematch, a player's socket opening or closing) and
{"type": "progress", "player", "home", "moves", "status", "time_ms"} for each player
who moved: one per player of each batch of the room's progress (races.events; a
player's latest figures, at most a few times a second), or per move made over REST.
Figures older than the ones a socket sent for that player (two paths, two processes)
and figures after the race's end are dropped: the room at the end carries every
player's final ones, and must stay the last word. The client may send {"type": "sync"}
(at most one a second) for the room afresh; anything else is ignored. A participant's
open socket marks them present. Each socket also ends the race at its time limit (an
idempotent action), so a race ends on time with no worker too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import datetime
from functools import partial
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from game.actions import ActionError, Player, player_from
from game.consumers import ClosesItsOwnConnections, ListensOnly, SpeaksTheLanguage, run_action
from game.events import best_effort

from . import actions, presence
from .events import room_group, send_room

log = logging.getLogger(__name__)
CLOSE_NOT_FOUND = 4404
CLOSE_TRY_AGAIN = 1013  # the channel layer (Redis) failed: the page reconnects
LAYER_TIMEOUT = 3.0  # seconds, as the game's sockets (game.consumers)
END_GRACE_S = 0.3  # after the time limit, so the server's clock has surely passed it


def find_race(scope: dict[str, Any], code: str) -> tuple[Player, int]:
    player = player_from(scope["user"], scope["session"])
    return player, actions.get_race(code).pk


def follow(code: str, race_id: int, player: Player, counted: int | None) -> int | None:
    """Count a socket for its player's entry (``counted``: the one it is counted for so
    far) and return the entry it counts for now: their entry in the race, joined after
    the socket opened too; none once they left. The room hears of a change."""
    entry = actions.my_entry(actions.get_race(code), player)
    now = None if entry is None or entry.left_at is not None else entry.pk
    if now != counted:
        if counted is not None:
            presence.depart(race_id, counted)
        if now is not None:
            presence.arrive(race_id, now)
        best_effort(partial(send_room, code))()
    return now


def unfollow(code: str, race_id: int, counted: int) -> None:
    """The socket closed: its player is one socket less present, and the room hears it."""
    presence.depart(race_id, counted)
    best_effort(partial(send_room, code))()


class RaceConsumer(  # type: ignore[misc]
    SpeaksTheLanguage, ClosesItsOwnConnections, ListensOnly, AsyncJsonWebsocketConsumer
):
    """A room's socket. Its every database call closes its own connection (run_action), so
    its messages skip channels' per-message connection sweep (a thread hop each): a room
    hears a progress batch several times a second while its race runs (issue 28)."""

    code = ""
    group = ""
    race_id = 0
    entry_id: int | None = None
    end_timer: asyncio.Task[None] | None = None
    end_at = ""
    # Whether the last room this socket sent showed the race running, and per player the
    # game version of the last figures it sent: what progress it still forwards.
    running = False
    shown: dict[int, int]

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"])
        self.shown = {}
        try:
            self.player, self.race_id = await run_action(find_race)(self.scope, self.code)
        except ActionError:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.last_sync = time.monotonic()
        # Join before the first picture, so no change can fall between the two.
        self.group = room_group(self.code)
        try:
            await asyncio.wait_for(self.channel_layer.group_add(self.group, self.channel_name),
                                   LAYER_TIMEOUT)
        except Exception as error:  # the layer's (Redis's) own errors: the page reconnects
            log.warning("race room %s: no live updates: %s: %s", self.code,
                        type(error).__name__, error)
            self.group = ""
            await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        await self.accept()
        await self.follow_presence()
        await self.send_room()

    async def disconnect(self, code: int) -> None:
        if self.end_timer is not None:
            self.end_timer.cancel()
        if self.entry_id is not None:
            counted, self.entry_id = self.entry_id, None
            await run_action(unfollow)(self.code, self.race_id, counted)
        if self.group:
            group, self.group = self.group, ""
            with contextlib.suppress(Exception):  # the layer is down: the entry expires
                await asyncio.wait_for(
                    self.channel_layer.group_discard(group, self.channel_name), LAYER_TIMEOUT)

    async def follow_presence(self) -> None:
        with contextlib.suppress(ActionError):  # the race is gone: send_room closes the socket
            self.entry_id = await run_action(follow)(self.code, self.race_id, self.player,
                                              self.entry_id)

    async def send_room(self) -> None:
        try:
            room = await run_action(actions.show_room)(self.code, self.player)
        except ActionError:  # the race is gone (deleted by an admin)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.send_json({"type": "room", **room})
        self.running = room["state"] == "running"
        if room["state"] == "lobby":
            self.shown.clear()  # a rematch's new race: new players
        self.arm_end_timer(room)

    def arm_end_timer(self, room: dict[str, Any]) -> None:
        """While the race runs, end it at its time limit from here (idempotent)."""
        if room["state"] != "running" or not room["ends_at"] or room["ends_at"] == self.end_at:
            return
        if self.end_timer is not None:
            self.end_timer.cancel()
        self.end_at = room["ends_at"]
        left = (datetime.fromisoformat(room["ends_at"])
                - datetime.fromisoformat(room["server_now"])).total_seconds()
        self.end_timer = asyncio.ensure_future(self.end_after(max(0.0, left) + END_GRACE_S))

    async def end_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        with contextlib.suppress(ActionError):
            await run_action(actions.do_finish_race)(self.code)

    async def race_room(self, event: dict[str, Any]) -> None:
        await self.follow_presence()
        await self.send_room()

    async def race_progress(self, event: dict[str, Any]) -> None:
        progress = dict(event["progress"])
        version = progress.pop("version", 0)
        player = progress["player"]
        if not self.running or version < self.shown.get(player, 0):
            return
        self.shown[player] = version
        await self.send_json({"type": "progress", **progress})

    async def race_progress_batch(self, event: dict[str, Any]) -> None:
        for one in event["events"]:
            await self.race_progress(one)

    async def resync(self) -> None:
        await self.send_room()
