"""The ASGI entry point: Django for HTTP, Channels for /ws/ (one process serves both)."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tombsite.settings")
# Whitenoise streams static files with a sync iterator; under ASGI Django
# warns about it on every file, though it serves them correctly.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
# Django must be set up before the consumers (and their models) are imported.
django_application = get_asgi_application()

from tombsite.secrets_check import refuse_to_start_without_secrets  # noqa: E402

refuse_to_start_without_secrets()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from tombsite.lifespan import StartsDailyMaker  # noqa: E402
from tombsite.origins import SameOriginValidator  # noqa: E402
from tombsite.routing import websocket_urlpatterns  # noqa: E402

# The lifespan start-up (the server process only, never a manage.py command or a
# test that imports this module) starts the embedded default's daily maker.
application = StartsDailyMaker(ProtocolTypeRouter({
    "http": django_application,
    "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
}))
