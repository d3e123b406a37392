"""Log-in throttling: after too many failed log-ins for a username or from an address within
the window, attempts are refused with a clear wait, without the password being checked."""

from __future__ import annotations

from typing import Any

import pytest
import redis.exceptions
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tombsite import throttle

PASSWORD = "tomb-of-the-emperor"
FAILURES = 3


@pytest.fixture(autouse=True)
def low_limits(settings: Any) -> None:
    settings.LOGIN_THROTTLE_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_IP_FAILURES = 5
    settings.LOGIN_THROTTLE_WINDOW_SECONDS = 600


def log_in(username: str, password: str, address: str = "10.0.0.1",
           url: str = "/accounts/login/") -> Any:
    return Client(REMOTE_ADDR=address).post(url, {"username": username, "password": password})


def checked_passwords(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords the site actually checked (the real check still runs)."""
    checked: list[str] = []
    real = User.check_password

    def spy(user: User, raw: str) -> bool:
        checked.append(raw)
        return real(user, raw)

    monkeypatch.setattr(User, "check_password", spy)
    return checked


def test_a_username_is_throttled_after_too_many_failures(
    carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(FAILURES):
        assert log_in("carol", "wrong").status_code == 200
    checked = checked_passwords(monkeypatch)

    refused = log_in("Carol", PASSWORD, address="10.0.0.2")  # even right, from elsewhere

    assert refused.status_code == 429
    assert b"Too many failed log-in attempts: try again in 10 minutes." in refused.content
    assert checked == [] and "_auth_user_id" not in refused.client.session
    assert log_in("dave-not-here", "wrong", address="10.0.0.2").status_code == 200


def test_an_address_is_throttled_whatever_the_username(db: Any) -> None:
    for number in range(5):
        log_in(f"guess{number}", "wrong", address="10.0.0.9")

    assert log_in("someone-else", "wrong", address="10.0.0.9").status_code == 429
    assert log_in("someone-else", "wrong", address="10.0.0.10").status_code == 200


def test_the_window_ends_and_a_good_log_in_forgives_the_username(
    carol: User, settings: Any
) -> None:
    for _ in range(FAILURES - 1):
        log_in("carol", "wrong")
    assert log_in("carol", PASSWORD).status_code == 302  # forgives carol's failures
    for _ in range(FAILURES - 1):
        log_in("carol", "wrong", address="10.0.0.3")
    assert log_in("carol", PASSWORD, address="10.0.0.3").status_code == 302

    log_in("carol", "wrong", address="10.0.0.4")
    log_in("carol", "wrong", address="10.0.0.4")
    log_in("carol", "wrong", address="10.0.0.4")
    assert log_in("carol", PASSWORD).status_code == 429
    for counter in throttle.counters("carol", "10.0.0.4"):  # the window runs out
        cache.delete_many([counter.key, f"{counter.key}:until"])
    assert log_in("carol", PASSWORD, address="10.0.0.4").status_code == 302


def test_the_admin_log_in_is_throttled_too(db: Any) -> None:
    User.objects.create_superuser("napoleon", password=PASSWORD)
    url = "/admin/login/?next=/admin/"
    for _ in range(FAILURES):
        log_in("napoleon", "wrong", url=url)

    refused = log_in("napoleon", PASSWORD, url=url)

    assert b"Too many failed log-in attempts" in refused.content
    assert "_auth_user_id" not in refused.client.session


def test_concurrent_guesses_cannot_pass_the_limit(settings: Any) -> None:
    # Each attempt takes its slot before its password is checked: of 20 guesses racing on
    # one username, only FAILURES may reach the password check.
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=8) as pool:
        waits = list(pool.map(lambda n: throttle.reserve_attempt("carol", f"10.1.0.{n}"),
                              range(20)))

    assert waits.count(0) == FAILURES
    assert all(wait > 0 for wait in waits if wait)


def test_a_broken_cache_lets_log_ins_through(carol: User, settings: Any) -> None:
    settings.CACHES = {"default": {  # Django rebuilds its caches on this setting's change
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
    }}
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.get("anything")  # the throttle's cache is really down

    assert log_in("carol", PASSWORD).status_code == 302
