"""Every app's WebSocket routes, for tombsite.asgi (tombsite wires the apps together)."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from game.routing import websocket_urlpatterns as game_patterns
from leaderboards.routing import websocket_urlpatterns as daily_patterns
from races.routing import websocket_urlpatterns as race_patterns

CLOSE_NOT_FOUND = 4404


class NoSuchRoute(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Any other path: refuse the handshake (HTTP 403), where Channels' router would
    raise and uvicorn answer 500 with a traceback in the log (found by fuzzing)."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns = [
    *game_patterns, *daily_patterns, *race_patterns, re_path(r"", NoSuchRoute.as_asgi()),
]
