"""The log-in throttle on the real stack: uvicorn (ASGI, so axes' async middleware path),
PostgreSQL, and its counters in Redis. Clients come from distinct loopback addresses
(127.0.0.x), which uvicorn reports as REMOTE_ADDR."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import redis

from .stack import REDIS_BASE, REDIS_DB, Stack, require_services

pytestmark = pytest.mark.integration
PASSWORD = "tomb-of-the-emperor-1821"
LOCKED = "Too many failed log-in attempts: try again in 15 minutes."


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("login-stack"))
    try:
        running.create_database()
        running.start_server()  # log-ins need no worker
        yield running
    finally:
        running.stop()


def client(stack: Stack, address: str) -> tuple[httpx.Client, str]:
    http = httpx.Client(base_url=stack.base_url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=address))
    return http, http.get("/api/csrf/").json()["csrf_token"]


def post(stack: Stack, address: str, path: str, data: dict[str, str]) -> httpx.Response:
    http, token = client(stack, address)
    try:
        return http.post(path, data=data, headers={"X-CSRFToken": token})
    finally:
        http.close()


def test_a_stranger_locks_only_their_own_address(stack: Stack) -> None:
    made = post(stack, "127.0.0.1", "/accounts/signup/",
                {"username": "carol", "password1": PASSWORD, "password2": PASSWORD})
    assert made.status_code == 302, made.text[:300]

    answers = [post(stack, "127.0.0.2", "/accounts/login/",
                    {"username": "carol", "password": f"guess-{n}"}) for n in range(8)]
    from_home = post(stack, "127.0.0.3", "/accounts/login/",
                     {"username": "carol", "password": PASSWORD})

    assert [answer.status_code for answer in answers] == [200] * 4 + [429] * 4
    assert LOCKED in answers[-1].text and 'name="username"' in answers[-1].text
    assert from_home.status_code == 302
    counters = redis.Redis.from_url(f"{REDIS_BASE}/{REDIS_DB}").keys(f"{stack.prefix}*axes-*")
    assert len(counters) == 2  # failures only: carol from .2, and the address .2


def test_a_neighbour_cannot_lock_out_a_known_browser(stack: Stack) -> None:
    """OWASP's device cookie, end to end: the neighbour shares erin's address (a household
    NAT, here 127.0.0.5), fails for her name until the throttle locks that name there;
    erin's own browser, which logged in before, still logs in at once."""
    shared = "127.0.0.5"
    home, token = client(stack, shared)
    try:
        made = home.post("/accounts/signup/", headers={"X-CSRFToken": token}, data={
            "username": "erin", "password1": PASSWORD, "password2": PASSWORD})
        assert made.status_code == 302 and "tomb_login_device" in home.cookies, made.text[:300]
        home.post("/accounts/logout/", headers={"X-CSRFToken": fresh_token(home)})

        neighbour = [post(stack, shared, "/accounts/login/",
                          {"username": "erin", "password": f"guess-{n}"}) for n in range(8)]
        at_home = home.post("/accounts/login/", headers={"X-CSRFToken": fresh_token(home)},
                            data={"username": "erin", "password": PASSWORD})
        other_browser = post(stack, shared, "/accounts/login/",
                             {"username": "erin", "password": PASSWORD})
    finally:
        home.close()

    assert [answer.status_code for answer in neighbour] == [200] * 4 + [429] * 4
    assert at_home.status_code == 302, at_home.text[:300]
    assert other_browser.status_code == 429 and LOCKED in other_browser.text


def fresh_token(http: httpx.Client) -> str:
    # Log-in and log-out rotate the CSRF secret: the page would read the new one.
    return str(http.get("/api/csrf/").json()["csrf_token"])
