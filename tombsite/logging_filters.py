"""Log filters named in settings.LOGGING."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """Keep the record's one-line message, drop its traceback.

    For django.security.DisallowedHost: a request with no Host header or a host the
    site does not serve (a scanner, a probe by address) is the client's error, answered
    400; Django logs it with the exception attached, which prints a traceback that
    reads like a server fault on every such request."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True
