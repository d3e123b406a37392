"""Log filters named in settings.LOGGING."""

from __future__ import annotations

import logging


def _drop_traceback(record: logging.LogRecord) -> None:
    record.exc_info = None
    record.exc_text = None
    record.stack_info = None


class WithoutTraceback(logging.Filter):
    """Keep the record's one-line message, drop its traceback.

    For django.security.DisallowedHost: a request with no Host header or a host the
    site does not serve (a scanner, a probe by address) is the client's error, answered
    400; Django logs it with the exception attached, which prints a traceback that
    reads like a server fault on every such request."""

    def filter(self, record: logging.LogRecord) -> bool:
        _drop_traceback(record)
        return True


class AnsweredClientError(logging.Filter):
    """A request the site answered with a 4xx is one WARNING line, without traceback.

    Django's log_response names the status it answered (``record.status_code``). Some
    4xx it logs with the exception attached, a traceback that reads like a server fault:
    a SuspiciousOperation such as RequestDataTooBig (an oversize body, 400) at ERROR, a
    PermissionDenied or BadRequest at WARNING. The client's error is worth a line, not
    a page, and no alarm. A 5xx (and every record without a status) keeps its level and
    its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if not isinstance(status, int) or not 400 <= status < 500:
            return True
        _drop_traceback(record)
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(
            logging.WARNING)
        # Now a WARNING: gone where the logger's level asks for ERROR and above only.
        return logging.getLogger(record.name).isEnabledFor(logging.WARNING)
