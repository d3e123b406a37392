"""Every app's WebSocket routes, for tombsite.asgi (tombsite wires the apps together)."""

from game.routing import websocket_urlpatterns as game_patterns
from leaderboards.routing import websocket_urlpatterns as daily_patterns

websocket_urlpatterns = [*game_patterns, *daily_patterns]
