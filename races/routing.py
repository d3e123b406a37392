from django.urls import re_path

from . import consumers

websocket_urlpatterns = [
    re_path(r"^ws/races/(?P<code>[A-Za-z0-9_-]{1,16})/$", consumers.RaceConsumer.as_asgi()),
]
