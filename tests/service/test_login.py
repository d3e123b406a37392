"""Log-in throttling (django-axes, accounts.throttle): failures count per username from one
address and per address, so a stranger locks only their own address, never a rival; a
locked-out attempt gets 429 and the page says when, without its password being checked."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis.exceptions
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

PASSWORD = "tomb-of-the-emperor"
FAILURES = 5  # the defaults: per username and address
IP_FAILURES = 30  # per address
LOCKED = b"Too many failed log-in attempts: try again in 15 minutes."


@pytest.fixture(autouse=True)
def limits(settings: Any) -> None:
    settings.LOGIN_THROTTLE_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_IP_FAILURES = IP_FAILURES
    settings.LOGIN_THROTTLE_WINDOW_SECONDS = 900


def log_in(username: str, password: str, address: str = "10.0.0.1",
           url: str = "/accounts/login/", **headers: str) -> Any:
    return Client(REMOTE_ADDR=address, **headers).post(
        url, {"username": username, "password": password})


def checked_passwords(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The usernames whose password the site actually checked (the real check still runs)."""
    checked: list[str] = []
    lock = threading.Lock()
    real = ModelBackend.authenticate

    def spy(backend: ModelBackend, request: Any, username: str | None = None,
            password: str | None = None, **kwargs: Any) -> Any:
        with lock:
            checked.append(str(username))
        return real(backend, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", spy)
    return checked


def test_a_stranger_cannot_lock_a_rival_out(carol: User, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = checked_passwords(monkeypatch)

    answers = [log_in("carol", f"guess-{n}", address="203.0.113.66").status_code
               for n in range(50)]
    from_home = log_in("carol", PASSWORD, address="198.51.100.7")

    # The 5th failure locks the stranger's address for carol's name; the rest are refused
    # unchecked (and, past 30, the address is locked outright).
    assert answers == [200] * (FAILURES - 1) + [429] * (50 - FAILURES + 1)
    assert checked.count("carol") == FAILURES + 1  # the stranger's 5, and carol's own
    assert from_home.status_code == 302 and "_auth_user_id" in from_home.client.session


def test_one_address_is_locked_for_a_name_and_the_page_says_when(
    carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(FAILURES - 1):
        assert log_in("carol", "wrong").status_code == 200
    fifth = log_in("carol", "wrong")
    checked = checked_passwords(monkeypatch)

    refused = log_in("carol", PASSWORD)  # even the right password, from that address
    elsewhere = log_in("carol", PASSWORD, address="10.0.0.2")

    assert fifth.status_code == 429 and LOCKED in fifth.content
    assert refused.status_code == 429 and LOCKED in refused.content
    assert b'role="alert"' in refused.content and b'name="username"' in refused.content
    assert "_auth_user_id" not in refused.client.session
    assert checked == ["carol"]  # only the log-in from elsewhere was checked
    assert elsewhere.status_code == 302
    assert log_in("dave-not-here", "wrong").status_code == 200  # other names: not locked


def test_an_address_is_locked_after_30_failures_whatever_the_username(carol: User) -> None:
    for number in range(IP_FAILURES - 1):
        assert log_in(f"guess{number}", "wrong", address="10.0.0.9").status_code == 200
    assert log_in("guess-last", "wrong", address="10.0.0.9").status_code == 429

    refused = log_in("carol", PASSWORD, address="10.0.0.9")

    assert refused.status_code == 429 and LOCKED in refused.content
    assert log_in("carol", PASSWORD, address="10.0.0.10").status_code == 302


def test_forged_forwarded_headers_do_not_change_the_address(carol: User) -> None:
    # Behind the real proxy uvicorn puts the client in REMOTE_ADDR; a header anyone can send
    # must not give each guess an address of its own.
    for n in range(FAILURES):
        log_in("carol", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
               HTTP_X_REAL_IP=f"192.0.2.{n}")

    assert log_in("carol", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.200").status_code == 429


def test_a_good_log_in_forgives_the_name_not_the_address(carol: User, settings: Any) -> None:
    settings.LOGIN_THROTTLE_IP_FAILURES = 2 * (FAILURES - 1) + 1
    for _ in range(FAILURES - 1):
        log_in("carol", "wrong")
    assert log_in("carol", PASSWORD).status_code == 302  # forgives carol's 4 from here
    for _ in range(FAILURES - 1):
        assert log_in("carol", "wrong").status_code == 200  # 4 more: carol is not locked

    # ...but the address counted all 8 failures: the 9th locks it.
    assert log_in("dave-not-here", "wrong").status_code == 429


def test_the_lock_ends_with_the_window(carol: User, settings: Any) -> None:
    settings.LOGIN_THROTTLE_WINDOW_SECONDS = 1
    for _ in range(FAILURES):
        log_in("carol", "wrong")
    assert log_in("carol", PASSWORD).status_code == 429  # and this restarts the second

    time.sleep(1.2)

    assert log_in("carol", PASSWORD).status_code == 302


def test_the_admin_log_in_is_throttled_too(db: Any) -> None:
    User.objects.create_superuser("napoleon", password=PASSWORD)
    url = "/admin/login/?next=/admin/"
    for _ in range(FAILURES):
        log_in("napoleon", "wrong", url=url)

    refused = log_in("napoleon", PASSWORD, url=url)

    assert refused.status_code == 429 and LOCKED in refused.content
    assert b"Site administration" in refused.content or b"Django administration" in refused.content
    assert "_auth_user_id" not in refused.client.session
    assert log_in("napoleon", PASSWORD, url=url, address="10.0.0.2").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_overshoot_by_at_most_the_guesses_in_flight(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Axes checks the lock, then the password, then counts the failure: guesses in flight
    when the 5th failure lands are still checked. The overshoot is at most the guesses in
    flight at once, less one; this measures it with the real (slow) PBKDF2 hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    User.objects.create_user("carol", password=PASSWORD)
    checked = checked_passwords(monkeypatch)
    in_flight, guesses = 8, 24

    with ThreadPoolExecutor(max_workers=in_flight) as pool:
        answers = list(pool.map(
            lambda n: log_in("carol", f"guess-{n}", address="203.0.113.66").status_code,
            range(guesses)))

    overshoot = len(checked) - FAILURES
    print(f"\n{guesses} guesses, {in_flight} at once: {len(checked)} passwords checked "
          f"(limit {FAILURES}, overshoot {overshoot})")
    assert 0 <= overshoot <= in_flight - 1
    assert answers.count(429) >= guesses - len(checked) + 1
    assert log_in("carol", PASSWORD, address="203.0.113.66").status_code == 429
    cache.clear()


def test_a_broken_cache_lets_log_ins_through(carol: User, settings: Any) -> None:
    settings.CACHES = {"default": {  # Django rebuilds its caches on this setting's change
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
    }}
    with pytest.raises(redis.exceptions.ConnectionError):
        cache.get("anything")  # the throttle's cache is really down

    assert log_in("carol", "wrong").status_code == 200
    assert log_in("carol", PASSWORD).status_code == 302
