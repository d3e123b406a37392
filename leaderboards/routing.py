from django.urls import re_path

from . import consumers

websocket_urlpatterns = [
    re_path(r"^ws/daily/(?P<variant>[a-z-]{1,16})/$", consumers.FieldConsumer.as_asgi()),
]
