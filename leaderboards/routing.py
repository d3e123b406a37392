from django.urls import re_path

from . import consumers

SLUG = "[a-z0-9][a-z0-9-]{0,39}"

websocket_urlpatterns = [
    re_path(rf"^ws/(?P<game>{SLUG})/(?P<variant>{SLUG})/daily/$",
            consumers.FieldConsumer.as_asgi()),
    # The first address, naming only the variant (its slug names the game).
    re_path(rf"^ws/daily/(?P<variant>{SLUG})/$", consumers.FieldConsumer.as_asgi()),
]
