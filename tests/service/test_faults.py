"""Redis restarts during play, on a stack of its own (never the shared Redis).

The stack's channel layer and Celery broker point at a redis-server this test
starts on a free port, keeping nothing on disk. Players play over WebSockets
while it is killed (SIGKILL) and started again on the same port, twice. The
sockets it breaks close with 1013 ("try again later"); the players reconnect
as the board does and play on: every player has moves acknowledged after
each restart, a hint asked after them is answered by the worker through the
new Redis, every action acknowledged before, during and after is in
PostgreSQL exactly once, and the server logged no traceback.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.asyncio.client import connect

from .live_players import Clock, LivePlayer, ledger_problems, play, start_game
from .redis_server import OwnRedis
from .stack import Stack, Visitor, require_services

pytestmark = pytest.mark.integration
PLAYERS = 6
RESTARTS_AT = (3.0, 12.0)  # seconds into play
DOWN_SECONDS = 1.0
PLAY_SECONDS = 22.0
# Seconds from Redis being back to a player's next ack: the players' backoff (up to 3 s)
# plus a handshake that stalls after the restart (given up after 4 s and retried).
RESUME_WITHIN = 9.0


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path_factory.mktemp("own-redis"))
    server.start()
    yield server
    server.kill()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, own_redis: OwnRedis) -> Iterator[Stack]:
    require_services()
    running = Stack(tmp_path_factory.mktemp("faults-stack"))
    own_redis.point(running.env)
    running.env.update(HINT_BUDGET_SECONDS="0.3")
    try:
        running.start()
        yield running
    finally:
        running.stop()


async def play_through_restarts(
    stack: Stack, own_redis: OwnRedis
) -> tuple[list[LivePlayer], list[float]]:
    players = [LivePlayer(number) for number in range(PLAYERS)]
    async with httpx.AsyncClient(base_url=stack.base_url, timeout=30) as http:
        for player in players:
            http.cookies.clear()
            await start_game(player, http, deal=player.number + 1)
    clock = Clock()
    clock.go(PLAY_SECONDS)
    started = time.monotonic()
    playing = [asyncio.create_task(play(player, stack.base_url, clock, think=0.1))
               for player in players]
    back_at = []
    for restart_at in RESTARTS_AT:
        await asyncio.sleep(started + restart_at - time.monotonic())
        await asyncio.to_thread(own_redis.restart, DOWN_SECONDS)
        back_at.append(time.monotonic())
    await asyncio.gather(*playing)
    return players, back_at


def test_play_resumes_after_redis_restarts_and_nothing_acknowledged_is_lost(
    stack: Stack, own_redis: OwnRedis
) -> None:
    players, back_at = asyncio.run(play_through_restarts(stack, own_redis))

    assert sum(player.reconnects for player in players) >= PLAYERS, "the restarts hit the sockets"
    for player in players:
        for back in back_at:
            after = [at for at in player.acked_at if at > back]
            assert after, f"player {player.number} never played again:\n{story(player, back)}"
            waited = after[0] - back
            assert waited < RESUME_WITHIN, f"player {player.number}:\n{story(player, back)}"
    missing, problems = ledger_problems(stack, players)
    assert (missing, problems) == (0, [])
    assert sum(len(player.acked) for player in players) > PLAYERS * 20


def story(player: LivePlayer, back: float) -> str:
    """A player's connects and drops, in seconds from Redis being back."""
    return "\n".join(f"{at - back:+.2f} {event}" for at, event in player.trace)


def test_a_hint_is_answered_through_the_restarted_redis(
    stack: Stack, own_redis: OwnRedis
) -> None:
    own_redis.restart(DOWN_SECONDS)
    visitor = Visitor(stack)
    game = visitor.new_game(2)

    async def ask() -> dict[str, object]:
        url = f"{stack.ws_url}/ws/games/{game['id']}/"
        for _ in range(20):  # the first sockets after a restart may meet stale connections
            try:
                async with connect(url, origin=stack.base_url,  # type: ignore[arg-type]
                                   additional_headers={"Cookie": visitor.cookie_header}) as socket:
                    await socket.recv()
                    await socket.send(json.dumps({"type": "hint", "seq": 1}))
                    while True:
                        message = json.loads(await asyncio.wait_for(socket.recv(), 30))
                        if message["type"] == "hint":
                            return dict(message)
            except Exception:  # closed with 1013 while the layer reconnects: retry
                await asyncio.sleep(0.5)
        raise AssertionError("no hint after the restart")

    try:
        answer = asyncio.run(ask())
    finally:
        visitor.close()
    assert "hint" in answer and answer["hint"]["move"], answer  # type: ignore[index]


def test_a_rest_move_while_redis_is_down_is_stored_and_answered(
    stack: Stack, own_redis: OwnRedis
) -> None:
    """The move and the REST hint need only PostgreSQL and the solver; telling open
    boards, and the hint's rate limit in the cache, are best effort."""
    visitor = Visitor(stack)
    game = visitor.new_game(2)
    own_redis.kill()
    try:
        answer = visitor.post(f"/api/games/{game['id']}/moves/", {"move": "D"})
        hinted = visitor.post(f"/api/games/{game['id']}/hint/")
    finally:
        own_redis.start()
        visitor.close()
    assert answer.status_code == 200, answer.text
    assert hinted.status_code == 200, hinted.text
    assert hinted.json()["hint"]["move"] and hinted.json()["hints"] == 1
    assert stack.row(game["id"])["version"] == hinted.json()["version"] == 2


def test_the_server_logged_no_traceback(stack: Stack) -> None:
    log = (stack.log_dir / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
