"""WSGI entry point, for management tools; the site itself is served over ASGI."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tombsite.settings")
application = get_wsgi_application()

from tombsite.secrets_check import refuse_to_start_without_secrets  # noqa: E402

refuse_to_start_without_secrets()
