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
