"""Log-in throttling (django-axes, accounts.throttle): failures count per username from one
address and per address, so a stranger locks only their own address, never a rival; a
locked-out attempt gets 429 and the page says when, without its password being checked.
A browser an account logged in from keeps a signed device cookie, whose attempts count
against that cookie alone: a neighbour behind the same address cannot lock it out."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis.exceptions
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core import signing
from django.core.cache import cache
from django.test import Client

from accounts.throttle import DEVICE_COOKIE

PASSWORD = "tomb-of-the-emperor"
FAILURES = 5  # the defaults: per username and address
IP_FAILURES = 30  # per address
DEVICE_FAILURES = 5  # per device cookie
SHARED = "203.0.113.40"  # a household's NAT: carol and the neighbour share it
LOCKED = b"Too many failed log-in attempts: try again in 15 minutes."


@pytest.fixture(autouse=True)
def limits(settings: Any) -> None:
    settings.LOGIN_THROTTLE_FAILURES = FAILURES
    settings.LOGIN_THROTTLE_IP_FAILURES = IP_FAILURES
    settings.LOGIN_DEVICE_FAILURES = DEVICE_FAILURES
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


# -- the device cookie (OWASP) ------------------------------------------------------

def known_browser(username: str, address: str = SHARED) -> Client:
    """A browser that has logged in to this account once (and logged out): it keeps the
    device cookie."""
    browser = Client(REMOTE_ADDR=address)
    answer = browser.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302 and DEVICE_COOKIE in answer.cookies
    browser.post("/accounts/logout/")
    return browser


def attempt(browser: Client, username: str, password: str) -> Any:
    return browser.post("/accounts/login/", {"username": username, "password": password})


def test_a_neighbour_cannot_lock_out_carols_known_browser(
    carol: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = known_browser("carol")
    checked = checked_passwords(monkeypatch)

    # Enough to lock carol's name from the shared address, and then the address itself.
    neighbour = [log_in("carol", f"guess-{n}", address=SHARED).status_code
                 for n in range(IP_FAILURES + 5)]
    at_home = attempt(home, "carol", PASSWORD)
    another_browser = log_in("carol", PASSWORD, address=SHARED)

    assert neighbour[FAILURES - 1:] == [429] * (IP_FAILURES + 5 - FAILURES + 1)
    assert at_home.status_code == 302 and "_auth_user_id" in home.session
    # Without the cookie carol is one more unknown client of that address: locked, as
    # OWASP's scheme has it, and her password is not even checked.
    assert another_browser.status_code == 429 and LOCKED in another_browser.content
    assert checked.count("carol") == FAILURES + 1  # the neighbour's 5, and carol at home


def test_a_device_cookie_counts_only_its_own_failures(carol: User) -> None:
    home = known_browser("carol")

    typos = [attempt(home, "carol", "wrong").status_code for _ in range(FAILURES - 1)]
    other_browser = log_in("carol", PASSWORD, address=SHARED)

    # The cookie's failures were counted against it alone, not against carol's name from
    # that address, so another browser there logs in.
    assert typos == [200] * (FAILURES - 1)
    assert other_browser.status_code == 302


def test_a_known_browsers_log_in_gives_the_neighbour_no_new_guesses(carol: User) -> None:
    home = known_browser("carol")
    for n in range(FAILURES - 1):
        assert log_in("carol", f"guess-{n}", address=SHARED).status_code == 200

    assert attempt(home, "carol", PASSWORD).status_code == 302
    # Had carol's log-in forgiven her name's failures from the shared address, the
    # neighbour would start a fresh five after each of hers.
    assert log_in("carol", "guess-last", address=SHARED).status_code == 429


def test_a_stolen_cookie_has_its_own_limit(carol: User) -> None:
    home = known_browser("carol")
    thief = Client(REMOTE_ADDR="198.51.100.99")
    thief.cookies[DEVICE_COOKIE] = home.cookies[DEVICE_COOKIE].value

    guesses = [attempt(thief, "carol", f"guess-{n}").status_code for n in range(8)]
    carol_again = known_browser("carol")  # carol logs in meanwhile: her new cookie
    thief_after = attempt(thief, "carol", PASSWORD)

    assert guesses == [200] * (DEVICE_FAILURES - 1) + [429] * (8 - DEVICE_FAILURES + 1)
    assert LOCKED in thief_after.content and thief_after.status_code == 429
    # Her new log-in gave the stolen cookie no new allowance (her home browser still holds
    # that same cookie, locked with it); the new cookie has a counter of its own.
    assert attempt(carol_again, "carol", PASSWORD).status_code == 302
    assert attempt(home, "carol", PASSWORD).status_code == 429


def test_another_accounts_cookie_gives_no_exemption(carol: User, dave: User) -> None:
    neighbour = known_browser("dave")  # the neighbour's own account, their own cookie

    answers = [attempt(neighbour, "carol", f"guess-{n}").status_code for n in range(6)]

    assert answers == [200] * (FAILURES - 1) + [429] * 2
    assert log_in("carol", PASSWORD, address=SHARED).status_code == 429
    assert attempt(neighbour, "dave", PASSWORD).status_code == 302  # their own: exempt


@pytest.mark.parametrize("forged", [
    signing.dumps({"u": "carol", "n": "0" * 32}, key="not-the-site's-key",
                  salt="accounts.throttle.login-device"),
    signing.dumps({"u": "carol", "n": "0" * 32}),  # the site's key, another salt
    "carol",
    "",
])
def test_a_forged_cookie_gives_no_exemption(carol: User, forged: str) -> None:
    for n in range(FAILURES):
        log_in("carol", f"guess-{n}", address=SHARED)
    forger = Client(REMOTE_ADDR=SHARED)
    forger.cookies[DEVICE_COOKIE] = forged

    assert attempt(forger, "carol", PASSWORD).status_code == 429


def test_an_altered_cookie_gives_no_exemption(carol: User, dave: User) -> None:
    for n in range(FAILURES):
        log_in("carol", f"guess-{n}", address=SHARED)
    neighbour = known_browser("dave")
    payload, rest = neighbour.cookies[DEVICE_COOKIE].value.split(":", 1)
    dave_to_carol = signing.b64_encode(signing.b64_decode(payload.encode()).replace(
        b'"dave"', b'"carol"')).decode()
    neighbour.cookies[DEVICE_COOKIE] = f"{dave_to_carol}:{rest}"

    assert attempt(neighbour, "carol", PASSWORD).status_code == 429


def test_an_expired_cookie_gives_no_exemption(carol: User, settings: Any) -> None:
    home = known_browser("carol")
    for n in range(FAILURES):
        log_in("carol", f"guess-{n}", address=SHARED)

    settings.LOGIN_DEVICE_COOKIE_AGE = -1  # every cookie already older than that

    assert attempt(home, "carol", PASSWORD).status_code == 429


@pytest.mark.parametrize("secure", [False, True])
def test_the_device_cookie_is_http_only_lax_and_long_lived(
    carol: User, settings: Any, secure: bool
) -> None:
    settings.SESSION_COOKIE_SECURE = secure

    answer = log_in("carol", PASSWORD)
    cookie = answer.cookies[DEVICE_COOKIE]

    assert cookie["httponly"] is True and cookie["samesite"] == "Lax"
    assert bool(cookie["secure"]) is secure
    assert int(cookie["max-age"]) == settings.LOGIN_DEVICE_COOKIE_AGE >= 300 * 24 * 3600
    assert "carol" not in cookie.value  # signed and encoded, not a bare name
    assert log_in("carol", "wrong").cookies.get(DEVICE_COOKIE) is None  # only on success


def test_signing_up_makes_the_browser_known(db: Any) -> None:
    browser = Client(REMOTE_ADDR=SHARED)
    made = browser.post("/accounts/signup/", {
        "username": "erin", "password1": PASSWORD, "password2": PASSWORD})
    browser.post("/accounts/logout/")
    for n in range(FAILURES):
        log_in("erin", f"guess-{n}", address=SHARED)

    assert made.status_code == 302 and DEVICE_COOKIE in made.cookies
    assert attempt(browser, "erin", PASSWORD).status_code == 302
