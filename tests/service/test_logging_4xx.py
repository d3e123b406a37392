"""An answered 4xx is the client's error: at most one WARNING line in the log, no traceback
(tombsite.logging_filters.AnsweredClientError); a 5xx still logs its traceback at ERROR."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from tombsite.logging_filters import AnsweredClientError

OVERSIZE = "x" * (3 * 1024 * 1024)  # past Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB)


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not yours")


def bad(request: HttpRequest) -> HttpResponse:
    raise BadRequest("nonsense")


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a real fault")


# The site's URLs, and three views raising what Django answers 403, 400 and 500.
urlpatterns = [
    path("test/forbidden/", forbidden),
    path("test/bad/", bad),
    path("test/boom/", boom),
    path("", include("tombsite.urls")),
]


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the site's console handler (settings.LOGGING) writes, caught."""
    [handler] = [found for found in logging.getLogger().handlers
                 if any(isinstance(check, AnsweredClientError) for check in found.filters)]
    assert isinstance(handler, logging.StreamHandler)
    written = io.StringIO()
    before = handler.setStream(written)
    yield written
    handler.setStream(before)


def oversize_form(client: Client) -> Any:
    return client.post("/accounts/login/", {"username": "carol", "password": OVERSIZE})


def oversize_json(client: Client) -> Any:
    return client.post("/api/games/", data=f'{{"deal": "{OVERSIZE}"}}',
                       content_type="application/json")


def malformed_json(client: Client) -> Any:
    return client.post("/api/games/", data='{"variant": ', content_type="application/json")


def bad_csrf(client: Client) -> Any:
    return Client(enforce_csrf_checks=True).post(
        "/accounts/login/", {"username": "carol", "password": "x"},
        HTTP_X_CSRFTOKEN="forged")


def not_found(client: Client) -> Any:
    return client.get("/no-such-page/")


def api_not_found(client: Client) -> Any:
    return client.get("/api/no-such-thing/")


def foreign_host(client: Client) -> Any:
    return client.get("/healthz", HTTP_HOST="tomb.example.net")


def permission_denied(client: Client) -> Any:
    return client.get("/test/forbidden/")


def bad_request(client: Client) -> Any:
    return client.get("/test/bad/")


@pytest.mark.urls(__name__)
@pytest.mark.parametrize("request_of", [
    oversize_form, oversize_json, malformed_json, bad_csrf, not_found, api_not_found,
    foreign_host, permission_denied, bad_request,
], ids=lambda request_of: request_of.__name__)
def test_an_answered_4xx_is_one_warning_line_without_traceback(
    db: Any, caplog: pytest.LogCaptureFixture, console: io.StringIO, request_of: Any
) -> None:
    answer = request_of(Client())

    assert 400 <= answer.status_code < 500
    logged = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert len(logged) <= 1, [record.getMessage() for record in logged]
    assert all(record.levelno == logging.WARNING for record in logged)
    assert not any(record.exc_info or record.exc_text for record in caplog.records)
    lines = console.getvalue().splitlines()
    assert len(lines) <= 1 and "Traceback" not in console.getvalue(), lines


@pytest.mark.urls(__name__)
def test_a_real_500_still_logs_its_traceback(
    db: Any, caplog: pytest.LogCaptureFixture, console: io.StringIO
) -> None:
    answer = Client(raise_request_exception=False).get("/test/boom/")

    assert answer.status_code == 500
    [record] = [record for record in caplog.records if record.name == "django.request"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "Traceback" in console.getvalue() and "RuntimeError: a real fault" in console.getvalue()


def test_a_4xx_is_dropped_where_the_log_asks_for_errors_only(
    caplog: pytest.LogCaptureFixture
) -> None:
    # LOG_LEVEL=ERROR: Django created the oversize body's record at ERROR; as the WARNING it
    # now is, it is not written.
    record = logging.LogRecord("django.security.RequestDataTooBig", logging.ERROR, __file__, 1,
                               "Request body exceeded", None, None)
    record.status_code = 400
    with caplog.at_level(logging.ERROR, logger="django.security.RequestDataTooBig"):
        assert AnsweredClientError().filter(record) is False
    assert record.levelname == "WARNING"
