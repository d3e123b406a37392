"""The live field over /ws/<game>/<variant>/daily/ (or /ws/daily/<variant>/): read-only.

On connect the socket gets {"type": "field", "date", "variant", "entries"};
then {"type": "entry", "date", "entry"} each time a ranked player brings a
card home or finishes, and the whole field again when a result in it is
held for review. Entries carry figures, never a card. Clients may send
{"type": "sync"} for a fresh picture; anything else is ignored.
"""

from __future__ import annotations

import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from game.actions import ActionError
from game.consumers import ListensOnly, SpeaksTheLanguage, run_action

from .actions import check_game_variant
from .boards import field
from .events import field_group

CLOSE_NOT_FOUND = 4404


class FieldConsumer(SpeaksTheLanguage, ListensOnly, AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group = ""

    async def connect(self) -> None:
        route = self.scope["url_route"]["kwargs"]
        try:
            _, found = check_game_variant(route.get("game"), route["variant"])
        except ActionError:  # no such game, or not a variant of it
            await self.close(code=CLOSE_NOT_FOUND)
            return
        variant = found.slug
        self.variant = variant
        self.last_sync = time.monotonic()
        # Join before the first picture, so no entry can fall between the two.
        self.group = field_group(variant)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_field()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = ""

    async def send_field(self) -> None:
        picture = await run_action(field)(self.variant)
        await self.send_json({"type": "field", **picture})

    async def field_refresh(self, event: dict[str, Any]) -> None:
        await self.send_field()

    async def field_entry(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "entry", "date": event["date"], "entry": event["entry"]})

    async def resync(self) -> None:
        await self.send_field()
