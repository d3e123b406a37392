from django.urls import re_path

from . import consumers

UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

websocket_urlpatterns = [
    re_path(rf"^ws/games/(?P<game_id>{UUID})/$", consumers.GameConsumer.as_asgi()),
]
